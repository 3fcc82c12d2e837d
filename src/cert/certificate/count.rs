//! Certified counts: "exactly N solutions", checked without trusting any enumeration.
//!
//! A count certificate holds, besides the model and the manifest:
//!
//! * [`SOLUTIONS_FILE`]: the solutions, one per line, each the model variables that are true
//!   in it (DIMACS numbers, ended by 0). With `--unique`, one line per class: the least
//!   member (as a sorted list of variables) of each class under the symmetries that map the
//!   puzzle onto itself.
//! * [`COUNT_CNF_FILE`](super::COUNT_CNF_FILE): the model's CNF ("objective at least the optimum" for a family with
//!   an objective, the constraints alone otherwise), then the cuts of [`CUTS_FILE`] (a
//!   dissection's connected parts, each with its reason), then one blocking clause per
//!   solution: the negation of its true *decision* variables (the cells of queens, the
//!   placements of a tiling, the part variables of a dissection; never an encoder's
//!   auxiliary), class members expanded in order.
//! * its refutation ([`COUNT_LRAT_FILE`](super::COUNT_LRAT_FILE), [`COUNT_DRAT_FILE`](super::COUNT_DRAT_FILE), [`COUNT_VARISAT_FILE`](super::COUNT_VARISAT_FILE) from
//!   varisat, or [`COUNT_DRAT_FILE`](super::COUNT_DRAT_FILE) alone from an external solver such as CaDiCaL,
//!   or, for a tiling, [`COUNT_LRAT_FILE`](super::COUNT_LRAT_FILE) alone from puzzlec's exact-cover search
//!   ([`crate::engines::cover_proof`], `tiling`).
//! * for a family with an objective, the optimum's certificate too: the witness, `cnf.dimacs`
//!   ("objective at least optimum + 1") and its proofs, as [`Claim::Optimal`] has them.
//!
//! `check` verifies every listed solution (and every class member) by the puzzle's own
//! rules, with the optimum's value; requires them pairwise distinct on the decision
//! variables; rebuilds the CNF from the model, the verified cuts and the verified list and
//! compares it byte for byte; and checks the proofs. Why that proves the count exact: the
//! list gives at least N distinct solutions. A solution T of the CNF makes some blocking
//! clause false, so T's true decision variables include all of some listed S's; they can be
//! no more than S's, because no solution strictly contains another: queens at the optimum
//! all have exactly that many queens (the optimum is certified in the same folder), and a
//! tiling or a dissection puts exactly one placement or part on every cell. So T is S on
//! the decision variables, which determine a solution (the queens, the tiles, the parts;
//! a dissection's maps are read from its parts): at most N. Dissections are counted in the
//! model's canonical labelling (the first cell in part A, parts numbered by first
//! appearance), which the model itself imposes, so one labelling per dissection is listed
//! and blocked, and `check` need not relabel.
//!
//! What `check` trusts is what every certificate trusts: the model compiler and the CNF
//! encoder (and, for classes, that the listed symmetries map the puzzle onto itself, which
//! `check` verifies by the puzzle's rules on every member it expands).

use super::read::{check_encoding, failed, CheckedFolder};
use super::write::{record_answer, Folder, ProofSolver, Record};
use super::{
    certificate_cnf, CheckError, Checked, Claim, Manifest, ProveError, COUNT_REFUTATION, CUTS_FILE,
    MODEL_FILE, SOLUTIONS_FILE,
};
use crate::base::error::{InputError, Setting};
use crate::base::{plural, Control};
use crate::driver::{enumerate, Backend, EnumerateOptions, Misuse};
use crate::encode::Cnf;
use crate::formats::solutions::{read_solutions, write_solutions};
use crate::geometry::board::Board;
use crate::model::{Assignment, Lit, Model, Var};
use crate::puzzle::family::OwnSolution;
use crate::puzzle::{each_family, Family, Puzzle};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

mod chess;
mod dissection;
mod packing;
mod queens;

pub use super::write::DEFAULT_MAX_LISTED;

