//! SAT enumeration of the placements on a board (queens, chess pieces): the model with "at
//! least the score" assumed, one blocking clause per placement over the square variables,
//! every placement verified, and with `--unique` the least member of each symmetry class
//! kept. Each family words its own evidence around the result.

use super::classes::Symmetries;
use super::stoppable::enumerate_stoppable;
use super::{verified, EnumerateOptions};
use crate::base::Control;
use crate::driver::SolveError;
use crate::model::Var;
use crate::puzzle::{Puzzle, Solution};
use std::collections::BTreeMap;

/// What a SAT enumeration of placements found.
pub(super) struct Listed {
    /// The square variables the blocking clauses are over.
    pub square_vars: usize,
    /// Placements counted.
    pub count: u64,
    /// With `unique`: classes by their number of members.
    pub classes: BTreeMap<usize, u64>,
    /// Whether the enumeration finished.
    pub complete: bool,
    /// Solver calls made.
    pub calls: usize,
}

/// Enumerates the placements of `puzzle` of `value`, with "at least its score" assumed (for
/// the fewest pieces: at most, so exactly, `value`), handing each
/// (each class's least member, with `options.unique`) to `on_solution` when
/// `options.list`; `squares` reads a solution's occupied squares for the classes. `None`
/// when the objective's at-most-one groups already rule the score out.
pub(super) fn sat_placements(
    puzzle: &Puzzle,
    value: usize,
    squares: fn(&Solution) -> &[(usize, usize)],
    group: &Symmetries,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<Option<Listed>, SolveError> {
    let square_vars = puzzle.compile().num_vars();
    let score = puzzle.sense().score(value);
    let mut count = 0;
    let mut classes = BTreeMap::new();
    let mut wrong = None;
    // Placements are blocked on the model's own variables (the squares), never on the
    // encoding's auxiliary variables: each placement is found exactly once.
    let blocked: Vec<Var> = (0..square_vars).map(Var::from_index).collect();
    let thread_puzzle = puzzle.clone();
    let compile = move || thread_puzzle.compile();
    let found = enumerate_stoppable(compile, blocked, Some(score), control, &mut |assignment| {
        let solution = puzzle.decode(assignment);
        if let Err(error) = verified(puzzle, &solution, value, "sat") {
            wrong = Some(error);
            return false;
        }
        count += 1;
        let keep = !options.unique
            || match group.canonical_class(squares(&solution)) {
                Some(size) => {
                    *classes.entry(size).or_default() += 1;
                    true
                }
                None => false,
            };
        if keep && options.list {
            on_solution(&solution);
        }
        true
    })
    .map_err(|error| SolveError::Backend {
        backend: "sat",
        failure: error.into(),
    })?;
    if let Some(error) = wrong {
        return Err(error);
    }
    Ok(found.map(|found| Listed {
        square_vars,
        count,
        classes,
        complete: found.complete,
        calls: found.calls,
    }))
}
