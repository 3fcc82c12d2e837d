//! The command line's flags and subcommands (clap derive), and the choices they offer.

use crate::output::{limit, Failure};
use clap::builder::PossibleValue;
use clap::{Arg, Args, Parser, Subcommand, ValueEnum};
use puzzlec::base::shard::Shard;
use puzzlec::driver::emit::Format;
use puzzlec::driver::Backend;
use std::path::PathBuf;
use std::time::Duration;

/// puzzlec: compile grid puzzles into constraint models and settle them with SAT, MILP or
/// native search, every answer verified.
#[derive(Parser)]
#[command(name = "puzzlec", version, about, after_help = EXIT_STATUS)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour the output: auto colours when stdout is a terminal (and NO_COLOR is unset).
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The exit codes (`output::exit`) and where the model-file format is described, for
/// `--help` and the man page.
const EXIT_STATUS: &str = "\
Model files: TOML, one puzzle each (kind = \"queens\", \"packing\" or \"dissection\"); the
format is described in the README's section \"Model files\", and `puzzlec models` lists the
shipped ones.

Exit status:
  0   an optimisation or count finished and proved its answer, a puzzle without an
      objective was solved or shown impossible, or a file was written
  1   internal failure: backends disagree, a solution failed verification, a solver
      failed, or a certificate failed its check
  2   bad input: the model file, a flag, a flag that does not apply to the model, an
      output file, or a model estimated to need more memory than --max-memory
  3   a time limit or Ctrl-C stopped the run before it proved its answer, or `check`
      found a streamed run under way (its records hold; the claim is not proved yet)
  10  the decision --at-least K (--at-most K) has a yes answer (as SAT solvers report)
  20  the decision --at-least K (--at-most K) has a no answer (as SAT solvers report)";

/// The backends that answer goals.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// CNF and the embedded varisat SAT solver.
    Sat,
    /// An integer program and the embedded MILP solver (good_lp with microlp).
    Milp,
    /// The hand-written search of the puzzle's family.
    Native,
}

impl From<BackendArg> for Backend {
    fn from(arg: BackendArg) -> Backend {
        match arg {
            BackendArg::Sat => Backend::Sat,
            BackendArg::Milp => Backend::Milp,
            BackendArg::Native => Backend::Native,
        }
    }
}

/// The formats `emit` writes, as the command line offers them: the library's [`Format`],
/// named and described by it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FormatArg(pub Format);

impl ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [FormatArg; 6] = {
            let [a, b, c, d, e, f] = Format::ALL;
            [
                FormatArg(a),
                FormatArg(b),
                FormatArg(c),
                FormatArg(d),
                FormatArg(e),
                FormatArg(f),
            ]
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.summary()))
    }
}

/// A size in bytes, written `4G`, `512M`, `1.5G`, `16GiB` or a plain number of bytes
/// (K, M, G and T are powers of 1024).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ByteSize(pub u64);

impl std::str::FromStr for ByteSize {
    type Err = String;

    fn from_str(text: &str) -> Result<ByteSize, String> {
        let trimmed = text.trim();
        let upper = trimmed.to_ascii_uppercase();
        let number = upper
            .trim_end_matches("IB")
            .trim_end_matches('B')
            .trim_end();
        let (digits, scale) = match number.chars().last() {
            Some('K') => (&number[..number.len() - 1], 1u64 << 10),
            Some('M') => (&number[..number.len() - 1], 1 << 20),
            Some('G') => (&number[..number.len() - 1], 1 << 30),
            Some('T') => (&number[..number.len() - 1], 1 << 40),
            _ => (number, 1),
        };
        let bad = || format!("{text:?} is not a size (examples: 4G, 512M, 1.5G)");
        let value: f64 = digits.trim().parse().map_err(|_| bad())?;
        if !value.is_finite() || value <= 0.0 || value * scale as f64 >= u64::MAX as f64 {
            return Err(bad());
        }
        Ok(ByteSize((value * scale as f64).round() as u64))
    }
}

