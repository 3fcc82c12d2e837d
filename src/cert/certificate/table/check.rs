//! `check` of a table certificate: the witness and the table's shape (shared with the
//! sharded VeriPB certificate), then every step's CNF rebuilt and its proof checked, in
//! parallel.

use std::path::Path;

use rayon::prelude::*;

use super::super::read::CheckedFolder;
use super::super::{
    verified_witness, CheckError, Checked, Claim, Manifest, MANIFEST_FILE, MODEL_FILE,
};
use super::file::{check_shape, Table};
use super::steps::{
    check_step_proof, clauses_of, step_cnf, step_dimacs, step_name, Ranking, StepProofError,
    PROOF_KINDS,
};
use super::{applies, TABLE_FILE, TABLE_ROLE};
use crate::base::shard::Shard;
use crate::model::Var;
use crate::puzzle::packing::Packing;
use crate::puzzle::Puzzle;

/// Why `check` rejects one step.
#[derive(Debug, thiserror::Error)]
pub enum StepCheckError {
    /// The manifest lists no proof of the step.
    #[error("no proof: {MANIFEST_FILE} lists no {step} file (the step is missing)")]
    Missing {
        /// The step's name (`step-NNN`).
        step: String,
    },
    /// The manifest lists a step file with a name puzzlec does not know.
    #[error("{file}: a step proof is named {step}.lrat or {step}.drat or {step}.drat.gz")]
    BadName {
        /// The file listed.
        file: String,
        /// The step's name (`step-NNN`).
        step: String,
    },
    /// A file of the step cannot be read.
    #[error("{file}: cannot read: {source}")]
    CannotRead {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The rebuilt CNF could not be written (`check --write-cnf`).
    #[error("cannot write {}: {source}", file.display())]
    CannotWrite {
        /// The file.
        file: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A stored CNF differs from the one rebuilt from the model and the table.
    #[error("{file} differs from the CNF rebuilt from {MODEL_FILE} and {TABLE_FILE} (first at line {line})")]
    CnfDiffers {
        /// The stored CNF.
        file: String,
        /// The first line that differs (1-based).
        line: usize,
    },
    /// The proof does not refute the rebuilt CNF.
    #[error("{file} does not refute the step's CNF ({source})")]
    Proof {
        /// The proof file.
        file: String,
        /// Why.
        source: StepProofError,
    },
}

/// The packing `puzzle` is and the optimum `manifest` claims, which every certificate
/// built on a Russian-doll table needs: `what` names the certificate in the errors ("a
/// table certificate"), `file` the file the first error is about.
pub(in crate::cert::certificate) fn packing_and_optimum<'p>(
    puzzle: &'p Puzzle,
    manifest: &Manifest,
    file: &str,
    what: &str,
) -> Result<(&'p Packing, usize), CheckError> {
    let model_name = &manifest.model.file;
    let Some(packing) = applies(puzzle) else {
        return Err(CheckError::Failed(format!(
            "{file}: {what} is for a maximum packing without piece minimums, and {model_name} is not one"
        )));
    };
    let Claim::Optimal { value: optimum } = manifest.claim else {
        return Err(CheckError::Failed(format!(
            "{MANIFEST_FILE}: {what} certifies an optimum"
        )));
    };
    Ok((packing, optimum))
}

/// Checks the parts a table certificate and a sharded VeriPB one share, pushing a line for
/// each into `steps`: the model's line, the witness (a packing by the rules of `optimum`
/// pieces) and the table (a scan order, and entries shaped as a Russian-doll table the
/// witness fits, `S[0] = optimum`). `position` names a table position in errors ("step",
/// "entry"), `at` says where `S[0]` stands. The table and its ranking of placements.
pub(in crate::cert::certificate) fn check_table_and_witness(
    folder: &CheckedFolder,
    manifest: &Manifest,
    (puzzle, packing): (&Puzzle, &Packing),
    optimum: usize,
    (position, at): (&str, &str),
    steps: &mut Vec<String>,
) -> Result<(Table, Ranking), CheckError> {
    let model_name = &manifest.model.file;
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest (packing puzzle, {} placements)",
        packing.instance.placements.len()
    ));
    let files = (
        folder.file_of(manifest, "witness")?,
        folder.file_of(manifest, TABLE_ROLE)?,
    );
    table_and_witness(
        folder,
        files,
        (puzzle, packing),
        (optimum, None),
        (position, at),
        steps,
    )
}

