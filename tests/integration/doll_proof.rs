//! The Russian doll's own VeriPB proofs (`engines::russian_doll::write_proof`): accepted by
//! puzzlec's PB checker and by `veripb` with the known optima, and refused by both when a
//! line is removed, a table entry's bound is lowered or the conclusion is changed.

use std::path::{Path, PathBuf};
use std::process::Command;

use puzzlec::checkers::pb::{check_pb_files, PbConclusion, PbStats};
use puzzlec::engines::russian_doll::{
    group_opb, packing_opb, shard_opb, solve, state_frontier, state_opb, write_proof_with,
    write_shard_proof, write_state_proof, DollOptions, DollProof, DollProofError, DollProofOptions,
    DollStateProof, StateClaim, StateOpb,
};
use puzzlec::formats::opb::{write_opb, OpbFile};
use puzzlec::puzzle::{load_model_file, Puzzle};

/// The crosses of the shipped 13 x 19 model in a `width x height` box.
fn crosses(dir: &Path, width: usize, height: usize) -> PathBuf {
    resized(dir, "cross", (13, 19), (width, height))
}

/// The V pentominoes of the shipped 14 x 14 model in an `n x n` square.
fn v_pentominoes(dir: &Path, n: usize) -> PathBuf {
    resized(dir, "v-pentomino", (14, 14), (n, n))
}

/// The shipped model `models/NAME-WxH.toml` (its box `shipped`) with the box `size`,
/// written into `dir`.
fn resized(dir: &Path, name: &str, shipped: (usize, usize), size: (usize, usize)) -> PathBuf {
    let file = |(width, height): (usize, usize)| format!("{name}-{width}x{height}.toml");
    let model = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(file(shipped)),
    )
    .unwrap()
    .replace(
        &format!("width = {}", shipped.0),
        &format!("width = {}", size.0),
    )
    .replace(
        &format!("height = {}", shipped.1),
        &format!("height = {}", size.1),
    );
    let path = dir.join(file(size));
    std::fs::write(&path, model).unwrap();
    path
}

/// Writes the OPB file and the doll's proof for the crosses in `width x height`; the
/// optimum found.
fn prove(dir: &Path, width: usize, height: usize) -> (PathBuf, PathBuf, usize) {
    let (opb, pbp, outcome) = proved(dir, width, height);
    (opb, pbp, outcome.optimum)
}

/// [`prove`], with what the proof-writing run reports.
fn proved(dir: &Path, width: usize, height: usize) -> (PathBuf, PathBuf, DollProof) {
    proved_with(dir, width, height, &DollProofOptions::default())
}

/// [`proved`] with the search's rules of `options`.
fn proved_with(
    dir: &Path,
    width: usize,
    height: usize,
    options: &DollProofOptions,
) -> (PathBuf, PathBuf, DollProof) {
    let model = crosses(dir, width, height);
    proved_from(dir, &model, &format!("{width}x{height}"), options)
}

/// The OPB file (`dir/STEM.opb`) and the doll's proof (`dir/STEM.pbp`) of the packing
/// model `model`, by the search's rules of `options`, and what the run reports.
fn proved_from(
    dir: &Path,
    model: &Path,
    stem: &str,
    options: &DollProofOptions,
) -> (PathBuf, PathBuf, DollProof) {
    let Puzzle::Packing(packing) = load_model_file(model).unwrap() else {
        panic!("a packing model")
    };
    let stem = dir.join(stem);
    let (opb_path, pbp_path) = (stem.with_extension("opb"), stem.with_extension("pbp"));
    let stop = || false;
    let (opb, _) = packing_opb(&packing.instance);
    write_opb_file(&opb_path, &opb);
    let mut proof = Vec::new();
    let outcome = write_proof_with(&packing.instance, options, &mut proof, &stop).unwrap();
    std::fs::write(&pbp_path, proof).unwrap();
    // The packing is checked by the puzzle's own rules.
    assert_eq!(
        packing.instance.check_packing(&outcome.best),
        Ok(outcome.optimum)
    );
    (opb_path, pbp_path, outcome)
}

/// Writes the OPB file `file` at `path`.
fn write_opb_file(path: &Path, file: &OpbFile) {
    let mut bytes = Vec::new();
    write_opb(file, &mut bytes, &|| false).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn veripb_or_skip(test: &str) -> bool {
    let found = puzzlec::oracle::external::on_path("veripb");
    if !found {
        crate::common::report_missing(test, &["veripb (cargo install veripb --locked)".into()]);
    }
    found
}

/// `veripb`'s verdict: its `s ...` line when it accepted, `None` when it refused.
fn veripb_verdict(opb: &Path, pbp: &Path) -> Option<String> {
    let output = Command::new("veripb").arg(opb).arg(pbp).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    output.status.success().then(|| {
        text.lines()
            .find(|l| l.starts_with("s "))
            .unwrap_or("")
            .to_string()
    })
}

#[test]
fn the_dolls_proofs_give_the_known_optima_to_both_checkers() {
    let test = "the_dolls_proofs_give_the_known_optima_to_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    // The optima of docs/packing-optima.md.
    for (width, height, optimum) in [(6, 6, 2), (7, 7, 2), (8, 8, 4), (9, 9, 5), (10, 14, 10)] {
        let (opb, pbp, found) = prove(dir.path(), width, height);
        assert_eq!(found, optimum, "{width} x {height}");
        let stats = both_accept(&opb, &pbp, optimum, veripb, &format!("{width} x {height}"));
        assert!(stats.red > 0 && stats.hinted_rup > 0);
    }
}

#[test]
fn tampered_doll_proofs_are_refused_by_both_checkers() {
    let test = "tampered_doll_proofs_are_refused_by_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp, optimum) = prove(dir.path(), 8, 8);
    let text = std::fs::read_to_string(&pbp).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let rebuilt = |lines: Vec<String>| lines.join("\n") + "\n";
    let owned = || lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    // A node's clause removed: every later ID shifts, and the hints no longer lead to a
    // conflict.
    let mut removed = owned();
    let at = removed
        .iter()
        .position(|l| l.starts_with("rup") && l.contains("~u"))
        .unwrap();
    removed.remove(at);
    // The last table entry's bound one lower: "at most optimum - 1" is not implied.
    let mut lowered = owned();
    let last_entry = lowered
        .iter()
        .rposition(|l| l.starts_with("rup 1 ~u0_"))
        .expect("entry 0's unit");
    lowered[last_entry] = format!("rup 1 ~u0_{optimum} >= 1 ;");
    // The conclusion claims one piece fewer at most ("objective at least -(optimum - 1)").
    let mut claimed = owned();
    let conclusion = claimed
        .iter()
        .position(|l| l.starts_with("conclusion"))
        .unwrap();
    let value = -(optimum as i64);
    claimed[conclusion] = claimed[conclusion].replacen(
        &format!("BOUNDS {value} :"),
        &format!("BOUNDS {} :", value + 1),
        1,
    );
    for (what, lines) in [
        ("removed", removed),
        ("lowered", lowered),
        ("claimed", claimed),
    ] {
        let path = dir.path().join(format!("{what}.pbp"));
        std::fs::write(&path, rebuilt(lines)).unwrap();
        let refused = check_pb_files(&opb, &path);
        assert!(
            refused.is_err(),
            "puzzlec's checker accepted the {what} proof"
        );
        if veripb {
            assert_eq!(
                veripb_verdict(&opb, &path),
                None,
                "veripb accepted the {what} proof"
            );
        }
    }
}

#[test]
fn dead_cells_in_memo_keys_are_proved_and_a_false_state_clause_is_refused() {
    let test = "dead_cells_in_memo_keys_are_proved_and_a_false_state_clause_is_refused";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp, outcome) = proved(dir.path(), 10, 10);
    // The optimum of docs/packing-optima.md, from states whose keys hold dead cells and
    // memo hits that cite clauses naming them.
    assert_eq!(outcome.optimum, 6);
    assert!(
        outcome.dead_keys > 1000 && outcome.dead_hits > 100,
        "{outcome:?}"
    );
    both_accept(&opb, &pbp, 6, veripb, "10 x 10");
    // A searched node's clause (cells ~e, then ~u) without its cells: "fewer than k pieces
    // from q on", false, since the search reached q needing k only where S[q] >= k.
    let text = std::fs::read_to_string(&pbp).unwrap();
    let state = text
        .lines()
        .find(|l| l.starts_with("rup 1 ~e") && l.contains("~u") && !l.contains("~x"))
        .expect("a node's clause");
    let (clause, hints) = state.split_once(" >= 1 : ").unwrap();
    let counter = clause.split(" 1 ").find(|l| l.starts_with("~u")).unwrap();
    let tampered = text.replacen(state, &format!("rup 1 {counter} >= 1 : {hints}"), 1);
    let path = dir.path().join("tampered.pbp");
    std::fs::write(&path, tampered).unwrap();
    let refused = check_pb_files(&opb, &path).expect_err("puzzlec's checker accepted it");
    assert!(
        refused
            .to_string()
            .contains("not implied by unit propagation over its hints"),
        "{refused}"
    );
    if veripb {
        assert_eq!(veripb_verdict(&opb, &path), None, "veripb accepted it");
    }
}

