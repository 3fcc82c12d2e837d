//! The constraint database and unit propagation over it.
//!
//! Clauses (every literal alone satisfies the constraint) are watched by two literals;
//! other constraints keep their slack (the sum of the coefficients of their non-false
//! literals minus the degree) through per-literal occurrence lists, and propagate every
//! unassigned literal whose coefficient exceeds it. What the database implies on its own
//! (the root level) stays assigned between checks; a check assigns above it and undoes
//! its own part. Deleting a constraint that took part in the root level rebuilds the root
//! from the constraints that propagate under no assignment at all.
//!
//! For `red`, the constraints that mention a variable are indexed, but only for the
//! variables that need it: those a proof names first (their lists start empty, nothing
//! before mentions them) and those looked up once (found by one pass over the database),
//! so a proof without `red` pays nothing and one defining fresh variables never scans.
//!
//! Hinted checks use none of this: they start from the empty assignment and propagate the
//! hinted constraints alone, in their order, until nothing changes (as VeriPB does).

use crate::formats::opb::Lit;

use super::constraint::PbConstraint;

/// How a constraint takes part in propagation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Always satisfied: never propagates.
    Trivial,
    /// A clause: two watched literals (`lits[0]` and `lits[1]`), none for a unit.
    Clause,
    /// Slack kept through occurrence lists.
    Counter,
}

struct Slot {
    c: PbConstraint,
    kind: Kind,
    /// For counters: the slack under the processed part of the trail.
    slack: i64,
    /// Whether it propagated a literal of the root level.
    root_reason: bool,
    /// Whether it is in the watch or occurrence lists.
    attached: bool,
}

impl Slot {
    /// A slot that holds nothing on the heap, left where a constraint was taken out.
    fn vacant() -> Slot {
        Slot {
            c: PbConstraint::default(),
            kind: Kind::Trivial,
            slack: 0,
            root_reason: false,
            attached: false,
        }
    }
}

/// No place: the ID's constraint is deleted, or was never there.
const NO_PLACE: u32 = u32::MAX;

/// The constraints by ID: per ID, 4 bytes giving its place in a table of the live
/// constraints, whose freed places are taken again. A proof that deletes what it derives
/// (a bounded memo) runs to tens of millions of IDs with a few million live: a slot per ID
/// would hold 80 bytes for each of them, deleted or not.
#[derive(Default)]
struct Slots {
    place: Vec<u32>,
    table: Vec<Slot>,
    free: Vec<u32>,
}

impl Slots {
    fn get(&self, id: u32) -> Option<&Slot> {
        match *self.place.get(id as usize)? {
            NO_PLACE => None,
            at => Some(&self.table[at as usize]),
        }
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut Slot> {
        match *self.place.get(id as usize)? {
            NO_PLACE => None,
            at => Some(&mut self.table[at as usize]),
        }
    }

    fn contains(&self, id: u32) -> bool {
        self.place
            .get(id as usize)
            .is_some_and(|&at| at != NO_PLACE)
    }

    /// Puts `slot` at `id`, which holds none.
    fn insert(&mut self, id: usize, slot: Slot) -> &Slot {
        if self.place.len() <= id {
            self.place.resize(id + 1, NO_PLACE);
        }
        let at = match self.free.pop() {
            Some(at) => {
                self.table[at as usize] = slot;
                at
            }
            None => {
                self.table.push(slot);
                (self.table.len() - 1) as u32
            }
        };
        self.place[id] = at;
        &self.table[at as usize]
    }

    /// Takes the constraint at `id` out, if there is one.
    fn take(&mut self, id: u64) -> Option<Slot> {
        let place = self.place.get_mut(usize::try_from(id).ok()?)?;
        let at = std::mem::replace(place, NO_PLACE);
        if at == NO_PLACE {
            return None;
        }
        self.free.push(at);
        Some(std::mem::replace(
            &mut self.table[at as usize],
            Slot::vacant(),
        ))
    }

    /// The constraints, by increasing ID.
    fn iter(&self) -> impl Iterator<Item = (u32, &Slot)> {
        self.place
            .iter()
            .enumerate()
            .filter(|(_, &at)| at != NO_PLACE)
            .map(|(id, &at)| (id as u32, &self.table[at as usize]))
    }
}

#[derive(Copy, Clone)]
struct Watch {
    id: u32,
    /// A literal of the clause: when true, the clause needs no look.
    blocker: Lit,
}

#[derive(Copy, Clone)]
struct Occurrence {
    id: u32,
    coef: i64,
}

/// What propagating one constraint did.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Outcome {
    Nothing,
    Propagated,
    Conflict,
}

