//! Exact cover with primary, secondary and counted items: Knuth's Algorithm X with dancing links.
//!
//! An instance is a list of items and a list of options (sets of items). A solution is a set of
//! options such that every [`ItemKind::Primary`] item is in exactly one chosen option, every
//! [`ItemKind::Secondary`] item in at most one, and every [`ItemKind::Counted`] item in between
//! `min` and `max` chosen options.
//!
//! The search branches on the primary item with the fewest remaining options (the MRV
//! heuristic, Knuth's "S heuristic"). Counted items are never branched on: an item is covered
//! (its remaining options hidden) as soon as it has been used `max` times, and `min` is checked
//! when every primary item is covered, plus a cheap prune when `used + remaining options < min`.
//!
//! # References
//! - D. E. Knuth, "Dancing Links", Millennial Perspectives in Computer Science, 2000.
//! - D. E. Knuth, The Art of Computer Programming 4B, section 7.2.2.1 (DLX1, secondary items).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many times an item may be covered by a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// Covered exactly once; the search branches on these.
    Primary,
    /// Covered at most once.
    Secondary,
    /// Covered at least `min` and at most `max` times (`usize::MAX` for no upper limit).
    Counted {
        /// Least number of chosen options containing the item.
        min: usize,
        /// Greatest number of chosen options containing the item.
        max: usize,
    },
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// Every solution was visited.
    Exhausted,
    /// The solution callback asked to stop.
    Callback,
    /// The stop flag was raised.
    StopFlag,
}

/// Summary of one exact-cover search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// Solutions visited (all of them when `end` is [`SearchEnd::Exhausted`]).
    pub solutions: u64,
    /// Search-tree nodes visited.
    pub nodes: u64,
    /// Why the search ended.
    pub end: SearchEnd,
}

/// An exact-cover problem: items, then options over those items.
#[derive(Clone, Debug, Default)]
pub struct ExactCover {
    kinds: Vec<ItemKind>,
    options: Vec<Vec<usize>>,
}

impl ExactCover {
    /// An empty problem (no items, no options).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an item and returns its index.
    pub fn add_item(&mut self, kind: ItemKind) -> usize {
        self.kinds.push(kind);
        self.kinds.len() - 1
    }

    /// Adds an item that must be covered exactly once.
    pub fn add_primary(&mut self) -> usize {
        self.add_item(ItemKind::Primary)
    }

    /// Adds an item that may be covered at most once.
    pub fn add_secondary(&mut self) -> usize {
        self.add_item(ItemKind::Secondary)
    }

    /// Adds an item covered between `min` and `max` times (`None`: no upper limit).
    pub fn add_counted(&mut self, min: usize, max: Option<usize>) -> usize {
        let max = max.unwrap_or(usize::MAX);
        assert!(min <= max, "counted item with min {min} > max {max}");
        self.add_item(ItemKind::Counted { min, max })
    }

    /// Adds an option (a set of distinct item indices) and returns its index.
    ///
    /// # Panics
    /// If an item index is unknown or repeated, or if no item of the option is primary (the
    /// search only reaches options through primary items, as in Knuth's DLX).
    pub fn add_option(&mut self, items: &[usize]) -> usize {
        for (k, &i) in items.iter().enumerate() {
            assert!(i < self.kinds.len(), "option names unknown item {i}");
            assert!(!items[..k].contains(&i), "option repeats item {i}");
        }
        assert!(
            items.iter().any(|&i| self.kinds[i] == ItemKind::Primary),
            "option without a primary item"
        );
        self.options.push(items.to_vec());
        self.options.len() - 1
    }

    /// Counts all solutions (stopping early if `stop` is raised).
    pub fn count(&self, stop: &AtomicBool) -> SearchSummary {
        self.solve(stop, |_| ControlFlow::Continue(()))
    }

    /// Visits every solution, passing the chosen option indices to `visit`; `visit` may end the
    /// search by returning [`ControlFlow::Break`]. `stop` is polled every few thousand nodes.
    pub fn solve<F>(&self, stop: &AtomicBool, visit: F) -> SearchSummary
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut links = Links::new(self);
        let mut search = Search {
            links: &mut links,
            stop,
            visit,
            chosen: Vec::new(),
            chosen_options: Vec::new(),
            solutions: 0,
            nodes: 0,
            end: SearchEnd::Exhausted,
        };
        search.start();
        SearchSummary {
            solutions: search.solutions,
            nodes: search.nodes,
            end: search.end,
        }
    }
}

