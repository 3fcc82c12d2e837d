//! Files for external solvers: DIMACS CNF, WCNF (MaxSAT), OPB (pseudo-Boolean), CPLEX LP,
//! MiniZinc and FlatZinc, each headed by comments that say what the file is and name every
//! variable.

use crate::base::Control;
use crate::encode::amo::AmoEncoding;
use crate::encode::clique::{grow_cliques, CliqueRow};
use crate::encode::mzn;
use crate::encode::{dimacs, lp, opb, wcnf};
use crate::formats::lines::WriteError;
use crate::formats::minizinc::Dialect;
use crate::model::Model;
use crate::puzzle::Puzzle;
use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

/// The formats `emit` writes; [`Format::summary`] says what each file holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// DIMACS CNF.
    Dimacs,
    /// CPLEX LP.
    Lp,
    /// WCNF for MaxSAT solvers.
    Wcnf,
    /// OPB for pseudo-Boolean solvers.
    Opb,
    /// MiniZinc.
    Mzn,
    /// FlatZinc.
    Fzn,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 6] = [
        Format::Dimacs,
        Format::Lp,
        Format::Wcnf,
        Format::Opb,
        Format::Mzn,
        Format::Fzn,
    ];

    /// The format's name on the command line and in messages (`dimacs`, `mzn`...).
    pub fn name(self) -> &'static str {
        match self {
            Format::Dimacs => "dimacs",
            Format::Lp => "lp",
            Format::Wcnf => "wcnf",
            Format::Opb => "opb",
            Format::Mzn => "mzn",
            Format::Fzn => "fzn",
        }
    }

    /// What a file of this format holds, in one sentence (the command line's help).
    pub fn summary(self) -> &'static str {
        match self {
            Format::Dimacs => "DIMACS CNF, with `c var N name` lines",
            Format::Lp => "CPLEX LP, with readable column names",
            Format::Wcnf => {
                "WCNF for MaxSAT solvers (2022 format: `h` hard clauses, objective literals as unit soft clauses of weight 1), with `c var N name` lines"
            }
            Format::Opb => {
                "OPB for pseudo-Boolean solvers (`min:` minus the objective count), with `* var N name` lines"
            }
            Format::Mzn => {
                "MiniZinc (`minizinc --solver gecode FILE.mzn`): `var 0..1` variables named after the model's, readable constraints, an `output` item printing `name = value;` lines"
            }
            Format::Fzn => {
                "FlatZinc (`fzn-gecode FILE.fzn`): `int_lin_le` / `int_lin_eq` constraints and `:: output_var` variables, run without the MiniZinc compiler"
            }
        }
    }
}

/// What `emit` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EmitOptions {
    /// The file format.
    pub format: Format,
    /// With `Some(k)`, the file asks "objective at least k?" (a unit clause on the
    /// counter's output, or one more row); without, it holds the constraints alone (and,
    /// for LP and OPB, the objective).
    pub at_least: Option<usize>,
    /// Whether lazy constraints are written out in full (the default), so the file is
    /// exactly the puzzle; `false` (`--incomplete`) leaves them out for a smaller file,
    /// and the file's header says so.
    pub complete: bool,
    /// LP files: each at-most-one row grown to a clique of conflicting variables (two
    /// placements that share a cell, ...), which tightens the linear relaxation
    /// ([`crate::encode::clique`]); `false` writes the model's rows as they are.
    pub cliques: bool,
    /// LP files: rows that rule out symmetric images of solutions
    /// ([`Puzzle::symmetry_rows`]), named and commented as such (`emit --symmetry-rows`).
    pub symmetry_rows: bool,
}

impl EmitOptions {
    /// The complete file in `format`, asking "objective at least K" when `at_least` gives
    /// K, with clique rows (and no symmetry rows) in LP files.
    pub fn new(format: Format, at_least: Option<usize>) -> EmitOptions {
        EmitOptions {
            format,
            at_least,
            complete: true,
            cliques: true,
            symmetry_rows: false,
        }
    }
}

