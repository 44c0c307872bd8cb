//! The memory of a game: every situation it has been in, found again by hash in a fast set, and
//! enough to rebuild any earlier position exactly, so that a repetition is confirmed by
//! comparing boards and never taken on the hash's word.
//!
//! Three parts, all reused from game to game so that a replay allocates nothing per move:
//! - `entries`: one per situation left behind (position, player to move, when, how often);
//! - `slots`: an open-addressing hash set (linear probing, power-of-two size) from situation
//!   key to the most recent entry with that key. A generation number empties it in O(1), as
//!   the simple-ko rule's cycle detection needs at every pass;
//! - `log` and snapshots: every change to the stones (setup and executed moves) in order, plus
//!   the position (a byte a point) every [`CHECKPOINT_EVERY`] changes. Rebuilding the position
//!   of an entry is one snapshot and at most 127 replayed changes.

use super::board::Board;
use super::point::{BoardSize, Color};

/// How many logged changes separate two packed snapshots of the position.
const CHECKPOINT_EVERY: usize = 128;

/// A situation the game has left behind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Number of logged changes that produce its position.
    pub log_len: u32,
    /// The number of moves played when the situation arose (0: at the start or after setup).
    pub move_number: u32,
    /// How many times the situation had occurred, this one included, since then.
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

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    generation: u32,
    entry: u32,
}

/// Where a probe for a key found no entry: the free slot an insert of that key would take,
/// valid while the set is unchanged (`stamp`). A game probes for the situation a move creates
/// and files it when the next move leaves it, so remembering the slot saves the second probe.
/// An insert checks both the key and the stamp, so a stale vacancy only costs the probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Vacancy {
    key: u64,
    slot: u32,
    stamp: u32,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct History {
    pub entries: Vec<Entry>,
    slots: Vec<Slot>,
    live: usize,
    generation: u32,
    /// Changes whenever the set does (an insert, a growth, forgetting), so that a [`Vacancy`]
    /// from before is known to be stale.
    stamp: u32,
    log: Vec<Change>,
    /// The position every [`CHECKPOINT_EVERY`] changes, one colour code per point.
    snapshots: Vec<u8>,
}

impl History {
    /// An empty history with room for a long game.
    pub fn new() -> History {
        History {
            entries: Vec::new(),
            slots: vec![Slot::default(); 1024],
            live: 0,
            generation: 1,
            stamp: 0,
            log: Vec::new(),
            snapshots: Vec::new(),
        }
    }

    /// Forgets everything, for a new game.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.log.clear();
        self.snapshots.clear();
        self.forget_situations();
    }

    /// Empties the set of situations (the entries and the log stay, for rebuilding).
    pub fn forget_situations(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once every 4 billion games: really empty the slots.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
        self.live = 0;
        self.stamp = self.stamp.wrapping_add(1);
    }

    /// Number of changes logged so far.
    pub fn log_len(&self) -> u32 {
        self.log.len() as u32
    }

    /// Whether any entry is filed under `key` in the current set (the fast test before
    /// [`History::candidates`]).
    #[inline]
    pub fn contains_key(&self, key: u64) -> bool {
        self.probe(key).is_err()
    }

    /// Looks `key` up: `Err(())` when an entry is filed under it (see
    /// [`History::candidates`]), else where an insert of `key` would go.
    #[inline]
    pub fn probe(&self, key: u64) -> Result<Vacancy, ()> {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.generation != self.generation {
                return Ok(Vacancy { key, slot: i as u32, stamp: self.stamp });
            }
            if slot.key == key {
                return Err(());
            }
            i = (i + 1) & mask;
        }
    }

    /// The entries filed under `key` in the current set. A situation keeps only its latest
    /// entry there; several entries come back only when different situations share a key.
    pub fn candidates(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        std::iter::from_fn(move || {
            loop {
                let slot = self.slots[i];
                if slot.generation != self.generation {
                    return None;
                }
                i = (i + 1) & mask;
                if slot.key == key {
                    return Some(slot.entry);
                }
            }
        })
    }

    /// Adds entry `entry` under `key`. When it repeats the situation of entry `replacing`,
    /// which is in the set under the same key, it takes that entry's slot. `vacancy` is what
    /// a probe for `key` returned, if the caller kept it: used while still valid, it spares
    /// probing again.
    #[inline]
    pub fn insert(
        &mut self,
        key: u64,
        entry: u32,
        replacing: Option<u32>,
        vacancy: Option<Vacancy>,
    ) {
        self.stamp = self.stamp.wrapping_add(1);
        let mask = self.slots.len() - 1;
        let mut i = match vacancy {
            Some(v)
                if v.key == key && replacing.is_none() && v.stamp.wrapping_add(1) == self.stamp =>
            {
                v.slot as usize
            }
            _ => key as usize & mask,
        };
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != self.generation {
                *slot = Slot { key, generation: self.generation, entry };
                self.live += 1;
                if self.live * 2 > self.slots.len() {
                    self.grow();
                }
                return;
            }
            if slot.key == key && Some(slot.entry) == replacing {
                slot.entry = entry;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        let doubled = vec![Slot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.generation == self.generation) {
            let mut i = slot.key as usize & mask;
            while self.slots[i].generation == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }

    /// Logs a change that has just been made to `board`, packing a checkpoint when due.
    pub fn log(&mut self, change: Change, board: &Board) {
        self.log.push(change);
        if self.log.len().is_multiple_of(CHECKPOINT_EVERY) {
            board.append_codes(&mut self.snapshots);
        }
    }

    /// Rebuilds into `out` the stones after the first `log_len` changes.
    pub fn rebuild(&self, log_len: u32, size: BoardSize, out: &mut Board) {
        out.reset(size);
        let area = size.area();
        let checkpoint = (log_len as usize / CHECKPOINT_EVERY).min(self.snapshots.len() / area);
        if checkpoint > 0 {
            let start = (checkpoint - 1) * area;
            out.load_codes(self.snapshots[start..start + area].iter().copied());
        }
        for &change in &self.log[checkpoint * CHECKPOINT_EVERY..log_len as usize] {
            match change {
                Change::Set { loc, stone } => {
                    out.set_stone_loc(loc, stone);
                }
                Change::Play { loc, color } => {
                    out.play_forced_loc(color, loc);
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
                history.log(change, &board);
                positions.push(board.clone());
            }
            let mut out = Board::new(BoardSize::STANDARD);
            for (n, want) in positions.iter().enumerate() {
                history.rebuild(n as u32, size, &mut out);
                assert!(out.same_stones(want), "{size}: after {n} changes\n{out}\n{want}");
                if n % 10 == 0 {
                    out.check_consistency().unwrap();
                }
            }
        }
    }

    #[test]
    fn the_set_finds_its_entries_and_forgets_them_at_once() {
        let mut history = History::new();
        history.clear();
        // Keys chosen to collide in the low bits, so that probing runs over each other.
        for e in 0..3000u32 {
            history.insert(u64::from(e % 1500) << 20, e, None, None);
        }
        let found: Vec<u32> = history.candidates(7 << 20).collect();
        assert_eq!(found, [7, 1507]);
        history.insert(7 << 20, 4000, Some(1507), None);
        assert_eq!(history.candidates(7 << 20).collect::<Vec<_>>(), [7, 4000]);
        history.forget_situations();
        assert_eq!(history.candidates(7 << 20).count(), 0);
    }
}
