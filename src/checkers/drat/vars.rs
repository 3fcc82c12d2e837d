//! The checker's own numbering: DIMACS variables mapped to dense internal ones, and a proof
//! read by [`crate::formats::drat`] carried over to internal literal codes.

use crate::formats::drat::{DratProof, DratStep};
use std::collections::HashMap;

/// Maps DIMACS variables to dense internal variables: formula variables keep their number,
/// larger proof variables get the next free numbers in order of appearance.
pub(super) struct VarMap {
    pub(super) base: u32,
    pub(super) extra: HashMap<u32, u32>,
    pub(super) external: Vec<u32>,
}

impl VarMap {
    pub(super) fn new(base: u32) -> Self {
        VarMap {
            base,
            extra: HashMap::new(),
            external: Vec::new(),
        }
    }

    /// Internal literal code `2 * var + negative` of a nonzero DIMACS literal.
    pub(super) fn code(&mut self, literal: i32) -> u32 {
        let var = literal.unsigned_abs();
        let internal = if var <= self.base {
            var
        } else {
            match self.extra.get(&var) {
                Some(&v) => v,
                None => {
                    self.external.push(var);
                    let v = self.base + self.external.len() as u32;
                    self.extra.insert(var, v);
                    v
                }
            }
        };
        2 * internal + u32::from(literal < 0)
    }

    /// The DIMACS literal of an internal literal code.
    pub(super) fn dimacs(&self, code: u32) -> i32 {
        let internal = code >> 1;
        let var = if internal <= self.base {
            internal
        } else {
            self.external[(internal - self.base - 1) as usize]
        };
        if code & 1 == 1 {
            -(var as i32)
        } else {
            var as i32
        }
    }

    pub(super) fn num_internal(&self) -> usize {
        self.base as usize + self.external.len()
    }
}

/// A proof's steps over one literal arena of internal codes.
pub(super) struct ParsedProof {
    pub(super) steps: Vec<DratStep>,
    pub(super) lits: Vec<u32>,
}

impl ParsedProof {
    /// `proof`'s literals numbered by `vars`, in the proof's order (so that its extension
    /// variables are numbered in order of appearance).
    pub(super) fn new(proof: DratProof, vars: &mut VarMap) -> ParsedProof {
        // Literals and codes are both 32 bits: the arena is converted in place.
        let lits = proof.literals.into_iter().map(|l| vars.code(l)).collect();
        ParsedProof {
            steps: proof.steps,
            lits,
        }
    }

    pub(super) fn step_lits(&self, step: &DratStep) -> &[u32] {
        &self.lits[step.start..step.start + step.len]
    }
}
