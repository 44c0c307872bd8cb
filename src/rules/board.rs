//! The board: stones, chains, liberties, captures, the simple-ko point and the position's hash,
//! kept incrementally so that a move costs a few dozen memory accesses whatever the board size.
//!
//! The board knows the rules that concern one move: a move must be on the board and on an empty
//! point, must not be suicide where the [`SuicideRule`] forbids it, and must not retake a single
//! stone in a ko at once. It knows nothing of turns, passes in a row, or repetitions of earlier
//! positions: that history is [`super::game::Game`]'s business (KataGo's split between `Board`
//! and `BoardHistory`).
//!
//! # Layout
//!
//! Points live in a padded one-dimensional array: the point `(x, y)` is at location
//! `(x + 1) + (y + 1) * (width + 1)`, so that the four neighbours of a location are at `±1` and
//! `±(width + 1)` and every neighbour of an on-board point is either on the board or a wall cell
//! (row 0, row `height + 1`, and column 0, which doubles as the column right of the board).
//! Locations fit in a `u16` (at most 2,862 on 52x52).
//!
//! Each chain (a maximal group of connected stones of one colour) is a circular list through
//! `next`, every stone points at the chain's head, and the head holds the chain's stone count
//! and liberty count. Placing a stone merges the smaller chain into the larger one and counts
//! only the new liberties; removing a chain gives a liberty back to each neighbouring chain.
//! Nothing is allocated after [`Board::new`], so [`Clone`] is one copy of a flat array.
//!
//! [`Board::check_consistency`] recomputes everything from the colours alone and compares; the
//! tests run it after every move of long random games.
//!
//! The inlining of the move's path is pinned rather than left to the compiler, which decided
//! it differently whenever an unrelated edit moved functions between codegen units: every
//! step of an ordinary move and every small helper it calls is `#[inline(always)]`, and the
//! three rare, looping steps (merging two chains, removing a chain, the suicide test of a move
//! into a hole) are `#[inline(never)]`, so that a change to one of them is measured alone.
//!
//! # Example
//!
//! ```
//! use kifu::rules::{Board, Color, Point, SuicideRule};
//!
//! let mut board = Board::from_diagram(
//!     "
//!     . X . .
//!     X O X .
//!     . . . .
//!     ",
//! )
//! .unwrap();
//! // Black B1 takes the white stone: the point (1, 2) in SGF's orientation.
//! let effect = board.play(Color::Black, Point::new(1, 2), SuicideRule::Forbidden).unwrap();
//! assert_eq!(effect.captured, 1);
//! assert_eq!(board.prisoners(Color::Black), 1);
//! assert_eq!(board.get(Point::new(1, 1)), None);
//! board.check_consistency().unwrap();
//! ```

mod diagram;

use std::fmt;
use std::ops::{Index, IndexMut};

pub use diagram::{DiagramError, write_diagram};

use super::point::{BoardSize, Color, Point};
use super::ruleset::SuicideRule;
use super::zobrist;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const WALL: u8 = 3;

/// "No location": location 0 is always a wall cell, so no stone or ko point is ever there.
const NONE: u16 = 0;

#[inline(always)]
fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

#[inline(always)]
fn color_of(code: u8) -> Option<Color> {
    match code {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// How many of four colour codes are [`EMPTY`]: the liberties of a lone stone with these
/// neighbours. Counted without a branch, so that the suicide test of a move (none empty?) is
/// one test instead of one per neighbour, whose branches were mispredicted about once every
/// two moves (whether a given neighbour is empty is as good as random), and a move played
/// after its test counts them once for both.
#[inline(always)]
fn empty_count(near: [u8; 4]) -> u16 {
    near.iter().map(|&c| u16::from(c == EMPTY)).sum()
}

/// Why a move may not be played. Exactly one kind describes each illegal move; when several
/// apply, the first in this order wins: off the board, occupied, suicide, ko, superko.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Illegal {
    /// The point lies outside the board.
    OffBoard,
    /// The point already holds a stone.
    Occupied,
    /// The move would leave its own chain without liberties while capturing nothing, and the
    /// suicide rule forbids it.
    Suicide,
    /// The move retakes a single stone in a ko immediately.
    Ko,
    /// The move recreates an earlier whole-board position (or situation) that the ko rule
    /// forbids. Only [`super::game::Game`] reports this: the board keeps no history.
    Superko,
}

impl Illegal {
    /// The kebab-case name used in reports: `off-board`, `occupied`, `suicide`, `ko`,
    /// `superko`.
    pub fn as_str(self) -> &'static str {
        match self {
            Illegal::OffBoard => "off-board",
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "superko",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a move did to the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Opponent stones captured.
    pub captured: u32,
    /// The mover's own stones removed because their chain was left without liberties
    /// (suicide, where the rules allow it or the move was forced).
    pub suicided: u32,
    /// The stone the move replaced, when a forced move landed on an occupied point (SGF
    /// overwrites it; it is not counted as a prisoner).
    pub replaced: Option<Color>,
}

/// What [`Board::counters`] saves: the state a rebuild from colours cannot recover.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counters {
    ko: u16,
    ko_banned: u8,
    captures: [u32; 2],
    suicides: [u32; 2],
}

/// Identifies a chain: equal for all stones of one chain, different between chains. Valid
/// only until the next change to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChainId(u16);

/// One cell of the padded array. `libs` is meaningful at a chain's head only. Eight bytes, so
/// that a location indexes the array without a multiplication; the chain's stone count, which
/// only merges and the ko test read, is kept apart ([`Stones`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cell {
    color: u8,
    head: u16,
    next: u16,
    libs: u16,
}

const _: () = assert!(std::mem::size_of::<Cell>() == 8);

/// What [`Board::play_empty`] has seen of the move so far, neighbour by neighbour.
struct MoveState {
    /// The mover's colour code.
    pla: u8,
    /// The new stone.
    loc: u16,
    /// The head of the new stone's chain: `loc` until it joins a friendly chain.
    own: u16,
    captured: u32,
    /// The neighbour of the last capture: the ko point if the move turns out to be a ko.
    possible_ko: u16,
    /// Heads of the opponent chains already seen (`NONE` is never a head).
    seen: [u16; 3],
}

/// One value per location of the padded array (the cells; the chains' stone counts), indexed
/// by location.
///
/// Indexing is unchecked: the board's hot paths index several times per neighbour, and the
/// bounds checks cost about a fifth of a move (measured with cachegrind on the replay bench).
/// It is sound because of one invariant, kept by construction and checked in debug builds
/// (which the stress tests run): every location used as an index is below the array's length.
/// Locations come only from [`Board::loc`] (an on-board point), from the neighbours of an
/// on-board location (the padding keeps them inside: the first on-board location is
/// `stride + 1` and the last neighbour of the last one is `len - 1 - stride + width`), from
/// chain links and heads (which always name stones), or from the ko point (a stone's former
/// location or 0). No public method takes a location, and the crate-internal helpers that take
/// one from other modules (the read access by location at the end of this file) check bounds.
#[derive(Clone, Debug)]
struct ByLoc<T>(Vec<T>);

/// The cells of the padded array.
type Cells = ByLoc<Cell>;

/// The stone count of each chain, at its head's location; the same length as [`Cells`] and
/// indexed the same way, unchecked under the same invariant.
type Stones = ByLoc<u16>;

