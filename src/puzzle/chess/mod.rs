//! Chess pieces on a board with obstacles, asked one of three questions: the most pieces
//! none attacking another (`independent`; the queens family is its queen case), the fewest
//! that guard every free square (`dominate`: each free square holds a piece or is attacked
//! by one), and the fewest, none attacking another, that guard every free square
//! (`independent-dominate`). What a piece attacks is in [`crate::geometry::chess`]:
//! sliding pieces stop at obstacles, never at other pieces.

mod compile;
mod parse;

use crate::base::error::InputError;
use crate::base::Sense;
use crate::geometry::board::Board;
pub use crate::geometry::chess::Piece;
use crate::geometry::chess::{attack_table, attacks};
use crate::model::shape::ModelShape;
use crate::model::{Assignment, Constraint, Model, Var};
use crate::puzzle::family::cells_text;
use crate::puzzle::source::Source;
use crate::puzzle::{Family, VerifyError};

/// What a chess model asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// The most pieces, none attacking another.
    Independent,
    /// The fewest pieces such that every free square holds one or is attacked by one.
    Dominate,
    /// The fewest pieces, none attacking another, such that every free square holds one
    /// or is attacked by one.
    IndependentDominate,
}

impl Question {
    /// Every question, in the order model files list them.
    pub const ALL: [Question; 3] = [
        Question::Independent,
        Question::Dominate,
        Question::IndependentDominate,
    ];

    /// The name model files use (`goal = "..."`).
    pub fn name(self) -> &'static str {
        match self {
            Question::Independent => "independent",
            Question::Dominate => "dominate",
            Question::IndependentDominate => "independent-dominate",
        }
    }

    /// The question a model file's name means.
    pub fn from_name(name: &str) -> Option<Question> {
        Question::ALL.into_iter().find(|q| q.name() == name)
    }

    /// Whether no two pieces may attack each other.
    pub fn independent(self) -> bool {
        matches!(self, Question::Independent | Question::IndependentDominate)
    }

    /// Whether every free square must be guarded.
    pub fn dominating(self) -> bool {
        matches!(self, Question::Dominate | Question::IndependentDominate)
    }
}

/// A chess instance: a board of free squares and obstacles, a piece and a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    /// The board: its size and its free squares.
    pub board: Board,
    /// The piece every placement uses.
    pub piece: Piece,
    /// What is asked.
    pub question: Question,
    /// The model file's one-line description, if any.
    pub description: Option<String>,
}

/// Pieces on squares, as (x, y) = (column, row), sorted row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessSolution {
    /// The occupied squares.
    pub pieces: Vec<(usize, usize)>,
}

impl ChessSolution {
    /// A solution of `pieces`, sorted row-major.
    pub fn new(mut pieces: Vec<(usize, usize)>) -> ChessSolution {
        pieces.sort_by_key(|&(x, y)| (y, x));
        ChessSolution { pieces }
    }
}

impl Chess {
    /// An empty `width` x `height` board.
    pub fn empty(width: usize, height: usize, piece: Piece, question: Question) -> Chess {
        Chess {
            board: Board::empty(width, height),
            piece,
            question,
            description: None,
        }
    }

    /// A board from rows of `-` (free) and `*` (obstacle); for tests and generators.
    pub fn from_rows(rows: &[&str], piece: Piece, question: Question) -> Chess {
        Chess {
            board: Board::from_rows(rows),
            piece,
            question,
            description: None,
        }
    }

