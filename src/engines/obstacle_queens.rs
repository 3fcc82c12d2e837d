//! Depth-first search for queens on obstacle boards, one row at a time in the seed's
//! row-major order, with bitboards for the attack lines and an upper bound (queens placed
//! plus the row and column segments still open) that prunes hopeless branches.

use crate::base::shard::Shard;
use crate::base::{Control, Evidence, Goal, RawOutcome, Size, Status};
use crate::geometry::board::{Board, QueensSolution};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The most row states remembered: about 100 MB, so large boards cannot exhaust memory;
/// past it the search goes on without remembering more.
const MEMO_LIMIT: usize = 2_000_000;

/// How many nodes pass between checks of the stop flag and the clock.
const POLL_INTERVAL: u64 = 1 << 14;

/// The search's fixed data and its state.
struct Search<'a> {
    /// Free cells of each row as a bit mask (bit x = column x).
    free: Vec<u64>,
    /// The row segments (maximal runs of free cells) of each row, as masks.
    row_segments: Vec<Vec<u64>>,
    /// Queens wanted: stop as soon as a placement reaches it.
    target: usize,
    /// The fewest queens worth finding (the decision bound; 0 when maximising).
    needed: usize,
    best: Vec<(usize, usize)>,
    placed: Vec<(usize, usize)>,
    nodes: u64,
    /// Row states whose subtree is searched: at most this many more queens fit below.
    memo: HashMap<(usize, u64, u64, u64), usize>,
    stopped: bool,
    control: &'a Control,
}

impl Search<'_> {
    /// Explores row `y` from its segment `segment` on. `columns`, `diagonals` and
    /// `anti_diagonals` mark the cells of this row attacked from above; `row_queens` the
    /// columns of queens already placed in this row.
    fn row(
        &mut self,
        y: usize,
        segment: usize,
        columns: u64,
        diagonals: u64,
        anti_diagonals: u64,
        row_queens: u64,
    ) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.control.should_stop() {
            self.stopped = true;
        }
        if self.stopped || self.best.len() >= self.target {
            return;
        }
        if y == self.free.len() {
            if self.placed.len() > self.best.len() {
                self.best = self.placed.clone();
            }
            return;
        }
        if segment == self.row_segments[y].len() {
            // Carry the attack lines to the next row; an obstacle there ends a line.
            let (c, d, a) = (
                columns | row_queens,
                diagonals | row_queens,
                anti_diagonals | row_queens,
            );
            let next = self.free.get(y + 1).copied().unwrap_or(0);
            self.row_start(y + 1, c & next, (d << 1) & next, (a >> 1) & next);
            return;
        }
        let bound = self.placed.len()
            + self.open_segments(y, segment, columns, diagonals, anti_diagonals, row_queens);
        // Only a strictly better placement, and one reaching `needed`, is worth finding.
        if bound <= self.best.len() || bound < self.needed {
            return;
        }
        let mut options =
            self.row_segments[y][segment] & self.free[y] & !(columns | diagonals | anti_diagonals);
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            self.placed.push((bit.trailing_zeros() as usize, y));
            self.row(
                y,
                segment + 1,
                columns,
                diagonals,
                anti_diagonals,
                row_queens | bit,
            );
            self.placed.pop();
        }
        self.row(
            y,
            segment + 1,
            columns,
            diagonals,
            anti_diagonals,
            row_queens,
        );
    }

    /// Starts row `y` with the attack lines from above, skipping row states whose subtree
    /// was already searched and shown unable to beat the best so far. Different placements
    /// above often leave the same lines, because obstacles cut them off.
    fn row_start(&mut self, y: usize, columns: u64, diagonals: u64, anti_diagonals: u64) {
        if y == self.free.len() {
            self.row(y, 0, columns, diagonals, anti_diagonals, 0);
            return;
        }
        let key = (y, columns, diagonals, anti_diagonals);
        let placed = self.placed.len();
        // Below this many queens in all, a placement is not worth finding.
        let worthless = self.best.len().max(self.needed.saturating_sub(1));
        if self
            .memo
            .get(&key)
            .is_some_and(|&most| placed + most <= worthless)
        {
            return;
        }
        self.row(y, 0, columns, diagonals, anti_diagonals, 0);
        if !self.stopped && self.best.len() < self.target && self.memo.len() < MEMO_LIMIT {
            // The subtree was searched in full: nothing in it beats `worthless` as it is now.
            let worthless = self.best.len().max(self.needed.saturating_sub(1));
            self.memo.insert(key, worthless.saturating_sub(placed));
        }
    }
}

