//! Certificates that anyone can check: [`prove_using`] (or the crate's [`crate::prove`])
//! writes one into a folder, [`check`] re-verifies it.
//!
//! A certificate folder holds:
//!
//! * `model.toml`: a copy of the model file, so the folder stands on its own;
//! * `witness.txt` (when there is a solution): the value of every model variable as DIMACS
//!   `v` lines, with the solution drawn in `c` lines for people;
//! * `cnf.dimacs` (when something is refuted): the CNF of "objective at least optimum + 1", or
//!   of the constraints alone for an impossible model, with `c var N name` lines; for a
//!   model with lazy constraints, followed by the cuts of `cuts.txt`;
//! * `cuts.txt` (when the refutation needed cuts of lazy constraints, as a dissection's
//!   connected parts do): each cut with the reason it holds in every solution (format and
//!   argument in [`super::cuts`]); its SHA-256 is in the manifest;
//! * `proof.lrat`, `proof.drat`, `proof.varisat`: refutations of `cnf.dimacs` in LRAT (checked
//!   by our own [`crate::checkers::lrat`]), textual DRAT (checked by our own [`crate::checkers::drat`], and readable
//!   by drat-trim and friends) and varisat's native format (checked by varisat's checker). Each
//!   ends by deriving the empty clause, trivial refutations included;
//! * `manifest.json`: what is claimed and how it was established, and the SHA-256 of every other
//!   file of the folder (see [`Manifest`]).
//!
//! [`check`] trusts none of the files: it holds the folder to its manifest (no file missing,
//! none extra, every SHA-256 as recorded), verifies the witness with the puzzle's own rules,
//! verifies every cut's reason and clause from the rules ([`super::cuts::verify`]), rebuilds
//! the CNF from the model and the verified cuts and compares it byte for byte, and checks all
//! three proofs against that CNF. What it does trust is
//! the model compiler and the CNF encoder (`src/puzzle`, `src/sat/encode.rs`), whose
//! cardinality encodings are tested exhaustively on small sizes.
//!
//! A puzzle that is impossible by counting alone ([`Puzzle::trivially_impossible`], such as
//! a dissection of 25 cells into 2 parts) has nothing to refute: its claim is
//! [`Claim::Impossible`] with the reason, which `check` recomputes from the model. Models
//! whose lazy constraints cannot justify their cuts ([`crate::model::JustifyCuts`]) are
//! refused.

use crate::base::error::InputError;
use crate::base::plural;
use crate::driver::Misuse;
use crate::encode::amo::AmoEncoding;
use crate::encode::{cnf as encode, dimacs, Cnf};
pub use crate::formats::manifest::{Claim, EncodingEntry, FileEntry, Manifest, ModelEntry, Times};
pub use crate::formats::shard_record::{CheckerRecord, ShardRecord, Verdict};
use crate::formats::witness;
pub use crate::formats::witness::WitnessError;
use crate::model::{Assignment, Lit, Model};
use crate::puzzle::Puzzle;
use std::fmt::Write as _;
use std::path::PathBuf;

mod check;
pub mod count;
pub mod doll_proof;
mod prove;
mod read;
pub mod table;
mod tiling;
mod write;

pub use check::{check, check_shard, check_using, check_writing, CheckOptions};
pub use doll_proof::Replay;
pub use prove::{plan_stream_jobs, prove_stream_job, prove_using};
pub(crate) use read::verified_witness;
pub use write::{PackingRoute, ProveOptions, StreamMode};

