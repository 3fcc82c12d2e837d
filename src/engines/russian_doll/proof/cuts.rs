//! The doll's cuts justified in the proof: by area and by cell weights (one `pol` each,
//! whose result is the node's clause), and by the lookahead (a `pol` over the groups'
//! at-most-ones, then the clause by `rup`).

use super::super::window::Window;
use super::cells::{bit, set_bit, ALL};
use super::model::x;
use super::Prover;
use crate::formats::lines::WriteError;
use crate::formats::opb::Lit;
use crate::formats::veripb::{ConstraintId, PolItem};

/// Appends a term to a `pol` sum (its items leave it on top), adding it to what is there.
fn add_term(items: &mut Vec<PolItem>, term: &[PolItem]) {
    let first = items.is_empty();
    items.extend_from_slice(term);
    if !first {
        items.push(PolItem::Add);
    }
}

impl<'p, W: Window> Prover<'p, W> {
    /// The clause of the node `(q, window)` (dead cells filled) that needs `need` more
    /// pieces, if the area cut does (`None`: it does not, or it is not used on this
    /// entry), stored in the memo as a searched node's clause. With `a` the smallest
    /// piece's cells, `F` the free cells from `q` on that a placement from `q` on covers
    /// and `F < a need`: one `pol` adds [`Prover::area_sum`] (`a` times `u{q}_{need}`'s
    /// definition, with the cells from `q + reach` on), the at-most-one of each free cell
    /// before `q + reach` over the placements from `q` on ([`Prover::cell_at_most_one`])
    /// and `e{q}_{w}`'s first half for each window cell `w`: every placement from `q` on
    /// then appears as often negated as plain and cancels, leaving
    /// `a need ~u + sum m_w ~e{q}_w >= a need - F`; divided by its largest coefficient,
    /// that is the clause `~u{q}_{need} ~e{q}_{w1} .. ~e{q}_{wr}` itself.
    pub(super) fn area_cut(
        &mut self,
        q: usize,
        window: W,
        need: u32,
    ) -> Result<Option<u64>, WriteError> {
        let area = self.engine.area;
        if !self.entry_area || !self.engine.area_cuts(area, q, window, need) {
            return Ok(None);
        }
        self.area_cuts += 1;
        let sum = self.area_sum(q, need as usize)?;
        let id = self.cut_from_sum(q, window, need, sum, u64::from(area), None)?;
        Ok(Some(id))
    }

    /// The `pol` of a cut by area or weight at the node `(q, window)` needing `need`
    /// pieces: `sum` (the definition of `u{q}_{need}` taken `times` times, with its far
    /// sum), then each cell `w` before `q + reach`, as often as it weighs in scan row
    /// `row`'s weights (`None`: once; weight 0: left out): its `e{q}_{w}` line if the window
    /// covers it, else its at-most-one over the placements from `q` on; divided by the
    /// largest coefficient. Remembered as the node's clause.
    fn cut_from_sum(
        &mut self,
        q: usize,
        window: W,
        need: u32,
        sum: u64,
        times: u64,
        row: Option<usize>,
    ) -> Result<u64, WriteError> {
        let mut items = vec![PolItem::Id(ConstraintId::Absolute(sum))];
        let cells = self.key_cells(q, window, ALL);
        let mut divisor = times * u64::from(need);
        for w in q..(q + self.prep.reach).min(self.prep.cells) {
            let weight = match row {
                Some(row) => {
                    let cut = self.engine.weighted[row]
                        .as_ref()
                        .expect("the row has weights");
                    u64::from(cut.weights[w])
                }
                None => 1,
            };
            if weight == 0 {
                continue;
            }
            let item = if bit(cells, w - q) {
                divisor = divisor.max(weight * self.covering(w, q).len() as u64);
                let free = self.free(q, w).expect("a placement covers it");
                PolItem::Id(ConstraintId::Absolute(free.implies))
            } else {
                match self.cell_at_most_one(w, q)? {
                    Some(item) => item,
                    None => continue,
                }
            };
            items.push(item);
            if weight > 1 {
                items.push(PolItem::Multiply(weight));
            }
            items.push(PolItem::Add);
        }
        items.push(PolItem::Divide(divisor));
        let id = self.pol(items)?;
        self.remember(q, window, need, id)?;
        Ok(id)
    }

