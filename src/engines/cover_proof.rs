//! An LRAT refutation of "an exact cover other than the listed ones", written by a search.
//!
//! Some counts are beyond CDCL solvers: the 9356 pentomino tilings of 6 x 10 with every one
//! blocked is a formula varisat does not refute in ten minutes and 9.8 GB. A search covers
//! its whole tree in seconds, and that tree *is* a clausal proof. The search is Knuth's
//! exact-cover search: it branches on the item (an open cell, or a piece used exactly once)
//! with the fewest options still possible, over those options; a node reached by the chosen
//! options `p1 .. pk` learns, once all its children are done, the lemma `-p1 .. -pk` ("not
//! all of these"), and the root learns the empty clause. Each lemma carries its hints, the
//! clauses a checker follows to see it by unit propagation, so checking is linear:
//!
//! * with `p1 .. pk` true, every option of the branching item must be false, so that the
//!   item's at-least-one clause fails. An option is false because it shares a cell with a
//!   chosen option, or its piece is used up (an *exclusion*: a clause `-r .. -o` of the
//!   chosen options `r` that exclude option `o`, which the caller derives from the at-most
//!   ones of the CNF, see [`CoverClauses`]), or its child's lemma `-p1 .. -pk -o` is now unit;
//! * listing an exclusion for every option of the item's clause at every node would cost
//!   hundreds of hints a lemma (a cell of 6 x 10 lies in up to 298 placements). So the search
//!   keeps *residuals*: the clause `-q .. r1 .. rm` of an item at depth `l` says "with the
//!   chosen options `q` that excluded the others, one of the item's options `r` still
//!   possible at depth `l` is true". A node derives its item's residual from the deepest one
//!   its ancestors hold (or from the item's own clause), with one exclusion per option lost
//!   on each step down, and holds the ones in between for the rest of their subtree. A held
//!   residual is written as a clause only when a second node derives from it (one used once
//!   would repeat its exclusions for nothing); after that, the nodes below pay only for the
//!   steps below it. This keeps the 6 x 10 proof near 35 exclusions a node;
//! * a complete cover is a listed solution, whose blocking clause is exactly the path's
//!   lemma (a cover not in the list is an error: the list is incomplete); every cell covered
//!   with a piece owed is refuted by the piece's minimum ([`CoverClauses::shortfall`]);
//! * a node whose item has one possible option (a forced move) writes no lemma for its
//!   child: the item's residual makes that option true by unit propagation, and the child's
//!   hints follow in the same lemma.
//!
//! Each child's lemma is deleted once its parent's is written, and each residual once its
//! subtree is done, so the checker's live clauses stay near the path's.
//!
//! Nothing here is trusted: the proof is checked by an LRAT checker against the CNF that the
//! certificate holds, so a wrong lemma or hint is a rejected proof, never a wrong count.

use crate::base::Control;
use std::collections::HashMap;

/// The most grid cells the search handles (its board is one `u128`).
pub const MAX_CELLS: usize = 128;

/// A chain of exclusions this long down to a held residual has it written at once (the
/// nodes below it would likely repeat them): about 4% off the 3 x 20 pentomino proof.
const LONG_CHAIN: usize = 40;

/// A clause's ID in the LRAT proof: the CNF's clauses are `1..=N`, derived ones follow.
pub type ClauseId = u64;

