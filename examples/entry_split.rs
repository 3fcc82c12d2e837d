//! Splits one table entry's proof at its search states and measures the shards:
//! `cargo run --release --example entry_split -- MODEL [entry=C] [depth=D] [states=A..B]
//! [budget=BYTES] [group=G|fit] [table=FILE] [write=DIR] [check] [veripb] [whole]
//! [entries=A..B] [clauses=N]`.
//!
//! With `entries=A..B`, each staying entry `c` of `A..B` is instead written unsplit as its
//! own shard (the entry's root, the later entries as premises), one line each, and nothing
//! is split: the table's proof measured entry by entry (entries that rise, or where no
//! placement starts, have no search and are skipped).
//!
//! Defaults: the first entry that stays (`S[c] = S[c + 1]`) and has a placement starting
//! there; depth 2; every state; no budget. The table comes from the doll on every core
//! (kept in `DIR/table.txt` and read from there next time), or from `table=FILE`.
//!
//! With `whole`, the entry unsplit is written first, for comparison. Then the glue (the
//! entry's root down to the states `D` pieces below it, each cited as a premise) and each
//! state's own shard are written (into `DIR` as `glue.opb`/`.pbp`, `state-K.opb`/`.pbp`,
//! or only counted), one line each: nodes, frontier states cited, bytes, seconds. A state
//! whose proof passes the budget is given up and split one piece deeper (`state-K.glue`,
//! `state-K.J`, recursively). With `group=G`, the states are proved instead in `G` shards
//! of consecutive states (`group-J`), each searching its states in turn with one memo (no
//! budget); with `group=fit`, in the longest runs of consecutive states whose shard stays
//! within the budget (`state-K..L`), tried from all of them down by halves, a state alone
//! over it split deeper and its states grouped likewise. With `check`, each shard is
//! checked by puzzlec's PB checker once written (with `veripb` as well, by `veripb` too),
//! and its proof deleted, so that a large entry can be measured shard by shard within the
//! disk. With `clauses=N`, the search's memo keeps at most N clauses and the proof deletes
//! those it gives up (`DollProofOptions::memo_clauses`).

use std::cell::Cell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use puzzlec::checkers::pb::{check_pb_files, PbConclusion};
use puzzlec::engines::russian_doll::{
    self, group_opb, state_frontier, state_opb, write_state_proof, DollOptions, DollProofError,
    DollProofOptions, StateClaim, StateOpb,
};
use puzzlec::formats::lines::WriteError;
use puzzlec::formats::opb::write_opb;
use puzzlec::geometry::placements::PackingInstance;
use puzzlec::puzzle::{load_model_file, Puzzle};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| args.iter().find_map(|a| a.strip_prefix(name));
    let Some(model) = args.iter().find(|a| a.ends_with(".toml")) else {
        eprintln!("usage: entry_split MODEL [entry=C] [depth=D] [states=A..B] [budget=BYTES] [group=G|fit] [table=FILE] [write=DIR] [check] [veripb] [whole] [entries=A..B]");
        std::process::exit(2)
    };
    let Ok(Puzzle::Packing(packing)) = load_model_file(Path::new(model)) else {
        eprintln!("{model}: not a packing model");
        std::process::exit(2)
    };
    let instance = &packing.instance;
    let dir = value("write=").map(PathBuf::from);
    if let Some(dir) = &dir {
        std::fs::create_dir_all(dir).unwrap();
    }
    let entries = match value("table=") {
        Some(file) => read_table(Path::new(file)).expect("table=FILE: S[0..=P] as numbers"),
        None => table(instance, dir.as_deref()),
    };
    let options = DollProofOptions::default();
    let run = Run {
        instance,
        entries: &entries,
        dir: dir.as_deref(),
        check: args.iter().any(|a| a == "check"),
        veripb: args.iter().any(|a| a == "veripb"),
        budget: value("budget=").map(|b| b.parse().expect("budget=BYTES")),
        fit: value("group=") == Some("fit"),
        clauses: value("clauses=").map_or(0, |n| n.parse().expect("clauses=N")),
    };
    if let Some(range) = value("entries=") {
        let (a, b) = range.split_once("..").expect("entries=A..B");
        let last = entries.len() - 1;
        let (a, b) = (a.parse().unwrap(), b.parse::<usize>().unwrap().min(last));
        for c in a..b {
            let root = StateClaim::entry_root(c, &entries);
            // A rising entry follows from the next by one step, and so does one where no
            // placement starts: neither has a search.
            let searched = entries[c] == entries[c + 1]
                && state_frontier(instance, &options, &entries, &root, 1).is_ok();
            if searched {
                run.shard(
                    &state_opb(instance, &entries, &root, &[]),
                    &format!("entry-{c}"),
                );
            }
        }
        return;
    }
    let entry = value("entry=").map_or_else(
        || {
            (0..entries.len() - 1)
                .find(|&c| {
                    entries[c] == entries[c + 1]
                        && state_frontier(
                            instance,
                            &options,
                            &entries,
                            &StateClaim::entry_root(c, &entries),
                            1,
                        )
                        .is_ok()
                })
                .expect("an entry that stays")
        },
        |c| c.parse().expect("entry=C"),
    );
    let depth: u32 = value("depth=").map_or(2, |d| d.parse().expect("depth=D"));
    let root = StateClaim::entry_root(entry, &entries);
    let (frontier, above) = state_frontier(instance, &options, &entries, &root, depth)
        .unwrap_or_else(|e| panic!("entry {entry}: {e}"));
    println!(
        "entry {entry} (S = {}, need {}): {} states {depth} pieces below its root, {} nodes above them",
        entries[entry],
        root.need,
        frontier.len(),
        above.nodes
    );
    let range = value("states=").map_or(0..frontier.len(), |r| {
        let (a, b) = r.split_once("..").expect("states=A..B");
        a.parse().unwrap()..b.parse::<usize>().unwrap().min(frontier.len())
    });
    if args.iter().any(|a| a == "whole") {
        let whole = state_opb(instance, &entries, &root, &[]);
        run.shard(&whole, "whole");
    }
    let glue = state_opb(instance, &entries, &root, &frontier);
    assert!(run.shard(&glue, "glue"), "the glue is over the budget");
    match value("group=")
        .filter(|&g| g != "fit")
        .map(|g| g.parse::<usize>().expect("group=G"))
    {
        // G shards of consecutive states, each searched with one memo.
        Some(groups) => {
            let states = &frontier[range.clone()];
            for g in 0..groups {
                let part = &states[g * states.len() / groups..(g + 1) * states.len() / groups];
                let shard = group_opb(instance, &entries, part, &[]);
                run.shard(&shard, &format!("group-{g}"));
            }
        }
        None => run.states(&frontier[range], ""),
    }
}

