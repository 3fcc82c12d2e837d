//! The external solver a run uses: a SAT command for DIMACS files
//! ([`crate::oracle::external_sat`]), a MILP program for LP files
//! ([`crate::oracle::external_milp`]), or a constraint solver through MiniZinc
//! ([`crate::oracle::external_cp`], `cp:gecode`) on the MILP backend's 0-1 program.

use super::Backend;
use crate::oracle::external::{find_on_path, on_path, split_command, SolverSpecError};
use crate::oracle::external_cp::{CpSolver, MINIZINC};
use crate::oracle::external_milp::{MilpKind, MilpSolver};
use crate::oracle::external_sat::SatCommand;

/// An external solver chosen with `--solver`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExternalSolver {
    /// A SAT solver run on DIMACS files.
    Sat(SatCommand),
    /// A MILP solver run on LP files (or HiGHS linked in).
    Milp(MilpSolver),
    /// A constraint solver run by MiniZinc on the MILP backend's 0-1 program
    /// (`cp:gecode`); it serves the MILP backend.
    Cp(CpSolver),
}

impl ExternalSolver {
    /// The solver `spec` names for `backend`: a command line for SAT, `cbc`, `glpsol`,
    /// `highs` or a command line for MILP; `cp:NAME` (a MiniZinc solver) for MILP. The
    /// native backend takes no solver.
    /// A program that cannot be found is refused here, before any model is written.
    pub fn parse(backend: Backend, spec: &str) -> Result<ExternalSolver, SolverSpecError> {
        if let Some(cp) = CpSolver::parse(spec) {
            let cp = match backend {
                Backend::Milp => cp?,
                Backend::Sat => return Err(SolverSpecError::CpNeedsMilp(spec.trim().into())),
                Backend::Native => return Err(SolverSpecError::NativeBackend),
            };
            if find_on_path(MINIZINC).is_none() {
                return Err(SolverSpecError::NotFound {
                    program: MINIZINC.into(),
                });
            }
            cp.check_listed()?;
            return Ok(ExternalSolver::Cp(cp));
        }
        let solver = match backend {
            Backend::Sat => SatCommand::parse(spec).map(ExternalSolver::Sat),
            Backend::Milp => MilpSolver::parse(spec).map(ExternalSolver::Milp),
            Backend::Native => Err(SolverSpecError::NativeBackend),
        }?;
        let linked_in =
            matches!(&solver, ExternalSolver::Milp(m) if m.kind == MilpKind::HighsEmbedded);
        let program = split_command(spec)?.remove(0);
        if !linked_in && find_on_path(&program).is_none() {
            return Err(SolverSpecError::NotFound { program });
        }
        Ok(solver)
    }

    /// The backend `--solver spec` serves when `--backend` is not given: MILP for the MILP
    /// programs puzzlec knows (`cbc`, `glpsol`, `highs`) and for MiniZinc solvers
    /// (`cp:gecode`), SAT for any other command.
    pub fn infer_backend(spec: &str) -> Backend {
        if CpSolver::parse(spec).is_some() {
            return Backend::Milp;
        }
        let program = split_command(spec)
            .ok()
            .and_then(|argv| argv.into_iter().next())
            .unwrap_or_default();
        let base = program.rsplit('/').next().unwrap_or(&program);
        match base {
            "cbc" | "glpsol" | "highs" => Backend::Milp,
            _ => Backend::Sat,
        }
    }

    /// The backend this solver serves.
    pub fn backend(&self) -> Backend {
        match self {
            ExternalSolver::Sat(_) => Backend::Sat,
            ExternalSolver::Milp(_) | ExternalSolver::Cp(_) => Backend::Milp,
        }
    }

    /// The oracle that runs this solver.
    pub fn oracle(&self) -> crate::oracle::Solver<'_> {
        match self {
            ExternalSolver::Sat(command) => crate::oracle::Solver::Sat(command),
            ExternalSolver::Milp(program) => crate::oracle::Solver::Milp(program),
            ExternalSolver::Cp(cp) => crate::oracle::Solver::Cp(cp),
        }
    }

    /// A short name for reports: `cadical`, `cbc`...
    pub fn name(&self) -> String {
        match self {
            ExternalSolver::Sat(command) => command.name(),
            ExternalSolver::Milp(solver) => solver.name(),
            ExternalSolver::Cp(solver) => solver.name(),
        }
    }

    /// Who answers, for reports and `compare` rows: `sat:cadical`, `milp:cbc`, and
    /// `cp:gecode` for a MiniZinc solver (which serves the MILP backend).
    pub fn label(&self) -> String {
        match self {
            ExternalSolver::Cp(solver) => format!("cp:{}", solver.name()),
            _ => format!("{}:{}", self.backend().name(), self.name()),
        }
    }

    /// The external solvers this machine can run, for `compare`: the known SAT and MILP
    /// programs found on PATH, HiGHS when it is built in, and the known MiniZinc solvers
    /// that `minizinc --solvers` lists.
    pub fn available() -> Vec<ExternalSolver> {
        let mut found = Vec::new();
        for program in crate::oracle::external_sat::KNOWN {
            if on_path(program) {
                if let Ok(command) = SatCommand::parse(program) {
                    found.push(ExternalSolver::Sat(command));
                }
            }
        }
        found.extend(
            MilpSolver::available()
                .into_iter()
                .map(ExternalSolver::Milp),
        );
        found.extend(CpSolver::available().into_iter().map(ExternalSolver::Cp));
        found
    }
}

/// Who answers a run: an embedded backend, or an external solver (HiGHS linked in counts
/// as one). `compare` has one row per contender; the portfolio one member each.
#[derive(Clone, Debug)]
pub enum Contender {
    /// An embedded backend: `native`, `sat`, `milp`.
    Embedded(Backend),
    /// An external solver.
    External(ExternalSolver),
}

impl Contender {
    /// Its name in reports: `native`, `sat`, `milp:highs`, `cp:gecode`.
    pub fn label(&self) -> String {
        match self {
            Contender::Embedded(backend) => backend.name().to_string(),
            Contender::External(solver) => solver.label(),
        }
    }

    /// The backend it serves.
    pub fn backend(&self) -> Backend {
        match self {
            Contender::Embedded(backend) => *backend,
            Contender::External(solver) => solver.backend(),
        }
    }
}
