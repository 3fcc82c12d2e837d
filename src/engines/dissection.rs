//! Dissection of a grid shape into `k` pairwise congruent, edge-connected parts (native search).
//!
//! # Problem
//!
//! A shape is a set of grid cells `(x, y)` (column, row; `y` grows downwards). A dissection
//! cuts it along grid lines into `k` parts of `n / k` cells each, every part edge-connected,
//! every two parts congruent: one is the image of the other under an isometry of the grid
//! (the 8 orientations when reflection is allowed, the 4 rotations otherwise, plus a
//! translation). Dissections are sets of parts: each is counted once, never once per
//! labelling of its parts.
//!
//! # Algorithm
//!
//! Let `a` be the first cell of the shape in scan order and `P0` the part holding it. Every
//! other part is `P_i = T_i(P0)` for an isometry `T_i`, so a dissection is `P0` together with
//! the set `{T_1, .., T_{k-1}}`:
//!
//! 1. *Maps.* `T_i(a)` is a cell `b != a` of the shape, so each `T_i` is one of at most
//!    `8 (n - 1)` isometries (orientation, and the translation sending `a` to `b`). For each we
//!    keep the domain `D_T` of cells `c` with `T(c)` in the shape and `T(c) != c`, and drop the
//!    map unless the component of `a` in `D_T` has at least `n / k` cells (`P0` is connected,
//!    holds `a`, and lies in every `D_{T_i}`). The `k - 1` maps are chosen as strictly
//!    increasing sets (parts `1..k` are unordered), intersecting domains, removing cells where
//!    two maps agree (`T_i(c) = T_j(c)` would put one cell in two parts), and re-applying the
//!    component filter after each choice.
//! 2. *Exact cover.* With the maps fixed, putting a cell `c` into `P0` puts the tuple
//!    `c, T_1(c), .., T_{k-1}(c)` into parts `0..k`; a dissection is exactly a set of such
//!    tuples covering every cell once, whose base cells form a connected set. The search picks
//!    the uncovered cell with the fewest live tuples (a forced tuple propagates at once), and
//!    before each branch prunes by connectivity: tuples whose base cell is not reachable from
//!    `a` through chosen and live base cells die, and the branch fails if a chosen base cell is
//!    cut off or fewer than `n / k` cells stay reachable. For `k = 2` this is the pairing
//!    "`c` in part 0 forces `T(c)` into part 1, `c` in part 1 forces `T^-1(c)` into part 0":
//!    for translations and glide reflections every chain of `T` is forced, and only the cycles
//!    of finite-order maps (half turns, quarter turns, mirrors) leave choices.
//! 3. *Once per dissection.* When `P0` has symmetries, several map sets give the same
//!    dissection. A solution is reported only if every `T_i` is the least isometry (by
//!    orientation, then translation) mapping `P0` onto `P_i`; that set is unique, so each
//!    dissection is reported exactly once without remembering earlier ones.
//!
//! Reported dissections are rewritten in the canonical [`Dissection`] form of the input order.

use crate::geometry::isometry::orient;
pub use crate::geometry::isometry::{Cell, Isometry};
pub use crate::geometry::partition::{trivially_impossible, Dissection, MAX_PARTS};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// Marks "no cell" in index tables.
const NONE: u32 = u32::MAX;

/// Scan order: by row, then column.
fn scan_key(&(x, y): &Cell) -> (i32, i32) {
    (y, x)
}

/// What a call to [`dissect`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DissectionSearch {
    /// Dissections reported to the callback (each dissection once).
    pub count: u64,
    /// Whether the search ran to the end, so `count` is the number of dissections; false when
    /// the callback or the stop flag cut it short.
    pub complete: bool,
    /// Search nodes visited: map sets examined plus exact-cover branch nodes.
    pub nodes: u64,
}

/// Enumerates every dissection of `cells` into `parts` pairwise congruent, edge-connected
/// parts, each dissection once, calling `on_solution` with it in canonical form.
///
/// Congruence uses all 8 orientations when `reflect` is true, the 4 rotations otherwise.
/// `on_solution` returns `false` to stop the search; `stop` is polled at every node so another
/// thread (or a Ctrl-C handler) can interrupt it. A shape that [`trivially_impossible`]
/// rejects gives a complete search with no dissection.
pub fn dissect(
    cells: &[Cell],
    parts: usize,
    reflect: bool,
    on_solution: &mut dyn FnMut(&Dissection) -> bool,
    stop: &AtomicBool,
) -> DissectionSearch {
    let mut outcome = DissectionSearch {
        complete: true,
        ..DissectionSearch::default()
    };
    if trivially_impossible(cells, parts).is_some() {
        return outcome;
    }
    let mut search = Search::new(cells, parts, reflect, on_solution, stop);
    let finished = search.run();
    outcome.count = search.count;
    outcome.nodes = search.nodes;
    outcome.complete = finished;
    outcome
}