/// Asserts that puzzlec's PB checker, and `veripb` when `veripb`, accept the proof `pbp`
/// of `opb` concluding the optimum `optimum` (`what` names it in failures), every `rup`
/// with its hints; the checker's counts.
fn both_accept(opb: &Path, pbp: &Path, optimum: usize, veripb: bool, what: &str) -> PbStats {
    let value = -(optimum as i64);
    both_accept_bounds(opb, pbp, (value, Some(value)), veripb, what)
}

/// Both checkers accept the proof, concluding the objective's bounds `(lower, upper)`
/// (`None`: infinite), every `rup` with its hints.
fn both_accept_bounds(
    opb: &Path,
    pbp: &Path,
    (lower, upper): (i64, Option<i64>),
    veripb: bool,
    what: &str,
) -> PbStats {
    let outcome = check_pb_files(opb, pbp).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        outcome.conclusion,
        PbConclusion::Bounds {
            lower: Some(lower),
            upper
        },
        "{what}"
    );
    assert_eq!(outcome.stats.rup, 0, "{what}: every rup names its hints");
    if veripb {
        let upper = upper.map_or("INF".to_string(), |u| u.to_string());
        assert_eq!(
            veripb_verdict(opb, pbp).as_deref(),
            Some(format!("s VERIFIED BOUNDS {lower} <= obj <= {upper}").as_str()),
            "veripb on {what}"
        );
    }
    outcome.stats
}

