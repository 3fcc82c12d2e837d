//! SVG pictures of [`LabelledGrid`]s: one picture, or a contact sheet of many.
//!
//! Every shape carries a `class` (`cell empty`, `cell obstacle`, `cell region`, `queen`,
//! `outline`, `cut`, `border`, `solution`) so that scripts and tests can find them, and the
//! output uses only plain shapes (no text, no fonts), so any SVG renderer draws it the same.

use super::color::region_rgb;
use super::render::{Boundaries, Cell, LabelledGrid, Marker};
use std::fmt::Write;

/// The side of one cell, in SVG user units (pixels).
pub const CELL: usize = 32;

/// The space around a picture, and between pictures on a contact sheet.
pub const MARGIN: usize = 8;

/// The SVG picture of one grid.
pub fn svg(grid: &LabelledGrid) -> String {
    let width = grid.width * CELL + 2 * MARGIN;
    let height = grid.height * CELL + 2 * MARGIN;
    let mut out = header(width, height);
    let _ = writeln!(out, r#"<g transform="translate({MARGIN},{MARGIN})">"#);
    body(grid, &mut out);
    out.push_str("</g>\n</svg>\n");
    out
}

/// One SVG holding many pictures in a grid of `columns` columns (at least one), each in a
/// `<g class="solution">` with its caption as `<title>`: the pictures of `solve --all`.
pub fn contact_sheet(pictures: &[(String, LabelledGrid)], columns: usize) -> String {
    let columns = columns.max(1).min(pictures.len().max(1));
    let rows = pictures.len().div_ceil(columns);
    // Every slot is as large as the largest picture, so the sheet lines up.
    let slot_w = pictures.iter().map(|(_, g)| g.width).max().unwrap_or(0) * CELL + MARGIN;
    let slot_h = pictures.iter().map(|(_, g)| g.height).max().unwrap_or(0) * CELL + MARGIN;
    let width = columns * slot_w + MARGIN;
    let height = rows * slot_h + MARGIN;
    let mut out = header(width, height);
    for (i, (caption, grid)) in pictures.iter().enumerate() {
        let x = MARGIN + (i % columns) * slot_w;
        let y = MARGIN + (i / columns) * slot_h;
        let _ = writeln!(
            out,
            r#"<g class="solution" transform="translate({x},{y})"><title>{}</title>"#,
            escape(caption)
        );
        body(grid, &mut out);
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

fn header(width: usize, height: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(
        out,
        r##"<rect class="background" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    out
}

/// The cells, borders and markers of `grid`, with its top-left corner at the origin.
fn body(grid: &LabelledGrid, out: &mut String) {
    for y in 0..grid.height {
        for x in 0..grid.width {
            let (px, py) = (x * CELL, y * CELL);
            let (class, fill, label) = match grid.cells[y * grid.width + x] {
                Cell::Outside => continue,
                Cell::Blocked => ("cell obstacle", "#3c3c3c".to_string(), None),
                Cell::Empty => ("cell empty", "#f4f1e8".to_string(), None),
                Cell::Label(k) => {
                    let (r, g, b) = region_rgb(k);
                    let name = grid.labels.get(k).map_or(k.to_string(), |n| n.clone());
                    ("cell region", format!("#{r:02x}{g:02x}{b:02x}"), Some(name))
                }
            };
            let label = label.map_or(String::new(), |l| {
                format!(r#" data-label="{}""#, escape(&l))
            });
            let _ = writeln!(
                out,
                r##"<rect class="{class}"{label} x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#b8b4aa" stroke-width="0.5"/>"##
            );
        }
    }
    let edges = edges(grid);
    for (class, width, colour) in [
        ("outline", 2.0, "#202020"),
        ("cut", 5.0, "#c00000"),
        ("border", 2.5, "#000000"),
    ] {
        let d: String = edges
            .iter()
            .filter(|e| e.class == class)
            .map(|e| e.path())
            .collect();
        if !d.is_empty() {
            let _ = writeln!(
                out,
                r#"<path class="{class}" d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round"/>"#
            );
        }
    }
    for &(x, y, marker) in &grid.markers {
        match marker {
            Marker::Queen => queen(out, x, y),
            Marker::Piece(letter) => piece(out, x, y, letter),
        }
    }
}

/// One unit border segment between two neighbouring cells.
struct Edge {
    class: &'static str,
    /// The segment's start, in cell corners.
    x: usize,
    y: usize,
    horizontal: bool,
}

impl Edge {
    fn path(&self) -> String {
        let (x, y) = (self.x * CELL, self.y * CELL);
        if self.horizontal {
            format!("M{x} {y}h{CELL}")
        } else {
            format!("M{x} {y}v{CELL}")
        }
    }
}

/// What, if anything, is drawn between cells `a` and `b`.
fn border_class(a: Cell, b: Cell, boundaries: Boundaries) -> Option<&'static str> {
    match (a, b) {
        (Cell::Outside, Cell::Outside) => None,
        (Cell::Outside, _) | (_, Cell::Outside) => Some("border"),
        (Cell::Label(p), Cell::Label(q)) if p != q => Some(match boundaries {
            Boundaries::Outline => "outline",
            Boundaries::Cut => "cut",
        }),
        (Cell::Label(_), _) | (_, Cell::Label(_)) if a != b => Some("outline"),
        _ => None,
    }
}

/// Every unit border of the grid: between each cell and its right and lower neighbours,
/// and along the top and left edges (where the neighbour is outside).
fn edges(grid: &LabelledGrid) -> Vec<Edge> {
    let mut edges = Vec::new();
    for y in 0..=grid.height as i64 {
        for x in 0..=grid.width as i64 {
            let here = grid.at(x, y);
            // The vertical edge on the left of (x, y), and the horizontal one above it.
            if y < grid.height as i64 {
                if let Some(class) = border_class(grid.at(x - 1, y), here, grid.boundaries) {
                    edges.push(Edge {
                        class,
                        x: x as usize,
                        y: y as usize,
                        horizontal: false,
                    });
                }
            }
            if x < grid.width as i64 {
                if let Some(class) = border_class(grid.at(x, y - 1), here, grid.boundaries) {
                    edges.push(Edge {
                        class,
                        x: x as usize,
                        y: y as usize,
                        horizontal: true,
                    });
                }
            }
        }
    }
    edges
}

/// A queen: a crown on a round base, centred in cell (x, y).
fn queen(out: &mut String, x: usize, y: usize) {
    let (cx, cy) = (x * CELL + CELL / 2, y * CELL + CELL / 2);
    let _ = writeln!(
        out,
        r##"<g class="queen" data-x="{x}" data-y="{y}" transform="translate({cx},{cy})"><path d="M-10 6L-12 -6L-5 0L0 -10L5 0L12 -6L10 6Z" fill="#7a1fa2" stroke="#2a0a38" stroke-width="1.2"/><rect x="-10" y="7" width="20" height="4" rx="1.5" fill="#7a1fa2" stroke="#2a0a38" stroke-width="1"/></g>"##
    );
}

/// A chess piece other than the queen: a disc with its letter.
fn piece(out: &mut String, x: usize, y: usize, letter: char) {
    let (cx, cy) = (x * CELL + CELL / 2, y * CELL + CELL / 2);
    let _ = writeln!(
        out,
        r##"<g class="piece" data-x="{x}" data-y="{y}" transform="translate({cx},{cy})"><circle r="11" fill="#7a1fa2" stroke="#2a0a38" stroke-width="1.2"/><text y="5" text-anchor="middle" font-family="sans-serif" font-size="14" font-weight="bold" fill="#ffffff">{letter}</text></g>"##
    );
}

/// Escapes text for an XML attribute or element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn a_cut_runs_between_parts_and_a_border_around_the_board() {
        // Two parts side by side: the cut is the two unit edges between them.
        let grid = LabelledGrid::from_letters(&["AB", "AB"], Boundaries::Cut);
        let edges = edges(&grid);
        let cuts: Vec<&Edge> = edges.iter().filter(|e| e.class == "cut").collect();
        assert_eq!(cuts.len(), 2);
        assert!(cuts.iter().all(|e| e.x == 1 && !e.horizontal));
        // The board's perimeter: 2 + 2 + 2 + 2 unit edges.
        assert_eq!(edges.iter().filter(|e| e.class == "border").count(), 8);
        assert_eq!(edges.len(), 10);
    }

    #[test]
    fn packings_outline_pieces_and_empty_cells_stay_plain() {
        let grid = LabelledGrid::from_letters(&["A.", ".."], Boundaries::Outline);
        let edges = edges(&grid);
        // A's two inner sides are outlined; empty cells meet without a line.
        assert_eq!(edges.iter().filter(|e| e.class == "outline").count(), 2);
        assert_eq!(edges.iter().filter(|e| e.class == "cut").count(), 0);
    }

    #[test]
    fn contact_sheet_lays_out_every_picture() {
        let grid = LabelledGrid::from_letters(&["AB"], Boundaries::Cut);
        let pictures: Vec<(String, LabelledGrid)> = (0..5)
            .map(|i| (format!("solution {} <{i}>", i + 1), grid.clone()))
            .collect();
        let sheet = contact_sheet(&pictures, 2);
        assert_eq!(count(&sheet, r#"<g class="solution""#), 5);
        assert_eq!(count(&sheet, r#"class="cell region""#), 10);
        assert!(sheet.contains("<title>solution 1 &lt;0&gt;</title>"));
        // Three rows of two slots, each one row of cells high plus a margin.
        let height = 3 * (CELL + MARGIN) + MARGIN;
        assert!(sheet.contains(&format!(r#"height="{height}""#)), "{sheet}");
    }
}
