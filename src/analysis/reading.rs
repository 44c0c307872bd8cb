//! Tactical reading: whether a chain short of liberties can be captured, and whether its owner
//! can save it, found by searching the forcing moves (ataris, escapes, counter-captures) the way
//! a player reads a ladder.
//!
//! Finishing a game that its players stopped early needs this at every step: a move is only
//! worth playing if its stones cannot simply be taken, and once the last neutral points are
//! filled a player must add a protective move wherever the opponent could otherwise capture
//! something (the teire that Japanese counting charges for). GNU Go's `attack`/`find_defense`
//! answer the same questions with far more knowledge; this reader covers what an ending needs:
//! - a chain in atari is captured unless its owner can extend to safety or capture a
//!   neighbouring chain in atari (snapbacks and ladders fall out of the recursion);
//! - a chain with two liberties is captured when some atari on it cannot be escaped;
//! - a chain with three liberties or more is taken as safe.
//!
//! Every query has a budget of nodes; a search that runs out answers "not capturable", so a
//! doubtful case never invents a capture. The search is deterministic: candidate moves are
//! tried in board order.

use crate::rules::{Board, Color, SuicideRule};

/// Nodes one top-level query may visit. Ladders take two nodes a step; the longest ladder on a
/// 19x19 board is about 40 steps.
const BUDGET: u32 = 400;

/// Plies a search may go down (a ladder across the board, with room for a counter-capture).
const MAX_DEPTH: usize = 100;

/// A reader with its scratch boards, reused from query to query (a [`Stack`]).
pub(crate) struct Reader {
    stack: Stack,
    used: u32,
}

impl Reader {
    /// A reader with no scratch boards yet.
    pub(crate) fn new() -> Reader {
        Reader { stack: Stack::new(), used: 0 }
    }

    /// The move with which the opponent of the chain on the stone location `target`, moving
    /// first, captures it, if the reader finds one.
    pub(crate) fn capture_move(&mut self, board: &Board, target: u16) -> Option<u16> {
        let attacker = board.stone_at(target)?.opponent();
        self.start();
        self.attack(board, 0, target, attacker)
    }

    /// Whether the opponent, moving first, can capture the chain on `target`.
    pub(crate) fn capturable(&mut self, board: &Board, target: u16) -> bool {
        self.capture_move(board, target).is_some()
    }

    /// A move of the chain's owner after which the chain on `target` cannot be captured, if
    /// there is one (check [`Reader::capturable`] first: a chain under no attack needs none).
    pub(crate) fn rescue_move(&mut self, board: &Board, target: u16) -> Option<u16> {
        let owner = board.stone_at(target)?;
        self.start();
        let candidates = rescue_candidates(board, target);
        candidates.as_slice().iter().copied().find(|&m| self.saves(board, 0, target, owner, m))
    }

    /// Every move of the chain's owner after which the chain on `target` cannot be captured.
    pub(crate) fn rescue_moves(&mut self, board: &Board, target: u16) -> Vec<u16> {
        let Some(owner) = board.stone_at(target) else { return Vec::new() };
        self.start();
        let candidates = rescue_candidates(board, target);
        let mut saving = Vec::new();
        for &m in candidates.as_slice() {
            // Each candidate gets the whole budget.
            self.used = 0;
            if self.saves(board, 0, target, owner, m) {
                saving.push(m);
            }
        }
        saving
    }

    /// Starts a query on a position: nothing read yet, and no board made from an earlier
    /// query's position is one of this one's.
    fn start(&mut self) {
        self.used = 0;
        self.stack.start();
    }

    /// Counts a node; `true` when the search must stop.
    fn spent(&mut self, depth: usize) -> bool {
        self.used += 1;
        self.used > BUDGET || depth + 1 >= MAX_DEPTH
    }

    /// The position `depth` plies below `root`, the position the query is about.
    fn at<'a>(&'a self, root: &'a Board, depth: usize) -> &'a Board {
        self.stack.at(root, depth)
    }

    /// Plays `color` on `m` in a copy of the position at `depth`, as the position at `depth + 1`.
    fn play_child(&mut self, root: &Board, depth: usize, color: Color, m: u16) {
        self.stack.play(root, depth, Ply::Move(color, m));
    }

