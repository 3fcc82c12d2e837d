//! The words of evidence: every [`Evidence`] as the sentence reports and `--json` give.

use super::{
    BoundFinder, Ceiling, DollStoppedAnswer, Evidence, MilpQuestion, Oracle, OracleKind,
    PackingBound, PackingSearch,
};
use crate::base::plural;
use std::fmt;

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

impl PackingBound {
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
                }
            }
            Evidence::AboveBound { k, bound } => {
                write!(f, "at least {k} is impossible: {bound} is lower")
            }
            Evidence::Bounded { stopped, bound } => {
                write!(f, "{stopped}; at most {} by {bound}", bound.value())
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
            Evidence::Text(text) => f.write_str(text),
        }
    }
}
