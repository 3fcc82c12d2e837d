//! The search annotation a constraint programmer would write for a 0-1 problem: branch on
//! the variables that count (the objective's, or every variable of a problem without
//! one), those of the most constrained rows first, each tried at 1 first.
//!
//! Gecode's default search picks the variable of the highest failure count, ties broken
//! by the order of the flattened variables, and tries 0 first: on the contest board it
//! finds 13 queens in 30 s, and it depends on how the arrays happen to flatten (the
//! pentomino tiling took 16 times the nodes through arrays than through scalars in the
//! model's order). Setting variables to 1 first finds good packings at once (the greedy
//! choice), and taking first the variables of the smallest row (a short diagonal, a piece
//! with few placements, a corner cell) is first-fail on the rows: both measured in
//! docs/external-solvers.md.

use crate::formats::linear::Row;

/// How a file asks its solver to search: the variables in order, each tried at 1 first
/// (`int_search(..., input_order, indomain_max)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The columns to branch on, in order.
    pub columns: Vec<usize>,
    /// What the columns are, for the file's comment.
    pub what: &'static str,
}

/// The search over `n` columns with `objective` (its (coefficient, column) terms) and
/// `rows` (each with its comment): the objective's columns with a positive coefficient
/// (every column when there is no objective), ordered by the size of the smallest row
/// holding each and that row's place, then the same of the next smallest row, then by
/// column; a column in fewer rows comes after one in more of the same. `None` when there
/// is nothing to branch on.
pub fn search(
    n: usize,
    objective: Option<&[(f64, usize)]>,
    rows: &[(Row, String)],
) -> Option<Search> {
    let (wanted, what) = match objective {
        Some(terms) => {
            let mut wanted = vec![false; n];
            for &(coefficient, column) in terms {
                if coefficient > 0.0 && column < n {
                    wanted[column] = true;
                }
            }
            (wanted, "the objective's variables")
        }
        None => (vec![true; n], "every variable"),
    };
    // The (length, place) of the smallest row and of the next for each column.
    let none = (usize::MAX, usize::MAX);
    let mut smallest: Vec<[(usize, usize); 2]> = vec![[none, none]; n];
    for (place, (row, _)) in rows.iter().enumerate() {
        let key = (row.terms.len(), place);
        for &(_, column) in &row.terms {
            let Some(two) = smallest.get_mut(column) else {
                continue;
            };
            if key < two[0] {
                two[1] = two[0];
                two[0] = key;
            } else if key < two[1] && key != two[0] {
                two[1] = key;
            }
        }
    }
    let mut columns: Vec<usize> = (0..n).filter(|&c| wanted[c]).collect();
    columns.sort_by_key(|&c| (smallest[c], c));
    (!columns.is_empty()).then_some(Search { columns, what })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::linear::Comparison;

    fn row(columns: &[usize]) -> (Row, String) {
        let row = Row {
            name: String::new(),
            terms: columns.iter().map(|&c| (1.0, c)).collect(),
            comparison: Comparison::AtMost,
            rhs: 1.0,
        };
        (row, String::new())
    }

    /// The columns of the smallest row first (ties: the earlier row, then the next
    /// smallest row, then the column), a column in no row last; with an objective, only
    /// its positive terms.
    #[test]
    fn the_smallest_rows_come_first() {
        let rows = vec![row(&[0, 1, 2, 3]), row(&[4, 2]), row(&[3, 1]), row(&[0, 1])];
        // 2 and 4 share their smallest row, and 2 is in another (of four), 4 in no other;
        // 1 and 3 share theirs, and 1's next (of two) is smaller than 3's (of four).
        let found = search(6, None, &rows).unwrap();
        assert_eq!(found.columns, [2, 4, 1, 3, 0, 5]);
        assert_eq!(found.what, "every variable");
        let objective = [(1.0, 0), (-1.0, 2), (1.0, 3), (1.0, 5)];
        let found = search(6, Some(&objective), &rows).unwrap();
        assert_eq!(found.columns, [3, 0, 5]);
        assert_eq!(found.what, "the objective's variables");
        assert_eq!(search(6, Some(&[(-1.0, 2)]), &rows), None);
    }
}
