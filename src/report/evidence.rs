//! The words of evidence: every [`Evidence`] and [`CountEvidence`] as the sentence reports
//! and `--json` give.
//! The data comes up from the driver untouched; this file alone words it.

use crate::base::evidence::{
    BoundFinder, Ceiling, CheckedFile, ChessAnswer, CountEvidence, DissectionSearch,
    DollStoppedAnswer, Evidence, FewerRefuted, FileConstraint, MemberReached, MilpQuestion, Oracle,
    OracleKind, PackingBound, PackingFrom, PackingSearch, SplitBound, TilingCounter,
};
use crate::base::plural;
use std::fmt;

/// `evidence` in words: the [`crate::base::evidence::Words`] the command line and the
/// Python package hand to the code that writes evidence into files.
pub fn words(evidence: &Evidence) -> String {
    evidence.to_string()
}

impl fmt::Display for Ceiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ceiling::Stated { reason } => write!(f, "the upper bound ({reason})"),
            Ceiling::Structural { groups } => {
                write!(f, "the structural bound ({groups} at-most-one groups)")
            }
        }
    }
}

impl fmt::Display for PackingBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackingBound::Area {
                value,
                cells,
                smallest,
                limited: false,
            } => write!(
                f,
                "the area bound ({cells} cells / {} = {value})",
                plural(*smallest as u64, "cell")
            ),
            PackingBound::Area {
                value,
                cells,
                limited: true,
                ..
            } => write!(
                f,
                "the area bound ({cells} cells hold at most {value} pieces, smallest first within \
                 their maxima)"
            ),
            PackingBound::Lp { value, relaxation } => write!(
                f,
                "the LP relaxation bound {value} (the relaxation's optimum is {relaxation:.3})"
            ),
        }
    }
}

impl fmt::Display for MilpQuestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MilpQuestion::AtLeast(k) => write!(f, "\"at least {k}\""),
            MilpQuestion::Constraints => f.write_str("the constraints"),
        }
    }
}

/// "1 call", "3 runs": an in-process solver is called, a program is run.
fn calls(by: &Oracle, calls: usize) -> String {
    let word = match by.kind {
        OracleKind::Embedded => "call",
        OracleKind::Program | OracleKind::MiniZinc => "run",
    };
    plural(calls as u64, word)
}

fn cuts(cuts: usize) -> String {
    plural(cuts as u64, "cut")
}

fn search_name(search: PackingSearch) -> &'static str {
    match search {
        PackingSearch::ExactCover => "native exact cover",
        PackingSearch::BranchAndBound => "native bitboard branch and bound",
    }
}

