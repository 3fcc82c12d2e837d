//! How a run's answer was established, as data: what was refuted or found, by whom, with
//! what counts. The oracles, engines and the driver build it and carry it up to the
//! reports; `report::evidence` alone turns it into the sentences of reports and `--json`,
//! and `--json` gives the data too (serialised with snake_case tags).

use crate::base::{plural, Status};
use serde::{Deserialize, Serialize};

/// How evidence is put into words. The one wording is `report::evidence::words`; the
/// command line, the Python package and the crate's `prove` hand it down to the code below
/// the reports that writes evidence into files (a certificate's manifest, the `answer.json`
/// of a box merged from shards), as callers name settings for errors
/// ([`crate::base::error::NamesSettings`]).
pub type Words = fn(&Evidence) -> String;

/// Why a run stopped before it finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// An outside request (Ctrl-C) stopped it.
    Interrupted,
    /// Its deadline passed.
    TimeLimit,
}

impl Stop {
    /// The reason in words, as reports and messages give it.
    pub fn reason(self) -> &'static str {
        match self {
            Stop::Interrupted => "interrupted",
            Stop::TimeLimit => "time limit reached",
        }
    }
}

/// What kind of solver an oracle is, which decides how its claims are worded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OracleKind {
    /// Linked in and called in-process (varisat, microlp).
    Embedded,
    /// An external program started once per question (cadical, cbc; HiGHS linked in
    /// through the same MILP oracle).
    Program,
    /// A constraint solver run by MiniZinc, whose claims are not checked.
    MiniZinc,
}

/// The oracle that established an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Oracle {
    /// Its name: `varisat`, `cadical`, `microlp`, `cbc`, `gecode`.
    pub name: String,
    /// What kind of solver it is.
    pub kind: OracleKind,
}

/// The largest objective value a model allows, and where that bound comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ceiling {
    /// The puzzle's stated upper bound, with its reason.
    Stated {
        /// The bound's reason, as the puzzle gives it.
        reason: String,
    },
    /// The number of at-most-one groups in the objective.
    Structural {
        /// That number.
        groups: usize,
    },
}

/// The question a MILP oracle found infeasible.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MilpQuestion {
    /// "At least k".
    AtLeast(usize),
    /// The constraints alone (maximising).
    Constraints,
}

/// What a stopped Russian doll's packing answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DollStoppedAnswer {
    /// It meets the bound: optimal.
    MeetsBound,
    /// It reaches the asked count `found >= k`.
    Reaches {
        /// Pieces found.
        found: usize,
        /// The asked count.
        k: usize,
    },
    /// Neither: the run stopped for this reason.
    Stopped(Stop),
}

/// Which native packing search answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PackingSearch {
    /// The exact-cover tiling search.
    ExactCover,
    /// The bitboard branch and bound (piece minimums).
    BranchAndBound,
}

/// What a finished Russian-doll search's table rested on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DollTable {
    /// Scan cells of the suffix table.
    pub cells: usize,
    /// Whether lookahead cuts fired.
    pub lookahead_cuts: bool,
    /// Whether area cuts fired.
    pub area_cuts: bool,
    /// Whether cuts by the LP dual's cell weights fired.
    pub weight_cuts: bool,
    /// Entries settled by the bounds given for the boxes of the last rows.
    pub bounded_entries: u64,
    /// Search nodes.
    pub nodes: u64,
}

/// A stopped Russian doll's best packing improved by re-solving windows of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowsImproved {
    /// Pieces of the doll's own packing.
    pub from: usize,
    /// Pieces after the windows were re-solved.
    pub to: usize,
    /// Rounds of the large-neighbourhood search.
    pub rounds: u64,
}

/// A bound on a maximum packing known before any search (see
/// [`crate::driver::packing_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PackingBound {
    /// Counting cells: the pieces of a packing cover at most `cells` cells (those some
    /// placement covers), and the most pieces that fit in that many cells, smallest pieces
    /// first (each within its maximum), is `value`.
    Area {
        /// The bound.
        value: usize,
        /// Cells some placement covers.
        cells: usize,
        /// The smallest piece's cells.
        smallest: usize,
        /// Whether piece maxima made it lower than `cells / smallest`.
        limited: bool,
    },
    /// The LP relaxation of the packing model (each placement in `[0, 1]`, at most one
    /// per cell, the piece counts), its optimum `relaxation` rounded down.
    Lp {
        /// The bound.
        value: usize,
        /// The relaxation's optimum.
        relaxation: f64,
    },
}

