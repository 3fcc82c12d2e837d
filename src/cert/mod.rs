//! Certificates for unsatisfiability: solver proofs and our own independent LRAT checker.
//!
//! [`refute`] runs varisat and records its proofs; [`lrat`] checks an LRAT proof and [`drat`] a
//! DRAT proof against the formula without trusting any solver code (nor each other: they share
//! no code). Both speak plain DIMACS clauses (`Vec<i32>`).
//! [`certificate`] puts them together: `puzzlec prove` writes a certificate folder and
//! `puzzlec check` re-verifies it. [`cuts`] records and checks the cuts of lazy constraints
//! (a dissection's connected parts) that a refutation needed.

pub mod certificate;
pub mod cuts;
pub mod drat;
pub mod lrat;
pub mod refute;