/// A puzzle's model as counts certify it, with what a solution is made of.
pub struct Counting {
    /// The model (for tilings: without symmetry breaking, which would hide solutions).
    pub model: Model,
    /// Whether each model variable is a decision variable (blocked; compared for
    /// distinctness).
    pub decision: Vec<bool>,
    /// The symmetries that map the puzzle onto itself, as permutations of the model's
    /// variables (the identity first); only the identity where classes are not offered.
    pub group: Vec<Vec<usize>>,
}

/// Why a puzzle's solutions cannot be counted by a certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountingError {
    /// A packing that maximises: only tilings are counted.
    #[error("counting is available for tiling models (goal = \"tile\"); this model maximises")]
    Maximising,
    /// `unique` on a family without symmetry classes.
    #[error("{}", Misuse::NotForDissections(Setting::Unique))]
    NoClasses,
}

/// What a family answers for a count certificate: the model its count is certified on,
/// how its solutions are listed, and whether a search of its own writes the refutation.
/// Each family implements it once, in a file of its name in `count/`; the certificates
/// dispatch over the registration list.
pub trait CertFamily: OwnSolution {
    /// The counting model; `unique` asks for its symmetry group.
    fn counting(&self, unique: bool) -> Result<Counting, CountingError>;

    /// How the family's solutions are listed.
    fn listing(&self) -> Listing<Self>;

    /// Writes the count's refutation (`job`) by a search of the family's own, when it has
    /// one for this instance; `None` (the default) leaves it to a SAT solver. Asked only
    /// when no solver is named.
    fn own_refutation(
        &self,
        _job: &RefutationJob<'_>,
    ) -> Option<Result<OwnRefutation, ProveError>> {
        None
    }
}

/// How a family's solutions are listed for a count certificate.
pub enum Listing<F: Family> {
    /// By the family's native count (its native search), each solution turned into an
    /// assignment of the counting model by the function.
    Native(fn(&F, &F::Solution) -> Assignment),
    /// By varisat's enumeration of the counting model, projected on its decision variables.
    Varisat {
        /// What the decision variables are, in words ("part variables").
        variables: &'static str,
        /// What the solutions are, in words ("dissections").
        solutions: &'static str,
    },
}

/// How a count's solutions were listed, and what the native count said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listed {
    /// By the native search, which counted `count` solutions.
    Native { count: u64 },
    /// By varisat's enumeration on the decision variables (`variables` in words).
    Varisat { variables: &'static str },
}

/// A count's refutation to write: the CNF, what it was built from, and where it goes.
pub struct RefutationJob<'a> {
    /// The counting model.
    pub model: &'a Model,
    /// The CNF: the model, the cuts and one blocking clause per listed solution.
    pub cnf: &'a Cnf,
    /// The listed solutions, class members expanded, as sorted true model variables.
    pub listed: &'a [Vec<usize>],
    /// The refutation's LRAT file.
    pub path: &'a Path,
    /// The limits of the run.
    pub control: &'a Control,
}

/// A refutation a family's own search wrote.
pub struct OwnRefutation {
    /// The search, for the manifest.
    pub search: &'static str,
    /// The search's nodes.
    pub nodes: u64,
}

impl Counting {
    /// The counting model of `puzzle`; `unique` asks for its symmetry group.
    pub fn of(puzzle: &Puzzle, unique: bool) -> Result<Counting, CountingError> {
        each_family!(puzzle, p => p.counting(unique))
    }

    /// The counting model of a placement puzzle on `board` (queens, chess pieces) compiled
    /// to `model`: one variable per free cell, every one deciding, and the board's
    /// symmetries as maps of those variables.
    pub(super) fn of_board(model: Model, board: &Board) -> Counting {
        let free: Vec<usize> = (0..board.free.len()).filter(|&c| board.free[c]).collect();
        let var_of_cell = board.free_numbers();
        // A symmetry of the board maps free cells onto free cells.
        let var = |cell: usize| var_of_cell[cell].expect("a free cell");
        let group = board
            .symmetry_maps()
            .into_iter()
            .map(|map| free.iter().map(|&c| var(map[c])).collect())
            .collect();
        Counting {
            decision: vec![true; model.num_vars()],
            model,
            group,
        }
    }

