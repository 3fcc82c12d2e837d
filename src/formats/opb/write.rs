//! The writer of OPB files, line by line: the header with its comments, the objective and
//! the constraints, each term `coefficient name` with the coefficient's sign written or
//! not ([`Coefficients`]) and the variables named by a table or by number ([`Naming`]).

use std::fmt::Write as _;
use std::io::Write;

use super::{Constraint, Lit, Objective, OpbFile, Relation, VarNames, PADDED};
use crate::formats::digits::{push_int, push_uint_bytes};
use crate::formats::dimacs::push_comments;
use crate::formats::lines::{LineWriter, WriteError};

/// How a file names its variables when it writes them.
pub trait Naming {
    /// Appends the name of variable `var`.
    fn push_name(&self, out: &mut Vec<u8>, var: u32);

    /// Appends the term `1 lit ` (`1 ~name ` or `1 name `).
    fn push_unit_term(&self, out: &mut Vec<u8>, lit: Lit) {
        out.extend_from_slice(if lit.is_negated() { b"1 ~" } else { b"1 " });
        self.push_name(out, lit.var());
        out.push(b' ');
    }
}

/// The variables `x1`, `x2`, ... by index (variable `i` is `x{i+1}`): the names of the PB
/// Competition's files, which `emit` writes without a table of names.
#[derive(Copy, Clone, Debug, Default)]
pub struct Numbered;

impl Naming for Numbered {
    fn push_name(&self, out: &mut Vec<u8>, var: u32) {
        out.push(b'x');
        push_uint_bytes(out, u64::from(var) + 1);
    }
}

impl Naming for VarNames {
    #[inline]
    fn push_name(&self, out: &mut Vec<u8>, var: u32) {
        self.push_name_bytes(out, var);
    }

    #[inline]
    fn push_unit_term(&self, out: &mut Vec<u8>, lit: Lit) {
        self.push_unit_term_bytes(out, lit);
    }
}

/// How coefficients are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Coefficients {
    /// Every coefficient with its sign, `+1 x1 -2 x2`, as PB Competition solvers expect
    /// (what `emit` writes).
    Signed,
    /// A sign only on negative coefficients, `1 x1 -2 x2` (VeriPB's proofs and the files
    /// they refer to).
    Plain,
}

impl VarNames {
    /// Appends the name of `var` as bytes.
    #[inline]
    pub fn push_name_bytes(&self, out: &mut Vec<u8>, var: u32) {
        let name = &self.names[var as usize];
        if name.len() <= PADDED {
            let len = out.len();
            out.extend_from_slice(&self.padded[var as usize]);
            out.truncate(len + name.len());
        } else {
            out.extend_from_slice(name.as_bytes());
        }
    }

    /// Appends the clause term `1 lit ` (`1 ~name ` or `1 name `) as bytes: one reserve and
    /// block copies, as a `rup` of a proof-writing search names millions of them.
    #[inline]
    pub(in crate::formats) fn push_unit_term_bytes(&self, out: &mut Vec<u8>, lit: Lit) {
        let var = lit.var() as usize;
        let length = usize::from(self.short_lengths[var]);
        let block = self.padded[var];
        if length > PADDED {
            out.extend_from_slice(if lit.is_negated() { b"1 ~" } else { b"1 " });
            out.extend_from_slice(self.names[var].as_bytes());
            out.push(b' ');
            return;
        }
        // "1 ~", the name, ' ': at most 3 + PADDED + 1 bytes; the padded block is copied
        // whole (its zeros past the name are overwritten or left past the end).
        out.reserve(4 + PADDED);
        let len = out.len();
        let at = 2 + usize::from(lit.is_negated());
        // SAFETY: the capacity holds `len + 4 + PADDED` bytes, and every write ends at or
        // before `len + at + PADDED <= len + 3 + PADDED`; the bytes up to the new length
        // (`len + at + length + 1`) are all written: the prefix, the name, the space.
        unsafe {
            let end = out.as_mut_ptr().add(len);
            end.cast::<[u8; 3]>().write_unaligned(*b"1 ~");
            end.add(at).cast::<[u8; PADDED]>().write_unaligned(block);
            end.add(at + length).write(b' ');
            out.set_len(len + at + length + 1);
        }
    }