/// Propagates `c` alone under `values` (1 true, -1 false, 0 open, per literal), pushing what
/// it assigns onto `trail`.
fn propagate_one(c: &PbConstraint, values: &mut [i8], trail: &mut Vec<Lit>) -> Outcome {
    if c.is_trivial() {
        return Outcome::Nothing;
    }
    if c.is_cardinality() {
        propagate_cardinality(c, values, trail)
    } else {
        propagate_weighted(c, values, trail)
    }
}

/// [`propagate_one`] for any coefficients: every literal whose coefficient passes the
/// slack (the non-false coefficients over the degree) is implied.
fn propagate_weighted(c: &PbConstraint, values: &mut [i8], trail: &mut Vec<Lit>) -> Outcome {
    let mut slack = -c.degree;
    for (a, l) in c.terms() {
        if values[l.index()] != -1 {
            slack += a;
        }
    }
    if slack < 0 {
        return Outcome::Conflict;
    }
    let mut outcome = Outcome::Nothing;
    for (a, l) in c.terms() {
        if a <= slack {
            break;
        }
        if values[l.index()] == 0 {
            assign(values, trail, l);
            outcome = Outcome::Propagated;
        }
    }
    outcome
}

/// [`propagate_one`] for a constraint whose coefficients are all 1, nearly every one a
/// hinted check meets: it propagates only when its literals not false number exactly its
/// degree, so the count stops as soon as it passes the degree (a clause with two such
/// literals is done after two).
fn propagate_cardinality(c: &PbConstraint, values: &mut [i8], trail: &mut Vec<Lit>) -> Outcome {
    let mut not_false = 0;
    for l in &c.lits {
        if values[l.index()] != -1 {
            not_false += 1;
            if not_false > c.degree {
                return Outcome::Nothing;
            }
        }
    }
    if not_false < c.degree {
        return Outcome::Conflict;
    }
    let mut outcome = Outcome::Nothing;
    for &l in &c.lits {
        if values[l.index()] == 0 {
            assign(values, trail, l);
            outcome = Outcome::Propagated;
        }
    }
    outcome
}

/// Dead entries a list of constraint IDs must hold before it is swept.
const SWEEP_AFTER: usize = 1 << 16;

/// Whether lists holding `dead` entries of deleted constraints beside `live` ones are worth
/// a sweep: once the dead are many and outnumber the live, so that sweeping costs no more,
/// spread over the deletions, than the lists' own length.
fn worth_sweeping(dead: usize, live: usize) -> bool {
    dead > SWEEP_AFTER && dead > live
}

fn assign(values: &mut [i8], trail: &mut Vec<Lit>, l: Lit) {
    values[l.index()] = 1;
    values[l.negate().index()] = -1;
    trail.push(l);
}

/// The constraints by ID and the propagation state.
#[derive(Default)]
pub struct Database {
    slots: Slots,
    /// 1 true, -1 false, 0 open, by literal index.
    values: Vec<i8>,
    trail: Vec<Lit>,
    /// `trail[..head]` has been propagated.
    head: usize,
    /// Where the current check's assignments start; `None` at the root.
    check_start: Option<usize>,
    watches: Vec<Vec<Watch>>,
    occurs: Vec<Vec<Occurrence>>,
    /// Occurrence entries of deleted constraints still in the lists.
    dead_occurrences: usize,
    live_occurrences: usize,
    root_conflict: bool,
    /// Constraints that propagate (or conflict) under the empty assignment.
    root_units: Vec<u32>,
    /// Constraints with `root_reason` set.
    root_reasons: Vec<u32>,
    /// Added but not in the watch or occurrence lists yet: a hinted check needs none of
    /// them, so they are attached (and propagated at the root) only when a check over the
    /// whole database comes ([`Database::catch_up`]); a search-written proof, hinted
    /// throughout, never pays for them. Also those added while the root conflicted.
    unattached: Vec<u32>,
    /// The hinted check's own assignment and trail.
    hint_values: Vec<i8>,
    hint_trail: Vec<Lit>,
    live: usize,
    /// The IDs of the constraints that mention a variable (deleted ones dropped when
    /// read, and from every list once they outnumber the others), for the variables
    /// indexed; `None` for the others.
    mentions: Vec<Option<Vec<u32>>>,
    /// Entries of `mentions` whose constraint is deleted, and the others (both counted
    /// from what was added and deleted since the last sweep): a proof that defines fresh
    /// variables and deletes what it derives (a bounded memo) mentions them in tens of
    /// millions of constraints of which a few million live.
    dead_mentions: usize,
    live_mentions: usize,
}