/// The dancing-links arrays (Knuth's DLX1 layout). Node `i` for `1 <= i <= n` is the header of
/// item `i - 1`; node 0 heads the list of uncovered primary items, node `n + 1` the list of the
/// other items. Option nodes follow, each option preceded and followed by a spacer whose
/// `top` is 0; a spacer's `ulink` is the first node of the option before it and its `dlink`
/// the last node of the option after it.
struct Links {
    kinds: Vec<ItemKind>,
    llink: Vec<u32>,
    rlink: Vec<u32>,
    len: Vec<u32>,
    used: Vec<usize>,
    top: Vec<u32>,
    ulink: Vec<u32>,
    dlink: Vec<u32>,
    option_of: Vec<u32>,
    /// Counted items with `min > 0` (header nodes), checked at every node.
    with_min: Vec<u32>,
}

impl Links {
    fn new(problem: &ExactCover) -> Self {
        let n = problem.kinds.len();
        let total_nodes: usize =
            n + 2 + problem.options.iter().map(|o| o.len() + 1).sum::<usize>() + 1;
        assert!(
            total_nodes < u32::MAX as usize,
            "exact-cover problem too large"
        );
        let other_head = n + 1;
        let mut llink = vec![0u32; n + 2];
        let mut rlink = vec![0u32; n + 2];
        let mut prev_primary = 0usize;
        let mut prev_other = other_head;
        for (i, kind) in problem.kinds.iter().enumerate() {
            let node = i + 1;
            let prev = if *kind == ItemKind::Primary {
                &mut prev_primary
            } else {
                &mut prev_other
            };
            llink[node] = *prev as u32;
            rlink[*prev] = node as u32;
            *prev = node;
        }
        rlink[prev_primary] = 0;
        llink[0] = prev_primary as u32;
        rlink[prev_other] = other_head as u32;
        llink[other_head] = prev_other as u32;

        let mut top = vec![0u32; n + 2];
        let mut ulink: Vec<u32> = (0..n as u32 + 2).collect();
        let mut dlink: Vec<u32> = (0..n as u32 + 2).collect();
        let mut option_of = vec![u32::MAX; n + 2];
        let mut len = vec![0u32; n + 2];
        // First spacer.
        let mut last_spacer = top.len();
        top.push(0);
        ulink.push(0);
        dlink.push(0);
        option_of.push(u32::MAX);
        for (o, items) in problem.options.iter().enumerate() {
            let first = top.len();
            for &item in items {
                let header = item + 1;
                let node = top.len() as u32;
                top.push(header as u32);
                let up = ulink[header];
                ulink.push(up);
                dlink.push(header as u32);
                dlink[up as usize] = node;
                ulink[header] = node;
                len[header] += 1;
                option_of.push(o as u32);
            }
            let last = top.len() - 1;
            dlink[last_spacer] = last as u32;
            last_spacer = top.len();
            top.push(0);
            ulink.push(first as u32);
            dlink.push(0);
            option_of.push(u32::MAX);
        }
        let with_min = problem
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| matches!(k, ItemKind::Counted { min, .. } if *min > 0))
            .map(|(i, _)| i as u32 + 1)
            .collect();
        Links {
            kinds: problem.kinds.clone(),
            llink,
            rlink,
            len,
            used: vec![0; n + 2],
            top,
            ulink,
            dlink,
            option_of,
            with_min,
        }
    }

    fn hide(&mut self, p: usize) {
        let mut q = p + 1;
        while q != p {
            let x = self.top[q] as usize;
            let (u, d) = (self.ulink[q], self.dlink[q]);
            if x == 0 {
                q = u as usize;
            } else {
                self.dlink[u as usize] = d;
                self.ulink[d as usize] = u;
                self.len[x] -= 1;
                q += 1;
            }
        }
    }

    fn unhide(&mut self, p: usize) {
        let mut q = p - 1;
        while q != p {
            let x = self.top[q] as usize;
            let (u, d) = (self.ulink[q], self.dlink[q]);
            if x == 0 {
                q = d as usize;
            } else {
                self.dlink[u as usize] = q as u32;
                self.ulink[d as usize] = q as u32;
                self.len[x] += 1;
                q -= 1;
            }
        }
    }

    fn cover(&mut self, i: usize) {
        let mut p = self.dlink[i] as usize;
        while p != i {
            self.hide(p);
            p = self.dlink[p] as usize;
        }
        let (l, r) = (self.llink[i], self.rlink[i]);
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
    }

    fn uncover(&mut self, i: usize) {
        let (l, r) = (self.llink[i], self.rlink[i]);
        self.rlink[l as usize] = i as u32;
        self.llink[r as usize] = i as u32;
        let mut p = self.ulink[i] as usize;
        while p != i {
            self.unhide(p);
            p = self.ulink[p] as usize;
        }
    }

    /// Records one more use of item `i` by a chosen option (whose node is already hidden).
    fn commit(&mut self, i: usize) {
        match self.kinds[i - 1] {
            ItemKind::Primary | ItemKind::Secondary => self.cover(i),
            ItemKind::Counted { max, .. } => {
                self.used[i] += 1;
                if self.used[i] == max {
                    self.cover(i);
                }
            }
        }
    }

    fn uncommit(&mut self, i: usize) {
        match self.kinds[i - 1] {
            ItemKind::Primary | ItemKind::Secondary => self.uncover(i),
            ItemKind::Counted { max, .. } => {
                if self.used[i] == max {
                    self.uncover(i);
                }
                self.used[i] -= 1;
            }
        }
    }

    /// Whether some counted item can no longer reach its minimum.
    fn minimum_unreachable(&self) -> bool {
        self.with_min.iter().any(|&i| {
            let i = i as usize;
            let ItemKind::Counted { min, .. } = self.kinds[i - 1] else {
                unreachable!()
            };
            // A covered item (used == max >= min) is fine; otherwise each remaining option can add one use.
            self.used[i] < min && self.used[i] + (self.len[i] as usize) < min
        })
    }
}

