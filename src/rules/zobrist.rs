//! Zobrist keys: one random 64-bit number per (colour, board location), plus one for "White to
//! move", from which the board keeps an incremental hash of its position.
//!
//! The keys are produced by splitmix64 from a fixed seed at compile time, so they are the same
//! in every run and every build, need no initialisation call, and cover the padded location of
//! every point on every board size up to 52x52 (see [`super::board`] for the layout). Two boards
//! of the same size holding the same stones have the same hash; hashes of boards of different
//! widths are not comparable, because the padded layout depends on the width.
//!
//! 64 bits are enough within one game: with n positions the chance of any collision is about
//! n² / 2⁶⁵ (10⁻¹³ for a 1,000-move game). kifu never trusts a hash alone anyway: every
//! repetition it reports is confirmed by comparing the positions themselves.

/// Number of padded locations on the largest board (52x52): `(52 + 1) * (52 + 2)`.
pub const MAX_LOCATIONS: usize = (52 + 1) * (52 + 2);

/// The key table's length per colour: a power of two above [`MAX_LOCATIONS`], so that a
/// location masked with `TABLE - 1` indexes it without a bounds check.
const TABLE: usize = 4096;
const _: () = assert!(TABLE >= MAX_LOCATIONS && TABLE.is_power_of_two());

/// The seed of the key generator. Changing it changes every hash kifu computes.
const SEED: u64 = 0x6b69_6675_2d7a_6f62; // "kifu-zob"

/// One step of splitmix64 (Steele, Lea and Flood 2014): advances `state` and returns the next
/// output. Good enough statistically for Zobrist keys and trivially reproducible.
const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The keys, built at compile time: `[colour index][location]`, then the player key.
struct Keys {
    stones: [[u64; TABLE]; 2],
    white_to_move: u64,
}

const fn build_keys() -> Keys {
    let mut state = SEED;
    let mut stones = [[0u64; TABLE]; 2];
    let mut color = 0;
    while color < 2 {
        let mut loc = 0;
        while loc < MAX_LOCATIONS {
            stones[color][loc] = splitmix64(&mut state);
            loc += 1;
        }
        color += 1;
    }
    let white_to_move = splitmix64(&mut state);
    Keys { stones, white_to_move }
}

static KEYS: Keys = build_keys();

/// The key of a stone of colour `color_index` (0 Black, 1 White) at padded location `loc`
/// (below [`MAX_LOCATIONS`]).
#[inline(always)]
pub fn stone_key(color_index: usize, loc: usize) -> u64 {
    KEYS.stones[color_index & 1][loc & (TABLE - 1)]
}

/// The key XORed into a situation's hash when White is to move (Black to move adds nothing).
#[inline]
pub fn white_to_move_key() -> u64 {
    KEYS.white_to_move
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_fixed_and_distinct() {
        // The first output of splitmix64 from this seed: a change here changes every hash.
        let mut state = SEED;
        assert_eq!(stone_key(0, 0), splitmix64(&mut state));
        let mut all: Vec<u64> = (0..MAX_LOCATIONS)
            .flat_map(|l| [stone_key(0, l), stone_key(1, l)])
            .chain([white_to_move_key()])
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * MAX_LOCATIONS + 1);
        assert!(all.iter().all(|&k| k != 0));
    }
}
