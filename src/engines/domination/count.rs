//! Counting the placements of a given number of pieces: the search of the question, seeing
//! every placement instead of stopping at the first, cut into a fixed list of subproblems
//! (the nodes a few levels down) that run in parallel and that shards share out. With
//! `unique`, each placement that is the least of its images under the board's symmetries
//! stands for its class.

use super::bitset::{self, Neighbourhoods};
use super::independent::{self, Packing};
use super::search::{self, Cover, Prefix};
use super::{CountAnswer, Instance};
use crate::base::shard::Shard;
use crate::base::Control;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many subproblems the search is cut into, at least, when the tree has them. Fixed,
/// so the list, and with it every shard, is the same on every machine.
const SUBPROBLEMS: usize = 256;

/// The deepest cut tried when splitting the search for independent pieces (each level is
/// one square taken or left out).
const DEEPEST_CUT: usize = 40;

/// Counts the placements of exactly `value` pieces that meet `instance`'s rules (`value`
/// is meant to be the optimum, but any value is counted right). With `shard`, only that
/// shard's subproblems; the shards' counts add up to the whole. With `unique`, also the
/// classes under the board's symmetries by size, and `on_solution` sees one
/// representative of each class (its least member, as sorted row-major cells); without,
/// it sees every placement. Placements reach `on_solution` in the fixed subproblem order,
/// after the subproblems are done.
pub fn count(
    instance: &Instance,
    value: usize,
    shard: Option<Shard>,
    unique: bool,
    control: &Control,
    on_solution: &mut dyn FnMut(&[usize]),
) -> CountAnswer {
    let (prefixes, split_nodes) = split(instance, value);
    let mine: Vec<&Prefix> = prefixes
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.owns(*i)))
        .map(|(_, p)| p)
        .collect();
    let planned = mine.len() as u64;
    let done = AtomicU64::new(0);
    let parts: Vec<Part> = mine
        .par_iter()
        .with_max_len(1)
        .map(|prefix| {
            if control.should_stop() {
                return Part::default();
            }
            let part = subproblem(instance, value, prefix, unique, control);
            if part.complete {
                let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                control.advance(finished, planned);
            }
            part
        })
        .collect();
    let mut answer = CountAnswer {
        nodes: split_nodes,
        subproblems: (0, planned),
        complete: true,
        ..CountAnswer::default()
    };
    for part in parts {
        answer.count += part.count;
        for (size, n) in part.classes {
            *answer.classes.entry(size).or_default() += n;
        }
        answer.nodes += part.nodes;
        answer.subproblems.0 += u64::from(part.complete);
        answer.complete &= part.complete;
        for placement in &part.kept {
            on_solution(&instance.to_cells(placement));
        }
    }
    answer
}

/// What one subproblem found.
#[derive(Clone, Debug, Default)]
struct Part {
    count: u64,
    classes: BTreeMap<usize, u64>,
    /// The placements handed out: every one, or the class representatives.
    kept: Vec<Vec<usize>>,
    nodes: u64,
    complete: bool,
}

/// The fixed list of subproblems: the search cut at the first depth that gives at least
/// [`SUBPROBLEMS`] nodes (placements found above the cut are subproblems of their own, so
/// the list partitions the placements). Searched without a control, so that it does not
/// depend on time.
fn split(instance: &Instance, value: usize) -> (Vec<Prefix>, u64) {
    let unlimited = Control::unlimited();
    let minimises = instance.question.minimises();
    let (root, deepest) = if minimises {
        (search::root(instance), value + 1)
    } else {
        (independent::root(instance), DEEPEST_CUT)
    };
    let mut prefixes = vec![root.clone()];
    let mut nodes = 0;
    for depth in 1..=deepest {
        if prefixes.len() >= SUBPROBLEMS {
            break;
        }
        let (deeper, more) = if minimises {
            let mut ignore = |_: &[usize], _: &[u64]| false;
            let mut cover = Cover::new(instance, value, &unlimited, &mut ignore);
            cover.cut = Some(depth);
            cover.run(&root);
            (cover.prefixes, cover.nodes)
        } else {
            let mut ignore = |_: &[usize]| false;
            let mut packing = Packing::new(instance, value, &unlimited, Some(&mut ignore));
            packing.cut = Some(depth);
            packing.run(&root);
            (packing.prefixes, packing.nodes)
        };
        prefixes = deeper;
        nodes += more;
    }
    (prefixes, nodes)
}

/// Searches one subproblem in full (unless stopped).
fn subproblem(
    instance: &Instance,
    value: usize,
    prefix: &Prefix,
    unique: bool,
    control: &Control,
) -> Part {
    let mut part = Part::default();
    let mut report = |placement: &[usize]| {
        part.count += 1;
        if !unique {
            part.kept.push(placement.to_vec());
        } else if let Some(size) = instance.symmetries.class_of_least(placement) {
            *part.classes.entry(size).or_default() += 1;
            part.kept.push(placement.to_vec());
        }
    };
    let (nodes, stopped) = if instance.question.minimises() {
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
        cover.run(prefix);
        (cover.nodes, cover.stopped)
    } else {
        let mut leaf = |placed: &[usize]| {
            let mut sorted = placed.to_vec();
            sorted.sort_unstable();
            report(&sorted);
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
