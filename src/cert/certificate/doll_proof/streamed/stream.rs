//! One shard's proof streamed into its checkers as it is written, never stored: through a
//! pipe into puzzlec's PB checker on a thread beside the writer, and into a file with no
//! name that `veripb` reads once the proof is complete (`veripb` 3.0.2 maps its proof file,
//! so it cannot read a pipe; it starts once puzzlec's checker is done, so that the two do
//! not hold their memory at once). That file is in memory, or with a scratch folder on its
//! disk, where its pages are cache the system reclaims: a shard's proof then costs disk
//! space, one shard at a time and gone when its check ends, rather than memory. The proof
//! is hashed (SHA-256) and its bytes and lines counted on the way; what each checker said,
//! and what writing and checking took, go to the shard's record.

use std::io::{BufReader, BufWriter, Read, Write};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Instant;

use super::piece::Written;
use crate::base::digest::DigestWriter;
use crate::base::pipe::{pipe, PipeWriter};
use crate::base::unnamed_file::UnnamedFile;
use crate::base::usage::{process_usage, thread_cpu_seconds, wait_with_usage};
use crate::base::Control;
use crate::checkers::pb::{check_pb_proof, PbConclusion};
use crate::engines::russian_doll::DollProofError;
use crate::formats::lines::WriteError;
use crate::formats::shard_record::{CheckerRecord, ProofDigest, Verdict, Work};

/// puzzlec's PB checker, as records name it.
pub(in crate::cert::certificate) const OURS: &str = "puzzlec-pb";
/// `veripb`, as records name it.
pub(in crate::cert::certificate) const VERIPB: &str = "veripb";

/// Chunks of 1 MiB in flight between the writer and puzzlec's checker: enough to smooth
/// their speeds, little memory.
const PIPE_CHUNKS: usize = 8;

/// A proof streamed into its checkers.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::cert::certificate) struct Streamed {
    /// The proof's SHA-256, bytes and lines.
    pub(in crate::cert::certificate) proof: ProofDigest,
    /// What its search did.
    pub(in crate::cert::certificate) written: Written,
    /// What writing took.
    pub(in crate::cert::certificate) writer: Work,
    /// Each checker's verdict, puzzlec's first.
    pub(in crate::cert::certificate) checkers: Vec<CheckerRecord>,
}

impl Streamed {
    /// The first checker that refused the proof, and why.
    pub(in crate::cert::certificate) fn refusal(&self) -> Option<&CheckerRecord> {
        self.checkers.iter().find(|c| c.verdict == Verdict::Refused)
    }
}

/// Why a proof was not streamed to the end (a checker's refusal is a [`Streamed`] verdict,
/// not this).
#[derive(Debug)]
pub(in crate::cert::certificate) enum StreamError {
    /// The run was asked to stop.
    Stopped,
    /// The search could not write the proof (the instance, or a table it does not find).
    Search(DollProofError),
    /// Memory for the proof, or a pipe, failed.
    Io(std::io::Error),
    /// The proof passed the bytes it was allowed and was given up, its checkers stopped.
    TooLarge(u64),
}

/// What writes a shard's proof: given the writer and the stop test, the search's figures.
pub(in crate::cert::certificate) type WriteProof<'a> =
    dyn Fn(&mut dyn Write, &dyn Fn() -> bool) -> Result<Written, DollProofError> + 'a;

/// `BOUNDS lower INF`, as VeriPB words a conclusion.
pub(in crate::cert::certificate) fn conclusion_words(lower: i64) -> String {
    format!("BOUNDS {lower} INF")
}