/// When to colour terminal output (the global `--color` flag).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour, even into a pipe or file.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour, given whether the output is a terminal and the value of the
    /// `NO_COLOR` environment variable (see <https://no-color.org>: any non-empty value
    /// turns colour off in `auto`).
    pub fn enabled(self, is_terminal: bool, no_color: Option<&str>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && no_color.is_none_or(str::is_empty),
        }
    }
}

/// The model file a command reads.
#[derive(Args)]
pub struct Model {
    /// The model file (TOML).
    #[arg(id = "model", value_name = "MODEL")]
    pub path: PathBuf,
}

/// `--time-limit`, for the commands that can be stopped.
#[derive(Args)]
pub struct TimeLimit {
    /// Stop after this many seconds, keeping the best solution found (not proven).
    #[arg(long = "time-limit", id = "time_limit", value_name = "SECS")]
    pub seconds: Option<f64>,
}

impl TimeLimit {
    /// The limit as a duration, or a usage error for a bad number of seconds.
    pub fn duration(&self) -> Result<Option<Duration>, Failure> {
        limit(self.seconds)
    }
}

/// `--max-memory`, for the commands that build a model or its encoding.
#[derive(Args)]
pub struct MemoryLimit {
    /// Refuse (exit 2) work whose memory estimate, made before the model is built, is above
    /// SIZE (bytes, or with K, M, G or T: powers of 1024). The default suits an 8 GB
    /// machine. `solve` and `prove` also keep the native search's memo of a maximum packing
    /// within three quarters of SIZE.
    #[arg(
        long = "max-memory",
        id = "max_memory",
        value_name = "SIZE",
        default_value = "4G"
    )]
    pub size: ByteSize,
}

impl MemoryLimit {
    /// The limit in bytes.
    pub fn bytes(&self) -> u64 {
        self.size.0
    }
}