/// The manifest's file name inside a certificate folder.
pub const MANIFEST_FILE: &str = "manifest.json";
/// The copy of the model file.
pub const MODEL_FILE: &str = "model.toml";
/// The witness: one value per model variable.
pub const WITNESS_FILE: &str = "witness.txt";
/// The refuted CNF.
pub const CNF_FILE: &str = "cnf.dimacs";
/// The LRAT refutation of [`CNF_FILE`].
pub const LRAT_FILE: &str = "proof.lrat";
/// The textual DRAT refutation of [`CNF_FILE`].
pub const DRAT_FILE: &str = "proof.drat";
/// The varisat-native refutation of [`CNF_FILE`].
pub const VARISAT_FILE: &str = "proof.varisat";
/// The cuts of lazy constraints that [`CNF_FILE`] ends with, and their reasons.
pub const CUTS_FILE: &str = "cuts.txt";
/// A count certificate's list of solutions (see [`count`]).
pub const SOLUTIONS_FILE: &str = "solutions.txt";
/// A count certificate's CNF: the model's, with every listed solution blocked.
pub const COUNT_CNF_FILE: &str = "count.dimacs";
/// The LRAT refutation of [`COUNT_CNF_FILE`].
pub const COUNT_LRAT_FILE: &str = "count.lrat";
/// The textual DRAT refutation of [`COUNT_CNF_FILE`].
pub const COUNT_DRAT_FILE: &str = "count.drat";
/// The varisat-native refutation of [`COUNT_CNF_FILE`].
pub const COUNT_VARISAT_FILE: &str = "count.varisat";

/// One refuted CNF of a certificate folder and its proofs: each a manifest role and a file
/// name. A count certificate holds two: the optimum's and the count's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefutationFiles {
    /// The CNF.
    pub cnf: (&'static str, &'static str),
    /// Its LRAT refutation.
    pub lrat: (&'static str, &'static str),
    /// Its textual DRAT refutation.
    pub drat: (&'static str, &'static str),
    /// Its varisat-native refutation.
    pub varisat: (&'static str, &'static str),
}

/// The refutation of an optimum's "better than the answer", or of an impossible model.
pub const SINGLE_REFUTATION: RefutationFiles = RefutationFiles {
    cnf: ("cnf", CNF_FILE),
    lrat: ("lrat", LRAT_FILE),
    drat: ("drat", DRAT_FILE),
    varisat: ("varisat", VARISAT_FILE),
};

/// The refutation of a count certificate's CNF with every listed solution blocked.
pub const COUNT_REFUTATION: RefutationFiles = RefutationFiles {
    cnf: ("count_cnf", COUNT_CNF_FILE),
    lrat: ("count_lrat", COUNT_LRAT_FILE),
    drat: ("count_drat", COUNT_DRAT_FILE),
    varisat: ("count_varisat", COUNT_VARISAT_FILE),
};

/// The `format` written into every manifest ([`Manifest::format`]); [`check`] refuses
/// others. Version 2: every file
/// is hashed, the folder holds no others, and every proof ends with the empty clause.
pub const FORMAT: &str = "puzzlec-certificate/2";

/// The files `prove` may write besides the model and the manifest; stale ones are removed
/// before a new certificate is written into a folder, as [`check`] refuses unlisted files.
const WRITTEN_FILES: [&str; 13] = [
    doll_proof::OPB_FILE,
    doll_proof::PROOF_FILE,
    WITNESS_FILE,
    CNF_FILE,
    CUTS_FILE,
    LRAT_FILE,
    DRAT_FILE,
    VARISAT_FILE,
    SOLUTIONS_FILE,
    COUNT_CNF_FILE,
    COUNT_LRAT_FILE,
    COUNT_DRAT_FILE,
    COUNT_VARISAT_FILE,
];

/// The at-most-one encoding certificates use (the CNF must be rebuilt exactly).
const AMO: AmoEncoding = AmoEncoding::Auto;

/// The objective bound the CNF of `claim` asserts, and whether there is a CNF at all.
fn refuted_bound(claim: &Claim) -> Option<Option<usize>> {
    match claim {
        Claim::Optimal { value } => Some(Some(value + 1)),
        Claim::Unsatisfiable => Some(None),
        Claim::Satisfiable | Claim::Impossible { .. } | Claim::Count { .. } => None,
    }
}

/// The manifest's entry for a model file: `model_bytes` hashed, the path `source` they
/// were read from, and `puzzle`'s family (both routes of `prove` record it so).
pub fn model_entry(source: &std::path::Path, model_bytes: &[u8], puzzle: &Puzzle) -> ModelEntry {
    ModelEntry {
        file: MODEL_FILE.to_string(),
        sha256: crate::base::digest::sha256_hex(model_bytes),
        source: source.display().to_string(),
        kind: puzzle.kind().to_string(),
    }
}

