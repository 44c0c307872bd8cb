//! Deterministic random playouts from a final position, for the stones static analysis leaves
//! unclear: both sides play on until neither has a sensible move, and each point's final owner
//! is averaged over the playouts.
//!
//! The policy follows the notes' recommendations (`shared/notes/dead-stones.md` §5, after MoGo,
//! Pachi and the OGS estimator):
//! - answer the opponent's last move tactically: capture the chain it left in atari, or save a
//!   chain it put in atari (capture a neighbour in atari, or extend to two liberties or more);
//! - failing that, in a game that ended by two passes, the nakade rule (MoGo, Pachi): when the
//!   last move leaves the opponent's small eye space next to it with a killing shape (three
//!   points, the pyramid four, bulky or cross five, rabbity six), play its vital point, which
//!   uniformly random attackers rarely find while the owner, stumbling on it, makes two eyes.
//!   Only there: in a finished game the groups inside territory are settled shapes, and the
//!   rule took back two held-out finished games (OGS 19x19 and 9x9) and lost none; on
//!   professional records that stop before the end it changed nothing beyond the noise of a
//!   reseeded run (aeb-pro Japanese within 2: 14,321 -> 14,309, same winner 14,471 ->
//!   14,476; reseeded, 14,291-14,314 and 14,443-14,465) for +8.6% of `kifu audit`'s
//!   instructions on them (callgrind, 600 professional games), against +0.7% for the test per
//!   move with the rule left to finished games;
//! - otherwise a uniformly random move, except that a player never fills its own true eye
//!   (with the diagonal test for false eyes), never puts a chain of two or more stones into
//!   atari unless the move captures (a lone stone may, for throw-ins and snapbacks), and never
//!   plays on points the caller froze (territory proven by Benson's algorithm);
//! - simple ko is the board's; a player with no such move passes; two passes end the playout.
//!
//! The random numbers come from a SplitMix64 generator seeded with the position's hash and the
//! playout's index, so the same position gives the same ownership on every run and thread.
//!
//! The playouts play on their own copy of the position ([`board`]): it plays exactly as the
//! rules board does, so the draws are the same, but keeps at hand what the policy asks of a
//! point.

mod board;

use self::board::{BLACK, ByLoc, EMPTY, NONE, PlayoutBoard, Shape, WALL, code};
use super::layout::Layout;
use crate::rules::{Board, Color};

/// SplitMix64: tiny, fast, and good enough to shuffle move choices.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0): always below `n`, as [`draw_to`] needs (the top 32 bits of
    /// the draw times `n`, shifted down 32 bits, is below `n`; when the product wraps, `n` is
    /// at least 2^32 and the answer below that).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// Average ownership over playouts of the points the sampler watches (row-major; 0 at the
/// others): +1 always Black's, -1 always White's; separately for the playouts Black started and
/// those White started. A view of the sampler's sums, averaged point by point when asked: the
/// caller reads only the points of some chains.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ownership<'a> {
    /// The sums, indexed by the colour that moved first ([`Color::index`]).
    sum: &'a [Vec<i32>; 2],
    /// What each sum is multiplied by for its average: one over its playouts.
    scale: [f32; 2],
}

impl Ownership<'_> {
    /// The average ownership of point `i` over the playouts `first` started.
    #[inline]
    fn by_first(&self, first: usize, i: usize) -> f32 {
        self.sum[first][i] as f32 * self.scale[first]
    }

    /// The ownership of point `i` from `color`'s side (+1: always `color`'s), averaged over
    /// the playouts each side started. Counting only those the opponent started calls both
    /// chains of a capturing race dead (whoever moves first wins it), and a race that the
    /// players left is usually settled: the average keeps the side that wins it either way.
    pub(crate) fn support(&self, i: usize, color: Color) -> f32 {
        let v = 0.5 * (self.by_first(0, i) + self.by_first(1, i));
        if color == Color::Black { v } else { -v }
    }
}

/// The board's location of every flat index, and back.
struct Locations {
    of_index: Vec<u16>,
    index_of: Box<ByLoc<u32>>,
}

/// Runs playouts from one position in batches, keeping the sums, so the caller can stop as soon
/// as the statuses it needs are clear. Playout `k` always uses the same seed, so the result
/// depends only on how many playouts ran, never on how they were batched.
///
/// Its tables (several kilobytes indexed by location) outlive it: [`Sampler::recycle`] leaves
/// them for the next sampler on the same thread, which sets its position up in them.
pub(crate) struct Sampler {
    /// The position every playout starts from.
    start_board: Box<PlayoutBoard>,
    locs: Locations,
    playable: Box<ByLoc<bool>>,
    /// The points whose ownership the caller reads (the stones of the chains no proof
    /// decided): the only ones a playout's end is read at.
    watched: Vec<usize>,
    /// The position's empty points a playout may play, row by row.
    start: Vec<u16>,
    seed: u64,
    sum: [Vec<i32>; 2],
    runs: [u32; 2],
    scratch: Box<PlayoutBoard>,
    state: PlayoutState,
}

