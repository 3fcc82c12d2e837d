//! Counting tilings for a certificate: one variable per placement (the model without its
//! symmetry breaking, which would hide tilings), the box's symmetries that keep the pieces,
//! listed by the native count; the refutation written by the exact-cover search.

use super::{CertFamily, Counting, CountingError, Listing, OwnRefutation, RefutationJob};
use crate::cert::certificate::tiling::write_tiling_proof;
use crate::cert::certificate::ProveError;
use crate::engines::cover_proof::MAX_CELLS;
use crate::puzzle::packing::{Packing, PackingKind};
use std::collections::HashMap;

impl CertFamily for Packing {
    fn counting(&self, _unique: bool) -> Result<Counting, CountingError> {
        if self.kind != PackingKind::Tile {
            return Err(CountingError::Maximising);
        }
        let model = self.compile_with(false);
        let placements = &self.instance.placements;
        let index: HashMap<(usize, &[usize]), usize> = placements
            .iter()
            .enumerate()
            .map(|(i, p)| ((p.piece, p.cells.as_slice()), i))
            .collect();
        // A cell map of the box that maps the instance onto itself maps every placement to
        // one of the same piece (`symmetries` keeps only those).
        let group = crate::driver::packing::symmetries(self)
            .into_iter()
            .map(|map| {
                placements
                    .iter()
                    .map(|p| {
                        let mut cells: Vec<usize> = p.cells.iter().map(|&c| map[c]).collect();
                        cells.sort_unstable();
                        index[&(p.piece, cells.as_slice())]
                    })
                    .collect()
            })
            .collect();
        Ok(Counting {
            decision: vec![true; model.num_vars()],
            model,
            group,
        })
    }

    fn listing(&self) -> Listing<Packing> {
        Listing::Native(crate::driver::packing::assignment_of)
    }

    fn own_refutation(&self, job: &RefutationJob<'_>) -> Option<Result<OwnRefutation, ProveError>> {
        if self.width * self.height > MAX_CELLS {
            return None;
        }
        let written =
            write_tiling_proof(self, job.model, job.cnf, job.listed, job.path, job.control);
        Some(written.map(|stats| OwnRefutation {
            search: "puzzlec's exact-cover search",
            nodes: stats.nodes,
        }))
    }
}
