//! Life and death by reading, for a group enclosed in a small area: whether it lives when its
//! opponent moves first, found by searching every move inside the area.
//!
//! Random playouts judge an enclosed group by how often random play kills it, which is exactly
//! wrong for the shapes whose status depends on one right move: a rectangular six with no
//! outside liberties and an opponent stone inside, a straight four whose end the opponent can
//! reach, a bent four in the corner, a throw-in that turns an eye false. A small area can be
//! read out instead, as a player would: the opponent (the attacker) moves first, both may pass,
//! and
//! - the attacker wins by capturing the group's main chain;
//! - the group lives once it has two true eyes (points surrounded by its own stones, with too
//!   few of the attacker's stones on the diagonals to make them false), or when both pass with
//!   it still on the board (seki counts as life here: the region checks tell seki apart);
//! - a kill by an enclosing chain that cannot afford to fill the liberties it shares with the
//!   group (more of them than it has outside, with no space of its own) is a seki: the group
//!   lives.
//!
//! Moves are restricted to the area (its empty points, the points of stones captured in it,
//! and the outside liberties of the attacker's chains short of liberties, for capturing
//! races), less the points that would only fill a player's own eye. The search is an AND-OR
//! search with a transposition table, bounded by a node budget; a search that runs out answers
//! nothing, and the caller keeps what it had.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::analysis::reading::{Ply, Stack};
use crate::rules::{Board, Color, SuicideRule};

/// Nodes one question may visit. Raised from 4000 to 5000 when the search stopped trying moves
/// that fill a player's own eye ([`fills_own_eye`]), which pays for it: `kifu audit -j1` on the
/// first 600 professional games 1,973.2M instructions before both, 1,973.3M after. Measured
/// with `RAYON_NUM_THREADS=2 target/release/examples/accuracy --misses` against e0b5b67:
/// aeb-pro Japanese exact 11,101 -> 11,101, within 2 points 14,316 -> 14,318, same winner
/// 14,467 -> 14,469 of 15,070 (5 games closer, 1 further: a search that ran out now answers,
/// and the arena's answer is not always the game's); other aeb within 2 +2, same winner +1 (2
/// closer, 1 further); every other set and the held-out sets unchanged. 6000 and 8000 answer
/// one more game wrong (ProBest10/11/8) at +0.26% and +0.5% instructions; 8000 without the
/// pruning +1.3% (2 games closer, none further); 16000 without it +3.9%.
const BUDGET: u32 = 5000;

/// The answer of a search: `None` when the budget ran out.
pub(crate) type Verdict = Option<bool>;

/// A life-and-death search for one group.
pub(crate) struct LifeSearch {
    defender: Color,
    /// A stone of the group's largest chain: the group is dead once it is gone.
    key: u16,
    /// Where moves may be played, vital points first: the points touching most of the area
    /// (sorted once, stably: the order moves are tried in at every node).
    arena: Vec<u16>,
    /// The position searched.
    root: Board,
    /// The positions below it: the one at each depth of the search.
    stack: Stack,
    /// Settled positions: (position, player to move, ko point, a pass just made) -> lives.
    table: HashMap<u64, bool, BuildHasherDefault<KeyHasher>>,
    used: u32,
    max_depth: usize,
}