    /// The fewest pieces a dominating question needs by an argument the puzzle states, with
    /// the argument in words, on a board without obstacles where a known placement reaches
    /// it. Rooks: a row and a column both without a rook would leave the square where they
    /// cross unguarded, so every row or every column holds one; the shorter side's count of
    /// rooks on a diagonal guards the board and attacks no other. Bishops on an n x n
    /// board: a diagonal meets the border only at its two ends, so a bishop guards at most
    /// four border squares, all of its own colour, and each colour has 2n - 2 of them: n / 2
    /// bishops of each colour at least when n is even. When n = 2m + 1 is odd, m bishops
    /// of one colour would end their 2m diagonals on its 4m border squares once each, and
    /// a parity count of those ends (docs/methods.md) allows that for one colour only: one
    /// colour needs m + 1. n bishops filling the middle column guard the board (but attack
    /// each other, so not for independent domination). `None` otherwise.
    pub fn stated_fewest(&self) -> Option<(usize, String)> {
        if !self.question.dominating() || self.board.free.contains(&false) {
            return None;
        }
        match self.piece {
            Piece::Rook => {
                let fewest = self.board.width.min(self.board.height);
                Some((
                    fewest,
                    format!(
                        "every row or every column holds a rook, or the square where an empty \
                         row and an empty column cross is unguarded: at least {fewest} rooks"
                    ),
                ))
            }
            Piece::Bishop
                if self.question == Question::Dominate && self.board.width == self.board.height =>
            {
                let n = self.board.width;
                let reason = if n.is_multiple_of(2) {
                    format!(
                        "a bishop guards at most four border squares, all of its colour, and \
                         each colour has {} of them: at least {} bishops of each colour, {n} \
                         in all",
                        2 * n - 2,
                        n / 2
                    )
                } else {
                    format!(
                        "a bishop guards at most four border squares, all of its colour, and \
                         each colour has {} of them: at least {m} bishops of each colour, and \
                         {m} of one colour would end their diagonals on its border squares \
                         once each, which the parity of those ends allows for one colour \
                         only: at least {n} in all",
                        2 * n - 2,
                        m = n / 2
                    )
                };
                Some((n, reason))
            }
            _ => None,
        }
    }

    /// The model's variable of each square (row-major): the free squares numbered in scan
    /// order, `None` for obstacles.
    pub fn var_of_square(&self) -> Vec<Option<Var>> {
        let numbers = self.board.free_numbers();
        numbers
            .into_iter()
            .map(|n| n.map(Var::from_index))
            .collect()
    }

    /// The assignment of the compiled model that places `solution`'s pieces (pieces off the
    /// free squares are ignored).
    pub fn assignment_of(&self, solution: &ChessSolution) -> Assignment {
        Assignment::new(self.board.placed(&solution.pieces))
    }