impl Search<'_> {
    /// The bound of [`open_segments`] for this search's board.
    fn open_segments(
        &self,
        y: usize,
        segment: usize,
        columns: u64,
        diagonals: u64,
        anti_diagonals: u64,
        row_queens: u64,
    ) -> usize {
        let lines = Lines {
            free: &self.free,
            row_segments: &self.row_segments,
        };
        open_segments(
            &lines,
            y,
            segment,
            [columns, diagonals, anti_diagonals, row_queens],
        )
    }
}

/// A board's free cells and row segments as bit masks, one entry per row.
#[derive(Clone, Copy)]
struct Lines<'a> {
    free: &'a [u64],
    row_segments: &'a [Vec<u64>],
}

/// An upper bound on the queens still to come: the fewer of (row segments, column
/// segments) that still have a cell not attacked by the queens placed so far. Each
/// segment holds at most one queen, so either count bounds the rest. The attack lines
/// are carried down to the last row, which is what makes the bound tight.
/// `attacks` is (columns, diagonals, anti-diagonals, queens of this row).
fn open_segments(lines: &Lines, y: usize, segment: usize, attacks: [u64; 4]) -> usize {
    let [columns, diagonals, anti_diagonals, row_queens] = attacks;
    let undecided = lines.row_segments[y][segment..]
        .iter()
        .fold(0, |m, s| m | s);
    let free_here = lines.free[y];
    let available = undecided & free_here & !(columns | diagonals | anti_diagonals | row_queens);
    let mut by_rows = lines.row_segments[y][segment..]
        .iter()
        .filter(|&&s| s & available != 0)
        .count();
    let (mut c, mut d, mut a) = (
        columns | row_queens,
        diagonals | row_queens,
        anti_diagonals | row_queens,
    );
    // Column segments crossing this row and not yet used, and whether each still has an
    // unattacked cell from here down.
    let mut open = free_here & !c;
    let mut usable = open & available;
    let mut by_columns = 0;
    for below in y + 1..lines.free.len() {
        let free = lines.free[below];
        by_columns += (usable & !free).count_ones() as usize;
        usable &= free;
        c &= free;
        d = (d << 1) & free;
        a = (a >> 1) & free;
        let available = free & !(c | d | a);
        by_rows += lines.row_segments[below]
            .iter()
            .filter(|&&s| s & available != 0)
            .count();
        open = free & !c;
        usable |= available & open;
    }
    by_columns += usable.count_ones() as usize;
    by_rows.min(by_columns)
}

fn masks(board: &Board) -> (Vec<u64>, Vec<Vec<u64>>) {
    let free: Vec<u64> = (0..board.height)
        .map(|y| {
            (0..board.width)
                .filter(|&x| board.free[y * board.width + x])
                .fold(0u64, |m, x| m | 1 << x)
        })
        .collect();
    let row_segments = free
        .iter()
        .map(|&row| {
            let mut segments = Vec::new();
            let mut rest = row;
            while rest != 0 {
                let low = rest & rest.wrapping_neg();
                // Adding the lowest bit clears exactly the run of ones it starts.
                let segment = rest & !rest.wrapping_add(low);
                segments.push(segment);
                rest &= !segment;
            }
            segments
        })
        .collect();
    (free, row_segments)
}

