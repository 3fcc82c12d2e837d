//! A checker of VeriPB 3.0 pseudo-Boolean proofs of our own, sharing no code with
//! `veripb`: the second judge of every proof the search writes.
//!
//! # What is checked
//!
//! The formula is an OPB file; constraint `i` gets ID `i` (an equality two IDs, `>=` then
//! `<=`). Every constraint is kept in normal form, `sum a_i l_i >= d` with positive
//! coefficients over literals. The proof's rules, as VeriPB defines them:
//!
//! * `f N`: the formula has N constraint IDs.
//! * `pol`: reverse Polish arithmetic over constraint IDs and literal axioms: `+`, `k *`,
//!   `k d` (division rounding up), `s` (saturation), `x w` (weakening), `k -`; exact
//!   integers, refused on overflow.
//! * `rup C`: C's negation and unit propagation over the whole database end in a conflict
//!   (a constraint propagates a literal when its slack is below that literal's
//!   coefficient). `rup C : hints`: the same over the hinted constraints alone, from the
//!   empty assignment, rounds in hint order until nothing changes.
//! * `pbc C : subproof ... qed pbc [: id]`: C's negation is added, and the subproof must
//!   derive a contradiction: the hinted constraint, or without a hint the database
//!   propagating to conflict on its own. Everything the subproof added is deleted at its
//!   `qed`, then C is added. `pbc C` without a subproof: C by reverse unit propagation.
//! * `red C : witness` (redundance-based strengthening, at the top level, without a
//!   subproof): the witness ω maps variables to 0, 1 or literals. The goals are C|ω, every
//!   constraint of the database (formula and derived alike) that ω can make harder (one with
//!   a literal ω maps to anything but 1) under ω, and, when ω maps an objective variable,
//!   "objective|ω <= objective". With ¬C as a premise, each goal must be trivial, implied
//!   syntactically by the constraint it came from or by ¬C, in the database as it is, or
//!   follow by unit propagation over the database, ¬C and its own negation. Then C is
//!   added. This is VeriPB 3.0's check when no order is loaded.
//! * `sol` / `soli`: the literals, completed by propagation, assign every variable and
//!   satisfy every constraint of the database and every constraint of the formula (even a
//!   deleted one); the best objective value is kept; `soli` adds "objective <= value - 1".
//! * `del id` / `del range`: deletion, at the top level only (as in VeriPB 3.0).
//! * `output NONE`, then `conclusion NONE | SAT | UNSAT | BOUNDS lb [: id] ub`, then
//!   `end pseudo-Boolean proof`. `BOUNDS`: the lower bound follows syntactically (literal
//!   axioms, one saturation) from the hinted constraint, or from some constraint of the
//!   database, or the database holds a contradiction; the upper bound is the value of the
//!   best solution logged (or of the solution given).
//!
//! Anything else (labels, `red` with a subproof, `dom`, orders, `obju`) is refused, so that no step is
//! trusted unread. One deliberate difference from VeriPB: deleting a formula constraint is
//! accepted without VeriPB's redundancy check, which only matters for output guarantees
//! (`output NONE` is the only output read); a deletion can never make a false bound
//! derivable, and solutions are checked against the whole formula regardless.

mod coefficients;
mod constraint;
mod pol;
mod propagate;
mod redundance;
mod sum;

use std::io::BufRead;
use std::path::Path;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::formats::opb::{read_opb, Lit, Objective, PbSyntaxError, VarNames};
use crate::formats::veripb::{
    Conclusion, ConstraintId, Hint, PolItem, ProofReader, Step, WitnessValue,
};

use constraint::{Normalizer, Overflow, PbConstraint};
use propagate::{Database, Unfinished};
use redundance::Witness;
use sum::Sum;

/// Why a formula or proof was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PbError {
    /// A file could not be opened.
    #[error("{path}: {message}")]
    Open {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The OPB file does not read.
    #[error("formula {0}")]
    Formula(PbSyntaxError),
    /// The proof does not read.
    #[error("proof {0}")]
    Syntax(PbSyntaxError),
    /// A step of the proof does not hold.
    #[error("proof line {line}: {rule}: {message}")]
    Step {
        /// The 1-based line the step starts on.
        line: usize,
        /// The rule (`rup`, `pol`, `qed`, `conclusion`, ...).
        rule: &'static str,
        /// What does not hold.
        message: String,
    },
}

impl PbError {
    /// The rule of the refused step, for a [`PbError::Step`].
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            PbError::Step { rule, .. } => Some(rule),
            _ => None,
        }
    }
}

/// What a checked proof establishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PbConclusion {
    /// Nothing claimed.
    None,
    /// The formula has a solution.
    Sat,
    /// The formula has none.
    Unsat,
    /// lower <= the minimum of the objective <= upper; `None` is infinite.
    Bounds {
        /// The lower bound.
        lower: Option<i64>,
        /// The upper bound.
        upper: Option<i64>,
    },
}

