//! Reading a certificate folder back: its manifest and files, each hash compared, the
//! witness verified by the rules, and each refutation rebuilt and checked by our own checkers.

use super::{
    parse_witness, CheckError, Claim, Manifest, RefutationFiles, CUTS_FILE, FORMAT, MANIFEST_FILE,
    WITNESS_FILE,
};
use crate::base::digest::{sha256_hex, sha256_hex_of};
use crate::cert::refute::check_with_varisat;
use crate::checkers::drat::{check_drat, ProofEncoding};
use crate::checkers::lrat::{check_lrat_reader, parse_dimacs};
use crate::formats::manifest::{encoding_json, read_manifest_json};
use crate::model::{Assignment, Lit, Model};
use crate::puzzle::load::parse_model;
use crate::puzzle::Puzzle;
use std::path::Path;

pub(super) fn failed(message: String) -> CheckError {
    CheckError::Failed(message)
}

/// The witness file `name` (its `text`, over `num_vars` model variables) read, decoded and
/// verified by `puzzle`'s rules, and of the claimed value when `claim` is an optimum: the
/// assignment and the step line saying so. Every certificate route checks its witness here.
pub(crate) fn verified_witness(
    name: &str,
    text: &str,
    num_vars: usize,
    puzzle: &Puzzle,
    claim: &Claim,
) -> Result<(Assignment, String), CheckError> {
    let witness = parse_witness(text, num_vars).map_err(|e| failed(format!("{name}: {e}")))?;
    let solution = puzzle.decode(&witness);
    puzzle
        .verify(&solution)
        .map_err(|e| failed(format!("{name}: {e}")))?;
    // A claim's value is the model's score.
    let value = puzzle.score(&solution);
    if let Claim::Optimal { value: claimed } = *claim {
        if value != claimed {
            return Err(failed(format!(
                "{name}: the solution has value {value}, the manifest claims {claimed}"
            )));
        }
    }
    let solution = if puzzle.has_objective() {
        format!("a solution of value {}", super::score_words(puzzle, value))
    } else {
        "a solution".to_string()
    };
    let step = format!(
        "{name}: {solution}, verified by the {} rules",
        puzzle.kind()
    );
    Ok((witness, step))
}

/// The manifest's `encoding` entry must describe the CNF `check` rebuilt (`expected`): a
/// manifest that misstates its CNF's size or encoding is refused, not just ignored.
pub(super) fn check_encoding(
    manifest: &Manifest,
    expected: &super::EncodingEntry,
) -> Result<(), CheckError> {
    if manifest.encoding == *expected {
        return Ok(());
    }
    let said = encoding_json(&manifest.encoding);
    let is = encoding_json(expected);
    Err(failed(format!(
        "{MANIFEST_FILE}: the encoding entry {said} does not describe the rebuilt CNF, which is {is}"
    )))
}

/// Reads the folder's manifest, of this [`FORMAT`].
pub(super) fn read_manifest(dir: &Path) -> Result<Manifest, CheckError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    if !dir.is_dir() {
        return Err(CheckError::NotACertificate(format!(
            "{}: not a certificate folder (no such directory)",
            dir.display()
        )));
    }
    let manifest_text = std::fs::read_to_string(&manifest_path).map_err(|e| {
        CheckError::NotACertificate(format!("{}: cannot read: {e}", manifest_path.display()))
    })?;
    let manifest =
        read_manifest_json(&manifest_text).map_err(|e| failed(format!("{MANIFEST_FILE}: {e}")))?;
    if manifest.format != FORMAT {
        return Err(failed(format!(
            "{MANIFEST_FILE}: format {:?} is not {FORMAT:?}",
            manifest.format
        )));
    }
    Ok(manifest)
}

/// The folder being checked, for reading its files with messages that name them.
pub(super) struct CheckedFolder<'a> {
    pub(super) dir: &'a Path,
    /// Where the verified CNFs are written (`check --write-cnf`), if anywhere.
    pub(super) write_cnf: Option<&'a Path>,
}