/// Writes a proof through `write` (given the writer and the stop test) and streams it into
/// both checkers against the OPB file `opb` (its text), expecting `BOUNDS lower INF`;
/// `name` names the unnamed files for people (`/proc/PID/fd`). `veripb` runs when it is on
/// PATH, reading the proof from memory, or from the disk of the folder `scratch`. A proof
/// that passes `cap` bytes is given up ([`StreamError::TooLarge`]), so that no check
/// outgrows the memory the cap stands for.
pub(in crate::cert::certificate) fn stream(
    name: &str,
    opb: &[u8],
    lower: i64,
    write: &WriteProof<'_>,
    cap: Option<u64>,
    scratch: Option<&std::path::Path>,
    control: &Control,
) -> Result<Streamed, StreamError> {
    let streamed = std::cell::Cell::new(0u64);
    let cap = cap.unwrap_or(u64::MAX);
    let version = veripb_version();
    let proof_name = format!("{name}.pbp");
    let mut copy = version
        .map(|_| match scratch {
            None => UnnamedFile::in_memory(&proof_name),
            Some(dir) => UnnamedFile::in_folder(dir, &proof_name),
        })
        .transpose()
        .map_err(StreamError::Io)?;
    let (to_ours, from_writer) = pipe(PIPE_CHUNKS);
    let expected = PbConclusion::Bounds {
        lower: Some(lower),
        upper: None,
    };
    let (written, proof, writer, ours) = std::thread::scope(|scope| {
        let ours = scope.spawn(|| {
            let started = Instant::now();
            let cpu = thread_cpu_seconds();
            let proof = BufReader::with_capacity(1 << 16, from_writer);
            let outcome = check_pb_proof(opb, proof);
            let work = Work {
                seconds: started.elapsed().as_secs_f64(),
                cpu_seconds: elapsed_cpu(cpu),
                peak_memory_bytes: process_usage().peak_memory_bytes,
                peak_held_bytes: None,
            };
            (outcome, work)
        });
        let started = Instant::now();
        let cpu = thread_cpu_seconds();
        let tee = Tee {
            pipe: Some(to_ours),
            copy: copy
                .as_mut()
                .map(|file| BufWriter::with_capacity(1 << 20, file)),
            streamed: &streamed,
            cap,
        };
        // Small buffers, so that the cap is held to within 64 kB.
        let mut out = BufWriter::with_capacity(1 << 16, DigestWriter::new(tee));
        let stop = || control.should_stop();
        let written = write(&mut out, &stop);
        // Whatever happened, the pipe closes here, so that puzzlec's checker ends.
        let finished = out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|digest| {
                let (sha256, bytes, lines, tee) = digest.finish();
                tee.close().map(|()| ProofDigest {
                    sha256,
                    bytes,
                    lines,
                })
            });
        let writer = Work {
            seconds: started.elapsed().as_secs_f64(),
            cpu_seconds: elapsed_cpu(cpu),
            peak_memory_bytes: process_usage().peak_memory_bytes,
            peak_held_bytes: None,
        };
        let ours = ours.join();
        (written, finished, writer, ours)
    });
    let (outcome, ours_work) = ours.map_err(|_| {
        StreamError::Io(std::io::Error::other(
            "the thread of puzzlec's PB checker panicked",
        ))
    })?;
    let ours_refusal = match &outcome {
        Ok(checked) if checked.conclusion == expected => None,
        Ok(checked) => Some(format!(
            "the proof concludes {:?}, not {}",
            checked.conclusion,
            conclusion_words(lower)
        )),
        Err(e) => Some(e.to_string()),
    };
    let written = match written {
        Ok(written) => written,
        Err(DollProofError::Write(WriteError::Stopped)) => return Err(StreamError::Stopped),
        Err(DollProofError::Write(WriteError::Io(e)))
            if e.kind() == std::io::ErrorKind::FileTooLarge =>
        {
            return Err(StreamError::TooLarge(streamed.get()))
        }
        // The checker stopped reading: it refused, and says why below.
        Err(DollProofError::Write(WriteError::Io(e)))
            if e.kind() == std::io::ErrorKind::BrokenPipe && ours_refusal.is_some() =>
        {
            Written::default()
        }
        Err(DollProofError::Write(WriteError::Io(e))) => return Err(StreamError::Io(e)),
        Err(e) => return Err(StreamError::Search(e)),
    };
    let proof = match proof {
        Ok(proof) => proof,
        Err(_) if ours_refusal.is_some() => ProofDigest {
            sha256: String::new(),
            bytes: 0,
            lines: 0,
        },
        Err(e) => return Err(StreamError::Io(e)),
    };
    let accepted = ours_refusal.is_none();
    let mut checkers = vec![CheckerRecord {
        name: OURS.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        verdict: if accepted {
            Verdict::Accepted
        } else {
            Verdict::Refused
        },
        conclusion: accepted.then(|| conclusion_words(lower)),
        message: ours_refusal,
        work: ours_work,
    }];
    checkers.push(match (version, copy) {
        (None, _) | (_, None) => not_run("not on PATH (cargo install veripb --locked)"),
        (Some(_), Some(_)) if !accepted => not_run("puzzlec's PB checker refused the proof first"),
        (Some(version), Some(copy)) => run_veripb(version, name, opb, &copy, lower, control)?,
    });
    Ok(Streamed {
        proof,
        written,
        writer,
        checkers,
    })
}

/// The CPU seconds of this thread since `before`.
fn elapsed_cpu(before: Option<f64>) -> Option<f64> {
    Some(thread_cpu_seconds()? - before?)
}

/// A verdict of `veripb` that did not run, and why.
fn not_run(why: &str) -> CheckerRecord {
    CheckerRecord {
        name: VERIPB.to_string(),
        version: veripb_version().unwrap_or("none").to_string(),
        verdict: Verdict::NotRun,
        conclusion: None,
        message: Some(why.to_string()),
        work: Work {
            seconds: 0.0,
            cpu_seconds: None,
            peak_memory_bytes: None,
            peak_held_bytes: None,
        },
    }
}

