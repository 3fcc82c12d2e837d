//! The embedded SAT oracle: varisat with the model's CNF loaded once; assumptions select
//! the question, so learnt clauses carry over from one bound to the next.

use super::loops::{enumerate_projected, Enumeration};
use super::{OracleError, SatAnswer, SatOracle};
use crate::base::{Control, Size};
use crate::encode::amo::AmoEncoding;
use crate::encode::cnf::{encode, CnfEncoding};
use crate::encode::Cnf;
use crate::model::{Assignment, Lit, Model, Var};
use varisat::ExtendFormula;

/// A proof writer that discards what it is given, and fails once its control says stop.
struct FailWhenStopped(Control);

impl std::io::Write for FailWhenStopped {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.0.should_stop() {
            return Err(std::io::Error::other("stopped"));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.var().index(), !lit.is_negative())
}

/// varisat loaded with a CNF that grows by cuts and blocking clauses.
pub struct Varisat<'a> {
    solver: varisat::Solver<'a>,
    cnf: Cnf,
    calls: usize,
}

impl<'a> Varisat<'a> {
    /// varisat with the clauses of `cnf`.
    pub fn new(cnf: &Cnf) -> Self {
        Self::with_solver(varisat::Solver::new(), cnf)
    }

    /// varisat with the clauses of `cnf`, whose `solve` ends soon after `control` says
    /// stop (its flag or its deadline), with an error.
    ///
    /// varisat has no interrupt, but it abandons a search at its next proof step once the
    /// proof's writer has failed; so it is given a proof in varisat's own format (DRAT
    /// has no assumptions) written to nothing, whose writer fails once `control` says stop
    /// (it is called once per 8 KiB of proof, many times a second). Writing it costs about
    /// a tenth of the solver's time (skew tetrominoes in 14 x 14: 401 against 368 ms);
    /// it buys that a stopped run's solver ends, instead of running on beside whatever
    /// the process does next (`compare`'s next backend, a sweep's next box, a library
    /// caller). The solver is unusable after the stop, as is the run that stopped it.
    pub fn stoppable(cnf: &Cnf, control: &Control) -> Self {
        let mut solver = varisat::Solver::new();
        solver.write_proof(
            FailWhenStopped(control.silent()),
            varisat::ProofFormat::Varisat,
        );
        Self::with_solver(solver, cnf)
    }

    fn with_solver(mut solver: varisat::Solver<'a>, cnf: &Cnf) -> Self {
        for clause in &cnf.clauses {
            let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
            solver.add_clause(&lits);
        }
        Varisat {
            solver,
            cnf: cnf.clone(),
            calls: 0,
        }
    }
}

impl SatOracle for Varisat<'_> {
    fn name(&self) -> String {
        "varisat".into()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
        self.solver.add_clause(&lits);
        self.cnf.clauses.push(clause.to_vec());
    }

    /// Stopped by `control` only when made [`Varisat::stoppable`]; otherwise the driver
    /// runs it on a thread it can abandon.
    fn solve(
        &mut self,
        assumptions: &[Lit],
        control: &Control,
    ) -> Result<Option<SatAnswer>, OracleError> {
        let assumptions: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&assumptions);
        self.calls += 1;
        // varisat reports an error only for proof output: a stoppable solver's proof writer
        // failing because `control` said stop.
        let sat = match self.solver.solve() {
            Ok(sat) => sat,
            Err(_) if control.should_stop() => return Ok(None),
            Err(e) => return Err(OracleError::Embedded(format!("varisat failed: {e}"))),
        };
        if !sat {
            return Ok(Some(SatAnswer::Unsat));
        }
        let model = self
            .solver
            .model()
            .ok_or(OracleError::Embedded("varisat gave no model".into()))?;
        let mut values = vec![false; self.cnf.num_vars];
        for lit in model {
            if lit.index() < values.len() {
                values[lit.index()] = lit.is_positive();
            }
        }
        Ok(Some(SatAnswer::Sat(values)))
    }

    fn calls(&self) -> usize {
        self.calls
    }

    fn size(&self) -> Size {
        Size::clauses(self.cnf.num_vars, self.cnf.clauses.len())
    }
}

