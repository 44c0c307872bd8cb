//! The memory of a game: every situation it has been in, found again by hash in a fast set, and
//! enough to rebuild any earlier position exactly, so that a repetition is confirmed by
//! comparing boards and never taken on the hash's word.
//!
//! Two parts, both reused from game to game so that a replay allocates nothing per move:
//! - `slots`: an open-addressing hash set (linear probing, power-of-two size) of the situations
//!   left behind, each under its key with what a repetition needs to know of it (where in the
//!   log its position is, when it arose, how often it had occurred, who was to move). A
//!   situation that recurs takes the slot of its earlier occurrence, so each is there once. A
//!   generation number empties the set in O(1), as the simple-ko rule's cycle detection needs
//!   at every pass;
//! - `log` and snapshots: every change to the stones (setup and executed moves) in order, plus
//!   the position (a byte a point) after every [`CHECKPOINT_EVERY`] changes, so that
//!   rebuilding an earlier position is one snapshot and at most 127 replayed changes. The
//!   snapshots are taken when a repetition first needs them, by replaying the log once:
//!   repetitions are rare, and most games never pay for a snapshot.

use super::board::Board;
use super::point::{BoardSize, Color};

/// How many logged changes separate two packed snapshots of the position.
const CHECKPOINT_EVERY: usize = 128;

/// A situation the game has left behind, as the set keeps it.
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

/// One place of the set: a situation, live when its generation is the set's.
#[derive(Clone, Copy, Debug)]
struct Slot {
    generation: u32,
    situation: Situation,
}

const FREE: Slot = Slot {
    generation: 0,
    situation: Situation { key: 0, log_len: 0, move_number: 0, count: 0, to_move: Color::Black },
};

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct History {
    slots: Vec<Slot>,
    live: usize,
    generation: u32,
    log: Vec<Change>,
    /// The position after every [`CHECKPOINT_EVERY`] changes, one colour code per point, for
    /// the first `snapshots.len() / area` checkpoints (see [`History::rebuild`]).
    snapshots: Vec<u8>,
}

impl History {
    /// An empty history with room for a long game.
    pub fn new() -> History {
        History {
            slots: vec![FREE; 1024],
            live: 0,
            generation: 1,
            log: Vec::new(),
            snapshots: Vec::new(),
        }
    }

    /// Forgets everything, for a new game.
    pub fn clear(&mut self) {
        self.log.clear();
        self.snapshots.clear();
        self.forget_situations();
    }

    /// Empties the set of situations (the log stays, for rebuilding). Every free slot a probe
    /// returned before is stale after this.
    pub fn forget_situations(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once every 4 billion games: really empty the slots.
            self.slots.fill(FREE);
            self.generation = 1;
        }
        self.live = 0;
    }

    /// Number of changes logged so far.
    #[inline]
    pub fn log_len(&self) -> u32 {
        self.log.len() as u32
    }

    /// Whether any situation is filed under `key` (the fast test before
    /// [`History::candidates`]).
    #[inline]
    pub fn contains_key(&self, key: u64) -> bool {
        self.probe(key).is_err()
    }

    /// Looks `key` up: `Err(())` when a situation is filed under it (see
    /// [`History::candidates`]), else the free slot a situation with that key would take.
    /// The slot stays right for [`History::file_at`] until the set next changes.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Result<u32, ()> {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            // The length is a power of two, so `i` is always inside.
            let slot = &self.slots[i];
            if slot.generation != self.generation {
                return Ok(i as u32);
            }
            if slot.situation.key == key {
                return Err(());
            }
            i = (i + 1) & mask;
        }
    }

    /// The slots of the situations filed under `key`, oldest first. A situation is there once;
    /// several come back only when different situations share a key.
    pub fn candidates(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        std::iter::from_fn(move || {
            loop {
                let slot = &self.slots[i];
                if slot.generation != self.generation {
                    return None;
                }
                let found = i as u32;
                i = (i + 1) & mask;
                if slot.situation.key == key {
                    return Some(found);
                }
            }
        })
    }

    /// The situation in a slot that [`History::candidates`] or a filing returned, valid until
    /// the set next changes.
    #[inline]
    pub fn situation(&self, slot: u32) -> Situation {
        self.slots[slot as usize].situation
    }

    /// Files `situation` in the free slot that [`History::probe`] returned for its key, with
    /// no change to the set since. Returns its slot.
    #[inline(always)]
    pub fn file_at(&mut self, slot: u32, situation: Situation) -> u32 {
        debug_assert_eq!(self.first_free(situation.key), slot, "a stale free slot");
        self.slots[slot as usize] = Slot { generation: self.generation, situation };
        self.live += 1;
        if self.live * 2 > self.slots.len() {
            return self.grow(slot);
        }
        slot
    }

    /// Files `situation` in a free slot found now. Returns its slot.
    pub fn file(&mut self, situation: Situation) -> u32 {
        self.file_at(self.first_free(situation.key), situation)
    }

    /// The slot a situation under `key` would be filed in now: the first free one from the
    /// key's own.
    fn first_free(&self, key: u64) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        while self.slots[i].generation == self.generation {
            i = (i + 1) & mask;
        }
        i as u32
    }

    /// Files `situation` in place of the earlier occurrence of the same situation in `slot`.
    pub fn replace(&mut self, slot: u32, situation: Situation) -> u32 {
        let place = &mut self.slots[slot as usize];
        debug_assert!(place.generation == self.generation && place.situation.key == situation.key);
        place.situation = situation;
        slot
    }

    /// Doubles the set; returns where the situation that was in `slot` went.
    #[cold]
    fn grow(&mut self, slot: u32) -> u32 {
        let doubled = vec![FREE; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        let mut moved_to = 0;
        for (from, slot_now) in old.into_iter().enumerate() {
            if slot_now.generation != self.generation {
                continue;
            }
            let mut i = slot_now.situation.key as usize & mask;
            while self.slots[i].generation == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot_now;
            if from == slot as usize {
                moved_to = i as u32;
            }
        }
        moved_to
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

    #[test]
    fn the_set_finds_its_situations_and_forgets_them_at_once() {
        let mut history = History::new();
        history.clear();
        // Keys chosen to collide in the low bits, so that probing runs over each other; 3,000
        // situations make the set grow twice.
        for e in 0..3000u32 {
            let slot = history.file(situation(u64::from(e % 1500) << 20, e));
            assert_eq!(history.situation(slot).move_number, e, "a filing names its slot");
        }
        let found: Vec<u32> =
            history.candidates(7 << 20).map(|s| history.situation(s).move_number).collect();
        assert_eq!(found, [7, 1507]);
        let slot = history.candidates(7 << 20).nth(1).unwrap();
        assert_eq!(history.replace(slot, situation(7 << 20, 4000)), slot);
        let found: Vec<u32> =
            history.candidates(7 << 20).map(|s| history.situation(s).move_number).collect();
        assert_eq!(found, [7, 4000]);
        assert_eq!(history.probe(7 << 20), Err(()));
        let free = history.probe(1 << 60).unwrap();
        assert_eq!(history.file_at(free, situation(1 << 60, 5000)), free);
        history.forget_situations();
        assert_eq!(history.candidates(7 << 20).count(), 0);
        assert!(history.probe(7 << 20).is_ok());
    }
}
