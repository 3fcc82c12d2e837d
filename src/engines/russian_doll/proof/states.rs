//! One table entry's search split into shards by its states.
//!
//! A table entry whose search is too large for one proof (18 x 18 crosses: entry 0 alone
//! writes more than 25 GB, more than `veripb` can hold in this machine's memory) is cut at
//! its search states. A state is a node of the entry's search: the scan position `q`, the
//! cells from `q` on that the placed pieces cover (the window, dead cells included) and
//! the pieces still needed, `k`. Its claim, over the placements alone so that any process
//! can state it: with `P` the placements starting at `q` or later, `B` those of them that
//! meet a covered cell and `M = |P \ B|` (at least 1),
//!
//! `M sum_B x - sum_{P \ B} x >= 1 - k`,
//!
//! "if no placement of `B` is used, fewer than `k` of the others are". It is the state's
//! clause of the proof search (`~e{q}_{w1} .. ~u{q}_{k}`, see the parent module) stated
//! without its auxiliary variables, and for the entry's root (`q` the entry, no window,
//! `k = S[q+1] + 1`) it is the table entry's own premise form, `-sum_P x >= -S[q]`.
//!
//! A state's shard ([`state_opb`], [`write_state_proof`]) is an OPB file of the packing
//! model, the later table entries as premises (as an entry shard's), the claims of the
//! states it leaves to other shards (its frontier) and the objective `M sum_B x - sum_{P
//! \ B} x`; its proof searches from the state, cites a frontier state's claim where its
//! search reaches it (one `pol` with the `u` definition gives "`u` or a placement of
//! `B`", one `rup` with the `e` lines the state's clause), and concludes `BOUNDS 1-k INF`:
//! the claim. [`group_opb`] puts consecutive states of one search into one shard, searched
//! with one memo (a shard per state loses what its siblings' subtrees stored, four times
//! the nodes on 17 x 17's entry 0): a selector per state and guards that forbid the
//! placements it does not allow. [`state_frontier`] finds the states a given number of
//! pieces below a state, by running the same search without writing: the shard that cites
//! them reaches exactly those.

use std::io::Write;
use std::sync::atomic::AtomicUsize;

use rustc_hash::FxHashMap;

use super::super::instance::Prepared;
use super::super::window::Window;
use super::cells::{bits, ALL};
use super::model::{packing_opb, push_exactly_one, x};
use super::{supported, DollProofError, DollProofOptions, Prover, WatchedOut};
use crate::formats::lines::{LineWriter, WriteError};
use crate::formats::opb::{Constraint, Lit, Objective, OpbFile, Relation, VarNames};
use crate::formats::veripb::{ConstraintId, PolItem, Step};
use crate::geometry::placements::PackingInstance;

/// A state of one table entry's search (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateClaim {
    /// The table entry (scan position) whose search reaches the state.
    pub entry: usize,
    /// The state's scan position `q`.
    pub position: usize,
    /// The scan positions from `q` on that the window covers, dead cells included,
    /// ascending.
    pub covered: Vec<usize>,
    /// The pieces still needed from `q` on.
    pub need: u32,
}

impl StateClaim {
    /// The root of entry `entry`'s search over the table `entries` (`S[0..=P]`): "at most
    /// `S[entry + 1]` pieces start at `entry` or later", the entry's bound if it stays.
    pub fn entry_root(entry: usize, entries: &[usize]) -> StateClaim {
        StateClaim {
            entry,
            position: entry,
            covered: Vec::new(),
            need: entries[entry + 1] as u32 + 1,
        }
    }

    /// Whether the kept placement `i`, starting at `first`, meets a covered cell.
    fn meets(&self, prep: &Prepared, first: usize, i: usize) -> bool {
        prep.relative[i]
            .iter()
            .any(|&k| self.covered.binary_search(&(first + k)).is_ok())
    }

    /// Whether the state's search may use the kept placement `i` (starting at `first`): it
    /// starts at the state's position or later and misses the window.
    fn allows(&self, prep: &Prepared, first: usize, i: usize) -> bool {
        first >= self.position && !self.meets(prep, first, i)
    }

