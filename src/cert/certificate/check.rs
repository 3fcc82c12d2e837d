//! `check`: re-verify a certificate folder without trusting any of its files.

use super::read::{check_encoding, check_files, failed, read_manifest, CheckedFolder};
use super::table;
use super::{refuted_dimacs, CheckError, Checked, Claim, Replay, SINGLE_REFUTATION};
use crate::base::shard::Shard;
use crate::puzzle::Puzzle;
use std::path::Path;

/// Re-verifies the certificate in `dir`; every step is listed in the result. Fails at the
/// first check that does not hold, saying which.
///
/// ```
/// let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/halves-impossible.toml");
/// let dir = std::env::temp_dir().join(format!("puzzlec-doc-check-{}", std::process::id()));
/// puzzlec::prove(&model, &dir)?;
/// let checked = puzzlec::check(&dir)?;
/// assert_eq!(checked.conclusion, "certified: model.toml has no solution");
/// std::fs::write(dir.join("proof.drat"), "0\n")?; // tampered: the hash no longer matches
/// assert!(puzzlec::check(&dir).unwrap_err().to_string().starts_with("proof.drat: SHA-256"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(dir: &Path) -> Result<Checked, CheckError> {
    check_shard(dir, None)
}

/// [`check`], checking of a packing-table certificate only the step proofs of `shard`
/// (of a sharded search-written one, the glue and the proof of `shard`).
pub fn check_shard(dir: &Path, shard: Option<Shard>) -> Result<Checked, CheckError> {
    check_writing(dir, shard, None)
}

/// [`check_shard`], and with `write_cnf` a folder into which every CNF the check rebuilt and
/// verified a proof against is written, named to pair with its proof in `dir`
/// (`cnf.dimacs`, `count.dimacs`, `step-NNN.cnf`), so that outside checkers such as
/// drat-trim and lrat-check can judge every proof with no puzzlec code. A CNF is written
/// once its own comparison has passed; a check that fails later leaves those before it.
pub fn check_writing(
    dir: &Path,
    shard: Option<Shard>,
    write_cnf: Option<&Path>,
) -> Result<Checked, CheckError> {
    check_using(
        dir,
        &CheckOptions {
            shard,
            write_cnf,
            replay: Replay::None,
            replay_scratch: None,
        },
    )
}

/// How [`check_using`] goes about a certificate.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions<'a> {
    /// Check one shard's proofs only (see [`check_shard`]).
    pub shard: Option<Shard>,
    /// Write the verified CNFs there (see [`check_writing`]).
    pub write_cnf: Option<&'a Path>,
    /// Of a streamed certificate: the shards to regenerate from the model and check again,
    /// comparing their proofs' SHA-256 with the records'.
    pub replay: Replay,
    /// Replays: `veripb` reads each proof from an unnamed file on the disk of this folder
    /// rather than from memory (as `prove --scratch`). `None`: memory.
    pub replay_scratch: Option<&'a Path>,
}