/// `--json`, for the commands that can print their result as a JSON document.
#[derive(Args)]
pub struct Output {
    /// Print the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `--shard I/N`, for the commands whose work splits over machines.
#[derive(Args)]
pub struct Split {
    /// Count one shard of a deterministic split (native); `merge` adds the parts up.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// `--split-nodes N`, for the commands whose `--state` shares a Russian doll over machines.
#[derive(Args)]
pub struct SplitNodes {
    /// With --state: the nodes an entry's search may take on one shard before it is split
    /// over the shards (every shard of a run must be given the same).
    #[arg(long, value_name = "N", requires = "state", default_value_t = 1 << 18)]
    pub split_nodes: u64,
}

/// Gives the shared flags listed in `help` (by id: `time_limit`, `max_memory`, `json`,
/// `shard`, `model`) the help text a command words for itself: each flag is declared once,
/// in its group above, with the text most commands share, and means the same everywhere,
/// but what it does (what a stop leaves, what a shard is) is the command's to say.
fn reword(arg: Arg, help: &[(&str, &'static str)]) -> Arg {
    match help.iter().find(|(id, _)| arg.get_id() == id) {
        Some(&(_, text)) => arg.help(text),
        None => arg,
    }
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Solve a model: the best solution and how its optimality was proved, or, with
    /// --at-least, a yes (exit 10) or no (exit 20) to "is there a solution with at least K?"
    /// (with --at-most, "with at most K?" for a puzzle that asks for the fewest).
    Solve(Solve),
    /// Add up the `--json` outputs of `solve --count --shard I/N` runs (the total count), or
    /// join those of `sweep --shard I/N` runs (the whole table).
    Merge(Merge),
    /// Write the model for an external solver.
    Emit(Emit),
    /// Read an external solver's answer to a file `emit` wrote, verify it by the puzzle's
    /// rules and print it as `solve` does: exit 0 for a verified solution, 1 (one line
    /// saying what fails) for an answer that is no solution (none found, partial, breaking
    /// the file or the rules), 2 for a file that cannot be read.
    Decode(Decode),
    /// Run every backend on a model and compare their answers; exit 1 if any two proven
    /// answers disagree, 3 if Ctrl-C stopped the comparison. A failed external solver is a
    /// row with its error.
    Compare(Compare),
    /// Solve a model and write a certificate anyone can check: the witness, the refuted CNF,
    /// LRAT, DRAT and varisat proofs, and a manifest.
    Prove(Prove),
    /// Solve a model over a range of sizes and print a table (size, optimum, status, time,
    /// how established): packing boxes W x H with W <= H (--width, --height), or queens
    /// boards N x N (--size). Exit 3 if some instance was stopped by --time-limit.
    Sweep(Sweep),
    /// Re-verify a certificate written by `prove`: exit 0 if everything holds, 1 saying
    /// what failed otherwise.
    Check(Check),
    /// List the model files of a folder with their descriptions.
    Models(Models),
    /// Show what a model compiles to (variables, constraints, objective, CNF and LP sizes)
    /// without solving it.
    Explain(Explain),
    /// Print a shell completion script, e.g. `puzzlec completions bash > ~/.local/share/bash-completion/completions/puzzlec`.
    Completions(Completions),
    /// Print the man page (roff), e.g. `puzzlec man | man -l -`.
    Man(Man),
}

/// The flags of `solve`.
#[derive(Args)]
pub struct Solve {
    #[command(flatten)]
    pub model: Model,
    /// Which backend answers [default: sat for queens, native for packing and
    /// dissection, and native for --all, --count, --unique].
    #[arg(long, value_enum)]
    pub backend: Option<BackendArg>,
    /// An external solver for the backend. SAT: a command line run on a DIMACS file,
    /// with `{cnf}` for its path (appended when absent) and `{out}` for a result file
    /// (MiniSat's form; `minisat` alone means `minisat {cnf} {out}`), e.g. `cadical`.
    /// MILP: `cbc`, `glpsol` or `highs` (path and extra arguments allowed), or
    /// `cp:NAME`, a MiniZinc solver (`cp:gecode`) run by `minizinc` on the 0-1 program.
    #[arg(long, value_name = "CMD")]
    pub solver: Option<String>,
    /// Decide "at least K" instead of maximising.
    #[arg(long, value_name = "K")]
    pub at_least: Option<usize>,
    /// Decide "at most K" instead of minimising (a puzzle that asks for the fewest pieces).
    /// With --count: count the solutions of at most K, refuting K - 1 first instead of
    /// finding the optimum.
    #[arg(long, value_name = "K", conflicts_with = "at_least")]
    pub at_most: Option<usize>,
    #[command(flatten)]
    pub time: TimeLimit,
    #[command(flatten)]
    pub memory: MemoryLimit,
    #[command(flatten)]
    pub report: Output,
    /// Also draw the solution as an SVG picture in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print every optimal solution (8 boards side by side), then their number.
    #[arg(long)]
    pub all: bool,
    /// Count the optimal solutions without printing them.
    #[arg(long)]
    pub count: bool,
    /// Reduce by the board's own symmetries: one solution per class, and the classes.
    #[arg(long)]
    pub unique: bool,
    #[command(flatten)]
    pub split: Split,
    /// With --shard I/N, for a maximum packing: run shard I of the current round of one
    /// box's Russian doll shared by N processes, kept in the folder DIR (made if absent);
    /// `merge --state DIR` merges a round's shards. See docs/commands.md.
    #[arg(long, value_name = "DIR", requires = "shard", conflicts_with_all = ["all", "count", "unique", "solver", "backend", "at_least", "at_most"])]
    pub state: Option<PathBuf>,
    #[command(flatten)]
    pub budget: SplitNodes,
}

/// The flags of `merge`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("json", "Print the total (or a sweep's table) as JSON on stdout"),
    ])))]
pub struct Merge {
    /// The JSON files, one per shard.
    #[arg(required_unless_present = "state")]
    pub files: Vec<PathBuf>,
    /// Merge the shards' parts of the current round of a box's Russian doll in DIR (see
    /// `solve --state`; the answer is in DIR/answer.json once the table is complete), or of
    /// every box of a sweep (see `sweep --state`; its table is printed once every box is
    /// settled). Exit 3 while rounds remain.
    #[arg(long, value_name = "DIR", conflicts_with = "files")]
    pub state: Option<PathBuf>,
    #[command(flatten)]
    pub report: Output,
    /// Print a sweep's table as CSV on stdout.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// The flags of `emit`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("time_limit", "Stop compiling and writing after this many seconds (exit 3, no FILE written)"),
    ])))]
