//! The clauses of an encoding written as lines of a file as they are made (DIMACS clauses or
//! WCNF hard clauses), so that a model's CNF is never held whole in memory.

use super::ClauseSink;
use crate::formats::dimacs::CnfWriter;
use crate::formats::wcnf::WcnfWriter;
use crate::model::{Lit, Var};

/// A file writer that clauses of an encoding can go to: DIMACS clauses, or WCNF hard
/// clauses.
pub(super) trait ClauseLines {
    /// Writes one clause of nonzero DIMACS literals.
    fn clause(&mut self, literals: impl IntoIterator<Item = i64>);
    /// Whether writing failed or was stopped.
    fn failed(&self) -> bool;
}

impl ClauseLines for CnfWriter<'_> {
    fn clause(&mut self, literals: impl IntoIterator<Item = i64>) {
        CnfWriter::clause(self, literals);
    }

    fn failed(&self) -> bool {
        CnfWriter::failed(self)
    }
}

impl ClauseLines for WcnfWriter<'_> {
    fn clause(&mut self, literals: impl IntoIterator<Item = i64>) {
        self.hard(literals);
    }

    fn failed(&self) -> bool {
        WcnfWriter::failed(self)
    }
}

/// A [`ClauseSink`] whose clauses become lines of a file.
pub(super) struct ClauseWriter<W> {
    pub(super) lines: W,
    /// Variables so far, model variables first.
    pub(super) num_vars: usize,
}

impl<W: ClauseLines> ClauseSink for ClauseWriter<W> {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_index(self.num_vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.lines.clause(clause.iter().map(|l| l.dimacs()));
    }

    fn stopped(&self) -> bool {
        self.lines.failed()
    }
}