/// The model's CNF (`AmoEncoding::Auto`) and varisat loaded with it.
pub fn load(model: &Model) -> (CnfEncoding, Varisat<'static>) {
    let encoding = encode(model, AmoEncoding::Auto);
    let oracle = Varisat::new(&encoding.cnf);
    (encoding, oracle)
}

/// Every distinct assignment of `project` in models of `model` under the objective bound
/// `at_least` (see [`enumerate_projected`]); `None` when the bound is impossible by
/// counting the objective's at-most-one groups.
pub fn enumerate(
    model: &Model,
    project: &[Var],
    at_least: Option<usize>,
    control: &Control,
    on_solution: &mut dyn FnMut(&Assignment) -> bool,
) -> Result<Option<Enumeration>, OracleError> {
    let (encoding, mut oracle) = load(model);
    let assumptions: Vec<Lit> = match at_least.map(|k| encoding.at_least(k)) {
        None => Vec::new(),
        Some(Ok(lit)) => lit.into_iter().collect(),
        Some(Err(_)) => return Ok(None),
    };
    enumerate_projected(
        &mut oracle,
        model,
        project,
        &assumptions,
        control,
        on_solution,
    )
    .map(Some)
}

#[cfg(test)]
mod tests {
    //! The cut loop of `loops.rs`, run on varisat.
    use super::*;
    use crate::base::Control;
    use crate::encode::Cnf;
    use crate::model::Assignment;
    use crate::oracle::loops::{solve_separating, CutAnswer};

    fn lit(dimacs: i64) -> Lit {
        Lit::from_dimacs(dimacs)
    }

    #[test]
    fn the_cut_loop_adds_cuts_until_nothing_is_left() {
        // Cut off every answer in turn: after four cuts (one per assignment of two
        // variables) nothing is left.
        let cnf = Cnf {
            num_vars: 2,
            clauses: vec![vec![lit(1), lit(2), lit(-1)]],
        };
        let mut oracle = Varisat::new(&cnf);
        let mut added = 0;
        let answer = solve_separating(&mut oracle, 2, &[], &Control::unlimited(), |a| {
            added += 1;
            let blocking = (0..2)
                .map(|v| {
                    lit(if a.values()[v] {
                        -(v as i64 + 1)
                    } else {
                        v as i64 + 1
                    })
                })
                .collect();
            vec![blocking]
        })
        .unwrap();
        assert_eq!(answer, Some(CutAnswer::Unsat));
        assert_eq!(added, 4);
    }

    /// Eleven pigeons in ten holes: no CDCL solver refutes it in seconds.
    fn pigeons() -> Cnf {
        let (pigeons, holes) = (11i64, 10i64);
        let var = |p: i64, h: i64| p * holes + h + 1;
        let mut clauses: Vec<Vec<Lit>> = (0..pigeons)
            .map(|p| (0..holes).map(|h| lit(var(p, h))).collect())
            .collect();
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    clauses.push(vec![lit(-var(p, h)), lit(-var(q, h))]);
                }
            }
        }
        Cnf {
            num_vars: (pigeons * holes) as usize,
            clauses,
        }
    }

    #[test]
    fn a_stoppable_solver_ends_its_call_at_the_deadline() {
        let control = Control::new(
            Default::default(),
            Some(std::time::Duration::from_millis(300)),
        );
        let mut oracle = Varisat::stoppable(&pigeons(), &control);
        let start = std::time::Instant::now();
        assert_eq!(oracle.solve(&[], &control).unwrap(), None);
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn the_cut_loop_stops_at_an_answer_without_cuts_and_rejects_useless_cuts() {
        let cnf = Cnf {
            num_vars: 2,
            clauses: vec![vec![lit(1)], vec![lit(-2)]],
        };
        let answer = solve_separating(
            &mut Varisat::new(&cnf),
            2,
            &[],
            &Control::unlimited(),
            |_| Vec::new(),
        )
        .unwrap();
        assert_eq!(
            answer,
            Some(CutAnswer::Sat(Assignment::new(vec![true, false])))
        );
        // A cut the answer satisfies would loop forever.
        let error = solve_separating(
            &mut Varisat::new(&cnf),
            2,
            &[],
            &Control::unlimited(),
            |_| vec![vec![lit(1), lit(2)]],
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "a cut is satisfied by the answer it was made for (a bug in the lazy constraint): [1, 2]"
        );
    }
}