pub struct Emit {
    #[command(flatten)]
    pub model: Model,
    /// The file format.
    #[arg(long, value_enum)]
    pub format: FormatArg,
    /// Add the decision "objective at least K" (without it: the constraints alone).
    #[arg(long, value_name = "K")]
    pub at_least: Option<usize>,
    /// Add the decision "at most K pieces", for a puzzle that asks for the fewest (written
    /// on the model's objective, which counts the squares left empty: at least the free
    /// squares less K).
    #[arg(long, value_name = "K", conflicts_with = "at_least")]
    pub at_most: Option<usize>,
    /// Write to FILE instead of stdout (through a temporary file in the same folder,
    /// renamed when complete: a stopped run leaves no partial FILE).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Leave out the constraints that only a solver calling back could enforce
    /// (dissection: connected parts) for a smaller file; its header then says that a
    /// solver's answer may not be a solution. By default they are written out in full.
    #[arg(long)]
    pub incomplete: bool,
    /// LP files: write each at-most-one row of the model as it is, instead of grown to a
    /// clique of variables no two of which can be true together (placements that overlap
    /// pairwise), which tightens the linear relaxation.
    #[arg(long)]
    pub no_cliques: bool,
    /// LP files: add rows that rule out symmetric images of solutions, named and commented
    /// as such (a packing's "no more pieces centred in the bottom half than in the top",
    /// symmetry_top_bottom, and right against left); off by default, since they slowed
    /// HiGHS on the cross boxes measured.
    #[arg(long)]
    pub symmetry_rows: bool,
    #[command(flatten)]
    pub time: TimeLimit,
    #[command(flatten)]
    pub memory: MemoryLimit,
}

/// The flags of `decode`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("json", "Print the result as JSON on stdout (the fields of `solve --json`)"),
    ])))]
pub struct Decode {
    #[command(flatten)]
    pub model: Model,
    /// The solver's answer: SAT competition output (`s`/`v` lines: cadical,
    /// cryptominisat5), MiniSat's result file, MaxSAT or PB `v` lines, or a CBC
    /// (`solu FILE`), GLPK (`-w FILE`) or HiGHS (`--solution_file FILE`) solution file.
    pub answer: PathBuf,
    /// The file `emit` wrote, which the solver answered: variables are matched by the
    /// names it carries and the answer is checked against its clauses or rows. Without
    /// it, the file `emit` writes now gives the names (and nothing is checked).
    #[arg(long, value_name = "FILE")]
    pub emitted: Option<PathBuf>,
    #[command(flatten)]
    pub report: Output,
    /// Also draw the solution as an SVG picture in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// The flags of `compare`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("time_limit", "Seconds for the whole comparison: the rows run in turn, each given an equal share of the time left (time a row does not use passes to the later ones). Without it, a MiniZinc row (`cp:gecode`) is given 10 seconds: a CP solver without clause learning can search for hours where SAT answers at once"),
        ("max_memory", "Skip a SAT or MILP row (recorded as an error) whose memory estimate, made before the model is built, is above SIZE (bytes, or with K, M, G or T: powers of 1024). The default suits an 8 GB machine"),
        ("json", "Print the comparison as JSON on stdout"),
    ])))]
pub struct Compare {
    #[command(flatten)]
    pub model: Model,
    /// Compare the decision "at least K" instead of the optimum.
    #[arg(long, value_name = "K")]
    pub at_least: Option<usize>,
    /// Compare the decision "at most K" instead of the optimum (a puzzle that asks for the
    /// fewest pieces).
    #[arg(long, value_name = "K", conflicts_with = "at_least")]
    pub at_most: Option<usize>,
    #[command(flatten)]
    pub time: TimeLimit,
    #[command(flatten)]
    pub memory: MemoryLimit,
    #[command(flatten)]
    pub report: Output,
}

/// The flags of `prove`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("time_limit", "Stop after this many seconds (exit 3, no certificate written)"),
        ("json", "Print the manifest, with each file's path, as JSON on stdout"),
        ("shard", "For a maximum packing: prove only the I-th of N ranges of table entries (cut to equal search nodes) of the doll's VeriPB proof; with --table, refute only the table steps k with k % N = I - 1 (a partial certificate). Copy the shard-* (or step-*) files of all shards into one folder and run `prove` there without --shard (with --table for steps) to complete it"),
    ])))]
