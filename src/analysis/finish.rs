//! Finishing a game its players stopped before the end: the last boundary moves, the neutral
//! points and the protective moves played out, so that the position can be counted the way the
//! players counted it.
//!
//! Professional records usually stop once the result is clear: the remaining one-point moves,
//! the neutral points (dame) and the protective moves a sealed border then needs (teire) are
//! left unplayed, and the recorded result counts them as played. Counting such a position as it
//! stands misses exactly those moves (`shared/notes/dead-stones.md`, "Professional records stop
//! before the borders close"). GNU Go's `final_score` plays the game out with its full engine
//! first; kifu plays only what an ending needs, deterministically, from the player to move:
//!
//! 1. a chain of the player's in atari is saved if it can be (read out as a ladder is), unless
//!    taking it would be a snapback; among moves that save as much, the cheapest: on a neutral
//!    point, and leaving no chain that a dame would put in atari;
//! 2. an opponent chain in atari is captured, unless that is a snapback;
//! 3. a threat the opponent could carry out (a chain that can be captured by a ladder or a net,
//!    or a point that puts two chains in atari at once) is met with a protective move, unless
//!    only dead stones press the chain; a neutral point that meets it comes first, as it costs
//!    no point of territory, then one that leaves the chain three liberties;
//! 4. the boundary move worth most: in each small open region (empty points touching both
//!    colours), the point whose occupation seals the most points for the player plus the points
//!    it denies the opponent, one that forces an answer (sente) before those that do not; only
//!    moves whose stones cannot then be captured, that leave the opponent no double threat
//!    against them, and that do not kill a chain the statuses call alive;
//! 5. a neutral point next to both colours (dame), where filling it is safe as a boundary move
//!    must be, that forces an answer inside the opponent's territory (it puts an opponent
//!    chain in atari, or leaves one with two liberties that can be captured and that no
//!    neutral point saves). It gains a point in sente, and a sente move comes before the gote
//!    ones: such a dame is played before every boundary move of step 4, unless the answer
//!    puts one of the player's chains in atari (then the exchange is gote, and the dame waits
//!    with the plain ones);
//! 6. once no boundary move is left, a dame after which an opponent chain owes a teire: two
//!    liberties left, one a neutral point the owner cannot fill (its stone there would be in
//!    atari) and the other inside the owner's area, so that our later stone on the neutral
//!    point forces the owner to connect inside its area (`Finishing::owes_teire`); then a
//!    dame where the opponent's stone would force such an answer from us, or leave one of our
//!    chains owing such a teire: filling it first spares us the answer. Each gains a point in
//!    gote, no more than a one-point boundary move, and waits until the boundary moves are
//!    played, as players close the borders before they fill the dame (measured:
//!    `boundary_or_dame`);
//! 7. the stone of a ko (a single stone in atari whose capture would be a ko) is connected by
//!    its owner once no boundary move or forcing dame is left, before the other dame, unless
//!    the opponent's last move just put it in atari (then step 1 saves it at once);
//! 8. once nothing else is left, a teire inside the player's own area where a dame is a
//!    liberty of two chains of two liberties, one of each colour, so that the player's stone
//!    there would be in atari: the teire lets the player fill it with atari next, and the
//!    opponent pays a teire of its own (`Finishing::teire_for_dame`);
//! 9. otherwise a pass; two passes in a row end the finishing.
//!
//! No ko is ever taken: the stone of a ko stays its owner's. Winning a ko at the end gains a
//! point in two moves (take, then connect) against the owner's one, the least valuable move
//! left, and needs ko threats besides; measured on the counted Japanese-rules professional
//! records of `../shared/corpus/aeb-pro`, the finishes that took one ko gave the taker a point
//! the recorded result does not in three games of four. Connecting costs the owner no point,
//! so the owner connects last, after the boundary moves.
//!
//! Forcing moves can leave the opponent two threats at once, and a chain every status calls
//! alive then falls; players answering each forcing move in turn would not have let that
//! happen. The caller can then finish again in the [`Style::Careful`] style, which plays no
//! boundary move or dame that leaves more threats than one answer saves.
//!
//! The dead stones stay on the board while the ending is played, as they would in a real game:
//! they are not defended, nor captured for nothing, but their liberties are real, so a chain
//! they leave short of liberties must capture them (a protective move inside one's own
//! territory, which Japanese counting charges a point for). Whatever dead stones are left at the
//! end are taken off by the count. Large open regions (unfinished borders, [`LARGE_REGION`]
//! points or more) are left to the count too, which draws them by distance.

use super::reading::Reader;
use crate::rules::{Board, Color, Point, SuicideRule};

/// Open regions of this many points or more are unfinished borders: no single move seals any
/// of them, and the count draws them instead.
///
/// Measured with the count's `UNFINISHED_BORDER` (exact / within 2 points / same winner on the
/// 15,070 counted Japanese-rules records of `../shared/corpus/aeb-pro`, then on its 5,095 other
/// counted games): 8 and 8 (these) 11,098 / 14,312 / 14,466 and 2,829 / 4,200 / 4,471; 10 and
/// 8: 11,107 / 14,315 / 14,468 and 2,831 / 4,192 / 4,452; 10 and 10: 11,108 / 14,314 / 14,468
/// and 2,830 / 4,193 / 4,450; 9 and 9: 11,106 / 14,306 / 14,466 and 2,838 / 4,206 / 4,461;
/// 6 and 6: 11,073 / 14,305 / 14,459 and 2,818 / 4,198 / 4,455.
///
/// Boundary moves inside a large region, valued as in a small one but counting a piece of
/// this many points or more for neither side, were measured in fourteen forms and dropped
/// (ninth session; figures in BENCHMARKS.md): every point of the region, one-point gaps
/// (joining a sealed piece to an open one, forcing ones only, both sides' stones only), the
/// opponent's push into a gap as a sente move, the owner's closing move, every point of a
/// corridor. None gained same winner on the Japanese-rules records without losing it on the
/// others. A gap on the edge below one stone is any first-line boundary point, and a push
/// there changes which side keeps the tempo more than the points it takes; the count's split
/// by distance already gives the owner the points behind a gap, so closing it changes little
/// but the turn.
pub const LARGE_REGION: usize = 8;

/// The position once the ending has been played out.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The board after the finishing moves.
    pub board: Board,
    /// For every point, row by row, whether a dead stone is still there.
    pub dead: Vec<bool>,
    /// Stones each player took while finishing, indexed by the capturer ([`Color::index`]).
    pub captured_by: [u32; 2],
    /// The finishing moves, in order, with why each was played.
    pub moves: Vec<(Color, Point, Why)>,
    /// Protective moves each player made (saving a chain, meeting a threat).
    pub protective: [u32; 2],
    /// The largest chain captured while finishing: its stones were alive by the statuses
    /// finishing started from, so a capture of more than a ko stone says that the finishing
    /// went wrong, or that the statuses did.
    pub largest_capture: u32,
}

/// Plays out the ending of `board`, whose stones flagged in `dead` (row-major) are dead,
/// `to_move` first.
pub fn finish(board: &Board, dead: &[bool], to_move: Color) -> Finished {
    finish_with(board, dead, to_move, Style::Forcing)
}

/// How the players fill the last points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Every safe boundary move and dame may be played, forcing ones first (see [`finish`]).
    Forcing,
    /// No boundary move or dame may leave the opponent more threatened chains than one answer
    /// saves: for a second try when the forcing one captured a chain the statuses call alive.
    /// The statuses say the players would not have let it come to that: they answer each
    /// forcing move as it comes, in an order that never leaves two threats at once.
    Careful,
}

/// [`finish`] in a given [`Style`].
pub fn finish_with(board: &Board, dead: &[bool], to_move: Color, style: Style) -> Finished {
    finish_after(board, dead, to_move, style, &[])
}

/// [`finish_with`] in the [`Style::Careful`] style, for the same position, dead stones and
/// player to move as `forcing`, a finishing in the [`Style::Forcing`] style: the same as
/// `finish_with(board, dead, to_move, Style::Careful)`, found faster.
///
/// The careful style only refuses boundary moves and dame the forcing one would play, so both
/// play the same moves until the forcing one plays a boundary move or dame that leaves a
/// double threat: up to there, each of the forcing finishing's moves is checked, not searched
/// for again.
pub fn finish_carefully_after(
    board: &Board,
    dead: &[bool],
    to_move: Color,
    forcing: &Finished,
) -> Finished {
    finish_after(board, dead, to_move, Style::Careful, &forcing.moves)
}

/// Plays out the ending in `style`; `known` holds the moves of a finishing of the same position
/// in the [`Style::Forcing`] style (empty if there is none), taken as they are while `style`
/// agrees with them (see [`finish_carefully_after`]).
fn finish_after(
    board: &Board,
    dead: &[bool],
    to_move: Color,
    style: Style,
    known: &[(Color, Point, Why)],
) -> Finished {
    let size = board.size();
    let mut finishing = Finishing::new(board, dead, style);
    let mut turn = to_move;
    let mut passes = 0;
    let limit = 2 * size.area();
    // While `agreeing`, every turn so far was the same as in the known finishing, which played
    // `known[next]` (if it was `turn`'s) or passed on this turn.
    let mut agreeing = !known.is_empty();
    let mut next = 0;
    while passes < 2 && finishing.moves.len() < limit {
        let played = if agreeing {
            match known.get(next) {
                // The known finishing passed here: every move refused there is refused here.
                Some(&(color, _, _)) if color != turn => false,
                // It passed twice at the end.
                None => false,
                Some(&(_, p, why)) => {
                    let m = finishing.board.loc(p).expect("finishing moves are on the board");
                    if matches!(why, Why::Boundary | Why::Dame) && finishing.double_threat(turn, m)
                    {
                        agreeing = false;
                        finishing.play_turn(turn)
                    } else {
                        next += 1;
                        finishing.play(turn, m, why);
                        true
                    }
                }
            }
        } else {
            finishing.play_turn(turn)
        };
        if played {
            passes = 0;
        } else {
            passes += 1;
        }
        turn = turn.opponent();
    }
    let dead = finishing.locs.iter().map(|&l| finishing.dead_at[l as usize]).collect();
    Finished {
        dead,
        board: finishing.board,
        captured_by: finishing.captured_by,
        moves: finishing.moves,
        protective: finishing.protective,
        largest_capture: finishing.largest_capture,
    }
}

