//! The external solver a run uses: a SAT command for DIMACS files
//! ([`crate::oracle::external_sat`]) or a MILP program for LP files
//! ([`crate::oracle::external_milp`]).

use super::Backend;
use crate::oracle::external::{find_on_path, on_path, split_command, SolverSpecError};
use crate::oracle::external_milp::{MilpKind, MilpSolver};
use crate::oracle::external_sat::SatCommand;

/// An external solver chosen with `--solver`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExternalSolver {
    /// A SAT solver run on DIMACS files.
    Sat(SatCommand),
    /// A MILP solver run on LP files (or HiGHS linked in).
    Milp(MilpSolver),
}

impl ExternalSolver {
    /// The solver `spec` names for `backend`: a command line for SAT, `cbc`, `glpsol`,
    /// `highs` or a command line for MILP. The native backend takes no solver.
    /// A program that cannot be found is refused here, before any model is written.
    pub fn parse(backend: Backend, spec: &str) -> Result<ExternalSolver, SolverSpecError> {
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
    /// programs puzzlec knows (`cbc`, `glpsol`, `highs`), SAT for any other command.
    pub fn infer_backend(spec: &str) -> Backend {
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
            ExternalSolver::Milp(_) => Backend::Milp,
        }
    }

    /// A short name for reports: `cadical`, `cbc`...
    pub fn name(&self) -> String {
        match self {
            ExternalSolver::Sat(command) => command.name(),
            ExternalSolver::Milp(solver) => solver.name(),
        }
    }

    /// The external solvers this machine can run, for `compare`: the known SAT and MILP
    /// programs found on PATH, and HiGHS when it is built in.
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
        found
    }
}
