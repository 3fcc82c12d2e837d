//! Resource guards: before a model is compiled, encoded or written, estimate its size from
//! the puzzle ([`Puzzle::shape`], counted by [`crate::encode::estimate`]) and refuse work
//! whose memory estimate is above a limit, so that a 64 x 64 dissection on a laptop is one
//! clear message instead of a crash. The default limit leaves a 2-core 8 GB laptop room
//! for everything else it runs.

use super::emit::Format;
use crate::encode::amo::AmoEncoding;
use crate::encode::estimate::{self, CnfCounts, FileFormat};
use crate::puzzle::Puzzle;

pub use crate::base::DEFAULT_MAX_MEMORY;

/// What is about to be done with a puzzle's model.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// Solving with the SAT backend (or an external SAT solver, or a certificate).
    Sat,
    /// Solving with the MILP backend (or an external MILP solver).
    Milp,
    /// Writing a file for external solvers; `complete` when lazy constraints are written
    /// out.
    Emit {
        /// The file format.
        format: Format,
        /// `--at-least K`.
        at_least: Option<usize>,
        /// Whether lazy constraints are written out in full.
        complete: bool,
    },
    /// Building the model, its CNF and its LP to report their sizes (`explain`).
    Explain,
}

/// The estimated size of some work: what the refusal message reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Variables (of the CNF for SAT work, else of the model).
    pub variables: u64,
    /// Clauses (CNF) or rows (linear formats).
    pub constraints: u64,
    /// What `constraints` counts: "clauses" or "rows".
    pub unit: &'static str,
    /// Peak memory, in bytes.
    pub memory: u64,
    /// The size of the file written, for [`Work::Emit`].
    pub file: Option<u64>,
}

/// Estimates `work` on `puzzle` without building its model.
pub fn estimate(puzzle: &Puzzle, work: Work) -> Estimate {
    let written_out = matches!(work, Work::Emit { complete: true, .. });
    let shape = puzzle.shape(written_out);
    let model = estimate::model_bytes(&shape);
    let cnf_of = |at_least| estimate::cnf_counts(&shape, AmoEncoding::Auto, at_least);
    let rows = || Estimate {
        variables: shape.variables,
        constraints: shape.constraint_count() + 1,
        unit: "rows",
        memory: 0,
        file: None,
    };
    let clauses = |cnf: CnfCounts| Estimate {
        variables: cnf.variables,
        constraints: cnf.clauses,
        unit: "clauses",
        memory: 0,
        file: None,
    };
    match work {
        Work::Sat => {
            let cnf = cnf_of(None);
            Estimate {
                memory: model + estimate::cnf_bytes(cnf) + estimate::sat_solver_bytes(cnf),
                ..clauses(cnf)
            }
        }
        Work::Milp => Estimate {
            memory: model + estimate::milp_bytes(&shape),
            ..rows()
        },
        Work::Explain => {
            let cnf = cnf_of(None);
            Estimate {
                memory: model + estimate::cnf_bytes(cnf) + estimate::milp_bytes(&shape) / 4,
                ..clauses(cnf)
            }
        }
        Work::Emit {
            format, at_least, ..
        } => {
            // Streamed: the model is in memory, the file is not (LP adds a copy of the
            // column names; the buffers are small).
            let (file_format, counts) = match format {
                Format::Dimacs => (FileFormat::Dimacs, None),
                Format::Wcnf => (FileFormat::Wcnf, None),
                Format::Opb => (FileFormat::Opb, Some("rows")),
                // MiniZinc and FlatZinc are written as the LP file's rows.
                Format::Lp | Format::Mzn | Format::Fzn => (FileFormat::Lp, Some("rows")),
            };
            let cnf = match counts {
                None => cnf_of(at_least),
                Some(_) => CnfCounts::default(),
            };
            let names = match format {
                Format::Lp | Format::Mzn | Format::Fzn => shape.variables * 56 + shape.name_bytes,
                _ => 0,
            };
            // An LP file's clique rows are grown in memory first.
            let cliques = match format {
                Format::Lp => estimate::clique_bytes(&shape),
                _ => 0,
            };
            let base = match counts {
                None => clauses(cnf),
                Some(_) => rows(),
            };
            Estimate {
                memory: model + names + cliques + (1 << 20),
                file: Some(estimate::file_bytes(&shape, cnf, file_format)),
                ..base
            }
        }
    }
}

