//! A `kind = "chess"` model file: the piece, the goal and the board (`board` with `*`
//! obstacles, `size = N` for an empty square, or `width` and `height` for an empty
//! rectangle), each error naming the file, the line and the field.

use super::{Chess, Piece, Question};
use crate::base::error::InputError;
use crate::puzzle::grid::{Grid, MAX_SIDE};
use crate::puzzle::source::Source;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChessFile {
    #[allow(dead_code)]
    kind: String,
    description: Option<String>,
    piece: Option<Spanned<String>>,
    goal: Option<Spanned<String>>,
    board: Option<Spanned<String>>,
    size: Option<Spanned<i64>>,
    width: Option<Spanned<i64>>,
    height: Option<Spanned<i64>>,
}

/// Parses and validates a `kind = "chess"` model file.
pub(super) fn parse(source: &Source) -> Result<Chess, InputError> {
    let file: ChessFile = source.parse()?;
    let piece = named(
        source,
        "piece",
        file.piece,
        Piece::from_name,
        &piece_names(),
    )?;
    let question = named(
        source,
        "goal",
        file.goal,
        Question::from_name,
        &Question::ALL.map(Question::name),
    )?;
    let side = |value: &Spanned<i64>, key: &str| -> Result<usize, InputError> {
        let n = *value.get_ref();
        if (1..=MAX_SIDE as i64).contains(&n) {
            Ok(n as usize)
        } else {
            Err(source.error_at(
                value.span().start,
                format!("`{key}` is {n}; it must be between 1 and {MAX_SIDE}"),
            ))
        }
    };
    let mut chess = match (file.board, file.size, file.width, file.height) {
        (Some(board), None, None, None) => {
            let span = board.span();
            let grid = Grid::parse(source, "board", board.get_ref(), span, &['-', '*'])?;
            Chess {
                board: grid.board('-'),
                piece,
                question,
                description: None,
            }
        }
        (None, Some(size), None, None) => {
            let n = side(&size, "size")?;
            Chess::empty(n, n, piece, question)
        }
        (None, None, Some(width), Some(height)) => {
            let (w, h) = (side(&width, "width")?, side(&height, "height")?);
            Chess::empty(w, h, piece, question)
        }
        (None, None, Some(one), None) | (None, None, None, Some(one)) => {
            return Err(source.error_at(
                one.span().start,
                "give both `width` and `height` for a rectangle",
            ))
        }
        (None, None, None, None) => {
            return Err(source.error_line(
                1,
                "missing key `board` (a grid of '-' and '*'), `size` (an empty N x N board) or `width` and `height`",
            ))
        }
        (board, size, width, height) => {
            // Two ways of giving the board: name the later one.
            let second = [
                board.map(|b| b.span().start),
                size.map(|s| s.span().start),
                width.map(|w| w.span().start),
                height.map(|h| h.span().start),
            ]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(0);
            return Err(source.error_at(
                second,
                "give one of `board`, `size`, or `width` and `height`",
            ));
        }
    };
    chess.description = file.description;
    Ok(chess)
}

fn piece_names() -> [&'static str; 5] {
    Piece::ALL.map(Piece::name)
}

/// The value of `key`, one of `names` as `from_name` reads it.
fn named<T>(
    source: &Source,
    key: &str,
    value: Option<Spanned<String>>,
    from_name: fn(&str) -> Option<T>,
    names: &[&str],
) -> Result<T, InputError> {
    let list = names.join(", ");
    let Some(value) = value else {
        return Err(source.error_line(1, format!("missing key `{key}` (one of {list})")));
    };
    from_name(value.get_ref()).ok_or_else(|| {
        source.error_at(
            value.span().start,
            format!("`{key}` is {:?}; expected one of {list}", value.get_ref()),
        )
    })
}