    /// At `depth`, `owner` to move: whether playing `m` leaves the chain on `target` safe.
    fn saves(&mut self, root: &Board, depth: usize, target: u16, owner: Color, m: u16) -> bool {
        let board = self.at(root, depth);
        if !legal(board, owner, m) {
            return false;
        }
        if let Some(safe) = safe_by_bounds(board, target, owner, m) {
            return safe;
        }
        self.play_child(root, depth, owner, m);
        let child = self.at(root, depth + 1);
        if child.stone_at(target) != Some(owner) {
            return false;
        }
        match child.libs_at(target) {
            0 | 1 => false,
            2 => self.attack(root, depth + 1, target, owner.opponent()).is_none(),
            _ => true,
        }
    }

    /// At `depth`, `attacker` to move: a move capturing the chain on `target`, if found.
    fn attack(&mut self, root: &Board, depth: usize, target: u16, attacker: Color) -> Option<u16> {
        if self.spent(depth) {
            return None;
        }
        let board = self.at(root, depth);
        let mut libs = [0u16; 2];
        match board.libs_at(target) {
            1 => {
                board.first_liberties_at(target, &mut libs[..1]);
                return legal(board, attacker, libs[0]).then_some(libs[0]);
            }
            2 => {
                board.first_liberties_at(target, &mut libs);
            }
            _ => return None,
        }
        for m in libs {
            if !legal(self.at(root, depth), attacker, m) {
                continue;
            }
            self.play_child(root, depth, attacker, m);
            let child = self.at(root, depth + 1);
            if child.stone_at(target).is_none() {
                return Some(m);
            }
            if child.libs_at(target) == 1 && !self.escape(root, depth + 1, target) {
                return Some(m);
            }
        }
        None
    }

    /// At `depth`, the owner of the chain on `target` (in atari) to move: whether it escapes.
    fn escape(&mut self, root: &Board, depth: usize, target: u16) -> bool {
        if self.spent(depth) {
            // Out of budget: assume it escapes, so that no capture is invented.
            return true;
        }
        let board = self.at(root, depth);
        let Some(owner) = board.stone_at(target) else { return false };
        let candidates = rescue_candidates(board, target);
        candidates.as_slice().iter().any(|&m| self.saves(root, depth, target, owner, m))
    }
}

/// The scratch positions of a search below the position it is about (its root): the position
/// `depth` plies down is `below[depth - 1]`, kept from search to search, so a search allocates
/// nothing once it has been as deep before and copies no board but those its plies make; and
/// of those, when the board there holds a sibling of the new position (the position above it
/// after another ply), it copies only what that ply changed ([`Made::remake`]).
pub(crate) struct Stack {
    below: Vec<Board>,
    /// How each board of `below` was made.
    made: Vec<Made>,
    /// The versions of the root and of the boards made.
    versions: Versions,
    /// The version of the root.
    root_version: u64,
}

impl Stack {
    /// A stack with no boards yet, for a root at version 0.
    pub(crate) fn new() -> Stack {
        Stack {
            below: Vec::new(),
            made: Vec::new(),
            versions: Versions::default(),
            root_version: 0,
        }
    }

    /// Starts on a new root: no board made from the last one is one of this one's.
    pub(crate) fn start(&mut self) {
        self.root_version = self.versions.next();
    }

    /// The position `depth` plies below `root`.
    pub(crate) fn at<'a>(&'a self, root: &'a Board, depth: usize) -> &'a Board {
        if depth == 0 { root } else { &self.below[depth - 1] }
    }

    /// Makes the position `depth + 1` plies below `root` the one at `depth` after `ply`.
    pub(crate) fn play(&mut self, root: &Board, depth: usize, ply: Ply) {
        let parent_version =
            if depth == 0 { self.root_version } else { self.made[depth - 1].version };
        let version = self.versions.next();
        let (parents, children) = self.below.split_at_mut(depth);
        let parent = if depth == 0 { root } else { &parents[depth - 1] };
        match children.first_mut() {
            Some(child) => {
                let made = &mut self.made[depth];
                *made = made.remake(child, parent, parent_version, ply, version);
            }
            None => {
                let mut child = parent.clone();
                ply.play_on(&mut child);
                self.below.push(child);
                self.made.push(Made { parent: parent_version, ply, version });
            }
        }
    }
}

/// Versions of the positions of a search's stack: a board gets a new one whenever a ply is
/// played on it, so a board made from a position knows whether that position is still what it
/// was made from.
#[derive(Default)]
struct Versions(u64);

