//! Region analysis on top of the playouts: the checks that catch what random play gets wrong.
//!
//! A player's *area* around a chain is the space it reaches through empty points, its own
//! stones and dead stones, stopping at the opponent's live stones. With the statuses the
//! playouts proposed:
//! - a chain short of liberties that the tactical reader finds lost whoever moves first
//!   ([`crate::analysis::reading`]) is dead, and the chains around it alive, when capturing it
//!   gives their group two eyes (with its liberties filled, and no capturing stone left in
//!   atari);
//! - a weak group whose area is small (at most [`READ_AREA`] points of space) is read out move
//!   by move, its opponent moving first ([`super::life`]), and takes the answer (but for a few
//!   stones in separate chains that live moving first, in a record that stops before the end);
//! - a group with fewer than two eyes whose area holds no strong group of its colour and is
//!   bordered only by strong opponent groups is dead unless the playouts keep it alive in a
//!   clear majority (they let one-eyed groups with a false eye live now and then, when the
//!   attacker plays at random), however large the area: room to live shows as eyes, and an
//!   area closed by strong groups has no open border (in a record that stops before the end,
//!   a one-eyed group with a big chain the playouts keep alive in a weaker majority stands
//!   too); the opponent's stones taken off inside a group that dies (by this rule or by
//!   reading) stand again;
//! - of two adjacent chains of opposite colours that the playouts left a coin toss (a capturing
//!   race each side wins when it moves first, on average), the one with more liberties wins
//!   when they share at most one liberty and capturing gives it two eyes;
//! - a chain the playouts took as dead that shares two liberties or more with a live opponent
//!   chain without two eyes (the inner side of a seki, which random play kills by filling the
//!   shared liberties) is read out, its opponent moving first, and lives if the reading says
//!   so; in a record that stops before the end, also if it lives moving first itself;
//! - a live group with fewer than two eyes that shares liberties with a live opponent group in
//!   the same state is in seki.
//!
//! "Strong" is two eyes or more (see [`super::eyes`]) or Benson's pass-alive.

use super::eyes::{Eyes, analyse};
use super::layout::{Layout, NONE};
use crate::analysis::reading::Reader;
use crate::rules::{Board, Color};

/// Playout support (mean ownership from the chain's side, over the playouts both sides
/// started) above which the playouts' verdict stands: a group they keep alive that clearly
/// usually wins a liberty race or lives in a way the eye count misses.
const CLEARLY_ALIVE: f32 = 0.8;

/// Playout support from which a group the enclosure rule would kill is left alive: the
/// playouts keep it alive in a clear majority (the statuses are decided at 0.3). The rule is
/// for one-eyed groups that random attackers let live now and then; a group the playouts keep
/// alive this often usually has a second eye the eye count misses (a false-looking eye
/// between two chains joined elsewhere) or wins a race. Measured with `scripts/accuracy`:
/// from 0.8 to 0.5 the aeb-pro Japanese games go from 90.8 to 91.0% within 2 points, and
/// nothing else changes; 0.4 adds a few 19x19 games of the other aeb-pro games (80.2 to 80.3%).
const PLAYOUTS_KEEP_ALIVE: f32 = 0.4;

/// Chains of at least this many stones are big (see [`keeps_a_big_chain`]).
const BIG_CHAIN: usize = 10;

/// Playout support from which the playouts keep a big chain alive against the enclosure rule
/// in a record that stops before the end (see [`keeps_a_big_chain`]).
const BIG_CHAIN_KEEP_ALIVE: f32 = 0.2;

/// Whether the playouts keep a big chain of the area alive: one of [`BIG_CHAIN`] stones or more
/// with a support of [`BIG_CHAIN_KEEP_ALIVE`] or more. The enclosure rule's question for a group
/// with one eye, asked in a record that stops before the end: such a group with a big chain,
/// left standing at the end of a counted professional game, is more often alive than dead (of
/// the 19 aeb-pro Japanese games in which the rule killed a chain of ten stones or more, 15
/// were counted more than 2 points off, every one toward the chain living).
/// What keeps it alive is usually a capturing race against an enclosing chain short of
/// liberties (one eye against none) or a seki that the eye count, which calls the enclosing
/// groups strong, cannot see; the playouts see some of it, and for a big chain a weaker
/// majority than [`PLAYOUTS_KEEP_ALIVE`] is enough to stand.
///
/// Measured on aeb-pro's Japanese-rules games: 6 margins closer, none further (GNU Go 3.8
/// calls the revived chain alive in the three games it was asked about); without the support,
/// or for any group of ten stones in all, rightly dead groups stood (BENCHMARKS.md, eighth
/// session).
fn keeps_a_big_chain(layout: &Layout, area: &Area<'_>, support: &[f32]) -> bool {
    area.chains.iter().any(|&c| {
        layout.chains[c as usize].stones.len() >= BIG_CHAIN
            && support[c as usize] >= BIG_CHAIN_KEEP_ALIVE
    })
}

/// One area: its chains of the colour (in the order met), its space (empty points and dead
/// stones) and the opponent's live chains bordering it (in the order met).
struct Area<'a> {
    chains: &'a [u32],
    space: &'a [usize],
    boundary: &'a [u32],
}

/// Every area of one colour: the area of every point (`NONE` under the opponent's live stones),
/// and each area's parts, kept one area after another in three lists (no allocation per area).
struct Areas {
    of: Vec<u32>,
    /// Where each area's chains, space and boundary end in the lists (each starts where the
    /// previous area's ends).
    ends: Vec<[u32; 3]>,
    chains: Vec<u32>,
    space: Vec<usize>,
    boundary: Vec<u32>,
}

impl Areas {
    /// Area number `a`.
    fn area(&self, a: usize) -> Area<'_> {
        let [c0, s0, b0] = if a == 0 { [0; 3] } else { self.ends[a - 1] };
        let [c1, s1, b1] = self.ends[a];
        Area {
            chains: &self.chains[c0 as usize..c1 as usize],
            space: &self.space[s0 as usize..s1 as usize],
            boundary: &self.boundary[b0 as usize..b1 as usize],
        }
    }
}

fn areas(layout: &Layout, dead: &[bool], color: Color) -> Areas {
    let grid = &layout.grid;
    let n = grid.len();
    let opp = color.opponent();
    let live_at = layout.live_stones(dead);
    let live = |i: usize, c: Color| live_at[i] == Some(c);
    let mut of = vec![NONE; n];
    let mut ends: Vec<[u32; 3]> = Vec::new();
    let (mut chains, mut space, mut boundary) = (Vec::new(), Vec::with_capacity(n), Vec::new());
    let mut stack = Vec::new();
    // The area each chain was last listed in (as one of its chains or on its boundary): a
    // look-up instead of a search of the area's list at every stone and every border point.
    let mut listed_in = vec![NONE; layout.chains.len()];
    for start in 0..n {
        if of[start] != NONE || live(start, opp) {
            continue;
        }
        let id = ends.len() as u32;
        of[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            if live(p, color) {
                let c = layout.chain_of[p];
                if listed_in[c as usize] != id {
                    listed_in[c as usize] = id;
                    chains.push(c);
                }
            } else {
                space.push(p);
            }
            for a in grid.adj(p) {
                if live(a, opp) {
                    let c = layout.chain_of[a];
                    if listed_in[c as usize] != id {
                        listed_in[c as usize] = id;
                        boundary.push(c);
                    }
                } else if of[a] == NONE {
                    of[a] = id;
                    stack.push(a);
                }
            }
        }
        ends.push([chains.len() as u32, space.len() as u32, boundary.len() as u32]);
    }
    Areas { of, ends, chains, space, boundary }
}