impl<T> Default for ByLoc<T> {
    fn default() -> Self {
        ByLoc(Vec::new())
    }
}

impl<T> Index<u16> for ByLoc<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, loc: u16) -> &T {
        debug_assert!((loc as usize) < self.0.len(), "location {loc} outside the board");
        // SAFETY: every location is below the length (see the type's documentation).
        unsafe { self.0.get_unchecked(loc as usize) }
    }
}

impl<T> IndexMut<u16> for ByLoc<T> {
    #[inline(always)]
    fn index_mut(&mut self, loc: u16) -> &mut T {
        debug_assert!((loc as usize) < self.0.len(), "location {loc} outside the board");
        // SAFETY: every location is below the length (see the type's documentation).
        unsafe { self.0.get_unchecked_mut(loc as usize) }
    }
}

/// Checked indexing by `usize`, for code outside the hot paths.
impl<T> Index<usize> for ByLoc<T> {
    type Output = T;

    #[inline]
    fn index(&self, loc: usize) -> &T {
        &self.0[loc]
    }
}

impl<T> ByLoc<T> {
    /// One past the largest location.
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A Go board of any size from 1x1 to 52x52, rectangular too. See the module documentation.
pub struct Board {
    size: BoardSize,
    stride: u16,
    cells: Cells,
    stones: Stones,
    ko: u16,
    ko_banned: u8,
    hash: u64,
    captures: [u32; 2],
    suicides: [u32; 2],
    stone_counts: [u32; 2],
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            size: self.size,
            stride: self.stride,
            cells: self.cells.clone(),
            stones: self.stones.clone(),
            ko: self.ko,
            ko_banned: self.ko_banned,
            hash: self.hash,
            captures: self.captures,
            suicides: self.suicides,
            stone_counts: self.stone_counts,
        }
    }

    /// Copies `source` into `self`, reusing `self`'s allocation when it is large enough.
    fn clone_from(&mut self, source: &Board) {
        self.size = source.size;
        self.stride = source.stride;
        self.cells.0.clone_from(&source.cells.0);
        self.stones.0.clone_from(&source.stones.0);
        self.ko = source.ko;
        self.ko_banned = source.ko_banned;
        self.hash = source.hash;
        self.captures = source.captures;
        self.suicides = source.suicides;
        self.stone_counts = source.stone_counts;
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {} (hash {:016x})\n{}", self.size, self.hash, self)
    }
}

impl Board {
    /// An empty board of the given size.
    pub fn new(size: BoardSize) -> Board {
        let mut board = Board {
            size,
            stride: 0,
            cells: Cells::default(),
            stones: Stones::default(),
            ko: NONE,
            ko_banned: EMPTY,
            hash: 0,
            captures: [0; 2],
            suicides: [0; 2],
            stone_counts: [0; 2],
        };
        board.reset(size);
        board
    }

    /// Empties the board and gives it a new size, reusing its memory.
    pub fn reset(&mut self, size: BoardSize) {
        let width = size.width as usize;
        let height = size.height as usize;
        let stride = width + 1;
        // An empty point is the all-zero cell, so the array is cleared in one sweep and only
        // the walls are written: row 0, row `height + 1` and column 0.
        let len = stride * (height + 2);
        // The walls stand where they are only if the stride is the old one too: 6x4 and 5x5
        // boards both take 42 cells, with their walls in other places.
        let same_shape = self.cells.len() == len && self.stride as usize == stride;
        self.size = size;
        self.stride = stride as u16;
        if same_shape {
            // The same size as before (nearly every game of a collection): the walls stand,
            // so only the points are cleared, row by row. The rows are small enough for
            // `memset`'s vector loop, where one sweep over the whole array goes to `rep stosb`,
            // which costs about one instruction a byte (measured with cachegrind: 3,900 a reset
            // against about 600). A chain's stone count is read at its head only, and a head's
            // is written when its stone is placed, so the counts need no clearing.
            for y in 1..=height {
                self.cells.0[y * stride + 1..(y + 1) * stride].fill(Cell::default());
            }
            self.clear_counters();
            return;
        }
        self.cells.0.clear();
        self.cells.0.resize(len, Cell::default());
        self.stones.0.clear();
        self.stones.0.resize(len, 0);
        let wall = Cell { color: WALL, ..Cell::default() };
        self.cells.0[..stride].fill(wall);
        self.cells.0[len - stride..].fill(wall);
        for y in 1..=height {
            self.cells.0[y * stride] = wall;
        }
        self.clear_counters();
    }

    /// What an empty board has besides its cells: no ko, no hash, no prisoners, no stones.
    fn clear_counters(&mut self) {
        self.ko = NONE;
        self.ko_banned = EMPTY;
        self.hash = 0;
        self.captures = [0; 2];
        self.suicides = [0; 2];
        self.stone_counts = [0; 2];
    }