/// [`check_table_and_witness`] of the files `witness_name` and `table_name`, the model
/// already checked; `parsed` is the table where the caller has read it already (else it is
/// read after the witness).
pub(in crate::cert::certificate) fn table_and_witness(
    folder: &CheckedFolder,
    (witness_name, table_name): (&str, &str),
    (puzzle, packing): (&Puzzle, &Packing),
    (optimum, parsed): (usize, Option<Table>),
    (position, at): (&str, &str),
    steps: &mut Vec<String>,
) -> Result<(Table, Ranking), CheckError> {
    let failed = CheckError::Failed;
    let num_vars = packing.instance.placements.len();
    let (witness, step) = verified_witness(
        witness_name,
        &folder.text(witness_name)?,
        num_vars,
        puzzle,
        &Claim::Optimal { value: optimum },
    )?;
    steps.push(step);

    let table = match parsed {
        Some(table) => table,
        None => Table::parse(&folder.text(table_name)?, packing.width, packing.height)
            .map_err(|e| failed(format!("{table_name}: {e}")))?,
    };
    let ranking = Ranking::new(packing, &table.order);
    let chosen: Vec<usize> = (0..num_vars)
        .filter(|&i| witness.value(Var::from_index(i)))
        .collect();
    check_shape(&table, &ranking.first, &chosen, optimum)
        .map_err(|e| failed(format!("{table_name}: {position} {}: {e}", e.position())))?;
    steps.push(format!(
        "{table_name}: a scan order of the {} cells and a table with S = {optimum}{at}, never falling by more than one, never below the witness",
        table.order.len()
    ));
    Ok((table, ranking))
}

/// Checks a table certificate in `dir` whose manifest and files (SHA-256 of every listed file,
/// no other file) and model hash were already verified; `steps` holds the lines so far.
/// With `shard`, only that shard's step proofs are checked (the conclusion then says the
/// certificate is partly checked).
pub fn check(
    dir: &Path,
    manifest: &Manifest,
    puzzle: &Puzzle,
    shard: Option<Shard>,
    write_cnf: Option<&Path>,
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    let failed = CheckError::Failed;
    let model_name = &manifest.model.file;
    let (packing, optimum) =
        packing_and_optimum(puzzle, manifest, TABLE_FILE, "a table certificate")?;
    let folder = CheckedFolder {
        dir,
        write_cnf: None,
    };
    let (table, ranking) = check_table_and_witness(
        &folder,
        manifest,
        (puzzle, packing),
        optimum,
        ("step", " at position 0"),
        &mut steps,
    )?;
    let positions = table.order.len();
    let table_name = folder.file_of(manifest, TABLE_ROLE)?;

    // Every step: its CNF rebuilt, its proof checked. In parallel; the first failing step
    // (by index) is reported.
    let owned: Vec<usize> = (0..positions)
        .filter(|&c| shard.is_none_or(|s| s.owns(c)))
        .collect();
    let results: Vec<Result<StepChecked, StepCheckError>> = owned
        .par_iter()
        .map(|&c| check_step(dir, manifest, packing, &ranking, &table, c, write_cnf))
        .collect();
    let (mut lrat, mut drat, mut stored, mut lemmas) = (0usize, 0usize, 0usize, 0usize);
    for (&c, result) in owned.iter().zip(results) {
        let cell = table.order[c];
        let checked = result.map_err(|e| {
            failed(format!(
                "step {c} (position {c}, cell ({}, {})): {e}",
                cell % packing.width,
                cell / packing.width
            ))
        })?;
        if checked.kind == "lrat" {
            lrat += 1;
        } else {
            drat += 1;
        }
        stored += usize::from(checked.stored_cnf);
        lemmas += checked.lemmas;
    }
    let which = match shard {
        Some(s) => format!("the {} steps of shard {s}", owned.len()),
        None => format!("all {positions} steps"),
    };
    let stored = if stored > 0 {
        format!("; {stored} stored CNFs identical to the rebuilt ones")
    } else {
        String::new()
    };
    steps.push(format!(
        "{which}: each step's CNF rebuilt from {model_name} and {table_name}, and refuted by its proof ({lrat} LRAT proofs checked by puzzlec's LRAT checker, {drat} DRAT proofs checked by puzzlec's DRAT checker; {lemmas} lemmas in all){stored}"
    ));
    let conclusion = match shard {
        Some(s) if s.count > 1 => format!(
            "partly certified: shard {s} of the table steps of {model_name} holds (the optimum {optimum} is certified once every shard 1/{}..{}/{} passes)",
            s.count, s.count, s.count
        ),
        _ => format!("certified: {optimum} is the optimum of {model_name}"),
    };
    Ok(Checked { steps, conclusion })
}

