//! The board as one bitset in scan order ([`Board`]: `u64`, `u128` or [`Wide`] words), and
//! the macro that picks the smallest that holds a board.

use crate::engines::russian_doll::{Wide, Window};

/// A whole board as a bitset in scan order: the [`Window`] operations and those the flood
/// fill needs. Implemented for `u64`, `u128` and [`Wide`].
pub trait Board: Window + PartialEq {
    /// Bits in both.
    fn and(self, other: Self) -> Self;
    /// Bits of `self` not in `other`.
    fn without(self, other: Self) -> Self;
    /// Shifted away from bit 0 by `n` (bits pushed past `BITS` are dropped).
    fn shl(self, n: u32) -> Self;
    /// Number of bits set.
    fn count(self) -> u32;
    /// The lowest bit set, alone (empty if none).
    fn lowest(self) -> Self;
    /// Whether no bit is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::empty()
    }
}

macro_rules! primitive_board {
    ($t:ty) => {
        impl Board for $t {
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn without(self, other: Self) -> Self {
                self & !other
            }
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
        }
    };
}
primitive_board!(u64);
primitive_board!(u128);

impl<const K: usize> Board for Wide<K> {
    #[inline(always)]
    fn and(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
        self
    }
    #[inline(always)]
    fn without(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
        self
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; K];
        for (i, o) in out.iter_mut().enumerate().skip(words) {
            let lo = self.0[i - words];
            let below = if i > words { self.0[i - words - 1] } else { 0 };
            *o = if bits == 0 {
                lo
            } else {
                lo << bits | below >> (64 - bits)
            };
        }
        Wide(out)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> Self {
        let mut out = [0u64; K];
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            out[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        Wide(out)
    }
}

/// Most cells a bitboard search handles (16 words).
pub const MAX_BOARD_CELLS: usize = 1024;

/// Calls `$run::<B>($args)` with `B` the smallest [`Board`] of at least `$words` words
/// (`$words` at most 16).
macro_rules! with_board {
    ($words:expr, $run:ident($($arg:expr),*)) => {
        match $words {
            0 | 1 => $run::<u64>($($arg),*),
            2 => $run::<u128>($($arg),*),
            3 => $run::<Wide<3>>($($arg),*),
            4 => $run::<Wide<4>>($($arg),*),
            5 => $run::<Wide<5>>($($arg),*),
            6 => $run::<Wide<6>>($($arg),*),
            7 => $run::<Wide<7>>($($arg),*),
            8 => $run::<Wide<8>>($($arg),*),
            9 => $run::<Wide<9>>($($arg),*),
            10 => $run::<Wide<10>>($($arg),*),
            11 => $run::<Wide<11>>($($arg),*),
            12 => $run::<Wide<12>>($($arg),*),
            13 => $run::<Wide<13>>($($arg),*),
            14 => $run::<Wide<14>>($($arg),*),
            15 => $run::<Wide<15>>($($arg),*),
            _ => $run::<Wide<16>>($($arg),*),
        }
    };
}

/// Words of the board a search uses: the fewest that hold the board, or `at_least`.
pub(super) fn board_words(cells: usize, at_least: usize) -> usize {
    cells.div_ceil(64).max(at_least).max(1)
}