impl CheckedFolder<'_> {
    pub(super) fn read(&self, name: &str) -> Result<Vec<u8>, CheckError> {
        std::fs::read(self.dir.join(name)).map_err(|e| failed(format!("{name}: cannot read: {e}")))
    }

    pub(super) fn text(&self, name: &str) -> Result<String, CheckError> {
        String::from_utf8(self.read(name)?).map_err(|_| failed(format!("{name}: not UTF-8 text")))
    }

    /// The name of the file the manifest lists under `role`.
    pub(super) fn file_of<'m>(
        &self,
        manifest: &'m Manifest,
        role: &str,
    ) -> Result<&'m str, CheckError> {
        manifest
            .files
            .get(role)
            .map(|e| e.name.as_str())
            .ok_or_else(|| failed(format!("{MANIFEST_FILE}: no {role} file listed")))
    }

    /// The model file, which must be the one the certificate was made for.
    pub(super) fn model(&self, manifest: &Manifest) -> Result<Puzzle, CheckError> {
        let model_name = &manifest.model.file;
        let model_bytes = self.read(model_name)?;
        let hash = sha256_hex(&model_bytes);
        if hash != manifest.model.sha256 {
            return Err(failed(format!(
                "{model_name}: SHA-256 {hash} differs from the manifest's {} (the model file was changed)",
                manifest.model.sha256
            )));
        }
        let model_text = String::from_utf8(model_bytes)
            .map_err(|_| failed(format!("{model_name}: not UTF-8 text")))?;
        let puzzle = parse_model(&self.dir.join(model_name), model_text)
            .map_err(|e| failed(format!("{model_name}: {e}")))?;
        if manifest.model.kind != puzzle.kind() {
            return Err(failed(format!(
                "{MANIFEST_FILE}: the model's kind is {:?}, but {model_name} is a {} puzzle",
                manifest.model.kind,
                puzzle.kind()
            )));
        }
        Ok(puzzle)
    }

    /// The witness satisfies the puzzle's rules and has the claimed value.
    pub(super) fn witness(
        &self,
        puzzle: &Puzzle,
        model: &Model,
        claim: &Claim,
    ) -> Result<String, CheckError> {
        let text = self.text(WITNESS_FILE)?;
        verified_witness(WITNESS_FILE, &text, model.num_vars(), puzzle, claim).map(|(_, step)| step)
    }

    /// Every recorded cut holds in every solution, by the puzzle's rules; the cut clauses,
    /// in the file's order.
    pub(super) fn cuts(
        &self,
        puzzle: &Puzzle,
        model: &Model,
    ) -> Result<(Vec<Vec<Lit>>, String), CheckError> {
        let cut_text = self.text(CUTS_FILE)?;
        let parsed = crate::cert::cuts::parse(&cut_text, model.num_vars())
            .map_err(|e| failed(format!("{CUTS_FILE}: {e}")))?;
        crate::cert::cuts::verify(model, &parsed)
            .map_err(|e| failed(format!("{CUTS_FILE}: {e}")))?;
        let names: Vec<&str> = model.lazy.iter().map(|l| l.name()).collect();
        let step = format!(
            "{CUTS_FILE}: SHA-256 matches the manifest; {} cuts, each verified from the {} rules ({})",
            parsed.len(),
            puzzle.kind(),
            names.join(", ")
        );
        let clauses = parsed
            .into_iter()
            .map(|cut| cut.recorded.cut.clause)
            .collect();
        Ok((clauses, step))
    }

    /// The CNF file of `files` is exactly `rebuilt` (the CNF the model, the claim, the cuts
    /// (`with_cuts`) and, for a count, the listed solutions give, described by `entry`), and
    /// every proof of it the manifest lists refutes it (at least one of puzzlec's own
    /// checkers must run).
    pub(super) fn refutation(
        &self,
        rebuilt: &str,
        entry: &super::EncodingEntry,
        manifest: &Manifest,
        files: RefutationFiles,
        with_cuts: bool,
    ) -> Result<Vec<String>, CheckError> {
        let (
            cnf_file,
            (lrat_role, lrat_file),
            (drat_role, drat_file),
            (varisat_role, varisat_file),
        ) = (files.cnf.1, files.lrat, files.drat, files.varisat);
        let model_name = &manifest.model.file;
        let found = self.text(cnf_file)?;
        let mut source = model_name.to_string();
        if with_cuts {
            source = format!("{source} and {CUTS_FILE}");
        }
        if files == super::COUNT_REFUTATION {
            source = format!("{source} and {}", super::SOLUTIONS_FILE);
        }
        if let Some(difference) = first_difference(rebuilt, &found) {
            return Err(failed(format!(
                "{cnf_file} differs from the CNF rebuilt from {source}: {difference}"
            )));
        }
        if let Some(out) = self.write_cnf {
            write_verified_cnf(out, cnf_file, rebuilt)?;
        }
        let refuted = entry.refuted.clone().unwrap_or_default();
        let with_cuts = if entry.cuts == 0 {
            String::new()
        } else {
            format!(" with {} cuts", entry.cuts)
        };
        let mut steps = vec![format!(
            "{cnf_file}: identical to the CNF rebuilt from {source} ({refuted}{with_cuts}; {} variables, {} clauses)",
            entry.variables, entry.clauses
        )];
        let (num_vars, clauses) =
            parse_dimacs(&found).map_err(|e| failed(format!("{cnf_file}: {e}")))?;
        let listed = |role: &str| manifest.files.contains_key(role);
        if !listed(lrat_role) && !listed(drat_role) {
            return Err(failed(format!(
                "{MANIFEST_FILE}: no proof of {cnf_file} is listed ({lrat_file} or {drat_file})"
            )));
        }
        if listed(lrat_role) {
            let path = self.dir.join(lrat_file);
            let lrat = std::fs::File::open(&path)
                .map_err(|e| failed(format!("{lrat_file}: cannot read: {e}")))?;
            let lrat = std::io::BufReader::with_capacity(1 << 20, lrat);
            let stats = check_lrat_reader(num_vars, &clauses, lrat).map_err(|e| {
                failed(format!(
                    "{lrat_file} does not refute {cnf_file} (puzzlec's LRAT checker): {e}"
                ))
            })?;
            steps.push(format!(
                "{lrat_file}: refutes {cnf_file} (puzzlec's LRAT checker: {} additions, {} hints)",
                stats.additions, stats.hints
            ));
        }
        if listed(drat_role) {
            let drat = self.read(drat_file)?;
            let summary =
                check_drat(num_vars, &clauses, &drat, ProofEncoding::Text).map_err(|e| {
                    failed(format!(
                        "{drat_file} does not refute {cnf_file} (puzzlec's DRAT checker): {e}"
                    ))
                })?;
            steps.push(format!(
                "{drat_file}: refutes {cnf_file} (puzzlec's DRAT checker: {} lemmas, {} in the core)",
                summary.lemmas, summary.core_lemmas
            ));
        }
        if listed(varisat_role) {
            let native = self.read(varisat_file)?;
            check_with_varisat(num_vars, &clauses, &native[..]).map_err(|e| {
                failed(format!(
                    "{varisat_file} does not refute {cnf_file} (varisat's checker): {e}"
                ))
            })?;
            steps.push(format!(
                "{varisat_file}: refutes {cnf_file} (varisat's checker)"
            ));
        }
        Ok(steps)
    }
}
/// Holds the folder `dir` to its manifest: every file the manifest lists is there, each one in
/// [`Manifest::files`] with the SHA-256 recorded, and there is no other file. The files whose
/// role `deferred` picks are only found present at the size listed: the caller hashes those
/// it needs ([`check_digest`]; a shard's check, the other shards' proofs, which their own
/// checks hash). The model's own hash is compared by [`check`] next. Returns the step line,
/// if any file is listed.
pub(super) fn check_files(
    dir: &Path,
    manifest: &Manifest,
    deferred: &dyn Fn(&str) -> bool,
) -> Result<Option<String>, CheckError> {
    let failed = CheckError::Failed;
    // Names come from the manifest: only plain names inside the folder are acceptable.
    let plain =
        |name: &str| !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']);
    let mut listed = std::collections::BTreeSet::from([MANIFEST_FILE]);
    for name in
        std::iter::once(&manifest.model.file).chain(manifest.files.values().map(|e| &e.name))
    {
        if !plain(name) {
            return Err(failed(format!(
                "{MANIFEST_FILE}: {name:?} is not the name of a file in the folder"
            )));
        }
        if !listed.insert(name) {
            return Err(failed(format!("{MANIFEST_FILE}: {name} is listed twice")));
        }
    }
    if !dir.join(&manifest.model.file).is_file() {
        return Err(missing(&manifest.model.file));
    }
    let (mut hashed, mut sized) = (Vec::new(), Vec::new());
    for (role, entry) in &manifest.files {
        if deferred(role) {
            let name = &entry.name;
            let length = std::fs::metadata(dir.join(name)).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => missing(name),
                _ => failed(format!("{name}: cannot read: {e}")),
            })?;
            if length.len() != entry.bytes {
                return Err(failed(format!(
                    "{name}: {} bytes, but the manifest says {}",
                    length.len(),
                    entry.bytes
                )));
            }
            sized.push(name.as_str());
        } else {
            check_digest(dir, entry)?;
            hashed.push(entry.name.as_str());
        }
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|e| failed(format!("{}: cannot list: {e}", dir.display())))?;
    let mut extra: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| failed(format!("{}: cannot list: {e}", dir.display())))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !listed.contains(name.as_str()) {
            extra.push(name);
        }
    }
    extra.sort();
    if let Some(name) = extra.first() {
        return Err(failed(format!(
            "{name}: not listed in the manifest (a certificate folder holds only the files its manifest lists)"
        )));
    }
    if manifest.files.is_empty() {
        return Ok(None);
    }
    let sized = if sized.is_empty() {
        String::new()
    } else {
        format!(
            "; {} present at the sizes listed, each hashed by its own shard's check",
            sized.join(", ")
        )
    };
    Ok(Some(format!(
        "files: SHA-256 matches the manifest for each of {} ({}){sized}, and the folder holds no other file",
        hashed.len(),
        hashed.join(", ")
    )))
}

