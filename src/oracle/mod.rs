//! Oracles: the solvers that answer questions about an encoded model, behind two small
//! traits. [`SatOracle`]: varisat in-process and incremental ([`varisat`]), or an external
//! program on DIMACS files ([`external_sat`]). [`MilpOracle`]: microlp or HiGHS through
//! good_lp ([`microlp`]), or an external program on LP files ([`external_milp`]) or, through
//! MiniZinc, a constraint solver on the same 0-1 program ([`external_cp`]). Every
//! external answer is checked before it is used.
//!
//! The algorithms over oracles are written once, in [`loops`]: answering a goal by raising
//! "at least k" until refuted, adding lazy-constraint cuts until none is violated, and
//! enumerating the distinct assignments of chosen variables with blocking clauses. A run
//! names its oracle with a [`Solver`] and hands it to [`answer`], which builds the oracle
//! and runs the loop of its trait.

pub mod external;
pub mod external_cp;
pub mod external_milp;
pub mod external_sat;
#[cfg(feature = "highs")]
pub mod highs;
pub mod loops;
pub mod microlp;
mod process_tree;
pub mod varisat;

use crate::base::evidence::{Oracle, OracleKind};
use crate::base::{Control, Evidence, Goal, Incumbent, RawOutcome, Size, Status};
use crate::encode::amo::AmoEncoding;
use crate::formats::linear::LinearProgram;
use crate::model::{Assignment, Lit, Model};

/// Why an oracle gave no answer. The message says what happened, quoting the program's
/// output where there is one; the variant says what kind of failure it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OracleError {
    /// A file could not be written or read, or the program could not be started.
    #[error("{0}")]
    Io(String),
    /// The program ended abnormally: a crash, a signal, an exit code that is no answer.
    #[error("{0}")]
    Failed(String),
    /// The answer cannot be used for another reason: a program answered UNSATISFIABLE
    /// without writing its proof, or a lazy constraint made a cut its answer satisfies.
    #[error("{0}")]
    Rejected(String),
    /// An external SAT program's answer was garbled, or its model broke the formula.
    #[error("{solver} printed an answer puzzlec cannot accept: {problem} (output: {output_tail})")]
    BadSatAnswer {
        /// The program's name (`cadical`).
        solver: String,
        /// What is wrong with the answer.
        #[source]
        problem: external_sat::SatAnswerError,
        /// The last lines of the answer (see [`external::tail`]).
        output_tail: String,
    },
    /// An external SAT program answered UNSATISFIABLE, but its DRAT proof does not refute
    /// the formula it was given.
    #[error("{solver} answered UNSATISFIABLE, but its DRAT proof fails puzzlec's check: {error}")]
    BadProof {
        /// The program's name (`cadical`).
        solver: String,
        /// Why the checker refused the proof.
        #[source]
        error: crate::checkers::drat::DratError,
    },
    /// An external MILP program's solution file was garbled, or its values were not 0-1 or
    /// broke a row.
    #[error(
        "{solver} wrote a solution puzzlec cannot accept: {problem} (solution file: {file_tail})"
    )]
    BadSolution {
        /// The solver's name (`cbc`).
        solver: String,
        /// What is wrong with the solution.
        #[source]
        problem: external_milp::SolutionError,
        /// The last lines of the solution file (see [`external::tail`]).
        file_tail: String,
    },
    /// varisat reported an error, HiGHS was asked for but is not built in, or the thread
    /// running a solver failed.
    #[error("{0}")]
    Embedded(String),
    /// An embedded MILP solver (microlp, HiGHS) reported an error.
    #[error(transparent)]
    EmbeddedMilp(#[from] microlp::EmbeddedMilpError),
}

/// What a SAT oracle said about its formula under assumptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with one value per CNF variable.
    Sat(Vec<bool>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, `INDET`).
    Unknown,
}

