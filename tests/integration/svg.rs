//! SVG pictures: `solve --svg` through the binary, parsed back to count the shapes, and the
//! seed instances rendered to PNG by resvg and decoded again, checking pixel colours.

use crate::common;

use common::{models, puzzlec};
use puzzlec::report::render::{Boundaries, LabelledGrid};
use puzzlec::report::svg::{contact_sheet, svg, CELL, MARGIN};
use resvg::tiny_skia::{Pixmap, Transform};

/// Elements of `doc` whose `class` attribute is exactly `class`.
fn with_class<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

/// Rasterises `svg` with resvg, goes through PNG bytes and back (so the PNG is known to
/// be valid), and returns the decoded picture.
fn to_png(svg_text: &str, png_path: &std::path::Path) -> Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg_text, &resvg::usvg::Options::default())
        .expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    let png = pixmap.encode_png().expect("PNG encoding");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::write(png_path, &png).expect("write the PNG");
    Pixmap::decode_png(&std::fs::read(png_path).unwrap()).expect("the PNG decodes")
}

/// The colour at the pixel (px, py).
fn rgb(pixmap: &Pixmap, px: usize, py: usize) -> (u8, u8, u8) {
    let p = pixmap
        .pixel(px as u32, py as u32)
        .expect("inside the picture")
        .demultiply();
    (p.red(), p.green(), p.blue())
}

/// The pixel at fraction (fx, fy) of cell (x, y) of a single picture.
fn cell_pixel(x: usize, y: usize, fx: f64, fy: f64) -> (usize, usize) {
    let px = MARGIN + x * CELL + (fx * CELL as f64) as usize;
    let py = MARGIN + y * CELL + (fy * CELL as f64) as usize;
    (px, py)
}

#[test]
fn contest_board_picture_has_20_queens_and_every_obstacle() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("contest.svg");
    let model = models().join("obstacle-queens.toml");
    let run = puzzlec(
        dir.path(),
        &["solve", model.to_str().unwrap(), "--svg", "contest.svg"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&file).expect("the SVG was written");
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");

    // The printed board is the truth the picture must agree with.
    let board: Vec<&str> = run.stdout.lines().skip(1).collect();
    assert_eq!(board.len(), 16);
    let stars = board.iter().map(|r| r.matches('*').count()).sum::<usize>();
    assert_eq!(stars, 256 - 178);
    assert_eq!(with_class(&doc, "cell obstacle").len(), stars);
    assert_eq!(with_class(&doc, "cell empty").len(), 178);

    let queens = with_class(&doc, "queen");
    assert_eq!(queens.len(), 20);
    for q in &queens {
        let x: usize = q.attribute("data-x").unwrap().parse().unwrap();
        let y: usize = q.attribute("data-y").unwrap().parse().unwrap();
        assert_eq!(board[y].as_bytes()[x], b'Q', "queen at ({x}, {y})");
    }
    // Each obstacle rect sits where the board has a '*'.
    for rect in with_class(&doc, "cell obstacle") {
        let x: usize = rect.attribute("x").unwrap().parse().unwrap();
        let y: usize = rect.attribute("y").unwrap().parse().unwrap();
        assert_eq!(board[y / CELL].as_bytes()[x / CELL], b'*');
    }
    // The border around a square board: 4 x 16 unit edges.
    let border = with_class(&doc, "border");
    assert_eq!(border.len(), 1);
    assert_eq!(border[0].attribute("d").unwrap().matches('M').count(), 64);
}

#[test]
fn seed_instances_render_to_png_with_queens_and_obstacles_where_they_belong() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["obstacle-queens", "queens-8"] {
        let model = models().join(format!("{name}.toml"));
        let svg_name = format!("{name}.svg");
        let run = puzzlec(
            dir.path(),
            &["solve", model.to_str().unwrap(), "--svg", &svg_name],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let text = std::fs::read_to_string(dir.path().join(&svg_name)).unwrap();
        let pixmap = to_png(&text, &dir.path().join(format!("{name}.png")));
        let board: Vec<&[u8]> = run.stdout.lines().skip(1).map(str::as_bytes).collect();
        assert_eq!(pixmap.width() as usize, board[0].len() * CELL + 2 * MARGIN);
        for (y, row) in board.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                // A point inside the crown, below the cell's centre.
                let (px, py) = cell_pixel(x, y, 0.5, 0.6);
                let (r, g, b) = rgb(&pixmap, px, py);
                match c {
                    b'Q' => assert!(r > 100 && g < 60 && b > 130, "queen {x},{y}: {r},{g},{b}"),
                    b'*' => assert!(r < 80 && g < 80 && b < 80, "obstacle {x},{y}"),
                    _ => assert!(r > 200 && g > 200 && b > 200, "free {x},{y}: {r},{g},{b}"),
                }
            }
        }
    }
}