pub struct Prove {
    #[command(flatten)]
    pub model: Model,
    /// The certificate folder (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Certify the number of optimal solutions (of solutions, for a model without an
    /// objective) instead: every solution listed, and the model with each one blocked
    /// refuted (with the optimum's certificate beside it).
    #[arg(long)]
    pub count: bool,
    /// With --count: list one solution per class under the symmetries that map the
    /// board onto itself; `check` expands the classes, so their number and sizes are
    /// certified too.
    #[arg(long, requires = "count")]
    pub unique: bool,
    /// With --count: refuse (exit 2, before listing) counts above N solutions, whose
    /// list and blocking clauses would be too big to certify one by one.
    #[arg(long, value_name = "N", default_value_t = puzzlec::cert::certificate::count::DEFAULT_MAX_LISTED, requires = "count")]
    pub max_solutions: u64,
    /// An external SAT solver that finds the answer and writes the DRAT refutation,
    /// checked by puzzlec's DRAT checker before it is written, e.g. `cadical` (given
    /// `--no-binary {proof}`); other commands must name `{proof}`. Without it: varisat,
    /// whose certificates also hold LRAT and varisat proofs.
    #[arg(long, value_name = "CMD")]
    pub solver: Option<String>,
    /// For a maximum packing, the default when it applies: a VeriPB proof, checked by
    /// puzzlec's PB checker and by `veripb` in `check` when it is installed: one
    /// cutting-planes step when a packing meets the area or LP bound, else the proof the
    /// Russian-doll search writes as it searches (shard-*.opb and shard-*.pbp, or model.opb
    /// and proof.pbp with --veripb-shards 0). With this flag, an instance it does not take
    /// is refused instead of certified by the table.
    #[arg(long, conflicts_with_all = ["count", "solver", "table"])]
    pub veripb: bool,
    /// For a maximum packing: certify it by the Russian-doll table, one SAT refutation per
    /// entry (the route before the search wrote proofs; `--solver cadical` implies it).
    #[arg(long, conflicts_with = "count")]
    pub table: bool,
    /// On the VeriPB route: cut the doll's proof into N shards (ranges of table entries,
    /// each its own OPB file and proof with the later entries as premises), proved on
    /// threads; 0 writes one proof. Default: one shard per core, or more when the proof,
    /// estimated before it is written, would make a shard too large to check within
    /// --max-memory (2.4 times a shard's size). Combines with the shard files already in the
    /// folder.
    #[arg(long, value_name = "N", conflicts_with_all = ["shard", "table", "solver", "count"])]
    pub veripb_shards: Option<usize>,
    /// For a maximum packing: stream the doll's proof, shard by shard, into puzzlec's PB
    /// checker and veripb as it is written, never to disk, keeping per shard a record
    /// (NAME.json: the SHA-256 of its OPB file and of its proof, the verdicts, time and
    /// memory); shards are cut so that checking one stays within --max-memory, an entry
    /// split at its search states where needed. The default when the proof, estimated before
    /// it is written, passes 1 GiB, and in a folder holding a streamed run under way (which
    /// it resumes, keeping the records written). `check --replay` regenerates shards.
    #[arg(long, conflicts_with_all = ["no_stream", "shard", "table", "solver", "count"])]
    pub stream: bool,
    /// Streamed: the most bytes of proof a shard may have (bytes, or with K, M, G or T):
    /// shards are planned for it from the proof's estimate (600 bytes per node of the fast
    /// doll; an entry over it alone split at its search states), and a shard whose proof
    /// passes it as it is written is given up and cut smaller (a glue alone is not).
    /// Default: 0.3 times --max-memory, since a worker checking a shard holds about 3
    /// times its size; with --scratch, twice --max-memory, shards being planned for half
    /// of it (the proof on disk, what the checkers hold follows the memo's bound, not the
    /// proof's length).
    #[arg(long, value_name = "SIZE", conflicts_with_all = ["no_stream", "join"])]
    pub shard_bytes: Option<ByteSize>,
    /// Streamed: veripb reads each shard's proof from a file with no name on the disk of
    /// the folder DIR (O_TMPFILE on Linux: never listed, and gone when its check ends, even
    /// if puzzlec is killed) rather than from memory, so that a shard's proof costs disk
    /// space (one shard at a time per worker) and not memory, and shards can be twice as
    /// large (fewer, with less search repeated). The proof is still never stored.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["no_stream", "join"])]
    pub scratch: Option<PathBuf>,
    /// Streamed: the most clauses the proof search's memo keeps; past them it gives up its
    /// oldest and the proof deletes them, so that the memo's share of the checkers' memory
    /// stays bounded however long a shard's proof (records say the bound; replays use it).
    /// 0: no bound.
    /// Default: one per 2 KiB of --max-memory, down to a power of two (2,097,152 at 4G).
    #[arg(long, value_name = "N", conflicts_with_all = ["no_stream", "join"])]
    pub memo_clauses: Option<usize>,
    /// Store the doll's proof in the folder even when it is estimated above 1 GiB.
    #[arg(long, conflicts_with_all = ["shard", "table", "solver", "count"])]
    pub no_stream: bool,
    /// With --stream: write the folder and the plan of the run, and into FILE one command a
    /// line, `puzzlec prove DIR/model.toml -o DIR --job NAME`, one per shard (for GNU
    /// parallel or a Slurm array; scripts/stream-jobs.sh runs them), then stop; `prove
    /// --join` writes the manifest once every job has written its record. In a folder
    /// holding a run under way, its plan and records are kept and FILE lists the shards
    /// still without a record.
    #[arg(long, value_name = "FILE", requires = "stream")]
    pub jobs: Option<PathBuf>,
    /// Prove the shard NAME of the streamed run planned in the folder (a line of --jobs'
    /// FILE): stream its proof into both checkers and write its record DIR/NAME.json. Exit 1,
    /// naming the shard, when a checker refuses it. A shard whose record the folder holds
    /// is not proved again: its record is kept and reported.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["jobs", "join", "no_stream", "shard", "table", "solver", "count", "veripb_shards"])]
    pub job: Option<String>,
    /// Join the records of the streamed run in the folder into the certificate's manifest,
    /// proving nothing; refused (exit 1, naming the shard) when a shard is missing,
    /// duplicated, failed (a checker refused it) or foreign (of another model or table).
    #[arg(long, conflicts_with_all = ["jobs", "no_stream", "shard", "table", "solver", "count"])]
    pub join: bool,
    #[command(flatten)]
    pub time: TimeLimit,
    #[command(flatten)]
    pub report: Output,
    /// Also draw the certified witness as an SVG picture.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub memory: MemoryLimit,
    #[command(flatten)]
    pub split: Split,
}

