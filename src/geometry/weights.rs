//! Whole weights on a box's cells that bound how many pieces fit: the area bound and the
//! LP relaxation's dual in one form, used by the native search (as a cut) and by the
//! certificates (as one cutting-planes step).
//!
//! Weigh every cell `c` by a whole number `w_c` so that the cells of every placement weigh
//! at least `D` together. Then `D * pieces <= the weight of the cells covered <= W`, the
//! weight of all cells, and at most `floor(W / D)` pieces fit; likewise in any part of the
//! box, counting only the weight of its free cells. The area bound is `w_c = 1` and `D` the
//! smallest piece; the LP bound is the relaxation's dual, scaled by `D` and rounded to
//! whole numbers ([`CellWeights::from_dual`]).

use super::placements::PackingInstance;

/// Divisors tried when the LP's dual is scaled to whole weights: the duals of packing
/// relaxations have small denominators (halves, thirds, quarters, ...).
const MOST_DIVISOR: u64 = 60;

/// Whole weights per cell and a divisor such that every placement's cells weigh at least
/// the divisor: a proof that at most [`CellWeights::bound`] pieces fit (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellWeights {
    /// Per cell of the box (row-major), its weight.
    pub weights: Vec<u64>,
    /// What the cells of every placement weigh at least.
    pub divisor: u64,
}

impl CellWeights {
    /// The area bound's weights: 1 on every cell some placement covers, the smallest
    /// placement's cells as the divisor.
    pub fn area(instance: &PackingInstance) -> CellWeights {
        let mut weights = vec![0; instance.width * instance.height];
        for p in &instance.placements {
            for &c in &p.cells {
                weights[c] = 1;
            }
        }
        let divisor = instance
            .placements
            .iter()
            .map(|p| p.cells.len() as u64)
            .min()
            .unwrap_or(1);
        CellWeights { weights, divisor }
    }

    /// Whole weights from `dual`, a real weight per cell of the LP relaxation's dual (any
    /// weights under which every placement's cells weigh about 1 or more), scaled by the
    /// divisor up to `MOST_DIVISOR` that bounds the pieces lowest.
    pub fn from_dual(instance: &PackingInstance, dual: &[f64]) -> CellWeights {
        (1..=MOST_DIVISOR)
            .map(|divisor| CellWeights::scaled(instance, dual, divisor))
            .min_by_key(|w| (w.bound(), w.divisor))
            .expect("divisors are tried")
    }

    /// `dual` times `divisor`, rounded, then raised where a placement's cells fall short
    /// of the divisor (the shortfall put on its heaviest cell); cells no placement covers
    /// weigh nothing.
    fn scaled(instance: &PackingInstance, dual: &[f64], divisor: u64) -> CellWeights {
        let mut weights = vec![0u64; dual.len()];
        for p in &instance.placements {
            for &c in &p.cells {
                weights[c] = (dual[c].max(0.0) * divisor as f64).round() as u64;
            }
        }
        for p in &instance.placements {
            let weight: u64 = p.cells.iter().map(|&c| weights[c]).sum();
            if weight < divisor {
                let heaviest = p
                    .cells
                    .iter()
                    .copied()
                    .max_by(|&a, &b| dual[a].total_cmp(&dual[b]))
                    .expect("a placement covers cells");
                weights[heaviest] += divisor - weight;
            }
        }
        CellWeights { weights, divisor }
    }

    /// Whether the cells of every placement of `instance` weigh at least the divisor.
    pub fn holds(&self, instance: &PackingInstance) -> bool {
        self.divisor > 0
            && instance
                .placements
                .iter()
                .all(|p| p.cells.iter().map(|&c| self.weights[c]).sum::<u64>() >= self.divisor)
    }

    /// The bound the weights prove: `floor(total weight / divisor)`.
    pub fn bound(&self) -> usize {
        (self.weights.iter().sum::<u64>() / self.divisor.max(1)) as usize
    }
}
