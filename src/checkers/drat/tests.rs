use super::*;

/// All eight 3-literal clauses over variables 1..=3.
fn all_eight() -> Vec<Vec<i32>> {
    let mut clauses = Vec::new();
    for mask in 0..8 {
        clauses.push(
            (0..3)
                .map(|i| {
                    if mask & (1 << i) != 0 {
                        -(i + 1)
                    } else {
                        i + 1
                    }
                })
                .collect(),
        );
    }
    clauses
}

/// The example formula of the DRAT-trim paper.
fn paper_formula() -> Vec<Vec<i32>> {
    vec![
        vec![1, 2, -3],
        vec![-1, -2, 3],
        vec![2, 3, -4],
        vec![-2, -3, 4],
        vec![1, 3, 4],
        vec![-1, -3, -4],
        vec![-1, 2, 4],
        vec![1, -2, -4],
    ]
}

/// Re-encodes a text proof in binary DRAT (our own writer for the tests).
fn to_binary(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut tokens = line.split_whitespace().peekable();
        match tokens.peek() {
            None => continue,
            Some(&"d") => {
                out.push(b'd');
                tokens.next();
            }
            Some(t) if t.starts_with('c') => continue,
            Some(_) => out.push(b'a'),
        }
        for t in tokens {
            let lit: i64 = t.parse().unwrap();
            if lit == 0 {
                break;
            }
            let mut code = 2 * lit.unsigned_abs() + u64::from(lit < 0);
            while code >= 0x80 {
                out.push((code as u8 & 0x7f) | 0x80);
                code >>= 7;
            }
            out.push(code as u8);
        }
        out.push(0);
    }
    out
}

fn check_text(
    num_vars: usize,
    clauses: &[Vec<i32>],
    proof: &str,
) -> Result<DratSummary, DratError> {
    check_drat(num_vars, clauses, proof.as_bytes(), ProofEncoding::Text)
}

fn message(result: Result<DratSummary, DratError>) -> String {
    result.expect_err("proof should be rejected").to_string()
}

#[test]
fn rup_only_proof() {
    let summary = check_text(3, &all_eight(), "1 2 0\n1 0\n2 0\n0\n").unwrap();
    assert_eq!(summary.lemmas, 4);
    assert_eq!(summary.core_lemmas, 3);
    assert_eq!(summary.rat_lemmas, 0);
    assert_eq!(summary.steps_checked, 3);
}

#[test]
fn unused_lemmas_are_not_checked() {
    // With (4 5) and (-4 -5) added, the unit 4 is neither RUP nor RAT, but nothing uses it.
    let mut f = all_eight();
    f.extend([vec![4, 5], vec![-4, -5]]);
    let summary = check_text(5, &f, "c comment\n4 0\n1 2 0\n1 0\n2 0\n0\n").unwrap();
    assert_eq!(summary.core_lemmas, 3);
    assert_eq!(summary.lemmas, 5);
    // Once a core lemma relies on it, it is checked and rejected.
    assert_eq!(
        message(check_text(5, &f, "4 0\n5 1 2 0\n1 2 0\n1 0\n2 0\n0\n")),
        "proof line 1: lemma 4 is neither RUP nor RAT"
    );
}

#[test]
fn rat_proof_from_the_drat_trim_paper() {
    let proof = "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n";
    let summary = check_text(4, &paper_formula(), proof).unwrap();
    assert_eq!(summary.rat_lemmas, 1);
    assert_eq!(summary.core_lemmas, 2);
    assert_eq!(summary.deletions, 3);
    assert_eq!(summary.missing_deletions, 0);
    // `2` is RAT too (pivot 2), and then `-1` is RUP.
    let summary = check_text(4, &paper_formula(), "2 0\n-1 0\n0\n").unwrap();
    assert_eq!((summary.rat_lemmas, summary.core_lemmas), (1, 2));
}

#[test]
fn extension_variable_definitions() {
    // x = 1000000 is defined as (1 AND 2) by blocked clauses, then used by RUP steps.
    let proof = "-1000000 1 0\n-1000000 2 0\n1000000 -1 -2 0\n\
                 -1000000 3 0\n-1000000 -3 0\n-1000000 0\n1 2 0\n1 0\n0\n";
    let summary = check_text(3, &all_eight(), proof).unwrap();
    // `-x 1` is RAT; `-x 2` is then RUP (x gives 1, and (-1 2 3), (-1 2 -3) conflict).
    assert_eq!(summary.rat_lemmas, 1, "{summary:?}");
    assert_eq!(summary.core_lemmas, 7, "{summary:?}");
    let binary = to_binary(proof);
    let from_binary = check_drat(3, &all_eight(), &binary, ProofEncoding::Detect).unwrap();
    assert_eq!(summary, from_binary);
}

