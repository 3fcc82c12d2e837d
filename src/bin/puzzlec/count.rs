//! `puzzlec solve MODEL --all | --count | --unique [--shard I/N]`: every optimal solution
//! counted, listed in bands of eight boards, or drawn on a contact sheet.

use crate::output::{exit, print_json, print_stdout, write_file, Failure};
use puzzlec::base::Control;
use puzzlec::driver::enumerate::EnumerateOptions;
use puzzlec::driver::{self, Backend};
use puzzlec::puzzle::{Puzzle, Solution};
use puzzlec::report::json::count_report;
use puzzlec::report::render::{self, LabelledGrid};
use puzzlec::report::{svg, text};
use std::path::Path;

/// Boards printed side by side in one band of `--all` output, as in the seed.
const BOARDS_PER_BAND: usize = 8;

/// The most solutions one contact sheet draws: beyond it the file would be unwieldy.
const MAX_SHEET_PICTURES: usize = 1000;

/// Streams the boards in bands of eight, then prints the count (and the symmetry classes);
/// JSON with `json`.
pub fn run(
    path: &Path,
    puzzle: &Puzzle,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    json: bool,
    svg: Option<&Path>,
) -> Result<u8, Failure> {
    let mut band: Vec<Vec<String>> = Vec::new();
    let mut listed: Vec<serde_json::Value> = Vec::new();
    let mut pictures: Vec<(String, LabelledGrid)> = Vec::new();
    let mut drawn = 0usize;
    let mut on_solution = |solution: &Solution| {
        drawn += 1;
        if svg.is_some() && pictures.len() < MAX_SHEET_PICTURES {
            let picture = render::picture(puzzle, solution);
            pictures.push((format!("solution {drawn}"), picture));
        }
        let value = puzzle.solution_json(solution);
        if json {
            listed.push(value["grid"].clone());
            return;
        }
        let grid = value["grid"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| r.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        band.push(grid);
        if band.len() == BOARDS_PER_BAND {
            print_stdout(&text::side_by_side(&band));
            band.clear();
        }
    };
    let outcome = driver::enumerate(puzzle, backend, options, control, &mut on_solution)?;
    if !band.is_empty() {
        print_stdout(&text::side_by_side(&band));
    }
    if let Some(path) = svg {
        write_sheet(path, &pictures, drawn)?;
    }
    if json {
        let mut report = count_report(path, puzzle, options, &outcome);
        if options.list {
            report.solutions = Some(listed);
        }
        print_json(report);
    } else {
        let mut text = match outcome.unique_count {
            Some(unique) => format!("{unique}\n{}\n", text::classes_line(&outcome)),
            None => format!("{}\n", outcome.count),
        };
        if !outcome.complete {
            // Stopped by a limit or Ctrl-C: what was counted so far.
            text.push_str("incomplete (a lower bound)\n");
        }
        print_stdout(&text);
    }
    let noun = if outcome.count == 1 {
        "solution"
    } else {
        "solutions"
    };
    let what = match (outcome.value, options.at_least, options.at_most) {
        (Some(v), Some(_), _) => format!("{noun} with at least {v}"),
        (Some(v), None, Some(_)) => format!("{noun} with at most {v}"),
        (Some(v), None, None) => format!("optimal {noun} (value {v})"),
        (None, _, _) => noun.to_string(),
    };
    let part = match outcome.shard {
        Some(shard) => format!(" in shard {shard} (a partial count)"),
        None => String::new(),
    };
    let unique = match outcome.unique_count {
        Some(u) => format!(", {u} up to the board's {} symmetries", outcome.symmetries),
        None => String::new(),
    };
    eprintln!(
        "{}{} {what}{part}{unique} by {} in {:.3} s: {}",
        if outcome.complete { "" } else { "at least " },
        outcome.count,
        outcome.backend.name(),
        outcome.elapsed.as_secs_f64(),
        outcome.evidence
    );
    Ok(if outcome.complete {
        exit::OK
    } else {
        exit::NOT_PROVEN
    })
}

/// `solve --all --svg FILE`: every listed solution on one contact sheet, eight a row as
/// on the terminal; the first [`MAX_SHEET_PICTURES`] when there are more.
fn write_sheet(
    path: &Path,
    pictures: &[(String, LabelledGrid)],
    listed: usize,
) -> Result<(), Failure> {
    if pictures.is_empty() {
        eprintln!(
            "no solution listed (use --all to list them): {} not written",
            path.display()
        );
        return Ok(());
    }
    if listed > pictures.len() {
        eprintln!(
            "{} shows the first {} of {listed} solutions",
            path.display(),
            pictures.len()
        );
    }
    write_file(path, svg::contact_sheet(pictures, BOARDS_PER_BAND))
}
