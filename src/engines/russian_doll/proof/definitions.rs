//! The proof's auxiliary variables, defined by `red` both ways: `u{q}_{k}`, "at least `k`
//! placements from `q` on", with the counter steps derived from it, and `e{q}_{w}`, "no
//! placement from `q` on covers `w`".

use super::super::window::Window;
use super::cells::set_bit;
use super::model::x;
use super::{Counter, Free, Prover};
use crate::formats::lines::WriteError;
use crate::formats::opb::Lit;

impl<'p, W: Window> Prover<'p, W> {
    /// The kept placements starting at `q` or later, as literals.
    fn suffix(&self, q: usize) -> impl Iterator<Item = Lit> + '_ {
        let from = self.prep.starts[q] as usize;
        (from..self.prep.index.len()).map(|i| x(self.prep.index[i]))
    }

    pub(super) fn suffix_len(&self, q: usize) -> usize {
        self.prep.index.len() - self.prep.starts[q] as usize
    }

    /// Defines `e{q}_{w}` for every `q >= from` and every cell `w` of the window at `q`
    /// that a placement starting at `q` or later covers (a shard's search never looks
    /// before its first entry).
    pub(super) fn define_frees(&mut self, from: usize) -> Result<(), WriteError> {
        let n = self.prep.cells;
        let width = self.prep.reach;
        self.frees = vec![None; (n + 1) * width];
        self.named_cells = vec![(0, 0); n + 1];
        for q in from..n {
            for offset in 0..width.min(n - q) {
                let w = q + offset;
                let later: Vec<u32> = self
                    .covering(w, q)
                    .iter()
                    .map(|&(_, i)| self.prep.index[i as usize] as u32)
                    .collect();
                if later.is_empty() {
                    continue;
                }
                // No placement starting at q - 1 covers w: the same placements, so the same
                // variable.
                if q > from && self.covering(w, q - 1).len() == later.len() {
                    if let Some(before) = self.free(q - 1, w) {
                        self.frees[q * width + offset] = Some(before);
                        set_bit(&mut self.named_cells[q], offset);
                        continue;
                    }
                }
                let var = self.names.intern(&format!("e{q}_{w}"));
                let e = Lit::new(var, false);
                let m = later.len() as i64;
                let mut terms = vec![(m, e.negate())];
                terms.extend(later.iter().map(|&i| (1, x(i as usize).negate())));
                let implies = self.red(terms, m, var, false)?;
                let mut terms = vec![(1, e)];
                terms.extend(later.iter().map(|&i| (1, x(i as usize))));
                let implied = self.red(terms, 1, var, true)?;
                self.frees[q * width + offset] = Some(Free {
                    var,
                    implies,
                    implied,
                });
                set_bit(&mut self.named_cells[q], offset);
            }
        }
        Ok(())
    }

    /// The placements covering scan cell `w` whose first cell is `q` or later, as
    /// `(first cell, placement)`, later first cells first.
    pub(super) fn covering(&self, w: usize, q: usize) -> &[(u32, u32)] {
        let e = &self.engine;
        let list = &e.covering[e.covering_starts[w] as usize..e.covering_starts[w + 1] as usize];
        let end = list.partition_point(|&(first, _)| first as usize >= q);
        &list[..end]
    }

    #[inline]
    pub(super) fn free(&self, q: usize, w: usize) -> Option<Free> {
        let offset = w.checked_sub(q)?;
        let width = self.prep.reach;
        if offset >= width {
            return None;
        }
        self.frees.get(q * width + offset).copied().flatten()
    }

    /// Defines `u{q}_{k}` for the next `k` (they are defined in order from 1), with what is
    /// derived from it; `u{q+1}_{k-1}` and `u{q+1}_{k}` must be defined where they exist.
    pub(super) fn define_counter(&mut self, q: usize) -> Result<(), WriteError> {
        let k = self.counters[q].len() + 1;
        let var = self.names.intern(&format!("u{q}_{k}"));
        let u = Lit::new(var, false);
        let size = self.suffix_len(q);
        let ki = k as i64;
        let mut terms = vec![(ki, u.negate())];
        terms.extend(self.suffix(q).map(|l| (1, l)));
        let implies = self.red(terms, ki, var, false)?;
        let implied = if k <= size {
            let slack = (size - k + 1) as i64;
            let mut terms = vec![(slack, u)];
            terms.extend(self.suffix(q).map(|l| (1, l.negate())));
            Some(self.red(terms, slack, var, true)?)
        } else {
            None
        };
        let next_implied = |this: &Self, j: usize| -> Option<u64> {
            (j >= 1)
                .then(|| this.counters.get(q + 1)?.get(j - 1)?.implied)
                .flatten()
        };
        let starting = if q < self.prep.cells {
            (self.prep.starts[q + 1] - self.prep.starts[q]) as usize
        } else {
            0
        };
        let (mut fewer, mut later, mut monotone) = (implies, implies, implies);
        if q < self.prep.cells {
            if k >= 2 {
                let mut ids = vec![implies];
                ids.extend(next_implied(self, k - 1));
                if starting >= 2 {
                    ids.push(self.amo[q].expect("two placements start here"));
                }
                fewer = if ids.len() > 1 {
                    self.pol_sum(&ids)?
                } else {
                    implies
                };
            }
            if let Some(next) = next_implied(self, k) {
                later = self.pol_sum(&[implies, next])?;
            }
        }
        if k >= 2 {
            let below = self.counters[q][k - 2]
                .implied
                .expect("u{q}_{k-1} is defined both ways");
            monotone = self.pol_sum(&[implies, below])?;
        }
        self.counters[q].push(Counter {
            var,
            implies,
            implied,
            fewer,
            later,
            monotone,
        });
        Ok(())
    }

    pub(super) fn counter(&self, q: usize, k: usize) -> Counter {
        self.counters[q][k - 1]
    }

    /// The cells of key words `words` at `q` that have an `e` variable, as key words.
    pub(super) fn named(&self, q: usize, words: (u64, u64)) -> (u64, u64) {
        let (lo, hi) = self.named_cells.get(q).copied().unwrap_or_default();
        (words.0 & lo, words.1 & hi)
    }

    /// The cells of `window` at `q` kept by `kept` (key words) that have an `e`
    /// variable, as key words.
    pub(super) fn key_cells(&self, q: usize, window: W, kept: (u64, u64)) -> (u64, u64) {
        let (lo, hi) = window.key().expect("proof windows have at most 128 bits");
        self.named(q, (lo & kept.0, hi & kept.1))
    }
}