/// Counts and time of one check.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PbStats {
    /// Constraint IDs of the formula.
    pub formula_constraints: u64,
    /// Variables named in the formula and the proof.
    pub variables: usize,
    /// Proof steps read.
    pub steps: u64,
    /// `rup` steps propagating over the whole database.
    pub rup: u64,
    /// `rup` steps propagating over their hints.
    pub hinted_rup: u64,
    /// `pol` steps.
    pub pol: u64,
    /// `pbc` steps.
    pub pbc: u64,
    /// `red` steps.
    pub red: u64,
    /// Constraints deleted, by `del` or at the end of a subproof.
    pub deleted: u64,
    /// The largest constraint ID given.
    pub largest_id: u64,
    /// The most constraints in the database at once.
    pub peak_constraints: usize,
    /// Wall-clock seconds of the check, reading included.
    pub seconds: f64,
}

/// A proof accepted: its conclusion and the counts.
#[derive(Debug, Clone, PartialEq)]
pub struct PbOutcome {
    /// What the proof establishes.
    pub conclusion: PbConclusion,
    /// Counts and time.
    pub stats: PbStats,
}

/// Checks the proof at `proof` of the OPB formula at `opb`.
pub fn check_pb_files(opb: &Path, proof: &Path) -> Result<PbOutcome, PbError> {
    let open = |path: &Path| {
        std::fs::File::open(path)
            .map(|f| std::io::BufReader::with_capacity(1 << 16, f))
            .map_err(|e| PbError::Open {
                path: path.display().to_string(),
                message: e.to_string(),
            })
    };
    check_pb_proof(open(opb)?, open(proof)?)
}

/// Checks the VeriPB 3.0 proof `proof` of the OPB formula `opb`.
pub fn check_pb_proof(opb: impl BufRead, proof: impl BufRead) -> Result<PbOutcome, PbError> {
    let started = Instant::now();
    let file = read_opb(opb).map_err(PbError::Formula)?;
    let mut checker = Checker {
        next_id: 1,
        ..Checker::default()
    };
    checker.db.ensure_vars(file.names.len());
    for written in &file.constraints {
        let constraints = checker.normalizer.written(written).map_err(|Overflow| {
            PbError::Formula(PbSyntaxError {
                line: 0,
                message: "a constraint's coefficients sum beyond 64 bits".into(),
            })
        })?;
        for c in constraints {
            checker.originals.push(c.clone());
            checker.add(c);
        }
    }
    checker.stats.formula_constraints = checker.next_id - 1;
    checker.objective = file.objective;
    let mut reader = ProofReader::new(proof, file.names).map_err(PbError::Syntax)?;
    let mut last_line = 1;
    checker.vars = reader.names().len();
    while let Some((line, step)) = reader.next_step().map_err(PbError::Syntax)? {
        last_line = line;
        let named = reader.names().len();
        checker.db.ensure_vars(named);
        checker.db.index_fresh_vars(checker.vars..named);
        checker.vars = named;
        checker.stats.steps += 1;
        checker.apply(&step).map_err(|message| PbError::Step {
            line,
            rule: step.rule(),
            message: message.render(reader.names()),
        })?;
    }
    let Some(conclusion) = checker.ended.then_some(checker.conclusion).flatten() else {
        return Err(PbError::Step {
            line: last_line,
            rule: "end",
            message: "the proof stops without `end pseudo-Boolean proof`".into(),
        });
    };
    checker.stats.variables = reader.names().len();
    checker.stats.largest_id = checker.next_id - 1;
    checker.stats.seconds = started.elapsed().as_secs_f64();
    Ok(PbOutcome {
        conclusion,
        stats: checker.stats,
    })
}

/// A refusal, with variables still as indices (named when reported).
struct Refusal {
    message: String,
    /// A variable to name in place of `{var}`.
    var: Option<u32>,
    /// A constraint to write in place of `{constraint}`.
    constraint: Option<PbConstraint>,
}

impl Refusal {
    fn render(self, names: &VarNames) -> String {
        let mut message = self.message;
        if let Some(v) = self.var {
            message = message.replace("{var}", names.name(v));
        }
        if let Some(c) = self.constraint {
            message = message.replace("{constraint}", &show_constraint(&c, names));
        }
        message
    }
}

/// `c` as a proof would write it: `1 x1 2 ~x2 >= 2`.
fn show_constraint(c: &PbConstraint, names: &VarNames) -> String {
    let mut text = String::new();
    for (a, l) in c.terms() {
        text.push_str(&format!(
            "{a} {}{} ",
            if l.is_negated() { "~" } else { "" },
            names.name(l.var())
        ));
    }
    text.push_str(&format!(">= {}", c.degree));
    text
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal {
            message,
            var: None,
            constraint: None,
        }
    }
}

impl From<&str> for Refusal {
    fn from(message: &str) -> Refusal {
        message.to_string().into()
    }
}

impl From<Overflow> for Refusal {
    fn from(_: Overflow) -> Refusal {
        "numbers beyond 64 bits".into()
    }
}

/// An open `pbc` subproof.
struct Subproof {
    /// The first ID of the subproof (its negated constraint).
    start: u64,
    /// What its `qed` derives.
    goal: PbConstraint,
}