    /// `a` times the definition `u{q}_{k} -> at least k placements from q on` plus the
    /// far sum of `q` ([`Prover::far_sum`]): `a k ~u{q}_{k} + (the placements from q on,
    /// each times its cells before q + reach) >= a k - (the cells from q + reach on that a
    /// placement covers)`; derived once per `(q, k)`.
    fn area_sum(&mut self, q: usize, k: usize) -> Result<u64, WriteError> {
        if let Some(&id) = self.area_sums.get(&(q as u32, k as u32)) {
            return Ok(id);
        }
        let mut items = vec![
            PolItem::Id(ConstraintId::Absolute(self.counter(q, k).implies)),
            PolItem::Multiply(u64::from(self.engine.area)),
        ];
        if let Some(far) = self.far_sum(q)? {
            items.push(PolItem::Id(ConstraintId::Absolute(far)));
            items.push(PolItem::Add);
        }
        let id = self.pol(items)?;
        self.area_sums.insert((q as u32, k as u32), id);
        Ok(id)
    }

    /// The clause of the node `(q, window)` (dead cells filled) that needs `need` more
    /// pieces, if the weighted cut does (`None`: it does not), stored in the memo as a
    /// searched node's clause. As [`Prover::area_cut`], with each cell counted as often as
    /// it weighs in its scan row's weights and the divisor `D` (what every placement from
    /// the row on weighs at least) in place of the smallest piece: one `pol` adds
    /// [`Prover::weighted_sum`], each free cell before `q + reach` times its weight
    /// ([`Prover::cell_at_most_one`]) and each window cell's `e{q}_{w}` line times its
    /// weight. Every placement `P` from `q` on then cancels (`D` plain from the definition,
    /// its excess weight plain from the axioms, its weight negated from its cells),
    /// leaving `D need ~u + sum w m ~e{q}_w >= D need - F` with `F` the weight of the free
    /// cells some placement from `q` on covers, below `D need` where the doll cuts; divided
    /// by its largest coefficient, that is the node's clause (zero-weight window cells left
    /// out, so perhaps a stronger one).
    pub(super) fn weight_cut(
        &mut self,
        q: usize,
        window: W,
        need: u32,
    ) -> Result<Option<u64>, WriteError> {
        if !self.engine.weight_cuts(q, window, need) {
            return Ok(None);
        }
        self.weight_cuts += 1;
        let row = q / self.prep.row;
        let divisor = self.engine.weighted[row]
            .as_ref()
            .expect("the row has weights")
            .divisor;
        let sum = self.weighted_sum(q, need as usize)?;
        let id = self.cut_from_sum(q, window, need, sum, divisor, Some(row))?;
        Ok(Some(id))
    }

    /// `D` times the definition `u{q}_{k} -> at least k placements from q on` plus the
    /// weighted far sum of `q` ([`Prover::weighted_far_sum`]), under `q`'s scan row's
    /// weights; derived once per `(q, k)`.
    fn weighted_sum(&mut self, q: usize, k: usize) -> Result<u64, WriteError> {
        if let Some(&id) = self.weighted_sums.get(&(q as u32, k as u32)) {
            return Ok(id);
        }
        let row = q / self.prep.row;
        let divisor = self.engine.weighted[row].as_ref().expect("weights").divisor;
        let mut items = vec![
            PolItem::Id(ConstraintId::Absolute(self.counter(q, k).implies)),
            PolItem::Multiply(divisor),
        ];
        if let Some(far) = self.weighted_far_sum(row, q)? {
            items.push(PolItem::Id(ConstraintId::Absolute(far)));
            items.push(PolItem::Add);
        }
        let id = self.pol(items)?;
        self.weighted_sums.insert((q as u32, k as u32), id);
        Ok(id)
    }