/// The bound the branch and bound uses.
const BOUNDS: &str = "bounded by the Russian-doll table of the instance without the minimums";

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::SatRefuted {
                by,
                k,
                counted,
                calls: n,
                cuts: c,
                drat_lemmas,
            } => {
                let name = &by.name;
                match by.kind {
                    OracleKind::Embedded => write!(
                        f,
                        "{name} refuted \"at least {k}\" ({counted}; {}, {})",
                        calls(by, *n),
                        cuts(*c)
                    ),
                    _ => {
                        let check = match drat_lemmas {
                            None => "refutation not checked".to_string(),
                            Some(lemmas) => format!("refutation checked (DRAT, {lemmas} lemmas)"),
                        };
                        write!(
                            f,
                            "{name} reported \"at least {k}\" unsatisfiable ({counted}; {}, {}; {check})",
                            calls(by, *n),
                            cuts(*c)
                        )
                    }
                }
            }
            Evidence::SatStopped { by, k, stop } => match by.kind {
                OracleKind::Embedded => {
                    write!(f, "{}; {} had not finished", stop.reason(), by.name)
                }
                _ => write!(
                    f,
                    "{}; {} was killed while deciding \"at least {k}\"; the best solution found is not proven optimal",
                    stop.reason(),
                    by.name
                ),
            },
            Evidence::SatUnknown { by, k } => write!(
                f,
                "{} answered UNKNOWN for at least {k}; the best solution found is not proven optimal",
                by.name
            ),
            Evidence::TooFewGroups { k, groups } => write!(
                f,
                "at least {k} is impossible: the objective has only {groups} at-most-one groups"
            ),
            Evidence::FoundAtLeast {
                by,
                value,
                k,
                calls: n,
            } => {
                write!(f, "{} found a solution with {value} >= {k}", by.name)?;
                match n {
                    Some(n) => write!(f, " ({})", calls(by, *n)),
                    None => Ok(()),
                }
            }
            Evidence::FoundNoObjective { by, calls: n, cuts: c } => {
                write!(f, "{} found a solution; the model has no objective ", by.name)?;
                match n {
                    Some(n) => write!(f, "({}, {})", calls(by, *n), cuts(*c)),
                    None => write!(f, "({c} cuts)"),
                }
            }
            Evidence::FoundCeiling {
                by,
                value,
                ceiling,
                asked_first,
            } => {
                let asked = if *asked_first {
                    " when asked for it first"
                } else {
                    ""
                };
                write!(f, "{} found {value}{asked}, which equals {ceiling}", by.name)
            }
            Evidence::KnownSolution {
                origin,
                value,
                k,
                ceiling,
            } => match (k, ceiling) {
                (Some(k), _) => {
                    write!(f, "{origin} has {value} >= {k}; no solver call was needed")
                }
                (None, Some(ceiling)) => write!(
                    f,
                    "{origin} has {value}, which equals {ceiling}; no solver call was needed"
                ),
                (None, None) => write!(f, "{origin} has {value}; no solver call was needed"),
            },
            Evidence::MilpInfeasible { by, question, cuts } => match by.kind {
                OracleKind::Embedded => {
                    write!(f, "{} proved {question} infeasible ({cuts} cuts)", by.name)
                }
                OracleKind::Program => {
                    write!(f, "{} reported {question} infeasible ({cuts} cuts)", by.name)
                }
                OracleKind::MiniZinc => write!(
                    f,
                    "{} (MiniZinc) reported {question} unsatisfiable ({cuts} cuts); the solver's \
                     claim, not checked",
                    by.name
                ),
            },
            Evidence::MilpStopped { by, stop } => write!(
                f,
                "{}; {} was stopped before it answered",
                stop.reason(),
                by.name
            ),
            Evidence::MilpOptimal {
                by,
                value,
                cuts,
                seconds,
            } => match by.kind {
                OracleKind::Embedded => write!(
                    f,
                    "{} branch and bound bounded the objective below {} ({cuts} cuts, {seconds:.3} s)",
                    by.name,
                    value + 1
                ),
                OracleKind::Program => write!(
                    f,
                    "{} reported its solution optimal ({cuts} cuts)",
                    by.name
                ),
                OracleKind::MiniZinc => write!(
                    f,
                    "{} (MiniZinc) reported its solution optimal ({cuts} cuts); the solver's \
                     claim, not checked",
                    by.name
                ),
            },
            Evidence::MilpUnproven { by, stop } => match by.kind {
                OracleKind::Embedded => write!(
                    f,
                    "{}; {}'s best is not proven optimal",
                    stop.reason(),
                    by.name
                ),
                OracleKind::Program => write!(
                    f,
                    "{} stopped before proving its solution optimal",
                    by.name
                ),
                OracleKind::MiniZinc => write!(
                    f,
                    "{} (MiniZinc) stopped before proving its solution optimal",
                    by.name
                ),
            },
            Evidence::ModelStopped {
                stop,
                found,
                objective,
            } => {
                // Only a family with an objective has an optimum the best solution could miss.
                let what = match (found, objective) {
                    (true, true) => "the best solution found is not proven optimal",
                    (false, true) => "no solution found",
                    (false, false) => "no solution found before the search stopped",
                    (true, false) => "the search stopped",
                };
                write!(f, "{}; {what}", stop.reason())
            }
            Evidence::QueensConstruction { n } => write!(
                f,
                "one queen per row bounds an empty {n} x {n} board by {n}, and the explicit construction (even columns, then odd, mended for n mod 6 = 2 or 3) places {n}"
            ),
            Evidence::QueensStopped { stop, nodes } => {
                write!(f, "{} after {nodes} nodes; not proven", stop.reason())
            }
            Evidence::QueensFound { found, k, nodes } => write!(
                f,
                "native search found {found} >= {} ({nodes} nodes)",
                plural(*k as u64, "queen")
            ),
            Evidence::QueensStructural { found } => write!(
                f,
                "native search found {found}, which equals the structural bound (fewest segments in one direction: {found})"
            ),
            Evidence::QueensExhausted { beat, value, nodes } => write!(
                f,
                "native search exhausted every placement that could {} {value} ({nodes} nodes, pruned by open row and column segments)",
                if *beat { "beat" } else { "reach" }
            ),
            Evidence::Dissection { found, stop, nodes } => match (found, stop) {
                (true, _) => write!(f, "native search found a dissection ({nodes} nodes)"),
                (false, None) => write!(
                    f,
                    "native search: no dissection, every map set and cell assignment tried ({nodes} nodes)"
                ),
                (false, Some(stop)) => {
                    write!(f, "{}; the native search had not finished", stop.reason())
                }
            },
            Evidence::PackingFound {
                search,
                found,
                k,
                nodes,
            } => match search {
                PackingSearch::ExactCover => {
                    write!(f, "native exact cover found a tiling ({nodes} nodes)")
                }
                PackingSearch::BranchAndBound => {
                    write!(f, "{} found {found} >= {k}", search_name(*search))
                }
            },
            Evidence::PackingExhausted { search, k, nodes } => match (search, k) {
                (PackingSearch::ExactCover, _) => write!(
                    f,
                    "native exact cover exhausted the search: no tiling ({nodes} nodes)"
                ),
                (PackingSearch::BranchAndBound, Some(k)) => write!(
                    f,
                    "{} exhausted the search: no packing with {k}",
                    search_name(*search)
                ),
                (PackingSearch::BranchAndBound, None) => {
                    write!(f, "{} exhausted the search ({BOUNDS})", search_name(*search))
                }
            },
            Evidence::PackingNoneMeetsMinimums => write!(
                f,
                "{}: no packing meets the piece counts",
                search_name(PackingSearch::BranchAndBound)
            ),
            Evidence::PackingStopped { search, stop } => match search {
                PackingSearch::ExactCover => {
                    write!(f, "{}; exact cover had not finished", stop.reason())
                }
                PackingSearch::BranchAndBound => write!(
                    f,
                    "{}; {} had not finished",
                    stop.reason(),
                    search_name(*search)
                ),
            },
            Evidence::DollRefuted { k, table } => {
                write!(
                    f,
                    "native Russian-doll search refuted \"at least {k}\": the suffix table of {} scan cells, from the last back, with a memo of exhausted states",
                    table.cells
                )?;
                let cuts: Vec<&str> = [
                    (table.lookahead_cuts, "lookahead cuts"),
                    (table.area_cuts, "area cuts"),
                    (table.weight_cuts, "cuts by the LP dual's cell weights"),
                ]
                .into_iter()
                .filter_map(|(fired, name)| fired.then_some(name))
                .collect();
                if let Some((last, rest)) = cuts.split_last() {
                    for name in rest {
                        write!(f, ", {name}")?;
                    }
                    write!(f, " and {last}")?;
                }
                match table.bounded_entries {
                    0 => {}
                    1 => f.write_str(
                        ", 1 entry settled by the bounds given for the boxes of its last rows",
                    )?,
                    n => write!(
                        f,
                        ", {n} entries settled by the bounds given for the boxes of its last rows"
                    )?,
                }
                write!(f, " ({} nodes)", table.nodes)
            }
            Evidence::DollShards {
                k,
                cells,
                rounds,
                shards,
            } => write!(
                f,
                "native Russian-doll search refuted \"at least {k}\": the suffix table of {cells} scan cells, from the last back, filled in {} of {} (processes with files between them)",
                plural(*rounds, "round"),
                plural(u64::from(*shards), "shard")
            ),
            Evidence::DollMerged { rounds, shards } => write!(
                f,
                "the Russian doll's table, filled in {} of {}; the packing verified by the rules",
                plural(*rounds, "round"),
                plural(u64::from(*shards), "shard")
            ),
            Evidence::DollFound { found, k } => write!(
                f,
                "native Russian-doll search found {found} >= {k} (the optimum)"
            ),
            Evidence::DollSubBox {
                width,
                height,
                optimum,
                kept,
                columns,
            } => write!(
                f,
                "native Russian-doll search of the {width} x {height} box: its suffix table allows at most {optimum} \
                 pieces in its last {kept} {} (this box), and a packing of {optimum} was found there",
                if *columns { "columns" } else { "rows" }
            ),
            Evidence::DollStopped {
                bound,
                answer,
                improved,
            } => {
                match answer {
                    DollStoppedAnswer::MeetsBound => write!(
                        f,
                        "its packing meets the bound of the native Russian-doll search, which had not finished (at most {bound} pieces)"
                    )?,
                    DollStoppedAnswer::Reaches { found, k } => write!(
                        f,
                        "found {found} >= {k} after the native Russian-doll search stopped (at most {bound} pieces)"
                    )?,
                    DollStoppedAnswer::Stopped(stop) => write!(
                        f,
                        "{}; the native Russian-doll search had not finished (at most {bound} pieces)",
                        stop.reason()
                    )?,
                }
                if let Some(improved) = improved {
                    write!(
                        f,
                        "; its best packing, {} pieces, improved to {} by re-solving windows of it (large-neighbourhood search, {} rounds)",
                        improved.from, improved.to, improved.rounds
                    )?;
                }
                Ok(())
            }
            Evidence::BoundMet {
                by,
                value,
                nodes,
                bound,
            } => {
                let nodes = nodes.map_or(String::new(), |n| format!(" ({n} nodes)"));
                match by {
                    BoundFinder::Native(PackingSearch::ExactCover) => write!(
                        f,
                        "native exact cover found a tiling of {value} pieces{nodes}, which meets {bound}"
                    ),
                    BoundFinder::Native(search) => write!(
                        f,
                        "{} found {value}{nodes}, which meets {bound}",
                        search_name(*search)
                    ),
                    BoundFinder::Doll => write!(
                        f,
                        "native Russian-doll search found {value}{nodes}, which meets {bound}"
                    ),
                    BoundFinder::Windows => write!(
                        f,
                        "re-solving windows of the stopped native Russian-doll search's packing \
                         found {value}, which meets {bound}"
                    ),
                    BoundFinder::GreedyWindows { rounds: 0 } => write!(
                        f,
                        "a greedy packing, beside the native Russian-doll search, has {value}, \
                         which meets {bound}"
                    ),
                    BoundFinder::GreedyWindows { rounds } => write!(
                        f,
                        "a greedy packing improved by re-solving windows of it ({}), beside the \
                         native Russian-doll search, has {value}, which meets {bound}",
                        plural(*rounds, "round")
                    ),
                    BoundFinder::BestSoFar => write!(
                        f,
                        "the best solution found before the run stopped has {value}, which meets \
                         {bound}"
                    ),
                    BoundFinder::Varisat => write!(
                        f,
                        "varisat found a packing of {value} pieces (\"at least {value}\"), which \
                         meets {bound}"
                    ),
                }
            }
            Evidence::AboveBound { k, bound } => {
                write!(f, "at least {k} is impossible: {bound} is lower")
            }
            Evidence::Bounded { stopped, bound } => {
                write!(f, "{stopped}; at most {} by {bound}", bound.value())
            }
            Evidence::Fewest { of, inner } => write!(
                f,
                "the model counts the squares left empty, of {of} free: {inner}"
            ),
            Evidence::Chess {
                fewest,
                answer,
                nodes,
            } => {
                let search = if *fewest {
                    "native domination search"
                } else {
                    "native independence search"
                };
                let nodes = plural(*nodes, "node");
                match answer {
                    ChessAnswer::Optimal { value } if *fewest => write!(
                        f,
                        "{search} refuted {} ({nodes})",
                        plural(value.saturating_sub(1) as u64, "piece")
                    ),
                    ChessAnswer::Optimal { value } => write!(
                        f,
                        "{search} refuted {} ({nodes})",
                        plural(*value as u64 + 1, "piece")
                    ),
                    ChessAnswer::BoundMet { value, reason } => write!(
                        f,
                        "{search} found {}, which meets the bound ({reason}) ({nodes})",
                        plural(*value as u64, "piece")
                    ),
                    ChessAnswer::Reaches { value, k } => {
                        let side = if *fewest { "at most" } else { "at least" };
                        write!(
                            f,
                            "{search} found {}, {side} the {k} asked ({nodes})",
                            plural(*value as u64, "piece")
                        )
                    }
                    ChessAnswer::Refuted { k } => {
                        let side = if *fewest { "at most" } else { "at least" };
                        write!(f, "{search} refuted \"{side} {k}\" ({nodes})")
                    }
                    ChessAnswer::Stopped { stop, bound } => {
                        let side = if *fewest { "at least" } else { "at most" };
                        write!(
                            f,
                            "{search} stopped ({}) after {nodes}; the optimum is {side} {bound}",
                            stop.reason()
                        )
                    }
                }
            }
            Evidence::LpSkipped {
                stopped,
                placements,
                limit,
            } => write!(
                f,
                "{stopped} (the LP relaxation bound was not computed: {placements} placements, \
                 more than {limit})"
            ),
            Evidence::Decoded {
                answer,
                answer_kind,
                checked,
                model_vars,
                family,
                claimed_optimal,
            } => {
                write!(f, "{answer} ({answer_kind}) ")?;
                match checked {
                    Some(CheckedFile { name, constraints }) => {
                        let unit = match constraints {
                            FileConstraint::Clause => "clause",
                            FileConstraint::HardClause => "hard clause",
                            FileConstraint::Row => "row",
                            FileConstraint::Constraint => "constraint",
                        };
                        write!(f, "satisfies every {unit} of {name}")?
                    }
                    None => f.write_str(
                        "read by the names `emit` writes now (no file given, so none of its \
                         constraints was checked)",
                    )?,
                }
                write!(
                    f,
                    "; the {model_vars} model variables matched by name, the solution verified \
                     by the {family} rules"
                )?;
                f.write_str(match claimed_optimal {
                    Some(true) => "; the solver's claim that it is optimal is not checked",
                    Some(false) => "; not claimed optimal",
                    None => "",
                })
            }
            Evidence::Impossible { reason } => f.write_str(reason),
            Evidence::SolverFailed { error } => f.write_str(error),
            Evidence::Portfolio { chosen, others } => {
                write!(f, "{chosen} (portfolio: ")?;
                for (i, other) in others.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{other}")?;
                }
                f.write_str(")")
            }
            Evidence::MeetsMemberBound {
                label,
                value,
                prover,
                proof,
            } => write!(
                f,
                "{label} found {value}, which meets the bound {prover} proved: {proof}"
            ),
            Evidence::SettledBoxes {
                own,
                bound,
                packing,
                optimal,
            } => {
                let how: Vec<String> = [
                    bound.as_ref().map(ToString::to_string),
                    packing.as_ref().map(ToString::to_string),
                ]
                .into_iter()
                .flatten()
                .collect();
                let how = how.join("; ");
                if *optimal {
                    write!(
                        f,
                        "optimal by cutting the box into boxes this sweep settled: {how} (its own \
                         search: {own})"
                    )
                } else {
                    write!(f, "{own}; from boxes this sweep settled: {how}")
                }
            }
        }
    }
}