/// The IDs of the constraints `lines` of a proof add, by line (`None`: adds none), from
/// its `f N` on.
fn constraint_ids(lines: &[&str]) -> Vec<Option<u64>> {
    let mut next = 0;
    lines
        .iter()
        .map(|line| {
            let rule = line.split(' ').next().unwrap_or("");
            if rule == "f" {
                next = line[2..].trim_end_matches(" ;").parse::<u64>().unwrap() + 1;
            }
            matches!(rule, "rup" | "pol" | "red").then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

#[test]
fn the_lookahead_cut_is_proved_and_its_tampered_steps_are_refused() {
    let test = "the_lookahead_cut_is_proved_and_its_tampered_steps_are_refused";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let off = DollProofOptions {
        lookahead: 0,
        ..DollProofOptions::default()
    };
    let (_, _, without) = proved_with(dir.path(), 10, 10, &off);
    let (opb, pbp, outcome) = proved(dir.path(), 10, 10);
    // The optimum of docs/packing-optima.md, with fewer nodes for the cuts.
    assert_eq!((outcome.optimum, without.optimum), (6, 6));
    assert_eq!(without.lookahead_cuts, 0);
    assert!(outcome.lookahead_cuts > 100, "{outcome:?}");
    assert!(outcome.nodes < without.nodes, "{outcome:?} {without:?}");
    both_accept(&opb, &pbp, 6, veripb, "10 x 10");
    let text = std::fs::read_to_string(&pbp).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let ids = constraint_ids(&lines);
    // A cut: its sum, its clause, the sum deleted.
    let cuts: Vec<usize> = (0..lines.len() - 2)
        .filter(|&i| {
            lines[i].starts_with("pol ")
                && lines[i + 1].starts_with("rup ")
                && lines[i + 2] == format!("del id {} ;", ids[i].unwrap())
        })
        .collect();
    assert!(cuts.len() as u64 >= outcome.lookahead_cuts);
    // "at most S[D] from D on": `pol definition entry factor * +`.
    let at_most: std::collections::HashSet<String> = lines
        .iter()
        .zip(&ids)
        .filter(|(l, _)| {
            l.starts_with("pol ") && l.ends_with(" * + ;") && l.split(' ').count() == 7
        })
        .map(|(_, id)| id.unwrap().to_string())
        .collect();
    let tampered = |at: usize, line: String| {
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[at] = line;
        changed.join("\n") + "\n"
    };
    // 1. A cut's clause without its counter `~u{q}_{k}`: "not all these cells stay free".
    let clause = lines[cuts[0] + 1];
    let (lits, hints) = clause.split_once(" >= 1 : ").unwrap();
    let counter = lits.split(" 1 ").find(|l| l.starts_with("~u")).unwrap();
    let without_counter = lits.replacen(&format!(" 1 {counter}"), "", 1);
    let no_counter = tampered(cuts[0] + 1, format!("{without_counter} >= 1 : {hints}"));
    // 2. A cut's sum without the bound at D_k: the pieces from D_k on are no longer counted
    // out.
    let cut = *cuts
        .iter()
        .find(|&&i| at_most.contains(lines[i].split(' ').nth(2).unwrap()))
        .expect("a cut citing the entry at its D_k");
    let bound = lines[cut].split(' ').nth(2).unwrap();
    let no_bound = tampered(cut, lines[cut].replacen(&format!(" {bound} +"), "", 1));
    // 3. A group's "not both" without one of its placements: "never this placement".
    let pair = lines
        .iter()
        .position(|l| {
            l.starts_with("rup 1 ~x") && l.split(" : ").next().unwrap().matches("~x").count() == 2
        })
        .expect("a pair's clause of a group that shares no cell");
    let (pair_lits, pair_hints) = lines[pair].split_once(" >= 1 : ").unwrap();
    let one = pair_lits.rsplit_once(" 1 ").unwrap().0;
    let no_partner = tampered(pair, format!("{one} >= 1 : {pair_hints}"));
    for (what, proof, line) in [
        (
            "a cut's clause without its counter",
            no_counter,
            cuts[0] + 2,
        ),
        ("a cut's sum without the bound at D_k", no_bound, cut + 2),
        ("a pair's clause with one placement", no_partner, pair + 1),
    ] {
        let path = dir.path().join("tampered.pbp");
        std::fs::write(&path, proof).unwrap();
        let refused = check_pb_files(&opb, &path).expect_err(what);
        assert!(
            refused
                .to_string()
                .starts_with(&format!("proof line {line}: rup: ")),
            "{what}: {refused}"
        );
        if veripb {
            assert_eq!(veripb_verdict(&opb, &path), None, "veripb accepted {what}");
        }
    }
}

#[test]
fn the_area_cut_is_proved_and_its_tampered_sums_are_refused() {
    let test = "the_area_cut_is_proved_and_its_tampered_sums_are_refused";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let off = DollProofOptions {
        area: false,
        ..DollProofOptions::default()
    };
    // The most V pentominoes in an n x n square (OEIS A214294): 12 in 8 x 8, 14 in 9 x 9.
    for (n, optimum) in [(8, 12), (9, 14)] {
        let model = v_pentominoes(dir.path(), n);
        let (opb, pbp, outcome) =
            proved_from(dir.path(), &model, "v", &DollProofOptions::default());
        assert_eq!(outcome.optimum, optimum, "{n} x {n}");
        assert!(outcome.area_cuts > 100, "{outcome:?}");
        both_accept(&opb, &pbp, optimum, veripb, &format!("V in {n} x {n}"));
        let (_, _, without) = proved_from(dir.path(), &model, "v-without", &off);
        assert_eq!((without.optimum, without.area_cuts), (optimum, 0));
    }
    // Pieces of two sizes: each V counts its two cells beyond the L tromino's three by its
    // literal axiom in the far sums. 16 (the area: 49 cells / 3) in 7 x 7.
    let mixed = dir.path().join("v-and-l-7x7.toml");
    let pieces = "[[piece]]\nname = \"V\"\nshape = \"\"\"\n#..\n#..\n###\n\"\"\"\n\n\
                  [[piece]]\nname = \"L\"\nshape = \"\"\"\n#.\n##\n\"\"\"\n";
    let model = format!(
        "kind = \"packing\"\ndescription = \"V pentominoes and L trominoes\"\n\
         width = 7\nheight = 7\ngoal = \"maximise\"\n\n{pieces}"
    );
    std::fs::write(&mixed, model).unwrap();
    let options = DollProofOptions::default();
    let (opb, pbp, outcome) = proved_from(dir.path(), &mixed, "mixed", &options);
    assert_eq!(outcome.optimum, 16);
    assert!(outcome.area_cuts > 100, "{outcome:?}");
    both_accept(&opb, &pbp, 16, veripb, "V and L in 7 x 7");
    // Tampered, on the 9 x 9 proof left in v.pbp: each sum still derives something true,
    // but no longer the node's clause, so a later line that needs it fails.
    let (opb, pbp) = (dir.path().join("v.opb"), dir.path().join("v.pbp"));
    let text = std::fs::read_to_string(&pbp).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let ids = constraint_ids(&lines);
    let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
    // The area sums: `pol DEFINITION 5 * [FAR +] ;`, 5 cells to a V.
    let sums: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let w = words(lines[i]);
            w[0] == "pol" && w.len() >= 5 && w[2] == "5" && w[3] == "*"
        })
        .collect();
    let sum_ids: std::collections::HashSet<String> =
        sums.iter().map(|&i| ids[i].unwrap().to_string()).collect();
    // The cuts: `pol SUM CELL + .. DIVISOR d ;`.
    let cut = (0..lines.len())
        .find(|&i| {
            let w = words(lines[i]);
            w[0] == "pol" && sum_ids.contains(&w[1]) && w[w.len() - 2] == "d" && w.len() > 8
        })
        .expect("an area cut");
    let tampered = |at: usize, line: String| {
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[at] = line;
        changed.join("\n") + "\n"
    };
    // 1. A cut without its area sum: the pieces still needed are not counted.
    let mut cut_words = words(lines[cut]);
    cut_words.remove(3);
    cut_words.remove(1);
    let no_sum = tampered(cut, cut_words.join(" "));
    // 2. An area sum with the definition taken 4 times instead of 5: each placement counts
    // one cell short, and its literal stays in every cut made from the sum.
    let used = lines[cut].split(' ').nth(1).unwrap();
    let sum = sums
        .iter()
        .copied()
        .find(|&i| ids[i].unwrap().to_string() == used)
        .unwrap();
    let short = tampered(sum, lines[sum].replacen(" 5 * ", " 4 * ", 1));
    for (what, proof, after) in [
        ("an area cut without its area sum", no_sum, cut),
        ("an area sum one cell short", short, sum),
    ] {
        let path = dir.path().join("tampered.pbp");
        std::fs::write(&path, proof).unwrap();
        let refused = check_pb_files(&opb, &path).expect_err(what).to_string();
        let line: usize = refused
            .strip_prefix("proof line ")
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{what}: {refused}"));
        assert!(
            line > after + 1 && refused.contains(": rup: "),
            "{what}: {refused}"
        );
        if veripb {
            assert_eq!(veripb_verdict(&opb, &path), None, "veripb accepted {what}");
        }
    }
}

/// The cut by each scan row's LP dual weights is justified in the proof too: skew
/// tetrominoes in 10 x 10 (23, OEIS A355477) and V pentominoes in 9 x 9 (14), both
/// checkers accept, with fewer nodes than without the weights; a weighted sum taking the
/// definition once less than the divisor is refused at a later line.
#[test]
fn the_weighted_cut_is_proved_and_a_short_weighted_sum_is_refused() {
    let test = "the_weighted_cut_is_proved_and_a_short_weighted_sum_is_refused";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let control = puzzlec::base::Control::unlimited();
    let mut tampered = 0;
    for (model, optimum, area) in [
        (
            resized(dir.path(), "skew-tetromino", (14, 14), (10, 10)),
            23,
            4,
        ),
        (v_pentominoes(dir.path(), 9), 14, 5),
    ] {
        let Puzzle::Packing(packing) = load_model_file(&model).unwrap() else {
            panic!("a packing model")
        };
        let weights =
            puzzlec::driver::packing_bounds::row_lp_weights(&packing.instance, &control, &never);
        let options = DollProofOptions {
            row_weights: &weights,
            ..DollProofOptions::default()
        };
        let (opb, pbp, outcome) = proved_from(dir.path(), &model, "weighted", &options);
        let what = format!("{}", model.display());
        assert_eq!(outcome.optimum, optimum, "{what}");
        assert!(outcome.weight_cuts > 100, "{what}: {outcome:?}");
        both_accept(&opb, &pbp, optimum, veripb, &what);
        let (_, _, without) =
            proved_from(dir.path(), &model, "plain", &DollProofOptions::default());
        assert_eq!((without.optimum, without.weight_cuts), (optimum, 0));
        assert!(
            outcome.nodes < without.nodes,
            "{what}: {outcome:?} {without:?}"
        );
        // A weighted sum, `pol DEFINITION D * [FAR +]` with D the weights' divisor (the
        // area sums take the piece's cells), as the first term of a cut `pol SUM .. d`.
        let text = std::fs::read_to_string(&pbp).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let ids = constraint_ids(&lines);
        let words = |i: usize| lines[i].split(' ').collect::<Vec<_>>();
        let by_id: std::collections::HashMap<String, usize> = (0..lines.len())
            .filter_map(|i| ids[i].map(|id| (id.to_string(), i)))
            .collect();
        let is_sum = |i: usize| {
            let w = words(i);
            w[0] == "pol"
                && w.len() >= 5
                && w[3] == "*"
                && w[2].parse::<u64>().is_ok_and(|d| d > 1 && d != area)
        };
        // Weights whose divisor is 1 (whole weights) have no shorter sum to tamper with.
        let Some(sum) = (0..lines.len()).find_map(|i| {
            let w = words(i);
            let cut = w[0] == "pol" && w.len() > 6 && w[w.len() - 2] == "d";
            let first = by_id.get(*w.get(1)?).copied()?;
            (cut && is_sum(first)).then_some(first)
        }) else {
            continue;
        };
        tampered += 1;
        let divisor: u64 = lines[sum].split(' ').nth(2).unwrap().parse().unwrap();
        let short = lines[sum].replacen(
            &format!(" {divisor} * "),
            &format!(" {} * ", divisor - 1),
            1,
        );
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[sum] = short;
        let path = dir.path().join("tampered.pbp");
        std::fs::write(&path, changed.join("\n") + "\n").unwrap();
        let refused = check_pb_files(&opb, &path)
            .expect_err("a short weighted sum")
            .to_string();
        assert!(refused.contains(": rup: "), "{what}: {refused}");
        if veripb {
            assert_eq!(veripb_verdict(&opb, &path), None, "veripb accepted {what}");
        }
    }
    assert!(
        tampered > 0,
        "no weighted sum with a divisor above 1 to tamper with"
    );
}

/// `prove` gives its proof search each scan row's LP dual weights (as `solve` gives the
/// doll): V pentominoes in 10 x 10 (18) as one proof makes weight cuts, and `check`
/// certifies the folder with both checkers.
#[test]
fn prove_makes_the_weighted_cut_in_its_proof() {
    let dir = tempfile::tempdir().unwrap();
    let model = v_pentominoes(dir.path(), 10);
    let folder = crate::common::prove_with(dir.path(), &model, &["--veripb-shards", "0"]);
    let manifest = std::fs::read_to_string(folder.join("manifest.json")).unwrap();
    let cuts: u64 = manifest
        .split(" weight cuts)")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no weight cuts named: {manifest}"));
    assert!(cuts > 100, "{cuts}");
    let checked = puzzlec::check(&folder).unwrap();
    assert_eq!(
        checked.conclusion,
        "certified: 18 is the optimum of model.toml"
    );
}

/// `prove --veripb --veripb-shards 0` (one proof) of the crosses in 8 x 8 into a fresh
/// folder; the folder.
fn certificate(dir: &Path) -> PathBuf {
    let model = crosses(dir, 8, 8);
    let folder = dir.join("cert");
    let run = crate::common::puzzlec(
        dir,
        &[
            "prove",
            model.to_str().unwrap(),
            "--veripb",
            "--veripb-shards",
            "0",
            "-o",
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("optimal 4: certificate in"),
        "{}",
        run.stdout
    );
    folder
}

#[test]
fn prove_veripb_writes_a_folder_that_check_verifies_with_both_checkers() {
    let test = "prove_veripb_writes_a_folder_that_check_verifies_with_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let folder = certificate(dir.path());
    let checked = puzzlec::check(&folder).unwrap();
    assert_eq!(
        checked.conclusion,
        "certified: 4 is the optimum of model.toml"
    );
    let said = checked.steps.join("\n");
    assert!(
        said.contains(
            "model.opb: the packing model of model.toml, rebuilt and compared byte for byte"
        ),
        "{said}"
    );
    assert!(said.contains("puzzlec's PB checker accepts"), "{said}");
    if veripb {
        assert!(
            said.contains("veripb says \"s VERIFIED BOUNDS -4 <= obj <= -4\""),
            "{said}"
        );
    }
}

#[test]
fn a_tampered_veripb_certificate_is_refused_with_the_file_and_checker_named() {
    let dir = tempfile::tempdir().unwrap();
    let folder = certificate(dir.path());
    let refusal = |folder: &Path| puzzlec::check(folder).unwrap_err().to_string();
    // The proof changed, the manifest not: the hash.
    let backup = std::fs::read(folder.join("proof.pbp")).unwrap();
    crate::common::edit_unhashed(&folder, "proof.pbp", "rup ", "rup 1 x1 ");
    assert!(
        refusal(&folder).starts_with("proof.pbp: SHA-256"),
        "{}",
        refusal(&folder)
    );
    // A node's clause removed, the manifest updated as a knowing tamperer would: the PB
    // checker refuses it, naming the line.
    let text = String::from_utf8(backup).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("rup") && l.contains("~u"))
        .unwrap();
    lines.remove(at);
    std::fs::write(folder.join("proof.pbp"), lines.join("\n") + "\n").unwrap();
    crate::common::rehash(&folder, "proof.pbp");
    let said = refusal(&folder);
    assert!(
        said.starts_with("proof.pbp: puzzlec's PB checker: "),
        "{said}"
    );
    assert!(said.contains("line"), "{said}");
    // The OPB file loosened (a cell's at-most-one dropped) and rehashed: it is no longer
    // the model's.
    let opb = std::fs::read_to_string(folder.join("model.opb")).unwrap();
    let loosened: Vec<&str> = opb.lines().filter(|l| !l.ends_with(">= -1 ;")).collect();
    std::fs::write(folder.join("model.opb"), loosened.join("\n") + "\n").unwrap();
    crate::common::rehash(&folder, "model.opb");
    assert_eq!(
        refusal(&folder),
        "model.opb: not the OPB file of model.toml (rebuilt from the model, it differs)"
    );
}

/// One shard of [`prove_shards`].
struct ShardFiles {
    opb: PathBuf,
    pbp: PathBuf,
    range: std::ops::Range<usize>,
    lookahead_cuts: u64,
    area_cuts: u64,
}

/// The packing model `model` proved in `count` shards of equal ranges.
fn prove_shards(dir: &Path, model: &Path, count: usize) -> Vec<ShardFiles> {
    let Puzzle::Packing(packing) = load_model_file(model).unwrap() else {
        panic!("a packing model")
    };
    let name = model.file_stem().unwrap().to_str().unwrap();
    let instance = &packing.instance;
    let outcome = solve(instance, &DollOptions::default(), |_, _| {}).unwrap();
    let entries: Vec<usize> = outcome.table.iter().map(|e| e.unwrap()).collect();
    let cells = outcome.order.len();
    let stop = || false;
    (0..count)
        .map(|i| {
            let range = i * cells / count..(i + 1) * cells / count;
            let shard = shard_opb(instance, &outcome.order, &entries, range.clone());
            let stem = dir.join(format!("{name}-{}-{}", range.start, range.end));
            let (opb_path, pbp_path) = (stem.with_extension("opb"), stem.with_extension("pbp"));
            write_opb_file(&opb_path, &shard.file);
            let mut proof = Vec::new();
            let written = write_shard_proof(instance, &shard, &entries, &mut proof, &stop)
                .unwrap_or_else(|e| panic!("shard {range:?}: {e}"));
            assert_eq!(written.entries, entries[range.clone()]);
            std::fs::write(&pbp_path, proof).unwrap();
            ShardFiles {
                opb: opb_path,
                pbp: pbp_path,
                range,
                lookahead_cuts: written.lookahead_cuts,
                area_cuts: written.area_cuts,
            }
        })
        .collect()
}

#[test]
fn each_shard_proof_is_accepted_by_both_checkers() {
    let test = "each_shard_proof_is_accepted_by_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let mut cuts = Vec::new();
    let models = [
        (crosses(dir.path(), 8, 8), 1),
        (crosses(dir.path(), 8, 8), 3),
        (crosses(dir.path(), 9, 9), 4),
        (v_pentominoes(dir.path(), 9), 3),
    ];
    for (model, count) in models {
        let shards = prove_shards(dir.path(), &model, count);
        let name = model.file_stem().unwrap().to_str().unwrap();
        // A shard's proof swapped for another's: refused by both checkers.
        if let [first, second, ..] = &shards[..] {
            assert!(check_pb_files(&first.opb, &second.pbp).is_err());
            if veripb {
                assert_eq!(veripb_verdict(&first.opb, &second.pbp), None);
            }
        }
        // The cuts in the shards too (their later entries are premises): the lookahead, and
        // the area cut on the entries whose cells hold by area few more pieces than the
        // target (V pentominoes: the crosses' lookahead leaves it nothing to cut).
        let lookahead: u64 = shards.iter().map(|shard| shard.lookahead_cuts).sum();
        let area: u64 = shards.iter().map(|shard| shard.area_cuts).sum();
        cuts.push((lookahead, area));
        assert!(lookahead + area > 0, "{name} in {count}: no cut");
        for ShardFiles {
            opb, pbp, range, ..
        } in shards
        {
            let what = format!("{name}, entries {range:?}");
            let outcome = check_pb_files(&opb, &pbp).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                outcome.conclusion,
                PbConclusion::Bounds {
                    lower: Some(0),
                    upper: None
                },
                "{what}"
            );
            if veripb {
                assert_eq!(
                    veripb_verdict(&opb, &pbp).as_deref(),
                    Some("s VERIFIED BOUNDS 0 <= obj <= INF"),
                    "veripb on {what}"
                );
            }
        }
    }
    // Both kinds are in the shards' proofs, checked above.
    assert!(
        cuts.iter().any(|c| c.0 > 0) && cuts.iter().any(|c| c.1 > 0),
        "lookahead and area cuts per configuration: {cuts:?}"
    );
}