/// The table `S[0..=P]`: from `DIR/table.txt` when there, else by the doll on every core
/// (and kept there).
fn table(instance: &PackingInstance, dir: Option<&Path>) -> Vec<usize> {
    let file = dir.map(|d| d.join("table.txt"));
    if let Some(entries) = file.as_deref().and_then(read_table) {
        return entries;
    }
    let started = Instant::now();
    let outcome = russian_doll::solve(instance, &DollOptions::default(), |_, _| {}).unwrap();
    let entries: Vec<usize> = outcome.table.iter().map(|e| e.unwrap()).collect();
    println!(
        "table: optimum {} in {:.1} s",
        entries[0],
        started.elapsed().as_secs_f64()
    );
    if let Some(file) = file {
        let text: Vec<String> = entries.iter().map(usize::to_string).collect();
        std::fs::write(file, text.join(" ") + "\n").unwrap();
    }
    entries
}

/// The table `S[0..=P]` written as numbers in `file`, if it reads.
fn read_table(file: &Path) -> Option<Vec<usize>> {
    let text = std::fs::read_to_string(file).ok()?;
    text.split_whitespace().map(|v| v.parse().ok()).collect()
}

/// Counts the bytes written through it into `inner`.
struct Counting<'a, T> {
    inner: T,
    bytes: &'a Cell<u64>,
}

impl<T: Write> Write for Counting<'_, T> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes.set(self.bytes.get() + n as u64);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// What every shard of the run shares.
struct Run<'a> {
    instance: &'a PackingInstance,
    entries: &'a [usize],
    dir: Option<&'a Path>,
    check: bool,
    /// With `check`: `veripb` too.
    veripb: bool,
    /// Proofs above this many bytes are given up and their state split one piece deeper.
    budget: Option<u64>,
    /// States grouped by the budget (`group=fit`) rather than one per shard.
    fit: bool,
    /// The most clauses the search's memo keeps (`clauses=N`; 0: no bound).
    clauses: usize,
}