/// A placement of `n` non-attacking queens on the empty `n` x `n` board (`n` >= 4), one
/// per row, by the classic explicit construction: the even columns, then the odd ones,
/// with the two residues mod 6 where that fails mended (n = 2 mod 6: the first odd
/// columns reordered 3, 1, then 7, 9, ..., and 5 last; n = 3 mod 6: column 2 moved after
/// the other evens, 1 and 3 after the other odds). Columns are numbered from 1 in the
/// construction; the queens are (column - 1, row).
pub fn constructive_placement(n: usize) -> Option<Vec<(usize, usize)>> {
    if n < 4 {
        return None;
    }
    let mut evens: Vec<usize> = (2..=n).step_by(2).collect();
    let mut odds: Vec<usize> = (1..=n).step_by(2).collect();
    match n % 6 {
        2 => {
            odds.swap(0, 1);
            let five = odds.remove(2);
            odds.push(five);
        }
        3 => {
            let two = evens.remove(0);
            evens.push(two);
            let (one, three) = (odds.remove(0), odds.remove(0));
            odds.extend([one, three]);
        }
        _ => {}
    }
    Some(
        evens
            .into_iter()
            .chain(odds)
            .enumerate()
            .map(|(row, column)| (column - 1, row))
            .collect(),
    )
}

/// The constructive answer on an empty square board of side 4 or more: one queen per row
/// bounds the optimum by the side, and [`constructive_placement`] reaches it.
fn empty_square(board: &Board, goal: Goal) -> Option<RawOutcome<QueensSolution>> {
    let n = board.width;
    if board.height != n || !board.free.iter().all(|&f| f) {
        return None;
    }
    let queens = QueensSolution::new(constructive_placement(n)?);
    let size = Size::nodes(0);
    let how = Evidence::QueensConstruction { n };
    Some(match goal {
        Goal::Maximise => RawOutcome::optimal(queens, n, how, size),
        Goal::AtLeast(k) if k <= n => RawOutcome::satisfiable(queens, how, size),
        Goal::AtLeast(_) => RawOutcome::unsatisfiable(Some(n), how, size),
    })
}

/// Answers `goal` for `board` by depth-first search. The search runs along the lines of
/// whichever of rows and columns has fewer segments (transposing the board, which keeps
/// the rules): then every skipped line counts against the bound at once.
pub fn solve(board: &Board, goal: Goal, control: &Control) -> RawOutcome<QueensSolution> {
    if let Some(outcome) = empty_square(board, goal) {
        return outcome;
    }
    let [rows, columns, ..] = board.segments();
    if columns.len() < rows.len() {
        let mut outcome = solve_rows(&board.transpose(), goal, control);
        outcome.witness = outcome
            .witness
            .map(|s| QueensSolution::new(s.queens.iter().map(|&(x, y)| (y, x)).collect()));
        return outcome;
    }
    solve_rows(board, goal, control)
}

/// Answers `goal` for `board` by depth-first search in row-major order.
fn solve_rows(board: &Board, goal: Goal, control: &Control) -> RawOutcome<QueensSolution> {
    let (free, row_segments) = masks(board);
    let height = board.height;
    let structural = board.segments().iter().map(Vec::len).min().unwrap_or(0);
    let target = match goal {
        Goal::Maximise => structural,
        Goal::AtLeast(k) => k,
    };
    let mut search = Search {
        free,
        row_segments,
        target,
        needed: match goal {
            Goal::Maximise => 0,
            Goal::AtLeast(k) => k,
        },
        best: Vec::new(),
        placed: Vec::new(),
        nodes: 0,
        memo: HashMap::new(),
        stopped: false,
        control,
    };
    if height > 0 && target > 0 {
        search.row_start(0, 0, 0, 0);
    }
    let nodes = search.nodes;
    let size = Size {
        variables: 0,
        constraints: nodes as usize,
        unit: "nodes",
    };
    let found = search.best.len();
    let witness = Some(QueensSolution::new(search.best));
    if search.stopped {
        let evidence = Evidence::QueensStopped {
            stop: control.stop(),
            nodes,
        };
        let status = if found > 0 {
            Status::Feasible
        } else {
            Status::Unknown
        };
        return RawOutcome {
            status,
            witness,
            bound: None,
            evidence,
            size,
        };
    }
    match goal {
        Goal::AtLeast(k) if found >= k => RawOutcome {
            status: Status::Satisfiable,
            witness,
            bound: None,
            evidence: Evidence::QueensFound { found, k, nodes },
            size,
        },
        Goal::AtLeast(k) => RawOutcome::unsatisfiable(
            Some(k - 1),
            Evidence::QueensExhausted {
                beat: false,
                value: k,
                nodes,
            },
            size,
        ),
        Goal::Maximise => {
            let evidence = if found == structural {
                Evidence::QueensStructural { found }
            } else {
                Evidence::QueensExhausted {
                    beat: true,
                    value: found,
                    nodes,
                }
            };
            RawOutcome {
                status: Status::Optimal,
                witness,
                bound: Some(found),
                evidence,
                size,
            }
        }
    }
}

