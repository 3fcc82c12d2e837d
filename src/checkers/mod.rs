//! Proof checkers of our own, the judges of every refutation puzzlec reports: [`lrat`]
//! checks LRAT proofs and [`drat`] DRAT proofs (RUP and RAT, backward with core marking)
//! against a formula in DIMACS clauses (`Vec<i32>`), read through [`crate::formats`] (as
//! varisat's checker reads through varisat-dimacs), and [`pb`] VeriPB 3.0 pseudo-Boolean
//! proofs against an OPB formula. They import nothing of the crate but the file formats,
//! and share no code with each other or with any solver, so a verdict depends on no solver,
//! encoder or driver code. They sit at the bottom of the layers: the certificates and the
//! external SAT oracle both use them.

pub mod drat;
pub mod lrat;
pub mod pb;
