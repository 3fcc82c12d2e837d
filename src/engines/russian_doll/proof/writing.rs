//! The lines the prover writes, each numbered as the checker numbers it, and the hint
//! lists' buffers, reused from line to line.

use super::super::window::Window;
use super::caches::Hints;
use super::cells::bits;
use super::Prover;
use crate::formats::lines::WriteError;
use crate::formats::opb::{Constraint, Lit, Relation};
use crate::formats::veripb::{
    push_clause_rup, push_delete, push_pol, push_pol_sum, push_step, PolItem, Step, WitnessValue,
};

impl<'p, W: Window> Prover<'p, W> {
    /// Writes `step`; the ID of the constraint it adds.
    pub(super) fn step(&mut self, step: &Step) -> Result<u64, WriteError> {
        self.step_plain(step)?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `red constraint : var -> value ;` (a definition of the fresh `var`).
    pub(super) fn red(
        &mut self,
        terms: Vec<(i64, Lit)>,
        rhs: i64,
        var: u32,
        value: bool,
    ) -> Result<u64, WriteError> {
        self.step(&Step::Red {
            constraint: Constraint {
                terms,
                relation: Relation::AtLeast,
                rhs,
            },
            witness: vec![(var, WitnessValue::Constant(value))],
        })
    }

    pub(super) fn pol(&mut self, items: Vec<PolItem>) -> Result<u64, WriteError> {
        let names = &self.names;
        self.out.put_bytes(|l| push_pol(l, &items, names))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `pol a b + [c +] ;`
    pub(super) fn pol_sum(&mut self, ids: &[u64]) -> Result<u64, WriteError> {
        self.out
            .put_bytes(|l| push_pol_sum(l, ids.iter().copied()))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `rup` of the clause `lits` with `hints`.
    pub(super) fn rup(
        &mut self,
        lits: impl IntoIterator<Item = Lit>,
        hints: impl IntoIterator<Item = u64>,
    ) -> Result<u64, WriteError> {
        let names = &self.names;
        self.out
            .put_bytes(|l| push_clause_rup(l, lits, hints, names))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// A step that adds no constraint.
    pub(super) fn step_plain(&mut self, step: &Step) -> Result<(), WriteError> {
        let names = &self.names;
        self.out.put(|l| push_step(l, step, names))
    }

    /// `del id ..;` of `ids`.
    pub(super) fn delete(&mut self, ids: impl IntoIterator<Item = u64>) -> Result<(), WriteError> {
        self.out.put_bytes(|l| push_delete(l, ids))
    }

    /// Writes the `rup` of the clause `~e{q}_{w}` for the cells `w` of key words `cells`
    /// (each with an `e` variable), then `extra`, with `hints`.
    pub(super) fn clause(
        &mut self,
        q: usize,
        cells: (u64, u64),
        extra: &[Lit],
        hints: impl IntoIterator<Item = u64>,
    ) -> Result<u64, WriteError> {
        let width = self.prep.reach;
        let frees = &self.frees[q * width..(q + 1) * width];
        let lits = bits(cells)
            .map(|b| Lit::new(frees[b].expect("the cell has an e variable").var, true))
            .chain(extra.iter().copied());
        let names = &self.names;
        self.out
            .put_bytes(|l| push_clause_rup(l, lits, hints, names))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// An empty list of IDs, its buffer reused.
    pub(super) fn spare(&mut self) -> Vec<u64> {
        self.spare_hints.pop().unwrap_or_default()
    }

    /// Keeps the buffer of a list of IDs that has been written, for [`Prover::spare`].
    pub(super) fn keep(&mut self, mut ids: Vec<u64>) {
        ids.clear();
        self.spare_hints.push(ids);
    }

    /// An empty hint list, its buffer reused.
    pub(super) fn hints(&mut self) -> Hints {
        Hints {
            ids: self.spare(),
            ..Hints::default()
        }
    }

    /// Keeps the buffer of a hint list that has been written.
    pub(super) fn recycle(&mut self, hints: Hints) {
        self.keep(hints.ids);
    }
}