/// A placement's symmetry class size when it is its class's canonical member, else `None`.
pub type Classify<'a> = dyn Fn(&QueensSolution) -> Option<usize> + Sync + 'a;

/// Called with the queens of each placement the counting search completes.
type Leaf<'a> = dyn FnMut(&[(usize, usize)]) + 'a;

/// What [`count_placements`] is asked to do.
pub struct CountRequest<'a> {
    /// Count the placements of exactly this many queens (the optimum, so none has more).
    pub queens: usize,
    /// Do only this shard's part of the deterministic subproblem list.
    pub shard: Option<Shard>,
    /// Keep the placements (every one, or only the canonical ones when `classify` is given).
    pub list: bool,
    /// For symmetry reduction: the size of a placement's symmetry class when it is its
    /// class's canonical member, `None` otherwise.
    pub classify: Option<&'a Classify<'a>>,
    /// Called from the worker threads with (subproblems done, subproblems planned).
    pub progress: &'a (dyn Fn(u64, u64) + Sync),
}

/// What [`count_placements`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlacementCount {
    /// Placements with exactly the requested number of queens (this shard's part).
    pub count: u64,
    /// With `classify`: canonical placements by the size of their class.
    pub classes: BTreeMap<usize, u64>,
    /// With `list`: the placements kept, in the deterministic subproblem order.
    pub solutions: Vec<QueensSolution>,
    /// Subproblems done, and how many this run planned.
    pub subproblems: (u64, u64),
    /// Search nodes visited.
    pub nodes: u64,
    /// Whether every planned subproblem finished (not stopped by the control).
    pub complete: bool,
}

impl PlacementCount {
    fn add(mut self, other: PlacementCount) -> PlacementCount {
        self.count += other.count;
        for (size, n) in other.classes {
            *self.classes.entry(size).or_default() += n;
        }
        self.solutions.extend(other.solutions);
        self.subproblems.0 += other.subproblems.0;
        self.subproblems.1 += other.subproblems.1;
        self.nodes += other.nodes;
        self.complete &= other.complete;
        self
    }
}

/// A row state: the row, its attack lines, and the queens still needed.
type RowState = (usize, u64, u64, u64, usize);

/// The counts of row states already searched, shared by the worker threads. Different
/// placements above often leave the same lines, because obstacles cut them off; sharing
/// across subproblems is what keeps a parallel count as cheap as a sequential one.
struct Memo {
    stripes: Vec<Mutex<HashMap<RowState, u64>>>,
}

