//! The table file (`table.txt`), read and written through [`crate::formats::doll_table`]:
//! what its rows mean (the scan order, a permutation of the region's cells, and `S[k]` one
//! row per position), and the shape its entries must have to be a Russian-doll table of the
//! claimed optimum that the witness fits.

use crate::formats::doll_table::{read_doll_table, write_doll_table, DollTableError, DollTableRow};

use super::super::MODEL_FILE;

/// Why a [`TABLE_FILE`](super::TABLE_FILE) could not be read (lines are 1-based, comments
/// included).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableFileError {
    /// The file has no line but comments.
    #[error("no `positions` line")]
    NoHeader,
    /// The first line is not `positions N`.
    #[error("expected `positions N`, found {0:?}")]
    BadHeader(String),
    /// `positions N` does not match the region.
    #[error("{positions} positions, but the region has {cells} cells")]
    WrongSize {
        /// N of the header.
        positions: usize,
        /// Cells of the region.
        cells: usize,
    },
    /// A line is not four whole numbers.
    #[error("line {line}: expected four whole numbers `k x y S`")]
    BadLine {
        /// The line.
        line: usize,
    },
    /// The positions are not numbered 0, 1, 2, ... in order.
    #[error("line {line}: position {found}, expected {expected}")]
    OutOfOrder {
        /// The line.
        line: usize,
        /// The position it gives.
        found: usize,
        /// The position it should give.
        expected: usize,
    },
    /// A cell outside the region.
    #[error("line {line}: cell ({x}, {y}) is outside the region")]
    Outside {
        /// The line.
        line: usize,
        /// The cell's column.
        x: usize,
        /// The cell's row.
        y: usize,
    },
    /// A cell listed twice.
    #[error("line {line}: cell ({x}, {y}) has two positions")]
    Repeated {
        /// The line of the second listing.
        line: usize,
        /// The cell's column.
        x: usize,
        /// The cell's row.
        y: usize,
    },
    /// Fewer positions than the header announced.
    #[error("{listed} positions listed, {announced} announced")]
    Missing {
        /// Positions listed.
        listed: usize,
        /// Positions announced (the region's cells).
        announced: usize,
    },
}

impl From<DollTableError> for TableFileError {
    fn from(error: DollTableError) -> TableFileError {
        match error {
            DollTableError::NoHeader => TableFileError::NoHeader,
            DollTableError::BadHeader(header) => TableFileError::BadHeader(header),
            DollTableError::BadLine { line } => TableFileError::BadLine { line },
            DollTableError::OutOfOrder {
                line,
                found,
                expected,
            } => TableFileError::OutOfOrder {
                line,
                found,
                expected,
            },
        }
    }
}

/// A table that is not shaped as a Russian-doll table of the claimed optimum and its witness.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableShapeError {
    /// An entry is neither the next one nor one more.
    #[error(
        "position {position}: S = {entry} after S = {next} at position {}: an entry is the next one or one more",
        .position + 1
    )]
    Step {
        /// The position.
        position: usize,
        /// Its entry.
        entry: usize,
        /// The next position's entry.
        next: usize,
    },
    /// An entry below the pieces of the witness that start there or later.
    #[error("position {position}: S = {entry}, but the witness has {witness} pieces starting there or later")]
    BelowWitness {
        /// The position.
        position: usize,
        /// Its entry.
        entry: usize,
        /// The witness's pieces starting there or later.
        witness: usize,
    },
    /// `S[0]` is not the claimed optimum.
    #[error("position 0: S = {entry}, but the claimed optimum is {optimum}")]
    NotTheOptimum {
        /// `S[0]`.
        entry: usize,
        /// The manifest's optimum.
        optimum: usize,
    },
}

impl TableShapeError {
    /// The position (and so the step) whose entry breaks the rule.
    pub fn position(&self) -> usize {
        match self {
            TableShapeError::Step { position, .. }
            | TableShapeError::BelowWitness { position, .. } => *position,
            TableShapeError::NotTheOptimum { .. } => 0,
        }
    }
}

/// A scan order and its table: the content of [`TABLE_FILE`](super::TABLE_FILE).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Position `k`'s row-major cell.
    pub order: Vec<usize>,
    /// `S[k]` for `k` in `0..=P` (the last is 0).
    pub entries: Vec<usize>,
}

