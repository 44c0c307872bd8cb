//! Territory counting's view of a finished position: which empty points (and points under dead
//! stones) are territory, which groups are in seki, which eye points are false.
//!
//! The approach is lightvector's goscorer (MIT, `python/goscorer.py` @ 0ac5f599), re-implemented
//! here over flat arrays; `shared/notes/rules.md` §3 describes it. Given the stones and which of
//! them are dead, it builds, in order:
//!
//! 1. *connection blocks*: empty points a player's shape seals off (a hane at the edge, a tiger's
//!    mouth), which the opponent's reach may touch but not pass through;
//! 2. *reachability*, strict (through anything but the opponent's live stones) and blocked (also
//!    stopping at the opponent's connection blocks);
//! 3. *regions*: maximal areas reaching one player only, joined through dame;
//! 4. *chains* (of stones, and of empty points) and *macrochains*: a player's live chains joined
//!    through region-less, unblocked points;
//! 5. *potential eyes*: connected empty or dead points of a region, with the macrochains around;
//! 6. *false eye points*: points whose bordering macrochain cannot reach the eye again from every
//!    side without passing through the point itself;
//! 7. *eye values* (0, 1 or 2) from the shape of the real eye points;
//! 8. the map: a region whose eyes are worth one eye or less in total is in seki and scores no
//!    territory (Japanese 1989 Art. 8); false eyes that must eventually be filled score nothing;
//!    a point the opponent still reaches through empty points scores nothing (an open border).
//!
//! One deliberate difference: goscorer matches its edge patterns on the left and right edges in
//! only one of their two mirror images (its transposed orientations take the edge's side from the
//! wrong coefficient). Here every edge pattern is matched in all eight orientations at every edge.

use super::grid::{Grid, Pieces};
use super::{live_code, live_codes};
use crate::rules::Color;

/// How one point scores under territory counting, with the analysis behind it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TerritoryPoint {
    /// The player this point counts one point of territory for. Under a dead stone this is the
    /// territory below it; the dead stone itself is counted separately, as a prisoner.
    pub territory: Option<Color>,
    /// The player whose group (or the space it surrounds) is not independently alive here:
    /// seki. Such space is not territory.
    pub seki: Option<Color>,
    /// The point is a false eye for life and death.
    pub false_eye: bool,
    /// The point is a false eye that will have to be filled, so it does not score.
    pub unscorable_false_eye: bool,
    /// The point reaches both players (or neither): dame or an open border.
    pub dame: bool,
    /// How many eyes (0 to 2) the eye space holding this point is worth.
    pub eye_value: u8,
}

const NONE: u32 = u32::MAX;

/// The goscorer connection-block patterns: `@` the empty point blocked, `p` a live stone of the
/// player, `e` empty or the player's live stone or the opponent's dead stone, `?` anything, and
/// a last row of `x` meaning "beyond the edge of the board".
const PATTERNS: [&[&str]; 6] = [
    &["pp", "@e", "pe"],
    &["ep?", "e@e", "ep?"],
    &["pee", "e@p", "pee"],
    &["?e?", "p@p", "xxx"],
    &["pp", "@e", "xx"],
    &["ep?", "e@e", "xxx"],
];

/// The eight symmetries of the square, as (row step in y, row step in x, column step in y,
/// column step in x).
const ORIENTATIONS: [(isize, isize, isize, isize); 8] = [
    (1, 0, 0, 1),
    (-1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, -1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
];

struct Stones<'a> {
    grid: &'a Grid,
    stones: &'a [Option<Color>],
    dead: &'a [bool],
    /// [`live_codes`] of the position.
    live: Vec<u8>,
    /// For every point, what makes two neighbours one chain for [`mark_chains`]: the stone (0
    /// empty, 1 Black, 2 White) and the dead flag (4), as one byte.
    chain_key: Vec<u8>,
}

impl<'a> Stones<'a> {
    fn new(grid: &'a Grid, stones: &'a [Option<Color>], dead: &'a [bool]) -> Stones<'a> {
        let chain_key = (0..grid.len())
            .map(|i| stones[i].map_or(0, live_code) | (u8::from(dead[i]) << 2))
            .collect();
        Stones { grid, stones, dead, live: live_codes(stones, dead), chain_key }
    }

    #[inline]
    fn live(&self, i: usize, c: Color) -> bool {
        self.live[i] == live_code(c)
    }

    #[inline]
    fn live_any(&self, i: usize) -> bool {
        self.live[i] != 0
    }
}

struct Region {
    color: Color,
    eyes: Vec<u32>,
}

struct Chain {
    /// The region every point of the chain lies in, if they all lie in the same one.
    region: Option<u32>,
    liberties: u32,
}

struct MacroChain {
    /// For each eye this macrochain touches, its stones next to that eye.
    eye_neighbours: Vec<(u32, Points)>,
}

struct Eye {
    pla: Color,
    region: u32,
    potential: Vec<usize>,
    /// For each macrochain next to the eye, the eye points next to it.
    macro_neighbours: Vec<(u32, Points)>,
    value: u8,
}

/// The points where one macrochain meets one eye, in the order found: held in place up to
/// [`Points::INLINE`] of them, as most such lists are that short, and on the heap beyond, so
/// that the hundreds of lists of a position cost no allocation each.
#[derive(Default)]
struct Points {
    inline: [usize; Points::INLINE],
    len: usize,
    /// Every point, once there are more than fit in place (then `inline` is unused).
    heap: Vec<usize>,
}

impl Points {
    const INLINE: usize = 4;