/// A SAT solver holding a growing formula: the model's CNF, then cuts and blocking clauses.
pub trait SatOracle {
    /// The solver's name in evidence: `varisat`, `cadical`.
    fn name(&self) -> String;
    /// Adds a clause for every later call.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Decides the formula under `assumptions`; `None` when `control` stopped it first.
    fn solve(
        &mut self,
        assumptions: &[Lit],
        control: &Control,
    ) -> Result<Option<SatAnswer>, OracleError>;
    /// Solver calls made so far.
    fn calls(&self) -> usize;
    /// The formula's size now.
    fn size(&self) -> Size;
    /// What kind of solver it is: in-process, or a program started once per question.
    fn kind(&self) -> OracleKind {
        OracleKind::Embedded
    }
    /// The lemmas of the checked DRAT proof of the last UNSATISFIABLE answer; `None` when
    /// it was not checked (or the solver is trusted in-process).
    fn drat_lemmas(&self) -> Option<usize> {
        None
    }
    /// Who answers, for evidence.
    fn oracle(&self) -> Oracle {
        Oracle {
            name: self.name(),
            kind: self.kind(),
        }
    }
}

/// What a MILP oracle found for one program.
#[derive(Clone, Debug, PartialEq)]
pub enum MilpAnswer {
    /// A solution, and whether the solver proved it optimal.
    Solution(Vec<bool>, bool),
    /// No solution exists.
    Infeasible,
    /// The deadline came first; the solver was stopped.
    Stopped,
}

/// A MILP solver: one 0-1 program in, an optimal, feasible or no solution out.
pub trait MilpOracle {
    /// The solver's name in evidence: `microlp`, `cbc`.
    fn name(&self) -> String;
    /// Solves `program`, stopping as `control` says. With `integral_bound = Some(u)` the
    /// caller promises a whole-valued objective of at most `u` (see
    /// [`microlp::solve_microlp`]).
    fn solve(
        &mut self,
        program: &LinearProgram,
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError>;
    /// What kind of solver it is, which decides how its claims are reported.
    fn kind(&self) -> OracleKind;
    /// Who answers, for evidence.
    fn oracle(&self) -> Oracle {
        Oracle {
            name: self.name(),
            kind: self.kind(),
        }
    }
}

/// The solver that answers a goal: an embedded one, or an external program run on files.
#[derive(Clone, Copy, Debug)]
pub enum Solver<'a> {
    /// varisat, in-process and incremental.
    Varisat,
    /// microlp through good_lp.
    Microlp,
    /// An external SAT program on DIMACS files.
    Sat(&'a external_sat::SatCommand),
    /// An external MILP program on LP files (or HiGHS linked in).
    Milp(&'a external_milp::MilpSolver),
    /// A constraint solver run by MiniZinc on the 0-1 program.
    Cp(&'a external_cp::CpSolver),
}

/// Answers `goal` for `model` with `solver`: a SAT oracle raises "at least k" until refuted
/// ([`loops::answer_goal`]), a MILP oracle re-solves one program with cuts until none is
/// violated ([`loops::answer_goal_milp`]). Every solution found is offered to `incumbent`.
pub fn answer(
    solver: Solver,
    model: &Model,
    goal: Goal,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
) -> Result<RawOutcome<Assignment>, OracleError> {
    let sat_encoding = || crate::encode::cnf::encode(model, AmoEncoding::Auto);
    match solver {
        Solver::Varisat => {
            let encoding = sat_encoding();
            let mut oracle = varisat::Varisat::stoppable(&encoding.cnf, control);
            // varisat fails only on proof output: here when `control` stops it (the run
            // ends unknown, as the driver reports any stopped run).
            let answer =
                loops::answer_goal(&mut oracle, &encoding, model, goal, control, incumbent);
            Ok(answer.unwrap_or_else(|error| RawOutcome {
                status: Status::Unknown,
                witness: None,
                bound: None,
                evidence: Evidence::SolverFailed {
                    error: error.to_string(),
                },
                size: oracle.size(),
            }))
        }
        Solver::Sat(command) => {
            let encoding = sat_encoding();
            let mut oracle = external_sat::ExternalSat::for_model(command, &encoding, model);
            loops::answer_goal(&mut oracle, &encoding, model, goal, control, incumbent)
        }
        Solver::Microlp => {
            loops::answer_goal_milp(&mut microlp::Microlp, model, goal, control, incumbent)
        }
        Solver::Milp(program) => {
            let mut oracle = external_milp::ExternalMilp::new(program, model.num_vars());
            loops::answer_goal_milp(&mut oracle, model, goal, control, incumbent)
        }
        Solver::Cp(cp) => {
            let mut oracle = external_cp::ExternalCp::new(cp, model.num_vars());
            loops::answer_goal_milp(&mut oracle, model, goal, control, incumbent)
        }
    }
}