/// Sizes in the flag's syntax: `512M`, `4G`, `1.5G`.
pub fn show_bytes(bytes: u64) -> String {
    const UNITS: [(&str, u64); 4] = [
        ("T", 1 << 40),
        ("G", 1 << 30),
        ("M", 1 << 20),
        ("K", 1 << 10),
    ];
    for (unit, size) in UNITS {
        if bytes >= size {
            let value = bytes as f64 / size as f64;
            return if value >= 100.0 {
                format!("{value:.0}{unit}")
            } else {
                format!("{value:.1}{unit}")
            };
        }
    }
    format!("{bytes}")
}

/// A count in a few digits: `16.8M`, `2.1G`, `950`.
fn show_count(n: u64) -> String {
    match n {
        n if n >= 1_000_000_000 => format!("{:.1}G", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n if n >= 10_000 => format!("{:.0}k", n as f64 / 1e3),
        n => n.to_string(),
    }
}

/// The limit that lets `memory` through, rounded up to a round figure for the message.
fn suggested_limit(memory: u64) -> String {
    let gib = memory.div_ceil(1 << 30);
    if gib <= 1 {
        format!("{}M", memory.div_ceil(1 << 20).next_multiple_of(64))
    } else {
        format!("{gib}G")
    }
}

/// Work refused by [`check`]: its memory estimate is above the limit (a usage error: the
/// command line exits 2 and names `--max-memory`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} would need about {} of memory ({} variables, {} {}{}), more than the limit of {}; \
     raise it with --max-memory {} (estimated before building the model)",
    show_bytes(.estimate.memory),
    show_count(.estimate.variables),
    show_count(.estimate.constraints),
    .estimate.unit,
    .estimate.file.map_or(String::new(), |bytes| format!(", a {} file", show_bytes(bytes))),
    show_bytes(*.limit),
    suggested_limit(.estimate.memory)
)]
pub struct OverMemoryLimit {
    /// The work refused, as the caller named it ("emit --format dimacs").
    pub what: String,
    /// Its estimated size.
    pub estimate: Estimate,
    /// The limit, in bytes.
    pub limit: u64,
}

/// Refuses `work` on `puzzle` when its memory estimate is above `limit` bytes: the one-line
/// message gives the estimate and the flag that raises the limit. `what` names the work
/// for the message ("emit --format dimacs", "solve --backend sat").
pub fn check(
    puzzle: &Puzzle,
    work: Work,
    what: &str,
    limit: u64,
) -> Result<Estimate, OverMemoryLimit> {
    let estimate = estimate(puzzle, work);
    if estimate.memory <= limit {
        return Ok(estimate);
    }
    Err(OverMemoryLimit {
        what: what.to_string(),
        estimate,
        limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::dissection::DissectionPuzzle;
    use crate::puzzle::queens::Queens;

    #[test]
    fn sizes_read_like_the_flag() {
        assert_eq!(show_bytes(4 << 30), "4.0G");
        assert_eq!(show_bytes(1536 << 20), "1.5G");
        assert_eq!(show_bytes(200 << 30), "200G");
        assert_eq!(show_bytes(512), "512");
        assert_eq!(suggested_limit(5 << 30), "5G");
        assert_eq!(suggested_limit((5 << 30) + 1), "6G");
        assert_eq!(suggested_limit(100 << 20), "128M");
    }

    #[test]
    fn small_models_pass_and_a_large_dissection_is_refused_in_one_line() {
        let queens = Puzzle::Queens(Queens::empty(16));
        assert!(check(&queens, Work::Sat, "solve", DEFAULT_MAX_MEMORY).is_ok());
        let rows = vec!["#".repeat(64); 64].join("\n");
        let big = Puzzle::Dissection(DissectionPuzzle::from_picture(&rows, 2, true));
        let work = Work::Emit {
            format: Format::Dimacs,
            at_least: None,
            complete: true,
        };
        let message = check(&big, work, "emit", DEFAULT_MAX_MEMORY)
            .unwrap_err()
            .to_string();
        assert!(!message.contains('\n'));
        assert!(message.starts_with("emit would need about "), "{message}");
        assert!(message.contains("more than the limit of 4.0G; raise it with --max-memory "));
    }
}