impl fmt::Display for MemberReached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemberReached::Answered {
                label,
                stopped_by,
                value,
                status,
                bound,
            } => {
                f.write_str(label)?;
                if let Some(chosen) = stopped_by {
                    write!(f, ", stopped when {chosen} answered,")?;
                }
                match value {
                    Some(value) => write!(f, " had found {value}")?,
                    None => f.write_str(" had found nothing")?,
                }
                match (status.is_proven(), bound) {
                    (true, _) => write!(f, " and says {}", status.answer(*value)),
                    (false, Some(bound)) => write!(f, ", at most {bound}"),
                    (false, None) => Ok(()),
                }
            }
            MemberReached::Failed { label, error } => write!(f, "{label} failed: {error}"),
            MemberReached::Silent { label, waited_ms } => write!(
                f,
                "{label} had not reported within {waited_ms} ms of being stopped"
            ),
        }
    }
}

impl fmt::Display for SplitBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SplitBound {
            bound,
            width,
            height,
            first,
            extent,
            near,
            far,
            columns,
        } = *self;
        if columns {
            write!(
                f,
                "at most {bound}: {near} for the pieces whose left column is among the first \
                 {first} (they lie in the left {} x {height} box) and {far} for the rest (the {} \
                 x {height} box to their right)",
                first + extent,
                width - first
            )
        } else {
            write!(
                f,
                "at most {bound}: {near} for the pieces whose top row is among the first {first} \
                 (they lie in the top {width} x {} box) and {far} for the rest (the {width} x {} \
                 box below)",
                first + extent,
                height - first
            )
        }
    }
}

