//! The boxes of arrays as the readers meet them: index ranges, their entries counted and
//! bounded by what the writer makes, and the entries' names.

use super::{BOX_FACTOR, BOX_SLACK};
use std::collections::HashMap;

/// Index ranges, each (first, last).
pub(super) type Ranges = Vec<(i64, i64)>;

/// `0..7, PLACE_1` as ranges, an enum (of `enums`, by size) as `1..n`; `None` for
/// anything else.
pub(super) fn read_ranges(text: &str, enums: &HashMap<String, i64>) -> Option<Vec<(i64, i64)>> {
    text.split(',')
        .map(str::trim)
        .map(|r| match r.split_once("..") {
            Some((low, high)) => Some((low.trim().parse().ok()?, high.trim().parse().ok()?)),
            None => enums.get(r).map(|&n| (1, n)),
        })
        .collect()
}

/// How many entries ranges hold; `None` for an empty range or too many.
pub(super) fn box_size(ranges: &[(i64, i64)]) -> Option<usize> {
    ranges.iter().try_fold(1usize, |size, &(low, high)| {
        let n = usize::try_from(high.checked_sub(low)?.checked_add(1)?).ok()?;
        (n > 0).then_some(())?;
        size.checked_mul(n).filter(|&s| s <= 1 << 24)
    })
}

/// How many entries ranges hold (0 for an empty range); `None` when that does not fit a
/// `usize`.
pub(super) fn box_entries(ranges: &[(i64, i64)]) -> Option<usize> {
    ranges.iter().try_fold(1usize, |size, &(low, high)| {
        let n = (i128::from(high) - i128::from(low) + 1).max(0);
        size.checked_mul(usize::try_from(n).ok()?)
    })
}

/// The most entries the writer puts in the box of an array of `variables` model
/// variables (see [`BOX_FACTOR`](super::BOX_FACTOR)).
fn box_limit(variables: usize) -> usize {
    variables
        .saturating_mul(BOX_FACTOR)
        .saturating_add(BOX_SLACK)
}

/// Checks that array `name` over `ranges` holding `variables` model variables has no more
/// entries than the writer puts in such a box; the error says what is wrong.
pub(super) fn check_box(name: &str, ranges: &[(i64, i64)], variables: usize) -> Result<(), String> {
    let limit = box_limit(variables);
    match box_entries(ranges) {
        None => Err(format!("array {name} has more entries than can be counted")),
        Some(entries) if entries > limit => Err(format!(
            "array {name} has {entries} entries, more than the {limit} of an array of \
             {variables} variables ({BOX_FACTOR} per variable plus {BOX_SLACK})"
        )),
        Some(_) => Ok(()),
    }
}

/// How many bytes the names [`box_names`] makes take in all (`None` past `usize`), so that
/// a reader can refuse names out of proportion to its text before making them.
pub(super) fn box_names_len(name: &str, ranges: &[(i64, i64)]) -> Option<usize> {
    let entries = box_entries(ranges)?;
    if entries == 0 {
        return Some(0);
    }
    // `name[` and `]`, and the commas between the indices, in every name.
    let fixed = name.len() + 2 + ranges.len().saturating_sub(1);
    let mut total = entries.checked_mul(fixed)?;
    for &(low, high) in ranges {
        // Each value of this index is in entries / n names.
        let n = usize::try_from(i128::from(high) - i128::from(low) + 1).ok()?;
        let digits = usize::try_from(digits_in(low, high)).ok()?;
        total = total.checked_add((entries / n).checked_mul(digits)?)?;
    }
    Some(total)
}

/// How many characters the integers `low..=high` take written out, without writing them.
pub(super) fn digits_in(low: i64, high: i64) -> u128 {
    // The lengths of 1..=n.
    let upto = |n: u128| {
        let (mut total, mut start, mut width) = (0u128, 1u128, 1u128);
        while start <= n {
            let end = n.min(start * 10 - 1);
            total += (end - start + 1) * width;
            start *= 10;
            width += 1;
        }
        total
    };
    let (low, high) = (i128::from(low), i128::from(high));
    if low > high {
        return 0;
    }
    let mut total = 0;
    if high >= 0 {
        // 0 (one character) and 1..=high, less 1..low.
        let from = low.max(0);
        total += upto(high as u128) - upto((from - 1).max(0) as u128) + u128::from(from == 0);
    }
    if low < 0 {
        // -m for m in 1.max(-high)..=-low: a sign and m's digits.
        let (first, last) = ((-high).max(1), -low);
        total += (last - first + 1) as u128 + upto(last as u128) - upto((first - 1) as u128);
    }
    total
}

/// The most bytes of entry names (see [`box_names_len`]) a reader makes per byte of the
/// text they are read from.
pub(super) const NAMES_PER_BYTE: usize = 32;

/// The names of an array's entries as [`read_answer`](super::read_answer) gives them, in
/// row-major order: `q[0,0]`, `q[0,1]`, ... for `ranges` 0..7, 0..7.
pub(super) fn box_names(name: &str, ranges: &[(i64, i64)]) -> Vec<String> {
    let mut names = vec![String::new()];
    for &(low, high) in ranges {
        names = names
            .iter()
            .flat_map(|prefix| {
                (low..=high).map(move |v| {
                    if prefix.is_empty() {
                        v.to_string()
                    } else {
                        format!("{prefix},{v}")
                    }
                })
            })
            .collect();
    }
    names.into_iter().map(|n| format!("{name}[{n}]")).collect()
}
