//! The search that writes its proof: each exhausted node's clause, from its children's
//! chains, the memo's clauses and the table entries that cut them.

use super::super::memo::{key_of, Key};
use super::super::window::Window;
use super::caches::Hints;
use super::cells::{bit, bits, set_bit, ALL};
use super::model::x;
use super::Counter;
use super::Prover;
use crate::formats::lines::WriteError;
use crate::formats::opb::{Constraint, Lit, Relation};
use crate::formats::veripb::{ConstraintId, Hint, Step};

/// The end of a child's chain: why the state it reaches cannot hold the pieces it needs.
enum Closed {
    /// The hints, from the child's origin on, that propagate to a conflict with
    /// `u{q}_{need}` true, or, without it, to `~u{q}_{need}`: the lines that make the
    /// state's cells free, then the clause that refutes it and the chain of `u` lines back
    /// to `u{q}_{need}` (a clause propagates either way).
    Refuted(Hints),
    /// A packing of the target was found.
    Found,
}

/// Where a child's covered cells come from: the parent's cell `q` (its window's cells,
/// whose `e{q}` its clause assumes) and the placement put there, if any.
#[derive(Clone, Copy)]
struct Origin {
    q: usize,
    placed: Option<usize>,
    /// The placed placement's cells from `q` on, as key words (none if nothing is placed).
    mask: (u64, u64),
}

impl<'p, W: Window> Prover<'p, W> {
    /// The hint that, from a child's origin, makes every placement covering `w` that
    /// starts after the origin's cell false: `w`'s at-most-one if the origin's placement
    /// covers `w`, else the first half of `e{origin}_{w}` (which the origin's clause
    /// assumes). `None`: no such placement.
    /// Pushes it onto `hints`, noting the origin's cell it assumes.
    #[inline]
    fn source(&mut self, origin: Origin, w: usize, hints: &mut Hints) -> Result<(), WriteError> {
        // A cell is often the source of several (dead cells blocked by one covered cell):
        // its hint once, without the search for a repeat.
        if let Some(offset) = w.checked_sub(origin.q).filter(|&o| o < 128) {
            if bit(hints.sourced, offset) {
                return Ok(());
            }
            set_bit(&mut hints.sourced, offset);
        }
        match origin.placed {
            Some(i) if self.covers(origin, w) => {
                // Every cell of the placement has the same line: pushed once, without the
                // search for a repeat.
                if !hints.excluded {
                    if let Some(id) = self.excludes(origin.q, i)? {
                        hints.push(id);
                    }
                    hints.excluded = true;
                }
            }
            _ => {
                if let Some(free) = self.free(origin.q, w) {
                    hints.assume(w - origin.q);
                    hints.push(free.implies);
                }
            }
        }
        Ok(())
    }

    /// The line "placement `i` (first cell `q`) excludes every placement that starts
    /// after `q` and meets it", `R ~x_i + ~x_r1 + .. + ~x_rR >= R`, by its cells'
    /// at-most-ones; derived at its first use (`None`: no such placement).
    #[inline]
    fn excludes(&mut self, q: usize, i: usize) -> Result<Option<u64>, WriteError> {
        match self.excluding[i] {
            Some(known) => Ok(known),
            None => self.derive_excludes(q, i),
        }
    }

    /// [`Prover::excludes`] the first time: derives the line and keeps its ID.
    #[cold]
    fn derive_excludes(&mut self, q: usize, i: usize) -> Result<Option<u64>, WriteError> {
        let mut met: Vec<u32> = Vec::new();
        let mut hints = Vec::new();
        for &k in &self.prep.relative[i] {
            let later = self.covering(q + k, q + 1);
            if !later.is_empty() {
                met.extend(later.iter().map(|&(_, r)| r));
                hints.extend(self.amo[q + k]);
            }
        }
        met.sort_unstable();
        met.dedup();
        let id = if met.is_empty() {
            None
        } else {
            let r = met.len() as i64;
            let mut terms = vec![(r, x(self.prep.index[i]).negate())];
            terms.extend(
                met.iter()
                    .map(|&m| (1, x(self.prep.index[m as usize]).negate())),
            );
            Some(
                self.step(&Step::Rup {
                    constraint: Constraint {
                        terms,
                        relation: Relation::AtLeast,
                        rhs: r,
                    },
                    hints: Some(
                        hints
                            .into_iter()
                            .map(|id| Hint::Id(ConstraintId::Absolute(id)))
                            .collect(),
                    ),
                })?,
            )
        };
        self.excluding[i] = Some(id);
        Ok(id)
    }