    /// Appends `lit` as `name` or `~name`.
    pub(in crate::formats) fn push_literal(&self, out: &mut String, lit: Lit) {
        if lit.is_negated() {
            out.push('~');
        }
        out.push_str(self.name(lit.var()));
    }
}

/// Appends `terms`, each followed by a space.
#[inline]
fn push_terms<N: Naming>(
    out: &mut String,
    terms: &[(i64, Lit)],
    names: &N,
    coefficients: Coefficients,
) {
    // SAFETY: only ASCII and whole names (UTF-8) are appended.
    let out = unsafe { out.as_mut_vec() };
    for &(coefficient, lit) in terms {
        match coefficients {
            // Definitions and at-most-ones are mostly sums of literals: `1 lit ` in one go.
            Coefficients::Plain if coefficient == 1 => {
                names.push_unit_term(out, lit);
                continue;
            }
            Coefficients::Signed if coefficient >= 0 => out.push(b'+'),
            _ => {}
        }
        if coefficient < 0 {
            out.push(b'-');
        }
        push_uint_bytes(out, coefficient.unsigned_abs());
        out.push(b' ');
        if lit.is_negated() {
            out.push(b'~');
        }
        names.push_name(out, lit.var());
        out.push(b' ');
    }
}

/// Appends `constraint`'s terms, relation and right-hand side (without the `;`).
fn push_relation_and_rhs(out: &mut String, constraint: &Constraint) {
    let relation = match constraint.relation {
        Relation::AtLeast => ">=",
        Relation::AtMost => "<=",
        Relation::Equal => "=",
    };
    out.push_str(relation);
    out.push(' ');
    push_int(out, constraint.rhs);
}

/// Appends `constraint` as a proof or its OPB file writes it (without the `;`).
pub fn push_constraint(out: &mut String, constraint: &Constraint, names: &VarNames) {
    push_terms(out, &constraint.terms, names, Coefficients::Plain);
    push_relation_and_rhs(out, constraint);
}

/// Writes an OPB file in order: [`OpbWriter::head`], the objective, then the constraints.
pub struct OpbWriter<'a, N: Naming> {
    lines: LineWriter<'a>,
    names: &'a N,
    coefficients: Coefficients,
}

impl<'a, N: Naming> OpbWriter<'a, N> {
    /// A writer into `out` naming variables by `names`; `should_stop` says when to give up
    /// (see [`LineWriter`]).
    pub fn new(
        out: &'a mut dyn Write,
        should_stop: &'a dyn Fn() -> bool,
        names: &'a N,
        coefficients: Coefficients,
    ) -> OpbWriter<'a, N> {
        OpbWriter {
            lines: LineWriter::new(out, should_stop),
            names,
            coefficients,
        }
    }

    /// The header line, the `*` comment lines, then one `* var N name` line per entry of
    /// `listed` (what the variables stand for, by number).
    pub fn head(
        &mut self,
        num_vars: usize,
        num_constraints: usize,
        comments: &[String],
        listed: &[String],
    ) {
        self.lines.emit(|line| {
            let _ = writeln!(
                line,
                "* #variable= {num_vars} #constraint= {num_constraints}"
            );
            push_comments(line, "*", comments, listed);
        });
    }

    /// The `min:` line; its constant is written when it is not 0, or when there are no
    /// terms.
    pub fn objective(&mut self, objective: &Objective) {
        let (names, coefficients) = (self.names, self.coefficients);
        self.lines.emit(|line| {
            line.push_str("min: ");
            push_terms(line, &objective.terms, names, coefficients);
            if objective.constant != 0 || objective.terms.is_empty() {
                push_int(line, objective.constant);
                line.push(' ');
            }
            line.push_str(";\n");
        });
    }

    /// One constraint's line.
    pub fn constraint(&mut self, constraint: &Constraint) {
        let (names, coefficients) = (self.names, self.coefficients);
        self.lines.emit(|line| {
            push_terms(line, &constraint.terms, names, coefficients);
            push_relation_and_rhs(line, constraint);
            line.push_str(" ;\n");
        });
    }

    /// The result: an error, a stop, or done and flushed.
    pub fn finish(self) -> Result<(), WriteError> {
        self.lines.finish()
    }
}

