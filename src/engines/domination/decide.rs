//! Deciding whether a placement of at most a given number of pieces exists, on every core:
//! the search with the board's symmetries cut into subproblems that worker threads take in
//! order. A subproblem that finds a placement cancels those after it but not those before,
//! so the answer is the placement one thread searching in order would find, on every run.
//! [`minimise`] finds the fewest by deciding at most k for k from the root's bound up, a
//! local search looking for a placement of k before each decision.

use super::local::LocalSearch;
use super::search::{decide_alone, greedy, root_bound, Cover, Leaf};
use super::split::split;
use super::{Answer, Instance};
use crate::base::Control;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// How many subproblems a decision is cut into, at least: enough that the last ones keep
/// every core busy to the end.
const SUBPROBLEMS: usize = 64;

/// Local search steps per free square before the first decision; before each later one,
/// as many steps as the decisions so far took nodes (a step costs about a node for
/// knights, more for queens, whose squares have many guards).
const FIRST_STEPS_PER_SQUARE: u64 = 10;

/// What one subproblem found.
struct Part {
    index: usize,
    found: Option<Vec<usize>>,
    nodes: u64,
    /// Searched to the end (found, or refuted), not stopped or cancelled.
    settled: bool,
}

/// Whether a placement of at most `pieces` exists: the first one in the search's order,
/// the nodes, and whether the control stopped the search before it settled the answer.
pub(crate) fn decide(
    instance: &Instance,
    pieces: usize,
    control: &Control,
) -> (Option<Vec<usize>>, u64, bool) {
    let workers = rayon::current_num_threads();
    if workers <= 1 {
        return decide_alone(instance, pieces, control);
    }
    let (prefixes, split_nodes) = split(instance, pieces, true, SUBPROBLEMS);
    let next = AtomicUsize::new(0);
    // The least subproblem that found a placement: the later ones cannot change the answer.
    let first = AtomicUsize::new(usize::MAX);
    let cancels: Vec<AtomicBool> = prefixes.iter().map(|_| AtomicBool::new(false)).collect();
    let parts = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(prefixes.len()) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= prefixes.len()
                    || index > first.load(Ordering::Relaxed)
                    || control.should_stop()
                {
                    break;
                }
                let mut found = None;
                let mut take = |placed: &[usize], _: &[u64]| {
                    found = Some(placed.to_vec());
                    true
                };
                let leaf: &mut Leaf = &mut take;
                let mut cover = Cover::new(instance, pieces, control, leaf);
                cover.break_symmetry = true;
                cover.cancel = Some(&cancels[index]);
                cover.run(&prefixes[index]);
                let (nodes, stopped) = (cover.nodes, cover.stopped);
                drop(cover);
                if found.is_some() {
                    first.fetch_min(index, Ordering::Relaxed);
                    for cancel in &cancels[index + 1..] {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
                let settled = found.is_some() || !stopped;
                let part = Part {
                    index,
                    found,
                    nodes,
                    settled,
                };
                parts.lock().unwrap_or_else(|e| e.into_inner()).push(part);
            });
        }
    });
    let mut parts = parts.into_inner().unwrap_or_else(|e| e.into_inner());
    parts.sort_by_key(|part| part.index);
    let nodes = split_nodes + parts.iter().map(|part| part.nodes).sum::<u64>();
    if let Some(part) = parts.iter_mut().find(|part| part.found.is_some()) {
        return (part.found.take(), nodes, false);
    }
    let refuted = parts.iter().filter(|part| part.settled).count() == prefixes.len();
    (None, nodes, !refuted)
}

/// The fewest pieces (or, with `limit`, whether at most `limit` do), as free-square
/// indices.
pub(crate) fn minimise(instance: &Instance, limit: Option<usize>, control: &Control) -> Answer {
    let lower = root_bound(instance);
    let mut best = greedy(instance);
    let mut answer = Answer {
        best: None,
        proven: false,
        bound: lower,
        nodes: 0,
        stopped: false,
    };
    // Local search for domination alone: it keeps no pieces apart.
    let mut local = (!instance.question.independent()).then(|| LocalSearch::new(instance, &best));
    let mut steps = FIRST_STEPS_PER_SQUARE * instance.free_squares() as u64;
    if let Some(limit) = limit {
        if let Some(local) = local
            .as_mut()
            .filter(|_| best.len() > limit && lower <= limit)
        {
            local.run(limit, steps, control);
            best = local.best().to_vec();
        }
        if best.len() <= limit {
            answer.proven = best.len() <= lower;
            answer.best = Some(best);
        } else if lower > limit {
            answer.proven = true;
        } else {
            let (found, nodes, stopped) = decide(instance, limit, control);
            answer.nodes = nodes;
            answer.stopped = stopped;
            match found {
                Some(found) => {
                    answer.proven = found.len() <= lower;
                    answer.best = Some(found);
                }
                None if !stopped => {
                    answer.proven = true;
                    answer.bound = limit + 1;
                }
                None => {}
            }
        }
        return answer;
    }
    let mut pieces = lower;
    while best.len() > pieces {
        if let Some(local) = local.as_mut() {
            local.run(pieces, steps, control);
            best = local.best().to_vec();
            if best.len() <= pieces {
                break;
            }
        }
        let (found, nodes, stopped) = decide(instance, pieces, control);
        answer.nodes += nodes;
        steps = steps.max(answer.nodes);
        if stopped {
            answer.best = Some(best);
            answer.stopped = true;
            return answer;
        }
        if let Some(found) = found {
            best = found;
            break;
        }
        pieces += 1;
        answer.bound = pieces;
    }
    answer.best = Some(best);
    answer.proven = true;
    answer
}