/// Which chains in atari a capture or a rescue looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    /// Every chain in atari but the stones of kos that can wait: taking or saving one is worth
    /// the stones and the points they stand on, and a stone the opponent just put in atari is
    /// answered at once (a forcing move and its reply).
    Urgent,
    /// The stones of kos that can wait (see [`finish`]): connected by their owner once no
    /// boundary move or forcing dame is left, and never taken.
    Ko,
}

/// Why a finishing move was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// It saves a chain in atari.
    Rescue,
    /// It captures a chain in atari.
    Capture,
    /// It meets a threat against the player's stones (a protective move).
    Protect,
    /// A boundary move: it seals points.
    Boundary,
    /// A neutral point filled.
    Dame,
}

impl Why {
    /// `rescue`, `capture`, `protect`, `boundary` or `dame`.
    pub fn as_str(self) -> &'static str {
        match self {
            Why::Rescue => "rescue",
            Why::Capture => "capture",
            Why::Protect => "protect",
            Why::Boundary => "boundary",
            Why::Dame => "dame",
        }
    }
}

struct Finishing {
    style: Style,
    board: Board,
    /// Scratch for the position after one move of a turn's candidates (rescues, the
    /// opponent's double ataris, a threat's test), copied over instead of allocated each time.
    after: Board,
    /// Scratch for the position after a reply being tested ([`Finishing::safe_for`],
    /// [`Finishing::saves_all`]).
    trial: Board,
    /// Scratch for an answer to a double atari tested in `after`
    /// ([`Finishing::opens_double_atari`]).
    answer: Board,
    reader: Reader,
    /// The board location of every point, row-major.
    locs: Vec<u16>,
    /// For every location, whether a dead stone is there.
    dead_at: Vec<bool>,
    captured_by: [u32; 2],
    moves: Vec<(Color, Point, Why)>,
    protective: [u32; 2],
    largest_capture: u32,
    /// Stones of the player to move whose chains the opponent's last finishing move put in
    /// atari.
    just_in_atari: Vec<u16>,
    /// The regions of space of the position, brought up to date for each boundary move and
    /// kept from turn to turn.
    spaces: Spaces,
    /// Buffers for [`Finishing::weak_chains`], kept from turn to turn.
    weak: [Vec<u16>; 2],
    /// Whether `weak` holds the weak chains of the position as it is (no move since).
    weak_current: bool,
    /// Buffers for [`Finishing::dame_move`], kept from turn to turn.
    dame_lists: [Vec<u16>; 2],
}

/// What is on each location for [`Finishing::regions`], one byte each: space (empty or a dead
/// stone), a live stone of either colour, or off the board.
const SPACE: u8 = 0;
const LIVE_BLACK: u8 = 1;
const LIVE_WHITE: u8 = 2;
const OFF_BOARD: u8 = 3;

/// The regions of space of one position ([`Finishing::regions`]) and the buffers that find
/// them, reused from turn to turn: the finishing asks for them every turn, and a walk over a
/// byte per location costs a fraction of asking the board and the dead flags at every step.
#[derive(Default)]
struct Spaces {
    /// For every location, [`SPACE`], [`LIVE_BLACK`], [`LIVE_WHITE`] or [`OFF_BOARD`].
    kind: Vec<u8>,
    /// For every location of space, the region holding it (meaningless elsewhere).
    region_of: Vec<u32>,
    /// The regions, by number, with those a move has cut up since they were found, which no
    /// location holds any more.
    regions: Vec<Region>,
    /// The empty locations, in reading order.
    empties: Vec<u16>,
    /// The locations of space (empty, or a dead stone), in reading order.
    space: Vec<u16>,
    /// For every location of space, the colours of the live stones next to it: bit 0 Black,
    /// bit 1 White (both: a neutral point, if it is empty).
    around: Vec<u8>,
    stack: Vec<u16>,
    /// Whether `kind`, `empties` and `space` are those of the finishing's position as it is:
    /// a move that takes no stone off keeps them so ([`Finishing::note_stone`]), a capture
    /// has them found again.
    points_current: bool,
    /// Whether the regions (`region_of`, `regions` and `around`) are those of the position as
    /// it was before the moves of `moved`, none of which took a stone off.
    regions_found: bool,
    /// The moves played since the regions were found (see [`Finishing::regions`]).
    moved: Vec<u16>,
}

/// An empty region: its size and the colours of the stones around it.
#[derive(Clone, Copy)]
struct Region {
    size: usize,
    touches: [bool; 2],
}

impl Finishing {
    /// A finishing of `board`, whose stones flagged in `dead` (row-major) are dead, in `style`,
    /// with no move played yet.
    fn new(board: &Board, dead: &[bool], style: Style) -> Finishing {
        let locs: Vec<u16> =
            board.size().points().map(|p| board.loc(p).expect("points are on the board")).collect();
        let mut dead_at = vec![false; board.loc_count()];
        for (i, &loc) in locs.iter().enumerate() {
            dead_at[loc as usize] = dead[i] && board.stone_at(loc).is_some();
        }
        Finishing {
            style,
            board: board.clone(),
            after: board.clone(),
            trial: board.clone(),
            answer: board.clone(),
            reader: Reader::new(),
            locs,
            dead_at,
            captured_by: [0, 0],
            moves: Vec::new(),
            protective: [0, 0],
            largest_capture: 0,
            just_in_atari: Vec::new(),
            spaces: Spaces::default(),
            weak: [Vec::new(), Vec::new()],
            weak_current: false,
            dame_lists: [Vec::new(), Vec::new()],
        }
    }

    /// The colour of a live stone on `loc`.
    fn live_at(&self, loc: u16) -> Option<Color> {
        self.board.stone_at(loc).filter(|_| !self.dead_at[loc as usize])
    }

    /// One turn of `color`: `true` when it played a move, `false` when it passed.
    fn play_turn(&mut self, color: Color) -> bool {
        // Rescue, capture and threat all start from the weak chains of the same position, found
        // into the lists of the turn before (taken out while the turn reads them), or kept
        // from it when it passed.
        let mut weak = std::mem::take(&mut self.weak);
        if !self.weak_current {
            self.weak_chains(&mut weak);
            self.weak_current = true;
        }
        let (own, theirs) = (&weak[color.index()], &weak[color.opponent().index()]);
        let chosen = self
            .rescue(color, own, Tier::Urgent)
            .map(|m| (m, Why::Rescue))
            .or_else(|| self.capture(color, theirs).map(|m| (m, Why::Capture)))
            .or_else(|| self.meet_threat(color, own).map(|m| (m, Why::Protect)))
            .or_else(|| self.boundary_or_dame(color, own));
        self.weak = weak;
        let Some((m, why)) = chosen else { return false };
        self.play(color, m, why);
        true
    }

    /// Plays `color`'s finishing move on `m`, chosen for `why`.
    fn play(&mut self, color: Color, m: u16, why: Why) {
        let protective = matches!(why, Why::Rescue | Why::Protect);
        let largest = self
            .board
            .neighbours_of(m)
            .into_iter()
            .filter(|&a| self.live_at(a) == Some(color.opponent()) && self.board.libs_at(a) == 1)
            .map(|a| self.board.chain_len_at(a))
            .max()
            .unwrap_or(0);
        self.largest_capture = self.largest_capture.max(largest);
        let before: Vec<(u16, u32)> = self
            .board
            .neighbours_of(m)
            .into_iter()
            .filter(|&a| self.board.stone_at(a) == Some(color.opponent()))
            .map(|a| (a, self.board.libs_at(a)))
            .collect();
        let effect = self.board.play_empty(color, m);
        self.weak_current = false;
        if effect.captured > 0 || effect.suicided > 0 {
            self.spaces.points_current = false;
        } else if self.spaces.points_current {
            self.note_stone(color, m);
        }
        self.just_in_atari.clear();
        for (a, libs) in before {
            if libs > 1 && self.board.stone_at(a).is_some() && self.board.libs_at(a) == 1 {
                self.just_in_atari.push(a);
            }
        }
        if effect.captured > 0 {
            for &loc in &self.locs {
                if self.board.empty_at(loc) {
                    self.dead_at[loc as usize] = false;
                }
            }
        }
        self.captured_by[color.index()] += effect.captured;
        self.captured_by[color.opponent().index()] += effect.suicided;
        self.moves.push((color, self.board.point(m), why));
        if protective {
            self.protective[color.index()] += 1;
        }
    }

    /// The heads of each colour's live chains with at most two liberties, each once, in point
    /// order (Black's, White's), found in one pass over the board into `heads`. A chain pressed
    /// only by dead stones (no live opponent stone next to it) is left out: the players agreed
    /// those stones are off the board, so their atari is no threat to meet and no capture to
    /// make (capturing with them would bring dead stones back to life in the count), and a
    /// chain with two liberties among them needs no protective move. Measured on the 15,309 counted
    /// Japanese-rules records of `../shared/corpus/aeb-pro`, protecting such two-liberty chains
    /// charged the protecting side a point the recorded result does not: 155 margins came
    /// exact without it, 40 were lost.
    fn weak_chains(&self, heads: &mut [Vec<u16>; 2]) {
        heads[0].clear();
        heads[1].clear();
        for &loc in &self.locs {
            // A chain is looked at on its head alone: that test, the cheapest, comes first.
            if self.board.head_at(loc) == loc
                && let Some(color) = self.live_at(loc)
                && self.board.libs_at(loc) <= 2
                && self.pressed_by_live(loc)
            {
                heads[color.index()].push(loc);
            }
        }
    }