/// The exact cover whose refutation is written: cells of a `width x height` grid, the open
/// ones to be covered exactly once, by options (placements) each of some piece.
pub struct CoverProblem<'a> {
    /// Grid width (cells are numbered `y * width + x`).
    pub width: usize,
    /// Grid height.
    pub height: usize,
    /// Which cells must be covered; the others are blocked (no option may cover them).
    pub open: &'a [bool],
    /// Each option's cells.
    pub options: &'a [Vec<usize>],
    /// Each option's piece.
    pub piece: &'a [usize],
    /// Per piece: the most options of it a cover may use (`None`: unlimited).
    pub piece_max: &'a [Option<usize>],
    /// Per piece: the fewest options of it a cover must use.
    pub piece_min: &'a [usize],
    /// Each option's DIMACS variable in the CNF the proof refutes.
    pub var: &'a [i32],
    /// Per cell: the CNF's clause "some option covers this cell", whose literals are the
    /// options that cover it (read for open cells only).
    pub cell_clause: &'a [ClauseId],
    /// Per piece used exactly once: the CNF's clause "some option of this piece is used";
    /// `None` for the other pieces.
    pub piece_clause: &'a [Option<ClauseId>],
}

/// Where the search writes its proof.
pub trait ProofLog {
    /// Adds the clause of DIMACS `literals`, checked by unit propagation over `hints` in
    /// order; returns its ID.
    fn add(&mut self, literals: &[i32], hints: &[ClauseId]) -> ClauseId;
    /// Deletes clauses no longer needed.
    fn delete(&mut self, ids: &[ClauseId]);
    /// Whether writing has failed (the search then stops).
    fn failed(&self) -> bool;
}

/// The clauses of the CNF's constraints that the search needs besides the at-least-ones:
/// the implementer knows the encoding and derives them, writing what it derives to the
/// proof before returning its ID.
pub trait CoverClauses {
    /// The ID of the clause `-r1 .. -rk -option`: the options `reason` (true on the search's
    /// path) exclude `option`, either one of them shares a cell with it, or they are the
    /// options of its piece that use the piece up (none when the piece may not be used).
    fn exclusion(&mut self, reason: &[usize], option: usize, proof: &mut dyn ProofLog) -> ClauseId;

    /// Hints that falsify a clause once the options `placed` of `piece` are true and its
    /// others false: fewer than the piece's minimum.
    fn shortfall(
        &mut self,
        piece: usize,
        placed: &[usize],
        proof: &mut dyn ProofLog,
    ) -> Vec<ClauseId>;
}

/// What the written proof holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CoverProofStats {
    /// Search nodes.
    pub nodes: u64,
    /// Complete covers met (each a listed solution).
    pub covers: u64,
    /// Lemmas of nodes written (the root's is the empty clause).
    pub lemmas: u64,
    /// Residuals written (see the module docs).
    pub residuals: u64,
}

/// Why no proof was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoverProofError {
    /// The search is for grids of at most [`MAX_CELLS`] cells.
    #[error(
        "the proof-writing search handles grids of at most {MAX_CELLS} cells; this one has {0}"
    )]
    TooLarge(usize),
    /// An option covers a blocked cell, which the CNF does not forbid.
    #[error("option {0} covers a blocked cell")]
    Blocked(usize),
    /// The search met a cover that is not in the list: the list is incomplete.
    #[error("the search found a cover that is not listed (options {0:?})")]
    Unlisted(Vec<usize>),
    /// A time limit or Ctrl-C stopped the search.
    #[error("stopped")]
    Stopped,
    /// The proof could not be written (its writer holds the reason).
    #[error("the proof could not be written")]
    Unwritten,
}

/// A hint of a lemma being built: a clause, and the option it makes false if it is an
/// exclusion (along a forced chain two items may lose the same option, and only the first
/// exclusion of it is unit).
#[derive(Clone, Copy)]
struct Hint {
    id: ClauseId,
    excludes: Option<u32>,
}

impl Hint {
    /// A hint that is not an exclusion.
    fn clause(id: ClauseId) -> Hint {
        Hint { id, excludes: None }
    }
}

/// What refutes a node: a clause `-p1 .. -pk` (its own lemma, or a listed cover's blocking
/// clause), or, for a child of a forced move, the hints that refute it under its path.
enum Refuted {
    /// A lemma this node wrote; its parent deletes it.
    Lemma(ClauseId),
    /// The blocking clause of a listed cover (part of the CNF).
    Listed(ClauseId),
    /// Hints for the forced ancestor's lemma, and the lemmas to delete after it.
    Inline {
        hints: Vec<Hint>,
        delete: Vec<ClauseId>,
    },
}

