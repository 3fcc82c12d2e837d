//! Russian-doll tables: a packing certificate's `table.txt`. After `c` comment lines (and
//! blank ones), the header `positions P`, then one line `k x y S` per scan position `k`,
//! numbered 0, 1, 2, ... in order: four whole numbers, the position, the cell's column and
//! row, and the table's entry. What the cells and entries mean (a permutation of a region,
//! bounds on pieces) is the certificate's; this is their text.

use std::fmt::Write as _;

/// One position's line: its cell and its entry (the position is the line's place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DollTableRow {
    /// The cell's column.
    pub x: usize,
    /// The cell's row.
    pub y: usize,
    /// The table's entry at this position.
    pub entry: usize,
}

/// The table file: each of `comments` as a `c` line, `positions P` for the `rows`' count,
/// then `k x y S` per row.
pub fn write_doll_table(comments: &[String], rows: &[DollTableRow]) -> String {
    let mut text = String::new();
    for comment in comments {
        let _ = writeln!(text, "c {comment}");
    }
    let _ = writeln!(text, "positions {}", rows.len());
    for (k, row) in rows.iter().enumerate() {
        let _ = writeln!(text, "{k} {} {} {}", row.x, row.y, row.entry);
    }
    text
}

/// Why a table file does not read (lines are 1-based, comments included).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DollTableError {
    /// The file has no line but comments.
    #[error("no `positions` line")]
    NoHeader,
    /// The first line is not `positions N`.
    #[error("expected `positions N`, found {0:?}")]
    BadHeader(String),
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
}

/// Reads a table file's header: the `P` of `positions P`, and its rows to come.
pub fn read_doll_table(text: &str) -> Result<(usize, DollTableRows<'_>), DollTableError> {
    let mut rows = DollTableRows {
        lines: text.lines().enumerate(),
        next_position: 0,
    };
    let (_, header) = rows.next_line().ok_or(DollTableError::NoHeader)?;
    let positions = header
        .strip_prefix("positions ")
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| DollTableError::BadHeader(header.to_string()))?;
    Ok((positions, rows))
}

/// The rows of a table file after its header, each with its 1-based line, read one at a
/// time so that the caller can refuse a row before the next is read. Nothing checks their
/// count against the header: that is the caller's.
pub struct DollTableRows<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    next_position: usize,
}

impl<'a> DollTableRows<'a> {
    /// The next line that is neither blank nor a comment, with its 0-based index.
    fn next_line(&mut self) -> Option<(usize, &'a str)> {
        self.lines
            .by_ref()
            .find(|(_, l)| !l.trim().is_empty() && !l.starts_with('c'))
    }
}

impl Iterator for DollTableRows<'_> {
    type Item = Result<(usize, DollTableRow), DollTableError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (index, line) = self.next_line()?;
        let number = index + 1;
        let fields: Result<Vec<usize>, _> = line.split_whitespace().map(str::parse).collect();
        let Ok(&[k, x, y, entry]) = fields.as_deref() else {
            return Some(Err(DollTableError::BadLine { line: number }));
        };
        if k != self.next_position {
            return Some(Err(DollTableError::OutOfOrder {
                line: number,
                found: k,
                expected: self.next_position,
            }));
        }
        self.next_position += 1;
        Some(Ok((number, DollTableRow { x, y, entry })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header and every row of `text`, or the first error.
    fn read(text: &str) -> Result<(usize, Vec<(usize, DollTableRow)>), DollTableError> {
        let (positions, rows) = read_doll_table(text)?;
        Ok((positions, rows.collect::<Result<_, _>>()?))
    }

    #[test]
    fn a_table_reads_back_what_is_written() {
        let rows = [
            DollTableRow {
                x: 1,
                y: 0,
                entry: 1,
            },
            DollTableRow {
                x: 0,
                y: 0,
                entry: 1,
            },
        ];
        let text = write_doll_table(&["a table".into()], &rows);
        assert_eq!(text, "c a table\npositions 2\n0 1 0 1\n1 0 0 1\n");
        assert_eq!(read(&text), Ok((2, vec![(3, rows[0]), (4, rows[1])])));
    }

    #[test]
    fn each_malformed_line_is_named() {
        let error = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(error("c only\n\n"), "no `positions` line");
        assert_eq!(
            error("places 2\n"),
            "expected `positions N`, found \"places 2\""
        );
        assert_eq!(
            error("positions 2\n0 0 0 1\n1 1 0\n"),
            "line 3: expected four whole numbers `k x y S`"
        );
        assert_eq!(
            error("positions 2\n0 0 0 1\n\nc gap\n2 1 0 0\n"),
            "line 5: position 2, expected 1"
        );
        // The count is the caller's to hold to the header.
        assert_eq!(read("positions 3\n0 0 0 1\n").unwrap().1.len(), 1);
    }
}