impl Versions {
    /// A version no position had before.
    fn next(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

/// The ply that made a board of a search's stack from the position above it.
#[derive(Clone, Copy)]
pub(crate) enum Ply {
    /// A legal move (suicide forbidden), played with [`Board::play_empty`].
    Move(Color, u16),
    /// A pass, which clears the ko point.
    Pass,
}

impl Ply {
    /// Plays the ply on `board`.
    fn play_on(self, board: &mut Board) {
        match self {
            Ply::Move(color, m) => {
                board.play_empty(color, m);
            }
            Ply::Pass => board.pass(),
        }
    }
}

/// How a board of a search's stack was made: from the position above it at version `parent`,
/// by `ply`, giving it version `version`.
#[derive(Clone, Copy)]
struct Made {
    parent: u64,
    ply: Ply,
    version: u64,
}

impl Made {
    /// Makes `child`, a board this describes, the position `parent` (at version
    /// `parent_version`) after `ply`, and returns how it was made (version `version`). A
    /// search tries one move after another at a node: when `child` holds `parent` after an
    /// earlier sibling still, that ply is taken back by copying only the cells it changed
    /// ([`Board::take_back_from`]); otherwise the whole board is copied.
    fn remake(
        &self,
        child: &mut Board,
        parent: &Board,
        parent_version: u64,
        ply: Ply,
        version: u64,
    ) -> Made {
        if self.parent != parent_version {
            child.copy_from(parent);
        } else {
            match self.ply {
                Ply::Move(color, m) => child.take_back_from(parent, color, m),
                Ply::Pass => child.set_counters(parent.counters()),
            }
        }
        ply.play_on(child);
        Made { parent: parent_version, ply, version }
    }
}

/// Whether the legal move `m` of `owner` leaves the chain on `target` safe, when bounds on the
/// chain's liberties after the move tell without playing it: `Some(false)` when it has one at
/// most, `Some(true)` when it has three or more (what [`Reader::saves`] answers from the played
/// position then), `None` when it may have exactly two, which needs reading on, or when `m`
/// does not touch the chain. Most moves a search tries are settled here, and a move not played
/// costs no copy of the board.
///
/// The chain after a move touching it is the new stone joined with every friendly chain next
/// to it. Its liberties are at least the neighbours of `m` that are empty or hold stones the
/// move captures (opponent chains whose last liberty is `m`), and at least the other liberties
/// of any one chain joined (they stay liberties); they are at most the other liberties of every
/// chain joined, plus the empty neighbours of `m`, plus every stone captured.
// The chains joined are compared in line: `contains` on a slice of u16 is a call.
#[allow(clippy::manual_contains)]
fn safe_by_bounds(board: &Board, target: u16, owner: Color, m: u16) -> Option<bool> {
    let chain = board.head_at(target);
    let mut joined = [0u16; 4];
    let mut joined_count = 0;
    let mut touches = false;
    let mut lower = 0;
    let mut upper = 0;
    let mut most_kept = 0;
    for a in board.neighbours_of(m) {
        match board.stone_at(a) {
            None => {
                if board.empty_at(a) {
                    lower += 1;
                    upper += 1;
                }
            }
            Some(c) if c == owner => {
                let head = board.head_at(a);
                touches |= head == chain;
                if !joined[..joined_count].iter().any(|&h| h == head) {
                    joined[joined_count] = head;
                    joined_count += 1;
                    // `m` is one of its liberties, and no longer one after the move; its
                    // others stay.
                    let others = board.libs_at(a) - 1;
                    upper += others;
                    most_kept = most_kept.max(others);
                }
            }
            Some(_) => {
                if board.libs_at(a) == 1 {
                    lower += 1;
                    upper += board.chain_len_at(a);
                }
            }
        }
    }
    if !touches {
        return None;
    }
    lower = lower.max(most_kept);
    if upper <= 1 {
        Some(false)
    } else if lower >= 3 {
        Some(true)
    } else {
        None
    }
}

/// Up to eight distinct candidate moves.
#[derive(Default)]
struct Candidates {
    moves: [u16; 8],
    len: usize,
}

impl Candidates {
    // Compared in line: `contains` on a slice of u16 is a call, made thousands of times a game
    // for at most eight moves (measured: 3M instructions on 600 games).
    #[allow(clippy::manual_contains)]
    fn push(&mut self, m: u16) {
        if self.len < self.moves.len() && !self.as_slice().iter().any(|&k| k == m) {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[u16] {
        &self.moves[..self.len]
    }
}

/// Moves that may save the chain on `target`: capturing a neighbouring chain in atari (first:
/// a capture always gains a liberty), then extending at its liberties.
fn rescue_candidates(board: &Board, target: u16) -> Candidates {
    let mut out = Candidates::default();
    if board.stone_at(target).is_none() {
        return out;
    }
    board.for_each_atari_neighbour_liberty(target, |lib| out.push(lib));
    let mut libs = [0u16; 2];
    // Asking for no more liberties than the chain has lets the walk stop at the last one.
    let want = (board.libs_at(target) as usize).min(libs.len());
    let got = board.first_liberties_at(target, &mut libs[..want]);
    for &l in &libs[..got] {
        out.push(l);
    }
    out
}

/// Whether `color` may play on the empty location `m` (suicide forbidden, simple ko).
fn legal(board: &Board, color: Color, m: u16) -> bool {
    board.empty_at(m) && board.check_loc(color, m, SuicideRule::Forbidden).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    impl Reader {
        /// Whether the chain on `target` is lost even with its owner to move.
        fn is_lost(&mut self, board: &Board, target: u16) -> bool {
            self.capturable(board, target) && self.rescue_move(board, target).is_none()
        }
    }

    fn reading(diagram: &str, x: u8, y: u8) -> (Board, u16) {
        let board = Board::from_diagram(diagram).expect("diagram");
        let loc = board.loc(Point::new(x, y)).expect("on the board");
        (board, loc)
    }

    /// The ladder of every textbook: White's stone at (3, 3), Black to atari from below; each
    /// escape leaves two liberties, down and to the right, until the edge.
    const LADDER: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O . . . . .
        . . X . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_ladder_to_the_edge_captures() {
        let (board, white) = reading(LADDER, 3, 3);
        let mut reader = Reader::new();
        assert_eq!(board.libs_at(white), 2);
        let atari = reader.capture_move(&board, white).expect("the ladder works");
        // Only the atari from the right works: from below, White escapes to the right with
        // three liberties.
        assert_eq!(atari, board.loc(Point::new(4, 3)).unwrap());
        // White to move saves the stone by extending first.
        assert!(reader.rescue_move(&board, white).is_some());
        assert!(!reader.is_lost(&board, white));
    }

    #[test]
    fn a_ladder_breaker_on_the_path_saves_the_runner() {
        let broken = LADDER.replace(
            "        . . . . . . . . .\n        . . . . . . . . .\n        . . . . . . . . .\n        . . . . . . . . .",
            "        . . . . . . . . .\n        . . . . . . . . .\n        . . . . . . O . .\n        . . . . . . . . .",
        );
        assert_ne!(broken, LADDER);
        let (board, white) = reading(&broken, 3, 3);
        let mut reader = Reader::new();
        assert_eq!(reader.capture_move(&board, white), None);
    }

    #[test]
    fn a_stone_in_atari_with_room_to_run_is_not_lost() {
        let (board, white) = reading(
            "
            . . . . .
            . . . . .
            . X O X .
            . . X . .
            . . . . .",
            2,
            2,
        );
        let mut reader = Reader::new();
        assert_eq!(board.libs_at(white), 1);
        assert!(reader.capturable(&board, white));
        // Extending upwards gives three liberties.
        assert_eq!(reader.rescue_move(&board, white), board.loc(Point::new(2, 1)));
    }

    #[test]
    fn a_corner_stone_in_atari_is_lost() {
        let (board, white) = reading(
            "
            O X . .
            . . . .
            X . . .
            . . . .",
            0,
            0,
        );
        let mut reader = Reader::new();
        // White's only extension, A2, leaves two liberties that Black takes one by one.
        assert!(reader.is_lost(&board, white));
    }

    #[test]
    fn capturing_the_attacker_is_an_escape() {
        // White's stone at (2, 1) is in atari and cannot extend (that would be suicide), but
        // Black's stone below it is in atari too: taking it saves White.
        let (board, white) = reading(
            "
            . X . X .
            . X O X .
            . O X O .
            . . . . .",
            2,
            1,
        );
        let mut reader = Reader::new();
        assert_eq!(board.libs_at(white), 1);
        assert_eq!(reader.rescue_move(&board, white), board.loc(Point::new(2, 3)));
        assert!(!reader.is_lost(&board, white));
    }

    #[test]
    fn three_liberties_are_safe() {
        let (board, white) = reading(
            "
            . . . . .
            . X O . .
            . . . . .
            . . . . .",
            2,
            1,
        );
        let mut reader = Reader::new();
        assert_eq!(reader.capture_move(&board, white), None);
    }
}
