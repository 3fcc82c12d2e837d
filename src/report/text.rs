//! The plain-text reports: the one-line summary of an answer, the comparison table, count
//! lines and boards side by side.

use crate::base::Goal;
use crate::base::Status;
use crate::driver::enumerate::CountOutcome;
use crate::driver::Outcome;

/// One line for stderr: the answer, how it was established, and the time.
pub fn summary(goal: Goal, outcome: &Outcome) -> String {
    let question = match goal {
        Goal::Maximise => String::new(),
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

/// The table of `compare`: one row per backend, then whether they agree.
pub fn comparison_table(outcomes: &[Outcome], agree: bool) -> String {
    let mut table = format!(
        "{:<18} {:<14} {:<8} {:>10} {:>10} {:>12}\n",
        "backend", "result", "proven", "time", "variables", "constraints"
    );
    for o in outcomes {
        let result = match o.value {
            Some(v) if o.status != Status::Unsatisfiable => format!("{} {v}", o.status.name()),
            _ => o.status.name().to_string(),
        };
        let size = if o.size.unit.is_empty() {
            "-".to_string()
        } else {
            format!("{} {}", o.size.constraints, o.size.unit)
        };
        table.push_str(&format!(
            "{:<18} {:<14} {:<8} {:>9.3}s {:>10} {:>12}\n",
            o.label(),
            result,
            if o.status.is_proven() { "yes" } else { "no" },
            o.elapsed.as_secs_f64(),
            o.size.variables,
            size
        ));
    }
    table.push_str(if agree {
        "all backends agree\n"
    } else {
        "BACKENDS DISAGREE\n"
    });
    table
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
        return format!("{} solutions in all", outcome.count);
    }
    format!("classes: {}; {} solutions", sizes.join(", "), outcome.count)
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
