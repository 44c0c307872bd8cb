//! The board the playouts play on: a copy of the rules board's position with the same chains,
//! the same rings through their stones and the same liberty counts, played by the same steps,
//! so that every walk the policy makes (a chain's stones, its liberties) meets them in the same
//! order and the playouts draw the same moves. It leaves out what a playout never reads (the
//! hash, the prisoners, the stone counts) and adds, on every point, how many of its neighbours
//! are black and white stones and walls: most candidate moves are judged from that one byte,
//! without looking at any chain.
//!
//! Locations are the rules board's (its padded layout, see [`crate::rules::board`]). Every
//! table holds [`SLOTS`] entries, more than any board has locations, and is indexed without a
//! bounds check (see [`ByLoc`]); the entries past the board are wall cells, so the diagonal of
//! a point of the last row reads as off the board.

use std::ops::{Index, IndexMut};

use crate::rules::{Board, Color};

pub(super) const EMPTY: u8 = 0;
pub(super) const BLACK: u8 = 1;
pub(super) const WHITE: u8 = 2;
pub(super) const WALL: u8 = 3;

/// "No location": location 0 is a wall cell on every board, so no stone or move is ever there.
pub(super) const NONE: u16 = 0;

/// Entries of every table: a power of two above the largest location of a 52x52 board (2,861).
const SLOTS: usize = 4096;

/// The colour code of a player's stones.
#[inline]
pub(super) fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// One value per location; see the module documentation.
///
/// Indexing is unchecked: the playouts index several times for every candidate they judge, and
/// masking the location to the table's size (the safe alternative, with no bounds check either)
/// cost an instruction per access: 50M of the 1,110M instructions of `kifu audit -j1` on 100
/// professional games (cachegrind). It is sound because every location used as an index is at most
/// the board's location count, which [`PlayoutBoard::of_board`] asserts is below [`SLOTS`]:
/// locations come from the rules board (on-board points, chain heads and links, the ko point,
/// or 0), or are the neighbours and diagonals of an on-board location, the largest of which
/// (below the last point) is the location count itself. Debug builds check it on every access.
///
/// The table is held in place, not behind a pointer of its own: a [`PlayoutBoard`] holds its
/// tables in one block, so the playouts reach every one of them from the board's address,
/// where tables behind their own pointers had those pointers read again after most stores
/// (the compiler cannot tell that a byte written to a table leaves them alone).
#[derive(Clone, Debug)]
pub(super) struct ByLoc<T>([T; SLOTS]);

impl<T: Copy> ByLoc<T> {
    /// A table holding `value` everywhere, on the heap.
    pub(super) fn filled(value: T) -> Box<ByLoc<T>> {
        Box::new(ByLoc([value; SLOTS]))
    }
}

impl<T> Index<u16> for ByLoc<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, loc: u16) -> &T {
        debug_assert!((loc as usize) < SLOTS, "location {loc} outside the tables");
        // SAFETY: every location is below SLOTS (see the type's documentation).
        unsafe { self.0.get_unchecked(loc as usize) }
    }
}

impl<T> IndexMut<u16> for ByLoc<T> {
    #[inline(always)]
    fn index_mut(&mut self, loc: u16) -> &mut T {
        debug_assert!((loc as usize) < SLOTS, "location {loc} outside the tables");
        // SAFETY: every location is below SLOTS (see the type's documentation).
        unsafe { self.0.get_unchecked_mut(loc as usize) }
    }
}

/// One location: as the rules board's cell (`head`, `next` and, at a chain's head, `libs`),
/// with the kinds of its neighbours.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    color: u8,
    /// Black neighbours in bits 0-2, white ones in bits 3-5, wall cells in bits 6-7 (three at
    /// most: a 1x1 board's one point, with four, is never judged, having no neighbour to play
    /// from). Meaningless on wall cells.
    around: u8,
    head: u16,
    next: u16,
    libs: u16,
}