/// Why `prove` could not write a certificate.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The model file is bad.
    #[error("{0}")]
    Input(#[from] InputError),
    /// A setting that does not apply to the model (see [`Misuse`]): bad input, worded with
    /// the setting's name.
    #[error("{}: {misuse}", path.display())]
    Misused {
        /// The model file.
        path: PathBuf,
        /// The setting and why it does not apply.
        misuse: Misuse,
    },
    /// The model has lazy constraints that cannot justify their cuts, so a refutation that
    /// needs them could not be checked.
    #[error("{path}: cannot certify a model with lazy constraints that give no reasons for their cuts ({names}): a refutation using their cuts could not be checked")]
    Lazy {
        /// The model file.
        path: PathBuf,
        /// The names of the lazy constraints without reasons.
        names: String,
    },
    /// A certificate file could not be written.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The external SAT program failed, or gave an answer or a proof puzzlec refuses.
    #[error("{0}")]
    Solver(String),
    /// A streamed shard's checker refused its proof, or the records to join do not make a
    /// certificate (a shard missing, duplicated, failed or foreign): the message names the
    /// shard.
    #[error("{0}")]
    Refused(String),
    /// A time limit or Ctrl-C stopped `prove` first (the reason, in words); no manifest was
    /// written.
    #[error("{0}: no certificate was written")]
    Stopped(&'static str),
    /// The solver or the proof run failed or contradicted itself (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

/// Why `check` did not accept a certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The folder is not there or has no manifest: nothing to check (bad input).
    #[error("{0}")]
    NotACertificate(String),
    /// A check failed; the message says which and why.
    #[error("{0}")]
    Failed(String),
    /// A streamed run under way (its plan, no manifest yet): the records written so far
    /// hold, but they do not prove the claim yet; the conclusion says how far they go.
    #[error("{}", .0.conclusion)]
    UnderWay(Checked),
}

/// What a successful check verified, one line per step, and its conclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// One line per check that passed.
    pub steps: Vec<String>,
    /// The certified claim, in words.
    pub conclusion: String,
}

/// The CNF a claim refutes, as DIMACS text, with `cuts` (clauses over the model's
/// variables) appended; `None` when the claim refutes nothing. The text depends only on the
/// model, the claim and the cuts, so [`check`] can rebuild it byte for byte.
pub fn refuted_dimacs(
    model: &Model,
    claim: &Claim,
    cuts: &[Vec<Lit>],
) -> Option<(String, EncodingEntry)> {
    refuted_cnf(model, claim, cuts).map(|(_, text, entry)| (text, entry))
}

/// [`refuted_dimacs`], with the clauses as a [`Cnf`] too.
fn refuted_cnf(
    model: &Model,
    claim: &Claim,
    cuts: &[Vec<Lit>],
) -> Option<(Cnf, String, EncodingEntry)> {
    let bound = refuted_bound(claim)?;
    Some(certificate_cnf(model, bound, cuts, &[]))
}

/// The CNF of `model` with "objective at least k" when `bound` is `Some(k)` (the
/// constraints alone for `None`), then the `cuts`, then the `blocked` clauses (a count
/// certificate's, one per listed solution): the clauses, the DIMACS text with its comments
/// (which depends only on the arguments, so `check` can rebuild it byte for byte), and the
/// manifest's entry.
pub(super) fn certificate_cnf(
    model: &Model,
    bound: Option<usize>,
    cuts: &[Vec<Lit>],
    blocked: &[Vec<Lit>],
) -> (Cnf, String, EncodingEntry) {
    let encoding = encode::encode(model, AMO);
    let mut refuted = match bound {
        Some(k) => format!("objective at least {k}"),
        None => "the constraints alone".to_string(),
    };
    if !blocked.is_empty() {
        refuted = format!(
            "{refuted}, and none of the {} of {SOLUTIONS_FILE}",
            crate::base::plural(blocked.len() as u64, "listed solution")
        );
    }
    let mut comments = vec![
        format!("puzzlec certificate CNF of {MODEL_FILE}: {refuted}"),
        format!("objective counted by {}", encoding.objective_encoding),
        format!(
            "at-most-one encoding {AMO:?}; variables 1..={} are the model's",
            model.num_vars()
        ),
    ];
    if !cuts.is_empty() {
        let place = if blocked.is_empty() { "last" } else { "next" };
        comments.push(format!(
            "the {place} {} clauses are the cuts of {CUTS_FILE}, in its order",
            cuts.len()
        ));
    }
    if !blocked.is_empty() {
        comments.push(format!(
            "the last {} clauses block the solutions of {SOLUTIONS_FILE}, one each, in its order",
            blocked.len()
        ));
    }
    let mut cnf = encoding.cnf_with_at_least(bound);
    cnf.clauses.extend(cuts.iter().cloned());
    cnf.clauses.extend(blocked.iter().cloned());
    let entry = EncodingEntry {
        at_most_one: format!("{AMO:?}").to_lowercase(),
        objective: encoding.objective_encoding.clone(),
        refuted: Some(refuted),
        variables: cnf.num_vars,
        clauses: cnf.clauses.len(),
        cuts: cuts.len(),
    };
    let text = dimacs::write_dimacs(&cnf, model.names(), &comments);
    (cnf, text, entry)
}