    /// The claim as a constraint over the placements (`x{i+1}` for placement `i`).
    fn constraint(&self, prep: &Prepared) -> Constraint {
        let q = self.position;
        let mut met = Vec::new();
        let mut others = Vec::new();
        for first in q..prep.cells {
            for i in prep.starts[first] as usize..prep.starts[first + 1] as usize {
                let meets = self.meets(prep, first, i);
                if meets { &mut met } else { &mut others }.push(x(prep.index[i]));
            }
        }
        let m = others.len().max(1) as i64;
        let mut terms: Vec<(i64, Lit)> = met.into_iter().map(|l| (m, l)).collect();
        terms.extend(others.into_iter().map(|l| (-1, l)));
        Constraint {
            terms,
            relation: Relation::AtLeast,
            rhs: 1 - i64::from(self.need),
        }
    }

    /// Whether the state is one of `prep`'s search: its position in the box, after its
    /// entry's, its covered cells ascending within the window there, a piece needed.
    fn fits(&self, prep: &Prepared) -> bool {
        let window = self.position..self.position + prep.reach.min(128);
        self.entry <= self.position
            && self.position < prep.cells
            && self.need >= 1
            && self.covered.windows(2).all(|pair| pair[0] < pair[1])
            && self.covered.iter().all(|w| window.contains(w))
    }

    /// The window at `q`: bit `w - q` per covered cell `w`.
    fn window<W: Window>(&self) -> W {
        self.covered
            .iter()
            .fold(W::empty(), |window, &w| window.with(w - self.position))
    }
}

/// A state shard's OPB file ([`state_opb`], [`group_opb`]) and where its parts are.
#[derive(Clone, Debug)]
pub struct StateOpb {
    /// The file.
    pub file: OpbFile,
    /// The states the shard proves, searched in this order with one memo.
    pub goals: Vec<StateClaim>,
    /// Per later table entry with a premise, `(q, ID)`.
    pub entry_premises: Vec<(usize, u64)>,
    /// The frontier's claims, each with its ID.
    pub premises: Vec<(StateClaim, u64)>,
    /// With several goals: their selectors' constraints.
    selectors: Option<Selectors>,
}

/// The selectors of a shard of several states: `t_j` (variable `placements + j`) selects
/// state `j`'s claim.
#[derive(Clone, Debug)]
struct Selectors {
    placements: usize,
    at_least_one: u64,
    at_most_one: u64,
    /// The guards' IDs: per placement not allowed under every state, "`x` only under a
    /// state whose window it misses and from whose position on it starts".
    guards: Vec<u64>,
}

impl StateOpb {
    /// What the shard's proof concludes: `BOUNDS lower INF`, the objective at least this
    /// (`1 - k` for one state, `0` for several).
    pub fn lower(&self) -> i64 {
        match (&self.selectors, &self.goals[..]) {
            (None, [goal]) => 1 - i64::from(goal.need),
            _ => 0,
        }
    }
}

/// The OPB file of the shard that proves `goal`'s claim over the table `entries`
/// (`S[0..=P]`, the last 0), citing the claims of `frontier`: the packing model's
/// constraints (as [`packing_opb`]), per later entry `q > goal.entry` that bounds anything
/// `-x.. >= -S[q]` over the placements starting at `q` or later (`q` ascending), then each
/// frontier state's claim in the order given; objective: the goal's claim's left side, so
/// that "objective >= 1 - k" is the claim.
pub fn state_opb(
    instance: &PackingInstance,
    entries: &[usize],
    goal: &StateClaim,
    frontier: &[StateClaim],
) -> StateOpb {
    let prep = Prepared::new(instance, false);
    let mut shard = premises_opb(instance, &prep, entries, goal.entry, frontier);
    shard.file.objective = Some(Objective {
        terms: goal.constraint(&prep).terms,
        constant: 0,
    });
    shard.goals = vec![goal.clone()];
    shard
}

