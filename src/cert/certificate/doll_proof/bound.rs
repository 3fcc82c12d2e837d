//! A maximum packing that meets a bound known before any search (the area bound, the LP
//! relaxation's) is certified without a search: the proof is one cutting-planes step.
//!
//! The bound is a weighing of the cells ([`CellWeights`]: the cells of every placement
//! weigh at least `D`, all cells `W`, so at most `floor(W / D)` pieces fit). In VeriPB the
//! step is one `pol` over the packing model of [`packing_opb`]: each cell's at-most-one (or,
//! for a cell that one placement alone covers, the axiom `~x >= 0`) times its weight, plus
//! `x >= 0` times the excess weight of each placement (so that every placement's
//! coefficient is `D`), divided by `D`. The certificate has the layout of the doll's single
//! proof ([`super::PROOF_FILE`] over [`super::OPB_FILE`]), so `check` verifies it
//! unchanged, with both checkers.

use crate::engines::russian_doll::packing_opb;
use crate::formats::lines::{LineWriter, WriteError};
use crate::formats::opb::Lit;
use crate::formats::veripb::{Conclusion, ConstraintId, PolItem, ProofWriter, Step};
use crate::geometry::placements::PackingInstance;
pub use crate::geometry::weights::CellWeights;
use std::io::Write;

