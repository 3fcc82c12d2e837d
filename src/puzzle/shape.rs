//! What each family's model would be, in size only ([`ModelShape`]), from the puzzle's
//! data and without compiling it: the resource guard refuses a model too large for the
//! machine before it is built. Queens and packing shapes are exact; the dissection shape
//! bounds its candidate maps from above (see
//! [`dissection_candidates`](super::dissection::dissection_candidates)), so it never
//! underestimates. Each family answers [`Family::shape`]; this is the dispatch and the
//! tests that hold the shapes to the compiled models.

use super::{Family, Puzzle};
use crate::model::shape::ModelShape;

impl Puzzle {
    /// The shape of [`Puzzle::compile`]'s model; with `lazy_written_out`, of the model once
    /// its lazy constraints are written out as ordinary constraints (as `emit` writes it).
    pub fn shape(&self, lazy_written_out: bool) -> ModelShape {
        super::each_family!(self, p => p.shape(lazy_written_out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::puzzle::dissection::DissectionPuzzle;

    fn written_out(puzzle: &Puzzle) -> Model {
        let mut model = puzzle.compile();
        for lazy in std::mem::take(&mut model.lazy) {
            assert!(lazy.write_out(&mut model));
        }
        model
    }

    #[test]
    fn queens_and_packing_shapes_are_exact() {
        let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
        for file in [
            "obstacle-queens.toml",
            "queens-8.toml",
            "cross-13x19.toml",
            "pentomino-6x10.toml",
        ] {
            let puzzle = super::super::load_model_file(&models.join(file)).unwrap();
            assert_eq!(
                puzzle.shape(false),
                ModelShape::of(&puzzle.compile()),
                "{file}"
            );
        }
    }

    #[test]
    fn dissection_shapes_bound_the_model_from_above() {
        for (picture, parts) in [
            ("####\n####", 2),
            ("###\n###\n###", 3),
            ("#####\n#####\n###..", 2),
            ("##.\n###\n.##\n.##", 2),
        ] {
            let puzzle = Puzzle::Dissection(DissectionPuzzle::from_picture(picture, parts, true));
            for written in [false, true] {
                let estimate = puzzle.shape(written);
                let model = if written {
                    written_out(&puzzle)
                } else {
                    puzzle.compile()
                };
                let mut actual = ModelShape::of(&model);
                actual.scratch_bytes = estimate.scratch_bytes;
                assert!(
                    estimate.variables >= actual.variables
                        && estimate.constraint_count() >= actual.constraint_count()
                        && estimate.literal_count() >= actual.literal_count(),
                    "{picture:?} / {parts}, written out {written}: {estimate:?} < {actual:?}"
                );
                // And not wildly above: within 2x on these small shapes.
                assert!(
                    estimate.literal_count() <= 2 * actual.literal_count().max(1),
                    "{picture:?} / {parts}: {} vs {}",
                    estimate.literal_count(),
                    actual.literal_count()
                );
            }
        }
    }
}
