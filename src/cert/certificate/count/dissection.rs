//! Counting dissections for a certificate: the model in its canonical labelling, the part
//! variables deciding, no symmetry classes, listed by varisat's enumeration on the part
//! variables (the native search does not list).

use super::{CertFamily, Counting, CountingError, Listing};
use crate::puzzle::dissection::DissectionPuzzle;
use crate::puzzle::Family;

impl CertFamily for DissectionPuzzle {
    fn counting(&self, unique: bool) -> Result<Counting, CountingError> {
        if unique {
            return Err(CountingError::NoClasses);
        }
        let model = self.compile();
        let mut decision = vec![false; model.num_vars()];
        for var in self.solution_vars() {
            decision[var.index()] = true;
        }
        let identity = (0..model.num_vars()).collect();
        Ok(Counting {
            model,
            decision,
            group: vec![identity],
        })
    }

    fn listing(&self) -> Listing<DissectionPuzzle> {
        Listing::Varisat {
            variables: "part variables",
            solutions: "dissections",
        }
    }
}
