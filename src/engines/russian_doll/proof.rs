//! The Russian doll writing its own VeriPB proof of the optimum as it searches.
//!
//! # What the proof says
//!
//! The OPB file ([`packing_opb`]) is the packing model: a variable `x{i+1}` per placement
//! `i`, "at most one" per cell covered by two placements or more, and the objective
//! `min: -x1 -x2 ...`. The proof defines two families of auxiliary variables by
//! redundance-based strengthening (`red`, each definition both ways, so each is exact), in
//! the doll's scan order:
//!
//! * `u{q}_{k}` <=> "at least `k` placements with their first cell at `q` or later" are
//!   used (the table entry `S[q]` is the unit `~u{q}_{S[q]+1}`), and
//! * `e{q}_{w}` <=> "no placement whose first cell is `q` or later and which covers cell
//!   `w` is used": one line `m ~e + ~x_p1 + .. + ~x_pm >= m` (`e` excludes them all at
//!   once) and the clause `e x_p1 .. x_pm` (one variable serves the cells `q` after it
//!   too, while no placement starting there covers `w`: the same placements).
//!
//! From the `u` definitions it derives once, with `pol`: `u{q}_{k}` implies `u{q+1}_{k-1}`
//! (a piece at `q` at most), and `u{q+1}_{k}` or one of the placements starting at `q`;
//! the monotony `u{q}_{k} -> u{q}_{k-1}`; and, at first use, the jump "`u{q'}_{k}` or one
//! of the placements starting in `q..q'`" for a scan that passes over cells where nothing
//! fits. Per placement `p`, at its first use, a `rup` by its cells' at-most-ones: "`x_p`
//! excludes every placement starting after it that meets it" (one hint for all the cells
//! of a piece just placed).
//!
//! Then every exhausted search node `(q, window)` that needed `k` more pieces writes one
//! clause: `~e{q}_{w1} ... ~e{q}_{wr} ~u{q}_{k}` over the cells of its memo key, "if no
//! placement from here on meets these cells, fewer than `k` more fit". It is about the
//! state alone, not the path that reached it, so it is true in every entry of the table,
//! and it is exactly what the memo stores: a memo hit, or a relaxed lookup (fewer cells: a
//! shorter clause that implies the longer one), names the clause of the node that filled
//! the memo entry. The key holds the window's covered cells and its **dead cells** (free
//! cells every placement from `q` on over which meets a covered one, see
//! `DollOptions::dead_cells`): a covered cell's `e` comes from the parent's clause (the
//! same variable, or its `e` excluding the placements and the next one's definition) or,
//! for the cells of the piece just placed, from the cell's at-most-one; a dead cell's from
//! the covered cells its placements meet and its own definition, all by unit propagation.
//! A node's clause follows, per placement tried at `q` but the last, from a clause "... or
//! not this placement", which follows from the child's clause (or the table entry or memo
//! entry that cut the child) through the cells the child's scan passed over (where every
//! placement met a covered cell). The last placement's chain joins the node's clause
//! itself: with the others excluded and the branch without a piece at `q` refuted, the
//! carry `u{q}_{k} -> u{q+1}_{k}` or a placement at `q` forces it (on 13 x 19, a seventh
//! fewer bytes than a clause per placement). Every `rup` names its hints in an order that
//! propagates in one pass: a child's chain ends with the lines from its clause back to its
//! `u`, so it refutes that `u` as well as it conflicts with it.
//!
//! The lookahead cut (see `DollOptions::lookahead`) at a node `(q, window)` needing `k'`
//! more pieces with slack `s = S[q] - k'`: at level `k`, with `D` the first cell after `q`
//! where `S[D] = S[q] - k`, the placements starting in `q..D` that fit the window are covered
//! by at most `k - 1 - s` groups of pairwise overlapping ones. One `pol` adds the
//! definition `k' ~u{q}_{k'} + (the placements from q on) >= k'`, "at most `S[D]` from `D`
//! on" (`u{D}_{S[D]+1}`'s definition and the entry, derived once per `D`) and one "at most
//! one" per group: the at-most-one of a cell every member covers (its other placements add
//! as much to the right-hand side as they can to the left, so the conflict stands), or, for
//! a group sharing no cell, one derived once by cutting planes from the clauses "not both"
//! of its pairs (each a `rup` from a shared cell's at-most-one): with `A_i` "at most one of
//! the first `i`", `A_{i+1} = ((i - 1) A_i + the clauses of member i + 1 with the first i)
//! / i`. The sum reads `k' ~u + (the placements in q..D that do not fit) + .. >= 1 + ..`;
//! the node's clause (the same shape as a searched node's, and stored in the memo alike) is
//! a `rup` from it and the `e` lines that exclude the placements that do not fit, and the
//! sum is deleted. The doll's exact search for three or more independent placements (when
//! the greedy cover leaves a level open) is not used: it would need a case split in the
//! proof, and it cuts little (13 x 19: 340 nodes the doll would cut, of 87 k cuts).
//!
//! The area cut (see `DollOptions::area`) at a node `(q, window)` needing `k` more pieces,
//! with `a` the smallest piece's cells and `F < a k` the cells from `q` on that no window
//! cell covers and some placement from `q` on does: one `pol` adds `a` times the
//! definition `k ~u{q}_{k} + (the placements from q on) >= k`, the at-most-one of every
//! such free cell over the placements from `q` on, and the first half of `e{q}_{w}` for
//! every window cell `w`. Each placement then appears once plain per cell of the smallest
//! piece (and its literal axiom `x >= 0` for each cell more) and once negated per cell it
//! covers, so it cancels, leaving `a k ~u + m_1 ~e{q}_{w1} + .. >= a k - F`; divided by
//! its largest coefficient this is the node's clause itself, stored in the memo like a
//! searched node's. What does not depend on the window is summed once: per `q` the cells
//! from `q + reach` on (only placements from `q` on reach them), and per `(q, k)` that sum
//! with `a` times the definition; the cells before `q + reach` are added per cut, each
//! free one by its at-most-one with the placements starting before `q` weakened away
//! (derived once per cell and set). As in the fast doll, the area cut is used on the entries
//! within `AREA_GAP` pieces of the area (the lookahead stays on there, unlike the doll's).
//!
//! The weighted cut (given `DollProofOptions::row_weights`, as `DollOptions::row_weights`)
//! is the area cut with each cell counted as often as it weighs in its scan row's weights
//! and the definition taken `D` times, `D` what every placement from the row on weighs at
//! least; each placement's weight beyond `D` is cancelled by its literal axiom, and the far
//! sums are kept per scan row.
//!
//! The table entry of a cell where the search found no packing is the root node's clause
//! (an empty window); one that rose follows from the next entry in one `rup`. The last
//! entry with the `u` definition gives "at most `S[0]` pieces", the witness is logged with
//! `sol`, and the conclusion is `BOUNDS -S[0] -S[0]`.
//!
//! # Shards
//!
//! A range of entries can be proved on its own ([`shard_opb`], [`write_shard_proof`]), the
//! later entries its premises; and one entry's search can be split at its states
//! ([`states`]: each state's claim, or several sibling states' at once, its own shard, the
//! entry's glue citing them).
//!
//! # What is switched off
//!
//! The proof covers the search with the memo, dead cells, relaxed lookups, skipped unfit
//! cells, the area cut, the weighted cut and the lookahead cut ([`DollProofOptions`]; the lookahead on every
//! box, unlike the fast doll, which leaves it off below 14 columns: in the proof it pays
//! there too). Not (yet) the lookahead's exact search, outside row bounds, mirror symmetry
//! and the threads: a proof is written by one thread without them (what each saves in the
//! plain search is measured on `DollOptions`; the proof's own figures are in
//! `docs/certificates.md`). Instances with a
//! binding piece maximum (where the doll has no memo) are refused.

mod states;

use std::io::Write;
use std::ops::Range;

use rustc_hash::FxHashMap;

use super::bounds::{dead_span, Cover, LOOKAHEAD_LEVELS};
use super::instance::{covering_lists, weight_cuts, Engine, PlacementPairs, Prepared};
use super::memo::{key_of, ClauseMemo, Key};
use super::table::{area_gap, memo_log2, relaxed_offsets, AREA_GAP};
use super::window::Window;
use super::{validate, DollError};
use crate::formats::lines::{LineWriter, WriteError};
use crate::formats::veripb::{
    push_clause_rup, push_delete, push_pol, push_pol_sum, push_step, Conclusion, Constraint,
    ConstraintId, Hint, Lit, Objective, OpbFile, PolItem, Relation, Step, VarNames, WitnessValue,
    PROOF_HEADER,
};
use crate::geometry::placements::PackingInstance;
use crate::geometry::weights::CellWeights;
pub use states::{
    group_opb, state_frontier, state_opb, write_state_proof, DollStateProof, StateClaim, StateOpb,
};

/// What a proof-writing run found and wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollProof {
    /// The optimum `S[0]`.
    pub optimum: usize,
    /// A packing of `optimum` pieces (placement indices into the instance).
    pub best: Vec<usize>,
    /// Search nodes (each exhausted one wrote its clause).
    pub nodes: u64,
    /// Nodes cut by a memo entry (relaxed lookups included).
    pub memo_hits: u64,
    /// Nodes whose memo key holds a dead cell.
    pub dead_keys: u64,
    /// Memo hits whose clause names a dead cell.
    pub dead_hits: u64,
    /// Nodes cut by the lookahead ([`DollProofOptions::lookahead`]).
    pub lookahead_cuts: u64,
    /// Nodes cut by area ([`DollProofOptions::area`]).
    pub area_cuts: u64,
    /// Nodes cut by weight ([`DollProofOptions::row_weights`]).
    pub weight_cuts: u64,
    /// Constraints the proof derives (its last ID minus the formula's).
    pub derived: u64,
}

/// Options of the proof-writing search ([`write_proof_with`], [`write_shard_proof_with`]).
#[derive(Clone, Copy, Debug)]
pub struct DollProofOptions<'a> {
    /// The lookahead cut's deepest level `k` (below 2: off; at most 6), as
    /// [`DollOptions::lookahead`](super::DollOptions::lookahead), justified in the proof
    /// (see the module doc).
    pub lookahead: usize,
    /// The area cut, as [`DollOptions::area`](super::DollOptions::area) (on the same
    /// entries, the lookahead left on), justified in the proof by one `pol` per cut (see
    /// the module doc).
    pub area: bool,
    /// Per scan row, cell weights for the weighted cut, as
    /// [`DollOptions::row_weights`](super::DollOptions::row_weights) (rows whose weights
    /// fall short on a placement are not cut), justified in the proof by one `pol` per cut:
    /// the area cut's, each cell's at-most-one taken as often as it weighs (see the module
    /// doc). Empty: off.
    pub row_weights: &'a [Option<CellWeights>],
}

impl Default for DollProofOptions<'_> {
    fn default() -> Self {
        DollProofOptions {
            lookahead: 5,
            area: true,
            row_weights: &[],
        }
    }
}

