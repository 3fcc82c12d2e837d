//! The seam every family answers through: the [`Family`] trait, implemented once by each
//! family's puzzle type, and the registration list (`families!`) that generates the
//! [`Puzzle`](super::Puzzle) and [`Solution`](super::Solution) enums, their dispatch, the
//! loader's table of kinds and `each_family!`, with which the layers
//! above dispatch their own per-family traits over the same list.

use crate::base::error::InputError;
use crate::base::Sense;
use crate::model::shape::ModelShape;
use crate::model::{Assignment, Constraint, Model};
use crate::puzzle::source::Source;
use crate::puzzle::VerifyError;

/// One puzzle family: plain data that knows its own rules. Each family's puzzle type
/// implements it once; [`Puzzle`](super::Puzzle) and [`Solution`](super::Solution) dispatch
/// to it.
pub trait Family: Clone + std::fmt::Debug + PartialEq + Eq + Sized {
    /// The family's solutions.
    type Solution: Clone + std::fmt::Debug + PartialEq + Eq;

    /// The family's name as written in model files (`kind = "..."`).
    const KIND: &'static str;

    /// Parses and validates a model file of this kind.
    fn from_source(source: &Source) -> Result<Self, InputError>;

    /// Whether the puzzle has an objective; without one, solving means finding any solution.
    fn has_objective(&self) -> bool;

    /// Which way the value goes: the most (the model's score), or the fewest (counted out
    /// of a whole by the score; see [`Sense`]).
    fn sense(&self) -> Sense {
        Sense::Most
    }

    /// Why the puzzle obviously has no solution, in words, when that needs no search.
    fn trivially_impossible(&self) -> Option<String>;

    /// The instance as canonical text (see [`Puzzle::canonical_text`](super::Puzzle::canonical_text)).
    fn canonical_text(&self) -> String;

    /// Compiles the puzzle to the backend-neutral model.
    fn compile(&self) -> Model;

    /// The shape of [`Family::compile`]'s model without building it (see
    /// [`Puzzle::shape`](super::Puzzle::shape)).
    fn shape(&self, lazy_written_out: bool) -> ModelShape;

    /// Rows that rule out symmetric images of solutions and nothing else, each with its
    /// name (see [`Puzzle::symmetry_rows`](super::Puzzle::symmetry_rows)).
    fn symmetry_rows(&self) -> Vec<(&'static str, Constraint)>;

    /// Turns an assignment of the compiled model's variables into a solution.
    fn decode(&self, assignment: &Assignment) -> Self::Solution;

    /// Checks `solution` against the puzzle's rules, from scratch.
    fn verify(&self, solution: &Self::Solution) -> Result<(), VerifyError>;

    /// The solution's objective value (0 for a family without an objective).
    fn value(solution: &Self::Solution) -> usize;

    /// Renders `solution` as text, in the family's usual format.
    fn render(&self, solution: &Self::Solution) -> String;

    /// The solution as a JSON value (the grid as rows of text, and family details).
    fn solution_json(&self, solution: &Self::Solution) -> serde_json::Value;
}

/// A family's own solutions among every family's: implemented for each family by the
/// registration list, so that code generic over a family can take its solutions out of a
/// [`Solution`](super::Solution).
pub trait OwnSolution: Family {
    /// The family's solution inside `solution`, when it is one of this family.
    fn own(solution: &super::Solution) -> Option<&Self::Solution>;
}

/// Row-major `cells` of a grid `width` wide as text, rows joined by `/`: `on` where a cell
/// is set, `off` where not (for [`Family::canonical_text`]).
pub fn cells_text(width: usize, cells: &[bool], on: char, off: char) -> String {
    cells
        .chunks(width.max(1))
        .map(|row| row.iter().map(|&c| if c { on } else { off }).collect())
        .collect::<Vec<String>>()
        .join("/")
}

/// The number of decimal digits of `n`.
pub fn digits(n: usize) -> u64 {
    n.checked_ilog10().map_or(1, |d| u64::from(d) + 1)
}

/// The registration list's expansion: the [`Puzzle`](super::Puzzle) and
/// [`Solution`](super::Solution) enums (a variant per family), their dispatch to
/// [`Family`], the conversions from each family's types (and [`OwnSolution`] back), the
/// loader's kinds, and the `each_family!` macro.
macro_rules! families {
    ($( $(#[doc = $doc:literal])* $name:ident($puzzle:ty, $solution:ty) ),+ $(,)?) => {
        /// A puzzle instance of any family.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Puzzle {
            $( $(#[doc = $doc])* $name($puzzle), )+
        }

        /// A solution of any family.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Solution {
            $( $(#[doc = $doc])* $name($solution), )+
        }

        $(
            impl From<$puzzle> for Puzzle {
                fn from(puzzle: $puzzle) -> Puzzle {
                    Puzzle::$name(puzzle)
                }
            }

            impl From<$solution> for Solution {
                fn from(solution: $solution) -> Solution {
                    Solution::$name(solution)
                }
            }

            impl $crate::puzzle::family::OwnSolution for $puzzle {
                fn own(solution: &Solution) -> Option<&$solution> {
                    #[allow(unreachable_patterns)]
                    match solution {
                        Solution::$name(own) => Some(own),
                        _ => None,
                    }
                }
            }
        )+

        /// The families a model file may name, in registration order.
        pub const KINDS: &[&str] = &[$( <$puzzle as $crate::puzzle::family::Family>::KIND ),+];

        /// Parses `source` as the family named `kind`; `None` when no family has that name.
        fn parse_kind(
            kind: &str,
            source: &$crate::puzzle::source::Source,
        ) -> Option<Result<Puzzle, $crate::base::error::InputError>> {
            $(
                if kind == <$puzzle as $crate::puzzle::family::Family>::KIND {
                    return Some(
                        <$puzzle as $crate::puzzle::family::Family>::from_source(source)
                            .map(Puzzle::$name),
                    );
                }
            )+
            None
        }

        /// The solution's objective value, by the family of the solution (whichever puzzle
        /// asks).
        fn solution_value(solution: &Solution) -> usize {
            match solution {
                $( Solution::$name(s) => <$puzzle as $crate::puzzle::family::Family>::value(s), )+
            }
        }

        /// Dispatches over the families: `each_family!(puzzle, p => body)` is a `match` with
        /// one arm per registered family, `p` bound to that family's puzzle (by value or
        /// reference, as `puzzle` is), so `body` may call the family's traits generically.
        /// `each_family!(puzzle, solution, p, s => body, mismatch)` matches a puzzle with a
        /// solution of the same family, and takes `mismatch` for a pair of two families.
        macro_rules! each_family {
            ($value:expr, $bind:ident => $body:expr) => {
                match $value {
                    $( $crate::puzzle::Puzzle::$name($bind) => $body, )+
                }
            };
            ($value:expr, $other:expr, $bind:ident, $with:ident => $body:expr, $mismatch:expr) => {
                match ($value, $other) {
                    $( ($crate::puzzle::Puzzle::$name($bind), $crate::puzzle::Solution::$name($with)) => $body, )+
                    _ => $mismatch,
                }
            };
        }
        pub(crate) use each_family;
    };
}
pub(crate) use families;
