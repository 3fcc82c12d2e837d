//! Bounds and packings for the boxes of a packing sweep that its searches could not settle,
//! combined from the boxes they did settle.
//!
//! Cut a `w x h` box after its first `a` rows. The pieces whose top row is among those `a`
//! rows lie in the top `a + e` rows (`e`: the most rows a piece spans beyond its first), a
//! `w x (a + e)` box; the others lie in the `w x (h - a)` box below. So the optimum of the
//! box is at most the sum of those two boxes' bounds, and the same holds with columns. The
//! other way round, packings of the `w x a` and `w x (h - a)` boxes stacked are a packing of
//! the box. Applied recursively over every cut, with every box the sweep has settled or
//! bounded as a base, this gives a stopped box a proven bound and a packing that its own
//! search may not have reached (for crosses, 20 x 20: at most 14 + 22 from the 20 x 10 and
//! 20 x 14 boxes, a cut after 6 rows, and 32 stacked from 20 x 7 and 20 x 13, where its own
//! search had got to 28..210 in 30 minutes).
//!
//! It needs pieces without counts (two parts could each use a piece's whole allowance). A
//! box and its transpose are the same box when every piece's orientations are closed under
//! the transposition (pieces that may rotate and reflect are); then each settled box also
//! settles its transpose.

use std::collections::HashMap;

use super::{finish, Outcome, SolveError};
use crate::base::evidence::{PackingFrom, SplitBound};
use crate::base::{Evidence, Goal, RawOutcome, Status};
use crate::geometry::placements::orientations;
use crate::puzzle::packing::{Packing, PackingKind, PackingSolution};
use crate::puzzle::{Puzzle, Solution};

/// What is known of one box: its best packing, in its own row-major cells, and a proven
/// upper bound.
#[derive(Clone, Debug)]
struct Known {
    packing: PackingSolution,
    bound: usize,
}

/// How a box's figure was reached: its own entry, a cut after `a` rows or columns, or (for
/// packings) a smaller box's packing inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    Own,
    Rows(usize),
    Columns(usize),
    Inside(usize, usize),
}

/// A combined bound and packing for a box, better than its own in at least one of them.
#[derive(Clone, Debug)]
pub struct Combined {
    /// The proven upper bound (the box's own where no cut does better).
    pub bound: usize,
    /// How the bound was combined; `None` when it is the box's own.
    pub bound_why: Option<SplitBound>,
    /// The best packing, in the box's row-major cells (not yet verified).
    pub packing: PackingSolution,
    /// How the packing was combined; `None` when it is the box's own.
    pub packing_why: Option<PackingFrom>,
}

/// The boxes of one piece set that a sweep has settled or bounded (see the module doc).
#[derive(Clone, Debug)]
pub struct BoxTable {
    known: HashMap<(usize, usize), Known>,
    /// The most rows, and columns, a piece spans beyond its first.
    extent: (usize, usize),
    /// Whether every piece's orientations are closed under the transposition.
    transposable: bool,
    /// Cells of the smallest piece (the trivial bound of a box is its cells over this).
    smallest: usize,
    /// Columns and rows of each orientation of each piece (a box none fits holds none).
    spans: Vec<(usize, usize)>,
}

impl BoxTable {
    /// An empty table for `packing`'s pieces, or `None` if they cannot be combined: not a
    /// maximum packing, a piece with a count, or no piece.
    pub fn for_pieces(packing: &Packing) -> Option<BoxTable> {
        if packing.kind != PackingKind::Maximise
            || packing.pieces.is_empty()
            || packing
                .pieces
                .iter()
                .any(|p| p.limit.min > 0 || p.limit.max.is_some() || p.cells.is_empty())
        {
            return None;
        }
        let mut extent = (0, 0);
        let mut transposable = true;
        let mut spans = Vec::new();
        for piece in &packing.pieces {
            let shapes = orientations(&piece.cells, piece.rotate, piece.reflect);
            for shape in &shapes {
                let columns = shape.iter().map(|c| c.0).max().unwrap_or(0) as usize;
                let rows = shape.iter().map(|c| c.1).max().unwrap_or(0) as usize;
                extent = (extent.0.max(rows), extent.1.max(columns));
                spans.push((columns + 1, rows + 1));
                let flipped: Vec<(i32, i32)> = shape.iter().map(|&(x, y)| (y, x)).collect();
                // With no turn allowed, `orientations` only normalises the shape.
                transposable &= shapes.contains(&orientations(&flipped, false, false)[0]);
            }
        }
        Some(BoxTable {
            known: HashMap::new(),
            extent,
            transposable,
            smallest: packing.pieces.iter().map(|p| p.cells.len()).min()?,
            spans,
        })
    }