/// The eye analysis and both colours' areas of one set of dead flags, kept for the next step
/// of [`check`] that asks with the same flags: the checks look again after every step, and most
/// steps change no flag (on the professional games, three analyses a game were two repeats).
struct Analysed {
    /// The flags the kept answers are for.
    dead: Vec<bool>,
    eyes: Option<Eyes>,
    areas: Option<[Areas; 2]>,
}

impl Analysed {
    fn new() -> Analysed {
        Analysed { dead: Vec::new(), eyes: None, areas: None }
    }

    /// Forgets the kept answers unless they are for `dead`.
    fn keep_for(&mut self, dead: &[bool]) {
        if self.dead != dead {
            self.dead.clear();
            self.dead.extend_from_slice(dead);
            self.eyes = None;
            self.areas = None;
        }
    }

    /// [`analyse`] of `layout` with `dead`.
    fn eyes(&mut self, layout: &Layout, dead: &[bool]) -> &Eyes {
        self.keep_for(dead);
        self.eyes.get_or_insert_with(|| analyse(layout, dead))
    }

    /// [`analyse`] and the [`areas`] of both colours (Black's first) of `layout` with `dead`.
    fn eyes_and_areas(&mut self, layout: &Layout, dead: &[bool]) -> (&Eyes, &[Areas; 2]) {
        self.keep_for(dead);
        let eyes = self.eyes.get_or_insert_with(|| analyse(layout, dead));
        let areas = self.areas.get_or_insert_with(|| {
            [areas(layout, dead, Color::Black), areas(layout, dead, Color::White)]
        });
        (eyes, areas)
    }
}

/// What the region checks concluded.
pub(crate) struct Checks {
    /// Chains found dead by enclosure that the playouts left alive.
    pub(crate) killed: Vec<u32>,
    /// Chains found dead or alive by reading out their small area (see [`super::life`]).
    pub(crate) read: Vec<(u32, bool)>,
    /// Live chains in seki.
    pub(crate) seki: Vec<u32>,
}

/// Enclosing chains with at most this many liberties take part in a reading: their liberties
/// (and their stones, when they are few) are played on. Measured with `scripts/accuracy`
/// against 2, the reading's first bound: 3 gains a few games, 4 the most (aeb-pro Japanese
/// +18 within 2 points of 15,309, markup 149 -> 150 of 171 every stone right), 5 and 6 less
/// (6 costs a finished game). A chain whose liberties the reading leaves out cannot be
/// captured in it: a one-eyed group racing an enclosed chain with an eye of its own (its last
/// liberty) lost every race it wins on the board.
const RACING_LIBERTIES: usize = 4;

/// Chains of at most this many stones are small: an enclosing chain this small short of
/// liberties is played on in a reading, and a cutting chain this small joins it.
const SMALL_CHAIN: usize = 6;

/// Areas of at most this many points of space are read out move by move.
const READ_AREA: usize = 14;

/// The most points a reading may play on (the area's space and stones, and what the enclosing
/// chains short of liberties add).
const READ_ARENA: usize = 24;

/// Reads out every weak group whose area is small and enclosed by the opponent's live stones
/// (with the attacker moving first), and sets the dead flags of its chains by the answer. In a
/// record that stops before the end, a kill of a few stones in separate chains that live when
/// they move first is left to the playouts (see [`splinters_living_first`]).
/// Returns the chains whose status it decided, with whether they live.
fn read_small_areas(
    board: &Board,
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
    ended_by_passes: bool,
    analysed: &mut Analysed,
) -> Vec<(u32, bool)> {
    let mut decided: Vec<(u32, bool)> = Vec::new();
    let (eyes, by_color) = analysed.eyes_and_areas(layout, dead);
    let strong = strong_groups(eyes, pass_alive);
    // Each colour numbers its areas separately: an area is its colour and its number.
    let mut done: Vec<(Color, u32)> = Vec::new();
    for (g, group) in eyes.groups.iter().enumerate() {
        if strong[g] {
            continue;
        }
        let own = &by_color[group.color.index()];
        let a = own.of[layout.chains[group.chains[0] as usize].stones[0]];
        if done.contains(&(group.color, a)) {
            continue;
        }
        done.push((group.color, a));
        let area = own.area(a as usize);
        if area.space.len() > READ_AREA || area.boundary.is_empty() {
            continue;
        }
        // The area's space and stones (a stone captured during the fight leaves a point to
        // play on), plus the stones and outside liberties of the enclosing chains that are
        // short of liberties (a capturing race is part of the fight).
        let loc = |i: usize| board.loc(layout.point(i)).expect("layout points are on the board");
        let mut arena: Vec<u16> = area.space.iter().map(|&i| loc(i)).collect();
        let add = |i: usize, arena: &mut Vec<u16>| {
            let l = loc(i);
            if !arena.contains(&l) {
                arena.push(l);
            }
        };
        for &c in area.chains {
            for &i in &layout.chains[c as usize].stones {
                add(i, &mut arena);
            }
        }
        // The owner's small chains short of liberties that cut a racing enclosing chain off from
        // the outside (outside the area, so not in the arena yet) join the reading when there
        // is room: capturing them is often how the enclosing chain gets out of the race, and
        // read without them its owner's answer there is missing.
        let mut cutting: Vec<u16> = Vec::new();
        for &c in area.boundary {
            let chain = &layout.chains[c as usize];
            if chain.liberties.len() <= RACING_LIBERTIES {
                for &i in &chain.liberties {
                    add(i, &mut arena);
                }
                if chain.stones.len() <= SMALL_CHAIN {
                    for &i in &chain.stones {
                        add(i, &mut arena);
                    }
                }
                for &i in &chain.stones {
                    for a in layout.grid.adj(i) {
                        let y = layout.chain_of[a];
                        if layout.stones[a] != Some(group.color) || area.chains.contains(&y) {
                            continue;
                        }
                        let cut = &layout.chains[y as usize];
                        if cut.liberties.len() <= 2 && cut.stones.len() <= SMALL_CHAIN {
                            for &j in &cut.stones {
                                add(j, &mut cutting);
                            }
                        }
                    }
                }
            }
        }
        cutting.retain(|l| !arena.contains(l));
        if arena.len() + cutting.len() <= READ_ARENA {
            arena.extend(cutting);
        }
        if arena.len() > READ_ARENA {
            continue;
        }
        let Some(mut search) = life_search(board, layout, area.chains, arena) else { continue };
        let Some(lives) = search.lives(group.color.opponent()) else { continue };
        if !lives && !ended_by_passes && splinters_living_first(layout, area.chains, &mut search) {
            continue;
        }
        for &c in area.chains {
            for &i in &layout.chains[c as usize].stones {
                dead[i] = !lives;
            }
            decided.push((c, lives));
        }
        // The attacker's stones inside a group that dies are no prisoners: they stand in the
        // attacker's territory now (the three White stones Black raced against in
        // `a_race_won_into_a_bent_three_is_lost_all_the_same`).
        if !lives {
            for &i in area.space {
                let c = layout.chain_of[i];
                if layout.stones[i] == Some(group.color.opponent())
                    && dead[i]
                    && !decided.iter().any(|&(d, _)| d == c)
                {
                    for &j in &layout.chains[c as usize].stones {
                        dead[j] = false;
                    }
                    decided.push((c, true));
                }
            }
        }
    }
    decided
}