/// "`name`: listed in the manifest but missing from the folder".
fn missing(name: &str) -> CheckError {
    failed(format!(
        "{name}: listed in the manifest but missing from the folder"
    ))
}

/// The file of `entry` in `dir` has the SHA-256 and the size the manifest records.
pub(super) fn check_digest(dir: &Path, entry: &super::FileEntry) -> Result<(), CheckError> {
    let name = &entry.name;
    // Streamed: a search's proof runs to gigabytes.
    let digest = std::fs::File::open(dir.join(name)).and_then(sha256_hex_of);
    let (hash, length) = match digest {
        Ok(digest) => digest,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing(name)),
        Err(e) => return Err(failed(format!("{name}: cannot read: {e}"))),
    };
    let Some(expected) = &entry.sha256 else {
        return Err(failed(format!(
            "{MANIFEST_FILE}: the entry of {name} has no sha256"
        )));
    };
    if hash != *expected {
        return Err(failed(format!(
            "{name}: SHA-256 {hash} differs from the manifest's {expected} (the file was changed)"
        )));
    }
    if length != entry.bytes {
        return Err(failed(format!(
            "{name}: {length} bytes, but the manifest says {} (its SHA-256 matches: the manifest misstates the size)",
            entry.bytes
        )));
    }
    Ok(())
}

/// Writes a CNF that `check` rebuilt and found identical to the folder's, for outside
/// checkers (`check --write-cnf`).
fn write_verified_cnf(out: &Path, name: &str, text: &str) -> Result<(), CheckError> {
    let path = out.join(name);
    std::fs::write(&path, text)
        .map_err(|e| failed(format!("{}: cannot write: {e}", path.display())))
}

/// Where two texts first differ, by line, in words; `None` when they are identical.
pub(super) fn first_difference(expected: &str, found: &str) -> Option<String> {
    if expected == found {
        return None;
    }
    let mut expected_lines = expected.lines();
    let mut found_lines = found.lines();
    let mut line = 1;
    loop {
        match (expected_lines.next(), found_lines.next()) {
            (Some(e), Some(f)) if e == f => line += 1,
            (Some(e), Some(f)) => {
                return Some(format!("line {line} is {f:?}, expected {e:?}"));
            }
            (Some(e), None) => return Some(format!("line {line} is missing, expected {e:?}")),
            (None, Some(f)) => return Some(format!("line {line} is extra: {f:?}")),
            // Same lines, different line endings or final newline.
            (None, None) => return Some("the line endings differ".to_string()),
        }
    }
}
