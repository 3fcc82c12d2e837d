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

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.var().index(), !lit.is_negative())
}

/// varisat loaded with a CNF that grows by cuts and blocking clauses.
pub struct Varisat<'a> {
    solver: varisat::Solver<'a>,
    cnf: Cnf,
    calls: usize,
}

impl Varisat<'_> {
    /// varisat with the clauses of `cnf`.
    pub fn new(cnf: &Cnf) -> Self {
        let mut solver = varisat::Solver::new();
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

    /// varisat does not poll `control`: the driver runs it on a thread it can abandon.
    fn solve(
        &mut self,
        assumptions: &[Lit],
        _: &Control,
    ) -> Result<Option<SatAnswer>, OracleError> {
        let assumptions: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&assumptions);
        self.calls += 1;
        // varisat only reports an error for proof output, which this oracle never asks for.
        let sat = self
            .solver
            .solve()
            .map_err(|e| OracleError::Embedded(format!("varisat failed: {e}")))?;
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
