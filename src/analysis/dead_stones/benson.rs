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
    // Regions: components of points without a stone of `player`.
    let mut region_of = vec![NONE; n];
    let mut regions: Vec<Vec<usize>> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n {
        if stones[start] == Some(player) || region_of[start] != NONE {
            continue;
        }
        let id = regions.len() as u32;
        let mut points = Vec::new();
        region_of[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            points.push(p);
            for a in grid.adj(p) {
                if stones[a] != Some(player) && region_of[a] == NONE {
                    region_of[a] = id;
                    stack.push(a);
                }
            }
        }
        regions.push(points);
    }
    // For every region: the player's chains around it, and those to which it is vital.
    let mut bordering: Vec<Vec<u32>> = vec![Vec::new(); regions.len()];
    let mut vital_to: Vec<Vec<u32>> = vec![Vec::new(); regions.len()];
    for (r, points) in regions.iter().enumerate() {
        for &p in points {
            for a in grid.adj(p) {
                let c = layout.chain_of[a];
                if c != NONE && stones[a] == Some(player) && !bordering[r].contains(&c) {
                    bordering[r].push(c);
                }
            }
        }
        for &c in &bordering[r] {
            let vital = points
                .iter()
                .all(|&p| stones[p].is_some() || grid.adj(p).any(|a| layout.chain_of[a] == c));
            if vital {
                vital_to[r].push(c);
            }
        }
    }
    let mut alive: Vec<bool> = layout.chains.iter().map(|c| c.color == player).collect();
    let mut region_ok = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for r in 0..regions.len() {
            if region_ok[r] && bordering[r].iter().any(|&c| !alive[c as usize]) {
                region_ok[r] = false;
                changed = true;
            }
        }
        let mut vital_count = vec![0u32; layout.chains.len()];
        for r in 0..regions.len() {
            if region_ok[r] {
                for &c in &vital_to[r] {
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
    for (r, points) in regions.iter().enumerate() {
        if !region_ok[r] || bordering[r].is_empty() {
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