#[derive(Default)]
struct Checker {
    db: Database,
    normalizer: Normalizer,
    /// The running sum of `pol` steps, kept for its buffers.
    sum: Sum,
    /// The formula's constraints in normal form, for solutions.
    originals: Vec<PbConstraint>,
    objective: Option<Objective>,
    /// The ID the next constraint gets.
    next_id: u64,
    subproofs: Vec<Subproof>,
    /// The best objective value of a logged solution (0 without an objective).
    best: Option<i128>,
    vars: usize,
    output: bool,
    conclusion: Option<PbConclusion>,
    ended: bool,
    stats: PbStats,
    /// The resolved hints of the `rup` being checked.
    hint_ids: Vec<Option<u64>>,
}

impl Checker {
    fn add(&mut self, c: PbConstraint) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.db.add(id, c);
        self.stats.peak_constraints = self.stats.peak_constraints.max(self.db.live());
        id
    }

    /// The ID a proof's reference names, checked to be present.
    fn resolve(&self, id: ConstraintId) -> Result<u64, Refusal> {
        let absolute = match id {
            ConstraintId::Absolute(n) => n,
            ConstraintId::Back(k) => self.next_id.saturating_sub(k),
        };
        if absolute == 0 || absolute >= self.next_id {
            return Err(format!("constraint {} does not exist", show(id)).into());
        }
        if self.db.get(absolute).is_none() {
            return Err(format!("constraint {absolute} is deleted").into());
        }
        Ok(absolute)
    }

    fn constraint(&self, id: ConstraintId) -> Result<&PbConstraint, Refusal> {
        let id = self.resolve(id)?;
        Ok(self.db.get(id).expect("resolved IDs are present"))
    }

    fn written(&mut self, c: &crate::formats::opb::Constraint) -> Result<PbConstraint, Refusal> {
        Ok(self.normalizer.first(c)?)
    }

    fn top_level(&self, rule: &str) -> Result<(), Refusal> {
        if self.subproofs.is_empty() {
            Ok(())
        } else {
            Err(format!("`{rule}` inside a subproof").into())
        }
    }

    fn apply(&mut self, step: &Step) -> Result<(), Refusal> {
        if self.output && !matches!(step, Step::Conclusion(_) | Step::End) {
            return Err("only `conclusion` and `end` may follow `output`".into());
        }
        match step {
            Step::Formula(n) => {
                if *n != self.stats.formula_constraints {
                    return Err(format!(
                        "the formula has {} constraint IDs, not {n}",
                        self.stats.formula_constraints
                    )
                    .into());
                }
            }
            Step::Pol(items) => {
                self.stats.pol += 1;
                let c = self.pol(items)?;
                self.add(c);
            }
            Step::Rup { constraint, hints } => {
                let c = self.written(constraint)?;
                let negation = c.negation()?;
                let implied = match hints {
                    Some(hints) => {
                        self.stats.hinted_rup += 1;
                        // A buffer kept between steps: most steps are hinted `rup`s.
                        let mut ids = std::mem::take(&mut self.hint_ids);
                        ids.clear();
                        for h in hints {
                            ids.push(match h {
                                Hint::Negation => None,
                                Hint::Id(id) => Some(self.resolve(*id)?),
                            });
                        }
                        let implied = self.db.rup_hinted(&negation, &ids);
                        self.hint_ids = ids;
                        implied
                    }
                    None => {
                        self.stats.rup += 1;
                        self.db.rup(&negation)
                    }
                };
                if !implied {
                    return Err(if hints.is_some() {
                        "not implied by unit propagation over its hints".into()
                    } else {
                        "not implied by unit propagation".into()
                    });
                }
                self.add(c);
            }
            Step::Pbc {
                constraint,
                subproof,
            } => {
                self.stats.pbc += 1;
                let c = self.written(constraint)?;
                let negation = c.negation()?;
                if *subproof {
                    let start = self.add(negation);
                    self.subproofs.push(Subproof { start, goal: c });
                } else {
                    if !self.db.rup(&negation) {
                        return Err("without a subproof, the negation must propagate to a \
                                    conflict"
                            .into());
                    }
                    self.add(c);
                }
            }
            Step::Red {
                constraint,
                witness,
            } => {
                self.top_level("red")?;
                self.stats.red += 1;
                let c = self.written(constraint)?;
                self.redundant(&c, witness)?;
                self.add(c);
            }
            Step::Qed(hint) => {
                let Some(subproof) = self.subproofs.pop() else {
                    return Err("no subproof is open".into());
                };
                match hint {
                    Some(id) => {
                        let absolute = self.resolve(*id)?;
                        if !self.constraint(*id)?.is_contradicting() {
                            return Err(
                                format!("constraint {absolute} is not a contradiction").into()
                            );
                        }
                    }
                    None => {
                        if !self.db.root_conflict() {
                            return Err("the subproof derives no contradiction".into());
                        }
                    }
                }
                let deleted = self.db.delete(subproof.start..self.next_id);
                self.stats.deleted += deleted as u64;
                self.add(subproof.goal);
            }
            Step::Solution {
                literals,
                improving,
                value,
            } => {
                self.top_level(if *improving { "soli" } else { "sol" })?;
                let found = self.solution(literals)?;
                if let Some(claimed) = value {
                    if i128::from(*claimed) != found {
                        return Err(format!(
                            "the solution's objective value is {found}, not {claimed}"
                        )
                        .into());
                    }
                }
                if self.best.is_none_or(|best| found < best) {
                    self.best = Some(found);
                }
                if *improving {
                    let Some(objective) = &self.objective else {
                        return Err("`soli` needs an objective".into());
                    };
                    // objective <= found - 1, i.e. -objective >= 1 - found (+ constant)
                    let terms = objective.terms.iter().map(|&(a, l)| (-i128::from(a), l));
                    let rhs = 1 - found + i128::from(objective.constant);
                    let c = self.normalizer.build(terms, rhs)?;
                    self.add(c);
                }
            }
            Step::Delete(ids) => {
                self.top_level("del")?;
                let ids = ids
                    .iter()
                    .map(|&id| self.resolve_for_deletion(id))
                    .collect::<Result<Vec<_>, _>>()?;
                self.stats.deleted += self.db.delete(ids.into_iter()) as u64;
            }
            Step::DeleteRange(from, to) => {
                self.top_level("del")?;
                let from = self.resolve_for_deletion(*from)?;
                let to = match *to {
                    ConstraintId::Absolute(n) => n,
                    ConstraintId::Back(k) => self.next_id.saturating_sub(k),
                };
                if to < from || to > self.next_id {
                    return Err(format!("the range {from} .. {to} is not of given IDs").into());
                }
                self.stats.deleted += self.db.delete(from..to) as u64;
            }
            Step::OutputNone => {
                if !self.subproofs.is_empty() {
                    return Err("a subproof is still open".into());
                }
                self.output = true;
            }
            Step::Conclusion(conclusion) => {
                if !self.output {
                    return Err("`output` must come first".into());
                }
                if self.conclusion.is_some() {
                    return Err("a second conclusion".into());
                }
                self.conclusion = Some(self.conclude(conclusion)?);
            }
            Step::End => {
                if self.conclusion.is_none() {
                    return Err("`end` before `output` and `conclusion`".into());
                }
                self.ended = true;
            }
        }
        Ok(())
    }

    /// Checks `c` redundant under `witness`: every goal of VeriPB's redundance rule
    /// (without a subproof) autoproved with `c`'s negation as a premise.
    fn redundant(
        &mut self,
        c: &PbConstraint,
        witness: &[(u32, WitnessValue)],
    ) -> Result<(), Refusal> {
        let witness = Witness::new(witness);
        let negated = c.negation()?;
        let goal = witness.apply(&mut self.normalizer, c)?;
        self.autoprove(&goal, Some(c), &negated, || {
            "the constraint under the witness".into()
        })?;
        let mut ids: Vec<u64> = Vec::new();
        for var in witness.support() {
            ids.extend(self.db.mentioning(var).map(|(id, _)| id));
        }
        ids.sort_unstable();
        ids.dedup();
        let mut touched: Vec<(u64, PbConstraint)> = Vec::new();
        for id in ids {
            let d = self.db.get(id).expect("the index holds live constraints");
            if witness.touches(d) {
                touched.push((id, witness.apply(&mut self.normalizer, d)?));
            }
        }
        for (id, goal) in touched {
            let source = self.db.get(id).cloned();
            self.autoprove(&goal, source.as_ref(), &negated, || {
                format!("constraint {id} under the witness")
            })?;
        }
        if let Some(objective) = &self.objective {
            if let Some(goal) = witness.objective_goal(&mut self.normalizer, objective)? {
                self.autoprove(&goal, None, &negated, || {
                    "objective under the witness <= objective".into()
                })?;
            }
        }
        Ok(())
    }

    /// Proves `goal` (named by `name`) with `negated` as a premise, in VeriPB's order:
    /// trivial, implied by the constraint it came from or by the premise, present in the
    /// database, or by unit propagation.
    fn autoprove(
        &mut self,
        goal: &PbConstraint,
        source: Option<&PbConstraint>,
        negated: &PbConstraint,
        name: impl Fn() -> String,
    ) -> Result<(), Refusal> {
        if goal.is_trivial() {
            return Ok(());
        }
        let coefs: FxHashMap<Lit, i64> = goal.terms().map(|(a, l)| (l, a)).collect();
        let coef = |l: Lit| coefs.get(&l).copied().unwrap_or(0);
        if source.is_some_and(|s| s.implies(goal, coef)) || negated.implies(goal, coef) {
            return Ok(());
        }
        let same = |d: &PbConstraint| {
            d.degree == goal.degree
                && d.coef_sum == goal.coef_sum
                && d.lits.len() == goal.lits.len()
                && d.terms().all(|(a, l)| coef(l) == a)
        };
        // A goal with no literals is a contradiction: present only if the database
        // conflicts at its root, which unit propagation finds.
        if let Some(first) = goal.lits.first() {
            if self.db.mentioning(first.var()).any(|(_, d)| same(d)) {
                return Ok(());
            }
        }
        if self.db.rup_with(&[negated, &goal.negation()?]) {
            return Ok(());
        }
        Err(Refusal {
            message: format!(
                "the witness does not hold: {} ({{constraint}}) is not implied by the \
                 negated constraint, not in the database, and not by unit propagation",
                name()
            ),
            var: None,
            constraint: Some(goal.clone()),
        })
    }

    /// A deletion may name an ID already deleted (VeriPB skips it), not one never given.
    fn resolve_for_deletion(&self, id: ConstraintId) -> Result<u64, Refusal> {
        let absolute = match id {
            ConstraintId::Absolute(n) => n,
            ConstraintId::Back(k) => self.next_id.saturating_sub(k),
        };
        if absolute == 0 || absolute >= self.next_id {
            return Err(format!("constraint {} does not exist", show(id)).into());
        }
        Ok(absolute)
    }

    fn pol(&mut self, items: &[PolItem]) -> Result<PbConstraint, Refusal> {
        // Taken out for the evaluation, which reads the database as it writes them.
        let mut normalizer = std::mem::take(&mut self.normalizer);
        let mut sum = std::mem::take(&mut self.sum);
        let derived = pol::evaluate(items, |id| self.constraint(id), &mut normalizer, &mut sum);
        self.normalizer = normalizer;
        self.sum = sum;
        derived
    }

    /// Checks a logged solution; its objective value (0 without an objective).
    fn solution(&mut self, literals: &[Lit]) -> Result<i128, Refusal> {
        let values = match self.db.complete(literals, self.vars) {
            Ok(values) => values,
            Err(Unfinished::Conflict) => {
                return Err("the solution conflicts with the constraints".into())
            }
            Err(Unfinished::Open(var)) => {
                return Err(Refusal {
                    message: "the solution leaves {var} unassigned, even after propagation".into(),
                    var: Some(var),
                    constraint: None,
                })
            }
        };
        if let Some((id, _)) = self.db.iter().find(|(_, c)| !c.holds(&values)) {
            return Err(format!("the solution violates constraint {id}").into());
        }
        if let Some(i) = self.originals.iter().position(|c| !c.holds(&values)) {
            return Err(format!("the solution violates formula constraint {}", i + 1).into());
        }
        Ok(self.objective.as_ref().map_or(0, |o| value_of(o, &values)))
    }

    fn has_contradiction(&self, hint: Option<ConstraintId>) -> Result<bool, Refusal> {
        Ok(match hint {
            Some(id) => self.constraint(id)?.is_contradicting(),
            None => self.db.iter().any(|(_, c)| c.is_contradicting()),
        })
    }

    fn conclude(&mut self, conclusion: &Conclusion) -> Result<PbConclusion, Refusal> {
        Ok(match conclusion {
            Conclusion::None => PbConclusion::None,
            Conclusion::Unsat(hint) => {
                if self.objective.is_some() {
                    return Err("UNSAT of a formula with an objective: use BOUNDS INF INF".into());
                }
                if self.best.is_some() {
                    return Err("UNSAT after a solution was logged".into());
                }
                if !self.has_contradiction(*hint)? {
                    return Err("no contradiction was derived".into());
                }
                PbConclusion::Unsat
            }
            Conclusion::Sat(solution) => {
                if self.objective.is_some() {
                    return Err("SAT of a formula with an objective: use BOUNDS".into());
                }
                match solution {
                    Some(literals) => {
                        self.given_solution(literals)?;
                    }
                    None if self.best.is_none() => return Err("no solution was logged".into()),
                    None => {}
                }
                PbConclusion::Sat
            }
            Conclusion::Bounds {
                lower,
                lower_hint,
                upper,
                solution,
            } => {
                let Some(objective) = self.objective.clone() else {
                    return Err("BOUNDS of a formula without an objective".into());
                };
                match lower {
                    None => {
                        if upper.is_some() {
                            return Err(
                                "an infinite lower bound needs an infinite upper one".into()
                            );
                        }
                        if self.best.is_some() {
                            return Err("infeasible after a solution was logged".into());
                        }
                        if !self.has_contradiction(*lower_hint)? {
                            return Err("no contradiction was derived".into());
                        }
                    }
                    Some(lower) => {
                        if self.best.is_some_and(|best| i128::from(*lower) > best) {
                            return Err(format!(
                                "lower bound {lower} is above the best solution logged, {}",
                                self.best.unwrap_or_default()
                            )
                            .into());
                        }
                        self.lower_bound_holds(&objective, *lower, *lower_hint)?;
                    }
                }
                if let Some(upper) = upper {
                    if lower.is_some_and(|lower| lower > *upper) {
                        return Err("the lower bound is above the upper bound".into());
                    }
                    let value = match solution {
                        Some(literals) => self.given_solution(literals)?,
                        None => match self.best {
                            Some(best) => best,
                            None => return Err("no solution was logged".into()),
                        },
                    };
                    if value != i128::from(*upper) {
                        return Err(format!(
                            "upper bound {upper}, but the {} solution has value {value}",
                            if solution.is_some() {
                                "given"
                            } else {
                                "best logged"
                            }
                        )
                        .into());
                    }
                }
                PbConclusion::Bounds {
                    lower: *lower,
                    upper: *upper,
                }
            }
        })
    }

    /// "objective >= lower" follows from the hinted constraint (or any constraint) by
    /// syntactic implication, or the database holds a contradiction.
    fn lower_bound_holds(
        &mut self,
        objective: &Objective,
        lower: i64,
        hint: Option<ConstraintId>,
    ) -> Result<(), Refusal> {
        if self.db.iter().any(|(_, c)| c.is_contradicting()) {
            return Ok(());
        }
        let terms = objective.terms.iter().map(|&(a, l)| (i128::from(a), l));
        let target = self
            .normalizer
            .build(terms, i128::from(lower) - i128::from(objective.constant))?;
        let coefs: FxHashMap<Lit, i64> = target.terms().map(|(a, l)| (l, a)).collect();
        let coef = |l: Lit| coefs.get(&l).copied().unwrap_or(0);
        let implied = match hint {
            Some(id) => {
                let source = self.constraint(id)?;
                if !source.implies(&target, coef) {
                    let absolute = self.resolve(id)?;
                    return Err(format!(
                        "constraint {absolute} does not imply objective >= {lower}"
                    )
                    .into());
                }
                true
            }
            None => self.db.iter().any(|(_, c)| c.implies(&target, coef)),
        };
        if implied {
            Ok(())
        } else {
            Err(format!("no constraint implies objective >= {lower}").into())
        }
    }

    /// A solution given in a conclusion: a full assignment satisfying the formula; its
    /// objective value.
    fn given_solution(&self, literals: &[Lit]) -> Result<i128, Refusal> {
        let mut values = vec![0i8; 2 * self.vars];
        for &l in literals {
            if values[l.index()] == -1 {
                return Err("the solution sets a variable both ways".into());
            }
            values[l.index()] = 1;
            values[l.negate().index()] = -1;
        }
        if let Some(i) = self.originals.iter().position(|c| !c.holds(&values)) {
            return Err(format!("the solution violates formula constraint {}", i + 1).into());
        }
        Ok(self.objective.as_ref().map_or(0, |o| value_of(o, &values)))
    }
}