#[test]
fn without_a_shard_count_prove_cuts_shards_small_enough_to_check_within_max_memory() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 11, 11);
    let folder = dir.path().join("cert");
    let (model, out) = (model.to_str().unwrap(), folder.to_str().unwrap());
    // 12 MiB: shards estimated under 0.4 of it, from the fast doll's 48 k nodes of 11 x 11
    // (its rising entries count none: their proofs are one line each).
    let args = ["prove", model, "--veripb", "--max-memory", "12M", "-o", out];
    let run = crate::common::puzzlec(dir.path(), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let shards = std::fs::read_dir(&folder)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("pbp".as_ref()))
        .count();
    assert_eq!(shards, cores.max(6), "{}", run.stdout);
    assert!(
        run.stderr.contains(&format!(
            "proved in {shards} shard(s) (more than {cores}, so that each is estimated under 5033164 bytes: about 28827600 bytes in all, 600 per node of the fast doll)"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(
        puzzlec::check(&folder).unwrap().conclusion,
        "certified: 8 is the optimum of model.toml"
    );
    // A count given is kept.
    let args = [
        "prove",
        model,
        "--veripb",
        "--max-memory",
        "12M",
        "--veripb-shards",
        "2",
        "-o",
    ];
    let two = dir.path().join("two");
    let run = crate::common::puzzlec(dir.path(), &[&args[..], &[two.to_str().unwrap()]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("proved in 2 shard(s) by"),
        "{}",
        run.stderr
    );
}

/// `prove --veripb` with `args` of the crosses in 9 x 9 into `dir/name`; the folder and its
/// shard stems (`shard-AAA-BBB`), first to last.
fn sharded_certificate(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, Vec<String>) {
    let model = crosses(dir, 9, 9);
    let folder = dir.join(name);
    let mut all = vec![
        "prove",
        model.to_str().unwrap(),
        "--veripb",
        "-o",
        folder.to_str().unwrap(),
    ];
    all.extend(args);
    let run = crate::common::puzzlec(dir, &all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("optimal 5: certificate in"),
        "{}",
        run.stdout
    );
    let mut stems: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".pbp").map(str::to_string)
        })
        .collect();
    stems.sort();
    (folder, stems)
}