impl Database {
    /// Makes room for `vars` variables.
    pub fn ensure_vars(&mut self, vars: usize) {
        let lits = 2 * vars;
        if self.values.len() < lits {
            self.values.resize(lits, 0);
            self.hint_values.resize(lits, 0);
            self.watches.resize_with(lits, Vec::new);
            self.occurs.resize_with(lits, Vec::new);
        }
    }

    /// Starts the index of the variables `fresh`, which no constraint in the database
    /// mentions yet (named by the proof step about to be checked).
    pub fn index_fresh_vars(&mut self, fresh: std::ops::Range<usize>) {
        if self.mentions.len() < fresh.end {
            self.mentions.resize_with(fresh.end, || None);
        }
        for var in fresh {
            self.mentions[var].get_or_insert_with(Vec::new);
        }
    }

    /// The constraints that mention `var`, by increasing ID; the first call for a variable
    /// not indexed yet makes one pass over the database, and the index is kept from then
    /// on.
    pub fn mentioning(&mut self, var: u32) -> impl Iterator<Item = (u64, &PbConstraint)> {
        let v = var as usize;
        if self.mentions.len() <= v {
            self.mentions.resize_with(v + 1, || None);
        }
        let slots = &self.slots;
        match &mut self.mentions[v] {
            Some(ids) => {
                let before = ids.len();
                ids.retain(|&id| slots.contains(id));
                self.dead_mentions = self.dead_mentions.saturating_sub(before - ids.len());
            }
            none => {
                let ids: Vec<u32> = slots
                    .iter()
                    .filter(|(_, s)| s.c.lits.iter().any(|l| l.var() == var))
                    .map(|(id, _)| id)
                    .collect();
                self.live_mentions += ids.len();
                *none = Some(ids);
            }
        }
        let slots = &self.slots;
        self.mentions[v]
            .as_deref()
            .unwrap_or_default()
            .iter()
            .filter_map(move |&id| slots.get(id).map(|s| (u64::from(id), &s.c)))
    }

    /// The constraint with `id`, unless it is deleted or was never there.
    pub fn get(&self, id: u64) -> Option<&PbConstraint> {
        self.slots.get(u32::try_from(id).ok()?).map(|s| &s.c)
    }

    /// How many constraints are in the database.
    pub fn live(&self) -> usize {
        self.live
    }