impl fmt::Display for PackingFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PackingFrom::Inside {
                value,
                width,
                height,
            } => write!(
                f,
                "a packing of {value} from the {width} x {height} box, which fits inside"
            ),
            PackingFrom::Stacked {
                value,
                width,
                top,
                bottom,
            } => write!(
                f,
                "a packing of {value} stacked from packings of the {width} x {top} and {width} x \
                 {bottom} boxes"
            ),
            PackingFrom::SideBySide {
                value,
                height,
                left,
                right,
            } => write!(
                f,
                "a packing of {value} put together from packings of the {left} x {height} and \
                 {right} x {height} boxes side by side"
            ),
        }
    }
}

impl fmt::Display for CountEvidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountEvidence::NoOptimum { stop } => {
                write!(f, "{} before the optimum was found", stop.reason())
            }
            CountEvidence::Constellations {
                constellations,
                stop,
            } => {
                let how = "native count of N-queens by start constellations (border queens canonical under the 8 symmetries, completions weighted by orbit size)";
                let counted = plural(*constellations, "constellation");
                match stop {
                    None => write!(f, "{how}, {counted}"),
                    Some(stop) => write!(
                        f,
                        "{}; {how}: the {counted} finished before the stop, a lower bound",
                        stop.reason()
                    ),
                }
            }
            CountEvidence::QueensSearch {
                queens,
                done,
                subproblems,
                nodes,
                stop,
            } => match stop {
                None => write!(
                    f,
                    "native counting DFS over every placement of {} (the optimum, proved first), pruned by open row and column segments; {}, {}",
                    plural(*queens as u64, "queen"),
                    plural(*subproblems, "subproblem"),
                    plural(*nodes, "node")
                ),
                Some(stop) => write!(
                    f,
                    "{}; {done} of {subproblems} subproblems counted",
                    stop.reason()
                ),
            },
            CountEvidence::TooFewGroups { value } => write!(
                f,
                "at least {value} is impossible by counting the at-most-one groups"
            ),
            CountEvidence::SatQueens {
                value,
                cell_vars,
                calls,
                stop,
            } => match stop {
                None => write!(
                    f,
                    "varisat enumeration with \"at least {value}\" assumed and one blocking clause per solution over the {cell_vars} cell variables, until unsatisfiable ({})",
                    plural(*calls, "call")
                ),
                Some(stop) => write!(f, "{}; enumeration not finished", stop.reason()),
            },
            CountEvidence::ChessSearch {
                pieces,
                fewest,
                done,
                subproblems,
                nodes,
                fewer_refuted,
                stop,
            } => match stop {
                None => write!(
                    f,
                    "native {} search over every placement of {} ({}); {}, {}",
                    if *fewest { "domination" } else { "independence" },
                    plural(*pieces as u64, "piece"),
                    first_step(*fewer_refuted, *pieces),
                    plural(*subproblems, "subproblem"),
                    plural(*nodes, "node")
                ),
                Some(stop) => write!(
                    f,
                    "{}; {done} of {subproblems} subproblems counted",
                    stop.reason()
                ),
            },
            CountEvidence::SatChess {
                pieces,
                fewest,
                square_vars,
                calls,
                fewer_refuted,
                stop,
            } => match stop {
                None => write!(
                    f,
                    "varisat enumeration with \"{} {pieces}\" pieces assumed and one blocking clause per solution over the {square_vars} square variables, until unsatisfiable ({}){}",
                    if *fewest { "at most" } else { "at least" },
                    plural(*calls, "call"),
                    if fewer_refuted.is_none() {
                        String::new()
                    } else {
                        format!("; {}", first_step(*fewer_refuted, *pieces))
                    }
                ),
                Some(stop) => write!(f, "{}; enumeration not finished", stop.reason()),
            },
            CountEvidence::Tilings {
                by,
                tilings,
                up_to_symmetry,
                symmetries,
                stop,
            } => {
                let how = match by {
                    TilingCounter::ExactCover => {
                        "native exact cover (symmetric count: one piece placed once per orbit)"
                    }
                    TilingCounter::Varisat => {
                        "varisat enumeration with one blocking clause per tiling, orbits named by their least image"
                    }
                };
                let counted = format!(
                    "{tilings} tilings, {up_to_symmetry} up to the region's {symmetries} symmetries"
                );
                match stop {
                    None => write!(f, "{how}: {counted}"),
                    Some(stop) => write!(
                        f,
                        "{}; {how}: {counted} found before the stop, a lower bound",
                        stop.reason()
                    ),
                }
            }
            CountEvidence::TilingsListed => {
                f.write_str("native exact cover, every tiling listed and verified")
            }
            CountEvidence::Impossible { reason } => f.write_str(reason),
            CountEvidence::Dissections { search, stop } => {
                if let Some(stop) = stop {
                    write!(f, "{}; ", stop.reason())?;
                }
                match search {
                    DissectionSearch::Native { nodes } => {
                        write!(f, "native search ({nodes} nodes)")?
                    }
                    DissectionSearch::Varisat { calls, cuts } => write!(
                        f,
                        "varisat with blocking clauses on the part variables ({}, {})",
                        plural(*calls, "call"),
                        plural(*cuts, "cut")
                    )?,
                }
                if stop.is_some() {
                    f.write_str(": the dissections found before the stop, a lower bound")?;
                }
                Ok(())
            }
            CountEvidence::ClassesKept {
                counted,
                seen,
                members,
                classes,
            } => write!(
                f,
                "{counted}; {} seen one by one; the count given is the {} of the {} whose least member was found",
                plural(*seen, "solution"),
                plural(*members, "member"),
                if *classes == 1 {
                    "1 class".to_string()
                } else {
                    format!("{classes} classes")
                },
            ),
        }
    }
}