/// The encoding entry of a certificate that refutes nothing.
fn unrefuted_encoding(model: &Model) -> EncodingEntry {
    EncodingEntry {
        at_most_one: format!("{AMO:?}").to_lowercase(),
        objective: encode::encode(model, AMO).objective_encoding,
        refuted: None,
        variables: 0,
        clauses: 0,
        cuts: 0,
    }
}

/// A score of `puzzle`'s model (what a claim's value is) in the family's words: the value
/// itself, or for a family that asks for the fewest, "5 pieces (59 of 64 free squares left
/// empty)".
pub(super) fn score_words(puzzle: &Puzzle, score: usize) -> String {
    match puzzle.sense() {
        crate::base::Sense::Most => score.to_string(),
        sense @ crate::base::Sense::Fewest { of } => format!(
            "{} ({score} of {of} free squares left empty)",
            plural(sense.value(score) as u64, "piece")
        ),
    }
}

/// The witness file: the solution drawn in comment lines, then every model variable's value
/// as DIMACS literals on `v` lines ended by 0 (the SAT competition's output format).
pub fn witness_text(puzzle: &Puzzle, assignment: &Assignment) -> String {
    let solution = puzzle.decode(assignment);
    let mut text = format!(
        "c puzzlec witness for {MODEL_FILE}: value {}\n",
        puzzle.value(&solution)
    );
    for line in puzzle.render(&solution).lines() {
        let _ = writeln!(text, "c {line}");
    }
    witness::push_values(&mut text, assignment.values());
    text
}

/// Reads a witness file: every variable `1..=num_vars` exactly once, ended by 0.
pub fn parse_witness(text: &str, num_vars: usize) -> Result<Assignment, WitnessError> {
    witness::read_witness(text, num_vars).map(Assignment::new)
}

#[cfg(test)]
mod tests {
    use super::read::first_difference;
    use super::write::refuse_lazy;
    use super::*;
    use crate::base::digest::sha256_hex;
    use crate::cert::refute::{check_with_varisat, refute, Refutation, SolverProofFormat};
    use crate::checkers::lrat::{check_lrat, parse_dimacs};
    use crate::model::Constraint;
    use crate::puzzle::Family;
    use std::path::Path;

    #[test]
    fn witness_text_round_trips_and_rejects_gaps() {
        let values = vec![true, false, true];
        let a = Assignment::new(values.clone());
        let text = "c hello\nv 1 -2\nv 3 0\n";
        assert_eq!(parse_witness(text, 3).unwrap(), a);
        assert_eq!(
            parse_witness("v 1 -2 0\n", 3).unwrap_err().to_string(),
            "variable 3 has no value"
        );
        assert_eq!(
            parse_witness("v 1 -1 3 0\n", 3).unwrap_err().to_string(),
            "line 1: variable 1 is given twice"
        );
        assert_eq!(
            parse_witness("v 1 -2 4 0\n", 3).unwrap_err().to_string(),
            "line 1: variable 4 is not a model variable (1..=3)"
        );
        assert_eq!(
            parse_witness("v 1 -2 3\n", 3).unwrap_err().to_string(),
            "the values are not ended by 0"
        );
    }

