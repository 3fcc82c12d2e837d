//! Evaluation of a `pol` step's reverse Polish expression.
//!
//! Constraints the expression names are read where they are stored, not copied, and the
//! first sum it forms is kept in a [`Sum`], so a long chain of additions (a clique's
//! at-most-one from its pairs) costs its terms once. A second sum formed while the first
//! is still on the stack is brought to normal form at once, as is an operation on
//! anything but the sum.

use super::constraint::{Normalizer, Overflow, PbConstraint};
use super::sum::Sum;
use super::Refusal;
use crate::formats::veripb::{ConstraintId, PolItem};

/// One entry of the expression's stack.
enum Operand<'a> {
    /// A constraint of the database, by reference.
    Stored(&'a PbConstraint),
    /// A constraint built by the expression.
    Built(PbConstraint),
    /// The running sum.
    Sum,
}

impl Operand<'_> {
    /// The constraint, for an operand that is not the running sum.
    fn constraint(&self) -> &PbConstraint {
        match self {
            Operand::Stored(c) => c,
            Operand::Built(c) => c,
            Operand::Sum => unreachable!("the running sum is handled by its owner"),
        }
    }
}

/// The constraint `items` derive; `lookup` resolves a constraint ID. `sum` is empty on
/// return, whatever the outcome.
pub(super) fn evaluate<'a>(
    items: &[PolItem],
    lookup: impl Fn(ConstraintId) -> Result<&'a PbConstraint, Refusal>,
    normalizer: &mut Normalizer,
    sum: &mut Sum,
) -> Result<PbConstraint, Refusal> {
    let derived = run(items, lookup, normalizer, sum);
    if derived.is_err() {
        sum.clear();
    }
    derived
}

fn run<'a>(
    items: &[PolItem],
    lookup: impl Fn(ConstraintId) -> Result<&'a PbConstraint, Refusal>,
    normalizer: &mut Normalizer,
    sum: &mut Sum,
) -> Result<PbConstraint, Refusal> {
    let mut stack: Vec<Operand<'a>> = Vec::new();
    // Whether the running sum is on the stack (once there, it stays to the end).
    let mut summing = false;
    let pop =
        |stack: &mut Vec<Operand<'a>>| stack.pop().ok_or_else(|| Refusal::from("stack underflow"));
    for item in items {
        let next = match *item {
            PolItem::Id(id) => Operand::Stored(lookup(id)?),
            PolItem::Axiom(lit) => Operand::Built(PbConstraint::axiom(lit)),
            PolItem::Add => {
                let b = pop(&mut stack)?;
                let a = pop(&mut stack)?;
                match (a, b) {
                    (Operand::Sum, other) | (other, Operand::Sum) => {
                        sum.add(other.constraint())?;
                        Operand::Sum
                    }
                    (a, b) if !summing => {
                        sum.start(a.constraint())?;
                        sum.add(b.constraint())?;
                        summing = true;
                        Operand::Sum
                    }
                    (a, b) => Operand::Built(normalizer.add(a.constraint(), b.constraint())?),
                }
            }
            PolItem::Multiply(k) => {
                unary(pop(&mut stack)?, sum, |s| s.multiply(k), |c| c.multiply(k))?
            }
            PolItem::Divide(k) => unary(pop(&mut stack)?, sum, |s| s.divide(k), |c| c.divide(k))?,
            PolItem::Saturate => {
                unary(pop(&mut stack)?, sum, Sum::saturate, PbConstraint::saturate)?
            }
            PolItem::Weaken(var) => {
                unary(pop(&mut stack)?, sum, |s| s.weaken(var), |c| c.weaken(var))?
            }
            PolItem::Decrement(k) => unary(
                pop(&mut stack)?,
                sum,
                |s| s.decrement(k),
                |c| c.decrement(k),
            )?,
        };
        stack.push(next);
    }
    match (stack.pop(), stack.is_empty()) {
        (Some(Operand::Sum), true) => Ok(sum.finish()?),
        (Some(Operand::Stored(c)), true) => Ok(c.clone()),
        (Some(Operand::Built(c)), true) => Ok(c),
        _ => Err("the stack must end with one constraint".into()),
    }
}

/// An operation on one operand: in place on the running sum, or on a constraint.
fn unary<'a>(
    operand: Operand<'a>,
    sum: &mut Sum,
    on_sum: impl FnOnce(&mut Sum) -> Result<(), Overflow>,
    on_constraint: impl FnOnce(&PbConstraint) -> Result<PbConstraint, Overflow>,
) -> Result<Operand<'a>, Overflow> {
    match operand {
        Operand::Sum => {
            on_sum(sum)?;
            Ok(Operand::Sum)
        }
        c => Ok(Operand::Built(on_constraint(c.constraint())?)),
    }
}
