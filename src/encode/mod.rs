//! Encodings of a [`Model`](crate::model::Model): CNF (at-most-one, totalizer, the whole
//! model), the 0-1 linear program, and the model's clauses and rows written as the files
//! solvers read (DIMACS, WCNF, OPB, CPLEX LP) through the writers of [`crate::formats`];
//! MiniZinc and FlatZinc as the rows and names [`crate::formats::minizinc`] writes.

pub mod amo;
mod clause_lines;
pub mod clique;
pub mod cnf;
pub mod compare;
pub mod dimacs;
pub mod estimate;
pub mod lp;
pub mod mzn;
pub mod opb;
pub mod totalizer;
pub mod wcnf;

#[cfg(test)]
mod file_tests;

use crate::model::{Lit, Var};

/// Where encoders put what they make: fresh variables and clauses. The same encoder fills an
/// in-memory [`Cnf`] or anything else that implements this.
pub trait ClauseSink {
    /// A fresh auxiliary variable.
    fn new_var(&mut self) -> Var;
    /// Adds a clause (a disjunction of literals; empty means false).
    fn add_clause(&mut self, clause: &[Lit]);
    /// Whether the sink wants no more clauses (a writer that was stopped or failed), so
    /// that long encodings can end early. Never, by default.
    fn stopped(&self) -> bool {
        false
    }
}

/// A formula in conjunctive normal form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Number of variables; every literal's variable is below it.
    pub num_vars: usize,
    /// The clauses.
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    /// An empty formula over `num_vars` variables.
    pub fn with_vars(num_vars: usize) -> Cnf {
        Cnf {
            num_vars,
            clauses: Vec::new(),
        }
    }

    /// Whether `values` (one per variable) satisfies every clause.
    pub fn satisfied_by(&self, values: &[bool]) -> bool {
        self.clauses.iter().all(|clause| {
            clause
                .iter()
                .any(|l| values[l.var().index()] != l.is_negative())
        })
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_index(self.num_vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses.push(clause.to_vec());
    }
}

/// Exhaustive checks of encodings against their definitions.
#[cfg(test)]
pub(crate) mod test_support {
    use super::Cnf;
    use crate::model::{Lit, Var};
    use varisat::ExtendFormula;

    /// Builds an encoding over `n` input variables (`build` returns extra unit literals to
    /// assert) and checks, for every one of the 2^n input assignments, that the formula is
    /// satisfiable exactly when `expected(number of true inputs)` holds.
    pub fn equisatisfiable_for_every_input(
        n: usize,
        build: impl FnOnce(&mut Cnf, &[Lit]) -> Vec<Lit>,
        expected: impl Fn(usize) -> bool,
    ) {
        equisatisfiable_for_every_assignment(
            n,
            build,
            |bits| expected(bits.count_ones() as usize),
            "",
        );
    }

    /// As [`equisatisfiable_for_every_input`], for definitions that depend on which inputs
    /// are true: `expected` gets the assignment as bits (input i is bit i); `what` names the
    /// case in failure messages.
    pub fn equisatisfiable_for_every_assignment(
        n: usize,
        build: impl FnOnce(&mut Cnf, &[Lit]) -> Vec<Lit>,
        expected: impl Fn(u32) -> bool,
        what: &str,
    ) {
        let mut cnf = Cnf::with_vars(n);
        let inputs: Vec<Lit> = (0..n).map(|i| Var::from_index(i).positive()).collect();
        for unit in build(&mut cnf, &inputs) {
            cnf.clauses.push(vec![unit]);
        }
        let mut solver = varisat::Solver::new();
        for clause in &cnf.clauses {
            let lits: Vec<varisat::Lit> = clause
                .iter()
                .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize))
                .collect();
            solver.add_clause(&lits);
        }
        for bits in 0u32..(1 << n) {
            let assumptions: Vec<varisat::Lit> = (0..n)
                .map(|i| {
                    varisat::Lit::from_dimacs(if bits >> i & 1 == 1 {
                        i as isize + 1
                    } else {
                        -(i as isize + 1)
                    })
                })
                .collect();
            solver.assume(&assumptions);
            let sat = solver.solve().expect("no interruption in tests");
            assert_eq!(
                sat,
                expected(bits),
                "n = {n}, inputs {bits:0n$b} ({} true) {what}",
                bits.count_ones(),
                n = n
            );
        }
    }
}