/// A fixed-size set of small integers (cell indices).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    fn new(n: usize) -> Self {
        Bits {
            words: vec![0; n.div_ceil(64)],
        }
    }

    fn full(n: usize) -> Self {
        let mut bits = Bits::new(n);
        for i in 0..n {
            bits.set(i);
        }
        bits
    }

    fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    fn set(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    fn clear(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn union_with(&mut self, other: &Bits) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    fn intersect_with(&mut self, other: &Bits) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w &= o;
        }
    }

    fn copy_from(&mut self, other: &Bits) {
        self.words.copy_from_slice(&other.words);
    }

    fn is_subset_of(&self, other: &Bits) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(w, o)| w & !o == 0)
    }

    /// The members, in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(i * 64 + bit)
            })
        })
    }
}

/// Cell lookup over the bounding box of a shape.
struct Grid {
    min: Cell,
    width: i32,
    height: i32,
    index: Vec<u32>,
}

impl Grid {
    fn new(cells: &[Cell]) -> Self {
        let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let max_x = cells.iter().map(|c| c.0).max().unwrap_or(-1);
        let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let max_y = cells.iter().map(|c| c.1).max().unwrap_or(-1);
        let width = max_x - min_x + 1;
        let height = max_y - min_y + 1;
        let mut grid = Grid {
            min: (min_x, min_y),
            width,
            height,
            index: vec![NONE; (width.max(0) as usize) * (height.max(0) as usize)],
        };
        // The first occurrence of a repeated cell wins, which lets callers detect repeats.
        for (i, &cell) in cells.iter().enumerate().rev() {
            let slot = grid.slot(cell).expect("cell inside its bounding box");
            grid.index[slot] = i as u32;
        }
        grid
    }

    fn slot(&self, (x, y): Cell) -> Option<usize> {
        let (dx, dy) = (x - self.min.0, y - self.min.1);
        (dx >= 0 && dy >= 0 && dx < self.width && dy < self.height)
            .then(|| (dy * self.width + dx) as usize)
    }

    /// The index of a cell in the shape, or `NONE`.
    fn get(&self, cell: Cell) -> u32 {
        self.slot(cell).map_or(NONE, |slot| self.index[slot])
    }

    /// For each cell, its edge neighbours in the shape (`NONE` pads).
    fn neighbours(&self, cells: &[Cell]) -> Vec<[u32; 4]> {
        cells
            .iter()
            .map(|&(x, y)| {
                [(1, 0), (-1, 0), (0, 1), (0, -1)].map(|(dx, dy)| self.get((x + dx, y + dy)))
            })
            .collect()
    }
}

/// The cells reachable from `start` through edges between cells of `allowed`
/// (`start` itself is included even if not allowed).
fn component(neighbours: &[[u32; 4]], allowed: &Bits, start: usize) -> Bits {
    let mut reached = Bits::new(neighbours.len());
    component_into(neighbours, allowed, start, &mut reached, &mut Vec::new());
    reached
}

/// [`component`] into caller-owned buffers.
fn component_into(
    neighbours: &[[u32; 4]],
    allowed: &Bits,
    start: usize,
    reached: &mut Bits,
    stack: &mut Vec<u32>,
) {
    reached.words.fill(0);
    reached.set(start);
    stack.clear();
    stack.push(start as u32);
    while let Some(cell) = stack.pop() {
        for &next in &neighbours[cell as usize] {
            if next != NONE && allowed.get(next as usize) && !reached.get(next as usize) {
                reached.set(next as usize);
                stack.push(next);
            }
        }
    }
}

/// A candidate map `T` for "part i = T(part 0)".
struct MapCandidate {
    isometry: Isometry,
    /// `image[c]`: index of `T(cell c)`, or `NONE` outside the shape.
    image: Vec<u32>,
    /// Cells `c` with `T(c)` in the shape and `T(c) != c`, restricted to the component of
    /// the anchor.
    domain: Bits,
}

/// The exact-cover state under fixed maps.
#[derive(Clone)]
struct CoverState {
    /// Base cells (cells of part 0) still allowed.
    alive: Bits,
    /// Cells already in some part.
    covered: Bits,
    /// Base cells chosen for part 0.
    chosen: Bits,
}

