//! Counting the placements of a given number of pieces: the search of the question, seeing
//! every placement instead of stopping at the first, cut into a fixed list of subproblems
//! (the nodes a few levels down) that worker threads take in order and that shards share
//! out. With `unique`, each placement that is the least of its images under the board's
//! symmetries stands for its class; a minimising search then uses the symmetries itself,
//! reaching at least one member of every class, and counts a class at the least member it
//! reaches (whether an image is reached is answered by following its moves from the root).

use super::bitset::{self, Neighbourhoods};
use super::independent::Packing;
use super::search::{Cover, Prefix};
use super::split::split;
use super::{CountAnswer, Instance};
use crate::base::shard::Shard;
use crate::base::Control;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Where a count hands out the placements it lists (sorted row-major cells).
pub type Placements<'a> = &'a mut dyn FnMut(&[usize]);

/// How many subproblems a count is cut into, at least, when the tree has them. Fixed, so
/// the list, and with it every shard, is the same on every machine.
const SUBPROBLEMS: usize = 256;

/// Counts the placements of exactly `value` pieces that meet `instance`'s rules. For the
/// most pieces any value is counted right; for the fewest `value` must not exceed the
/// optimum (a placement with more pieces than it needs could hold a piece the bounds rule
/// out, which the search would then miss; below the optimum the count is 0, a refutation
/// that shards split). With `shard`, only that
/// shard's subproblems; the shards' counts add up to the whole. With `unique`, also the
/// classes under the board's symmetries by size, and `on_solution` sees one
/// representative of each class (its least member, as sorted row-major cells); without,
/// it sees every placement. Placements reach `on_solution` in the fixed subproblem order,
/// each subproblem's as soon as it and those before it are done; without `on_solution`
/// none is kept.
pub fn count(
    instance: &Instance,
    value: usize,
    shard: Option<Shard>,
    unique: bool,
    control: &Control,
    mut on_solution: Option<Placements>,
) -> CountAnswer {
    let symmetric = unique && instance.question.minimises();
    let (prefixes, split_nodes) = split(instance, value, symmetric, SUBPROBLEMS);
    let mine: Vec<&Prefix> = prefixes
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.owns(*i)))
        .map(|(_, p)| p)
        .collect();
    let planned = mine.len() as u64;
    let mut answer = CountAnswer {
        nodes: split_nodes,
        subproblems: (0, planned),
        complete: true,
        ..CountAnswer::default()
    };
    let job = Job {
        instance,
        value,
        unique,
        symmetric,
        listing: on_solution.is_some(),
        control,
    };
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let workers = rayon::current_num_threads().clamp(1, mine.len().max(1));
    let (sender, receiver) = mpsc::channel::<(usize, Part)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (job, mine, next, done) = (&job, &mine, &next, &done);
            scope.spawn(move || loop {
                // Subproblems are taken in order, so the parts waiting to be handed out
                // in order stay few.
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(prefix) = mine.get(i) else {
                    break;
                };
                let part = if control.should_stop() {
                    Part::default()
                } else {
                    job.subproblem(prefix)
                };
                if part.complete {
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    control.advance(finished, planned);
                }
                if sender.send((i, part)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (i, part) in receiver {
            waiting.insert(i, part);
            while let Some(part) = waiting.remove(&due) {
                due += 1;
                answer.count += part.count;
                for (size, n) in part.classes {
                    *answer.classes.entry(size).or_default() += n;
                }
                answer.nodes += part.nodes;
                answer.subproblems.0 += u64::from(part.complete);
                answer.complete &= part.complete;
                if let Some(hand) = on_solution.as_mut() {
                    for placement in &part.kept {
                        hand(&instance.to_cells(placement));
                    }
                }
            }
        }
    });
    answer
}

/// What one subproblem found.
#[derive(Clone, Debug, Default)]
struct Part {
    count: u64,
    classes: BTreeMap<usize, u64>,
    /// The placements handed out, when asked for: every one, or the class representatives.
    kept: Vec<Vec<usize>>,
    nodes: u64,
    complete: bool,
}

