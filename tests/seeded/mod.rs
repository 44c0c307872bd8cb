//! The fixed pseudo-random generator of the seeded stress tests and benchmarks: splitmix64,
//! tiny and the same on every machine, so that every run plays the same games.

#![allow(dead_code)] // each user takes what it needs

/// splitmix64 (Steele, Lea and Flood): one 64-bit state, one add and two multiplies a draw.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (slightly biased for huge `n`, which the tests never use).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}