impl PackingBound {
    /// The bound's value.
    pub fn value(self) -> usize {
        match self {
            PackingBound::Area { value, .. } | PackingBound::Lp { value, .. } => value,
        }
    }

    /// The bound's argument in a few words, as a model's stated upper bound gives it
    /// ("area: 144 cells / 4 cells per piece").
    pub fn reason(&self) -> String {
        match self {
            PackingBound::Area {
                cells,
                smallest,
                limited: false,
                ..
            } => format!("area: {cells} cells / {}", plural(*smallest as u64, "cell")),
            PackingBound::Area { cells, .. } => {
                format!("area: {cells} cells, smallest pieces first within their maxima")
            }
            PackingBound::Lp { relaxation, .. } => {
                format!("LP relaxation: {relaxation:.3} rounded down")
            }
        }
    }
}

/// Which search found a packing that meets a [`PackingBound`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundFinder {
    /// A native packing search.
    Native(PackingSearch),
    /// The native Russian-doll search (its table stopped rising at the bound).
    Doll,
    /// Re-solving windows of a stopped Russian doll's packing.
    Windows,
    /// A greedy packing improved by re-solving windows of it, beside the Russian doll.
    GreedyWindows {
        /// Windows re-solved.
        rounds: u64,
    },
    /// The best solution a model backend (SAT, MILP, an external solver) found before it
    /// stopped or proved the value itself.
    BestSoFar,
    /// varisat, asked for "at least" the bound's value.
    Varisat,
}

/// What the native chess search settled, in pieces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChessAnswer {
    /// `value` pieces found, and one better ruled out by a complete search.
    Optimal {
        /// The optimum.
        value: usize,
    },
    /// `value` pieces found, which meets the puzzle's stated bound (with its reason).
    BoundMet {
        /// The optimum.
        value: usize,
        /// The bound's argument, in words.
        reason: String,
    },
    /// A placement of `value` pieces answers the question asked ("at most `k`" when
    /// minimising, "at least `k`" when maximising).
    Reaches {
        /// Pieces placed.
        value: usize,
        /// The bound asked.
        k: usize,
    },
    /// No placement answers the question asked, by a complete search.
    Refuted {
        /// The bound asked.
        k: usize,
    },
    /// The search stopped; `bound` is what it had proved (the fewest is at least, or the
    /// most at most, `bound`).
    Stopped {
        /// Why it stopped.
        stop: Stop,
        /// The bound proved.
        bound: usize,
    },
}