/// The [`LifeSearch::table`]'s hasher: its keys are Zobrist hashes already, as evenly spread as
/// a hash function would make them, so they are taken as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl LifeSearch {
    /// A search on `board` for the group whose largest chain holds the stone `key`, with moves
    /// on `arena` only.
    pub(crate) fn new(board: &Board, key: u16, arena: Vec<u16>) -> Option<LifeSearch> {
        let defender = board.stone_at(key)?;
        let max_depth = 2 * arena.len() + 8;
        // Vital points first: the move touching most of the area. The order depends on the
        // arena alone, so it is found once; a stable sort keeps the arena's order among equals,
        // which every node's legal moves, taken in this order, keep too.
        let inside = |m: u16| board.neighbours_of(m).iter().filter(|&a| arena.contains(a)).count();
        let mut ordered = arena.clone();
        ordered.sort_by_key(|&m| std::cmp::Reverse(inside(m)));
        Some(LifeSearch {
            defender,
            key,
            arena: ordered,
            root: board.clone(),
            stack: Stack::new(),
            table: HashMap::default(),
            used: 0,
            max_depth,
        })
    }

    /// Whether the group lives with `first` to move. A kill by a chain enclosing the area that
    /// cannot afford to fill the liberties it shares with the group is a seki, and the group
    /// lives (see [`enclosure_in_seki`]).
    pub(crate) fn lives(&mut self, first: Color) -> Verdict {
        self.used = 0;
        let verdict = self.search(0, first, false);
        if verdict == Some(false) && enclosure_in_seki(&self.root, &self.arena, self.defender) {
            return Some(true);
        }
        verdict
    }

    /// The key of the position at `depth` for the table.
    fn key_at(&self, depth: usize, to_move: Color, passed: bool) -> u64 {
        let board = self.stack.at(&self.root, depth);
        let mut key = board.hash();
        if to_move == Color::White {
            key ^= 0x9e37_79b9_7f4a_7c15;
        }
        if passed {
            key ^= 0x2545_f491_4f6c_dd1d;
        }
        if let Some((p, _)) = board.ko() {
            key ^= (u64::from(p.x) << 8 | u64::from(p.y)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        }
        key
    }

    /// Whether the group lives at `depth`, `to_move` to move; `passed`: the last move was a
    /// pass.
    fn search(&mut self, depth: usize, to_move: Color, passed: bool) -> Verdict {
        self.used += 1;
        if self.used > BUDGET || depth >= self.max_depth {
            return None;
        }
        let board = self.stack.at(&self.root, depth);
        if board.stone_at(self.key) != Some(self.defender) {
            return Some(false);
        }
        if two_true_eyes(board, self.key) {
            return Some(true);
        }
        let key = self.key_at(depth, to_move, passed);
        if let Some(&known) = self.table.get(&key) {
            return Some(known);
        }
        let defending = to_move == self.defender;
        let mut unknown = false;
        let mut settled = None;
        // Each move's legality is checked just before it is tried: the position at `depth`
        // stays as it is while the children are searched, and a move found settling the node
        // spares checking the ones after it.
        for i in 0..self.arena.len() {
            let m = self.arena[i];
            let board = self.stack.at(&self.root, depth);
            if !board.empty_at(m) || board.check_loc(to_move, m, SuicideRule::Forbidden).is_err() {
                continue;
            }
            if fills_own_eye(board, to_move, m) {
                continue;
            }
            self.play_child(depth, to_move, Some(m));
            match self.search(depth + 1, to_move.opponent(), false) {
                Some(lives) if lives == defending => {
                    settled = Some(lives);
                    break;
                }
                Some(_) => {}
                None => unknown = true,
            }
        }
        if let Some(lives) = settled {
            self.table.insert(key, lives);
            return Some(lives);
        }
        // A pass: after two in a row the group is still there, and lives.
        let after_pass = if passed {
            Some(true)
        } else {
            self.play_child(depth, to_move, None);
            self.search(depth + 1, to_move.opponent(), true)
        };
        match after_pass {
            Some(lives) if lives == defending => {
                self.table.insert(key, lives);
                Some(lives)
            }
            Some(_) if !unknown => {
                self.table.insert(key, !defending);
                Some(!defending)
            }
            _ => None,
        }
    }

    /// The position at `depth + 1`: the one at `depth` after `color` plays `m` (or passes).
    fn play_child(&mut self, depth: usize, color: Color, m: Option<u16>) {
        let ply = match m {
            Some(m) => Ply::Move(color, m),
            None => Ply::Pass,
        };
        self.stack.play(&self.root, depth, ply);
    }
}

/// Whether a chain of the attacker enclosing the arena from outside it is in a seki the arena
/// does not hold: it shares more liberties with the area than it has outside it, and none of
/// those outside liberties opens on space of its own (every one lies in an empty region that
/// touches the defender's colour). The reading takes every enclosing chain for safe and lets it
/// fill the shared liberties; such a chain may not afford to, each shared liberty it fills
/// bringing it closer to capture by the defender's stones outside, and then neither side can
/// approach and the group lives without territory (a seki of three chains or more, which
/// professional records leave on the board: read as a kill, the group's stones and the space
/// around them went to the wrong side).
///
/// Such a kill was first taken as no answer (the caller kept the playouts' status, the fight
/// being outside the area); the playouts fill shared liberties at random and kill the group in
/// most of them, so that kept the kill. Taken as a seki instead, the group lives.
/// Measured with `RAYON_NUM_THREADS=2 target/release/examples/accuracy --misses` against
/// 7191ac6: aeb-pro Japanese 11,098 / 14,312 / 14,465 -> 11,101 / 14,316 / 14,467 of 15,070
/// (exact / within 2 / same winner; 5 games closer, none further), other aeb 2 closer, none
/// further; every other set and the held-out sets unchanged.
fn enclosure_in_seki(board: &Board, arena: &[u16], defender: Color) -> bool {
    let attacker = defender.opponent();
    let mut heads: Vec<u16> = Vec::new();
    for &a in arena {
        for n in board.neighbours_of(a) {
            if !board.on_board_at(n) || board.stone_at(n) != Some(attacker) || arena.contains(&n) {
                continue;
            }
            let head = board.head_at(n);
            if heads.contains(&head) {
                continue;
            }
            heads.push(head);
            let mut liberties = vec![0u16; board.libs_at(n) as usize];
            board.first_liberties_at(n, &mut liberties);
            let shared = liberties.iter().filter(|l| arena.contains(l)).count();
            let outside = liberties.len() - shared;
            if outside > 0
                && shared > outside
                && !liberties
                    .iter()
                    .any(|&l| !arena.contains(&l) && opens_on_own_space(board, l, arena, defender))
            {
                return true;
            }
        }
    }
    false
}