impl CoverState {
    /// Overwrites this state with `other` without allocating.
    fn copy_from(&mut self, other: &CoverState) {
        self.alive.copy_from(&other.alive);
        self.covered.copy_from(&other.covered);
        self.chosen.copy_from(&other.chosen);
    }
}

/// One run of [`dissect`].
struct Search<'a> {
    cells: &'a [Cell],
    parts: usize,
    part_size: usize,
    orientations: usize,
    grid: Grid,
    neighbours: Vec<[u32; 4]>,
    /// The first cell in scan order: part 0 holds it.
    anchor: usize,
    candidates: Vec<MapCandidate>,
    /// The chosen maps (indices into `candidates`), one per part `1..parts`.
    maps: Vec<usize>,
    /// `tuples[c * parts + i]`: the cell put into part `i` when base cell `c` joins part 0.
    tuples: Vec<u32>,
    /// Tuples covering each cell, as compressed rows: `covering[covering_start[d]..
    /// covering_start[d + 1]]` are the base cells whose tuple contains cell `d`.
    covering_start: Vec<u32>,
    covering: Vec<u32>,
    /// Exact-cover states by depth, kept between map sets to reuse their buffers.
    states: Vec<CoverState>,
    /// Scratch for the connectivity test: candidate cells, reached cells, the search stack.
    possible: Bits,
    reachable: Bits,
    stack: Vec<u32>,
    /// The branching options of every open node, innermost last.
    options: Vec<u32>,
    on_solution: &'a mut dyn FnMut(&Dissection) -> bool,
    stop: &'a AtomicBool,
    count: u64,
    nodes: u64,
}

impl<'a> Search<'a> {
    fn new(
        cells: &'a [Cell],
        parts: usize,
        reflect: bool,
        on_solution: &'a mut dyn FnMut(&Dissection) -> bool,
        stop: &'a AtomicBool,
    ) -> Self {
        let grid = Grid::new(cells);
        let neighbours = grid.neighbours(cells);
        let anchor = (0..cells.len())
            .min_by_key(|&i| scan_key(&cells[i]))
            .expect("a non-empty shape");
        Search {
            cells,
            parts,
            part_size: cells.len() / parts,
            orientations: if reflect { 8 } else { 4 },
            grid,
            neighbours,
            anchor,
            candidates: Vec::new(),
            maps: Vec::new(),
            tuples: Vec::new(),
            covering_start: Vec::new(),
            covering: Vec::new(),
            states: Vec::new(),
            possible: Bits::new(cells.len()),
            reachable: Bits::new(cells.len()),
            stack: Vec::new(),
            options: Vec::new(),
            on_solution,
            stop,
            count: 0,
            nodes: 0,
        }
    }

    /// Runs the search; false if it was stopped early.
    fn run(&mut self) -> bool {
        let n = self.cells.len();
        let everything = Bits::full(n);
        let domain = component(&self.neighbours, &everything, self.anchor);
        if domain.count() < self.part_size {
            return true;
        }
        if self.parts > 1 {
            self.collect_candidates();
        }
        self.choose_maps(0, &domain)
    }

    /// Every isometry sending the anchor to another cell whose domain leaves part 0 room.
    fn collect_candidates(&mut self) {
        let n = self.cells.len();
        let anchor_cell = self.cells[self.anchor];
        for orientation in 0..self.orientations {
            let turned_anchor = orient(orientation, anchor_cell);
            for (b, &target) in self.cells.iter().enumerate() {
                if b == self.anchor {
                    continue;
                }
                let isometry = Isometry::new(
                    orientation,
                    (target.0 - turned_anchor.0, target.1 - turned_anchor.1),
                );
                let image: Vec<u32> = self
                    .cells
                    .iter()
                    .map(|&c| self.grid.get(isometry.apply(c)))
                    .collect();
                let mut domain = Bits::new(n);
                for (c, &i) in image.iter().enumerate() {
                    if i != NONE && i as usize != c {
                        domain.set(c);
                    }
                }
                let domain = component(&self.neighbours, &domain, self.anchor);
                if domain.count() >= self.part_size {
                    self.candidates.push(MapCandidate {
                        isometry,
                        image,
                        domain,
                    });
                }
            }
        }
        self.candidates.sort_by_key(|c| c.isometry);
    }