/// [`check`] as `options` say. A streamed run under way (its plan, no manifest yet) is
/// checked as far as its records go and answered with [`CheckError::UnderWay`].
pub fn check_using(dir: &Path, options: &CheckOptions) -> Result<Checked, CheckError> {
    let CheckOptions {
        shard,
        write_cnf,
        replay,
        replay_scratch,
    } = *options;
    if !dir.join(super::MANIFEST_FILE).exists() && super::doll_proof::holds_plan(dir) {
        if shard.is_some() {
            return Err(failed(
                "--shard: a streamed run holds no proofs to split; --replay N regenerates one shard".to_string(),
            ));
        }
        let checked = super::doll_proof::check_under_way(dir, (&replay, replay_scratch))?;
        return Err(CheckError::UnderWay(checked));
    }
    let manifest = read_manifest(dir)?;
    if let Some(out) = write_cnf {
        std::fs::create_dir_all(out).map_err(|e| {
            CheckError::NotACertificate(format!("{}: cannot create: {e}", out.display()))
        })?;
    }
    let folder = CheckedFolder { dir, write_cnf };
    let mut steps = Vec::new();
    // One shard's check of a sharded search-written proof hashes that shard's proof only.
    let sharded = shard.is_some() && super::doll_proof::is_sharded(&manifest);
    let deferred = |role: &str| sharded && super::doll_proof::is_shard_proof_role(role);
    if let Some(step) = check_files(dir, &manifest, &deferred)? {
        steps.push(step);
    }
    let model_name = &manifest.model.file;
    let puzzle = folder.model(&manifest)?;
    match &manifest.claim {
        Claim::Count { .. } => return super::count::check(&folder, &manifest, &puzzle, steps),
        Claim::Impossible { reason } => {
            check_encoding(&manifest, &super::unrefuted_encoding(&puzzle.compile()))?;
            return check_impossible(&puzzle, model_name, reason, steps);
        }
        Claim::Optimal { .. } | Claim::Satisfiable | Claim::Unsatisfiable => {}
    }
    let streamed = super::doll_proof::is_streamed(&manifest);
    if streamed && shard.is_some() {
        return Err(failed(
            "--shard: a streamed certificate holds no proofs to split; --replay N regenerates one shard".to_string(),
        ));
    }
    if replay != Replay::None && !streamed {
        return Err(failed(
            "--replay: only a streamed certificate's shards are replayed; this one stores its proofs".to_string(),
        ));
    }
    if streamed {
        let replay = (&replay, replay_scratch);
        return super::doll_proof::check_streamed(&folder, &manifest, &puzzle, replay, steps);
    }
    if super::doll_proof::is_sharded(&manifest) {
        return super::doll_proof::check_shards(&folder, &manifest, &puzzle, shard, steps);
    }
    if manifest.files.contains_key(super::doll_proof::PROOF_ROLE) {
        return super::doll_proof::check(&folder, &manifest, &puzzle, steps);
    }
    if manifest.files.contains_key(table::TABLE_ROLE) {
        return table::check(dir, &manifest, &puzzle, shard, write_cnf, steps);
    }
    let model = puzzle.compile();
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest ({} puzzle, {} model variables)",
        puzzle.kind(),
        model.num_vars()
    ));
    if matches!(manifest.claim, Claim::Optimal { .. } | Claim::Satisfiable) {
        steps.push(folder.witness(&puzzle, &model, &manifest.claim)?);
    }
    let cuts =
        if super::refuted_bound(&manifest.claim).is_some() && manifest.files.contains_key("cuts") {
            // Its SHA-256 was compared by `check_files`.
            let (cuts, step) = folder.cuts(&puzzle, &model)?;
            steps.push(step);
            cuts
        } else {
            Vec::new()
        };
    match refuted_dimacs(&model, &manifest.claim, &cuts) {
        Some((rebuilt, entry)) => {
            steps.extend(folder.refutation(
                &rebuilt,
                &entry,
                &manifest,
                SINGLE_REFUTATION,
                !cuts.is_empty(),
            )?);
            check_encoding(&manifest, &entry)?;
        }
        None => check_encoding(&manifest, &super::unrefuted_encoding(&model))?,
    }

    let conclusion = match manifest.claim {
        Claim::Optimal { value } => format!(
            "certified: {} is the optimum of {model_name}",
            super::score_words(&puzzle, value)
        ),
        Claim::Satisfiable => format!("certified: {model_name} has a solution"),
        Claim::Unsatisfiable => format!("certified: {model_name} has no solution"),
        Claim::Impossible { .. } | Claim::Count { .. } => {
            unreachable!("impossibility and count records return above")
        }
    };
    Ok(Checked { steps, conclusion })
}

/// An impossibility by counting alone: the rules must give the same reason again.
fn check_impossible(
    puzzle: &Puzzle,
    model_name: &str,
    reason: &str,
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest ({} puzzle)",
        puzzle.kind()
    ));
    match puzzle.trivially_impossible() {
        Some(again) if again == reason => {
            steps.push(format!(
                "{model_name}: {again} (recomputed from the {} rules)",
                puzzle.kind()
            ));
            Ok(Checked {
                steps,
                conclusion: format!("certified: {model_name} has no solution ({again})"),
            })
        }
        Some(again) => Err(failed(format!(
            "{model_name}: the {} rules give the reason {again:?}, not the manifest's {reason:?}",
            puzzle.kind()
        ))),
        None => Err(failed(format!(
            "{model_name}: the manifest claims {reason:?}, but the {} rules find no such reason (nothing is refuted, so there is no proof of impossibility)",
            puzzle.kind()
        ))),
    }
}
