//! The writer of proofs: each step's line, and byte paths for the lines a proof-writing
//! search prints by the million (clause `rup`s, `pol` sums, deletions). Constraints are
//! written as their OPB file writes them ([`push_constraint`]).

use std::fmt::Write as _;

use crate::formats::lines::{LineWriter, WriteError};

use super::{Conclusion, ConstraintId, Hint, PolItem, Step, WitnessValue, PROOF_HEADER};
use crate::formats::digits::{push_spaced_uint_bytes, push_uint, push_uint_bytes};
use crate::formats::opb::{push_constraint, Lit, VarNames};

/// Appends the line of a hinted clause `rup`, `rup 1 l1 1 l2 .. >= 1 : h1 h2 .. ;` (the
/// hints absolute IDs): the line [`push_step`] writes for the [`Step::Rup`] of that clause,
/// as bytes ([`LineWriter::put_bytes`]), for writers that derive millions of clauses and
/// keep their literals and hints in buffers of their own.
pub fn push_clause_rup(
    out: &mut Vec<u8>,
    literals: impl IntoIterator<Item = Lit>,
    hints: impl IntoIterator<Item = u64>,
    names: &VarNames,
) {
    out.extend_from_slice(b"rup ");
    for lit in literals {
        names.push_unit_term_bytes(out, lit);
    }
    out.extend_from_slice(b">= 1 :");
    for id in hints {
        push_spaced_uint_bytes(out, id);
    }
    out.extend_from_slice(b" ;\n");
}

/// `pol` and its items, as [`push_step`] writes a [`Step::Pol`] (without the newline).
fn push_pol_items(out: &mut Vec<u8>, items: &[PolItem], names: &VarNames) {
    out.extend_from_slice(b"pol");
    for item in items {
        if let PolItem::Id(ConstraintId::Absolute(n)) = *item {
            push_spaced_uint_bytes(out, n);
            continue;
        }
        out.push(b' ');
        match *item {
            PolItem::Id(ConstraintId::Absolute(n)) => push_uint_bytes(out, n),
            PolItem::Id(ConstraintId::Back(n)) => {
                out.push(b'-');
                push_uint_bytes(out, n);
            }
            PolItem::Axiom(lit) => {
                if lit.is_negated() {
                    out.push(b'~');
                }
                names.push_name_bytes(out, lit.var());
            }
            PolItem::Add => out.push(b'+'),
            PolItem::Multiply(k) => {
                push_uint_bytes(out, k);
                out.extend_from_slice(b" *");
            }
            PolItem::Divide(k) => {
                push_uint_bytes(out, k);
                out.extend_from_slice(b" d");
            }
            PolItem::Decrement(k) => {
                push_uint_bytes(out, k);
                out.extend_from_slice(b" -");
            }
            PolItem::Saturate => out.push(b's'),
            PolItem::Weaken(var) => {
                names.push_name_bytes(out, var);
                out.extend_from_slice(b" w");
            }
        }
    }
    out.extend_from_slice(b" ;");
}

/// Appends the line of the [`Step::Pol`] of `items`, as bytes: what [`push_step`] writes,
/// for writers that keep their own buffers ([`LineWriter::put_bytes`]).
pub fn push_pol(out: &mut Vec<u8>, items: &[PolItem], names: &VarNames) {
    push_pol_items(out, items, names);
    out.push(b'\n');
}

/// Appends the line of the [`Step::Pol`] that adds the constraints of the absolute IDs
/// `ids` (at least one), `pol a b + c + .. ;`, as bytes: [`push_clause_rup`]'s path for
/// the sums a proof-writing search derives by the million.
pub fn push_pol_sum(out: &mut Vec<u8>, ids: impl IntoIterator<Item = u64>) {
    out.extend_from_slice(b"pol");
    for (k, id) in ids.into_iter().enumerate() {
        push_spaced_uint_bytes(out, id);
        if k > 0 {
            out.extend_from_slice(b" +");
        }
    }
    out.extend_from_slice(b" ;\n");
}

/// Appends the line of [`Step::Delete`] of the absolute IDs `ids` (`del id .. ;`), as
/// bytes.
pub fn push_delete(out: &mut Vec<u8>, ids: impl IntoIterator<Item = u64>) {
    out.extend_from_slice(b"del id");
    for id in ids {
        push_spaced_uint_bytes(out, id);
    }
    out.extend_from_slice(b" ;\n");
}

fn push_id(out: &mut String, id: ConstraintId) {
    match id {
        ConstraintId::Absolute(n) => push_uint(out, n),
        ConstraintId::Back(n) => {
            out.push('-');
            push_uint(out, n);
        }
    }
}

fn push_literals(out: &mut String, literals: &[Lit], names: &VarNames) {
    for (i, &lit) in literals.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        names.push_literal(out, lit);
    }
}