/// A wall cell, as every location past the board holds one.
const WALL_CELL: Cell = Cell { color: WALL, around: 0, head: NONE, next: NONE, libs: 0 };

/// What the neighbours of an empty point make of a move there, for the playout policy, read
/// from [`Cell::around`] through [`SHAPES`]: whether the move can be a self-atari, suicide or
/// the filling of an own eye, and which chains must be looked at to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Two empty neighbours, or one and none of the player's stones: no eye, no self-atari,
    /// no suicide.
    Open,
    /// Only opponent stones (and walls) around: suicide unless the move captures.
    Enclosed,
    /// Only the player's stones around, in the middle of the board: an eye, true unless the
    /// opponent holds two diagonals.
    Surrounded,
    /// Only the player's stones around, on the edge: an eye, true unless the opponent holds a
    /// diagonal.
    SurroundedOnEdge,
    /// Some of the player's stones and no empty neighbour.
    Crowded,
    /// Some of the player's stones and one empty neighbour.
    CrowdedWithOneLiberty,
}

/// The [`Shape`] of every [`Cell::around`] byte, for each player ([`BLACK`] first).
static SHAPES: [[Shape; 256]; 2] = {
    let mut table = [[Shape::Open; 256]; 2];
    let mut around = 0;
    while around < 256 {
        table[0][around] = shape_of(BLACK, around as u8);
        table[1][around] = shape_of(WHITE, around as u8);
        around += 1;
    }
    table
};

/// See [`SHAPES`].
const fn shape_of(pla: u8, around: u8) -> Shape {
    let black = around & 7;
    let white = (around >> 3) & 7;
    let walls = around >> 6;
    let (own, opponent) = if pla == BLACK { (black, white) } else { (white, black) };
    if walls + own + opponent > 4 {
        // No point has these neighbours.
        return Shape::Open;
    }
    let empty = 4 - walls - own - opponent;
    if empty >= 2 || (empty == 1 && own == 0) {
        Shape::Open
    } else if own == 0 {
        Shape::Enclosed
    } else if empty == 0 && opponent == 0 {
        if walls > 0 { Shape::SurroundedOnEdge } else { Shape::Surrounded }
    } else if empty == 0 {
        Shape::Crowded
    } else {
        Shape::CrowdedWithOneLiberty
    }
}

/// What [`Cell::around`] gains when a neighbour takes a stone of the colour code `pla`.
#[inline(always)]
fn around_step(pla: u8) -> u8 {
    if pla == BLACK { 1 } else { 8 }
}

/// What [`PlayoutBoard::play`] has seen of the move so far (the rules board's `MoveState`).
struct MoveState {
    pla: u8,
    loc: u16,
    own: u16,
    captured: u32,
    possible_ko: u16,
    seen: [u16; 3],
}

/// A position for playouts; see the module documentation. Its tables are in place (see
/// [`ByLoc`]): it lives on the heap, made by [`PlayoutBoard::walls`].
#[derive(Clone, Debug)]
pub(super) struct PlayoutBoard {
    stride: u16,
    /// One past the largest location of the board.
    len: usize,
    cells: ByLoc<Cell>,
    /// The stone count of each chain, at its head.
    stones: ByLoc<u16>,
    /// On an empty point the policy found to be a player's true eye, that player's colour
    /// code ([`EMPTY`] elsewhere; see [`PlayoutBoard::eye_owner`]).
    eye_owner: ByLoc<u8>,
    ko: u16,
    ko_banned: u8,
}

impl PlayoutBoard {
    /// A copy of `board`'s position, chains and ko.
    #[cfg(test)]
    pub(super) fn of_board(board: &Board) -> Box<PlayoutBoard> {
        let mut fast = PlayoutBoard::walls();
        fast.load(board);
        fast
    }

