//! Chess pieces on a board with obstacles: which squares each piece attacks. Sliding pieces
//! (queen, rook, bishop) move along their lines up to, not past, the first obstacle or the
//! edge; knights and kings take their usual steps to free squares. Other pieces never
//! block an attack, so what a piece attacks depends on the board alone, and the board's
//! symmetries ([`Board::symmetries`]) map attacks onto attacks.

use crate::geometry::board::Board;

/// A kind of chess piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// Slides along rows, columns and diagonals.
    Queen,
    /// Slides along rows and columns.
    Rook,
    /// Slides along diagonals.
    Bishop,
    /// Jumps two squares one way and one the other.
    Knight,
    /// Steps to any of the eight neighbouring squares.
    King,
}

impl Piece {
    /// Every piece, in the order model files list them.
    pub const ALL: [Piece; 5] = [
        Piece::Queen,
        Piece::Rook,
        Piece::Bishop,
        Piece::Knight,
        Piece::King,
    ];

    /// The name model files use.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Queen => "queen",
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Knight => "knight",
            Piece::King => "king",
        }
    }

    /// The piece a model file's name means.
    pub fn from_name(name: &str) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The letter boards are drawn with (`N` for the knight, as in chess notation).
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
            Piece::King => 'K',
        }
    }

    /// The piece's moves as (dx, dy) steps, and whether it slides (repeats a step until an
    /// obstacle or the edge) or takes each step once.
    pub fn steps(self) -> (&'static [(i64, i64)], bool) {
        const ORTHOGONAL: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const DIAGONAL: [(i64, i64); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];
        const BOTH: [(i64, i64); 8] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ];
        const JUMPS: [(i64, i64); 8] = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        match self {
            Piece::Queen => (&BOTH, true),
            Piece::Rook => (&ORTHOGONAL, true),
            Piece::Bishop => (&DIAGONAL, true),
            Piece::Knight => (&JUMPS, false),
            Piece::King => (&BOTH, false),
        }
    }
}

/// The free squares a `piece` on free square `cell` (row-major) of `board` attacks, in
/// increasing order; never `cell` itself. Empty for an obstacle.
pub fn attacks(board: &Board, piece: Piece, cell: usize) -> Vec<usize> {
    if !board.free[cell] {
        return Vec::new();
    }
    let (x, y) = ((cell % board.width) as i64, (cell / board.width) as i64);
    let (steps, slides) = piece.steps();
    let mut cells = Vec::new();
    for &(dx, dy) in steps {
        let (mut cx, mut cy) = (x + dx, y + dy);
        while board.is_free(cx, cy) {
            cells.push(cy as usize * board.width + cx as usize);
            if !slides {
                break;
            }
            cx += dx;
            cy += dy;
        }
    }
    cells.sort_unstable();
    cells
}

/// What every square of `board` attacks ([`attacks`] of each row-major cell). The relation
/// is symmetric: a piece on `a` attacks `b` exactly when one on `b` attacks `a`.
pub fn attack_table(board: &Board, piece: Piece) -> Vec<Vec<usize>> {
    (0..board.free.len())
        .map(|cell| attacks(board, piece, cell))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliding_pieces_stop_at_obstacles_and_leapers_jump_them() {
        let b = Board::from_rows(&["---", "-*-", "---"]);
        // The corner rook sees its row and column; the centre obstacle blocks nothing there.
        assert_eq!(attacks(&b, Piece::Rook, 0), vec![1, 2, 3, 6]);
        // The corner bishop's diagonal is blocked at once by the centre obstacle.
        assert!(attacks(&b, Piece::Bishop, 0).is_empty());
        assert_eq!(attacks(&b, Piece::Queen, 1), vec![0, 2, 3, 5]);
        assert_eq!(attacks(&b, Piece::Knight, 0), vec![5, 7]);
        assert_eq!(attacks(&b, Piece::King, 0), vec![1, 3]);
        assert!(attacks(&b, Piece::King, 4).is_empty());
    }

    #[test]
    fn attacks_are_symmetric_on_boards_with_obstacles() {
        let b = Board::from_rows(&["--*--", "-----", "*--*-", "-----"]);
        for piece in Piece::ALL {
            let table = attack_table(&b, piece);
            for (a, seen) in table.iter().enumerate() {
                for &s in seen {
                    assert!(table[s].contains(&a), "{piece:?} {a} {s}");
                }
            }
        }
    }
}