/// Appends the line of `step` (ending in a newline).
pub fn push_step(out: &mut String, step: &Step, names: &VarNames) {
    match step {
        Step::Formula(n) => {
            let _ = write!(out, "f {n} ;");
        }
        Step::Pol(items) => {
            // SAFETY: only ASCII and whole names (UTF-8) are appended.
            push_pol_items(unsafe { out.as_mut_vec() }, items, names);
        }
        Step::Rup { constraint, hints } => {
            out.push_str("rup ");
            push_constraint(out, constraint, names);
            if let Some(hints) = hints {
                out.push_str(" :");
                for hint in hints {
                    out.push(' ');
                    match *hint {
                        Hint::Negation => out.push('~'),
                        Hint::Id(id) => push_id(out, id),
                    }
                }
            }
            out.push_str(" ;");
        }
        Step::Pbc {
            constraint,
            subproof,
        } => {
            out.push_str("pbc ");
            push_constraint(out, constraint, names);
            out.push_str(if *subproof { " : subproof" } else { " ;" });
        }
        Step::Red {
            constraint,
            witness,
        } => {
            out.push_str("red ");
            push_constraint(out, constraint, names);
            out.push_str(" :");
            for &(var, value) in witness {
                let _ = write!(out, " {} -> ", names.name(var));
                match value {
                    WitnessValue::Constant(value) => out.push(if value { '1' } else { '0' }),
                    WitnessValue::Literal(lit) => names.push_literal(out, lit),
                }
            }
            out.push_str(" ;");
        }
        Step::Qed(hint) => {
            out.push_str("qed pbc");
            if let Some(id) = hint {
                out.push_str(" : ");
                push_id(out, *id);
            }
            out.push_str(" ;");
        }
        Step::Solution {
            literals,
            improving,
            value,
        } => {
            out.push_str(if *improving { "soli" } else { "sol" });
            if !literals.is_empty() {
                out.push(' ');
                push_literals(out, literals, names);
            }
            if let Some(value) = value {
                let _ = write!(out, " : {value}");
            }
            out.push_str(" ;");
        }
        Step::Delete(ids) => {
            out.push_str("del id");
            for &id in ids {
                out.push(' ');
                push_id(out, id);
            }
            out.push_str(" ;");
        }
        Step::DeleteRange(from, to) => {
            out.push_str("del range ");
            push_id(out, *from);
            out.push(' ');
            push_id(out, *to);
            out.push_str(" ;");
        }
        Step::OutputNone => out.push_str("output NONE ;"),
        Step::Conclusion(conclusion) => {
            out.push_str("conclusion ");
            let push_solution = |out: &mut String, solution: &Option<Vec<Lit>>| {
                if let Some(literals) = solution {
                    out.push_str(" : ");
                    push_literals(out, literals, names);
                }
            };
            let push_bound = |out: &mut String, bound: Option<i64>| {
                let _ = match bound {
                    Some(b) => write!(out, "{b}"),
                    None => write!(out, "INF"),
                };
            };
            match conclusion {
                Conclusion::None => out.push_str("NONE"),
                Conclusion::Sat(solution) => {
                    out.push_str("SAT");
                    push_solution(out, solution);
                }
                Conclusion::Unsat(hint) => {
                    out.push_str("UNSAT");
                    if let Some(id) = hint {
                        out.push_str(" : ");
                        push_id(out, *id);
                    }
                }
                Conclusion::Bounds {
                    lower,
                    lower_hint,
                    upper,
                    solution,
                } => {
                    out.push_str("BOUNDS ");
                    push_bound(out, *lower);
                    if let Some(id) = lower_hint {
                        out.push_str(" : ");
                        push_id(out, *id);
                    }
                    out.push(' ');
                    push_bound(out, *upper);
                    push_solution(out, solution);
                }
            }
            out.push_str(" ;");
        }
        Step::End => out.push_str("end pseudo-Boolean proof ;"),
    }
    out.push('\n');
}

/// Writes a proof step by step and counts constraint IDs as the checker does, so that the
/// writer of a proof learns each new constraint's ID from the step that made it.
pub struct ProofWriter<'a> {
    out: LineWriter<'a>,
    names: &'a VarNames,
    next_id: u64,
}