    /// Of `weak`'s chains (from [`Finishing::weak_chains`]), those in atari, largest first:
    /// under [`Tier::Ko`] only the stones of kos that can wait, under [`Tier::Urgent`] the
    /// others. A chain whose capture would be a snapback is neither saved nor taken: measured
    /// on the 15,309 counted Japanese-rules records of `../shared/corpus/aeb-pro`, saving one
    /// (often where the capturing stone would join dead stones) charged a teire the recorded
    /// result does not: 275 margins came exact without it, 38 were lost.
    fn in_atari(&mut self, weak: &[u16], tier: Tier) -> Vec<u16> {
        let mut in_atari: Vec<u16> = Vec::new();
        for &h in weak {
            if self.board.libs_at(h) <= 1
                && self.waiting_ko(h) == (tier == Tier::Ko)
                && !self.capture_is_snapback(h)
            {
                in_atari.push(h);
            }
        }
        in_atari.sort_by_key(|&h| std::cmp::Reverse(self.board.chain_len_at(h)));
        in_atari
    }

    /// Whether the chain in atari on `h` is the stone of a ko that can wait: its capture would
    /// be a ko, and the opponent's last move did not just put it in atari.
    fn waiting_ko(&mut self, h: u16) -> bool {
        !self.just_in_atari.contains(&h) && self.capture_is_ko(h)
    }

    /// Whether capturing the chain in atari on `h` would be a ko: a single stone taken by a
    /// stone the owner could take back at once, were it not for the ko rule.
    fn capture_is_ko(&mut self, h: u16) -> bool {
        let Some(owner) = self.board.stone_at(h) else { return false };
        if self.board.chain_len_at(h) != 1 {
            return false;
        }
        let mut lib = [0u16; 1];
        self.board.first_liberties_at(h, &mut lib);
        let taker = owner.opponent();
        if !self.board.empty_at(lib[0])
            || self.board.check_loc(taker, lib[0], SuicideRule::Forbidden).is_err()
        {
            // Not playable now (the ko was just taken): the chain is still the stone of a ko
            // when its liberty is the banned point.
            return self
                .board
                .ko()
                .is_some_and(|(p, c)| c == taker && self.board.loc(p) == Some(lib[0]));
        }
        let after = &mut self.after;
        after.clone_from(&self.board);
        after.play_empty(taker, lib[0]);
        after.ko().is_some()
    }

    /// Whether capturing the chain in atari on `h` would be a snapback: the capturing stone's
    /// chain is left in atari with more stones than it took, so the owner takes them back.
    /// Such a chain needs no protective move, and taking it only loses stones.
    fn capture_is_snapback(&mut self, h: u16) -> bool {
        let Some(owner) = self.board.stone_at(h) else { return false };
        let mut lib = [0u16; 1];
        self.board.first_liberties_at(h, &mut lib);
        let taker = owner.opponent();
        if !legal(&self.board, taker, lib[0]) {
            return false;
        }
        let after = &mut self.after;
        after.clone_from(&self.board);
        let effect = after.play_empty(taker, lib[0]);
        effect.captured > 0
            && after.libs_at(lib[0]) == 1
            && after.chain_len_at(lib[0]) > effect.captured.max(1)
    }

    /// Whether the chain on `loc` touches a live stone of the other colour.
    fn pressed_by_live(&self, loc: u16) -> bool {
        let Some(color) = self.board.stone_at(loc) else { return false };
        self.board.chain_locs_at(loc).any(|s| {
            self.board
                .neighbours_of(s)
                .into_iter()
                .any(|a| self.live_at(a) == Some(color.opponent()))
        })
    }