impl Memo {
    fn new() -> Memo {
        Memo {
            stripes: (0..64).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    fn stripe(&self, key: &RowState) -> &Mutex<HashMap<RowState, u64>> {
        let mixed = (key.1 ^ key.2.rotate_left(21) ^ key.3.rotate_left(42))
            .wrapping_add(key.0 as u64 * 31 + key.4 as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.stripes[(mixed >> 58) as usize]
    }

    fn get(&self, key: &RowState) -> Option<u64> {
        let stripe = self.stripe(key).lock().unwrap_or_else(|e| e.into_inner());
        stripe.get(key).copied()
    }

    fn insert(&self, key: RowState, count: u64) {
        let mut stripe = self.stripe(&key).lock().unwrap_or_else(|e| e.into_inner());
        stripe.insert(key, count);
    }
}

/// Rows decided so far: where a counting subproblem starts.
#[derive(Clone, Debug)]
struct Prefix {
    /// The next row to decide.
    y: usize,
    /// Columns, diagonals and anti-diagonals attacked in row `y`.
    attacks: [u64; 3],
    placed: Vec<(usize, usize)>,
}

/// How many subproblems the counting search is cut into. Fixed, so the list, and with it
/// every shard, is the same on every machine.
const COUNT_SUBPROBLEMS: usize = 256;

/// The counting search: like [`Search`], but it finds every placement of exactly `queens`.
struct Counter<'a> {
    lines: Lines<'a>,
    queens: usize,
    placed: Vec<(usize, usize)>,
    /// Row states already counted, by queens still needed, shared by every subproblem:
    /// only when no placement needs to be seen one by one (no listing, no classes).
    memo: Option<&'a Memo>,
    /// Cut here: record the row state as a subproblem instead of searching below it.
    cut_at: Option<usize>,
    prefixes: Vec<Prefix>,
    nodes: u64,
    stopped: bool,
    control: &'a Control,
    leaf: &'a mut Leaf<'a>,
}

impl Counter<'_> {
    fn row_start(&mut self, y: usize, attacks: [u64; 3]) -> u64 {
        if self.cut_at == Some(y) {
            self.prefixes.push(Prefix {
                y,
                attacks,
                placed: self.placed.clone(),
            });
            return 0;
        }
        if self.placed.len() == self.queens {
            (self.leaf)(&self.placed);
            return 1;
        }
        if y == self.lines.free.len() {
            return 0;
        }
        let [c, d, a] = attacks;
        let key = (y, c, d, a, self.queens - self.placed.len());
        if let Some(known) = self.memo.and_then(|m| m.get(&key)) {
            return known;
        }
        let found = self.row(y, 0, attacks, 0);
        if !self.stopped {
            if let Some(memo) = self.memo {
                memo.insert(key, found);
            }
        }
        found
    }

    fn row(&mut self, y: usize, segment: usize, attacks: [u64; 3], row_queens: u64) -> u64 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.control.should_stop() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        // The optimum is reached: the rest of the board stays empty, one placement.
        if self.placed.len() == self.queens && self.cut_at.is_none() {
            (self.leaf)(&self.placed);
            return 1;
        }
        let [c, d, a] = attacks;
        if segment == self.lines.row_segments[y].len() {
            let next = self.lines.free.get(y + 1).copied().unwrap_or(0);
            let carried = [
                (c | row_queens) & next,
                ((d | row_queens) << 1) & next,
                ((a | row_queens) >> 1) & next,
            ];
            return self.row_start(y + 1, carried);
        }
        let open = open_segments(&self.lines, y, segment, [c, d, a, row_queens]);
        if self.placed.len() + open < self.queens {
            return 0;
        }
        let mut found = 0;
        if self.placed.len() < self.queens {
            let mut options = self.lines.row_segments[y][segment] & !(c | d | a);
            while options != 0 {
                let bit = options & options.wrapping_neg();
                options ^= bit;
                self.placed.push((bit.trailing_zeros() as usize, y));
                found += self.row(y, segment + 1, attacks, row_queens | bit);
                self.placed.pop();
            }
        }
        found + self.row(y, segment + 1, attacks, row_queens)
    }
}

