//! The vocabulary every layer shares: colours, points, board sizes and moves.
//!
//! Coordinates follow SGF's orientation so that no layer has to flip them: `x` is the column
//! counted from the left, `y` the row counted from the top, both from 0. A [`Point`] may lie
//! outside a board (records contain `B[zz]` on 19x19); the board and the game decide what that
//! means (an `off-board` violation), not the type.

use std::fmt;

/// A player's colour, and the colour of a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black, who moves first in an even game.
    Black,
    /// White.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `B` or `W`, as SGF writes the colour.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// The width and height of a board, each from 1 to [`BoardSize::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    /// Number of columns.
    pub width: u8,
    /// Number of rows.
    pub height: u8,
}

impl BoardSize {
    /// The largest side SGF can address: `a..z` then `A..Z`.
    pub const MAX: u8 = 52;

    /// The standard 19x19 board, which SGF assumes when `SZ` is absent.
    pub const STANDARD: BoardSize = BoardSize { width: 19, height: 19 };

    /// A square board of side `n`, or `None` when `n` is outside `1..=52`.
    pub fn square(n: u8) -> Option<BoardSize> {
        BoardSize::new(n, n)
    }

    /// A board `width` columns wide and `height` rows high, or `None` when a side is outside
    /// `1..=52`.
    pub fn new(width: u8, height: u8) -> Option<BoardSize> {
        let ok = |n: u8| (1..=Self::MAX).contains(&n);
        (ok(width) && ok(height)).then_some(BoardSize { width, height })
    }

    /// Whether both sides are equal.
    pub fn is_square(self) -> bool {
        self.width == self.height
    }

    /// Number of points on the board.
    pub fn area(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether `p` lies on this board.
    #[inline(always)]
    pub fn contains(self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// Every point of the board, row by row from the top left.
    pub fn points(self) -> impl Iterator<Item = Point> {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Point { x, y }))
    }
}

impl fmt::Display for BoardSize {
    /// `19` for a square board, `19x13` (width x height) for a rectangular one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_square() {
            write!(f, "{}", self.width)
        } else {
            write!(f, "{}x{}", self.width, self.height)
        }
    }
}

/// An intersection, by column `x` from the left and row `y` from the top, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0 = leftmost.
    pub x: u8,
    /// Row, 0 = top.
    pub y: u8,
}

impl Point {
    /// The point at column `x`, row `y`.
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// The two SGF letters of this point (`aa` is the top left), or `None` past 52.
    pub fn sgf(self) -> Option<String> {
        Some([sgf_letter(self.x)?, sgf_letter(self.y)?].iter().collect())
    }

    /// Reads two SGF letters (`a..z` = 0..25, `A..Z` = 26..51). Anything else is `None`.
    pub fn from_sgf(s: &[u8]) -> Option<Point> {
        match s {
            [a, b] => Some(Point { x: sgf_value(*a)?, y: sgf_value(*b)? }),
            _ => None,
        }
    }

    /// The point in the traditional notation for a board of `height` rows: column letters
    /// `A..T` skipping `I` (then continuing after `Z` with `a`, `b`, ...) and rows counted from
    /// the bottom, e.g. `Q16`. Used in human-readable messages.
    pub fn display(self, height: u8) -> PointDisplay {
        PointDisplay { point: self, height }
    }
}

/// A point written for people: see [`Point::display`].
pub struct PointDisplay {
    point: Point,
    height: u8,
}

impl fmt::Display for PointDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Point { x, y } = self.point;
        if y >= self.height {
            // Off the board: the SGF letters are the only honest name.
            return match self.point.sgf() {
                Some(s) => write!(f, "[{s}]"),
                None => write!(f, "({x},{y})"),
            };
        }
        const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        match COLUMNS.get(x as usize) {
            Some(&c) => write!(f, "{}{}", c as char, self.height - y),
            None => write!(f, "({x},{y})"),
        }
    }
}

fn sgf_letter(n: u8) -> Option<char> {
    match n {
        0..=25 => Some((b'a' + n) as char),
        26..=51 => Some((b'A' + n - 26) as char),
        _ => None,
    }
}

fn sgf_value(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// What a player does on a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a stone on a point (which may be off the board in a damaged record).
    Play(Point),
    /// Pass.
    Pass,
}

impl Move {
    /// The point played, if not a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_letters_round_trip_to_52() {
        for x in 0..52 {
            let p = Point::new(x, 51 - x);
            assert_eq!(Point::from_sgf(p.sgf().unwrap().as_bytes()), Some(p));
        }
        assert_eq!(Point::new(52, 0).sgf(), None);
        assert_eq!(Point::from_sgf(b"a"), None);
        assert_eq!(Point::from_sgf(b"a1"), None);
    }

    #[test]
    fn human_names_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(Point::new(0, 18).display(19).to_string(), "A1");
        assert_eq!(Point::new(8, 0).display(19).to_string(), "J19");
        assert_eq!(Point::new(15, 3).display(19).to_string(), "Q16");
        assert_eq!(Point::new(25, 25).display(19).to_string(), "[zz]");
    }

    #[test]
    fn sizes_are_checked_and_printed_as_the_csv_wants() {
        assert_eq!(BoardSize::square(0), None);
        assert_eq!(BoardSize::square(53), None);
        assert_eq!(BoardSize::new(19, 13).unwrap().to_string(), "19x13");
        assert_eq!(BoardSize::STANDARD.to_string(), "19");
        assert_eq!(BoardSize::new(3, 2).unwrap().points().count(), 6);
    }
}