/// Why no proof was written.
#[derive(Debug, thiserror::Error)]
pub enum DollProofError {
    /// The instance is not one the doll takes.
    #[error("{0}")]
    Doll(DollError),
    /// The instance is one the proof does not cover (yet).
    #[error("the proof-writing doll does not take this instance: {0}")]
    Unsupported(&'static str),
    /// Writing failed, or the caller asked to stop.
    #[error("{0}")]
    Write(#[from] WriteError),
    /// A state shard's search found a packing of its state: the claim is false.
    #[error("the state's search finds a packing: its entry rises, and cannot be split")]
    StateHolds,
    /// A shard's search found an entry other than the table it was given.
    #[error("scan position {position}: the search finds S = {searched}, the table says {given}")]
    TableDiffers {
        /// The scan position.
        position: usize,
        /// What the search found.
        searched: usize,
        /// What the table says.
        given: usize,
    },
}

/// The OPB file the proof refers to (see the module doc) and, per cell, the ID of its
/// "at most one" constraint (`None`: covered by fewer than two placements).
pub fn packing_opb(instance: &PackingInstance) -> (OpbFile, Vec<Option<u64>>) {
    let n = instance.placements.len();
    let names = VarNames::numbered(n);
    let mut covering = vec![Vec::new(); instance.width * instance.height];
    for (i, p) in instance.placements.iter().enumerate() {
        for &cell in &p.cells {
            covering[cell].push(i);
        }
    }
    let mut constraints = Vec::new();
    let mut amo = vec![None; covering.len()];
    for (cell, list) in covering.iter().enumerate() {
        if list.len() >= 2 {
            constraints.push(Constraint {
                terms: list.iter().map(|&i| (-1, x(i))).collect(),
                relation: Relation::AtLeast,
                rhs: -1,
            });
            amo[cell] = Some(constraints.len() as u64);
        }
    }
    let file = OpbFile {
        declared_variables: n,
        names,
        objective: Some(Objective {
            terms: (0..n).map(|i| (-1, x(i))).collect(),
            constant: 0,
        }),
        constraints,
    };
    (file, amo)
}

/// A shard's OPB file ([`shard_opb`]) and where its parts are.
#[derive(Clone, Debug)]
pub struct ShardOpb {
    /// The file.
    pub file: OpbFile,
    /// The entries the shard proves: the scan positions `a..b`.
    pub range: Range<usize>,
    /// Per later entry with a premise, `(q, ID)`, `q` ascending.
    pub premises: Vec<(usize, u64)>,
    /// The placements (variables `x1 ..`); the selectors follow.
    placements: usize,
    /// "At least one selector" and "at most one".
    at_least_one: u64,
    at_most_one: u64,
    /// Per placement starting in the range, by first position: `(first, ID of its guard)`.
    guards: Vec<(usize, u64)>,
}

impl ShardOpb {
    /// The selector `t_q` of entry `q` (in the range).
    fn selector(&self, q: usize) -> Lit {
        Lit::new((self.placements + q - self.range.start) as u32, false)
    }

    /// The guards of the placements starting in the range before `q`.
    fn guards_before(&self, q: usize) -> impl Iterator<Item = u64> + '_ {
        let end = self.guards.partition_point(|&(first, _)| first < q);
        self.guards[..end].iter().map(|&(_, id)| id)
    }

    /// "objective >= 0", the shard's claim.
    fn goal(&self) -> Constraint {
        let objective = self
            .file
            .objective
            .as_ref()
            .expect("a shard has an objective");
        Constraint {
            terms: objective.terms.clone(),
            relation: Relation::AtLeast,
            rhs: 0,
        }
    }
}

/// The OPB file of the shard proving the table entries `range` (scan positions `a..b`),
/// over the scan `order` (row-major cell per position) and the table `entries` (`S[0..=P]`,
/// the last 0).
///
/// Variables: `x{i+1}` per placement `i` (as in [`packing_opb`]), then a selector `t_q` per
/// entry `q` of the range (`x{P+1} ..` with `P` placements). Constraints, in this order:
///
/// 1. the packing model's "at most one" per cell covered twice or more (as [`packing_opb`]);
/// 2. the premises: per later entry `q >= b` that bounds anything (`S[q]` below the
///    placements starting at `q` or later), `-x.. >= -S[q]` over those placements,
///    `q` ascending;
/// 3. "at least one selector" and "at most one selector";
/// 4. per placement `p` starting in the range (by first position, then index), its guard
///    `-x_p + t_a .. + t_{first(p)} >= 0`: a selected `t_q` allows no placement starting
///    in `a..q`.
///
/// Objective: `min: S[a] t_a + .. + S[b-1] t_{b-1} - (the placements starting at a or
/// later)`. With `t_q` selected it is `S[q]` minus the pieces starting at `q` or later, so
/// "objective >= 0" says every entry of the range holds: one bound for the whole range.
pub fn shard_opb(
    instance: &PackingInstance,
    order: &[usize],
    entries: &[usize],
    range: Range<usize>,
) -> ShardOpb {
    let (mut file, _) = packing_opb(instance);
    let n = instance.placements.len();
    let mut position = vec![0; order.len()];
    for (k, &cell) in order.iter().enumerate() {
        position[cell] = k;
    }
    let first: Vec<usize> = instance
        .placements
        .iter()
        .map(|p| p.cells.iter().map(|&c| position[c]).min().unwrap_or(0))
        .collect();
    let first = &first;
    let from = |q: usize| (0..n).filter(move |&i| first[i] >= q);
    let selector = |q: usize| Lit::new((n + q - range.start) as u32, false);
    file.declared_variables = n + range.len();
    file.names = VarNames::numbered(file.declared_variables);
    let mut premises = Vec::new();
    for (q, &bound) in entries.iter().enumerate().take(order.len()).skip(range.end) {
        let starting = from(q).count();
        if bound < starting {
            file.constraints.push(Constraint {
                terms: from(q).map(|i| (-1, x(i))).collect(),
                relation: Relation::AtLeast,
                rhs: -(bound as i64),
            });
            premises.push((q, file.constraints.len() as u64));
        }
    }
    let selectors: Vec<Lit> = range.clone().map(selector).collect();
    let (at_least_one, at_most_one) = push_exactly_one(&mut file, &selectors);
    let mut inside: Vec<usize> = (0..n).filter(|&i| range.contains(&first[i])).collect();
    inside.sort_by_key(|&i| (first[i], i));
    let mut guards = Vec::new();
    for i in inside {
        let mut terms = vec![(-1, x(i))];
        terms.extend((range.start..=first[i]).map(|q| (1, selector(q))));
        file.constraints.push(Constraint {
            terms,
            relation: Relation::AtLeast,
            rhs: 0,
        });
        guards.push((first[i], file.constraints.len() as u64));
    }
    let mut terms: Vec<(i64, Lit)> = range
        .clone()
        .filter(|&q| entries[q] > 0)
        .map(|q| (entries[q] as i64, selector(q)))
        .collect();
    terms.extend(from(range.start).map(|i| (-1, x(i))));
    file.objective = Some(Objective { terms, constant: 0 });
    ShardOpb {
        file,
        range,
        premises,
        placements: n,
        at_least_one,
        at_most_one,
        guards,
    }
}

/// Appends to `file` "at least one of `lits`" and "at most one of `lits`" (a shard's
/// selectors); their IDs.
fn push_exactly_one(file: &mut OpbFile, lits: &[Lit]) -> (u64, u64) {
    file.constraints.push(Constraint {
        terms: lits.iter().map(|&l| (1, l)).collect(),
        relation: Relation::AtLeast,
        rhs: 1,
    });
    let at_least_one = file.constraints.len() as u64;
    file.constraints.push(Constraint {
        terms: lits.iter().map(|&l| (-1, l)).collect(),
        relation: Relation::AtLeast,
        rhs: -1,
    });
    (at_least_one, file.constraints.len() as u64)
}

/// What a shard's proof-writing run found and wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollShardProof {
    /// The entries of the shard's range, as its search found them.
    pub entries: Vec<usize>,
    /// Search nodes.
    pub nodes: u64,
    /// Nodes cut by a memo entry.
    pub memo_hits: u64,
    /// Nodes whose memo key holds a dead cell.
    pub dead_keys: u64,
    /// Memo hits whose clause names a dead cell.
    pub dead_hits: u64,
    /// Nodes cut by the lookahead.
    pub lookahead_cuts: u64,
    /// Nodes cut by area.
    pub area_cuts: u64,
    /// Nodes cut by weight ([`DollProofOptions::row_weights`]).
    pub weight_cuts: u64,
    /// Constraints the proof derives.
    pub derived: u64,
}

