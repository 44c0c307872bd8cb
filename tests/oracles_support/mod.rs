//! Helpers shared by the oracle tests: other projects' test cases translated into kifu's terms.
//!
//! The conventions of the sources differ from kifu's, and every translation goes through here:
//! - KataGo (`cpp/tests/*.cpp`) writes boards as rows of `x`/`o`/`.` from the top and moves as
//!   `Location::getLoc(x, y)` with `y` counted from the top, 0-based: exactly kifu's
//!   [`Point::new`]`(x, y)` and [`Board::from_diagram`].
//! - KataGo's `printIllegalMoves` lists, in reading order, the empty points that are illegal
//!   for reasons other than suicide (the simple-ko point and superko bans), as `(x,y)`.
//! - KataGo never allows a single-stone suicide; its `multiStoneSuicideLegal` is kifu's
//!   [`SuicideRule::MultiStoneAllowed`].
//! - KataGo scores White minus Black; kifu's margins are Black minus White.

#![allow(dead_code)] // each oracle test file uses a different part

use std::path::PathBuf;

use kifu::rules::score::{CountInput, Position, count};
use kifu::rules::{
    Board, Color, Game, Illegal, KoRule, Move, Point, Ruleset, Scoring, SuicideRule, preset,
};

/// A board from a KataGo-style diagram (`x`, `o`, `.` rows from the top).
#[track_caller]
pub fn board(rows: &str) -> Board {
    Board::from_diagram(rows).unwrap_or_else(|e| panic!("{e}"))
}

/// A ruleset with the given ko, suicide and scoring rules on top of the Chinese preset (area,
/// no tax, dead stones removed), komi `komi`.
pub fn rules(ko: KoRule, suicide: SuicideRule, scoring: Scoring, komi: f64) -> Ruleset {
    Ruleset { ko, suicide, scoring, komi, ..preset("chinese").expect("chinese exists").ruleset }
}

/// KataGo's `multiStoneSuicideLegal` flag as kifu's suicide rule.
pub fn katago_suicide(multi_stone_suicide_legal: bool) -> SuicideRule {
    if multi_stone_suicide_legal { SuicideRule::MultiStoneAllowed } else { SuicideRule::Forbidden }
}

/// A move on KataGo's `(x, y)`.
pub fn at(x: u8, y: u8) -> Move {
    Move::Play(Point::new(x, y))
}

/// KataGo's `printIllegalMoves` for `color`: the empty points, in reading order, that `color`
/// may not play although the move would not be a suicide the rules forbid.
pub fn illegal_points(game: &Game, color: Color) -> Vec<(u8, u8)> {
    let board = game.board();
    let suicide = game.ruleset().suicide;
    board
        .empty_points()
        .filter(|&p| board.check(color, p, suicide) != Err(Illegal::Suicide))
        .filter(|&p| !game.is_legal(color, Move::Play(p)))
        .map(|p| (p.x, p.y))
        .collect()
}

/// Number of legal moves for `color`, the pass included (KataGo's `numLegal`).
pub fn legal_move_count(game: &Game, color: Color) -> usize {
    let size = game.board().size();
    size.points().filter(|&p| game.is_legal(color, Move::Play(p))).count()
        + usize::from(game.is_legal(color, Move::Pass))
}

/// The stones of a board, row by row from the top left, as the counting API takes them.
pub fn stones(board: &Board) -> Vec<Option<Color>> {
    board.size().points().map(|p| board.get(p)).collect()
}

/// Counts `board` under `ruleset` with every stone alive (or the stones flagged in `dead`),
/// prisoners as the board kept them, no passes and no handicap; returns Black minus White with
/// the ruleset's komi.
pub fn margin(board: &Board, ruleset: &Ruleset, dead: Option<&[bool]>) -> f64 {
    let stones = stones(board);
    let none = vec![false; stones.len()];
    let input = CountInput {
        position: Position { size: board.size(), stones: &stones, dead: dead.unwrap_or(&none) },
        captured_by: [board.prisoners(Color::Black), board.prisoners(Color::White)],
        passes: [0, 0],
        handicap: 0,
        komi: ruleset.komi,
    };
    count(ruleset, &input).margin
}

/// A file under `corpus/cases/oracles/`.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/cases/oracles").join(rel)
}

/// Reads a file under `corpus/cases/oracles/`.
#[track_caller]
pub fn read_fixture(rel: &str) -> String {
    let path = fixture(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The shared corpus (`KIFU_SHARED_CORPUS`, else `../shared/corpus` or `../../shared/corpus`
/// from the repository), or `None` with a message when it is absent.
pub fn shared_corpus() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = std::env::var_os("KIFU_SHARED_CORPUS")
        .map(PathBuf::from)
        .into_iter()
        .chain([manifest.join("../shared/corpus"), manifest.join("../../shared/corpus")]);
    for dir in candidates {
        if dir.is_dir() {
            return Some(dir);
        }
    }
    eprintln!("skipped: the shared corpus is absent (set KIFU_SHARED_CORPUS to run this test)");
    None
}