    /// A board of no location, every table entry a wall cell's: [`PlayoutBoard::load`] makes
    /// it a position.
    pub(super) fn walls() -> Box<PlayoutBoard> {
        Box::new(PlayoutBoard {
            stride: 0,
            len: 0,
            cells: ByLoc([WALL_CELL; SLOTS]),
            stones: ByLoc([0; SLOTS]),
            eye_owner: ByLoc([EMPTY; SLOTS]),
            ko: NONE,
            ko_banned: EMPTY,
        })
    }

    /// Makes `self` (a board of any size, or [`PlayoutBoard::walls`]) a copy of `board`'s
    /// position, chains and ko, in the tables it has: a sampler sets up one position after
    /// another on the same tables rather than allocating and filling them for each.
    pub(super) fn load(&mut self, board: &Board) {
        let len = board.loc_count();
        // Strictly below: the diagonal below the last point is location `len` (see `ByLoc`).
        assert!(len < SLOTS, "a board of {len} locations");
        self.clear_past(len);
        let stride = board.size().width as u16 + 1;
        let PlayoutBoard { cells, stones, eye_owner, .. } = self;
        for loc in 0..len as u16 {
            let cell = &mut cells[loc];
            *cell = Cell::default();
            stones[loc] = 0;
            eye_owner[loc] = EMPTY;
            if !board.on_board_at(loc) {
                cell.color = WALL;
                continue;
            }
            let Some(color) = board.stone_at(loc) else { continue };
            cell.color = code(color);
            cell.head = board.head_at(loc);
            cell.next = board.ring_next_at(loc);
            if cell.head == loc {
                cell.libs = board.libs_at(loc) as u16;
                stones[loc] = board.chain_len_at(loc) as u16;
            }
        }
        for loc in 0..len as u16 {
            if cells[loc].color == WALL {
                continue;
            }
            debug_assert_eq!(
                board.neighbours_of(loc),
                [loc - stride, loc - 1, loc + 1, loc + stride]
            );
            let mut around = 0u8;
            let mut walls = 0u8;
            for a in [loc - stride, loc - 1, loc + 1, loc + stride] {
                match cells[a].color {
                    WALL => walls += 1,
                    EMPTY => {}
                    c => around += around_step(c),
                }
            }
            cells[loc].around = around | walls.min(3) << 6;
        }
        (self.ko, self.ko_banned) = match board.ko() {
            Some((p, c)) => (board.loc(p).unwrap_or(NONE), code(c)),
            None => (NONE, EMPTY),
        };
        self.stride = stride;
        self.len = len;
    }

    /// Makes the locations from `len` to the end of the board `self` holds wall cells again,
    /// as they are past the end of a board of `len` locations.
    fn clear_past(&mut self, len: usize) {
        for loc in len..self.len {
            let loc = loc as u16;
            self.cells[loc] = WALL_CELL;
            self.stones[loc] = 0;
            self.eye_owner[loc] = EMPTY;
        }
    }

    /// [`PlayoutBoard::copy_from`] for a `source` of any size.
    pub(super) fn copy_any_from(&mut self, source: &PlayoutBoard) {
        self.clear_past(source.len);
        (self.len, self.stride) = (source.len, source.stride);
        self.copy_from(source);
    }

    /// Makes `self` the position `source` holds (a copy of the same board).
    pub(super) fn copy_from(&mut self, source: &PlayoutBoard) {
        debug_assert_eq!((self.len, self.stride), (source.len, source.stride));
        let len = self.len;
        self.cells.0[..len].copy_from_slice(&source.cells.0[..len]);
        self.stones.0[..len].copy_from_slice(&source.stones.0[..len]);
        self.eye_owner.0[..len].copy_from_slice(&source.eye_owner.0[..len]);
        self.ko = source.ko;
        self.ko_banned = source.ko_banned;
    }

    /// The four neighbours of a location (some may be wall cells).
    #[inline(always)]
    pub(super) fn neighbours(&self, loc: u16) -> [u16; 4] {
        [loc - self.stride, loc - 1, loc + 1, loc + self.stride]
    }

