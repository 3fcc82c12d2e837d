//! `puzzlec sweep MODEL --width A..=B --height C..=D | --size A..=B`: one model over a range
//! of sizes, a row per instance, as text, CSV or JSON; `merge` joins sharded sweeps.

use crate::args::Sweep;
use crate::output::{exit, flag, print_json, print_stdout, Failure};
use crate::session::Session;
use puzzlec::base::error::NamesSettings;
use puzzlec::driver::sweep::{
    csv, merge, parse_range, sweep, text_table, SweepAxes, SweepError, SweepOptions, SweepReport,
};
use puzzlec::driver::Backend;
use puzzlec::puzzle::load_model_file;

fn range(flag: &str, text: &str) -> Result<std::ops::RangeInclusive<usize>, Failure> {
    parse_range(text).map_err(|e| Failure::Usage(format!("--{flag}: {e}")))
}

/// Runs the sweep and prints it; exit 3 if any instance was stopped.
pub fn run(args: &Sweep, session: &Session) -> Result<u8, Failure> {
    let time_limit = args.time.duration()?;
    let axes = match (&args.width, &args.height, &args.size) {
        (Some(w), Some(h), None) => SweepAxes::Boxes {
            widths: range("width", w)?,
            heights: range("height", h)?,
        },
        (None, None, Some(n)) => SweepAxes::Sizes(range("size", n)?),
        _ => {
            return Err(Failure::Usage(
                "sweep needs --width and --height (packing) or --size (queens)".into(),
            ))
        }
    };
    let puzzle = load_model_file(&args.model.path)?;
    let options = SweepOptions {
        axes,
        time_limit,
        shard: args.split.shard,
        backend: args.backend.map(Backend::from),
    };
    let model = args.model.path.display().to_string();
    let report = sweep(&model, &puzzle, &options, session.stop_flag(), |row| {
        eprintln!(
            "{}: {} {} in {:.3} s",
            row.name(),
            row.status,
            row.value.map_or("-".into(), |v| v.to_string()),
            row.seconds
        )
    })
    .map_err(|e| match e {
        SweepError::NotSweepable(e) => Failure::Usage(e.describe(&flag)),
        SweepError::Solve(e) => Failure::from(e),
    })?;
    print(&report, args.report.json, args.csv)
}

/// Prints a sweep (or a merged one) in the format asked; the exit code says whether every
/// row was proved.
fn print(report: &SweepReport, json: bool, as_csv: bool) -> Result<u8, Failure> {
    if json {
        print_json(report);
    } else if as_csv {
        print_stdout(&csv(report));
    } else {
        print_stdout(&text_table(report));
    }
    let run = report.rows.len();
    if report.stopped > 0 {
        eprintln!(
            "{} of {run} instances stopped by the time limit (not proved)",
            report.stopped
        );
        Ok(exit::NOT_PROVEN)
    } else {
        Ok(exit::OK)
    }
}

/// `merge` of sweep shards: the whole table, in the format asked.
pub fn merged(inputs: &[(String, String)], json: bool) -> Result<u8, Failure> {
    let report = merge(inputs).map_err(|e| Failure::Usage(e.to_string()))?;
    eprintln!(
        "{} rows of {}: {} shards joined",
        report.rows.len(),
        report.model,
        inputs.len()
    );
    print(&report, json, false)
}