/// The OPB file of the shard that proves the claims of the states `group` (of one entry's
/// search, the first entry's premises for all) in one search with one memo: as
/// [`state_opb`]'s up to the frontier's claims, then a selector `t_j` per state (variables
/// after the placements), "at least one" and "at most one" of them, and per placement
/// starting at the states' first position or later that some state does not allow, its
/// guard `-x + (the t_j of the states that allow it) >= 0`, where state `j` allows the
/// placements that start at its position or later and miss its window. Objective:
/// `sum (k_j - 1) t_j - (those placements)`: with `t_j` selected, "objective >= 0" is state
/// `j`'s claim.
pub fn group_opb(
    instance: &PackingInstance,
    entries: &[usize],
    group: &[StateClaim],
    frontier: &[StateClaim],
) -> StateOpb {
    if let [goal] = group {
        return state_opb(instance, entries, goal, frontier);
    }
    let prep = Prepared::new(instance, false);
    let entry = group.first().map_or(0, |goal| goal.entry);
    let mut shard = premises_opb(instance, &prep, entries, entry, frontier);
    let file = &mut shard.file;
    let placements = file.declared_variables;
    file.declared_variables += group.len();
    file.names = VarNames::numbered(file.declared_variables);
    let selector = |j: usize| Lit::new((placements + j) as u32, false);
    let selectors: Vec<Lit> = (0..group.len()).map(selector).collect();
    let (at_least_one, at_most_one) = push_exactly_one(file, &selectors);
    let first = group.iter().map(|goal| goal.position).min().unwrap_or(0);
    let mut guards = Vec::new();
    let mut objective: Vec<(i64, Lit)> = group
        .iter()
        .enumerate()
        .filter(|(_, goal)| goal.need > 1)
        .map(|(j, goal)| (i64::from(goal.need) - 1, selector(j)))
        .collect();
    for q in first..prep.cells {
        for i in prep.starts[q] as usize..prep.starts[q + 1] as usize {
            let allowing: Vec<usize> = (0..group.len())
                .filter(|&j| group[j].allows(&prep, q, i))
                .collect();
            if allowing.len() < group.len() {
                let mut terms = vec![(-1, x(prep.index[i]))];
                terms.extend(allowing.iter().map(|&j| (1, selector(j))));
                file.constraints.push(Constraint {
                    terms,
                    relation: Relation::AtLeast,
                    rhs: 0,
                });
                guards.push(file.constraints.len() as u64);
            }
            objective.push((-1, x(prep.index[i])));
        }
    }
    file.objective = Some(Objective {
        terms: objective,
        constant: 0,
    });
    shard.goals = group.to_vec();
    shard.selectors = Some(Selectors {
        placements,
        at_least_one,
        at_most_one,
        guards,
    });
    shard
}

/// A state shard's OPB file up to the frontier's claims (see [`state_opb`]), no goal yet.
fn premises_opb(
    instance: &PackingInstance,
    prep: &Prepared,
    entries: &[usize],
    entry: usize,
    frontier: &[StateClaim],
) -> StateOpb {
    let (mut file, _) = packing_opb(instance);
    let mut entry_premises = Vec::new();
    let later = entries.iter().enumerate().take(prep.cells);
    for (q, &bound) in later.skip(entry + 1) {
        let from = prep.starts[q] as usize;
        if bound < prep.index.len() - from {
            file.constraints.push(Constraint {
                terms: (from..prep.index.len())
                    .map(|i| (-1, x(prep.index[i])))
                    .collect(),
                relation: Relation::AtLeast,
                rhs: -(bound as i64),
            });
            entry_premises.push((q, file.constraints.len() as u64));
        }
    }
    let mut premises = Vec::new();
    for state in frontier {
        file.constraints.push(state.constraint(prep));
        premises.push((state.clone(), file.constraints.len() as u64));
    }
    StateOpb {
        file,
        goals: Vec::new(),
        entry_premises,
        premises,
        selectors: None,
    }
}

/// What a state shard's proof-writing run (or [`state_frontier`]'s) found and wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollStateProof {
    /// Search nodes.
    pub nodes: u64,
    /// Nodes cut by a memo entry.
    pub memo_hits: u64,
    /// Nodes cut by the lookahead, the area or the weighted cut.
    pub cuts: u64,
    /// Frontier states reached: cited from the premises, or listed by [`state_frontier`].
    pub frontier: u64,
    /// Constraints the proof derives.
    pub derived: u64,
}