thread_local! {
    /// The last sampler recycled on this thread (see [`Sampler`]).
    static SPARE: std::cell::Cell<Option<Sampler>> = const { std::cell::Cell::new(None) };
}

impl Sampler {
    /// A sampler for `board` that keeps the ownership of the `watched` points (row-major
    /// indices); `frozen` points are never played; `nakade`: whether the playouts use the
    /// nakade rule (see the module's doc). It sets up in the tables of the thread's last
    /// recycled sampler, if there is one.
    pub(crate) fn new(
        layout: &Layout,
        board: &Board,
        frozen: &[bool],
        watched: Vec<usize>,
        seed: u64,
        nakade: bool,
    ) -> Self {
        let mut sampler = SPARE.take().unwrap_or_else(Sampler::unset);
        sampler.set_up(layout, board, frozen, watched, seed, nakade);
        sampler
    }

    /// Leaves this sampler's tables to the next [`Sampler::new`] on this thread.
    pub(crate) fn recycle(self) {
        SPARE.set(Some(self));
    }

    /// A sampler of no position, its tables fresh: [`Sampler::set_up`] gives it one.
    fn unset() -> Sampler {
        Sampler {
            start_board: PlayoutBoard::walls(),
            locs: Locations { of_index: Vec::new(), index_of: ByLoc::filled(u32::MAX) },
            playable: ByLoc::filled(false),
            watched: Vec::new(),
            start: Vec::new(),
            seed: 0,
            sum: [Vec::new(), Vec::new()],
            runs: [0, 0],
            scratch: PlayoutBoard::walls(),
            state: PlayoutState {
                nakade: false,
                candidates: Vec::new(),
                touched: [Touched::new(), Touched::new()],
                region: Vec::new(),
                stack: Vec::new(),
                points: Vec::new(),
                captured: Vec::new(),
            },
        }
    }

    /// Makes this sampler one for a new position, as [`Sampler::new`] describes, with no
    /// playout run: every table holds what it held when fresh, but for this position.
    fn set_up(
        &mut self,
        layout: &Layout,
        board: &Board,
        frozen: &[bool],
        watched: Vec<usize>,
        seed: u64,
        nakade: bool,
    ) {
        let n = layout.grid.len();
        // The tables by location hold something only at the last position's points.
        let Locations { of_index, index_of } = &mut self.locs;
        for &loc in of_index.iter() {
            index_of[loc] = u32::MAX;
            self.playable[loc] = false;
        }
        of_index.clear();
        for i in 0..n {
            let loc = board.loc(layout.point(i)).expect("layout points are on the board");
            index_of[loc] = i as u32;
            of_index.push(loc);
        }
        for (i, &f) in frozen.iter().enumerate().take(n) {
            self.playable[of_index[i]] = !f;
        }
        self.start_board.load(board);
        self.scratch.copy_any_from(&self.start_board);
        playable_empty_points(&self.start_board, &self.locs, &self.playable, &mut self.start);
        self.watched = watched;
        self.seed = seed;
        for sum in &mut self.sum {
            sum.clear();
            sum.resize(n, 0);
        }
        self.runs = [0, 0];
        self.state.nakade = nakade;
        self.state.region.clear();
        self.state.region.resize(n, UNKNOWN);
    }

    /// Playouts run so far.
    pub(crate) fn count(&self) -> u32 {
        self.runs[0] + self.runs[1]
    }

    /// Runs `more` playouts (alternately Black and White to move first).
    pub(crate) fn run(&mut self, more: u32) {
        for _ in 0..more {
            let k = self.count() as u64;
            self.scratch.copy_from(&self.start_board);
            let mut rng = Rng::new(self.seed ^ (k + 1).wrapping_mul(0xd6e8_feb8_6659_fd93));
            let first = if k.is_multiple_of(2) { Color::Black } else { Color::White };
            play_out(
                &mut self.scratch,
                &self.locs,
                &self.playable,
                &self.start,
                code(first),
                &mut rng,
                &mut self.state,
            );
            add_final_owners(
                &self.locs,
                &self.scratch,
                &self.watched,
                &mut self.sum[first.index()],
                &mut self.state,
            );
            self.runs[first.index()] += 1;
        }
    }

    /// The average ownership so far.
    pub(crate) fn ownership(&self) -> Ownership<'_> {
        let scale = |runs: u32| 1.0 / runs.max(1) as f32;
        Ownership { sum: &self.sum, scale: [scale(self.runs[0]), scale(self.runs[1])] }
    }
}

