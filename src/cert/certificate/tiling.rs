//! A tiling count's refutation, written as LRAT by the exact-cover search
//! ([`crate::engines::cover_proof`]) into the certificate folder: this side tells the search
//! where the clauses it names lie in `count.dimacs` (each cell's and each once-used piece's
//! at-least-one clause, each listed tiling's blocking clause) and derives the exclusions it
//! asks for from the CNF's own encodings of the constraints, which it reads back from the
//! clauses rather than assuming them:
//!
//! * an at-most-one encoded pairwise has the exclusion `-p -o` as a clause of its own;
//! * one encoded by Sinz's sequential counter (`-x_i s_i`, `-s_{i-1} s_i`, `-x_i -s_{i-1}`)
//!   gives it through the chain `x_i -> s_i -> .. -> s_{j-1} -> -x_j`; the search asks for
//!   about a million pairs of 6 x 10, so the chain is shortened by derived jumps
//!   `-s_k s_{k+2^t}` (each from two of half the length), and a pair costs its first and last
//!   clause and one jump per bit of the distance;
//! * anything else (a piece's "at most" or "at least" totalizer) is left to unit propagation
//!   over that constraint's clauses alone, from which the hints are read off.
//!
//! Whatever is derived here is checked with the rest of the proof: a wrong hint is a
//! rejected proof, never a wrong count.

use super::{ProveError, AMO};
use crate::base::Control;
use crate::encode::cnf::encode_constraint;
use crate::encode::Cnf;
use crate::engines::cover_proof::{
    write_cover_refutation, ClauseId, CoverClauses, CoverProblem, CoverProofError, CoverProofStats,
    ProofLog,
};
use crate::formats::lrat::LratWriter;
use crate::model::{Constraint, Lit, Model};
use crate::puzzle::packing::Packing;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::Path;

/// Writes to `path` the LRAT refutation of `cnf` (the count CNF of `packing`, whose model is
/// `model`, with the clauses blocking `listed`, in order, at its end) by the exact-cover
/// search; the caller checks it.
pub(super) fn write_tiling_proof(
    packing: &Packing,
    model: &Model,
    cnf: &Cnf,
    listed: &[Vec<usize>],
    path: &Path,
    control: &Control,
) -> Result<CoverProofStats, ProveError> {
    let internal =
        |message: String| ProveError::Internal(format!("the exact-cover proof: {message}"));
    let ranges = constraint_ranges(model, cnf).map_err(internal)?;
    let placements = &packing.instance.placements;
    let options: Vec<Vec<usize>> = placements.iter().map(|p| p.cells.clone()).collect();
    let piece: Vec<usize> = placements.iter().map(|p| p.piece).collect();
    // Model variable i is placement i (`Packing::compile_with`), DIMACS variable i + 1.
    let var: Vec<i32> = (1..=placements.len() as i32).collect();
    let open: Vec<bool> = packing.blocked.iter().map(|b| !b).collect();
    let piece_max: Vec<Option<usize>> = packing.pieces.iter().map(|p| p.limit.max).collect();
    let piece_min: Vec<usize> = packing.pieces.iter().map(|p| p.limit.min).collect();
    let (mut clauses, at_least_ones) =
        TilingClauses::read(cnf, &ranges, model, &options, &piece, packing).map_err(internal)?;
    let blocked_start = cnf.clauses.len() - listed.len();
    let listed: HashMap<Vec<usize>, ClauseId> = listed
        .iter()
        .enumerate()
        .map(|(i, cover)| (cover.clone(), (blocked_start + i + 1) as ClauseId))
        .collect();
    let problem = CoverProblem {
        width: packing.width,
        height: packing.height,
        open: &open,
        options: &options,
        piece: &piece,
        piece_max: &piece_max,
        piece_min: &piece_min,
        var: &var,
        cell_clause: &at_least_ones.cells,
        piece_clause: &at_least_ones.pieces,
    };
    let write_error = |e: std::io::Error| ProveError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(write_error)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let should_stop = || control.should_stop();
    let mut log = LratLog(LratWriter::new(
        &mut out,
        &should_stop,
        cnf.clauses.len() as u64,
    ));
    let searched = write_cover_refutation(&problem, &listed, &mut clauses, &mut log, control);
    let written = log.0.finish();
    let stats = searched.map_err(|e| match e {
        CoverProofError::Stopped => ProveError::Stopped(control.reason()),
        other => internal(other.to_string()),
    });
    match written {
        Ok(()) => stats,
        Err(crate::formats::lines::WriteError::Stopped) => {
            Err(ProveError::Stopped(control.reason()))
        }
        Err(crate::formats::lines::WriteError::Io(e)) => Err(write_error(e)),
    }
}