/// Whether the empty region around `start`, outside the arena, touches no stone of `defender`
/// (space the enclosing side owns), or is too large to be liberties in a seki.
fn opens_on_own_space(board: &Board, start: u16, arena: &[u16], defender: Color) -> bool {
    /// An empty region larger than this is open board, not liberties in a seki.
    const OPEN: usize = 40;
    let mut region = vec![start];
    let mut next = 0;
    while next < region.len() {
        let p = region[next];
        next += 1;
        for n in board.neighbours_of(p) {
            if !board.on_board_at(n) || arena.contains(&n) {
                continue;
            }
            if board.stone_at(n) == Some(defender) {
                return false;
            }
            if board.empty_at(n) && !region.contains(&n) {
                region.push(n);
                if region.len() > OPEN {
                    return true;
                }
            }
        }
    }
    true
}

/// Whether a stone of `color` on the empty `m` would only fill an eye of one of its chains:
/// every on-board neighbour of `m` is a stone of that one chain. Such a move joins nothing and
/// captures nothing; it takes a liberty from the chain and leaves the position otherwise as a
/// pass would, and the search tries a pass at every node, so it is never tried (both sides).
/// The one thing it does that a pass does not is wait without letting a second pass end the
/// search (a tempo in a ko), which the search's simple ko and two-pass ending do not weigh.
fn fills_own_eye(board: &Board, color: Color, m: u16) -> bool {
    let mut head = None;
    for a in board.neighbours_of(m) {
        if !board.on_board_at(a) {
            continue;
        }
        if board.stone_at(a) != Some(color) {
            return false;
        }
        let h = board.head_at(a);
        if head.is_some_and(|x| x != h) {
            return false;
        }
        head = Some(h);
    }
    true
}

/// Whether the chain holding the stone `key` has two true eyes among its liberties: empty
/// points whose every on-board neighbour is a stone of its colour, either all of the chain
/// itself or with the diagonals too few for the opponent to make the eye false.
fn two_true_eyes(board: &Board, key: u16) -> bool {
    let Some(color) = board.stone_at(key) else { return false };
    let head = board.head_at(key);
    let mut eyes = 0;
    let mut libs = [0u16; 8];
    let got = board.some_liberties_at(key, &mut libs);
    // A point whose every neighbour is a stone of the main chain is an eye no move can make
    // false; two of them make the chain unconditionally alive (Benson). An eye between chains
    // of the group counts when its diagonals do not make it false.
    for &l in &libs[..got] {
        let own = board
            .neighbours_of(l)
            .iter()
            .all(|&a| !board.on_board_at(a) || board.stone_at(a) == Some(color));
        if !own {
            continue;
        }
        let one_chain = board
            .neighbours_of(l)
            .iter()
            .all(|&a| !board.on_board_at(a) || board.head_at(a) == head);
        if one_chain || !false_by_diagonals(board, l, color) {
            eyes += 1;
            if eyes >= 2 {
                return true;
            }
        }
    }
    false
}

