//! CPLEX LP files for external MILP solvers (CBC, GLPK, HiGHS...): the names, writer and
//! reader live in [`crate::formats::lp`]; this module keeps the paths that name them here.

pub use crate::formats::lp::{lp_names, read_lp, write_lp, LpParseError, LpWriter};