    /// The model assignment with exactly the variables `true_vars` (0-based) true.
    fn assignment(&self, true_vars: &[usize]) -> Assignment {
        let mut values = vec![false; self.model.num_vars()];
        for &v in true_vars {
            values[v] = true;
        }
        Assignment::new(values)
    }

    /// The blocking clause of a solution: some true decision variable of it is false.
    fn blocking_clause(&self, true_vars: &[usize]) -> Vec<Lit> {
        true_vars
            .iter()
            .filter(|&&v| self.decision[v])
            .map(|&v| Var::from_index(v).negative())
            .collect()
    }

    /// The solution's true decision variables: what makes two solutions different.
    fn key(&self, true_vars: &[usize]) -> Vec<usize> {
        true_vars
            .iter()
            .copied()
            .filter(|&v| self.decision[v])
            .collect()
    }

    /// The members of the class of `true_vars` under the group, sorted, each as its sorted
    /// true variables.
    fn class(&self, true_vars: &[usize]) -> Vec<Vec<usize>> {
        let mut members: Vec<Vec<usize>> = self
            .group
            .iter()
            .map(|perm| {
                let mut image: Vec<usize> = true_vars.iter().map(|&v| perm[v]).collect();
                image.sort_unstable();
                image
            })
            .collect();
        members.sort();
        members.dedup();
        members
    }
}

/// The solution file's text: comments saying what the lines are, then one line per entry.
fn solutions_text(entries: &[Vec<usize>], claim: &Claim, puzzle: &Puzzle) -> String {
    let mut comments = vec![
        format!("puzzlec solutions of {MODEL_FILE}: {}", claim_words(claim, puzzle)),
        "each line: the model variables true in a solution (DIMACS numbers, as named in the CNF's `c var` lines), ended by 0".to_string(),
    ];
    if matches!(
        claim,
        Claim::Count {
            classes: Some(_),
            ..
        }
    ) {
        comments.push(
            "one line per class under the symmetries that map the puzzle onto itself: its least member".to_string(),
        );
    }
    write_solutions(&comments, entries)
}

/// The claim in words: "92 solutions of value 8 (the optimum)", with the classes.
fn claim_words(claim: &Claim, puzzle: &Puzzle) -> String {
    let Claim::Count {
        count,
        value,
        classes,
    } = claim
    else {
        return String::new();
    };
    let mut words = plural(*count, "solution");
    if let Some(value) = value {
        let _ = write!(
            words,
            " of value {} (the optimum)",
            super::score_words(puzzle, *value)
        );
    }
    if let Some(classes) = classes {
        let _ = write!(words, "; {}", classes_words(classes));
    }
    words
}

/// "12 classes: 11 of size 8, 1 of size 4", largest first.
fn classes_words(classes: &BTreeMap<usize, u64>) -> String {
    let total: u64 = classes.values().sum();
    let sizes: Vec<String> = classes
        .iter()
        .rev()
        .map(|(size, n)| format!("{n} of size {size}"))
        .collect();
    let noun = if total == 1 { "class" } else { "classes" };
    format!("{total} {noun}: {}", sizes.join(", "))
}

/// Every solution of `puzzle` at `value` (the optimum, or `None`), as sorted true model
/// variables, listed as its family lists them ([`CertFamily::listing`]) and each verified by
/// the puzzle's rules here; and how they were listed.
fn list_solutions(
    puzzle: &Puzzle,
    counting: &Counting,
    value: Option<usize>,
    control: &Control,
) -> Result<(Vec<Vec<usize>>, Listed), ProveError> {
    let mut listed: Vec<Vec<usize>> = Vec::new();
    let mut wrong: Option<String> = None;
    let mut keep = |assignment: &Assignment| {
        let solution = puzzle.decode(assignment);
        if let Err(e) = puzzle.verify(&solution) {
            wrong = Some(e.to_string());
            return false;
        }
        if value.is_some_and(|v| puzzle.score(&solution) != v) {
            wrong = Some(format!(
                "a listed solution has value {}, not the optimum",
                puzzle.score(&solution)
            ));
            return false;
        }
        listed.push(
            assignment
                .values()
                .iter()
                .enumerate()
                .filter(|(_, &b)| b)
                .map(|(v, _)| v)
                .collect(),
        );
        true
    };
    let listed_by = each_family!(puzzle, p => list(p, puzzle, counting, control, &mut keep))?;
    if let Listed::Native { count } = listed_by {
        if count != listed.len() as u64 && wrong.is_none() {
            return Err(ProveError::Internal(format!(
                "the native count is {count} but {} solutions were listed",
                listed.len()
            )));
        }
    }
    if let Some(error) = wrong {
        return Err(ProveError::Internal(format!(
            "a listed solution fails verification: {error}"
        )));
    }
    listed.sort();
    Ok((listed, listed_by))
}

