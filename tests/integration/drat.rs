//! puzzlec's own DRAT checker (`puzzlec::checkers::drat`) against proofs written by varisat and
//! CaDiCaL (text and binary), tampered proofs, and random proofs whose acceptance must imply
//! unsatisfiability (checked by brute force and by a naive forward checker).
//!
//! Tests that need `cadical` print "SKIPPED in TEST: not installed: cadical ..." without it
//! (the shared `common::report_missing`); with `PUZZLEC_REQUIRE_EXTERNAL=1` they fail
//! instead. `DRAT_FUZZ_ROUNDS` lengthens the random runs.

mod helpers {
    #![allow(dead_code)]
    //! Shared helpers of the integration tests: formula generators, proof producers, brute force.

    use std::io::Write;
    use std::path::PathBuf;
    use std::process::Command;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use rand::Rng;
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

    /// A CNF formula: variable count and DIMACS clauses.
    #[derive(Clone, Debug)]
    pub struct Cnf {
        pub num_vars: usize,
        pub clauses: Vec<Vec<i32>>,
    }

    /// PHP(n+1, n): n+1 pigeons into n holes; variable `p*n + h + 1` puts pigeon p in hole h.
    pub fn pigeonhole(n: usize) -> Cnf {
        let var = |p: usize, h: usize| (p * n + h + 1) as i32;
        let mut clauses = Vec::new();
        for p in 0..=n {
            clauses.push((0..n).map(|h| var(p, h)).collect());
        }
        for h in 0..n {
            for p in 0..=n {
                for q in p + 1..=n {
                    clauses.push(vec![-var(p, h), -var(q, h)]);
                }
            }
        }
        Cnf {
            num_vars: n * (n + 1),
            clauses,
        }
    }

    /// Uniform random k-SAT with `num_clauses` clauses of `k` distinct variables, from `seed`.
    pub fn random_ksat(seed: u64, num_vars: usize, num_clauses: usize, k: usize) -> Cnf {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut clauses = Vec::with_capacity(num_clauses);
        for _ in 0..num_clauses {
            let mut clause: Vec<i32> = Vec::with_capacity(k);
            while clause.len() < k {
                let v = rng.gen_range(1..=num_vars as i32);
                if clause.iter().any(|l| l.abs() == v) {
                    continue;
                }
                clause.push(if rng.gen_bool(0.5) { v } else { -v });
            }
            clauses.push(clause);
        }
        Cnf { num_vars, clauses }
    }

    /// Random 3-SAT at clause/variable ratio 4.26.
    pub fn random_3sat(seed: u64, num_vars: usize) -> Cnf {
        random_ksat(seed, num_vars, (num_vars as f64 * 4.26).round() as usize, 3)
    }

    fn varisat_formula(cnf: &Cnf) -> CnfFormula {
        let mut formula = CnfFormula::new();
        formula.set_var_count(cnf.num_vars);
        for clause in &cnf.clauses {
            let lits: Vec<Lit> = clause
                .iter()
                .map(|&l| Lit::from_dimacs(l as isize))
                .collect();
            formula.add_clause(&lits);
        }
        formula
    }

    /// Solves with varisat; `true` if satisfiable.
    pub fn varisat_sat(cnf: &Cnf) -> bool {
        let mut solver = Solver::new();
        solver.add_formula(&varisat_formula(cnf));
        solver.solve().expect("varisat solves")
    }

    /// Solves with varisat writing a proof; returns `None` if satisfiable, else the proof bytes.
    pub fn varisat_proof(cnf: &Cnf, format: ProofFormat) -> Option<Vec<u8>> {
        let mut proof = Vec::new();
        let sat = {
            let mut solver = Solver::new();
            solver.write_proof(&mut proof, format);
            solver.add_formula(&varisat_formula(cnf));
            let sat = solver.solve().expect("varisat solves");
            solver.close_proof().expect("proof closes");
            sat
        };
        if sat {
            None
        } else {
            Some(proof)
        }
    }

    /// Whether a text DRAT proof contains an explicit empty-clause line.
    pub fn text_has_empty_clause(proof: &[u8]) -> bool {
        String::from_utf8_lossy(proof)
            .lines()
            .any(|line| line.trim() == "0")
    }

