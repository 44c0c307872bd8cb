//! A read-only snapshot of a final position for the estimator: the stones in a flat row-major
//! array and the chains with their stones and liberties.
//!
//! The rules board keeps chains incrementally for play; the estimator instead asks many
//! questions of one fixed position, so it builds these tables once, over flat indices, and keeps
//! no board logic.

use crate::rules::score::grid::Grid;
use crate::rules::{Board, BoardSize, Color, Point};

/// Marks "none" in the per-point tables.
pub(crate) const NONE: u32 = u32::MAX;

/// A chain: connected stones of one colour.
#[derive(Clone, Debug)]
pub(crate) struct Chain {
    pub(crate) color: Color,
    pub(crate) stones: Vec<usize>,
    pub(crate) liberties: Vec<usize>,
}

/// The snapshot. See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub(crate) grid: Grid,
    pub(crate) size: BoardSize,
    pub(crate) stones: Vec<Option<Color>>,
    pub(crate) chain_of: Vec<u32>,
    pub(crate) chains: Vec<Chain>,
}

impl Layout {
    /// The snapshot of a board.
    pub(crate) fn of_board(board: &Board) -> Layout {
        let size = board.size();
        let stones = crate::analysis::stones_by_row(board);
        Layout::of_stones(size, stones)
    }

    /// The snapshot of stones given row by row.
    pub(crate) fn of_stones(size: BoardSize, stones: Vec<Option<Color>>) -> Layout {
        let grid = Grid::new(size);
        let n = grid.len();
        let mut chain_of = vec![NONE; n];
        let mut chains = Vec::new();
        let mut stack = Vec::new();
        let mut seen = vec![NONE; n];
        // Each chain's stones and liberties are gathered here first and then copied out at
        // their final size: one allocation each instead of a vector grown step by step.
        let (mut chain_stones, mut liberties) = (Vec::new(), Vec::new());
        for start in 0..n {
            let Some(color) = stones[start] else { continue };
            if chain_of[start] != NONE {
                continue;
            }
            let id = chains.len() as u32;
            chain_stones.clear();
            liberties.clear();
            chain_of[start] = id;
            stack.push(start);
            while let Some(p) = stack.pop() {
                chain_stones.push(p);
                for a in grid.adj(p) {
                    match stones[a] {
                        Some(c) if c == color && chain_of[a] == NONE => {
                            chain_of[a] = id;
                            stack.push(a);
                        }
                        None if seen[a] != id => {
                            seen[a] = id;
                            liberties.push(a);
                        }
                        _ => {}
                    }
                }
            }
            chains.push(Chain {
                color,
                stones: chain_stones.to_vec(),
                liberties: liberties.to_vec(),
            });
        }
        Layout { grid, size, stones, chain_of, chains }
    }

    /// The point at flat index `i`.
    pub(crate) fn point(&self, i: usize) -> Point {
        let (x, y) = self.grid.xy(i);
        Point::new(x as u8, y as u8)
    }

    /// The stone on every point with the stones flagged in `dead` taken off: the live stones
    /// region and eye walks read at every point and again from each neighbour.
    pub(crate) fn live_stones(&self, dead: &[bool]) -> Vec<Option<Color>> {
        self.stones.iter().zip(dead).map(|(&s, &d)| if d { None } else { s }).collect()
    }

    /// The flat index of an on-board point.
    pub(crate) fn index(&self, p: Point) -> usize {
        p.y as usize * self.size.width as usize + p.x as usize
    }
}