/// Writes into `out` the VeriPB proof of the shard `shard` (of [`shard_opb`], built over
/// the doll's scan order and `entries`): the later entries as units from the premises, the
/// shard's entries searched from the last back with a memo of its own (as
/// [`write_proof`] does), then "objective >= 0" in a `pbc` subproof, concluded as
/// `BOUNDS 0 INF`. Fails if the search finds an entry other than `entries` says.
/// The search's rules are [`DollProofOptions::default`]'s.
pub fn write_shard_proof(
    instance: &PackingInstance,
    shard: &ShardOpb,
    entries: &[usize],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollShardProof, DollProofError> {
    let options = DollProofOptions::default();
    write_shard_proof_with(instance, &options, shard, entries, out, should_stop)
}

/// [`write_shard_proof`] with the search's rules of `options`.
pub fn write_shard_proof_with(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &ShardOpb,
    entries: &[usize],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollShardProof, DollProofError> {
    let prep = supported(instance)?;
    if entries.len() != prep.cells + 1 || shard.range.end > prep.cells {
        return Err(DollProofError::Unsupported(
            "the table does not have one entry per scan position",
        ));
    }
    let (_, amo_by_cell) = packing_opb(instance);
    let amo: Vec<Option<u64>> = prep.order.iter().map(|&cell| amo_by_cell[cell]).collect();
    let writer = LineWriter::new(out, should_stop);
    let opb = shard.file.clone();
    if prep.reach <= 64 {
        Prover::<u64>::new(&prep, options, opb, amo, writer).run_shard(shard, entries)
    } else {
        Prover::<u128>::new(&prep, options, opb, amo, writer).run_shard(shard, entries)
    }
}

/// Appends a term to a `pol` sum (its items leave it on top), adding it to what is there.
fn add_term(items: &mut Vec<PolItem>, term: &[PolItem]) {
    let first = items.is_empty();
    items.extend_from_slice(term);
    if !first {
        items.push(PolItem::Add);
    }
}

/// The literal of placement `i` (variable `x{i+1}`, the `i`-th of [`VarNames::numbered`]).
fn x(i: usize) -> Lit {
    Lit::new(i as u32, false)
}

/// Whether [`write_proof`] and [`write_shard_proof`] take `instance`, before any search:
/// why not, as their [`DollProofError`] says it.
pub fn proof_supports(instance: &PackingInstance) -> Result<(), DollProofError> {
    supported(instance).map(|_| ())
}

/// `instance` prepared for a proof-writing search, or why the proof does not take it: a
/// window of at most 128 bits (a [`Prover`] over `u64` when `reach <= 64`, else `u128`).
fn supported(instance: &PackingInstance) -> Result<Prepared, DollProofError> {
    validate(instance).map_err(DollProofError::Doll)?;
    let prep = Prepared::new(instance, false);
    if prep.limited {
        return Err(DollProofError::Unsupported(
            "a piece has a binding maximum (the proof has no piece counts)",
        ));
    }
    if prep.reach > 128 {
        return Err(DollProofError::Unsupported(
            "placements reach over more than 128 scan cells",
        ));
    }
    Ok(prep)
}

/// Finds a maximum packing of `instance` by the Russian doll and writes, into `out`, a
/// VeriPB proof that it is maximum over [`packing_opb`]'s file (see the module doc).
/// `should_stop` is polled as lines are written. The search's rules are
/// [`DollProofOptions::default`]'s.
pub fn write_proof(
    instance: &PackingInstance,
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollProof, DollProofError> {
    write_proof_with(instance, &DollProofOptions::default(), out, should_stop)
}

/// [`write_proof`] with the search's rules of `options`.
pub fn write_proof_with(
    instance: &PackingInstance,
    options: &DollProofOptions,
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollProof, DollProofError> {
    let prep = supported(instance)?;
    let (opb, amo_by_cell) = packing_opb(instance);
    let amo: Vec<Option<u64>> = prep.order.iter().map(|&cell| amo_by_cell[cell]).collect();
    let writer = LineWriter::new(out, should_stop);
    if prep.reach <= 64 {
        Prover::<u64>::new(&prep, options, opb, amo, writer).run()
    } else {
        Prover::<u128>::new(&prep, options, opb, amo, writer).run()
    }
}

/// The definitions of `u{q}_{k}` and what is derived from them (constraint IDs).
#[derive(Clone, Copy)]
struct Counter {
    var: u32,
    /// `u -> sum >= k`.
    implies: u64,
    /// `sum >= k -> u` (absent when `k` exceeds the placements).
    implied: Option<u64>,
    /// `u{q}_{k} -> u{q+1}_{k-1}` (for `k >= 2`).
    fewer: u64,
    /// `u{q}_{k} -> u{q+1}_{k}` or a placement starting at `q`.
    later: u64,
    /// `u{q}_{k} -> u{q}_{k-1}` (for `k >= 2`).
    monotone: u64,
}

/// The definition of `e{q}_{w}`: no placement whose first cell is `q` or later and which
/// covers `w` is used.
#[derive(Clone, Copy)]
struct Free {
    var: u32,
    /// `e ->` none of those placements (one line that propagates them all).
    implies: u64,
    /// none of them `-> e`.
    implied: u64,
}

/// The end of a child's chain: why the state it reaches cannot hold the pieces it needs.
enum Closed {
    /// The hints, from the child's origin on, that propagate to a conflict with
    /// `u{q}_{need}` true, or, without it, to `~u{q}_{need}`: the lines that make the
    /// state's cells free, then the clause that refutes it and the chain of `u` lines back
    /// to `u{q}_{need}` (a clause propagates either way).
    Refuted(Hints),
    /// A packing of the target was found.
    Found,
}

struct Prover<'p, W> {
    prep: &'p Prepared,
    engine: Engine<'p, W>,
    opb: OpbFile,
    names: VarNames,
    out: LineWriter<'p>,
    next_id: u64,
    /// Per scan position: its cell's "at most one" ID.
    amo: Vec<Option<u64>>,
    /// `frees[q * reach + w - q]`: `e{q}_{w}`, where some placement starting at `q` or later
    /// covers `w`.
    frees: Vec<Option<Free>>,
    /// Per position `q`, the cells from `q` on that have an `e{q}` variable, as key words.
    named_cells: Vec<(u64, u64)>,
    /// `counters[q][k - 1]`: `u{q}_{k}`.
    counters: Vec<Vec<Counter>>,
    /// Per scan position: the ID of its table entry, the unit `~u{q}_{S[q]+1}`.
    entry: Vec<u64>,
    table: Vec<u32>,
    target: u32,
    stack: Vec<u32>,
    memo: ClauseMemo,
    /// Buffers of written hint lists, for [`Prover::hints`].
    spare_hints: Vec<Vec<u64>>,
    relaxed: Vec<(u64, u64)>,
    /// Per placement, its [`Prover::excludes`] line once derived.
    excluding: Vec<Option<Option<u64>>>,
    /// The derived jumps of [`Prover::jump`], by `(from, to, k)`.
    jumps: FxHashMap<(u32, u32, u32), u64>,
    /// Levels of the lookahead in use (0: off) and, per decided entry `q`, its `D_k`
    /// (`u32::MAX`: none), as the doll's `drops`.
    levels: usize,
    drops: Vec<[u32; LOOKAHEAD_LEVELS - 1]>,
    /// Per decided entry `D`, once derived: "at most `S[D]` placements start at `D` or
    /// later", over the placements (`None`: fewer placements than that).
    at_most: Vec<Option<Option<u64>>>,
    cover: Cover<W>,
    /// The derived [`Prover::at_most_one`] of groups sharing no cell, by their kept
    /// placements, and the [`Prover::pair`] clauses, by kept placements (ascending).
    cliques: FxHashMap<Vec<u32>, u64>,
    pairs: PairClauses,
    /// Buffers kept between lookahead cuts: the cover's groups (members, group ends) and
    /// a clique's key.
    cover_groups: (Vec<(u32, u32)>, Vec<usize>),
    clique_key: Vec<u32>,
    /// Whether the area cut is used on the entry being searched (see
    /// [`Prover::set_entry_area`]).
    entry_area: bool,
    /// Per scan position `q`, once derived: the far sum of [`Prover::far_sum`] (`None`:
    /// nothing to add).
    far: Vec<Option<Option<u64>>>,
    /// The restricted at-most-ones of [`Prover::cell_at_most_one`], by (cell, placements
    /// kept).
    near: FxHashMap<(u32, u32), u64>,
    /// The sums of [`Prover::area_sum`], by `(q, k)`.
    area_sums: FxHashMap<(u32, u32), u64>,
    /// Per scan row with weights, per scan position `q` of that row or later, once
    /// derived: the weighted far sum of [`Prover::weighted_far_sum`] (`None`: nothing).
    weighted_far: Vec<Vec<Option<Option<u64>>>>,
    /// The sums of [`Prover::weighted_sum`], by `(q, k)`.
    weighted_sums: FxHashMap<(u32, u32), u64>,
    /// What the search does at the states it would expand (see [`states`]), the entry
    /// they belong to, and how many it did not expand.
    frontier: states::Frontier,
    frontier_entry: usize,
    frontier_reached: u64,
    lookahead_cuts: u64,
    area_cuts: u64,
    weight_cuts: u64,
    nodes: u64,
    memo_hits: u64,
    dead_keys: u64,
    dead_hits: u64,
}

impl<'p, W: Window> Prover<'p, W> {
    fn new(
        prep: &'p Prepared,
        options: &DollProofOptions,
        opb: OpbFile,
        amo: Vec<Option<u64>>,
        out: LineWriter<'p>,
    ) -> Self {
        let (covering_starts, covering) = covering_lists(prep);
        let engine: Engine<'_, W> = Engine {
            skip_unfit: true,
            dead_span: dead_span(prep),
            covering_starts,
            covering,
            area: if options.area {
                prep.smallest_placement()
            } else {
                0
            },
            weighted: weight_cuts(prep, options.row_weights),
            pairs: if options.lookahead >= 2 {
                PlacementPairs::new(prep)
            } else {
                PlacementPairs::default()
            },
            ..Engine::plain(prep)
        };
        let weighted_rows = engine.weighted.len();
        let pair_span = engine.pairs.span();
        let names = opb.names.clone();
        let next_id = opb.constraint_ids() + 1;
        Prover {
            relaxed: relaxed_offsets(prep, true),
            prep,
            engine,
            opb,
            names,
            out,
            next_id,
            amo,
            frees: Vec::new(),
            named_cells: Vec::new(),
            counters: vec![Vec::new(); prep.cells + 1],
            entry: vec![0; prep.cells + 1],
            table: vec![0; prep.cells + 1],
            target: 0,
            stack: Vec::new(),
            memo: ClauseMemo::new(memo_log2(prep)),
            spare_hints: Vec::new(),
            excluding: vec![None; prep.index.len()],
            jumps: FxHashMap::default(),
            levels: options.lookahead.min(LOOKAHEAD_LEVELS).saturating_sub(1),
            drops: vec![[u32::MAX; LOOKAHEAD_LEVELS - 1]; prep.cells + 1],
            at_most: vec![None; prep.cells + 1],
            cover: Cover::default(),
            cliques: FxHashMap::default(),
            cover_groups: (Vec::new(), Vec::new()),
            clique_key: Vec::new(),
            pairs: PairClauses::new(prep.relative.len(), pair_span),
            entry_area: false,
            far: vec![None; prep.cells + 1],
            near: FxHashMap::default(),
            area_sums: FxHashMap::default(),
            weighted_far: vec![Vec::new(); weighted_rows],
            weighted_sums: FxHashMap::default(),
            frontier: states::Frontier::Search,
            frontier_entry: 0,
            frontier_reached: 0,
            lookahead_cuts: 0,
            area_cuts: 0,
            weight_cuts: 0,
            nodes: 0,
            memo_hits: 0,
            dead_keys: 0,
            dead_hits: 0,
        }
    }

    // -----------------------------------------------------------------------------------
    // Writing

    /// Writes `step`; the ID of the constraint it adds.
    fn step(&mut self, step: &Step) -> Result<u64, WriteError> {
        self.step_plain(step)?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `red constraint : var -> value ;` (a definition of the fresh `var`).
    fn red(
        &mut self,
        terms: Vec<(i64, Lit)>,
        rhs: i64,
        var: u32,
        value: bool,
    ) -> Result<u64, WriteError> {
        self.step(&Step::Red {
            constraint: Constraint {
                terms,
                relation: Relation::AtLeast,
                rhs,
            },
            witness: vec![(var, WitnessValue::Constant(value))],
        })
    }

    fn pol(&mut self, items: Vec<PolItem>) -> Result<u64, WriteError> {
        let names = &self.names;
        self.out.put_bytes(|l| push_pol(l, &items, names))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `pol a b + [c +] ;`
    fn pol_sum(&mut self, ids: &[u64]) -> Result<u64, WriteError> {
        self.out
            .put_bytes(|l| push_pol_sum(l, ids.iter().copied()))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `rup` of the clause `lits` with `hints`.
    fn rup(
        &mut self,
        lits: impl IntoIterator<Item = Lit>,
        hints: impl IntoIterator<Item = u64>,
    ) -> Result<u64, WriteError> {
        let names = &self.names;
        self.out
            .put_bytes(|l| push_clause_rup(l, lits, hints, names))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    // -----------------------------------------------------------------------------------
    // Definitions

    /// The kept placements starting at `q` or later, as literals.
    fn suffix(&self, q: usize) -> impl Iterator<Item = Lit> + '_ {
        let from = self.prep.starts[q] as usize;
        (from..self.prep.index.len()).map(|i| x(self.prep.index[i]))
    }

    fn suffix_len(&self, q: usize) -> usize {
        self.prep.index.len() - self.prep.starts[q] as usize
    }

    /// Defines `e{q}_{w}` for every `q >= from` and every cell `w` of the window at `q`
    /// that a placement starting at `q` or later covers (a shard's search never looks
    /// before its first entry).
    fn define_frees(&mut self, from: usize) -> Result<(), WriteError> {
        let n = self.prep.cells;
        let width = self.prep.reach;
        self.frees = vec![None; (n + 1) * width];
        self.named_cells = vec![(0, 0); n + 1];
        for q in from..n {
            for offset in 0..width.min(n - q) {
                let w = q + offset;
                let later: Vec<u32> = self
                    .covering(w, q)
                    .iter()
                    .map(|&(_, i)| self.prep.index[i as usize] as u32)
                    .collect();
                if later.is_empty() {
                    continue;
                }
                // No placement starting at q - 1 covers w: the same placements, so the same
                // variable.
                if q > from && self.covering(w, q - 1).len() == later.len() {
                    if let Some(before) = self.free(q - 1, w) {
                        self.frees[q * width + offset] = Some(before);
                        set_bit(&mut self.named_cells[q], offset);
                        continue;
                    }
                }
                let var = self.names.intern(&format!("e{q}_{w}"));
                let e = Lit::new(var, false);
                let m = later.len() as i64;
                let mut terms = vec![(m, e.negate())];
                terms.extend(later.iter().map(|&i| (1, x(i as usize).negate())));
                let implies = self.red(terms, m, var, false)?;
                let mut terms = vec![(1, e)];
                terms.extend(later.iter().map(|&i| (1, x(i as usize))));
                let implied = self.red(terms, 1, var, true)?;
                self.frees[q * width + offset] = Some(Free {
                    var,
                    implies,
                    implied,
                });
                set_bit(&mut self.named_cells[q], offset);
            }
        }
        Ok(())
    }

    /// The placements covering scan cell `w` whose first cell is `q` or later, as
    /// `(first cell, placement)`, later first cells first.
    fn covering(&self, w: usize, q: usize) -> &[(u32, u32)] {
        let e = &self.engine;
        let list = &e.covering[e.covering_starts[w] as usize..e.covering_starts[w + 1] as usize];
        let end = list.partition_point(|&(first, _)| first as usize >= q);
        &list[..end]
    }

    #[inline]
    fn free(&self, q: usize, w: usize) -> Option<Free> {
        let offset = w.checked_sub(q)?;
        let width = self.prep.reach;
        if offset >= width {
            return None;
        }
        self.frees.get(q * width + offset).copied().flatten()
    }

    /// Defines `u{q}_{k}` for the next `k` (they are defined in order from 1), with what is
    /// derived from it; `u{q+1}_{k-1}` and `u{q+1}_{k}` must be defined where they exist.
    fn define_counter(&mut self, q: usize) -> Result<(), WriteError> {
        let k = self.counters[q].len() + 1;
        let var = self.names.intern(&format!("u{q}_{k}"));
        let u = Lit::new(var, false);
        let size = self.suffix_len(q);
        let ki = k as i64;
        let mut terms = vec![(ki, u.negate())];
        terms.extend(self.suffix(q).map(|l| (1, l)));
        let implies = self.red(terms, ki, var, false)?;
        let implied = if k <= size {
            let slack = (size - k + 1) as i64;
            let mut terms = vec![(slack, u)];
            terms.extend(self.suffix(q).map(|l| (1, l.negate())));
            Some(self.red(terms, slack, var, true)?)
        } else {
            None
        };
        let next_implied = |this: &Self, j: usize| -> Option<u64> {
            (j >= 1)
                .then(|| this.counters.get(q + 1)?.get(j - 1)?.implied)
                .flatten()
        };
        let starting = if q < self.prep.cells {
            (self.prep.starts[q + 1] - self.prep.starts[q]) as usize
        } else {
            0
        };
        let (mut fewer, mut later, mut monotone) = (implies, implies, implies);
        if q < self.prep.cells {
            if k >= 2 {
                let mut ids = vec![implies];
                ids.extend(next_implied(self, k - 1));
                if starting >= 2 {
                    ids.push(self.amo[q].expect("two placements start here"));
                }
                fewer = if ids.len() > 1 {
                    self.pol_sum(&ids)?
                } else {
                    implies
                };
            }
            if let Some(next) = next_implied(self, k) {
                later = self.pol_sum(&[implies, next])?;
            }
        }
        if k >= 2 {
            let below = self.counters[q][k - 2]
                .implied
                .expect("u{q}_{k-1} is defined both ways");
            monotone = self.pol_sum(&[implies, below])?;
        }
        self.counters[q].push(Counter {
            var,
            implies,
            implied,
            fewer,
            later,
            monotone,
        });
        Ok(())
    }

    fn counter(&self, q: usize, k: usize) -> Counter {
        self.counters[q][k - 1]
    }

    // -----------------------------------------------------------------------------------
    // The table

    fn run(mut self) -> Result<DollProof, DollProofError> {
        self.open()?;
        self.define_frees(0)?;
        self.define_last()?;
        let best = self.entries(0..self.prep.cells)?;
        self.conclude(best)
    }

    /// The header and `f`.
    fn open(&mut self) -> Result<(), WriteError> {
        self.out.put(|l| {
            l.push_str(PROOF_HEADER);
            l.push('\n');
        })?;
        let formula = self.opb.constraint_ids();
        self.step_plain(&Step::Formula(formula))
    }

    /// The last position's entry: nothing starts there or later.
    fn define_last(&mut self) -> Result<(), WriteError> {
        let n = self.prep.cells;
        self.define_counter(n)?;
        self.entry[n] = self.counter(n, 1).implies;
        Ok(())
    }

    /// Searches the entries of `range`, last first, each from the entries after it; the
    /// packing of the last entry that rose (empty if none did).
    fn entries(&mut self, range: Range<usize>) -> Result<Vec<u32>, WriteError> {
        let mut best: Vec<u32> = Vec::new();
        for c in range.rev() {
            let target = self.table[c + 1] + 1;
            self.table[c] = self.table[c + 1];
            while self.counters[c].len() < target as usize {
                self.define_counter(c)?;
            }
            let found = if self.engine.has_start[c] {
                self.target = target;
                self.set_entry_area(c);
                Some(self.entry_search(c)?)
            } else {
                None
            };
            match found {
                Some(Ok(packing)) => {
                    best = packing;
                    self.table[c] = target;
                    self.define_counter(c)?;
                    let rise = self.counter(c, target as usize + 1).fewer;
                    let next = self.entry[c + 1];
                    let lit = Lit::new(self.counter(c, target as usize + 1).var, true);
                    self.entry[c] = self.rup([lit], [rise, next])?;
                }
                Some(Err(root)) => self.entry[c] = root,
                None => {
                    let later = self.counter(c, target as usize).later;
                    let next = self.entry[c + 1];
                    let lit = Lit::new(self.counter(c, target as usize).var, true);
                    self.entry[c] = self.rup([lit], [later, next])?;
                }
            }
            self.set_drops(c);
        }
        Ok(best)
    }

    /// Whether entry `c`'s search uses the area cut, as in the doll's table: where the
    /// cells from `c` on hold by area at most `AREA_GAP` pieces more than the target. The
    /// lookahead stays on there (the doll switches it off within `AREA_TIGHT`, for speed):
    /// in the proof its cuts save more bytes than they cost time (V pentominoes in
    /// 13 x 13: 2% fewer, in 12 x 12 4%; crosses in 13 x 19: the proof of before the area
    /// cut, which never fires there beside the lookahead).
    fn set_entry_area(&mut self, c: usize) {
        self.entry_area = area_gap(&self.engine, c, self.target) <= AREA_GAP;
    }

    /// Sets the lookahead's `D_k` of the decided entry `c` from the entries `c..`.
    fn set_drops(&mut self, c: usize) {
        for (level, drop) in self.drops[c].iter_mut().enumerate().take(self.levels) {
            let k = level as u32 + 2;
            if self.table[c] >= k {
                *drop = (c + 1..self.table.len())
                    .find(|&p| self.table[p] + k <= self.table[c])
                    .map_or(u32::MAX, |p| p as u32);
            }
        }
    }

    /// A shard's proof (see [`write_shard_proof`]): the later entries from the premises,
    /// the shard's entries by the search, then "objective >= 0".
    fn run_shard(
        mut self,
        shard: &ShardOpb,
        entries: &[usize],
    ) -> Result<DollShardProof, DollProofError> {
        let range = shard.range.clone();
        self.open()?;
        self.define_frees(range.start)?;
        self.define_last()?;
        let premise: FxHashMap<usize, u64> = shard.premises.iter().copied().collect();
        self.later_entries(range.end, entries, &premise)?;
        self.entries(range.clone())?;
        for c in range.clone() {
            if self.table[c] as usize != entries[c] {
                return Err(DollProofError::TableDiffers {
                    position: c,
                    searched: self.table[c] as usize,
                    given: entries[c],
                });
            }
        }
        self.conclude_shard(shard)
    }

    /// The table entries from `from` on, from their premises in the OPB file (`premise`,
    /// by scan position; an entry without one bounds nothing): each as the unit
    /// `~u{q}_{S[q]+1}`, with the `u` variables it needs and the lookahead's drops.
    fn later_entries(
        &mut self,
        from: usize,
        entries: &[usize],
        premise: &FxHashMap<usize, u64>,
    ) -> Result<(), WriteError> {
        for q in (from..self.prep.cells).rev() {
            let s = entries[q] as u32;
            self.table[q] = s;
            while self.counters[q].len() <= s as usize {
                self.define_counter(q)?;
            }
            let counter = self.counter(q, s as usize + 1);
            // "At most S[q]" and "u{q}_{S[q]+1} -> at least S[q] + 1" add up to
            // `(S[q] + 1) ~u >= 1`; with fewer placements than that, the definition alone
            // refutes u.
            self.entry[q] = match premise.get(&q) {
                Some(&id) => self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(counter.implies)),
                    PolItem::Id(ConstraintId::Absolute(id)),
                    PolItem::Add,
                    PolItem::Saturate,
                ])?,
                None => self.rup([Lit::new(counter.var, true)], [counter.implies])?,
            };
            self.set_drops(q);
        }
        Ok(())
    }

    /// "objective >= 0" of a shard: for each selector `t_q`, the objective's negation, the
    /// entry's bound and the guards refute `t_q`; "at least one selector" then ends the
    /// subproof.
    fn conclude_shard(mut self, shard: &ShardOpb) -> Result<DollShardProof, DollProofError> {
        let range = shard.range.clone();
        let mut bounds = Vec::new();
        for q in range.clone() {
            let s = self.table[q] as usize;
            let size = self.suffix_len(q);
            // "at most S[q] pieces start at q or later", in the placements.
            bounds.push(match self.counters[q][s].implied {
                Some(implied) => Some(self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(implied)),
                    PolItem::Id(ConstraintId::Absolute(self.entry[q])),
                    PolItem::Multiply((size - s) as u64),
                    PolItem::Add,
                ])?),
                None => None,
            });
        }
        let negation = self.step(&Step::Pbc {
            constraint: shard.goal(),
            subproof: true,
        })?;
        let mut refuted = vec![shard.at_least_one];
        for (q, bound) in range.clone().zip(bounds) {
            let conflict = match bound {
                Some(bound) => self.pol_sum(&[negation, bound])?,
                None => negation,
            };
            let mut hints = vec![shard.at_most_one];
            hints.extend(shard.guards_before(q));
            hints.push(conflict);
            refuted.push(self.rup([shard.selector(q).negate()], hints)?);
        }
        let contradiction = self.rup([], refuted)?;
        let derived = self.conclude_lower_bound(contradiction, 0)?;
        self.out.finish()?;
        Ok(DollShardProof {
            entries: range.map(|q| self.table[q] as usize).collect(),
            nodes: self.nodes,
            memo_hits: self.memo_hits,
            dead_keys: self.dead_keys,
            dead_hits: self.dead_hits,
            lookahead_cuts: self.lookahead_cuts,
            area_cuts: self.area_cuts,
            weight_cuts: self.weight_cuts,
            derived,
        })
    }

    /// Ends the `pbc` subproof of "objective >= `lower`" with its `contradiction`, concludes
    /// `BOUNDS lower INF` from it and writes `end`; the constraints the proof derived.
    fn conclude_lower_bound(&mut self, contradiction: u64, lower: i64) -> Result<u64, WriteError> {
        let goal = self.step(&Step::Qed(Some(ConstraintId::Absolute(contradiction))))?;
        self.step_plain(&Step::OutputNone)?;
        self.step_plain(&Step::Conclusion(Conclusion::Bounds {
            lower: Some(lower),
            lower_hint: Some(ConstraintId::Absolute(goal)),
            upper: None,
            solution: None,
        }))?;
        self.step_plain(&Step::End)?;
        Ok(self.next_id - 1 - self.opb.constraint_ids())
    }

    /// Searches entry `c` (at least one piece starting at `c`): `Ok` with a packing of the
    /// target, or `Err` with the ID of the root clause `~u{c}_{target}`.
    fn entry_search(&mut self, c: usize) -> Result<Result<Vec<u32>, u64>, WriteError> {
        self.stack.clear();
        let need = self.target;
        Ok(match self.expand(c, W::empty(), need)? {
            None => Ok(self.stack.clone()),
            Some(root) => Err(root),
        })
    }

    fn conclude(mut self, best: Vec<u32>) -> Result<DollProof, DollProofError> {
        let optimum = self.table[0] as usize;
        let size = self.suffix_len(0);
        let bound = match self.counters[0][optimum].implied {
            Some(implied) => {
                let factor = (size - optimum) as u64;
                self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(implied)),
                    PolItem::Id(ConstraintId::Absolute(self.entry[0])),
                    PolItem::Multiply(factor),
                    PolItem::Add,
                ])?
            }
            None => self.entry[0],
        };
        let used: std::collections::HashSet<usize> =
            best.iter().map(|&i| self.prep.index[i as usize]).collect();
        let literals = (0..self.opb.declared_variables)
            .map(|i| Lit::new(i as u32, !used.contains(&i)))
            .collect();
        self.step_plain(&Step::Solution {
            literals,
            improving: false,
            value: None,
        })?;
        self.step_plain(&Step::OutputNone)?;
        let value = -(optimum as i64);
        self.step_plain(&Step::Conclusion(Conclusion::Bounds {
            lower: Some(value),
            lower_hint: Some(ConstraintId::Absolute(bound)),
            upper: Some(value),
            solution: None,
        }))?;
        self.step_plain(&Step::End)?;
        let derived = self.next_id - 1 - self.opb.constraint_ids();
        self.out.finish()?;
        let mut best: Vec<usize> = best.iter().map(|&i| self.prep.index[i as usize]).collect();
        best.sort_unstable();
        Ok(DollProof {
            optimum,
            best,
            nodes: self.nodes,
            memo_hits: self.memo_hits,
            dead_keys: self.dead_keys,
            dead_hits: self.dead_hits,
            lookahead_cuts: self.lookahead_cuts,
            area_cuts: self.area_cuts,
            weight_cuts: self.weight_cuts,
            derived,
        })
    }

    /// A step that adds no constraint.
    fn step_plain(&mut self, step: &Step) -> Result<(), WriteError> {
        let names = &self.names;
        self.out.put(|l| push_step(l, step, names))
    }

    /// `del id ..;` of `ids`.
    fn delete(&mut self, ids: impl IntoIterator<Item = u64>) -> Result<(), WriteError> {
        self.out.put_bytes(|l| push_delete(l, ids))
    }

    // -----------------------------------------------------------------------------------
    // The search

    /// The cells of `window` at `q` kept by `kept` (key words) that have an `e`
    /// variable, as key words.
    fn key_cells(&self, q: usize, window: W, kept: (u64, u64)) -> (u64, u64) {
        let (lo, hi) = window.key().expect("proof windows have at most 128 bits");
        self.named(q, (lo & kept.0, hi & kept.1))
    }

    /// Writes the `rup` of the clause `~e{q}_{w}` for the cells `w` of key words `cells`
    /// (each with an `e` variable), then `extra`, with `hints`.
    fn clause(
        &mut self,
        q: usize,
        cells: (u64, u64),
        extra: &[Lit],
        hints: impl IntoIterator<Item = u64>,
    ) -> Result<u64, WriteError> {
        let width = self.prep.reach;
        let frees = &self.frees[q * width..(q + 1) * width];
        let lits = bits(cells)
            .map(|b| Lit::new(frees[b].expect("the cell has an e variable").var, true))
            .chain(extra.iter().copied());
        let names = &self.names;
        self.out
            .put_bytes(|l| push_clause_rup(l, lits, hints, names))?;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// An empty list of IDs, its buffer reused.
    fn spare(&mut self) -> Vec<u64> {
        self.spare_hints.pop().unwrap_or_default()
    }

    /// Keeps the buffer of a list of IDs that has been written, for [`Prover::spare`].
    fn keep(&mut self, mut ids: Vec<u64>) {
        ids.clear();
        self.spare_hints.push(ids);
    }

    /// An empty hint list, its buffer reused.
    fn hints(&mut self) -> Hints {
        Hints {
            ids: self.spare(),
            ..Hints::default()
        }
    }

    /// Keeps the buffer of a hint list that has been written.
    fn recycle(&mut self, hints: Hints) {
        self.keep(hints.ids);
    }

    /// The cells of key words `words` at `q` that have an `e` variable, as key words.
    fn named(&self, q: usize, words: (u64, u64)) -> (u64, u64) {
        let (lo, hi) = self.named_cells.get(q).copied().unwrap_or_default();
        (words.0 & lo, words.1 & hi)
    }

    /// The hint that, from a child's origin, makes every placement covering `w` that
    /// starts after the origin's cell false: `w`'s at-most-one if the origin's placement
    /// covers `w`, else the first half of `e{origin}_{w}` (which the origin's clause
    /// assumes). `None`: no such placement.
    /// Pushes it onto `hints`, noting the origin's cell it assumes.
    #[inline]
    fn source(&mut self, origin: Origin, w: usize, hints: &mut Hints) -> Result<(), WriteError> {
        // A cell is often the source of several (dead cells blocked by one covered cell):
        // its hint once, without the search for a repeat.
        if let Some(offset) = w.checked_sub(origin.q).filter(|&o| o < 128) {
            if bit(hints.sourced, offset) {
                return Ok(());
            }
            set_bit(&mut hints.sourced, offset);
        }
        match origin.placed {
            Some(i) if self.covers(origin, w) => {
                // Every cell of the placement has the same line: pushed once, without the
                // search for a repeat.
                if !hints.excluded {
                    if let Some(id) = self.excludes(origin.q, i)? {
                        hints.push(id);
                    }
                    hints.excluded = true;
                }
            }
            _ => {
                if let Some(free) = self.free(origin.q, w) {
                    hints.assume(w - origin.q);
                    hints.push(free.implies);
                }
            }
        }
        Ok(())
    }

    /// The line "placement `i` (first cell `q`) excludes every placement that starts
    /// after `q` and meets it", `R ~x_i + ~x_r1 + .. + ~x_rR >= R`, by its cells'
    /// at-most-ones; derived at its first use (`None`: no such placement).
    #[inline]
    fn excludes(&mut self, q: usize, i: usize) -> Result<Option<u64>, WriteError> {
        match self.excluding[i] {
            Some(known) => Ok(known),
            None => self.derive_excludes(q, i),
        }
    }

    /// [`Prover::excludes`] the first time: derives the line and keeps its ID.
    #[cold]
    fn derive_excludes(&mut self, q: usize, i: usize) -> Result<Option<u64>, WriteError> {
        let mut met: Vec<u32> = Vec::new();
        let mut hints = Vec::new();
        for &k in &self.prep.relative[i] {
            let later = self.covering(q + k, q + 1);
            if !later.is_empty() {
                met.extend(later.iter().map(|&(_, r)| r));
                hints.extend(self.amo[q + k]);
            }
        }
        met.sort_unstable();
        met.dedup();
        let id = if met.is_empty() {
            None
        } else {
            let r = met.len() as i64;
            let mut terms = vec![(r, x(self.prep.index[i]).negate())];
            terms.extend(
                met.iter()
                    .map(|&m| (1, x(self.prep.index[m as usize]).negate())),
            );
            Some(
                self.step(&Step::Rup {
                    constraint: Constraint {
                        terms,
                        relation: Relation::AtLeast,
                        rhs: r,
                    },
                    hints: Some(
                        hints
                            .into_iter()
                            .map(|id| Hint::Id(ConstraintId::Absolute(id)))
                            .collect(),
                    ),
                })?,
            )
        };
        self.excluding[i] = Some(id);
        Ok(id)
    }

    /// The line that makes `u{to}_{k}` true from `u{from}_{k}` once every placement
    /// starting in `from..to` is false (none when `from == to`): the carry `later` for one
    /// cell, a `pol` of the two definitions derived once per jump otherwise.
    fn jump(&mut self, from: usize, to: usize, k: usize) -> Result<Option<u64>, WriteError> {
        if from == to {
            return Ok(None);
        }
        if to == from + 1 {
            return Ok(Some(self.counter(from, k).later));
        }
        if let Some(&id) = self.jumps.get(&(from as u32, to as u32, k as u32)) {
            return Ok(Some(id));
        }
        let implies = self.counter(from, k).implies;
        // Without `u{to}_{k}`'s second half (more than the placements left), the first
        // alone refutes.
        let id = match self.counters[to].get(k - 1).and_then(|c| c.implied) {
            Some(implied) => self.pol_sum(&[implies, implied])?,
            None => implies,
        };
        self.jumps.insert((from as u32, to as u32, k as u32), id);
        Ok(Some(id))
    }

    /// The hints that make `e{q}_{w}` true for the cells of the clause cited at `(q,
    /// window)`, from the child's origin: those of `window` (the child's own covered
    /// cells) and its dead cells in `filled`, as far as `kept` keeps them.
    fn establish(
        &mut self,
        origin: Origin,
        q: usize,
        (window, filled): (W, W),
        kept: (u64, u64),
        hints: &mut Hints,
    ) -> Result<(), WriteError> {
        let (lo, hi) = window.key().expect("proof windows have at most 128 bits");
        for b in bits(self.key_cells(q, filled, kept)) {
            let w = q + b;
            let free = self.free(q, w).expect("the cell has an e variable");
            if bit((lo, hi), b) {
                let inherited = !self.covers(origin, w)
                    && self.free(origin.q, w).is_some_and(|f| f.var == free.var);
                if inherited {
                    // The origin's clause assumes this very variable.
                    hints.assume(w - origin.q);
                    continue;
                }
                self.source(origin, w, hints)?;
            } else {
                // Dead: every placement over `w` from `q` on meets a covered cell. Many meet
                // the same one, whose hints are the same: each cell once, in order.
                let mut blocked = (0, 0);
                for &(first, i) in self.covering(w, q) {
                    let cell = self.blocking(q, window, first as usize, i as usize);
                    set_bit(&mut blocked, cell - q);
                }
                for cell in bits(blocked) {
                    self.source(origin, q + cell, hints)?;
                }
            }
            hints.push(free.implied);
        }
        Ok(())
    }

    /// The first cell of placement `i` (first cell `first >= q`) that `window` (at `q`)
    /// covers: the lowest bit the two share, the placement's mask being relative to its
    /// first cell.
    fn blocking(&self, q: usize, window: W, first: usize, i: usize) -> usize {
        let (lo, hi) = window
            .shr((first - q) as u32)
            .key()
            .expect("at most 128 bits");
        let (mask_lo, mask_hi) = self.engine.masks[i].key().expect("at most 128 bits");
        let (lo, hi) = (lo & mask_lo, hi & mask_hi);
        debug_assert!((lo, hi) != (0, 0), "the placement meets the window");
        first
            + if lo != 0 {
                lo.trailing_zeros() as usize
            } else {
                64 + hi.trailing_zeros() as usize
            }
    }

    /// Whether the placement put at `origin` covers `w`.
    fn covers(&self, origin: Origin, w: usize) -> bool {
        w >= origin.q && bit(origin.mask, w - origin.q)
    }

    /// The child state `(q, window)` (not yet moved on to a useful cell) that needs `need`
    /// more pieces, reached from `origin`: the hints from there that refute `u{q}_{need}`
    /// (see [`Closed::Refuted`]), or [`Closed::Found`].
    fn child(
        &mut self,
        origin: Origin,
        mut q: usize,
        mut window: W,
        need: u32,
    ) -> Result<Closed, WriteError> {
        self.nodes += 1;
        if need == 0 {
            return Ok(Closed::Found);
        }
        let mut hints = self.hints();
        let start = q;
        loop {
            if need > self.table[q] {
                // The table cuts: need = S[q] + 1 (S falls by at most one per cell).
                debug_assert_eq!(need, self.table[q] + 1);
                hints.push(self.entry[q]);
                hints.extend(self.jump(start, q, need as usize)?);
                return Ok(Closed::Refuted(hints));
            }
            let (from, to) = (
                self.prep.starts[q] as usize,
                self.prep.starts[q + 1] as usize,
            );
            let fits = (from..to).any(|i| !window.overlaps(self.engine.masks[i]));
            if fits {
                break;
            }
            // Nothing fits at q: every placement starting there meets a covered cell (many
            // the same one: each cell once, in order).
            let mut blocked = (0, 0);
            for i in from..to {
                set_bit(&mut blocked, self.blocking(q, window, q, i) - q);
            }
            for w in bits(blocked) {
                self.source(origin, q + w, &mut hints)?;
            }
            q += 1;
            window = window.shr(1);
        }
        let jump = self.jump(start, q, need as usize)?;
        let filled = self.engine.fill_dead(q, window);
        let memo_hit = self.lookup(q, filled, need);
        let (lo, hi) = window.key().expect("at most 128 bits");
        let (dead_lo, dead_hi) = filled.key().expect("at most 128 bits");
        // The dead cells a clause can name (cells no placement from q on covers have no `e`).
        let dead = self.named(q, (dead_lo & !lo, dead_hi & !hi));
        self.dead_keys += u64::from(dead != (0, 0));
        if let Some((_, _, kept)) = memo_hit {
            self.memo_hits += 1;
            self.dead_hits += u64::from((dead.0 & kept.0, dead.1 & kept.1) != (0, 0));
        }
        let (id, kept) = match memo_hit {
            Some((_, id, kept)) => (id, kept),
            None => match self.area_cut(q, filled, need)? {
                Some(id) => (id, ALL),
                None => match self.weight_cut(q, filled, need)? {
                    Some(id) => (id, ALL),
                    None => match self.lookahead(q, filled, need)? {
                        Some(id) => (id, ALL),
                        None => match self.frontier_clause(q, filled, need)? {
                            Some(id) => (id, ALL),
                            None => match self.expand(q, filled, need)? {
                                Some(id) => (id, ALL),
                                None => return Ok(Closed::Found),
                            },
                        },
                    },
                },
            },
        };
        self.establish(origin, q, (window, filled), kept, &mut hints)?;
        hints.push(id);
        // The clause refutes u{q}_{more + 1}; u{q}_{need} implies it.
        if let Some((more, _, _)) = memo_hit {
            for k in more + 2..=need {
                hints.push(self.counter(q, k as usize).monotone);
            }
        }
        hints.extend(jump);
        Ok(Closed::Refuted(hints))
    }

    /// The memo's clause for `(q, window)` that cuts a node needing `need` more pieces:
    /// `(more, id, the window cells its key keeps)`, `more < need`, by the exact key or a
    /// relaxed one.
    fn lookup(&self, q: usize, window: W, need: u32) -> Option<(u32, u64, (u64, u64))> {
        let key = key_of(q, window, 0, [0, 0])?;
        let cuts = |key: &Key| self.memo.get(key).filter(|&(more, _)| more < need);
        if let Some((more, id)) = cuts(&key) {
            return Some((more, id, ALL));
        }
        self.relaxed.iter().find_map(|&kept| {
            let relaxed = key.keeping(kept);
            let (more, id) = cuts(&relaxed).filter(|_| relaxed != key)?;
            Some((more, id, kept))
        })
    }

    /// The clause of the node `(q, window)` (dead cells filled) that needs `need` more
    /// pieces, if the area cut does (`None`: it does not, or it is not used on this
    /// entry), stored in the memo as a searched node's clause. With `a` the smallest
    /// piece's cells, `F` the free cells from `q` on that a placement from `q` on covers
    /// and `F < a need`: one `pol` adds [`Prover::area_sum`] (`a` times `u{q}_{need}`'s
    /// definition, with the cells from `q + reach` on), the at-most-one of each free cell
    /// before `q + reach` over the placements from `q` on ([`Prover::cell_at_most_one`])
    /// and `e{q}_{w}`'s first half for each window cell `w`: every placement from `q` on
    /// then appears as often negated as plain and cancels, leaving
    /// `a need ~u + sum m_w ~e{q}_w >= a need - F`; divided by its largest coefficient,
    /// that is the clause `~u{q}_{need} ~e{q}_{w1} .. ~e{q}_{wr}` itself.
    fn area_cut(&mut self, q: usize, window: W, need: u32) -> Result<Option<u64>, WriteError> {
        let area = self.engine.area;
        if !self.entry_area || !self.engine.area_cuts(area, q, window, need) {
            return Ok(None);
        }
        self.area_cuts += 1;
        let sum = self.area_sum(q, need as usize)?;
        let id = self.cut_from_sum(q, window, need, sum, u64::from(area), None)?;
        Ok(Some(id))
    }

    /// The `pol` of a cut by area or weight at the node `(q, window)` needing `need`
    /// pieces: `sum` (the definition of `u{q}_{need}` taken `times` times, with its far
    /// sum), then each cell `w` before `q + reach`, as often as it weighs in scan row
    /// `row`'s weights (`None`: once; weight 0: left out): its `e{q}_{w}` line if the window
    /// covers it, else its at-most-one over the placements from `q` on; divided by the
    /// largest coefficient. Remembered as the node's clause.
    fn cut_from_sum(
        &mut self,
        q: usize,
        window: W,
        need: u32,
        sum: u64,
        times: u64,
        row: Option<usize>,
    ) -> Result<u64, WriteError> {
        let mut items = vec![PolItem::Id(ConstraintId::Absolute(sum))];
        let cells = self.key_cells(q, window, ALL);
        let mut divisor = times * u64::from(need);
        for w in q..(q + self.prep.reach).min(self.prep.cells) {
            let weight = match row {
                Some(row) => {
                    let cut = self.engine.weighted[row]
                        .as_ref()
                        .expect("the row has weights");
                    u64::from(cut.weights[w])
                }
                None => 1,
            };
            if weight == 0 {
                continue;
            }
            let item = if bit(cells, w - q) {
                divisor = divisor.max(weight * self.covering(w, q).len() as u64);
                let free = self.free(q, w).expect("a placement covers it");
                PolItem::Id(ConstraintId::Absolute(free.implies))
            } else {
                match self.cell_at_most_one(w, q)? {
                    Some(item) => item,
                    None => continue,
                }
            };
            items.push(item);
            if weight > 1 {
                items.push(PolItem::Multiply(weight));
            }
            items.push(PolItem::Add);
        }
        items.push(PolItem::Divide(divisor));
        let id = self.pol(items)?;
        self.remember(q, window, need, id);
        Ok(id)
    }

    /// `a` times the definition `u{q}_{k} -> at least k placements from q on` plus the
    /// far sum of `q` ([`Prover::far_sum`]): `a k ~u{q}_{k} + (the placements from q on,
    /// each times its cells before q + reach) >= a k - (the cells from q + reach on that a
    /// placement covers)`; derived once per `(q, k)`.
    fn area_sum(&mut self, q: usize, k: usize) -> Result<u64, WriteError> {
        if let Some(&id) = self.area_sums.get(&(q as u32, k as u32)) {
            return Ok(id);
        }
        let mut items = vec![
            PolItem::Id(ConstraintId::Absolute(self.counter(q, k).implies)),
            PolItem::Multiply(u64::from(self.engine.area)),
        ];
        if let Some(far) = self.far_sum(q)? {
            items.push(PolItem::Id(ConstraintId::Absolute(far)));
            items.push(PolItem::Add);
        }
        let id = self.pol(items)?;
        self.area_sums.insert((q as u32, k as u32), id);
        Ok(id)
    }

    /// The clause of the node `(q, window)` (dead cells filled) that needs `need` more
    /// pieces, if the weighted cut does (`None`: it does not), stored in the memo as a
    /// searched node's clause. As [`Prover::area_cut`], with each cell counted as often as
    /// it weighs in its scan row's weights and the divisor `D` (what every placement from
    /// the row on weighs at least) in place of the smallest piece: one `pol` adds
    /// [`Prover::weighted_sum`], each free cell before `q + reach` times its weight
    /// ([`Prover::cell_at_most_one`]) and each window cell's `e{q}_{w}` line times its
    /// weight. Every placement `P` from `q` on then cancels (`D` plain from the definition,
    /// its excess weight plain from the axioms, its weight negated from its cells),
    /// leaving `D need ~u + sum w m ~e{q}_w >= D need - F` with `F` the weight of the free
    /// cells some placement from `q` on covers, below `D need` where the doll cuts; divided
    /// by its largest coefficient, that is the node's clause (zero-weight window cells left
    /// out, so perhaps a stronger one).
    fn weight_cut(&mut self, q: usize, window: W, need: u32) -> Result<Option<u64>, WriteError> {
        if !self.engine.weight_cuts(q, window, need) {
            return Ok(None);
        }
        self.weight_cuts += 1;
        let row = q / self.prep.row;
        let divisor = self.engine.weighted[row]
            .as_ref()
            .expect("the row has weights")
            .divisor;
        let sum = self.weighted_sum(q, need as usize)?;
        let id = self.cut_from_sum(q, window, need, sum, divisor, Some(row))?;
        Ok(Some(id))
    }

    /// `D` times the definition `u{q}_{k} -> at least k placements from q on` plus the
    /// weighted far sum of `q` ([`Prover::weighted_far_sum`]), under `q`'s scan row's
    /// weights; derived once per `(q, k)`.
    fn weighted_sum(&mut self, q: usize, k: usize) -> Result<u64, WriteError> {
        if let Some(&id) = self.weighted_sums.get(&(q as u32, k as u32)) {
            return Ok(id);
        }
        let row = q / self.prep.row;
        let divisor = self.engine.weighted[row].as_ref().expect("weights").divisor;
        let mut items = vec![
            PolItem::Id(ConstraintId::Absolute(self.counter(q, k).implies)),
            PolItem::Multiply(divisor),
        ];
        if let Some(far) = self.weighted_far_sum(row, q)? {
            items.push(PolItem::Id(ConstraintId::Absolute(far)));
            items.push(PolItem::Add);
        }
        let id = self.pol(items)?;
        self.weighted_sums.insert((q as u32, k as u32), id);
        Ok(id)
    }

    /// The far sum of `q` ([`Prover::far_sum`]) under scan row `row`'s weights: each cell
    /// from `q + reach` on, its at-most-one times its weight, and each placement from `q`
    /// on, its literal axiom `x >= 0` times what it weighs beyond the divisor; derived once
    /// per `(row, q)` from that of `q + 1` (`None`: nothing to add).
    fn weighted_far_sum(&mut self, row: usize, q: usize) -> Result<Option<u64>, WriteError> {
        let n = self.prep.cells;
        if self.weighted_far[row].is_empty() {
            self.weighted_far[row] = vec![None; n + 1];
            self.weighted_far[row][n] = Some(None);
        }
        let mut top = q;
        while self.weighted_far[row][top].is_none() {
            top += 1;
        }
        for p in (q..top).rev() {
            let cut = self.engine.weighted[row].as_ref().expect("weights");
            let divisor = cut.divisor;
            let mut items = Vec::new();
            if let Some(later) = self.weighted_far[row][p + 1].expect("derived") {
                add_term(&mut items, &[PolItem::Id(ConstraintId::Absolute(later))]);
            }
            let cell = p + self.prep.reach;
            if cell < n {
                let weight = u64::from(cut.weights[cell]);
                if weight > 0 {
                    if let Some(item) = self.cell_at_most_one(cell, p)? {
                        add_term(&mut items, &[item, PolItem::Multiply(weight)]);
                    }
                }
            }
            let cut = self.engine.weighted[row].as_ref().expect("weights");
            for i in self.prep.starts[p] as usize..self.prep.starts[p + 1] as usize {
                let weight: u64 = self.prep.relative[i]
                    .iter()
                    .map(|&k| u64::from(cut.weights[p + k]))
                    .sum();
                let axiom = PolItem::Axiom(x(self.prep.index[i]));
                match weight - divisor {
                    0 => {}
                    1 => add_term(&mut items, &[axiom]),
                    extra => add_term(&mut items, &[axiom, PolItem::Multiply(extra)]),
                }
            }
            self.weighted_far[row][p] = Some(match items.as_slice() {
                [] => None,
                [PolItem::Id(ConstraintId::Absolute(id))] => Some(*id),
                _ => Some(self.pol(items)?),
            });
        }
        Ok(self.weighted_far[row][q].expect("derived"))
    }

    /// The far sum of `q`: the at-most-ones of the cells from `q + reach` on (only
    /// placements from `q` on cover them) and, for each placement from `q` on with more
    /// cells than the smallest piece, that many more times its literal axiom `x >= 0` (so
    /// that, beside `a` times `u{q}_{k}`'s definition, each placement counts its cells);
    /// derived once per `q`, from the far sum of `q + 1` (`None`: nothing to add).
    fn far_sum(&mut self, q: usize) -> Result<Option<u64>, WriteError> {
        let n = self.prep.cells;
        let mut top = q;
        while top < n && self.far[top].is_none() {
            top += 1;
        }
        if top == n {
            self.far[n] = Some(None);
        }
        for p in (q..top).rev() {
            let mut items = Vec::new();
            if let Some(later) = self.far[p + 1].expect("derived") {
                add_term(&mut items, &[PolItem::Id(ConstraintId::Absolute(later))]);
            }
            let cell = p + self.prep.reach;
            if cell < n {
                // Only placements from p on cover it: its own at-most-one.
                if let Some(item) = self.cell_at_most_one(cell, p)? {
                    add_term(&mut items, &[item]);
                }
            }
            let area = self.engine.area as usize;
            for i in self.prep.starts[p] as usize..self.prep.starts[p + 1] as usize {
                let axiom = PolItem::Axiom(x(self.prep.index[i]));
                match self.prep.relative[i].len() - area {
                    0 => {}
                    1 => add_term(&mut items, &[axiom]),
                    extra => add_term(&mut items, &[axiom, PolItem::Multiply(extra as u64)]),
                }
            }
            self.far[p] = Some(match items.as_slice() {
                [] => None,
                [PolItem::Id(ConstraintId::Absolute(id))] => Some(*id),
                _ => Some(self.pol(items)?),
            });
        }
        Ok(self.far[q].expect("derived"))
    }

    /// "At most one placement from `q` on covers cell `w`", as a `pol` item (`None`: none
    /// covers it): the literal axiom `~x >= 0` of the only one, or `w`'s at-most-one, with
    /// the placements starting before `q` weakened away by their literal axioms `x >= 0`
    /// (derived once per set of placements).
    fn cell_at_most_one(&mut self, w: usize, q: usize) -> Result<Option<PolItem>, WriteError> {
        // Later first cells first: those from q on are a prefix.
        let all = self.covering(w, 0);
        let kept = self.covering(w, q).len();
        let id = match kept {
            0 => return Ok(None),
            1 => {
                let only = self.prep.index[all[0].1 as usize];
                return Ok(Some(PolItem::Axiom(x(only).negate())));
            }
            _ if kept == all.len() => self.amo[w].expect("two placements cover the cell"),
            _ => match self.near.get(&(w as u32, kept as u32)) {
                Some(&id) => id,
                None => {
                    let amo = self.amo[w].expect("two placements cover the cell");
                    let mut items = vec![PolItem::Id(ConstraintId::Absolute(amo))];
                    for &(_, i) in &all[kept..] {
                        items.push(PolItem::Axiom(x(self.prep.index[i as usize])));
                        items.push(PolItem::Add);
                    }
                    let id = self.pol(items)?;
                    self.near.insert((w as u32, kept as u32), id);
                    id
                }
            },
        };
        Ok(Some(PolItem::Id(ConstraintId::Absolute(id))))
    }

    /// The clause of the node `(q, window)` (dead cells filled) that needs `need` more
    /// pieces, if the lookahead cuts it (`None`: it does not), stored in the memo as a
    /// searched node's clause. With `D` the cut level's `D_k` and the fits starting in
    /// `q..D` in groups of pairwise overlapping ones: one `pol` adds the definition
    /// `u{q}_{need} -> at least need from q on`, "at most `S[D]` from `D` on" and the
    /// groups' at-most-ones ([`Prover::at_most_one`]) into `need ~u + (the placements
    /// starting in q..D that do not fit) >= 1` (plus, on both sides, what the extra negated
    /// placements of the cells' at-most-ones can give); the clause is then a `rup` from it
    /// and the `e` lines that exclude the placements that do not fit, and the sum is
    /// deleted (see the module doc).
    fn lookahead(&mut self, q: usize, window: W, need: u32) -> Result<Option<u64>, WriteError> {
        let slack = (self.table[q] - need) as usize;
        if slack >= self.levels || self.drops[q][0] == u32::MAX {
            return Ok(None);
        }
        let drops = &self.drops[q][..self.levels];
        let Some(d) = self
            .engine
            .lookahead_cover(q, window, drops, slack, &mut self.cover)
        else {
            return Ok(None);
        };
        self.lookahead_cuts += 1;
        let mut terms = self.spare();
        terms.push(self.counter(q, need as usize).implies);
        terms.extend(self.at_most(d)?);
        let (mut members, mut ends) = std::mem::take(&mut self.cover_groups);
        self.cover.groups_into(&mut members, &mut ends);
        let mut start = 0;
        for &end in &ends {
            terms.push(self.at_most_one(q, &members[start..end])?);
            start = end;
        }
        self.cover_groups = (members, ends);
        let sum = self.pol_sum(&terms)?;
        self.keep(terms);
        let mut hints = self.hints();
        // Many placements meet the same cell: each cell's line once, in first-use order.
        let mut named = (0, 0);
        for a in q..d {
            for i in self.prep.starts[a] as usize..self.prep.starts[a + 1] as usize {
                if window.shr((a - q) as u32).overlaps(self.engine.masks[i]) {
                    let w = self.blocking(q, window, a, i);
                    if !bit(named, w - q) {
                        set_bit(&mut named, w - q);
                        hints.push(self.free(q, w).expect("a placement covers it").implies);
                    }
                }
            }
        }
        hints.push(sum);
        let cells = self.key_cells(q, window, ALL);
        let u = Lit::new(self.counter(q, need as usize).var, true);
        let id = self.clause(q, cells, &[u], hints.ids.iter().copied())?;
        self.recycle(hints);
        self.delete([sum])?;
        self.remember(q, window, need, id);
        Ok(Some(id))
    }

    /// "At most one of `members`" (pairwise overlapping placements, each as (offset of its
    /// first cell from `q`, kept placement), offsets ascending): the at-most-one of a cell
    /// they all cover (which names other placements too: harmless in the cut's sum, where
    /// each adds as much to the right-hand side as it can to the left), or else, once per
    /// group, by cutting planes from the pairs' clauses: with `A_i` "at most one of the
    /// first `i`", `A_{i+1}` is `((i - 1) A_i + the clauses of member i + 1 with each of
    /// the first i) / i`.
    fn at_most_one(&mut self, q: usize, members: &[(u32, u32)]) -> Result<u64, WriteError> {
        let cells = |&(j, i): &(u32, u32)| {
            self.prep.relative[i as usize]
                .iter()
                .map(move |&k| q + j as usize + k)
        };
        let first = &members[0];
        if let Some(shared) = cells(first).find(|&c| {
            members[1..]
                .iter()
                .all(|m| cells(m).any(|other| other == c))
        }) {
            return Ok(self.amo[shared].expect("two placements cover the cell"));
        }
        let mut key = std::mem::take(&mut self.clique_key);
        key.clear();
        key.extend(members.iter().map(|&(_, i)| i));
        let known = self.cliques.get(key.as_slice()).copied();
        if let Some(id) = known {
            self.clique_key = key;
            return Ok(id);
        }
        // The pairs' clauses are derived in order (member by member, each with those
        // before it) as the sum is built.
        let mut items = Vec::with_capacity(members.len() * (members.len() + 2));
        for (i, &later) in members.iter().enumerate().skip(1) {
            if i > 2 {
                items.push(PolItem::Multiply(i as u64 - 1));
            }
            for (a, &earlier) in members[..i].iter().enumerate() {
                let clause = self.pair(q, earlier, later)?;
                items.push(PolItem::Id(ConstraintId::Absolute(clause)));
                if i > 1 || a > 0 {
                    items.push(PolItem::Add);
                }
            }
            if i > 1 {
                items.push(PolItem::Divide(i as u64));
            }
        }
        let id = self.pol(items)?;
        self.cliques.insert(key, id);
        Ok(id)
    }

    /// The clause "not both" of two overlapping placements (as in
    /// [`Prover::at_most_one`]), by a cell's at-most-one; derived once.
    fn pair(&mut self, q: usize, a: (u32, u32), b: (u32, u32)) -> Result<u64, WriteError> {
        let key = (a.1.min(b.1), a.1.max(b.1));
        if let Some(id) = self.pairs.get(key) {
            return Ok(id);
        }
        let cells_of = |(j, i): (u32, u32)| -> Vec<usize> {
            self.prep.relative[i as usize]
                .iter()
                .map(|&k| q + j as usize + k)
                .collect()
        };
        let later = cells_of(b);
        let shared = cells_of(a)
            .into_iter()
            .find(|c| later.contains(c))
            .expect("the placements overlap");
        let amo = self.amo[shared].expect("two placements cover the cell");
        let lits = vec![
            x(self.prep.index[a.1 as usize]).negate(),
            x(self.prep.index[b.1 as usize]).negate(),
        ];
        let id = self.rup(lits, [amo])?;
        self.pairs.insert(key, id);
        Ok(id)
    }

    /// "At most `S[d]` placements start at `d` or later" (`d` decided), over the
    /// placements: the definition of `u{d}_{S[d]+1}` and the entry; derived once (`None`:
    /// fewer placements start there).
    fn at_most(&mut self, d: usize) -> Result<Option<u64>, WriteError> {
        if let Some(known) = self.at_most[d] {
            return Ok(known);
        }
        let s = self.table[d] as usize;
        let id = match self.counter(d, s + 1).implied {
            Some(implied) => Some(self.pol(vec![
                PolItem::Id(ConstraintId::Absolute(implied)),
                PolItem::Id(ConstraintId::Absolute(self.entry[d])),
                PolItem::Multiply((self.suffix_len(d) - s) as u64),
                PolItem::Add,
            ])?),
            None => None,
        };
        self.at_most[d] = Some(id);
        Ok(id)
    }

    /// Stores the clause `id` of the node `(q, window)` that needed `need` more pieces.
    fn remember(&mut self, q: usize, window: W, need: u32, id: u64) {
        if let Some(key) = key_of(q, window, 0, [0, 0]) {
            self.memo.keep_least(&key, need - 1, id);
        }
    }

    /// The clause "the cells of `covered` (those the child's hints assume) free and
    /// `u{q}_{need}` exclude placement `i`", from the child's chain after `counter`'s
    /// `fewer` (with `x_i`, one piece fewer is needed at `q + 1`).
    fn placement_clause(
        &mut self,
        q: usize,
        covered: (u64, u64),
        counter: Counter,
        i: usize,
        child_hints: Hints,
    ) -> Result<u64, WriteError> {
        let cells = (
            covered.0 & child_hints.assumed.0,
            covered.1 & child_hints.assumed.1,
        );
        let extra = [Lit::new(counter.var, true), x(self.prep.index[i]).negate()];
        let hints = std::iter::once(counter.fewer).chain(child_hints.ids.iter().copied());
        let id = self.clause(q, cells, &extra, hints)?;
        self.recycle(child_hints);
        Ok(id)
    }

    /// Searches the node `(q, window)` that needs `need` more pieces, where a placement
    /// fits at `q`; writes its clause and returns its ID, or `None` when a packing of the
    /// target was found (left on the stack).
    fn expand(&mut self, q: usize, window: W, need: u32) -> Result<Option<u64>, WriteError> {
        let covered = self.key_cells(q, window, ALL);
        let counter = self.counter(q, need as usize);
        let (from, to) = (
            self.prep.starts[q] as usize,
            self.prep.starts[q + 1] as usize,
        );
        let mut node_hints = self.hints();
        let mut per_placement = self.spare();
        // The last placement that fits, with its child's hints: its clause is not written,
        // its chain joins the node's clause (see below).
        let mut last: Option<(usize, Hints)> = None;
        // The covered cells whose line is in `node_hints` (many placements meet one cell).
        let mut named = (0, 0);
        for i in from..to {
            let mask = self.engine.masks[i];
            if window.overlaps(mask) {
                let w = self.blocking(q, window, q, i);
                if !bit(named, w - q) {
                    set_bit(&mut named, w - q);
                    node_hints.push(self.free(q, w).expect("a placement covers it").implies);
                }
                continue;
            }
            self.stack.push(i as u32);
            let origin = Origin {
                q,
                placed: Some(i),
                mask: mask.key().expect("at most 128 bits"),
            };
            let closed = self.child(origin, q + 1, window.union(mask).shr(1), need - 1)?;
            let Closed::Refuted(child_hints) = closed else {
                return Ok(None);
            };
            self.stack.pop();
            if let Some((before, before_hints)) = last.replace((i, child_hints)) {
                let id = self.placement_clause(q, covered, counter, before, before_hints)?;
                node_hints.push(id);
                per_placement.push(id);
            }
        }
        let origin = Origin {
            q,
            placed: None,
            mask: (0, 0),
        };
        let Closed::Refuted(skip_hints) = self.child(origin, q + 1, window.shr(1), need)? else {
            return Ok(None);
        };
        // With the cells free and `u{q}_{need}`: the other placements are excluded (their
        // cells or their clauses), the skip's chain refutes `u{q+1}_{need}`, so `later`
        // forces the last placement, and its child's chain, after `fewer`, conflicts.
        node_hints.extend(skip_hints.ids.iter().copied());
        self.recycle(skip_hints);
        node_hints.push(counter.later);
        let (_, last_hints) = last.expect("a placement fits at q");
        node_hints.push(counter.fewer);
        node_hints.extend(last_hints.ids.iter().copied());
        self.recycle(last_hints);
        let extra = [Lit::new(counter.var, true)];
        let id = self.clause(q, covered, &extra, node_hints.ids.iter().copied())?;
        self.recycle(node_hints);
        // The per-placement clauses served this node's clause alone: the checkers drop them.
        if !per_placement.is_empty() {
            self.delete(per_placement.iter().copied())?;
        }
        self.keep(per_placement);
        self.remember(q, window, need, id);
        Ok(Some(id))
    }
}