/// Formula where 1 is a top-level unit and (2) follows only with it.
fn unit_formula() -> Vec<Vec<i32>> {
    vec![
        vec![1],
        vec![-1, 2, 3],
        vec![-1, 2, -3],
        vec![-1, -2, 3],
        vec![-1, -2, -3],
    ]
}

#[test]
fn deletion_of_a_unit_reason_is_ignored() {
    let summary = check_text(3, &unit_formula(), "d 1 0\n2 0\n0\n").unwrap();
    assert_eq!(summary.ignored_unit_deletions, 1);
    assert_eq!(summary.core_lemmas, 1);
}

#[test]
fn deletion_of_a_missing_clause_is_ignored() {
    let summary = check_text(3, &unit_formula(), "d 2 3 0\nd 1 2 0\n2 0\n0\n").unwrap();
    assert_eq!(summary.missing_deletions, 2);
}

#[test]
fn deletions_take_effect() {
    // Without `-1 2 3` the lemma 2 is neither RUP nor RAT.
    let msg = message(check_text(3, &unit_formula(), "d 3 -1 2 0\n2 0\n0\n"));
    assert_eq!(msg, "proof line 2: lemma 2 is neither RUP nor RAT");
    // A deleted lemma is re-activated for the backward check of earlier lemmas.
    let proof = "1 2 0\n1 0\nd 1 2 0\n2 0\n0\n";
    let summary = check_text(3, &all_eight(), proof).unwrap();
    assert_eq!(summary.core_lemmas, 3);
    // A duplicate that is not a reason is deleted instead of the reason copy.
    let summary = check_text(3, &unit_formula(), "1 0\nd 1 0\n2 0\n0\n").unwrap();
    assert_eq!(summary.ignored_unit_deletions, 0);
}

#[test]
fn text_and_binary_encodings_agree() {
    let proof = "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n";
    let text = check_drat(4, &paper_formula(), proof.as_bytes(), ProofEncoding::Detect).unwrap();
    let binary = to_binary(proof);
    assert_eq!(ProofEncoding::detect(&binary), ProofEncoding::Binary);
    assert_eq!(ProofEncoding::detect(proof.as_bytes()), ProofEncoding::Text);
    let from_binary = check_drat(4, &paper_formula(), &binary, ProofEncoding::Binary).unwrap();
    assert_eq!(text, from_binary);
    // Multi-byte literals.
    let proof = "-1000000 1 0\n-1000000 2 0\n1 2 0\n1 0\n2 0\n0\n";
    let binary = to_binary(proof);
    assert_eq!(
        check_text(3, &all_eight(), proof).unwrap(),
        check_drat(3, &all_eight(), &binary, ProofEncoding::Binary).unwrap()
    );
}

#[test]
fn detection_rule() {
    assert_eq!(ProofEncoding::detect(b""), ProofEncoding::Text);
    assert_eq!(ProofEncoding::detect(b"d 1 2 0\n"), ProofEncoding::Text);
    assert_eq!(ProofEncoding::detect(b"c x\n-1 0\n"), ProofEncoding::Text);
    assert_eq!(ProofEncoding::detect(b"a\x02\x00"), ProofEncoding::Binary);
    assert_eq!(
        ProofEncoding::detect(b"d\x02\x05\x00"),
        ProofEncoding::Binary
    );
    // A printable first deletion: misdetected as text, as with drat-trim.
    assert_eq!(
        ProofEncoding::detect(b"d ()*+,-./01\x00"),
        ProofEncoding::Text
    );
}

#[test]
fn empty_clause_rules() {
    let f = all_eight();
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n")),
        "the proof derives no empty clause: it has none, and unit propagation on the formula \
         and all lemmas finds no conflict"
    );
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n1 0\n2 0\n")),
        "the proof derives no empty clause: unit propagation refutes the active clauses after \
         proof line 3, but no explicit empty clause (a line `0`) follows"
    );
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n0\n1 0\n2 0\n0\n")),
        "proof line 2: the empty clause is not implied: unit propagation on the active clauses \
         finds no conflict"
    );
    // Lemmas after the refutation point are not checked; the `0` may come later.
    let summary = check_text(3, &f, "1 2 0\n1 0\n2 0\n3 -4 0\nd 1 0\n0\n").unwrap();
    assert_eq!(summary.steps_checked, 3);
    // A formula refuted by unit propagation alone still needs the explicit `0`.
    let refuted = vec![vec![1], vec![-1, 2], vec![-2]];
    assert_eq!(
        message(check_text(2, &refuted, "")),
        "the proof derives no empty clause: unit propagation refutes the formula itself, but \
         no explicit empty clause (a line `0`) follows"
    );
    let summary = check_text(2, &refuted, "0\n").unwrap();
    assert_eq!(
        (summary.lemmas, summary.core_lemmas, summary.steps_checked),
        (1, 0, 0)
    );
    // A formula with the empty clause needs only the explicit empty clause.
    assert!(check_text(2, &[vec![1], vec![]], "0\n").is_ok());
    assert!(check_drat(2, &[vec![]], b"a\x00", ProofEncoding::Binary).is_ok());
    assert_eq!(
        message(check_text(2, &[vec![1], vec![]], "")),
        "the proof derives no empty clause: unit propagation refutes the formula itself, but \
         no explicit empty clause (a line `0`) follows"
    );
}