    /// Whether a binary DRAT proof contains an `a 0x00` step.
    pub fn binary_has_empty_clause(proof: &[u8]) -> bool {
        let mut i = 0;
        while i < proof.len() {
            let add = proof[i] == b'a';
            i += 1;
            let start = i;
            while proof[i] != 0 {
                i += 1;
            }
            if add && i == start {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Appends the explicit empty clause if the proof lacks it (as puzzlec's writer does).
    pub fn with_empty_clause(mut proof: Vec<u8>, binary: bool) -> Vec<u8> {
        if binary {
            if !binary_has_empty_clause(&proof) {
                proof.extend_from_slice(b"a\0");
            }
        } else if !text_has_empty_clause(&proof) {
            proof.extend_from_slice(b"0\n");
        }
        proof
    }

    /// Writes DIMACS text.
    pub fn dimacs(cnf: &Cnf) -> String {
        let mut out = format!("p cnf {} {}\n", cnf.num_vars, cnf.clauses.len());
        for clause in &cnf.clauses {
            for lit in clause {
                out.push_str(&format!("{lit} "));
            }
            out.push_str("0\n");
        }
        out
    }

    static COUNTER: AtomicUsize = AtomicUsize::new(0);

    fn temp_path(name: &str) -> PathBuf {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        std::env::temp_dir().join(format!(
            "puzzlec-drat-test-{}-{n}-{name}",
            std::process::id()
        ))
    }

    /// Whether `cadical` can run; says so on stderr when it cannot, and fails instead when
    /// `PUZZLEC_REQUIRE_EXTERNAL=1` says it must be there (see `common::report_missing`).
    pub fn cadical_or_skip() -> bool {
        if cadical_available() {
            return true;
        }
        crate::common::report_missing(
            module_path!(),
            &["cadical (Debian package cadical)".to_string()],
        );
        false
    }

    /// Whether the `cadical` binary can be run.
    pub fn cadical_available() -> bool {
        Command::new("cadical")
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    }

    /// Runs CaDiCaL; `None` if satisfiable, else the proof (binary unless `text`).
    pub fn cadical_proof(cnf: &Cnf, text: bool) -> Option<Vec<u8>> {
        let cnf_path = temp_path("formula.cnf");
        let proof_path = temp_path("proof.drat");
        std::fs::File::create(&cnf_path)
            .and_then(|mut f| f.write_all(dimacs(cnf).as_bytes()))
            .expect("write cnf");
        let mut command = Command::new("nice");
        command.args(["-n", "10", "cadical", "-q"]);
        if text {
            command.arg("--no-binary");
        }
        let status = command
            .arg(&cnf_path)
            .arg(&proof_path)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run cadical");
        let proof = std::fs::read(&proof_path).ok();
        let _ = std::fs::remove_file(&cnf_path);
        let _ = std::fs::remove_file(&proof_path);
        match status.code() {
            Some(10) => None,
            Some(20) => Some(proof.expect("cadical wrote a proof")),
            other => panic!("cadical exited with {other:?}"),
        }
    }

    /// Brute-force satisfiability for at most 20 variables.
    pub fn brute_force_sat(cnf: &Cnf) -> bool {
        assert!(cnf.num_vars <= 20);
        (0u32..1 << cnf.num_vars).any(|assignment| {
            cnf.clauses.iter().all(|clause| {
                clause.iter().any(|&l| {
                    let value = assignment >> (l.unsigned_abs() - 1) & 1 == 1;
                    value == (l > 0)
                })
            })
        })
    }
}

mod cadical_proofs {
    //! Proofs written by CaDiCaL (text and binary DRAT) are accepted; tampered ones are rejected.

    use super::helpers::*;
    use puzzlec::checkers::drat::{check_drat, DratError, ProofEncoding};

    fn formulas() -> Vec<(String, Cnf)> {
        let mut out: Vec<(String, Cnf)> = (4..=7)
            .map(|n| (format!("PHP({},{n})", n + 1), pigeonhole(n)))
            .collect();
        for (i, num_vars) in [50, 75, 100, 125, 150].into_iter().enumerate() {
            let mut seed = 1000 * i as u64;
            loop {
                let cnf = random_3sat(seed, num_vars);
                seed += 1;
                if !varisat_sat(&cnf) {
                    out.push((format!("random {num_vars} vars seed {}", seed - 1), cnf));
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn cadical_proofs_are_accepted() {
        if !cadical_or_skip() {
            return;
        }
        for (name, cnf) in formulas() {
            for text in [true, false] {
                let proof = cadical_proof(&cnf, text).expect("unsat");
                let explicit = if text {
                    text_has_empty_clause(&proof)
                } else {
                    binary_has_empty_clause(&proof)
                };
                let expected = if text {
                    ProofEncoding::Text
                } else {
                    ProofEncoding::Binary
                };
                assert_eq!(ProofEncoding::detect(&proof), expected, "{name}");
                let summary = check_drat(cnf.num_vars, &cnf.clauses, &proof, ProofEncoding::Detect)
                    .unwrap_or_else(|e| panic!("{name} text {text}: {e}"));
                println!(
                    "{name} {expected:?}: explicit empty clause from cadical: {explicit}, {summary:?}"
                );
                assert!(explicit, "cadical writes the empty clause");
            }
        }
    }

    #[test]
    fn tampered_cadical_proofs_are_rejected() {
        if !cadical_or_skip() {
            return;
        }
        let cnf = pigeonhole(6);
        // Text: drop the empty clause.
        let proof = cadical_proof(&cnf, true).unwrap();
        let text = String::from_utf8(proof).unwrap();
        let dropped: String = text
            .lines()
            .filter(|l| l.trim() != "0")
            .map(|l| format!("{l}\n"))
            .collect();
        let err = check_drat(
            cnf.num_vars,
            &cnf.clauses,
            dropped.as_bytes(),
            ProofEncoding::Text,
        )
        .expect_err("no empty clause");
        assert!(
            err.to_string()
                .starts_with("the proof derives no empty clause"),
            "{err}"
        );
        // Binary: truncate in the middle of a literal (needs variables above 63).
        let (_, big) = formulas().pop().unwrap();
        let proof = cadical_proof(&big, false).unwrap();
        let mid = proof.len() / 2;
        let cut = mid + proof[mid..].iter().position(|&b| b & 0x80 != 0).unwrap() + 1;
        let err = check_drat(
            big.num_vars,
            &big.clauses,
            &proof[..cut],
            ProofEncoding::Binary,
        )
        .expect_err("truncated");
        assert!(matches!(err, DratError::Truncated { .. }), "{err}");
        // Binary: the proof against the formula without one pigeon clause (satisfiable).
        let proof = cadical_proof(&cnf, false).unwrap();
        let mut weaker = cnf.clone();
        weaker.clauses.remove(0);
        assert!(varisat_sat(&weaker));
        assert!(check_drat(
            weaker.num_vars,
            &weaker.clauses,
            &proof,
            ProofEncoding::Binary
        )
        .is_err());
    }
}

mod varisat_proofs {
    //! Proofs written by varisat (text and binary DRAT) are accepted; tampered ones are rejected.

    use super::helpers::*;
    use puzzlec::checkers::drat::{check_drat, DratError, ProofEncoding};
    use varisat::ProofFormat;

    /// Unsat random 3-SAT instances with 50..=150 variables (seeded).
    fn unsat_random_instances() -> Vec<Cnf> {
        let mut out = Vec::new();
        for (i, num_vars) in [50, 75, 100, 125, 150].into_iter().enumerate() {
            let mut seed = 1000 * i as u64;
            let mut found = 0;
            while found < 2 {
                let cnf = random_3sat(seed, num_vars);
                seed += 1;
                if !varisat_sat(&cnf) {
                    out.push(cnf);
                    found += 1;
                }
            }
        }
        out
    }

    fn check_varisat(cnf: &Cnf, name: &str) {
        for (format, encoding) in [
            (ProofFormat::Drat, ProofEncoding::Text),
            (ProofFormat::BinaryDrat, ProofEncoding::Binary),
        ] {
            let binary = encoding == ProofEncoding::Binary;
            let raw = varisat_proof(cnf, format).expect("formula is unsat");
            let explicit = if binary {
                binary_has_empty_clause(&raw)
            } else {
                text_has_empty_clause(&raw)
            };
            let proof = with_empty_clause(raw, binary);
            for enc in [encoding, ProofEncoding::Detect] {
                let summary = check_drat(cnf.num_vars, &cnf.clauses, &proof, enc)
                    .unwrap_or_else(|e| panic!("{name} {encoding:?}: {e}"));
                assert!(summary.core_lemmas <= summary.lemmas);
                if enc == encoding {
                    println!(
                        "{name} {encoding:?}: explicit empty clause from varisat: {explicit}, \
                         {} bytes, {summary:?}",
                        proof.len()
                    );
                }
            }
        }
    }

    #[test]
    fn varisat_pigeonhole_proofs_are_accepted() {
        for n in 4..=7 {
            check_varisat(&pigeonhole(n), &format!("PHP({},{n})", n + 1));
        }
    }

    #[test]
    fn varisat_random_3sat_proofs_are_accepted() {
        for (i, cnf) in unsat_random_instances().iter().enumerate() {
            check_varisat(cnf, &format!("random #{i} ({} vars)", cnf.num_vars));
        }
    }

    #[test]
    fn varisat_end_of_proof() {
        // Report what varisat writes at the end of an UNSAT proof.
        for cnf in [pigeonhole(4), random_3sat(7, 50)] {
            if let Some(text) = varisat_proof(&cnf, ProofFormat::Drat) {
                let text = String::from_utf8(text).unwrap();
                let tail: Vec<&str> = text.lines().rev().take(3).collect();
                println!(
                    "varisat text proof: {} lines, explicit `0` line: {}, last lines (reversed): {tail:?}",
                    text.lines().count(),
                    text_has_empty_clause(text.as_bytes())
                );
            }
            if let Some(binary) = varisat_proof(&cnf, ProofFormat::BinaryDrat) {
                println!(
                    "varisat binary proof: {} bytes, explicit `a 0` step: {}, last bytes {:?}",
                    binary.len(),
                    binary_has_empty_clause(&binary),
                    &binary[binary.len().saturating_sub(6)..]
                );
            }
        }
    }

    /// Removes every explicit empty-clause line of a text proof.
    fn drop_empty_clause_lines(proof: &[u8]) -> Vec<u8> {
        let text = String::from_utf8(proof.to_vec()).unwrap();
        let mut out = String::new();
        for line in text.lines().filter(|l| l.trim() != "0") {
            out.push_str(line);
            out.push('\n');
        }
        out.into_bytes()
    }

    #[test]
    fn dropping_the_empty_clause_is_rejected() {
        for cnf in [pigeonhole(5), random_3sat(3, 60)] {
            let Some(raw) = varisat_proof(&cnf, ProofFormat::Drat) else {
                continue;
            };
            let proof = with_empty_clause(raw, false);
            assert!(check_drat(cnf.num_vars, &cnf.clauses, &proof, ProofEncoding::Text).is_ok());
            let tampered = drop_empty_clause_lines(&proof);
            let err = check_drat(cnf.num_vars, &cnf.clauses, &tampered, ProofEncoding::Text)
                .expect_err("no empty clause");
            assert!(
                matches!(
                    err,
                    DratError::NoEmptyClause | DratError::NoExplicitEmptyClause { .. }
                ),
                "{err}"
            );
            assert!(err
                .to_string()
                .starts_with("the proof derives no empty clause"));
        }
    }

    #[test]
    fn proof_against_a_weaker_satisfiable_formula_is_rejected() {
        let mut tested = 0;
        for cnf in unsat_random_instances().into_iter().take(4) {
            for format in [ProofFormat::Drat, ProofFormat::BinaryDrat] {
                let binary = matches!(format, ProofFormat::BinaryDrat);
                let proof = with_empty_clause(varisat_proof(&cnf, format).unwrap(), binary);
                // Find a clause without which the formula is satisfiable (varisat says so).
                let weaker = (0..cnf.clauses.len()).find_map(|skip| {
                    let mut weaker = cnf.clone();
                    weaker.clauses.remove(skip);
                    varisat_sat(&weaker).then_some(weaker)
                });
                let weaker = weaker.expect("some clause is needed");
                let result = check_drat(
                    weaker.num_vars,
                    &weaker.clauses,
                    &proof,
                    ProofEncoding::Detect,
                );
                let err = result.expect_err("the weaker formula is satisfiable");
                println!("{} vars, binary {binary}: {err}", cnf.num_vars);
                tested += 1;
            }
        }
        assert_eq!(tested, 8);
    }

    #[test]
    fn non_implied_core_lemma_is_rejected() {
        // F is unsat, F' = F minus C is satisfiable (varisat). The proof `C` + (varisat's proof of F)
        // is checked against F'. C is certainly neither RUP nor RAT for F' (either would preserve the
        // satisfiability of F', but F' + C = F is unsat), and the rest of the proof needs C (F' is
        // satisfiable), so the check must fail exactly at the first step, naming C.
        let mut tested = 0;
        for cnf in unsat_random_instances().into_iter().take(3) {
            let (skip, weaker) = (0..cnf.clauses.len())
                .find_map(|skip| {
                    let mut weaker = cnf.clone();
                    weaker.clauses.remove(skip);
                    varisat_sat(&weaker).then_some((skip, weaker))
                })
                .expect("some clause is needed");
            let lemma = &cnf.clauses[skip];
            let expected_lemma: Vec<String> = lemma.iter().map(|l| l.to_string()).collect();
            let expected_lemma = expected_lemma.join(" ");

            let text = with_empty_clause(varisat_proof(&cnf, ProofFormat::Drat).unwrap(), false);
            let mut tampered = format!("{expected_lemma} 0\n").into_bytes();
            tampered.extend_from_slice(&text);
            let err = check_drat(
                weaker.num_vars,
                &weaker.clauses,
                &tampered,
                ProofEncoding::Text,
            )
            .expect_err("rejected");
            assert_eq!(
                err.to_string(),
                format!("proof line 1: lemma {expected_lemma} is neither RUP nor RAT")
            );
            // The untampered proof checks against F.
            check_drat(cnf.num_vars, &cnf.clauses, &tampered, ProofEncoding::Text).unwrap();

            let binary =
                with_empty_clause(varisat_proof(&cnf, ProofFormat::BinaryDrat).unwrap(), true);
            let mut tampered = vec![b'a'];
            for &l in lemma {
                let mut code = 2 * l.unsigned_abs() + u32::from(l < 0);
                while code >= 0x80 {
                    tampered.push((code as u8 & 0x7f) | 0x80);
                    code >>= 7;
                }
                tampered.push(code as u8);
            }
            tampered.push(0);
            tampered.extend_from_slice(&binary);
            let err = check_drat(
                weaker.num_vars,
                &weaker.clauses,
                &tampered,
                ProofEncoding::Binary,
            )
            .expect_err("rejected");
            assert_eq!(
                err.to_string(),
                format!("proof byte offset 0: lemma {expected_lemma} is neither RUP nor RAT")
            );
            tested += 1;
        }
        assert_eq!(tested, 3);
    }

    #[test]
    fn truncated_binary_proof_is_rejected() {
        let cnf = unsat_random_instances().remove(4); // 125 variables: literals need two bytes
        let proof = with_empty_clause(varisat_proof(&cnf, ProofFormat::BinaryDrat).unwrap(), true);
        // Cut right after a continuation byte (high bit set), i.e. in the middle of a literal.
        let cut = proof
            .iter()
            .position(|&b| b & 0x80 != 0)
            .expect("a multi-byte literal")
            + 1;
        let err = check_drat(
            cnf.num_vars,
            &cnf.clauses,
            &proof[..cut],
            ProofEncoding::Binary,
        )
        .expect_err("truncated");
        assert!(matches!(err, DratError::Truncated { .. }), "{err}");
        // Cut in the middle of the proof after a continuation byte.
        let mid = proof.len() / 2;
        let cut = mid + proof[mid..].iter().position(|&b| b & 0x80 != 0).unwrap() + 1;
        let err = check_drat(
            cnf.num_vars,
            &cnf.clauses,
            &proof[..cut],
            ProofEncoding::Binary,
        )
        .expect_err("truncated");
        assert!(matches!(err, DratError::Truncated { .. }), "{err}");
    }
}

mod soundness {
    //! Property tests: valid varisat proofs of small random formulas are accepted, and whenever the
    //! checker accepts any proof (mutated, or random lemmas including RAT steps on extension
    //! variables), the formula is unsatisfiable by brute force. Arbitrary bytes never panic.

    use super::helpers::*;
    use proptest::prelude::*;
    use puzzlec::checkers::drat::{check_drat, ProofEncoding};
    use rand::seq::SliceRandom;
    use rand::Rng;
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use varisat::ProofFormat;

    /// A random formula over 3..=10 variables; `dense` ones are mostly unsatisfiable, sparse ones
    /// (no units, fewer clauses) are often satisfiable.
    fn random_small_formula(rng: &mut ChaCha8Rng, dense: bool) -> Cnf {
        let num_vars = rng.gen_range(3..=10);
        let num_clauses = if dense {
            rng.gen_range(num_vars * 2..=num_vars * 6)
        } else {
            rng.gen_range(num_vars..=num_vars * 4)
        };
        let lengths: &[usize] = if dense {
            &[1, 2, 2, 3, 3, 3, 3, 4]
        } else {
            &[2, 3, 3, 3]
        };
        let mut clauses = Vec::new();
        for _ in 0..num_clauses {
            let len = *lengths.choose(rng).unwrap();
            let mut clause: Vec<i32> = Vec::new();
            while clause.len() < len.min(num_vars) {
                let v = rng.gen_range(1..=num_vars as i32);
                if !clause.iter().any(|l| l.abs() == v) {
                    clause.push(if rng.gen_bool(0.5) { v } else { -v });
                }
            }
            clauses.push(clause);
        }
        Cnf { num_vars, clauses }
    }

    /// Iterations of a seeded loop: `default`, or `DRAT_FUZZ_ROUNDS` for longer runs.
    fn rounds(default: usize) -> usize {
        std::env::var("DRAT_FUZZ_ROUNDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    fn accepts(cnf: &Cnf, proof: &[u8]) -> bool {
        check_drat(cnf.num_vars, &cnf.clauses, proof, ProofEncoding::Text).is_ok()
    }

    /// Mutates a text proof: flips one literal of a random lemma, or drops or duplicates a line.
    fn mutate(proof: &str, rng: &mut ChaCha8Rng) -> String {
        let mut lines: Vec<String> = proof.lines().map(str::to_string).collect();
        if lines.is_empty() {
            return String::new();
        }
        let index = rng.gen_range(0..lines.len());
        match rng.gen_range(0..4) {
            0 | 1 => {
                let mut tokens: Vec<String> = lines[index]
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                let positions: Vec<usize> = (0..tokens.len())
                    .filter(|&i| tokens[i] != "0" && tokens[i] != "d")
                    .collect();
                if let Some(&i) = positions.choose(rng) {
                    let lit: i32 = tokens[i].parse().unwrap();
                    tokens[i] = (-lit).to_string();
                }
                lines[index] = tokens.join(" ");
            }
            2 => {
                lines.remove(index);
            }
            _ => {
                let line = lines[index].clone();
                lines.insert(rng.gen_range(0..lines.len()), line);
            }
        }
        lines.iter().map(|l| format!("{l}\n")).collect()
    }

    #[test]
    fn varisat_proofs_accepted_and_mutations_sound() {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let (mut unsat, mut mutated_accepted, mut mutated_rejected, mut weaker_checked) =
            (0, 0, 0, 0);
        for _ in 0..400 {
            let cnf = random_small_formula(&mut rng, true);
            if brute_force_sat(&cnf) {
                continue;
            }
            unsat += 1;
            for (format, binary) in [(ProofFormat::Drat, false), (ProofFormat::BinaryDrat, true)] {
                let proof = with_empty_clause(varisat_proof(&cnf, format).unwrap(), binary);
                let enc = if binary {
                    ProofEncoding::Binary
                } else {
                    ProofEncoding::Text
                };
                check_drat(cnf.num_vars, &cnf.clauses, &proof, enc)
                    .unwrap_or_else(|e| panic!("{cnf:?}: {e}"));
            }
            let proof = with_empty_clause(varisat_proof(&cnf, ProofFormat::Drat).unwrap(), false);
            let proof = String::from_utf8(proof).unwrap();
            // Weaker formulas: drop a random clause; acceptance implies unsatisfiability.
            for _ in 0..3 {
                let mut weaker = cnf.clone();
                weaker
                    .clauses
                    .remove(rng.gen_range(0..weaker.clauses.len()));
                let sat = brute_force_sat(&weaker);
                if accepts(&weaker, proof.as_bytes()) {
                    assert!(
                        !sat,
                        "accepted a proof for a satisfiable formula {weaker:?}\n{proof}"
                    );
                }
                weaker_checked += 1;
                for _ in 0..3 {
                    let mutated = mutate(&proof, &mut rng);
                    if accepts(&weaker, mutated.as_bytes()) {
                        assert!(!sat, "accepted {mutated} for satisfiable {weaker:?}");
                    }
                }
            }
            // Mutated proofs of the unsat formula itself: never panic.
            for _ in 0..5 {
                let mutated = mutate(&proof, &mut rng);
                if accepts(&cnf, mutated.as_bytes()) {
                    mutated_accepted += 1;
                } else {
                    mutated_rejected += 1;
                }
            }
        }
        println!(
            "unsat formulas {unsat}, mutated proofs accepted {mutated_accepted}, rejected \
             {mutated_rejected}, weaker formulas {weaker_checked}"
        );
        assert!(unsat >= 100, "too few unsat formulas: {unsat}");
        assert!(mutated_rejected > 0 && mutated_accepted > 0);
    }

    /// Random proofs: random lemmas (often over the extension variables n+1, n+2, so RAT steps
    /// happen), random deletions of formula clauses, then `0`. Acceptance implies unsatisfiability.
    #[test]
    fn random_proofs_are_sound() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut accepted_unsat, mut rejected_sat, mut rat_seen) = (0, 0, 0);
        for _ in 0..rounds(6000) {
            let dense = rng.gen_bool(0.3);
            let cnf = random_small_formula(&mut rng, dense);
            let sat = brute_force_sat(&cnf);
            let max_var = cnf.num_vars as i32 + 2;
            let mut proof = String::new();
            for _ in 0..rng.gen_range(1..12) {
                if rng.gen_bool(0.15) {
                    let clause = cnf.clauses.choose(&mut rng).unwrap();
                    let text: Vec<String> = clause.iter().map(|l| l.to_string()).collect();
                    proof.push_str(&format!("d {} 0\n", text.join(" ")));
                    continue;
                }
                let len = rng.gen_range(1..=3);
                let lits: Vec<String> = (0..len)
                    .map(|_| {
                        let v = rng.gen_range(1..=max_var);
                        if rng.gen_bool(0.5) { v } else { -v }.to_string()
                    })
                    .collect();
                proof.push_str(&format!("{} 0\n", lits.join(" ")));
            }
            proof.push_str("0\n");
            match check_drat(
                cnf.num_vars,
                &cnf.clauses,
                proof.as_bytes(),
                ProofEncoding::Text,
            ) {
                Ok(summary) => {
                    assert!(!sat, "accepted {proof} for satisfiable {cnf:?}");
                    accepted_unsat += 1;
                    rat_seen += summary.rat_lemmas;
                }
                Err(_) => rejected_sat += usize::from(sat),
            }
        }
        println!(
            "random proofs: accepted {accepted_unsat} (all unsat, {rat_seen} RAT lemmas), rejected \
             {rejected_sat} for satisfiable formulas"
        );
        assert!(accepted_unsat > 50 && rat_seen > 0 && rejected_sat > 50);
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 400,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let cnf = random_3sat(1, 8);
            for enc in [ProofEncoding::Text, ProofEncoding::Binary, ProofEncoding::Detect] {
                let _ = check_drat(cnf.num_vars, &cnf.clauses, &bytes, enc);
            }
        }

        #[test]
        fn arbitrary_text_proofs_never_panic(
            lemmas in proptest::collection::vec(
                (any::<bool>(), proptest::collection::vec(-12i32..=12, 0..4)), 0..20)
        ) {
            let cnf = random_3sat(2, 10);
            let mut proof = String::new();
            for (delete, lits) in &lemmas {
                if *delete { proof.push_str("d "); }
                for l in lits { proof.push_str(&format!("{l} ")); }
                proof.push_str("0\n");
            }
            if let Ok(summary) = check_drat(cnf.num_vars, &cnf.clauses, proof.as_bytes(), ProofEncoding::Text) {
                prop_assert!(!brute_force_sat(&cnf));
                prop_assert!(summary.core_lemmas <= summary.lemmas);
            }
        }
    }

    /// A naive forward reference checker with the same semantics, checking *every* lemma:
    /// `Some(true)` if it accepts, `Some(false)` if it rejects, `None` when a deletion removes a clause
    /// that is unit-satisfied at top level (exactly one true literal, the rest false), where the
    /// "unit reason" rule depends on which clause propagation chose as reason.
    fn reference_check(cnf: &Cnf, proof: &str) -> Option<bool> {
        let mut steps: Vec<(bool, Vec<i32>)> = Vec::new();
        for line in proof.lines() {
            let mut tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.is_empty() {
                continue;
            }
            let delete = tokens[0] == "d";
            if delete {
                tokens.remove(0);
            }
            let lits: Vec<i32> = tokens.iter().map(|t| t.parse().unwrap()).collect();
            assert_eq!(lits.last(), Some(&0), "one clause per line");
            steps.push((delete, lits[..lits.len() - 1].to_vec()));
        }
        let max_var = steps
            .iter()
            .flat_map(|(_, c)| c.iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0)
            .max(cnf.num_vars);
        let mut active: Vec<Vec<i32>> = cnf.clauses.clone();
        // Unit propagation to fixpoint: Err(()) on conflict, else the assignment.
        let propagate = |clauses: &[Vec<i32>], assumptions: &[i32]| -> Result<Vec<i8>, ()> {
            let mut value = vec![0i8; max_var + 1];
            let lit_value =
                |value: &[i8], l: i32| value[l.unsigned_abs() as usize] * l.signum() as i8;
            for &a in assumptions {
                match lit_value(&value, a) {
                    -1 => return Err(()),
                    0 => value[a.unsigned_abs() as usize] = a.signum() as i8,
                    _ => {}
                }
            }
            loop {
                let mut changed = false;
                for clause in clauses {
                    if clause.iter().any(|&l| lit_value(&value, l) == 1) {
                        continue;
                    }
                    let open: Vec<i32> = clause
                        .iter()
                        .copied()
                        .filter(|&l| lit_value(&value, l) == 0)
                        .collect();
                    match open.len() {
                        0 => return Err(()),
                        1 => {
                            value[open[0].unsigned_abs() as usize] = open[0].signum() as i8;
                            changed = true;
                        }
                        _ => {}
                    }
                }
                if !changed {
                    return Ok(value);
                }
            }
        };
        let has_empty_after = |from: usize| steps[from..].iter().any(|(d, c)| !d && c.is_empty());
        let rup = |clauses: &[Vec<i32>], lemma: &[i32]| {
            let negated: Vec<i32> = lemma.iter().map(|l| -l).collect();
            propagate(clauses, &negated).is_err()
        };
        if propagate(&active, &[]).is_err() {
            return Some(has_empty_after(0));
        }
        for (index, (delete, lits)) in steps.iter().enumerate() {
            let mut set = lits.clone();
            set.sort();
            set.dedup();
            if *delete {
                let value = propagate(&active, &[]).expect("no conflict yet");
                let position = active.iter().rposition(|c| {
                    let mut c = c.clone();
                    c.sort();
                    c.dedup();
                    c == set
                });
                if let Some(position) = position {
                    let lit_value = |l: i32| value[l.unsigned_abs() as usize] * l.signum() as i8;
                    let trues = set.iter().filter(|&&l| lit_value(l) == 1).count();
                    let falses = set.iter().filter(|&&l| lit_value(l) == -1).count();
                    if trues == 1 && falses == set.len() - 1 {
                        return None;
                    }
                    active.remove(position);
                }
                continue;
            }
            if lits.is_empty() {
                return Some(false); // no conflict yet, so the empty clause is not RUP
            }
            if !rup(&active, lits) {
                let pivot = lits[0];
                let rat = active.iter().filter(|d| d.contains(&-pivot)).all(|d| {
                    if d.contains(&pivot) {
                        return true; // tautological candidate
                    }
                    let mut resolvent = lits.clone();
                    resolvent.extend(d.iter().copied().filter(|&l| l != -pivot));
                    rup(&active, &resolvent)
                });
                if !rat {
                    return Some(false);
                }
            }
            active.push(lits.clone());
            if propagate(&active, &[]).is_err() {
                return Some(has_empty_after(index + 1));
            }
        }
        Some(false)
    }

    /// Where the naive forward checker (which checks every lemma) accepts, the backward checker must
    /// accept too; where the backward checker accepts, the formula is unsatisfiable.
    #[test]
    fn agrees_with_a_naive_forward_checker() {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let (mut compared, mut ambiguous, mut both_accept, mut only_backward) = (0, 0, 0, 0);
        for round in 0..rounds(3000) {
            let cnf = random_small_formula(&mut rng, round % 3 != 0);
            let proof = if round % 2 == 0 && !brute_force_sat(&cnf) {
                let proof =
                    with_empty_clause(varisat_proof(&cnf, ProofFormat::Drat).unwrap(), false);
                let proof = String::from_utf8(proof).unwrap();
                if rng.gen_bool(0.5) {
                    mutate(&proof, &mut rng)
                } else {
                    proof
                }
            } else {
                let max_var = cnf.num_vars as i32 + 2;
                let mut proof = String::new();
                for _ in 0..rng.gen_range(1..15) {
                    if rng.gen_bool(0.2) {
                        let clause = cnf.clauses.choose(&mut rng).unwrap();
                        let text: Vec<String> = clause.iter().map(|l| l.to_string()).collect();
                        proof.push_str(&format!("d {} 0\n", text.join(" ")));
                        continue;
                    }
                    let len = rng.gen_range(1..=3);
                    let lits: Vec<String> = (0..len)
                        .map(|_| {
                            let v = rng.gen_range(1..=max_var);
                            if rng.gen_bool(0.5) { v } else { -v }.to_string()
                        })
                        .collect();
                    proof.push_str(&format!("{} 0\n", lits.join(" ")));
                }
                proof.push_str("0\n");
                proof
            };
            let ours = check_drat(
                cnf.num_vars,
                &cnf.clauses,
                proof.as_bytes(),
                ProofEncoding::Text,
            );
            if ours.is_ok() {
                assert!(
                    !brute_force_sat(&cnf),
                    "accepted {proof} for satisfiable {cnf:?}"
                );
            }
            match reference_check(&cnf, &proof) {
                None => ambiguous += 1,
                Some(true) => {
                    assert!(
                        ours.is_ok(),
                        "reference accepts, ours says {ours:?}\n{cnf:?}\n{proof}"
                    );
                    both_accept += 1;
                    compared += 1;
                }
                Some(false) => {
                    only_backward += usize::from(ours.is_ok());
                    compared += 1;
                }
            }
        }
        println!(
            "compared {compared}, both accept {both_accept}, only backward accepts (unused invalid \
             lemmas) {only_backward}, ambiguous unit deletions {ambiguous}"
        );
        assert!(both_accept > 300);
    }
}