#[test]
fn a_sharded_veripb_certificate_is_checked_shard_by_shard_with_its_glue() {
    let test = "a_sharded_veripb_certificate_is_checked_shard_by_shard_with_its_glue";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    // Without --veripb-shards: one shard per core (at most: a range never splits an entry).
    let (default_folder, default) = sharded_certificate(dir.path(), "default", &[]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(!default.is_empty() && default.len() <= cores, "{default:?}");
    assert_eq!(
        puzzlec::check(&default_folder).unwrap().conclusion,
        "certified: 5 is the optimum of model.toml"
    );
    let (folder, stems) = sharded_certificate(dir.path(), "cert", &["--veripb-shards", "3"]);
    assert_eq!(stems.len(), 3, "{stems:?}");
    assert_eq!(stems[0][..9], *"shard-000");
    assert!(stems[2].ends_with("-081"), "{stems:?}");
    let checked = puzzlec::check(&folder).unwrap();
    assert_eq!(
        checked.conclusion,
        "certified: 5 is the optimum of model.toml"
    );
    let said = checked.steps.join("\n");
    assert!(
        said.contains("manifest.json: 3 shards whose ranges tile the entries 0..81"),
        "{said}"
    );
    for stem in &stems {
        assert!(
            said.contains(&format!("{stem}.pbp: puzzlec's PB checker accepts")),
            "{said}"
        );
        if veripb {
            assert!(
                said.contains(&format!(
                    "{stem}.pbp: veripb says \"s VERIFIED BOUNDS 0 <= obj <= INF\""
                )),
                "{said}"
            );
        }
    }
    // One shard checked on its own: the glue, and that shard's proof only.
    let shard = puzzlec::base::shard::Shard::parse("2/3").unwrap();
    let partly = puzzlec::cert::certificate::check_shard(&folder, Some(shard)).unwrap();
    assert!(
        partly
            .conclusion
            .starts_with("partly certified: shard 2/3 (entries "),
        "{}",
        partly.conclusion
    );
    let said = partly.steps.join("\n");
    assert!(
        said.contains(&format!("{}.pbp: puzzlec", stems[1])),
        "{said}"
    );
    assert!(
        !said.contains(&format!("{}.pbp: puzzlec", stems[0])),
        "{said}"
    );
    // It hashes its own proof, and finds the others' present at their sizes.
    assert!(
        said.contains(&format!("{}.pbp: SHA-256 matches the manifest", stems[1])),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "; {}.pbp, {}.pbp, {}.pbp present at the sizes listed, each hashed by its own shard's check",
            stems[0], stems[1], stems[2]
        )),
        "{said}"
    );
    // A changed byte in another shard's proof is that shard's check's to find; in its own,
    // this one's.
    for (i, stem) in [(0, &stems[0]), (1, &stems[1])] {
        let path = folder.join(format!("{stem}.pbp"));
        let text = std::fs::read(&path).unwrap();
        let mut changed = text.clone();
        let at = changed.len() - 2;
        changed[at] = if changed[at] == b'1' { b'2' } else { b'1' };
        std::fs::write(&path, &changed).unwrap();
        let found = puzzlec::cert::certificate::check_shard(&folder, Some(shard));
        std::fs::write(&path, &text).unwrap();
        match i {
            0 => assert!(found.is_ok(), "{:?}", found.err()),
            _ => assert!(
                found
                    .unwrap_err()
                    .to_string()
                    .starts_with(&format!("{stem}.pbp: SHA-256 ")),
                "{stem}"
            ),
        }
    }
}