/// Writes into `out` the VeriPB proof over [`packing_opb`]'s file of `instance` that
/// `weights` bound the pieces by `weights.bound()`, which the packing `witness` (placement
/// indices) reaches: the `pol` step, the witness as `sol`, and `BOUNDS -b -b`. The caller
/// has checked [`CellWeights::holds`] and the witness's size.
pub fn write_bound_proof(
    instance: &PackingInstance,
    weights: &CellWeights,
    witness: &[usize],
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    let (opb, amo) = packing_opb(instance);
    let mut covering = vec![Vec::new(); weights.weights.len()];
    for (i, p) in instance.placements.iter().enumerate() {
        for &c in &p.cells {
            covering[c].push(i);
        }
    }
    let x = |i: usize| Lit::new(i as u32, false);
    let mut items = Vec::new();
    let push = |items: &mut Vec<PolItem>, operand: PolItem, factor: u64| {
        let first = items.is_empty();
        items.push(operand);
        if factor > 1 {
            items.push(PolItem::Multiply(factor));
        }
        if !first {
            items.push(PolItem::Add);
        }
    };
    for (c, &weight) in weights.weights.iter().enumerate() {
        let operand = match (amo[c], &covering[c][..]) {
            (_, []) => continue,
            _ if weight == 0 => continue,
            (Some(id), _) => PolItem::Id(ConstraintId::Absolute(id)),
            (None, &[only]) => PolItem::Axiom(x(only).negate()),
            (None, _) => unreachable!("a cell covered twice has its at-most-one"),
        };
        push(&mut items, operand, weight);
    }
    for (i, p) in instance.placements.iter().enumerate() {
        let weight: u64 = p.cells.iter().map(|&c| weights.weights[c]).sum();
        if weight > weights.divisor {
            push(&mut items, PolItem::Axiom(x(i)), weight - weights.divisor);
        }
    }
    if weights.divisor > 1 {
        items.push(PolItem::Divide(weights.divisor));
    }
    let never = || false;
    let mut proof = ProofWriter::new(
        LineWriter::new(out, &never),
        &opb.names,
        opb.constraint_ids(),
    )?;
    let bound = proof
        .step(&Step::Pol(items))?
        .expect("a pol step adds a constraint");
    let mut used = vec![false; instance.placements.len()];
    for &i in witness {
        used[i] = true;
    }
    let literals = used
        .iter()
        .enumerate()
        .map(|(i, &u)| Lit::new(i as u32, !u))
        .collect();
    proof.step(&Step::Solution {
        literals,
        improving: false,
        value: None,
    })?;
    proof.step(&Step::OutputNone)?;
    let value = -(weights.bound() as i64);
    proof.step(&Step::Conclusion(Conclusion::Bounds {
        lower: Some(value),
        lower_hint: Some(ConstraintId::Absolute(bound)),
        upper: Some(value),
        solution: None,
    }))?;
    proof.step(&Step::End)?;
    proof.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Control;
    use crate::checkers::pb::{check_pb_proof, PbConclusion};
    use crate::driver::packing_bounds::lp_dual_weights;
    use crate::formats::opb::write_opb;
    use crate::geometry::placements::{PieceLimit, Placement};

    /// A box of `width` x `height` with the placements given by their cells.
    fn instance(width: usize, height: usize, placements: &[&[usize]]) -> PackingInstance {
        PackingInstance {
            width,
            height,
            blocked: vec![false; width * height],
            pieces: vec![PieceLimit { min: 0, max: None }],
            placements: placements
                .iter()
                .map(|cells| Placement {
                    piece: 0,
                    cells: cells.to_vec(),
                })
                .collect(),
        }
    }

    /// puzzlec's PB checker on the proof of `weights` with `witness`.
    fn checked(
        instance: &PackingInstance,
        weights: &CellWeights,
        witness: &[usize],
    ) -> Result<PbConclusion, String> {
        let (opb, _) = packing_opb(instance);
        let never = || false;
        let (mut opb_text, mut proof_text) = (Vec::new(), Vec::new());
        write_opb(&opb, &mut opb_text, &never).unwrap();
        write_bound_proof(instance, weights, witness, &mut proof_text).unwrap();
        check_pb_proof(&opb_text[..], &proof_text[..])
            .map(|outcome| outcome.conclusion)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn dominoes_in_a_2_x_2_box_are_at_most_two_by_area() {
        // Cells 0 1 / 2 3: two horizontal and two vertical dominoes.
        let dominoes = instance(2, 2, &[&[0, 1], &[2, 3], &[0, 2], &[1, 3]]);
        let area = CellWeights::area(&dominoes);
        assert_eq!((area.bound(), area.divisor), (2, 2));
        assert!(area.holds(&dominoes));
        assert_eq!(
            checked(&dominoes, &area, &[0, 1]),
            Ok(PbConclusion::Bounds {
                lower: Some(-2),
                upper: Some(-2)
            })
        );
        // A witness of one piece does not reach the bound: refused.
        assert!(checked(&dominoes, &area, &[0]).is_err());
    }

    #[test]
    fn a_weight_too_low_proves_a_false_bound_and_is_refused() {
        // Trominoes 0-1-2 and 1-2-3 in a 4 x 1 strip, and a monomino at 3: weights 1 on
        // cells 1 and 3 make every placement weigh 1, so at most 2 pieces: true (0-1-2 and
        // 3). With cell 3's weight dropped, "at most 1" is false and must not check.
        let strip = instance(4, 1, &[&[0, 1, 2], &[1, 2, 3], &[3]]);
        let weights = CellWeights {
            weights: vec![0, 1, 0, 1],
            divisor: 1,
        };
        assert!(weights.holds(&strip));
        assert_eq!(
            checked(&strip, &weights, &[0, 2]),
            Ok(PbConclusion::Bounds {
                lower: Some(-2),
                upper: Some(-2)
            })
        );
        let wrong = CellWeights {
            weights: vec![0, 1, 0, 0],
            divisor: 1,
        };
        assert!(!wrong.holds(&strip));
        assert!(checked(&strip, &wrong, &[0]).is_err());
    }

    #[test]
    fn the_lp_dual_of_skew_tetrominoes_in_a_3_x_3_box_proves_one() {
        // The eight skew tetrominoes of 3 x 3 all cover the centre: the area bound says
        // 9 / 4 = 2, the LP 1, and its dual (weight 1 on the centre) proves it.
        let skew = instance(
            3,
            3,
            &[
                &[1, 2, 3, 4],
                &[0, 1, 4, 5],
                &[4, 5, 6, 7],
                &[3, 4, 7, 8],
                &[0, 3, 4, 7],
                &[1, 4, 5, 8],
                &[1, 3, 4, 6],
                &[2, 4, 5, 7],
            ],
        );
        assert_eq!(CellWeights::area(&skew).bound(), 2);
        let dual = lp_dual_weights(&skew, &Control::unlimited()).unwrap();
        assert!(dual.holds(&skew));
        assert_eq!(dual.bound(), 1);
        assert_eq!(
            checked(&skew, &dual, &[0]),
            Ok(PbConclusion::Bounds {
                lower: Some(-1),
                upper: Some(-1)
            })
        );
    }
}
