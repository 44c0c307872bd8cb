//! Closing the borders of a position whose players stopped before the last neutral points and
//! protective moves were played, as professional records usually do, so that it can be counted.
//!
//! With the dead stones taken off, the remaining open regions (empty regions touching both
//! colours) are closed one move at a time, the way the players would have:
//! - each empty point belongs to the colour whose live stones are nearer (through empty
//!   points); points at equal distance are the border;
//! - a border point next to one side's points only is that side's to seal (it plays there, so
//!   its territory stops leaking); a border point between both sides' points is contested, and
//!   a border point between walls is dame: both are filled by the players in turn;
//! - a move that would put its own chain into atari is left to the other colour;
//! - a chain a filling move puts into atari is saved at once by its owner (the protective move,
//!   teire, that Japanese counting charges a point for), or captured if it cannot be saved.
//!
//! Under territory counting, filling dame changes nothing and each protective move inside one's
//! own territory costs a point; under area counting, who fills a point gains it, and pure dame
//! left open are neutral (half to each side in Chinese terms).

use crate::rules::score::grid::Grid;
use crate::rules::{Board, Color, Point, SuicideRule};

/// A position after closing.
#[derive(Clone, Debug)]
pub struct Closed {
    /// The board with dead stones removed and the closing moves played.
    pub board: Board,
    /// Prisoners each side gained: the opponent's dead stones, plus stones captured while
    /// closing. Indexed by the capturer.
    pub captured_by: [u32; 2],
    /// The closing moves, in order.
    pub moves: Vec<(Color, Point)>,
    /// Protective moves each side played to save a chain put into atari.
    pub protective: [u32; 2],
    /// Open points left neutral: dame no one could fill.
    pub neutral: u32,
}

/// Whether dame between walls are filled too (territory counting, where filling them can force
/// protective moves) or left neutral (area counting, where they count half to each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DameFilling {
    /// Fill every dame.
    Fill,
    /// Only seal borders; leave dame between walls empty.
    Leave,
}

/// Closes the borders of `board` with the stones flagged in `dead` (row-major) removed. `first`
/// is the player who fills first (the player to move).
pub fn close_borders(board: &Board, dead: &[bool], first: Color, dame: DameFilling) -> Closed {
    let size = board.size();
    let grid = Grid::new(size);
    let n = grid.len();
    let point = |i: usize| {
        let (x, y) = grid.xy(i);
        Point::new(x as u8, y as u8)
    };
    let mut b = Board::new(size);
    let mut captured_by = [0u32; 2];
    for (i, &is_dead) in dead.iter().enumerate().take(n) {
        if let Some(c) = board.get(point(i)) {
            if is_dead {
                captured_by[c.opponent().index()] += 1;
            } else {
                // Setting live stones on an empty board captures nothing and cannot fail.
                let _ = b.set_stone(point(i), Some(c));
            }
        }
    }
    let mut closed =
        Closed { board: b, captured_by, moves: Vec::new(), protective: [0, 0], neutral: 0 };
    let mut turn = first;
    let mut skipped = vec![false; n];
    for _ in 0..4 * n {
        let map = Distances::of(&closed.board, &grid);
        let Some((i, color)) = next_move(&grid, &map, &skipped, turn, dame) else {
            break;
        };
        let p = point(i);
        if play_safely(&mut closed, color, p) {
            closed.moves.push((color, p));
            answer_ataris(&mut closed, &grid, color, i);
            turn = color.opponent();
        } else {
            skipped[i] = true;
        }
    }
    let map = Distances::of(&closed.board, &grid);
    closed.neutral = (0..n).filter(|&i| map.open[i]).count() as u32;
    closed
}

/// Distances from every empty point to the nearest live stone of each colour, through empty
/// points, and which empty points lie in regions touching both colours.
struct Distances {
    dist: [Vec<u32>; 2],
    open: Vec<bool>,
    empty: Vec<bool>,
    stone: Vec<Option<Color>>,
}