impl Part {
    /// Counts `placement` (sorted free-square indices) when every placement is seen.
    fn plain(&mut self, instance: &Instance, placement: &[usize], unique: bool, listing: bool) {
        self.count += 1;
        if !unique {
            if listing {
                self.kept.push(placement.to_vec());
            }
        } else if let Some(size) = instance.symmetries.class_of_least(placement) {
            *self.classes.entry(size).or_default() += 1;
            if listing {
                self.kept.push(placement.to_vec());
            }
        }
    }

    /// Counts the class of `placement` when the search reaches no member of it that is
    /// less (`replay` follows a member's moves from the root).
    fn class(
        &mut self,
        instance: &Instance,
        placement: &[usize],
        replay: &mut Cover,
        listing: bool,
    ) {
        let members = instance.symmetries.images(placement);
        for member in &members {
            if member.as_slice() == placement {
                break;
            }
            if replay.reaches(member) {
                return;
            }
        }
        self.count += members.len() as u64;
        *self.classes.entry(members.len()).or_default() += 1;
        if listing {
            self.kept.push(members[0].clone());
        }
    }
}

/// What every subproblem of one count shares.
struct Job<'a> {
    instance: &'a Instance,
    value: usize,
    unique: bool,
    /// Whether the search uses the board's symmetries (counting classes, minimising).
    symmetric: bool,
    /// Whether placements are kept to be handed out.
    listing: bool,
    control: &'a Control,
}

impl Job<'_> {
    /// Searches one subproblem in full (unless stopped).
    fn subproblem(&self, prefix: &Prefix) -> Part {
        let Job {
            instance,
            value,
            unique,
            symmetric,
            listing,
            control,
        } = *self;
        let mut part = Part::default();
        let (nodes, stopped) = if instance.question.minimises() {
            let unlimited = Control::unlimited();
            let mut ignore = |_: &[usize], _: &[u64]| false;
            let mut replay = Cover::new(instance, value, &unlimited, &mut ignore);
            replay.break_symmetry = true;
            let mut report = |placement: &[usize]| {
                if symmetric {
                    part.class(instance, placement, &mut replay, listing);
                } else {
                    part.plain(instance, placement, unique, listing);
                }
            };
            let independent = instance.question.independent();
            let near = &instance.near;
            let mut leaf = |placed: &[usize], allowed: &[u64]| {
                let choices: Vec<usize> = bitset::ones(allowed).collect();
                let mut chosen = placed.to_vec();
                complete(
                    near,
                    independent,
                    &choices,
                    value - placed.len(),
                    &mut chosen,
                    &mut report,
                );
                false
            };
            let mut cover = Cover::new(instance, value, control, &mut leaf);
            cover.break_symmetry = symmetric;
            cover.run(prefix);
            (cover.nodes, cover.stopped)
        } else {
            let mut leaf = |placed: &[usize]| {
                let mut sorted = placed.to_vec();
                sorted.sort_unstable();
                part.plain(instance, &sorted, unique, listing);
                false
            };
            let mut packing = Packing::new(instance, value, control, Some(&mut leaf));
            packing.run(prefix);
            (packing.nodes, packing.stopped)
        };
        part.nodes = nodes;
        part.complete = !stopped;
        part
    }
}

/// Every way to add `more` of `choices` (in increasing order; pairwise not attacking when
/// `independent`) to the placement `chosen`, each handed to `report` sorted. The squares
/// guarded already, extra pieces only fill the count.
fn complete(
    near: &Neighbourhoods,
    independent: bool,
    choices: &[usize],
    more: usize,
    chosen: &mut Vec<usize>,
    report: &mut dyn FnMut(&[usize]),
) {
    if more == 0 {
        let mut sorted = chosen.clone();
        sorted.sort_unstable();
        report(&sorted);
        return;
    }
    for (k, &c) in choices.iter().enumerate() {
        if choices.len() - k < more {
            break;
        }
        let placed = chosen.len();
        if independent
            && chosen
                .iter()
                .any(|&p| near.list(p).binary_search(&(c as u32)).is_ok())
        {
            continue;
        }
        chosen.push(c);
        complete(
            near,
            independent,
            &choices[k + 1..],
            more - 1,
            chosen,
            report,
        );
        chosen.truncate(placed);
    }
}