    /// The active constraints, by ID.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &PbConstraint)> {
        self.slots.iter().map(|(id, s)| (u64::from(id), &s.c))
    }

    /// Whether the database propagates to a conflict on its own.
    pub fn root_conflict(&mut self) -> bool {
        self.catch_up();
        self.root_conflict
    }

    /// Adds `c` with `id` (larger than every ID before) and propagates the root level.
    pub fn add(&mut self, id: u64, c: PbConstraint) {
        let kind = if c.is_trivial() {
            Kind::Trivial
        } else if c.is_clausal() {
            Kind::Clause
        } else {
            Kind::Counter
        };
        let slot = self.slots.insert(
            id as usize,
            Slot {
                c,
                kind,
                slack: 0,
                root_reason: false,
                attached: false,
            },
        );
        self.live += 1;
        for l in &slot.c.lits {
            if let Some(Some(ids)) = self.mentions.get_mut(l.var() as usize) {
                ids.push(id as u32);
                self.live_mentions += 1;
            }
        }
        if kind != Kind::Trivial {
            self.unattached.push(id as u32);
        }
    }

    /// Attaches the constraints added since the last check over the whole database and
    /// propagates the root level with them (unless it conflicts already).
    fn catch_up(&mut self) {
        if self.root_conflict || self.unattached.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.unattached);
        for (at, &id) in pending.iter().enumerate() {
            if self.root_conflict {
                self.unattached.extend_from_slice(&pending[at..]);
                return;
            }
            if !self.slots.contains(id) {
                continue;
            }
            self.attach(id);
            if self.propagate() {
                self.root_conflict = true;
            }
        }
    }

    /// Wires constraint `id` into the watch or occurrence lists under the current (fully
    /// propagated) root assignment and propagates what it implies there.
    fn attach(&mut self, id: u32) {
        let Database {
            slots,
            values,
            trail,
            watches,
            occurs,
            live_occurrences,
            ..
        } = self;
        let slot = slots.get_mut(id).expect("attached constraints exist");
        slot.attached = true;
        if slot.kind == Kind::Counter {
            *live_occurrences += slot.c.lits.len();
        }
        let c = &mut slot.c;
        let propagates_alone = c.is_contradicting() || c.coef_sum - c.degree < c.max_coef();
        if propagates_alone {
            self.root_units.push(id);
        }
        let mut conflict = false;
        let mut propagated = false;
        match slot.kind {
            Kind::Trivial => {}
            Kind::Clause => {
                if c.lits.len() < 2 {
                    match c.lits.first() {
                        None => conflict = true,
                        Some(&l) => match values[l.index()] {
                            -1 => conflict = true,
                            0 => {
                                assign(values, trail, l);
                                propagated = true;
                            }
                            _ => {}
                        },
                    }
                } else {
                    // Bring two non-false literals to the front if there are two.
                    let mut open = 0;
                    for k in 0..c.lits.len() {
                        if open < 2 && values[c.lits[k].index()] != -1 {
                            c.lits.swap(open, k);
                            open += 1;
                        }
                    }
                    watches[c.lits[0].index()].push(Watch {
                        id,
                        blocker: c.lits[1],
                    });
                    watches[c.lits[1].index()].push(Watch {
                        id,
                        blocker: c.lits[0],
                    });
                    if open == 0 {
                        conflict = true;
                    } else if open == 1 && values[c.lits[0].index()] == 0 {
                        assign(values, trail, c.lits[0]);
                        propagated = true;
                    }
                }
            }
            Kind::Counter => {
                let mut slack = c.coef_sum - c.degree;
                for i in 0..c.lits.len() {
                    let l = c.lits[i];
                    let a = c.coef(i);
                    occurs[l.index()].push(Occurrence { id, coef: a });
                    if values[l.index()] == -1 {
                        slack -= a;
                    }
                }
                slot.slack = slack;
                if slack < 0 {
                    conflict = true;
                } else {
                    for i in 0..c.lits.len() {
                        if c.coef(i) <= slack {
                            break;
                        }
                        let l = c.lits[i];
                        if values[l.index()] == 0 {
                            assign(values, trail, l);
                            propagated = true;
                        }
                    }
                }
            }
        }
        if propagated && !slot.root_reason {
            slot.root_reason = true;
            self.root_reasons.push(id);
        }
        if conflict {
            self.root_conflict = true;
        }
    }

    /// Propagates the trail from `head`; true on a conflict.
    fn propagate(&mut self) -> bool {
        let at_root = self.check_start.is_none();
        let Database {
            slots,
            values,
            trail,
            head,
            watches,
            occurs,
            root_reasons,
            ..
        } = self;
        while *head < trail.len() {
            let falsified = trail[*head].negate();
            *head += 1;
            // Counters: every slack is lowered before any conflict is reported, so that
            // undoing this literal later restores exactly what was taken.
            let mut conflict = false;
            for o in &occurs[falsified.index()] {
                let Some(slot) = slots.get_mut(o.id) else {
                    continue;
                };
                slot.slack -= o.coef;
                if conflict {
                    continue;
                }
                if slot.slack < 0 {
                    conflict = true;
                    continue;
                }
                if slot.slack < slot.c.max_coef() {
                    let mut propagated = false;
                    for i in 0..slot.c.lits.len() {
                        if slot.c.coef(i) <= slot.slack {
                            break;
                        }
                        let l = slot.c.lits[i];
                        if values[l.index()] == 0 {
                            assign(values, trail, l);
                            propagated = true;
                        }
                    }
                    if propagated && at_root && !slot.root_reason {
                        slot.root_reason = true;
                        root_reasons.push(o.id);
                    }
                }
            }
            if conflict {
                return true;
            }
            // Clauses watching the falsified literal.
            let mut list = std::mem::take(&mut watches[falsified.index()]);
            let mut kept = 0;
            let mut i = 0;
            while i < list.len() {
                let w = list[i];
                i += 1;
                if values[w.blocker.index()] == 1 {
                    list[kept] = w;
                    kept += 1;
                    continue;
                }
                let Some(slot) = slots.get_mut(w.id) else {
                    continue; // deleted: the watch goes
                };
                let lits = &mut slot.c.lits;
                if lits[0] == falsified {
                    lits.swap(0, 1);
                }
                let other = lits[0];
                if values[other.index()] == 1 {
                    list[kept] = Watch {
                        id: w.id,
                        blocker: other,
                    };
                    kept += 1;
                    continue;
                }
                if let Some(k) = (2..lits.len()).find(|&k| values[lits[k].index()] != -1) {
                    lits.swap(1, k);
                    watches[lits[1].index()].push(Watch {
                        id: w.id,
                        blocker: other,
                    });
                    continue;
                }
                list[kept] = w;
                kept += 1;
                if values[other.index()] == -1 {
                    while i < list.len() {
                        list[kept] = list[i];
                        kept += 1;
                        i += 1;
                    }
                    conflict = true;
                    break;
                }
                assign(values, trail, other);
                if at_root && !slot.root_reason {
                    slot.root_reason = true;
                    root_reasons.push(w.id);
                }
            }
            list.truncate(kept);
            watches[falsified.index()] = list;
            if conflict {
                return true;
            }
        }
        false
    }

    /// Undoes the trail down to `len`, giving the counters back what processed literals
    /// took.
    fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            let l = self.trail.pop().expect("longer than len");
            if self.trail.len() < self.head {
                for o in &self.occurs[l.negate().index()] {
                    if let Some(slot) = self.slots.get_mut(o.id) {
                        slot.slack += o.coef;
                    }
                }
            }
            self.values[l.index()] = 0;
            self.values[l.negate().index()] = 0;
        }
        self.head = self.head.min(len);
    }

    /// Deletes the constraints `ids` (those present), rebuilding the root level when one
    /// of them took part in it.
    pub fn delete(&mut self, ids: impl Iterator<Item = u64>) -> usize {
        let mut deleted = 0;
        let mut rebuild = self.root_conflict;
        for id in ids {
            let Some(slot) = self.slots.take(id) else {
                continue;
            };
            deleted += 1;
            self.live -= 1;
            rebuild |= slot.root_reason;
            if slot.kind == Kind::Counter && slot.attached {
                self.dead_occurrences += slot.c.lits.len();
                self.live_occurrences -= slot.c.lits.len();
            }
            let mentions = &self.mentions;
            let indexed = (slot.c.lits.iter())
                .filter(|l| matches!(mentions.get(l.var() as usize), Some(Some(_))))
                .count();
            self.dead_mentions += indexed;
            self.live_mentions = self.live_mentions.saturating_sub(indexed);
        }
        // A hinted proof may never attach: drop the deleted from the waiting list now and
        // then, so it stays the size of the database.
        if self.unattached.len() > SWEEP_AFTER && self.unattached.len() > 2 * self.live {
            let slots = &self.slots;
            self.unattached.retain(|&id| slots.contains(id));
        }
        if worth_sweeping(self.dead_occurrences, self.live_occurrences) {
            let slots = &self.slots;
            for list in &mut self.occurs {
                list.retain(|o| slots.contains(o.id));
            }
            self.dead_occurrences = 0;
        }
        if worth_sweeping(self.dead_mentions, self.live_mentions) {
            self.sweep_mentions();
        }
        if rebuild {
            self.rebuild_root();
        }
        deleted
    }

    /// Drops the deleted constraints from every list of `mentions`, giving back the room
    /// of lists left much longer than they are.
    fn sweep_mentions(&mut self) {
        let slots = &self.slots;
        let mut live = 0;
        for ids in self.mentions.iter_mut().flatten() {
            ids.retain(|&id| slots.contains(id));
            if ids.capacity() > 4 * ids.len() + 16 {
                ids.shrink_to_fit();
            }
            live += ids.len();
        }
        self.dead_mentions = 0;
        self.live_mentions = live;
    }

    /// Recomputes the root level from the constraints that propagate on their own.
    fn rebuild_root(&mut self) {
        self.undo_to(0);
        self.root_conflict = false;
        for id in std::mem::take(&mut self.root_reasons) {
            if let Some(slot) = self.slots.get_mut(id) {
                slot.root_reason = false;
            }
        }
        let slots = &self.slots;
        self.root_units.retain(|&id| slots.contains(id));
        for id in self.root_units.clone() {
            self.attach_again(id);
            if self.root_conflict || self.propagate() {
                self.root_conflict = true;
                break;
            }
        }
        // The constraints not attached yet wait for the next full check
        // ([`Database::catch_up`]).
    }

    /// Propagates an attached root unit again after the root was undone.
    fn attach_again(&mut self, id: u32) {
        let Database {
            slots,
            values,
            trail,
            root_reasons,
            ..
        } = self;
        let slot = slots.get_mut(id).expect("live root unit");
        let c = &slot.c;
        if c.is_contradicting() {
            self.root_conflict = true;
            return;
        }
        let outcome = match slot.kind {
            Kind::Trivial => Outcome::Nothing,
            // A unit clause (the only clauses that propagate alone) is not watched.
            Kind::Clause if c.lits.len() == 1 => propagate_one(c, values, trail),
            Kind::Clause => Outcome::Nothing,
            Kind::Counter => {
                // Its slack under the current root, which `propagate` has kept.
                let mut outcome = Outcome::Nothing;
                if slot.slack < 0 {
                    outcome = Outcome::Conflict;
                } else {
                    for i in 0..c.lits.len() {
                        if c.coef(i) <= slot.slack {
                            break;
                        }
                        let l = c.lits[i];
                        if values[l.index()] == 0 {
                            assign(values, trail, l);
                            outcome = Outcome::Propagated;
                        }
                    }
                }
                outcome
            }
        };
        match outcome {
            Outcome::Conflict => self.root_conflict = true,
            Outcome::Propagated => {
                slot.root_reason = true;
                root_reasons.push(id);
            }
            Outcome::Nothing => {}
        }
    }

    /// Whether assigning the negation `negation` of a constraint and propagating over the
    /// whole database ends in a conflict (reverse unit propagation).
    pub fn rup(&mut self, negation: &PbConstraint) -> bool {
        self.rup_with(&[negation])
    }

    /// Whether assigning what the `premises` propagate, in rounds with the whole database
    /// until nothing changes, ends in a conflict.
    pub fn rup_with(&mut self, premises: &[&PbConstraint]) -> bool {
        self.catch_up();
        if self.root_conflict {
            return true;
        }
        let start = self.trail.len();
        self.check_start = Some(start);
        let conflict = 'rounds: loop {
            let mut changed = false;
            for premise in premises {
                match propagate_one(premise, &mut self.values, &mut self.trail) {
                    Outcome::Conflict => break 'rounds true,
                    Outcome::Nothing => {}
                    Outcome::Propagated => {
                        changed = true;
                        if self.propagate() {
                            break 'rounds true;
                        }
                    }
                }
            }
            if !changed {
                break false;
            }
        };
        self.undo_to(start);
        self.check_start = None;
        conflict
    }

    /// Whether `negation` and the constraints `hints` (IDs, `None` for the negation
    /// itself) propagate to a conflict from the empty assignment, in rounds over the hints
    /// in order until one changes nothing. Every hint must be present.
    pub fn rup_hinted(&mut self, negation: &PbConstraint, hints: &[Option<u64>]) -> bool {
        let mut conflict = false;
        'rounds: loop {
            let mut changed = false;
            for hint in std::iter::once(&None).chain(hints) {
                let c = match hint {
                    None => negation,
                    Some(id) => &self.slots.get(*id as u32).expect("hints exist").c,
                };
                match propagate_one(c, &mut self.hint_values, &mut self.hint_trail) {
                    Outcome::Conflict => {
                        conflict = true;
                        break 'rounds;
                    }
                    Outcome::Propagated => changed = true,
                    Outcome::Nothing => {}
                }
            }
            if !changed {
                break;
            }
        }
        for l in self.hint_trail.drain(..) {
            self.hint_values[l.index()] = 0;
            self.hint_values[l.negate().index()] = 0;
        }
        conflict
    }

    /// The full assignment (by literal index) that `literals` give after propagation over
    /// the database, or why there is none: a conflicting constraint's ID (0 for the
    /// literals themselves), or the first variable left open.
    pub fn complete(&mut self, literals: &[Lit], vars: usize) -> Result<Vec<i8>, Unfinished> {
        self.catch_up();
        if self.root_conflict {
            return Err(Unfinished::Conflict);
        }
        let start = self.trail.len();
        self.check_start = Some(start);
        let mut result = Ok(());
        for &l in literals {
            match self.values[l.index()] {
                -1 => {
                    result = Err(Unfinished::Conflict);
                    break;
                }
                0 => assign(&mut self.values, &mut self.trail, l),
                _ => {}
            }
        }
        if result.is_ok() && self.propagate() {
            result = Err(Unfinished::Conflict);
        }
        let values = self.values[..2 * vars].to_vec();
        self.undo_to(start);
        self.check_start = None;
        result?;
        match (0..vars).find(|&v| values[2 * v] == 0) {
            Some(v) => Err(Unfinished::Open(v as u32)),
            None => Ok(values),
        }
    }
}