/// How a run's status was established.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Evidence {
    /// A SAT oracle refuted "at least k"; `calls` solver calls (runs), `cuts` cuts;
    /// an external program's refutation checked with a DRAT proof of `drat_lemmas`
    /// lemmas, or not checked (`None`).
    SatRefuted {
        /// Who refuted it.
        by: Oracle,
        /// The bound refuted.
        k: usize,
        /// How the objective was counted (the totalizer, the sequential counter).
        counted: String,
        /// Solver calls made.
        calls: usize,
        /// Lazy-constraint cuts added.
        cuts: usize,
        /// The lemmas of the checked DRAT proof, when there was one.
        drat_lemmas: Option<usize>,
    },
    /// The run stopped while a SAT oracle decided "at least k".
    SatStopped {
        /// The oracle that was deciding.
        by: Oracle,
        /// The bound asked.
        k: usize,
        /// Why it stopped.
        stop: Stop,
    },
    /// A SAT oracle answered UNKNOWN for "at least k".
    SatUnknown {
        /// The oracle.
        by: Oracle,
        /// The bound asked.
        k: usize,
    },
    /// "At least k" is more than the objective's at-most-one groups.
    TooFewGroups {
        /// The bound asked.
        k: usize,
        /// The objective's at-most-one groups.
        groups: usize,
    },
    /// A solution of `value` meets "at least k"; SAT oracles count their `calls`.
    FoundAtLeast {
        /// Who found it.
        by: Oracle,
        /// Its value.
        value: usize,
        /// The bound asked.
        k: usize,
        /// Solver calls made (SAT oracles only).
        calls: Option<usize>,
    },
    /// A solution of a model without an objective; SAT oracles count their `calls`.
    FoundNoObjective {
        /// Who found it.
        by: Oracle,
        /// Solver calls made (SAT oracles only).
        calls: Option<usize>,
        /// Lazy-constraint cuts added.
        cuts: usize,
    },
    /// A solution of `value`, the model's ceiling; `asked_first` when that value was asked
    /// for first.
    FoundCeiling {
        /// Who found it.
        by: Oracle,
        /// Its value.
        value: usize,
        /// The ceiling it meets.
        ceiling: Ceiling,
        /// Whether the ceiling was asked for first.
        asked_first: bool,
    },
    /// The model's known solution answers the question with no solver call: it has
    /// `value` >= `k`, or `value` equals the ceiling.
    KnownSolution {
        /// Where the solution comes from, in words (the puzzle's).
        origin: String,
        /// Its value.
        value: usize,
        /// The bound it meets ("at least k"), or `None` when it meets the ceiling.
        k: Option<usize>,
        /// The ceiling it meets, when maximising.
        ceiling: Option<Ceiling>,
    },
    /// A MILP oracle found the question infeasible.
    MilpInfeasible {
        /// Who said so.
        by: Oracle,
        /// What was infeasible.
        question: MilpQuestion,
        /// Lazy-constraint cuts added.
        cuts: usize,
    },
    /// The run stopped a MILP oracle before it answered.
    MilpStopped {
        /// The oracle.
        by: Oracle,
        /// Why it stopped.
        stop: Stop,
    },
    /// A MILP oracle proved (or claimed) its solution of `value` optimal.
    MilpOptimal {
        /// Who proved it.
        by: Oracle,
        /// The optimum.
        value: usize,
        /// Lazy-constraint cuts added.
        cuts: usize,
        /// The time it took.
        seconds: f64,
    },
    /// A MILP oracle's best solution, not proven optimal when the run stopped.
    MilpUnproven {
        /// The oracle.
        by: Oracle,
        /// Why the run stopped.
        stop: Stop,
    },
    /// A model backend stopped by the run's control, with its best solution or none.
    ModelStopped {
        /// Why it stopped.
        stop: Stop,
        /// Whether a solution was found.
        found: bool,
        /// Whether the family has an objective the best solution could miss.
        objective: bool,
    },
    /// The native queens search on an empty square board: one queen per row, reached by
    /// the explicit construction.
    QueensConstruction {
        /// The board's side.
        n: usize,
    },
    /// The native queens search stopped after `nodes` nodes.
    QueensStopped {
        /// Why it stopped.
        stop: Stop,
        /// Nodes searched.
        nodes: u64,
    },
    /// The native queens search found `found` queens, at least the `k` asked.
    QueensFound {
        /// Queens placed.
        found: usize,
        /// The bound asked.
        k: usize,
        /// Nodes searched.
        nodes: u64,
    },
    /// The native queens search found `found`, the structural bound.
    QueensStructural {
        /// Queens placed, the bound.
        found: usize,
    },
    /// The native queens search exhausted every placement that could reach `reach`.
    QueensExhausted {
        /// Whether `reach` is a bound asked ("reach k") or one above the best ("beat").
        beat: bool,
        /// The value no placement reaches (`k`), or the best found (beaten by none).
        value: usize,
        /// Nodes searched.
        nodes: u64,
    },
    /// The native dissection search: a dissection found, none after a complete search, or
    /// stopped.
    Dissection {
        /// Whether one was found.
        found: bool,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
        /// Nodes searched.
        nodes: u64,
    },
    /// A native packing search found a tiling or a packing of `found` >= `k`.
    PackingFound {
        /// Which search.
        search: PackingSearch,
        /// Pieces placed (branch and bound).
        found: usize,
        /// The bound asked (branch and bound).
        k: usize,
        /// Nodes searched (exact cover).
        nodes: u64,
    },
    /// A native packing search exhausted the search: no tiling, no packing of `k`
    /// (`Some`), or the optimum found (`None`).
    PackingExhausted {
        /// Which search.
        search: PackingSearch,
        /// The bound refuted, when a bound was asked.
        k: Option<usize>,
        /// Nodes searched (exact cover).
        nodes: u64,
    },
    /// The branch and bound found no packing meeting the piece counts.
    PackingNoneMeetsMinimums,
    /// A native packing search stopped before it finished.
    PackingStopped {
        /// Which search.
        search: PackingSearch,
        /// Why it stopped.
        stop: Stop,
    },
    /// The Russian-doll search refuted "at least k" by its whole table.
    DollRefuted {
        /// The refuted count.
        k: usize,
        /// What the table rested on.
        table: DollTable,
    },
    /// The Russian-doll search, shared by processes with files between them (`--state`),
    /// refuted "at least k" by its whole table, filled round by round.
    DollShards {
        /// The refuted count.
        k: usize,
        /// Scan cells of the suffix table.
        cells: usize,
        /// Rounds merged.
        rounds: u64,
        /// Shards (processes) per round.
        shards: u32,
    },
    /// A box's Russian-doll table, filled round by round by processes with files between
    /// them (`--state`) and merged to its first cell; the packing verified by the rules.
    DollMerged {
        /// Rounds merged.
        rounds: u64,
        /// Shards (processes) per round.
        shards: u32,
    },
    /// The Russian-doll search found at least `k` (its optimum, `found`).
    DollFound {
        /// Pieces found.
        found: usize,
        /// The asked count.
        k: usize,
    },
    /// The Russian-doll search of a box settled one of its smaller boxes on the way: the
    /// entry of its last `kept` rows (or columns) allows `optimum` pieces, and a packing of
    /// that many was found there.
    DollSubBox {
        /// The searched box's width.
        width: usize,
        /// The searched box's height.
        height: usize,
        /// The smaller box's optimum.
        optimum: usize,
        /// Rows (or columns) of the searched box that the smaller box keeps.
        kept: usize,
        /// Whether `kept` counts columns (a box wider than tall is scanned by columns).
        columns: bool,
    },
    /// A stopped Russian-doll search: its packing (improved by windows or not) meets its
    /// bound (`found` is None), reaches the asked `k`, or neither (`stop` says why it
    /// stopped).
    DollStopped {
        /// The bound the search had proved when it stopped.
        bound: usize,
        /// What the packing answered: meets the bound (optimal), reaches `k`, or neither.
        answer: DollStoppedAnswer,
        /// The windows' improvement of the packing, if any.
        improved: Option<WindowsImproved>,
    },
    /// A packing of `value` pieces meets a bound known before the search: optimal.
    BoundMet {
        /// Who found it.
        by: BoundFinder,
        /// Pieces placed.
        value: usize,
        /// Search nodes, when the finder counts them.
        nodes: Option<u64>,
        /// The bound met.
        bound: PackingBound,
    },
    /// "At least k" is more than a bound known before the search.
    AboveBound {
        /// The count asked.
        k: usize,
        /// The bound.
        bound: PackingBound,
    },
    /// A run that stopped before it finished, with the bound known before the search
    /// tighter than its own.
    Bounded {
        /// How the stopped run ended.
        stopped: Box<Evidence>,
        /// The bound now reported.
        bound: PackingBound,
    },
    /// A stopped run of a maximum packing whose LP relaxation bound was not computed: the
    /// model has more placements than the LP is solved for.
    LpSkipped {
        /// How the stopped run ended.
        stopped: Box<Evidence>,
        /// The model's placements.
        placements: usize,
        /// The most placements the LP is solved for.
        limit: usize,
    },
    /// A model backend's answer to a question of the fewest: its model maximises the
    /// score, the `of` free squares left empty (see [`crate::base::Sense`]), and `inner`
    /// speaks of that score.
    Fewest {
        /// What the score is counted out of.
        of: usize,
        /// The backend's evidence, in the score's terms.
        inner: Box<Evidence>,
    },
    /// The native chess search: what it settled, and the nodes it took.
    Chess {
        /// Whether it asked for the fewest pieces (domination) or the most (independence).
        fewest: bool,
        /// What it settled.
        answer: ChessAnswer,
        /// Search nodes.
        nodes: u64,
    },
    /// Counting alone shows the puzzle impossible, for the puzzle's stated reason.
    Impossible {
        /// The puzzle's reason, in its words.
        reason: String,
    },
    /// The solver failed before it answered.
    SolverFailed {
        /// The solver's error message.
        error: String,
    },
    /// A portfolio's answer: the evidence of the member whose answer was taken, and what
    /// the other members had reached.
    Portfolio {
        /// The evidence of the member whose answer was taken.
        chosen: Box<Evidence>,
        /// What each other member had reached, failed or not reported.
        others: Vec<MemberReached>,
    },
    /// A portfolio member's stopped packing meets the bound another member proved: optimal.
    MeetsMemberBound {
        /// Who found the packing (`native`, `sat:cadical`).
        label: String,
        /// Its pieces.
        value: usize,
        /// The member that proved the bound.
        prover: String,
        /// How that member proved it.
        proof: Box<Evidence>,
    },
    /// A box's own stopped answer improved by cutting the box into boxes a sweep settled.
    SettledBoxes {
        /// How the box's own search ended.
        own: Box<Evidence>,
        /// The bound combined from two boxes, when it is better than the box's own.
        bound: Option<SplitBound>,
        /// The packing combined from smaller boxes, when it is better than the box's own.
        packing: Option<PackingFrom>,
        /// Whether the combined packing meets the combined bound.
        optimal: bool,
    },
    /// A solver's answer file read back, checked and decoded into a verified solution.
    Decoded {
        /// The answer file's name.
        answer: String,
        /// What kind of answer it is, as its format is named ("MaxSAT answer").
        answer_kind: String,
        /// The emitted file whose constraints the answer's values satisfy; `None` when no
        /// file was given (the variables are read by the names `emit` writes now).
        checked: Option<CheckedFile>,
        /// The model's variables, matched by name.
        model_vars: usize,
        /// The puzzle family whose rules verified the solution.
        family: String,
        /// Whether the solver claimed its solution optimal; `None` for a family without an
        /// objective.
        claimed_optimal: Option<bool>,
    },
}