/// What a node branches on.
enum Choice {
    /// An item: an open cell, or (the number of cells plus) a piece used exactly once.
    Item(usize),
    /// Every cell covered, every minimum met.
    Cover,
    /// Every cell covered, this piece (not an item) below its minimum.
    Shortfall(usize),
}

/// A residual (see the module docs) held for the subtree of the node at `depth`: its
/// options are the item's options possible there.
struct Residual {
    depth: usize,
    /// Its own clause once written; before, the nearest written one above it (or the item's
    /// clause), which it follows from with the steps of the unwritten ones in between.
    base: ClauseId,
    written: bool,
    /// The exclusions on the step down to it from the residual above (or the item's clause).
    step: Vec<Hint>,
    /// The chosen options that made them.
    reasons: Vec<usize>,
    /// Its options, increasing.
    options: Vec<usize>,
}

/// The search's state.
struct Search<'a, 'p> {
    problem: &'p CoverProblem<'a>,
    cells: usize,
    /// Each option's cells as a mask.
    masks: Vec<u128>,
    open: u128,
    /// Pieces that are items (used exactly once): an at-least-one clause to branch on.
    piece_is_item: Vec<bool>,
    /// Per item: its at-least-one clause's options, increasing.
    item_options: Vec<Vec<usize>>,
    used: Vec<usize>,
    /// Per piece: the depth on the path from which it is used up (`usize::MAX`: not used
    /// up).
    used_up_at: Vec<usize>,
    path: Vec<usize>,
    /// Per depth on the path: the cells the options chosen above it cover.
    covered: Vec<u128>,
    /// Per depth on the path: the options still possible there, increasing.
    possible: Vec<Vec<usize>>,
    /// Per depth on the path: the items with a residual held there.
    held: Vec<Vec<usize>>,
    /// Per item: its residuals along the path, deepest last.
    residuals: Vec<Vec<Residual>>,
    /// Per item: possible options at the current node (scratch).
    counts: Vec<u32>,
    listed: &'p HashMap<Vec<usize>, ClauseId>,
    /// Per option: the number of the last lemma that excluded it (see [`Hint`]).
    excluded_in: Vec<u64>,
    /// The hints of the lemma being written (scratch).
    ids: Vec<ClauseId>,
    /// Lists of options to reuse (see [`Search::recycle`]).
    spare: Vec<Vec<usize>>,
    clauses: &'p mut dyn CoverClauses,
    proof: &'p mut dyn ProofLog,
    control: &'p Control,
    stats: CoverProofStats,
}