/// The IDs of [`Prover::pair`]'s clauses by (earlier, later) kept placement: a slot for
/// every pair of placements less than `span` apart (all that can overlap; a clique's
/// derivation looks up a pair per member and member before it, millions of times), or,
/// if those slots would take too much memory, a map.
struct PairClauses {
    /// `slots[earlier * span + later - earlier]`, 0 for none.
    slots: Vec<u64>,
    span: usize,
    map: FxHashMap<(u32, u32), u64>,
}

/// Slots a [`PairClauses`] may have (32 MiB).
const PAIR_SLOTS_MOST: usize = 1 << 22;

impl PairClauses {
    /// No clause yet, for `count` placements whose overlapping pairs lie less than `span`
    /// apart (0: unknown; then a map).
    fn new(count: usize, span: usize) -> Self {
        let slots = count.saturating_mul(span);
        PairClauses {
            slots: if span > 0 && slots <= PAIR_SLOTS_MOST {
                vec![0; slots]
            } else {
                Vec::new()
            },
            span,
            map: FxHashMap::default(),
        }
    }

    fn slot(&self, (earlier, later): (u32, u32)) -> Option<usize> {
        let d = (later - earlier) as usize;
        (!self.slots.is_empty() && d < self.span).then(|| earlier as usize * self.span + d)
    }