/// An emitted file an answer's values were checked against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedFile {
    /// The file's name.
    pub name: String,
    /// What its constraints are.
    pub constraints: FileConstraint,
}

/// What an emitted file's constraints are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileConstraint {
    /// Clauses of a CNF file.
    Clause,
    /// Hard clauses of a WCNF file.
    HardClause,
    /// Rows of an OPB or LP file.
    Row,
    /// Constraints of a MiniZinc model.
    Constraint,
}

/// What a portfolio member other than the one whose answer was taken had reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "member", rename_all = "snake_case")]
pub enum MemberReached {
    /// It answered.
    Answered {
        /// The member (`native`, `sat:cadical`).
        label: String,
        /// The member whose proven answer stopped this unproven one, if that is how it
        /// ended.
        stopped_by: Option<String>,
        /// The best value it found.
        value: Option<usize>,
        /// How its run ended.
        status: Status,
        /// Its proven upper bound, when known.
        bound: Option<usize>,
    },
    /// It failed.
    Failed {
        /// The member.
        label: String,
        /// Its error, in words.
        error: String,
    },
    /// It had not reported within `waited_ms` of being stopped.
    Silent {
        /// The member.
        label: String,
        /// How long the portfolio waited for it, in milliseconds.
        waited_ms: u64,
    },
}