/// Writes to `proof` an LRAT refutation of the CNF of `problem` (each open cell exactly once,
/// each piece within its limits) with every cover in `listed` (sorted option indices, with
/// the ID of its blocking clause, the clause of its negated options) blocked. `clauses`
/// gives the exclusions the CNF implies. See the module docs for why it is valid; the
/// caller has it checked.
pub fn write_cover_refutation(
    problem: &CoverProblem<'_>,
    listed: &HashMap<Vec<usize>, ClauseId>,
    clauses: &mut dyn CoverClauses,
    proof: &mut dyn ProofLog,
    control: &Control,
) -> Result<CoverProofStats, CoverProofError> {
    let cells = problem.width * problem.height;
    if cells > MAX_CELLS {
        return Err(CoverProofError::TooLarge(cells));
    }
    let open = (0..cells)
        .filter(|&c| problem.open[c])
        .fold(0u128, |m, c| m | 1u128 << c);
    let masks: Vec<u128> = problem
        .options
        .iter()
        .map(|cells| cells.iter().fold(0u128, |m, &c| m | 1u128 << c))
        .collect();
    if let Some(option) = masks.iter().position(|&m| m & !open != 0) {
        return Err(CoverProofError::Blocked(option));
    }
    let pieces = problem.piece_max.len();
    let piece_is_item: Vec<bool> = (0..pieces)
        .map(|p| problem.piece_min[p] == 1 && problem.piece_max[p] == Some(1))
        .collect();
    let mut item_options = vec![Vec::new(); cells + pieces];
    for (option, option_cells) in problem.options.iter().enumerate() {
        for &c in option_cells {
            item_options[c].push(option);
        }
        item_options[cells + problem.piece[option]].push(option);
    }
    // A piece that may not be used has no possible option.
    let possible: Vec<usize> = (0..masks.len())
        .filter(|&o| problem.piece_max[problem.piece[o]] != Some(0))
        .collect();
    let mut search = Search {
        problem,
        cells,
        masks,
        open,
        piece_is_item,
        item_options,
        used: vec![0; pieces],
        used_up_at: (0..pieces)
            .map(|p| match problem.piece_max[p] {
                Some(0) => 0,
                _ => usize::MAX,
            })
            .collect(),
        covered: vec![0],
        path: Vec::new(),
        possible: vec![possible],
        held: vec![Vec::new()],
        residuals: (0..cells + pieces).map(|_| Vec::new()).collect(),
        counts: vec![0; cells + pieces],
        listed,
        excluded_in: vec![0; problem.options.len()],
        ids: Vec::new(),
        spare: Vec::new(),
        clauses,
        proof,
        control,
        stats: CoverProofStats::default(),
    };
    match search.node(0, true)? {
        Refuted::Lemma(_) => {}
        // The empty cover, listed: its blocking clause is the empty clause.
        Refuted::Listed(id) => {
            search.proof.add(&[], &[id]);
        }
        Refuted::Inline { .. } => unreachable!("the root writes its lemma"),
    }
    if search.proof.failed() {
        return Err(CoverProofError::Unwritten);
    }
    Ok(search.stats)
}

impl Search<'_, '_> {
    /// Whether `option` is possible at `depth` on the path: it overlaps no option chosen
    /// above, and its piece is not used up there.
    fn possible_at(&self, option: usize, depth: usize) -> bool {
        self.masks[option] & self.covered[depth] == 0
            && self.used_up_at[self.problem.piece[option]] > depth
    }

    /// The options of `from` (possible above `depth`) still possible at `depth`.
    fn still_possible(&mut self, from: &[usize], depth: usize) -> Vec<usize> {
        let mut options = self.spare.pop().unwrap_or_default();
        options.extend(from.iter().copied().filter(|&o| self.possible_at(o, depth)));
        options
    }

    /// A copy of `options`, in a list kept for reuse.
    fn copy_of(&mut self, options: &[usize]) -> Vec<usize> {
        let mut copy = self.spare.pop().unwrap_or_default();
        copy.extend_from_slice(options);
        copy
    }

    /// Keeps a list of options for reuse: the search makes and drops millions of them.
    fn recycle(&mut self, mut options: Vec<usize>) {
        // As many as the path holds at once: beyond, they are freed.
        if self.spare.len() < 4 * MAX_CELLS {
            options.clear();
            self.spare.push(options);
        }
    }

    /// How many of `item`'s options its deepest residual (or its clause) holds.
    fn held_options(&self, item: usize) -> usize {
        self.residuals[item]
            .last()
            .map_or(self.item_options[item].len(), |r| r.options.len())
    }