    #[inline]
    fn get(&self, pair: (u32, u32)) -> Option<u64> {
        match self.slot(pair) {
            Some(k) => Some(self.slots[k]).filter(|&id| id != 0),
            None => self.map.get(&pair).copied(),
        }
    }

    fn insert(&mut self, pair: (u32, u32), id: u64) {
        match self.slot(pair) {
            Some(k) => self.slots[k] = id,
            None => {
                self.map.insert(pair, id);
            }
        }
    }
}

/// Where a child's covered cells come from: the parent's cell `q` (its window's cells,
/// whose `e{q}` its clause assumes) and the placement put there, if any.
#[derive(Clone, Copy)]
struct Origin {
    q: usize,
    placed: Option<usize>,
    /// The placed placement's cells from `q` on, as key words (none if nothing is placed).
    mask: (u64, u64),
}

/// Key words keeping every window cell.
const ALL: (u64, u64) = (u64::MAX, u64::MAX);

/// The bits set in key words `(lo, hi)`, ascending.
fn bits((lo, hi): (u64, u64)) -> impl Iterator<Item = usize> {
    let ones = |word: u64, base: usize| {
        std::iter::successors((word != 0).then_some(word), |&w| {
            let rest = w & (w - 1);
            (rest != 0).then_some(rest)
        })
        .map(move |w| w.trailing_zeros() as usize + base)
    };
    ones(lo, 0).chain(ones(hi, 64))
}

