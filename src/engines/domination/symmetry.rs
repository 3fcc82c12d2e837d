//! The board's symmetries as permutations of its free squares: which placement of a class
//! is its representative (the lexicographically least image) and how large the class is,
//! and which first moves of a search are images of earlier ones.

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

    /// The maps that fix square `s`.
    pub(crate) fn stabiliser(&self, s: usize) -> Vec<&[usize]> {
        self.maps
            .iter()
            .filter(|m| m[s] == s)
            .map(Vec::as_slice)
            .collect()
    }

    /// When `placement` (sorted) is the least of its images, the number of distinct images
    /// (its class's size); `None` when another image is less.
    pub(crate) fn class_of_least(&self, placement: &[usize]) -> Option<usize> {
        let mut images: Vec<Vec<usize>> = Vec::with_capacity(self.maps.len());
        for map in &self.maps {
            let mut image: Vec<usize> = placement.iter().map(|&i| map[i]).collect();
            image.sort_unstable();
            if image.as_slice() < placement {
                return None;
            }
            images.push(image);
        }
        images.sort_unstable();
        images.dedup();
        Some(images.len())
    }
}

/// Which of `order` (squares tried in this order) are the first of their orbit under
/// `stabiliser` among `order`: a placement holding a later one has an image holding an
/// earlier one, so only the first of each orbit needs to lead a branch.
pub(crate) fn first_of_orbits(order: &[usize], stabiliser: &[&[usize]]) -> Vec<bool> {
    let mut position = std::collections::HashMap::with_capacity(order.len());
    for (k, &c) in order.iter().enumerate() {
        position.insert(c, k);
    }
    order
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            stabiliser
                .iter()
                .all(|m| position.get(&m[c]).is_none_or(|&j| j >= k))
        })
        .collect()
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
    fn the_centres_stabiliser_leaves_one_of_each_orbit() {
        let sym = square(3);
        let stabiliser = sym.stabiliser(4);
        assert_eq!(stabiliser.len(), 8);
        let first = first_of_orbits(&[4, 0, 1, 2, 3, 5, 6, 7, 8], &stabiliser);
        let kept: Vec<usize> = (0..9).filter(|&k| first[k]).collect();
        assert_eq!(kept, vec![0, 1, 2]);
    }
}
