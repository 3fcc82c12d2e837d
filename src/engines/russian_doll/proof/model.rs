//! The OPB files the proofs refer to: the packing model ([`packing_opb`]: a variable
//! `x{i+1}` per placement `i`, "at most one" per cell covered by two placements or more,
//! `min: -x1 -x2 ...`) and a shard's, which adds the later table entries as premises and a
//! selector per entry it proves ([`shard_opb`]), so that a range of entries is proved on
//! its own.

use std::ops::Range;

use crate::formats::opb::{Constraint, Lit, Objective, OpbFile, Relation, VarNames};
use crate::geometry::placements::PackingInstance;

/// The OPB file the proof refers to (see the module doc) and, per cell, the ID of its
/// "at most one" constraint (`None`: covered by fewer than two placements).
pub fn packing_opb(instance: &PackingInstance) -> (OpbFile, Vec<Option<u64>>) {
    let n = instance.placements.len();
    let names = VarNames::numbered(n);
    let mut covering = vec![Vec::new(); instance.width * instance.height];
    for (i, p) in instance.placements.iter().enumerate() {
        for &cell in &p.cells {
            covering[cell].push(i);
        }
    }
    let mut constraints = Vec::new();
    let mut amo = vec![None; covering.len()];
    for (cell, list) in covering.iter().enumerate() {
        if list.len() >= 2 {
            constraints.push(Constraint {
                terms: list.iter().map(|&i| (-1, x(i))).collect(),
                relation: Relation::AtLeast,
                rhs: -1,
            });
            amo[cell] = Some(constraints.len() as u64);
        }
    }
    let file = OpbFile {
        declared_variables: n,
        names,
        objective: Some(Objective {
            terms: (0..n).map(|i| (-1, x(i))).collect(),
            constant: 0,
        }),
        constraints,
    };
    (file, amo)
}

/// A shard's OPB file ([`shard_opb`]) and where its parts are.
#[derive(Clone, Debug)]
pub struct ShardOpb {
    /// The file.
    pub file: OpbFile,
    /// The entries the shard proves: the scan positions `a..b`.
    pub range: Range<usize>,
    /// Per later entry with a premise, `(q, ID)`, `q` ascending.
    pub premises: Vec<(usize, u64)>,
    /// The placements (variables `x1 ..`); the selectors follow.
    placements: usize,
    /// "At least one selector" and "at most one".
    pub(super) at_least_one: u64,
    pub(super) at_most_one: u64,
    /// Per placement starting in the range, by first position: `(first, ID of its guard)`.
    guards: Vec<(usize, u64)>,
}

impl ShardOpb {
    /// The selector `t_q` of entry `q` (in the range).
    pub(super) fn selector(&self, q: usize) -> Lit {
        Lit::new((self.placements + q - self.range.start) as u32, false)
    }

    /// The guards of the placements starting in the range before `q`.
    pub(super) fn guards_before(&self, q: usize) -> impl Iterator<Item = u64> + '_ {
        let end = self.guards.partition_point(|&(first, _)| first < q);
        self.guards[..end].iter().map(|&(_, id)| id)
    }

    /// "objective >= 0", the shard's claim.
    pub(super) fn goal(&self) -> Constraint {
        let objective = self
            .file
            .objective
            .as_ref()
            .expect("a shard has an objective");
        Constraint {
            terms: objective.terms.clone(),
            relation: Relation::AtLeast,
            rhs: 0,
        }
    }
}