/// The search's proof, written through the formats' LRAT writer.
struct LratLog<'a>(LratWriter<'a>);

impl ProofLog for LratLog<'_> {
    fn add(&mut self, literals: &[i32], hints: &[ClauseId]) -> ClauseId {
        self.0.add(literals, hints)
    }

    fn delete(&mut self, ids: &[ClauseId]) {
        self.0.delete(ids);
    }

    fn failed(&self) -> bool {
        self.0.failed()
    }
}

/// The clauses of each of `model`'s constraints in `cnf` (clause `i` of the CNF has ID
/// `i + 1`), by encoding each constraint again as the certificate's CNF does; the CNF must
/// start with exactly those clauses.
fn constraint_ranges(model: &Model, cnf: &Cnf) -> Result<Vec<Range<usize>>, String> {
    let mut again = Cnf::with_vars(model.num_vars());
    let mut ranges = Vec::with_capacity(model.constraints.len());
    for constraint in &model.constraints {
        let start = again.clauses.len();
        encode_constraint(&mut again, constraint, AMO);
        ranges.push(start..again.clauses.len());
    }
    if cnf.clauses.get(..again.clauses.len()) != Some(&again.clauses[..]) {
        return Err("the count CNF does not start with the model's constraints".to_string());
    }
    Ok(ranges)
}

/// An at-most-one constraint's clauses, as its encoding made them.
enum AtMostOne {
    /// A clause `-a -b` per pair of options (smaller option first).
    Pairwise(HashMap<(usize, usize), ClauseId>),
    /// Sinz's sequential counter.
    Sequential(Sequential),
}

/// Sinz's sequential counter over options `x_0 .. x_{n-1}` with auxiliaries
/// `s_0 .. s_{n-2}` (`s_i`: one of `x_0 .. x_i` is true).
struct Sequential {
    /// Each option's index `i`.
    position: HashMap<usize, usize>,
    /// Per `i < n - 1`: the clause `-x_i s_i`.
    rise: Vec<ClauseId>,
    /// Per `i >= 1`: the clause `-x_i -s_{i-1}` (index 0 unused).
    stop: Vec<ClauseId>,
    /// Per `k < n - 2`: the clause `-s_k s_{k+1}`.
    step: Vec<ClauseId>,
    /// The auxiliaries' DIMACS variables.
    aux: Vec<i32>,
    /// Derived jumps `-s_k s_{k+2^t}` by `(k, t)`, `t >= 1`.
    jumps: HashMap<(usize, u32), ClauseId>,
}

impl Sequential {
    /// The clause `-s_k s_{k+2^t}`, derived (and written) if need be.
    fn jump(&mut self, k: usize, t: u32, proof: &mut dyn ProofLog) -> ClauseId {
        if t == 0 {
            return self.step[k];
        }
        if let Some(&id) = self.jumps.get(&(k, t)) {
            return id;
        }
        let half = 1usize << (t - 1);
        let first = self.jump(k, t - 1, proof);
        let second = self.jump(k + half, t - 1, proof);
        let id = proof.add(&[-self.aux[k], self.aux[k + 2 * half]], &[first, second]);
        self.jumps.insert((k, t), id);
        id
    }

    /// Hints that refute `x_i` and `x_j` both true (`i < j`).
    fn pair_hints(&mut self, i: usize, j: usize, proof: &mut dyn ProofLog) -> Vec<ClauseId> {
        let mut hints = vec![self.rise[i]];
        let (mut k, distance) = (i, j - 1 - i);
        for t in (0..usize::BITS).rev() {
            if distance >> t & 1 == 1 {
                hints.push(self.jump(k, t, proof));
                k += 1 << t;
            }
        }
        hints.push(self.stop[j]);
        hints
    }

    /// The jumps a pair costs: one per bit of the distance.
    fn cost(&self, a: usize, b: usize) -> u32 {
        let (i, j) = (self.position[&a], self.position[&b]);
        (i.max(j) - 1 - i.min(j)).count_ones()
    }
}