struct PlayoutState {
    /// Whether the playouts answer with the nakade rule (games that ended by two passes).
    nakade: bool,
    candidates: Vec<u16>,
    touched: [Touched; 2],
    /// Per point: the owner of its empty region at the end of the playout, once
    /// [`add_final_owners`] has filled it ([`UNKNOWN`] before, [`FILLING`] during the fill).
    region: Vec<i8>,
    stack: Vec<usize>,
    /// The points of the region [`add_final_owners`] is filling.
    points: Vec<usize>,
    /// The stones the move being played captures.
    captured: Vec<u16>,
}

/// The empty points of `board` a playout may play, row by row, into `candidates`: every
/// playout's first candidates.
fn playable_empty_points(
    board: &PlayoutBoard,
    locs: &Locations,
    playable: &ByLoc<bool>,
    candidates: &mut Vec<u16>,
) {
    candidates.clear();
    for &loc in &locs.of_index {
        if playable[loc] && board.is_empty(loc) {
            candidates.push(loc);
        }
    }
}

/// Plays one playout on `board` (the sampler's position, with `start` its playable empty
/// points); `first` is the colour code of the player who moves first.
fn play_out(
    board: &mut PlayoutBoard,
    locs: &Locations,
    playable: &ByLoc<bool>,
    start: &[u16],
    first: u8,
    rng: &mut Rng,
    state: &mut PlayoutState,
) {
    state.candidates.clear();
    state.candidates.extend_from_slice(start);
    let mut to_move = first;
    let mut passes = 0;
    let mut last = NONE;
    // A player who found no move on its last turn only needs to look again where the board
    // changed since: `touched[colour]` collects those points (the moves, their neighbours and
    // diagonals, the liberties of the chains they touched, and captured points).
    let mut passed = [false; 2];
    state.touched[0].clear();
    state.touched[1].clear();
    let limit = 3 * locs.of_index.len() + 50;
    let nakade = state.nakade;
    for _ in 0..limit {
        let me = (to_move - 1) as usize;
        // The point this player may not retake at once, if a ko was just taken.
        let ko = board.ko_for(to_move);
        let mut chosen = if last != NONE { urgent_move(board, to_move, last, rng) } else { NONE };
        // Only a stone with one or two empty neighbours can close or shrink a small eye space
        // (most moves have more), so the others skip the look.
        if chosen == NONE && nakade && last != NONE && matches!(board.empty_neighbours(last), 1 | 2)
        {
            chosen = nakade_move(board, playable, to_move, last, ko);
        }
        if chosen == NONE && passed[me] {
            let list = &mut state.touched[me].list;
            let mut untried = list.len();
            while untried > 0 {
                let pick = rng.below(untried);
                untried -= 1;
                let loc = draw_to(list, pick, untried);
                if playable[loc] && board.is_empty(loc) && may_play(board, to_move, loc, ko) {
                    chosen = loc;
                    break;
                }
            }
        } else if chosen == NONE {
            // Random candidates: `candidates[..untried]` are this turn's untried ones. Points
            // found occupied leave the list; refused ones stay for later turns.
            let list = state.candidates.as_mut_slice();
            let mut len = list.len();
            let mut untried = len;
            while untried > 0 {
                let pick = rng.below(untried);
                untried -= 1;
                let loc = draw_to(list, pick, untried);
                if !board.is_empty(loc) {
                    // Out of the list: the last candidate takes its place.
                    len -= 1;
                    list[untried] = list[len];
                    continue;
                }
                if board.eye_owner(loc) == to_move {
                    // Refused as its own eye again (`judge_shape` would say so).
                    debug_assert_eq!(judge_shape(board, to_move, loc), Judgement::OwnEye);
                    continue;
                }
                match judge_shape(board, to_move, loc) {
                    Judgement::Playable if loc != ko => {
                        chosen = loc;
                        break;
                    }
                    Judgement::OwnEye => board.mark_eye(to_move, loc),
                    _ => {}
                }
            }
            state.candidates.truncate(len);
        }
        if chosen != NONE {
            let loc = chosen;
            // Chains this move captures: their points become candidates again.
            let captured = &mut state.captured;
            captured.clear();
            board.play(to_move, loc, captured);
            passed[me] = false;
            state.touched[me].clear();
            let other = 1 - me;
            if passed[other] {
                note_changes(board, loc, captured, &mut state.touched[other]);
            }
            state.candidates.extend(captured.iter().copied().filter(|&c| playable[c]));
            last = loc;
            passes = 0;
        } else {
            board.pass();
            last = NONE;
            passed[me] = true;
            state.touched[me].clear();
            passes += 1;
            if passes >= 2 {
                break;
            }
        }
        to_move ^= 3;
    }
}