struct Search<'a, F> {
    links: &'a mut Links,
    stop: &'a AtomicBool,
    visit: F,
    chosen: Vec<usize>,
    chosen_options: Vec<usize>,
    solutions: u64,
    nodes: u64,
    end: SearchEnd,
}

impl<F: FnMut(&[usize]) -> ControlFlow<()>> Search<'_, F> {
    fn start(&mut self) {
        // Items that may never be used hide their options up front.
        let never: Vec<usize> = (1..=self.links.kinds.len())
            .filter(|&i| matches!(self.links.kinds[i - 1], ItemKind::Counted { max: 0, .. }))
            .collect();
        for &i in &never {
            self.links.cover(i);
        }
        let _ = self.search();
        for &i in never.iter().rev() {
            self.links.uncover(i);
        }
    }

    fn search(&mut self) -> ControlFlow<()> {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && self.stop.load(Ordering::Relaxed) {
            self.end = SearchEnd::StopFlag;
            return ControlFlow::Break(());
        }
        if self.links.minimum_unreachable() {
            return ControlFlow::Continue(());
        }
        let links = &*self.links;
        if links.rlink[0] == 0 {
            // Every primary item is covered; counted minimums were just checked.
            self.solutions += 1;
            self.chosen_options.clear();
            self.chosen_options
                .extend(self.chosen.iter().map(|&p| links.option_of[p] as usize));
            if (self.visit)(&self.chosen_options).is_break() {
                self.end = SearchEnd::Callback;
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(());
        }
        // MRV: the primary item with the fewest remaining options, the first one on ties.
        let mut best = 0usize;
        let mut best_len = u32::MAX;
        let mut i = links.rlink[0] as usize;
        while i != 0 {
            let l = links.len[i];
            if l < best_len {
                best = i;
                best_len = l;
                if l <= 1 {
                    break;
                }
            }
            i = links.rlink[i] as usize;
        }
        if best_len == 0 {
            return ControlFlow::Continue(());
        }
        self.links.cover(best);
        let mut p = self.links.dlink[best] as usize;
        let mut flow = ControlFlow::Continue(());
        while p != best {
            self.chosen.push(p);
            self.for_each_other(p, Links::commit, true);
            flow = self.search();
            self.for_each_other(p, Links::uncommit, false);
            self.chosen.pop();
            if flow.is_break() {
                break;
            }
            p = self.links.dlink[p] as usize;
        }
        self.links.uncover(best);
        flow
    }

    /// Applies `action` to the items of the option of node `p` other than `top[p]`, left to
    /// right (`forward`) or right to left.
    fn for_each_other(&mut self, p: usize, action: fn(&mut Links, usize), forward: bool) {
        let mut q = if forward { p + 1 } else { p - 1 };
        while q != p {
            let j = self.links.top[q] as usize;
            if j == 0 {
                q = if forward {
                    self.links.ulink[q]
                } else {
                    self.links.dlink[q]
                } as usize;
            } else {
                action(self.links, j);
                q = if forward { q + 1 } else { q - 1 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(problem: &ExactCover) -> Vec<Vec<usize>> {
        let stop = AtomicBool::new(false);
        let mut found = Vec::new();
        let summary = problem.solve(&stop, |s| {
            let mut s = s.to_vec();
            s.sort_unstable();
            found.push(s);
            ControlFlow::Continue(())
        });
        assert_eq!(summary.end, SearchEnd::Exhausted);
        assert_eq!(summary.solutions as usize, found.len());
        found.sort();
        found
    }

    /// Every subset of options, checked against the item rules: the reference answer.
    fn brute_force(problem: &ExactCover) -> Vec<Vec<usize>> {
        let m = problem.options.len();
        let mut found = Vec::new();
        for mask in 0u32..(1 << m) {
            let mut uses = vec![0usize; problem.kinds.len()];
            let chosen: Vec<usize> = (0..m).filter(|o| mask >> o & 1 == 1).collect();
            for &o in &chosen {
                for &i in &problem.options[o] {
                    uses[i] += 1;
                }
            }
            let ok = problem.kinds.iter().zip(&uses).all(|(k, &u)| match *k {
                ItemKind::Primary => u == 1,
                ItemKind::Secondary => u <= 1,
                ItemKind::Counted { min, max } => min <= u && u <= max,
            });
            if ok {
                found.push(chosen);
            }
        }
        found.sort();
        found
    }

    #[test]
    fn knuth_example_has_one_solution() {
        // The example of "Dancing Links": items A..G.
        let mut p = ExactCover::new();
        for _ in 0..7 {
            p.add_primary();
        }
        for o in [
            &[2, 4, 5][..],
            &[0, 3, 6],
            &[1, 2, 5],
            &[0, 3],
            &[1, 6],
            &[3, 4, 6],
        ] {
            p.add_option(o);
        }
        assert_eq!(all(&p), vec![vec![0, 3, 4]]);
    }

    #[test]
    fn secondary_items_are_covered_at_most_once() {
        let mut p = ExactCover::new();
        let a = p.add_primary();
        let b = p.add_primary();
        let s = p.add_secondary();
        p.add_option(&[a, s]);
        p.add_option(&[b, s]);
        p.add_option(&[a]);
        p.add_option(&[b]);
        assert_eq!(all(&p), vec![vec![0, 3], vec![1, 2], vec![2, 3]]);
    }

    #[test]
    fn no_primary_items_gives_the_empty_solution() {
        let mut p = ExactCover::new();
        p.add_secondary();
        assert_eq!(all(&p), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn callback_can_stop_the_search() {
        let mut p = ExactCover::new();
        let a = p.add_primary();
        p.add_option(&[a]);
        p.add_option(&[a]);
        let stop = AtomicBool::new(false);
        let summary = p.solve(&stop, |_| ControlFlow::Break(()));
        assert_eq!(summary.solutions, 1);
        assert_eq!(summary.end, SearchEnd::Callback);
    }

    #[test]
    fn raised_stop_flag_ends_a_long_search() {
        // 2^20 solutions: each of 20 primary items has two single-item options.
        let mut p = ExactCover::new();
        for i in 0..20 {
            p.add_primary();
            p.add_option(&[i]);
            p.add_option(&[i]);
        }
        let stop = AtomicBool::new(true);
        let summary = p.count(&stop);
        assert_eq!(summary.end, SearchEnd::StopFlag);
        assert!(summary.solutions < 1 << 20);
        let stop = AtomicBool::new(false);
        assert_eq!(p.count(&stop).solutions, 1 << 20);
    }

    #[test]
    fn random_problems_match_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let mut p = ExactCover::new();
            let items = rng.gen_range(1..7);
            for _ in 0..items {
                match rng.gen_range(0..4) {
                    0 | 1 => p.add_primary(),
                    2 => p.add_secondary(),
                    _ => {
                        let min = rng.gen_range(0..3);
                        let max = if rng.gen_bool(0.2) {
                            None
                        } else {
                            Some(min + rng.gen_range(0..3))
                        };
                        p.add_counted(min, max)
                    }
                };
            }
            for _ in 0..rng.gen_range(0..13) {
                let option: Vec<usize> = (0..items).filter(|_| rng.gen_bool(0.4)).collect();
                if option.iter().any(|&i| p.kinds[i] == ItemKind::Primary) {
                    p.add_option(&option);
                }
            }
            assert_eq!(all(&p), brute_force(&p), "{p:?}");
        }
    }
}