/// Lists the solutions of `family` (`puzzle`) as the family lists them, each handed to
/// `keep` as an assignment of the counting model (a listing stops when `keep` says false).
fn list<F: CertFamily>(
    family: &F,
    puzzle: &Puzzle,
    counting: &Counting,
    control: &Control,
    keep: &mut dyn FnMut(&Assignment) -> bool,
) -> Result<Listed, ProveError> {
    let stopped = || ProveError::Stopped(control.reason());
    match family.listing() {
        Listing::Native(assignment_of) => {
            let options = EnumerateOptions {
                list: true,
                ..EnumerateOptions::default()
            };
            let outcome = enumerate(puzzle, Backend::Native, &options, control, &mut |s| {
                let own = F::own(s).expect("the native listing gives the puzzle's own solutions");
                keep(&assignment_of(family, own));
            })
            .map_err(|e| ProveError::Internal(format!("listing the solutions: {e}")))?;
            if !outcome.complete {
                return Err(stopped());
            }
            Ok(Listed::Native {
                count: outcome.count,
            })
        }
        Listing::Varisat {
            variables,
            solutions,
        } => {
            let decision: Vec<Var> = (0..counting.decision.len())
                .filter(|&v| counting.decision[v])
                .map(Var::from_index)
                .collect();
            let found =
                crate::oracle::varisat::enumerate(&counting.model, &decision, None, control, keep)
                    .map_err(|e| ProveError::Internal(format!("listing the {solutions}: {e}")))?;
            if found.is_some_and(|f| !f.complete) {
                return Err(stopped());
            }
            Ok(Listed::Varisat { variables })
        }
    }
}

impl Listed {
    /// How the solutions were listed, in the manifest's words.
    fn words(&self) -> String {
        match self {
            Listed::Native { .. } => "native search".to_string(),
            Listed::Varisat { variables } => format!("varisat enumeration on the {variables}"),
        }
    }
}