/// Sets bit `k` (below 128) of key words.
fn set_bit(words: &mut (u64, u64), k: usize) {
    match k {
        0..=63 => words.0 |= 1 << k,
        _ => words.1 |= 1 << (k - 64),
    }
}

/// Whether key words `(lo, hi)` hold bit `k`.
fn bit((lo, hi): (u64, u64), k: usize) -> bool {
    match k {
        0..=63 => lo >> k & 1 == 1,
        64..=127 => hi >> (k - 64) & 1 == 1,
        _ => false,
    }
}

/// A hint list without repeats, in first-use order, and the origin's cells whose `e` it
/// assumes (key words from the origin's cell).
#[derive(Default)]
struct Hints {
    ids: Vec<u64>,
    assumed: (u64, u64),
    /// Whether the line of the origin's placement ([`Prover::excludes`]) is in `ids`.
    excluded: bool,
    /// The cells (key words from the origin's cell) whose [`Prover::source`] is in `ids`.
    sourced: (u64, u64),
    /// A 1024-bit filter of the IDs in `ids`: an ID whose bit is clear is new, so most
    /// pushes skip the scan for a repeat (the scan was a third of the proof search's time).
    seen: [u64; 16],
}

impl Hints {
    /// Notes that the hints assume `e` of the origin's cell at `offset`.
    fn assume(&mut self, offset: usize) {
        set_bit(&mut self.assumed, offset);
    }