/// A piece's constraints besides its at-most-one.
#[derive(Default, Clone)]
struct PieceConstraints {
    /// Its "at most" totalizer's clauses, if it has one.
    at_most: Option<Range<usize>>,
    /// Its minimum's clauses (an "at least" totalizer, or its "exactly one").
    at_least: Option<Range<usize>>,
}

/// The at-least-one clauses of a tiling count's CNF.
struct AtLeastOnes {
    /// Per cell (0 for blocked cells).
    cells: Vec<ClauseId>,
    /// Per piece used exactly once.
    pieces: Vec<Option<ClauseId>>,
}

/// The options that conflict with one option, in an open-addressed table of twice their
/// number or more: each with the ID of their exclusion once derived, 0 before. A lookup
/// touches about one slot, where a search in a sorted row touched ten.
struct ConflictRow {
    slots: Vec<(u32, ClauseId)>,
    shift: u32,
}

impl ConflictRow {
    /// A free slot.
    const FREE: u32 = u32::MAX;

    fn new(others: &[u32]) -> ConflictRow {
        let size = (2 * others.len()).next_power_of_two().max(2);
        let mut row = ConflictRow {
            slots: vec![(Self::FREE, 0); size],
            shift: 64 - size.trailing_zeros(),
        };
        for &other in others {
            let mut at = row.home(other);
            while row.slots[at].0 != Self::FREE {
                at = (at + 1) & (size - 1);
            }
            row.slots[at].0 = other;
        }
        row
    }

