//! Which grammar a text is in, told from its first lines: the solver answers puzzlec reads
//! back ([`AnswerKind::detect`]) and the files `emit` writes ([`EmittedKind::detect`]).
//! Telling them apart reads no more than status lines, headers and naming comments; each
//! format's own reader then reads the text.

use super::minizinc as mzn;

/// The kinds of solver answer puzzlec reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnswerKind {
    /// SAT competition output: `s SATISFIABLE`, `v` lines of literals ending with 0
    /// (CaDiCaL, CryptoMiniSat, Kissat).
    SatCompetition,
    /// MiniSat's result file: `SAT`, then the literals ending with 0.
    MiniSat,
    /// MaxSAT Evaluation output: `s OPTIMUM FOUND`, `v` with literals or a 0/1 string.
    MaxSat,
    /// PB competition output: `s OPTIMUM FOUND` or `s SATISFIABLE`, `v x1 -x2 ...`.
    PseudoBoolean,
    /// CBC's solution file (`solu FILE`): a status line, then `index name value` lines.
    Cbc,
    /// GLPK's `-w` (`--write`) solution file: `s mip ...`, then `j N value` lines.
    Glpk,
    /// The HiGHS program's solution file (`--solution_file`).
    Highs,
    /// MiniZinc or FlatZinc solver output (`minizinc`, `fzn-gecode`): `name = value;`
    /// lines, `----------` after each solution, `==========` when the search finished,
    /// `=====UNSATISFIABLE=====`.
    MiniZinc,
}

impl AnswerKind {
    /// The answer kind in words, for evidence and errors.
    pub fn describe(self) -> &'static str {
        match self {
            AnswerKind::SatCompetition => "SAT competition answer",
            AnswerKind::MiniSat => "MiniSat result file",
            AnswerKind::MaxSat => "MaxSAT answer",
            AnswerKind::PseudoBoolean => "pseudo-Boolean answer",
            AnswerKind::Cbc => "CBC solution file",
            AnswerKind::Glpk => "GLPK solution file",
            AnswerKind::Highs => "HiGHS solution file",
            AnswerKind::MiniZinc => "MiniZinc answer",
        }
    }

    /// Which kind of answer `text` is, from its status lines; `None` when it is none of them.
    pub fn detect(text: &str) -> Option<AnswerKind> {
        if mzn::is_answer(text) {
            return Some(AnswerKind::MiniZinc);
        }
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let first = lines.iter().find(|l| !l.is_empty()).copied().unwrap_or("");
        if lines.iter().any(|l| l.starts_with("s mip ")) {
            return Some(AnswerKind::Glpk);
        }
        if lines.contains(&"Model status") {
            return Some(AnswerKind::Highs);
        }
        if first.contains(" - objective value")
            || first.starts_with("Infeasible")
            || first.starts_with("Integer infeasible")
            || first.starts_with("Stopped")
        {
            return Some(AnswerKind::Cbc);
        }
        if matches!(first, "SAT" | "UNSAT" | "INDET") {
            return Some(AnswerKind::MiniSat);
        }
        let status = lines.iter().find_map(|l| l.strip_prefix("s "))?.trim();
        let named = lines
            .iter()
            .filter_map(|l| l.strip_prefix("v "))
            .flat_map(str::split_whitespace)
            .any(|w| w.trim_start_matches(['-', '~']).starts_with('x'));
        Some(if named {
            AnswerKind::PseudoBoolean
        } else if status == "OPTIMUM FOUND" || lines.iter().any(|l| l.starts_with("o ")) {
            AnswerKind::MaxSat
        } else {
            AnswerKind::SatCompetition
        })
    }
}

/// The kinds of file `emit` writes, as told apart before they are read (MiniZinc and
/// FlatZinc are one kind here: [`mzn::read_file`] tells their dialects apart).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EmittedKind {
    /// A MiniZinc or FlatZinc file: its first line is a `%` comment.
    MiniZinc,
    /// An OPB file: it opens with `* #variable=`.
    Opb,
    /// A CPLEX LP file: it opens with a `\` comment or `maximize`.
    Lp,
    /// A DIMACS CNF file: it has a `p cnf ` header.
    Dimacs,
    /// A WCNF file (2022 format): it has `h ` hard clauses.
    Wcnf,
}

impl EmittedKind {
    /// Which kind of emitted file `text` is, from its first line that is not blank or from
    /// its header lines; `None` when it is none of them.
    pub fn detect(text: &str) -> Option<EmittedKind> {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("");
        if first.starts_with('%') {
            Some(EmittedKind::MiniZinc)
        } else if first.starts_with("* #variable=") {
            Some(EmittedKind::Opb)
        } else if first.starts_with('\\') || first.eq_ignore_ascii_case("maximize") {
            Some(EmittedKind::Lp)
        } else if text.lines().any(|l| l.starts_with("p cnf ")) {
            Some(EmittedKind::Dimacs)
        } else if text.lines().any(|l| l.starts_with("h ")) {
            Some(EmittedKind::Wcnf)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_told_apart_by_their_status_lines() {
        let cases = [
            (
                "c hi\ns SATISFIABLE\nv 1 -2 0\n",
                AnswerKind::SatCompetition,
            ),
            ("SAT\n1 -2 0\n", AnswerKind::MiniSat),
            ("o 3\ns OPTIMUM FOUND\nv 1 -2\n", AnswerKind::MaxSat),
            ("s OPTIMUM FOUND\nv 0110\n", AnswerKind::MaxSat),
            ("s OPTIMUM FOUND\nv x1 -x2\n", AnswerKind::PseudoBoolean),
            (
                "Optimal - objective value 8.00000000\n 1 q 1 1\n",
                AnswerKind::Cbc,
            ),
            ("c Problem:\ns mip 2 3 o 2\nj 1 1\n", AnswerKind::Glpk),
            ("Model status\nOptimal\n", AnswerKind::Highs),
        ];
        for (text, kind) in cases {
            assert_eq!(AnswerKind::detect(text), Some(kind), "{text}");
        }
        assert_eq!(AnswerKind::detect("hello\n"), None);
    }

    #[test]
    fn emitted_files_are_told_apart_by_their_opening() {
        let cases = [
            ("% made by puzzlec\nvar 0..1: q;\n", EmittedKind::MiniZinc),
            ("* #variable= 2 #constraint= 1\n", EmittedKind::Opb),
            ("\\ made by puzzlec\nMaximize\n", EmittedKind::Lp),
            ("\n  MAXIMIZE\n obj: q\n", EmittedKind::Lp),
            ("c var 1 q\np cnf 1 1\n1 0\n", EmittedKind::Dimacs),
            ("c var 1 q\nh 1 0\n1 1 0\n", EmittedKind::Wcnf),
        ];
        for (text, kind) in cases {
            assert_eq!(EmittedKind::detect(text), Some(kind), "{text}");
        }
        assert_eq!(EmittedKind::detect("hello\n"), None);
    }
}