/// Why `emit` wrote no complete file.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// The output could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A time limit or Ctrl-C stopped the compilation or the writing; what was written is
    /// incomplete.
    #[error("stopped")]
    Stopped,
    /// The thread compiling the model panicked (a bug; the panic message is on stderr).
    #[error("the compiling thread panicked")]
    CompilePanicked,
}

impl From<WriteError> for EmitError {
    fn from(error: WriteError) -> EmitError {
        match error {
            WriteError::Io(e) => EmitError::Io(e),
            WriteError::Stopped => EmitError::Stopped,
        }
    }
}

/// The puzzle's model as `format` text, complete (see [`EmitOptions`]); `origin` names
/// the model file. For files small enough to hold in memory; [`emit_to`] streams.
pub fn emit(puzzle: &Puzzle, origin: &str, format: Format, at_least: Option<usize>) -> String {
    let options = EmitOptions::new(format, at_least);
    let mut out = Vec::new();
    emit_to(puzzle, origin, &options, &mut out, &Control::unlimited())
        .expect("writing into memory without a limit cannot fail");
    String::from_utf8(out).expect("the writers write UTF-8")
}

/// Writes the puzzle's model to `out` as `options` say, line by line: the file is never
/// held in memory (DIMACS is encoded twice, once to count its clauses for the header).
/// `control` bounds the compilation and the writing; when it stops them, what `out` got is
/// incomplete and the caller must discard it or say so.
pub fn emit_to(
    puzzle: &Puzzle,
    origin: &str,
    options: &EmitOptions,
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), EmitError> {
    let (model, written) = compile_stoppable(puzzle, options.complete, control)?;
    let at_least = options.at_least;
    let mut comments = vec![
        format!("puzzlec {} from {origin}", env!("CARGO_PKG_VERSION")),
        format!(
            "family {}: {} model variables",
            puzzle.kind(),
            model.num_vars()
        ),
    ];
    if !written.is_empty() {
        comments.push(format!(
            "written out in full, with auxiliary variables: {}",
            written.join(", ")
        ));
    }
    if !options.complete && !model.lazy.is_empty() {
        comments.push(
            "INCOMPLETE, as asked (--incomplete): the lazy constraints below are left out, so \
             a solver's answer may not be a solution of the puzzle"
                .into(),
        );
    }
    match options.format {
        Format::Dimacs => {
            let plan = dimacs::plan_cnf(&model, AmoEncoding::Auto, at_least);
            comments.push(format!("objective counted by {}", plan.objective_encoding));
            comments.push(match at_least {
                Some(k) => format!("decision: objective at least {k}"),
                None => "constraints only (no objective bound)".to_string(),
            });
            push_lazy_warning(&mut comments, &model);
            dimacs::write_model(
                &model,
                AmoEncoding::Auto,
                at_least,
                &plan,
                &comments,
                out,
                control,
            )?;
        }
        Format::Lp => {
            if let Some(k) = at_least {
                comments.push(format!("decision: objective at least {k} (row at_least)"));
            }
            let symmetry = if options.symmetry_rows {
                puzzle.symmetry_rows()
            } else {
                Vec::new()
            };
            let cliques = if options.cliques {
                grow_cliques(&model)
            } else {
                Vec::new()
            };
            let grown = cliques
                .iter()
                .filter(|c| matches!(c, CliqueRow::Grown(_)))
                .count();
            let duplicates = cliques
                .iter()
                .filter(|c| matches!(c, CliqueRow::Duplicate(_)))
                .count();
            if grown > 0 {
                comments.push(format!(
                    "row c<i> is the model's constraint i; {grown} at-most-one rows grown to \
                     cliques of variables no two of which can be true together, {duplicates} \
                     left out that grew into one of those (--no-cliques: the constraints as \
                     they are)"
                ));
            }
            if !symmetry.is_empty() {
                let names: Vec<&str> = symmetry.iter().map(|(name, _)| *name).collect();
                comments.push(format!(
                    "symmetry breaking rows, as asked (--symmetry-rows; not part of the puzzle: \
                     every solution has a symmetric image that meets them): {}",
                    names.join(", ")
                ));
            }
            push_lazy_warning(&mut comments, &model);
            let extras = lp::LpExtras {
                cliques: &cliques,
                symmetry: &symmetry,
            };
            lp::write_model(&model, at_least, &extras, &comments, out, control)?;
        }
        Format::Wcnf => {
            if let Some(k) = at_least {
                comments.push(format!("hard: objective at least {k}"));
            }
            comments.push("soft: one unit clause of weight 1 per objective literal; cost = literals left false".into());
            push_lazy_warning(&mut comments, &model);
            wcnf::write_model(&model, at_least, &comments, out, control)?;
        }
        Format::Opb => {
            if let Some(k) = at_least {
                comments.push(format!(
                    "decision: objective at least {k} (last constraint)"
                ));
            }
            let (_, offset) = opb::objective_terms(&model);
            comments.push(format!(
                "min: minus the objective count, plus the constant {offset} (not written)"
            ));
            push_lazy_warning(&mut comments, &model);
            opb::write_model(&model, at_least, &comments, out, control)?;
        }
        Format::Mzn | Format::Fzn => {
            let (dialect, run, answer) = match options.format {
                Format::Mzn => (
                    Dialect::MiniZinc,
                    "minizinc --solver gecode FILE.mzn",
                    "`name = value;` lines",
                ),
                _ => (
                    Dialect::FlatZinc,
                    "fzn-gecode FILE.fzn",
                    "`name = value;` lines and arrays such as `q = array2d(...);`",
                ),
            };
            comments.push(match at_least {
                Some(k) if model.objective.is_some() => {
                    format!("decision: objective at least {k} (constraint at_least), solve satisfy")
                }
                _ if model.objective.is_some() => {
                    "solve maximize objective (the number of true objective literals)".into()
                }
                _ => "solve satisfy (no objective)".into(),
            });
            comments.push(format!(
                "run: {run}; its answer ({answer}) is read back by `puzzlec decode`"
            ));
            push_lazy_warning(&mut comments, &model);
            mzn::write(&model, at_least, dialect, &comments, out, control)?;
        }
    }
    Ok(())
}