    /// The line that makes `u{to}_{k}` true from `u{from}_{k}` once every placement
    /// starting in `from..to` is false (none when `from == to`): the carry `later` for one
    /// cell, a `pol` of the two definitions derived once per jump otherwise.
    fn jump(&mut self, from: usize, to: usize, k: usize) -> Result<Option<u64>, WriteError> {
        if from == to {
            return Ok(None);
        }
        if to == from + 1 {
            return Ok(Some(self.counter(from, k).later));
        }
        if let Some(&id) = self.jumps.get(&(from as u32, to as u32, k as u32)) {
            return Ok(Some(id));
        }
        let implies = self.counter(from, k).implies;
        // Without `u{to}_{k}`'s second half (more than the placements left), the first
        // alone refutes.
        let id = match self.counters[to].get(k - 1).and_then(|c| c.implied) {
            Some(implied) => self.pol_sum(&[implies, implied])?,
            None => implies,
        };
        self.jumps.insert((from as u32, to as u32, k as u32), id);
        Ok(Some(id))
    }

    /// The hints that make `e{q}_{w}` true for the cells of the clause cited at `(q,
    /// window)`, from the child's origin: those of `window` (the child's own covered
    /// cells) and its dead cells in `filled`, as far as `kept` keeps them.
    fn establish(
        &mut self,
        origin: Origin,
        q: usize,
        (window, filled): (W, W),
        kept: (u64, u64),
        hints: &mut Hints,
    ) -> Result<(), WriteError> {
        let (lo, hi) = window.key().expect("proof windows have at most 128 bits");
        for b in bits(self.key_cells(q, filled, kept)) {
            let w = q + b;
            let free = self.free(q, w).expect("the cell has an e variable");
            if bit((lo, hi), b) {
                let inherited = !self.covers(origin, w)
                    && self.free(origin.q, w).is_some_and(|f| f.var == free.var);
                if inherited {
                    // The origin's clause assumes this very variable.
                    hints.assume(w - origin.q);
                    continue;
                }
                self.source(origin, w, hints)?;
            } else {
                // Dead: every placement over `w` from `q` on meets a covered cell. Many meet
                // the same one, whose hints are the same: each cell once, in order.
                let mut blocked = (0, 0);
                for &(first, i) in self.covering(w, q) {
                    let cell = self.blocking(q, window, first as usize, i as usize);
                    set_bit(&mut blocked, cell - q);
                }
                for cell in bits(blocked) {
                    self.source(origin, q + cell, hints)?;
                }
            }
            hints.push(free.implied);
        }
        Ok(())
    }

    /// The first cell of placement `i` (first cell `first >= q`) that `window` (at `q`)
    /// covers: the lowest bit the two share, the placement's mask being relative to its
    /// first cell.
    pub(super) fn blocking(&self, q: usize, window: W, first: usize, i: usize) -> usize {
        let (lo, hi) = window
            .shr((first - q) as u32)
            .key()
            .expect("at most 128 bits");
        let (mask_lo, mask_hi) = self.engine.masks[i].key().expect("at most 128 bits");
        let (lo, hi) = (lo & mask_lo, hi & mask_hi);
        debug_assert!((lo, hi) != (0, 0), "the placement meets the window");
        first
            + if lo != 0 {
                lo.trailing_zeros() as usize
            } else {
                64 + hi.trailing_zeros() as usize
            }
    }

    /// Whether the placement put at `origin` covers `w`.
    fn covers(&self, origin: Origin, w: usize) -> bool {
        w >= origin.q && bit(origin.mask, w - origin.q)
    }