#[test]
fn rejects_non_implied_lemmas() {
    let f = vec![vec![-1], vec![-2], vec![3, 4]];
    assert_eq!(
        message(check_text(4, &f, "1 2 0\n0\n")),
        "proof line 1: lemma 1 2 is neither RUP nor RAT"
    );
    let binary = to_binary("3 0\n1 2 0\n0\n");
    assert_eq!(
        message(check_drat(4, &f, &binary, ProofEncoding::Binary)),
        "proof byte offset 3: lemma 1 2 is neither RUP nor RAT"
    );
}

#[test]
fn rejects_malformed_text() {
    let f = all_eight();
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n1 0\n2 0\n0\n1")),
        "proof line 5: the proof ends inside this step (terminating 0 missing)"
    );
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n1\n 2\n")),
        "proof line 2: the proof ends inside this step (terminating 0 missing)"
    );
    assert_eq!(
        message(check_text(3, &f, "1 2 0\nx 1 0\n")),
        "proof line 2: unexpected token `x`"
    );
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n1 d 0\n")),
        "proof line 2: unexpected token `d`"
    );
    assert_eq!(
        message(check_text(3, &f, "1 2 0\n1 2c 0\n")),
        "proof line 2: unexpected token `2c`"
    );
    assert_eq!(
        message(check_text(3, &f, "1 -2147483648 0\n")),
        "proof line 1: literal -2147483648 is out of range"
    );
    assert_eq!(
        message(check_text(3, &f, "\n\n99999999999999999999999 0\n")),
        "proof line 3: literal 9223372036854775807 is out of range"
    );
}

#[test]
fn rejects_malformed_binary() {
    let f = all_eight();
    let check = |bytes: &[u8]| message(check_drat(3, &f, bytes, ProofEncoding::Binary));
    assert_eq!(
        check(b"a\x02\x00a\xff\xff\xff\xff\x7f\x00"),
        "proof byte offset 4: literal encoding 34359738367 is out of range"
    );
    assert_eq!(
        check(b"a\x80\x80\x80\x80\x80\x01\x00"),
        "proof byte offset 1: literal encoding longer than 5 bytes is out of range"
    );
    assert_eq!(
        check(b"a\x02\x01\x00"),
        "proof byte offset 2: literal encoding 1 names variable 0"
    );
    assert_eq!(
        check(b"a\x02\x00a\x02"),
        "proof byte offset 3: the proof ends inside this step (terminating 0 missing)"
    );
    assert_eq!(
        check(b"a\x02\x00d\x82"),
        "proof byte offset 3: the proof ends inside this step (terminating 0 missing)"
    );
    assert_eq!(
        check(b"a"),
        "proof byte offset 0: the proof ends inside this step (terminating 0 missing)"
    );
    assert_eq!(
        check(b"a\x02\x00x\x02\x00"),
        "proof byte offset 3: expected step byte `a` (0x61) or `d` (0x64), found 0x78"
    );
}

#[test]
fn rejects_bad_formula_literals() {
    assert_eq!(
        message(check_text(3, &[vec![1, 4]], "0\n")),
        "formula clause 1: literal 4 is outside 1..=3 or its negation"
    );
    assert_eq!(
        message(check_text(3, &[vec![1], vec![0]], "0\n")),
        "formula clause 2: literal 0 is outside 1..=3 or its negation"
    );
    assert_eq!(
        message(check_text(usize::MAX, &[vec![i32::MIN]], "0\n")),
        format!(
            "formula clause 1: literal -2147483648 is outside 1..={} or its negation",
            usize::MAX
        )
    );
}

#[test]
fn tautologies_and_duplicates() {
    // Duplicate literals are ignored, tautological lemmas are accepted and never watched.
    let proof = "1 1 2 0\n3 -3 0\nd 2 1 1 0\n1 2 0\n1 0\n2 0\n0\n";
    let summary = check_text(3, &all_eight(), proof).unwrap();
    assert_eq!(summary.missing_deletions, 0);
    assert_eq!(summary.core_lemmas, 3);
}
