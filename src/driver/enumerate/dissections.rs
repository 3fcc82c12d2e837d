//! Counting dissections: every dissection once (the model labels parts canonically), by
//! the native search or SAT with blocking clauses on the part variables.

use super::stoppable::enumerate_stoppable;
use super::{empty_outcome, CountFamily, CountOutcome, EnumerateOptions};
use crate::base::error::Setting;
use crate::base::evidence::{CountEvidence, DissectionSearch};
use crate::base::Control;
use crate::driver::{Backend, Misuse, SolveError};
use crate::puzzle::dissection::{Dissection, DissectionPuzzle};
use crate::puzzle::{Family, Solution};
use std::time::Instant;

/// Every dissection of `shape`, each once (the family has no objective and labels parts
/// canonically, so there is nothing to reduce or shard).
impl CountFamily for DissectionPuzzle {
    fn count(
        &self,
        backend: Backend,
        options: &EnumerateOptions,
        control: &Control,
        on_solution: &mut dyn FnMut(&Solution),
        start: Instant,
    ) -> Result<CountOutcome, SolveError> {
        let shape = self;
        let unsupported = |setting| SolveError::Misused(Misuse::NotForDissections(setting));
        if options.unique {
            return Err(unsupported(Setting::Unique));
        }
        if options.shard.is_some() {
            return Err(unsupported(Setting::Shard));
        }
        if options.at_least.is_some() {
            return Err(unsupported(Setting::AtLeast));
        }
        let found = enumerate_dissections(shape, backend, control, &mut |dissection| {
            if options.list {
                on_solution(&Solution::Dissection(dissection.clone()));
            }
            true
        })?;
        Ok(CountOutcome {
            backend,
            count: found.count,
            complete: found.complete,
            elapsed: start.elapsed(),
            ..empty_outcome(found.evidence)
        })
    }
}

/// What [`enumerate_dissections`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DissectionCount {
    /// Dissections reported, each verified.
    pub count: u64,
    /// Whether the search ran to the end, so `count` is the number of dissections.
    pub complete: bool,
    /// How the count was established.
    pub evidence: CountEvidence,
}

/// Lists every dissection once (never once per labelling of its parts) with the native
/// search or SAT (blocking clauses on the part variables), verifying each from scratch
/// before `on_solution` sees it; `on_solution` returns false to stop.
pub fn enumerate_dissections(
    shape: &DissectionPuzzle,
    backend: Backend,
    control: &Control,
    on_solution: &mut dyn FnMut(&Dissection) -> bool,
) -> Result<DissectionCount, SolveError> {
    if let Some(reason) = shape.trivially_impossible() {
        return Ok(DissectionCount {
            count: 0,
            complete: true,
            evidence: CountEvidence::Impossible { reason },
        });
    }
    let mut wrong = None;
    let mut checked = |d: &Dissection| match shape.verify(d) {
        Ok(()) => on_solution(d),
        Err(error) => {
            wrong = Some(error);
            false
        }
    };
    let result = match backend {
        Backend::Native => {
            let search = crate::driver::native::enumerate_puzzle(shape, control, &mut checked);
            DissectionCount {
                count: search.count,
                complete: search.complete,
                evidence: CountEvidence::Dissections {
                    search: DissectionSearch::Native {
                        nodes: search.nodes,
                    },
                    stop: None,
                },
            }
        }
        Backend::Sat => {
            let thread_shape = shape.clone();
            let found = enumerate_stoppable(
                move || thread_shape.compile(),
                shape.solution_vars(),
                None,
                control,
                &mut |assignment| checked(&shape.decode(assignment)),
            )
            .map_err(|error| SolveError::Backend {
                backend: "sat",
                failure: error.into(),
            })?
            .unwrap_or_default();
            DissectionCount {
                count: found.count,
                complete: found.complete,
                evidence: CountEvidence::Dissections {
                    search: DissectionSearch::Varisat {
                        calls: found.calls as u64,
                        cuts: found.cuts as u64,
                    },
                    stop: None,
                },
            }
        }
        Backend::Milp => {
            return Err(SolveError::Usage(
                "dissections are enumerated by the sat and native backends only".into(),
            ))
        }
    };
    match wrong {
        Some(error) => Err(SolveError::WrongSolution {
            backend: backend.name(),
            error,
        }),
        None if !result.complete && control.should_stop() => Ok(DissectionCount {
            evidence: match result.evidence {
                CountEvidence::Dissections { search, .. } => CountEvidence::Dissections {
                    search,
                    stop: Some(control.stop()),
                },
                other => other,
            },
            ..result
        }),
        None => Ok(result),
    }
}