/// `prove --count`: the optimum's certificate first (for a family with an objective), then
/// the list, the count CNF and its refutation.
pub(super) fn record(
    puzzle: &Puzzle,
    model_path: &Path,
    dir: &Path,
    model_bytes: &[u8],
    options: &super::ProveOptions,
) -> Result<Record, ProveError> {
    let usage = |message: String| ProveError::Input(InputError::file(model_path, message));
    let misused = |misuse| ProveError::Misused {
        path: model_path.to_path_buf(),
        misuse,
    };
    let counting = Counting::of(puzzle, options.unique).map_err(|e| match e {
        CountingError::NoClasses => misused(Misuse::NotForDissections(Setting::Unique)),
        CountingError::Maximising => usage(e.to_string()),
    })?;
    let control = &options.control;
    let solve_start = Instant::now();

    // The size, before anything is listed or written: a native count (fast), against the
    // limit.
    let estimate = enumerate(
        puzzle,
        Backend::Native,
        &EnumerateOptions::default(),
        control,
        &mut |_| {},
    )
    .map_err(|e| ProveError::Internal(format!("counting: {e}")))?;
    if !estimate.complete {
        return Err(ProveError::Stopped(control.reason()));
    }
    if estimate.count > options.max_listed {
        return Err(misused(Misuse::TooManyToList {
            count: estimate.count,
            limit: options.max_listed,
        }));
    }

    let (mut folder, optimum) = if puzzle.has_objective() {
        let optimum = record_answer(puzzle, model_path, dir, model_bytes, options)?;
        let Claim::Optimal { value } = optimum.claim else {
            return Err(ProveError::Internal(format!(
                "the optimum of a count came out as {:?}",
                optimum.claim
            )));
        };
        let folder = Folder {
            dir: dir.to_path_buf(),
            files: optimum.files,
        };
        (folder, Some((value, optimum.how)))
    } else {
        (Folder::fresh(dir, model_bytes)?, None)
    };
    let value = optimum.as_ref().map(|(v, _)| *v);

    let (solutions, listed_by) = list_solutions(puzzle, &counting, value, control)?;
    let count = solutions.len() as u64;
    if count != estimate.count {
        return Err(ProveError::Internal(format!(
            "{count} solutions listed, but the native count gave {}",
            estimate.count
        )));
    }
    // Representatives and classes; every member must itself be listed (a symmetric image
    // of a solution is a solution), or the listing missed one.
    let (entries, classes) = if options.unique {
        let index: HashMap<&[usize], usize> = solutions
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_slice(), i))
            .collect();
        let mut classes: BTreeMap<usize, u64> = BTreeMap::new();
        let mut representatives = Vec::new();
        for solution in &solutions {
            let members = counting.class(solution);
            if members[0] != *solution {
                continue;
            }
            if let Some(missing) = members.iter().find(|m| !index.contains_key(m.as_slice())) {
                return Err(ProveError::Internal(format!(
                    "a symmetric image of a listed solution was not listed: {missing:?}"
                )));
            }
            *classes.entry(members.len()).or_default() += 1;
            representatives.push(solution.clone());
        }
        (representatives, Some(classes))
    } else {
        (solutions.clone(), None)
    };
    let claim = Claim::Count {
        count,
        value,
        classes,
    };
    folder.put(
        "solutions",
        SOLUTIONS_FILE,
        solutions_text(&entries, &claim, puzzle).as_bytes(),
    )?;
    let solve_seconds = solve_start.elapsed().as_secs_f64();

    let refute_start = Instant::now();
    let listed = expanded(&counting, &entries, options.unique);
    let blocked: Vec<Vec<Lit>> = listed.iter().map(|s| counting.blocking_clause(s)).collect();
    let cuts = collect_cuts(&counting.model, value, &blocked, control, &mut folder)?;
    let (cnf, text, entry) = certificate_cnf(&counting.model, value, &cuts, &blocked);
    let mut search_nodes = None;
    // A search of the family's own may write the refutation (a tiling's count: CDCL solvers
    // do not refute the pentominoes' in ten minutes); an external solver when one is named.
    let own = match &options.solver {
        None => {
            let path = folder.dir.join(COUNT_REFUTATION.lrat.1);
            let job = RefutationJob {
                model: &counting.model,
                cnf: &cnf,
                listed: &listed,
                path: &path,
                control,
            };
            each_family!(puzzle, p => p.own_refutation(&job)).transpose()?
        }
        Some(_) => None,
    };
    let solver = match own {
        Some(own) => {
            search_nodes = Some(own.nodes);
            ProofSolver::Search { name: own.search }
        }
        None => ProofSolver::of(options),
    };
    let lemmas =
        solver.write_refutation(&cnf, &text, &entry, COUNT_REFUTATION, control, &mut folder)?;
    let mut how = format!(
        "{} listed ({}) and verified by the puzzle's rules; {} refuted \"{}\" ({}), checked by {}",
        plural(count, "solution"),
        listed_by.words(),
        solver.name(),
        entry.refuted.as_deref().unwrap_or_default(),
        plural(entry.clauses as u64, "clause"),
        solver.checkers(),
    );
    if let Some(lemmas) = lemmas {
        how = format!("{how} ({})", plural(lemmas as u64, "lemma"));
    }
    if let Some(nodes) = search_nodes {
        how = format!("{how}; the search took {}", plural(nodes, "node"));
    }
    if !cuts.is_empty() {
        how = format!(
            "{how}; the CNF holds {} of connected parts, recorded with their reasons in {CUTS_FILE}",
            plural(cuts.len() as u64, "cut")
        );
    }
    if let Some((_, optimum_how)) = optimum {
        how = format!("the optimum: {optimum_how}. The count: {how}");
    }
    Ok(Record {
        claim,
        how,
        encoding: entry,
        files: folder.files,
        solve_seconds,
        refute_seconds: refute_start.elapsed().as_secs_f64(),
    })
}