    /// A move saving `color`'s chains in atari (among `weak`, its weak chains): of the moves
    /// that save one of them, the one that leaves the fewest stones in atari (a double atari is
    /// answered where it saves both), then the cheapest (see [`Finishing::exposed`]), the
    /// largest chain's first among equals.
    ///
    /// A player connects where the connection also mends the chains next to it, rather than
    /// saving the stones in a way that leaves another chain for the opponent's next dame to
    /// put in atari, which would cost a second protective move. Measured on the 15,070 counted
    /// Japanese-rules records of `../shared/corpus/aeb-pro` (exact / within 2 points / same
    /// winner, in games), with the finishing from the side to move only: neutral point first
    /// 10,977 / 14,257 / 14,444, the cheapest 10,992 / 14,257 / 14,446 (other aeb games 2,790 /
    /// 4,182 / 4,447 against 2,794 / 4,182 / 4,449). Counting the chains of three liberties
    /// with a neutral one as exposed too: 10,993 / 14,258 / 14,448 (others 2,794 / 4,182 /
    /// 4,447); choosing the protective move against a capturable chain the same way: 10,995 /
    /// 14,252 / 14,444, dropped.
    fn rescue(&mut self, color: Color, weak: &[u16], tier: Tier) -> Option<u16> {
        let in_atari = self.in_atari(weak, tier);
        let mut best: Option<((u32, u32, bool), u16)> = None;
        for &h in &in_atari {
            for m in self.reader.rescue_moves(&self.board, h) {
                if best.is_some_and(|(_, b)| b == m) || !self.safe_for(color, m) {
                    continue;
                }
                let after = &mut self.after;
                after.clone_from(&self.board);
                after.play_empty(color, m);
                let left: u32 = in_atari
                    .iter()
                    .filter(|&&o| after.stone_at(o) == Some(color) && after.libs_at(o) == 1)
                    .map(|&o| after.chain_len_at(o))
                    .sum();
                // Among moves that save as much, the cheapest: one on a neutral point costs
                // no point of territory, and each chain it leaves exposed to an atari from a
                // dame costs a protective move later.
                let costly = !self.neutral(m);
                let key = (left, costly as u32 + self.exposed(&self.after, color), costly);
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, m));
                }
            }
        }
        best.map(|(_, m)| m)
    }

    /// A move capturing an opponent chain in atari (among `weak`, the opponent's weak chains),
    /// the largest first. The stone of a ko is never taken (see [`finish`]).
    fn capture(&mut self, color: Color, weak: &[u16]) -> Option<u16> {
        let in_atari = self.in_atari(weak, Tier::Urgent);
        in_atari.into_iter().find_map(|h| {
            let mut lib = [0u16; 1];
            self.board.first_liberties_at(h, &mut lib);
            (legal(&self.board, color, lib[0]) && !self.joins_dead(color, lib[0])).then_some(lib[0])
        })
    }

    /// A protective move against the opponent's threats to `color`'s stones: a two-liberty
    /// chain the opponent can capture, or a point where the opponent puts two chains in atari
    /// at once and one of them falls. `weak` holds `color`'s weak chains.
    ///
    /// Of the moves that save a capturable chain, one that leaves it three liberties or more
    /// comes before one that leaves it two: a chain left with two needs another protective
    /// move as soon as a dame takes a third liberty from the stones around it, where players
    /// protect once, in the shape that settles it. Measured on the counted records of
    /// `../shared/corpus/aeb-pro` (exact / within 2 points / same winner from the
    /// `examples/accuracy` dump, in games), in the reader's order and then so:
    /// Japanese-rules games (15,070) 11,113 / 14,331 / 14,480 against 11,131 / 14,332 /
    /// 14,483; the other counted games 2,842 / 4,197 / 4,481 against 2,840 / 4,203 / 4,482.
    ///
    /// A chain of three liberties is not protected where the opponent's stone on one of them
    /// would join its dead stones with two liberties or more and leave the chain capturable:
    /// players let the intruder come and answer it, and doing so here made the Japanese-rules
    /// games 11,366 -> 8,836 exact (the complete professional records of
    /// `examples/finish_probe` show no such teire either).
    fn meet_threat(&mut self, color: Color, weak: &[u16]) -> Option<u16> {
        for &h in weak {
            if self.board.libs_at(h) == 2 && self.reader.capturable(&self.board, h) {
                // A saving move on a neutral point costs no point of territory: it comes
                // first; then one that leaves the chain three liberties (see above).
                let mut saving: Vec<(bool, u32, u16)> = Vec::new();
                for m in self.reader.rescue_moves(&self.board, h) {
                    self.after.clone_from(&self.board);
                    self.after.play_empty(color, m);
                    let short = 3 - self.after.libs_at(h).min(3);
                    saving.push((!self.neutral(m), short, m));
                }
                // Stable: among equals, the order the reader found them in.
                saving.sort_by_key(|&(costly, short, _)| (costly, short));
                for (_, _, m) in saving {
                    if self.safe_for(color, m) {
                        return Some(m);
                    }
                }
            }
        }
        // Double ataris: an opponent stone on a shared or separate liberty of two chains.
        let opp = color.opponent();
        let mut points: Vec<u16> = Vec::new();
        for &h in weak.iter().filter(|&&h| self.board.libs_at(h) == 2) {
            let mut libs = [0u16; 2];
            self.board.first_liberties_at(h, &mut libs);
            for l in libs {
                if !points.contains(&l) {
                    points.push(l);
                }
            }
        }
        points.sort_unstable();
        for m in points {
            // The opponent's stone takes liberties only from the chains next to it (its
            // captures free points next to none of ours): unless two of the two-liberty chains
            // touch `m`, it puts no two in atari, and the move need not be tried.
            let around = self.board.neighbours_of(m);
            let touching = weak
                .iter()
                .filter(|&&h| {
                    self.board.libs_at(h) == 2
                        && around.iter().any(|&a| {
                            self.board.stone_at(a) == Some(color) && self.board.head_at(a) == h
                        })
                })
                .count();
            if touching < 2 || !legal(&self.board, opp, m) {
                continue;
            }
            self.after.clone_from(&self.board);
            self.after.play_empty(opp, m);
            let after = &self.after;
            // Only chains the move puts in atari: one already in atari (the stone of a ko
            // left for later) is no new threat.
            let threatened: Vec<u16> = weak
                .iter()
                .copied()
                .filter(|&h| {
                    self.board.libs_at(h) == 2
                        && after.stone_at(h) == Some(color)
                        && after.libs_at(h) == 1
                })
                .collect();
            if threatened.len() < 2
                || saves_all(&mut self.reader, &mut self.trial, &self.after, color, &threatened)
            {
                continue;
            }
            // The point itself is the natural defence; else whatever saves the most.
            if self.safe_for(color, m) {
                return Some(m);
            }
        }
        None
    }

    /// How many live chains of `color` on `board` (a position reached from the finishing's)
    /// the opponent could put in atari from a neutral point, forcing a protective move: those
    /// with two liberties, one of them neutral, and those already in atari.
    fn exposed(&self, board: &Board, color: Color) -> u32 {
        let mut exposed = 0;
        for &loc in &self.locs {
            if board.head_at(loc) != loc
                || board.stone_at(loc) != Some(color)
                || self.dead_at[loc as usize]
            {
                continue;
            }
            let open = match board.libs_at(loc) {
                1 => true,
                2 => {
                    let mut libs = [0u16; 2];
                    board.first_liberties_at(loc, &mut libs);
                    libs.iter().any(|&l| self.neutral_on(board, l))
                }
                _ => false,
            };
            exposed += open as u32;
        }
        exposed
    }

    /// Whether `color` may play on `m` and keep the stones it places there. A move next to
    /// `color`'s own dead stones is never made: their owner has given them up, and a stone
    /// joining them would only die with them.
    fn safe_for(&mut self, color: Color, m: u16) -> bool {
        if !legal(&self.board, color, m) || self.joins_dead(color, m) {
            return false;
        }
        let after = &mut self.trial;
        after.clone_from(&self.board);
        let effect = after.play_empty(color, m);
        match after.libs_at(m) {
            0 => false,
            1 => false,
            2 => effect.captured > 0 || !self.reader.capturable(after, m),
            _ => true,
        }
    }

    /// Whether a stone of `color` on `m` would touch `color`'s dead stones.
    fn joins_dead(&self, color: Color, m: u16) -> bool {
        self.board
            .neighbours_of(m)
            .into_iter()
            .any(|a| self.dead_at[a as usize] && self.board.stone_at(a) == Some(color))
    }

    /// Whether `loc` is space for territory: empty, or a dead stone.
    fn space_at(&self, loc: u16) -> bool {
        self.board.on_board_at(loc) && self.live_at(loc).is_none()
    }

    /// The regions of space (empty points and dead stones), into `self.spaces`: the region of
    /// every such location, and the regions with the colours of the live stones around them.
    /// A region's number only tells it apart from the others: which regions a move cut up
    /// decides the numbers, and no answer depends on them.
    fn regions(&mut self) {
        if !self.spaces.points_current {
            self.spaces.points_current = true;
            self.spaces.regions_found = false;
            self.find_space();
        }
        let Spaces { kind, region_of, regions, space, around, stack, moved, regions_found, .. } =
            &mut self.spaces;
        let board = &self.board;
        // The regions of space stay as they were but for the one each move of `moved` was
        // played in (no move since took a stone off): that one is cut into the pieces its
        // points left now form, each next to one of the moves, which are walked afresh under
        // new numbers (the old one is left unused). The first time, every region is walked.
        let every = !*regions_found;
        *regions_found = true;
        if every {
            regions.clear();
            for &loc in space.iter() {
                region_of[loc as usize] = u32::MAX;
            }
        }
        let first_new = regions.len() as u32;
        let mut walk = |start: u16| {
            // Not walked yet: under an old number, or none.
            let unwalked = |r: u32| r < first_new || r == u32::MAX;
            if kind[start as usize] != SPACE || !unwalked(region_of[start as usize]) {
                return;
            }
            let id = regions.len() as u32;
            let mut region = Region { size: 0, touches: [false; 2] };
            region_of[start as usize] = id;
            stack.push(start);
            while let Some(p) = stack.pop() {
                region.size += 1;
                let mut live_around = 0;
                for a in board.neighbours_of(p) {
                    match kind[a as usize] {
                        SPACE if unwalked(region_of[a as usize]) => {
                            region_of[a as usize] = id;
                            stack.push(a);
                        }
                        LIVE_BLACK => live_around |= 1,
                        LIVE_WHITE => live_around |= 2,
                        _ => {}
                    }
                }
                around[p as usize] = live_around;
                region.touches[0] |= live_around & 1 != 0;
                region.touches[1] |= live_around & 2 != 0;
            }
            regions.push(region);
        };
        if every {
            for &start in space.iter() {
                walk(start);
            }
        } else {
            for &m in moved.iter() {
                for a in board.neighbours_of(m) {
                    walk(a);
                }
            }
        }
        moved.clear();
    }

    /// What is on every location, the locations of space and the empty points, into
    /// `self.spaces`, from the board and the dead flags.
    fn find_space(&mut self) {
        let Spaces { kind, region_of, empties, space, around, .. } = &mut self.spaces;
        let board = &self.board;
        kind.clear();
        kind.resize(board.loc_count(), OFF_BOARD);
        around.resize(board.loc_count(), 0);
        region_of.resize(board.loc_count(), u32::MAX);
        empties.clear();
        space.clear();
        for &loc in &self.locs {
            kind[loc as usize] = match board.stone_at(loc) {
                Some(c) if !self.dead_at[loc as usize] => LIVE_BLACK + c.index() as u8,
                Some(_) => {
                    space.push(loc);
                    SPACE
                }
                None => {
                    empties.push(loc);
                    space.push(loc);
                    SPACE
                }
            };
        }
    }

    /// Keeps `self.spaces` up to date with a move of `color` on `m` that took no stone off
    /// the board: `m` turns from an empty point into a live stone, and nothing else changes.
    fn note_stone(&mut self, color: Color, m: u16) {
        let Spaces { kind, empties, space, moved, .. } = &mut self.spaces;
        kind[m as usize] = LIVE_BLACK + color.index() as u8;
        moved.push(m);
        // Both lists are in reading order, which is the order of the locations.
        if let Ok(i) = empties.binary_search(&m) {
            empties.remove(i);
        }
        if let Ok(i) = space.binary_search(&m) {
            space.remove(i);
        }
    }

    /// Points of the small open region holding `m` that become `color`'s (positive) or the
    /// opponent's (negative) once `color` has a live stone on `m`, and the same once the
    /// opponent has one there: the pieces the stone cuts the region into, each counted for the
    /// side whose live stones alone touch it, the stone's owner included.
    ///
    /// The region has fewer than [`LARGE_REGION`] points, so its walk fits in fixed arrays.
    // `contains` on a slice of u16 is a call; compared in line, a few instructions (measured).
    #[allow(clippy::manual_contains)]
    fn sealed_by_either(&self, region_of: &[u32], color: Color, m: u16) -> [i32; 2] {
        let region = region_of[m as usize];
        let mut seen = [0u16; LARGE_REGION];
        seen[0] = m;
        let mut seen_len = 1;
        let mut stack = [0u16; LARGE_REGION];
        let mut net = [0i32; 2];
        for start in self.board.neighbours_of(m) {
            if !self.space_at(start)
                || region_of[start as usize] != region
                || seen[..seen_len].iter().any(|&s| s == start)
            {
                continue;
            }
            // The live stones the piece touches, besides the new one.
            let mut touches = [false; 2];
            let mut size = 0i32;
            stack[0] = start;
            let mut depth = 1;
            seen[seen_len] = start;
            seen_len += 1;
            while depth > 0 {
                depth -= 1;
                let p = stack[depth];
                size += 1;
                for a in self.board.neighbours_of(p) {
                    if let Some(c) = self.live_at(a) {
                        touches[c.index()] = true;
                    } else if self.board.on_board_at(a) && !seen[..seen_len].iter().any(|&s| s == a)
                    {
                        // No live stone there (the branch above): on the board, it is space.
                        seen[seen_len] = a;
                        seen_len += 1;
                        stack[depth] = a;
                        depth += 1;
                    }
                }
            }
            // With the new stone's colour among those it touches, a piece is that colour's
            // when it touches no live stone of the other.
            for (k, mover) in [color, color.opponent()].into_iter().enumerate() {
                if !touches[mover.opponent().index()] {
                    net[k] += size;
                }
            }
        }
        net
    }

    /// The boundary move worth most, a ko to connect, or a dame. A dame that forces a teire
    /// from the opponent gains its point in sente, and a sente move is played before the gote
    /// ones, whatever they are worth: it costs no tempo, and left for later, the opponent's
    /// boundary move or dame takes the point first. Such a dame comes before every boundary
    /// move. Measured on the counted records of `../shared/corpus/aeb-pro` (exact / within 2
    /// points / same winner, in games), with it after the boundary moves of more than a point,
    /// and before: Japanese-rules games (15,070) 11,111 / 14,331 / 14,475 against 11,113 /
    /// 14,331 / 14,480; the other counted games 2,832 / 4,206 / 4,472 against 2,842 / 4,197 /
    /// 4,481 (same winner counted from the `examples/accuracy` dump). A dame that only spares
    /// us a teire gains its point in gote, as the boundary move does, and waits until no
    /// boundary move is left: players close the borders before they fill the dame, and which
    /// dame will force an answer at all depends on the liberties the closed borders leave.
    /// Connecting the stone of a ko that can wait comes after every boundary move and the dame
    /// that spare a teire, before the plain dame. `own` holds `color`'s weak chains. The
    /// connection after the plain dame, before the boundary moves, or never at once were
    /// measured and lost margins (BENCHMARKS.md, ninth session).
    ///
    /// Measured on the counted records of `../shared/corpus/aeb-pro` (exact / within 2 points /
    /// same winner, in games), with the dame that spares a teire before a one-point boundary
    /// move, and after it: Japanese-rules games (15,070) 11,027 / 14,303 / 14,461 against
    /// 11,094 / 14,308 / 14,463; the other counted games (5,095) 2,800 / 4,198 / 4,583 against
    /// 2,829 / 4,199 / 4,602. Every dame after the one-point boundary moves, the forcing ones
    /// too: 10,783 / 14,247 / 14,430 on the Japanese-rules games.
    ///
    /// The player to move keeps its sente through all its forcing dame, and a dame that puts a
    /// chain in atari forces even when the answer is on a neutral point (it takes the point
    /// from the opponent's own forcing dame there). Measured against 11,098 / 14,312 / 14,466
    /// (other counted games 2,829 / 4,200 / 4,471): letting the answering side play its own
    /// forcing dame right after answering one 11,012 / 14,288 / 14,445 (2,784 / 4,179 /
    /// 4,453); such an atari not forcing when a neutral point saves the chain 11,057 / 14,298 /
    /// 14,466 (2,817 / 4,189 / 4,458), and not sparing an answer either 11,041 / 14,284 /
    /// 14,460 (2,828 / 4,200 / 4,464).
    fn boundary_or_dame(&mut self, color: Color, own: &[u16]) -> Option<(u16, Why)> {
        // Both kinds of move read the position's regions of space, found once for the turn.
        self.regions();
        let boundary = self.boundary_move(color);
        // With a boundary move left, only a dame that forces an answer comes before it.
        let (dame, forcing) = self.dame_move(color, boundary.is_some());
        if forcing && let Some(d) = dame {
            return Some((d, Why::Dame));
        }
        if let Some((_, m)) = boundary {
            return Some((m, Why::Boundary));
        }
        self.rescue(color, own, Tier::Ko)
            .map(|m| (m, Why::Rescue))
            .or(dame.map(|d| (d, Why::Dame)))
            .or_else(|| self.teire_for_dame(color).map(|m| (m, Why::Protect)))
    }

    /// Once nothing else is left, a teire that lets `color` fill a dame where neither side can
    /// yet: the dame is a liberty of a chain of each colour with two liberties, whose other
    /// liberty is inside its owner's area (not a neutral point), so that either side's stone
    /// on the dame would be in atari (no dame `color` can fill safely is left, or it would
    /// have been played). Played on `color`'s other liberty (connecting, or taking the dead
    /// stone it is the last liberty of), the teire leaves the dame an atari of the opponent's
    /// chain, which `color` fills next as a forcing dame, and the opponent answers inside its
    /// own area: the players do not leave such a point open, and each pays a point.
    ///
    /// Measured on the counted records of `../shared/corpus/aeb-pro` against the finishing
    /// without it: Japanese-rules games 232 margins closer, 173 further (exact +118, same
    /// winner +8, within 2 points -8); the other counted games 114 closer, 72 further. Why the
    /// pair helps is not clear from the positions (each side pays a point; the turn it hands
    /// over may matter more); the variants measured are in BENCHMARKS.md (eighth session).
    ///
    /// Reads the regions [`Finishing::regions`] found for this turn.
    fn teire_for_dame(&mut self, color: Color) -> Option<u16> {
        let opponent = color.opponent();
        for i in 0..self.spaces.empties.len() {
            let m = self.spaces.empties[i];
            // A dame: live stones of both colours beside it (Black 1 | White 2).
            if self.spaces.around[m as usize] != 3 {
                continue;
            }
            // The opponent's chain must answer the atari inside its own area too.
            let around = self.board.neighbours_of(m);
            if !around.iter().any(|&a| {
                self.live_at(a) == Some(opponent)
                    && self.other_liberty(a, m).is_some_and(|l| !self.neutral(l))
            }) {
                continue;
            }
            for &a in &around {
                if self.live_at(a) == Some(color)
                    && let Some(other) = self.other_liberty(a, m)
                    && !self.neutral(other)
                    && self.safe_for(color, other)
                {
                    return Some(other);
                }
            }
        }
        None
    }

    /// The liberty other than `m` of the chain on `a`, if it has two liberties, `m` one of them.
    fn other_liberty(&self, a: u16, m: u16) -> Option<u16> {
        if self.board.libs_at(a) != 2 {
            return None;
        }
        let mut libs = [0u16; 2];
        self.board.first_liberties_at(a, &mut libs);
        match libs {
            [l, o] | [o, l] if l == m => Some(o),
            _ => None,
        }
    }

    /// The safe boundary move in a small open region worth most to `color`, with its swing:
    /// the points it seals for `color` plus those its occupation would have sealed for the
    /// opponent. One that forces an answer (it puts an opponent chain in atari, or leaves one
    /// capturable with no neutral point to save it, as a forcing dame does) is sente and comes
    /// before those that do not, whatever their swing: the opponent answers, and the gote
    /// move is still there. Measured on the counted records of `../shared/corpus/aeb-pro`
    /// (exact / within 2 points / same winner from the `examples/accuracy` dump, in games),
    /// by swing alone and then so: Japanese-rules games (15,070) 11,131 / 14,332 / 14,483
    /// against 11,153 / 14,331 / 14,482; the other counted games 2,840 / 4,203 / 4,482 against
    /// 2,853 / 4,199 / 4,482.
    ///
    /// Reads the regions [`Finishing::regions`] found for this turn.
    fn boundary_move(&mut self, color: Color) -> Option<(i32, u16)> {
        let mut scored: Vec<(i32, u16)> = Vec::new();
        let Spaces { region_of, regions, empties, .. } = &self.spaces;
        for &m in empties {
            let r = regions[region_of[m as usize] as usize];
            if !(r.touches[0] && r.touches[1]) || r.size >= LARGE_REGION {
                continue;
            }
            let [mine, theirs] = self.sealed_by_either(region_of, color, m);
            let swing = mine + theirs;
            if swing > 0 && mine >= 0 {
                scored.push((swing, m));
            }
        }
        scored.sort_by_key(|&(swing, m)| (std::cmp::Reverse(swing), m));
        // One that forces an answer is sente: the largest of those comes first.
        for &(swing, m) in &scored {
            if (self.ataris(color, m) || self.threatens(color, m)) && self.fills_safely(color, m) {
                return Some((swing, m));
            }
        }
        scored.into_iter().find(|&(_, m)| self.fills_safely(color, m))
    }

    /// A neutral point next to stones of both colours that `color` can fill safely, in reading
    /// order, and whether it is a forcing one (it forces an answer now or later, or it spares
    /// us one). A dame that forces an answer is played first: it puts an opponent chain in
    /// atari, or leaves one that can be captured with two liberties and no neutral point to
    /// save it ([`Finishing::threatens`]), and the opponent must answer inside its own
    /// territory (a teire it pays for). Next, one that leaves an opponent chain owing such a
    /// teire later ([`Finishing::owes_teire`]); then one where the opponent's stone would do
    /// either to us: filling it first spares us that answer. With `forcing_only` (a boundary
    /// move is left, which comes before the others) only a dame that forces an answer is
    /// looked for.
    ///
    /// Whether a dame is safe takes reading, and so may whether it forces: a point is only
    /// classified, and only tried, when no point of a higher class before it was safe.
    ///
    /// A dame whose answer puts one of our chains in atari ([`Finishing::answered_with_atari`]:
    /// the opponent saves its chain where its stone takes our chain's last liberty but one)
    /// does not force: we must answer back, the opponent gets the move, and the exchange costs
    /// us a tempo; it waits with the plain dame, and a boundary move comes first. On the
    /// 15,067 counted Japanese-rules records of `../shared/corpus/aeb-pro`: 13 more margins
    /// exact, 2 more winners right; five variants measured and dropped (BENCHMARKS.md, ninth
    /// session).
    ///
    /// A dame whose stone would put an opponent chain in atari but is itself left with two
    /// liberties and capturable is not filled, even though the owner must answer inside its
    /// area: wherever the answer would leave the filler safe, [`Finishing::safe_for`] already
    /// accepts the dame (allowing it changed no answer), so the filler then owes a protective
    /// move of its own, and the exchange costs each side a point in gote. Measured on the
    /// counted records of `../shared/corpus/aeb-pro` (15,070 Japanese-rules games), filling
    /// it among the forcing dame made 10 margins fewer exact for 2 more right winners, and
    /// the games read by hand moved with the tempo the exchange gives away, not with its
    /// points; filling it later, or only where the filler's protective move could be on a
    /// neutral point, changed nothing worth keeping (BENCHMARKS.md, eighth session).
    ///
    /// A dame the opponent's stone would fill with atari (its sente) is filled by us after the
    /// boundary moves and after the dame that leave an opponent chain owing a teire, though
    /// players often fill it first: in `examples/finish_probe` (complete records cut 6 to 10
    /// moves before their end), of the protective moves inside its own area that the finishing
    /// made and the players did not, those answering such a dame the players had filled the
    /// other way were off in 37 of 50 cut records, against the side that answered, which
    /// mostly had the move and had played a boundary move or a dame first. Filling it first,
    /// in three placements, lost exact margins or winners (BENCHMARKS.md, ninth session).
    ///
    /// Reads the regions [`Finishing::regions`] found for this turn.
    fn dame_move(&mut self, color: Color, forcing_only: bool) -> (Option<u16>, bool) {
        // The lists of the turn before, taken out while this one fills them.
        let [mut rest, mut forcing_nothing] = std::mem::take(&mut self.dame_lists);
        rest.clear();
        forcing_nothing.clear();
        let found = self.dame_move_into(color, forcing_only, &mut rest, &mut forcing_nothing);
        self.dame_lists = [rest, forcing_nothing];
        found
    }

    /// [`Finishing::dame_move`], with `rest` and `forcing_nothing` (empty) for the points left
    /// for its second and third passes.
    fn dame_move_into(
        &mut self,
        color: Color,
        forcing_only: bool,
        rest: &mut Vec<u16>,
        forcing_nothing: &mut Vec<u16>,
    ) -> (Option<u16>, bool) {
        // The first safe point that forces an answer is the move, so each point is classified
        // only when the points before it were not: the forcing ones in one pass, in reading
        // order; then, of the others, those that spare us an answer; then the rest.
        for i in 0..self.spaces.empties.len() {
            let m = self.spaces.empties[i];
            if self.spaces.around[m as usize] != 3 {
                continue;
            }
            if self.ataris(color, m) || self.threatens(color, m) {
                // One answered with an atari waits with the plain dame (see above); one that
                // is not safe is not filled at all.
                if self.fills_safely(color, m) {
                    if !self.answered_with_atari(color, m) {
                        return (Some(m), true);
                    }
                    rest.push(m);
                }
            } else {
                rest.push(m);
            }
        }
        if forcing_only {
            return (None, false);
        }
        // Next, a dame after which an opponent chain owes a teire (it gains a point later),
        // then one where the opponent's stone would force an answer from us now or later.
        for &m in rest.iter() {
            if self.owes_teire(color, m) && self.fills_safely(color, m) {
                return (Some(m), true);
            }
        }
        let opponent = color.opponent();
        for &m in rest.iter() {
            if self.ataris(opponent, m)
                || self.threatens(opponent, m)
                || self.owes_teire(opponent, m)
            {
                if self.fills_safely(color, m) {
                    return (Some(m), true);
                }
            } else {
                forcing_nothing.push(m);
            }
        }
        for &m in forcing_nothing.iter() {
            if self.fills_safely(color, m) {
                return (Some(m), false);
            }
        }
        (None, false)
    }

    /// Whether `color` may fill the dame or boundary point `m`: its stones are safe there, it
    /// kills no live chain ([`Finishing::kills`]), and (under [`Style::Careful`]) it leaves no
    /// double threat.
    fn fills_safely(&mut self, color: Color, m: u16) -> bool {
        // `safe_for` leaves the position after the move in `trial`, where the double atari is
        // looked for.
        self.safe_for(color, m)
            && !self.opens_double_atari(color, m)
            && !self.double_threat(color, m)
            && !self.kills(color, m)
    }

    /// Whether `color`'s stone on `m`, in `trial` (the position [`Finishing::safe_for`] left
    /// there), leaves its chain with two liberties, one of which the opponent can take to
    /// threaten that chain and another of `color`'s at once (put each in atari, or leave it with
    /// two liberties and capturable), with no one answer saving both. Players filling the last
    /// points do not shorten their liberties so: the opponent's stone there would be a forcing
    /// dame that wins stones. Measured on the 15,070 counted Japanese-rules records of
    /// `../shared/corpus/aeb-pro` (exact / within 2 points / same winner, in games): without
    /// the test 10,913 / 14,221 / 14,426; with double ataris only 10,952 / 14,240 / 14,438;
    /// with a capturable chain as the second threat too 10,952 / 14,243 / 14,439. Applied to
    /// rescues and protective moves as well (double ataris only): 10,948 / 14,238 / 14,438.
    fn opens_double_atari(&mut self, color: Color, m: u16) -> bool {
        if self.trial.libs_at(m) != 2 {
            return false;
        }
        let opponent = color.opponent();
        let mut libs = [0u16; 2];
        self.trial.first_liberties_at(m, &mut libs);
        for l in libs {
            // The chains of `color` next to `l` with two or three liberties, each once: the
            // opponent's stone there takes one from each, unless it captures first.
            let mut pressed = [0u16; 4];
            let mut len = 0;
            for a in self.trial.neighbours_of(l) {
                if self.trial.stone_at(a) == Some(color)
                    && !self.dead_at[a as usize]
                    && (2..=3).contains(&self.trial.libs_at(a))
                    && !pressed[..len]
                        .iter()
                        .any(|&p| self.trial.head_at(p) == self.trial.head_at(a))
                {
                    pressed[len] = a;
                    len += 1;
                }
            }
            if len < 2 || !legal(&self.trial, opponent, l) {
                continue;
            }
            self.after.clone_from(&self.trial);
            self.after.play_empty(opponent, l);
            let after = &self.after;
            let reader = &mut self.reader;
            let threatened: Vec<u16> = pressed[..len]
                .iter()
                .copied()
                .filter(|&p| after.stone_at(p) == Some(color) && in_danger(reader, after, p))
                .collect();
            if threatened.len() >= 2
                && !saves_all(&mut self.reader, &mut self.answer, &self.after, color, &threatened)
            {
                return true;
            }
        }
        false
    }

    /// Whether `color`'s stone on `m` would kill a live opponent chain of more than one stone
    /// next to it: leave it in atari, or with two liberties and capturable, and no move of
    /// the opponent's saving it. The statuses call that chain alive, so the players had
    /// settled the fight otherwise (a semeai or a seki read differently, whose liberties
    /// neither side fills); played out, the finishing would capture a live group and the
    /// count fall back to the position as left. Measured on the 15,309 counted
    /// Japanese-rules records of `../shared/corpus/aeb-pro`: exact 67.1 -> 67.5%, within 2
    /// points 92.5 -> 92.9%, same winner 94.6 -> 94.7%. Single stones are left out (the
    /// stone of a ko, a cutting stone given up): counting them made it 67.2 / 92.8 / 94.7.
    fn kills(&mut self, color: Color, m: u16) -> bool {
        let opponent = color.opponent();
        let (near, len) = self.live_chains_next_to(m, opponent, |board, a| {
            (2..=3).contains(&board.libs_at(a)) && board.chain_len_at(a) > 1
        });
        if len == 0 || !self.play_after(color, m) {
            return false;
        }
        near[..len].iter().any(|&a| {
            self.after.stone_at(a) == Some(opponent)
                && in_danger(&mut self.reader, &self.after, a)
                && self.reader.rescue_move(&self.after, a).is_none()
        })
    }

    /// Under [`Style::Careful`], whether `color`'s move on `m` leaves the opponent more
    /// threatened chains (in atari, or with two liberties and capturable) than one answer
    /// saves.
    fn double_threat(&mut self, color: Color, m: u16) -> bool {
        if self.style != Style::Careful {
            return false;
        }
        let opponent = color.opponent();
        let after = &mut self.after;
        after.clone_from(&self.board);
        after.play_empty(color, m);
        let after = &self.after;
        let mut threatened: Vec<u16> = Vec::new();
        for &loc in &self.locs {
            if self.live_at(loc) == Some(opponent)
                && after.stone_at(loc) == Some(opponent)
                && after.head_at(loc) == loc
                && in_danger(&mut self.reader, after, loc)
            {
                threatened.push(loc);
            }
        }
        threatened.len() >= 2
            && !saves_all(&mut self.reader, &mut self.trial, &self.after, opponent, &threatened)
    }

    /// Whether `color` playing on `m` leaves a live opponent chain next to it with two
    /// liberties, capturable, and with no saving move on a neutral point: the opponent must
    /// answer inside its own territory, as it must answer an atari.
    fn threatens(&mut self, color: Color, m: u16) -> bool {
        let (near, len) = self.left_with_two_liberties(color, m);
        for &a in &near[..len] {
            if !self.reader.capturable(&self.after, a) {
                continue;
            }
            let saving = self.reader.rescue_moves(&self.after, a);
            if !saving.is_empty() && !saving.iter().any(|&r| self.neutral_on(&self.after, r)) {
                return true;
            }
        }
        false
    }

    /// The live opponent chains next to `m` that `color`'s stone there leaves with two
    /// liberties (they had three), a stone of each, with the position after the move in
    /// `after`; none where the move is not legal.
    fn left_with_two_liberties(&mut self, color: Color, m: u16) -> ([u16; 4], usize) {
        let opponent = color.opponent();
        let (mut near, len) =
            self.live_chains_next_to(m, opponent, |board, a| board.libs_at(a) == 3);
        if len == 0 || !self.play_after(color, m) {
            return (near, 0);
        }
        let mut kept = 0;
        for i in 0..len {
            let a = near[i];
            if self.after.stone_at(a) == Some(opponent) && self.after.libs_at(a) == 2 {
                near[kept] = a;
                kept += 1;
            }
        }
        (near, kept)
    }

    /// The live chains of `owner` next to `m` that pass `wanted`, a stone of each, each chain
    /// once: a stone of the other colour on `m` joins none of them, so two stones of one
    /// chain would read the same. At most four.
    fn live_chains_next_to(
        &self,
        m: u16,
        owner: Color,
        wanted: impl Fn(&Board, u16) -> bool,
    ) -> ([u16; 4], usize) {
        let mut near = [0u16; 4];
        let mut len = 0;
        for a in self.board.neighbours_of(m) {
            if self.live_at(a) == Some(owner)
                && wanted(&self.board, a)
                && !near[..len].iter().any(|&n| self.board.head_at(n) == self.board.head_at(a))
            {
                near[len] = a;
                len += 1;
            }
        }
        (near, len)
    }

    /// Plays `color` on `m` in the scratch position `after`, a copy of the finishing's
    /// position; `false` (and `after` untouched) where the move is not legal.
    fn play_after(&mut self, color: Color, m: u16) -> bool {
        if !legal(&self.board, color, m) {
            return false;
        }
        self.after.clone_from(&self.board);
        self.after.play_empty(color, m);
        true
    }

    /// Whether `m` is a neutral point: empty, and next to live stones of both colours.
    fn neutral(&self, m: u16) -> bool {
        self.neutral_on(&self.board, m)
    }

    /// Whether `m` is a neutral point on `board`, a position reached from the finishing's
    /// (its dead stones are those still on the board that were dead there).
    fn neutral_on(&self, board: &Board, m: u16) -> bool {
        if !board.empty_at(m) {
            return false;
        }
        let mut touches = [false; 2];
        for a in board.neighbours_of(m) {
            if let Some(c) = board.stone_at(a)
                && !self.dead_at[a as usize]
            {
                touches[c.index()] = true;
            }
        }
        touches[0] && touches[1]
    }

    /// Whether `color` playing on the dame `m` leaves a live opponent chain next to it owing a
    /// teire: two liberties, one a neutral point the owner cannot fill (its stone there would
    /// leave the chain in atari) but `color` can (its stone there keeps two liberties), the
    /// other inside the owner's area. The dame forces no answer yet, and the chain cannot be
    /// captured (it connects on its inside liberty), but `color`'s next stone on the neutral
    /// point is an atari, and the owner's answer is a teire: filling `m` gains that point in
    /// gote, and filling it first spares the owner the teire. Players take such a dame before
    /// the plain ones (`Meijin/05/13`, cut ten moves before its end: Black's O12 leaves
    /// White's O11 chain N11, which only Black can fill, and P11, White's teire).
    ///
    /// On the 15,079 counted Japanese-rules records of `../shared/corpus/aeb-pro`, taken after
    /// the forcing dame and before those that spare an answer, and sparing an answer itself:
    /// 135 more margins exact, 6 more winners right, 12 fewer within 2 points; six other
    /// placements and tests measured and dropped (BENCHMARKS.md, ninth session).
    fn owes_teire(&mut self, color: Color, m: u16) -> bool {
        let opponent = color.opponent();
        let (near, len) = self.left_with_two_liberties(color, m);
        for &a in &near[..len] {
            let mut libs = [0u16; 2];
            self.after.first_liberties_at(a, &mut libs);
            for (n, o) in [(libs[0], libs[1]), (libs[1], libs[0])] {
                if !self.neutral_on(&self.after, n) || self.neutral_on(&self.after, o) {
                    continue;
                }
                // Our own stone on `n` must be safe, or the atari never comes.
                if !legal(&self.after, color, n) {
                    continue;
                }
                self.answer.clone_from(&self.after);
                self.answer.play_empty(color, n);
                if self.answer.libs_at(n) < 2 {
                    continue;
                }
                if !legal(&self.after, opponent, n) {
                    return true;
                }
                self.answer.clone_from(&self.after);
                self.answer.play_empty(opponent, n);
                if self.answer.stone_at(a) == Some(opponent) && self.answer.libs_at(a) <= 1 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the opponent can answer `color`'s forcing move on `m` (save the chain it puts
    /// in danger) with a move that puts one of `color`'s chains in atari in turn: `color` must
    /// then answer back, and the exchange hands the opponent the move, as a gote move would.
    /// Such a dame is not played for its sente (see [`Finishing::dame_move`]).
    fn answered_with_atari(&mut self, color: Color, m: u16) -> bool {
        let opponent = color.opponent();
        if !self.play_after(color, m) {
            return false;
        }
        let (near, len) = self.live_chains_next_to(m, opponent, |_, _| true);
        for &a in &near[..len] {
            if self.after.stone_at(a) != Some(opponent)
                || !in_danger(&mut self.reader, &self.after, a)
            {
                continue;
            }
            for r in self.reader.rescue_moves(&self.after, a) {
                if !legal(&self.after, opponent, r) {
                    continue;
                }
                self.answer.clone_from(&self.after);
                self.answer.play_empty(opponent, r);
                let answer = &self.answer;
                if answer.neighbours_of(r).into_iter().any(|b| {
                    answer.stone_at(b) == Some(color)
                        && !self.dead_at[b as usize]
                        && answer.libs_at(b) == 1
                }) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `color` playing on `m` leaves an opponent chain next to it in atari.
    fn ataris(&self, color: Color, m: u16) -> bool {
        self.board
            .neighbours_of(m)
            .iter()
            .any(|&a| self.live_at(a) == Some(color.opponent()) && self.board.libs_at(a) == 2)
    }
}

/// Whether the chain on the stone location `loc` is in danger on `board`: in atari, or with
/// two liberties and capturable by the opponent moving first.
fn in_danger(reader: &mut Reader, board: &Board, loc: u16) -> bool {
    match board.libs_at(loc) {
        0 | 1 => true,
        2 => reader.capturable(board, loc),
        _ => false,
    }
}

/// Whether `color`, to move on `board`, has one move after which every chain on `threatened`
/// is safe; `trial` is scratch for the position after it.
///
/// Every move saving one of the chains is tried, not only the first found: the first way of
/// saving a chain may save it alone where another (an extension joining the two chains, a
/// capture that gives both liberties) saves both. Trying only the first called threats real
/// that a player answers with one move, and charged a protective move for them or kept a
/// dame that is safe to fill off the board. Measured on the 15,070 counted Japanese-rules
/// records of `../shared/corpus/aeb-pro` (exact / within 2 points / same winner, in games):
/// 10,987 / 14,282 / 14,445 with the first saving move only, 11,000 / 14,282 / 14,448 with
/// all of them.
fn saves_all(
    reader: &mut Reader,
    trial: &mut Board,
    board: &Board,
    color: Color,
    threatened: &[u16],
) -> bool {
    let mut candidates: Vec<u16> = Vec::new();
    for &h in threatened {
        for m in reader.rescue_moves(board, h) {
            if !candidates.contains(&m) {
                candidates.push(m);
            }
        }
    }
    candidates.into_iter().any(|m| {
        trial.clone_from(board);
        trial.play_empty(color, m);
        threatened.iter().all(|&h| trial.stone_at(h) == Some(color) && !in_danger(reader, trial, h))
    })
}

/// Whether `color` may play on the empty location `m` (suicide forbidden, simple ko).
fn legal(board: &Board, color: Color, m: u16) -> bool {
    board.empty_at(m) && board.check_loc(color, m, SuicideRule::Forbidden).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`regions_of`] says of a point of space: its region's size and the colours around
    /// it, the colours next to the point, and the first point of space in its region (which
    /// names the region whatever its number).
    type SpaceFacts = (usize, [bool; 2], u8, u16);

    /// The regions of space as `finishing` found them, for every point (row-major): `None`
    /// off space.
    fn regions_of(finishing: &mut Finishing) -> Vec<Option<SpaceFacts>> {
        finishing.regions();
        let spaces = &finishing.spaces;
        let first = |region: u32| {
            finishing.spaces.space.iter().copied().find(|&l| spaces.region_of[l as usize] == region)
        };
        finishing
            .locs
            .iter()
            .map(|&loc| {
                if !finishing.space_at(loc) {
                    return None;
                }
                let id = spaces.region_of[loc as usize];
                let region = spaces.regions[id as usize];
                Some((region.size, region.touches, spaces.around[loc as usize], first(id)?))
            })
            .collect()
    }

    /// The finishing moves of `board` (no dead stones), `to_move` first, as `(colour, x, y,
    /// why)`.
    fn moves_of(board: &Board, to_move: Color) -> Vec<(Color, u8, u8, Why)> {
        let dead = vec![false; board.size().area()];
        finish(board, &dead, to_move)
            .moves
            .into_iter()
            .map(|(c, p, why)| (c, p.x, p.y, why))
            .collect()
    }

    /// A dame that forces an answer is sente: it is played before the boundary moves, even one
    /// worth more than a point, which are gote. Played after, the opponent's boundary move or
    /// dame would have filled it first.
    #[test]
    fn a_dame_that_forces_comes_before_a_two_point_boundary_move() {
        // The boundary move on (3, 0) seals (4, 0) and (5, 0) for Black, or denies them to
        // Black when White plays it: two points either way. Black's stone on the neutral point
        // (2, 4) leaves the two white stones on (0, 4) and (1, 4) capturable, and White must
        // answer inside its own territory.
        let board = Board::from_diagram(
            "
            . . O . . . X .
            . . O X X X X .
            . . O X . . . .
            . . O X . . . .
            O O . X . . . .
            X X X X . . . .
            . . . . . . . .",
        )
        .expect("diagram");
        // Black plays the dame, White answers, and Black still gets the boundary move.
        let played = moves_of(&board, Color::Black);
        assert_eq!(played[0], (Color::Black, 2, 4, Why::Dame), "{played:?}");
        assert_eq!((played[1].0, played[1].3), (Color::White, Why::Protect), "{played:?}");
        assert_eq!(played[2], (Color::Black, 3, 0, Why::Boundary), "{played:?}");
        // White, to move, takes the boundary move: its stone on (2, 4) would only spare it an
        // answer, a point in gote; Black then plays its dame in sente.
        let played = moves_of(&board, Color::White);
        assert_eq!(played[0], (Color::White, 3, 0, Why::Boundary), "{played:?}");
        assert_eq!(played[1], (Color::Black, 2, 4, Why::Dame), "{played:?}");
        assert_eq!((played[2].0, played[2].3), (Color::White, Why::Protect), "{played:?}");
    }

    /// A dame after which an opponent chain owes a teire comes before the plain dame: the
    /// filler's next stone puts the chain in atari from a point the owner cannot fill, and
    /// the owner connects inside its own area. The owner, to move, fills it first.
    #[test]
    fn a_dame_that_leaves_a_teire_owed_comes_before_the_plain_dame() {
        // White's three stones on (4, 4), (4, 5) and (5, 5) have three liberties: the dame
        // (4, 3), the dame (3, 4), where a white stone would be in atari, and (5, 4), inside
        // White's area, next to White's other stones. (3, 0) is a plain dame, first in
        // reading order.
        let board = Board::from_diagram(
            "
            . . X . O . . . .
            . . X X O . . . .
            . . . X O O O . .
            . . . X . O O . .
            . . X . O . O O .
            . . . X O O X O O
            . . . . X X X X X
            . . . . . . . . .
            . . . . . . . . .",
        )
        .expect("diagram");
        // Black's stone on (4, 3) leaves White's chain (3, 4) and (5, 4); White plays the plain
        // dame, Black's stone on (3, 4) is an atari, and White connects on (5, 4).
        let played = moves_of(&board, Color::Black);
        assert_eq!(played[0], (Color::Black, 4, 3, Why::Dame), "{played:?}");
        assert_eq!(played[1], (Color::White, 3, 0, Why::Dame), "{played:?}");
        assert_eq!(played[2], (Color::Black, 3, 4, Why::Dame), "{played:?}");
        assert_eq!(played[3], (Color::White, 5, 4, Why::Rescue), "{played:?}");
        assert_eq!(played.len(), 4, "{played:?}");
        // White, to move, connects its chain through (4, 3) first and owes no teire.
        let played = moves_of(&board, Color::White);
        assert_eq!(played[0], (Color::White, 4, 3, Why::Dame), "{played:?}");
        assert!(!played.iter().any(|&(_, _, _, why)| why == Why::Rescue), "{played:?}");
    }

    /// A dame that puts an opponent chain in atari is not sente when the opponent's answer
    /// puts one of the filler's chains in atari in turn: the filler would have to answer back
    /// and hand over the move, so it takes the boundary move first.
    #[test]
    fn a_dame_answered_with_atari_waits_for_the_boundary_move() {
        // Black's dame on (6, 4) puts White's two stones on (5, 4) and (5, 5) in atari; White
        // connects them on (4, 4), which leaves Black's stone on (4, 5) in atari, and Black
        // connects on (4, 6), inside its own area. The boundary move on (3, 8) seals (4, 8)
        // for Black.
        let board = Board::from_diagram(
            "
            . . . O X . . . .
            . . . O X . . . .
            . . . O X X . . .
            . . . O O X X X .
            . . . O . O . X .
            . . . O X O X . .
            . . O X . X X . .
            . . O X X X . . .
            . . O . . X . . .",
        )
        .expect("diagram");
        let played = moves_of(&board, Color::Black);
        assert_eq!(played[0], (Color::Black, 3, 8, Why::Boundary), "{played:?}");
        // White's own stone on (4, 4) is sente (Black connects on (4, 6)), and the dame on
        // (6, 4) is filled afterwards.
        assert_eq!(played[1], (Color::White, 4, 4, Why::Dame), "{played:?}");
        assert_eq!(played[2], (Color::Black, 4, 6, Why::Rescue), "{played:?}");
        assert!(played.iter().any(|&(_, x, y, _)| (x, y) == (6, 4)), "{played:?}");
    }

    /// A capturable chain is protected where the protective move leaves it three liberties,
    /// rather than two, which a dame could take down to a second protective move.
    #[test]
    fn a_protective_move_leaves_the_chain_three_liberties_where_it_can() {
        // Black's stone on (2, 4) left White's two stones on (0, 4) and (1, 4) with two
        // liberties, (0, 3) and (1, 3), and Black's cut on (1, 3) would capture them. Both
        // answers lie inside White's territory; (1, 3) joins the wall on (2, 3) and its many
        // liberties, while (0, 3) leaves three stones with two.
        let board = Board::from_diagram(
            "
            . . O . X .
            . . O X X .
            . . O X . .
            . . O X . .
            O O X X . .
            X X X X . .
            . . . . . .",
        )
        .expect("diagram");
        let played = moves_of(&board, Color::White);
        assert_eq!(played[0], (Color::White, 1, 3, Why::Protect), "{played:?}");
    }

    /// A boundary move that forces an answer is sente, and comes before a larger boundary
    /// move in gote.
    #[test]
    fn a_boundary_move_that_forces_comes_before_a_larger_one_in_gote() {
        // The boundary move on (3, 0) seals (4, 0) to (6, 0) for Black, three points. The one
        // on (2, 4) seals (3, 4) and (2, 5) for Black, two, and leaves White's two stones on
        // (0, 4) and (1, 4) with two liberties inside White's territory, capturable: White
        // must answer there.
        let board = Board::from_diagram(
            "
            . . O . . . . X .
            . . O X X X X X .
            . . O X . . . . .
            . . O X . . . . .
            O O . . X . . . .
            X X . X X . . . .
            . X X X . . . . .
            . . . . . . . . .",
        )
        .expect("diagram");
        let played = moves_of(&board, Color::Black);
        assert_eq!(played[0], (Color::Black, 2, 4, Why::Boundary), "{played:?}");
        assert_eq!((played[1].0, played[1].3), (Color::White, Why::Protect), "{played:?}");
        assert_eq!(played[2], (Color::Black, 3, 0, Why::Boundary), "{played:?}");
    }

    /// A dame whose filling puts the owner's stone in atari, but leaves the filler's own chain
    /// with two liberties it must then protect, is left open: the filler's atari, the owner's
    /// connection and the filler's protective move cost each side a point of its area, a gote
    /// exchange worth nothing, and neither side can fill the dame alone.
    #[test]
    fn a_dame_filled_with_atari_that_needs_a_teire_of_the_filler_is_left() {
        // White on (8, 8) puts Black's stone on (7, 8) in atari, and Black connects on (6, 8);
        // White's chain on (7, 7), (8, 7) and (8, 8) is then left with (7, 6) and (8, 6),
        // and Black's stone on (7, 6) would capture it unless White protects. Black's own
        // stone on (8, 8) would be in atari at once.
        let board = Board::from_diagram(
            "
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X X O O
            . . . . . . . X .",
        )
        .expect("diagram");
        for to_move in [Color::Black, Color::White] {
            let played = moves_of(&board, to_move);
            assert!(
                played.iter().all(|&(_, x, y, _)| y != 8 || x < 6),
                "{to_move:?} first: {played:?}"
            );
        }
    }

    /// A dame where neither side's stone would be out of atari is not left open at the end: the
    /// player to move makes the teire inside its own area, fills the dame with atari, and the
    /// opponent answers inside its own; each pays a point.
    #[test]
    fn a_dame_short_of_liberties_on_both_sides_is_filled_after_a_teire() {
        // The dame on (8, 8) is a liberty of Black's stone on (8, 7), whose other liberty is
        // (8, 6) in Black's area, and of White's chain on (7, 7) and (7, 8), whose other
        // liberty (6, 8) is the last one of Black's dead stone on (6, 7).
        let board = Board::from_diagram(
            "
            . . . . O X . . .
            . . . . O X . . .
            . . . . O X . . .
            . . . . O X . . .
            . . . . O X . . .
            . . . . O X X X X
            . . . . O O O X .
            . . . . . O X O X
            . . . . . . . O .",
        )
        .expect("diagram");
        let mut dead = vec![false; 81];
        dead[7 * 9 + 6] = true;
        for to_move in [Color::Black, Color::White] {
            let finished = finish(&board, &dead, to_move);
            let played: Vec<(Color, u8, u8, Why)> =
                finished.moves.iter().map(|&(c, p, why)| (c, p.x, p.y, why)).collect();
            assert!(
                played.iter().any(|&(_, x, y, _)| (x, y) == (8, 8)),
                "{to_move:?} first: {played:?}"
            );
            assert_eq!(finished.protective, [1, 1], "{to_move:?} first: {played:?}");
        }
    }

    /// The regions a finishing keeps up to date from move to move are those found afresh in
    /// the position reached: after moves that cut an open region and fill points of
    /// territory, with and without a look between moves, and after a capture (after which they
    /// are found again).
    #[test]
    fn the_regions_kept_from_move_to_move_are_those_of_the_position() {
        // White's stone at B2 is dead; D4 D5 E5 are an open region between the borders.
        let board = Board::from_diagram(
            "
            . . X O . . . . .
            . O X O . . . . .
            X X X O . . . . .
            . . X . O O O O O
            . . X . . X X X X
            X X X X X . . . .
            . . . . X . . . .
            . . . . X . . . .
            . . . . X . . . .",
        )
        .expect("diagram");
        let mut dead = vec![false; 81];
        dead[9 + 1] = true;
        let at = |name: &str| board.loc(Point::from_sgf(name.as_bytes()).expect("point"));
        let mut kept = Finishing::new(&board, &dead, Style::Forcing);
        regions_of(&mut kept);
        // (player, point, whether the regions are looked at after the move)
        let moves = [
            (Color::Black, "ee", true),
            (Color::White, "dd", false),
            (Color::Black, "gg", true),
            (Color::White, "de", true),
            (Color::Black, "ba", true),
            // Takes White's dead stone.
            (Color::Black, "ab", true),
            (Color::White, "ea", true),
        ];
        let mut played = board.clone();
        for (color, name, look) in moves {
            let m = at(name).expect("on the board");
            kept.play(color, m, Why::Dame);
            played.play_empty(color, m);
            if look {
                let dead_now: Vec<bool> =
                    kept.locs.iter().map(|&l| kept.dead_at[l as usize]).collect();
                let mut fresh = Finishing::new(&played, &dead_now, Style::Forcing);
                assert_eq!(regions_of(&mut kept), regions_of(&mut fresh), "after {name}");
            }
        }
        assert_eq!(kept.captured_by, [1, 0], "the capture was played");
    }
}