    /// The child state `(q, window)` (not yet moved on to a useful cell) that needs `need`
    /// more pieces, reached from `origin`: the hints from there that refute `u{q}_{need}`
    /// (see [`Closed::Refuted`]), or [`Closed::Found`].
    fn child(
        &mut self,
        origin: Origin,
        mut q: usize,
        mut window: W,
        need: u32,
    ) -> Result<Closed, WriteError> {
        self.nodes += 1;
        if need == 0 {
            return Ok(Closed::Found);
        }
        let mut hints = self.hints();
        let start = q;
        loop {
            if need > self.table[q] {
                // The table cuts: need = S[q] + 1 (S falls by at most one per cell).
                debug_assert_eq!(need, self.table[q] + 1);
                hints.push(self.entry[q]);
                hints.extend(self.jump(start, q, need as usize)?);
                return Ok(Closed::Refuted(hints));
            }
            let (from, to) = (
                self.prep.starts[q] as usize,
                self.prep.starts[q + 1] as usize,
            );
            let fits = (from..to).any(|i| !window.overlaps(self.engine.masks[i]));
            if fits {
                break;
            }
            // Nothing fits at q: every placement starting there meets a covered cell (many
            // the same one: each cell once, in order).
            let mut blocked = (0, 0);
            for i in from..to {
                set_bit(&mut blocked, self.blocking(q, window, q, i) - q);
            }
            for w in bits(blocked) {
                self.source(origin, q + w, &mut hints)?;
            }
            q += 1;
            window = window.shr(1);
        }
        let jump = self.jump(start, q, need as usize)?;
        let filled = self.engine.fill_dead(q, window);
        let memo_hit = self.lookup(q, filled, need);
        let (lo, hi) = window.key().expect("at most 128 bits");
        let (dead_lo, dead_hi) = filled.key().expect("at most 128 bits");
        // The dead cells a clause can name (cells no placement from q on covers have no `e`).
        let dead = self.named(q, (dead_lo & !lo, dead_hi & !hi));
        self.dead_keys += u64::from(dead != (0, 0));
        if let Some((_, _, kept)) = memo_hit {
            self.memo_hits += 1;
            self.dead_hits += u64::from((dead.0 & kept.0, dead.1 & kept.1) != (0, 0));
        }
        let (id, kept) = match memo_hit {
            Some((_, id, kept)) => (id, kept),
            None => match self.area_cut(q, filled, need)? {
                Some(id) => (id, ALL),
                None => match self.weight_cut(q, filled, need)? {
                    Some(id) => (id, ALL),
                    None => match self.lookahead(q, filled, need)? {
                        Some(id) => (id, ALL),
                        None => match self.frontier_clause(q, filled, need)? {
                            Some(id) => (id, ALL),
                            None => match self.expand(q, filled, need)? {
                                Some(id) => (id, ALL),
                                None => return Ok(Closed::Found),
                            },
                        },
                    },
                },
            },
        };
        self.establish(origin, q, (window, filled), kept, &mut hints)?;
        hints.push(id);
        hints.clause = id;
        // The clause refutes u{q}_{more + 1}; u{q}_{need} implies it.
        if let Some((more, _, _)) = memo_hit {
            for k in more + 2..=need {
                hints.push(self.counter(q, k as usize).monotone);
            }
        }
        hints.extend(jump);
        Ok(Closed::Refuted(hints))
    }

    /// The memo's clause for `(q, window)` that cuts a node needing `need` more pieces:
    /// `(more, id, the window cells its key keeps)`, `more < need`, by the exact key or a
    /// relaxed one.
    fn lookup(&self, q: usize, window: W, need: u32) -> Option<(u32, u64, (u64, u64))> {
        let key = key_of(q, window, 0, [0, 0])?;
        let cuts = |key: &Key| self.memo.get(key).filter(|&(more, _)| more < need);
        if let Some((more, id)) = cuts(&key) {
            return Some((more, id, ALL));
        }
        self.relaxed.iter().find_map(|&kept| {
            let relaxed = key.keeping(kept);
            let (more, id) = cuts(&relaxed).filter(|_| relaxed != key)?;
            Some((more, id, kept))
        })
    }

    /// Stores the clause `id` of the node `(q, window)` that needed `need` more pieces (a
    /// bounded memo's given-up clause leaves the proof: [`Prover::forget`]).
    pub(super) fn remember(
        &mut self,
        q: usize,
        window: W,
        need: u32,
        id: u64,
    ) -> Result<(), WriteError> {
        if let Some(key) = key_of(q, window, 0, [0, 0]) {
            if let Some(given_up) = self.memo.keep_least(&key, need - 1, id) {
                self.forget(given_up)?;
            }
        }
        Ok(())
    }