    /// Where the search for `other` starts (Fibonacci hashing).
    fn home(&self, other: u32) -> usize {
        (u64::from(other).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The slot of `other`, if it conflicts.
    fn slot(&self, other: usize) -> Option<usize> {
        let other = other as u32;
        let mut at = self.home(other);
        loop {
            match self.slots[at].0 {
                key if key == other => return Some(at),
                Self::FREE => return None,
                _ => at = (at + 1) & (self.slots.len() - 1),
            }
        }
    }
}

/// What the search asks of a tiling count's CNF besides its at-least-ones (see the module
/// docs).
struct TilingClauses<'c> {
    clauses: &'c [Vec<Lit>],
    options: &'c [Vec<usize>],
    piece: &'c [usize],
    cell_amo: Vec<Option<AtMostOne>>,
    piece_amo: Vec<Option<AtMostOne>>,
    piece_constraints: Vec<PieceConstraints>,
    /// Per option: the options that share a cell with it or its piece used exactly once,
    /// with their exclusions. The search asks for these hundreds of millions of times, so
    /// each is looked up in its option's own row.
    conflicts: Vec<ConflictRow>,
    /// Exclusions derived by propagation, by reason and option.
    derived: HashMap<(Vec<usize>, usize), ClauseId>,
}

impl<'c> TilingClauses<'c> {
    /// Reads each constraint of `model` (a tiling's, from `Packing::compile_with`) from its
    /// clauses `ranges` of `cnf`: which cell or piece it is about, and how it is encoded.
    fn read(
        cnf: &'c Cnf,
        ranges: &[Range<usize>],
        model: &Model,
        options: &'c [Vec<usize>],
        piece: &'c [usize],
        packing: &Packing,
    ) -> Result<(TilingClauses<'c>, AtLeastOnes), String> {
        let cells = packing.width * packing.height;
        let pieces = packing.pieces.len();
        let mut covering: Vec<Vec<usize>> = vec![Vec::new(); cells];
        let mut own: Vec<Vec<usize>> = vec![Vec::new(); pieces];
        for (option, option_cells) in options.iter().enumerate() {
            for &c in option_cells {
                covering[c].push(option);
            }
            own[piece[option]].push(option);
        }
        // Cells covered by the same options share a set: each takes the next such constraint.
        let mut cells_of: HashMap<&[usize], Vec<usize>> = HashMap::new();
        for c in (0..cells).rev().filter(|&c| !packing.blocked[c]) {
            cells_of.entry(covering[c].as_slice()).or_default().push(c);
        }
        let piece_of: HashMap<&[usize], usize> =
            (0..pieces).map(|p| (own[p].as_slice(), p)).collect();
        let mut read = TilingClauses {
            clauses: &cnf.clauses,
            options,
            piece,
            cell_amo: (0..cells).map(|_| None).collect(),
            piece_amo: (0..pieces).map(|_| None).collect(),
            piece_constraints: vec![PieceConstraints::default(); pieces],
            conflicts: Vec::new(),
            derived: HashMap::new(),
        };
        let mut at_least_ones = AtLeastOnes {
            cells: vec![0; cells],
            pieces: vec![None; pieces],
        };
        let mut cells_seen = HashSet::new();
        for (constraint, range) in model.constraints.iter().zip(ranges) {
            let (lits, exactly_one) = match constraint {
                Constraint::ExactlyOne(lits) => (lits, true),
                Constraint::AtMost(lits, _) | Constraint::AtLeast(lits, _) => (lits, false),
                other => return Err(format!("a tiling has no constraint like {other:?}")),
            };
            let of: Vec<usize> = lits
                .iter()
                .map(|l| match l.is_negative() {
                    false => Ok(l.var().index()),
                    true => Err(format!("a negated placement in {constraint:?}")),
                })
                .collect::<Result<_, _>>()?;
            let mut sorted = of.clone();
            sorted.sort_unstable();
            // The cells' "exactly one" come first, one per open cell; then the pieces'.
            let cell = match exactly_one {
                true => cells_of.get_mut(sorted.as_slice()).and_then(Vec::pop),
                false => None,
            };
            if let Some(c) = cell {
                cells_seen.insert(c);
                at_least_ones.cells[c] = range.start as ClauseId + 1;
                read.cell_amo[c] = Some(read_at_most_one(
                    &cnf.clauses,
                    range.start + 1..range.end,
                    &of,
                    model.num_vars(),
                )?);
                continue;
            }
            let Some(&p) = piece_of.get(sorted.as_slice()) else {
                return Err(format!("{constraint:?} is about no cell or piece"));
            };
            match constraint {
                Constraint::ExactlyOne(_) => {
                    at_least_ones.pieces[p] = Some(range.start as ClauseId + 1);
                    read.piece_constraints[p].at_least = Some(range.clone());
                    read.piece_amo[p] = Some(read_at_most_one(
                        &cnf.clauses,
                        range.start + 1..range.end,
                        &of,
                        model.num_vars(),
                    )?);
                }
                Constraint::AtMost(..) => read.piece_constraints[p].at_most = Some(range.clone()),
                _ => read.piece_constraints[p].at_least = Some(range.clone()),
            }
        }
        if let Some(c) = (0..cells).find(|&c| !packing.blocked[c] && !cells_seen.contains(&c)) {
            return Err(format!("cell {c} has no \"exactly one\" constraint"));
        }
        for (option, option_cells) in options.iter().enumerate() {
            let p = piece[option];
            let once = read.piece_amo[p].is_some().then_some(&own[p]);
            let mut row: Vec<u32> = option_cells
                .iter()
                .flat_map(|&c| &covering[c])
                .chain(once.into_iter().flatten())
                .filter(|&&other| other != option)
                .map(|&other| other as u32)
                .collect();
            row.sort_unstable();
            row.dedup();
            read.conflicts.push(ConflictRow::new(&row));
        }
        Ok((read, at_least_ones))
    }

    /// The exclusion of `b` by `a` (two options that share a cell, or of one piece used
    /// exactly once) from the cheapest at-most-one they are both in.
    fn pair(&mut self, a: usize, b: usize, proof: &mut dyn ProofLog) -> Option<ClauseId> {
        let at = self.conflicts[a].slot(b)?;
        if self.conflicts[a].slots[at].1 != 0 {
            return Some(self.conflicts[a].slots[at].1);
        }
        let key = (a.min(b), a.max(b));
        let shared: Vec<usize> = self.options[a]
            .iter()
            .copied()
            .filter(|c| self.options[b].contains(c))
            .collect();
        let mut best: Option<(u32, &mut AtMostOne)> = None;
        let piece = self.piece[a];
        let same_piece = piece == self.piece[b];
        let candidates = self
            .cell_amo
            .iter_mut()
            .enumerate()
            .filter(|(c, _)| shared.contains(c))
            .map(|(_, amo)| amo)
            .chain(
                self.piece_amo
                    .iter_mut()
                    .enumerate()
                    .filter(|&(p, _)| same_piece && p == piece)
                    .map(|(_, amo)| amo),
            );
        for amo in candidates.flatten() {
            let cost = match amo {
                AtMostOne::Pairwise(_) => 0,
                AtMostOne::Sequential(sequential) => sequential.cost(a, b) + 1,
            };
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, amo));
            }
        }
        let id = match best?.1 {
            AtMostOne::Pairwise(pairs) => *pairs.get(&key)?,
            AtMostOne::Sequential(sequential) => {
                let (i, j) = (sequential.position[&a], sequential.position[&b]);
                let hints = sequential.pair_hints(i.min(j), i.max(j), proof);
                proof.add(&[-(a as i32 + 1), -(b as i32 + 1)], &hints)
            }
        };
        self.conflicts[a].slots[at].1 = id;
        if let Some(back) = self.conflicts[b].slot(a) {
            self.conflicts[b].slots[back].1 = id;
        }
        Some(id)
    }
}

