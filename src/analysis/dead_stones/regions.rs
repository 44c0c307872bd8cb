//! Region analysis on top of the playouts: the checks that catch what random play gets wrong.
//!
//! A player's *area* around a chain is the space it reaches through empty points, its own
//! stones and dead stones, stopping at the opponent's live stones. With the statuses the
//! playouts proposed:
//! - a weak group whose area is small (at most [`READ_AREA`] points of space) is read out move
//!   by move, its opponent moving first ([`super::life`]), and takes the answer;
//! - a group with fewer than two eyes whose area is small, holds no strong group of its colour
//!   and is bordered only by strong opponent groups is dead, whatever the playouts said (they
//!   let one-eyed groups with a false eye live when the attacker plays at random);
//! - a live group with fewer than two eyes that shares liberties with a live opponent group in
//!   the same state is in seki.
//!
//! "Strong" is two eyes or more (see [`super::eyes`]) or Benson's pass-alive.

use super::eyes::{Eyes, analyse};
use super::layout::{Layout, NONE};
use crate::rules::{Board, Color};

/// The largest area (in points of space) a weak group may have and still be declared dead by
/// enclosure: beyond it the group has room to live, or the border is open.
const SMALL_AREA: usize = 12;

/// Playout support (mean ownership from the chain's side, over the playouts both sides
/// started) above which the playouts' verdict stands: a group they keep alive that clearly
/// usually wins a liberty race or lives in a way the eye count misses.
const CLEARLY_ALIVE: f32 = 0.8;

#[derive(Default)]
struct Area {
    chains: Vec<u32>,
    space: Vec<usize>,
    boundary: Vec<u32>,
}

struct Areas {
    of: Vec<u32>,
    list: Vec<Area>,
}

fn areas(layout: &Layout, dead: &[bool], color: Color) -> Areas {
    let grid = &layout.grid;
    let n = grid.len();
    let opp = color.opponent();
    let live = |i: usize, c: Color| layout.stones[i] == Some(c) && !dead[i];
    let mut of = vec![NONE; n];
    let mut list = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n {
        if of[start] != NONE || live(start, opp) {
            continue;
        }
        let id = list.len() as u32;
        let mut area = Area::default();
        of[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            if live(p, color) {
                let c = layout.chain_of[p];
                if !area.chains.contains(&c) {
                    area.chains.push(c);
                }
            } else {
                area.space.push(p);
            }
            for a in grid.adj(p) {
                if live(a, opp) {
                    let c = layout.chain_of[a];
                    if !area.boundary.contains(&c) {
                        area.boundary.push(c);
                    }
                } else if of[a] == NONE {
                    of[a] = id;
                    stack.push(a);
                }
            }
        }
        list.push(area);
    }
    Areas { of, list }
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

/// Areas of at most this many points of space are read out move by move.
const READ_AREA: usize = 14;

/// The most points a reading may play on (the area's space and stones, and what the enclosing
/// chains short of liberties add).
const READ_ARENA: usize = 24;

/// Reads out every weak group whose area is small and enclosed by the opponent's live stones
/// (with the attacker moving first), and sets the dead flags of its chains by the answer.
/// Returns the chains whose status it decided, with whether they live.
fn read_small_areas(
    board: &Board,
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
) -> Vec<(u32, bool)> {
    let mut decided: Vec<(u32, bool)> = Vec::new();
    let eyes = analyse(layout, dead);
    let strong = strong_groups(&eyes, pass_alive);
    let by_color = [areas(layout, dead, Color::Black), areas(layout, dead, Color::White)];
    let mut done: Vec<u32> = Vec::new();
    for (g, group) in eyes.groups.iter().enumerate() {
        if strong[g] {
            continue;
        }
        let own = &by_color[group.color.index()];
        let a = own.of[layout.chains[group.chains[0] as usize].stones[0]];
        if done.contains(&a) {
            continue;
        }
        done.push(a);
        let area = &own.list[a as usize];
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
        for &c in &area.chains {
            for &i in &layout.chains[c as usize].stones {
                add(i, &mut arena);
            }
        }
        for &c in &area.boundary {
            let chain = &layout.chains[c as usize];
            if chain.liberties.len() <= 2 {
                for &i in &chain.liberties {
                    add(i, &mut arena);
                }
                if chain.stones.len() <= 6 {
                    for &i in &chain.stones {
                        add(i, &mut arena);
                    }
                }
            }
        }
        if arena.len() > READ_ARENA {
            continue;
        }
        let Some(&largest) = area
            .chains
            .iter()
            .max_by_key(|&&c| (layout.chains[c as usize].stones.len(), std::cmp::Reverse(c)))
        else {
            continue;
        };
        let key = loc(layout.chains[largest as usize].stones[0]);
        let Some(mut search) = super::life::LifeSearch::new(board, key, arena) else { continue };
        let Some(lives) = search.lives(group.color.opponent()) else { continue };
        for &c in &area.chains {
            for &i in &layout.chains[c as usize].stones {
                dead[i] = !lives;
            }
            decided.push((c, lives));
        }
    }
    decided
}

/// Runs the checks on the statuses in `dead` (updated with the chains found dead).
pub(crate) fn check(
    board: &Board,
    layout: &Layout,
    dead: &mut [bool],
    pass_alive: &[bool],
    support: &[f32],
) -> Checks {
    let read = read_small_areas(board, layout, dead, pass_alive);
    let mut killed = Vec::new();
    for _ in 0..8 {
        let eyes = analyse(layout, dead);
        let strong = strong_groups(&eyes, pass_alive);
        let chain_strong = |c: u32| {
            let g = eyes.group_of[c as usize];
            g != NONE && strong[g as usize]
        };
        let by_color = [areas(layout, dead, Color::Black), areas(layout, dead, Color::White)];
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
            let area = &own.list[a as usize];
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
                        && other.list[ya].boundary.iter().all(|c| area.chains.contains(c))
                        && other.list[ya].chains.iter().all(|&c| !chain_strong(c))
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
        let mut newly = Vec::new();
        for (g, group) in eyes.groups.iter().enumerate() {
            if strong[g] {
                continue;
            }
            let own = &by_color[group.color.index()];
            let a = own.of[layout.chains[group.chains[0] as usize].stones[0]] as usize;
            let area = &own.list[a];
            if area.space.len() > SMALL_AREA
                || area.boundary.is_empty()
                || area.chains.iter().any(|&c| chain_strong(c))
                || !area.boundary.iter().all(|&c| chain_strong(c))
                || area.chains.iter().any(|&c| support[c as usize] >= CLEARLY_ALIVE)
            {
                continue;
            }
            for &c in &area.chains {
                if !newly.contains(&c) {
                    newly.push(c);
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
        killed.extend(newly);
    }
    // Seki: live weak groups touching live weak groups of the other colour through a shared
    // liberty.
    let eyes = analyse(layout, dead);
    let strong = strong_groups(&eyes, pass_alive);
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
