//! The plain-text reports: the one-line summary of an answer, the comparison table, count
//! lines and boards side by side.

use crate::base::Status;
use crate::base::{plural, Goal};
use crate::driver::enumerate::CountOutcome;
use crate::driver::{CompareRow, Outcome, Verdict};

/// One line for stderr: the answer, how it was established, and the time.
pub fn summary(goal: Goal, outcome: &Outcome) -> String {
    let question = match goal {
        Goal::Maximise => String::new(),
        // The goal is on the score; a puzzle of the fewest asks in its own value.
        Goal::AtLeast(k) if outcome.sense.is_fewest() => {
            format!(" (at most {}?)", outcome.sense.value(k))
        }
        Goal::AtLeast(k) => format!(" (at least {k}?)"),
    };
    format!(
        "{}{question} by {} in {:.3} s: {}",
        outcome.answer(),
        outcome.label(),
        outcome.elapsed.as_secs_f64(),
        outcome.evidence
    )
}

/// The table of `compare`: one row per backend (a failure with its message), then what
/// the answers establish together.
pub fn comparison_table(rows: &[CompareRow], verdict: &Verdict) -> String {
    // A formula's size under variables and constraints, a search's nodes under their own
    // heading: each row says what it was given or did.
    let mut table = format!(
        "{:<18} {:<14} {:<8} {:>10} {:>10} {:>17} {:>12}\n",
        "backend", "result", "proven", "time", "variables", "constraints", "nodes"
    );
    let mut errors = String::new();
    for row in rows {
        let o = match row {
            CompareRow::Answered(o) => o.as_ref(),
            CompareRow::Failed {
                label,
                error,
                elapsed,
            } => {
                table.push_str(&format!(
                    "{:<18} {:<14} {:<8} {:>9.3}s {:>10} {:>17} {:>12}\n",
                    label,
                    "error",
                    "no",
                    elapsed.as_secs_f64(),
                    "-",
                    "-",
                    "-"
                ));
                errors.push_str(&format!("{label}: {error}\n"));
                continue;
            }
            CompareRow::NotRun { label } => {
                table.push_str(&format!(
                    "{:<18} {:<14} {:<8} {:>10} {:>10} {:>17} {:>12}\n",
                    label, "not run", "no", "-", "-", "-", "-"
                ));
                continue;
            }
        };
        let result = match o.value {
            Some(v) if o.status != Status::Unsatisfiable => format!("{} {v}", o.status.name()),
            _ => o.status.name().to_string(),
        };
        let none = || "-".to_string();
        let (variables, size, nodes) = match o.size.unit {
            "" => (none(), none(), none()),
            "nodes" => (none(), none(), o.size.constraints.to_string()),
            unit => (
                o.size.variables.to_string(),
                format!("{} {unit}", o.size.constraints),
                none(),
            ),
        };
        table.push_str(&format!(
            "{:<18} {:<14} {:<8} {:>9.3}s {:>10} {:>17} {:>12}\n",
            o.label(),
            result,
            if o.status.is_proven() { "yes" } else { "no" },
            o.elapsed.as_secs_f64(),
            variables,
            size,
            nodes
        ));
    }
    table.push_str(&errors);
    table.push_str(&verdict_line(verdict));
    table.push('\n');
    table
}

/// The last line of `compare`: agreement is claimed only about proven answers.
pub fn verdict_line(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Disagree(message) => format!("BACKENDS DISAGREE: {message}"),
        Verdict::AllAgree => "all backends agree".to_string(),
        Verdict::ProvenAgree { proven: 0, others } => {
            format!("no answer proven; unproven: {}", others.join(", "))
        }
        Verdict::ProvenAgree { proven: 1, others } => {
            format!("one answer proven; unproven: {}", others.join(", "))
        }
        Verdict::ProvenAgree { others, .. } => {
            format!("proven answers agree; unproven: {}", others.join(", "))
        }
    }
}

/// "classes: 11 of size 8, 1 of size 4; 92 solutions".
pub fn classes_line(outcome: &CountOutcome) -> String {
    let sizes: Vec<String> = outcome
        .classes
        .iter()
        .rev()
        .map(|(size, n)| format!("{n} of size {size}"))
        .collect();
    if sizes.is_empty() {
        // Families that count orbits without sizing each one (tilings).
        return format!("{} in all", plural(outcome.count, "solution"));
    }
    format!(
        "classes: {}; {}",
        sizes.join(", "),
        plural(outcome.count, "solution")
    )
}

/// Boards side by side, each row led by a space, then a blank line (the seed's layout).
pub fn side_by_side(boards: &[Vec<String>]) -> String {
    let height = boards.iter().map(Vec::len).max().unwrap_or(0);
    let mut text = String::new();
    for y in 0..height {
        for board in boards {
            text.push(' ');
            text.push_str(board.get(y).map_or("", String::as_str));
        }
        text.push('\n');
    }
    text.push('\n');
    text
}