/// What [`check_step`] verified.
struct StepChecked {
    /// One of [`PROOF_KINDS`].
    kind: &'static str,
    /// Lemmas (LRAT additions, DRAT lemmas) in the proof.
    lemmas: usize,
    /// Whether a stored CNF was compared with the rebuilt one.
    stored_cnf: bool,
}

/// Checks step `c`: the manifest lists its proof, a stored CNF (if any) is the rebuilt one,
/// and the proof refutes the rebuilt CNF.
fn check_step(
    dir: &Path,
    manifest: &Manifest,
    packing: &Packing,
    ranking: &Ranking,
    table: &Table,
    c: usize,
    write_cnf: Option<&Path>,
) -> Result<StepChecked, StepCheckError> {
    let name = step_name(c, table.order.len());
    let Some(entry) = manifest.files.get(&name) else {
        return Err(StepCheckError::Missing { step: name });
    };
    let Some(kind) = PROOF_KINDS
        .into_iter()
        .find(|kind| entry.name == format!("{name}.{kind}"))
    else {
        return Err(StepCheckError::BadName {
            file: entry.name.clone(),
            step: name,
        });
    };
    let cnf = step_cnf(packing, ranking, table, c);
    let stored_cnf = match manifest.files.get(&format!("{name}-cnf")) {
        None => false,
        Some(cnf_entry) => {
            let found = std::fs::read(dir.join(&cnf_entry.name)).map_err(|source| {
                StepCheckError::CannotRead {
                    file: cnf_entry.name.clone(),
                    source,
                }
            })?;
            let rebuilt = step_dimacs(packing, ranking, table, c, &cnf);
            if found != rebuilt.as_bytes() {
                let found = String::from_utf8_lossy(&found);
                let line = rebuilt
                    .lines()
                    .zip(found.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| rebuilt.lines().count().min(found.lines().count()))
                    + 1;
                return Err(StepCheckError::CnfDiffers {
                    file: cnf_entry.name.clone(),
                    line,
                });
            }
            true
        }
    };
    let proof =
        std::fs::read(dir.join(&entry.name)).map_err(|source| StepCheckError::CannotRead {
            file: entry.name.clone(),
            source,
        })?;
    let lemmas =
        check_step_proof(kind, cnf.num_vars, &clauses_of(&cnf), &proof).map_err(|source| {
            StepCheckError::Proof {
                file: entry.name.clone(),
                source,
            }
        })?;
    if let Some(out) = write_cnf {
        // The step's CNF, as rebuilt and refuted: `step-NNN.cnf` beside `step-NNN.drat.gz`.
        let path = out.join(format!("{name}.cnf"));
        std::fs::write(&path, step_dimacs(packing, ranking, table, c, &cnf))
            .map_err(|source| StepCheckError::CannotWrite { file: path, source })?;
    }
    Ok(StepChecked {
        kind,
        lemmas,
        stored_cnf,
    })
}

#[cfg(test)]
mod tests {
    use super::super::steps::PROOF_KINDS;
    use super::StepCheckError;

    #[test]
    fn a_misnamed_step_file_lists_every_proof_kind() {
        let names: Vec<String> = PROOF_KINDS.map(|k| format!("step-007.{k}")).to_vec();
        let error = StepCheckError::BadName {
            file: "step-007.txt".into(),
            step: "step-007".into(),
        };
        assert_eq!(
            error.to_string(),
            format!("step-007.txt: a step proof is named {}", names.join(" or "))
        );
    }
}