    #[test]
    fn an_impossible_model_without_objective_is_refuted_by_both_checkers() {
        // Three variables, pairwise exclusive, and at least two true: impossible.
        let mut model = Model::new();
        let lits: Vec<_> = (0..3)
            .map(|i| model.new_var(format!("x{i}")).positive())
            .collect();
        model.add(Constraint::AtMostOne(lits.clone()));
        model.add(Constraint::AtLeast(lits, 2));
        assert_eq!(refuted_dimacs(&model, &Claim::Satisfiable, &[]), None);
        let (text, entry) = refuted_dimacs(&model, &Claim::Unsatisfiable, &[]).unwrap();
        assert_eq!(entry.refuted.as_deref(), Some("the constraints alone"));
        assert!(text.contains("c var 3 x2\n"), "{text}");
        let (num_vars, clauses) = parse_dimacs(&text).unwrap();
        let (mut native, mut lrat) = (Vec::new(), Vec::new());
        let outcome = refute(
            num_vars,
            &clauses,
            SolverProofFormat::Varisat,
            &mut native,
            &mut lrat,
        )
        .unwrap();
        assert_eq!(outcome, Refutation::Unsatisfiable);
        check_lrat(num_vars, &clauses, std::str::from_utf8(&lrat).unwrap()).unwrap();
        check_with_varisat(num_vars, &clauses, &native[..]).unwrap();
    }

    struct Connected;

    impl crate::model::LazyConstraint for Connected {
        fn name(&self) -> &str {
            "connectivity"
        }
        fn cuts(&self, _: &Assignment) -> Vec<Vec<crate::model::Lit>> {
            Vec::new()
        }
    }

    #[test]
    fn models_with_lazy_constraints_that_give_no_reasons_are_refused() {
        let mut model = Model::new();
        model.new_var("x");
        assert!(refuse_lazy(&model, Path::new("m.toml")).is_ok());
        // A dissection's connected parts justify their cuts: accepted.
        let dissection =
            crate::puzzle::dissection::DissectionPuzzle::from_picture("####", 2, true).compile();
        assert_eq!(dissection.lazy.len(), 1);
        assert!(refuse_lazy(&dissection, Path::new("d.toml")).is_ok());
        model.lazy.push(Box::new(Connected));
        let error = refuse_lazy(&model, Path::new("m.toml")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "m.toml: cannot certify a model with lazy constraints that give no reasons for \
             their cuts (connectivity): a refutation using their cuts could not be checked"
        );
    }

    #[test]
    fn the_cnf_ends_with_the_cuts_and_says_so() {
        let mut model = Model::new();
        let x = model.new_var("x").positive();
        let y = model.new_var("y").positive();
        model.add(Constraint::Clause(vec![x, y]));
        let (plain, plain_entry) = refuted_dimacs(&model, &Claim::Unsatisfiable, &[]).unwrap();
        assert_eq!(plain_entry.cuts, 0);
        assert!(!plain.contains(CUTS_FILE), "{plain}");
        let cuts = vec![vec![!x], vec![!y]];
        let (text, entry) = refuted_dimacs(&model, &Claim::Unsatisfiable, &cuts).unwrap();
        assert_eq!((entry.clauses, entry.cuts), (3, 2));
        assert!(
            text.contains("c the last 2 clauses are the cuts of cuts.txt, in its order\n"),
            "{text}"
        );
        assert!(text.ends_with("p cnf 2 3\n1 2 0\n-1 0\n-2 0\n"), "{text}");
    }

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n").unwrap(),
            "line 2 is \"c\", expected \"b\""
        );
        assert_eq!(
            first_difference("a\nb\n", "a\n").unwrap(),
            "line 2 is missing, expected \"b\""
        );
        assert_eq!(
            first_difference("a\n", "a\nz\n").unwrap(),
            "line 2 is extra: \"z\""
        );
        assert_eq!(
            first_difference("a\n", "a").unwrap(),
            "the line endings differ"
        );
    }

    #[test]
    fn sha256_matches_a_known_digest() {
        // FIPS 180-2 example "abc".
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