impl Table {
    /// The table as text: comments, `positions P`, then `k x y S[k]` per position.
    pub fn text(&self, width: usize) -> String {
        let comments = [
            format!("puzzlec Russian-doll table of {MODEL_FILE}"),
            "line `k x y S`: scan position k is cell (x, y); at most S pieces have their first cell (smallest scan position) at k or later".to_string(),
            "step k refutes \"at least S + 1 pieces start at k or later\" given the entries after k; S = 0 past the last position".to_string(),
        ];
        let rows: Vec<DollTableRow> = self
            .order
            .iter()
            .zip(&self.entries)
            .map(|(&cell, &entry)| DollTableRow {
                x: cell % width,
                y: cell / width,
                entry,
            })
            .collect();
        write_doll_table(&comments, &rows)
    }

    /// Reads [`Table::text`] for a `width x height` region, checking that the positions are
    /// numbered in order and the cells form a permutation.
    pub fn parse(text: &str, width: usize, height: usize) -> Result<Table, TableFileError> {
        let cells = width * height;
        let (positions, rows) = read_doll_table(text)?;
        if positions != cells {
            return Err(TableFileError::WrongSize { positions, cells });
        }
        let mut order = Vec::with_capacity(cells);
        let mut entries = Vec::with_capacity(cells + 1);
        let mut seen = vec![false; cells];
        for row in rows {
            let (line, DollTableRow { x, y, entry }) = row?;
            if x >= width || y >= height {
                return Err(TableFileError::Outside { line, x, y });
            }
            let cell = y * width + x;
            if std::mem::replace(&mut seen[cell], true) {
                return Err(TableFileError::Repeated { line, x, y });
            }
            order.push(cell);
            entries.push(entry);
        }
        if order.len() != cells {
            return Err(TableFileError::Missing {
                listed: order.len(),
                announced: cells,
            });
        }
        entries.push(0);
        Ok(Table { order, entries })
    }
}

/// Checks the table's shape against the claimed optimum and the witness: the entries never
/// fall by more than one from one position to the previous and never rise, `S[0]` is the
/// optimum, and no entry is below the witness's pieces starting there or later (the witness
/// shows that many fit). Names the first position that breaks a rule.
pub(super) fn check_shape(
    table: &Table,
    ranking_first: &[usize],
    witness: &[usize],
    optimum: usize,
) -> Result<(), TableShapeError> {
    let p = table.order.len();
    let mut from = vec![0usize; p + 1];
    for &i in witness {
        from[ranking_first[i]] += 1;
    }
    for c in (0..p).rev() {
        from[c] += from[c + 1];
    }
    for c in (0..p).rev() {
        let (s, next) = (table.entries[c], table.entries[c + 1]);
        if s < next || s > next + 1 {
            return Err(TableShapeError::Step {
                position: c,
                entry: s,
                next,
            });
        }
        if s < from[c] {
            return Err(TableShapeError::BelowWitness {
                position: c,
                entry: s,
                witness: from[c],
            });
        }
    }
    if table.entries[0] != optimum {
        return Err(TableShapeError::NotTheOptimum {
            entry: table.entries[0],
            optimum,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Table, TableFileError};

    /// A 2 x 1 region's table with `body` after the header `positions 2`.
    fn parse(body: &str) -> Result<Table, TableFileError> {
        Table::parse(&format!("c a comment\npositions 2\n{body}"), 2, 1)
    }

    #[test]
    fn a_table_file_reads_back_what_text_writes() {
        let table = Table {
            order: vec![1, 0],
            entries: vec![1, 1, 0],
        };
        assert_eq!(Table::parse(&table.text(2), 2, 1), Ok(table));
    }

    #[test]
    fn each_malformed_table_file_is_named_by_line() {
        let cases: [(Result<Table, TableFileError>, &str); 8] = [
            (Table::parse("c only\n", 2, 1), "no `positions` line"),
            (
                Table::parse("places 2\n", 2, 1),
                "expected `positions N`, found \"places 2\"",
            ),
            (
                Table::parse("positions 3\n", 2, 1),
                "3 positions, but the region has 2 cells",
            ),
            (
                parse("0 0 0 1\n1 1 0\n"),
                "line 4: expected four whole numbers `k x y S`",
            ),
            (
                parse("0 0 0 1\n2 1 0 0\n"),
                "line 4: position 2, expected 1",
            ),
            (
                parse("0 0 0 1\n1 0 1 0\n"),
                "line 4: cell (0, 1) is outside the region",
            ),
            (
                parse("0 0 0 1\n1 0 0 0\n"),
                "line 4: cell (0, 0) has two positions",
            ),
            (parse("0 0 0 1\n"), "1 positions listed, 2 announced"),
        ];
        for (result, message) in cases {
            assert_eq!(result.unwrap_err().to_string(), message);
        }
    }
}
