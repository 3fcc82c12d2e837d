//! The checker's state: the clause arena with its set-hash table for deletions, the
//! assignment trail with reasons, and the two-watched-literal lists.

use super::NONE;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hasher for keys that are already hashes.
#[derive(Default)]
pub(super) struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(super) type ClauseTable = HashMap<u64, Vec<u32>, BuildHasherDefault<IdentityHasher>>;

pub(super) fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An order-independent hash of a duplicate-free literal set.
pub(super) fn set_hash(lits: &[u32]) -> u64 {
    let mut sum = 0u64;
    let mut xor = 0u64;
    for &l in lits {
        let h = mix(u64::from(l));
        sum = sum.wrapping_add(h);
        xor ^= h.rotate_left(29);
    }
    mix(sum ^ xor.rotate_left(32) ^ (lits.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
}

pub(super) const ACTIVE: u8 = 1;
pub(super) const CORE: u8 = 2;
pub(super) const TAUTOLOGY: u8 = 4;

/// A clause in the arena: `arena[start..start + len]`; the first two literals are watched.
pub(super) struct Clause {
    pub(super) start: usize,
    pub(super) len: u32,
    /// The first literal as written (the RAT pivot of a lemma), or [`NONE`].
    pub(super) pivot: u32,
}

/// An entry of a watch list: the clause, and one of its literals that, when true, satisfies it.
#[derive(Clone, Copy)]
pub(super) struct Watch {
    pub(super) clause: u32,
    pub(super) blocker: u32,
}

/// The checker state. Literal codes are `2 * var + negative`; `value` is indexed by code.
pub(super) struct Checker {
    pub(super) arena: Vec<u32>,
    pub(super) clauses: Vec<Clause>,
    /// `ACTIVE`, `CORE` and `TAUTOLOGY` bits per clause, apart from `clauses` to stay in cache.
    pub(super) flags: Vec<u8>,
    /// 1 true, -1 false, 0 unassigned; indexed by literal code.
    pub(super) value: Vec<i8>,
    /// Reason clause per variable, [`NONE`] for assumptions.
    pub(super) reason: Vec<u32>,
    /// Trail position per variable.
    pub(super) position: Vec<u32>,
    /// Per variable: a top-level literal whose implication cone has been marked core.
    pub(super) justified: Vec<bool>,
    pub(super) seen: Vec<bool>,
    pub(super) trail: Vec<u32>,
    /// Next trail position to propagate.
    pub(super) head: usize,
    /// Trail length of the top level while a lemma is being checked.
    pub(super) top: usize,
    pub(super) watches: Vec<Vec<Watch>>,
    /// Occurrence lists (clause ids per literal code), built on the first RAT check, holding the
    /// non-tautological clauses with ids below `occ_limit` in increasing order.
    pub(super) occurrences: Option<Vec<Vec<u32>>>,
    pub(super) stack: Vec<u32>,
    pub(super) seen_list: Vec<u32>,
    /// Per literal code: the generation in which it was last stamped (for duplicate removal).
    pub(super) stamp: Vec<u32>,
    pub(super) generation: u32,
    pub(super) table: ClauseTable,
    pub(super) scratch: Vec<u32>,
    /// Watch entries of watched clauses that have been deactivated since the last sweep.
    pub(super) stale_watches: usize,
    /// Watch entries of the active watched clauses.
    pub(super) live_watches: usize,
}

impl Checker {
    pub(super) fn new(num_vars: usize) -> Self {
        let codes = 2 * (num_vars + 1);
        Checker {
            arena: Vec::new(),
            clauses: Vec::new(),
            flags: Vec::new(),
            value: vec![0; codes],
            reason: vec![NONE; num_vars + 1],
            position: vec![0; num_vars + 1],
            justified: vec![false; num_vars + 1],
            seen: vec![false; num_vars + 1],
            trail: Vec::new(),
            head: 0,
            top: 0,
            watches: vec![Vec::new(); codes],
            occurrences: None,
            stack: Vec::new(),
            seen_list: Vec::new(),
            stamp: vec![0; codes],
            generation: 0,
            table: ClauseTable::default(),
            scratch: Vec::new(),
            stale_watches: 0,
            live_watches: 0,
        }
    }

    pub(super) fn lits(&self, clause: u32) -> &[u32] {
        let c = &self.clauses[clause as usize];
        &self.arena[c.start..c.start + c.len as usize]
    }

    pub(super) fn flag(&self, clause: u32, flag: u8) -> bool {
        self.flags[clause as usize] & flag != 0
    }

    pub(super) fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.generation
    }

    pub(super) fn assign(&mut self, lit: u32, reason: u32) {
        self.value[lit as usize] = 1;
        self.value[(lit ^ 1) as usize] = -1;
        let var = (lit >> 1) as usize;
        self.reason[var] = reason;
        self.position[var] = self.trail.len() as u32;
        self.trail.push(lit);
    }

    pub(super) fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            let lit = self.trail.pop().expect("trail is longer than len");
            self.value[lit as usize] = 0;
            self.value[(lit ^ 1) as usize] = 0;
            let var = (lit >> 1) as usize;
            self.reason[var] = NONE;
            self.justified[var] = false;
        }
        self.head = len;
    }

    /// Stores a clause (duplicates removed, tautologies flagged), inactive and unwatched.
    pub(super) fn store(&mut self, lits: &[u32]) -> u32 {
        let generation = self.next_generation();
        let start = self.arena.len();
        let mut flags = 0;
        for &l in lits {
            if self.stamp[l as usize] == generation {
                continue;
            }
            if self.stamp[(l ^ 1) as usize] == generation {
                flags |= TAUTOLOGY;
            }
            self.stamp[l as usize] = generation;
            self.arena.push(l);
        }
        let id = self.clauses.len() as u32;
        self.clauses.push(Clause {
            start,
            len: (self.arena.len() - start) as u32,
            pivot: lits.first().copied().unwrap_or(NONE),
        });
        self.flags.push(flags);
        let key = set_hash(&self.arena[start..]);
        self.table.entry(key).or_default().push(id);
        id
    }

    pub(super) fn is_watched(&self, clause: u32) -> bool {
        let c = &self.clauses[clause as usize];
        c.len >= 2 && self.flags[clause as usize] & TAUTOLOGY == 0
    }

    /// Activates a clause and adds watches on its first two literals (if it has two or more).
    pub(super) fn activate(&mut self, clause: u32) {
        self.flags[clause as usize] |= ACTIVE;
        if !self.is_watched(clause) {
            return;
        }
        let c = &self.clauses[clause as usize];
        let (a, b) = (self.arena[c.start], self.arena[c.start + 1]);
        self.watches[a as usize].push(Watch { clause, blocker: b });
        self.watches[b as usize].push(Watch { clause, blocker: a });
        self.live_watches += 2;
    }

    /// Deactivates a clause. Its watch entries are dropped lazily by `propagate`, or by a sweep of
    /// all watch lists once the stale entries outnumber the live ones (amortised linear time).
    pub(super) fn deactivate(&mut self, clause: u32) {
        self.flags[clause as usize] &= !ACTIVE;
        if !self.is_watched(clause) {
            return;
        }
        self.live_watches -= 2;
        self.stale_watches += 2;
        // A sweep costs O(lists + live + stale) <= 3 * stale: amortised O(1) per stale entry.
        if self.stale_watches > self.live_watches.max(self.watches.len()) {
            self.sweep_watches();
        }
    }

    /// Removes every watch entry whose clause is inactive or no longer watches that literal.
    pub(super) fn sweep_watches(&mut self) {
        let mut watches = std::mem::take(&mut self.watches);
        for (lit, list) in watches.iter_mut().enumerate() {
            list.retain(|w| {
                let c = &self.clauses[w.clause as usize];
                self.flags[w.clause as usize] & ACTIVE != 0
                    && (self.arena[c.start] as usize == lit
                        || self.arena[c.start + 1] as usize == lit)
            });
        }
        self.watches = watches;
        self.stale_watches = 0;
    }
}
