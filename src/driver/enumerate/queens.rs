//! Counting queens: natively (the symmetry-class counter of empty square boards, the
//! counting DFS of any other board) or by SAT enumeration with blocking clauses, every
//! solution handed out verified first.

use super::classes::Symmetries;
use super::placements::sat_placements;
use super::{
    consistent_when_stopped, empty_outcome, optimum, verified, CountFamily, CountOutcome,
    EnumerateOptions,
};
use crate::base::evidence::CountEvidence;
use crate::base::Control;
use crate::driver::{with_stop, Backend, SolveError};
use crate::engines::nqueens_count;
use crate::engines::obstacle_queens::{count_placements, CountRequest};
use crate::puzzle::queens::{Queens, QueensSolution};
use crate::puzzle::{Puzzle, Solution};
use std::collections::BTreeMap;
use std::time::Instant;

impl CountFamily for Queens {
    fn count(
        &self,
        backend: Backend,
        options: &EnumerateOptions,
        control: &Control,
        on_solution: &mut dyn FnMut(&Solution),
        start: Instant,
    ) -> Result<CountOutcome, SolveError> {
        let board = self;
        let puzzle = &Puzzle::Queens(board.clone());
        let group = Symmetries::of(&board.board);
        let value = match optimum(puzzle, backend, control)? {
            Some(optimum) => match options.at_least {
                Some(k) if k < optimum => {
                    return Err(SolveError::Usage(format!(
                        "counting solutions with at least {k} is not supported: the optimum is {optimum}, and only counts at or above it are"
                    )))
                }
                Some(k) => k,
                None => optimum,
            },
            None => {
                return Ok(CountOutcome {
                    backend,
                    value: None,
                    count: 0,
                    unique_count: options.unique.then_some(0),
                    classes: BTreeMap::new(),
                    symmetries: group.len(),
                    shard: options.shard,
                    complete: false,
                    evidence: CountEvidence::NoOptimum {
                        stop: control.stop(),
                    },
                    elapsed: start.elapsed(),
                })
            }
        };
        let mut outcome = match backend {
            Backend::Native => native(board, value, &group, options, control, on_solution)?,
            Backend::Sat => sat(board, value, &group, options, control, on_solution)?,
            Backend::Milp => unreachable!("refused above"),
        };
        outcome.backend = backend;
        outcome.value = Some(value);
        outcome.symmetries = group.len();
        outcome.shard = options.shard;
        outcome.elapsed = start.elapsed();
        Ok(consistent_when_stopped(outcome))
    }
}

/// Counts (and lists) the solutions of `board` with `value` queens natively.
fn native(
    board: &Queens,
    value: usize,
    group: &Symmetries,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let progress = |done: u64, total: u64| control.advance(done, total);
    let n = board.board.width;
    let empty_square = board.board.width == board.board.height && board.board.is_open();
    if empty_square
        && value == n
        && (1..=nqueens_count::MAX_N as usize).contains(&n)
        && !options.list
    {
        // The symmetry-class counter: every solution counted once per class. It polls a
        // flag only, so a watchdog raises one at the deadline too.
        let (result, complete) = with_stop(control, |stop| {
            nqueens_count::count_empty_board_so_far(n as u32, options.shard, &progress, stop)
        });
        control.finish_progress();
        let classes: BTreeMap<usize, u64> = [1, 2, 4, 8]
            .into_iter()
            .zip(result.classes)
            .filter(|&(_, count)| count > 0)
            .collect();
        return Ok(CountOutcome {
            count: result.total,
            unique_count: options.unique.then_some(result.unique),
            classes: if options.unique {
                classes
            } else {
                BTreeMap::new()
            },
            complete,
            ..empty_outcome(CountEvidence::Constellations {
                constellations: result.subproblems,
                stop: (!complete).then(|| control.stop()),
            })
        });
    }
    let classify = |solution: &QueensSolution| group.canonical_class(&solution.queens);
    let request = CountRequest {
        queens: value,
        shard: options.shard,
        list: options.list,
        classify: if options.unique {
            Some(&classify)
        } else {
            None
        },
        progress: &progress,
    };
    let found = count_placements(&board.board, &request, control);
    control.finish_progress();
    for solution in found.solutions {
        let solution = Solution::Queens(solution);
        verified(&Puzzle::Queens(board.clone()), &solution, value, "native")?;
        on_solution(&solution);
    }
    let unique: u64 = found.classes.values().sum();
    let evidence = CountEvidence::QueensSearch {
        queens: value,
        done: found.subproblems.0,
        subproblems: found.subproblems.1,
        nodes: found.nodes,
        stop: (!found.complete).then(|| control.stop()),
    };
    Ok(CountOutcome {
        count: found.count,
        unique_count: options.unique.then_some(unique),
        classes: found.classes,
        complete: found.complete,
        ..empty_outcome(evidence)
    })
}

/// Counts (and lists) the solutions of `board` with `value` queens by SAT enumeration.
fn sat(
    board: &Queens,
    value: usize,
    group: &Symmetries,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let puzzle = &Puzzle::Queens(board.clone());
    let found = sat_placements(
        puzzle,
        value,
        queen_squares,
        group,
        options,
        control,
        on_solution,
    )?;
    let Some(found) = found else {
        return Ok(CountOutcome {
            complete: true,
            unique_count: options.unique.then_some(0),
            ..empty_outcome(CountEvidence::TooFewGroups { value })
        });
    };
    Ok(CountOutcome {
        count: found.count,
        unique_count: options.unique.then(|| found.classes.values().sum()),
        classes: found.classes,
        complete: found.complete,
        ..empty_outcome(CountEvidence::SatQueens {
            value,
            cell_vars: found.square_vars,
            calls: found.calls as u64,
            stop: (!found.complete).then(|| control.stop()),
        })
    })
}

/// The occupied squares of a solution of this family.
fn queen_squares(solution: &Solution) -> &[(usize, usize)] {
    match solution {
        Solution::Queens(s) => &s.queens,
        _ => unreachable!("a queens puzzle decodes to queens"),
    }
}
