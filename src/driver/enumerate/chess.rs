//! Counting chess placements: natively (the domination and independence search lists every
//! placement of the optimum) or by SAT enumeration with blocking clauses over the square
//! variables, every placement handed out verified first.

use super::classes::Symmetries;
use super::placements::sat_placements;
use super::{
    consistent_when_stopped, empty_outcome, optimum, refuted_at_most, verified, CountFamily,
    CountOutcome, EnumerateOptions,
};
use crate::base::evidence::{CountEvidence, FewerRefuted};
use crate::base::shard::Shard;
use crate::base::Control;
use crate::driver::native::chess_instance;
use crate::driver::{Backend, SolveError};
use crate::engines::domination;
use crate::puzzle::chess::{Chess, ChessSolution};
use crate::puzzle::{Family, Puzzle, Solution};
use std::collections::BTreeMap;
use std::time::Instant;

impl CountFamily for Chess {
    fn count(
        &self,
        backend: Backend,
        options: &EnumerateOptions,
        control: &Control,
        on_solution: &mut dyn FnMut(&Solution),
        start: Instant,
    ) -> Result<CountOutcome, SolveError> {
        let group = Symmetries::of(&self.board);
        let target = match self.target(backend, options, control)? {
            Some(target) => target,
            None => {
                return Ok(CountOutcome {
                    backend,
                    unique_count: options.unique.then_some(0),
                    symmetries: group.len(),
                    shard: options.shard,
                    elapsed: start.elapsed(),
                    ..empty_outcome(CountEvidence::NoOptimum {
                        stop: control.stop(),
                    })
                })
            }
        };
        let mut outcome = match backend {
            Backend::Native => native(self, target, options, control, on_solution)?,
            Backend::Sat => sat(self, target, &group, options, control, on_solution)?,
            Backend::Milp => unreachable!("refused before"),
        };
        outcome.backend = backend;
        outcome.value = Some(target.pieces);
        outcome.symmetries = group.len();
        outcome.shard = options.shard;
        outcome.elapsed = start.elapsed();
        Ok(consistent_when_stopped(outcome))
    }
}

/// The number of pieces a count counts placements of, and how it is known to be right.
#[derive(Copy, Clone)]
struct Target {
    pieces: usize,
    /// What was refuted with one piece fewer (a count of at most `pieces`), when not the
    /// optimum proved.
    fewer_refuted: FewerRefuted,
}

impl Chess {
    /// What to count: the optimum proved first, the `at_least` asked for above it, or the
    /// `at_most` asked for with one fewer refuted first; `None` when a limit stopped it.
    fn target(
        &self,
        backend: Backend,
        options: &EnumerateOptions,
        control: &Control,
    ) -> Result<Option<Target>, SolveError> {
        let puzzle = &Puzzle::Chess(self.clone());
        let fewest = self.sense().is_fewest();
        // A bound against the puzzle's sense is refused before any search.
        let against = match (options.at_most, options.at_least, fewest) {
            (Some(k), _, false) => Some(("at most", k, "most")),
            (_, Some(k), true) => Some(("at least", k, "fewest")),
            _ => None,
        };
        if let Some((bound, k, asked)) = against {
            return Err(SolveError::Usage(format!(
                "counting solutions with {bound} {k} is not supported: {} asks for the {asked} pieces",
                self.question.name()
            )));
        }
        if let Some(k) = options.at_most {
            // The count at k is then every placement of at most k (and, when it is not 0,
            // k is the optimum). A shard refutes only its part of k - 1, so that the
            // shards share that refutation as they share the count: the merged count
            // stands on every part.
            let (refuted, how) = match (k.checked_sub(1), options.shard) {
                (None, _) => (Some(true), FewerRefuted::Whole),
                (Some(fewer), Some(_)) if backend == Backend::Native => (
                    self.shard_part_refuted(fewer, options, control),
                    FewerRefuted::ShardPart,
                ),
                (Some(fewer), _) => (
                    refuted_at_most(puzzle, backend, fewer, control)?,
                    FewerRefuted::Whole,
                ),
            };
            return match refuted {
                Some(true) => Ok(Some(Target {
                    pieces: k,
                    fewer_refuted: how,
                })),
                Some(false) => Err(SolveError::Usage(format!(
                    "counting solutions with at most {k} is not supported: {} pieces already \
                     do, and only counts at or below the optimum are",
                    k - 1
                ))),
                None => Ok(None),
            };
        }
        let pieces = match (optimum(puzzle, backend, control)?, options.at_least) {
            (Some(optimum), Some(k)) if k < optimum => {
                return Err(SolveError::Usage(format!(
                    "counting solutions with at least {k} is not supported: the optimum is {optimum}, and only counts at or above it are"
                )))
            }
            (Some(_), Some(k)) => k,
            (Some(optimum), None) => optimum,
            (None, _) => return Ok(None),
        };
        Ok(Some(Target {
            pieces,
            fewer_refuted: FewerRefuted::None,
        }))
    }