/// The flags of `sweep`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("model", "The model file (TOML): an open packing box, or an empty queens board (size = N)"),
        ("time_limit", "Stop each instance after this many seconds (its row then says so)"),
        ("shard", "Run one shard of the rows (row i belongs to shard i mod N + 1); `merge` joins the shards' --json outputs. With --state: shard I of every box's rounds"),
        ("json", "Print the table as JSON on stdout"),
    ])))]
// `--json` (shared) excludes `--csv`, declared on `--json` as before so that shell completions
// say it the same way.
#[command(mut_args(|arg| if arg.get_id() == "json" { arg.conflicts_with("csv") } else { arg }))]
pub struct Sweep {
    #[command(flatten)]
    pub model: Model,
    /// Packing: the box widths, as A..=B, A..B or N.
    #[arg(long, value_name = "RANGE")]
    pub width: Option<String>,
    /// Packing: the box heights, as A..=B, A..B or N (boxes with width <= height).
    #[arg(long, value_name = "RANGE")]
    pub height: Option<String>,
    /// Queens: the board sizes N, as A..=B, A..B or N.
    #[arg(long, value_name = "RANGE")]
    pub size: Option<String>,
    /// The backend (default: the family's fastest).
    #[arg(long, value_enum)]
    pub backend: Option<BackendArg>,
    #[command(flatten)]
    pub time: TimeLimit,
    #[command(flatten)]
    pub split: Split,
    #[command(flatten)]
    pub report: Output,
    /// Print the table as CSV on stdout.
    #[arg(long)]
    pub csv: bool,
    /// With --shard I/N, for a maximum packing: run shard I's part of the current round of
    /// every box of the sweep, each box's Russian doll shared by N processes, kept in the
    /// folder DIR (made if absent); `merge --state DIR` merges a round and prints the table
    /// once every box is settled. See docs/counting.md.
    #[arg(long, value_name = "DIR", requires = "shard", conflicts_with_all = ["backend", "json", "csv"])]
    pub state: Option<PathBuf>,
    #[command(flatten)]
    pub budget: SplitNodes,
}