    /// Chooses maps `candidates[start..]` in increasing order until there is one per part
    /// `1..parts`, then solves the exact cover. False if stopped.
    fn choose_maps(&mut self, start: usize, domain: &Bits) -> bool {
        if self.maps.len() + 1 == self.parts {
            return self.solve_cover(domain);
        }
        // Leave enough later candidates for the maps still to choose.
        let still_needed = self.parts - 1 - self.maps.len();
        let end = (self.candidates.len() + 1).saturating_sub(still_needed);
        for next in start..end {
            if self.stop.load(AtomicOrdering::Relaxed) {
                return false;
            }
            self.nodes += 1;
            let mut narrowed = domain.clone();
            narrowed.intersect_with(&self.candidates[next].domain);
            let image = &self.candidates[next].image;
            // Two maps sending one cell to the same place would put it in two parts.
            let clashes: Vec<usize> = narrowed
                .iter()
                .filter(|&c| {
                    self.maps
                        .iter()
                        .any(|&earlier| self.candidates[earlier].image[c] == image[c])
                })
                .collect();
            for c in clashes {
                narrowed.clear(c);
            }
            if !narrowed.get(self.anchor) {
                continue;
            }
            let narrowed = component(&self.neighbours, &narrowed, self.anchor);
            if narrowed.count() < self.part_size {
                continue;
            }
            self.maps.push(next);
            let going = self.choose_maps(next + 1, &narrowed);
            self.maps.pop();
            if !going {
                return false;
            }
        }
        true
    }

    /// Builds the tuples of the chosen maps over `domain` and searches their exact covers.
    /// False if stopped.
    fn solve_cover(&mut self, domain: &Bits) -> bool {
        let n = self.cells.len();
        let k = self.parts;
        self.tuples.clear();
        self.tuples.resize(n * k, NONE);
        let mut counts = vec![0u32; n + 1];
        for c in domain.iter() {
            self.tuples[c * k] = c as u32;
            counts[c] += 1;
            for (i, &map) in self.maps.iter().enumerate() {
                let d = self.candidates[map].image[c];
                self.tuples[c * k + i + 1] = d;
                counts[d as usize] += 1;
            }
        }
        if counts[..n].contains(&0) {
            return true;
        }
        // Compressed rows: counts become start offsets.
        self.covering_start.clear();
        self.covering_start.push(0);
        let mut start = 0;
        for &count in &counts[..n] {
            start += count;
            self.covering_start.push(start);
        }
        self.covering.clear();
        self.covering.resize(self.covering_start[n] as usize, NONE);
        let mut fill: Vec<u32> = self.covering_start[..n].to_vec();
        for c in domain.iter() {
            for i in 0..k {
                let d = self.tuples[c * k + i] as usize;
                self.covering[fill[d] as usize] = c as u32;
                fill[d] += 1;
            }
        }
        let mut root = CoverState {
            alive: domain.clone(),
            covered: Bits::new(n),
            chosen: Bits::new(n),
        };
        self.choose_tuple(&mut root, self.anchor);
        let mut states = std::mem::take(&mut self.states);
        states.clear();
        states.push(root);
        let going = self.cover(&mut states, 0);
        self.states = states;
        going
    }

    /// Puts base cell `c` into part 0 and its tuple into the other parts.
    fn choose_tuple(&self, state: &mut CoverState, c: usize) {
        let k = self.parts;
        state.chosen.set(c);
        for &d in &self.tuples[c * k..(c + 1) * k] {
            let d = d as usize;
            state.covered.set(d);
            let rows = self.covering_start[d] as usize..self.covering_start[d + 1] as usize;
            for &other in &self.covering[rows] {
                state.alive.clear(other as usize);
            }
        }
    }

