//! A 0-1 linear program as plain rows over numbered columns: what the LP, MiniZinc and
//! FlatZinc files say, and what the MILP solvers are given. No model in sight: columns are
//! names, rows are (coefficient, column) terms.

/// How a row compares its left side with its right side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `<=`
    AtMost,
    /// `>=`
    AtLeast,
    /// `=`
    Equal,
}

/// One linear row over 0-1 columns: `sum(coefficient * column) cmp rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's name in LP files.
    pub name: String,
    /// (coefficient, column index) pairs.
    pub terms: Vec<(f64, usize)>,
    /// The comparison.
    pub comparison: Comparison,
    /// The right-hand side.
    pub rhs: f64,
}

impl Row {
    /// The left side at the 0-1 point `values` (one per column).
    pub fn lhs(&self, values: &[bool]) -> f64 {
        self.terms
            .iter()
            .filter(|&&(_, column)| values[column])
            .map(|&(coefficient, _)| coefficient)
            .sum()
    }

    /// Whether a left side of `lhs` satisfies the row, within 1e-9 (solvers print
    /// rounded values).
    pub fn holds_at(&self, lhs: f64) -> bool {
        match self.comparison {
            Comparison::AtMost => lhs <= self.rhs + 1e-9,
            Comparison::AtLeast => lhs >= self.rhs - 1e-9,
            Comparison::Equal => (lhs - self.rhs).abs() <= 1e-9,
        }
    }
}

/// A 0-1 linear program: maximise the objective subject to the rows, every column binary.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearProgram {
    /// Column names (the model's variable names).
    pub columns: Vec<String>,
    /// (coefficient, column) pairs of the objective, maximised.
    pub objective: Vec<(f64, usize)>,
    /// A constant added to the objective (from negated objective literals).
    pub objective_offset: f64,
    /// The constraints.
    pub rows: Vec<Row>,
}