#[test]
fn dissection_cuts_are_thick_and_packings_coloured_in_the_png() {
    let dir = tempfile::tempdir().unwrap();
    // Two parts split by a staircase cut, as the dissection family prints them.
    let parts = LabelledGrid::from_letters(&["AAB", "ABB"], Boundaries::Cut);
    let text = svg(&parts);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cut = with_class(&doc, "cut");
    assert_eq!(cut.len(), 1);
    // The staircase: down between (1,0)|(2,0), along under (1,0), down between (0,1)|(1,1).
    assert_eq!(cut[0].attribute("d").unwrap().matches('M').count(), 3);
    let pixmap = to_png(&text, &dir.path().join("parts.png"));
    // On the vertical cut between (1,0) and (2,0): the cut's red.
    let (px, py) = cell_pixel(2, 0, 0.0, 0.5);
    let (r, g, b) = rgb(&pixmap, px, py);
    assert!(r > 150 && g < 40 && b < 40, "cut pixel {r},{g},{b}");
    // The two parts' interiors differ in colour.
    let a = rgb(
        &pixmap,
        cell_pixel(0, 0, 0.5, 0.5).0,
        cell_pixel(0, 0, 0.5, 0.5).1,
    );
    let b = rgb(
        &pixmap,
        cell_pixel(2, 1, 0.5, 0.5).0,
        cell_pixel(2, 1, 0.5, 0.5).1,
    );
    assert_ne!(a, b);

    // A packing with a hole and an uncovered cell: pieces outlined, not cut.
    let packing = LabelledGrid::from_letters(&["AB.", "A#B"], Boundaries::Outline);
    let text = svg(&packing);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert!(with_class(&doc, "cut").is_empty());
    assert_eq!(with_class(&doc, "cell region").len(), 4);
    assert_eq!(with_class(&doc, "cell obstacle").len(), 1);
    assert_eq!(with_class(&doc, "cell empty").len(), 1);
    to_png(&text, &dir.path().join("packing.png"));
}

#[test]
fn contact_sheet_renders_every_solution() {
    let dir = tempfile::tempdir().unwrap();
    let pictures: Vec<(String, LabelledGrid)> = ["AB", "BA", "AA"]
        .iter()
        .enumerate()
        .map(|(i, row)| {
            (
                format!("solution {}", i + 1),
                LabelledGrid::from_letters(&[*row, "CC"], Boundaries::Cut),
            )
        })
        .collect();
    let text = contact_sheet(&pictures, 2);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let solutions = with_class(&doc, "solution");
    assert_eq!(solutions.len(), 3);
    let titles: Vec<&str> = solutions
        .iter()
        .map(|g| g.first_element_child().unwrap().text().unwrap())
        .collect();
    assert_eq!(titles, ["solution 1", "solution 2", "solution 3"]);
    let pixmap = to_png(&text, &dir.path().join("sheet.png"));
    // Two columns, two rows of 2 x 2 pictures.
    assert_eq!(pixmap.width() as usize, 2 * (2 * CELL + MARGIN) + MARGIN);
    assert_eq!(pixmap.height() as usize, 2 * (2 * CELL + MARGIN) + MARGIN);
}

#[test]
fn svg_into_a_missing_folder_fails_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("obstacle-queens.toml");
    let run = puzzlec(
        dir.path(),
        &[
            "solve",
            model.to_str().unwrap(),
            "--svg",
            "no/such/dir/x.svg",
        ],
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run
        .stderr
        .starts_with("error: cannot write no/such/dir/x.svg"));
}

#[test]
fn no_solution_means_no_picture() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("queens-8.toml");
    let run = puzzlec(
        dir.path(),
        &[
            "solve",
            model.to_str().unwrap(),
            "--at-least",
            "9",
            "--svg",
            "none.svg",
        ],
    );
    assert_eq!(run.code, 20, "{}", run.stderr);
    assert!(!dir.path().join("none.svg").exists());
    assert!(
        run.stderr.contains("none.svg not written"),
        "{}",
        run.stderr
    );
}

