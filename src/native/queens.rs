//! Depth-first search for queens on obstacle boards, one row at a time in the seed's
//! row-major order, with bitboards for the attack lines and an upper bound (queens placed
//! plus the row and column segments still open) that prunes hopeless branches.

use crate::puzzle::queens::{Queens, QueensSolution};
use crate::solve::{Control, Goal, RawOutcome, Size, Status};
use std::collections::HashMap;

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

impl RawOutcome<QueensSolution> {
    /// Wraps the witness into another solution type.
    pub fn map_solution<T>(self, wrap: impl FnOnce(QueensSolution) -> T) -> RawOutcome<T> {
        RawOutcome {
            status: self.status,
            witness: self.witness.map(wrap),
            bound: self.bound,
            evidence: self.evidence,
            size: self.size,
        }
    }
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
    /// An upper bound on the queens still to come: the fewer of (row segments, column
    /// segments) that still have a cell not attacked by the queens placed so far. Each
    /// segment holds at most one queen, so either count bounds the rest. The attack lines
    /// are carried down to the last row, which is what makes the bound tight.
    fn open_segments(
        &self,
        y: usize,
        segment: usize,
        columns: u64,
        diagonals: u64,
        anti_diagonals: u64,
        row_queens: u64,
    ) -> usize {
        let undecided = self.row_segments[y][segment..].iter().fold(0, |m, s| m | s);
        let free_here = self.free[y];
        let available =
            undecided & free_here & !(columns | diagonals | anti_diagonals | row_queens);
        let mut by_rows = self.row_segments[y][segment..]
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
        for below in y + 1..self.free.len() {
            let free = self.free[below];
            by_columns += (usable & !free).count_ones() as usize;
            usable &= free;
            c &= free;
            d = (d << 1) & free;
            a = (a >> 1) & free;
            let available = free & !(c | d | a);
            by_rows += self.row_segments[below]
                .iter()
                .filter(|&&s| s & available != 0)
                .count();
            open = free & !c;
            usable |= available & open;
        }
        by_columns += usable.count_ones() as usize;
        by_rows.min(by_columns)
    }
}

fn masks(board: &Queens) -> (Vec<u64>, Vec<Vec<u64>>) {
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

/// Answers `goal` for `board` by depth-first search. The search runs along the lines of
/// whichever of rows and columns has fewer segments (transposing the board, which keeps
/// the rules): then every skipped line counts against the bound at once.
pub fn solve(board: &Queens, goal: Goal, control: &Control) -> RawOutcome<QueensSolution> {
    let [rows, columns, ..] = board.segments();
    if columns.len() < rows.len() {
        let mut outcome = solve_rows(&transpose(board), goal, control);
        outcome.witness = outcome
            .witness
            .map(|s| QueensSolution::new(s.queens.iter().map(|&(x, y)| (y, x)).collect()));
        return outcome;
    }
    solve_rows(board, goal, control)
}

/// The board mirrored in its main diagonal: (x, y) becomes (y, x).
fn transpose(board: &Queens) -> Queens {
    let mut free = vec![false; board.free.len()];
    for y in 0..board.height {
        for x in 0..board.width {
            free[x * board.height + y] = board.free[y * board.width + x];
        }
    }
    Queens {
        width: board.height,
        height: board.width,
        free,
        ..board.clone()
    }
}

/// Answers `goal` for `board` by depth-first search in row-major order.
fn solve_rows(board: &Queens, goal: Goal, control: &Control) -> RawOutcome<QueensSolution> {
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
        let evidence = format!("{} after {nodes} nodes; not proven", control.reason());
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
            evidence: format!("native search found {found} >= {k} queens ({nodes} nodes)"),
            size,
        },
        Goal::AtLeast(k) => RawOutcome {
            status: Status::Unsatisfiable,
            witness: None,
            bound: Some(k - 1),
            evidence: format!(
                "native search exhausted every placement that could reach {k} ({nodes} nodes, pruned by open row and column segments)"
            ),
            size,
        },
        Goal::Maximise => {
            let evidence = if found == structural {
                format!("native search found {found}, which equals the structural bound (fewest segments in one direction: {structural})")
            } else {
                format!("native search exhausted every placement that could beat {found} ({nodes} nodes, pruned by open row and column segments)")
            };
            RawOutcome { status: Status::Optimal, witness, bound: Some(found), evidence, size }
        }
    }
}
