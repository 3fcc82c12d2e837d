//! Solves chess domination or independence on an empty N x N board and reports the
//! optimum, the nodes and the time taken.
//!
//! Usage: `cargo run --release --example domination -- PIECE QUESTION N [OPTIONS]`, with
//! PIECE one of queen, rook, bishop, knight, king, QUESTION one of dominate,
//! independent-dominate, independent, and OPTIONS among `seconds=S` (a time limit),
//! `known=K` (a bound proved elsewhere), `count` (also count the optimal placements, all
//! and up to symmetry, by the search that uses the symmetries), `plain` (with `count`:
//! count every placement by the search without them, a second method for the total), and
//! `estimate=K` (instead of solving: estimate the nodes of the search for at most K
//! pieces by `probes=P` random probes, 1000 by default), and `count=K` (instead of
//! solving: count the placements of exactly K pieces, K at most the fewest, with
//! `shard=I/N` one shard of 256 subproblems; a count of 0 below the fewest refutes K).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use puzzlec::base::shard::Shard;
use puzzlec::base::Control;
use puzzlec::engines::domination::{count, estimate, solve, Instance, Question};
use puzzlec::geometry::board::Board;
use puzzlec::geometry::chess::Piece;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || {
        eprintln!(
            "usage: domination PIECE QUESTION N [seconds=S] [known=K] [count [plain]] \
             [estimate=K [probes=P]] [count=K [shard=I/N]]\n  \
             PIECE: queen rook bishop knight king; \
             QUESTION: dominate independent-dominate independent"
        );
        ExitCode::from(2)
    };
    let (Some(piece), Some(question), Some(Ok(n))) = (
        args.first().and_then(|a| Piece::from_name(a)),
        args.get(1).and_then(|a| match a.as_str() {
            "dominate" => Some(Question::Dominate),
            "independent-dominate" => Some(Question::IndependentDominate),
            "independent" => Some(Question::Independent),
            _ => None,
        }),
        args.get(2).map(|a| a.parse::<usize>()),
    ) else {
        return usage();
    };
    let (mut seconds, mut known, mut counting, mut plain) = (None, None, false, false);
    let (mut estimated, mut probes) = (None, 1000);
    let (mut counted_at, mut shard) = (None, None);
    for option in &args[3..] {
        match option.split_once('=') {
            Some(("seconds", s)) => seconds = s.parse::<f64>().ok(),
            Some(("known", k)) => known = k.parse::<usize>().ok(),
            Some(("estimate", k)) => estimated = k.parse::<usize>().ok(),
            Some(("probes", p)) => match p.parse::<u64>() {
                Ok(p) => probes = p,
                Err(_) => return usage(),
            },
            Some(("count", k)) => counted_at = k.parse::<usize>().ok(),
            Some(("shard", s)) => match Shard::parse(s) {
                Ok(s) => shard = Some(s),
                Err(_) => return usage(),
            },
            None if option == "count" => counting = true,
            None if option == "plain" => plain = true,
            _ => return usage(),
        }
    }
    let board = Board {
        width: n,
        height: n,
        free: vec![true; n * n],
    };
    let start = Instant::now();
    let mut instance = Instance::new(&board, piece, question);
    if let Some(k) = known {
        instance = instance.with_known_bound(k);
    }
    let control = Control::new(
        Arc::new(AtomicBool::new(false)),
        seconds.map(Duration::from_secs_f64),
    );
    if let Some(pieces) = estimated {
        let Some(found) = estimate(&instance, pieces, probes, 1, &control) else {
            eprintln!("estimate: only for the fewest pieces");
            return ExitCode::from(2);
        };
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{} {:?} n = {n}, at most {pieces}: about {:.3e} nodes (standard error {:.1e}) \
             from {} probes in {seconds:.3} s{}",
            piece.name(),
            question,
            found.nodes,
            found.error,
            found.probes,
            if found.found {
                "; a probe found a placement"
            } else {
                ""
            }
        );
        return ExitCode::SUCCESS;
    }
    if let Some(pieces) = counted_at {
        let counted = count(&instance, pieces, shard, !plain, &control, None);
        println!(
            "{} {:?} n = {n}: {} placements of {pieces}{}, subproblems {} of {}, nodes {} in \
             {:.3} s{}",
            piece.name(),
            question,
            counted.count,
            shard.map_or(String::new(), |s| format!(" in shard {s}")),
            counted.subproblems.0,
            counted.subproblems.1,
            counted.nodes,
            start.elapsed().as_secs_f64(),
            if counted.complete {
                ""
            } else {
                " (incomplete)"
            }
        );
        return ExitCode::SUCCESS;
    }
    let answer = solve(&instance, None, &control);
    let value = answer.best.as_ref().map(Vec::len);
    println!(
        "{} {:?} n = {n}: best {} bound {} proven {} nodes {} in {:.3} s{}",
        piece.name(),
        question,
        value.map_or("-".to_string(), |v| v.to_string()),
        answer.bound,
        answer.proven,
        answer.nodes,
        start.elapsed().as_secs_f64(),
        if answer.stopped { " (stopped)" } else { "" }
    );
    if let (true, Some(value)) = (counting, value) {
        let start = Instant::now();
        let counted = count(&instance, value, None, !plain, &control, None);
        let classes = if plain {
            "every placement seen".to_string()
        } else {
            format!("{} classes", counted.classes.values().sum::<u64>())
        };
        println!(
            "  {} placements of {value}, {classes}, nodes {} in {:.3} s{}",
            counted.count,
            counted.nodes,
            start.elapsed().as_secs_f64(),
            if counted.complete {
                ""
            } else {
                " (incomplete)"
            }
        );
    }
    ExitCode::SUCCESS
}