/// Why a solution did not become a full assignment.
#[derive(Debug, PartialEq, Eq)]
pub enum Unfinished {
    /// The literals conflict with each other or with what the database propagates.
    Conflict,
    /// This variable stays unassigned.
    Open(u32),
}

#[cfg(test)]
mod tests {
    use super::super::constraint::Normalizer;
    use super::*;

    fn x(i: u32) -> Lit {
        Lit::new(i, false)
    }

    fn c(terms: &[(i128, Lit)], rhs: i128) -> PbConstraint {
        Normalizer::default()
            .build(terms.iter().copied(), rhs)
            .unwrap()
    }

    #[test]
    fn cardinality_propagation_agrees_with_the_weighted_rule() {
        // Random clauses and cardinality constraints over 6 variables under random partial
        // assignments (a fixed-seed generator): the same outcome, values and trail.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut outcomes = [0usize; 3];
        for _ in 0..5000 {
            let len = 1 + next(6) as u32;
            let lits: Vec<Lit> = (0..len).map(|v| Lit::new(v, next(2) == 1)).collect();
            let terms: Vec<(i128, Lit)> = lits.iter().map(|&l| (1, l)).collect();
            let card = c(&terms, 1 + next(u64::from(len) + 1) as i128);
            assert!(card.is_cardinality());
            let mut values = vec![0i8; 12];
            for v in 0..6 {
                match next(3) {
                    0 => {}
                    k => {
                        let l = Lit::new(v, k == 1);
                        values[l.index()] = 1;
                        values[l.negate().index()] = -1;
                    }
                }
            }
            let (mut values_w, mut trail_c, mut trail_w) = (values.clone(), vec![], vec![]);
            let by_count = propagate_cardinality(&card, &mut values, &mut trail_c);
            let by_weight = propagate_weighted(&card, &mut values_w, &mut trail_w);
            assert!(by_count == by_weight, "{card:?}");
            assert_eq!((values, trail_c), (values_w, trail_w), "{card:?}");
            outcomes[by_count as usize] += 1;
        }
        // All three outcomes were met.
        assert!(outcomes.iter().all(|&n| n > 100), "{outcomes:?}");
    }

