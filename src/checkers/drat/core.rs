//! The forward pass to the first conflict and the backward pass that checks, in reverse,
//! only the lemmas marked as core by the conflict analyses of the steps that need them.

use super::clauses::{set_hash, Checker, ACTIVE, CORE, TAUTOLOGY};
use super::rat::Verdict;
use super::vars::{ParsedProof, VarMap};
use super::{DratError, DratSummary, NONE};

impl Checker {
    /// Marks as core every clause in the implication graph of a conflict: the falsified clause
    /// `conflict` and/or the true literal of variable `var`.
    pub(super) fn analyze(&mut self, conflict: Option<u32>, var: Option<u32>) {
        self.stack.clear();
        if let Some(c) = conflict {
            self.flags[c as usize] |= CORE;
            let c = &self.clauses[c as usize];
            self.stack.extend(
                self.arena[c.start..c.start + c.len as usize]
                    .iter()
                    .map(|&l| l >> 1),
            );
        }
        self.stack.extend(var);
        while let Some(v) = self.stack.pop() {
            let vi = v as usize;
            if self.seen[vi] {
                continue;
            }
            self.seen[vi] = true;
            self.seen_list.push(v);
            if self.justified[vi] {
                continue;
            }
            let r = self.reason[vi];
            if r == NONE {
                continue;
            }
            if (self.position[vi] as usize) < self.top {
                self.justified[vi] = true;
            }
            self.flags[r as usize] |= CORE;
            let c = &self.clauses[r as usize];
            for &l in &self.arena[c.start..c.start + c.len as usize] {
                let u = l >> 1;
                if u != v && !self.seen[u as usize] {
                    self.stack.push(u);
                }
            }
        }
        for v in self.seen_list.drain(..) {
            self.seen[v as usize] = false;
        }
    }

    pub(super) fn is_reason(&self, clause: u32) -> bool {
        let c = &self.clauses[clause as usize];
        if c.len == 0 || self.flags[clause as usize] & TAUTOLOGY != 0 {
            return false;
        }
        let lit = self.arena[c.start];
        self.value[lit as usize] == 1 && self.reason[(lit >> 1) as usize] == clause
    }

    /// Finds an active clause with the literal set of `lits` for deletion: `Ok(id)` for one that is
    /// not a unit reason, `Err(true)` if every match is a reason, `Err(false)` if there is none.
    pub(super) fn find_for_deletion(&mut self, lits: &[u32]) -> Result<u32, bool> {
        let generation = self.next_generation();
        self.scratch.clear();
        for &l in lits {
            if self.stamp[l as usize] != generation {
                self.stamp[l as usize] = generation;
                self.scratch.push(l);
            }
        }
        let key = set_hash(&self.scratch);
        let Some(bucket) = self.table.get(&key) else {
            return Err(false);
        };
        let mut found_reason = false;
        let mut chosen = None;
        for (index, &id) in bucket.iter().enumerate().rev() {
            let c = &self.clauses[id as usize];
            let same = self.flags[id as usize] & ACTIVE != 0
                && c.len as usize == self.scratch.len()
                && self.arena[c.start..c.start + c.len as usize]
                    .iter()
                    .all(|&l| self.stamp[l as usize] == generation);
            if !same {
                continue;
            }
            if self.is_reason(id) {
                found_reason = true;
            } else {
                chosen = Some((index, id));
                break;
            }
        }
        match chosen {
            Some((index, id)) => {
                let bucket = self.table.get_mut(&key).expect("bucket exists");
                bucket.remove(index);
                if bucket.is_empty() {
                    self.table.remove(&key);
                }
                Ok(id)
            }
            None => Err(found_reason),
        }
    }

