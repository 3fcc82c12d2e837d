//! The reader of the part of VeriPB's grammar that puzzlec's proofs use, over the tokens
//! and constraints of OPB files ([`crate::formats::opb`]): the proof lines `f`, `pol`,
//! `rup` (with or without hints), `pbc` (with a subproof ended
//! by `qed`), `red` (with a witness, without a subproof), `sol`, `soli`, `del id`,
//! `del range`, `output NONE`, `conclusion` and `end pseudo-Boolean proof`. Anything else is
//! refused by name, with its line, so a proof never passes because a line was skipped.
//! Proofs are read step by step ([`ProofReader`]), never held whole.

use std::io::BufRead;

use super::{Conclusion, ConstraintId, Hint, PolItem, Step, WitnessValue, PROOF_HEADER};
use crate::formats::opb::tokens::{describe, Reader, Token, Tokens};
use crate::formats::opb::{error, Lit, PbSyntaxError, Relation, VarNames};

/// Reads a proof step by step; the variable names grow as the proof names new ones.
pub struct ProofReader<R> {
    reader: Reader<R>,
    /// Whether `end pseudo-Boolean proof` has been read.
    ended: bool,
}

impl<R: BufRead> ProofReader<R> {
    /// A reader of the proof in `input`, whose first line must be [`PROOF_HEADER`]; `names`
    /// are the formula's.
    pub fn new(input: R, names: VarNames) -> Result<ProofReader<R>, PbSyntaxError> {
        let mut input = input;
        let mut header = String::new();
        if let Err(e) = input.read_line(&mut header) {
            return error(1, format!("cannot read: {e}"));
        }
        if header.trim_end() != PROOF_HEADER {
            return error(1, format!("expected the header `{PROOF_HEADER}`"));
        }
        let mut tokens = Tokens::new(input, b'%', false);
        tokens.line = 1;
        Ok(ProofReader {
            reader: Reader {
                tokens,
                names,
                peeked: None,
            },
            ended: false,
        })
    }

    /// The variable names seen so far.
    pub fn names(&self) -> &VarNames {
        &self.reader.names
    }