impl CoverClauses for TilingClauses<'_> {
    fn exclusion(&mut self, reason: &[usize], option: usize, proof: &mut dyn ProofLog) -> ClauseId {
        if let [chosen] = reason {
            if let Some(id) = self.pair(*chosen, option, proof) {
                return id;
            }
        }
        let mut key = reason.to_vec();
        key.sort_unstable();
        if let Some(&id) = self.derived.get(&(key.clone(), option)) {
            return id;
        }
        // The piece's "at most" totalizer, by propagation from the reason and the option.
        let range = self.piece_constraints[self.piece[option]]
            .at_most
            .clone()
            .unwrap_or_default();
        let assumed: Vec<i64> = key.iter().chain([&option]).map(|&o| o as i64 + 1).collect();
        let hints = propagate(self.clauses, range, &assumed).unwrap_or_default();
        let literals: Vec<i32> = assumed.iter().map(|&v| -(v as i32)).collect();
        let id = proof.add(&literals, &hints);
        self.derived.insert((key, option), id);
        id
    }

    fn shortfall(
        &mut self,
        piece: usize,
        placed: &[usize],
        _proof: &mut dyn ProofLog,
    ) -> Vec<ClauseId> {
        let range = self.piece_constraints[piece]
            .at_least
            .clone()
            .unwrap_or_default();
        let assumed: Vec<i64> = (0..self.piece.len())
            .filter(|&o| self.piece[o] == piece)
            .map(|o| match placed.contains(&o) {
                true => o as i64 + 1,
                false => -(o as i64 + 1),
            })
            .collect();
        propagate(self.clauses, range, &assumed).unwrap_or_default()
    }
}

/// Reads the at-most-one over `options` (the DIMACS variables `option + 1`) from its
/// clauses `range` of `clauses`; variables above `model_vars` are the encoding's own.
fn read_at_most_one(
    clauses: &[Vec<Lit>],
    range: Range<usize>,
    options: &[usize],
    model_vars: usize,
) -> Result<AtMostOne, String> {
    let id = |index: usize| index as ClauseId + 1;
    let is_model = |l: &Lit| l.var().index() < model_vars;
    if clauses[range.clone()]
        .iter()
        .all(|c| c.len() == 2 && c.iter().all(|l| l.is_negative() && is_model(l)))
    {
        let pairs = range
            .map(|i| {
                let (a, b) = (clauses[i][0].var().index(), clauses[i][1].var().index());
                ((a.min(b), a.max(b)), id(i))
            })
            .collect();
        return Ok(AtMostOne::Pairwise(pairs));
    }
    let broken = || {
        format!(
            "an at-most-one over {} options is neither pairwise nor Sinz's",
            options.len()
        )
    };
    // Sinz's clauses, by shape: -x s (rise), -s t (step), -x -s (stop).
    let (mut rise, mut step, mut stop) = (HashMap::new(), HashMap::new(), HashMap::new());
    for i in range {
        let [a, b] = clauses[i][..] else {
            return Err(broken());
        };
        let (model, aux): (Vec<Lit>, Vec<Lit>) = [a, b].into_iter().partition(is_model);
        match (&model[..], &aux[..]) {
            ([x], [s]) if x.is_negative() && !s.is_negative() => {
                rise.insert(x.var().index(), (s.var().index(), id(i)))
            }
            ([x], [s]) if x.is_negative() && s.is_negative() => {
                stop.insert(x.var().index(), (s.var().index(), id(i)))
            }
            ([], [s, t]) if s.is_negative() != t.is_negative() => {
                let (from, to) = if s.is_negative() { (s, t) } else { (t, s) };
                step.insert(from.var().index(), (to.var().index(), id(i)))
            }
            _ => return Err(broken()),
        };
    }
    let n = options.len();
    let targets: HashSet<usize> = step.values().map(|&(to, _)| to).collect();
    let mut aux: Vec<usize> = rise
        .values()
        .map(|&(s, _)| s)
        .filter(|s| !targets.contains(s))
        .take(1)
        .collect();
    let mut step_ids = Vec::new();
    while let Some(&(next, id)) = aux.last().and_then(|s| step.get(s)) {
        aux.push(next);
        step_ids.push(id);
    }
    if aux.len() + 1 != n {
        return Err(broken());
    }
    let index_of: HashMap<usize, usize> = aux.iter().enumerate().map(|(k, &s)| (s, k)).collect();
    let mut position = HashMap::new();
    let (mut rise_ids, mut stop_ids) = (vec![0; n - 1], vec![0; n]);
    for &option in options {
        let i = match rise.get(&option) {
            Some((s, id)) => {
                let i = *index_of.get(s).ok_or_else(broken)?;
                rise_ids[i] = *id;
                i
            }
            None => n - 1,
        };
        if i > 0 {
            match stop.get(&option) {
                Some(&(s, id)) if index_of.get(&s) == Some(&(i - 1)) => stop_ids[i] = id,
                _ => return Err(broken()),
            }
        }
        if position.insert(option, i).is_some() {
            return Err(broken());
        }
    }
    let mut indices: Vec<usize> = position.values().copied().collect();
    indices.sort_unstable();
    if indices != (0..n).collect::<Vec<_>>() {
        return Err(broken());
    }
    Ok(AtMostOne::Sequential(Sequential {
        position,
        rise: rise_ids,
        stop: stop_ids,
        step: step_ids,
        aux: aux.iter().map(|&s| s as i32 + 1).collect(),
        jumps: HashMap::new(),
    }))
}

