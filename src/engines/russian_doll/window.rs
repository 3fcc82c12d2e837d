//! The search's occupancy window: a bitset of the cells from the scan cell on.

/// A window of cells relative to the scan cell (bit 0 is the scan cell), as a bitset.
///
/// Implemented for `u64`, `u128` and [`Wide`]; the engine is generic over it and picks the
/// smallest that holds a placement's reach.
pub trait Window: Copy + Send + Sync + 'static {
    /// Bits held.
    const BITS: usize;
    /// No bit set.
    fn empty() -> Self;
    /// `self` with `bit` set.
    fn with(self, bit: usize) -> Self;
    /// Whether `self` and `other` share a bit.
    fn overlaps(self, other: Self) -> bool;
    /// Bits in either.
    fn union(self, other: Self) -> Self;
    /// Shifted towards bit 0 by `n` (bits below `n` are dropped; `n` may reach `BITS`).
    fn shr(self, n: u32) -> Self;
    /// Number of set bits from bit 0 up to the first clear one.
    fn trailing_ones(self) -> u32;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// The window as 128 bits, or `None` if it has a bit beyond them (memo keys).
    fn key(self) -> Option<(u64, u64)>;
    /// The sum of `weights[i]` over the set bits `i` (`weights` reaches past the highest).
    fn weigh(self, weights: &[u32]) -> u64;
}

/// The sum of `weights[offset + i]` over the set bits `i` of `word`.
#[inline(always)]
fn weigh_word(mut word: u64, weights: &[u32], offset: usize) -> u64 {
    let mut sum = 0;
    while word != 0 {
        sum += u64::from(weights[offset + word.trailing_zeros() as usize]);
        word &= word - 1;
    }
    sum
}

/// [`Window`] for a primitive unsigned integer of `$bits` bits; `$key` turns a window `w`
/// into the memo key.
macro_rules! primitive_window {
    ($int:ty, $bits:expr, |$w:ident| $key:expr) => {
        impl Window for $int {
            const BITS: usize = $bits;
            #[inline(always)]
            fn empty() -> Self {
                0
            }
            #[inline(always)]
            fn with(self, bit: usize) -> Self {
                self | 1 << bit
            }
            #[inline(always)]
            fn overlaps(self, other: Self) -> bool {
                self & other != 0
            }
            #[inline(always)]
            fn union(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline(always)]
            fn trailing_ones(self) -> u32 {
                <$int>::trailing_ones(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$int>::count_ones(self)
            }
            #[inline(always)]
            fn key(self) -> Option<(u64, u64)> {
                let $w = self;
                Some($key)
            }
            #[inline(always)]
            fn weigh(self, weights: &[u32]) -> u64 {
                (0..$bits / 64)
                    .map(|k| weigh_word((self >> (64 * k)) as u64, weights, 64 * k))
                    .sum()
            }
        }
    };
}

primitive_window!(u64, 64, |w| (w, 0));
primitive_window!(u128, 128, |w| (w as u64, (w >> 64) as u64));

/// A window of `K` 64-bit words, word 0 lowest, for placements reaching past 128 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const K: usize>(pub [u64; K]);

impl<const K: usize> Window for Wide<K> {
    const BITS: usize = 64 * K;
    #[inline(always)]
    fn empty() -> Self {
        Wide([0; K])
    }
    #[inline(always)]
    fn with(mut self, bit: usize) -> Self {
        self.0[bit / 64] |= 1 << (bit % 64);
        self
    }
    #[inline(always)]
    fn overlaps(self, other: Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
    #[inline(always)]
    fn union(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
        self
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; K];
        for (i, o) in out.iter_mut().enumerate() {
            let lo = self.0.get(i + words).copied().unwrap_or(0);
            let hi = self.0.get(i + words + 1).copied().unwrap_or(0);
            *o = if bits == 0 {
                lo
            } else {
                lo >> bits | hi << (64 - bits)
            };
        }
        Wide(out)
    }
    #[inline(always)]
    fn trailing_ones(self) -> u32 {
        let mut n = 0;
        for w in self.0 {
            let t = w.trailing_ones();
            n += t;
            if t < 64 {
                break;
            }
        }
        n
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn weigh(self, weights: &[u32]) -> u64 {
        self.0
            .iter()
            .enumerate()
            .map(|(k, &word)| weigh_word(word, weights, 64 * k))
            .sum()
    }
    fn key(self) -> Option<(u64, u64)> {
        if self.0.iter().skip(2).any(|&w| w != 0) {
            return None;
        }
        Some((
            self.0.first().copied().unwrap_or(0),
            self.0.get(1).copied().unwrap_or(0),
        ))
    }
}
