//! Certificate manifests: a certificate folder's `manifest.json`, the claim and how it was
//! established, the model and every other file with its SHA-256, as plain data (strings,
//! numbers, maps) in pretty-printed JSON. What the claim means, and holding the folder to
//! the manifest, is the certificate's; this is the document's text. A field the format does
//! not have is refused on reading.

use serde::{Deserialize, Serialize};

/// What a certificate claims about its model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Claim {
    /// The objective's best value is `value`: the witness has it, and "at least value + 1"
    /// is refuted.
    Optimal {
        /// The optimum.
        value: usize,
    },
    /// The model has no objective and the witness satisfies it; nothing is refuted.
    Satisfiable,
    /// No assignment satisfies the constraints: the constraints' CNF is refuted (with the
    /// cuts of `cuts.txt` appended, for models with lazy constraints).
    Unsatisfiable,
    /// No solution, for a reason that needs no search (a dissection of 25 cells into 2
    /// parts, say); `check` recomputes the reason. Nothing is refuted.
    Impossible {
        /// The reason, in the puzzle's words.
        reason: String,
    },
    /// The puzzle has exactly `count` optimal solutions (all solutions, for a family
    /// without an objective): every one is listed in `solutions.txt` (or, with
    /// `classes`, one member of each class under the symmetries that map the puzzle onto
    /// itself), and `count.dimacs`, the model with every listed solution blocked, is
    /// refuted. For a family with an objective the folder also certifies the optimum
    /// `value`, as [`Claim::Optimal`] does.
    Count {
        /// The number of solutions.
        count: u64,
        /// The optimum every counted solution has, for families with an objective.
        value: Option<usize>,
        /// With `--unique`: how many classes there are of each size (class size -> number
        /// of classes); in JSON a list of `{"size": 8, "classes": 11}`.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "class_sizes")]
        classes: Option<std::collections::BTreeMap<usize, u64>>,
    },
}

/// A count's classes in JSON: `[{"size": 4, "classes": 1}, {"size": 8, "classes": 11}]`
/// (a map's keys would be strings, which a tagged enum cannot read back as numbers).
mod class_sizes {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SizeEntry {
        size: usize,
        classes: u64,
    }

    pub fn serialize<S: Serializer>(
        value: &Option<BTreeMap<usize, u64>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let entries: Option<Vec<SizeEntry>> = value.as_ref().map(|map| {
            map.iter()
                .map(|(&size, &classes)| SizeEntry { size, classes })
                .collect()
        });
        entries.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<BTreeMap<usize, u64>>, D::Error> {
        let entries: Option<Vec<SizeEntry>> = Option::deserialize(deserializer)?;
        Ok(entries.map(|entries| {
            entries
                .into_iter()
                .map(|entry| (entry.size, entry.classes))
                .collect()
        }))
    }
}

/// The model file a certificate is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    /// The copy's file name inside the folder (`model.toml`).
    pub file: String,
    /// SHA-256 of the file's bytes, in lower-case hex.
    pub sha256: String,
    /// The path it was copied from: informational, not checked.
    pub source: String,
    /// The puzzle family: checked against the model file's.
    pub kind: String,
}

/// How the refuted CNF was built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodingEntry {
    /// The at-most-one encoding.
    pub at_most_one: String,
    /// How the objective is counted.
    pub objective: String,
    /// The question the CNF asks, in words ("objective at least 21", "the constraints alone").
    pub refuted: Option<String>,
    /// Variables of the CNF (model variables first, then auxiliaries).
    pub variables: usize,
    /// Clauses of the CNF.
    pub clauses: usize,
    /// Of those clauses, the last ones that are the cuts of `cuts.txt`.
    #[serde(default)]
    pub cuts: usize,
}

/// One file of the certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// The file name inside the folder.
    pub name: String,
    /// Its size in bytes: checked against the file.
    pub bytes: u64,
    /// SHA-256 of its bytes, in lower-case hex; `check` compares it before reading the file.
    /// Always written; optional only so that an entry without it gets a clear message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// Wall-clock times of `prove`, in seconds: informational, not checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Times {
    /// Finding the answer (the optimisation by the SAT backend).
    pub solve_seconds: f64,
    /// The varisat runs that wrote the proofs.
    pub refute_seconds: f64,
    /// Everything, writing the files included.
    pub total_seconds: f64,
}

