//! `puzzlec check DIR`: re-verifies a certificate written by `prove`.

use crate::args::Check;
use crate::output::{exit, print_json, print_stdout, Failure};
use puzzlec::cert::certificate::{self, CheckError, CheckOptions};
use puzzlec::report::json::CheckReport;

/// Checks the certificate in `args.dir`: exit 0 if everything holds, 1 saying what failed,
/// 3 for a streamed run under way whose records hold but do not prove the claim yet;
/// with `--write-cnf`, the verified CNFs are written there too; with `--replay`, shards of a
/// streamed certificate are regenerated and checked again.
pub fn run(args: &Check) -> Result<u8, Failure> {
    let (dir, json, write_cnf) = (
        args.dir.as_path(),
        args.report.json,
        args.write_cnf.as_deref(),
    );
    let scratch = args
        .scratch
        .as_deref()
        .map(crate::prove::usable_scratch)
        .transpose()?;
    let options = CheckOptions {
        shard: args.split.shard,
        write_cnf,
        replay: args.replay.unwrap_or_default(),
        replay_scratch: scratch.as_deref(),
    };
    let start = std::time::Instant::now();
    match certificate::check_using(dir, &options) {
        Ok(checked) if json => {
            print_json(CheckReport {
                directory: dir.display().to_string(),
                valid: true,
                steps: &checked.steps,
                conclusion: Some(&checked.conclusion),
                error: None,
                seconds: start.elapsed().as_secs_f64(),
            });
            Ok(exit::OK)
        }
        Ok(checked) => {
            print_steps(&checked);
            if let Some(out) = write_cnf {
                eprintln!("the verified CNFs are in {}", out.display());
            }
            eprintln!("checked in {:.3} s", start.elapsed().as_secs_f64());
            Ok(exit::OK)
        }
        Err(CheckError::UnderWay(checked)) => {
            // Every record holds, but the claim is not proved yet: exit 3, as a run a
            // limit stopped, never 0.
            if json {
                print_json(CheckReport {
                    directory: dir.display().to_string(),
                    valid: false,
                    steps: &checked.steps,
                    conclusion: Some(&checked.conclusion),
                    error: None,
                    seconds: start.elapsed().as_secs_f64(),
                });
            } else {
                print_steps(&checked);
                eprintln!("checked in {:.3} s", start.elapsed().as_secs_f64());
            }
            Ok(exit::NOT_PROVEN)
        }
        Err(CheckError::NotACertificate(message)) => Err(Failure::Usage(message)),
        Err(CheckError::Failed(message)) => {
            // Scripts reading --json get a document saying why; stderr and exit 1 as always.
            if json {
                print_json(CheckReport {
                    directory: dir.display().to_string(),
                    valid: false,
                    steps: &[],
                    conclusion: None,
                    error: Some(&message),
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
            Err(Failure::Internal(format!(
                "certificate check failed: {message}"
            )))
        }
    }
}

/// The steps that passed, one `ok:` line each, then the conclusion, on stdout.
fn print_steps(checked: &certificate::Checked) {
    let mut text = String::new();
    for step in &checked.steps {
        text.push_str(&format!("ok: {step}\n"));
    }
    text.push_str(&format!("{}\n", checked.conclusion));
    print_stdout(&text);
}
