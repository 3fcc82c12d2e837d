//! The reader of OPB files, over the tokens that VeriPB proofs share.

use std::io::BufRead;

use super::tokens::{describe, Reader, Token, Tokens};
use super::{error, Objective, OpbFile, PbSyntaxError, VarNames};

/// Reads an OPB file: the header on the first line, then the objective and constraints
/// (a `+` before a coefficient optional, variables named freely, the header's counts
/// checked). Errors name the line.
pub fn read_opb(input: impl BufRead) -> Result<OpbFile, PbSyntaxError> {
    let mut input = input;
    let mut header = String::new();
    if let Err(e) = input.read_line(&mut header) {
        return error(1, format!("cannot read: {e}"));
    }
    let counts = parse_opb_header(&header).ok_or_else(|| PbSyntaxError {
        line: 1,
        message: "expected the header `* #variable= N #constraint= M`".into(),
    })?;
    let mut reader = Reader {
        tokens: Tokens::new(input, b'*', true),
        names: VarNames::default(),
        peeked: None,
    };
    reader.tokens.line = 1;
    let mut objective = None;
    let mut constraints = Vec::new();
    while let Some(token) = reader.peek()? {
        if *token == Token::Word("min".into()) {
            reader.peeked = None;
            if objective.is_some() || !constraints.is_empty() {
                return reader.fail("the objective must come once, before the constraints");
            }
            reader.expect(Token::Colon, "`:` after `min`")?;
            let mut terms = Vec::new();
            let mut constant = 0;
            loop {
                match reader.expect_next("the objective")? {
                    Token::Semicolon => break,
                    Token::Integer(n) => match reader.expect_next("the objective")? {
                        Token::Literal(lit) => terms.push((n, lit)),
                        Token::Semicolon => {
                            constant = n;
                            break;
                        }
                        other => {
                            return reader.fail(format!(
                                "expected a literal or `;` in the objective, found {}",
                                describe(&other)
                            ))
                        }
                    },
                    other => {
                        return reader.fail(format!(
                            "expected a term of the objective, found {}",
                            describe(&other)
                        ))
                    }
                }
            }
            objective = Some(Objective { terms, constant });
            continue;
        }
        let constraint = reader.constraint()?;
        reader.expect(Token::Semicolon, "`;` after a constraint")?;
        constraints.push(constraint);
    }
    if constraints.len() != counts.1 {
        return error(
            reader.line(),
            format!(
                "the header says {} constraints, the file has {}",
                counts.1,
                constraints.len()
            ),
        );
    }
    if reader.names.len() > counts.0 {
        return error(
            reader.line(),
            format!(
                "the header says {} variables, the file names {}",
                counts.0,
                reader.names.len()
            ),
        );
    }
    Ok(OpbFile {
        declared_variables: counts.0,
        names: reader.names,
        objective,
        constraints,
    })
}

/// (variables, constraints) of `* #variable= N #constraint= M` (more may follow).
fn parse_opb_header(line: &str) -> Option<(usize, usize)> {
    let mut words = line.split_whitespace();
    if words.next()? != "*" || words.next()? != "#variable=" {
        return None;
    }
    let variables = words.next()?.parse().ok()?;
    if words.next()? != "#constraint=" {
        return None;
    }
    let constraints = words.next()?.parse().ok()?;
    Some((variables, constraints))
}

#[cfg(test)]
mod tests {
    use super::super::*;

    const OPB: &str = "* #variable= 3 #constraint= 3\n\
        min: -1 x1 -2 x2 +3 ~x3 5 ;\n\
        * a comment\n\
        -1 x1 -1 x2 >= -1 ;\n\
        1 x1 1 ~x3 = 1 ;\n\
        2 x2 3 x3 <= 4 ;\n";

    #[test]
    fn an_opb_file_reads_and_writes_back_the_same() {
        let file = read_opb(OPB.as_bytes()).unwrap();
        assert_eq!(file.declared_variables, 3);
        assert_eq!(file.constraints.len(), 3);
        assert_eq!(file.constraint_ids(), 4);
        let objective = file.objective.as_ref().unwrap();
        assert_eq!(objective.constant, 5);
        assert_eq!(objective.terms[2], (3, Lit::new(2, true)));
        assert_eq!(file.constraints[1].relation, Relation::Equal);
        assert_eq!(file.constraints[2].relation, Relation::AtMost);
        let mut text = Vec::new();
        write_opb(&file, &mut text, &|| false).unwrap();
        let again = read_opb(text.as_slice()).unwrap();
        assert_eq!(again.objective, file.objective);
        assert_eq!(again.constraints, file.constraints);
    }

    #[test]
    fn bad_opb_files_are_refused_with_their_line() {
        let missing_header = read_opb("1 x1 >= 1 ;\n".as_bytes()).unwrap_err();
        assert_eq!(missing_header.line, 1);
        let wrong_count = "* #variable= 1 #constraint= 2\n1 x1 >= 1 ;\n";
        assert!(read_opb(wrong_count.as_bytes())
            .unwrap_err()
            .message
            .contains("2 constraints"));
        let no_literal = "* #variable= 1 #constraint= 1\n1 x1 >= 1 ;\n1 2 >= 1 ;\n";
        assert_eq!(read_opb(no_literal.as_bytes()).unwrap_err().line, 3);
        let overflow = "* #variable= 1 #constraint= 1\n99999999999999999999 x1 >= 1 ;\n";
        assert!(read_opb(overflow.as_bytes())
            .unwrap_err()
            .message
            .contains("64 bits"));
    }
}