    /// Whether the native count finds no placement of `pieces` in this shard's part of
    /// the search; `None` when a limit stopped it first.
    fn shard_part_refuted(
        &self,
        pieces: usize,
        options: &EnumerateOptions,
        control: &Control,
    ) -> Option<bool> {
        let found = domination::count(
            &chess_instance(self),
            pieces,
            options.shard,
            options.unique,
            control,
            None,
        );
        found.complete.then_some(found.count == 0)
    }
}

/// The placement on row-major `squares`.
fn placement(chess: &Chess, squares: &[usize]) -> ChessSolution {
    ChessSolution::new(
        squares
            .iter()
            .map(|&s| (s % chess.board.width, s / chess.board.width))
            .collect(),
    )
}

/// Counts (and lists) the placements of `target` pieces natively; the search classifies
/// them itself.
fn native(
    chess: &Chess,
    target: Target,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let puzzle = Puzzle::Chess(chess.clone());
    let shard: Option<Shard> = options.shard;
    let Target {
        pieces: value,
        fewer_refuted,
    } = target;
    let mut wrong = None;
    let mut hand = |squares: &[usize]| {
        if wrong.is_some() {
            return;
        }
        let solution = Solution::Chess(placement(chess, squares));
        match verified(&puzzle, &solution, value, "native") {
            Ok(()) => on_solution(&solution),
            Err(error) => wrong = Some(error),
        }
    };
    // Placements are kept only to be listed.
    let listed: Option<domination::Placements> = if options.list { Some(&mut hand) } else { None };
    let found = domination::count(
        &chess_instance(chess),
        value,
        shard,
        options.unique,
        control,
        listed,
    );
    control.finish_progress();
    if let Some(error) = wrong {
        return Err(error);
    }
    let unique: u64 = found.classes.values().sum();
    let evidence = CountEvidence::ChessSearch {
        pieces: value,
        fewest: chess.sense().is_fewest(),
        done: found.subproblems.0,
        subproblems: found.subproblems.1,
        nodes: found.nodes,
        fewer_refuted,
        stop: (!found.complete).then(|| control.stop()),
    };
    Ok(CountOutcome {
        count: found.count,
        unique_count: options.unique.then_some(unique),
        classes: if options.unique {
            found.classes
        } else {
            BTreeMap::new()
        },
        complete: found.complete,
        ..empty_outcome(evidence)
    })
}

/// Counts (and lists) the placements of `target` pieces by SAT enumeration.
fn sat(
    chess: &Chess,
    target: Target,
    group: &Symmetries,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let puzzle = &Puzzle::Chess(chess.clone());
    let Target {
        pieces: value,
        fewer_refuted,
    } = target;
    let found = sat_placements(
        puzzle,
        value,
        piece_squares,
        group,
        options,
        control,
        on_solution,
    )?;
    let Some(found) = found else {
        return Ok(CountOutcome {
            complete: true,
            unique_count: options.unique.then_some(0),
            // The groups rule out the score: for the fewest, the squares left empty.
            ..empty_outcome(CountEvidence::TooFewGroups {
                value: chess.sense().score(value),
            })
        });
    };
    Ok(CountOutcome {
        count: found.count,
        unique_count: options.unique.then(|| found.classes.values().sum()),
        classes: found.classes,
        complete: found.complete,
        ..empty_outcome(CountEvidence::SatChess {
            pieces: value,
            fewest: chess.sense().is_fewest(),
            square_vars: found.square_vars,
            calls: found.calls as u64,
            fewer_refuted,
            stop: (!found.complete).then(|| control.stop()),
        })
    })
}

/// The occupied squares of a solution of this family.
fn piece_squares(solution: &Solution) -> &[(usize, usize)] {
    match solution {
        Solution::Chess(s) => &s.pieces,
        _ => unreachable!("a chess puzzle decodes to chess placements"),
    }
}
