//! The chess model: one boolean per free square (a piece stands there). Independence is
//! an at-most-one per line of free squares for the sliding pieces (every two squares of a
//! line attack each other, and no two squares of different lines do through it), one per
//! 2 x 2 window for kings (any two squares of a window are neighbours, and every two
//! neighbours share a window), and a clause per attacking pair for knights. Domination is
//! a clause per free square: a piece on it or on a square attacking it. The objective
//! counts pieces up for independence and the squares left empty up for domination, so
//! that every backend maximises.

use super::{Chess, ChessSolution, Piece, Question};
use crate::geometry::chess::attack_table;
use crate::model::{Constraint, KnownSolution, Lit, Model, Objective, UpperBound};

pub(super) fn compile(chess: &Chess) -> Model {
    let mut model = Model::new();
    let letter = chess.piece.letter().to_ascii_lowercase();
    let vars = chess.var_of_square();
    for square in (0..chess.board.free.len()).filter(|&s| chess.board.free[s]) {
        let var = model.new_var(format!(
            "{letter}[{},{}]",
            square % chess.board.width,
            square / chess.board.width
        ));
        debug_assert_eq!(Some(var), vars[square]);
    }
    let lit = |square: usize| vars[square].expect("a free square").positive();
    let board = &chess.board;
    let lines = lines(chess);
    if chess.question.independent() {
        match chess.piece {
            Piece::Knight => {
                for (square, attacked) in attack_table(board, Piece::Knight).iter().enumerate() {
                    for &other in attacked.iter().filter(|&&o| o > square) {
                        model.add(Constraint::Clause(vec![!lit(square), !lit(other)]));
                    }
                }
            }
            Piece::King => {
                for window in king_windows(chess) {
                    model.add(Constraint::AtMostOne(window.into_iter().map(lit).collect()));
                }
            }
            _ => {
                for line in lines.iter().flatten().filter(|l| l.len() >= 2) {
                    model.add(Constraint::AtMostOne(
                        line.iter().map(|&s| lit(s)).collect(),
                    ));
                }
            }
        }
    }
    if chess.question.dominating() {
        for (square, attackers) in attack_table(board, chess.piece).iter().enumerate() {
            if chess.board.free[square] {
                let guards = std::iter::once(square).chain(attackers.iter().copied());
                model.add(Constraint::Clause(guards.map(lit).collect()));
            }
        }
    }
    let pieces: Vec<Lit> = (0..model.num_vars())
        .map(|v| crate::model::Var::from_index(v).positive())
        .collect();
    model.objective = Some(match chess.question {
        Question::Independent => Objective {
            // The lines of the direction with the fewest partition the free squares, and
            // each holds at most one piece.
            amo_groups: lines.iter().min_by_key(|d| d.len()).map(|direction| {
                direction
                    .iter()
                    .map(|line| line.iter().map(|&s| lit(s).var().index()).collect())
                    .collect()
            }),
            lits: pieces,
        },
        Question::Dominate | Question::IndependentDominate => Objective {
            lits: pieces.into_iter().map(|l| !l).collect(),
            amo_groups: None,
        },
    });
    model.known_solution = stated_placement(chess).map(|placement| KnownSolution {
        assignment: chess.assignment_of(&placement),
        origin: format!(
            "the explicit construction ({})",
            match chess.piece {
                Piece::Rook => "rooks on a diagonal",
                _ => "bishops filling a middle column",
            }
        ),
    });
    model.upper_bound = chess.stated_fewest().map(|(fewest, reason)| {
        let empty = chess.board.free.len() - fewest;
        UpperBound {
            value: empty,
            reason: format!("{reason}, so at most {empty} squares left empty"),
            // The placements named with each argument reach it.
            reached: true,
        }
    });
    model
}

/// The placement that reaches [`Chess::stated_fewest`]'s bound: rooks on a diagonal of the
/// shorter side, or bishops filling the middle column of a square (right of the middle
/// when the side is even).
fn stated_placement(chess: &Chess) -> Option<ChessSolution> {
    let (fewest, _) = chess.stated_fewest()?;
    let pieces = match chess.piece {
        Piece::Rook => (0..fewest).map(|i| (i, i)).collect(),
        _ => (0..fewest).map(|y| (chess.board.width / 2, y)).collect(),
    };
    Some(ChessSolution::new(pieces))
}