/// Swaps `list[pick]` into `list[last]`, the end of the untried candidates of a draw, and
/// returns it; `pick <= last < list.len()`.
///
/// Unchecked: the draw is the playouts' most frequent step (about five a move), and the two
/// bounds checks of `swap` were a tenth of its instructions. Sound because every caller
/// draws `pick` with [`Rng::below`]`(last + 1)`, which answers below its bound, and keeps `last`
/// below the list's length (its untried count never exceeds the list's). Debug builds check it.
#[inline(always)]
fn draw_to(list: &mut [u16], pick: usize, last: usize) -> u16 {
    debug_assert!(pick <= last && last < list.len(), "draw {pick} of {last} in {}", list.len());
    // SAFETY: `pick <= last < list.len()` (see above).
    unsafe {
        let drawn = *list.get_unchecked(pick);
        *list.get_unchecked_mut(pick) = *list.get_unchecked(last);
        *list.get_unchecked_mut(last) = drawn;
        drawn
    }
}

/// The points a player who passed looks at again ([`play_out`]), each once, in the order
/// found.
struct Touched {
    list: Vec<u16>,
    /// Membership in `list`: the locations whose entry is `generation`.
    mark: Box<ByLoc<u32>>,
    generation: u32,
}

impl Touched {
    fn new() -> Touched {
        Touched { list: Vec::new(), mark: ByLoc::filled(0), generation: 1 }
    }