/// Groups of at most this many stones in two chains or more are splinters (see
/// [`splinters_living_first`]).
const SPLINTER_STONES: usize = 4;

/// Whether `chains`, a weak group the reading `search` kills with the attacker moving first,
/// are splinters that live when they move first themselves: two chains or more, at most
/// [`SPLINTER_STONES`] stones in all (two stones on the 1-2 points of a corner, a hane and a
/// stone beside it on the first line). Professional records that stop before the end count such
/// stones as they stand far more often than as dead: capturing them takes the attacker two
/// moves or more inside its own area, each filling a liberty of an enclosing chain that is
/// short of them (three or fewer in every game it gained), and the reading, which plays only
/// inside the area and keys the group on one of its chains, likely misses how the real board
/// punishes that.
/// Larger groups and single chains are different: the reading is right about them more often.
///
/// Measured with `RAYON_NUM_THREADS=2 target/release/examples/accuracy --misses` against
/// 3e6dde0: aeb-pro Japanese exact / within 2 / same winner 11,111 / 14,331 / 14,474 -> 11,121 /
/// 14,347 / 14,478 of 15,070 (16 margins closer; 2 further, both wrong by more than 20 points
/// before), other counted aeb 2,832 / 4,206 / 4,656 -> 2,835 / 4,210 / 4,658 (4 closer, none
/// further), every other set and the held-out sets the same. Tried and dropped (the same
/// command): in finished games too and at any size, 11,117 / 14,343 / 14,476, five margins 20
/// to 34 points further (groups of 8 to 15 stones the reading kills rightly); also when the
/// reading of the group moving first runs out, 11,117 / 14,341 / 14,474; no kill by reading at
/// all, 60 Japanese games closer and 40 further, and 3 finished OGS games and 5 finished
/// computer games lost; no kill next to an enclosing chain of three liberties or fewer, 31
/// closer and 32 further, 2 finished OGS games lost. At most 3 stones: 11,120 / 14,346 /
/// 14,478 (one gained game fewer); at most 6: the same as 4. In finished games too (at most 4
/// stones), no finished game of any set changes: the rule is kept to records that stop early,
/// since in a game both players ended by passing a group that dies to the first move is dead.
fn splinters_living_first(
    layout: &Layout,
    chains: &[u32],
    search: &mut super::life::LifeSearch,
) -> bool {
    let stones: usize = chains.iter().map(|&c| layout.chains[c as usize].stones.len()).sum();
    chains.len() >= 2
        && stones <= SPLINTER_STONES
        && search.lives(layout.chains[chains[0] as usize].color) == Some(true)
}

/// The local life search of `chains` in `arena`, keyed on their largest chain (of equals, the
/// first in the layout): the chain the search follows to tell whether they live. None when the
/// search cannot be set up (no chain, or an arena it does not take).
fn life_search(
    board: &Board,
    layout: &Layout,
    chains: &[u32],
    arena: Vec<u16>,
) -> Option<super::life::LifeSearch> {
    let &largest = chains
        .iter()
        .max_by_key(|&&c| (layout.chains[c as usize].stones.len(), std::cmp::Reverse(c)))?;
    let first = layout.chains[largest as usize].stones[0];
    let key = board.loc(layout.point(first)).expect("layout points are on the board");
    super::life::LifeSearch::new(board, key, arena)
}

/// Reads out the chains the playouts took as dead that look like one side of a seki: small,
/// sharing two liberties or more with a live opponent chain that has fewer than two eyes
/// itself. Random play fills shared liberties as readily as any other point, so the inner
/// side of a seki, whose every approach move is self-atari for whoever plays it, dies in most
/// playouts; the reading checks whether the opponent, moving first, can really capture it.
/// The area read is the chains' own space (empty points and stones of their colour, all of
/// them dead, reached from them without crossing the opponent's stones), with the liberties
/// (and, when small, the stones) of the enclosing chains short of liberties, as in
/// [`read_small_areas`]. Chains the reading keeps alive are alive (in seki when they have no
/// two eyes: the seki check below finds them); the others stay as the playouts had them.
/// Returns the chains it revived.
fn read_dead_sides_of_seki(
    board: &Board,
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
    ended_by_passes: bool,
    analysed: &mut Analysed,
) -> Vec<(u32, bool)> {
    let eyes = analysed.eyes(layout, dead);
    let strong = strong_groups(eyes, pass_alive);
    let weak_live = |c: usize| {
        let g = eyes.group_of[c];
        !dead[layout.chains[c].stones[0]] && !pass_alive[c] && (g == NONE || !strong[g as usize])
    };
    let unfinished = !ended_by_passes;
    let mut candidates: Vec<usize> = Vec::new();
    for (x, chain) in layout.chains.iter().enumerate() {
        if !dead[chain.stones[0]] || chain.liberties.len() < 2 {
            continue;
        }
        let seki_like = chain.stones.iter().any(|&i| {
            layout.grid.adj(i).any(|a| {
                if layout.stones[a] != Some(chain.color.opponent()) {
                    return false;
                }
                let y = layout.chain_of[a];
                let enclosing = &layout.chains[y as usize];
                let shared =
                    enclosing.liberties.iter().filter(|l| chain.liberties.contains(l)).count();
                weak_live(y as usize) && shared >= 2
            })
        });
        if seki_like {
            candidates.push(x);
        }
    }
    let mut revived: Vec<(u32, bool)> = Vec::new();
    let loc = |i: usize| board.loc(layout.point(i)).expect("layout points are on the board");
    for x in candidates {
        let color = layout.chains[x].color;
        if !dead[layout.chains[x].stones[0]] {
            continue;
        }
        // The chains' own space: empty points and stones of their colour, every stone dead.
        let mut space: Vec<usize> = layout.chains[x].stones.clone();
        let mut next = 0;
        let mut enclosed = true;
        while next < space.len() && enclosed {
            let p = space[next];
            next += 1;
            for a in layout.grid.adj(p) {
                if space.contains(&a) || layout.stones[a] == Some(color.opponent()) {
                    continue;
                }
                if layout.stones[a] == Some(color) && !dead[a] {
                    enclosed = false;
                    break;
                }
                space.push(a);
            }
            if space.len() > READ_ARENA {
                enclosed = false;
            }
        }
        if !enclosed {
            continue;
        }
        let mut arena: Vec<u16> = space.iter().map(|&i| loc(i)).collect();
        let mut boundary: Vec<u32> = Vec::new();
        for &p in &space {
            for a in layout.grid.adj(p) {
                let y = layout.chain_of[a];
                if layout.stones[a] == Some(color.opponent()) && !boundary.contains(&y) {
                    boundary.push(y);
                }
            }
        }
        for &y in &boundary {
            let chain = &layout.chains[y as usize];
            if chain.liberties.len() > RACING_LIBERTIES {
                continue;
            }
            let mut add = |i: usize| {
                let l = loc(i);
                if !arena.contains(&l) {
                    arena.push(l);
                }
            };
            chain.liberties.iter().for_each(|&i| add(i));
            if chain.stones.len() <= SMALL_CHAIN {
                chain.stones.iter().for_each(|&i| add(i));
            }
        }
        if arena.len() > READ_ARENA {
            continue;
        }
        let own: Vec<u32> = {
            let mut own: Vec<u32> = Vec::new();
            for &i in &space {
                let c = layout.chain_of[i];
                if layout.stones[i] == Some(color) && !own.contains(&c) {
                    own.push(c);
                }
            }
            own
        };
        let Some(mut search) = life_search(board, layout, &own, arena) else { continue };
        let attacked = search.lives(color.opponent());
        // Killed with the opponent moving first but alive moving first itself: a fight whose
        // owner's move (the point that makes the seki, usually an outside liberty of the
        // enclosing chain) is still to play. In a finished position the opponent would take
        // it (Japanese rules settle a dispute with the opponent moving first); in a record
        // stopped before the end it is one of the last moves the players leave out, and the
        // counted result has the stones alive.
        let revive = match attacked {
            Some(true) => true,
            Some(false) if unfinished => search.lives(color) == Some(true),
            _ => false,
        };
        if !revive {
            continue;
        }
        for &c in &own {
            for &i in &layout.chains[c as usize].stones {
                dead[i] = false;
            }
            revived.push((c, true));
        }
    }
    revived
}