    /// Records what a run settled of the `width x height` box: a packing (verified) and a
    /// proven upper bound (`packing`'s size when proved optimal). Keeps the better of each.
    pub fn record(&mut self, width: usize, height: usize, packing: &PackingSolution, bound: usize) {
        self.record_one(width, height, packing.clone(), bound);
        if self.transposable {
            let transposed = PackingSolution::new(
                packing
                    .placed
                    .iter()
                    .map(|(piece, cells)| {
                        let cells = cells.iter().map(|&c| (c % width) * height + c / width);
                        (*piece, cells.collect())
                    })
                    .collect(),
            );
            self.record_one(height, width, transposed, bound);
        }
    }

    fn record_one(&mut self, width: usize, height: usize, packing: PackingSolution, bound: usize) {
        let bound = bound.min(self.trivial_bound(width, height));
        let entry = self.known.entry((width, height)).or_insert(Known {
            packing: PackingSolution::new(Vec::new()),
            bound,
        });
        entry.bound = entry.bound.min(bound);
        if packing.placed.len() > entry.packing.placed.len() {
            entry.packing = packing;
        }
    }

    /// The best bound and packing of the `width x height` box from every cut, if better
    /// than what is recorded of the box itself in either.
    pub fn combine(&self, width: usize, height: usize) -> Option<Combined> {
        let mut memo = Memo::default();
        let (bound, bound_cut) = self.upper(width, height, &mut memo);
        let (value, packing_cut) = self.lower(width, height, &mut memo);
        if bound_cut == Cut::Own && packing_cut == Cut::Own {
            return None;
        }
        let (ev, eh) = self.extent;
        let split =
            |columns: bool, first, extent, near: (usize, usize), far: (usize, usize)| SplitBound {
                bound,
                width,
                height,
                first,
                extent,
                near: memo.upper[&near].0,
                far: memo.upper[&far].0,
                columns,
            };
        let bound_why = match bound_cut {
            Cut::Own | Cut::Inside(..) => None,
            Cut::Rows(a) => Some(split(false, a, ev, (width, a + ev), (width, height - a))),
            Cut::Columns(b) => Some(split(true, b, eh, (b + eh, height), (width - b, height))),
        };
        let packing_why = match packing_cut {
            Cut::Own => None,
            Cut::Inside(w, h) => Some(PackingFrom::Inside {
                value,
                width: w,
                height: h,
            }),
            Cut::Rows(a) => Some(PackingFrom::Stacked {
                value,
                width,
                top: a,
                bottom: height - a,
            }),
            Cut::Columns(b) => Some(PackingFrom::SideBySide {
                value,
                height,
                left: b,
                right: width - b,
            }),
        };
        let mut placed = Vec::new();
        self.build((width, height), (0, 0), width, &memo, &mut placed);
        let packing = PackingSolution::new(placed);
        Some(Combined {
            bound,
            bound_why,
            packing,
            packing_why,
        })
    }

    /// Per row `r` of the `width x height` box, the best proven bound (its own or one from
    /// a cut) on the box of its last `height - r` rows: the row bounds of a Russian-doll
    /// search of the box in rows of `width`.
    pub fn row_bounds(&self, width: usize, height: usize) -> Vec<Option<usize>> {
        let mut memo = Memo::default();
        (0..height)
            .map(|r| Some(self.upper(width, height - r, &mut memo).0))
            .collect()
    }

    /// The box's own bound: recorded, else [`Self::trivial_bound`].
    fn own_bound(&self, width: usize, height: usize) -> usize {
        self.known
            .get(&(width, height))
            .map_or_else(|| self.trivial_bound(width, height), |k| k.bound)
    }

    /// 0 if no piece fits the box, else its cells over the smallest piece's.
    fn trivial_bound(&self, width: usize, height: usize) -> usize {
        if self.spans.iter().any(|&(w, h)| w <= width && h <= height) {
            width * height / self.smallest
        } else {
            0
        }
    }

    fn own_value(&self, width: usize, height: usize) -> usize {
        self.known
            .get(&(width, height))
            .map_or(0, |k| k.packing.placed.len())
    }

    /// The least bound over every cut of the box, and its cut.
    fn upper(&self, width: usize, height: usize, memo: &mut Memo) -> (usize, Cut) {
        if width == 0 || height == 0 {
            return (0, Cut::Own);
        }
        if let Some(&done) = memo.upper.get(&(width, height)) {
            return done;
        }
        let (ev, eh) = self.extent;
        let mut best = (self.own_bound(width, height), Cut::Own);
        // The top band must be a smaller box than the whole, or the cut says nothing.
        for a in (1..height).take_while(|a| a + ev < height) {
            let sum = self.upper(width, a + ev, memo).0 + self.upper(width, height - a, memo).0;
            if sum < best.0 {
                best = (sum, Cut::Rows(a));
            }
        }
        for b in (1..width).take_while(|b| b + eh < width) {
            let sum = self.upper(b + eh, height, memo).0 + self.upper(width - b, height, memo).0;
            if sum < best.0 {
                best = (sum, Cut::Columns(b));
            }
        }
        memo.upper.insert((width, height), best);
        best
    }