    fn clear(&mut self) {
        // An empty list has no marks of this generation: nothing to clear (most moves).
        if self.list.is_empty() {
            return;
        }
        self.list.clear();
        if self.generation == u32::MAX {
            self.mark = ByLoc::filled(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// Adds `p` at the end unless it is in the list already.
    #[inline]
    fn add(&mut self, p: u16) {
        if self.mark[p] != self.generation {
            self.mark[p] = self.generation;
            self.list.push(p);
        }
    }
}

/// Records the points where a player's options may have changed after a move on `loc` that
/// captured `captured`.
fn note_changes(board: &PlayoutBoard, loc: u16, captured: &[u16], out: &mut Touched) {
    let add = |p: u16, out: &mut Touched| {
        if board.color(p) != WALL {
            out.add(p);
        }
    };
    let [up, left, right, down] = board.neighbours(loc);
    for p in [up, left, right, down, up - 1, up + 1, down - 1, down + 1] {
        add(p, out);
    }
    for a in [up, left, right, down] {
        if matches!(board.color(a), BLACK | board::WHITE) && board.libs(a) <= 3 {
            let mut libs = [0u16; 3];
            let got = board.some_liberties(a, &mut libs);
            for &l in &libs[..got] {
                add(l, out);
            }
        }
    }
    for &c in captured {
        add(c, out);
        for n in board.neighbours(c) {
            add(n, out);
        }
    }
}

/// The one liberty of the chain on the stone at `loc`, if it has exactly one; [`NONE`] if not.
#[inline]
fn lone_liberty(board: &PlayoutBoard, loc: u16) -> u16 {
    if board.libs(loc) != 1 {
        return NONE;
    }
    board.liberty_besides(loc, NONE)
}

/// A tactical answer of the player `pla` to the opponent's last move `m`: capture the chain it
/// left in atari, or save one of our chains it put in atari (capture a neighbour in atari, or
/// extend to two liberties or more). Legal moves only; [`NONE`] when there is none.
#[inline]
fn urgent_move(board: &PlayoutBoard, pla: u8, m: u16, rng: &mut Rng) -> u16 {
    let opp = pla ^ 3;
    let mut options = [0u16; 8];
    let mut k = 0;
    let mut push = |loc: u16, options: &mut [u16; 8]| {
        if loc != NONE && k < options.len() && !options[..k].contains(&loc) && board.legal(pla, loc)
        {
            options[k] = loc;
            k += 1;
        }
    };
    // `m` holds the opponent's stone (the policy plays no suicide), so its liberty count is
    // the chain's.
    debug_assert_eq!(board.color(m), opp, "the last move's stone stands");
    if board.libs(m) == 1 {
        push(board.liberty_besides(m, NONE), &mut options);
    }
    if board.own_neighbours(pla, m) == 0 {
        return if k > 0 { options[rng.below(k)] } else { NONE };
    }
    for a in board.neighbours(m) {
        if board.color(a) != pla || board.libs(a) != 1 {
            continue;
        }
        // Capture an opponent chain in atari touching the threatened chain: look around its
        // stones (chains in atari are short, so the walk is cheap).
        if board.chain_len(a) <= 6 {
            let head = board.head(a);
            let mut s = head;
            loop {
                for n in board.neighbours(s) {
                    if board.color(n) == opp && board.head(n) != head {
                        push(lone_liberty(board, n), &mut options);
                    }
                }
                s = board.next(s);
                if s == head {
                    break;
                }
            }
        }
        // Or extend, if that leaves at least two liberties.
        let l = lone_liberty(board, a);
        if l != NONE && liberties_after(board, pla, l) >= 2 {
            push(l, &mut options);
        }
    }
    if k > 0 { options[rng.below(k)] } else { NONE }
}

/// The most points an eye space may have for [`vital_point`] to name its vital point.
const NAKADE_MAX: usize = 6;

/// The vital point of the empty region around `start` if the region is an eye space of the
/// player `owner` (only its stones and the edge around it) with a killing shape: three points
/// (in a row or bent), four in a T ("pyramid"), five in a cross or bulky ("bulky five"), six
/// in the "rabbity six": a stone there leaves the owner one eye, whoever plays it. [`NONE`]
/// for any other region, the larger ones at once (Pachi's `nakade_point`).
fn vital_point(board: &PlayoutBoard, owner: u8, start: u16) -> u16 {
    let mut area = [NONE; NAKADE_MAX];
    area[0] = start;
    let mut len = 1;
    let mut i = 0;
    let attacker = owner ^ 3;
    while i < len {
        let p = area[i];
        if board.own_neighbours(attacker, p) != 0 {
            return NONE;
        }
        for n in board.neighbours(p) {
            // At most six points: a look through them is all the membership test needs.
            if board.is_empty(n) && !area[..len].contains(&n) {
                if len == NAKADE_MAX {
                    return NONE;
                }
                area[len] = n;
                len += 1;
            }
        }
        i += 1;
    }
    if len < 3 {
        return NONE;
    }
    // How many points have each number of neighbours in the area (all their empty
    // neighbours, the area being a whole empty region): the shapes differ by these counts.
    let mut with = [0u8; 5];
    let mut point_with = [NONE; 5];
    for &p in &area[..len] {
        let inside = board.empty_neighbours(p) as usize;
        with[inside] += 1;
        point_with[inside] = p;
    }
    match len {
        // Three in a row or bent: the middle point.
        3 => point_with[2],
        // The pyramid: its centre; a row, an L or a square has no vital point.
        4 if with[3] == 1 => point_with[3],
        // Bulky five (a square and one more), the cross.
        5 if with[3] == 1 && with[1] == 1 => point_with[3],
        5 if with[4] == 1 => point_with[4],
        // Rabbity six (a cross and one more next to an arm).
        6 if with[4] == 1 && with[2] == 3 => point_with[4],
        _ => NONE,
    }
}

/// The nakade answer of the player `pla` to the opponent's last move `m`: when `m` leaves one
/// of the opponent's small eye spaces with a killing shape next to it, its vital point
/// ([`vital_point`]), if the policy may play it; [`NONE`] otherwise. Uniformly random
/// attackers rarely find the point, and the owner, playing it by chance, makes two eyes.
/// Kept out of the playout loop: inlined there, it cost `kifu audit` 0.2% more instructions
/// on professional records, where the rule is off.
#[inline(never)]
fn nakade_move(board: &PlayoutBoard, playable: &ByLoc<bool>, pla: u8, m: u16, ko: u16) -> u16 {
    let owner = pla ^ 3;
    // Cheap filters first: `m` has one or two empty neighbours ([`play_out`] asks), two must be
    // diagonal to each other (Pachi: two on opposite sides of the stone are not one small
    // space), and no stone of `pla` may touch the space.
    debug_assert!(matches!(board.empty_neighbours(m), 1 | 2));
    let mut first = NONE;
    for n in board.neighbours(m) {
        if !board.is_empty(n) {
            continue;
        }
        if first == NONE {
            first = n;
        } else if n + first == 2 * m {
            // Opposite sides of `m`.
            return NONE;
        }
    }
    // A one-point eye (most spaces next to a move late in a playout) has no vital point.
    if board.own_neighbours(pla, first) != 0 || board.empty_neighbours(first) == 0 {
        return NONE;
    }
    let v = vital_point(board, owner, first);
    if v != NONE && playable[v] && may_play(board, pla, v, ko) { v } else { NONE }
}

/// Liberties the chain would have after `pla` plays on the empty `loc`, counted up to 2, or
/// 2 when the move captures.
fn liberties_after(board: &PlayoutBoard, pla: u8, loc: u16) -> u32 {
    let neighbours = board.neighbours(loc);
    // Cheap answers first: two empty neighbours, a capture, or a friendly chain with three
    // liberties or more each settle it without walking any chain.
    // The one liberty found so far, if `found`.
    let mut lib = NONE;
    let mut found = 0usize;
    for &a in &neighbours {
        let c = board.color(a);
        if c == EMPTY {
            if found == 1 {
                return 2;
            }
            lib = a;
            found = 1;
        } else {
            // A wall cell has no liberties: neither test holds.
            let chain_libs = board.libs(a);
            if (c != pla && chain_libs == 1) || (c == pla && chain_libs >= 3) {
                return 2;
            }
        }
    }
    // Every friendly chain here now has one or two liberties, and `loc` is one of them: a
    // chain in atari adds none, a chain with two adds its other one, found by a walk that
    // stops there.
    for &a in &neighbours {
        if board.color(a) != pla || board.libs(a) != 2 {
            continue;
        }
        let l = board.liberty_besides(a, loc);
        if l != NONE && !(found == 1 && lib == l) {
            if found == 1 {
                return 2;
            }
            lib = l;
            found = 1;
        }
    }
    found as u32
}

/// What the policy and the rules say of a move of `color` on the empty `loc`, in one look at
/// its neighbours: playable, the player's own true eye, a self-atari of two stones or more that
/// captures nothing (the policy refuses both), suicide or a ko retake (the rules forbid both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judgement {
    Playable,
    OwnEye,
    SelfAtari,
    Suicide,
    /// Only [`judge`], the tests' view, tells a ko retake apart: the playouts ask
    /// [`may_play`], which looks at the ko last.
    #[cfg(test)]
    Ko,
}

/// See [`Judgement`]; `pla` is the player's colour code, `ko` the point it may not retake at
/// once ([`NONE`] if none).
#[cfg(test)]
fn judge(board: &PlayoutBoard, pla: u8, loc: u16, ko: u16) -> Judgement {
    match judge_shape(board, pla, loc) {
        Judgement::Playable if loc == ko => Judgement::Ko,
        j => j,
    }
}

/// Whether [`judge`] finds a move of `pla` on the empty `loc` playable: the ko is looked at
/// only once the shape allows the move, as most candidates are refused for their shape.
#[inline(always)]
fn may_play(board: &PlayoutBoard, pla: u8, loc: u16, ko: u16) -> bool {
    judge_shape(board, pla, loc) == Judgement::Playable && loc != ko
}

/// [`judge`] but for the ko: never [`Judgement::Ko`].
#[inline(always)]
fn judge_shape(board: &PlayoutBoard, pla: u8, loc: u16) -> Judgement {
    let open = Judgement::Playable;
    let opp = pla ^ 3;
    // Most playable points are open and settled here, without a look at any chain.
    let shape = board.shape(pla, loc);
    let empty = match shape {
        Shape::Open => return open,
        Shape::Enclosed => {
            // Every neighbour is an opponent stone or a wall cell, and a wall cell reads as
            // having no liberties (its head is location 0, a wall), so the colour needs no test.
            let neighbours = board.neighbours(loc);
            let captures = neighbours.iter().any(|&a| board.libs(a) == 1);
            return if captures { open } else { Judgement::Suicide };
        }
        Shape::Surrounded | Shape::SurroundedOnEdge => {
            // A true eye unless the opponent holds enough diagonals: two in the middle of
            // the board, one on the edge or in the corner.
            let diagonals = board.diagonals(loc);
            let enemy: u8 = diagonals.iter().map(|&d| u8::from(board.color(d) == opp)).sum();
            if enemy < if shape == Shape::Surrounded { 2 } else { 1 } {
                return Judgement::OwnEye;
            }
            0
        }
        Shape::Crowded => 0,
        Shape::CrowdedWithOneLiberty => 1,
    };
    // A neighbouring chain of the player with two liberties or more means the stone is not
    // suicide, with three or more it is no self-atari either; an opponent chain in atari
    // means the move captures.
    let (mut own_two, mut own_three, mut captures) = (false, false, false);
    for a in board.neighbours(loc) {
        let c = board.color(a);
        if c == pla {
            let libs = board.libs(a);
            own_two |= libs >= 2;
            own_three |= libs >= 3;
        } else if c == opp {
            captures |= board.libs(a) == 1;
        }
    }
    if !(captures || own_three) && liberties_after(board, pla, loc) < 2 {
        return Judgement::SelfAtari;
    }
    if empty == 0 && !captures && !own_two {
        return Judgement::Suicide;
    }
    open
}

/// [`PlayoutState::region`] of a point whose region is not filled yet.
const UNKNOWN: i8 = i8::MIN;
/// [`PlayoutState::region`] of a point of the region being filled.
const FILLING: i8 = i8::MAX;

/// Adds who owns each watched point at the end of a playout to `sum`: +1 for Black, -1 for
/// White, 0 for neither: the stone on it, or the only colour its empty region touches. Only
/// the regions of watched points that lost their stones are filled.
fn add_final_owners(
    locs: &Locations,
    board: &PlayoutBoard,
    watched: &[usize],
    sum: &mut [i32],
    state: &mut PlayoutState,
) {
    let region = &mut state.region;
    let stack = &mut state.stack;
    let points = &mut state.points;
    region.fill(UNKNOWN);
    for &start in watched {
        let loc = locs.of_index[start];
        match board.color(loc) {
            EMPTY => {}
            c => {
                sum[start] += if c == BLACK { 1 } else { -1 };
                continue;
            }
        }
        if region[start] == UNKNOWN {
            let mut touches = [false; 2];
            points.clear();
            region[start] = FILLING;
            stack.push(start);
            while let Some(q) = stack.pop() {
                points.push(q);
                for a in board.neighbours(locs.of_index[q]) {
                    match board.color(a) {
                        WALL => {}
                        EMPTY => {
                            let ai = locs.index_of[a] as usize;
                            if region[ai] == UNKNOWN {
                                region[ai] = FILLING;
                                stack.push(ai);
                            }
                        }
                        c => touches[(c - 1) as usize] = true,
                    }
                }
            }
            let v = match touches {
                [true, false] => 1,
                [false, true] => -1,
                _ => 0,
            };
            for &q in points.iter() {
                region[q] = v;
            }
        }
        sum[start] += region[start] as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::dead_stones::playout::board::WHITE;
    use crate::rules::Point;

    /// What the policy says of a move of `color` on the point named in SGF letters.
    fn judge_at(diagram: &str, color: Color, point: &str) -> Judgement {
        let board = Board::from_diagram(diagram).unwrap();
        let loc = board.loc(Point::from_sgf(point.as_bytes()).unwrap()).unwrap();
        judge(&PlayoutBoard::of_board(&board), code(color), loc, NONE)
    }

    #[test]
    fn a_player_keeps_its_true_eye_and_the_opponent_may_not_fill_it() {
        let corner = "
            . X . . .
            X X . . .
            . . . . .
            ";
        assert_eq!(judge_at(corner, Color::Black, "aa"), Judgement::OwnEye);
        assert_eq!(judge_at(corner, Color::White, "aa"), Judgement::Suicide);
    }

    #[test]
    fn connecting_at_a_false_eye_that_leaves_the_stones_in_atari_is_refused() {
        // The white stone diagonal to the corner spoils the eye: Black filling it would join
        // three stones with one liberty left, so the policy refuses it; White captures there.
        let false_eye = "
            . X O . .
            X O . . .
            . . . . .
            ";
        assert_eq!(judge_at(false_eye, Color::Black, "aa"), Judgement::SelfAtari);
        assert_eq!(judge_at(false_eye, Color::White, "aa"), Judgement::Playable);
    }

    #[test]
    fn joining_two_stones_counts_the_liberties_each_brings() {
        // Black between its two stones joins them, each bringing one liberty of its own.
        let open = "
            . X . X .
            O O O O O
            . . . . .
            ";
        assert_eq!(judge_at(open, Color::Black, "ca"), Judgement::Playable);
        // With the right-hand corner White's, the right stone brings none: one liberty.
        let closed = "
            . X . X O
            O O O O O
            . . . . .
            ";
        assert_eq!(judge_at(closed, Color::Black, "ca"), Judgement::SelfAtari);
    }

    #[test]
    fn a_lone_stone_may_put_itself_in_atari() {
        // Throw-ins and snapbacks start this way.
        let edge = "
            . X . . .
            . X . . .
            . . . . .
            ";
        assert_eq!(judge_at(edge, Color::White, "aa"), Judgement::Playable);
    }

    /// The vital point [`vital_point`] names for Black's eye space around the point `from`
    /// (SGF letters), in SGF letters, or "" for none.
    fn vital_at(diagram: &str, from: &str) -> String {
        let board = Board::from_diagram(diagram).unwrap();
        let loc = |name: &str| board.loc(Point::from_sgf(name.as_bytes()).unwrap()).unwrap();
        let v = vital_point(&PlayoutBoard::of_board(&board), BLACK, loc(from));
        if v == NONE {
            return String::new();
        }
        let p = board.size().points().find(|&p| board.loc(p) == Some(v)).unwrap();
        p.sgf().unwrap()
    }

    #[test]
    fn three_point_eye_spaces_die_at_the_middle_point() {
        let straight = "
            . . . . .
            X X X X X
            X . . . X
            X X X X X
            . . . . .
            ";
        assert_eq!(vital_at(straight, "bc"), "cc");
        assert_eq!(vital_at(straight, "dc"), "cc");
        let bent_in_the_corner = "
            . . X . .
            . X X . .
            X X . . .
            . . . . .
            ";
        assert_eq!(vital_at(bent_in_the_corner, "ab"), "aa");
    }

    #[test]
    fn bulky_shapes_die_at_their_centre() {
        let pyramid = "
            . X X X X X .
            X X . . . X X
            X X X . X X X
            . . X X X . .
            ";
        assert_eq!(vital_at(pyramid, "cb"), "db");
        let bulky_five = "
            X X X X X .
            X . . . X .
            X . . X X .
            X X X X . .
            ";
        assert_eq!(vital_at(bulky_five, "db"), "cb");
        let cross = "
            . X X X .
            X X . X X
            X . . . X
            X X . X X
            . X X X .
            ";
        assert_eq!(vital_at(cross, "cb"), "cc");
        let rabbity_six = "
            . X X X X .
            X X . X X .
            X . . . X X
            X X . . X .
            . X X X X .
            ";
        assert_eq!(vital_at(rabbity_six, "cb"), "cc");
    }

    #[test]
    fn shapes_that_live_or_die_anyway_and_spaces_the_opponent_touches_have_no_vital_point() {
        // Straight four and bent four live; the square four is dead whatever is played.
        let straight_four = "
            X X X X X X
            X . . . . X
            X X X X X X
            ";
        assert_eq!(vital_at(straight_four, "bb"), "");
        let square = "
            X X X X .
            X . . X .
            X . . X .
            X X X X .
            ";
        assert_eq!(vital_at(square, "bb"), "");
        // A white stone on the edge of the space: not only Black's.
        let touched = "
            . . . . .
            X X X X X
            X . . . O
            X X X X X
            ";
        assert_eq!(vital_at(touched, "bc"), "");
        // Seven points: too large.
        let large = "
            X X X X X X X X X
            X . . . . . . . X
            X X X X X X X X X
            ";
        assert_eq!(vital_at(large, "bb"), "");
    }

    #[test]
    fn the_attacker_answers_a_move_that_leaves_a_killing_shape_at_its_vital_point() {
        // Black has just played bb, leaving its corner space bent three: White takes aa.
        let board = Board::from_diagram(
            "
            . . X . .
            . X X . .
            X X . . .
            . . . . .
            ",
        )
        .unwrap();
        let loc = |name: &str| board.loc(Point::from_sgf(name.as_bytes()).unwrap()).unwrap();
        let fast = PlayoutBoard::of_board(&board);
        let playable = ByLoc::filled(true);
        assert_eq!(nakade_move(&fast, &playable, WHITE, loc("bb"), NONE), loc("aa"));
        // Black to answer a white move finds no space of White's.
        assert_eq!(nakade_move(&fast, &playable, BLACK, loc("bb"), NONE), NONE);
        // The point frozen: no answer.
        let mut frozen = ByLoc::filled(true);
        frozen[loc("aa")] = false;
        assert_eq!(nakade_move(&fast, &frozen, WHITE, loc("bb"), NONE), NONE);
    }

    #[test]
    fn a_ko_retake_is_refused_at_once() {
        let board = Board::from_diagram(
            "
            . X O .
            X O . O
            . X O .
            ",
        )
        .unwrap();
        let loc = board.loc(Point::from_sgf(b"cb").unwrap()).unwrap();
        let board = PlayoutBoard::of_board(&board);
        assert_eq!(judge(&board, BLACK, loc, loc), Judgement::Ko);
        assert_eq!(judge(&board, BLACK, loc, NONE), Judgement::Playable);
    }

    /// The sums of `runs` playouts of `sampler` set up on `diagram`, every stone watched.
    fn sums_after(sampler: &mut Sampler, diagram: &str, runs: u32) -> [Vec<i32>; 2] {
        let board = Board::from_diagram(diagram).unwrap();
        let layout = Layout::of_board(&board);
        let n = layout.grid.len();
        let watched = (0..n).filter(|&i| layout.stones[i].is_some()).collect();
        sampler.set_up(&layout, &board, &vec![false; n], watched, board.hash(), true);
        sampler.run(runs);
        sampler.sum.clone()
    }

    /// A sampler set up in the tables of one that played out a larger board, then a smaller
    /// one, plays as a fresh one does.
    #[test]
    fn a_sampler_set_up_in_used_tables_plays_as_a_fresh_one() {
        let large = "
            . . . . . . . . . . . . .
            . . X O . . . . . . X . .
            . X . X O . . . . X O X .
            . . X O . . . . . . X . .
            . . . . . . . O . . . . .
            . . . . . . . . . . . . .
            . . . X X . . . . . O . .
            . . . O . . . . . . . . .
            . . . . . . . . X O . . .
            . O X . . . . . . X . . .
            . . O X . . . . . . . . .
            . . . . . . . . . . . . .
            . . . . . . . . . . . . .";
        let small = "
            . X O . . . . . .
            X X O . . . O . .
            . X O O . . . . .
            X X X O . X . . .
            . . X O . . . . .
            . . X O O . . . .
            . X . X O . . . .
            . . X X O . . . .
            . . . X O . . . .";
        let mut fresh = Sampler::unset();
        let expected = sums_after(&mut fresh, small, 8);
        let mut used = Sampler::unset();
        sums_after(&mut used, large, 8);
        sums_after(&mut used, small, 4);
        assert_eq!(sums_after(&mut used, small, 8), expected);
        assert!(expected[0].iter().any(|&v| v != 0), "the playouts were counted");
    }
}