    /// The board's size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Whether `p` lies on the board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.size.contains(p)
    }

    /// The stone on `p`, or `None` when `p` is empty or off the board.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.loc(p).and_then(|l| color_of(self.cells[l].color))
    }

    /// The 64-bit Zobrist hash of the stones on the board (not of the ko point, the prisoners
    /// or the player to move). Equal positions on boards of equal size have equal hashes.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The simple-ko point and the colour that may not play there on the next move, if the
    /// last move captured a single stone in a ko.
    pub fn ko(&self) -> Option<(Point, Color)> {
        let banned = color_of(self.ko_banned)?;
        (self.ko != NONE).then(|| (self.point(self.ko), banned))
    }

    /// Opponent stones `color` has captured (suicides and overwritten stones not included).
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// Stones of `color` removed by `color`'s own suicides.
    pub fn suicides(&self, color: Color) -> u32 {
        self.suicides[color.index()]
    }

    /// The prisoners `color` holds: opponent stones taken off the board by `color`'s captures
    /// or by the opponent's suicides.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.captures[color.index()] + self.suicides[color.opponent().index()]
    }

    /// Number of stones of `color` on the board.
    pub fn stone_count(&self, color: Color) -> u32 {
        self.stone_counts[color.index()]
    }

    /// The empty points of the board, row by row from the top left.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.size.points().filter(move |&p| self.get(p).is_none())
    }

    /// The on-board neighbours of `p` (none when `p` is off the board): above, left, right,
    /// below.
    pub fn neighbors(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let adjacent = match self.loc(p) {
            Some(l) => self.adjacent(l),
            None => [NONE; 4],
        };
        adjacent
            .into_iter()
            .filter(move |&a| a != NONE && self.cells[a].color != WALL)
            .map(move |a| self.point(a))
    }

    /// The chain holding the stone on `p`, or `None` when `p` is empty or off the board.
    pub fn chain_id(&self, p: Point) -> Option<ChainId> {
        let l = self.stone_loc(p)?;
        Some(ChainId(self.cells[l].head))
    }

    /// Number of liberties of the chain holding the stone on `p` (0 when `p` is empty or off
    /// the board; also 0 for a chain left without liberties by setup stones).
    pub fn liberty_count(&self, p: Point) -> u32 {
        self.stone_loc(p).map_or(0, |l| self.head_cell(l).libs as u32)
    }

    /// Number of stones in the chain holding the stone on `p` (0 when `p` is empty or off the
    /// board).
    pub fn chain_len(&self, p: Point) -> u32 {
        self.stone_loc(p).map_or(0, |l| self.stones[self.cells[l].head] as u32)
    }

    /// The stones of the chain holding the stone on `p`, starting with its head (nothing when
    /// `p` is empty or off the board).
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        let head = self.stone_loc(p).map_or(NONE, |l| self.cells[l].head);
        ChainStones { board: self, head, next: head }
    }

    /// The liberties of the chain holding the stone on `p`, each once (nothing when `p` is
    /// empty or off the board).
    pub fn chain_liberties(&self, p: Point) -> ChainLiberties<'_> {
        let head = self.stone_loc(p).map_or(NONE, |l| self.cells[l].head);
        ChainLiberties { board: self, head, stone: head, dir: 0 }
    }

    /// Whether `color` may play on `p` under `suicide`, ko included: `Ok` exactly when
    /// [`Board::play`] would accept the move.
    pub fn check(&self, color: Color, p: Point, suicide: SuicideRule) -> Result<(), Illegal> {
        self.check_loc(color, self.loc(p).ok_or(Illegal::OffBoard)?, suicide)
    }

    /// Whether `color` may play on `p` under `suicide`; always equals `play(..).is_ok()`.
    pub fn is_legal(&self, color: Color, p: Point, suicide: SuicideRule) -> bool {
        self.check(color, p, suicide).is_ok()
    }

    /// Plays a legal move (see [`Board::check`]): places the stone, captures, removes the
    /// mover's chain if the rules allow a suicide, and sets the ko point. An illegal move
    /// returns `Err` and leaves the board unchanged.
    pub fn play(
        &mut self,
        color: Color,
        p: Point,
        suicide: SuicideRule,
    ) -> Result<MoveEffect, Illegal> {
        let loc = self.loc(p).ok_or(Illegal::OffBoard)?;
        self.play_loc(color, loc, suicide)
    }

    /// Executes a move whatever the rules say, as SGF `FF[4]` does: the stone is put on `p`
    /// (replacing any stone there, without taking it prisoner), opponent chains left without
    /// liberties are captured, then the mover's chain is removed if it has none. Only a point
    /// off the board is refused. Replacing a stone costs a rebuild of the chains (O(area)).
    pub fn play_forced(&mut self, color: Color, p: Point) -> Result<MoveEffect, Illegal> {
        let loc = self.loc(p).ok_or(Illegal::OffBoard)?;
        Ok(self.play_forced_loc(color, loc))
    }

    /// A pass: clears the ko point.
    pub fn pass(&mut self) {
        self.ko = NONE;
        self.ko_banned = EMPTY;
    }

    /// Puts `stone` on `p` (or empties `p` for `None`) as a setup property does: nothing is
    /// captured, so chains may be left without liberties, exactly as SGF asks. Clears the ko
    /// point. Returns what was on `p` before. Adding to an empty point is incremental; clearing
    /// or replacing a stone rebuilds the chains (O(area)).
    pub fn set_stone(&mut self, p: Point, stone: Option<Color>) -> Result<Option<Color>, Illegal> {
        let loc = self.loc(p).ok_or(Illegal::OffBoard)?;
        Ok(self.set_stone_loc(loc, stone))
    }

    /// The hash the board would have after `color` plays on `p` with the effects of
    /// [`Board::play_forced`] (captures, then the mover's chain if left without liberties), or
    /// `None` when `p` is off the board or occupied. Costs no change to the board.
    pub fn hash_after(&self, color: Color, p: Point) -> Option<u64> {
        let loc = self.loc(p)?;
        (self.cells[loc].color == EMPTY).then(|| self.hash_after_loc(color, loc))
    }

    /// Whether the two boards hold the same stones (same size, same colour on every point).
    pub fn same_stones(&self, other: &Board) -> bool {
        self.size == other.size
            && self.cells.len() == other.cells.len()
            && self.cells.0.iter().zip(&other.cells.0).all(|(a, b)| a.color == b.color)
    }

    /// Recomputes chains, liberties, stone counts and the hash from the colours alone and
    /// compares them with what the board keeps incrementally. `Err` names the first difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh = self.clone();
        fresh.rebuild_chains();
        let mut hash = 0;
        let mut counts = [0u32; 2];
        for p in self.size.points() {
            let l = self.loc(p).expect("points of the board are on it") as usize;
            let cell = self.cells.0[l];
            if cell.color == WALL {
                return Err(format!("{p:?} is a wall cell"));
            }
            let Some(color) = color_of(cell.color) else {
                if cell.head != NONE {
                    return Err(format!("{p:?} is empty but names head {}", cell.head));
                }
                continue;
            };
            hash ^= zobrist::stone_key(color.index(), l);
            counts[color.index()] += 1;
            let head = cell.head as usize;
            if self.cells.0.get(head).is_none_or(|h| h.head as usize != head) {
                return Err(format!("{p:?}: head {head} is not a head"));
            }
            if fresh.cells.0[head].head != fresh.cells.0[l].head {
                return Err(format!("{p:?}: head {head} lies outside the chain"));
            }
            for a in self.adjacent(l as u16) {
                let adj = self.cells.0[a as usize];
                if adj.color == cell.color && adj.head != cell.head {
                    return Err(format!("{p:?}: connected stones in different chains"));
                }
            }
            let fresh_head = fresh.cells.0[l].head as usize;
            let want = (fresh.cells.0[fresh_head].libs, fresh.stones.0[fresh_head]);
            let have = (self.cells.0[head].libs, self.stones.0[head]);
            if have != want {
                return Err(format!(
                    "{p:?}: chain has {} liberties and {} stones, recomputed {} and {}",
                    have.0, have.1, want.0, want.1
                ));
            }
            let have_stones = have.1 as usize;
            if l == head {
                // Walk the ring: it must come back to the head after exactly `stones` steps.
                let mut cur = self.cells.0[head].next as usize;
                let mut steps = 1;
                while cur != head {
                    if self.cells.0.get(cur).is_none_or(|c| c.head as usize != head) {
                        return Err(format!("{p:?}: the chain's ring leaves the chain"));
                    }
                    steps += 1;
                    if steps > have_stones {
                        return Err(format!("{p:?}: the chain's ring is too long"));
                    }
                    cur = self.cells.0[cur].next as usize;
                }
                if steps != have_stones {
                    return Err(format!("{p:?}: ring of {steps} for {have_stones} stones"));
                }
            }
        }
        if hash != self.hash {
            return Err(format!("hash {:016x}, recomputed {hash:016x}", self.hash));
        }
        if counts != self.stone_counts {
            return Err(format!("stone counts {:?}, recomputed {counts:?}", self.stone_counts));
        }
        if self.ko != NONE
            && (self.cells.0.get(self.ko as usize).map(|c| c.color) != Some(EMPTY)
                || color_of(self.ko_banned).is_none())
        {
            return Err("the ko point is not an empty point with a banned colour".into());
        }
        Ok(())
    }

    // --- locations -------------------------------------------------------------------------

    /// The padded location of `p`, or `None` when `p` is off the board.
    #[inline(always)]
    pub(crate) fn loc(&self, p: Point) -> Option<u16> {
        self.size.contains(p).then(|| (p.x as u16 + 1) + (p.y as u16 + 1) * self.stride)
    }

    /// The point at an on-board location.
    #[inline]
    pub(crate) fn point(&self, loc: u16) -> Point {
        Point::new((loc % self.stride) as u8 - 1, (loc / self.stride) as u8 - 1)
    }

    #[inline(always)]
    fn adjacent(&self, loc: u16) -> [u16; 4] {
        [loc - self.stride, loc - 1, loc + 1, loc + self.stride]
    }

    #[inline]
    fn stone_loc(&self, p: Point) -> Option<u16> {
        self.loc(p).filter(|&l| matches!(self.cells[l].color, BLACK | WHITE))
    }

    #[inline(always)]
    fn head_cell(&self, loc: u16) -> Cell {
        self.cells[self.cells[loc].head]
    }

    /// Appends the colour code of every on-board point, row by row (a snapshot).
    pub(crate) fn append_codes(&self, out: &mut Vec<u8>) {
        let width = self.size.width as usize;
        let stride = self.stride as usize;
        for y in 0..self.size.height as usize {
            let row = (y + 1) * stride + 1;
            out.extend(self.cells.0[row..row + width].iter().map(|c| c.color));
        }
    }

    /// The ko point and the prisoner counts, which a rebuild from colours loses.
    pub(crate) fn counters(&self) -> Counters {
        Counters {
            ko: self.ko,
            ko_banned: self.ko_banned,
            captures: self.captures,
            suicides: self.suicides,
        }
    }

    /// Restores what [`Board::counters`] saved.
    pub(crate) fn set_counters(&mut self, counters: Counters) {
        self.ko = counters.ko;
        self.ko_banned = counters.ko_banned;
        self.captures = counters.captures;
        self.suicides = counters.suicides;
    }

    /// Sets every on-board point from colour codes in [`Board::append_codes`] order and
    /// rebuilds the chains and the hash. Prisoner counts and the ko point are cleared.
    pub(crate) fn load_codes(&mut self, codes: impl IntoIterator<Item = u8>) {
        let width = self.size.width as usize;
        let stride = self.stride as usize;
        let mut codes = codes.into_iter();
        for y in 0..self.size.height as usize {
            let row = (y + 1) * stride + 1;
            for cell in &mut self.cells.0[row..row + width] {
                cell.color = codes.next().unwrap_or(EMPTY);
            }
        }
        self.captures = [0; 2];
        self.suicides = [0; 2];
        self.ko = NONE;
        self.ko_banned = EMPTY;
        self.rebuild_chains();
    }

    // --- moves -----------------------------------------------------------------------------

    /// Legality of a move on an on-board location (see [`Board::check`]).
    #[inline]
    pub(crate) fn check_loc(
        &self,
        color: Color,
        loc: u16,
        rule: SuicideRule,
    ) -> Result<(), Illegal> {
        if self.cells[loc].color != EMPTY {
            return Err(Illegal::Occupied);
        }
        self.check_empty(color, loc, rule, empty_count(self.near_colors(loc)))
    }

    /// [`Board::check_loc`] and, if the move is legal, [`Board::play_empty`], reading the
    /// neighbours once for both: what replaying a record does for nearly every move. An
    /// illegal move leaves the board unchanged.
    #[inline(always)]
    pub(crate) fn play_loc(
        &mut self,
        color: Color,
        loc: u16,
        rule: SuicideRule,
    ) -> Result<MoveEffect, Illegal> {
        if self.cells[loc].color != EMPTY {
            return Err(Illegal::Occupied);
        }
        let near = self.near_colors(loc);
        let empty = empty_count(near);
        self.check_empty(color, loc, rule, empty)?;
        Ok(self.play_near(color, loc, near, empty))
    }

    /// The colour codes of the four neighbours of `loc`, in [`Board::adjacent`] order.
    #[inline(always)]
    fn near_colors(&self, loc: u16) -> [u8; 4] {
        self.adjacent(loc).map(|a| self.cells[a].color)
    }

    /// [`Board::check_loc`] on an empty location with `empty` empty neighbours
    /// ([`empty_count`]).
    #[inline(always)]
    fn check_empty(
        &self,
        color: Color,
        loc: u16,
        rule: SuicideRule,
        empty: u16,
    ) -> Result<(), Illegal> {
        // A stone next to an empty point has a liberty: only a move into a hole can be suicide.
        // `empty` first: nearly every move has an empty neighbour, and then the rule need not
        // be read (the compiler may still order the two tests as it likes).
        if empty == 0 && rule != SuicideRule::Allowed && self.is_suicide(color, loc) {
            let multi_stone =
                self.adjacent(loc).iter().any(|&a| self.cells[a].color == code(color));
            if rule == SuicideRule::Forbidden || !multi_stone {
                return Err(Illegal::Suicide);
            }
        }
        if loc == self.ko && self.ko_banned == code(color) {
            return Err(Illegal::Ko);
        }
        Ok(())
    }

    /// Whether a stone of `color` on the empty location `loc` would capture nothing and be left
    /// without liberties.
    #[inline(never)]
    fn is_suicide(&self, color: Color, loc: u16) -> bool {
        let pla = code(color);
        for &a in &self.adjacent(loc) {
            let cell = self.cells[a];
            match cell.color {
                EMPTY => return false,
                WALL => {}
                c => {
                    let libs = self.cells[cell.head].libs;
                    if (c == pla && libs > 1) || (c != pla && libs == 1) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Executes a move on any on-board location (see [`Board::play_forced`]).
    pub(crate) fn play_forced_loc(&mut self, color: Color, loc: u16) -> MoveEffect {
        let replaced = color_of(self.cells[loc].color);
        if replaced.is_some() {
            self.set_stone_loc(loc, None);
        }
        MoveEffect { replaced, ..self.play_empty(color, loc) }
    }

    /// Places a stone on an empty location, captures, removes the mover's chain if it has no
    /// liberties, and sets the ko point. The core of every move.
    ///
    /// The four neighbours are handled one by one, written out rather than looped over, so
    /// that what the move has seen so far stays in registers (measured: a third fewer
    /// instructions a move than the loop).
    #[inline]
    pub(crate) fn play_empty(&mut self, color: Color, loc: u16) -> MoveEffect {
        let near = self.near_colors(loc);
        self.play_near(color, loc, near, empty_count(near))
    }

    /// [`Board::play_empty`] on a location whose neighbours have the colours `near`, `empty`
    /// of them empty ([`empty_count`], counted once for the test and the move).
    #[inline(always)]
    fn play_near(&mut self, color: Color, loc: u16, near: [u8; 4], empty: u16) -> MoveEffect {
        debug_assert_eq!(self.cells[loc].color, EMPTY);
        debug_assert_eq!(empty, empty_count(near));
        let pla = code(color);
        let [n, w, e, s] = self.adjacent(loc);
        self.place_lone_stone(color, loc, empty);

        let mut move_state =
            MoveState { pla, loc, own: loc, captured: 0, possible_ko: NONE, seen: [NONE; 3] };
        self.touch(&mut move_state, n, near[0], 0);
        self.touch(&mut move_state, w, near[1], 1);
        self.touch(&mut move_state, e, near[2], 2);
        self.touch(&mut move_state, s, near[3], 3);
        let MoveState { own: head, captured, possible_ko, .. } = move_state;
        self.captures[color.index()] += captured;

        let libs = self.cells[head].libs;
        // KataGo's ko test: one stone captured by a lone stone (one that joined no chain) that
        // is left in atari.
        if captured == 1 && head == loc && libs == 1 {
            self.ko = possible_ko;
            self.ko_banned = pla ^ 3;
        } else {
            self.ko = NONE;
            self.ko_banned = EMPTY;
        }
        let mut suicided = 0;
        if libs == 0 {
            suicided = self.remove_chain(head);
            self.suicides[color.index()] += suicided;
        }
        MoveEffect { captured, suicided, replaced: None }
    }

    /// What the move being played does to its `index`-th neighbour `a`, of colour `color`
    /// before the move: a friendly chain is merged with the new stone's (losing the liberty the
    /// stone took), an opponent chain not seen yet loses that liberty and is captured if it has
    /// no other.
    #[inline(always)]
    fn touch(&mut self, m: &mut MoveState, a: u16, color: u8, index: usize) {
        if color == m.pla {
            // Read now: a merge with an earlier neighbour may have relabelled this chain.
            let head = self.cells[a].head;
            if head == m.own {
                return;
            }
            self.cells[head].libs -= 1;
            if m.own == m.loc {
                // The first friendly chain: the lone stone joins it (it has at least as many
                // stones, so it is the larger, as `merge_chains` would choose).
                self.join_lone_stone(head, m.loc);
                m.own = head;
            } else {
                m.own = self.merge_chains(head, m.own);
            }
        } else if color == m.pla ^ 3 {
            let cell = self.cells[a];
            if cell.color != color {
                // Captured by this move already, with a neighbour before it.
                return;
            }
            let head = cell.head;
            if head == m.seen[0] || head == m.seen[1] || head == m.seen[2] {
                return;
            }
            if index < 3 {
                m.seen[index] = head;
            }
            let libs = &mut self.cells[head].libs;
            // A chain left without liberties by setup is never next to an empty point, so a
            // chain next to this move has at least this point as a liberty.
            *libs -= 1;
            if *libs == 0 {
                m.captured += self.remove_chain(head);
                m.possible_ko = a;
            }
        }
    }

    /// [`Board::merge_chains`] of the chain headed by `big` and the lone stone on `loc`,
    /// without the walk: the stone's empty neighbours that `big` does not touch are its new
    /// liberties.
    #[inline(always)]
    fn join_lone_stone(&mut self, big: u16, loc: u16) {
        let mut new_libs = 0;
        for (dir, adj) in self.adjacent(loc).into_iter().enumerate() {
            new_libs += self.new_liberty(adj, dir, big);
        }
        self.cells[loc].head = big;
        self.cells[loc].next = self.cells[big].next;
        self.cells[big].next = loc;
        self.cells[big].libs += new_libs;
        self.stones[big] += 1;
    }

    /// Puts a lone stone on an empty location: its own chain, with its immediate liberties.
    #[inline]
    fn add_lone_stone(&mut self, color: Color, loc: u16) {
        let libs = self
            .adjacent(loc)
            .iter()
            .map(|&a| u16::from(self.cells[a].color == EMPTY))
            .sum::<u16>();
        self.place_lone_stone(color, loc, libs);
    }

    /// Puts a lone stone with `libs` liberties on an empty location.
    #[inline(always)]
    fn place_lone_stone(&mut self, color: Color, loc: u16, libs: u16) {
        self.cells[loc] = Cell { color: code(color), head: loc, next: loc, libs };
        self.stones[loc] = 1;
        self.hash ^= zobrist::stone_key(color.index(), loc as usize);
        self.stone_counts[color.index()] += 1;
    }

    /// Merges the chains headed by `a` and `b` (same colour, different chains): the smaller
    /// joins the larger (`a` on a tie), whose liberty count grows by the liberties only the
    /// smaller one had. Returns the head of the merged chain.
    #[inline(never)]
    fn merge_chains(&mut self, a: u16, b: u16) -> u16 {
        let (big, small) = if self.stones[a] < self.stones[b] { (b, a) } else { (a, b) };
        let mut new_libs = 0;
        let mut cur = small;
        loop {
            for (dir, adj) in self.adjacent(cur).into_iter().enumerate() {
                // Stones already moved over count as `big`'s, so a point next to two stones of
                // the smaller chain is counted once.
                new_libs += self.new_liberty(adj, dir, big);
            }
            self.cells[cur].head = big;
            let next = self.cells[cur].next;
            if next == small {
                break;
            }
            cur = next;
        }
        // Splice the rings: big -> small ... last_small -> old next of big.
        let big_next = self.cells[big].next;
        self.cells[cur].next = big_next;
        self.cells[big].next = small;
        self.cells[big].libs += new_libs;
        self.stones[big] += self.stones[small];
        big
    }

    /// 1 when `adj`, the neighbour in direction `dir` ([`Board::adjacent`] order) of a stone
    /// outside the chain headed by `head`, is an empty point that touches no stone of that
    /// chain (a liberty the stone brings to it), else 0.
    ///
    /// Only three of the point's neighbours are read (only stones have a head other than
    /// `NONE`, and the stone's own is known to lie outside the chain), and they are compared
    /// without a branch: which of them, if any, is in the chain is as good as random, and the
    /// short-circuit tests of all four were mispredicted about 0.4 times a move (cachegrind's
    /// branch simulation on fox-pro).
    #[inline(always)]
    fn new_liberty(&self, adj: u16, dir: usize, head: u16) -> u16 {
        if self.cells[adj].color != EMPTY {
            return 0;
        }
        let s = self.stride;
        let [a, b, c] = match dir {
            0 => [adj - s, adj - 1, adj + 1],
            1 => [adj - s, adj - 1, adj + s],
            2 => [adj - s, adj + 1, adj + s],
            _ => [adj - 1, adj + 1, adj + s],
        };
        let touches = (self.cells[a].head == head)
            | (self.cells[b].head == head)
            | (self.cells[c].head == head);
        u16::from(!touches)
    }

    /// Takes the chain headed by `head` off the board, giving each neighbouring chain of the
    /// other colour a liberty per freed point it touches. Returns the number of stones removed.
    #[inline(never)]
    fn remove_chain(&mut self, head: u16) -> u32 {
        let color_code = self.cells[head].color;
        let color = color_of(color_code).expect("a chain is made of stones");
        let other = color_code ^ 3;
        let mut removed = 0;
        let mut cur = head;
        loop {
            self.hash ^= zobrist::stone_key(color.index(), cur as usize);
            // An empty point has no head (`new_liberty` relies on it).
            self.cells[cur].color = EMPTY;
            self.cells[cur].head = NONE;
            removed += 1;
            // Give one liberty to each distinct neighbouring chain of the other colour.
            let mut seen = [NONE; 3];
            let adjacent = self.adjacent(cur);
            for i in 0..4 {
                let cell = self.cells[adjacent[i]];
                if cell.color == other
                    && cell.head != seen[0]
                    && cell.head != seen[1]
                    && cell.head != seen[2]
                {
                    self.cells[cell.head].libs += 1;
                    if i < 3 {
                        seen[i] = cell.head;
                    }
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                break;
            }
        }
        self.stone_counts[color.index()] -= removed;
        removed
    }

    /// The hash after a move on an empty location with forced-move effects.
    pub(crate) fn hash_after_loc(&self, color: Color, loc: u16) -> u64 {
        let pla = code(color);
        let key = zobrist::stone_key(color.index(), loc as usize);
        let mut hash = self.hash ^ key;
        let mut has_liberty = false;
        let mut captured = [NONE; 4];
        let mut friends = [NONE; 4];
        let adjacent = self.adjacent(loc);
        for i in 0..4 {
            let cell = self.cells[adjacent[i]];
            match cell.color {
                EMPTY => has_liberty = true,
                WALL => {}
                c if c == pla => {
                    has_liberty |= self.cells[cell.head].libs > 1;
                    friends[i] = cell.head;
                }
                _ => {
                    if self.cells[cell.head].libs == 1 && !captured.contains(&cell.head) {
                        hash ^= self.chain_hash(cell.head);
                        captured[i] = cell.head;
                    }
                }
            }
        }
        if !has_liberty && captured == [NONE; 4] {
            // Suicide: the new stone and every friendly chain it joins come off again.
            hash ^= key;
            for (i, head) in friends.into_iter().enumerate() {
                if head != NONE && !friends[..i].contains(&head) {
                    hash ^= self.chain_hash(head);
                }
            }
        }
        hash
    }

    /// XOR of the keys of every stone of the chain headed by `head`.
    fn chain_hash(&self, head: u16) -> u64 {
        let color = color_of(self.cells[head].color).expect("a chain is made of stones");
        let mut hash = 0;
        let mut cur = head;
        loop {
            hash ^= zobrist::stone_key(color.index(), cur as usize);
            cur = self.cells[cur].next;
            if cur == head {
                return hash;
            }
        }
    }

    // --- setup -----------------------------------------------------------------------------

    /// See [`Board::set_stone`].
    pub(crate) fn set_stone_loc(&mut self, loc: u16, stone: Option<Color>) -> Option<Color> {
        let before = color_of(self.cells[loc].color);
        self.ko = NONE;
        self.ko_banned = EMPTY;
        if before == stone {
            return before;
        }
        match (before, stone) {
            (None, Some(color)) => {
                // Incremental: like a move, but nothing is captured.
                self.add_lone_stone(color, loc);
                let pla = code(color);
                let mut opp_seen = [NONE; 4];
                let mut opp_count = 0;
                for a in self.adjacent(loc) {
                    let cell = self.cells[a];
                    if cell.color == pla {
                        // Read again: a merge with an earlier neighbour may have relabelled it.
                        let (head, own) = (self.cells[a].head, self.cells[loc].head);
                        if head != own {
                            self.cells[head].libs -= 1;
                            self.merge_chains(head, own);
                        }
                    } else if cell.color == pla ^ 3 && !opp_seen[..opp_count].contains(&cell.head) {
                        opp_seen[opp_count] = cell.head;
                        opp_count += 1;
                        self.cells[cell.head].libs -= 1;
                    }
                }
            }
            _ => {
                // Removing a stone may split its chain: rebuild from the colours (the hash
                // and the stone counts with it).
                self.cells[loc].color = stone.map_or(EMPTY, code);
                self.rebuild_chains();
            }
        }
        before
    }

    /// Recomputes every chain, liberty count, stone count and the hash from the colours.
    fn rebuild_chains(&mut self) {
        for cell in &mut self.cells.0 {
            cell.head = NONE;
        }
        self.hash = 0;
        self.stone_counts = [0; 2];
        for loc in 0..self.cells.len() as u16 {
            let color = self.cells[loc].color;
            if !matches!(color, BLACK | WHITE) || self.cells[loc].head != NONE {
                continue;
            }
            // Flood fill, using the chain's own ring as the queue: new stones go in at the tail.
            self.cells[loc].head = loc;
            self.cells[loc].next = loc;
            let mut tail = loc;
            let mut cur = loc;
            let mut stones = 0u16;
            loop {
                stones += 1;
                for a in self.adjacent(cur) {
                    let cell = self.cells[a];
                    if cell.color == color && cell.head == NONE {
                        self.cells[a].head = loc;
                        self.cells[a].next = loc;
                        self.cells[tail].next = a;
                        tail = a;
                    }
                }
                let next = self.cells[cur].next;
                if next == loc {
                    break;
                }
                cur = next;
            }
            self.stones[loc] = stones;
        }
        for loc in 0..self.cells.len() as u16 {
            let cell = self.cells[loc];
            let Some(color) = color_of(cell.color) else { continue };
            self.hash ^= zobrist::stone_key(color.index(), loc as usize);
            self.stone_counts[color.index()] += 1;
            if cell.head == loc {
                let libs = self.count_liberties(loc);
                self.cells[loc].libs = libs;
            }
        }
    }

    /// Counts the distinct liberties of the chain headed by `head` from scratch: an empty point
    /// is counted from the first of its neighbours (in [`Board::adjacent`] order) in the chain.
    fn count_liberties(&self, head: u16) -> u16 {
        let mut libs = 0;
        let mut cur = head;
        loop {
            for a in self.adjacent(cur) {
                if self.cells[a].color == EMPTY && self.first_chain_neighbor(a, head) == cur {
                    libs += 1;
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                return libs;
            }
        }
    }

    /// The first neighbour of `loc`, in [`Board::adjacent`] order, that belongs to the chain
    /// headed by `head` (`NONE` if there is none).
    #[inline]
    fn first_chain_neighbor(&self, loc: u16, head: u16) -> u16 {
        self.adjacent(loc)
            .into_iter()
            .find(|&a| {
                let c = self.cells[a];
                matches!(c.color, BLACK | WHITE) && c.head == head
            })
            .unwrap_or(NONE)
    }
}

// --- read access by location (crate-internal) ---------------------------------------------
//
// The dead-stone estimator's playouts (`analysis::dead_stones`) play thousands of moves per
// position; these read the padded array directly instead of converting points at every step.
// Additive helpers only: they change nothing above. They take locations from code outside this
// module, so they index with bounds checks: a wrong location panics instead of breaking the
// invariant the unchecked `Cells` indexing relies on.
impl Board {
    /// The cell at `loc`, bounds-checked.
    #[inline]
    fn checked(&self, loc: u16) -> &Cell {
        &self.cells.0[loc as usize]
    }

    /// One past the largest location: every location is below this.
    #[inline]
    pub(crate) fn loc_count(&self) -> usize {
        self.cells.0.len()
    }

    /// The four neighbours of a location (some may be wall cells).
    #[inline]
    pub(crate) fn neighbours_of(&self, loc: u16) -> [u16; 4] {
        self.adjacent(loc)
    }

    /// Whether a location is on the board (not a wall cell).
    #[inline]
    pub(crate) fn on_board_at(&self, loc: u16) -> bool {
        self.checked(loc).color != WALL
    }

    /// Whether an on-board location is empty.
    #[inline]
    pub(crate) fn empty_at(&self, loc: u16) -> bool {
        self.checked(loc).color == EMPTY
    }

    /// The stone on a location (`None` for empty points and wall cells).
    #[inline]
    pub(crate) fn stone_at(&self, loc: u16) -> Option<Color> {
        color_of(self.checked(loc).color)
    }

    /// The head of the chain on a stone's location (identifies the chain).
    #[inline]
    pub(crate) fn head_at(&self, loc: u16) -> u16 {
        self.checked(loc).head
    }

    /// Liberties of the chain on a stone's location.
    #[inline]
    pub(crate) fn libs_at(&self, loc: u16) -> u32 {
        self.checked(self.checked(loc).head).libs as u32
    }

    /// Stones of the chain on a stone's location.
    #[inline]
    pub(crate) fn chain_len_at(&self, loc: u16) -> u32 {
        self.stones.0[self.checked(loc).head as usize] as u32
    }

    /// Up to `max` distinct liberties of the chain on a stone's location, written to `out`;
    /// returns how many were found.
    pub(crate) fn some_liberties_at(&self, loc: u16, out: &mut [u16]) -> usize {
        let head = self.checked(loc).head;
        let mut found = 0;
        let mut cur = head;
        loop {
            for a in self.adjacent(cur) {
                if self.checked(a).color == EMPTY && !out[..found].contains(&a) {
                    if found == out.len() {
                        return found;
                    }
                    out[found] = a;
                    found += 1;
                }
            }
            cur = self.checked(cur).next;
            if cur == head {
                return found;
            }
        }
    }
}

// Walks of a chain for tactical reading, which makes them at every node of its searches: the
// location given is checked, and every location after it comes from the chain's ring or a
// stone's neighbours, which the unchecked indexing's invariant covers.
impl Board {
    /// The first `out.len()` distinct liberties of the chain on the location `loc` (none for an
    /// empty point or a wall cell), in the order of a walk of its stones from the head round
    /// the ring, each stone's neighbours in [`Board::neighbours_of`] order, written to `out`;
    /// returns how many were found. The walk stops as soon as `out` is full.
    #[allow(clippy::manual_contains)]
    pub(crate) fn first_liberties_at(&self, loc: u16, out: &mut [u16]) -> usize {
        let head = self.checked(loc).head;
        if out.is_empty() || head == NONE {
            return 0;
        }
        let mut found = 0;
        let mut cur = head;
        loop {
            for a in self.adjacent(cur) {
                // Compared in line: `contains` on a slice of u16 is a call.
                if self.cells[a].color == EMPTY && !out[..found].iter().any(|&l| l == a) {
                    out[found] = a;
                    found += 1;
                    if found == out.len() {
                        return found;
                    }
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                return found;
            }
        }
    }

    /// For each stone of the chain on the stone location `loc` (from the head round the ring)
    /// and each of its neighbours in [`Board::neighbours_of`] order that is a stone of the other
    /// colour in a chain with one liberty: `found` with that liberty (the first of
    /// [`Board::first_liberties_at`], 0 if there were none), once per such neighbour.
    pub(crate) fn for_each_atari_neighbour_liberty(&self, loc: u16, mut found: impl FnMut(u16)) {
        let cell = *self.checked(loc);
        if cell.head == NONE {
            return;
        }
        let other = cell.color ^ 3;
        let head = cell.head;
        let mut cur = head;
        loop {
            for a in self.adjacent(cur) {
                let near = self.cells[a];
                if near.color == other && self.cells[near.head].libs == 1 {
                    let mut lib = [0u16; 1];
                    self.first_liberties_at(a, &mut lib);
                    found(lib[0]);
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                return;
            }
        }
    }
}

impl Board {
    /// The stone locations of the chain on a stone's location, starting with its head.
    #[inline]
    pub(crate) fn chain_locs_at(&self, loc: u16) -> ChainLocs<'_> {
        let head = self.checked(loc).head;
        ChainLocs { board: self, head, next: head }
    }
}

// Taking a move back by copying from the position it was played on, for searches that keep a
// stack of positions: [`Board::play_empty`] itself is untouched, and the cells it may have
// written are found from that position.
impl Board {
    /// Makes this board, which is `parent` after `color` played the legal move `loc` (with
    /// [`Board::play_empty`]) and nothing else since, equal to `parent` again in every byte that
    /// matters, chain rings and heads included, by copying back only the cells the move can
    /// have written: a copy of the whole board is a memcpy of several kilobytes, and a search
    /// trying one move after another at a node takes each back before the next.
    ///
    /// Those cells follow from the chains next to `loc` in `parent`: `loc` itself; the head of
    /// each friendly chain it joins (liberties and ring) and, where it merges two or more, the
    /// stones of the smaller side of each merge (they take the larger side's head); the head of
    /// each opponent chain it takes a liberty from; and every stone of an opponent chain it
    /// captures, with the head of each of the mover's chains next to one of them (they gain
    /// liberties). A move that was suicide, which a search does not play, is taken back by a
    /// whole copy.
    #[allow(clippy::manual_contains)]
    pub(crate) fn take_back_from(&mut self, parent: &Board, color: Color, loc: u16) {
        debug_assert_eq!(self.cells.len(), parent.cells.len());
        debug_assert_eq!(parent.checked(loc).color, EMPTY);
        let pla = code(color);
        let opp = pla ^ 3;
        self.copy_cell(parent, loc);
        // Compared in line rather than with `contains` on a slice (a call). A cell copied twice
        // costs a copy, not a wrong answer.
        let near = parent.adjacent(loc);
        let heads = near.map(|a| parent.cells[a].head);
        let mut first_friend = NONE;
        let mut merges = false;
        let mut lived = false;
        for i in 0..4 {
            let color = parent.cells[near[i]].color;
            let head = heads[i];
            if color == EMPTY {
                lived = true;
            } else if color == pla {
                lived |= parent.cells[head].libs > 1;
                if first_friend == NONE {
                    first_friend = head;
                } else if head != first_friend {
                    merges = true;
                }
                self.copy_cell(parent, head);
            } else if color == opp {
                if parent.cells[head].libs != 1 {
                    self.copy_cell(parent, head);
                } else if !heads[..i].iter().any(|&h| h == head) {
                    // Captured: `loc` was its last liberty.
                    lived = true;
                    self.copy_chain(parent, head, Some(pla));
                }
            }
        }
        if !lived {
            self.copy_from(parent);
            return;
        }
        if merges {
            // The merges as `touch` made them, neighbour by neighbour: each relabelled the
            // stones of its smaller side (the chain so far, `parts` and the new stone, on a tie
            // with the neighbour's), so only those are copied back, not a large wall's.
            let mut parts = [NONE; 4];
            let mut part_count = 0;
            let mut own_stones = 1;
            for i in 0..4 {
                let head = heads[i];
                if parent.cells[near[i]].color != pla
                    || parts[..part_count].iter().any(|&h| h == head)
                {
                    continue;
                }
                if part_count > 0 {
                    if parent.stones[head] < own_stones {
                        self.copy_chain(parent, head, None);
                    } else {
                        for &part in &parts[..part_count] {
                            self.copy_chain(parent, part, None);
                        }
                    }
                }
                own_stones += parent.stones[head];
                parts[part_count] = head;
                part_count += 1;
            }
        }
        self.set_counters(parent.counters());
        self.hash = parent.hash;
        self.stone_counts = parent.stone_counts;
    }

    /// [`Clone::clone_from`] for a board of the same size, which searches do by the thousand:
    /// the wall rows above and below the board are the same on every board of a size and never
    /// change, so only the rows between them are copied (a tenth less on 19x19). A board of
    /// another size is copied whole.
    pub(crate) fn copy_from(&mut self, source: &Board) {
        let len = source.cells.len();
        let stride = source.stride as usize;
        if self.cells.len() != len || self.stones.len() != len || self.stride != source.stride {
            self.clone_from(source);
            return;
        }
        let inner = stride..len - stride;
        self.cells.0[inner.clone()].copy_from_slice(&source.cells.0[inner.clone()]);
        self.stones.0[inner.clone()].copy_from_slice(&source.stones.0[inner]);
        self.size = source.size;
        self.set_counters(source.counters());
        self.hash = source.hash;
        self.stone_counts = source.stone_counts;
    }

    /// Copies the cell and chain stone count of `loc` from `parent`.
    #[inline(always)]
    fn copy_cell(&mut self, parent: &Board, loc: u16) {
        self.cells[loc] = parent.cells[loc];
        self.stones[loc] = parent.stones[loc];
    }

    /// Copies from `parent` every stone of its chain headed by `head`; with `neighbours_of`,
    /// also the head of each chain of that colour next to one of them.
    fn copy_chain(&mut self, parent: &Board, head: u16, neighbours_of: Option<u8>) {
        let mut cur = head;
        loop {
            self.copy_cell(parent, cur);
            if let Some(color) = neighbours_of {
                for a in parent.adjacent(cur) {
                    if parent.cells[a].color == color {
                        self.copy_cell(parent, parent.cells[a].head);
                    }
                }
            }
            cur = parent.cells[cur].next;
            if cur == head {
                break;
            }
        }
    }
}

/// The stone locations of one chain: see [`Board::chain_locs_at`].
pub(crate) struct ChainLocs<'a> {
    board: &'a Board,
    head: u16,
    next: u16,
}

impl Iterator for ChainLocs<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        if self.next == NONE {
            return None;
        }
        let cur = self.next;
        let next = self.board.checked(cur).next;
        self.next = if next == self.head { NONE } else { next };
        Some(cur)
    }
}

/// The stones of one chain: see [`Board::chain_stones`].
pub struct ChainStones<'a> {
    board: &'a Board,
    head: u16,
    next: u16,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        if self.next == NONE {
            return None;
        }
        let cur = self.next;
        let next = self.board.cells[cur].next;
        self.next = if next == self.head { NONE } else { next };
        Some(self.board.point(cur))
    }
}

/// The liberties of one chain, each once: see [`Board::chain_liberties`].
pub struct ChainLiberties<'a> {
    board: &'a Board,
    head: u16,
    stone: u16,
    dir: usize,
}