/// Playout support (from a chain's side) below which its status is a coin toss: the
/// estimator's unclear band.
const COIN_TOSS: f32 = 0.3;

/// Calls the capturing races the playouts could not: a chain in the unclear band against the
/// adjacent opponent chains that are unclear too or that the playouts took as dead. Random
/// play decides such a race by who starts (each side fills the other's liberties as fast as
/// its own), so the averages over both starting sides come out near zero; but a race the
/// players left on the board at the end of a game is usually one that one side wins even
/// moving second, and with at most one shared liberty that is the chain with more liberties,
/// provided that capturing the others gives it two eyes (together with its own colour's
/// unclear chains around the losers, which race alongside it). Equal liberties (whoever starts
/// wins) and two shared liberties or more (the way to seki) are left as the playouts had them.
/// Reading the race out move by move on the chains' liberties was tried first and is worse: a
/// chain that extends out of the liberties it was given escapes every attack the reading
/// allows. Sets the dead flags of the chains it called and returns them, with whether they
/// live.
///
/// Tried and dropped, measured with `RAYON_NUM_THREADS=2 target/release/examples/accuracy`
/// against 1a7be10 (aeb-pro Japanese exact / within 2 / same winner 11,103 / 14,321 / 14,471
/// of 15,070): an equal-liberty race given to the side the record leaves to move, 11,085 /
/// 14,291 / 14,455 (other aeb same winner 4,557 -> 4,553), or to the other side, 11,092 /
/// 14,298 / 14,467; the winner's two eyes counted with the losers' liberties filled, as
/// [`call_captures`] counts them, 11,099 / 14,315 / 14,467.
fn call_races(
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
    support: &[f32],
) -> Vec<(u32, bool)> {
    let mut decided: Vec<(u32, bool)> = Vec::new();
    let unclear = |c: usize| support[c].abs() < COIN_TOSS && !pass_alive[c];
    for (x, chain) in layout.chains.iter().enumerate() {
        if !unclear(x) || decided.iter().any(|&(c, _)| c as usize == x) {
            continue;
        }
        let mut rivals: Vec<u32> = Vec::new();
        for &i in &chain.stones {
            for a in layout.grid.adj(i) {
                let y = layout.chain_of[a];
                if layout.stones[a] == Some(chain.color.opponent())
                    && (unclear(y as usize) || (dead[a] && !pass_alive[y as usize]))
                    && !rivals.contains(&y)
                {
                    rivals.push(y);
                }
            }
        }
        // The chain must win against every rival it races (more liberties, at most one
        // shared); a rival with as many liberties or more is its own race, called from there.
        let mut losers: Vec<u32> = Vec::new();
        let mut wins_all = true;
        for &y in &rivals {
            let other = &layout.chains[y as usize];
            let shared = chain.liberties.iter().filter(|l| other.liberties.contains(l)).count();
            if shared > 1 || chain.liberties.len() <= other.liberties.len() {
                wins_all = false;
                break;
            }
            losers.push(y);
        }
        if !wins_all
            || losers.is_empty()
            || losers.iter().any(|&y| decided.iter().any(|&(c, _)| c == y))
        {
            continue;
        }
        // The winner's other coin-toss chains around the losers race with it (two chains
        // cutting the same stones) and live with it.
        let mut winners: Vec<u32> = vec![x as u32];
        for &y in &losers {
            for &i in &layout.chains[y as usize].stones {
                for a in layout.grid.adj(i) {
                    let c = layout.chain_of[a];
                    if layout.stones[a] == Some(chain.color)
                        && unclear(c as usize)
                        && !winners.contains(&c)
                    {
                        winners.push(c);
                    }
                }
            }
        }
        // The race is the winner's only if the losers cannot win it another way: by taking
        // a partner of the winner's that is shorter of liberties than they are first.
        if losers.iter().any(|&y| loser_wins_through_a_partner(layout, x, y, &winners)) {
            continue;
        }
        let mut hypothesis = dead.to_vec();
        for &c in &winners {
            for &i in &layout.chains[c as usize].stones {
                hypothesis[i] = false;
            }
        }
        for &y in &losers {
            for &i in &layout.chains[y as usize].stones {
                hypothesis[i] = true;
            }
        }
        // Winning must be worth it: with the losers off the board the winner has two eyes. A
        // chain that captures a lone stone inside the opponent's wall and still has no room to
        // live is dead all the same.
        let after = analyse(layout, &hypothesis);
        let g = after.group_of[x];
        if g == NONE || after.groups[g as usize].eyes < 2 {
            continue;
        }
        dead.copy_from_slice(&hypothesis);
        decided.extend(winners.iter().map(|&c| (c, true)));
        decided.extend(losers.iter().map(|&y| (y, false)));
    }
    decided
}