/// The lines a sliding piece attacks along, by direction (rows and columns for the rook,
/// the two diagonals for the bishop, all four for the queen); none for the leapers.
fn lines(chess: &Chess) -> Vec<Vec<Vec<usize>>> {
    let [rows, columns, diagonals, anti_diagonals] = chess.board.segments();
    match chess.piece {
        Piece::Queen => vec![rows, columns, diagonals, anti_diagonals],
        Piece::Rook => vec![rows, columns],
        Piece::Bishop => vec![diagonals, anti_diagonals],
        Piece::Knight | Piece::King => Vec::new(),
    }
}

/// The free squares of every 2 x 2 window holding two or more, windows clipped to the
/// board (a board one square wide has 1 x 2 windows: its neighbours are in a line).
fn king_windows(chess: &Chess) -> Vec<Vec<usize>> {
    let (w, h) = (chess.board.width, chess.board.height);
    let mut windows = Vec::new();
    for y in 0..h.max(2) - 1 {
        for x in 0..w.max(2) - 1 {
            let window: Vec<usize> = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
                .into_iter()
                .filter(|&(x, y)| x < w && y < h)
                .map(|(x, y)| y * w + x)
                .filter(|&s| chess.board.free[s])
                .collect();
            if window.len() >= 2 {
                windows.push(window);
            }
        }
    }
    windows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Family;

    #[test]
    fn the_model_accepts_exactly_the_placements_the_rules_accept() {
        // Every placement on small boards with an obstacle: the model and the rules agree.
        for piece in Piece::ALL {
            for question in Question::ALL {
                for rows in [
                    &["---", "-*-", "--*"][..],
                    &["-", "-", "*", "-", "-"],
                    &["--*---"],
                ] {
                    let chess = Chess::from_rows(rows, piece, question);
                    let model = chess.compile();
                    let w = chess.board.width;
                    let free: Vec<(usize, usize)> = (0..chess.board.free.len())
                        .filter(|&s| chess.board.free[s])
                        .map(|s| (s % w, s / w))
                        .collect();
                    for mask in 0u32..1 << free.len() {
                        let pieces = (0..free.len())
                            .filter(|i| mask >> i & 1 == 1)
                            .map(|i| free[i])
                            .collect();
                        let solution = ChessSolution::new(pieces);
                        let assignment = chess.assignment_of(&solution);
                        assert_eq!(
                            model.satisfied_by(&assignment),
                            chess.verify(&solution).is_ok(),
                            "{piece:?} {question:?} {solution:?}"
                        );
                    }
                    assert_eq!(model.check_hints(), Ok(()));
                }
            }
        }
    }

    #[test]
    fn bishops_on_a_square_board_are_bounded_by_its_border() {
        let chess = Chess::empty(6, 6, Piece::Bishop, Question::Dominate);
        let bound = chess.compile().upper_bound.unwrap();
        assert_eq!(bound.value, 30);
        assert!(bound
            .reason
            .contains("each colour has 10 of them: at least 3 bishops"));
        // The construction reaches it, and is a dominating set.
        let model = chess.compile();
        let known = model.known_solution.as_ref().unwrap();
        assert!(model.satisfied_by(&known.assignment));
        assert_eq!(
            model.objective.as_ref().unwrap().value(&known.assignment),
            30
        );
        assert_eq!(chess.verify(&chess.decode(&known.assignment)), Ok(()));
        // Odd sides state n by the parity of the border ends, and the middle column meets it.
        let odd = Chess::empty(5, 5, Piece::Bishop, Question::Dominate);
        let model = odd.compile();
        let bound = model.upper_bound.as_ref().unwrap();
        assert_eq!(bound.value, 20);
        assert!(bound.reason.contains("the parity of those ends"));
        let known = model.known_solution.as_ref().unwrap();
        assert_eq!(odd.verify(&odd.decode(&known.assignment)), Ok(()));
        // Independent domination states nothing.
        let apart = Chess::empty(6, 6, Piece::Bishop, Question::IndependentDominate);
        assert!(apart.compile().upper_bound.is_none());
    }

    #[test]
    fn rooks_on_an_empty_board_are_bounded_by_the_shorter_side() {
        let chess = Chess::empty(5, 3, Piece::Rook, Question::Dominate);
        let model = chess.compile();
        let known = model.known_solution.as_ref().unwrap();
        assert_eq!(chess.verify(&chess.decode(&known.assignment)), Ok(()));
        let bound = chess.compile().upper_bound.unwrap();
        assert_eq!(bound.value, 12);
        assert_eq!(
            bound.reason,
            "every row or every column holds a rook, or the square where an empty row and an \
             empty column cross is unguarded: at least 3 rooks, so at most 12 squares left empty"
        );
    }
}
