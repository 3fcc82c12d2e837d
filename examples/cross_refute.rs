//! Proves the optimum of a packing model without piece minimums by the Russian doll, with
//! each of its rules switchable, so that a refutation can be repeated by different routes:
//! `cargo run --release --example cross_refute -- [MODEL] [no-memo] [no-dead-cells]
//! [no-relaxed] [no-lookahead] [no-area] [lp-weights] [symmetry] [one-thread] [split=N]
//! [memo=K] [proof]` (defaults: models/cross-13x19.toml, the default rules: memo, dead
//! cells, relaxed lookups, the lookahead and the area cut on, the weighted cut and mirror
//! symmetry off, all cores, an entry split over them after `DollOptions::split_nodes` nodes,
//! or N, a memo that grows, or one of 2^K entries throughout). Prints
//! the optimum, the packing, the row-start entries of the suffix table and the counters;
//! with `lp-weights`, the time the rows' LP duals took first (they are solved before the
//! search, which the driver does only where the box's LP is small), and the row-start
//! entries as they are decided. With `proof`, runs the search that writes the VeriPB proof
//! instead (its own rules; `no-lookahead` and `no-area` switch its lookahead and area cut
//! off, `levels=K` sets the lookahead's deepest level, `clauses=N` bounds its memo to N
//! clauses, deleting those it gives up), the proof thrown away as written,
//! and prints its nodes, memo hits, lookahead cuts, derived constraints and bytes; with
//! `write=STEM` as well, the proof is kept in `STEM.pbp` (and the OPB file in `STEM.opb`)
//! and checked by puzzlec's PB checker.

use puzzlec::base::Control;
use puzzlec::driver::packing_bounds::row_lp_weights;
use puzzlec::engines::russian_doll::{self, DollOptions};
use puzzlec::puzzle::{load_model_file, Puzzle};
use std::io::Write;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let model = args
        .iter()
        .find(|a| a.ends_with(".toml"))
        .map_or("models/cross-13x19.toml", String::as_str);
    let flag = |name: &str| args.iter().any(|a| a == name);
    let puzzle = load_model_file(std::path::Path::new(model)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let Puzzle::Packing(packing) = puzzle else {
        eprintln!("{model}: not a packing model");
        std::process::exit(2)
    };
    if flag("proof") {
        let weights = if flag("lp-weights") {
            let never = std::sync::atomic::AtomicBool::new(false);
            row_lp_weights(&packing.instance, &Control::unlimited(), &never)
        } else {
            Vec::new()
        };
        let options = russian_doll::DollProofOptions {
            lookahead: if flag("no-lookahead") {
                0
            } else {
                args.iter()
                    .find_map(|a| a.strip_prefix("levels=")?.parse().ok())
                    .unwrap_or(russian_doll::DollProofOptions::default().lookahead)
            },
            area: !flag("no-area"),
            row_weights: &weights,
            memo_clauses: args
                .iter()
                .find_map(|a| a.strip_prefix("clauses=")?.parse().ok())
                .unwrap_or(0),
        };
        let stem = args.iter().find_map(|a| a.strip_prefix("write="));
        prove(model, &packing.instance, &options, stem);
        return;
    }
    let options = DollOptions {
        memo: !flag("no-memo"),
        dead_cells: !flag("no-dead-cells"),
        memo_relaxed: !flag("no-relaxed"),
        lookahead: if flag("no-lookahead") {
            0
        } else {
            DollOptions::default().lookahead
        },
        area: !flag("no-area"),
        symmetry: flag("symmetry"),
        threads: if flag("one-thread") { 1 } else { 0 },
        split_nodes: args
            .iter()
            .find_map(|a| a.strip_prefix("split=")?.parse().ok())
            .unwrap_or(DollOptions::default().split_nodes),
        memo_log2: args
            .iter()
            .find_map(|a| a.strip_prefix("memo=")?.parse().ok())
            .unwrap_or(DollOptions::default().memo_log2),
        ..DollOptions::default()
    };
    let weights = if flag("lp-weights") {
        let started = Instant::now();
        let never = std::sync::atomic::AtomicBool::new(false);
        let weights = row_lp_weights(&packing.instance, &Control::unlimited(), &never);
        println!(
            "each scan row's LP dual: {:.2} s",
            started.elapsed().as_secs_f64()
        );
        weights
    } else {
        Vec::new()
    };
    let options = DollOptions {
        row_weights: &weights,
        ..options
    };
    let row = packing.instance.width.min(packing.instance.height);
    let started = Instant::now();
    let progress = |k: usize, entry: usize| {
        if flag("lp-weights") && k.is_multiple_of(row) {
            println!(
                "entry {k}: at most {entry}, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let outcome = russian_doll::solve(&packing.instance, &options, progress).unwrap_or_else(|e| {
        eprintln!("{model}: {e}");
        std::process::exit(2)
    });
    let pieces = packing
        .instance
        .check_packing(&outcome.best)
        .expect("the packing verifies");
    println!("{model}: {pieces} pieces, optimal: {}", outcome.proved);
    println!("{}", packing.instance.render(&outcome.best));
    let starts: Vec<String> = outcome
        .table
        .iter()
        .step_by(row)
        .map(|e| e.map_or_else(|| "?".into(), |s| s.to_string()))
        .collect();
    println!("row-start entries: {}", starts.join(" "));
    println!(
        "{:.2} s; memo {}, dead cells {}, relaxed lookups {}, lookahead {}, area {}, LP weights {}, symmetry {}, threads {}; {:?}",
        started.elapsed().as_secs_f64(),
        options.memo,
        options.dead_cells,
        options.memo_relaxed,
        options.lookahead,
        options.area,
        !weights.is_empty(),
        options.symmetry,
        options.threads,
        outcome.stats
    );
}

/// Counts the bytes written into it, and keeps them in the file if there is one.
struct Counted(u64, Option<std::io::BufWriter<std::fs::File>>);

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        match &mut self.1 {
            Some(file) => file.write_all(buf).map(|()| buf.len()),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.1.as_mut().map_or(Ok(()), |file| file.flush())
    }
}

