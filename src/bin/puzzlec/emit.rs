//! `puzzlec emit MODEL --format F`: the model as a file for an external solver, streamed
//! to its destination, refused when its memory estimate is over `--max-memory`, and bounded
//! by `--time-limit` and Ctrl-C.

use crate::args::Emit;
use crate::output::{check_writable, exit, goal, guard_memory, Failure};
use crate::session::Session;
use puzzlec::base::Goal;
use puzzlec::driver::emit::{emit_to, EmitError, EmitOptions, Format};
use puzzlec::driver::guard::Work;
use puzzlec::puzzle::load_model_file;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes the model in the asked format to `-o FILE` (through a temporary file renamed
/// once complete) or to stdout.
pub fn run(args: &Emit, session: &Session) -> Result<u8, Failure> {
    let model = &args.model.path;
    let puzzle = load_model_file(model)?;
    // The file's decision is on the model's objective.
    let at_least = match goal(&puzzle, args.at_least, args.at_most)? {
        Goal::AtLeast(k) => Some(k),
        Goal::Maximise => None,
    };
    // The two tunings are an LP file's; elsewhere they would be silently ignored.
    for (given, flag) in [
        (args.no_cliques, "--no-cliques"),
        (args.symmetry_rows, "--symmetry-rows"),
    ] {
        if given && args.format.0 != Format::Lp {
            return Err(Failure::Usage(format!(
                "{flag} applies to --format lp only, not --format {}",
                args.format.0.name()
            )));
        }
    }
    let options = EmitOptions {
        format: args.format.0,
        at_least,
        complete: !args.incomplete,
        cliques: !args.no_cliques,
        symmetry_rows: args.symmetry_rows,
    };
    let work = Work::Emit {
        format: options.format,
        at_least: options.at_least,
        complete: options.complete,
    };
    let flag = format!("emit --format {}", args.format.0.name());
    guard_memory(model, &puzzle, work, &flag, args.memory.bytes())?;
    let control = session.control(args.time.duration()?);
    let origin = model.display().to_string();
    match args.output.as_deref() {
        Some(path) => {
            check_writable(path)?;
            let temporary = temporary_path(path);
            let cannot = |e: &dyn std::fmt::Display| {
                Failure::Usage(format!("cannot write {}: {e}", path.display()))
            };
            let file = std::fs::File::create(&temporary).map_err(|e| cannot(&e))?;
            let mut out = BufWriter::with_capacity(1 << 20, file);
            let result = emit_to(&puzzle, &origin, &options, &mut out, &control)
                .and_then(|()| out.flush().map_err(EmitError::from));
            drop(out);
            match result {
                Ok(()) => std::fs::rename(&temporary, path).map_err(|e| {
                    let _ = std::fs::remove_file(&temporary);
                    cannot(&e)
                })?,
                Err(EmitError::Stopped) => {
                    let _ = std::fs::remove_file(&temporary);
                    eprintln!(
                        "stopped: {}; {} not written",
                        control.reason(),
                        path.display()
                    );
                    return Ok(exit::NOT_PROVEN);
                }
                Err(EmitError::Io(e)) => {
                    let _ = std::fs::remove_file(&temporary);
                    return Err(cannot(&e));
                }
                // A bug, not bad input: exit 1.
                Err(e @ EmitError::CompilePanicked) => {
                    let _ = std::fs::remove_file(&temporary);
                    return Err(Failure::Internal(e.to_string()));
                }
            }
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
            let result = emit_to(&puzzle, &origin, &options, &mut out, &control)
                .and_then(|()| out.flush().map_err(EmitError::from));
            match result {
                Ok(()) => {}
                Err(EmitError::Stopped) => {
                    let _ = out.flush();
                    eprintln!(
                        "stopped: {}; the output on stdout is incomplete",
                        control.reason()
                    );
                    return Ok(exit::NOT_PROVEN);
                }
                // `puzzlec emit ... | head` is not an error.
                Err(EmitError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(EmitError::Io(e)) => {
                    return Err(Failure::Usage(format!("cannot write to stdout: {e}")))
                }
                Err(e @ EmitError::CompilePanicked) => {
                    return Err(Failure::Internal(e.to_string()))
                }
            }
        }
    }
    Ok(exit::OK)
}

/// A name beside `path` for the file being written: `.NAME.puzzlec-PID.tmp`.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.puzzlec-{}.tmp", std::process::id()))
}