/// The `>= -k` premise line (k >= 2) of the first shard's OPB file, and k.
fn a_premise(text: &str) -> (String, i64) {
    text.lines()
        .filter_map(|l| {
            let k: i64 = l.strip_suffix(" ;")?.rsplit_once(">= -")?.1.parse().ok()?;
            (k >= 2).then(|| (l.to_string(), k))
        })
        .next()
        .expect("a premise bounding two pieces or more")
}

#[test]
fn the_glue_refuses_wrong_premises_a_missing_shard_and_a_swapped_proof() {
    let dir = tempfile::tempdir().unwrap();
    let (folder, stems) = sharded_certificate(dir.path(), "cert", &["--veripb-shards", "3"]);
    let refusal = |folder: &Path| puzzlec::check(folder).unwrap_err().to_string();
    let first_opb = format!("{}.opb", stems[0]);
    let original = std::fs::read_to_string(folder.join(&first_opb)).unwrap();
    let (line, k) = a_premise(&original);
    // A premise weaker (one piece more) or stronger (one fewer) than the bound the later
    // shard proves, rehashed: the OPB file is no longer the one rebuilt from the table.
    for bound in [k + 1, k - 1] {
        let changed = line.replace(&format!(">= -{k} ;"), &format!(">= -{bound} ;"));
        std::fs::write(
            folder.join(&first_opb),
            original.replacen(&line, &changed, 1),
        )
        .unwrap();
        crate::common::rehash(&folder, &first_opb);
        let said = refusal(&folder);
        assert!(
            said.starts_with(&format!("{first_opb} (entries 0..")),
            "{said}"
        );
        assert!(said.contains(", the premise of entry "), "{said}");
        assert!(
            said.contains(&format!("ends in \">= -{bound} ;\"")),
            "{said}"
        );
        assert!(
            said.contains("table.txt gives S[")
                && said.contains(&format!("= {k}, the bound shard-")),
            "{said}"
        );
    }
    std::fs::write(folder.join(&first_opb), &original).unwrap();
    crate::common::rehash(&folder, &first_opb);
    assert!(puzzlec::check(&folder).is_ok());

    // A shard's proof swapped for another's (rehashed): its checker names the file and line.
    let (first_pbp, second_pbp) = (format!("{}.pbp", stems[0]), format!("{}.pbp", stems[1]));
    let kept = std::fs::read(folder.join(&first_pbp)).unwrap();
    std::fs::copy(folder.join(&second_pbp), folder.join(&first_pbp)).unwrap();
    crate::common::rehash(&folder, &first_pbp);
    let said = refusal(&folder);
    assert!(
        said.starts_with(&format!("{first_pbp} (entries 0..",))
            && said.contains("puzzlec's PB checker: proof line "),
        "{said}"
    );
    std::fs::write(folder.join(&first_pbp), kept).unwrap();
    crate::common::rehash(&folder, &first_pbp);

    // The middle shard missing (its files and manifest entries gone).
    let manifest_path = folder.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let files = manifest["files"].as_object_mut().unwrap();
    let role = format!("veripb-{}", stems[1]);
    files.remove(&role);
    files.remove(&format!("{role}-opb"));
    std::fs::write(
        &manifest_path,
        serde_json::to_string_pretty(&manifest).unwrap(),
    )
    .unwrap();
    for ext in ["opb", "pbp"] {
        std::fs::remove_file(folder.join(format!("{}.{ext}", stems[1]))).unwrap();
    }
    let range = stems[1].strip_prefix("shard-").unwrap();
    let (a, b) = range.split_once('-').unwrap();
    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
    assert_eq!(
        refusal(&folder),
        format!("manifest.json: no shard proves the entries {a}..{b} (a shard is missing)")
    );
}

