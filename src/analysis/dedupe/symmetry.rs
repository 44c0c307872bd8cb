//! The symmetries of a Go board: eight on a square board (the dihedral group of the square),
//! four on a rectangular one (those that keep its width and height).
//!
//! The same game is often stored rotated or mirrored: one source records it from Black's side,
//! another from White's, a third flips it so that the first move is in the upper right.
//! Coordinates are SGF's: `x` the column from the left, `y` the row from the top, so "rotate
//! 90" turns the board a quarter clockwise as it is drawn on screen.

use crate::rules::{BoardSize, Point};

/// One symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Symmetry {
    /// Every point stays where it is.
    Identity,
    /// A quarter turn clockwise: the top row becomes the right column.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise: the top row becomes the left column.
    Rotate270,
    /// A mirror through the vertical axis: left and right change places.
    MirrorLeftRight,
    /// A mirror through the horizontal axis: top and bottom change places.
    MirrorTopBottom,
    /// A mirror through the diagonal from the upper left to the lower right: `(x, y)` becomes
    /// `(y, x)`.
    Transpose,
    /// A mirror through the diagonal from the upper right to the lower left.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first. Their index in this table is their bit in a
    /// [`SymmetrySet`].
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorLeftRight,
        Symmetry::MirrorTopBottom,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The name written to the reports: `identity`, `rotate-90`, `rotate-180`, `rotate-270`,
    /// `mirror-left-right`, `mirror-top-bottom`, `transpose`, `anti-transpose`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate-90",
            Symmetry::Rotate180 => "rotate-180",
            Symmetry::Rotate270 => "rotate-270",
            Symmetry::MirrorLeftRight => "mirror-left-right",
            Symmetry::MirrorTopBottom => "mirror-top-bottom",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }

    /// The position in [`Symmetry::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether it maps a `width` x `height` board onto itself when width and height differ:
    /// the four that do not exchange rows and columns.
    pub fn keeps_rectangles(self) -> bool {
        matches!(
            self,
            Symmetry::Identity
                | Symmetry::Rotate180
                | Symmetry::MirrorLeftRight
                | Symmetry::MirrorTopBottom
        )
    }

    /// The symmetries of a board of this size: all eight when it is square, four otherwise.
    pub fn of(size: BoardSize) -> SymmetrySet {
        let mut set = SymmetrySet::EMPTY;
        for s in Symmetry::ALL {
            if size.is_square() || s.keeps_rectangles() {
                set.insert(s);
            }
        }
        set
    }

    /// Where `p` goes on a board of `size`. A point off the board (kept by the record layer for
    /// the replay to report) stays where it is.
    pub fn apply(self, p: Point, size: BoardSize) -> Point {
        if !size.contains(p) {
            return p;
        }
        let (w, h) = (size.width - 1, size.height - 1);
        let (x, y) = (p.x, p.y);
        let (x, y) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (h - y, x),
            Symmetry::Rotate180 => (w - x, h - y),
            Symmetry::Rotate270 => (y, w - x),
            Symmetry::MirrorLeftRight => (w - x, y),
            Symmetry::MirrorTopBottom => (x, h - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (h - y, w - x),
        };
        Point::new(x, y)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// This symmetry followed by `next`.
    pub fn then(self, next: Symmetry) -> Symmetry {
        // A point whose eight images on a 19x19 board all differ names the composition.
        let size = BoardSize::STANDARD;
        let probe = Point::new(1, 2);
        let target = next.apply(self.apply(probe, size), size);
        Symmetry::ALL
            .into_iter()
            .find(|s| s.apply(probe, size) == target)
            .unwrap_or(Symmetry::Identity)
    }
}

/// A set of symmetries, as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SymmetrySet(u8);

impl SymmetrySet {
    /// No symmetry.
    pub const EMPTY: SymmetrySet = SymmetrySet(0);

    /// Adds one.
    pub fn insert(&mut self, s: Symmetry) {
        self.0 |= 1 << s.index();
    }

    /// Whether `s` is in the set.
    pub fn contains(self, s: Symmetry) -> bool {
        self.0 & (1 << s.index()) != 0
    }

    /// The symmetries in both sets.
    pub fn intersection(self, other: SymmetrySet) -> SymmetrySet {
        SymmetrySet(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members, in the order of [`Symmetry::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL.into_iter().filter(move |s| self.contains(*s))
    }

    /// The first member in the order of [`Symmetry::ALL`] (the identity when present).
    pub fn first(self) -> Option<Symmetry> {
        self.iter().next()
    }

    /// Number of members.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board drawn as rows of text, `X` where the points are.
    fn draw(size: BoardSize, points: &[Point]) -> String {
        let mut rows = Vec::new();
        for y in 0..size.height {
            let row: String = (0..size.width)
                .map(|x| if points.contains(&Point::new(x, y)) { 'X' } else { '.' })
                .collect();
            rows.push(row);
        }
        rows.join("\n")
    }

    /// An L-shaped mark in the upper left, which no symmetry leaves unchanged.
    fn mark() -> Vec<Point> {
        vec![Point::new(0, 0), Point::new(0, 1), Point::new(0, 2), Point::new(1, 2)]
    }

    fn moved(s: Symmetry, size: BoardSize) -> String {
        let points: Vec<Point> = mark().into_iter().map(|p| s.apply(p, size)).collect();
        draw(size, &points)
    }

    #[test]
    fn each_symmetry_moves_a_mark_as_its_name_says() {
        let size = BoardSize::square(4).unwrap();
        let cases = [
            (Symmetry::Identity, "X...\nX...\nXX..\n...."),
            (Symmetry::Rotate90, ".XXX\n.X..\n....\n...."),
            (Symmetry::Rotate180, "....\n..XX\n...X\n...X"),
            (Symmetry::Rotate270, "....\n....\n..X.\nXXX."),
            (Symmetry::MirrorLeftRight, "...X\n...X\n..XX\n...."),
            (Symmetry::MirrorTopBottom, "....\nXX..\nX...\nX..."),
            (Symmetry::Transpose, "XXX.\n..X.\n....\n...."),
            (Symmetry::AntiTranspose, "....\n....\n.X..\n.XXX"),
        ];
        for (s, expected) in cases {
            assert_eq!(moved(s, size), expected, "{}", s.name());
        }
    }

    #[test]
    fn rectangular_boards_have_four_symmetries_that_keep_their_shape() {
        let size = BoardSize::new(5, 3).unwrap();
        let set = Symmetry::of(size);
        assert_eq!(set.len(), 4);
        assert_eq!(moved(Symmetry::Rotate180, size), "...XX\n....X\n....X");
        assert_eq!(moved(Symmetry::MirrorTopBottom, size), "XX...\nX....\nX....");
        for s in set.iter() {
            for p in size.points() {
                assert!(size.contains(s.apply(p, size)), "{} leaves the board", s.name());
            }
        }
        assert_eq!(Symmetry::of(BoardSize::STANDARD).len(), 8);
    }

    #[test]
    fn the_eight_form_a_group() {
        let size = BoardSize::square(9).unwrap();
        for a in Symmetry::ALL {
            assert_eq!(a.then(a.inverse()), Symmetry::Identity, "{}", a.name());
            for b in Symmetry::ALL {
                let ab = a.then(b);
                for p in size.points() {
                    assert_eq!(ab.apply(p, size), b.apply(a.apply(p, size), size));
                }
            }
        }
    }

    #[test]
    fn off_board_points_stay_put() {
        let size = BoardSize::square(9).unwrap();
        assert_eq!(Symmetry::Rotate90.apply(Point::new(9, 3), size), Point::new(9, 3));
    }
}