    /// A database over 4 variables holding `constraints` with IDs 1, 2, ...
    fn database(constraints: Vec<PbConstraint>) -> Database {
        let mut db = Database::default();
        db.ensure_vars(4);
        for (i, c) in constraints.into_iter().enumerate() {
            db.add(i as u64 + 1, c);
        }
        db
    }

    #[test]
    fn a_deleted_constraints_place_is_taken_again_and_its_id_stays_deleted() {
        let mut db = database(vec![
            c(&[(1, x(0)), (1, x(1))], 1),
            c(&[(1, x(1)), (1, x(2))], 1),
            c(&[(1, x(2)), (1, x(3))], 1),
        ]);
        assert_eq!(db.delete([2, 9].into_iter()), 1);
        db.add(4, c(&[(1, x(0)), (1, x(3))], 1));
        assert_eq!(db.slots.table.len(), 3);
        assert_eq!(db.get(2), None);
        assert_eq!(db.get(4), Some(&c(&[(1, x(0)), (1, x(3))], 1)));
        let ids: Vec<u64> = db.iter().map(|(id, _)| id).collect();
        assert_eq!(ids, vec![1, 3, 4]);
        assert_eq!(db.live(), 3);
        assert_eq!(db.delete([2].into_iter()), 0);
    }

    #[test]
    fn clauses_and_counters_propagate_to_conflict() {
        // x0 + x1 >= 1, ~x0 + x2 >= 1, 2 ~x1 + 1 ~x2 + 1 x3 >= 2, ~x3 + x2 >= 1
        let mut db = database(vec![
            c(&[(1, x(0)), (1, x(1))], 1),
            c(&[(1, x(0).negate()), (1, x(2))], 1),
            c(&[(2, x(1).negate()), (1, x(2).negate()), (1, x(3))], 2),
            c(&[(1, x(3).negate()), (1, x(2))], 1),
        ]);
        assert!(!db.root_conflict());
        // ~x2: ~x0 (2), x1 (1), the counter then needs x3, which clause 4 forbids.
        let x2 = c(&[(1, x(2))], 1).negation().unwrap();
        assert!(db.rup(&x2));
        // ~x3: the counter gives ~x1, then x0, x2: no conflict.
        let x3 = c(&[(1, x(3))], 1).negation().unwrap();
        assert!(!db.rup(&x3));
        // Checks leave the database as it was.
        assert!(db.rup(&x2));
        assert!(!db.rup(&x3));
        assert!(db.rup_hinted(&x2, &[Some(2), Some(1), Some(3), Some(4)]));
        assert!(!db.rup_hinted(&x2, &[Some(2), Some(1), Some(3)]));
    }