impl Run<'_> {
    /// The shards of `states` (named `NAME.K` by the first state's index, or `state-K`
    /// with no name): one per state, or with `fit` the longest runs of consecutive states
    /// whose group stays within the budget, tried from all of them down by halves (a state
    /// alone over it split deeper).
    fn states(&self, states: &[StateClaim], name: &str) {
        let named = |k: usize| match name {
            "" => format!("state-{k}"),
            _ => format!("{name}.{k}"),
        };
        let mut k = 0;
        while k < states.len() {
            let mut width = if self.fit { states.len() - k } else { 1 };
            loop {
                if width == 1 {
                    self.state(&states[k], &named(k));
                    break;
                }
                let group = group_opb(self.instance, self.entries, &states[k..k + width], &[]);
                if self.shard(&group, &format!("{}..{}", named(k), k + width)) {
                    break;
                }
                println!("{}..{}: over the budget", named(k), k + width);
                width /= 2;
            }
            k += width;
        }
    }

    /// The shard of `state`, or, past the budget, its glue and the shards of the states one
    /// piece below it (`NAME.K`), in turn.
    fn state(&self, state: &StateClaim, name: &str) {
        let shard = state_opb(self.instance, self.entries, state, &[]);
        if self.shard(&shard, name) {
            return;
        }
        let options = DollProofOptions::default();
        let (frontier, _) =
            state_frontier(self.instance, &options, self.entries, state, 1).unwrap();
        println!(
            "{name}: over the budget, split into {} states",
            frontier.len()
        );
        let glue = state_opb(self.instance, self.entries, state, &frontier);
        let glue_name = format!("{name}.glue");
        assert!(
            self.shard(&glue, &glue_name),
            "{glue_name}: over the budget"
        );
        self.states(&frontier, name);
    }

    /// Writes (into `dir`, or only counted) and with `check` checks one shard, and prints a
    /// line; `false` when its proof went past the budget (then nothing of it is kept).
    fn shard(&self, shard: &StateOpb, name: &str) -> bool {
        let bytes = Cell::new(0);
        let budget = self.budget.unwrap_or(u64::MAX);
        let stop = || bytes.get() > budget;
        let never = || false;
        let started = Instant::now();
        let options = DollProofOptions {
            memo_clauses: self.clauses,
            ..DollProofOptions::default()
        };
        let files = self.dir.map(|dir| {
            (
                dir.join(format!("{name}.opb")),
                dir.join(format!("{name}.pbp")),
            )
        });
        let inner: Box<dyn Write> = match &files {
            Some((opb, pbp)) => {
                let mut file = std::io::BufWriter::new(std::fs::File::create(opb).unwrap());
                write_opb(&shard.file, &mut file, &never).unwrap();
                file.flush().unwrap();
                Box::new(std::io::BufWriter::new(std::fs::File::create(pbp).unwrap()))
            }
            None => Box::new(std::io::sink()),
        };
        let mut out = Counting {
            inner,
            bytes: &bytes,
        };
        let written = write_state_proof(
            self.instance,
            &options,
            shard,
            self.entries,
            &mut out,
            &stop,
        );
        drop(out);
        let written = match written {
            Ok(written) => written,
            Err(DollProofError::Write(WriteError::Stopped)) => {
                if let Some((opb, pbp)) = &files {
                    std::fs::remove_file(opb).unwrap();
                    std::fs::remove_file(pbp).unwrap();
                }
                return false;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let bytes = bytes.get();
        let wrote = started.elapsed().as_secs_f64();
        let goal = &shard.goals[0];
        let what = match shard.goals.len() {
            1 => format!(
                "position {}, {} covered, need {}",
                goal.position,
                goal.covered.len(),
                goal.need
            ),
            n => format!("{n} states"),
        };
        let mut line = format!(
            "{name}: {what}: {} nodes, {} cited, {bytes} bytes, {wrote:.2} s",
            written.nodes, written.frontier,
        );
        if let (true, Some((opb, pbp))) = (self.check, files) {
            let started = Instant::now();
            let outcome = check_pb_files(&opb, &pbp).unwrap_or_else(|e| panic!("{name}: {e}"));
            let lower = shard.lower();
            assert_eq!(
                outcome.conclusion,
                PbConclusion::Bounds {
                    lower: Some(lower),
                    upper: None
                }
            );
            line += &format!(
                "; checked in {:.2} s, peak {} constraints",
                started.elapsed().as_secs_f64(),
                outcome.stats.peak_constraints
            );
            if self.veripb {
                let started = Instant::now();
                let output = std::process::Command::new("veripb")
                    .arg(&opb)
                    .arg(&pbp)
                    .output()
                    .unwrap();
                let said = String::from_utf8_lossy(&output.stdout);
                let verdict = said.lines().find(|l| l.starts_with("s ")).unwrap_or("");
                assert!(output.status.success(), "{name}: veripb refused it: {said}");
                line += &format!(
                    "; veripb \"{verdict}\" in {:.2} s",
                    started.elapsed().as_secs_f64()
                );
            }
            std::fs::remove_file(&pbp).unwrap();
        }
        println!("{line}");
        true
    }
}
