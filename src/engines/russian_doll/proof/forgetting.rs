//! A bounded memo's clauses leaving the proof: the clause a store gives up
//! ([`super::super::memo::ClauseMemo::bounded`]) is deleted (`del id`), so that a checker
//! holds about as many of the search's clauses as the memo does, however long the proof.
//!
//! A given-up clause may still be cited: by a chain that waits for its sibling's subtree
//! (the last placement's chain of [`Prover::expand`]), by the table entry it proved (cited
//! by every later search) or by a state shard's goal (cited by its conclusion). Those are
//! pinned; a pinned clause given up waits until its last pin is released.

use rustc_hash::FxHashMap;

use super::super::window::Window;
use super::Prover;
use crate::formats::lines::WriteError;

/// Given-up clauses written in one `del` line.
const DELETE_BATCH: usize = 256;

/// The bookkeeping of given-up clauses (see the module doc).
#[derive(Default)]
pub(super) struct Forgetting {
    /// Pins per clause ID (only while some pin holds it).
    pins: FxHashMap<u64, u32>,
    /// Given-up clauses still pinned.
    waiting: Vec<u64>,
    /// Given-up clauses to delete with the next `del` line.
    batch: Vec<u64>,
}

impl<W: Window> Prover<'_, W> {
    /// Keeps `id` (a clause some later step cites) from being deleted until
    /// [`Prover::unpin`]; nothing without a bounded memo (nor for ID 0, no clause).
    pub(super) fn pin(&mut self, id: u64) {
        if self.memo.is_bounded() && id != 0 {
            *self.forgetting.pins.entry(id).or_insert(0) += 1;
        }
    }

    /// Releases one pin of `id`, deleting it if it was given up and this was its last pin.
    pub(super) fn unpin(&mut self, id: u64) -> Result<(), WriteError> {
        if !self.memo.is_bounded() || id == 0 {
            return Ok(());
        }
        let forgetting = &mut self.forgetting;
        let Some(count) = forgetting.pins.get_mut(&id) else {
            return Ok(());
        };
        *count -= 1;
        if *count > 0 {
            return Ok(());
        }
        forgetting.pins.remove(&id);
        if let Some(at) = forgetting.waiting.iter().position(|&w| w == id) {
            forgetting.waiting.swap_remove(at);
            self.give_up(id)?;
        }
        Ok(())
    }

    /// The clause `id` has left the memo: deleted (with the next batch) unless pinned.
    pub(super) fn forget(&mut self, id: u64) -> Result<(), WriteError> {
        if self.forgetting.pins.contains_key(&id) {
            self.forgetting.waiting.push(id);
            Ok(())
        } else {
            self.give_up(id)
        }
    }

    fn give_up(&mut self, id: u64) -> Result<(), WriteError> {
        self.forgetting.batch.push(id);
        if self.forgetting.batch.len() >= DELETE_BATCH {
            let batch = std::mem::take(&mut self.forgetting.batch);
            self.delete(batch.iter().copied())?;
            self.forgetting.batch = batch;
            self.forgetting.batch.clear();
        }
        Ok(())
    }
}