    fn as_slice(&self) -> &[usize] {
        if self.heap.is_empty() { &self.inline[..self.len] } else { &self.heap }
    }

    fn push(&mut self, p: usize) {
        if self.len < Points::INLINE {
            self.inline[self.len] = p;
        } else {
            if self.len == Points::INLINE {
                self.heap.reserve(2 * Points::INLINE);
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(p);
        }
        self.len += 1;
    }
}

impl std::ops::Deref for Points {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        self.as_slice()
    }
}

fn add_to(list: &mut Vec<(u32, Points)>, key: u32, point: usize) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, points)) => {
            if !points.contains(&point) {
                points.push(point);
            }
        }
        None => {
            let mut points = Points::default();
            points.push(point);
            list.push((key, points));
        }
    }
}

/// Analyses a finished position for territory counting. `stones` and `dead` are row-major over
/// `grid`; with `score_false_eyes`, false eyes that must be filled are counted anyway.
pub(crate) fn analyze(
    grid: &Grid,
    stones: &[Option<Color>],
    dead: &[bool],
    score_false_eyes: bool,
) -> Vec<TerritoryPoint> {
    let s = Stones::new(grid, stones, dead);
    let n = grid.len();
    let blocks = connection_blocks(&s);
    let [(strict_black, blocked_black), (strict_white, blocked_white)] =
        Color::BOTH.map(|pla| reach(&s, &blocks, pla));
    let strict = [strict_black, strict_white];
    let blocked = [blocked_black, blocked_white];
    let (region_of, mut regions) = mark_regions(&s, &blocks, &blocked);
    let (chain_of, chains) = mark_chains(&s, &region_of);
    let (macro_of, mut macros) = mark_macrochains(&s, &blocks, &region_of, &chain_of, &chains);
    let region_colors: Vec<Color> = regions.iter().map(|r| r.color).collect();
    let (eye_of, mut eyes) =
        mark_potential_eyes(&s, &region_colors, &region_of, &macro_of, &mut macros);
    for (id, eye) in eyes.iter().enumerate() {
        regions[eye.region as usize].eyes.push(id as u32);
    }

    let no_real = vec![false; n];
    let false_eye = mark_false_eye_points(grid, &region_of, &macros, &eyes, &no_real);
    let real: Vec<bool> = (0..n).map(|i| eye_of[i] != NONE && !false_eye[i]).collect();
    let mut scratch = EyeScratch {
        member: vec![false; n],
        info: vec![EyePointInfo::default(); n],
        pieces: Pieces::default(),
    };
    let values: Vec<u8> = eyes
        .iter()
        .map(|eye| eye_value(&s, &chain_of, &chains, &false_eye, &real, eye, &mut scratch))
        .collect();
    for (eye, value) in eyes.iter_mut().zip(values) {
        eye.value = value;
    }
    let unscorable = mark_false_eye_points(grid, &region_of, &macros, &eyes, &real);

    // Points next to a false eye occupied by a single dead throw-in will also have to be filled.
    let mut extra_unscorable = [vec![false; n], vec![false; n]];
    for i in 0..n {
        if let Some(c) = stones[i]
            && unscorable[i]
            && dead[i]
        {
            for a in grid.adj(i) {
                extra_unscorable[c.opponent().index()][a] = true;
            }
        }
    }

    let mut out = vec![TerritoryPoint::default(); n];
    for i in 0..n {
        let p = &mut out[i];
        let region = region_of[i];
        if region == NONE {
            p.dame = true;
            continue;
        }
        let info = &regions[region as usize];
        let color = info.color;
        let total_eyes: u32 = info.eyes.iter().map(|&e| eyes[e as usize].value as u32).sum();
        if total_eyes <= 1 {
            p.seki = Some(color);
        }
        p.false_eye = false_eye[i];
        p.unscorable_false_eye = unscorable[i]
            || ((stones[i].is_none() || dead[i]) && extra_unscorable[color.index()][i]);
        if eye_of[i] != NONE {
            p.eye_value = eyes[eye_of[i] as usize].value;
        }
        let own_live_stone = stones[i] == Some(color) && !dead[i];
        if !own_live_stone
            && p.seki.is_none()
            && (score_false_eyes || !p.unscorable_false_eye)
            && chains[chain_of[i] as usize].region == Some(region)
            && !strict[color.opponent().index()][i]
        {
            p.territory = Some(color);
        }
    }
    out
}

/// A connection-block pattern in one orientation, relative to its `@` point: the cells to
/// match, and for an edge pattern the two end cells of its `x` row, which must lie off the
/// board. The cells are the pattern's but for `@` itself (always on the board, always a
/// match), in the order that turns most points away soonest: live stones first, then
/// empty-or-dead points, then the `?` cells, which only have to lie on the board.
struct OrientedPattern {
    cells: Vec<(isize, isize, u8)>,
    beyond_edge: Option<[(isize, isize); 2]>,
}

