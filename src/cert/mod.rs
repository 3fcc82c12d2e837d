//! Certificates for unsatisfiability: solver proofs, checked by our own checkers
//! ([`crate::checkers`]).
//!
//! [`refute`] runs varisat and records its proofs. [`certificate`] puts them together: `puzzlec prove` writes a certificate folder and
//! `puzzlec check` re-verifies it. [`cuts`] records and checks the cuts of lazy constraints
//! (a dissection's connected parts) that a refutation needed. [`certificate::table`] certifies a
//! maximum packing by its Russian-doll table, one small refutation per entry.

pub mod certificate;
pub mod cuts;
pub mod refute;
