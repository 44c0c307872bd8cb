//! Helpers shared by the rules tests: human point names and board comparisons on diagrams.

#![allow(dead_code)] // each test file uses a different subset

use kifu::rules::{Board, Point};

/// The point named in traditional notation (`C3`: column C, third row from the bottom; `I`
/// is skipped) on a board of `height` rows.
pub fn at(height: u8, name: &str) -> Point {
    const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let mut chars = name.chars();
    let column = chars.next().expect("a column letter");
    let x = COLUMNS.find(column).unwrap_or_else(|| panic!("bad column in {name}")) as u8;
    let row: u8 = chars.as_str().parse().unwrap_or_else(|_| panic!("bad row in {name}"));
    assert!(row >= 1 && row <= height, "row of {name} outside a board of {height} rows");
    Point::new(x, height - row)
}

/// A board read from a diagram (panics with the reason on a bad diagram).
pub fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram).unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts that `board` holds exactly the stones of `diagram`, printing both if not, and that
/// its incremental state agrees with a recomputation from scratch.
#[track_caller]
pub fn assert_stones(board: &Board, diagram: &str) {
    let want = Board::from_diagram(diagram).unwrap_or_else(|e| panic!("{e}"));
    assert!(board.same_stones(&want), "board\n{board}differs from the expected\n{want}");
    assert_eq!(board.hash(), want.hash(), "same stones, different hash");
    board.check_consistency().unwrap_or_else(|e| panic!("inconsistent board: {e}\n{board}"));
}