/// Counts (and with `list`, keeps) every placement of exactly `request.queens` queens on
/// `board`, where that number is the optimum (so no placement has more). The search is the
/// row-by-row DFS of [`solve`] with the same bound, cut into a fixed list of subproblems
/// (row states after the first rows) that run in parallel with rayon; a shard does every
/// `count`-th of them. A stopped run returns the subproblems it finished, marked
/// incomplete.
pub fn count_placements(
    board: &Board,
    request: &CountRequest,
    control: &Control,
) -> PlacementCount {
    // The same orientation rule as `solve`: fewer segments across the search lines.
    let [rows, columns, ..] = board.segments();
    let transposed = columns.len() < rows.len();
    let searched = if transposed {
        board.transpose()
    } else {
        board.clone()
    };
    let (free, row_segments) = masks(&searched);
    let lines = Lines {
        free: &free,
        row_segments: &row_segments,
    };
    let solution_of = |placed: &[(usize, usize)]| {
        QueensSolution::new(
            placed
                .iter()
                .map(|&(x, y)| if transposed { (y, x) } else { (x, y) })
                .collect(),
        )
    };

    // Cut whole rows at a time until there are enough subproblems.
    let mut prefixes = vec![Prefix {
        y: 0,
        attacks: [0; 3],
        placed: Vec::new(),
    }];
    let height = free.len();
    let mut nodes = 0;
    let mut depth = 0;
    while prefixes.len() < COUNT_SUBPROBLEMS && depth < height && request.queens > 0 {
        depth += 1;
        let mut deeper = Vec::new();
        for prefix in &prefixes {
            if prefix.y == height || prefix.placed.len() == request.queens {
                deeper.push(prefix.clone());
                continue;
            }
            let mut ignore = |_: &[(usize, usize)]| {};
            let mut counter = Counter {
                lines,
                queens: request.queens,
                placed: prefix.placed.clone(),
                memo: None,
                cut_at: Some(prefix.y + 1),
                prefixes: Vec::new(),
                nodes: 0,
                stopped: false,
                control: &Control::unlimited(),
                leaf: &mut ignore,
            };
            counter.row(prefix.y, 0, prefix.attacks, 0);
            nodes += counter.nodes;
            deeper.extend(counter.prefixes);
        }
        prefixes = deeper;
    }

    let mine: Vec<&Prefix> = prefixes
        .iter()
        .enumerate()
        .filter(|(i, _)| request.shard.is_none_or(|s| s.owns(*i)))
        .map(|(_, p)| p)
        .collect();
    let planned = mine.len() as u64;
    let done = AtomicU64::new(0);
    let memo = Memo::new();
    let memoise = !request.list && request.classify.is_none();
    let mut total = mine
        .par_iter()
        .with_max_len(1)
        .map(|prefix| {
            let mut part = PlacementCount::default();
            if control.should_stop() {
                return part;
            }
            let mut counted = 0u64;
            let mut leaf = |placed: &[(usize, usize)]| {
                counted += 1;
                if !request.list && request.classify.is_none() {
                    return;
                }
                let solution = solution_of(placed);
                match request.classify {
                    Some(classify) => {
                        if let Some(size) = classify(&solution) {
                            *part.classes.entry(size).or_default() += 1;
                            if request.list {
                                part.solutions.push(solution);
                            }
                        }
                    }
                    None => part.solutions.push(solution),
                }
            };
            let mut counter = Counter {
                lines,
                queens: request.queens,
                placed: prefix.placed.clone(),
                memo: memoise.then_some(&memo),
                cut_at: None,
                prefixes: Vec::new(),
                nodes: 0,
                stopped: false,
                control,
                leaf: &mut leaf,
            };
            let found = counter.row_start(prefix.y, prefix.attacks);
            let (stopped, searched_nodes) = (counter.stopped, counter.nodes);
            drop(counter);
            // Without the memo, every placement passed through `leaf`.
            debug_assert!(memoise || stopped || found == counted);
            part.count = found;
            part.nodes = searched_nodes;
            part.complete = !stopped;
            if !stopped {
                part.subproblems.0 = 1;
                let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                (request.progress)(finished, planned);
            } else {
                part = PlacementCount::default();
            }
            part
        })
        .reduce(
            || PlacementCount {
                complete: true,
                ..PlacementCount::default()
            },
            PlacementCount::add,
        );
    total.subproblems.1 = planned;
    total.nodes += nodes;
    total.complete = total.subproblems.0 == planned;
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constructive_placement_is_a_solution_for_every_side_from_4_to_64() {
        for n in 4..=64 {
            let queens = constructive_placement(n).unwrap();
            assert_eq!(queens.len(), n);
            let distinct = |key: &dyn Fn(&(usize, usize)) -> i64| {
                let mut keys: Vec<i64> = queens.iter().map(key).collect();
                keys.sort_unstable();
                keys.dedup();
                keys.len() == n
            };
            assert!(distinct(&|&(x, _)| x as i64), "n = {n}: columns");
            assert!(distinct(&|&(_, y)| y as i64), "n = {n}: rows");
            assert!(
                distinct(&|&(x, y)| x as i64 - y as i64),
                "n = {n}: diagonals"
            );
            assert!(
                distinct(&|&(x, y)| (x + y) as i64),
                "n = {n}: anti-diagonals"
            );
        }
        assert_eq!(constructive_placement(3), None);
    }
}
