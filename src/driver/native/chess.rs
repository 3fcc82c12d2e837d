//! Chess in the driver: the native domination and independence search
//! ([`crate::engines::domination`]), preferred, with the model backends as cross-checks.
//! The search speaks in pieces; its answer is turned into the model's score (the squares
//! left empty, for the fewest) like every backend's.

use super::NativeFamily;
use crate::base::evidence::ChessAnswer;
use crate::base::{Control, Evidence, Goal, RawOutcome, Size};
use crate::driver::packing::NativePackingError;
use crate::driver::packing_bounds::PackingBounds;
use crate::driver::Backend;
use crate::engines::domination::{self, Instance};
use crate::puzzle::chess::{Chess, ChessSolution, Question};
use crate::puzzle::Family;

impl NativeFamily for Chess {
    const PREFERRED: Backend = Backend::Native;

    fn solve_native(
        &self,
        goal: Goal,
        control: &Control,
        _bounds: Option<&mut PackingBounds>,
    ) -> Result<RawOutcome<ChessSolution>, NativePackingError> {
        Ok(solve(self, goal, control))
    }
}

/// The engine's question for the puzzle's.
pub(crate) fn engine_question(question: Question) -> domination::Question {
    match question {
        Question::Independent => domination::Question::Independent,
        Question::Dominate => domination::Question::Dominate,
        Question::IndependentDominate => domination::Question::IndependentDominate,
    }
}

/// The engine's instance of `chess`, with the fewest pieces the puzzle states.
pub(crate) fn instance(chess: &Chess) -> Instance {
    let instance = Instance::new(&chess.board, chess.piece, engine_question(chess.question));
    match chess.stated_fewest() {
        Some((fewest, _)) => instance.with_known_bound(fewest),
        None => instance,
    }
}

fn solve(chess: &Chess, goal: Goal, control: &Control) -> RawOutcome<ChessSolution> {
    let sense = chess.sense();
    let fewest = sense.is_fewest();
    // The goal is on the score; the search asks in pieces.
    let limit = match goal {
        Goal::Maximise => None,
        Goal::AtLeast(k) => Some(sense.value(k)),
    };
    let answer = domination::solve(&instance(chess), limit, control);
    let size = Size::nodes(answer.nodes);
    let solution = answer.best.as_ref().map(|squares| {
        ChessSolution::new(
            squares
                .iter()
                .map(|&s| (s % chess.board.width, s / chess.board.width))
                .collect(),
        )
    });
    let evidence = |answer_kind: ChessAnswer| Evidence::Chess {
        fewest,
        answer: answer_kind,
        nodes: answer.nodes,
    };
    let score_bound = sense.score(answer.bound);
    match (solution, answer.proven, limit) {
        (Some(solution), true, None) => {
            let value = solution.pieces.len();
            let kind = match chess.stated_fewest() {
                Some((fewest, reason)) if fewest == value => {
                    ChessAnswer::BoundMet { value, reason }
                }
                _ => ChessAnswer::Optimal { value },
            };
            RawOutcome::optimal(solution, sense.score(value), evidence(kind), size)
        }
        (Some(solution), _, Some(k)) if meets(fewest, &solution, k) => {
            let value = solution.pieces.len();
            RawOutcome::satisfiable(solution, evidence(ChessAnswer::Reaches { value, k }), size)
        }
        (_, true, Some(k)) => RawOutcome::unsatisfiable(
            Some(score_bound),
            evidence(ChessAnswer::Refuted { k }),
            size,
        ),
        (best, _, _) => RawOutcome::stopped(
            best,
            Some(score_bound),
            evidence(ChessAnswer::Stopped {
                stop: control.stop(),
                bound: answer.bound,
            }),
            size,
        ),
    }
}

/// Whether `solution` answers "at most `k`" (fewest) or "at least `k`" (most).
fn meets(fewest: bool, solution: &ChessSolution, k: usize) -> bool {
    if fewest {
        solution.pieces.len() <= k
    } else {
        solution.pieces.len() >= k
    }
}
