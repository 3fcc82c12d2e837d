//! Rectangular character grids written as multi-line strings in model files.

use crate::base::error::InputError;
use crate::geometry::board::Board;
use crate::puzzle::source::Source;
use itertools::Itertools;
use std::ops::Range;

/// The largest grid side any family accepts: boards beyond it are rejected as absurd.
pub const MAX_SIDE: usize = 64;

/// A rectangular grid of characters, row-major, (x, y) = (column, row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// The characters, row-major.
    pub cells: Vec<char>,
}

impl Grid {
    /// The character at column `x`, row `y`.
    pub fn at(&self, x: usize, y: usize) -> char {
        self.cells[y * self.width + x]
    }

    /// The board whose free cells are the grid's `free` characters (obstacles the rest).
    pub fn board(&self, free: char) -> Board {
        Board {
            width: self.width,
            height: self.height,
            free: self.cells.iter().map(|&c| c == free).collect(),
        }
    }

    /// Parses the grid in the string value at `span` of `source` (the TOML key `key`).
    /// Rows are the string's lines with surrounding blanks trimmed; blank lines before the
    /// first and after the last row are ignored. Every character must be in `allowed`.
    pub fn parse(
        source: &Source,
        key: &str,
        text: &str,
        span: Range<usize>,
        allowed: &[char],
    ) -> Result<Grid, InputError> {
        let first_line = source.first_content_line(span.clone());
        let rows: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, row)| (first_line + i, row.trim()))
            .collect();
        let start = rows.iter().position(|(_, r)| !r.is_empty());
        let end = rows.iter().rposition(|(_, r)| !r.is_empty());
        let (Some(start), Some(end)) = (start, end) else {
            return Err(source.error_at(span.start, format!("`{key}` is empty")));
        };
        let rows = &rows[start..=end];
        let width = rows[0].1.chars().count();
        let allowed_list = allowed.iter().map(|c| format!("'{c}'")).join(", ");
        let mut cells = Vec::with_capacity(width * rows.len());
        for (index, &(line, row)) in rows.iter().enumerate() {
            if row.is_empty() {
                return Err(source.error_line(line, format!("`{key}` row {} is blank", index + 1)));
            }
            if let Some(bad) = row.chars().find(|c| !allowed.contains(c)) {
                return Err(source.error_line(
                    line,
                    format!("`{key}` has unknown character {bad:?} (expected {allowed_list})"),
                ));
            }
            let len = row.chars().count();
            if len != width {
                return Err(source.error_line(
                    line,
                    format!(
                        "`{key}` row {} has {len} cells, but row 1 has {width}: rows must have equal length",
                        index + 1
                    ),
                ));
            }
            cells.extend(row.chars());
        }
        let height = rows.len();
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(source.error_at(
                span.start,
                format!(
                    "`{key}` is {width} x {height}; at most {MAX_SIDE} x {MAX_SIDE} is supported"
                ),
            ));
        }
        Ok(Grid {
            width,
            height,
            cells,
        })
    }
}
