//! `puzzlec sweep MODEL --width A..=B --height C..=D | --size A..=B`: one model over a range
//! of sizes, a row per instance, as text, CSV or JSON; `merge` joins sharded sweeps. With
//! `--shard I/N --state DIR`, shard I's part of every box's rounds, which `merge --state DIR`
//! merges (printing the table once every box is settled).

use crate::args::Sweep;
use crate::output::{exit, flag, print_json, print_stdout, Failure};
use crate::session::Session;
use puzzlec::base::error::NamesSettings;
use puzzlec::driver::box_shard::{BoxShardError, MODEL_FILE};
use puzzlec::driver::sweep::{
    merge, parse_range, sweep, SweepAxes, SweepError, SweepOptions, SweepReport,
};
use puzzlec::driver::sweep_state::{self, BoxPart, ShardedSweep, SweepMerge, SweepStateError};
use puzzlec::driver::Backend;
use puzzlec::puzzle::{load_model_file, Puzzle};
use puzzlec::report::evidence::words;
use std::path::Path;

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
    if let (Some(dir), Some(shard)) = (&args.state, args.split.shard) {
        let sweep = ShardedSweep {
            axes,
            time_limit,
            dir,
            shard,
            split_nodes: args.budget.split_nodes,
        };
        return state_shard(args, &puzzle, &sweep, session);
    }
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

/// `sweep ... --shard I/N --state DIR`: this shard's part of every box's current round; exit
/// 3 if a time limit or Ctrl-C stopped a part (run the shard again), 0 otherwise.
fn state_shard(
    args: &Sweep,
    puzzle: &Puzzle,
    sweep: &ShardedSweep<'_>,
    session: &Session,
) -> Result<u8, Failure> {
    crate::box_state::make_folder(sweep.dir)?;
    let bytes = crate::box_state::read_model(&args.model.path)?;
    let model = args.model.path.display().to_string();
    let (index, count) = (sweep.shard.index, sweep.shard.count);
    let steps =
        sweep_state::run_shard(&model, puzzle, &bytes, sweep, session.stop_flag(), |step| {
            let what = match &step.part {
                BoxPart::Ran(run) => crate::box_state::part_summary(run),
                BoxPart::Written => "this shard's part of the round is already written".into(),
                BoxPart::Settled => "settled".into(),
                BoxPart::Stopped => BoxShardError::Stopped.to_string(),
            };
            let (w, h) = (step.instance.width, step.instance.height);
            eprintln!("shard {index}/{count}, box {w} x {h}: {what}");
        })
        .map_err(state_failure)?;
    let dir = sweep.dir.display();
    let stopped = steps.iter().filter(|s| s.part == BoxPart::Stopped).count();
    if stopped > 0 {
        eprintln!(
            "shard {index}/{count}: {stopped} of {} boxes stopped before their part was done; run the shard again",
            steps.len()
        );
        Ok(exit::NOT_PROVEN)
    } else if steps.iter().all(|s| s.part == BoxPart::Settled) {
        eprintln!("every box is settled; puzzlec merge --state {dir} prints the table");
        Ok(exit::OK)
    } else {
        eprintln!("shard {index}/{count}: once every shard is done: puzzlec merge --state {dir}");
        Ok(exit::OK)
    }
}

/// `merge --state DIR` of a sweep's folder: merges every box's round; once every box is
/// settled, prints the table in the format asked. Exit 3 while rounds remain.
pub fn merge_state(dir: &Path, json: bool, as_csv: bool) -> Result<u8, Failure> {
    let puzzle = load_model_file(&dir.join(MODEL_FILE))?;
    match sweep_state::merge(&puzzle, dir, words).map_err(state_failure)? {
        SweepMerge::Rounds {
            merged,
            boxes,
            settled,
        } => {
            for (instance, run) in &merged {
                let (w, h) = (instance.width, instance.height);
                eprintln!("box {w} x {h}: {}", crate::box_state::merged_summary(run));
            }
            eprintln!("{settled} of {boxes} boxes settled; run the shards again");
            Ok(exit::NOT_PROVEN)
        }
        SweepMerge::Settled(report) => {
            eprintln!(
                "{} rows of {}: every box settled",
                report.rows.len(),
                report.model
            );
            print(&report, json, as_csv)
        }
    }
}

fn state_failure(error: SweepStateError) -> Failure {
    match error {
        SweepStateError::NotSweepable(e) => Failure::Usage(e.describe(&flag)),
        SweepStateError::Shards(e) => crate::box_state::failure(e),
        SweepStateError::Solve(e) => Failure::from(e),
    }
}

/// Prints a sweep (or a merged one) in the format asked; the exit code says whether every
/// row was proved.
fn print(report: &SweepReport, json: bool, as_csv: bool) -> Result<u8, Failure> {
    if json {
        print_json(puzzlec::report::sweep::json(report));
    } else if as_csv {
        print_stdout(&puzzlec::report::sweep::csv(report));
    } else {
        print_stdout(&puzzlec::report::sweep::text_table(report));
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
pub fn merged(inputs: &[(String, String)], json: bool, as_csv: bool) -> Result<u8, Failure> {
    let report = merge(inputs).map_err(|e| Failure::Usage(e.to_string()))?;
    eprintln!(
        "{} rows of {}: {} shards joined",
        report.rows.len(),
        report.model,
        inputs.len()
    );
    print(&report, json, as_csv)
}