#[test]
fn shards_proved_apart_combine_into_one_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let mut stems = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let (folder, found) =
            sharded_certificate(dir.path(), &format!("part{i}"), &["--shard", &shard]);
        assert_eq!(found.len(), 1, "{found:?}");
        // A partial folder: its own shard checks, the whole does not.
        let s = puzzlec::base::shard::Shard::parse(&shard).unwrap();
        let partly = puzzlec::cert::certificate::check_shard(&folder, Some(s)).unwrap();
        // The shard the folder holds, its entries named (from its stem, shard-AAA-BBB).
        let (a, b) = found[0][6..].split_once('-').unwrap();
        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
        assert!(
            partly.conclusion.starts_with(&format!(
                "partly certified: shard {shard} (entries {a}..{b}) of model.toml holds"
            )),
            "{}",
            partly.conclusion
        );
        assert!(puzzlec::check(&folder)
            .unwrap_err()
            .to_string()
            .contains("(a shard is missing)"));
        stems.push((folder, found[0].clone()));
    }
    let combined = dir.path().join("combined");
    std::fs::create_dir(&combined).unwrap();
    for (folder, stem) in &stems {
        for ext in ["opb", "pbp"] {
            let name = format!("{stem}.{ext}");
            std::fs::copy(folder.join(&name), combined.join(&name)).unwrap();
        }
    }
    let (folder, found) = sharded_certificate(dir.path(), "combined", &[]);
    let expected: Vec<String> = stems.iter().map(|(_, s)| s.clone()).collect();
    assert_eq!(found, expected);
    let manifest = std::fs::read_to_string(folder.join("manifest.json")).unwrap();
    for stem in &expected {
        assert!(manifest.contains(&format!("{stem}: kept")), "{manifest}");
    }
    assert_eq!(
        puzzlec::check(&folder).unwrap().conclusion,
        "certified: 5 is the optimum of model.toml"
    );
}

/// The crosses in `width x height` (the model written into `dir`) and the doll's table
/// `S[0..=P]`.
fn crosses_and_table(
    dir: &Path,
    width: usize,
    height: usize,
) -> (puzzlec::puzzle::packing::Packing, Vec<usize>) {
    let model = crosses(dir, width, height);
    let Puzzle::Packing(packing) = load_model_file(&model).unwrap() else {
        panic!("a packing model")
    };
    let outcome = solve(&packing.instance, &DollOptions::default(), |_, _| {}).unwrap();
    let entries = outcome.table.iter().map(|e| e.unwrap()).collect();
    (packing, entries)
}

/// Writes `dir/STEM.opb` and `dir/STEM.pbp` of the state shard `shard`; the run's report.
fn write_state_shard(
    dir: &Path,
    stem: &str,
    instance: &puzzlec::geometry::placements::PackingInstance,
    shard: &StateOpb,
    entries: &[usize],
) -> (PathBuf, PathBuf, DollStateProof) {
    let options = DollProofOptions::default();
    write_state_shard_with(dir, stem, (instance, &options), shard, entries)
}

/// [`write_state_shard`] by the search's rules of `options`.
fn write_state_shard_with(
    dir: &Path,
    stem: &str,
    (instance, options): (
        &puzzlec::geometry::placements::PackingInstance,
        &DollProofOptions,
    ),
    shard: &StateOpb,
    entries: &[usize],
) -> (PathBuf, PathBuf, DollStateProof) {
    let stem = dir.join(stem);
    let (opb_path, pbp_path) = (stem.with_extension("opb"), stem.with_extension("pbp"));
    write_opb_file(&opb_path, &shard.file);
    let stop = || false;
    let mut proof = Vec::new();
    let written = write_state_proof(instance, options, shard, entries, &mut proof, &stop)
        .unwrap_or_else(|e| panic!("{}: {e}", stem.display()));
    std::fs::write(&pbp_path, proof).unwrap();
    (opb_path, pbp_path, written)
}

/// Both checkers accept the state shard's proof of "objective >= 1 - need".
fn both_accept_claim(opb: &Path, pbp: &Path, need: u32, veripb: bool, what: &str) {
    both_accept_bounds(opb, pbp, (1 - i64::from(need), None), veripb, what);
}