/// The version of `veripb` on PATH (`3.0.2`), asked once; `None` when it is not there.
pub(in crate::cert::certificate) fn veripb_version() -> Option<&'static str> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            if !crate::oracle::external::on_path(VERIPB) {
                return None;
            }
            let output = Command::new(VERIPB).arg("--version").output().ok()?;
            let text = String::from_utf8_lossy(&output.stdout);
            let version = text
                .lines()
                .rev()
                .find_map(|l| l.trim().strip_prefix("veripb "))
                .unwrap_or("unknown");
            Some(version.to_string())
        })
        .as_deref()
}

/// `veripb` on the proof in `copy` and the OPB text `opb` (put in a file in memory): its
/// verdict, time, CPU and peak memory (its own: see [`wait_with_usage`]).
fn run_veripb(
    version: &str,
    name: &str,
    opb: &[u8],
    copy: &UnnamedFile,
    lower: i64,
    control: &Control,
) -> Result<CheckerRecord, StreamError> {
    let mut formula = UnnamedFile::in_memory(&format!("{name}.opb")).map_err(StreamError::Io)?;
    formula.write_all(opb).map_err(StreamError::Io)?;
    let started = Instant::now();
    // The unnamed files have no `.opb` ending for veripb to tell the format by.
    let mut command = Command::new(VERIPB);
    command
        .arg("--opb")
        .arg(formula.path())
        .arg(copy.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    end_with_parent(&mut command);
    let mut child = command.spawn().map_err(StreamError::Io)?;
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    // Its output is read beside the wait, which samples its memory while it runs.
    let (said, complained, waited) = std::thread::scope(|scope| {
        let said = scope.spawn(|| read_all(stdout.as_mut()));
        let errors = scope.spawn(|| read_all(stderr.as_mut()));
        let waited = wait_with_usage(&mut child, &|| control.should_stop());
        (
            said.join().unwrap_or_default(),
            errors.join().unwrap_or_default(),
            waited,
        )
    });
    let (status, usage) = waited.map_err(StreamError::Io)?;
    if control.should_stop() {
        // Killed on the stop: no verdict.
        return Err(StreamError::Stopped);
    }
    let expected = format!("s VERIFIED BOUNDS {lower} <= obj <= INF");
    let accepted = status.success() && said.lines().any(|l| l.trim() == expected);
    let message = (!accepted).then(|| {
        if let Some(signal) = killed_by(&status) {
            // Killed, most often by the system for memory (a cgroup's limit): no verdict.
            return format!(
                "veripb was killed by signal {signal} before its verdict (out of memory?)"
            );
        }
        said.lines()
            .chain(complained.lines())
            .filter(|l| !l.trim().is_empty() && !l.starts_with("Running VeriPB"))
            .find(|l| l.starts_with("s ") || l.contains("rror") || l.contains("panicked"))
            .unwrap_or("no verdict")
            .trim()
            .to_string()
    });
    Ok(CheckerRecord {
        name: VERIPB.to_string(),
        version: version.to_string(),
        verdict: if accepted {
            Verdict::Accepted
        } else {
            Verdict::Refused
        },
        conclusion: accepted.then(|| conclusion_words(lower)),
        message,
        work: Work {
            seconds: started.elapsed().as_secs_f64(),
            cpu_seconds: usage.cpu_seconds,
            peak_memory_bytes: usage.peak_memory_bytes,
            peak_held_bytes: usage.peak_held_bytes,
        },
    })
}

/// The signal that ended a child, if one did.
fn killed_by(status: &std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        std::os::unix::process::ExitStatusExt::signal(status)
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// Has the child `command` starts killed when the thread that starts it ends (Linux), as it
/// does when puzzlec exits on a stop: a checker left running would check a shard no record
/// will ever name.
fn end_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: `prctl` is async-signal-safe and touches nothing of the parent's.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Everything a child's output gives, as text.
fn read_all(pipe: Option<&mut impl Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The proof's two ways out: the pipe to puzzlec's checker and the unnamed file `veripb`
/// reads (when it runs).
struct Tee<'a> {
    pipe: Option<PipeWriter>,
    copy: Option<BufWriter<&'a mut UnnamedFile>>,
    /// The bytes gone through, and the most that may.
    streamed: &'a std::cell::Cell<u64>,
    cap: u64,
}

impl Tee<'_> {
    /// Flushes the unnamed file and closes the pipe.
    fn close(mut self) -> std::io::Result<()> {
        self.pipe = None;
        match self.copy.take() {
            Some(copy) => copy.into_inner().map(|_| ()).map_err(|e| e.into_error()),
            None => Ok(()),
        }
    }
}

impl Write for Tee<'_> {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let total = self.streamed.get() + buffer.len() as u64;
        if total > self.cap {
            self.streamed.set(total);
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "the shard's proof passes the bytes it may have",
            ));
        }
        if let Some(pipe) = &mut self.pipe {
            pipe.write_all(buffer)?;
        }
        if let Some(copy) = &mut self.copy {
            copy.write_all(buffer)?;
        }
        self.streamed.set(total);
        Ok(buffer.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(pipe) = &mut self.pipe {
            pipe.flush()?;
        }
        if let Some(copy) = &mut self.copy {
            copy.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::digest::sha256_hex;

    const OPB: &[u8] = b"* #variable= 1 #constraint= 1\nmin: 1 x1 ;\n1 x1 >= 1 ;\n";

    /// A proof that the objective is at least `lower`, hinted by the formula's one
    /// constraint: true for 1, false above.
    fn proof(lower: i64) -> String {
        format!("pseudo-Boolean proof version 3.0\nf 1 ;\noutput NONE ;\nconclusion BOUNDS {lower} : 1 INF ;\nend pseudo-Boolean proof ;\n")
    }

    fn streamed(lower: i64) -> Streamed {
        streamed_in(lower, None)
    }

    fn streamed_in(lower: i64, scratch: Option<&std::path::Path>) -> Streamed {
        let text = proof(lower);
        let write = |out: &mut dyn Write, _: &dyn Fn() -> bool| {
            out.write_all(text.as_bytes())
                .map_err(|e| DollProofError::Write(WriteError::Io(e)))?;
            Ok(Written {
                nodes: 1,
                derived: 0,
            })
        };
        stream(
            "test",
            OPB,
            lower,
            &write,
            None,
            scratch,
            &Control::unlimited(),
        )
        .unwrap()
    }

    #[test]
    fn a_true_proof_is_accepted_and_hashed_as_written() {
        let streamed = streamed(1);
        let text = proof(1);
        assert_eq!(streamed.proof.sha256, sha256_hex(text.as_bytes()));
        assert_eq!(
            (streamed.proof.bytes, streamed.proof.lines),
            (text.len() as u64, 5)
        );
        assert_eq!(streamed.refusal(), None);
        let ours = &streamed.checkers[0];
        assert_eq!(
            (ours.name.as_str(), ours.verdict),
            (OURS, Verdict::Accepted)
        );
        assert_eq!(ours.conclusion.as_deref(), Some("BOUNDS 1 INF"));
        let theirs = &streamed.checkers[1];
        let expected = match veripb_version() {
            Some(_) => Verdict::Accepted,
            None => Verdict::NotRun,
        };
        assert_eq!((theirs.name.as_str(), theirs.verdict), (VERIPB, expected));
    }

    #[test]
    fn a_proof_read_from_a_scratch_folder_is_checked_and_leaves_nothing_there() {
        let dir = tempfile::tempdir().unwrap();
        let streamed = streamed_in(1, Some(dir.path()));
        assert_eq!(streamed.refusal(), None);
        let expected = match veripb_version() {
            Some(_) => Verdict::Accepted,
            None => Verdict::NotRun,
        };
        assert_eq!(streamed.checkers[1].verdict, expected);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_false_proof_is_refused_by_puzzlecs_checker_and_veripb_is_not_run() {
        let streamed = streamed(2);
        let refusal = streamed.refusal().expect("refused");
        assert_eq!(refusal.name, OURS);
        let said = refusal.message.as_deref().unwrap();
        assert!(said.starts_with("proof line 4: conclusion:"), "{said}");
        assert_eq!(streamed.checkers[1].verdict, Verdict::NotRun);
    }

    #[cfg(unix)]
    #[test]
    fn a_checker_killed_is_told_from_one_that_ended() {
        let run = |script: &str| Command::new("sh").args(["-c", script]).status().unwrap();
        assert_eq!(killed_by(&run("kill -9 $$")), Some(9));
        assert_eq!(killed_by(&run("exit 1")), None);
    }

    #[test]
    fn a_proof_past_its_cap_is_given_up() {
        let write = |out: &mut dyn Write, stop: &dyn Fn() -> bool| {
            let mut lines = crate::formats::lines::LineWriter::new(out, stop);
            for _ in 0..100_000 {
                lines.emit(|l| l.push_str("* a comment line that only takes room\n"));
            }
            lines.finish()?;
            Ok(Written::default())
        };
        let outcome = stream(
            "test",
            OPB,
            1,
            &write,
            Some(1 << 20),
            None,
            &Control::unlimited(),
        );
        assert!(
            matches!(outcome, Err(StreamError::TooLarge(bytes)) if bytes > 1 << 20),
            "{outcome:?}"
        );
    }
}