/// [`PATTERNS`] in each of the eight [`ORIENTATIONS`], pattern by pattern, built once.
fn oriented_patterns() -> &'static [OrientedPattern] {
    static ORIENTED: std::sync::OnceLock<Vec<OrientedPattern>> = std::sync::OnceLock::new();
    ORIENTED.get_or_init(|| {
        let mut out = Vec::new();
        for pattern in PATTERNS {
            let rows = pattern.len();
            let edge = pattern[rows - 1].contains('x');
            let matched_rows = if edge { rows - 1 } else { rows };
            let cols = pattern[0].len();
            let (ar, ac) = pattern
                .iter()
                .enumerate()
                .find_map(|(r, row)| row.find('@').map(|c| (r, c)))
                .unwrap_or((0, 0));
            for (dy_r, dx_r, dy_c, dx_c) in ORIENTATIONS {
                // Where pattern cell (r, c) lands, relative to '@'.
                let cell = |r: usize, c: usize| {
                    let dr = r as isize - ar as isize;
                    let dc = c as isize - ac as isize;
                    (dx_r * dr + dx_c * dc, dy_r * dr + dy_c * dc)
                };
                let mut cells = Vec::new();
                for (r, row) in pattern.iter().enumerate().take(matched_rows) {
                    for (c, ch) in row.bytes().enumerate() {
                        if ch != b'@' {
                            let (dx, dy) = cell(r, c);
                            cells.push((dx, dy, ch));
                        }
                    }
                }
                cells.sort_by_key(|&(_, _, ch)| match ch {
                    b'p' => 0,
                    b'e' => 1,
                    _ => 2,
                });
                let beyond_edge =
                    edge.then(|| [cell(matched_rows, 0), cell(matched_rows, cols - 1)]);
                out.push(OrientedPattern { cells, beyond_edge });
            }
        }
        out
    })
}

/// The slot of each of the eight neighbours of a point, by `(dx + 1) + 3 * (dy + 1)`, in a
/// [`neighbourhood`] key (the point itself, index 4, has none).
const SLOT: [u32; 9] = [0, 1, 2, 3, u32::MAX, 4, 5, 6, 7];

/// What a neighbour is to the player whose connection blocks are sought, two bits of a
/// [`neighbourhood`] key: off the board, or on it and none of the below (an opponent's live
/// stone, the player's dead stone).
const OFF_BOARD: u16 = 0;
const OTHER: u16 = 1;
/// Empty, or an opponent's dead stone: a pattern's `e` but not its `p`.
const OPEN: u16 = 2;
/// A live stone of the player: a pattern's `p` (and `e`).
const OWN: u16 = 3;

/// The eight neighbours of point `at` as seen by `pla`, two bits each: all that a
/// connection-block pattern reads, since every pattern cell lies within one step of its `@`.
fn neighbourhood(s: &Stones, pla: Color, at: usize) -> u16 {
    let grid = s.grid;
    // A neighbour's code from its [`Stones::chain_key`]: an empty point (whatever its dead
    // flag) and an opponent's dead stone are open, the player's dead stone and the opponent's
    // live one are neither open nor the player's.
    let (own, opp_dead) = (live_code(pla), live_code(pla.opponent()) | 4);
    let code = |i: usize| {
        let key = s.chain_key[i];
        if key & 3 == 0 || key == opp_dead {
            OPEN
        } else if key == own {
            OWN
        } else {
            OTHER
        }
    };
    let (x, y) = grid.xy(at);
    let w = grid.width();
    if x > 0 && y > 0 && x + 1 < w && y + 1 < grid.len() / w {
        // Away from the edge, every neighbour is on the board at a fixed offset (in slot order).
        let around =
            [at - w - 1, at - w, at - w + 1, at - 1, at + 1, at + w - 1, at + w, at + w + 1];
        return around.iter().enumerate().fold(0, |key, (slot, &i)| key | code(i) << (2 * slot));
    }
    let (ax, ay) = (x as isize, y as isize);
    let mut key = 0;
    for dy in -1..=1isize {
        for dx in -1..=1isize {
            if dx == 0 && dy == 0 {
                continue;
            }
            let code = grid.at(ax + dx, ay + dy).map_or(OFF_BOARD, code);
            key |= code << (2 * SLOT[((dx + 1) + 3 * (dy + 1)) as usize]);
        }
    }
    key
}

impl OrientedPattern {
    /// Whether the pattern matches a point whose [`neighbourhood`] is `key`.
    fn matches(&self, key: u16) -> bool {
        let code = |dx: isize, dy: isize| {
            assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0), "a cell next to '@'");
            (key >> (2 * SLOT[((dx + 1) + 3 * (dy + 1)) as usize])) & 3
        };
        // An edge pattern's last row must lie just beyond the edge.
        let at_edge = self
            .beyond_edge
            .is_none_or(|ends| ends.iter().all(|&(dx, dy)| code(dx, dy) == OFF_BOARD));
        at_edge
            && self.cells.iter().all(|&(dx, dy, ch)| {
                let c = code(dx, dy);
                match ch {
                    b'?' => c != OFF_BOARD,
                    b'p' => c == OWN,
                    b'e' => c == OWN || c == OPEN,
                    _ => false,
                }
            })
    }
}

/// Whether some connection-block pattern, in some orientation, matches a point whose
/// [`neighbourhood`] is `key`: worked out from the patterns the first time a key comes up,
/// then remembered (0 unknown, 1 no, 2 yes), since the same few shapes recur on every board.
fn blocks_at(key: u16) -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static KNOWN: [AtomicU8; 1 << 16] = [const { AtomicU8::new(0) }; 1 << 16];
    let known = KNOWN[key as usize].load(Ordering::Relaxed);
    if known != 0 {
        return known == 2;
    }
    let matched = oriented_patterns().iter().any(|pattern| pattern.matches(key));
    KNOWN[key as usize].store(if matched { 2 } else { 1 }, Ordering::Relaxed);
    matched
}

fn connection_blocks(s: &Stones) -> Vec<Option<Color>> {
    let grid = s.grid;
    let mut blocks = vec![None; grid.len()];
    for pla in Color::BOTH {
        for (at, stone) in s.stones.iter().enumerate() {
            if stone.is_some() || blocks[at] == Some(pla) {
                continue;
            }
            // Every pattern has a live stone of the player next to '@': most points have none.
            if !grid.adj(at).any(|a| s.live(a, pla)) {
                continue;
            }
            if blocks_at(neighbourhood(s, pla, at)) {
                blocks[at] = Some(pla);
            }
        }
    }
    blocks
}