/// A box's bound from cutting it in two where a row (or column) boundary splits the pieces:
/// those that start among the first rows lie in one box, the rest in the other.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitBound {
    /// The bound: `near + far`.
    pub bound: usize,
    /// The box's width.
    pub width: usize,
    /// The box's height.
    pub height: usize,
    /// Rows (columns) in which the near pieces start.
    pub first: usize,
    /// How far a piece reaches past the row (column) it starts in.
    pub extent: usize,
    /// The near box's bound.
    pub near: usize,
    /// The far box's bound.
    pub far: usize,
    /// Whether the cut is between columns (else rows).
    pub columns: bool,
}

/// Where a box's packing, put together from smaller boxes' packings, comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PackingFrom {
    /// A smaller box's packing, which fits inside.
    Inside {
        /// Its pieces.
        value: usize,
        /// The smaller box's width.
        width: usize,
        /// The smaller box's height.
        height: usize,
    },
    /// Two boxes' packings, one above the other.
    Stacked {
        /// Their pieces.
        value: usize,
        /// The boxes' width.
        width: usize,
        /// The upper box's height.
        top: usize,
        /// The lower box's height.
        bottom: usize,
    },
    /// Two boxes' packings, side by side.
    SideBySide {
        /// Their pieces.
        value: usize,
        /// The boxes' height.
        height: usize,
        /// The left box's width.
        left: usize,
        /// The right box's width.
        right: usize,
    },
}

/// What a chess count of at most k pieces refuted with k - 1 before it counted k.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FewerRefuted {
    /// Nothing: the optimum was proved first (a count of the optimal placements).
    #[default]
    None,
    /// The whole question "at most k - 1?".
    Whole,
    /// This shard's part of the placements of k - 1 (none there): the shards of one split
    /// together refute k - 1, so their merged count is the count of at most k.
    ShardPart,
}