    /// The board's rows: the piece's letter where one stands, `*` for obstacles and `-` for
    /// free squares (as in model files, so a printed board reads back as one).
    pub fn render_grid(&self, solution: &ChessSolution) -> Vec<String> {
        let mut rows: Vec<Vec<char>> = self
            .board
            .free
            .chunks(self.board.width.max(1))
            .map(|row| row.iter().map(|&f| if f { '-' } else { '*' }).collect())
            .collect();
        for &(x, y) in &solution.pieces {
            rows[y][x] = self.piece.letter();
        }
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

impl Family for Chess {
    type Solution = ChessSolution;

    const KIND: &'static str = "chess";

    fn from_source(source: &Source) -> Result<Chess, InputError> {
        parse::parse(source)
    }

    fn has_objective(&self) -> bool {
        true
    }

    /// Domination counts pieces down: the model maximises the free squares left empty.
    fn sense(&self) -> Sense {
        if self.question.dominating() {
            Sense::Fewest {
                of: self.board.free_count(),
            }
        } else {
            Sense::Most
        }
    }

    fn trivially_impossible(&self) -> Option<String> {
        None
    }

    fn canonical_text(&self) -> String {
        format!(
            "chess {} {} {}x{} {}",
            self.piece.name(),
            self.question.name(),
            self.board.width,
            self.board.height,
            cells_text(self.board.width, &self.board.free, '-', '*'),
        )
    }

    fn compile(&self) -> Model {
        compile::compile(self)
    }

    /// The model is built outright: at most 64 x 64 squares, each guarded from at most a
    /// few hundred, so building it is as quick as estimating it.
    fn shape(&self, _lazy_written_out: bool) -> ModelShape {
        ModelShape::of(&self.compile())
    }

    fn symmetry_rows(&self) -> Vec<(&'static str, Constraint)> {
        Vec::new()
    }

    fn decode(&self, assignment: &Assignment) -> ChessSolution {
        let pieces = self
            .var_of_square()
            .into_iter()
            .enumerate()
            .filter_map(|(square, var)| {
                var.filter(|&v| assignment.value(v))
                    .map(|_| (square % self.board.width, square / self.board.width))
            })
            .collect();
        ChessSolution::new(pieces)
    }

    /// Checks the rules from scratch: pieces on distinct free squares; with independence,
    /// no piece attacks another; with domination, every free square holds a piece or is
    /// attacked by one.
    fn verify(&self, solution: &ChessSolution) -> Result<(), VerifyError> {
        let board = &self.board;
        let name = self.piece.name();
        let mut occupied = vec![false; self.board.free.len()];
        for &(x, y) in &solution.pieces {
            if !board.is_free(x as i64, y as i64) {
                return Err(VerifyError(format!(
                    "{name} at ({x}, {y}) is not on a free square"
                )));
            }
            if std::mem::replace(&mut occupied[y * self.board.width + x], true) {
                return Err(VerifyError(format!("two pieces at ({x}, {y})")));
            }
        }
        let at = |square: usize| (square % self.board.width, square / self.board.width);
        if self.question.independent() {
            for &(x, y) in &solution.pieces {
                let square = y * self.board.width + x;
                if let Some(&other) = attacks(board, self.piece, square)
                    .iter()
                    .find(|&&s| occupied[s])
                {
                    let (ox, oy) = at(other);
                    return Err(VerifyError(format!(
                        "{name}s at ({x}, {y}) and ({ox}, {oy}) attack each other"
                    )));
                }
            }
        }
        if self.question.dominating() {
            let table = attack_table(board, self.piece);
            for square in (0..self.board.free.len()).filter(|&s| self.board.free[s]) {
                if !occupied[square] && !table[square].iter().any(|&s| occupied[s]) {
                    let (x, y) = at(square);
                    return Err(VerifyError(format!(
                        "square ({x}, {y}) holds no {name} and no {name} attacks it"
                    )));
                }
            }
        }
        Ok(())
    }

    fn value(solution: &ChessSolution) -> usize {
        solution.pieces.len()
    }

    /// The number of pieces, then the board.
    fn render(&self, solution: &ChessSolution) -> String {
        let mut out = format!("{}\n", solution.pieces.len());
        for row in self.render_grid(solution) {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }

    fn solution_json(&self, solution: &ChessSolution) -> serde_json::Value {
        serde_json::json!({
            "piece": self.piece.name(),
            "goal": self.question.name(),
            "pieces": solution.pieces.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
            "grid": self.render_grid(solution),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_names_the_broken_rule() {
        let chess = Chess::from_rows(&["---", "-*-", "---"], Piece::Rook, Question::Dominate);
        let ok = ChessSolution::new(vec![(0, 0), (2, 2)]);
        assert_eq!(chess.verify(&ok), Ok(()));
        let err = chess.verify(&ChessSolution::new(vec![(0, 0)])).unwrap_err();
        assert_eq!(err.0, "square (2, 1) holds no rook and no rook attacks it");
        let err = chess.verify(&ChessSolution::new(vec![(1, 1)])).unwrap_err();
        assert_eq!(err.0, "rook at (1, 1) is not on a free square");
        let independent = Chess {
            question: Question::IndependentDominate,
            ..chess
        };
        let err = independent
            .verify(&ChessSolution::new(vec![(0, 0), (2, 0), (0, 2), (2, 2)]))
            .unwrap_err();
        assert_eq!(err.0, "rooks at (0, 0) and (2, 0) attack each other");
    }

    #[test]
    fn a_dominating_set_is_decoded_from_its_assignment() {
        let chess = Chess::empty(3, 3, Piece::King, Question::Dominate);
        let solution = ChessSolution::new(vec![(1, 1)]);
        let assignment = chess.assignment_of(&solution);
        assert_eq!(chess.decode(&assignment), solution);
        assert!(chess.compile().satisfied_by(&assignment));
        assert_eq!(chess.sense(), Sense::Fewest { of: 9 });
    }
}