/// Whether the loser `y` of a race against chain `x` wins it through one of `x`'s partners in
/// it (`winners` but `x`, the coin-toss chains of `x`'s colour around the losers): a partner
/// beside `y` with fewer liberties than `y` has, which `y` captures first unless `x` connects
/// it, and `x` can connect it only on a liberty they share, which `x` then fills: the race
/// stands only if the connected chain still has more liberties than `y`. A capture gives the
/// loser liberties, often an eye, and the count of liberties no longer says who wins
/// (Honinbo/74/P13 in aeb-pro: Black's fourteen stones with three liberties, against White's
/// corner with four, take White's two-liberty stone inside their own area first and win, and
/// White's corner has three once it connects its stones in atari beside it; the record has
/// Black winning by half a point, kifu had White by 58.5).
///
/// Measured with `RAYON_NUM_THREADS=2 target/release/examples/accuracy` against 32fa24c (the
/// dump's answers): aeb-pro Japanese exact / within 2 / same winner 11,103 / 14,321 / 14,471 ->
/// 11,111 / 14,331 / 14,474 of 15,070 (12 margins closer, 1 further), other counted aeb
/// 2,829 / 4,203 / 4,655 -> 2,832 / 4,206 / 4,656 (3 closer, none further), every other set
/// the same; held out, lemonsqueeze 19x19 96.0 -> 97.3% exact, nothing lost. The partners that
/// cannot connect alone: 11,110 / 14,330 / 14,473 and 2,831 / 4,205 / 4,656. Any partner with
/// fewer liberties, connected or not: 12 closer and 2 further on the Japanese games, 3 closer
/// and 2 further on the other counted ones, a winner lost.
fn loser_wins_through_a_partner(layout: &Layout, x: usize, y: u32, winners: &[u32]) -> bool {
    let loser = &layout.chains[y as usize];
    let winner = &layout.chains[x];
    winners.iter().filter(|&&w| w as usize != x).any(|&w| {
        let partner = &layout.chains[w as usize];
        if partner.liberties.len() >= loser.liberties.len()
            || !partner.stones.iter().any(|&i| layout.grid.adj(i).any(|a| layout.chain_of[a] == y))
        {
            return false;
        }
        let shared = partner.liberties.iter().filter(|l| winner.liberties.contains(l)).count();
        // Connected on a shared liberty: the union of both chains' liberties, less that one.
        let connected = winner.liberties.len() + partner.liberties.len() - shared - 1;
        shared == 0 || connected <= loser.liberties.len()
    })
}

/// Calls the fights decided by a capture the playouts misjudge: a chain short of liberties (two
/// or fewer) that the tactical reader finds lost whoever moves first (its opponent captures it,
/// and its owner has no move that saves it) is dead, and the chains around it alive, when the
/// capture gives their group two eyes. Random play gets such fights wrong when the capture
/// decides them: a chain in atari inside a group whose second eye it spoils is taken in some
/// playouts and extended in others, and the group around it is called dead as often as not. A
/// capture that leaves the capturers without two eyes (a lone stone taken inside the opponent's
/// wall) decides nothing and is left to the playouts. Sets the dead flags of the chains it
/// called and returns them, with whether they live.
fn call_captures(
    board: &Board,
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
) -> Vec<(u32, bool)> {
    let mut decided: Vec<(u32, bool)> = Vec::new();
    let mut reader = Reader::new();
    for (c, chain) in layout.chains.iter().enumerate() {
        if chain.liberties.len() > 2 || pass_alive[c] {
            continue;
        }
        let mut capturers: Vec<u32> = Vec::new();
        for &i in &chain.stones {
            for a in layout.grid.adj(i) {
                let y = layout.chain_of[a];
                if layout.stones[a] == Some(chain.color.opponent()) && !capturers.contains(&y) {
                    capturers.push(y);
                }
            }
        }
        // Nothing to call when it is dead already and its capturers all alive.
        let is_dead = |y: u32| dead[layout.chains[y as usize].stones[0]];
        if capturers.is_empty() || (dead[chain.stones[0]] && !capturers.iter().any(|&y| is_dead(y)))
        {
            continue;
        }
        let loc = board.loc(layout.point(chain.stones[0])).expect("layout points are on the board");
        if !reader.capturable(board, loc) || reader.rescue_move(board, loc).is_some() {
            continue;
        }
        let mut hypothesis = dead.to_vec();
        for &i in &chain.stones {
            hypothesis[i] = true;
        }
        for &y in &capturers {
            for &i in &layout.chains[y as usize].stones {
                hypothesis[i] = false;
            }
        }
        let lives = |y: &u32| {
            pass_alive[*y as usize]
                || eyes_after_capture(layout, &hypothesis, *y as usize, &[c as u32]) >= 2
        };
        if !capturers.iter().all(lives) {
            continue;
        }
        dead.copy_from_slice(&hypothesis);
        decided.push((c as u32, false));
        decided.extend(capturers.iter().map(|&y| (y, true)));
    }
    decided
}

/// The eyes of chain `x`'s group once `x`'s colour has captured `losers`: every liberty of
/// theirs filled with a stone of `x`'s colour and their stones taken off, the other stones
/// flagged in `dead` still dead. The capturing stones stand where the losers' liberties were:
/// counted as empty, a bent four in the corner whose point the capture fills would pass for
/// two eyes where a straight three is left. None when a capturing stone is left in atari.
fn eyes_after_capture(layout: &Layout, dead: &[bool], x: usize, losers: &[u32]) -> u8 {
    let color = layout.chains[x].color;
    let mut stones = layout.stones.clone();
    for &y in losers {
        let loser = &layout.chains[y as usize];
        for &l in &loser.liberties {
            stones[l] = Some(color);
        }
        for &i in &loser.stones {
            stones[i] = None;
        }
    }
    let after = Layout::of_stones(layout.size, stones);
    // A capturing stone left in atari is taken back at once (the shape of a snapback): the
    // capture settles nothing.
    for &y in losers {
        for &l in &layout.chains[y as usize].liberties {
            if after.chains[after.chain_of[l] as usize].liberties.len() < 2 {
                return 0;
            }
        }
    }
    let still_dead: Vec<bool> =
        (0..dead.len()).map(|i| dead[i] && after.stones[i] == layout.stones[i]).collect();
    let eyes = analyse(&after, &still_dead);
    let g = eyes.group_of[after.chain_of[layout.chains[x].stones[0]] as usize];
    if g == NONE { 0 } else { eyes.groups[g as usize].eyes }
}

