//! Unit propagation over the watch lists: plain, and core-first (core clauses to a fixpoint
//! before one non-core clause may imply a literal, as drat-trim does while checking lemmas).

use super::clauses::{Checker, Watch, ACTIVE, CORE};

/// Which clauses a watch-list scan looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Every clause.
    All,
    /// Core clauses only.
    CoreOnly,
    /// Non-core clauses only, stopping after the first implied literal.
    NonCoreUntilUnit,
}

/// How a watch-list scan ended.
pub(super) enum Scan {
    /// The list was visited to the end.
    Done,
    /// A literal was implied; the scan may resume at this list index.
    Assigned(usize),
    /// This clause is falsified.
    Conflict(u32),
}

impl Checker {
    /// Unit propagation over all clauses from `head`; returns a falsified clause on conflict.
    pub(super) fn propagate(&mut self) -> Option<u32> {
        while self.head < self.trail.len() {
            let position = self.head;
            self.head += 1;
            if let Scan::Conflict(c) = self.scan(position, Mode::All, 0) {
                return Some(c);
            }
        }
        None
    }

    /// Core-first unit propagation from `head` (as drat-trim does while checking lemmas): core
    /// clauses are propagated to a fixpoint before a single non-core clause may imply a literal,
    /// so that conflicts prefer clauses that are already in the core.
    pub(super) fn propagate_core_first(&mut self) -> Option<u32> {
        // Trail position whose non-core watches are being scanned, and where in its list.
        let (mut other, mut resume) = (self.head, 0);
        loop {
            while self.head < self.trail.len() {
                let position = self.head;
                self.head += 1;
                if let Scan::Conflict(c) = self.scan(position, Mode::CoreOnly, 0) {
                    return Some(c);
                }
            }
            // The list of `other` is not touched by the core pass above: watches only move to
            // literals that are not false, and `other` is below `head`.
            loop {
                if other >= self.trail.len() {
                    return None;
                }
                match self.scan(other, Mode::NonCoreUntilUnit, resume) {
                    Scan::Conflict(c) => return Some(c),
                    Scan::Assigned(next) => {
                        resume = next;
                        break;
                    }
                    Scan::Done => {
                        other += 1;
                        resume = 0;
                    }
                }
            }
        }
    }

    /// Visits the watch list of the negation of `trail[position]` from entry `from` on, for the
    /// clauses that `mode` selects, moving watches, assigning units and stopping at a conflict.
    pub(super) fn scan(&mut self, position: usize, mode: Mode, from: usize) -> Scan {
        let false_lit = self.trail[position] ^ 1;
        let mut list = std::mem::take(&mut self.watches[false_lit as usize]);
        let mut result = Scan::Done;
        let (mut i, mut j) = (from, from);
        while i < list.len() {
            let w = list[i];
            i += 1;
            if self.value[w.blocker as usize] == 1 {
                list[j] = w;
                j += 1;
                continue;
            }
            let flags = self.flags[w.clause as usize];
            if flags & ACTIVE == 0 {
                continue; // deleted or removed clause: drop the stale entry
            }
            let selected = match mode {
                Mode::All => true,
                Mode::CoreOnly => flags & CORE != 0,
                Mode::NonCoreUntilUnit => flags & CORE == 0,
            };
            if !selected {
                list[j] = w;
                j += 1;
                continue;
            }
            let c = &self.clauses[w.clause as usize];
            let (start, len) = (c.start, c.len as usize);
            if self.arena[start] == false_lit {
                self.arena.swap(start, start + 1);
            }
            if self.arena[start + 1] != false_lit {
                continue; // stale entry: the clause no longer watches this literal
            }
            let first = self.arena[start];
            let kept = Watch {
                clause: w.clause,
                blocker: first,
            };
            if self.value[first as usize] == 1 {
                list[j] = kept;
                j += 1;
                continue;
            }
            let mut moved = false;
            for k in start + 2..start + len {
                let l = self.arena[k];
                if self.value[l as usize] != -1 {
                    self.arena.swap(start + 1, k);
                    self.watches[l as usize].push(kept);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            list[j] = kept;
            j += 1;
            if self.value[first as usize] == -1 {
                result = Scan::Conflict(w.clause);
                break;
            }
            self.assign(first, w.clause);
            if mode == Mode::NonCoreUntilUnit {
                result = Scan::Assigned(j);
                break;
            }
        }
        // Close the gap left by dropped entries; unvisited entries stay in order.
        if j < i {
            list.drain(j..i);
        }
        self.watches[false_lit as usize] = list;
        result
    }
}