/// The flags of `check`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("shard", "For a packing-table certificate: check only the step proofs k with k % N = I - 1 (everything else in full); for a sharded VeriPB certificate: the glue and the proof of its I-th of N shards only; the optimum is certified once every shard passes"),
        ("json", "Print what was checked as JSON on stdout"),
    ])))]
pub struct Check {
    /// The certificate folder.
    pub dir: PathBuf,
    #[command(flatten)]
    pub split: Split,
    #[command(flatten)]
    pub report: Output,
    /// Also write every CNF the check rebuilt and verified a proof against into folder
    /// OUT (created if missing), named to pair with its proof in DIR (`cnf.dimacs`,
    /// `count.dimacs`, `step-NNN.cnf`), for outside checkers such as drat-trim.
    #[arg(long, value_name = "OUT")]
    pub write_cnf: Option<PathBuf>,
    /// Of a streamed certificate: regenerate shards from the model and the table, stream
    /// them into puzzlec's PB checker and veripb again and compare each proof's SHA-256
    /// with its record's: `all`, `sample:K` (K shards at random) or N (the record numbered
    /// N in check's listing).
    #[arg(long, value_name = "WHICH")]
    pub replay: Option<puzzlec::cert::certificate::Replay>,
    /// With --replay: veripb reads each replayed proof from a file with no name on the disk
    /// of the folder DIR rather than from memory, as `prove --scratch` has it.
    #[arg(long, value_name = "DIR", requires = "replay")]
    pub scratch: Option<PathBuf>,
}

/// The flags of `models`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("json", "Print the list as JSON on stdout"),
    ])))]
pub struct Models {
    /// The folder.
    #[arg(default_value = "models")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub report: Output,
}

/// The flags of `explain`.
#[derive(Args)]
#[command(mut_args(|arg| reword(arg, &[
        ("json", "Print the sizes as JSON on stdout"),
    ])))]
pub struct Explain {
    #[command(flatten)]
    pub model: Model,
    #[command(flatten)]
    pub memory: MemoryLimit,
    #[command(flatten)]
    pub report: Output,
}

/// The flags of `completions`.
#[derive(Args)]
pub struct Completions {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The flags of `man`.
#[derive(Args)]
pub struct Man {
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write puzzlec.1 and one page per subcommand (puzzlec-solve.1, ...) into DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub dir: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        let size = |s: &str| s.parse::<ByteSize>().map(|b| b.0);
        assert_eq!(size("4G"), Ok(4 << 30));
        // The flags' default is the driver's.
        assert_eq!(size("4G"), Ok(puzzlec::driver::guard::DEFAULT_MAX_MEMORY));
        assert_eq!(size("16GiB"), Ok(16 << 30));
        assert_eq!(size("1.5g"), Ok(1536 << 20));
        assert_eq!(size("512M"), Ok(512 << 20));
        assert_eq!(size("1000"), Ok(1000));
        assert_eq!(
            size("lots"),
            Err("\"lots\" is not a size (examples: 4G, 512M, 1.5G)".into())
        );
        assert!(size("0").is_err() && size("-1G").is_err());
    }

    #[test]
    fn auto_follows_the_terminal_and_no_color() {
        assert!(ColorChoice::Auto.enabled(true, None));
        assert!(ColorChoice::Auto.enabled(true, Some("")));
        assert!(!ColorChoice::Auto.enabled(true, Some("1")));
        assert!(!ColorChoice::Auto.enabled(false, None));
        assert!(ColorChoice::Always.enabled(false, Some("1")));
        assert!(!ColorChoice::Never.enabled(true, None));
    }
}
