//! Counting tilings: raw and up to the region's symmetries, natively by exact cover or by
//! SAT enumeration as an independent check, or every tiling listed natively.

use super::stoppable::enumerate_stoppable;
use super::{empty_outcome, CountFamily, CountOutcome, EnumerateOptions};
use crate::base::error::Setting;
use crate::base::evidence::{CountEvidence, TilingCounter};
use crate::base::Control;
use crate::driver::{Backend, Misuse, SolveError};
use crate::model::Var;
use crate::oracle::OracleError;
use crate::puzzle::{Family, Puzzle, Solution};
use std::collections::HashSet;
use std::time::Instant;

/// Counts the tilings of a tile model, raw and up to the region's symmetries (natively by
/// exact cover, or by SAT enumeration as an independent check). Listing is not offered.
impl CountFamily for crate::puzzle::packing::Packing {
    fn count(
        &self,
        backend: Backend,
        options: &EnumerateOptions,
        control: &Control,
        on_solution: &mut dyn FnMut(&Solution),
        start: Instant,
    ) -> Result<CountOutcome, SolveError> {
        let packing = self;
        use crate::driver::packing::{count_native, symmetries};
        use crate::puzzle::packing::PackingKind;
        if packing.kind != PackingKind::Tile {
            return Err(SolveError::Usage(
                "counting is available for tiling models (goal = \"tile\"); this model maximises"
                    .into(),
            ));
        }
        if options.shard.is_some() {
            return Err(SolveError::Misused(Misuse::NotForTilings(Setting::Shard)));
        }
        if options.at_least.is_some() {
            return Err(SolveError::Misused(Misuse::NotForTilings(Setting::AtLeast)));
        }
        if options.list {
            return list_tilings(packing, backend, options, control, on_solution, start);
        }
        let (counts, how) = match backend {
            Backend::Native => (count_native(packing, control)?, TilingCounter::ExactCover),
            Backend::Sat => (
                count_tilings_sat(packing, control).map_err(|e| SolveError::Backend {
                    backend: backend.name(),
                    failure: e.into(),
                })?,
                TilingCounter::Varisat,
            ),
            Backend::Milp => unreachable!("refused in enumerate"),
        };
        let group = symmetries(packing).len();
        let evidence = CountEvidence::Tilings {
            by: how,
            tilings: counts.raw,
            up_to_symmetry: counts.up_to_symmetry,
            symmetries: group,
            stop: (!counts.complete).then(|| control.stop()),
        };
        Ok(CountOutcome {
            backend,
            count: counts.raw,
            unique_count: options.unique.then_some(counts.up_to_symmetry),
            symmetries: group,
            complete: counts.complete,
            elapsed: start.elapsed(),
            ..empty_outcome(evidence)
        })
    }
}

/// Lists every tiling natively, each verified before it is handed out.
fn list_tilings(
    packing: &crate::puzzle::packing::Packing,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
    start: Instant,
) -> Result<CountOutcome, SolveError> {
    if options.unique {
        return Err(SolveError::Misused(Misuse::UniqueTilingList));
    }
    if backend != Backend::Native {
        return Err(SolveError::Misused(Misuse::TilingListNeedsNative));
    }
    let puzzle = Puzzle::Packing(packing.clone());
    let mut wrong = None;
    let (count, complete) = crate::driver::packing::list_native(packing, control, &mut |tiling| {
        let solution = Solution::Packing(tiling);
        match puzzle.verify(&solution) {
            Ok(()) => {
                on_solution(&solution);
                true
            }
            Err(error) => {
                wrong = Some(error);
                false
            }
        }
    })?;
    if let Some(error) = wrong {
        return Err(SolveError::WrongSolution {
            backend: backend.name(),
            error,
        });
    }
    Ok(CountOutcome {
        backend,
        count,
        complete,
        elapsed: start.elapsed(),
        ..empty_outcome(CountEvidence::TilingsListed)
    })
}

/// Counts tilings with varisat (independently of the native search): the model without
/// symmetry breaking, one blocking clause per tiling; each tiling's orbit is named by its
/// least image under the region's symmetries, and the names are counted. Stoppable at
/// once (see [`enumerate_stoppable`]); a stopped count keeps the tilings found.
fn count_tilings_sat(
    packing: &crate::puzzle::packing::Packing,
    control: &Control,
) -> Result<crate::driver::packing::Counts, OracleError> {
    let group = crate::driver::packing::symmetries(packing);
    let mut orbits: HashSet<Vec<(usize, Vec<usize>)>> = HashSet::new();
    let placements: Vec<Var> = (0..packing.instance.placements.len())
        .map(Var::from_index)
        .collect();
    let thread_packing = packing.clone();
    let found = enumerate_stoppable(
        move || thread_packing.compile_with(false),
        placements,
        None,
        control,
        &mut |assignment| {
            let least = crate::driver::packing::canonical(&group, &packing.decode(assignment));
            orbits.insert(least);
            true
        },
    )?
    .unwrap_or_default();
    Ok(crate::driver::packing::Counts {
        raw: found.count,
        up_to_symmetry: orbits.len() as u64,
        complete: found.complete,
    })
}