    /// What the node at the end of the path branches on: the item with the fewest possible
    /// options, the one whose residual loses the fewest options first; or a complete cover.
    fn choose(&mut self, covered: u128) -> Choice {
        let depth = self.path.len();
        self.counts.fill(0);
        for &option in &self.possible[depth] {
            for &c in &self.problem.options[option] {
                self.counts[c] += 1;
            }
            self.counts[self.cells + self.problem.piece[option]] += 1;
        }
        let free = self.open & !covered;
        let owed_item = |s: &Self, piece: usize| s.piece_is_item[piece] && s.used[piece] == 0;
        if free == 0 {
            let owed = (0..self.used.len()).find(|&p| self.used[p] < self.problem.piece_min[p]);
            let Some(owed) = owed else {
                return Choice::Cover;
            };
            return match (0..self.used.len()).find(|&p| owed_item(self, p)) {
                Some(piece) => Choice::Item(self.cells + piece),
                None => Choice::Shortfall(owed),
            };
        }
        let mut items: Vec<usize> = Vec::new();
        let mut rest = free;
        while rest != 0 {
            items.push(rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
        items.extend(
            (0..self.used.len())
                .filter(|&p| owed_item(self, p))
                .map(|p| self.cells + p),
        );
        let fewest = items.iter().map(|&i| self.counts[i]).min().unwrap_or(0);
        let best = items
            .iter()
            .copied()
            .filter(|&i| self.counts[i] == fewest)
            .min_by_key(|&i| self.held_options(i) - self.counts[i] as usize)
            .unwrap_or(items[0]);
        Choice::Item(best)
    }

    /// The exclusions of the options of `from` that are not in `to` (both increasing) on the
    /// step down to `depth`, appended to `hints`; the chosen options that excluded them are
    /// added to `reasons` (once each).
    fn exclusions(
        &mut self,
        from: &[usize],
        to: &[usize],
        depth: usize,
        hints: &mut Vec<Hint>,
        reasons: &mut Vec<usize>,
    ) {
        let mut kept = to.iter().peekable();
        for &option in from {
            if kept.peek() == Some(&&option) {
                kept.next();
                continue;
            }
            // Excluded by the option chosen on this step: it overlaps it, or their piece may
            // be used once (and is, by it); else by all the chosen options of its piece.
            let id = match depth.checked_sub(1).map(|i| self.path[i]) {
                Some(chosen)
                    if self.masks[chosen] & self.masks[option] != 0
                        || self.problem.piece_max[self.problem.piece[option]] == Some(1) =>
                {
                    if !reasons.contains(&chosen) {
                        reasons.push(chosen);
                    }
                    self.clauses.exclusion(&[chosen], option, &mut *self.proof)
                }
                // None at all when the piece may not be used.
                _ => {
                    let reason: Vec<usize> = self.path[..depth]
                        .iter()
                        .copied()
                        .filter(|&p| self.problem.piece[p] == self.problem.piece[option])
                        .collect();
                    for &chosen in &reason {
                        if !reasons.contains(&chosen) {
                            reasons.push(chosen);
                        }
                    }
                    self.clauses.exclusion(&reason, option, &mut *self.proof)
                }
            };
            hints.push(Hint {
                id,
                excludes: Some(option as u32),
            });
        }
    }

    /// The residual of `item` at the current node: holds the ones between the deepest held
    /// residual and this node (unwritten), and returns the clause the node's own stands on,
    /// the exclusions from there down to the node and the item's options possible at the
    /// node. A held residual is written when a second node stands on it: one used once would
    /// only repeat its exclusions.
    fn residual(&mut self, item: usize) -> (ClauseId, Vec<Hint>, Vec<usize>) {
        let d = self.path.len();
        self.write_held(item);
        let mut remaining = self.spare.pop().unwrap_or_default();
        let (start, mut base) = match self.residuals[item].last() {
            Some(r) => {
                remaining.extend_from_slice(&r.options);
                (r.depth + 1, r.base)
            }
            None => {
                remaining.extend_from_slice(&self.item_options[item]);
                let id = if item < self.cells {
                    self.problem.cell_clause[item]
                } else {
                    self.problem.piece_clause[item - self.cells].unwrap_or_default()
                };
                (0, id)
            }
        };
        let mut pending = Vec::new();
        for depth in start..d {
            let next = self.still_possible(&remaining, depth);
            let mut step = Vec::new();
            let mut reasons = Vec::new();
            self.exclusions(&remaining, &next, depth, &mut step, &mut reasons);
            pending.extend_from_slice(&step);
            let options = self.copy_of(&next);
            self.residuals[item].push(Residual {
                depth,
                base,
                written: false,
                step,
                reasons,
                options,
            });
            self.held[depth].push(item);
            self.recycle(std::mem::replace(&mut remaining, next));
            if pending.len() >= LONG_CHAIN {
                base = self.write_held(item);
                pending.clear();
            }
        }
        let last = self.still_possible(&remaining, d);
        self.exclusions(&remaining, &last, d, &mut pending, &mut Vec::new());
        self.recycle(remaining);
        (base, pending, last)
    }

    /// Writes the deepest held residual of `item` if it is not yet written and differs from
    /// the clause it follows from; returns its clause.
    fn write_held(&mut self, item: usize) -> ClauseId {
        let stack = &self.residuals[item];
        let Some(top) = stack.len().checked_sub(1) else {
            return 0;
        };
        // The exclusions since the nearest written residual (or the item's clause).
        let first = stack.iter().rposition(|r| r.written).map_or(0, |w| w + 1);
        if stack[top].written || stack[first..].iter().all(|r| r.step.is_empty()) {
            return stack[top].base;
        }
        let mut reasons: Vec<usize> = stack
            .iter()
            .flat_map(|r| r.reasons.iter().copied())
            .collect();
        reasons.sort_unstable();
        reasons.dedup();
        let literals: Vec<i32> = reasons
            .iter()
            .map(|&o| -self.problem.var[o])
            .chain(stack[top].options.iter().map(|&o| self.problem.var[o]))
            .collect();
        self.ids.clear();
        self.ids.extend(
            stack[first..]
                .iter()
                .flat_map(|r| r.step.iter().map(|h| h.id)),
        );
        self.ids.push(stack[top].base);
        let id = self.proof.add(&literals, &self.ids);
        self.stats.residuals += 1;
        let top = &mut self.residuals[item][top];
        top.base = id;
        top.written = true;
        id
    }

    /// Drops the residuals held at the deepest level of the path; returns the IDs of the
    /// ones written, to delete once no lemma will name them.
    fn release_deepest(&mut self) -> Vec<ClauseId> {
        let items = self.held.pop().unwrap_or_default();
        let mut written = Vec::new();
        for item in items {
            if let Some(residual) = self.residuals[item].pop() {
                if residual.written {
                    written.push(residual.base);
                }
                self.recycle(residual.options);
            }
        }
        written
    }

    /// Searches below the current path, with `covered` cells covered. Writes this node's
    /// lemma when `write` (see the module docs for when it is not needed).
    fn node(&mut self, covered: u128, write: bool) -> Result<Refuted, CoverProofError> {
        self.stats.nodes += 1;
        if self.stats.nodes.is_multiple_of(4096) {
            if self.control.should_stop() {
                return Err(CoverProofError::Stopped);
            }
            if self.proof.failed() {
                return Err(CoverProofError::Unwritten);
            }
        }
        let item = match self.choose(covered) {
            Choice::Item(item) => item,
            Choice::Cover => {
                let mut cover = self.path.clone();
                cover.sort_unstable();
                return match self.listed.get(&cover) {
                    Some(&id) => {
                        self.stats.covers += 1;
                        Ok(Refuted::Listed(id))
                    }
                    None => Err(CoverProofError::Unlisted(cover)),
                };
            }
            Choice::Shortfall(piece) => {
                // Every other option of the piece overlaps the covered cells.
                let mut hints = Vec::new();
                let placed: Vec<usize> = self
                    .path
                    .iter()
                    .copied()
                    .filter(|&p| self.problem.piece[p] == piece)
                    .collect();
                for &option in &self.item_options[self.cells + piece].clone() {
                    if placed.contains(&option) {
                        continue;
                    }
                    let overlapping = self
                        .path
                        .iter()
                        .copied()
                        .find(|&p| self.masks[p] & self.masks[option] != 0);
                    if let Some(chosen) = overlapping {
                        hints.push(Hint {
                            id: self.clauses.exclusion(&[chosen], option, &mut *self.proof),
                            excludes: Some(option as u32),
                        });
                    }
                }
                let shortfall = self.clauses.shortfall(piece, &placed, &mut *self.proof);
                hints.extend(shortfall.into_iter().map(Hint::clause));
                return Ok(self.conclude(hints, Vec::new(), write));
            }
        };
        let depth = self.path.len();
        let (base, mut hints, of_item) = self.residual(item);
        let mut children = Vec::new();
        let mut delete = Vec::new();
        let mut forced = Vec::new();
        for &option in &of_item {
            let piece = self.problem.piece[option];
            self.used[piece] += 1;
            let covered_below = covered | self.masks[option];
            let used_up = self.problem.piece_max[piece].is_some_and(|max| self.used[piece] >= max);
            if used_up {
                self.used_up_at[piece] = depth + 1;
            }
            self.covered.push(covered_below);
            let mut below = self.spare.pop().unwrap_or_default();
            below.extend(self.possible[depth].iter().copied().filter(|&o| {
                self.masks[o] & covered_below == 0 && !(used_up && self.problem.piece[o] == piece)
            }));
            self.path.push(option);
            self.possible.push(below);
            self.held.push(Vec::new());
            let result = self.node(covered_below, of_item.len() > 1);
            let released = self.release_deepest();
            if let Some(below) = self.possible.pop() {
                self.recycle(below);
            }
            self.path.pop();
            self.covered.pop();
            if used_up {
                self.used_up_at[piece] = usize::MAX;
            }
            self.used[piece] -= 1;
            match result? {
                Refuted::Lemma(id) => {
                    self.proof.delete(&released);
                    children.push(id);
                    delete.push(id);
                }
                Refuted::Listed(id) => {
                    self.proof.delete(&released);
                    children.push(id);
                    forced.push(Hint::clause(id));
                }
                // Its hints may name the residuals it held: they go with this node's lemma.
                Refuted::Inline {
                    hints: below,
                    delete: lemmas,
                } => {
                    forced.extend(below);
                    delete.extend(lemmas);
                    delete.extend(released);
                }
            }
        }
        let options = of_item.len();
        self.recycle(of_item);
        if options == 1 {
            // The residual makes the one option true; its child's refutation follows.
            hints.push(Hint::clause(base));
            hints.extend(forced);
        } else {
            hints.extend(children.into_iter().map(Hint::clause));
            hints.push(Hint::clause(base));
        }
        Ok(self.conclude(hints, delete, write))
    }

    /// This node's refutation from its `hints`: its lemma when `write` (then the lemmas in
    /// `delete` go), or the hints for its forced ancestor.
    fn conclude(&mut self, hints: Vec<Hint>, delete: Vec<ClauseId>, write: bool) -> Refuted {
        if !write {
            return Refuted::Inline { hints, delete };
        }
        let lemma = self.stats.lemmas + 1;
        self.ids.clear();
        for hint in hints {
            if let Some(option) = hint.excludes {
                let last = &mut self.excluded_in[option as usize];
                if *last == lemma {
                    continue;
                }
                *last = lemma;
            }
            self.ids.push(hint.id);
        }
        let literals: Vec<i32> = self.path.iter().map(|&o| -self.problem.var[o]).collect();
        let id = self.proof.add(&literals, &self.ids);
        self.stats.lemmas += 1;
        if !self.path.is_empty() {
            self.proof.delete(&delete);
        }
        Refuted::Lemma(id)
    }
}