impl FewerRefuted {
    /// Whether nothing was refuted first.
    pub fn is_none(&self) -> bool {
        *self == FewerRefuted::None
    }
}

/// How a count (`solve --count`, `--all`, `--unique`) was established.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum CountEvidence {
    /// The run stopped before the optimum, the value to count, was proved.
    NoOptimum {
        /// Why it stopped.
        stop: Stop,
    },
    /// The native count of N-queens on an empty board by start constellations.
    Constellations {
        /// Start constellations counted (all of them, or those finished before the stop).
        constellations: u64,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// The native counting DFS over every placement of `queens` queens.
    QueensSearch {
        /// The queens of every counted placement (the optimum, proved first).
        queens: usize,
        /// Subproblems counted.
        done: u64,
        /// Subproblems planned.
        subproblems: u64,
        /// Search nodes.
        nodes: u64,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// No placement of `value` queens: the objective's at-most-one groups are fewer.
    TooFewGroups {
        /// The value asked.
        value: usize,
    },
    /// varisat enumeration of the placements of at least `value` queens, one blocking
    /// clause per solution over the cell variables.
    SatQueens {
        /// The value assumed.
        value: usize,
        /// The cell variables the blocking clauses are over.
        cell_vars: usize,
        /// Solver calls made.
        calls: u64,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// The native chess search listed every optimal placement (the optimum proved first).
    ChessSearch {
        /// The pieces of every counted placement.
        pieces: usize,
        /// Whether the optimum is the fewest (domination) or the most (independence).
        fewest: bool,
        /// Subproblems counted.
        done: u64,
        /// Subproblems planned.
        subproblems: u64,
        /// Search nodes.
        nodes: u64,
        /// What was refuted first with one piece fewer (a count of at most `pieces`),
        /// when not the optimum proved first.
        #[serde(default, skip_serializing_if = "FewerRefuted::is_none")]
        fewer_refuted: FewerRefuted,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// SAT enumeration of chess placements of `pieces` pieces (the optimum proved first),
    /// blocking each over the square variables.
    SatChess {
        /// The pieces of every counted placement.
        pieces: usize,
        /// Whether the optimum is the fewest (domination) or the most (independence).
        fewest: bool,
        /// The square variables the blocking clauses are over.
        square_vars: usize,
        /// Solver calls made.
        calls: u64,
        /// What was refuted first with one piece fewer (a count of at most `pieces`),
        /// when not the optimum proved first.
        #[serde(default, skip_serializing_if = "FewerRefuted::is_none")]
        fewer_refuted: FewerRefuted,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// Tilings counted, in all and up to the region's symmetries.
    Tilings {
        /// Who counted them.
        by: TilingCounter,
        /// Tilings found.
        tilings: u64,
        /// Tilings found up to the region's symmetries.
        up_to_symmetry: u64,
        /// The region's symmetries.
        symmetries: usize,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// Tilings listed by the native exact cover, each verified.
    TilingsListed,
    /// Counting alone shows the puzzle impossible, for the puzzle's stated reason.
    Impossible {
        /// The puzzle's reason, in its words.
        reason: String,
    },
    /// Dissections enumerated, each once.
    Dissections {
        /// The search that listed them.
        search: DissectionSearch,
        /// Why it stopped before finishing, if it did.
        stop: Option<Stop>,
    },
    /// A stopped `--unique` count that keeps only the classes whose least member was found.
    ClassesKept {
        /// How the count went before the stop.
        counted: Box<CountEvidence>,
        /// Solutions seen one by one.
        seen: u64,
        /// The members of the classes kept: the count given.
        members: u64,
        /// The classes kept.
        classes: u64,
    },
}

/// Which counter counted tilings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TilingCounter {
    /// The native exact cover (symmetric count: one piece placed once per orbit).
    ExactCover,
    /// varisat enumeration with one blocking clause per tiling, orbits named by their
    /// least image.
    Varisat,
}

/// The search that enumerated dissections.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DissectionSearch {
    /// The native search.
    Native {
        /// Search nodes.
        nodes: u64,
    },
    /// varisat with blocking clauses on the part variables.
    Varisat {
        /// Solver calls made.
        calls: u64,
        /// Lazy-constraint cuts added.
        cuts: u64,
    },
}
