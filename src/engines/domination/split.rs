//! Cutting a search into a fixed list of subproblems: the nodes a few levels down, which
//! worker threads take in order and shards share out.

use super::independent::{self, Packing};
use super::search::{self, Cover, Prefix};
use super::Instance;
use crate::base::Control;

/// The deepest cut tried when splitting the search for independent pieces (each level is
/// one square taken or left out).
const DEEPEST_CUT: usize = 40;

/// The search for placements of `value` pieces (at most `value`, minimising) cut at the
/// first depth that gives at least `enough` nodes, with the board's symmetries when
/// `symmetric` (minimising only): the subproblems, in the search's order, and the nodes of
/// the search above them (the shallower cuts tried first are not counted). Placements found above the cut are subproblems of their own, so the list
/// partitions the placements. Searched without a control, so that it does not depend on
/// time.
pub(crate) fn split(
    instance: &Instance,
    value: usize,
    symmetric: bool,
    enough: usize,
) -> (Vec<Prefix>, u64) {
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
        if prefixes.len() >= enough {
            break;
        }
        let (deeper, more) = if minimises {
            let mut ignore = |_: &[usize], _: &[u64]| false;
            let mut cover = Cover::new(instance, value, &unlimited, &mut ignore);
            cover.break_symmetry = symmetric;
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
        // The subproblems' own nodes are counted when they are searched.
        nodes = more - deeper.len() as u64;
        prefixes = deeper;
    }
    (prefixes, nodes)
}