/// Whether the eye point `l` of `color`, its neighbours in different chains, is false by its
/// diagonals: two of them held by the opponent in the middle of the board, one on the edge.
fn false_by_diagonals(board: &Board, l: u16, color: Color) -> bool {
    let [up, _, _, down] = board.neighbours_of(l);
    let mut enemy = 0;
    let mut off = 0;
    for d in [up - 1, up + 1, down - 1, down + 1] {
        if d as usize >= board.loc_count() || !board.on_board_at(d) {
            off += 1;
        } else if board.stone_at(d) == Some(color.opponent()) {
            enemy += 1;
        }
    }
    if off > 0 { enemy > 0 } else { enemy >= 2 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    /// The search for the group on `(x, y)` of `diagram`, with moves on every point of the
    /// diagram marked `.` or holding a stone of the other colour inside the first `columns`
    /// columns (the group's area in these diagrams).
    fn verdict(diagram: &str, x: u8, y: u8, columns: u8, first: Color) -> Verdict {
        let board = Board::from_diagram(diagram).expect("diagram");
        let key = board.loc(Point::new(x, y)).unwrap();
        let color = board.stone_at(key).unwrap();
        let arena: Vec<u16> = board
            .size()
            .points()
            .filter(|p| p.x < columns && board.get(*p) != Some(color))
            .map(|p| board.loc(p).unwrap())
            .collect();
        LifeSearch::new(&board, key, arena).unwrap().lives(first)
    }

    #[test]
    fn two_eyes_live_whoever_moves() {
        let group = "
            . X . X O .
            X X X X O .
            O O O O O .
            . . . . . .";
        assert_eq!(verdict(group, 1, 1, 4, Color::White), Some(true));
        assert_eq!(verdict(group, 1, 1, 4, Color::Black), Some(true));
    }

    #[test]
    fn a_straight_three_lives_only_with_the_first_move() {
        let group = "
            . . . X O .
            X X X X O .
            O O O O O .
            . . . . . .";
        // White first plays the middle point and kills; Black first makes two eyes there.
        assert_eq!(verdict(group, 1, 1, 3, Color::White), Some(false));
        assert_eq!(verdict(group, 1, 1, 3, Color::Black), Some(true));
    }

    #[test]
    fn a_straight_four_on_the_edge_lives_with_white_first() {
        let group = "
            . . . . X O
            X X X X X O
            O O O O O O
            . . . . . .";
        assert_eq!(verdict(group, 1, 1, 4, Color::White), Some(true));
    }

    #[test]
    fn a_kill_by_an_enclosure_without_space_of_its_own_is_a_seki() {
        // White's three stones on the edge share B19 and B17 with Black's enclosing chain, whose
        // one other liberty, E19, touches White's wall: Black filling B19 and B17 runs out of
        // liberties as White fills E19, and Black's chain has no eye of its own, so neither side
        // can approach (a seki of three chains with White's wall): the group lives.
        let seki = "
            O . X X . O
            O X X O O O
            O . X O . .
            X X X O . .
            O O O O . .";
        assert_eq!(verdict(seki, 0, 0, 3, Color::Black), Some(true));
    }

    #[test]
    fn a_kill_by_an_enclosure_with_space_of_its_own_stands() {
        // The same three White stones, but Black's enclosing chain has E19 and F19 of its own
        // outside the area: Black plays B19 and captures at B17.
        let dead = "
            O . X X . .
            O X X X X X
            O . X O O O
            X X X O . .
            O O O O . .";
        assert_eq!(verdict(dead, 0, 0, 3, Color::Black), Some(false));
    }

    #[test]
    fn only_a_point_every_neighbour_of_which_is_one_own_chain_is_an_own_eye() {
        let board = Board::from_diagram(
            "
            . X . X O .
            X X X X O .
            . X O O O .
            X O . . . .",
        )
        .expect("diagram");
        let at = |x, y| board.loc(Point::new(x, y)).unwrap();
        // A19 and C19: every neighbour is Black's one chain.
        assert!(fills_own_eye(&board, Color::Black, at(0, 0)));
        assert!(fills_own_eye(&board, Color::Black, at(2, 0)));
        // White may play neither as an eye of its own.
        assert!(!fills_own_eye(&board, Color::White, at(0, 0)));
        // A17 touches Black's two chains: filling it joins them, which may save one.
        assert!(!fills_own_eye(&board, Color::Black, at(0, 2)));
        // An open point is no eye.
        assert!(!fills_own_eye(&board, Color::White, at(5, 0)));
    }

    #[test]
    fn a_stone_inside_a_rectangular_six_without_outside_liberties_kills() {
        // Black's corner group has no liberty outside its eye space, and White already has a
        // stone in the middle of the rectangle.
        let group = "
            . . . X O .
            . O . X O .
            X X X X O .
            O O O O O .";
        assert_eq!(verdict(group, 0, 2, 3, Color::White), Some(false));
    }
}