/// The objective's value under `values` (1 true, per literal index).
fn value_of(objective: &Objective, values: &[i8]) -> i128 {
    let mut value = i128::from(objective.constant);
    for &(a, l) in &objective.terms {
        if values[l.index()] == 1 {
            value += i128::from(a);
        }
    }
    value
}

fn show(id: ConstraintId) -> String {
    match id {
        ConstraintId::Absolute(n) => n.to_string(),
        ConstraintId::Back(k) => format!("-{k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPB: &str = "* #variable= 3 #constraint= 2\n\
        min: -1 x1 -1 x2 -1 x3 ;\n\
        -1 x1 -1 x2 >= -1 ;\n\
        -1 x2 -1 x3 >= -1 ;\n";

    fn check(proof: &str) -> Result<PbOutcome, PbError> {
        let text = format!("pseudo-Boolean proof version 3.0\nf 2 ;\n{proof}");
        check_pb_proof(OPB.as_bytes(), text.as_bytes())
    }

    /// The rule and line of a refusal.
    fn refused(proof: &str) -> (&'static str, usize, String) {
        match check(proof) {
            Err(PbError::Step {
                line,
                rule,
                message,
            }) => (rule, line, message),
            other => panic!("expected a refused step, got {other:?}"),
        }
    }

    /// The optimum of OPB is -2 (x1 and x3): a proof by `pbc` that at most two are chosen.
    const OPTIMUM: &str = "pbc -1 x1 -1 x2 -1 x3 >= -2 : subproof\n\
        pol 3 1 + 2 + ;\n\
        qed pbc : 4 ;\n\
        sol x1 ~x2 x3 ;\n\
        output NONE ;\n\
        conclusion BOUNDS -2 : 5 -2 ;\n\
        end pseudo-Boolean proof ;\n";

    #[test]
    fn a_proof_of_an_optimum_is_accepted() {
        let outcome = check(OPTIMUM).unwrap();
        assert_eq!(
            outcome.conclusion,
            PbConclusion::Bounds {
                lower: Some(-2),
                upper: Some(-2)
            }
        );
        assert_eq!(outcome.stats.formula_constraints, 2);
        assert_eq!(outcome.stats.pbc, 1);
        assert_eq!(outcome.stats.largest_id, 5);
        assert_eq!(outcome.stats.deleted, 2);
    }

    #[test]
    fn pol_needs_the_right_constraints() {
        // x1 + x2 + x3 >= 3 alone is no contradiction.
        let proof = OPTIMUM.replace("pol 3 1 + 2 + ;", "pol 3 ;");
        assert_eq!(refused(&proof).0, "qed");
        let proof = OPTIMUM.replace("pol 3 1 + 2 + ;", "pol 3 1 + 9 + ;");
        let (rule, line, message) = refused(&proof);
        assert_eq!((rule, line), ("pol", 4));
        assert!(message.contains("constraint 9 does not exist"), "{message}");
    }

    #[test]
    fn rup_with_and_without_hints() {
        // Within the subproof: x1 + x2 + x3 >= 3 propagates everything, and an at-most-one
        // conflicts: the empty clause follows by RUP, with or without hints.
        for derivation in [
            "rup >= 1 ;",
            "rup >= 1 : 3 1 ;",
            "rup >= 1 : ~ 3 1 ;",
            "rup >= 1 : -1 1 ;",
        ] {
            let proof = OPTIMUM
                .replace("pol 3 1 + 2 + ;", derivation)
                .replace("qed pbc : 4", "qed pbc");
            check(&proof).unwrap_or_else(|e| panic!("{derivation}: {e}"));
        }
        // Hints that miss the conflicting constraint: refused.
        let proof = OPTIMUM.replace("pol 3 1 + 2 + ;", "rup >= 1 : 3 ;");
        assert_eq!(refused(&proof).0, "rup");
        // A clause that does not follow.
        let proof = format!("rup 1 x1 >= 1 ;\n{OPTIMUM}");
        assert_eq!(
            refused(&proof),
            ("rup", 3, "not implied by unit propagation".into())
        );
    }

    #[test]
    fn subproof_constraints_vanish_at_qed() {
        let proof = OPTIMUM.replace("sol x1", "pol 4 ;\nsol x1");
        assert!(refused(&proof).2.contains("constraint 4 is deleted"));
        let proof = OPTIMUM.replace("qed pbc : 4 ;\n", "");
        assert_eq!(refused(&proof).0, "sol");
        let proof = OPTIMUM.replace("qed pbc : 4 ;\n", "qed pbc : 3 ;\nqed pbc ;\n");
        assert_eq!(refused(&proof).0, "qed");
    }

    #[test]
    fn solutions_and_conclusions_are_checked() {
        let proof = OPTIMUM.replace("sol x1 ~x2 x3", "sol x1 x2 ~x3");
        assert!(refused(&proof).2.contains("conflicts"));
        let proof = OPTIMUM.replace("sol x1 ~x2 x3", "sol x1 ~x2");
        assert!(refused(&proof).2.contains("x3 unassigned"));
        // A partial solution, completed by propagation (x1 forces ~x2).
        let proof = OPTIMUM.replace("sol x1 ~x2 x3", "sol x1 x3");
        check(&proof).unwrap();
        let proof = OPTIMUM.replace("BOUNDS -2 : 5 -2", "BOUNDS -1 : 5 -2");
        assert!(refused(&proof).2.contains("above the best solution"));
        // A weaker lower bound holds.
        let proof = OPTIMUM.replace("BOUNDS -2 : 5 -2", "BOUNDS -3 : 5 -2");
        check(&proof).unwrap();
        let proof = OPTIMUM.replace("BOUNDS -2 : 5 -2", "BOUNDS -2 : 5 -1");
        assert!(refused(&proof).2.contains("upper bound -1"));
        let proof = OPTIMUM
            .replace("sol x1 ~x2 x3 ;\n", "")
            .replace("BOUNDS -2 : 5 -2", "BOUNDS -1 : 5 INF");
        assert!(refused(&proof).2.contains("does not imply"));
        let proof = OPTIMUM.replace("BOUNDS -2 : 5 -2", "BOUNDS -2 -2");
        check(&proof).unwrap();
        let proof = OPTIMUM.replace("sol x1 ~x2 x3 ;\n", "");
        assert!(refused(&proof).2.contains("no solution"));
        let proof = OPTIMUM.replace(
            "sol x1 ~x2 x3 ;\n",
            "soli x1 ~x2 ~x3 ;\nsol x1 ~x2 x3 : -2 ;\n",
        );
        check(&proof).unwrap();
        let proof = OPTIMUM.replace("sol x1 ~x2 x3 ;", "sol x1 ~x2 x3 : -1 ;");
        assert!(refused(&proof).2.contains("value is -2"));
        let proof = OPTIMUM.replace("end pseudo-Boolean proof ;\n", "");
        assert_eq!(refused(&proof).0, "end");
    }

    #[test]
    fn deletions_are_top_level_and_named() {
        let proof = OPTIMUM.replace("pol 3 1 + 2 + ;", "del id 1 ;");
        assert!(refused(&proof).2.contains("inside a subproof"));
        let proof = format!("del id 2 2 ;\n{OPTIMUM}")
            .replace("pol 3 1 + 2 + ;", "rup >= 1 ;")
            .replace("qed pbc : 4", "qed pbc");
        // Without the second at-most-one, x1 x2 x3 >= 3 meets only the first: still a conflict.
        check(&proof).unwrap();
        let proof = format!("del id 7 ;\n{OPTIMUM}");
        assert!(refused(&proof).2.contains("constraint 7 does not exist"));
        let proof = format!("del range 1 3 ;\n{OPTIMUM}");
        assert!(refused(&proof).2.contains("deleted"));
    }

    const NONE: &str = "output NONE ;\nconclusion NONE ;\nend pseudo-Boolean proof ;\n";

    /// u1 <=> x1 + x2 + x3 >= 2 defined by `red` in both directions (IDs 3 and 4), then used.
    const REIFIED: &str = "red 2 ~u1 1 x1 1 x2 1 x3 >= 2 : u1 -> 0 ;\n\
        red 2 u1 1 ~x1 1 ~x2 1 ~x3 >= 2 : u1 -> 1 ;\n\
        rup 1 ~u1 1 x1 >= 1 ;\n\
        rup 1 u1 1 ~x1 1 ~x3 >= 1 ;\n";

    #[test]
    fn red_defines_a_reification_in_both_directions() {
        let outcome = check(&format!("{REIFIED}{NONE}")).unwrap();
        assert_eq!(outcome.conclusion, PbConclusion::None);
        assert_eq!(outcome.stats.red, 2);
        assert_eq!(outcome.stats.largest_id, 6);
        assert_eq!(outcome.stats.variables, 4, "u is named by the proof");
        // Without the definitions the clauses over u1 do not follow.
        let proof = REIFIED.replace("red 2 u1 1 ~x1 1 ~x2 1 ~x3 >= 2 : u1 -> 1 ;\n", "");
        assert_eq!(refused(&format!("{proof}{NONE}")).0, "rup");
        // The other order: the second definition's goals include the first one under u1 -> 0.
        let lines: Vec<&str> = REIFIED.lines().collect();
        let swapped = format!("{}\n{}\n{NONE}", lines[1], lines[0]);
        check(&swapped).unwrap();
    }

    #[test]
    fn red_refuses_a_witness_that_breaks_a_constraint_or_the_objective() {
        // x2 -> 1 breaks formula constraint 1 (x1 + x2 <= 1): ~x1 must follow from ~x2.
        let (rule, line, message) = refused(&format!("red 1 x2 >= 1 : x2 -> 1 ;\n{NONE}"));
        assert_eq!((rule, line), ("red", 3));
        assert!(
            message.contains("constraint 1 under the witness (1 ~x1 >= 1)"),
            "{message}"
        );
        // x1 -> 0 keeps the constraints but worsens the objective.
        let message = refused(&format!("red 1 ~x1 >= 1 : x1 -> 0 ;\n{NONE}")).2;
        assert!(
            message.contains("objective under the witness <= objective (1 ~x1 >= 1)"),
            "{message}"
        );
        // A definition whose own image is not true: u1 -> 1 for u1 => x1 + x2 + x3 >= 2.
        let message = refused(&format!(
            "red 2 ~u1 1 x1 1 x2 1 x3 >= 2 : u1 -> 1 ;\n{NONE}"
        ))
        .2;
        assert!(
            message.contains("the constraint under the witness (1 x1 1 x2 1 x3 >= 2)"),
            "{message}"
        );
        // Deriving the second direction again under the wrong value: constraint 3 (u =>
        // x1 + x2 + x3 >= 2) does not hold once u1 is forced true.
        let proof = REIFIED.replace("u1 -> 1", "u1 -> 0");
        let message = refused(&format!("{proof}{NONE}")).2;
        assert!(
            message.contains("the constraint under the witness"),
            "{message}"
        );
        // Deleted constraints set no goals.
        check(&format!("del id 1 2 ;\nred 1 x2 >= 1 : x2 -> 1 ;\n{NONE}")).unwrap();
        // Not inside a subproof.
        let proof = OPTIMUM.replace("pol 3 1 + 2 + ;", "red 1 ~y1 >= 1 : y1 -> 0 ;");
        assert!(refused(&proof).2.contains("`red` inside a subproof"));
    }

    #[test]
    fn red_goals_are_found_in_the_database_or_by_propagation() {
        // The symmetry x1 <-> x3 of OPB: each formula constraint maps onto the other, the
        // objective onto itself.
        check(&format!(
            "red 1 x1 1 ~x3 >= 1 : x1 -> x3 x3 -> x1 ;\n{NONE}"
        ))
        .unwrap();
        // x1 + x2 >= 1, x1 => x3, x2 => x3: under x2 -> 0, x1 -> 1 the goal x3 >= 1 (from the
        // second constraint) follows from ~C = x2 by propagation over the third.
        let opb = "* #variable= 3 #constraint= 3\n\
            1 x1 1 x2 >= 1 ;\n1 ~x1 1 x3 >= 1 ;\n1 ~x2 1 x3 >= 1 ;\n";
        let proof = |third: bool| {
            let formula = if third {
                opb.to_string()
            } else {
                opb.replace("1 ~x2 1 x3 >= 1 ;\n", "")
                    .replace("#constraint= 3", "#constraint= 2")
            };
            let text = format!(
                "pseudo-Boolean proof version 3.0\nf {} ;\nred 1 ~x2 >= 1 : x2 -> 0 x1 -> 1 ;\n{NONE}",
                if third { 3 } else { 2 }
            );
            check_pb_proof(formula.as_bytes(), text.as_bytes())
        };
        assert_eq!(proof(true).unwrap().stats.red, 1);
        let error = proof(false).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("constraint 2 under the witness (1 x3 >= 1)"),
            "{error}"
        );
    }

    #[test]
    fn the_formula_count_is_checked() {
        let proof = "f 3 ;\n".to_string() + OPTIMUM;
        assert!(refused(&proof).2.contains("not 3"));
    }
}