    /// One exact-cover node on `states[depth]`, whose buffer it may spoil; children use the
    /// buffers above it, so a node allocates nothing once the stack is deep enough. False if
    /// stopped.
    fn cover(&mut self, states: &mut Vec<CoverState>, depth: usize) -> bool {
        if self.stop.load(AtomicOrdering::Relaxed) {
            return false;
        }
        self.nodes += 1;
        let n = self.cells.len();
        if states.len() == depth + 1 {
            states.push(states[depth].clone());
        }
        let state = &mut states[depth];
        // Part 0 must be connected: only base cells reachable from the anchor through chosen
        // and live base cells can still join it.
        self.possible.copy_from(&state.alive);
        self.possible.union_with(&state.chosen);
        component_into(
            &self.neighbours,
            &self.possible,
            self.anchor,
            &mut self.reachable,
            &mut self.stack,
        );
        if !state.chosen.is_subset_of(&self.reachable) || self.reachable.count() < self.part_size {
            return true;
        }
        state.alive.intersect_with(&self.reachable);
        // Branch on the uncovered cell with the fewest live tuples.
        let mut best: Option<(usize, usize)> = None;
        for d in 0..n {
            if state.covered.get(d) {
                continue;
            }
            let rows = self.covering_start[d] as usize..self.covering_start[d + 1] as usize;
            let live = self.covering[rows]
                .iter()
                .filter(|&&c| state.alive.get(c as usize))
                .count();
            if live == 0 {
                return true;
            }
            if best.is_none_or(|(_, fewest)| live < fewest) {
                best = Some((d, live));
                if live == 1 {
                    break;
                }
            }
        }
        let Some((cell, _)) = best else {
            let chosen = state.chosen.clone();
            return self.report(&chosen);
        };
        let rows = self.covering_start[cell] as usize..self.covering_start[cell + 1] as usize;
        let first_option = self.options.len();
        for &c in &self.covering[rows] {
            if state.alive.get(c as usize) {
                self.options.push(c);
            }
        }
        let last_option = self.options.len();
        let mut going = true;
        for option in first_option..last_option {
            let c = self.options[option] as usize;
            let (below, above) = states.split_at_mut(depth + 1);
            above[0].copy_from(&below[depth]);
            self.choose_tuple(&mut above[0], c);
            if !self.cover(states, depth + 1) {
                going = false;
                break;
            }
        }
        self.options.truncate(first_option);
        going
    }

    /// A complete cover: reports it unless another map set is the canonical one for the same
    /// dissection. False if the callback asks to stop.
    fn report(&mut self, chosen: &Bits) -> bool {
        let n = self.cells.len();
        let k = self.parts;
        let mut labels = vec![0u8; n];
        for c in chosen.iter() {
            for i in 1..k {
                labels[self.tuples[c * k + i] as usize] = i as u8;
            }
        }
        let base: Vec<Cell> = chosen.iter().map(|c| self.cells[c]).collect();
        for (i, &map) in self.maps.iter().enumerate() {
            let least = least_map(
                &base,
                self.cells,
                &self.grid,
                &labels,
                (i + 1) as u8,
                self.orientations,
            );
            if least != Some(self.candidates[map].isometry) {
                return true;
            }
        }
        self.count += 1;
        let dissection =
            canonical_dissection(self.cells, &self.grid, &labels, k, self.orientations);
        (self.on_solution)(&dissection)
    }
}

/// The least isometry (among the first `orientations`) mapping the cells `from` onto the cells
/// labelled `target`, if any. The two sets must have the same size.
fn least_map(
    from: &[Cell],
    cells: &[Cell],
    grid: &Grid,
    labels: &[u8],
    target: u8,
    orientations: usize,
) -> Option<Isometry> {
    (0..orientations).find_map(|orientation| {
        // Matching the scan-first cells fixes the translation.
        let turned_first = from
            .iter()
            .map(|&c| orient(orientation, c))
            .min_by_key(scan_key)?;
        let target_first = (0..labels.len())
            .filter(|&i| labels[i] == target)
            .map(|i| cells[i])
            .min_by_key(scan_key)?;
        let isometry = Isometry::new(
            orientation,
            (
                target_first.0 - turned_first.0,
                target_first.1 - turned_first.1,
            ),
        );
        from.iter()
            .all(|&c| {
                let i = grid.get(isometry.apply(c));
                i != NONE && labels[i as usize] == target
            })
            .then_some(isometry)
    })
}

/// Relabels a dissection by first appearance in input order and computes its least maps.
fn canonical_dissection(
    cells: &[Cell],
    grid: &Grid,
    labels: &[u8],
    parts: usize,
    orientations: usize,
) -> Dissection {
    let mut renumber: Vec<Option<u8>> = vec![None; parts];
    let mut next = 0;
    let labels: Vec<u8> = labels
        .iter()
        .map(|&label| {
            *renumber[label as usize].get_or_insert_with(|| {
                next += 1;
                (next - 1) as u8
            })
        })
        .collect();
    let first: Vec<Cell> = (0..cells.len())
        .filter(|&i| labels[i] == 0)
        .map(|i| cells[i])
        .collect();
    let maps = (1..parts)
        .map(|part| {
            least_map(&first, cells, grid, &labels, part as u8, orientations)
                .expect("the parts of a found dissection are congruent")
        })
        .collect();
    Dissection { labels, maps }
}
