//! Area counting's view of a finished position: each point counts for the player whose live
//! stones it alone reaches, and independent live groups for the ancient group tax.
//!
//! A point reaches a player when a path of points holding no live stone of the opponent leads
//! from it to a live stone of that player; dead stones are transparent (goscorer's
//! `area_scoring`, Tromp-Taylor's definition with dead stones removed). A live stone reaches its
//! own colour only, so it counts for its owner; an empty point reaching both is neutral (dame),
//! and so are the shared liberties of a seki, while a seki group's own eyes count for it, as the
//! Chinese rules count them.

use super::grid::Grid;
use super::{live_code, live_codes};
use crate::rules::Color;

/// For every point, the player it counts for under area counting, or `None` when it reaches
/// both players (or neither).
pub(crate) fn area_owners(
    grid: &Grid,
    stones: &[Option<Color>],
    dead: &[bool],
) -> Vec<Option<Color>> {
    let n = grid.len();
    let live = live_codes(stones, dead);
    // Bit `1 << colour index` of a point: it reaches that player. Both floods share the stack,
    // sized for the whole board so that it never grows.
    let mut reached = vec![0u8; n];
    let mut stack = Vec::with_capacity(n);
    for pla in Color::BOTH {
        let bit = 1u8 << pla.index();
        let (own, opp) = (live_code(pla), live_code(pla.opponent()));
        for (i, &l) in live.iter().enumerate() {
            if l == own {
                reached[i] |= bit;
                stack.push(i);
            }
        }
        while let Some(p) = stack.pop() {
            for a in grid.adj(p) {
                if reached[a] & bit == 0 && live[a] != opp {
                    reached[a] |= bit;
                    stack.push(a);
                }
            }
        }
    }
    let only = |c: Color| 1u8 << c.index();
    reached
        .iter()
        .map(|&r| {
            if r == only(Color::Black) {
                Some(Color::Black)
            } else if r == only(Color::White) {
                Some(Color::White)
            } else {
                None
            }
        })
        .collect()
}

/// Number of separate live groups of each colour (Black, White): connected pieces of a player's
/// area (live stones plus the points counting for them) that hold at least one live stone not in
/// seki. Chains sharing an eye or a territory are one group, however many chains they are; the
/// ancient 還棋頭 counting taxes each. Seki groups (`seki` names their colour on their stones)
/// are not independently alive and pay nothing.
pub(crate) fn live_groups(
    grid: &Grid,
    stones: &[Option<Color>],
    dead: &[bool],
    owners: &[Option<Color>],
    seki: &[Option<Color>],
) -> [u32; 2] {
    let mut seen = vec![false; grid.len()];
    let mut groups = [0u32; 2];
    let mut stack = Vec::new();
    for start in 0..grid.len() {
        let Some(color) = stones[start] else { continue };
        if dead[start] || seen[start] || seki[start].is_some() {
            continue;
        }
        groups[color.index()] += 1;
        seen[start] = true;
        stack.push(start);
        while let Some(p) = stack.pop() {
            for a in grid.adj(p) {
                if !seen[a] && owners[a] == Some(color) {
                    seen[a] = true;
                    stack.push(a);
                }
            }
        }
    }
    groups
}