    /// The four diagonal neighbours of an on-board location (some may be wall cells).
    #[inline(always)]
    pub(super) fn diagonals(&self, loc: u16) -> [u16; 4] {
        let (up, down) = (loc - self.stride, loc + self.stride);
        [up - 1, up + 1, down - 1, down + 1]
    }

    /// The colour code on a location: [`EMPTY`], [`BLACK`], [`WHITE`] or [`WALL`].
    #[inline(always)]
    pub(super) fn color(&self, loc: u16) -> u8 {
        self.cells[loc].color
    }

    /// Whether a location is an empty point.
    #[inline(always)]
    pub(super) fn is_empty(&self, loc: u16) -> bool {
        self.cells[loc].color == EMPTY
    }

    /// The head of the chain on a stone's location (identifies the chain).
    #[inline(always)]
    pub(super) fn head(&self, loc: u16) -> u16 {
        self.cells[loc].head
    }

    /// Liberties of the chain on a stone's location; 0 on an empty point or a wall cell (their
    /// head is location 0, a wall cell, whose liberty count nothing ever changes), which spares
    /// the policy a colour test where only a chain could have the count it looks for.
    #[inline(always)]
    pub(super) fn libs(&self, loc: u16) -> u16 {
        debug_assert_eq!((self.cells[NONE].color, self.cells[NONE].libs), (WALL, 0));
        self.cells[self.cells[loc].head].libs
    }

    /// Stones of the chain on a stone's location.
    #[inline(always)]
    pub(super) fn chain_len(&self, loc: u16) -> u16 {
        self.stones[self.cells[loc].head]
    }

    /// The stone after `loc` in its chain's ring.
    #[inline(always)]
    pub(super) fn next(&self, loc: u16) -> u16 {
        self.cells[loc].next
    }

    /// What the neighbours of the empty on-board `loc` make of a move of the player `pla`
    /// there.
    #[inline(always)]
    pub(super) fn shape(&self, pla: u8, loc: u16) -> Shape {
        SHAPES[(pla as usize - 1) & 1][self.cells[loc].around as usize]
    }

    /// How many neighbours of an on-board location hold stones of the player `pla`.
    #[inline(always)]
    pub(super) fn own_neighbours(&self, pla: u8, loc: u16) -> u8 {
        let around = self.cells[loc].around;
        if pla == BLACK { around & 7 } else { (around >> 3) & 7 }
    }

    /// How many neighbours of an on-board location are empty points.
    #[inline(always)]
    pub(super) fn empty_neighbours(&self, loc: u16) -> u8 {
        let around = self.cells[loc].around;
        4 - (around & 7) - ((around >> 3) & 7) - (around >> 6)
    }

    /// The player whose true eye the empty `loc` was found to be ([`PlayoutBoard::mark_eye`]),
    /// or [`EMPTY`]. The mark outlives the look that set it only while the eye's shape holds:
    /// a stone played on the point or on one of its diagonals clears it, and nothing else can
    /// change what made the point a true eye (its four neighbours the owner's stones or walls,
    /// too few of the opponent's stones on its diagonals): the neighbours of an empty point
    /// are never captured, having it as a liberty. The playouts draw such points again and
    /// again, and the mark spares them the look.
    #[inline(always)]
    pub(super) fn eye_owner(&self, loc: u16) -> u8 {
        self.eye_owner[loc]
    }

    /// Notes that the empty `loc` is a true eye of the player `pla` (see
    /// [`PlayoutBoard::eye_owner`]).
    #[inline(always)]
    pub(super) fn mark_eye(&mut self, pla: u8, loc: u16) {
        self.eye_owner[loc] = pla;
    }

    /// The point the player `pla` may not retake at once, or [`NONE`].
    #[inline]
    pub(super) fn ko_for(&self, pla: u8) -> u16 {
        if self.ko_banned == pla { self.ko } else { NONE }
    }

    /// A pass: clears the ko point.
    #[inline]
    pub(super) fn pass(&mut self) {
        self.ko = NONE;
        self.ko_banned = EMPTY;
    }