/// Writes `file` whole, as VeriPB's proofs refer to it: the header (no comments), the
/// objective and the constraints, with [`Coefficients::Plain`] and the file's names.
pub fn write_opb(
    file: &OpbFile,
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(), WriteError> {
    let mut writer = OpbWriter::new(out, should_stop, &file.names, Coefficients::Plain);
    writer.head(
        file.declared_variables.max(file.names.len()),
        file.constraints.len(),
        &[],
        &[],
    );
    if let Some(objective) = &file.objective {
        writer.objective(objective);
    }
    for constraint in &file.constraints {
        writer.constraint(constraint);
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::push_terms;

    /// A file of `emit`'s kind: numbered variables, signed coefficients, `* var` names.
    fn emitted(file: &OpbFile, comments: &[String], listed: &[String]) -> String {
        let mut out = Vec::new();
        let never = || false;
        let mut writer = OpbWriter::new(&mut out, &never, &Numbered, Coefficients::Signed);
        writer.head(
            file.declared_variables,
            file.constraints.len(),
            comments,
            listed,
        );
        if let Some(objective) = &file.objective {
            writer.objective(objective);
        }
        for constraint in &file.constraints {
            writer.constraint(constraint);
        }
        writer.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    fn x(i: u32) -> Lit {
        Lit::new(i, false)
    }

    #[test]
    fn signed_and_numbered_files_read_back_as_written() {
        let file = OpbFile {
            declared_variables: 2,
            names: VarNames::numbered(2),
            objective: Some(Objective {
                terms: vec![(-1, x(0)), (1, x(1))],
                constant: 0,
            }),
            constraints: vec![
                Constraint {
                    terms: vec![(1, x(0)), (-1, x(1))],
                    relation: Relation::AtLeast,
                    rhs: 0,
                },
                Constraint {
                    terms: vec![(1, x(0)), (1, x(1))],
                    relation: Relation::Equal,
                    rhs: 1,
                },
            ],
        };
        let text = emitted(&file, &["a comment".into()], &["a".into(), "b".into()]);
        assert_eq!(
            text,
            "* #variable= 2 #constraint= 2\n* a comment\n* var 1 a\n* var 2 b\n\
             min: -1 x1 +1 x2 ;\n+1 x1 -1 x2 >= 0 ;\n+1 x1 +1 x2 = 1 ;\n"
        );
        let read = read_opb(text.as_bytes()).unwrap();
        assert_eq!(read.declared_variables, 2);
        assert_eq!(read.objective, file.objective);
        assert_eq!(read.constraints, file.constraints);
        assert_eq!(file.evaluate(&[true, false]), Some(-1));
        assert_eq!(file.evaluate(&[true, true]), None);
        // The same file as VeriPB writes it: signs only where negative, names from the
        // table.
        let mut plain = Vec::new();
        write_opb(&file, &mut plain, &|| false).unwrap();
        assert_eq!(
            String::from_utf8(plain).unwrap(),
            "* #variable= 2 #constraint= 2\nmin: -1 x1 1 x2 ;\n1 x1 -1 x2 >= 0 ;\n1 x1 1 x2 = 1 ;\n"
        );
    }

    #[test]
    fn numbered_names_and_signed_coefficients_print_as_format_does() {
        let terms: Vec<(i64, Lit)> = [0, 1, -1, 7, -12, i64::MAX, i64::MIN]
            .into_iter()
            .zip([0, 8, 9, 99, 12_345_678, 4_000_000_000, 5])
            .map(|(c, v)| (c, x(v)))
            .collect();
        let mut line = String::new();
        push_terms(&mut line, &terms, &Numbered, Coefficients::Signed);
        let expected: String = terms
            .iter()
            .map(|&(c, lit)| format!("{c:+} x{} ", u64::from(lit.var()) + 1))
            .collect();
        assert_eq!(line, expected);
    }
}
