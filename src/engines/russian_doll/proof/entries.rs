//! The table's proof: its entries searched last first, each from the entries after it,
//! then the conclusion, for the whole table ([`write_proof`]) or for a shard's range of
//! entries, the later ones its premises ([`write_shard_proof`]).

use std::io::Write;
use std::ops::Range;
use std::sync::atomic::AtomicUsize;

use rustc_hash::FxHashMap;

use super::super::table::{area_gap, AREA_GAP};
use super::super::window::Window;
use super::model::{packing_opb, ShardOpb};
use super::{
    supported, DollProof, DollProofError, DollProofOptions, DollShardProof, Prover, WatchedOut,
};
use crate::formats::lines::{LineWriter, WriteError};
use crate::formats::opb::Lit;
use crate::formats::veripb::{Conclusion, ConstraintId, PolItem, Step, PROOF_HEADER};
use crate::geometry::placements::PackingInstance;

/// Writes into `out` the VeriPB proof of the shard `shard` (of [`super::shard_opb`], built over
/// the doll's scan order and `entries`): the later entries as units from the premises, the
/// shard's entries searched from the last back with a memo of its own (as
/// [`write_proof`] does), then "objective >= 0" in a `pbc` subproof, concluded as
/// `BOUNDS 0 INF`. Fails if the search finds an entry other than `entries` says.
/// The search's rules are [`DollProofOptions::default`]'s.
pub fn write_shard_proof(
    instance: &PackingInstance,
    shard: &ShardOpb,
    entries: &[usize],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollShardProof, DollProofError> {
    let options = DollProofOptions::default();
    write_shard_proof_with(instance, &options, shard, entries, out, should_stop)
}

/// [`write_shard_proof`] with the search's rules of `options`.
pub fn write_shard_proof_with(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &ShardOpb,
    entries: &[usize],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollShardProof, DollProofError> {
    shard_proof(instance, options, shard, entries, out, should_stop, None)
}

/// [`write_shard_proof_with`] into `watched`, counting each entry of the range searched to
/// its end (from the last back).
pub fn write_shard_proof_counted(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &ShardOpb,
    entries: &[usize],
    watched: WatchedOut<'_>,
) -> Result<DollShardProof, DollProofError> {
    let WatchedOut {
        out,
        should_stop,
        finished,
    } = watched;
    shard_proof(
        instance,
        options,
        shard,
        entries,
        out,
        should_stop,
        Some(finished),
    )
}

/// The shard's proof, counting into `finished` if given.
fn shard_proof(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &ShardOpb,
    entries: &[usize],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
    finished: Option<&AtomicUsize>,
) -> Result<DollShardProof, DollProofError> {
    let prep = supported(instance)?;
    if entries.len() != prep.cells + 1 || shard.range.end > prep.cells {
        return Err(DollProofError::Unsupported(
            "the table does not have one entry per scan position",
        ));
    }
    let (_, amo_by_cell) = packing_opb(instance);
    let amo: Vec<Option<u64>> = prep.order.iter().map(|&cell| amo_by_cell[cell]).collect();
    let writer = LineWriter::new(out, should_stop);
    let opb = shard.file.clone();
    if prep.reach <= 64 {
        Prover::<u64>::new(&prep, options, opb, amo, writer)
            .counting(finished)
            .run_shard(shard, entries)
    } else {
        Prover::<u128>::new(&prep, options, opb, amo, writer)
            .counting(finished)
            .run_shard(shard, entries)
    }
}

/// Finds a maximum packing of `instance` by the Russian doll and writes, into `out`, a
/// VeriPB proof that it is maximum over [`packing_opb`]'s file (see the parent module).
/// `should_stop` is polled as lines are written. The search's rules are
/// [`DollProofOptions::default`]'s.
pub fn write_proof(
    instance: &PackingInstance,
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollProof, DollProofError> {
    write_proof_with(instance, &DollProofOptions::default(), out, should_stop)
}

/// [`write_proof`] with the search's rules of `options`.
pub fn write_proof_with(
    instance: &PackingInstance,
    options: &DollProofOptions,
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollProof, DollProofError> {
    let prep = supported(instance)?;
    let (opb, amo_by_cell) = packing_opb(instance);
    let amo: Vec<Option<u64>> = prep.order.iter().map(|&cell| amo_by_cell[cell]).collect();
    let writer = LineWriter::new(out, should_stop);
    if prep.reach <= 64 {
        Prover::<u64>::new(&prep, options, opb, amo, writer).run()
    } else {
        Prover::<u128>::new(&prep, options, opb, amo, writer).run()
    }
}

impl<'p, W: Window> Prover<'p, W> {
    fn run(mut self) -> Result<DollProof, DollProofError> {
        self.open()?;
        self.define_frees(0)?;
        self.define_last()?;
        let best = self.entries(0..self.prep.cells, None)?;
        self.conclude(best)
    }

    /// The header and `f`.
    pub(super) fn open(&mut self) -> Result<(), WriteError> {
        self.out.put(|l| {
            l.push_str(PROOF_HEADER);
            l.push('\n');
        })?;
        let formula = self.opb.constraint_ids();
        self.step_plain(&Step::Formula(formula))
    }

    /// The last position's entry: nothing starts there or later.
    pub(super) fn define_last(&mut self) -> Result<(), WriteError> {
        let n = self.prep.cells;
        self.define_counter(n)?;
        self.entry[n] = self.counter(n, 1).implies;
        Ok(())
    }

    /// Searches the entries of `range`, last first, each from the entries after it; the
    /// packing of the last entry that rose (empty if none did, or if `given` said so).
    /// Where the `given` table says an entry rises, its bound needs no search: one piece
    /// at most starts at its position, the rest come from the next entry. The search
    /// would only look for the packing that shows the rise, and its proof would be
    /// thrown away (17 x 17 crosses: 5.1 M nodes and 2.98 GB for entry 12 alone).
    fn entries(
        &mut self,
        range: Range<usize>,
        given: Option<&[usize]>,
    ) -> Result<Vec<u32>, WriteError> {
        let mut best: Vec<u32> = Vec::new();
        for c in range.rev() {
            let target = self.table[c + 1] + 1;
            self.table[c] = self.table[c + 1];
            while self.counters[c].len() < target as usize {
                self.define_counter(c)?;
            }
            let rises = given.is_some_and(|g| g[c] == g[c + 1] + 1);
            let found = if rises && self.engine.has_start[c] {
                Some(Ok(Vec::new()))
            } else if self.engine.has_start[c] {
                self.target = target;
                self.set_entry_area(c);
                Some(self.entry_search(c)?)
            } else {
                None
            };
            match found {
                Some(Ok(packing)) => {
                    best = packing;
                    self.table[c] = target;
                    self.define_counter(c)?;
                    let rise = self.counter(c, target as usize + 1).fewer;
                    let next = self.entry[c + 1];
                    let lit = Lit::new(self.counter(c, target as usize + 1).var, true);
                    self.entry[c] = self.rup([lit], [rise, next])?;
                }
                Some(Err(root)) => {
                    // Every later search cites the entry.
                    self.pin(root);
                    self.entry[c] = root;
                }
                None => {
                    let later = self.counter(c, target as usize).later;
                    let next = self.entry[c + 1];
                    let lit = Lit::new(self.counter(c, target as usize).var, true);
                    self.entry[c] = self.rup([lit], [later, next])?;
                }
            }
            self.set_drops(c);
            self.goal_done();
        }
        Ok(best)
    }

    /// Whether entry `c`'s search uses the area cut, as in the doll's table: where the
    /// cells from `c` on hold by area at most `AREA_GAP` pieces more than the target. The
    /// lookahead stays on there (the doll switches it off within `AREA_TIGHT`, for speed):
    /// in the proof its cuts save more bytes than they cost time (V pentominoes in
    /// 13 x 13: 2% fewer, in 12 x 12 4%; crosses in 13 x 19: the proof of before the area
    /// cut, which never fires there beside the lookahead).
    pub(super) fn set_entry_area(&mut self, c: usize) {
        self.entry_area = area_gap(&self.engine, c, self.target) <= AREA_GAP;
    }

    /// Sets the lookahead's `D_k` of the decided entry `c` from the entries `c..`.
    fn set_drops(&mut self, c: usize) {
        for (level, drop) in self.drops[c].iter_mut().enumerate().take(self.levels) {
            let k = level as u32 + 2;
            if self.table[c] >= k {
                *drop = (c + 1..self.table.len())
                    .find(|&p| self.table[p] + k <= self.table[c])
                    .map_or(u32::MAX, |p| p as u32);
            }
        }
    }

    /// A shard's proof (see [`write_shard_proof`]): the later entries from the premises,
    /// the shard's entries by the search, then "objective >= 0".
    fn run_shard(
        mut self,
        shard: &ShardOpb,
        entries: &[usize],
    ) -> Result<DollShardProof, DollProofError> {
        let range = shard.range.clone();
        self.open()?;
        self.define_frees(range.start)?;
        self.define_last()?;
        let premise: FxHashMap<usize, u64> = shard.premises.iter().copied().collect();
        self.later_entries(range.end, entries, &premise)?;
        self.entries(range.clone(), Some(entries))?;
        for c in range.clone() {
            if self.table[c] as usize != entries[c] {
                return Err(DollProofError::TableDiffers {
                    position: c,
                    searched: self.table[c] as usize,
                    given: entries[c],
                });
            }
        }
        self.conclude_shard(shard)
    }

    /// The table entries from `from` on, from their premises in the OPB file (`premise`,
    /// by scan position; an entry without one bounds nothing): each as the unit
    /// `~u{q}_{S[q]+1}`, with the `u` variables it needs and the lookahead's drops.
    pub(super) fn later_entries(
        &mut self,
        from: usize,
        entries: &[usize],
        premise: &FxHashMap<usize, u64>,
    ) -> Result<(), WriteError> {
        for q in (from..self.prep.cells).rev() {
            let s = entries[q] as u32;
            self.table[q] = s;
            while self.counters[q].len() <= s as usize {
                self.define_counter(q)?;
            }
            let counter = self.counter(q, s as usize + 1);
            // "At most S[q]" and "u{q}_{S[q]+1} -> at least S[q] + 1" add up to
            // `(S[q] + 1) ~u >= 1`; with fewer placements than that, the definition alone
            // refutes u.
            self.entry[q] = match premise.get(&q) {
                Some(&id) => self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(counter.implies)),
                    PolItem::Id(ConstraintId::Absolute(id)),
                    PolItem::Add,
                    PolItem::Saturate,
                ])?,
                None => self.rup([Lit::new(counter.var, true)], [counter.implies])?,
            };
            self.set_drops(q);
        }
        Ok(())
    }

    /// "objective >= 0" of a shard: for each selector `t_q`, the objective's negation, the
    /// entry's bound and the guards refute `t_q`; "at least one selector" then ends the
    /// subproof.
    fn conclude_shard(mut self, shard: &ShardOpb) -> Result<DollShardProof, DollProofError> {
        let range = shard.range.clone();
        let mut bounds = Vec::new();
        for q in range.clone() {
            let s = self.table[q] as usize;
            let size = self.suffix_len(q);
            // "at most S[q] pieces start at q or later", in the placements.
            bounds.push(match self.counters[q][s].implied {
                Some(implied) => Some(self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(implied)),
                    PolItem::Id(ConstraintId::Absolute(self.entry[q])),
                    PolItem::Multiply((size - s) as u64),
                    PolItem::Add,
                ])?),
                None => None,
            });
        }
        let negation = self.step(&Step::Pbc {
            constraint: shard.goal(),
            subproof: true,
        })?;
        let mut refuted = vec![shard.at_least_one];
        for (q, bound) in range.clone().zip(bounds) {
            let conflict = match bound {
                Some(bound) => self.pol_sum(&[negation, bound])?,
                None => negation,
            };
            let mut hints = vec![shard.at_most_one];
            hints.extend(shard.guards_before(q));
            hints.push(conflict);
            refuted.push(self.rup([shard.selector(q).negate()], hints)?);
        }
        let contradiction = self.rup([], refuted)?;
        let derived = self.conclude_lower_bound(contradiction, 0)?;
        self.out.finish()?;
        Ok(DollShardProof {
            entries: range.map(|q| self.table[q] as usize).collect(),
            nodes: self.nodes,
            memo_hits: self.memo_hits,
            dead_keys: self.dead_keys,
            dead_hits: self.dead_hits,
            lookahead_cuts: self.lookahead_cuts,
            area_cuts: self.area_cuts,
            weight_cuts: self.weight_cuts,
            derived,
        })
    }

    /// Ends the `pbc` subproof of "objective >= `lower`" with its `contradiction`, concludes
    /// `BOUNDS lower INF` from it and writes `end`; the constraints the proof derived.
    pub(super) fn conclude_lower_bound(
        &mut self,
        contradiction: u64,
        lower: i64,
    ) -> Result<u64, WriteError> {
        let goal = self.step(&Step::Qed(Some(ConstraintId::Absolute(contradiction))))?;
        self.step_plain(&Step::OutputNone)?;
        self.step_plain(&Step::Conclusion(Conclusion::Bounds {
            lower: Some(lower),
            lower_hint: Some(ConstraintId::Absolute(goal)),
            upper: None,
            solution: None,
        }))?;
        self.step_plain(&Step::End)?;
        Ok(self.next_id - 1 - self.opb.constraint_ids())
    }

    /// Searches entry `c` (at least one piece starting at `c`): `Ok` with a packing of the
    /// target, or `Err` with the ID of the root clause `~u{c}_{target}`.
    fn entry_search(&mut self, c: usize) -> Result<Result<Vec<u32>, u64>, WriteError> {
        self.stack.clear();
        let need = self.target;
        Ok(match self.expand(c, W::empty(), need)? {
            None => Ok(self.stack.clone()),
            Some(root) => Err(root),
        })
    }

    fn conclude(mut self, best: Vec<u32>) -> Result<DollProof, DollProofError> {
        let optimum = self.table[0] as usize;
        let size = self.suffix_len(0);
        let bound = match self.counters[0][optimum].implied {
            Some(implied) => {
                let factor = (size - optimum) as u64;
                self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(implied)),
                    PolItem::Id(ConstraintId::Absolute(self.entry[0])),
                    PolItem::Multiply(factor),
                    PolItem::Add,
                ])?
            }
            None => self.entry[0],
        };
        let used: std::collections::HashSet<usize> =
            best.iter().map(|&i| self.prep.index[i as usize]).collect();
        let literals = (0..self.opb.declared_variables)
            .map(|i| Lit::new(i as u32, !used.contains(&i)))
            .collect();
        self.step_plain(&Step::Solution {
            literals,
            improving: false,
            value: None,
        })?;
        self.step_plain(&Step::OutputNone)?;
        let value = -(optimum as i64);
        self.step_plain(&Step::Conclusion(Conclusion::Bounds {
            lower: Some(value),
            lower_hint: Some(ConstraintId::Absolute(bound)),
            upper: Some(value),
            solution: None,
        }))?;
        self.step_plain(&Step::End)?;
        let derived = self.next_id - 1 - self.opb.constraint_ids();
        self.out.finish()?;
        let mut best: Vec<usize> = best.iter().map(|&i| self.prep.index[i as usize]).collect();
        best.sort_unstable();
        Ok(DollProof {
            optimum,
            best,
            nodes: self.nodes,
            memo_hits: self.memo_hits,
            dead_keys: self.dead_keys,
            dead_hits: self.dead_hits,
            lookahead_cuts: self.lookahead_cuts,
            area_cuts: self.area_cuts,
            weight_cuts: self.weight_cuts,
            derived,
        })
    }
}
