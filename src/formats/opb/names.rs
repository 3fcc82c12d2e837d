//! Variable names and their indices: the names of an OPB file and of the proofs over it,
//! found by the shapes the writers give them rather than by hashing their text.

use rustc_hash::FxHashMap;

/// Variable names and their indices, in the order first seen. Names `x1`, `x2`, ... are
/// found through a table by number, and names of one letter and one or two numbers
/// (`e120_130`, `u12_8`: the proofs' extension variables) by a key packed from those
/// numbers, so that nearly no name is hashed or compared as text.
#[derive(Clone, Debug, Default)]
pub struct VarNames {
    pub(super) names: Vec<Box<str>>,
    /// Each name's first [`PADDED`] bytes, zeros after it: a writer copies a short name as
    /// one block of known size ([`VarNames::push_name_bytes`]).
    pub(super) padded: Vec<[u8; PADDED]>,
    /// Each name's length, or `PADDED + 1` for a longer one: read beside `padded`, it
    /// saves loading the name itself.
    pub(super) short_lengths: Vec<u8>,
    /// `numbered[n]` is 1 + the variable named `xn`, or 0.
    numbered: Vec<u32>,
    /// The variables whose names have a [`name_key`] (other than `xn`), by key.
    keyed: FxHashMap<u64, u32>,
    others: FxHashMap<Box<str>, u32>,
}

/// The length of [`VarNames`]'s padded copies of names.
pub(in crate::formats) const PADDED: usize = 16;

/// The most digits of a number in a name found by number or key: below 2^27.
const MOST_DIGITS: usize = 8;

/// The number written by `digits` (no leading zero, at most [`MOST_DIGITS`]).
fn number(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || digits.len() > MOST_DIGITS || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// The number `n` of a name `xn` (no leading zero), when it is small enough for a table.
pub(super) fn name_number(name: &[u8]) -> Option<usize> {
    match name {
        [b'x', digits @ ..] if digits.first() != Some(&b'0') => {
            number(digits).and_then(|n| usize::try_from(n).ok())
        }
        _ => None,
    }
}

/// A key that only the name `name` has, for a name of one ASCII letter and a number, or
/// one letter, a number, `_` and a number (no leading zeros): the letter, whether there
/// is a second number, and both numbers, packed.
fn name_key(name: &[u8]) -> Option<u64> {
    let (&letter, rest) = name.split_first()?;
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    let (first, second) = match rest.iter().position(|&b| b == b'_') {
        Some(at) => (number(&rest[..at])?, Some(number(&rest[at + 1..])?)),
        None => (number(rest)?, None),
    };
    Some(
        u64::from(letter) << 56
            | u64::from(second.is_some()) << 55
            | first << 27
            | second.unwrap_or(0),
    )
}

impl VarNames {
    /// The names `x1` .. `xn`, as variables 0 .. n-1.
    pub fn numbered(n: usize) -> VarNames {
        let mut names = VarNames::default();
        for i in 1..=n {
            names.intern(&format!("x{i}"));
        }
        names
    }

    /// The variable named `name`, added when new.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(found) = self.find(name) {
            return found;
        }
        let var = self.names.len() as u32;
        self.names.push(name.into());
        let mut padded = [0; PADDED];
        let short = &name.as_bytes()[..name.len().min(PADDED)];
        padded[..short.len()].copy_from_slice(short);
        self.padded.push(padded);
        self.short_lengths.push(name.len().min(PADDED + 1) as u8);
        let bytes = name.as_bytes();
        if let Some(n) = name_number(bytes) {
            if self.numbered.len() <= n {
                self.numbered.resize(n + 1, 0);
            }
            self.numbered[n] = var + 1;
        } else if let Some(key) = name_key(bytes) {
            self.keyed.insert(key, var);
        } else {
            self.others.insert(name.into(), var);
        }
        var
    }

    /// The variable named `name`, if known.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.find_shaped(name.as_bytes())
            .unwrap_or_else(|| self.others.get(name).copied())
    }

    /// The variable named `name` when the name has the shape of `xn` or of a key: `None`
    /// for a name of another shape, `Some(None)` for one of those shapes not known.
    /// Such a name is never a keyword (it has a digit), so a reader may take it for a
    /// literal before asking whether it is a word.
    pub(in crate::formats) fn find_shaped(&self, name: &[u8]) -> Option<Option<u32>> {
        if let Some(n) = name_number(name) {
            return Some(
                self.numbered
                    .get(n)
                    .copied()
                    .filter(|&v| v > 0)
                    .map(|v| v - 1),
            );
        }
        name_key(name).map(|key| self.keyed.get(&key).copied())
    }

    /// The name of variable `var`.
    pub fn name(&self, var: u32) -> &str {
        &self.names[var as usize]
    }

    /// How many variables are known.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no variable is known.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_each_shape_are_found_again_and_never_confused() {
        let written = [
            "x1",
            "x10",
            "x01",
            "x0",
            "e120_130",
            "e12_0130",
            "e1201_30",
            "u12_8",
            "u12_80",
            "e120",
            "E120",
            "e120_",
            "e_120",
            "y99999999",
            "y999999999",
            "t_1",
            "a1_2_3",
        ];
        let mut names = VarNames::default();
        let vars: Vec<u32> = written.iter().map(|n| names.intern(n)).collect();
        assert_eq!(vars, (0..written.len() as u32).collect::<Vec<_>>());
        for (name, var) in written.iter().zip(&vars) {
            assert_eq!(names.find(name), Some(*var), "{name}");
            assert_eq!(names.intern(name), *var, "{name}");
            assert_eq!(names.name(*var), *name);
        }
        assert_eq!(names.find("e130_120"), None);
        assert_eq!(names.find("x2"), None);
        assert_eq!(names.find_shaped(b"e120_130"), Some(Some(4)));
        assert_eq!(names.find_shaped(b"e7_7"), Some(None));
        assert_eq!(names.find_shaped(b"x01"), None);
        assert_eq!(names.find_shaped(b"pol"), None);
    }

    #[test]
    fn a_key_is_the_name_packed() {
        assert_eq!(
            name_key(b"e1_2"),
            Some(u64::from(b'e') << 56 | 1 << 55 | 1 << 27 | 2)
        );
        assert_eq!(name_key(b"e1"), Some(u64::from(b'e') << 56 | 1 << 27));
        assert_eq!(name_key(b"e01"), None);
        assert_eq!(name_key(b"e1_02"), None);
        assert_eq!(name_key(b"1e"), None);
        assert_eq!(name_key(b"e999999999"), None);
    }
}