    /// Whether `pla` may play on `loc` with suicide forbidden, ko included (the rules board's
    /// `check_loc` with [`crate::rules::SuicideRule::Forbidden`]).
    #[inline]
    pub(super) fn legal(&self, pla: u8, loc: u16) -> bool {
        if self.cells[loc].color != EMPTY || self.is_suicide(pla, loc) {
            return false;
        }
        !(loc == self.ko && self.ko_banned == pla)
    }

    /// Whether a stone of `pla` on the empty `loc` would capture nothing and be left without
    /// liberties.
    fn is_suicide(&self, pla: u8, loc: u16) -> bool {
        for a in self.neighbours(loc) {
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

    /// The first liberty of the chain on the stone at `loc` that its walk from the head meets,
    /// other than `except` ([`NONE`] for none); [`NONE`] when there is none.
    #[inline]
    pub(super) fn liberty_besides(&self, loc: u16, except: u16) -> u16 {
        let head = self.cells[loc].head;
        let mut cur = head;
        loop {
            for a in self.neighbours(cur) {
                if self.cells[a].color == EMPTY && a != except {
                    return a;
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                return NONE;
            }
        }
    }

    /// Up to `out.len()` distinct liberties of the chain on a stone's location, in the order
    /// of its walk from the head, written to `out`; returns how many were found.
    pub(super) fn some_liberties(&self, loc: u16, out: &mut [u16]) -> usize {
        let head = self.cells[loc].head;
        let mut found = 0;
        let mut cur = head;
        loop {
            for a in self.neighbours(cur) {
                if self.cells[a].color == EMPTY && !out[..found].contains(&a) {
                    if found == out.len() {
                        return found;
                    }
                    out[found] = a;
                    found += 1;
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                return found;
            }
        }
    }

    /// Plays `pla` on the empty `loc` as the rules board does (captures, the mover's chain
    /// removed if left without liberties, the ko point), appending the captured stones to
    /// `captured` in the order they come off.
    #[inline]
    pub(super) fn play(&mut self, pla: u8, loc: u16, captured: &mut Vec<u16>) {
        debug_assert_eq!(self.cells[loc].color, EMPTY);
        let adjacent = self.neighbours(loc);
        let near = adjacent.map(|a| self.cells[a].color);
        let libs = near.iter().map(|&c| u16::from(c == EMPTY)).sum::<u16>();
        let cell = &mut self.cells[loc];
        cell.color = pla;
        cell.head = loc;
        cell.next = loc;
        cell.libs = libs;
        self.stones[loc] = 1;
        let step = around_step(pla);
        for a in adjacent {
            self.cells[a].around = self.cells[a].around.wrapping_add(step);
        }
        // An eye's shape changes with a stone on it or on its diagonals (`eye_owner`).
        self.eye_owner[loc] = EMPTY;
        for d in self.diagonals(loc) {
            self.eye_owner[d] = EMPTY;
        }

        let mut m =
            MoveState { pla, loc, own: loc, captured: 0, possible_ko: NONE, seen: [NONE; 3] };
        self.touch(&mut m, adjacent[0], near[0], 0, captured);
        self.touch(&mut m, adjacent[1], near[1], 1, captured);
        self.touch(&mut m, adjacent[2], near[2], 2, captured);
        self.touch(&mut m, adjacent[3], near[3], 3, captured);
        let MoveState { own: head, captured: taken, possible_ko, .. } = m;

        let libs = self.cells[head].libs;
        // The rules board's (KataGo's) ko test: one stone captured by a lone stone left in atari.
        if taken == 1 && head == loc && libs == 1 {
            self.ko = possible_ko;
            self.ko_banned = pla ^ 3;
        } else {
            self.ko = NONE;
            self.ko_banned = EMPTY;
        }
        if libs == 0 {
            // Suicide: the policy never plays one, but the rules board would take the chain off.
            let mark = captured.len();
            self.remove_chain(head, captured);
            captured.truncate(mark);
        }
    }

    /// The rules board's `touch`: what the move does to its `index`-th neighbour `a`, of colour
    /// `color` before the move.
    #[inline(always)]
    fn touch(
        &mut self,
        m: &mut MoveState,
        a: u16,
        color: u8,
        index: usize,
        captured: &mut Vec<u16>,
    ) {
        if color == m.pla {
            let head = self.cells[a].head;
            if head == m.own {
                return;
            }
            self.cells[head].libs -= 1;
            if m.own == m.loc {
                self.join_lone_stone(head, m.loc);
                m.own = head;
            } else {
                m.own = self.merge_chains(head, m.own);
            }
        } else if color == m.pla ^ 3 {
            let cell = self.cells[a];
            if cell.color != color {
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
            *libs -= 1;
            if *libs == 0 {
                m.captured += self.remove_chain(head, captured);
                m.possible_ko = a;
            }
        }
    }

    /// The rules board's `join_lone_stone`: the lone stone on `loc` joins the chain headed by
    /// `big`, right after its head in the ring.
    #[inline(always)]
    fn join_lone_stone(&mut self, big: u16, loc: u16) {
        let mut new_libs = 0;
        for adj in self.neighbours(loc) {
            if self.cells[adj].color == EMPTY && !self.is_liberty_of(adj, big) {
                new_libs += 1;
            }
        }
        self.cells[loc].head = big;
        self.cells[loc].next = self.cells[big].next;
        self.cells[big].next = loc;
        self.cells[big].libs += new_libs;
        self.stones[big] += 1;
    }

    /// The rules board's `merge_chains`: the smaller chain joins the larger (`a` on a tie);
    /// returns the head of the merged chain.
    fn merge_chains(&mut self, a: u16, b: u16) -> u16 {
        let (big, small) = if self.stones[a] < self.stones[b] { (b, a) } else { (a, b) };
        let mut new_libs = 0;
        let mut cur = small;
        loop {
            for adj in self.neighbours(cur) {
                if self.cells[adj].color == EMPTY && !self.is_liberty_of(adj, big) {
                    new_libs += 1;
                }
            }
            self.cells[cur].head = big;
            let next = self.cells[cur].next;
            if next == small {
                break;
            }
            cur = next;
        }
        let big_next = self.cells[big].next;
        self.cells[cur].next = big_next;
        self.cells[big].next = small;
        self.cells[big].libs += new_libs;
        self.stones[big] += self.stones[small];
        big
    }

    /// Whether the empty location `loc` touches a stone of the chain headed by `head`.
    #[inline(always)]
    fn is_liberty_of(&self, loc: u16, head: u16) -> bool {
        let [a, b, c, d] = self.neighbours(loc);
        self.cells[a].head == head
            || self.cells[b].head == head
            || self.cells[c].head == head
            || self.cells[d].head == head
    }

    /// The rules board's `remove_chain`, appending the freed points to `freed`; returns the
    /// number of stones removed.
    fn remove_chain(&mut self, head: u16, freed: &mut Vec<u16>) -> u32 {
        let color = self.cells[head].color;
        let other = color ^ 3;
        let step = around_step(color);
        let mut removed = 0;
        let mut cur = head;
        loop {
            let cell = &mut self.cells[cur];
            cell.color = EMPTY;
            cell.head = NONE;
            removed += 1;
            freed.push(cur);
            let mut seen = [NONE; 3];
            let adjacent = self.neighbours(cur);
            for (i, &a) in adjacent.iter().enumerate() {
                let cell = &mut self.cells[a];
                cell.around = cell.around.wrapping_sub(step);
                let (c, h) = (cell.color, cell.head);
                if c == other && h != seen[0] && h != seen[1] && h != seen[2] {
                    self.cells[h].libs += 1;
                    if i < 3 {
                        seen[i] = h;
                    }
                }
            }
            cur = self.cells[cur].next;
            if cur == head {
                break;
            }
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Point, SuicideRule};

    /// An eye's mark goes when its shape may have changed, with a stone on the point or on a
    /// diagonal; a move elsewhere leaves it.
    #[test]
    fn an_eye_mark_lasts_as_long_as_the_eye() {
        let board = Board::from_diagram(
            "
            . . . . .
            . . X . .
            . X . X .
            . . X O .
            . . . . .
            ",
        )
        .unwrap();
        let at = |name: &str| board.loc(Point::from_sgf(name.as_bytes()).unwrap()).unwrap();
        let mut fast = PlayoutBoard::of_board(&board);
        let mut captured = Vec::new();
        fast.mark_eye(BLACK, at("cc"));
        fast.play(WHITE, at("ae"), &mut captured);
        assert_eq!(fast.eye_owner(at("cc")), BLACK, "a move away from the eye");
        fast.play(WHITE, at("bd"), &mut captured);
        assert_eq!(fast.eye_owner(at("cc")), EMPTY, "a second white stone on a diagonal");
        fast.mark_eye(BLACK, at("cc"));
        fast.play(BLACK, at("cc"), &mut captured);
        fast.play(WHITE, at("ce"), &mut captured);
        assert_eq!(fast.eye_owner(at("cc")), EMPTY, "a stone on the point");
        assert!(captured.is_empty());
    }

    /// Plays the same moves on a rules board and a playout board and compares, after each,
    /// every point's colour, chain, ring successor and liberty count, and the ko.
    #[test]
    fn plays_like_the_rules_board() {
        let mut board = Board::from_diagram(
            "
            . X O . . .
            X O . O . .
            . X O . . .
            . . . . X X
            . O . X O .
            . . . X O .
            ",
        )
        .unwrap();
        let mut fast = PlayoutBoard::of_board(&board);
        // A ko taken and the retake refused, occupied points refused, a two-stone capture that
        // joins two chains, moves on the edge.
        let moves = [
            (Color::Black, "cb"),
            (Color::White, "bb"),
            (Color::White, "ee"),
            (Color::Black, "ff"),
            (Color::White, "bd"),
            (Color::Black, "fe"),
            (Color::White, "cd"),
            (Color::Black, "bc"),
            (Color::White, "ac"),
        ];
        let mut captured = Vec::new();
        for (color, name) in moves {
            let p = Point::from_sgf(name.as_bytes()).unwrap();
            let loc = board.loc(p).unwrap();
            let legal = board.check(color, p, SuicideRule::Forbidden).is_ok();
            assert_eq!(fast.legal(code(color), loc), legal, "{name}");
            if !legal {
                continue;
            }
            let effect = board.play(color, p, SuicideRule::Forbidden).unwrap();
            captured.clear();
            fast.play(code(color), loc, &mut captured);
            assert_eq!(captured.len() as u32, effect.captured, "{name}");
            let again = PlayoutBoard::of_board(&board);
            for l in 0..board.loc_count() as u16 {
                let (a, b) = (fast.cells[l], again.cells[l]);
                assert_eq!((a.color, a.head), (b.color, b.head), "{name}: {l}");
                if a.color != WALL {
                    assert_eq!(a.around, b.around, "{name}: the neighbours of {l}");
                    let empty = fast.neighbours(l).iter().filter(|&&n| fast.is_empty(n)).count();
                    assert_eq!(fast.empty_neighbours(l) as usize, empty, "{name}: empty at {l}");
                }
                if a.color == BLACK || a.color == WHITE {
                    assert_eq!(a.next, b.next, "{name}: the ring at {l}");
                    assert_eq!(fast.libs(l), again.libs(l), "{name}: liberties at {l}");
                    assert_eq!(fast.chain_len(l), again.chain_len(l), "{name}: stones at {l}");
                }
            }
            assert_eq!((fast.ko, fast.ko_banned), (again.ko, again.ko_banned), "{name}: ko");
        }
    }
}