    /// The far sum of `q` ([`Prover::far_sum`]) under scan row `row`'s weights: each cell
    /// from `q + reach` on, its at-most-one times its weight, and each placement from `q`
    /// on, its literal axiom `x >= 0` times what it weighs beyond the divisor; derived once
    /// per `(row, q)` from that of `q + 1` (`None`: nothing to add).
    fn weighted_far_sum(&mut self, row: usize, q: usize) -> Result<Option<u64>, WriteError> {
        let n = self.prep.cells;
        if self.weighted_far[row].is_empty() {
            self.weighted_far[row] = vec![None; n + 1];
            self.weighted_far[row][n] = Some(None);
        }
        let mut top = q;
        while self.weighted_far[row][top].is_none() {
            top += 1;
        }
        for p in (q..top).rev() {
            let cut = self.engine.weighted[row].as_ref().expect("weights");
            let divisor = cut.divisor;
            let mut items = Vec::new();
            if let Some(later) = self.weighted_far[row][p + 1].expect("derived") {
                add_term(&mut items, &[PolItem::Id(ConstraintId::Absolute(later))]);
            }
            let cell = p + self.prep.reach;
            if cell < n {
                let weight = u64::from(cut.weights[cell]);
                if weight > 0 {
                    if let Some(item) = self.cell_at_most_one(cell, p)? {
                        add_term(&mut items, &[item, PolItem::Multiply(weight)]);
                    }
                }
            }
            let cut = self.engine.weighted[row].as_ref().expect("weights");
            for i in self.prep.starts[p] as usize..self.prep.starts[p + 1] as usize {
                let weight: u64 = self.prep.relative[i]
                    .iter()
                    .map(|&k| u64::from(cut.weights[p + k]))
                    .sum();
                let axiom = PolItem::Axiom(x(self.prep.index[i]));
                match weight - divisor {
                    0 => {}
                    1 => add_term(&mut items, &[axiom]),
                    extra => add_term(&mut items, &[axiom, PolItem::Multiply(extra)]),
                }
            }
            self.weighted_far[row][p] = Some(match items.as_slice() {
                [] => None,
                [PolItem::Id(ConstraintId::Absolute(id))] => Some(*id),
                _ => Some(self.pol(items)?),
            });
        }
        Ok(self.weighted_far[row][q].expect("derived"))
    }

    /// The far sum of `q`: the at-most-ones of the cells from `q + reach` on (only
    /// placements from `q` on cover them) and, for each placement from `q` on with more
    /// cells than the smallest piece, that many more times its literal axiom `x >= 0` (so
    /// that, beside `a` times `u{q}_{k}`'s definition, each placement counts its cells);
    /// derived once per `q`, from the far sum of `q + 1` (`None`: nothing to add).
    fn far_sum(&mut self, q: usize) -> Result<Option<u64>, WriteError> {
        let n = self.prep.cells;
        let mut top = q;
        while top < n && self.far[top].is_none() {
            top += 1;
        }
        if top == n {
            self.far[n] = Some(None);
        }
        for p in (q..top).rev() {
            let mut items = Vec::new();
            if let Some(later) = self.far[p + 1].expect("derived") {
                add_term(&mut items, &[PolItem::Id(ConstraintId::Absolute(later))]);
            }
            let cell = p + self.prep.reach;
            if cell < n {
                // Only placements from p on cover it: its own at-most-one.
                if let Some(item) = self.cell_at_most_one(cell, p)? {
                    add_term(&mut items, &[item]);
                }
            }
            let area = self.engine.area as usize;
            for i in self.prep.starts[p] as usize..self.prep.starts[p + 1] as usize {
                let axiom = PolItem::Axiom(x(self.prep.index[i]));
                match self.prep.relative[i].len() - area {
                    0 => {}
                    1 => add_term(&mut items, &[axiom]),
                    extra => add_term(&mut items, &[axiom, PolItem::Multiply(extra as u64)]),
                }
            }
            self.far[p] = Some(match items.as_slice() {
                [] => None,
                [PolItem::Id(ConstraintId::Absolute(id))] => Some(*id),
                _ => Some(self.pol(items)?),
            });
        }
        Ok(self.far[q].expect("derived"))
    }

