//! The board's symmetries as permutations of its free squares: which placement of a class
//! is its representative (the lexicographically least image) and how large the class is,
//! and the subgroups that fix a search node, whose orbits of moves need one branch each.

/// The symmetries of a board as maps of free-square indices, the identity first.
#[derive(Clone, Debug)]
pub(crate) struct Symmetries {
    maps: Vec<Vec<usize>>,
}

impl Symmetries {
    /// The maps of `cell_maps` (row-major cell maps that keep the obstacles) restricted to
    /// the free squares, `index[cell]` numbering them.
    pub(crate) fn new(cell_maps: &[Vec<usize>], cells: &[usize], index: &[usize]) -> Symmetries {
        let maps = cell_maps
            .iter()
            .map(|map| cells.iter().map(|&c| index[map[c]]).collect())
            .collect();
        Symmetries { maps }
    }

    /// The group of the identity alone.
    #[cfg(test)]
    pub(crate) fn trivial(squares: usize) -> Symmetries {
        Symmetries {
            maps: vec![(0..squares).collect()],
        }
    }

    /// The whole group, as a set of map numbers (bit `k` for map `k`).
    pub(crate) fn all(&self) -> Group {
        Group((1u16 << self.maps.len()) - 1)
    }

    /// The members of `group` that fix square `s`.
    pub(crate) fn stabiliser(&self, group: Group, s: usize) -> Group {
        Group(
            group
                .members()
                .filter(|&k| self.maps[k][s] == s)
                .fold(0, |bits, k| bits | 1 << k),
        )
    }

    /// The images of square `s` under `group` (with repeats).
    pub(crate) fn orbit(&self, group: Group, s: usize) -> impl Iterator<Item = usize> + '_ {
        group.members().map(move |k| self.maps[k][s])
    }

    /// The least image of square `s` under `group`: one name for its orbit.
    pub(crate) fn least_image(&self, group: Group, s: usize) -> usize {
        self.orbit(group, s).min().unwrap_or(s)
    }

    /// When `placement` (sorted) is the least of its images, the number of distinct images
    /// (its class's size); `None` when another image is less.
    pub(crate) fn class_of_least(&self, placement: &[usize]) -> Option<usize> {
        let images = self.images(placement);
        (images[0].as_slice() == placement).then_some(images.len())
    }

    /// The distinct images of `placement` (each sorted), in increasing order: its class.
    pub(crate) fn images(&self, placement: &[usize]) -> Vec<Vec<usize>> {
        let mut images: Vec<Vec<usize>> = self
            .maps
            .iter()
            .map(|map| {
                let mut image: Vec<usize> = placement.iter().map(|&i| map[i]).collect();
                image.sort_unstable();
                image
            })
            .collect();
        images.sort_unstable();
        images.dedup();
        images
    }
}

/// A subgroup of the board's symmetries, as a set of map numbers (at most eight maps).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group(u16);

impl Group {
    /// The identity alone (map 0).
    pub(crate) const IDENTITY: Group = Group(1);

    /// Whether the group is the identity alone.
    pub(crate) fn is_trivial(self) -> bool {
        self.0 <= 1
    }

    /// The map numbers of the members.
    pub(crate) fn members(self) -> impl Iterator<Item = usize> {
        (0..16).filter(move |&k| self.0 >> k & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::board::Board;

    fn square(n: usize) -> Symmetries {
        let board = Board {
            width: n,
            height: n,
            free: vec![true; n * n],
        };
        let cells: Vec<usize> = (0..n * n).collect();
        Symmetries::new(&board.symmetry_maps(), &cells, &cells)
    }

    #[test]
    fn a_placement_is_its_class_representative_once() {
        let sym = square(3);
        // The four corners: one class of one.
        assert_eq!(sym.class_of_least(&[0, 2, 6, 8]), Some(1));
        // One corner: a class of four, represented by the first corner.
        assert_eq!(sym.class_of_least(&[0]), Some(4));
        assert_eq!(sym.class_of_least(&[8]), None);
        assert_eq!(Symmetries::trivial(9).class_of_least(&[8]), Some(1));
    }

    #[test]
    fn the_centres_stabiliser_is_the_whole_group_and_a_corners_has_two() {
        let sym = square(3);
        let all = sym.all();
        assert_eq!(sym.stabiliser(all, 4), all);
        let corner = sym.stabiliser(all, 0);
        assert_eq!(corner.members().count(), 2);
        assert!(sym.stabiliser(corner, 1).is_trivial());
        let mut orbit: Vec<usize> = sym.orbit(all, 1).collect();
        orbit.sort_unstable();
        orbit.dedup();
        assert_eq!(orbit, vec![1, 3, 5, 7]);
        assert_eq!(sym.least_image(all, 8), 0);
    }
}