/// The proof-writing search on `instance`, its proof counted and dropped.
fn prove(
    model: &str,
    instance: &puzzlec::geometry::placements::PackingInstance,
    options: &russian_doll::DollProofOptions,
    stem: Option<&str>,
) {
    let started = Instant::now();
    let mut out = Counted(0, None);
    if let Some(stem) = stem {
        let (opb, _) = russian_doll::packing_opb(instance);
        let mut text = Vec::new();
        puzzlec::formats::opb::write_opb(&opb, &mut text, &|| false).expect("written to memory");
        std::fs::write(format!("{stem}.opb"), text).expect("the OPB file is written");
        let file = std::fs::File::create(format!("{stem}.pbp")).expect("the proof file opens");
        out.1 = Some(std::io::BufWriter::new(file));
    }
    let proof = russian_doll::write_proof_with(instance, options, &mut out, &|| false)
        .unwrap_or_else(|e| {
            eprintln!("{model}: {e}");
            std::process::exit(2)
        });
    println!(
        "{model}: {} pieces; proof: {} nodes, {} memo hits ({} with dead cells), {} dead-cell keys, {} lookahead cuts, {} area cuts, {} weight cuts, {} derived, {} bytes ({:.0} per node), {:.2} s",
        proof.optimum,
        proof.nodes,
        proof.memo_hits,
        proof.dead_hits,
        proof.dead_keys,
        proof.lookahead_cuts,
        proof.area_cuts,
        proof.weight_cuts,
        proof.derived,
        out.0,
        out.0 as f64 / proof.nodes as f64,
        started.elapsed().as_secs_f64()
    );
    if let Some(stem) = stem {
        drop(out);
        let started = Instant::now();
        let checked = puzzlec::checkers::pb::check_pb_files(
            std::path::Path::new(&format!("{stem}.opb")),
            std::path::Path::new(&format!("{stem}.pbp")),
        );
        match checked {
            Ok(outcome) => println!(
                "puzzlec's PB checker: {:?} in {:.2} s",
                outcome.conclusion,
                started.elapsed().as_secs_f64()
            ),
            Err(e) => println!("puzzlec's PB checker refuses: {e}"),
        }
    }
}