#[test]
fn one_entrys_search_split_at_its_states_is_proved_shard_by_shard() {
    let test = "one_entrys_search_split_at_its_states_is_proved_shard_by_shard";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let (packing, entries) = crosses_and_table(dir.path(), 10, 10);
    let instance = &packing.instance;
    let options = DollProofOptions::default();
    // The entry whose search is the largest among those that stay (S[c] = S[c + 1]) and
    // are searched (a placement starts there).
    let stop = || false;
    let staying = (0..entries.len() - 1).filter(|&c| entries[c] == entries[c + 1]);
    let (entry, _) = staying
        .filter_map(|c| {
            let root = StateClaim::entry_root(c, &entries);
            let shard = state_opb(instance, &entries, &root, &[]);
            let mut sink = std::io::sink();
            match write_state_proof(instance, &options, &shard, &entries, &mut sink, &stop) {
                Ok(whole) => Some((c, whole.nodes)),
                // Nothing fits at c: the entry is not searched.
                Err(DollProofError::Unsupported(_)) => None,
                Err(e) => panic!("entry {c}: {e}"),
            }
        })
        .max_by_key(|&(c, nodes)| (nodes, std::cmp::Reverse(c)))
        .unwrap();
    let root = StateClaim::entry_root(entry, &entries);
    let (frontier, _) = state_frontier(instance, &options, &entries, &root, 2).unwrap();
    assert!(frontier.len() >= 4, "entry {entry}: {frontier:?}");
    // The glue: the entry's root down to the frontier, each of its states cited.
    let glue = state_opb(instance, &entries, &root, &frontier);
    let (opb, glue_pbp, written) = write_state_shard(dir.path(), "glue", instance, &glue, &entries);
    assert_eq!(written.frontier, frontier.len() as u64);
    both_accept_claim(&opb, &glue_pbp, root.need, veripb, "the glue");
    // The entry's claim is its premise form in the next shards: at most S[c] from c.
    let claim = &glue.file.objective.as_ref().unwrap().terms;
    assert!(claim.iter().all(|&(a, _)| a == -1), "{claim:?}");
    assert_eq!(1 - i64::from(root.need), -(entries[entry] as i64));
    // Each frontier state its own shard, whose claim is the glue's premise word for word.
    let glue_nodes = written.nodes;
    for (k, (state, id)) in glue.premises.iter().enumerate() {
        let shard = state_opb(instance, &entries, state, &[]);
        let premise = &glue.file.constraints[*id as usize - 1];
        assert_eq!(shard.file.objective.as_ref().unwrap().terms, premise.terms);
        assert_eq!(premise.rhs, 1 - i64::from(state.need));
        let stem = format!("state-{k}");
        let (opb, pbp, written) = write_state_shard(dir.path(), &stem, instance, &shard, &entries);
        assert_eq!(written.frontier, 0);
        both_accept_claim(&opb, &pbp, state.need, veripb, &stem);
    }
    // The same states in two shards of consecutive states, each searched with one memo:
    // "objective >= 0", each state's claim under its selector.
    let half = frontier.len() / 2;
    for (k, group) in [&frontier[..half], &frontier[half..]]
        .into_iter()
        .enumerate()
    {
        let shard = group_opb(instance, &entries, group, &[]);
        assert_eq!(shard.lower(), 0);
        let stem = format!("group-{k}");
        let (opb, pbp, written) = write_state_shard(dir.path(), &stem, instance, &shard, &entries);
        assert!(written.nodes > 0, "{stem}");
        both_accept_claim(&opb, &pbp, 1, veripb, &stem);
        // A guard loosened (its placement allowed under every state): refused by both.
        let mut loose = shard.clone();
        let guard = loose
            .file
            .constraints
            .iter_mut()
            .rev()
            .find(|c| c.rhs == 0 && c.terms[0].0 == -1)
            .unwrap();
        guard.terms.truncate(1);
        guard.terms.extend((0..group.len()).map(|j| {
            (
                1,
                puzzlec::formats::opb::Lit::new((instance.placements.len() + j) as u32, false),
            )
        }));
        write_opb_file(&opb, &loose.file);
        assert!(check_pb_files(&opb, &pbp).is_err(), "{stem} loosened");
        if veripb {
            assert_eq!(veripb_verdict(&opb, &pbp), None, "{stem} loosened");
        }
    }
    // The entry unsplit, one shard from its root: accepted too, after more search than the
    // glue's, which stops at the states.
    let whole = state_opb(instance, &entries, &root, &[]);
    let (opb, pbp, written) = write_state_shard(dir.path(), "whole", instance, &whole, &entries);
    both_accept_claim(&opb, &pbp, root.need, veripb, "the whole entry");
    assert!(
        written.nodes > glue_nodes,
        "{} against {glue_nodes}",
        written.nodes
    );
    // A state's claim weakened by one in the glue's formula (a premise that says less than
    // its shard proved): the step citing it is refused by both checkers.
    let mut weak = glue.clone();
    let (_, id) = weak.premises[frontier.len() / 2];
    weak.file.constraints[id as usize - 1].rhs -= 1;
    let (opb, _, _) = write_state_shard(dir.path(), "weak", instance, &weak, &entries);
    let refusal = check_pb_files(&opb, &glue_pbp).unwrap_err().to_string();
    assert!(refusal.contains("line"), "{refusal}");
    if veripb {
        assert_eq!(veripb_verdict(&opb, &glue_pbp), None);
    }
    // A rising entry's root holds a packing: it is not a claim to split.
    let rising = (0..entries.len() - 1)
        .find(|&c| entries[c] > entries[c + 1])
        .unwrap();
    let root = StateClaim::entry_root(rising, &entries);
    let shard = state_opb(instance, &entries, &root, &[]);
    let refused = write_state_proof(
        instance,
        &options,
        &shard,
        &entries,
        &mut std::io::sink(),
        &stop,
    );
    assert!(
        matches!(refused, Err(DollProofError::StateHolds)),
        "{refused:?}"
    );
    // A state outside its window, or needing more than the table allows there, is refused,
    // not searched.
    let root = StateClaim::entry_root(entry, &entries);
    let outside = StateClaim {
        covered: vec![entry + 1000],
        ..root.clone()
    };
    let greedy = StateClaim {
        need: root.need + 1,
        ..root
    };
    for state in [outside, greedy] {
        let shard = state_opb(instance, &entries, &state, &[]);
        let mut sink = std::io::sink();
        let refused = write_state_proof(instance, &options, &shard, &entries, &mut sink, &stop);
        assert_eq!(
            refused.unwrap_err().to_string(),
            "the proof-writing doll does not take this instance: a state lies outside the box or its window, or needs more than the table allows",
            "{state:?}"
        );
    }
}

#[test]
fn a_bounded_memo_deletes_the_clauses_it_gives_up_and_both_checkers_accept() {
    let test = "a_bounded_memo_deletes_the_clauses_it_gives_up_and_both_checkers_accept";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp, whole) = proved(dir.path(), 10, 14);
    let unbounded = both_accept(&opb, &pbp, 10, veripb, "10 x 14");
    // Bounds far below what the search stores: many clauses given up, some of them while a
    // chain waits on them, the table's entries among the oldest.
    for most in [16, 256, 1024] {
        let options = DollProofOptions {
            memo_clauses: most,
            ..DollProofOptions::default()
        };
        let what = format!("10 x 14, memo of {most}");
        let (opb, pbp, bounded) = proved_with(dir.path(), 10, 14, &options);
        assert_eq!(bounded.optimum, 10, "{what}");
        let stats = both_accept(&opb, &pbp, 10, veripb, &what);
        // What was given up is searched again, and the checkers hold less at once.
        assert!(bounded.nodes > whole.nodes, "{what}: {bounded:?}");
        assert!(stats.deleted > unbounded.deleted, "{what}: {stats:?}");
        assert!(
            stats.peak_constraints < unbounded.peak_constraints,
            "{what}: {stats:?} against {unbounded:?}"
        );
    }
    // A shard of several states (each goal's root cited by the conclusion after the later
    // goals' searches), with a memo of 16 clauses: thousands given up after the first
    // goal's root, so that deletions are written before the conclusion.
    let (packing, entries) = crosses_and_table(dir.path(), 10, 14);
    let instance = &packing.instance;
    let options = DollProofOptions::default();
    // The frontier two pieces below the root of the entry that stays with the largest
    // search.
    let (_, frontier) = (0..entries.len() - 1)
        .filter(|&c| entries[c] == entries[c + 1])
        .filter_map(|c| {
            let root = StateClaim::entry_root(c, &entries);
            state_frontier(instance, &options, &entries, &root, 2)
                .ok()
                .map(|(frontier, whole)| (whole.nodes, frontier))
        })
        .max_by_key(|(nodes, _)| *nodes)
        .unwrap();
    assert!(frontier.len() >= 4, "{frontier:?}");
    let shard = group_opb(instance, &entries, &frontier, &[]);
    let bounded = DollProofOptions {
        memo_clauses: 16,
        ..DollProofOptions::default()
    };
    let (opb, pbp, _) =
        write_state_shard_with(dir.path(), "group", (instance, &bounded), &shard, &entries);
    assert!(std::fs::read_to_string(&pbp).unwrap().contains("\ndel id "));
    both_accept_claim(&opb, &pbp, 1, veripb, "a group of states, memo of 16");
}