/// Points with a path to a live stone of `pla` that crosses no live stone of the opponent:
/// strictly, and blocked (the path also does not leave one of the opponent's connection
/// `blocks`). Every blocked path is a strict one, so the strict fill goes on from where the
/// blocked one stopped instead of starting over.
fn reach(s: &Stones, blocks: &[Option<Color>], pla: Color) -> (Vec<bool>, Vec<bool>) {
    let grid = s.grid;
    let opp = pla.opponent();
    let (own, theirs) = (live_code(pla), live_code(opp));
    let mut reached = vec![false; grid.len()];
    // Sized for the whole board: it never holds a point twice, so it never grows.
    let mut stack = Vec::with_capacity(grid.len());
    // The points reached that the blocked fill does not leave.
    let mut stopped = Vec::new();
    for (i, r) in reached.iter_mut().enumerate() {
        if s.live[i] == own {
            *r = true;
            stack.push(i);
        }
    }
    spread(s, theirs, &mut reached, &mut stack, |p| {
        let stop = blocks[p] == Some(opp);
        if stop {
            stopped.push(p);
        }
        stop
    });
    let blocked = reached.clone();
    stack.extend_from_slice(&stopped);
    spread(s, theirs, &mut reached, &mut stack, |_| false);
    (reached, blocked)
}

/// Spreads `reached` from the points on `stack` to every point it can reach without crossing a
/// live stone coded `theirs`, nor leaving a point where `stop` says so.
fn spread(
    s: &Stones,
    theirs: u8,
    reached: &mut [bool],
    stack: &mut Vec<usize>,
    mut stop: impl FnMut(usize) -> bool,
) {
    while let Some(p) = stack.pop() {
        if stop(p) {
            continue;
        }
        for a in s.grid.adj(p) {
            if !reached[a] && s.live[a] != theirs {
                reached[a] = true;
                stack.push(a);
            }
        }
    }
}

fn mark_regions(
    s: &Stones,
    blocks: &[Option<Color>],
    reach: &[Vec<bool>; 2],
) -> (Vec<u32>, Vec<Region>) {
    let grid = s.grid;
    let n = grid.len();
    let mut region_of = vec![NONE; n];
    let mut regions = Vec::new();
    let mut visited = vec![NONE; n];
    let mut stack = Vec::new();
    for start in 0..n {
        for pla in Color::BOTH {
            let opp = pla.opponent();
            let (rp, ro) = (&reach[pla.index()], &reach[opp.index()]);
            if !(rp[start] && !ro[start] && region_of[start] == NONE) {
                continue;
            }
            let id = regions.len() as u32;
            regions.push(Region { color: pla, eyes: Vec::new() });
            // A point is taken when first seen: one this fill has not visited, in no earlier
            // region (only this fill's own points join a region while it runs), and not the
            // opponent's live stone.
            visited[start] = id;
            stack.push(start);
            while let Some(p) = stack.pop() {
                if rp[p] && !ro[p] {
                    region_of[p] = id;
                }
                if blocks[p] == Some(opp) {
                    continue;
                }
                for a in grid.adj(p) {
                    if visited[a] != id && region_of[a] == NONE && !s.live(a, opp) {
                        visited[a] = id;
                        stack.push(a);
                    }
                }
            }
        }
    }
    (region_of, regions)
}

fn mark_chains(s: &Stones, region_of: &[u32]) -> (Vec<u32>, Vec<Chain>) {
    let grid = s.grid;
    let n = grid.len();
    let mut chain_of = vec![NONE; n];
    let mut chains = Vec::new();
    let mut stack = Vec::new();
    let mut liberty_seen = vec![NONE; n];
    for start in 0..n {
        if chain_of[start] != NONE {
            continue;
        }
        let id = chains.len() as u32;
        let key = s.chain_key[start];
        let mut region = (region_of[start] != NONE).then_some(region_of[start]);
        let mut liberties = 0;
        chain_of[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            if region_of[p] == NONE || Some(region_of[p]) != region {
                region = None;
            }
            for a in grid.adj(p) {
                if s.chain_key[a] == key {
                    if chain_of[a] == NONE {
                        chain_of[a] = id;
                        stack.push(a);
                    }
                } else if s.stones[a].is_none() && liberty_seen[a] != id {
                    liberty_seen[a] = id;
                    liberties += 1;
                }
            }
        }
        chains.push(Chain { region, liberties });
    }
    (chain_of, chains)
}

fn mark_macrochains(
    s: &Stones,
    blocks: &[Option<Color>],
    region_of: &[u32],
    chain_of: &[u32],
    chains: &[Chain],
) -> (Vec<u32>, Vec<MacroChain>) {
    let grid = s.grid;
    let n = grid.len();
    let mut macro_of = vec![NONE; n];
    let mut macros = Vec::new();
    let mut stack = Vec::new();
    for pla in Color::BOTH {
        let opp = pla.opponent();
        let mut visited = vec![false; n];
        let mut handled = vec![false; chains.len()];
        for start in 0..n {
            let chain = chain_of[start] as usize;
            if !s.live(start, pla) || handled[chain] {
                continue;
            }
            let id = macros.len() as u32;
            macros.push(MacroChain { eye_neighbours: Vec::new() });
            if visited[start] {
                continue;
            }
            visited[start] = true;
            stack.push(start);
            while let Some(p) = stack.pop() {
                let walk = if s.live(p, pla) {
                    macro_of[p] = id;
                    handled[chain_of[p] as usize] = true;
                    true
                } else {
                    region_of[p] == NONE && blocks[p] != Some(opp)
                };
                if walk {
                    for a in grid.adj(p) {
                        if !visited[a] {
                            visited[a] = true;
                            stack.push(a);
                        }
                    }
                }
            }
        }
    }
    (macro_of, macros)
}