/// Runs the checks on the statuses in `dead` (updated with the chains found dead).
pub(crate) fn check(
    board: &Board,
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
    support: &[f32],
    ended_by_passes: bool,
) -> Checks {
    let mut read = call_captures(board, layout, dead, pass_alive);
    read.extend(call_races(layout, dead, pass_alive, support));
    let mut analysed = Analysed::new();
    read.extend(read_small_areas(board, layout, dead, pass_alive, ended_by_passes, &mut analysed));
    read.extend(read_dead_sides_of_seki(
        board,
        layout,
        dead,
        pass_alive,
        ended_by_passes,
        &mut analysed,
    ));
    let mut killed = Vec::new();
    for _ in 0..8 {
        let (eyes, by_color) = analysed.eyes_and_areas(layout, dead);
        let strong = strong_groups(eyes, pass_alive);
        let chain_strong = |c: u32| {
            let g = eyes.group_of[c as usize];
            g != NONE && strong[g as usize]
        };
        // First, weak groups that become strong once the weak opponent stones they enclose (whose
        // area is bordered by this group's chains only) are taken off: those stones are dead
        // (stones inside a territory).
        let mut cleaned: Vec<u32> = Vec::new();
        for (g, group) in eyes.groups.iter().enumerate() {
            if strong[g] {
                continue;
            }
            let own = &by_color[group.color.index()];
            let other = &by_color[group.color.opponent().index()];
            let a = own.of[layout.chains[group.chains[0] as usize].stones[0]];
            let area = own.area(a as usize);
            if area.chains.iter().any(|&c| chain_strong(c)) {
                continue;
            }
            let inner: Vec<u32> = area
                .boundary
                .iter()
                .copied()
                .filter(|&y| {
                    let ya = other.of[layout.chains[y as usize].stones[0]] as usize;
                    // Enclosed: everything around its area belongs to this area's chains.
                    !chain_strong(y)
                        && support[y as usize] < CLEARLY_ALIVE
                        && other.area(ya).boundary.iter().all(|c| area.chains.contains(c))
                        && other.area(ya).chains.iter().all(|&c| !chain_strong(c))
                })
                .collect();
            // The group must win the liberty race against them: more liberties of its own than
            // they have in all (otherwise it is a seki or a race it loses).
            let liberties = |chains: &[u32]| {
                let mut libs: Vec<usize> = Vec::new();
                for &c in chains {
                    for &l in &layout.chains[c as usize].liberties {
                        if !libs.contains(&l) {
                            libs.push(l);
                        }
                    }
                }
                libs
            };
            let theirs = liberties(&inner);
            let ours = liberties(&group.chains);
            let ours_alone = ours.iter().filter(|l| !theirs.contains(l)).count();
            if inner.is_empty() || ours_alone <= theirs.len() {
                continue;
            }
            let mut hypothesis = dead.to_vec();
            for &y in &inner {
                for &i in &layout.chains[y as usize].stones {
                    hypothesis[i] = true;
                }
            }
            let after = analyse(layout, &hypothesis);
            let hg = after.group_of[group.chains[0] as usize];
            if hg != NONE && after.groups[hg as usize].eyes >= 2 {
                for y in inner {
                    if !cleaned.contains(&y) {
                        cleaned.push(y);
                    }
                }
            }
        }
        if !cleaned.is_empty() {
            for &c in &cleaned {
                for &i in &layout.chains[c as usize].stones {
                    dead[i] = true;
                }
            }
            killed.extend(cleaned);
            continue;
        }
        // Enclosed one-eyed groups are dead. Tried and dropped (figures as for `call_races`):
        // also a group whose area is closed by strong groups and by weak opponent chains
        // inside it (their own areas closed by the group alone: the "seki" the playouts leave
        // when both sides are coin tosses, as in Ryusei/30/B03 or Agon/30/5), killed when a
        // reading on the inner chains' areas, stones and liberties and the group's liberties,
        // its opponent first, kills it: 11,107 / 14,326 / 14,474 and no other set moved, but
        // one held-out position lost; dying whoever moves first, 11,105 / 14,324 / 14,472 and
        // the same loss; with the enclosing chains short of liberties in the reading (as in
        // `read_small_areas`), or with no reading when there is one, no game changes.
        let (mut newly, mut freed) = (Vec::new(), Vec::new());
        for (g, group) in eyes.groups.iter().enumerate() {
            if strong[g] {
                continue;
            }
            let own = &by_color[group.color.index()];
            let a = own.of[layout.chains[group.chains[0] as usize].stones[0]] as usize;
            let area = own.area(a);
            if area.boundary.is_empty()
                || area.chains.iter().any(|&c| chain_strong(c))
                || !area.boundary.iter().all(|&c| chain_strong(c))
                || area.chains.iter().any(|&c| support[c as usize] >= PLAYOUTS_KEEP_ALIVE)
                || (!ended_by_passes
                    && group.eyes >= 1
                    && keeps_a_big_chain(layout, &area, support))
            {
                continue;
            }
            for &c in area.chains {
                if !newly.contains(&c) {
                    newly.push(c);
                }
            }
            // The opponent's stones the playouts or a reading took off inside the dead group
            // stand in the opponent's territory now: no prisoners (ogs-finished 9x9/9884:
            // White's three stones Black captures in a race that leaves Black one eye).
            for &i in area.space {
                let c = layout.chain_of[i];
                if layout.stones[i] == Some(group.color.opponent())
                    && dead[i]
                    && !freed.contains(&c)
                {
                    freed.push(c);
                }
            }
        }
        if newly.is_empty() {
            break;
        }
        for &c in &newly {
            for &i in &layout.chains[c as usize].stones {
                dead[i] = true;
            }
        }
        for &c in &freed {
            for &i in &layout.chains[c as usize].stones {
                dead[i] = false;
            }
            read.push((c, true));
        }
        killed.extend(newly);
    }
    // Seki: live weak groups touching live weak groups of the other colour through a shared
    // liberty.
    let eyes = analysed.eyes(layout, dead);
    let strong = strong_groups(eyes, pass_alive);
    let weak_chain = |c: usize| {
        let g = eyes.group_of[c];
        g != NONE && !strong[g as usize]
    };
    let mut seki = Vec::new();
    for (c, chain) in layout.chains.iter().enumerate() {
        if dead[chain.stones[0]] || !weak_chain(c) {
            continue;
        }
        let shares = chain.liberties.iter().any(|&l| {
            layout.grid.adj(l).any(|a| {
                let o = layout.chain_of[a];
                o != NONE
                    && layout.stones[a] == Some(chain.color.opponent())
                    && !dead[a]
                    && weak_chain(o as usize)
            })
        });
        if shares {
            seki.push(c as u32);
        }
    }
    Checks { killed, read, seki }
}