/// Unit propagation over the clauses `range` of `clauses` alone, from the DIMACS literals
/// `assumed`: the IDs of the clauses it needs to falsify one, in the order it uses them
/// (the last is the falsified one); `None` when it falsifies none.
fn propagate(clauses: &[Vec<Lit>], range: Range<usize>, assumed: &[i64]) -> Option<Vec<ClauseId>> {
    let mut value: HashMap<usize, bool> = assumed
        .iter()
        .map(|&l| (l.unsigned_abs() as usize - 1, l > 0))
        .collect();
    let mut reason: HashMap<usize, usize> = HashMap::new();
    let mut order: Vec<usize> = Vec::new();
    let holds = |value: &HashMap<usize, bool>, l: &Lit| {
        value.get(&l.var().index()).map(|&v| v != l.is_negative())
    };
    let conflict = 'propagate: loop {
        let mut changed = false;
        for index in range.clone() {
            let clause = &clauses[index];
            let mut open = None;
            let mut open_count = 0;
            let mut satisfied = false;
            for l in clause {
                match holds(&value, l) {
                    Some(true) => satisfied = true,
                    Some(false) => {}
                    None => {
                        open = Some(*l);
                        open_count += 1;
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (open_count, open) {
                (0, _) => break 'propagate index,
                (1, Some(l)) => {
                    value.insert(l.var().index(), !l.is_negative());
                    reason.insert(l.var().index(), index);
                    order.push(l.var().index());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return None;
        }
    };
    // The clauses the conflict depends on, back through the reasons.
    let mut needed: HashSet<usize> = HashSet::from([conflict]);
    let mut pending: Vec<usize> = clauses[conflict].iter().map(|l| l.var().index()).collect();
    while let Some(var) = pending.pop() {
        if let Some(&r) = reason.get(&var) {
            if needed.insert(r) {
                pending.extend(clauses[r].iter().map(|l| l.var().index()));
            }
        }
    }
    let mut hints: Vec<ClauseId> = order
        .iter()
        .filter_map(|var| reason.get(var).copied())
        .filter(|r| needed.contains(r))
        .map(|r| r as ClauseId + 1)
        .collect();
    hints.push(conflict as ClauseId + 1);
    Some(hints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::lrat::check_lrat;
    use crate::model::Var;

    /// The CNF of "exactly one of n" as certificates encode it, over variables `1..=n`.
    fn exactly_one(n: usize) -> (Cnf, Range<usize>) {
        let mut cnf = Cnf::with_vars(n);
        let lits: Vec<Lit> = (0..n).map(|i| Var::from_index(i).positive()).collect();
        encode_constraint(&mut cnf, &Constraint::ExactlyOne(lits), AMO);
        let range = 1..cnf.clauses.len();
        (cnf, range)
    }

    /// `cnf` with `units` (DIMACS literals) added, as the checker reads it.
    fn with_units(cnf: &Cnf, units: &[i32]) -> Vec<Vec<i32>> {
        let mut clauses: Vec<Vec<i32>> = cnf
            .clauses
            .iter()
            .map(|c| c.iter().map(|l| l.dimacs() as i32).collect())
            .collect();
        clauses.extend(units.iter().map(|&u| vec![u]));
        clauses
    }

    #[test]
    fn every_pair_is_excluded_by_a_proof_the_checker_accepts() {
        // 16 options are encoded pairwise, more by Sinz's counter.
        for n in [2, 16, 17, 40] {
            let (cnf, range) = exactly_one(n);
            let options: Vec<usize> = (0..n).collect();
            let read = || read_at_most_one(&cnf.clauses, range.clone(), &options, n).unwrap();
            assert_eq!(matches!(read(), AtMostOne::Pairwise(_)), n <= 16, "{n}");
            for a in 0..n {
                for b in a + 1..n {
                    // Each proof on its own: derived jumps are remembered by ID.
                    let mut amo = read();
                    // The formula with both true; the proof derives their exclusion, then the
                    // empty clause from it.
                    let formula = with_units(&cnf, &[a as i32 + 1, b as i32 + 1]);
                    let mut bytes = Vec::new();
                    let stop = || false;
                    let mut log = LratLog(LratWriter::new(&mut bytes, &stop, formula.len() as u64));
                    let pair = match &mut amo {
                        AtMostOne::Pairwise(pairs) => pairs[&(a, b)],
                        AtMostOne::Sequential(sequential) => {
                            let hints = sequential.pair_hints(
                                sequential.position[&a],
                                sequential.position[&b],
                                &mut log,
                            );
                            log.add(&[-(a as i32 + 1), -(b as i32 + 1)], &hints)
                        }
                    };
                    let units = formula.len() as u64;
                    log.add(&[], &[units - 1, units, pair]);
                    log.0.finish().unwrap();
                    let proof = String::from_utf8(bytes).unwrap();
                    check_lrat(n + cnf.num_vars, &formula, &proof)
                        .unwrap_or_else(|e| panic!("n = {n}, pair {a} {b}: {e}\n{proof}"));
                }
            }
        }
    }

    #[test]
    fn a_counter_is_refuted_by_propagation_over_its_own_clauses() {
        // At most 2 of 6 (a totalizer): three true is refuted by its clauses alone.
        let mut cnf = Cnf::with_vars(6);
        let lits: Vec<Lit> = (0..6).map(|i| Var::from_index(i).positive()).collect();
        encode_constraint(&mut cnf, &Constraint::AtMost(lits.clone(), 2), AMO);
        let range = 0..cnf.clauses.len();
        assert_eq!(propagate(&cnf.clauses, range.clone(), &[1, 3]), None);
        let hints = propagate(&cnf.clauses, range, &[1, 3, 6]).unwrap();
        let formula = with_units(&cnf, &[1, 3, 6]);
        let units = formula.len() as u64;
        let mut proof = format!("{} 0 {} {} {}", units + 1, units - 2, units - 1, units);
        for hint in hints {
            proof.push_str(&format!(" {hint}"));
        }
        proof.push_str(" 0\n");
        check_lrat(cnf.num_vars, &formula, &proof).unwrap();
    }

    #[test]
    fn an_unknown_encoding_is_refused() {
        // Three clauses that are neither pairwise nor a chain.
        let clause =
            |lits: &[i64]| -> Vec<Lit> { lits.iter().map(|&l| Lit::from_dimacs(l)).collect() };
        let clauses = vec![clause(&[-1, 4]), clause(&[-2, 4]), clause(&[-3, -4])];
        let error = read_at_most_one(&clauses, 0..3, &[0, 1, 2], 3)
            .err()
            .unwrap();
        assert_eq!(
            error,
            "an at-most-one over 3 options is neither pairwise nor Sinz's"
        );
    }
}