/// `manifest.json`: what a certificate claims and how it was established. Every field is
/// either checked by `check` against the folder or marked informational in its doc; a
/// field the format does not have is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The manifest's format and version (`puzzlec-certificate/2`), which `check` holds
    /// to its own.
    pub format: String,
    /// The program that wrote it, with its version: informational, not checked.
    pub tool: String,
    /// The model file.
    pub model: ModelEntry,
    /// The claim.
    pub claim: Claim,
    /// How the claim was established, in words: informational, not checked (what it says
    /// is what `check` verifies).
    pub how: String,
    /// How the CNF was built: checked against the rebuilt CNF (for a count, the count's
    /// CNF); for a table certificate, step 0's, informational.
    pub encoding: EncodingEntry,
    /// The files besides the model and the manifest, by role: "witness", "cnf", "cuts",
    /// "lrat", "drat", "varisat". The folder holds these and no others.
    pub files: std::collections::BTreeMap<String, FileEntry>,
    /// How long `prove` took.
    pub times: Times,
}

/// A manifest that does not read (or, never for these types, does not write) as JSON: the
/// JSON library's own words, with its line and column.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ManifestError(#[source] serde_json::Error);

/// The manifest's text: pretty-printed JSON ended by a newline.
pub fn write_manifest_json(manifest: &Manifest) -> Result<String, ManifestError> {
    serde_json::to_string_pretty(manifest)
        .map(|text| text + "\n")
        .map_err(ManifestError)
}

/// Reads a manifest's text, refusing unknown fields.
pub fn read_manifest_json(text: &str) -> Result<Manifest, ManifestError> {
    serde_json::from_str(text).map_err(ManifestError)
}

/// An encoding entry on one line, as JSON: for messages that quote it.
pub fn encoding_json(entry: &EncodingEntry) -> String {
    serde_json::to_string(entry).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn manifest(claim: Claim) -> Manifest {
        Manifest {
            format: "f/1".into(),
            tool: "t".into(),
            model: ModelEntry {
                file: "model.toml".into(),
                sha256: "00".into(),
                source: "m.toml".into(),
                kind: "queens".into(),
            },
            claim,
            how: "by hand".into(),
            encoding: EncodingEntry {
                at_most_one: "auto".into(),
                objective: "totalizer".into(),
                refuted: Some("objective at least 3".into()),
                variables: 4,
                clauses: 5,
                cuts: 0,
            },
            files: BTreeMap::from([(
                "cnf".into(),
                FileEntry {
                    name: "cnf.dimacs".into(),
                    bytes: 10,
                    sha256: Some("ab".into()),
                },
            )]),
            times: Times {
                solve_seconds: 0.5,
                refute_seconds: 0.25,
                total_seconds: 1.0,
            },
        }
    }

    #[test]
    fn a_manifest_reads_back_what_is_written() {
        let claims = [
            Claim::Optimal { value: 2 },
            Claim::Count {
                count: 12,
                value: None,
                classes: Some(BTreeMap::from([(4, 1), (8, 1)])),
            },
        ];
        for claim in claims {
            let written = manifest(claim);
            let text = write_manifest_json(&written).unwrap();
            assert!(text.ends_with("}\n"), "{text}");
            assert_eq!(read_manifest_json(&text).unwrap(), written);
        }
        let text = write_manifest_json(&manifest(Claim::Satisfiable)).unwrap();
        assert!(text.contains("\"answer\": \"satisfiable\""), "{text}");
    }

    #[test]
    fn a_field_the_format_does_not_have_is_refused() {
        let text = write_manifest_json(&manifest(Claim::Unsatisfiable)).unwrap();
        let extra = text.replacen("\"how\"", "\"why\": 1,\n  \"how\"", 1);
        let error = read_manifest_json(&extra).unwrap_err().to_string();
        assert!(error.starts_with("unknown field `why`"), "{error}");
    }
}