/// How the search treats the states it would expand.
pub(super) enum Frontier {
    /// Expands every one.
    Search,
    /// Lists (and expands none of) those that need this many pieces.
    List(u32, Vec<StateClaim>),
    /// Cites these claims, by `(q, window key words, need)`, expanding the others.
    Cite(FxHashMap<(usize, u64, u64, u32), u64>),
}

/// Writes into `out` the VeriPB proof of `shard`'s goals (see [`state_opb`] and
/// [`group_opb`]; `entries` the table it was built over): the later entries as units from
/// the premises, the goals' states searched in turn with one memo, the frontier's claims
/// cited where reached, then "objective >= [`StateOpb::lower`]" in a `pbc` subproof,
/// concluded as `BOUNDS lower INF`. Fails if the search finds a packing of a state (its
/// claim is false: the entry rises).
pub fn write_state_proof(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &StateOpb,
    entries: &[usize],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<DollStateProof, DollProofError> {
    let search = RunOptions {
        list: None,
        finished: None,
    };
    run(instance, options, shard, entries, search, out, should_stop).map(|(outcome, _)| outcome)
}

/// [`write_state_proof`] into `watched`, counting each goal searched to its end.
pub fn write_state_proof_counted(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &StateOpb,
    entries: &[usize],
    watched: WatchedOut<'_>,
) -> Result<DollStateProof, DollProofError> {
    let search = RunOptions {
        list: None,
        finished: Some(watched.finished),
    };
    let (out, stop) = (watched.out, watched.should_stop);
    run(instance, options, shard, entries, search, out, stop).map(|(outcome, _)| outcome)
}

/// What [`run`] does beside writing: list the states that need `list` pieces (citing
/// none), count the goals searched to their end into `finished`.
struct RunOptions<'a> {
    list: Option<u32>,
    finished: Option<&'a AtomicUsize>,
}

/// The states `depth` pieces below `goal` (over the table `entries`) that `goal`'s search
/// would expand, in the order it reaches them, each once: the frontier for
/// [`state_opb`]. The same search as [`write_state_proof`]'s, written nowhere.
pub fn state_frontier(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    goal: &StateClaim,
    depth: u32,
) -> Result<(Vec<StateClaim>, DollStateProof), DollProofError> {
    if depth == 0 || depth >= goal.need {
        return Err(DollProofError::Unsupported(
            "a frontier lies between the state and its last piece",
        ));
    }
    let shard = state_opb(instance, entries, goal, &[]);
    let stop = || false;
    // Listed with the whole memo: a state given up and searched again would be listed
    // twice.
    let options = DollProofOptions {
        memo_clauses: 0,
        ..*options
    };
    let search = RunOptions {
        list: Some(goal.need - depth),
        finished: None,
    };
    let (outcome, listed) = run(
        instance,
        &options,
        &shard,
        entries,
        search,
        &mut std::io::sink(),
        &stop,
    )?;
    Ok((listed, outcome))
}

/// The key of a state in [`Frontier::Cite`].
fn state_key(state: &StateClaim) -> (usize, u64, u64, u32) {
    let (lo, hi) = state.window::<u128>().key().expect("128 bits");
    (state.position, lo, hi, state.need)
}