impl Distances {
    fn of(board: &Board, grid: &Grid) -> Distances {
        let n = grid.len();
        let stone: Vec<Option<Color>> = (0..n)
            .map(|i| {
                let (x, y) = grid.xy(i);
                board.get(Point::new(x as u8, y as u8))
            })
            .collect();
        let empty: Vec<bool> = stone.iter().map(Option::is_none).collect();
        let mut dist = [vec![u32::MAX; n], vec![u32::MAX; n]];
        for color in Color::BOTH {
            let d = &mut dist[color.index()];
            let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
            for i in 0..n {
                if stone[i] == Some(color) {
                    d[i] = 0;
                    queue.push_back(i);
                }
            }
            while let Some(p) = queue.pop_front() {
                for a in grid.adj(p) {
                    if empty[a] && d[a] == u32::MAX {
                        d[a] = d[p] + 1;
                        queue.push_back(a);
                    }
                }
            }
        }
        // Open: empty points whose region reaches both colours (finite distance to both).
        let open =
            (0..n).map(|i| empty[i] && dist[0][i] != u32::MAX && dist[1][i] != u32::MAX).collect();
        Distances { dist, open, empty, stone }
    }

    /// The colour nearer to empty point `i`, if one is.
    fn owner(&self, i: usize) -> Option<Color> {
        let (b, w) = (self.dist[0][i], self.dist[1][i]);
        match b.cmp(&w) {
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The next closing move: a sealing point first (next to one side's points only), then a
/// contested point, then dame; among equals the first in reading order.
fn next_move(
    grid: &Grid,
    map: &Distances,
    skipped: &[bool],
    turn: Color,
    dame: DameFilling,
) -> Option<(usize, Color)> {
    let mut best: Option<(u32, usize, Color)> = None;
    for (i, &skip) in skipped.iter().enumerate().take(grid.len()) {
        if !map.open[i] || skip {
            continue;
        }
        let touches_black = grid.adj(i).any(|a| map.stone[a] == Some(Color::Black));
        let touches_white = grid.adj(i).any(|a| map.stone[a] == Some(Color::White));
        let mut owned = [false; 2];
        for a in grid.adj(i) {
            if map.empty[a]
                && let Some(c) = map.owner(a)
            {
                owned[c.index()] = true;
            }
        }
        let (rank, color) = if touches_black && touches_white {
            match owned {
                [true, false] => (0, Color::Black),
                [false, true] => (0, Color::White),
                [true, true] => (1, turn),
                [false, false] => {
                    if dame == DameFilling::Leave {
                        continue;
                    }
                    (2, turn)
                }
            }
        } else {
            continue;
        };
        if best.is_none_or(|(r, _, _)| rank < r) {
            best = Some((rank, i, color));
        }
    }
    best.map(|(_, i, c)| (i, c))
}

/// Plays `color` on `p` unless that would leave its chain in atari without capturing, in which
/// case the other colour tries. Returns whether a move was made.
fn play_safely(closed: &mut Closed, color: Color, p: Point) -> bool {
    for c in [color, color.opponent()] {
        let mut trial = closed.board.clone();
        let Ok(effect) = trial.play(c, p, SuicideRule::Forbidden) else { continue };
        if effect.captured == 0 && trial.liberty_count(p) < 2 {
            continue;
        }
        closed.captured_by[c.index()] += effect.captured;
        closed.board = trial;
        return true;
    }
    false
}

/// After `color` played on `i`: an opponent chain next to it left in atari is saved by its
/// owner when a move on its last liberty gives it two or more; otherwise `color` captures it.
fn answer_ataris(closed: &mut Closed, grid: &Grid, color: Color, i: usize) {
    let opp = color.opponent();
    for a in grid.adj(i) {
        let (x, y) = grid.xy(a);
        let ap = Point::new(x as u8, y as u8);
        if closed.board.get(ap) != Some(opp) || closed.board.liberty_count(ap) != 1 {
            continue;
        }
        let Some(l) = closed.board.chain_liberties(ap).next() else { continue };
        let mut saved = closed.board.clone();
        if let Ok(effect) = saved.play(opp, l, SuicideRule::Forbidden)
            && (effect.captured > 0 || saved.liberty_count(l) >= 2)
        {
            closed.captured_by[opp.index()] += effect.captured;
            closed.board = saved;
            closed.moves.push((opp, l));
            closed.protective[opp.index()] += 1;
            continue;
        }
        let mut taken = closed.board.clone();
        if let Ok(effect) = taken.play(color, l, SuicideRule::Forbidden) {
            closed.captured_by[color.index()] += effect.captured;
            closed.board = taken;
            closed.moves.push((color, l));
        }
    }
}
