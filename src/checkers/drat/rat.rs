//! Checking one lemma: reverse unit propagation first, then the RAT property on its pivot,
//! each resolution candidate found through occurrence lists built on the first RAT attempt.

use super::clauses::{Checker, ACTIVE, TAUTOLOGY};
use super::NONE;

/// How a lemma was verified.
pub(super) enum Verdict {
    Rup,
    Rat,
    Failed,
}

impl Checker {
    /// Builds occurrence lists of the clauses with ids below `limit`.
    pub(super) fn build_occurrences(&mut self, limit: u32) {
        let mut occurrences = vec![Vec::new(); self.value.len()];
        for id in 0..limit {
            if self.flag(id, TAUTOLOGY) {
                continue;
            }
            for &l in self.lits(id) {
                occurrences[l as usize].push(id);
            }
        }
        self.occurrences = Some(occurrences);
    }

    /// Removes a lemma that is being undone in the backward pass from the occurrence lists, where
    /// it is the last entry of each of its literals' lists.
    pub(super) fn forget_occurrences(&mut self, id: u32) {
        if self.flag(id, TAUTOLOGY) {
            return;
        }
        let Some(mut occurrences) = self.occurrences.take() else {
            return;
        };
        for &l in self.lits(id) {
            let list = &mut occurrences[l as usize];
            if list.last() == Some(&id) {
                list.pop();
            }
        }
        self.occurrences = Some(occurrences);
    }

    /// Assigns the negations of `lits` (skipping `skip`) as assumptions. Returns the variable of a
    /// literal that is already true (a conflict), if any.
    pub(super) fn assume_negations(
        &mut self,
        lits: std::ops::Range<usize>,
        skip: u32,
    ) -> Option<u32> {
        for k in lits {
            let l = self.arena[k];
            if l == skip {
                continue;
            }
            match self.value[l as usize] {
                1 => return Some(l >> 1),
                -1 => {}
                _ => self.assign(l ^ 1, NONE),
            }
        }
        None
    }

    /// Checks the (already deactivated) lemma `id` against the active clauses and the current
    /// top-level trail, marking the clauses used on success.
    pub(super) fn verify(&mut self, id: u32) -> Verdict {
        self.top = self.trail.len();
        self.head = self.top;
        let c = &self.clauses[id as usize];
        let (start, len, pivot) = (c.start, c.len as usize, c.pivot);
        if let Some(var) = self.assume_negations(start..start + len, NONE) {
            self.analyze(None, Some(var));
            self.undo_to(self.top);
            return Verdict::Rup;
        }
        if let Some(conflict) = self.propagate_core_first() {
            self.analyze(Some(conflict), None);
            self.undo_to(self.top);
            return Verdict::Rup;
        }
        if pivot == NONE {
            self.undo_to(self.top);
            return Verdict::Failed;
        }
        if self.occurrences.is_none() {
            self.build_occurrences(id);
        }
        let mut occurrences = self.occurrences.take().expect("occurrence lists exist");
        let negated = pivot ^ 1;
        let after = self.trail.len();
        let mut ok = true;
        for &candidate in &occurrences[negated as usize] {
            if !self.flag(candidate, ACTIVE) {
                continue;
            }
            let d = &self.clauses[candidate as usize];
            let range = d.start..d.start + d.len as usize;
            if let Some(var) = self.assume_negations(range, negated) {
                self.analyze(None, Some(var));
            } else if let Some(conflict) = self.propagate_core_first() {
                self.analyze(Some(conflict), None);
            } else {
                ok = false;
            }
            self.undo_to(after);
            if !ok {
                break;
            }
        }
        // Keep the candidate list where `forget_occurrences` expects it.
        self.occurrences = Some(std::mem::take(&mut occurrences));
        self.undo_to(self.top);
        if ok {
            Verdict::Rat
        } else {
            Verdict::Failed
        }
    }
}
