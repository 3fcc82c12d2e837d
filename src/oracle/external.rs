//! Running external solver programs: a private temporary folder for their files, a child
//! process killed at the deadline, and failures (crash, signal, odd exit code) turned into
//! messages that quote the end of the program's stderr.
//! The programs themselves are driven by [`super::external_sat`] (DIMACS files) and
//! [`super::external_milp`] (LP files).

use super::process_tree::kill_tree;
use super::OracleError;
use crate::base::error::{NamesSettings, Setting};
use crate::base::Control;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Whether `program` is an executable file in one of PATH's folders.
pub fn on_path(program: &str) -> bool {
    find_on_path(program).is_some()
}

/// The full path of `program` on PATH, if it is there.
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Path::new(program).is_file().then(|| PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A folder of our own under the system's temporary folder, removed when dropped.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// A fresh, empty folder.
    pub fn new() -> Result<ScratchDir, OracleError> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "puzzlec-{}-{}-{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&path)
            .map_err(|e| OracleError::Io(format!("cannot create {}: {e}", path.display())))?;
        Ok(ScratchDir { path })
    }

    /// The path of `name` inside the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// How a child process ended.
#[derive(Debug)]
pub enum Finished {
    /// It exited by itself.
    Exited {
        /// Its exit status.
        status: ExitStatus,
        /// Everything it wrote on stdout.
        stdout: String,
        /// Everything it wrote on stderr.
        stderr: String,
        /// How long it ran.
        elapsed: Duration,
    },
    /// The deadline or Ctrl-C came first and the child was killed.
    Stopped {
        /// How long it ran.
        elapsed: Duration,
    },
}

/// Runs `argv` with stdout and stderr sent to files in `scratch` (pipes could fill up and
/// stall a chatty solver), polling `control` and killing the child when it says stop.
pub fn run(
    argv: &[String],
    scratch: &ScratchDir,
    control: &Control,
) -> Result<Finished, OracleError> {
    let (program, args) = argv
        .split_first()
        .ok_or(OracleError::Io("empty solver command".into()))?;
    let stdout_path = scratch.file("stdout.txt");
    let stderr_path = scratch.file("stderr.txt");
    let create = |path: &Path| {
        std::fs::File::create(path)
            .map_err(|e| OracleError::Io(format!("cannot create {}: {e}", path.display())))
    };
    let start = Instant::now();
    // A group of its own, so that the terminal's Ctrl-C reaches only us (we stop it); when
    // killed, the group dies with any descendant that left it.
    let mut child = Command::new(program)
        .process_group(0)
        .args(args)
        .stdin(Stdio::null())
        .stdout(create(&stdout_path)?)
        .stderr(create(&stderr_path)?)
        .spawn()
        .map_err(|e| OracleError::Io(format!("cannot run {program}: {e}")))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if control.should_stop() => {
                // Killing a child that has just exited fails harmlessly; wait reaps it.
                kill_tree(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Finished::Stopped {
                    elapsed: start.elapsed(),
                });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                kill_tree(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Err(OracleError::Io(format!("cannot wait for {program}: {e}")));
            }
        }
    };
    let read = |path: &Path| {
        std::fs::read(path)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default()
    };
    Ok(Finished::Exited {
        status,
        stdout: read(&stdout_path),
        stderr: read(&stderr_path),
        elapsed: start.elapsed(),
    })
}

/// The exit status in words: "exit code 3" or "killed by signal 11 (SIGSEGV)".
pub fn describe_status(status: &ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => {
            let name = match signal {
                6 => " (SIGABRT)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            format!("killed by signal {signal}{name}")
        }
        (None, None) => "an unknown exit status".into(),
    }
}

/// The last few lines of `text`, for error messages; "(empty)" when there are none.
pub fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return "(empty)".into();
    }
    let start = lines.len().saturating_sub(5);
    lines[start..].join(" | ")
}

/// How to get HiGHS, for the error when it is asked for but absent (both as `--solver
/// highs` and as the embedded MILP backend).
pub const HIGHS_HELP: &str =
    "HiGHS is not built in: rebuild with `cargo build --release --features highs` \
(needs cmake, libclang-dev and a C++ compiler; the first build takes about 6 minutes on 2 cores), \
link an installed HiGHS that pkg-config finds with `--features highs-system`, \
or put the `highs` program on PATH";

/// Why a `--solver` command line cannot be used; the message is the one error line users see.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverSpecError {
    /// A quote is not closed.
    #[error("unbalanced quote in solver command {0:?}")]
    UnbalancedQuote(String),
    /// Nothing but whitespace.
    #[error("empty solver command")]
    Empty,
    /// A MILP program puzzlec cannot read the solutions of.
    #[error(
        "unknown MILP solver {0:?}: puzzlec reads the solution files of cbc, glpsol and highs"
    )]
    UnknownMilp(String),
    /// `highs` asked for, but neither built in nor on PATH.
    #[error("{}", HIGHS_HELP)]
    NoHighs,
    /// The native backend takes no solver.
    #[error("{}", self.describe(&Setting::name))]
    NativeBackend,
    /// A MiniZinc solver asked for with `--backend sat`.
    #[error("{}", self.describe(&Setting::name))]
    CpNeedsMilp(String),
    /// A MiniZinc solver that `minizinc --solvers` does not list.
    #[error("MiniZinc has no solver {solver:?} (`minizinc --solvers` lists {listed})")]
    UnknownCpSolver {
        /// The solver asked for.
        solver: String,
        /// The listed solvers' short names.
        listed: String,
    },
    /// The program is not there.
    #[error("solver program {program:?} not found{}", if program.contains('/') { "" } else { " on PATH" })]
    NotFound {
        /// The program as given.
        program: String,
    },
}

impl NamesSettings for SolverSpecError {
    fn describe(&self, name: &dyn Fn(Setting) -> String) -> String {
        match self {
            SolverSpecError::NativeBackend => format!(
                "{} needs {} or {}",
                name(Setting::Solver),
                name(Setting::Backend("sat")),
                name(Setting::Backend("milp"))
            ),
            SolverSpecError::CpNeedsMilp(solver) => format!(
                "{} {solver}: a MiniZinc solver answers the 0-1 program of the milp backend; \
                 leave out {} or give {}",
                name(Setting::Solver),
                name(Setting::AnyBackend),
                name(Setting::Backend("milp"))
            ),
            other => other.to_string(),
        }
    }
}

/// Splits a command line on whitespace, keeping '...' and "..." quoted parts together; no
/// other shell syntax (the command is run directly, not through a shell).
pub fn split_command(command: &str) -> Result<Vec<String>, SolverSpecError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(SolverSpecError::UnbalancedQuote(command.to_string()));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(SolverSpecError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_simple_shell() {
        assert_eq!(
            split_command("minisat  -verb=0 {cnf} '{out}'").unwrap(),
            vec!["minisat", "-verb=0", "{cnf}", "{out}"]
        );
        assert_eq!(split_command("a \"b c\" ''").unwrap(), vec!["a", "b c", ""]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn a_hanging_child_is_killed_at_the_deadline() {
        let scratch = ScratchDir::new().unwrap();
        let control = Control::new(Default::default(), Some(Duration::from_millis(200)));
        let argv = vec!["sleep".to_string(), "30".to_string()];
        let start = Instant::now();
        match run(&argv, &scratch, &control).unwrap() {
            Finished::Stopped { .. } => {}
            other => panic!("expected a kill, got {other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