#[test]
fn dissection_picture_colours_each_part_and_draws_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("halves-asahi-2005.toml");
    let run = puzzlec(
        dir.path(),
        &["solve", model.to_str().unwrap(), "--svg", "halves.svg"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(dir.path().join("halves.svg")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let board: Vec<&[u8]> = run.stdout.lines().map(str::as_bytes).collect();
    // Every cell of the shape is a region rect named by the letter printed there; the
    // positions off the shape are not drawn at all.
    let regions = with_class(&doc, "cell region");
    assert_eq!(regions.len(), 26);
    assert!(with_class(&doc, "cell empty").is_empty());
    let mut cut_edges = 0;
    for rect in &regions {
        let x: usize = rect.attribute("x").unwrap().parse().unwrap();
        let y: usize = rect.attribute("y").unwrap().parse().unwrap();
        let letter = board[y / CELL][x / CELL];
        assert_eq!(rect.attribute("data-label").unwrap().as_bytes(), [letter]);
        // Count the cut from the printed board: right and lower neighbours of another part.
        let (cx, cy) = (x / CELL, y / CELL);
        let other = |c: Option<&u8>| c.is_some_and(|&c| c.is_ascii_alphabetic() && c != letter);
        cut_edges += other(board[cy].get(cx + 1)) as usize;
        cut_edges += other(board.get(cy + 1).and_then(|r| r.get(cx))) as usize;
    }
    let cut = with_class(&doc, "cut");
    assert_eq!(cut.len(), 1);
    assert_eq!(
        cut[0].attribute("d").unwrap().matches('M').count(),
        cut_edges
    );
    assert!(cut_edges > 0);
    let fills: std::collections::HashSet<&str> = regions
        .iter()
        .map(|r| r.attribute("fill").unwrap())
        .collect();
    assert_eq!(fills.len(), 2, "one colour per part");
    to_png(&text, &dir.path().join("halves.png"));
}

#[test]
fn all_solutions_go_on_one_contact_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("queens-8.toml");
    let run = puzzlec(
        dir.path(),
        &[
            "solve",
            model.to_str().unwrap(),
            "--all",
            "--svg",
            "all.svg",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(dir.path().join("all.svg")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let sheets = with_class(&doc, "solution");
    assert_eq!(sheets.len(), 92);
    let mut boards = std::collections::HashSet::new();
    for sheet in &sheets {
        let mut queens: Vec<(usize, usize)> = sheet
            .descendants()
            .filter(|n| n.attribute("class") == Some("queen"))
            .map(|q| {
                let x = q.attribute("data-x").unwrap().parse().unwrap();
                let y = q.attribute("data-y").unwrap().parse().unwrap();
                (x, y)
            })
            .collect();
        assert_eq!(queens.len(), 8);
        // Eight queens, no two on a row, column or diagonal.
        for (i, a) in queens.iter().enumerate() {
            for b in &queens[i + 1..] {
                let (dx, dy) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
                assert!(dx != 0 && dy != 0 && dx != dy, "{a:?} attacks {b:?}");
            }
        }
        queens.sort();
        boards.insert(queens);
    }
    assert_eq!(boards.len(), 92, "every picture is a different solution");
    let pixmap = to_png(&text, &dir.path().join("all.png"));
    // Eight pictures a row, 12 rows.
    assert_eq!(pixmap.width() as usize, 8 * (8 * CELL + MARGIN) + MARGIN);
    assert_eq!(pixmap.height() as usize, 12 * (8 * CELL + MARGIN) + MARGIN);
}

#[test]
fn packing_picture_outlines_twelve_pentominoes() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("pentomino-6x10.toml");
    let run = puzzlec(
        dir.path(),
        &[
            "solve",
            model.to_str().unwrap(),
            "--backend",
            "native",
            "--svg",
            "p.svg",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(dir.path().join("p.svg")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let regions = with_class(&doc, "cell region");
    assert_eq!(regions.len(), 60);
    let labels: std::collections::HashSet<&str> = regions
        .iter()
        .map(|r| r.attribute("data-label").unwrap())
        .collect();
    assert_eq!(labels.len(), 12);
    let fills: std::collections::HashSet<&str> = regions
        .iter()
        .map(|r| r.attribute("fill").unwrap())
        .collect();
    assert_eq!(fills.len(), 12, "one colour per piece");
    // Pieces are outlined, never cut; each picture label matches the printed letter.
    assert!(with_class(&doc, "cut").is_empty());
    assert_eq!(with_class(&doc, "outline").len(), 1);
    let board: Vec<&[u8]> = run.stdout.lines().skip(1).map(str::as_bytes).collect();
    for rect in &regions {
        let x: usize = rect.attribute("x").unwrap().parse().unwrap();
        let y: usize = rect.attribute("y").unwrap().parse().unwrap();
        let letter = board[y / CELL][x / CELL];
        assert_eq!(rect.attribute("data-label").unwrap().as_bytes(), [letter]);
    }
    to_png(&text, &dir.path().join("p.png"));
}
