//! Checks a VeriPB proof with puzzlec's own pseudo-Boolean checker alone (no `veripb`, no
//! certificate folder): `cargo run --release --example pb_check -- FORMULA.opb PROOF.pbp`.
//! Prints the conclusion and the checker's counts; exit 1 when the proof is refused. For
//! timing the checker on a proof a search wrote (e.g. `cross_refute proof write=STEM`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [opb, proof] = args.as_slice() else {
        eprintln!("usage: pb_check FORMULA.opb PROOF.pbp");
        std::process::exit(2)
    };
    match puzzlec::checkers::pb::check_pb_files(opb.as_ref(), proof.as_ref()) {
        Ok(outcome) => println!("{:?}\n{:?}", outcome.conclusion, outcome.stats),
        Err(e) => {
            eprintln!("{proof}: {e}");
            std::process::exit(1)
        }
    }
}