    #[test]
    fn hinted_checks_use_the_hints_alone() {
        let mut db = database(vec![
            c(&[(1, x(0)), (1, x(1))], 1),
            c(&[(1, x(1).negate())], 1),
            c(&[(1, x(0).negate())], 1),
        ]);
        let goal = c(&[], 1).negation().unwrap(); // deriving 0 >= 1: negation trivial
        assert!(db.rup_hinted(&goal, &[Some(1), Some(2), Some(3)]));
        assert!(!db.rup_hinted(&goal, &[Some(1), Some(2)]));
        // The order does not matter: rounds repeat until nothing changes.
        assert!(db.rup_hinted(&goal, &[Some(1), Some(3), Some(2)]));
        assert!(db.rup(&goal));
    }

    #[test]
    fn deleting_a_root_reason_rebuilds_the_root() {
        let mut db = database(vec![
            c(&[(1, x(0))], 1),
            c(&[(1, x(0).negate()), (1, x(1))], 1),
        ]);
        let x1 = c(&[(1, x(1))], 1).negation().unwrap();
        assert!(db.rup(&x1));
        assert_eq!(db.delete([1].into_iter()), 1);
        assert!(
            !db.rup(&x1),
            "x0 is no longer a unit, so x1 is no longer implied"
        );
        db.add(3, c(&[(1, x(0).negate())], 1));
        db.add(4, c(&[(1, x(0))], 1));
        assert!(db.root_conflict());
        db.delete([3].into_iter());
        assert!(!db.root_conflict());
        assert!(db.rup(&x1));
    }

