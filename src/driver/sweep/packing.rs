//! Sweeping a packing model over open boxes `width x height`. A maximum packing run
//! natively also settles the boxes of its width with fewer rows (the last rows of its
//! Russian-doll table), so each width's boxes are run tallest first and the shorter ones
//! read off where settled; boxes the searches could not settle get what cutting them into
//! settled boxes gives ([`BoxTable`]).

use std::collections::HashMap;

use super::{Instance, NotSweepable, SweepAxes, SweepFamily, SweepRow, SweepRun, SWEEP_GOAL};
use crate::driver::combine::BoxTable;
use crate::driver::{solve, solve_with_sub_boxes, Backend, Outcome, SolveError};
use crate::puzzle::packing::{Packing, PackingKind};

impl SweepFamily for Packing {
    fn check_sweepable(&self, axes: &SweepAxes) -> Result<(), NotSweepable> {
        match axes {
            SweepAxes::Boxes { .. } if self.blocked.iter().any(|&b| b) => {
                Err(NotSweepable::PackingRegion)
            }
            SweepAxes::Boxes { .. } => Ok(()),
            SweepAxes::Sizes(_) => Err(NotSweepable::PackingBySize),
        }
    }

    fn resized(&self, instance: Instance) -> Packing {
        self.open_box(instance.width, instance.height)
    }

    fn sweep_rows(
        &self,
        owned: &[(usize, Instance)],
        run: &mut SweepRun<'_>,
    ) -> Result<Vec<SweepRow>, SolveError> {
        let reuse = run.backend == Backend::Native && self.kind == PackingKind::Maximise;
        let mut table = BoxTable::for_pieces(self);
        let mut rows = Vec::new();
        // With reuse, a group is a width's boxes; otherwise each instance is a group of its
        // own.
        let groups: Vec<&[(usize, Instance)]> = if reuse {
            owned.chunk_by(|a, b| a.1.width == b.1.width).collect()
        } else {
            owned.chunks(1).collect()
        };
        for group in groups {
            if run.stopped() {
                break;
            }
            let mut settled: HashMap<usize, Outcome> = HashMap::new();
            let mut group_outcomes = Vec::new();
            for &(index, instance) in group.iter().rev() {
                let outcome = match settled.remove(&instance.height) {
                    Some(outcome) => outcome,
                    // Stopped: the rows already settled are still reported.
                    None if run.stopped() => continue,
                    None if reuse => {
                        let packing = self.resized(instance);
                        // What the boxes of its last rows can hold at most, from the
                        // narrower boxes already settled (turned): the search skips what
                        // cannot rise.
                        let row_bounds = table.as_ref().map_or_else(Vec::new, |t| {
                            t.row_bounds(instance.width, instance.height)
                        });
                        let (outcome, smaller) =
                            solve_with_sub_boxes(&packing, &run.control(), &row_bounds)?;
                        for (sub, sub_outcome) in smaller {
                            if let Some(table) = &mut table {
                                table.record_outcome(sub.width, sub.height, &sub_outcome);
                            }
                            if sub.width == instance.width {
                                settled.insert(sub.height, sub_outcome);
                            }
                        }
                        outcome
                    }
                    None => {
                        let puzzle = self.resized(instance).into();
                        solve(&puzzle, run.backend, SWEEP_GOAL, &run.control())?
                    }
                };
                if let Some(table) = &mut table {
                    table.record_outcome(instance.width, instance.height, &outcome);
                }
                group_outcomes.push((index, instance, outcome));
            }
            // Shortest first, so that each improved box is recorded before the taller ones
            // use it.
            for (index, instance, mut outcome) in group_outcomes.into_iter().rev() {
                if let Some(table) = table.as_mut().filter(|_| !outcome.status.is_proven()) {
                    outcome = table.improve(&self.resized(instance), outcome)?;
                    table.record_outcome(instance.width, instance.height, &outcome);
                }
                rows.push(run.done(index, instance, &outcome));
            }
        }
        Ok(rows)
    }
}