/// The state search of `shard`, citing its premises, or with `search.list` listing (and
/// citing nothing) the states that need that many pieces: what it wrote and the states
/// listed.
fn run(
    instance: &PackingInstance,
    options: &DollProofOptions,
    shard: &StateOpb,
    entries: &[usize],
    search: RunOptions<'_>,
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(DollStateProof, Vec<StateClaim>), DollProofError> {
    let prep = supported(instance)?;
    if entries.len() != prep.cells + 1 {
        return Err(DollProofError::Unsupported(
            "the table does not have one entry per scan position",
        ));
    }
    let premises = shard.premises.iter().map(|(state, _)| state);
    // A state needs at most one piece more than the table allows from its position (at
    // its entry's own position, the entry's target): the search has `u` for no more.
    let most = |s: &StateClaim| entries[s.position + usize::from(s.position == s.entry)] + 1;
    let states_fit = |s: &StateClaim| s.fits(&prep) && s.need as usize <= most(s);
    if !shard.goals.iter().chain(premises).all(states_fit) {
        return Err(DollProofError::Unsupported(
            "a state lies outside the box or its window, or needs more than the table allows",
        ));
    }
    let entry = shard.goals.first().map(|goal| goal.entry);
    if entry.is_none() || shard.goals.iter().any(|goal| Some(goal.entry) != entry) {
        return Err(DollProofError::Unsupported(
            "a shard's states belong to one entry's search",
        ));
    }
    let frontier = match search.list {
        Some(need) => Frontier::List(need, Vec::new()),
        None => Frontier::Cite(
            shard
                .premises
                .iter()
                .map(|(state, id)| (state_key(state), *id))
                .collect(),
        ),
    };
    let (_, amo_by_cell) = packing_opb(instance);
    let amo: Vec<Option<u64>> = prep.order.iter().map(|&cell| amo_by_cell[cell]).collect();
    let writer = LineWriter::new(out, should_stop);
    let opb = shard.file.clone();
    let premises = shard.entry_premises.iter().copied().collect();
    if prep.reach <= 64 {
        Prover::<u64>::new(&prep, options, opb, amo, writer)
            .counting(search.finished)
            .run_state(shard, entries, &premises, frontier)
    } else {
        Prover::<u128>::new(&prep, options, opb, amo, writer)
            .counting(search.finished)
            .run_state(shard, entries, &premises, frontier)
    }
}

impl<W: Window> Prover<'_, W> {
    /// A state shard's proof (see [`write_state_proof`]), or with [`Frontier::List`] the
    /// frontier it lists.
    fn run_state(
        mut self,
        shard: &StateOpb,
        entries: &[usize],
        premises: &FxHashMap<usize, u64>,
        frontier: Frontier,
    ) -> Result<(DollStateProof, Vec<StateClaim>), DollProofError> {
        let goals = &shard.goals;
        let c = goals[0].entry;
        for goal in goals {
            let window: W = goal.window();
            let mut starting = self.prep.starts[goal.position]..self.prep.starts[goal.position + 1];
            let fits = starting.any(|i| !window.overlaps(self.engine.masks[i as usize]));
            if !fits {
                return Err(DollProofError::Unsupported(
                    "a state is a node of its entry's search where a placement fits",
                ));
            }
        }
        self.open()?;
        // The search never looks before the states.
        let first = goals.iter().map(|goal| goal.position).min().unwrap_or(c);
        self.define_frees(first)?;
        self.define_last()?;
        self.later_entries(c + 1, entries, premises)?;
        let target = entries[c + 1] as u32 + 1;
        while self.counters[c].len() < target as usize {
            self.define_counter(c)?;
        }
        self.target = target;
        self.set_entry_area(c);
        self.frontier = frontier;
        self.frontier_entry = c;
        let mut roots = Vec::new();
        for goal in goals {
            let Some(root) = self.expand(goal.position, goal.window(), goal.need)? else {
                return Err(DollProofError::StateHolds);
            };
            // The conclusion cites every goal's root.
            self.pin(root);
            roots.push(root);
            self.goal_done();
        }
        let listed = match std::mem::replace(&mut self.frontier, Frontier::Search) {
            Frontier::List(_, states) => states,
            _ => Vec::new(),
        };
        let outcome = self.conclude_state(shard, &roots)?;
        Ok((outcome, listed))
    }

    /// The state's clause at a frontier state `(q, window)` needing `need` (the window's
    /// dead cells filled) instead of its search, in the way [`Frontier`] says: `None` to
    /// search it.
    pub(super) fn frontier_clause(
        &mut self,
        q: usize,
        window: W,
        need: u32,
    ) -> Result<Option<u64>, WriteError> {
        let id = match &mut self.frontier {
            Frontier::Search => return Ok(None),
            Frontier::List(depth, states) => {
                if need != *depth {
                    return Ok(None);
                }
                let covered = bits(window.key().expect("at most 128 bits"))
                    .map(|b| q + b)
                    .collect();
                states.push(StateClaim {
                    entry: self.frontier_entry,
                    position: q,
                    covered,
                    need,
                });
                // Nothing is written: a stand-in ID, only stored in the memo.
                self.next_id += 1;
                self.next_id - 1
            }
            Frontier::Cite(claims) => {
                let (lo, hi) = window.key().expect("at most 128 bits");
                let Some(&premise) = claims.get(&(q, lo, hi, need)) else {
                    return Ok(None);
                };
                // The claim and `u{q}_{need}`'s definition add up to `(M + 1) sum_B x +
                // need ~u >= 1`: saturated, "u or a placement of B"; the window's `e` lines
                // exclude B.
                let counter = self.counter(q, need as usize);
                let either = self.pol(vec![
                    PolItem::Id(ConstraintId::Absolute(premise)),
                    PolItem::Id(ConstraintId::Absolute(counter.implies)),
                    PolItem::Add,
                    PolItem::Saturate,
                ])?;
                let cells = self.key_cells(q, window, ALL);
                let mut hints: Vec<u64> = bits(cells)
                    .map(|b| self.free(q, q + b).expect("a named cell").implies)
                    .collect();
                hints.push(either);
                let u = Lit::new(counter.var, true);
                let id = self.clause(q, cells, &[u], hints)?;
                self.delete([either])?;
                id
            }
        };
        self.frontier_reached += 1;
        self.remember(q, window, need, id)?;
        Ok(Some(id))
    }

    /// "objective >= 1 - k" of a state shard, "objective >= 0" of several, in a `pbc`
    /// subproof. Per state: the negation (with its selector `t_j`, the other selectors and
    /// the guards) excludes the placements it does not allow, with `u{q}_{k}`'s second half
    /// it gives `u`, the `e` lines give the window's cells free, and the state's clause
    /// (its search's root, `roots[j]`) conflicts; several selectors are refuted in turn.
    fn conclude_state(
        mut self,
        shard: &StateOpb,
        roots: &[u64],
    ) -> Result<DollStateProof, DollProofError> {
        let claim = {
            let objective = self.opb.objective.as_ref().expect("a state shard has one");
            Constraint {
                terms: objective.terms.clone(),
                relation: Relation::AtLeast,
                rhs: shard.lower(),
            }
        };
        let negation = self.step(&Step::Pbc {
            constraint: claim,
            subproof: true,
        })?;
        let mut refuted = Vec::new();
        for (j, (goal, &root)) in shard.goals.iter().zip(roots).enumerate() {
            let q = goal.position;
            let mut hints = Vec::new();
            if let Some(selectors) = &shard.selectors {
                hints.push(selectors.at_most_one);
                hints.extend(&selectors.guards);
            }
            hints.push(negation);
            if let Some(implied) = self.counter(q, goal.need as usize).implied {
                hints.push(self.pol_sum(&[negation, implied])?);
            }
            let cells = self.key_cells(q, goal.window::<W>(), ALL);
            hints.extend(bits(cells).map(|b| self.free(q, q + b).expect("a named cell").implied));
            hints.push(root);
            let lits = shard
                .selectors
                .as_ref()
                .map(|selectors| Lit::new((selectors.placements + j) as u32, true));
            refuted.push(self.rup(lits, hints)?);
        }
        let contradiction = match &shard.selectors {
            Some(selectors) => {
                let mut hints = vec![selectors.at_least_one];
                hints.extend(refuted);
                self.rup([], hints)?
            }
            None => refuted[0],
        };
        let derived = self.conclude_lower_bound(contradiction, shard.lower())?;
        self.out.finish()?;
        Ok(DollStateProof {
            nodes: self.nodes,
            memo_hits: self.memo_hits,
            cuts: self.lookahead_cuts + self.area_cuts + self.weight_cuts,
            frontier: self.frontier_reached,
            derived,
        })
    }
}
