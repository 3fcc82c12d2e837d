//! Where a streamed shard's search had come when its proof passed the cap: the goals it
//! had finished, and how much the goal then under way had written, noted at the first
//! write that failed, so that the shard is cut there.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A proof's way out that notes how many goals its search had finished when a write first
/// failed (as the proof passed its cap), and how much the goal then under way had written:
/// the search may finish more before it sees the failure, whose proofs were never written
/// whole.
pub(super) struct CountAtFailure<'a> {
    out: &'a mut dyn std::io::Write,
    finished: &'a AtomicUsize,
    at_error: &'a Cell<Option<Reach>>,
    /// Bytes written so far.
    written: u64,
    /// The goals finished as last seen, and the bytes written when that count was first
    /// seen: where the goal under way began, to within one write.
    goal_began: (usize, u64),
}

/// Where the search had come at a proof's first failed write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reach {
    /// Goals finished.
    pub(super) finished: usize,
    /// Bytes the goal under way had written.
    pub(super) under_way: u64,
}

impl std::io::Write for CountAtFailure<'_> {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let finished = self.finished.load(Ordering::Relaxed);
        if finished != self.goal_began.0 {
            self.goal_began = (finished, self.written);
        }
        let written = self.out.write(buffer).inspect_err(|_| self.noted())?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush().inspect_err(|_| self.noted())
    }
}

impl CountAtFailure<'_> {
    /// `out`, watched: `finished` is the search's count of goals finished, and the first
    /// failed write notes where it had come into `at_error`.
    pub(super) fn new<'a>(
        out: &'a mut dyn std::io::Write,
        finished: &'a AtomicUsize,
        at_error: &'a Cell<Option<Reach>>,
    ) -> CountAtFailure<'a> {
        CountAtFailure {
            out,
            finished,
            at_error,
            written: 0,
            goal_began: (0, 0),
        }
    }

    /// Notes the goals finished, and what the goal under way had written, at the first
    /// failure.
    fn noted(&self) {
        if self.at_error.get().is_none() {
            self.at_error.set(Some(Reach {
                finished: self.finished.load(Ordering::Relaxed),
                under_way: self.written - self.goal_began.1,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CountAtFailure, Reach};
    use std::cell::Cell;
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A way out that takes `room` bytes, then refuses every write.
    struct Capped {
        room: usize,
    }

    impl Write for Capped {
        fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
            if buffer.len() > self.room {
                return Err(std::io::Error::other("past the cap"));
            }
            self.room -= buffer.len();
            Ok(buffer.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_first_failed_write_notes_the_goals_finished_and_what_the_goal_under_way_wrote() {
        let mut capped = Capped { room: 100 };
        let finished = AtomicUsize::new(0);
        let at_error = Cell::new(None);
        let mut out = CountAtFailure::new(&mut capped, &finished, &at_error);
        // Definitions, then goal 0 in two writes, goal 1 in one; goal 2 fails at its second.
        for (goal, bytes) in [(0, 10), (0, 20), (0, 5), (1, 30), (2, 15), (2, 30)] {
            finished.store(goal, Ordering::Relaxed);
            let written = out.write(&vec![b'x'; bytes]);
            assert_eq!(written.is_ok(), bytes != 30 || goal != 2);
        }
        assert_eq!(
            at_error.get(),
            Some(Reach {
                finished: 2,
                under_way: 15
            })
        );
        // Later failures leave the first noted.
        finished.store(3, Ordering::Relaxed);
        assert!(out.write(&[b'x'; 40]).is_err());
        assert_eq!(at_error.get().map(|r| r.finished), Some(2));
    }
}