fn mark_potential_eyes(
    s: &Stones,
    region_colors: &[Color],
    region_of: &[u32],
    macro_of: &[u32],
    macros: &mut [MacroChain],
) -> (Vec<u32>, Vec<Eye>) {
    let grid = s.grid;
    let n = grid.len();
    let mut eye_of = vec![NONE; n];
    let mut eyes: Vec<Eye> = Vec::new();
    let mut visited = vec![false; n];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if visited[start] || eye_of[start] != NONE || s.live_any(start) || region_of[start] == NONE
        {
            continue;
        }
        let region = region_of[start];
        let id = eyes.len() as u32;
        let pla = region_colors[region as usize];
        let mut eye =
            Eye { pla, region, potential: Vec::new(), macro_neighbours: Vec::new(), value: 0 };
        stack.push((start, usize::MAX));
        while let Some((p, from)) = stack.pop() {
            if visited[p] || region_of[p] != region {
                continue;
            }
            if macro_of[p] != NONE {
                let m = macro_of[p];
                add_to(&mut eye.macro_neighbours, m, from);
                add_to(&mut macros[m as usize].eye_neighbours, id, p);
            }
            if s.live_any(p) {
                continue;
            }
            visited[p] = true;
            eye_of[p] = id;
            eye.potential.push(p);
            for a in grid.adj(p) {
                stack.push((a, p));
            }
        }
        eyes.push(eye);
    }
    (eye_of, eyes)
}

/// Marks false eye points. With every eye value 0 (the first pass) these are the false eyes for
/// life and death; with the final eye values and real points, the false eyes that must be
/// filled and so do not score.
fn mark_false_eye_points(
    grid: &Grid,
    region_of: &[u32],
    macros: &[MacroChain],
    eyes: &[Eye],
    real: &[bool],
) -> Vec<bool> {
    let n = grid.len();
    let mut is_false = vec![false; n];
    // One search's state, reused from point to point: each search starts from it cleared.
    let mut search = FalseEyeSearch {
        grid,
        macros,
        eyes,
        in_eye: vec![false; n],
        orig: 0,
        point: 0,
        target: 0,
        real_elsewhere: false,
        sides: Vec::new(),
        search: 0,
        macro_search: vec![0; macros.len()],
        eye_search: vec![0; eyes.len()],
        eye_walked: false,
    };
    for (orig, eye) in eyes.iter().enumerate() {
        let mut real_points = 0;
        for &p in &eye.potential {
            search.in_eye[p] = true;
            real_points += usize::from(real[p]);
        }
        for (orig_macro, from_points) in &eye.macro_neighbours {
            for &ep in from_points.iter() {
                // A point found false already (next to another macrochain) would only be found
                // false again; a point with two or more neighbours inside the eye is never false.
                if is_false[ep] || grid.adj(ep).filter(|&a| search.in_eye[a]).count() > 1 {
                    continue;
                }
                let target = grid.adj(ep).filter(|&a| region_of[a] == eye.region).count();
                search.start(orig as u32, ep, target, real_points > usize::from(real[ep]));
                if !search.reaches(*orig_macro) {
                    is_false[ep] = true;
                }
            }
        }
        for &p in &eye.potential {
            search.in_eye[p] = false;
        }
    }
    is_false
}

/// The search behind one tested point of [`mark_false_eye_points`]: can the macrochains around
/// the eye reach the point from every side (or reach an eye worth something) without passing
/// through it?
struct FalseEyeSearch<'a> {
    grid: &'a Grid,
    macros: &'a [MacroChain],
    eyes: &'a [Eye],
    /// Membership in the eye tested.
    in_eye: Vec<bool>,
    orig: u32,
    point: usize,
    target: usize,
    /// Whether the tested eye has a real point other than the tested point.
    real_elsewhere: bool,
    sides: Vec<usize>,
    /// The number of the current search: a macrochain or eye is visited in this search when
    /// its mark holds this number. Numbers only grow, so no mark needs clearing between
    /// searches (clearing both tables for every tested point was a cost in the number of
    /// macrochains and eyes per point).
    search: u32,
    macro_search: Vec<u32>,
    eye_search: Vec<u32>,
    /// Whether this search has walked the tested eye already.
    eye_walked: bool,
}