impl Iterator for ChainLiberties<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let board = self.board;
        while self.stone != NONE {
            let adjacent = board.adjacent(self.stone);
            while self.dir < 4 {
                let a = adjacent[self.dir];
                self.dir += 1;
                if board.cells[a].color == EMPTY
                    && board.first_chain_neighbor(a, self.head) == self.stone
                {
                    return Some(board.point(a));
                }
            }
            let next = board.cells[self.stone].next;
            self.stone = if next == self.head { NONE } else { next };
            self.dir = 0;
        }
        None
    }
}

// --- chain links, for copies of the board (crate-internal) ---------------------------------
//
// The estimator's playouts run on their own copy of the position, specialised for playing on
// (`analysis::dead_stones::playout`). Every order they draw from (the stones of a chain, its
// liberties) follows the chains' rings, so the copy takes the rings as they are here.
impl Board {
    /// The stone after the one on `loc` in its chain's ring (the walk [`Board::chain_locs_at`]
    /// follows); `loc` itself for a lone stone, and 0 for an empty point or a wall cell.
    /// Bounds-checked.
    #[inline]
    pub(crate) fn ring_next_at(&self, loc: u16) -> u16 {
        let cell = self.checked(loc);
        if matches!(cell.color, BLACK | WHITE) { cell.next } else { NONE }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str) -> Point {
        // "A1"-style names on the board under test are overkill here: SGF letters.
        Point::from_sgf(name.as_bytes()).unwrap()
    }

