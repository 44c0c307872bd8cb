//! The memory of a game: every situation it has been in, found again by hash, and enough to
//! rebuild any earlier position exactly, so that a repetition is confirmed by comparing boards
//! and never taken on the hash's word.
//!
//! Two parts, both reused from game to game so that a replay allocates nothing per move:
//! - the situations left behind, in the order they were left (`filed`), each with what a
//!   repetition needs to know of it (its key, where in the log its position is, when it arose,
//!   how often it had occurred, who was to move), and a hash set over them by chaining: a small
//!   table of buckets (`newest`, 4 bytes each) names the newest situation filed under a key of
//!   each bucket, and every situation names the one filed before it in its bucket. Filing is an
//!   append and one write to the table, and a look-up for a new situation, nearly every move's,
//!   usually reads one word of a table that stays in the L1 cache (an open-addressing set of
//!   whole situations, 32 KB, missed it about once a move); one with more stones than any in
//!   the set, as after most moves, needs no look-up at all. Situations are numbered for good,
//!   across games: those numbered below `first_live` are out of the set, so that forgetting
//!   them all, as the simple-ko rule's cycle detection needs at every pass, and starting a new
//!   game are O(1);
//! - `log` and snapshots: every change to the stones (setup and executed moves) in order, plus
//!   the position (a byte a point) after every [`CHECKPOINT_EVERY`] changes, so that
//!   rebuilding an earlier position is one snapshot and at most 127 replayed changes. The
//!   snapshots are taken when a repetition first needs them, by replaying the log once:
//!   repetitions are rare, and most games never pay for a snapshot.

use super::board::Board;
use super::point::{BoardSize, Color};

/// How many logged changes separate two packed snapshots of the position.
const CHECKPOINT_EVERY: usize = 128;

/// The number of buckets a new history starts with: enough for a long game at one situation a
/// bucket or fewer (the table doubles beyond that).
const FIRST_BUCKETS: usize = 1024;

/// A situation the game has left behind, as the history keeps it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Situation {
    /// Its key: the position's hash, with the player to move where the ko rule says so.
    pub key: u64,
    /// Number of logged changes that produce its position.
    pub log_len: u32,
    /// The number of moves played when the situation arose (0: at the start or after setup).
    pub move_number: u32,
    /// How many times the situation had occurred, this one included, since the set was last
    /// emptied.
    pub count: u32,
    /// The player to move.
    pub to_move: Color,
}

/// One change to the stones, as the log keeps it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change {
    /// A setup property put a stone on (or cleared) a location.
    Set { loc: u16, stone: Option<Color> },
    /// A move executed with SGF's effects ([`Board::play_forced_loc`]).
    Play { loc: u16, color: Color },
}