impl<'a> ProofWriter<'a> {
    /// A proof into `out` over the formula with `formula_ids` constraint IDs and variable
    /// `names`; writes the header and `f formula_ids ;`.
    pub fn new(
        out: LineWriter<'a>,
        names: &'a VarNames,
        formula_ids: u64,
    ) -> Result<ProofWriter<'a>, WriteError> {
        let mut writer = ProofWriter {
            out,
            names,
            next_id: formula_ids + 1,
        };
        writer.out.put(|l| {
            l.push_str(PROOF_HEADER);
            l.push('\n');
        })?;
        writer.step(&Step::Formula(formula_ids))?;
        Ok(writer)
    }

    /// The ID the next new constraint gets.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Writes `step`; returns the ID of the constraint it adds (for `pbc ... : subproof`,
    /// the negated constraint the subproof starts from), if any.
    pub fn step(&mut self, step: &Step) -> Result<Option<u64>, WriteError> {
        let names = self.names;
        self.out.put(|l| push_step(l, step, names))?;
        let adds = match step {
            Step::Pol(_)
            | Step::Rup { .. }
            | Step::Pbc { .. }
            | Step::Red { .. }
            | Step::Qed(_) => true,
            Step::Solution { improving, .. } => *improving,
            _ => false,
        };
        Ok(adds.then(|| {
            self.next_id += 1;
            self.next_id - 1
        }))
    }

    /// Flushes the proof; the last error or stop, if any.
    pub fn finish(self) -> Result<(), WriteError> {
        self.out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::formats::lines::LineWriter;
    use crate::formats::opb::{Constraint, Lit, Relation, VarNames};

    #[test]
    fn clause_rups_and_deletions_write_as_their_steps_do() {
        // A clause's `rup` by the byte path and by the general one.
        let rup_both_ways = |names: &VarNames, lits: &[Lit], ids: &[u64]| {
            let mut fast = Vec::new();
            push_clause_rup(&mut fast, lits.iter().copied(), ids.iter().copied(), names);
            let mut general = String::new();
            let step = Step::Rup {
                constraint: Constraint {
                    terms: lits.iter().map(|&l| (1, l)).collect(),
                    relation: Relation::AtLeast,
                    rhs: 1,
                },
                hints: Some(
                    ids.iter()
                        .map(|&id| Hint::Id(ConstraintId::Absolute(id)))
                        .collect(),
                ),
            };
            push_step(&mut general, &step, names);
            (String::from_utf8(fast).unwrap(), general)
        };
        let mut names = VarNames::numbered(2);
        names.intern("e3_4");
        let (fast, general) = rup_both_ways(
            &names,
            &[Lit::new(2, true), Lit::new(0, false)],
            &[12, 7, 30],
        );
        assert_eq!(fast, "rup 1 ~e3_4 1 x1 >= 1 : 12 7 30 ;\n");
        assert_eq!(fast, general);
        // Names longer than the padded block, either sign; IDs of every length class.
        let long = names.intern("a_name_of_twenty_one");
        let lits = [
            Lit::new(long, true),
            Lit::new(long, false),
            Lit::new(2, false),
        ];
        let ids = [0, 99_999_999, 100_000_000, 123_456_789_012, u64::MAX];
        let (fast, general) = rup_both_ways(&names, &lits, &ids);
        assert_eq!(fast, general);
        let (mut fast, mut general) = (Vec::new(), String::new());
        push_delete(&mut fast, [5, 9]);
        let fast = String::from_utf8(fast).unwrap();
        let ids = vec![ConstraintId::Absolute(5), ConstraintId::Absolute(9)];
        push_step(&mut general, &Step::Delete(ids), &names);
        assert_eq!(fast, "del id 5 9 ;\n");
        assert_eq!(fast, general);
        for ids in [vec![4], vec![3, 123_456_789_012, 7]] {
            let (mut fast, mut general) = (Vec::new(), String::new());
            push_pol_sum(&mut fast, ids.iter().copied());
            let fast = String::from_utf8(fast).unwrap();
            let mut items = vec![PolItem::Id(ConstraintId::Absolute(ids[0]))];
            for &id in &ids[1..] {
                items.extend([PolItem::Id(ConstraintId::Absolute(id)), PolItem::Add]);
            }
            push_step(&mut general, &Step::Pol(items.clone()), &names);
            assert_eq!(fast, general);
            let mut fast = Vec::new();
            push_pol(&mut fast, &items, &names);
            assert_eq!(String::from_utf8(fast).unwrap(), general);
        }
    }

    #[test]
    fn the_writer_counts_ids_as_the_checker_does() {
        let names = VarNames::numbered(2);
        let mut text = Vec::new();
        let lines = LineWriter::new(&mut text, &|| false);
        let mut writer = ProofWriter::new(lines, &names, 3).unwrap();
        let clause = Constraint {
            terms: vec![(1, Lit::new(0, false))],
            relation: Relation::AtLeast,
            rhs: 1,
        };
        let pbc = Step::Pbc {
            constraint: clause.clone(),
            subproof: true,
        };
        assert_eq!(writer.step(&pbc).unwrap(), Some(4));
        let pol = Step::Pol(vec![PolItem::Id(ConstraintId::Absolute(1))]);
        assert_eq!(writer.step(&pol).unwrap(), Some(5));
        assert_eq!(writer.step(&Step::Qed(None)).unwrap(), Some(6));
        let red = Step::Red {
            constraint: clause.clone(),
            witness: vec![(0, WitnessValue::Constant(true))],
        };
        assert_eq!(writer.step(&red).unwrap(), Some(7));
        assert_eq!(writer.step(&Step::OutputNone).unwrap(), None);
        assert_eq!(writer.next_id(), 8);
        writer.finish().unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.starts_with("pseudo-Boolean proof version 3.0\nf 3 ;\npbc 1 x1 >= 1 : subproof\n")
        );
        assert!(text.contains("\nred 1 x1 >= 1 : x1 -> 1 ;\n"), "{text}");
    }
}