    /// Adds a lemma during the forward pass (trail at a fixpoint without conflict), choosing
    /// watches and propagating. Returns a conflict clause if unit propagation now fails.
    pub(super) fn add_lemma(&mut self, id: u32) -> Option<u32> {
        if !self.is_watched(id) {
            self.activate(id);
        }
        if self.flag(id, TAUTOLOGY) {
            return None;
        }
        let c = &self.clauses[id as usize];
        let (start, len) = (c.start, c.len as usize);
        if len == 1 {
            let lit = self.arena[start];
            return match self.value[lit as usize] {
                1 => None,
                -1 => Some(id),
                _ => {
                    self.assign(lit, id);
                    self.propagate()
                }
            };
        }
        // Watch the two best literals: true, then unassigned, then the latest falsified.
        let rank = |s: &Self, lit: u32| -> u64 {
            match s.value[lit as usize] {
                1 => u64::MAX,
                0 => u64::MAX - 1,
                _ => u64::from(s.position[(lit >> 1) as usize]),
            }
        };
        for slot in 0..2 {
            let mut best = start + slot;
            for k in start + slot + 1..start + len {
                if rank(self, self.arena[k]) > rank(self, self.arena[best]) {
                    best = k;
                }
            }
            self.arena.swap(start + slot, best);
        }
        self.activate(id);
        let (first, second) = (self.arena[start], self.arena[start + 1]);
        match (self.value[first as usize], self.value[second as usize]) {
            (-1, _) => Some(id),
            (0, -1) => {
                self.assign(first, id);
                self.propagate()
            }
            _ => None,
        }
    }

    /// Runs the forward and backward passes.
    pub(super) fn run(
        &mut self,
        formula: &[Vec<u32>],
        proof: &ParsedProof,
        vars: &VarMap,
        summary: &mut DratSummary,
    ) -> Result<(), DratError> {
        // Formula: store, watch, then propagate the units.
        let mut conflict = None;
        for lits in formula {
            let id = self.store(lits);
            self.activate(id);
        }
        for id in 0..formula.len() as u32 {
            let c = &self.clauses[id as usize];
            if c.len != 1 || conflict.is_some() {
                continue;
            }
            let lit = self.arena[c.start];
            match self.value[lit as usize] {
                1 => {}
                -1 => conflict = Some(id),
                _ => self.assign(lit, id),
            }
        }
        if conflict.is_none() {
            conflict = self.propagate();
        }
        let steps = &proof.steps;
        let explicit_empty_from =
            |from: usize| steps[from..].iter().any(|s| !s.delete && s.len == 0);
        if conflict.is_some() {
            if !explicit_empty_from(0) {
                return Err(DratError::NoExplicitEmptyClause {
                    refuted_after: None,
                });
            }
            return Ok(());
        }

        // Forward pass up to the first conflict.
        let mut step_clause = vec![NONE; steps.len()];
        let mut trail_before = vec![0u32; steps.len()];
        let mut last = None;
        for (index, step) in steps.iter().enumerate() {
            let lits = proof.step_lits(step);
            if step.delete {
                match self.find_for_deletion(lits) {
                    Ok(id) => {
                        self.deactivate(id);
                        step_clause[index] = id;
                    }
                    Err(true) => summary.ignored_unit_deletions += 1,
                    Err(false) => summary.missing_deletions += 1,
                }
                continue;
            }
            if lits.is_empty() {
                return Err(DratError::EmptyClauseNotImplied { at: step.at });
            }
            trail_before[index] = self.trail.len() as u32;
            let id = self.store(lits);
            step_clause[index] = id;
            if let Some(c) = self.add_lemma(id) {
                conflict = Some(c);
                last = Some(index);
                break;
            }
        }
        let (Some(conflict), Some(last)) = (conflict, last) else {
            return Err(DratError::NoEmptyClause);
        };
        if !explicit_empty_from(last + 1) {
            return Err(DratError::NoExplicitEmptyClause {
                refuted_after: Some(steps[last].at),
            });
        }
        summary.steps_checked = last + 1;

        // Backward pass.
        self.top = self.trail.len();
        self.analyze(Some(conflict), None);
        for index in (0..=last).rev() {
            let step = &steps[index];
            let id = step_clause[index];
            if step.delete {
                if id != NONE {
                    self.activate(id);
                }
                continue;
            }
            self.undo_to(trail_before[index] as usize);
            self.deactivate(id);
            self.forget_occurrences(id);
            if !self.flag(id, CORE) {
                continue;
            }
            match self.verify(id) {
                Verdict::Rup => summary.core_lemmas += 1,
                Verdict::Rat => {
                    summary.core_lemmas += 1;
                    summary.rat_lemmas += 1;
                }
                Verdict::Failed => {
                    return Err(DratError::NotImplied {
                        at: step.at,
                        lemma: proof
                            .step_lits(step)
                            .iter()
                            .map(|&l| vars.dimacs(l))
                            .collect(),
                    })
                }
            }
        }
        Ok(())
    }
}
