//! A small seeded generator (SplitMix64), so that probes and local search repeat exactly.

/// SplitMix64 from a seed.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    /// A number below `n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((u128::from(z) * n as u128) >> 64) as usize
    }
}