/// Every solution the file's entries stand for, in the CNF's order: each entry, or with
/// classes each entry's class members (sorted).
fn expanded(counting: &Counting, entries: &[Vec<usize>], classes: bool) -> Vec<Vec<usize>> {
    if !classes {
        return entries.to_vec();
    }
    entries.iter().flat_map(|e| counting.class(e)).collect()
}

/// The cuts a dissection's count CNF needs to be refuted (the solutions it still has
/// once the listed ones are blocked all break connectivity), written to [`CUTS_FILE`].
fn collect_cuts(
    model: &Model,
    value: Option<usize>,
    blocked: &[Vec<Lit>],
    control: &Control,
    folder: &mut Folder,
) -> Result<Vec<Vec<Lit>>, ProveError> {
    if model.lazy.is_empty() {
        return Ok(Vec::new());
    }
    let (cnf, _, _) = certificate_cnf(model, value, &[], blocked);
    let collected = crate::cert::cuts::collect(
        model,
        &mut crate::oracle::varisat::Varisat::new(&cnf),
        control,
    );
    let cuts = match collected {
        Ok(Some(cuts)) => cuts,
        Ok(None) => return Err(ProveError::Stopped(control.reason())),
        Err(e) => return Err(ProveError::Internal(format!("the cut loop: {e}"))),
    };
    let text = crate::cert::cuts::write(model, &cuts, MODEL_FILE, super::COUNT_CNF_FILE);
    folder.put("cuts", CUTS_FILE, text.as_bytes())?;
    Ok(cuts.into_iter().map(|r| r.cut.clause).collect())
}