    /// The next step and the line it starts on, or `None` after `end pseudo-Boolean proof`
    /// or at the end of the input.
    pub fn next_step(&mut self) -> Result<Option<(usize, Step)>, PbSyntaxError> {
        if self.ended {
            return Ok(None);
        }
        let r = &mut self.reader;
        let Some(first) = r.next()? else {
            return Ok(None);
        };
        let line = r.line();
        let word = match first {
            Token::Word(word) => word,
            Token::Literal(lit) => r.names.name(lit.var()).to_string().into(),
            other => return r.fail(format!("expected a rule, found {}", describe(&other))),
        };
        let step = match word.as_ref() {
            "f" => match r.expect_next("a constraint count")? {
                Token::Integer(n) if n >= 0 => Step::Formula(n as u64),
                other => {
                    return r.fail(format!(
                        "expected the formula's constraint count, found {}",
                        describe(&other)
                    ))
                }
            },
            "pol" => Step::Pol(self.pol()?),
            "rup" => {
                let r = &mut self.reader;
                let constraint = r.constraint()?;
                if constraint.relation == Relation::Equal {
                    return r.fail("`rup` takes `>=` or `<=`, not `=`");
                }
                let hints = if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    let mut hints = Vec::new();
                    loop {
                        match r.peek()? {
                            Some(&Token::Integer(n)) => {
                                let id = r.constraint_id(n)?;
                                hints.push(Hint::Id(id));
                            }
                            Some(Token::Word(w)) if w == "~" => hints.push(Hint::Negation),
                            _ => break,
                        }
                        r.peeked = None;
                    }
                    Some(hints)
                } else {
                    None
                };
                Step::Rup { constraint, hints }
            }
            "pbc" => {
                let r = &mut self.reader;
                let constraint = r.constraint()?;
                if constraint.relation == Relation::Equal {
                    return r.fail("`pbc` takes `>=` or `<=`, not `=`");
                }
                if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    r.expect_word("subproof")?;
                    return Ok(Some((
                        line,
                        Step::Pbc {
                            constraint,
                            subproof: true,
                        },
                    )));
                }
                Step::Pbc {
                    constraint,
                    subproof: false,
                }
            }
            "red" => self.red()?,
            "qed" => {
                let r = &mut self.reader;
                match r.peek()? {
                    Some(Token::Word(w)) if w == "pbc" => r.peeked = None,
                    Some(Token::Word(_) | Token::Literal(_)) => {
                        return r.fail("only `pbc` subproofs are read");
                    }
                    _ => {}
                }
                let hint = if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    match r.expect_next("a constraint ID")? {
                        Token::Integer(n) => Some(r.constraint_id(n)?),
                        other => {
                            return r.fail(format!(
                                "expected a constraint ID, found {}",
                                describe(&other)
                            ))
                        }
                    }
                } else {
                    None
                };
                Step::Qed(hint)
            }
            "sol" | "soli" => {
                let r = &mut self.reader;
                let literals = r.literals()?;
                let value = if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    match r.expect_next("an objective value")? {
                        Token::Integer(n) => Some(n),
                        other => {
                            return r.fail(format!(
                                "expected an objective value, found {}",
                                describe(&other)
                            ))
                        }
                    }
                } else {
                    None
                };
                Step::Solution {
                    literals,
                    improving: word == "soli",
                    value,
                }
            }
            "del" => {
                let r = &mut self.reader;
                match r.expect_next("`id` or `range`")? {
                    Token::Word(w) if w == "id" => {
                        let mut ids = Vec::new();
                        while let Some(Token::Integer(n)) = r.peek()? {
                            let n = *n;
                            r.peeked = None;
                            ids.push(r.constraint_id(n)?);
                        }
                        Step::Delete(ids)
                    }
                    Token::Word(w) if w == "range" => {
                        let mut ends = [ConstraintId::Absolute(1); 2];
                        for end in &mut ends {
                            match r.expect_next("a constraint ID")? {
                                Token::Integer(n) => *end = r.constraint_id(n)?,
                                other => {
                                    return r.fail(format!(
                                        "expected a constraint ID, found {}",
                                        describe(&other)
                                    ))
                                }
                            }
                        }
                        Step::DeleteRange(ends[0], ends[1])
                    }
                    other => {
                        return r.fail(format!(
                            "only `del id` and `del range` are read, not `del {}`",
                            describe(&other).trim_matches('`')
                        ))
                    }
                }
            }
            "output" => {
                self.reader.expect_word("NONE")?;
                Step::OutputNone
            }
            "conclusion" => Step::Conclusion(self.conclusion()?),
            "end" => {
                let r = &mut self.reader;
                r.expect_word("pseudo-Boolean")?;
                r.expect_word("proof")?;
                r.expect(Token::Semicolon, "`;`")?;
                self.ended = true;
                return Ok(Some((line, Step::End)));
            }
            other if other.starts_with('@') => {
                return self.reader.fail("constraint labels (`@name`) are not read")
            }
            other => {
                return self
                    .reader
                    .fail(format!("unknown or unsupported rule `{other}`"))
            }
        };
        self.reader
            .expect(Token::Semicolon, "`;` to end the step")?;
        Ok(Some((line, step)))
    }

    fn pol(&mut self) -> Result<Vec<PolItem>, PbSyntaxError> {
        let r = &mut self.reader;
        let mut items = Vec::new();
        // An integer or literal waits for the next token: before `*`, `d` or `-` an integer
        // is a factor, before `w` a literal is the variable weakened, else an operand.
        let mut pending: Option<Token> = None;
        let mut depth: i64 = 0;
        loop {
            let token = match r.peek()? {
                Some(Token::Semicolon) | None => break,
                Some(_) => r.next()?.unwrap_or(Token::Semicolon),
            };
            let op = match token {
                Token::Integer(_) | Token::Literal(_) => {
                    if let Some(previous) = pending.replace(token) {
                        items.push(operand(r, previous)?);
                        depth += 1;
                    }
                    continue;
                }
                Token::Word(op) => op,
                other => {
                    return r.fail(format!("unexpected {} in `pol`", describe(&other)));
                }
            };
            let item = match (op.as_ref(), pending.take()) {
                ("*" | "d" | "-", Some(Token::Integer(n))) => {
                    let n = r.positive(n, &format!("the operand of `{op}`"))?;
                    match op.as_ref() {
                        "*" => PolItem::Multiply(n),
                        "d" => PolItem::Divide(n),
                        _ => PolItem::Decrement(n),
                    }
                }
                ("w", Some(Token::Literal(lit))) if !lit.is_negated() => PolItem::Weaken(lit.var()),
                ("*" | "d" | "-" | "w", _) => {
                    return r.fail(format!(
                        "`{op}` needs a number (a variable for `w`) right before it"
                    ))
                }
                (_, previous) => {
                    if let Some(previous) = previous {
                        items.push(operand(r, previous)?);
                        depth += 1;
                    }
                    let (item, needs) = match op.as_ref() {
                        "+" => (PolItem::Add, 2),
                        "s" => (PolItem::Saturate, 1),
                        _ => {
                            return r.fail(format!("unknown or unsupported `pol` operation `{op}`"))
                        }
                    };
                    if depth < needs {
                        return r.fail(format!("`{op}` without enough operands"));
                    }
                    depth -= needs - 1;
                    items.push(item);
                    continue;
                }
            };
            if depth < 1 {
                return r.fail(format!("`{op}` without a constraint to apply it to"));
            }
            items.push(item);
        }
        if let Some(previous) = pending {
            items.push(operand(r, previous)?);
            depth += 1;
        }
        if depth != 1 {
            return r.fail("`pol` must leave exactly one constraint on its stack");
        }
        Ok(items)
    }

    /// `red C : witness`, up to the `;`; a subproof (`: subproof`) is refused.
    fn red(&mut self) -> Result<Step, PbSyntaxError> {
        let r = &mut self.reader;
        let constraint = r.constraint()?;
        if constraint.relation == Relation::Equal {
            return r.fail("`red` takes `>=` or `<=`, not `=`");
        }
        r.expect(Token::Colon, "`:` and a witness after `red`'s constraint")?;
        let mut witness: Vec<(u32, WitnessValue)> = Vec::new();
        loop {
            let var = match r.peek()? {
                Some(Token::Semicolon) => break,
                Some(Token::Colon) => {
                    return r.fail("`red` with a subproof is not read: give the witness alone")
                }
                Some(&Token::Literal(lit)) if !lit.is_negated() => lit.var(),
                Some(other) => {
                    let found = describe(other);
                    return r.fail(format!(
                        "expected a variable of `red`'s witness, found {found}"
                    ));
                }
                None => return r.fail("the file ends inside `red`'s witness"),
            };
            r.peeked = None;
            if witness.iter().any(|&(v, _)| v == var) {
                let name = r.names.name(var).to_string();
                return r.fail(format!("`red`'s witness maps {name} twice"));
            }
            let mut value = r.expect_next("what the witness maps a variable to")?;
            if value == Token::Word("->".into()) {
                value = r.expect_next("what the witness maps a variable to")?;
            }
            let value = match value {
                Token::Integer(0) => WitnessValue::Constant(false),
                Token::Integer(1) => WitnessValue::Constant(true),
                Token::Literal(lit) => WitnessValue::Literal(lit),
                other => {
                    return r.fail(format!(
                        "a witness maps a variable to `0`, `1` or a literal, not {}",
                        describe(&other)
                    ))
                }
            };
            witness.push((var, value));
        }
        Ok(Step::Red {
            constraint,
            witness,
        })
    }

    fn conclusion(&mut self) -> Result<Conclusion, PbSyntaxError> {
        let r = &mut self.reader;
        let kind = match r.expect_next("a conclusion")? {
            Token::Word(w) => w,
            other => return r.fail(format!("expected a conclusion, found {}", describe(&other))),
        };
        let hint_id = |r: &mut Reader<R>| -> Result<Option<ConstraintId>, PbSyntaxError> {
            if r.peek()? != Some(&Token::Colon) {
                return Ok(None);
            }
            r.peeked = None;
            match r.expect_next("a constraint ID")? {
                Token::Integer(n) => Ok(Some(r.constraint_id(n)?)),
                other => r.fail(format!(
                    "expected a constraint ID, found {}",
                    describe(&other)
                )),
            }
        };
        let solution = |r: &mut Reader<R>| -> Result<Option<Vec<Lit>>, PbSyntaxError> {
            if r.peek()? != Some(&Token::Colon) {
                return Ok(None);
            }
            r.peeked = None;
            Ok(Some(r.literals()?))
        };
        let bound = |r: &mut Reader<R>| -> Result<Option<i64>, PbSyntaxError> {
            match r.expect_next("a bound")? {
                Token::Integer(n) => Ok(Some(n)),
                Token::Word(w) if w == "INF" => Ok(None),
                other => r.fail(format!(
                    "expected an integer or `INF` bound, found {}",
                    describe(&other)
                )),
            }
        };
        Ok(match kind.as_ref() {
            "NONE" => Conclusion::None,
            "SAT" => Conclusion::Sat(solution(r)?),
            "UNSAT" => Conclusion::Unsat(hint_id(r)?),
            "BOUNDS" => {
                let lower = bound(r)?;
                let lower_hint = hint_id(r)?;
                let upper = bound(r)?;
                Conclusion::Bounds {
                    lower,
                    lower_hint,
                    upper,
                    solution: solution(r)?,
                }
            }
            other => return r.fail(format!("unknown conclusion `{other}`")),
        })
    }
}