    /// The largest packing over every cut of the box, and its cut.
    fn lower(&self, width: usize, height: usize, memo: &mut Memo) -> (usize, Cut) {
        if width == 0 || height == 0 {
            return (0, Cut::Own);
        }
        if let Some(&done) = memo.lower.get(&(width, height)) {
            return done;
        }
        let mut best = (self.own_value(width, height), Cut::Own);
        for (w, h) in [(width, height - 1), (width - 1, height)] {
            let inside = self.lower(w, h, memo).0;
            if inside > best.0 {
                best = (inside, Cut::Inside(w, h));
            }
        }
        // A part without pieces makes the cut the other part inside the box, found above.
        for a in 1..height {
            let (top, below) = (
                self.lower(width, a, memo).0,
                self.lower(width, height - a, memo).0,
            );
            if top > 0 && below > 0 && top + below > best.0 {
                best = (top + below, Cut::Rows(a));
            }
        }
        for b in 1..width {
            let (left, right) = (
                self.lower(b, height, memo).0,
                self.lower(width - b, height, memo).0,
            );
            if left > 0 && right > 0 && left + right > best.0 {
                best = (left + right, Cut::Columns(b));
            }
        }
        memo.lower.insert((width, height), best);
        best
    }

    /// Appends the packing [`Self::lower`] chose for the `size` box, its corner at `at` in a
    /// box `whole_width` wide, as row-major cells of that box.
    fn build(
        &self,
        size: (usize, usize),
        at: (usize, usize),
        whole_width: usize,
        memo: &Memo,
        placed: &mut Vec<(usize, Vec<usize>)>,
    ) {
        let (width, height) = size;
        let cut = memo.lower.get(&size).map_or(Cut::Own, |d| d.1);
        match cut {
            Cut::Own => {
                if let Some(known) = self.known.get(&size) {
                    placed.extend(known.packing.placed.iter().map(|(piece, cells)| {
                        let cells = cells
                            .iter()
                            .map(|&c| (at.1 + c / width) * whole_width + at.0 + c % width);
                        (*piece, cells.collect())
                    }));
                }
            }
            Cut::Rows(a) => {
                self.build((width, a), at, whole_width, memo, placed);
                let below = (at.0, at.1 + a);
                self.build((width, height - a), below, whole_width, memo, placed);
            }
            Cut::Columns(b) => {
                self.build((b, height), at, whole_width, memo, placed);
                let right = (at.0 + b, at.1);
                self.build((width - b, height), right, whole_width, memo, placed);
            }
            Cut::Inside(w, h) => self.build((w, h), at, whole_width, memo, placed),
        }
    }
}

/// Per box, the best bound and packing size over the cuts, with the cut.
#[derive(Default)]
struct Memo {
    upper: HashMap<(usize, usize), (usize, Cut)>,
    lower: HashMap<(usize, usize), (usize, Cut)>,
}

impl BoxTable {
    /// Records a sweep's answer for the `width x height` box: its packing and, when proved,
    /// its optimum, else its proven bound.
    pub fn record_outcome(&mut self, width: usize, height: usize, outcome: &Outcome) {
        let empty = PackingSolution::new(Vec::new());
        let packing = match &outcome.solution {
            Some(Solution::Packing(p)) => p,
            _ => &empty,
        };
        let bound = match outcome.status {
            Status::Optimal => outcome.value,
            _ => outcome.bound,
        };
        self.record(width, height, packing, bound.unwrap_or(usize::MAX));
    }

    /// `outcome` of the `box_` (an open box of the sweep's pieces) improved by
    /// [`Self::combine`] where that does better: the packing verified by the box's rules like
    /// every answer, the bound and how both were reached added to the evidence, and optimal
    /// when they meet. Proven outcomes are returned as they are.
    pub fn improve(&self, box_: &Packing, outcome: Outcome) -> Result<Outcome, SolveError> {
        if outcome.status.is_proven() {
            return Ok(outcome);
        }
        let Some(combined) = self.combine(box_.width, box_.height) else {
            return Ok(outcome);
        };
        let own_value = outcome.value.unwrap_or(0);
        let bound = outcome
            .bound
            .map_or(combined.bound, |b| b.min(combined.bound));
        let (witness, value) = if combined.packing.placed.len() > own_value {
            let value = combined.packing.placed.len();
            (Some(Solution::Packing(combined.packing)), value)
        } else {
            (outcome.solution.clone(), own_value)
        };
        let optimal = witness.is_some() && value == bound;
        let evidence = Evidence::SettledBoxes {
            own: Box::new(outcome.evidence),
            bound: combined.bound_why,
            packing: combined.packing_why,
            optimal,
        };
        let raw = match witness {
            Some(witness) if optimal => RawOutcome::optimal(witness, value, evidence, outcome.size),
            witness => RawOutcome::stopped(witness, Some(bound), evidence, outcome.size),
        };
        let mut improved = finish(
            &Puzzle::Packing(box_.clone()),
            outcome.backend,
            Goal::Maximise,
            raw,
            outcome.elapsed,
            outcome.bounds,
        )?;
        improved.solver = outcome.solver;
        Ok(improved)
    }
}