    /// "At most one placement from `q` on covers cell `w`", as a `pol` item (`None`: none
    /// covers it): the literal axiom `~x >= 0` of the only one, or `w`'s at-most-one, with
    /// the placements starting before `q` weakened away by their literal axioms `x >= 0`
    /// (derived once per set of placements).
    fn cell_at_most_one(&mut self, w: usize, q: usize) -> Result<Option<PolItem>, WriteError> {
        // Later first cells first: those from q on are a prefix.
        let all = self.covering(w, 0);
        let kept = self.covering(w, q).len();
        let id = match kept {
            0 => return Ok(None),
            1 => {
                let only = self.prep.index[all[0].1 as usize];
                return Ok(Some(PolItem::Axiom(x(only).negate())));
            }
            _ if kept == all.len() => self.amo[w].expect("two placements cover the cell"),
            _ => match self.near.get(&(w as u32, kept as u32)) {
                Some(&id) => id,
                None => {
                    let amo = self.amo[w].expect("two placements cover the cell");
                    let mut items = vec![PolItem::Id(ConstraintId::Absolute(amo))];
                    for &(_, i) in &all[kept..] {
                        items.push(PolItem::Axiom(x(self.prep.index[i as usize])));
                        items.push(PolItem::Add);
                    }
                    let id = self.pol(items)?;
                    self.near.insert((w as u32, kept as u32), id);
                    id
                }
            },
        };
        Ok(Some(PolItem::Id(ConstraintId::Absolute(id))))
    }

    /// The clause of the node `(q, window)` (dead cells filled) that needs `need` more
    /// pieces, if the lookahead cuts it (`None`: it does not), stored in the memo as a
    /// searched node's clause. With `D` the cut level's `D_k` and the fits starting in
    /// `q..D` in groups of pairwise overlapping ones: one `pol` adds the definition
    /// `u{q}_{need} -> at least need from q on`, "at most `S[D]` from `D` on" and the
    /// groups' at-most-ones ([`Prover::at_most_one`]) into `need ~u + (the placements
    /// starting in q..D that do not fit) >= 1` (plus, on both sides, what the extra negated
    /// placements of the cells' at-most-ones can give); the clause is then a `rup` from it
    /// and the `e` lines that exclude the placements that do not fit, and the sum is
    /// deleted (see `docs/certificates.md`, "The lookahead cut").
    pub(super) fn lookahead(
        &mut self,
        q: usize,
        window: W,
        need: u32,
    ) -> Result<Option<u64>, WriteError> {
        let slack = (self.table[q] - need) as usize;
        if slack >= self.levels || self.drops[q][0] == u32::MAX {
            return Ok(None);
        }
        let drops = &self.drops[q][..self.levels];
        let Some(d) = self
            .engine
            .lookahead_cover(q, window, drops, slack, &mut self.cover)
        else {
            return Ok(None);
        };
        self.lookahead_cuts += 1;
        let mut terms = self.spare();
        terms.push(self.counter(q, need as usize).implies);
        terms.extend(self.at_most(d)?);
        let (mut members, mut ends) = std::mem::take(&mut self.cover_groups);
        self.cover.groups_into(&mut members, &mut ends);
        let mut start = 0;
        for &end in &ends {
            terms.push(self.at_most_one(q, &members[start..end])?);
            start = end;
        }
        self.cover_groups = (members, ends);
        let sum = self.pol_sum(&terms)?;
        self.keep(terms);
        let mut hints = self.hints();
        // Many placements meet the same cell: each cell's line once, in first-use order.
        let mut named = (0, 0);
        for a in q..d {
            for i in self.prep.starts[a] as usize..self.prep.starts[a + 1] as usize {
                if window.shr((a - q) as u32).overlaps(self.engine.masks[i]) {
                    let w = self.blocking(q, window, a, i);
                    if !bit(named, w - q) {
                        set_bit(&mut named, w - q);
                        hints.push(self.free(q, w).expect("a placement covers it").implies);
                    }
                }
            }
        }
        hints.push(sum);
        let cells = self.key_cells(q, window, ALL);
        let u = Lit::new(self.counter(q, need as usize).var, true);
        let id = self.clause(q, cells, &[u], hints.ids.iter().copied())?;
        self.recycle(hints);
        self.delete([sum])?;
        self.remember(q, window, need, id)?;
        Ok(Some(id))
    }