    /// The clause "the cells of `covered` (those the child's hints assume) free and
    /// `u{q}_{need}` exclude placement `i`", from the child's chain after `counter`'s
    /// `fewer` (with `x_i`, one piece fewer is needed at `q + 1`).
    fn placement_clause(
        &mut self,
        q: usize,
        covered: (u64, u64),
        counter: Counter,
        i: usize,
        child_hints: Hints,
    ) -> Result<u64, WriteError> {
        let cells = (
            covered.0 & child_hints.assumed.0,
            covered.1 & child_hints.assumed.1,
        );
        let extra = [Lit::new(counter.var, true), x(self.prep.index[i]).negate()];
        let hints = std::iter::once(counter.fewer).chain(child_hints.ids.iter().copied());
        let id = self.clause(q, cells, &extra, hints)?;
        self.recycle(child_hints);
        Ok(id)
    }

    /// Searches the node `(q, window)` that needs `need` more pieces, where a placement
    /// fits at `q`; writes its clause and returns its ID, or `None` when a packing of the
    /// target was found (left on the stack).
    pub(super) fn expand(
        &mut self,
        q: usize,
        window: W,
        need: u32,
    ) -> Result<Option<u64>, WriteError> {
        let covered = self.key_cells(q, window, ALL);
        let counter = self.counter(q, need as usize);
        let (from, to) = (
            self.prep.starts[q] as usize,
            self.prep.starts[q + 1] as usize,
        );
        let mut node_hints = self.hints();
        let mut per_placement = self.spare();
        // The last placement that fits, with its child's hints: its clause is not written,
        // its chain joins the node's clause (see below).
        let mut last: Option<(usize, Hints)> = None;
        // The covered cells whose line is in `node_hints` (many placements meet one cell).
        let mut named = (0, 0);
        for i in from..to {
            let mask = self.engine.masks[i];
            if window.overlaps(mask) {
                let w = self.blocking(q, window, q, i);
                if !bit(named, w - q) {
                    set_bit(&mut named, w - q);
                    node_hints.push(self.free(q, w).expect("a placement covers it").implies);
                }
                continue;
            }
            self.stack.push(i as u32);
            let origin = Origin {
                q,
                placed: Some(i),
                mask: mask.key().expect("at most 128 bits"),
            };
            let closed = self.child(origin, q + 1, window.union(mask).shr(1), need - 1)?;
            let Closed::Refuted(child_hints) = closed else {
                return Ok(None);
            };
            self.stack.pop();
            // The chain waits for the next placement's subtree: its clause stays.
            self.pin(child_hints.clause);
            if let Some((before, before_hints)) = last.replace((i, child_hints)) {
                let clause = before_hints.clause;
                let id = self.placement_clause(q, covered, counter, before, before_hints)?;
                self.unpin(clause)?;
                node_hints.push(id);
                per_placement.push(id);
            }
        }
        let origin = Origin {
            q,
            placed: None,
            mask: (0, 0),
        };
        let Closed::Refuted(skip_hints) = self.child(origin, q + 1, window.shr(1), need)? else {
            return Ok(None);
        };
        // With the cells free and `u{q}_{need}`: the other placements are excluded (their
        // cells or their clauses), the skip's chain refutes `u{q+1}_{need}`, so `later`
        // forces the last placement, and its child's chain, after `fewer`, conflicts.
        node_hints.extend(skip_hints.ids.iter().copied());
        self.recycle(skip_hints);
        node_hints.push(counter.later);
        let (_, last_hints) = last.expect("a placement fits at q");
        node_hints.push(counter.fewer);
        node_hints.extend(last_hints.ids.iter().copied());
        let clause = last_hints.clause;
        self.recycle(last_hints);
        let extra = [Lit::new(counter.var, true)];
        let id = self.clause(q, covered, &extra, node_hints.ids.iter().copied())?;
        self.unpin(clause)?;
        self.recycle(node_hints);
        // The per-placement clauses served this node's clause alone: the checkers drop them.
        if !per_placement.is_empty() {
            self.delete(per_placement.iter().copied())?;
        }
        self.keep(per_placement);
        self.remember(q, window, need, id)?;
        Ok(Some(id))
    }
}