fn strong_groups(eyes: &Eyes, pass_alive: &[bool]) -> Vec<bool> {
    eyes.groups
        .iter()
        .map(|g| g.eyes >= 2 || g.chains.iter().any(|&c| pass_alive[c as usize]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The races [`call_races`] calls on `diagram`, every chain a coin toss for the playouts
    /// except those holding one of the `clear` points (clearly alive), as `(colour, x, y of
    /// the chain's first stone, lives)`.
    fn races(diagram: &str, clear: &[(usize, usize)]) -> Vec<(Color, usize, usize, bool)> {
        let board = Board::from_diagram(diagram).expect("diagram");
        let layout = Layout::of_board(&board);
        let width = layout.size.width as usize;
        let mut support = vec![0.0f32; layout.chains.len()];
        for &(x, y) in clear {
            support[layout.chain_of[y * width + x] as usize] = 1.0;
        }
        let mut dead = vec![false; layout.grid.len()];
        let pass_alive = vec![false; layout.chains.len()];
        let mut called = call_races(&layout, &mut dead, &pass_alive, &support);
        called.sort();
        called
            .into_iter()
            .map(|(c, lives)| {
                let chain = &layout.chains[c as usize];
                let first = chain.stones[0];
                (chain.color, first % width, first / width, lives)
            })
            .collect()
    }

    /// The chains [`check`] leaves dead on `diagram`, from the playouts' support of each chain
    /// (given on one of its stones; every other chain clearly alive), as `(colour, x, y)` of a
    /// stone of each.
    fn dead_after_checks(
        diagram: &str,
        support_at: &[(usize, usize, f32)],
    ) -> Vec<(Color, usize, usize)> {
        dead_after_checks_of(diagram, support_at, true)
    }

    /// [`dead_after_checks`] of a position the game ended at by two passes (`ended_by_passes`)
    /// or one the record stops at before the end.
    fn dead_after_checks_of(
        diagram: &str,
        support_at: &[(usize, usize, f32)],
        ended_by_passes: bool,
    ) -> Vec<(Color, usize, usize)> {
        let board = Board::from_diagram(diagram).expect("diagram");
        let layout = Layout::of_board(&board);
        let width = layout.size.width as usize;
        let mut support = vec![1.0f32; layout.chains.len()];
        for &(x, y, s) in support_at {
            support[layout.chain_of[y * width + x] as usize] = s;
        }
        let mut dead: Vec<bool> = (0..layout.grid.len())
            .map(|i| layout.stones[i].is_some() && support[layout.chain_of[i] as usize] < 0.0)
            .collect();
        let pass_alive = vec![false; layout.chains.len()];
        check(&board, &layout, &mut dead, &pass_alive, &support, ended_by_passes);
        let mut out: Vec<(Color, usize, usize)> = layout
            .chains
            .iter()
            .filter(|c| dead[c.stones[0]])
            .map(|c| (c.color, c.stones[0] % width, c.stones[0] / width))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn capturing_stones_that_cannot_be_saved_gives_the_group_around_them_its_second_eye() {
        // White's group in the corner has one eye (B3) and Black's stones inside it, D3 D2 and
        // C1, have one liberty between them, D1, where Black cannot play: White takes them and
        // has its second eye. The playouts, Black as often first, let Black's stones live and
        // called White's group dead (Judan/22/L03 in aeb-pro, the same shape on a larger board).
        let position = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X X X X X X . . .
            O O O O O X . . .
            O . O X O X . . .
            O O O X O X . . .
            O O X . O X . . .";
        let playouts = [(0, 5, -0.4), (3, 6, 0.4), (2, 8, 0.4)];
        assert_eq!(
            dead_after_checks(position, &playouts),
            vec![(Color::Black, 2, 8), (Color::Black, 3, 6)]
        );
    }

    #[test]
    fn a_race_against_a_chain_with_an_eye_of_its_own_is_read_with_that_eye() {
        // Black's group has a two-point eye (D3 D2) and three liberties shared with White's
        // chain in the corner (A3 B3 C2), whose other liberty is its own eye, A1: five against
        // four, White cannot win the race moving first. Read without A1 (a liberty of the
        // enclosing chain, not of Black's area) White could never be captured and Black's
        // group was read dead, as in Go_Seigen/1951-12-01 in aeb-pro.
        let position = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            O O O O O O . . .
            X X X X X O . . .
            . . X . X O . . .
            O O . . X O . . .
            . O X X X O . . .";
        let playouts = [(0, 5, 0.4), (0, 7, 0.4)];
        assert!(!dead_after_checks(position, &playouts).contains(&(Color::Black, 0, 5)));
    }

    #[test]
    fn the_chain_with_more_liberties_wins_a_race_that_gives_it_two_eyes() {
        // Black's chain on the edge has two liberties (C1 shared with White's stone, E1 its
        // own eye); White's stone has one. Black captures it and lives with two eyes, whoever
        // moves first: White can play neither C1 nor E1.
        let position = "
            . . . . . . . . .
            . . . . . . . . .
            O O O O O O O . .
            X X X X X X O . .
            X O . X . X O . .";
        assert_eq!(
            races(position, &[(0, 2)]),
            vec![(Color::Black, 0, 3, true), (Color::White, 1, 4, false)]
        );
    }

    #[test]
    fn a_race_the_loser_wins_by_taking_a_partner_first_is_not_called() {
        // The lower right of Honinbo/74/P13 in aeb-pro. Black's long chain (M3 to S4, Q5, the
        // stones down to O1) has three liberties, Q2 R2 P1; White's corner S3 S2 T2 has four,
        // T3 R2 S1 T1, one shared: by the count White wins. But White's stone P2 beside it
        // has two liberties, both inside Black's area and neither White's corner's: Black
        // takes it first (Q2, then P1) and gains an eye, and the record has Black winning by
        // half a point. White's stones R5 to T4 are taken as clearly alive here.
        let position = "
            . . . . . . . .
            . O . O O X X X
            O . O O X O O O
            O O O X X X X O
            O X X X X X O .
            O X X O . . O O
            O O X . . . . .";
        assert_eq!(races(position, &[(0, 2), (5, 1), (5, 2)]), vec![]);
        // With P2 Black's and R5 to T4 a coin toss as well: they are in atari on T3, where
        // White connects them to the corner, filling one of its own liberties. Three against
        // three: whoever moves first wins, and the race is not called either.
        let connected_at_a_cost = "
            . . . . . . . .
            . O . O O X X X
            O . O O X O O O
            O O O X X X X O
            O X X X X X O .
            O X X X . . O O
            O O X . . . . .";
        assert_eq!(races(connected_at_a_cost, &[(0, 2), (5, 1)]), vec![]);
        // With neither, White's corner wins the count, and the race is called as before.
        assert_eq!(
            races(connected_at_a_cost, &[(0, 2), (5, 1), (5, 2)]),
            vec![(Color::Black, 4, 2, false), (Color::White, 6, 4, true)]
        );
    }

    #[test]
    fn a_race_won_without_room_for_two_eyes_is_not_called() {
        // Black again has more liberties, but its second one, F2, is White's to fill from the
        // wall: capturing on C1 leaves Black one eye, and White's throw-in on B1 takes it all.
        let position = "
            . . . . . . . . .
            . . . . . . . . .
            O O O O O O O . .
            X X X X X . O . .
            X O . X X X O . .";
        assert_eq!(races(position, &[(0, 2)]), vec![]);
    }

    #[test]
    fn groups_of_both_colours_are_read_though_each_colour_numbers_its_areas_alone() {
        // White's group in the upper left and Black's in the lower right each have a straight
        // three the opponent kills by playing first in the middle; the playouts kept both
        // alive. Each colour numbers its areas from the top left, so two areas can have the
        // same number: White's lone stone in the upper right, read first, once hid Black's
        // group (both in the third area of their colour), left alive.
        let position = "
            O O O O O X . X O
            O . . . O X . . X
            O O O O O X . . .
            X X X X X X . . .
            . . . . . . . . .
            O O O O O O O O O
            O O O O X X X X X
            O O O O X . . . X
            . O . O X X X X X";
        let playouts = [(0, 0, 0.5), (4, 6, 0.5)];
        let dead = dead_after_checks(position, &playouts);
        assert!(dead.contains(&(Color::White, 0, 0)), "{dead:?}");
        assert!(dead.contains(&(Color::Black, 4, 6)), "{dead:?}");
    }

    #[test]
    fn a_stone_that_cuts_an_enclosing_chain_is_part_of_the_reading() {
        // From Minigo/000325 (aeb-pro, 9x9, B+1.5): White's group on the left has one eye (A5)
        // and a false one (A7) and shares A9 with Black's top chain, whose other liberty, C9,
        // captures White's dead stone on D9. Black's eight stones cannot approach on A9: White
        // answers on D9, the point the capture left, and takes them (a seki). Read without D9
        // (a stone outside White's area) Black's approach always worked and White's group was
        // read dead: B+27.5.
        let position = "
            . X . O X X O . .
            O X X X X O . O .
            . O X O O O . O .
            O O O X X O O . O
            . O X X O O O O X
            O O X X O X O X X
            O X . X X X X . X
            O X X . . . . X .
            . X . . . . . . .";
        let playouts = [(1, 0, 0.81), (3, 0, -0.81)];
        assert!(!dead_after_checks(position, &playouts).contains(&(Color::White, 1, 2)));
    }

    #[test]
    fn a_race_won_into_a_bent_three_is_lost_all_the_same() {
        // From ogs-finished 9x9/9884 (W+25.5, both players passed): Black's ten stones in the
        // upper right share H9, J9 and J6 with White's three stones H8 J8 J7 and win the race
        // (six liberties against three), but capturing leaves a bent three (H8 J8 J7) once
        // Black has filled H9, J9 and J6, and White kills it by playing J8 again; Black's
        // outside liberties, F4 G4 J4, lie in White's lower right. Valued as the six points of
        // the region (two eyes), the capture was called for Black: B+17.5.
        let position = "
            O O O . O X X . .
            X X O O . O X O O
            . . X O . O X X O
            . X X X O O O X .
            . X X O O X X X X
            . . O X O . . O .
            . . X X O . O . .
            . . . X X O . . .
            . . . . X X O . .";
        let playouts = [(5, 0, 0.23), (7, 1, -0.1), (2, 5, -0.78), (0, 1, 0.73)];
        assert_eq!(
            dead_after_checks(position, &playouts),
            vec![(Color::Black, 5, 0), (Color::White, 2, 5)]
        );
    }

    #[test]
    fn the_inner_side_of_a_seki_its_owner_can_still_make_lives_in_an_unfinished_record() {
        // The shape of Agon/31/S01 (aeb-pro, B+9.5): Black's three stones in the corner, E7 F7
        // E6, share D6 and G7 with White's ten stones, whose one other liberty is G5. White
        // moving first kills (D6, then G7); Black moving first plays G5, and then neither side
        // can approach: a seki. The record stops before the end and the players counted
        // Black's stones alive; the playouts took them off, as a finished position has them.
        let position = "
            X O O O X X .
            X X O . X O O
            . X O O O O .
            . X X X X X .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let playouts = [(4, 0, -0.4)];
        let finished = dead_after_checks(position, &playouts);
        assert!(finished.contains(&(Color::Black, 4, 0)), "{finished:?}");
        let unfinished = dead_after_checks_of(position, &playouts, false);
        assert!(!unfinished.contains(&(Color::Black, 4, 0)), "{unfinished:?}");
    }

    #[test]
    fn a_weak_group_enclosed_by_strong_groups_is_dead_however_large_its_area() {
        // White's two stones have the whole upper side to themselves, 34 points, but no eye:
        // every empty point there touches Black's wall too, and the wall has the lower side
        // for its eyes. The playouts left White alive now and then (support 0.35, alive by
        // their own count): enclosed by a strong group, with no eye, White is dead. The rule
        // once stopped at areas of 12 points, as if a larger one were an open border.
        let position = "
            . . . . . . . . .
            . . . . . . . . .
            . . . O O . . . .
            . . . . . . . . .
            X X X X X X X X X
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        assert_eq!(dead_after_checks(position, &[(3, 2, 0.35)]), vec![(Color::White, 3, 2)]);
    }

    #[test]
    fn a_big_one_eyed_chain_the_playouts_keep_alive_stands_in_a_record_that_stops_early() {
        // White's chain of 23 stones along the upper edge has one eye, A15 to C15 (a straight
        // three), and the points between it and Black's wall are dame: the eye count gives it
        // one eye, enclosed by a strong group (Black has the whole lower side). The playouts
        // keep it alive a little more often than not (support 0.25), below the majority that
        // keeps any group alive against the enclosure rule (0.4). At the end of a game (both
        // passed) the rule kills it; in a record that stops before the end, a big chain the
        // playouts keep alive stands (as Kisei/Title/Kis-1986-3 and Meijin/06/07 in aeb-pro
        // count it, with GNU Go 3.8), and one they keep alive less often does not.
        let position = "
            . . . O O O O O O O O O O . X
            O O O O O O O O O O O O O . X
            . . . . . . . . . . . . . . X
            X X X X X X X X X X X X X X X
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .";
        let white = vec![(Color::White, 3, 0)];
        assert_eq!(dead_after_checks_of(position, &[(3, 0, 0.25)], true), white);
        assert_eq!(dead_after_checks_of(position, &[(3, 0, 0.25)], false), vec![]);
        assert_eq!(dead_after_checks_of(position, &[(3, 0, 0.1)], false), white);
    }

    #[test]
    fn splinters_that_live_moving_first_stand_in_a_record_that_stops_early() {
        // Black's two stones on the 1-2 points of the lower left, A2 and B1, share A1 and B2;
        // White's corner chain around them has three liberties, B2, D3 and D2, the last two
        // Black's to fill from its wall. White moving first kills them (B2, then A1 once Black
        // has filled one outside liberty), Black moving first fills D3 and D2 and captures the
        // corner. At the end of a game (both passed) the reading, attacker first, takes them
        // off; in a record that stops before the end they stand as the playouts left them (a
        // coin toss above even here), as professional records count such splinters. White's
        // corner, which Black kills moving first, is dead both ways.
        let position = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X X X X X . . . .
            X X X X X . . . .
            O O O . X . . . .
            X . O . X . . . .
            . X O X X . . . .";
        let support = [(0, 7, 0.2), (1, 8, 0.2), (0, 6, 0.2)];
        assert_eq!(
            dead_after_checks_of(position, &support, true),
            vec![(Color::Black, 0, 7), (Color::Black, 1, 8), (Color::White, 0, 6)]
        );
        assert_eq!(dead_after_checks_of(position, &support, false), vec![(Color::White, 0, 6)]);
    }
}