/// The OPB file of the shard proving the table entries `range` (scan positions `a..b`),
/// over the scan `order` (row-major cell per position) and the table `entries` (`S[0..=P]`,
/// the last 0).
///
/// Variables: `x{i+1}` per placement `i` (as in [`packing_opb`]), then a selector `t_q` per
/// entry `q` of the range (`x{P+1} ..` with `P` placements). Constraints, in this order:
///
/// 1. the packing model's "at most one" per cell covered twice or more (as [`packing_opb`]);
/// 2. the premises: per later entry `q >= b` that bounds anything (`S[q]` below the
///    placements starting at `q` or later), `-x.. >= -S[q]` over those placements,
///    `q` ascending;
/// 3. "at least one selector" and "at most one selector";
/// 4. per placement `p` starting in the range (by first position, then index), its guard
///    `-x_p + t_a .. + t_{first(p)} >= 0`: a selected `t_q` allows no placement starting
///    in `a..q`.
///
/// Objective: `min: S[a] t_a + .. + S[b-1] t_{b-1} - (the placements starting at a or
/// later)`. With `t_q` selected it is `S[q]` minus the pieces starting at `q` or later, so
/// "objective >= 0" says every entry of the range holds: one bound for the whole range.
pub fn shard_opb(
    instance: &PackingInstance,
    order: &[usize],
    entries: &[usize],
    range: Range<usize>,
) -> ShardOpb {
    let (mut file, _) = packing_opb(instance);
    let n = instance.placements.len();
    let mut position = vec![0; order.len()];
    for (k, &cell) in order.iter().enumerate() {
        position[cell] = k;
    }
    let first: Vec<usize> = instance
        .placements
        .iter()
        .map(|p| p.cells.iter().map(|&c| position[c]).min().unwrap_or(0))
        .collect();
    let first = &first;
    let from = |q: usize| (0..n).filter(move |&i| first[i] >= q);
    let selector = |q: usize| Lit::new((n + q - range.start) as u32, false);
    file.declared_variables = n + range.len();
    file.names = VarNames::numbered(file.declared_variables);
    let mut premises = Vec::new();
    for (q, &bound) in entries.iter().enumerate().take(order.len()).skip(range.end) {
        let starting = from(q).count();
        if bound < starting {
            file.constraints.push(Constraint {
                terms: from(q).map(|i| (-1, x(i))).collect(),
                relation: Relation::AtLeast,
                rhs: -(bound as i64),
            });
            premises.push((q, file.constraints.len() as u64));
        }
    }
    let selectors: Vec<Lit> = range.clone().map(selector).collect();
    let (at_least_one, at_most_one) = push_exactly_one(&mut file, &selectors);
    let mut inside: Vec<usize> = (0..n).filter(|&i| range.contains(&first[i])).collect();
    inside.sort_by_key(|&i| (first[i], i));
    let mut guards = Vec::new();
    for i in inside {
        let mut terms = vec![(-1, x(i))];
        terms.extend((range.start..=first[i]).map(|q| (1, selector(q))));
        file.constraints.push(Constraint {
            terms,
            relation: Relation::AtLeast,
            rhs: 0,
        });
        guards.push((first[i], file.constraints.len() as u64));
    }
    let mut terms: Vec<(i64, Lit)> = range
        .clone()
        .filter(|&q| entries[q] > 0)
        .map(|q| (entries[q] as i64, selector(q)))
        .collect();
    terms.extend(from(range.start).map(|i| (-1, x(i))));
    file.objective = Some(Objective { terms, constant: 0 });
    ShardOpb {
        file,
        range,
        premises,
        placements: n,
        at_least_one,
        at_most_one,
        guards,
    }
}

/// Appends to `file` "at least one of `lits`" and "at most one of `lits`" (a shard's
/// selectors); their IDs.
pub(super) fn push_exactly_one(file: &mut OpbFile, lits: &[Lit]) -> (u64, u64) {
    file.constraints.push(Constraint {
        terms: lits.iter().map(|&l| (1, l)).collect(),
        relation: Relation::AtLeast,
        rhs: 1,
    });
    let at_least_one = file.constraints.len() as u64;
    file.constraints.push(Constraint {
        terms: lits.iter().map(|&l| (-1, l)).collect(),
        relation: Relation::AtLeast,
        rhs: -1,
    });
    (at_least_one, file.constraints.len() as u64)
}

/// The literal of placement `i` (variable `x{i+1}`, the `i`-th of [`VarNames::numbered`]).
pub(super) fn x(i: usize) -> Lit {
    Lit::new(i as u32, false)
}
