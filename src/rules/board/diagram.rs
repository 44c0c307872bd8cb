//! Boards as text: reading a diagram (`X`, `O`, `.` rows) and printing one with coordinates.
//! Tests write positions this way, and `kifu show` prints them.

use std::fmt;

use super::{Board, code};
use crate::rules::point::{BoardSize, Color, Point};

impl Board {
    /// Reads a diagram: one line per row from the top, `X` (or `x`, `B`, `#`, `@`) for Black,
    /// `O` (or `o`, `W`) for White, `.`, `+` or `,` for empty points; spaces are ignored. The
    /// output of `Display` reads back: a header line of column letters (starting with `A`) is
    /// skipped, and row numbers at either end of a line are ignored. Stones without liberties
    /// are kept, as SGF setup keeps them.
    pub fn from_diagram(diagram: &str) -> Result<Board, DiagramError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for (index, line) in diagram.lines().enumerate() {
            let text = line.trim().trim_matches(|c: char| c.is_ascii_digit()).trim();
            if text.is_empty() || text.starts_with('A') {
                continue;
            }
            let mut row = Vec::new();
            for c in text.chars().filter(|c| !c.is_whitespace()) {
                row.push(match c {
                    'X' | 'x' | 'B' | '#' | '@' => Some(Color::Black),
                    'O' | 'o' | 'W' => Some(Color::White),
                    '.' | '+' | ',' => None,
                    _ => {
                        return Err(DiagramError {
                            line: index + 1,
                            reason: format!("unexpected character {c:?}"),
                        });
                    }
                });
            }
            if let Some(first) = rows.first()
                && first.len() != row.len()
            {
                return Err(DiagramError {
                    line: index + 1,
                    reason: format!("{} points where the first row has {}", row.len(), first.len()),
                });
            }
            rows.push(row);
        }
        let width = rows.first().map_or(0, Vec::len);
        let size = u8::try_from(width)
            .ok()
            .zip(u8::try_from(rows.len()).ok())
            .and_then(|(w, h)| BoardSize::new(w, h))
            .ok_or_else(|| DiagramError {
                line: 0,
                reason: format!("{width}x{} is not a board size (1 to 52)", rows.len()),
            })?;
        let mut board = Board::new(size);
        for (y, row) in rows.iter().enumerate() {
            for (x, &stone) in row.iter().enumerate() {
                if let Some(color) = stone {
                    let l = board.loc(Point::new(x as u8, y as u8)).expect("inside the diagram");
                    board.cells[l].color = code(color);
                }
            }
        }
        board.rebuild_chains();
        Ok(board)
    }
}

/// A diagram that [`Board::from_diagram`] could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramError {
    /// 1-based line of the diagram (0 when the diagram as a whole is wrong).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "diagram line {}: {}", self.line, self.reason)
        } else {
            write!(f, "diagram: {}", self.reason)
        }
    }
}

impl std::error::Error for DiagramError {}

impl fmt::Display for Board {
    /// A diagram with coordinates: column letters as in [`Point::display`] above and below,
    /// row numbers counted from the bottom on both sides, `X` Black, `O` White, `.` empty.
    /// [`Board::from_diagram`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_diagram(f, self.size, |p| match self.get(p) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '.',
        })
    }
}

/// Writes a diagram of a board of `size` in [`Board`]'s display layout (column letters above
/// and below, row numbers from the bottom on both sides), with `symbol` giving each point's
/// character: the board itself, or a view of it such as a count.
pub fn write_diagram(
    f: &mut impl fmt::Write,
    size: BoardSize,
    symbol: impl Fn(Point) -> char,
) -> fmt::Result {
    let height = size.height;
    let number_width = height.to_string().len();
    let header = {
        let mut line = " ".repeat(number_width);
        for x in 0..size.width {
            let name = Point::new(x, 0).display(height).to_string();
            line.push(' ');
            line.extend(name.chars().take_while(|c| c.is_alphabetic()));
        }
        line
    };
    writeln!(f, "{header}")?;
    for y in 0..height {
        let number = height - y;
        write!(f, "{number:>number_width$}")?;
        for x in 0..size.width {
            write!(f, " {}", symbol(Point::new(x, y)))?;
        }
        writeln!(f, " {number}")?;
    }
    writeln!(f, "{header}")
}