/// Compiles the puzzle (writing out its lazy constraints when `complete`) on its own
/// thread, so that `control` can end a long compilation: the thread is then abandoned (it
/// ends with the process). Returns the model and the names of the constraints written out.
fn compile_stoppable(
    puzzle: &Puzzle,
    complete: bool,
    control: &Control,
) -> Result<(Model, Vec<String>), EmitError> {
    let (sender, receiver) = mpsc::channel();
    let puzzle = puzzle.clone();
    std::thread::Builder::new()
        .name("puzzlec-compile".into())
        .spawn(move || {
            let mut model = puzzle.compile();
            // Lazy constraints that can be written out become ordinary constraints, so the
            // file is exactly the puzzle; the rest stay lazy and the file says so.
            let mut written = Vec::new();
            if complete {
                for lazy in std::mem::take(&mut model.lazy) {
                    if lazy.write_out(&mut model) {
                        written.push(lazy.name().to_string());
                    } else {
                        model.lazy.push(lazy);
                    }
                }
            }
            // The receiver may have given up; nothing to do then.
            let _ = sender.send((model, written));
        })?;
    loop {
        match receiver.recv_timeout(Duration::from_millis(20)) {
            Ok(compiled) => return Ok(compiled),
            Err(mpsc::RecvTimeoutError::Timeout) if control.should_stop() => {
                return Err(EmitError::Stopped)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(EmitError::CompilePanicked),
        }
    }
}

/// Lazy constraints are not written into static files yet; say so in every format rather
/// than let a solver's answer (or "satisfiable") look like one of the puzzle's.
fn push_lazy_warning(comments: &mut Vec<String>, model: &Model) {
    if !model.lazy.is_empty() {
        let names: Vec<&str> = model.lazy.iter().map(|l| l.name()).collect();
        comments.push(format!(
            "WARNING: {} lazy constraints are not written ({}): this file is weaker than \
             the puzzle; check answers with puzzlec",
            model.lazy.len(),
            names.join(", ")
        ));
    }
}
