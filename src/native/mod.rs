//! Native (hand-written) searches that answer a puzzle without a SAT or MILP backend.

pub mod dissection;