    #[test]
    fn a_diagram_reads_back_from_its_display() {
        let board = Board::from_diagram(
            "
            . X O .
            X O . .
            . . . .
            ",
        )
        .unwrap();
        assert_eq!(board.size(), BoardSize::new(4, 3).unwrap());
        let shown = board.to_string();
        assert_eq!(shown, "  A B C D\n3 . X O . 3\n2 X O . . 2\n1 . . . . 1\n  A B C D\n");
        let again = Board::from_diagram(&shown).unwrap();
        assert!(again.same_stones(&board));
        assert_eq!(again.hash(), board.hash());
        board.check_consistency().unwrap();
    }

    /// Whether two boards are the same in every byte a search could read: cells (chain rings
    /// and heads included), stone counts, ko, prisoners, hash.
    fn identical(a: &Board, b: &Board) -> bool {
        a.cells.0 == b.cells.0
            && a.stones.0 == b.stones.0
            && a.ko == b.ko
            && a.ko_banned == b.ko_banned
            && a.hash == b.hash
            && a.captures == b.captures
            && a.suicides == b.suicides
            && a.stone_counts == b.stone_counts
    }

    /// In random games on a small board, where captures, merges and kos are frequent: every
    /// legal move of either colour, played on a copy of the position and taken back from it,
    /// leaves the copy identical to the position, one move after another on the same copy.
    #[test]
    fn a_move_taken_back_from_its_position_leaves_it_exactly() {
        let size = BoardSize::new(7, 6).unwrap();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut random = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut board = Board::new(size);
        let mut child = board.clone();
        let mut taken_back = 0;
        for game in 0..40 {
            board.reset(size);
            for turn in 0..150 {
                let mut legal = [Vec::new(), Vec::new()];
                for color in Color::BOTH {
                    legal[color.index()] = (0..board.loc_count() as u16)
                        .filter(|&l| board.cells[l].color == EMPTY)
                        .filter(|&l| board.check_loc(color, l, SuicideRule::Forbidden).is_ok())
                        .collect();
                }
                child.copy_from(&board);
                assert!(identical(&child, &board));
                for color in Color::BOTH {
                    for &m in &legal[color.index()] {
                        child.play_empty(color, m);
                        child.check_consistency().unwrap();
                        child.take_back_from(&board, color, m);
                        taken_back += 1;
                        assert!(identical(&child, &board), "game {game}, turn {turn}, move {m}");
                    }
                }
                let color = if turn % 2 == 0 { Color::Black } else { Color::White };
                let moves = &legal[color.index()];
                if moves.is_empty() {
                    break;
                }
                board.play_empty(color, moves[random(moves.len())]);
            }
        }
        assert!(taken_back > 50_000, "{taken_back} moves taken back");
    }

    #[test]
    fn chains_know_their_stones_and_liberties() {
        let board = Board::from_diagram(
            "
            X X .
            X O .
            . . .
            ",
        )
        .unwrap();
        assert_eq!(board.chain_len(p("aa")), 3);
        // aa touches only its own stones; ba touches ca, ab touches ac; bb is White.
        assert_eq!(board.liberty_count(p("aa")), 2);
        let mut libs: Vec<Point> = board.chain_liberties(p("ba")).collect();
        libs.sort();
        assert_eq!(libs, [p("ac"), p("ca")]);
        assert_eq!(board.liberty_count(p("bb")), 2);
        assert_eq!(board.chain_liberties(p("bb")).count(), 2);
        assert_eq!(board.chain_stones(p("ab")).count(), 3);
        assert_eq!(board.chain_id(p("aa")), board.chain_id(p("ab")));
        assert_ne!(board.chain_id(p("aa")), board.chain_id(p("bb")));
        assert_eq!(board.chain_stones(p("cc")).count(), 0);
    }
}
