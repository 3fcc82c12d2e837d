//! Oracles: the solvers that answer questions about an encoded model. varisat (in-process,
//! incremental), microlp and HiGHS through good_lp, and external programs (SAT solvers on
//! DIMACS files, MILP solvers on LP files), each checked before its answer is used.

pub mod external;
pub mod external_milp;
pub mod external_sat;
#[cfg(feature = "highs")]
pub mod highs;
pub mod microlp;
pub mod projected;
pub mod varisat;