    #[test]
    fn constraints_deleted_before_any_full_check_never_take_part() {
        // x0, x0 -> x1: never attached (hinted checks only), then the unit deleted.
        let mut db = database(vec![
            c(&[(1, x(0))], 1),
            c(&[(1, x(0).negate()), (1, x(1))], 1),
        ]);
        let x1 = c(&[(1, x(1))], 1).negation().unwrap();
        assert!(db.rup_hinted(&x1, &[Some(1), Some(2)]));
        assert_eq!(db.delete([1].into_iter()), 1);
        // The first full check attaches what is left: x1 no longer follows.
        assert!(!db.rup(&x1));
        assert!(!db.root_conflict());
        db.add(3, c(&[(1, x(1).negate())], 1));
        db.add(4, c(&[(1, x(0))], 1));
        assert!(
            db.root_conflict(),
            "x0, x0 -> x1 and ~x1 conflict at the root"
        );
    }

    #[test]
    fn the_index_of_mentions_follows_additions_and_deletions() {
        let mut db = database(vec![c(&[(1, x(0)), (1, x(1))], 1), c(&[(1, x(1))], 1)]);
        let ids = |db: &mut Database, var: u32| -> Vec<u64> {
            db.mentioning(var).map(|(id, _)| id).collect()
        };
        // x1 is found by a pass over the database, then kept up to date.
        assert_eq!(ids(&mut db, 1), vec![1, 2]);
        db.add(3, c(&[(1, x(1).negate()), (1, x(2))], 1));
        db.delete([1].into_iter());
        assert_eq!(ids(&mut db, 1), vec![2, 3]);
        // A fresh variable starts with an empty list and gains what mentions it.
        db.ensure_vars(5);
        db.index_fresh_vars(4..5);
        db.add(4, c(&[(1, x(4)), (1, x(0))], 1));
        assert_eq!(ids(&mut db, 4), vec![4]);
        assert_eq!(ids(&mut db, 0), vec![4]);
    }

    /// A proof that keeps deriving and deleting constraints over a fresh variable, never
    /// looking it up, leaves the index about the size of what lives, not of all it added.
    #[test]
    fn the_index_of_mentions_sheds_deleted_constraints_unread() {
        let mut db = database(vec![c(&[(1, x(0)), (1, x(1))], 1)]);
        db.ensure_vars(3);
        db.index_fresh_vars(2..3);
        let kept = c(&[(1, x(2)), (1, x(0))], 1);
        db.add(2, kept.clone());
        let cycles = 300_000;
        for id in 3..3 + cycles {
            db.add(id, c(&[(1, x(2).negate()), (1, x(1))], 1));
            db.delete([id].into_iter());
        }
        let entries: usize = db.mentions.iter().flatten().map(Vec::len).sum();
        assert!(
            entries <= 1 << 17,
            "{entries} entries for 1 live constraint"
        );
        assert_eq!(
            db.mentioning(2).map(|(id, _)| id).collect::<Vec<_>>(),
            vec![2]
        );
        db.add(3 + cycles, kept);
        assert_eq!(
            db.mentioning(2).map(|(id, _)| id).collect::<Vec<_>>(),
            vec![2, 3 + cycles]
        );
    }

    #[test]
    fn solutions_are_completed_by_propagation() {
        let mut db = database(vec![c(&[(-1, x(0)), (-1, x(1))], -1)]);
        let full = db.complete(&[x(0), x(2), x(3)], 4).unwrap();
        assert_eq!(full[x(1).index()], -1);
        assert_eq!(db.complete(&[x(0)], 4), Err(Unfinished::Open(2)));
        assert_eq!(db.complete(&[x(0), x(1)], 4), Err(Unfinished::Conflict));
    }
}