    fn extend(&mut self, ids: impl IntoIterator<Item = u64>) {
        for id in ids {
            self.push(id);
        }
    }

    #[inline]
    fn push(&mut self, id: u64) {
        let slot = (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize;
        let (word, bit) = (slot >> 6, 1u64 << (slot & 63));
        if self.seen[word] & bit != 0 && self.ids.contains(&id) {
            return;
        }
        self.seen[word] |= bit;
        self.ids.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::PairClauses;

    /// Slots and map keep the same clauses: pairs within the span in slots, those beyond
    /// (and every pair when the span is unknown) in the map.
    #[test]
    fn pair_clauses_are_found_where_they_were_kept() {
        for span in [0, 4] {
            let mut pairs = PairClauses::new(10, span);
            assert_eq!(pairs.slots.len(), 10 * span);
            for (k, pair) in [(0, 1), (2, 5), (3, 9), (8, 9)].into_iter().enumerate() {
                assert_eq!(pairs.get(pair), None);
                pairs.insert(pair, 100 + k as u64);
            }
            let found = [(0, 1), (2, 5), (3, 9), (8, 9), (0, 2), (1, 9)].map(|p| pairs.get(p));
            assert_eq!(
                found,
                [Some(100), Some(101), Some(102), Some(103), None, None],
                "span {span}"
            );
            // Only (3, 9) lies beyond the span of 4.
            assert_eq!(pairs.map.len(), if span == 0 { 4 } else { 1 });
        }
    }
}