impl FalseEyeSearch<'_> {
    /// Starts a new search, every mark off and no side found.
    fn start(&mut self, orig: u32, point: usize, target: usize, real_elsewhere: bool) {
        self.orig = orig;
        self.point = point;
        self.target = target;
        self.real_elsewhere = real_elsewhere;
        self.sides.clear();
        self.search += 1;
        self.eye_walked = false;
    }

    fn add_side(&mut self, p: usize) {
        if !self.sides.contains(&p) {
            self.sides.push(p);
        }
    }

    /// Whether macrochain `m` reaches the eye point from every side, or reaches an eye worth
    /// something, without passing through the point.
    ///
    /// The tested eye is walked from the first macrochain that touches it anywhere but at the
    /// tested point, never through that point. That walk reaches every other point of the eye:
    /// the tested point has at most one neighbour in the eye ([`mark_false_eye_points`] tests
    /// no other), so taking it out leaves the eye in one piece. So the walk is known without
    /// walking it (the eye's points but the tested one), and every later walk, which goes only
    /// through points no walk reached before, reaches nothing. (Walking the eye point by point,
    /// for every tested point, was most of the territory analysis's time on large
    /// territories.)
    fn reaches(&mut self, m: u32) -> bool {
        if self.macro_search[m as usize] == self.search {
            return false;
        }
        self.macro_search[m as usize] = self.search;
        let macros = self.macros;
        for (eye_id, stones_next_to_eye) in &macros[m as usize].eye_neighbours {
            let eye_id = *eye_id;
            if self.eye_search[eye_id as usize] == self.search {
                continue;
            }
            let eye = &self.eyes[eye_id as usize];
            if eye_id == self.orig {
                for &p in stones_next_to_eye.iter() {
                    if self.grid.adjacent(p, self.point) {
                        self.add_side(p);
                    }
                }
                if self.sides.len() >= self.target {
                    return true;
                }
                // The walk from this macrochain's side: nothing if an earlier one walked the
                // eye, or if this macrochain touches the eye only at the tested point.
                let from = eye.macro_neighbours.iter().find(|(k, _)| *k == m).map(|(_, v)| v);
                let point = self.point;
                if self.eye_walked || !from.is_some_and(|from| from.iter().any(|&p| p != point)) {
                    continue;
                }
                self.eye_walked = true;
                if eye.value > 0 && self.real_elsewhere {
                    return true;
                }
                let grid = self.grid;
                for a in grid.adj(point) {
                    if self.in_eye[a] {
                        self.add_side(a);
                    }
                }
                if self.sides.len() >= self.target {
                    return true;
                }
                // Every point of the eye but the tested one was walked: a macrochain touching
                // the eye elsewhere goes on from there.
                for (next, from_points) in &eye.macro_neighbours {
                    if from_points.iter().any(|&p| p != point) && self.reaches(*next) {
                        return true;
                    }
                }
            } else {
                self.eye_search[eye_id as usize] = self.search;
                if eye.value > 0 {
                    return true;
                }
                for (next, _) in &eye.macro_neighbours {
                    if self.reaches(*next) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

#[derive(Clone, Copy, Default)]
struct EyePointInfo {
    adj_eye_points: u8,
    empty_adj_eye_points: u8,
    empty_adj_false: u8,
    opp_adj_false: u8,
    false_eye_poke: bool,
    moves_to_block: u32,
}

/// Whether `pla` could place a stone on `p` without it being an obvious suicide: some neighbour
/// is not the opponent's, or captures.
fn pseudolegal(s: &Stones, chain_of: &[u32], chains: &[Chain], p: usize, pla: Color) -> bool {
    if s.stones[p].is_some() {
        return false;
    }
    let opp = pla.opponent();
    s.grid.adj(p).any(|a| s.stones[a] != Some(opp) || chains[chain_of[a] as usize].liberties <= 1)
}

/// Whether taking point `d` out of the point set `member` could split a piece of it: false when
/// `d`'s neighbours in the set are joined to one another through the set's points among the
/// eight around `d` (then every path through `d` can go around it instead).
fn may_split(grid: &Grid, member: &[bool], d: usize) -> bool {
    let (x, y) = grid.xy(d);
    let (x, y) = (x as isize, y as isize);
    let has = |dx: isize, dy: isize| grid.at(x + dx, y + dy).is_some_and(|i| member[i]);
    // The four neighbours in turn around `d`, each with the diagonal point between it and the
    // next.
    const AROUND: [((isize, isize), (isize, isize)); 4] =
        [((0, -1), (1, -1)), ((1, 0), (1, 1)), ((0, 1), (-1, 1)), ((-1, 0), (-1, -1))];
    let mut neighbours = 0;
    let mut joins = 0;
    for (k, &((nx, ny), (cx, cy))) in AROUND.iter().enumerate() {
        let ((mx, my), _) = AROUND[(k + 1) % 4];
        if has(nx, ny) {
            neighbours += 1;
            if has(cx, cy) && has(mx, my) {
                joins += 1;
            }
        }
    }
    // Neighbours joined in a full ring make one group, not none.
    neighbours >= 2 && neighbours - joins.min(neighbours - 1) >= 2
}

/// Board-wide buffers [`eye_value`] reuses from eye to eye.
struct EyeScratch {
    /// All `false` between eyes.
    member: Vec<bool>,
    /// Meaningful only at the eye's own points, which each eye writes before reading.
    info: Vec<EyePointInfo>,
    /// [`Grid::count_pieces`]'s buffers and last pieces.
    pieces: Pieces,
}

fn eye_value(
    s: &Stones,
    chain_of: &[u32],
    chains: &[Chain],
    is_false: &[bool],
    real: &[bool],
    eye: &Eye,
    buffers: &mut EyeScratch,
) -> u8 {
    let points: Vec<usize> = eye.potential.iter().copied().filter(|&p| real[p]).collect();
    if points.is_empty() {
        return 0;
    }
    // Membership in this eye's real points (another eye may touch it across a connection block).
    for &p in &points {
        buffers.member[p] = true;
    }
    let value = real_eye_value(s, chain_of, chains, is_false, eye, &points, buffers);
    for &p in &points {
        buffers.member[p] = false;
    }
    value
}

/// [`eye_value`] of the eye whose real points are `points` (marked in `buffers.member`).
fn real_eye_value(
    s: &Stones,
    chain_of: &[u32],
    chains: &[Chain],
    is_false: &[bool],
    eye: &Eye,
    points: &[usize],
    buffers: &mut EyeScratch,
) -> u8 {
    let grid = s.grid;
    let n = grid.len();
    let pla = eye.pla;
    let opp = pla.opponent();
    let EyeScratch { member, info, pieces } = buffers;
    let real = &member[..];
    let info = &mut info[..];
    for &p in points {
        let mut e = EyePointInfo::default();
        for a in grid.adj(p) {
            if real[a] {
                e.adj_eye_points += 1;
            }
            if s.stones[a].is_none() {
                if real[a] {
                    e.empty_adj_eye_points += 1;
                }
                if is_false[a] {
                    e.empty_adj_false += 1;
                }
            }
            if s.stones[a] == Some(opp) && is_false[a] {
                e.opp_adj_false += 1;
            }
        }
        if s.stones[p] == Some(opp) && (e.opp_adj_false > 0 || e.empty_adj_false >= 2) {
            e.false_eye_poke = true;
        }
        info[p] = e;
    }
    for &p in points {
        let mut moves = 0;
        for a in grid.adj(p) {
            let mut block = 0;
            if s.stones[a].is_none() && (!real[a] || info[a].opp_adj_false >= 1) {
                block = 1;
            }
            if s.stones[a] == Some(opp) {
                if real[a] && info[a].empty_adj_false >= 1 {
                    block = 1;
                }
                if is_false[a] || (real[a] && info[a].false_eye_poke) {
                    block = 1000;
                }
            }
            moves += block;
        }
        info[p].moves_to_block = moves;
    }

    let mut value: usize = 0;
    if points.iter().any(|&p| info[p].moves_to_block <= 1) {
        value = 1;
    }

    // A playable bottleneck splitting the eye into pieces that are each an eye already. In an
    // eye of one piece, a point whose neighbours in the eye stay joined around it splits
    // nothing, so only the others are counted (counting the pieces for every point made this
    // loop quadratic in the eye's size on large territories).
    let one_piece = grid.count_pieces(points, real, &[], pieces) == 1;
    for &d in points {
        if value >= 2 {
            break;
        }
        if !pseudolegal(s, chain_of, chains, d, pla) {
            continue;
        }
        if one_piece && !may_split(grid, real, d) {
            continue;
        }
        if grid.count_pieces(points, real, &[d], pieces) < 2 {
            continue;
        }
        let bonus = info[d].opp_adj_false == 1;
        let definite = pieces
            .iter()
            .filter(|piece| {
                piece
                    .iter()
                    .any(|&p| info[p].moves_to_block == 0 || (bonus && info[p].moves_to_block <= 1))
            })
            .count();
        value = value.max(definite);
    }

    let dead_inside = points.iter().filter(|&&p| s.stones[p] == Some(opp) && s.dead[p]).count();
    if dead_inside >= 5 {
        value = value.max(1);
    }
    if dead_inside >= 8 {
        value = value.max(2);
    }

    if value < 2 {
        let weak = points.iter().filter(|&&p| info[p].moves_to_block >= 1).count();
        let severe = points.iter().filter(|&&p| info[p].moves_to_block >= 2).count();
        let inner_opp = points
            .iter()
            .filter(|&&p| s.stones[p] == Some(opp) && info[p].adj_eye_points >= 2)
            .count();
        if points.len() as isize - weak as isize - severe as isize - inner_opp as isize >= 6 {
            value = 2;
        }
    }

    if value < 2 {
        let empty_with = |k: u8| {
            points.iter().filter(|&&p| s.stones[p].is_none() && info[p].adj_eye_points >= k).count()
        };
        if empty_with(4) + empty_with(3) >= 6 {
            value = 2;
        }
    }

    // Two adjacent high-degree points whose removal splits the eye into definite eyes.
    if value < 2 {
        'outer: for &d in points {
            if s.stones[d].is_some() || grid.on_edge(d) || !pseudolegal(s, chain_of, chains, d, pla)
            {
                continue;
            }
            let i1 = info[d];
            if i1.moves_to_block > 1 || i1.adj_eye_points < 3 {
                continue;
            }
            for d2 in grid.adj(d) {
                if !real[d2] {
                    continue;
                }
                let i2 = info[d2];
                if i2.adj_eye_points < 3 || i2.moves_to_block > 1 {
                    continue;
                }
                if s.stones[d2].is_some() && i2.empty_adj_eye_points <= 1 {
                    continue;
                }
                if grid.count_pieces(points, real, &[d, d2], pieces) < 2 {
                    continue;
                }
                let mut definite = 0;
                let mut double_definite = 0;
                for piece in pieces.iter() {
                    let zero = piece.iter().filter(|&&p| info[p].moves_to_block == 0).count();
                    if zero >= 1 {
                        definite += 1;
                    }
                    if zero >= 2 {
                        double_definite += 1;
                    }
                }
                if definite >= 2
                    && double_definite >= 1
                    && (s.stones[d2].is_none() || double_definite >= 2)
                {
                    value = 2;
                    break 'outer;
                }
            }
        }
    }

    // No splitting point because dead opponent stones fill the eye: would capturing them leave a
    // living shape?
    if value < 2 {
        let dead_opps: Vec<usize> =
            points.iter().copied().filter(|&p| s.stones[p] == Some(opp) && s.dead[p]).collect();
        if !dead_opps.is_empty() {
            let unplayable: Vec<usize> = points
                .iter()
                .copied()
                .filter(|&p| {
                    let dead_opp = s.stones[p] == Some(opp) && s.dead[p];
                    !dead_opp && !pseudolegal(s, chain_of, chains, p, pla)
                })
                .collect();
            let throwins =
                eye.potential.iter().filter(|&&p| s.stones[p] == Some(opp) && is_false[p]).count();
            let mut all_good = true;
            let omissions: Vec<Option<usize>> =
                unplayable.iter().map(|&p| Some(p)).chain(std::iter::once(None)).collect();
            let mut mask = vec![false; n];
            for omitted in omissions {
                let shape: Vec<usize> = dead_opps
                    .iter()
                    .copied()
                    .chain(unplayable.iter().copied().filter(|&p| Some(p) != omitted))
                    .collect();
                for &p in &shape {
                    mask[p] = true;
                }
                let initial = grid.count_pieces(&shape, &mask, &[], pieces);
                let mut bottlenecks = 0;
                let mut high_degree = 0;
                for &p in &shape {
                    if grid.count_pieces(&shape, &mask, &[p], pieces) > initial {
                        bottlenecks += 1;
                    } else if grid.adj(p).filter(|&a| mask[a]).count() >= 3 {
                        high_degree += 1;
                    }
                }
                for &p in &shape {
                    mask[p] = false;
                }
                let bonus = usize::from(shape.len() >= 7);
                if (initial + (bottlenecks + high_degree + bonus) / 2) < 2 + throwins {
                    all_good = false;
                    break;
                }
            }
            if all_good {
                value = 2;
            }
        }
    }
    value.min(2) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    /// The connection blocks as matching every pattern cell against the board finds them.
    fn blocks_on_the_board(s: &Stones) -> Vec<Option<Color>> {
        let grid = s.grid;
        let mut blocks = vec![None; grid.len()];
        for pla in Color::BOTH {
            let opp = pla.opponent();
            for (at, stone) in s.stones.iter().enumerate() {
                if stone.is_some() || blocks[at] == Some(pla) {
                    continue;
                }
                let (ax, ay) = grid.xy(at);
                let (ax, ay) = (ax as isize, ay as isize);
                let matches = |pattern: &OrientedPattern| {
                    pattern.beyond_edge.is_none_or(|ends| {
                        ends.iter().all(|&(dx, dy)| grid.at(ax + dx, ay + dy).is_none())
                    }) && pattern.cells.iter().all(|&(dx, dy, ch)| {
                        let Some(i) = grid.at(ax + dx, ay + dy) else { return false };
                        match ch {
                            b'?' => true,
                            b'p' => s.live(i, pla),
                            b'e' => {
                                s.stones[i].is_none()
                                    || s.live(i, pla)
                                    || (s.stones[i] == Some(opp) && s.dead[i])
                            }
                            _ => false,
                        }
                    })
                };
                if oriented_patterns().iter().any(matches) {
                    blocks[at] = Some(pla);
                }
            }
        }
        blocks
    }

    #[test]
    fn a_point_that_may_not_split_a_piece_never_does() {
        // A cross splits in four at its centre; a full square stays one piece without it.
        //
        //   . # .     # # #
        //   # # #     # # #
        //   . # .     # # #
        let grid = Grid::new(BoardSize::new(3, 3).unwrap());
        let cross = [false, true, false, true, true, true, false, true, false];
        assert!(may_split(&grid, &cross, 4));
        assert!(!may_split(&grid, &cross, 1), "an arm's end has one neighbour");
        assert!(!may_split(&grid, &[true; 9], 4));
        assert!(!may_split(&grid, &[true; 9], 1));
        // Random point sets of one piece: `may_split` says yes at every point that splits one.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut pieces = Pieces::default();
        let mut splits = 0;
        for (w, h) in [(2, 3), (4, 4), (7, 5), (9, 9)] {
            let grid = Grid::new(BoardSize::new(w, h).unwrap());
            for _ in 0..200 {
                let member: Vec<bool> = (0..grid.len()).map(|_| next() % 3 != 0).collect();
                let points: Vec<usize> = (0..grid.len()).filter(|&i| member[i]).collect();
                if grid.count_pieces(&points, &member, &[], &mut pieces) != 1 {
                    continue;
                }
                for &d in &points {
                    let split = grid.count_pieces(&points, &member, &[d], &mut pieces) >= 2;
                    splits += usize::from(split);
                    assert!(!split || may_split(&grid, &member, d), "{w}x{h}: {d} splits");
                }
            }
        }
        assert!(splits > 50, "only {splits} splitting points: the sets test little");
    }

    #[test]
    fn remembered_neighbourhoods_find_the_blocks_the_patterns_do() {
        // Random boards of several shapes, with stones of both colours, some of them dead.
        let mut found = 0;
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (w, h) in [(2, 2), (3, 7), (5, 5), (9, 9), (19, 19)] {
            let grid = Grid::new(BoardSize::new(w, h).unwrap());
            for _ in 0..40 {
                let stones: Vec<Option<Color>> = (0..grid.len())
                    .map(|_| match next() % 5 {
                        0 | 1 => None,
                        2 | 3 => Some(if next() % 2 == 0 { Color::Black } else { Color::White }),
                        _ => Some(Color::Black),
                    })
                    .collect();
                let dead: Vec<bool> = (0..grid.len()).map(|_| next() % 6 == 0).collect();
                let s = Stones::new(&grid, &stones, &dead);
                let blocks = connection_blocks(&s);
                assert_eq!(blocks, blocks_on_the_board(&s), "{w}x{h}");
                found += blocks.iter().filter(|b| b.is_some()).count();
            }
        }
        assert!(found > 100, "only {found} blocks: the boards test little");
    }
}