/// The parts of a proof's grammar that are not OPB's.
impl<R: BufRead> Reader<R> {
    fn constraint_id(&self, n: i64) -> Result<ConstraintId, PbSyntaxError> {
        match n {
            0 => self.fail("constraint ID 0 does not exist"),
            n if n > 0 => Ok(ConstraintId::Absolute(n as u64)),
            n => Ok(ConstraintId::Back(n.unsigned_abs())),
        }
    }

    fn positive(&self, n: i64, what: &str) -> Result<u64, PbSyntaxError> {
        if n > 0 {
            Ok(n as u64)
        } else {
            self.fail(format!("{what} must be a positive integer, not {n}"))
        }
    }
}

fn operand<R: BufRead>(r: &Reader<R>, token: Token) -> Result<PolItem, PbSyntaxError> {
    match token {
        Token::Integer(n) => Ok(PolItem::Id(r.constraint_id(n)?)),
        Token::Literal(lit) => Ok(PolItem::Axiom(lit)),
        other => r.fail(format!(
            "expected a `pol` operand, found {}",
            describe(&other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::formats::opb::{Constraint, Lit, PbSyntaxError, Relation, VarNames};

    fn read_steps(text: &str, names: VarNames) -> Result<Vec<Step>, PbSyntaxError> {
        let mut reader = ProofReader::new(text.as_bytes(), names)?;
        let mut steps = Vec::new();
        while let Some((_, step)) = reader.next_step()? {
            steps.push(step);
        }
        Ok(steps)
    }

    #[test]
    fn every_step_writes_and_reads_back_the_same() {
        let mut names = VarNames::numbered(3);
        names.intern("cell_a[1]");
        let x = |i: u32, neg: bool| Lit::new(i, neg);
        let constraint = Constraint {
            terms: vec![(1, x(0, true)), (-2, x(3, false))],
            relation: Relation::AtLeast,
            rhs: -1,
        };
        let steps = vec![
            Step::Formula(4),
            Step::Pol(vec![
                PolItem::Id(ConstraintId::Absolute(1)),
                PolItem::Id(ConstraintId::Back(2)),
                PolItem::Add,
                PolItem::Multiply(3),
                PolItem::Axiom(x(1, true)),
                PolItem::Add,
                PolItem::Divide(2),
                PolItem::Saturate,
                PolItem::Weaken(2),
                PolItem::Decrement(1),
            ]),
            Step::Rup {
                constraint: constraint.clone(),
                hints: None,
            },
            Step::Rup {
                constraint: Constraint {
                    terms: vec![],
                    relation: Relation::AtLeast,
                    rhs: 1,
                },
                hints: Some(vec![
                    Hint::Id(ConstraintId::Absolute(3)),
                    Hint::Negation,
                    Hint::Id(ConstraintId::Back(1)),
                ]),
            },
            Step::Pbc {
                constraint: constraint.clone(),
                subproof: true,
            },
            Step::Qed(Some(ConstraintId::Absolute(9))),
            Step::Qed(None),
            Step::Red {
                constraint: constraint.clone(),
                witness: vec![
                    (3, WitnessValue::Constant(false)),
                    (0, WitnessValue::Literal(x(2, true))),
                    (1, WitnessValue::Literal(x(3, false))),
                    (2, WitnessValue::Constant(true)),
                ],
            },
            Step::Red {
                constraint: constraint.clone(),
                witness: vec![],
            },
            Step::Pbc {
                constraint: Constraint {
                    relation: Relation::AtMost,
                    ..constraint
                },
                subproof: false,
            },
            Step::Solution {
                literals: vec![x(0, false), x(1, true)],
                improving: false,
                value: None,
            },
            Step::Solution {
                literals: vec![x(2, false)],
                improving: true,
                value: Some(-3),
            },
            Step::Delete(vec![ConstraintId::Absolute(5), ConstraintId::Back(1)]),
            Step::DeleteRange(ConstraintId::Absolute(2), ConstraintId::Absolute(4)),
            Step::OutputNone,
            Step::Conclusion(Conclusion::Bounds {
                lower: Some(-4),
                lower_hint: Some(ConstraintId::Absolute(17)),
                upper: Some(-4),
                solution: Some(vec![x(0, true), x(3, false)]),
            }),
            Step::Conclusion(Conclusion::Bounds {
                lower: None,
                lower_hint: None,
                upper: None,
                solution: None,
            }),
            Step::Conclusion(Conclusion::Unsat(Some(ConstraintId::Back(1)))),
            Step::Conclusion(Conclusion::Sat(None)),
            Step::Conclusion(Conclusion::None),
        ];
        let mut text = format!("{PROOF_HEADER}\n");
        for step in &steps {
            push_step(&mut text, step, &names);
        }
        push_step(&mut text, &Step::End, &names);
        let mut read = read_steps(&text, names).unwrap();
        assert_eq!(read.pop(), Some(Step::End));
        assert_eq!(read, steps, "{text}");
    }

    #[test]
    fn the_grammar_allows_glued_tokens_comments_and_steps_over_several_lines() {
        let text = "pseudo-Boolean proof version 3.0\n\
            % a comment\n\
            rup 1 x1 1 ~x2>=1: 1 2;pol 1\n 2 + % trailing comment\n ;\n\
            rup >= 1 ;\n\
            end pseudo-Boolean proof;\n\
            anything after the end is not read\n";
        let steps = read_steps(text, VarNames::numbered(2)).unwrap();
        assert_eq!(steps.len(), 4);
        assert!(matches!(&steps[0], Step::Rup { constraint, hints: Some(h) }
            if constraint.terms.len() == 2 && constraint.rhs == 1 && h.len() == 2));
        assert_eq!(
            steps[1],
            Step::Pol(vec![
                PolItem::Id(ConstraintId::Absolute(1)),
                PolItem::Id(ConstraintId::Absolute(2)),
                PolItem::Add
            ])
        );
    }

    #[test]
    fn red_reads_with_or_without_arrows_and_names_new_variables() {
        let text = "pseudo-Boolean proof version 3.0\n\
            red 1 ~r1 1 x1 >= 1 : r1 -> 0 ;\n\
            red 3 u1 1 ~x1 1 ~x2 1 ~x3 >= 3 : u1 -> 1 ;\n\
            red 1 a-b 1 x2 >= 1 : a-b -> ~x3 x2 x3 ;\n\
            end pseudo-Boolean proof ;\n";
        let mut reader = ProofReader::new(text.as_bytes(), VarNames::numbered(3)).unwrap();
        let mut steps = Vec::new();
        while let Some((_, step)) = reader.next_step().unwrap() {
            steps.push(step);
        }
        let names = reader.names();
        assert_eq!(names.len(), 6, "r1, u1 and a-b are new");
        let var = |name: &str| names.find(name).unwrap();
        let witness = |step: &Step| match step {
            Step::Red { witness, .. } => witness.clone(),
            other => panic!("not red: {other:?}"),
        };
        assert_eq!(
            witness(&steps[0]),
            vec![(var("r1"), WitnessValue::Constant(false))]
        );
        assert!(matches!(&steps[1], Step::Red { constraint, .. }
            if constraint.rhs == 3 && constraint.terms[0] == (3, Lit::new(var("u1"), false))));
        assert_eq!(
            witness(&steps[2]),
            vec![
                (var("a-b"), WitnessValue::Literal(Lit::new(var("x3"), true))),
                (var("x2"), WitnessValue::Literal(Lit::new(var("x3"), false))),
            ]
        );
        let mut written = String::new();
        push_step(&mut written, &steps[2], names);
        assert_eq!(written, "red 1 a-b 1 x2 >= 1 : a-b -> ~x3 x2 -> x3 ;\n");
    }

    #[test]
    fn malformed_steps_are_refused_with_their_line() {
        let bad = |body: &str| {
            let text = format!("{PROOF_HEADER}\nf 1 ;\n{body}\n");
            read_steps(&text, VarNames::numbered(2)).unwrap_err()
        };
        assert_eq!(bad("pol 1 + ;").line, 3);
        assert!(bad("pol 1 2 ;").message.contains("exactly one"));
        assert!(bad("pol 1 0 * ;").message.contains("positive"));
        assert!(bad("rup 1 x1 >= 1").message.contains("ends"));
        let subproof = bad("red 1 x1 >= 1 : x1 -> 1 : subproof");
        assert_eq!(subproof.line, 3);
        assert!(
            subproof
                .message
                .contains("`red` with a subproof is not read"),
            "{subproof}"
        );
        assert!(bad("red 1 x1 >= 1 : ~x1 -> 1 ;")
            .message
            .contains("variable"));
        assert!(bad("red 1 x1 >= 1 : x1 -> 2 ;")
            .message
            .contains("`0`, `1`"));
        assert!(bad("red 1 x1 >= 1 : x1 -> 1 x1 0 ;")
            .message
            .contains("twice"));
        assert!(bad("red 1 x1 >= 1 ;").message.contains("witness"));
        assert!(bad("red 1 x1 = 1 : x1 -> 1 ;").message.contains("not `=`"));
        assert!(bad("@l rup 1 x1 >= 1 ;").message.contains("label"));
        assert!(bad("qed red ;").message.contains("pbc"));
        assert!(bad("rup 1 x1 = 1 ;").message.contains("not `=`"));
        assert!(bad("del spec 1 x1 >= 1 ;").message.contains("del spec"));
        let no_header = read_steps("pseudo-Boolean proof version 2.0\n", VarNames::default());
        assert_eq!(no_header.unwrap_err().line, 1);
    }
}