/// A filed situation and the number of the one filed before it in its bucket (below
/// `first_live` when there is none in the set).
#[derive(Clone, Copy, Debug)]
struct Filed {
    situation: Situation,
    older: u32,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct History {
    /// The situations filed since the game began, oldest first; the first is number `base`.
    filed: Vec<Filed>,
    /// The number of the first situation in `filed`.
    base: u32,
    /// The number of the first situation in the set: the ones before were forgotten.
    first_live: u32,
    /// Per bucket (a key's low bits), the number of the newest situation filed under it, or
    /// anything below `first_live` when none is in the set.
    newest: Buckets,
    /// The number whose filing doubles the table: `first_live` plus the number of buckets, so
    /// that the set never holds more situations than there are buckets.
    grow_at: u32,
    /// The most stones of any situation in the set (0 when it is empty).
    most_stones: u16,
    log: Vec<Change>,
    /// The position after every [`CHECKPOINT_EVERY`] changes, one colour code per point, for
    /// the first `snapshots.len() / area` checkpoints (see [`History::rebuild`]).
    snapshots: Vec<u8>,
}

/// The table of buckets, indexed by a key (its low bits): the buckets and the mask, which is
/// always their number minus one, that number a power of two. Indexed without a bounds check,
/// since a masked key is below the length: filing reads and writes the table at every move.
/// Dropping those two checks, testing growth against `grow_at` and keeping the stone count out
/// of [`Situation`] saved about 4 instructions a move together (callgrind on the bench's
/// professional games).
#[derive(Clone, Debug)]
struct Buckets(Vec<u32>, usize);

impl Buckets {
    /// `len` zeroed buckets; `len` is a power of two.
    fn new(len: usize) -> Buckets {
        assert!(len.is_power_of_two());
        Buckets(vec![0; len], len - 1)
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

impl std::ops::Index<u64> for Buckets {
    type Output = u32;

    #[inline(always)]
    fn index(&self, key: u64) -> &u32 {
        let bucket = key as usize & self.1;
        debug_assert!(bucket < self.0.len());
        // SAFETY: `self.1` is the length minus one, and the length a power of two.
        unsafe { self.0.get_unchecked(bucket) }
    }
}

impl std::ops::IndexMut<u64> for Buckets {
    #[inline(always)]
    fn index_mut(&mut self, key: u64) -> &mut u32 {
        let bucket = key as usize & self.1;
        debug_assert!(bucket < self.0.len());
        // SAFETY: as for `Index`.
        unsafe { self.0.get_unchecked_mut(bucket) }
    }
}

impl History {
    /// An empty history with room for a long game.
    pub fn new() -> History {
        History {
            filed: Vec::new(),
            // Number 0 is never given, so the zeroed table names no situation.
            base: 1,
            first_live: 1,
            newest: Buckets::new(FIRST_BUCKETS),
            grow_at: 1 + FIRST_BUCKETS as u32,
            most_stones: 0,
            log: Vec::new(),
            snapshots: Vec::new(),
        }
    }

    /// Forgets everything, for a new game.
    pub fn clear(&mut self) {
        self.log.clear();
        self.snapshots.clear();
        self.base = self.next_number();
        self.filed.clear();
        if self.base > u32::MAX / 2 {
            // Once every two billion situations: really empty the table, numbering afresh.
            self.newest.0.fill(0);
            self.base = 1;
        }
        self.first_live = self.base;
        self.grow_at = self.first_live + self.newest.len() as u32;
        self.most_stones = 0;
    }

    /// Empties the set of situations (the log stays, for rebuilding). The situations filed
    /// before stay readable by number ([`History::situation`]) until the next game.
    pub fn forget_situations(&mut self) {
        self.first_live = self.next_number();
        self.grow_at = self.first_live + self.newest.len() as u32;
        self.most_stones = 0;
    }

    /// The number the next situation filed will have.
    #[inline(always)]
    fn next_number(&self) -> u32 {
        self.base + self.filed.len() as u32
    }

    /// Number of changes logged so far.
    #[inline(always)]
    pub fn log_len(&self) -> u32 {
        self.log.len() as u32
    }

    /// Whether any situation is filed under `key` (the fast test before
    /// [`History::candidates`]).
    #[inline(always)]
    pub fn contains_key(&self, key: u64) -> bool {
        self.candidates(key).next().is_some()
    }

    /// [`History::contains_key`] for a situation with `stones` stones on the board, answered
    /// without a look-up when no situation in the set has as many: an equal one would. A move
    /// that captures nothing adds a stone, so this is most moves of a game, all of them until
    /// the first capture.
    #[inline(always)]
    pub fn may_contain(&self, key: u64, stones: u16) -> bool {
        stones <= self.most_stones && self.contains_key(key)
    }

    /// The numbers of the situations filed under `key`, newest first: the same situation
    /// comes back once for each time it was left, and different ones when they share a key.
    #[inline(always)]
    pub fn candidates(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let mut number = self.newest[key];
        std::iter::from_fn(move || {
            while number >= self.first_live {
                let filed = &self.filed[(number - self.base) as usize];
                let found = number;
                number = filed.older;
                if filed.situation.key == key {
                    return Some(found);
                }
            }
            None
        })
    }

    /// The situation with a number that [`History::candidates`] or a filing returned in this
    /// game.
    #[inline]
    pub fn situation(&self, number: u32) -> Situation {
        self.filed[(number - self.base) as usize].situation
    }

    /// Files `situation`, which has `stones` stones on the board, in the set. Returns its
    /// number.
    #[inline(always)]
    pub fn file(&mut self, situation: Situation, stones: u16) -> u32 {
        let number = self.next_number();
        let key = situation.key;
        self.filed.push(Filed { situation, older: self.newest[key] });
        self.newest[key] = number;
        self.most_stones = self.most_stones.max(stones);
        if number >= self.grow_at {
            self.grow();
        }
        number
    }

    /// Doubles the table and files the situations in the set again, oldest first.
    #[cold]
    fn grow(&mut self) {
        self.newest = Buckets::new(self.newest.len() * 2);
        self.grow_at = self.first_live + self.newest.len() as u32;
        let first = (self.first_live - self.base) as usize;
        for index in first..self.filed.len() {
            let key = self.filed[index].situation.key;
            self.filed[index].older = self.newest[key];
            self.newest[key] = self.base + index as u32;
        }
    }

    /// Logs a change that has just been made to the stones.
    #[inline(always)]
    pub fn log(&mut self, change: Change) {
        self.log.push(change);
    }

    /// Rebuilds into `out` the stones after the first `log_len` changes, from the last
    /// snapshot taken before them (see [`History::take_snapshots`]).
    pub fn rebuild(&self, log_len: u32, size: BoardSize, out: &mut Board) {
        out.reset(size);
        let area = size.area();
        let checkpoint = (log_len as usize / CHECKPOINT_EVERY).min(self.snapshots.len() / area);
        if checkpoint > 0 {
            let start = (checkpoint - 1) * area;
            out.load_codes(self.snapshots[start..start + area].iter().copied());
        }
        self.replay(checkpoint * CHECKPOINT_EVERY..log_len as usize, out);
    }

    /// Brings the snapshots up to the last checkpoint of the log, replaying on `scratch` (left
    /// in any state) the changes since the last one taken: every change is replayed for this
    /// at most once a game. Called before rebuilding, so that a rebuild replays at most
    /// [`CHECKPOINT_EVERY`] - 1 changes.
    pub fn take_snapshots(&mut self, size: BoardSize, scratch: &mut Board) {
        let area = size.area();
        let taken = self.snapshots.len() / area;
        let due = self.log.len() / CHECKPOINT_EVERY;
        if taken == due {
            return;
        }
        self.rebuild((taken * CHECKPOINT_EVERY) as u32, size, scratch);
        for checkpoint in taken..due {
            let start = checkpoint * CHECKPOINT_EVERY;
            self.replay(start..start + CHECKPOINT_EVERY, scratch);
            scratch.append_codes(&mut self.snapshots);
        }
    }

    /// Replays the logged changes in `range` on `board`.
    fn replay(&self, range: std::ops::Range<usize>, board: &mut Board) {
        for &change in &self.log[range] {
            match change {
                Change::Set { loc, stone } => {
                    board.set_stone_loc(loc, stone);
                }
                Change::Play { loc, color } => {
                    board.play_forced_loc(color, loc);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::point::Point;

    #[test]
    fn every_logged_position_rebuilds_exactly() {
        for (w, h) in [(19, 19), (7, 5), (2, 2), (3, 1)] {
            let size = BoardSize::new(w, h).unwrap();
            let mut board = Board::new(size);
            let mut history = History::new();
            history.clear();
            let mut positions = vec![board.clone()];
            let mut state = 12_345u64;
            let mut out = Board::new(BoardSize::STANDARD);
            for i in 0..500 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let point = Point::new((state >> 33) as u8 % w, (state >> 41) as u8 % h);
                let loc = board.loc(point).unwrap();
                let color = if state >> 60 & 1 == 0 { Color::Black } else { Color::White };
                let change = if i % 7 == 0 {
                    let stone = [None, Some(color)][(state >> 50) as usize & 1];
                    board.set_stone_loc(loc, stone);
                    Change::Set { loc, stone }
                } else {
                    board.play_forced_loc(color, loc);
                    Change::Play { loc, color }
                };
                history.log(change);
                positions.push(board.clone());
                if i == 300 {
                    // Snapshots taken in the middle of the game; later ones extend them, and
                    // the rebuilds in between replay from the last one taken.
                    history.take_snapshots(size, &mut out);
                }
            }
            for (n, want) in positions.iter().enumerate() {
                if n == 450 {
                    history.take_snapshots(size, &mut out);
                }
                history.rebuild(n as u32, size, &mut out);
                assert!(out.same_stones(want), "{size}: after {n} changes\n{out}\n{want}");
                if n % 10 == 0 {
                    out.check_consistency().unwrap();
                }
            }
        }
    }

    fn situation(key: u64, move_number: u32) -> Situation {
        Situation { key, log_len: move_number, move_number, count: 1, to_move: Color::Black }
    }

    /// The stones of the situations filed by the test: any number, fixed by the key.
    fn stones(key: u64) -> u16 {
        (key % 7) as u16
    }

    #[test]
    fn the_set_finds_its_situations_and_forgets_them_at_once() {
        let mut history = History::new();
        history.clear();
        // Keys chosen to share their low bits by 1,500s, so that chains run through each
        // other; 3,000 situations make the table grow twice.
        let key = |e: u32| u64::from(e % 1500) << 20 | u64::from(e % 3);
        for e in 0..3000u32 {
            let number = history.file(situation(key(e), e), stones(key(e)));
            assert_eq!(history.situation(number).move_number, e, "a filing names its number");
        }
        let found: Vec<u32> =
            history.candidates(key(7)).map(|s| history.situation(s).move_number).collect();
        assert_eq!(found, [1507, 7], "newest first");
        // The same situation filed again comes back first, the earlier occurrence after it.
        history.file(situation(key(7), 4000), stones(key(7)));
        let found: Vec<u32> =
            history.candidates(key(7)).map(|s| history.situation(s).move_number).collect();
        assert_eq!(found, [4000, 1507, 7]);
        assert!(history.contains_key(key(7)) && !history.contains_key(1 << 60));
        let left = history.file(situation(1 << 60, 5000), stones(1 << 60));
        assert!(history.contains_key(1 << 60));
        history.forget_situations();
        assert_eq!(history.candidates(key(7)).count(), 0);
        assert!(!history.contains_key(1 << 60));
        assert_eq!(history.situation(left).move_number, 5000, "readable until the next game");
        // Filed after forgetting: found, the forgotten ones with the same key not.
        history.file(situation(key(7), 6000), stones(key(7)));
        let found: Vec<u32> =
            history.candidates(key(7)).map(|s| history.situation(s).move_number).collect();
        assert_eq!(found, [6000]);
        // The set now holds one situation: with more stones than it has, nothing can be equal
        // to it, whatever the key; with as many or fewer, the key decides.
        let held = stones(key(7));
        assert!(history.may_contain(key(7), held) && !history.may_contain(key(7), held + 1));
        assert!(!history.may_contain(key(8), 0));
        // A new game sees nothing of the last one, however the numbers fall: numbered on, or
        // afresh from 1 once the numbers pass half their range.
        for far_on in [false, true] {
            history.clear();
            if far_on {
                history.base = u32::MAX / 2;
                history.first_live = history.base;
                history.grow_at = history.first_live + history.newest.len() as u32;
            }
            history.file(situation(key(8), 1), stones(key(8)));
            history.clear();
            assert_eq!(history.base == 1, far_on);
            assert!(!history.contains_key(key(8)) && !history.contains_key(key(7)));
            history.file(situation(key(9), 2), stones(key(9)));
            assert_eq!(history.candidates(key(9)).count(), 1);
        }
    }
}
