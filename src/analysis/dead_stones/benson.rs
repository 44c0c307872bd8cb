//! Benson's unconditional life: chains that stay alive whatever the opponent plays, even if
//! their owner passes every turn, and the opponent stones proven dead inside their territory.
//!
//! A region here is a maximal connected set of points holding no stone of the player
//! (empty points and opponent stones). A region is *vital* to a chain when every empty point of
//! it is a liberty of that chain (with suicide forbidden, only the empty points matter). Starting
//! from all the player's chains, repeatedly drop chains with fewer than two vital regions among
//! the regions bordered only by chains still in the set; what remains is pass-alive (Benson
//! 1976; KataGo `cpp/game/board.cpp::calculateAreaForPla`).
//!
//! Pass-dead (KataGo issue #550): opponent stones in a region bordered only by pass-alive chains
//! cannot make two eyes there when the region has at most one point not next to the player's
//! stones, so they are dead. Regions with more room hold opponent stones that are very probably
//! dead, which the estimator takes as a strong hint, not a proof.

use super::layout::{Layout, NONE};
use crate::rules::Color;

/// What Benson's algorithm proves for one player.
#[derive(Clone, Debug)]
pub(crate) struct PassAlive {
    /// Per chain of the layout: pass-alive (always `false` for the opponent's chains).
    pub(crate) chain_alive: Vec<bool>,
    /// Per point: an opponent stone proven dead (small region bordered only by pass-alive
    /// chains).
    pub(crate) proven_dead: Vec<bool>,
    /// Per point: inside an empty region (no stone at all) bordered only by pass-alive chains:
    /// settled territory, where no move changes anything.
    pub(crate) enclosed: Vec<bool>,
}

/// Runs Benson's algorithm for `player`.
pub(crate) fn pass_alive(layout: &Layout, player: Color) -> PassAlive {
    let grid = &layout.grid;
    let n = grid.len();
    let stones = &layout.stones;
    // Regions: components of points without a stone of `player`. Region `r`'s points are
    // `region_points[region_start[r]..region_start[r + 1]]`, in the order its fill reached
    // them: one list for all regions rather than one allocation each.
    let mut region_of = vec![NONE; n];
    let mut region_points = Vec::with_capacity(n);
    let mut region_start = vec![0];
    let mut stack = Vec::new();
    for start in 0..n {
        if stones[start] == Some(player) || region_of[start] != NONE {
            continue;
        }
        let id = region_start.len() as u32 - 1;
        region_of[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            region_points.push(p);
            for a in grid.adj(p) {
                if stones[a] != Some(player) && region_of[a] == NONE {
                    region_of[a] = id;
                    stack.push(a);
                }
            }
        }
        region_start.push(region_points.len());
    }
    let regions = region_start.len() - 1;
    let points_of = |r: usize| &region_points[region_start[r]..region_start[r + 1]];
    // For every region: the player's chains around it, and those to which it is vital, kept
    // the same way (`bordering[bordering_start[r]..bordering_start[r + 1]]`).
    let mut bordering: Vec<u32> = Vec::new();
    let mut bordering_start = Vec::with_capacity(regions + 1);
    bordering_start.push(0);
    let mut vital_to: Vec<u32> = Vec::new();
    let mut vital_start = Vec::with_capacity(regions + 1);
    vital_start.push(0);
    // For every chain, the last region found next to it: a chain is listed once per region
    // without searching the region's list.
    let mut listed_for = vec![NONE; layout.chains.len()];
    for r in 0..regions {
        let points = points_of(r);
        let first = bordering.len();
        for &p in points {
            for a in grid.adj(p) {
                let c = layout.chain_of[a];
                if c != NONE && stones[a] == Some(player) && listed_for[c as usize] != r as u32 {
                    listed_for[c as usize] = r as u32;
                    bordering.push(c);
                }
            }
        }
        bordering_start.push(bordering.len());
        for &c in &bordering[first..] {
            let vital = points
                .iter()
                .all(|&p| stones[p].is_some() || grid.adj(p).any(|a| layout.chain_of[a] == c));
            if vital {
                vital_to.push(c);
            }
        }
        vital_start.push(vital_to.len());
    }
    let bordering_of = |r: usize| &bordering[bordering_start[r]..bordering_start[r + 1]];
    let vital_of = |r: usize| &vital_to[vital_start[r]..vital_start[r + 1]];
    let mut alive: Vec<bool> = layout.chains.iter().map(|c| c.color == player).collect();
    let mut region_ok = vec![true; regions];
    let mut vital_count = vec![0u32; layout.chains.len()];
    loop {
        let mut changed = false;
        for (r, ok) in region_ok.iter_mut().enumerate() {
            if *ok && bordering_of(r).iter().any(|&c| !alive[c as usize]) {
                *ok = false;
                changed = true;
            }
        }
        vital_count.fill(0);
        for (r, &ok) in region_ok.iter().enumerate() {
            if ok {
                for &c in vital_of(r) {
                    vital_count[c as usize] += 1;
                }
            }
        }
        for (c, chain) in layout.chains.iter().enumerate() {
            if alive[c] && chain.color == player && vital_count[c] < 2 {
                alive[c] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut proven_dead = vec![false; n];
    let mut enclosed = vec![false; n];
    for (r, &ok) in region_ok.iter().enumerate() {
        let points = points_of(r);
        if !ok || bordering_of(r).is_empty() {
            continue;
        }
        if points.iter().all(|&p| stones[p].is_none()) {
            for &p in points {
                enclosed[p] = true;
            }
        }
        let interior =
            points.iter().filter(|&&p| !grid.adj(p).any(|a| stones[a] == Some(player))).count();
        if interior <= 1 {
            for &p in points {
                if stones[p].is_some() {
                    proven_dead[p] = true;
                }
            }
        }
    }
    PassAlive { chain_alive: alive, proven_dead, enclosed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Board;

    fn layout(diagram: &str) -> Layout {
        Layout::of_board(&Board::from_diagram(diagram).expect("diagram"))
    }

    #[test]
    fn two_eyes_are_pass_alive_one_eye_is_not() {
        let l = layout(
            "
            . X . X O . . .
            X X X X O . . .
            O O O O O . O .
            . . . . . . . .",
        );
        let black = pass_alive(&l, Color::Black);
        let black_chain = l.chain_of[1] as usize;
        assert!(black.chain_alive[black_chain]);
        let white = pass_alive(&l, Color::White);
        let white_chain = l.chain_of[4] as usize;
        assert!(!white.chain_alive[white_chain]);
    }

    #[test]
    fn a_lone_stone_in_a_pass_alive_eye_is_proven_dead() {
        // White's stone sits in a two-point region bordered only by Black's pass-alive group:
        // one interior point at most, so White can never make two eyes there.
        let l = layout(
            "
            . X O . X
            X X X X X
            . X . X .",
        );
        let black = pass_alive(&l, Color::Black);
        assert!(black.proven_dead[2]);
        // The region holds a White stone: not settled territory.
        assert!(!black.enclosed[3]);
        assert!(black.enclosed[0]);
    }
}