    /// "At most one of `members`" (pairwise overlapping placements, each as (offset of its
    /// first cell from `q`, kept placement), offsets ascending): the at-most-one of a cell
    /// they all cover (which names other placements too: harmless in the cut's sum, where
    /// each adds as much to the right-hand side as it can to the left), or else, once per
    /// group, by cutting planes from the pairs' clauses: with `A_i` "at most one of the
    /// first `i`", `A_{i+1}` is `((i - 1) A_i + the clauses of member i + 1 with each of
    /// the first i) / i`.
    fn at_most_one(&mut self, q: usize, members: &[(u32, u32)]) -> Result<u64, WriteError> {
        let cells = |&(j, i): &(u32, u32)| {
            self.prep.relative[i as usize]
                .iter()
                .map(move |&k| q + j as usize + k)
        };
        let first = &members[0];
        if let Some(shared) = cells(first).find(|&c| {
            members[1..]
                .iter()
                .all(|m| cells(m).any(|other| other == c))
        }) {
            return Ok(self.amo[shared].expect("two placements cover the cell"));
        }
        let mut key = std::mem::take(&mut self.clique_key);
        key.clear();
        key.extend(members.iter().map(|&(_, i)| i));
        let known = self.cliques.get(key.as_slice()).copied();
        if let Some(id) = known {
            self.clique_key = key;
            return Ok(id);
        }
        // The pairs' clauses are derived in order (member by member, each with those
        // before it) as the sum is built.
        let mut items = Vec::with_capacity(members.len() * (members.len() + 2));
        for (i, &later) in members.iter().enumerate().skip(1) {
            if i > 2 {
                items.push(PolItem::Multiply(i as u64 - 1));
            }
            for (a, &earlier) in members[..i].iter().enumerate() {
                let clause = self.pair(q, earlier, later)?;
                items.push(PolItem::Id(ConstraintId::Absolute(clause)));
                if i > 1 || a > 0 {
                    items.push(PolItem::Add);
                }
            }
            if i > 1 {
                items.push(PolItem::Divide(i as u64));
            }
        }
        let id = self.pol(items)?;
        self.cliques.insert(key, id);
        Ok(id)
    }

    /// The clause "not both" of two overlapping placements (as in
    /// [`Prover::at_most_one`]), by a cell's at-most-one; derived once.
    fn pair(&mut self, q: usize, a: (u32, u32), b: (u32, u32)) -> Result<u64, WriteError> {
        let key = (a.1.min(b.1), a.1.max(b.1));
        if let Some(id) = self.pairs.get(key) {
            return Ok(id);
        }
        let cells_of = |(j, i): (u32, u32)| -> Vec<usize> {
            self.prep.relative[i as usize]
                .iter()
                .map(|&k| q + j as usize + k)
                .collect()
        };
        let later = cells_of(b);
        let shared = cells_of(a)
            .into_iter()
            .find(|c| later.contains(c))
            .expect("the placements overlap");
        let amo = self.amo[shared].expect("two placements cover the cell");
        let lits = vec![
            x(self.prep.index[a.1 as usize]).negate(),
            x(self.prep.index[b.1 as usize]).negate(),
        ];
        let id = self.rup(lits, [amo])?;
        self.pairs.insert(key, id);
        Ok(id)
    }

    /// "At most `S[d]` placements start at `d` or later" (`d` decided), over the
    /// placements: the definition of `u{d}_{S[d]+1}` and the entry; derived once (`None`:
    /// fewer placements start there).
    fn at_most(&mut self, d: usize) -> Result<Option<u64>, WriteError> {
        if let Some(known) = self.at_most[d] {
            return Ok(known);
        }
        let s = self.table[d] as usize;
        let id = match self.counter(d, s + 1).implied {
            Some(implied) => Some(self.pol(vec![
                PolItem::Id(ConstraintId::Absolute(implied)),
                PolItem::Id(ConstraintId::Absolute(self.entry[d])),
                PolItem::Multiply((self.suffix_len(d) - s) as u64),
                PolItem::Add,
            ])?),
            None => None,
        };
        self.at_most[d] = Some(id);
        Ok(id)
    }
}