/// What a chess count did before counting: proved the optimum, or refuted one piece fewer
/// than it counts (then a count that is not 0 proves `pieces` optimal), in whole or in the
/// shard's part.
fn first_step(fewer_refuted: FewerRefuted, pieces: usize) -> String {
    let fewer = plural(pieces.saturating_sub(1) as u64, "piece");
    match fewer_refuted {
        FewerRefuted::None => "the optimum, proved first".to_string(),
        _ if pieces == 0 => "none can be fewer".to_string(),
        FewerRefuted::Whole => format!("{fewer} refuted first"),
        FewerRefuted::ShardPart => format!("this shard's part of {fewer} refuted first"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::evidence::{CheckedFile, FileConstraint};
    use crate::base::{Status, Stop};

    fn stopped() -> Evidence {
        Evidence::ModelStopped {
            stop: Stop::TimeLimit,
            found: true,
            objective: true,
        }
    }

    #[test]
    fn a_puzzles_reason_and_a_solvers_error_are_given_as_they_are() {
        let reason = "no dissection: 25 cells cannot be split into 2 equal parts";
        let impossible = Evidence::Impossible {
            reason: reason.into(),
        };
        assert_eq!(impossible.to_string(), reason);
        let failed = Evidence::SolverFailed {
            error: "proof output failed".into(),
        };
        assert_eq!(failed.to_string(), "proof output failed");
    }

    #[test]
    fn a_portfolio_says_what_every_other_member_reached() {
        let evidence = Evidence::Portfolio {
            chosen: Box::new(Evidence::DollFound { found: 46, k: 46 }),
            others: vec![
                MemberReached::Answered {
                    label: "sat".into(),
                    stopped_by: Some("native".into()),
                    value: Some(45),
                    status: Status::Feasible,
                    bound: Some(47),
                },
                MemberReached::Answered {
                    label: "milp:cbc".into(),
                    stopped_by: None,
                    value: None,
                    status: Status::Unsatisfiable,
                    bound: None,
                },
                MemberReached::Failed {
                    label: "sat:cadical".into(),
                    error: "crashed".into(),
                },
                MemberReached::Silent {
                    label: "milp".into(),
                    waited_ms: 30,
                },
            ],
        };
        assert_eq!(
            evidence.to_string(),
            "native Russian-doll search found 46 >= 46 (the optimum) (portfolio: sat, stopped \
             when native answered, had found 45, at most 47; milp:cbc had found nothing and says \
             unsatisfiable; sat:cadical failed: crashed; milp had not reported within 30 ms of \
             being stopped)"
        );
    }

    #[test]
    fn a_packing_meeting_another_members_bound_names_both() {
        let evidence = Evidence::MeetsMemberBound {
            label: "sat".into(),
            value: 45,
            prover: "native".into(),
            proof: Box::new(stopped()),
        };
        assert_eq!(
            evidence.to_string(),
            "sat found 45, which meets the bound native proved: time limit reached; the best \
             solution found is not proven optimal"
        );
    }

    #[test]
    fn boxes_a_sweep_settled_are_worded_by_their_cuts() {
        let rows = SplitBound {
            bound: 3,
            width: 5,
            height: 13,
            first: 6,
            extent: 2,
            near: 2,
            far: 1,
            columns: false,
        };
        assert_eq!(
            rows.to_string(),
            "at most 3: 2 for the pieces whose top row is among the first 6 (they lie in the top \
             5 x 8 box) and 1 for the rest (the 5 x 7 box below)"
        );
        let columns = SplitBound {
            columns: true,
            width: 13,
            height: 5,
            ..rows
        };
        assert_eq!(
            columns.to_string(),
            "at most 3: 2 for the pieces whose left column is among the first 6 (they lie in the \
             left 8 x 5 box) and 1 for the rest (the 7 x 5 box to their right)"
        );
        let inside = PackingFrom::Inside {
            value: 3,
            width: 5,
            height: 12,
        };
        assert_eq!(
            inside.to_string(),
            "a packing of 3 from the 5 x 12 box, which fits inside"
        );
        let stacked = PackingFrom::Stacked {
            value: 3,
            width: 5,
            top: 6,
            bottom: 7,
        };
        assert_eq!(
            stacked.to_string(),
            "a packing of 3 stacked from packings of the 5 x 6 and 5 x 7 boxes"
        );
        let side = PackingFrom::SideBySide {
            value: 3,
            height: 5,
            left: 6,
            right: 7,
        };
        assert_eq!(
            side.to_string(),
            "a packing of 3 put together from packings of the 6 x 5 and 7 x 5 boxes side by side"
        );
        let optimal = Evidence::SettledBoxes {
            own: Box::new(stopped()),
            bound: Some(rows),
            packing: Some(stacked),
            optimal: true,
        };
        assert_eq!(
            optimal.to_string(),
            "optimal by cutting the box into boxes this sweep settled: at most 3: 2 for the \
             pieces whose top row is among the first 6 (they lie in the top 5 x 8 box) and 1 for \
             the rest (the 5 x 7 box below); a packing of 3 stacked from packings of the 5 x 6 \
             and 5 x 7 boxes (its own search: time limit reached; the best solution found is not \
             proven optimal)"
        );
        let bounded = Evidence::SettledBoxes {
            own: Box::new(stopped()),
            bound: None,
            packing: Some(inside),
            optimal: false,
        };
        assert_eq!(
            bounded.to_string(),
            "time limit reached; the best solution found is not proven optimal; from boxes this \
             sweep settled: a packing of 3 from the 5 x 12 box, which fits inside"
        );
    }

    #[test]
    fn a_decoded_answer_says_what_was_checked() {
        let decoded = |checked, family: &str, claimed_optimal| Evidence::Decoded {
            answer: "answer.txt".into(),
            answer_kind: "MaxSAT answer".into(),
            checked,
            model_vars: 64,
            family: family.into(),
            claimed_optimal,
        };
        let file = CheckedFile {
            name: "model.wcnf".into(),
            constraints: FileConstraint::HardClause,
        };
        let checked = decoded(Some(file), "queens", Some(true));
        assert_eq!(
            checked.to_string(),
            "answer.txt (MaxSAT answer) satisfies every hard clause of model.wcnf; the 64 model \
             variables matched by name, the solution verified by the queens rules; the solver's \
             claim that it is optimal is not checked"
        );
        let unchecked = decoded(None, "dissection", None);
        assert_eq!(
            unchecked.to_string(),
            "answer.txt (MaxSAT answer) read by the names `emit` writes now (no file given, so \
             none of its constraints was checked); the 64 model variables matched by name, the \
             solution verified by the dissection rules"
        );
    }

    #[test]
    fn counts_say_how_they_were_counted() {
        let cases = [
            (
                CountEvidence::NoOptimum {
                    stop: Stop::TimeLimit,
                },
                "time limit reached before the optimum was found",
            ),
            (
                CountEvidence::Constellations {
                    constellations: 12,
                    stop: None,
                },
                "native count of N-queens by start constellations (border queens canonical under \
                 the 8 symmetries, completions weighted by orbit size), 12 constellations",
            ),
            (
                CountEvidence::Constellations {
                    constellations: 1,
                    stop: Some(Stop::Interrupted),
                },
                "interrupted; native count of N-queens by start constellations (border queens \
                 canonical under the 8 symmetries, completions weighted by orbit size): the 1 \
                 constellation finished before the stop, a lower bound",
            ),
            (
                CountEvidence::QueensSearch {
                    queens: 8,
                    done: 64,
                    subproblems: 64,
                    nodes: 1000,
                    stop: None,
                },
                "native counting DFS over every placement of 8 queens (the optimum, proved \
                 first), pruned by open row and column segments; 64 subproblems, 1000 nodes",
            ),
            (
                CountEvidence::QueensSearch {
                    queens: 8,
                    done: 3,
                    subproblems: 64,
                    nodes: 10,
                    stop: Some(Stop::TimeLimit),
                },
                "time limit reached; 3 of 64 subproblems counted",
            ),
            (
                CountEvidence::TooFewGroups { value: 9 },
                "at least 9 is impossible by counting the at-most-one groups",
            ),
            (
                CountEvidence::SatQueens {
                    value: 8,
                    cell_vars: 64,
                    calls: 93,
                    stop: None,
                },
                "varisat enumeration with \"at least 8\" assumed and one blocking clause per \
                 solution over the 64 cell variables, until unsatisfiable (93 calls)",
            ),
            (
                CountEvidence::SatQueens {
                    value: 8,
                    cell_vars: 64,
                    calls: 5,
                    stop: Some(Stop::TimeLimit),
                },
                "time limit reached; enumeration not finished",
            ),
            (
                CountEvidence::Tilings {
                    by: TilingCounter::ExactCover,
                    tilings: 8,
                    up_to_symmetry: 2,
                    symmetries: 4,
                    stop: None,
                },
                "native exact cover (symmetric count: one piece placed once per orbit): 8 \
                 tilings, 2 up to the region's 4 symmetries",
            ),
            (
                CountEvidence::Tilings {
                    by: TilingCounter::Varisat,
                    tilings: 8,
                    up_to_symmetry: 2,
                    symmetries: 4,
                    stop: Some(Stop::TimeLimit),
                },
                "time limit reached; varisat enumeration with one blocking clause per tiling, \
                 orbits named by their least image: 8 tilings, 2 up to the region's 4 symmetries \
                 found before the stop, a lower bound",
            ),
            (
                CountEvidence::TilingsListed,
                "native exact cover, every tiling listed and verified",
            ),
            (
                CountEvidence::Dissections {
                    search: DissectionSearch::Native { nodes: 40 },
                    stop: None,
                },
                "native search (40 nodes)",
            ),
            (
                CountEvidence::Dissections {
                    search: DissectionSearch::Varisat { calls: 3, cuts: 1 },
                    stop: Some(Stop::Interrupted),
                },
                "interrupted; varisat with blocking clauses on the part variables (3 calls, 1 \
                 cut): the dissections found before the stop, a lower bound",
            ),
            (
                CountEvidence::ClassesKept {
                    counted: Box::new(CountEvidence::QueensSearch {
                        queens: 8,
                        done: 3,
                        subproblems: 64,
                        nodes: 10,
                        stop: Some(Stop::TimeLimit),
                    }),
                    seen: 1291,
                    members: 1384,
                    classes: 692,
                },
                "time limit reached; 3 of 64 subproblems counted; 1291 solutions seen one by one; \
                 the count given is the 1384 members of the 692 classes whose least member was \
                 found",
            ),
        ];
        for (evidence, words) in cases {
            assert_eq!(evidence.to_string(), words, "{evidence:?}");
        }
    }
}