/// `check` of a count certificate (see the module's documentation).
pub(super) fn check(
    folder: &CheckedFolder,
    manifest: &Manifest,
    puzzle: &Puzzle,
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    let Claim::Count {
        count,
        value,
        classes,
    } = &manifest.claim
    else {
        unreachable!("called for count claims")
    };
    let model_name = &manifest.model.file;
    let counting = Counting::of(puzzle, classes.is_some())
        .map_err(|e| failed(format!("{model_name}: {e}")))?;
    let model = &counting.model;
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest ({} puzzle, {} model variables)",
        puzzle.kind(),
        model.num_vars()
    ));
    match (puzzle.has_objective(), value) {
        (true, None) => {
            return Err(failed(format!(
                "{}: a count of a model with an objective must name its optimum (\"value\")",
                super::MANIFEST_FILE
            )))
        }
        (false, Some(_)) => {
            return Err(failed(format!(
                "{}: the model has no objective, but the count names an optimum (\"value\")",
                super::MANIFEST_FILE
            )))
        }
        _ => {}
    }
    // The optimum, certified as an optimum certificate is.
    if let Some(value) = *value {
        let optimal = Claim::Optimal { value };
        steps.push(folder.witness(puzzle, model, &optimal)?);
        let (rebuilt, entry) =
            super::refuted_dimacs(model, &optimal, &[]).expect("an optimum refutes a better value");
        steps.extend(folder.refutation(
            &rebuilt,
            &entry,
            manifest,
            super::SINGLE_REFUTATION,
            false,
        )?);
    }

    // The list: every entry (and class member) a verified solution, all distinct.
    let text = folder.text(SOLUTIONS_FILE)?;
    let entries = read_solutions(&text, model.num_vars())
        .map_err(|e| failed(format!("{SOLUTIONS_FILE}: {e}")))?;
    let mut seen: HashMap<Vec<usize>, usize> = HashMap::new();
    let mut members_in_order: Vec<Vec<usize>> = Vec::new();
    let mut found_classes: BTreeMap<usize, u64> = BTreeMap::new();
    for (line, entry) in &entries {
        let members = if classes.is_some() {
            let members = counting.class(entry);
            if members[0] != *entry {
                return Err(failed(format!(
                    "{SOLUTIONS_FILE}: line {line} is not the least member of its class"
                )));
            }
            *found_classes.entry(members.len()).or_default() += 1;
            members
        } else {
            vec![entry.clone()]
        };
        for member in members {
            let solution = puzzle.decode(&counting.assignment(&member));
            let whose = if member == *entry {
                format!("line {line}")
            } else {
                format!("a symmetric image of line {line}")
            };
            puzzle
                .verify(&solution)
                .map_err(|e| failed(format!("{SOLUTIONS_FILE}: {whose}: {e}")))?;
            if let Some(value) = value {
                let has = puzzle.score(&solution);
                if has != *value {
                    return Err(failed(format!(
                        "{SOLUTIONS_FILE}: {whose}: the solution has value {has}, not the optimum {value}"
                    )));
                }
            }
            if let Some(first) = seen.insert(counting.key(&member), *line) {
                return Err(failed(format!(
                    "{SOLUTIONS_FILE}: {whose} repeats a solution of line {first}"
                )));
            }
            members_in_order.push(member);
        }
    }
    let listed = members_in_order.len() as u64;
    if listed != *count {
        return Err(failed(format!(
            "{SOLUTIONS_FILE}: {} listed, but the manifest claims {count}",
            plural(listed, "solution")
        )));
    }
    if let Some(claimed) = classes {
        if *claimed != found_classes {
            return Err(failed(format!(
                "{SOLUTIONS_FILE}: {}, but the manifest claims {}",
                classes_words(&found_classes),
                classes_words(claimed)
            )));
        }
    }
    let what = match classes {
        Some(found) => {
            format!(
                "{} expanded by the {} that map the board onto itself into {}",
                plural(entries.len() as u64, "class representative"),
                match counting.group.len() {
                    1 => "1 symmetry".to_string(),
                    n => format!("{n} symmetries"),
                },
                plural(listed, "solution")
            ) + &format!(" ({})", classes_words(found))
        }
        None => plural(listed, "solution"),
    };
    steps.push(format!(
        "{SOLUTIONS_FILE}: SHA-256 matches the manifest; {what}, each verified by the {} rules{}, pairwise distinct",
        puzzle.kind(),
        value.map_or(String::new(), |v| format!(" with value {v}"))
    ));

    // The CNF with every one of them blocked, and its refutation.
    let cuts = if manifest.files.contains_key("cuts") {
        let (cuts, step) = folder.cuts(puzzle, model)?;
        steps.push(step);
        cuts
    } else {
        Vec::new()
    };
    let blocked: Vec<Vec<Lit>> = members_in_order
        .iter()
        .map(|m| counting.blocking_clause(m))
        .collect();
    let (_, rebuilt, entry) = certificate_cnf(model, *value, &cuts, &blocked);
    steps.extend(folder.refutation(
        &rebuilt,
        &entry,
        manifest,
        COUNT_REFUTATION,
        !cuts.is_empty(),
    )?);
    check_encoding(manifest, &entry)?;
    Ok(Checked {
        steps,
        conclusion: format!(
            "certified: {model_name} has exactly {}",
            claim_words(&manifest.claim, puzzle)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solution_file_says_what_its_lines_are() {
        let claim = Claim::Count {
            count: 2,
            value: None,
            classes: Some(BTreeMap::from([(2, 1)])),
        };
        let puzzle = Puzzle::Queens(crate::puzzle::queens::Queens::empty(1));
        let text = solutions_text(&[vec![0, 2]], &claim, &puzzle);
        assert_eq!(
            text,
            "c puzzlec solutions of model.toml: 2 solutions; 1 class: 1 of size 2\n\
             c each line: the model variables true in a solution (DIMACS numbers, as named in \
             the CNF's `c var` lines), ended by 0\n\
             c one line per class under the symmetries that map the puzzle onto itself: its \
             least member\n\
             1 3 0\n"
        );
        assert_eq!(read_solutions(&text, 3).unwrap(), vec![(4, vec![0, 2])]);
    }

    #[test]
    fn classes_are_described_largest_first() {
        let classes = BTreeMap::from([(4, 1), (8, 11)]);
        assert_eq!(
            classes_words(&classes),
            "12 classes: 11 of size 8, 1 of size 4"
        );
        assert_eq!(
            classes_words(&BTreeMap::from([(2, 1)])),
            "1 class: 1 of size 2"
        );
    }
}
