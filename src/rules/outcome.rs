//! How a game ended: the value both a record's `RE` and a recomputed score turn into.
//!
//! One type serves both sides of the comparison kifu exists for ("does the recorded result
//! hold?"), and it prints in the normalised SGF form the reports use: `B+3.5`, `W+R`, `B+T`,
//! `B+F`, `B+` (winner known, margin not), `0` (draw), `Void` (no result), `?` (unknown).
//! Parsing the many ways records write a result is the record layer's business, not this one's.

use std::fmt;

use super::point::Color;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// A draw (jigo): equal score with integer komi.
    Draw,
    /// No result: a cycle (triple ko, eternal life) under rules without superko, a suspended
    /// game, or both players losing. SGF writes `Void`.
    NoResult,
    /// The result is not known (`?`, unfinished games).
    Unknown,
}

/// How a win came about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WinBy {
    /// By counting, with the margin in points (always positive).
    Points(f64),
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Time,
    /// The loser forfeited (or broke a rule the referee punished).
    Forfeit,
    /// The record names the winner but not how or by how much (`B+`).
    Unspecified,
}

impl Outcome {
    /// A counted result from a margin in points, Black minus White. Zero is a draw.
    pub fn from_margin(black_minus_white: f64) -> Outcome {
        if black_minus_white > 0.0 {
            Outcome::Win { winner: Color::Black, by: WinBy::Points(black_minus_white) }
        } else if black_minus_white < 0.0 {
            Outcome::Win { winner: Color::White, by: WinBy::Points(-black_minus_white) }
        } else {
            Outcome::Draw
        }
    }

    /// The winner, if one side won.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// The margin in points, Black minus White, when the game was counted (draws give 0).
    pub fn margin(self) -> Option<f64> {
        match self {
            Outcome::Win { winner: Color::Black, by: WinBy::Points(m) } => Some(m),
            Outcome::Win { winner: Color::White, by: WinBy::Points(m) } => Some(-m),
            Outcome::Draw => Some(0.0),
            _ => None,
        }
    }

    /// Whether the game was decided by counting (a margin or a draw).
    pub fn is_counted(self) -> bool {
        self.margin().is_some()
    }
}

impl fmt::Display for Outcome {
    /// The normalised SGF form: `B+3.5`, `W+R`, `B+T`, `B+F`, `B+`, `0`, `Void`, `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Win { winner, by } => {
                write!(f, "{}+", winner.letter())?;
                match by {
                    WinBy::Points(m) => write!(f, "{}", format_points(m)),
                    WinBy::Resignation => f.write_str("R"),
                    WinBy::Time => f.write_str("T"),
                    WinBy::Forfeit => f.write_str("F"),
                    WinBy::Unspecified => Ok(()),
                }
            }
            Outcome::Draw => f.write_str("0"),
            Outcome::NoResult => f.write_str("Void"),
            Outcome::Unknown => f.write_str("?"),
        }
    }
}

/// Writes a number of points the shortest exact way: `3`, `3.5`, `0.25`, never `3.0`.
pub fn format_points(points: f64) -> String {
    if points == points.trunc() && points.abs() < 1e15 {
        format!("{}", points as i64)
    } else {
        // Komi and margins are multiples of 1/4 or short decimals; `{}` prints them exactly
        // without trailing zeros.
        format!("{points}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_normalised_sgf_forms() {
        let b = Color::Black;
        let w = Color::White;
        assert_eq!(Outcome::from_margin(3.5).to_string(), "B+3.5");
        assert_eq!(Outcome::from_margin(-0.5).to_string(), "W+0.5");
        assert_eq!(Outcome::from_margin(-12.0).to_string(), "W+12");
        assert_eq!(Outcome::from_margin(0.0).to_string(), "0");
        assert_eq!(Outcome::Win { winner: w, by: WinBy::Resignation }.to_string(), "W+R");
        assert_eq!(Outcome::Win { winner: b, by: WinBy::Time }.to_string(), "B+T");
        assert_eq!(Outcome::Win { winner: b, by: WinBy::Forfeit }.to_string(), "B+F");
        assert_eq!(Outcome::Win { winner: b, by: WinBy::Unspecified }.to_string(), "B+");
        assert_eq!(Outcome::NoResult.to_string(), "Void");
        assert_eq!(Outcome::Unknown.to_string(), "?");
    }

    #[test]
    fn margins_are_black_minus_white() {
        assert_eq!(Outcome::from_margin(-7.5).margin(), Some(-7.5));
        assert_eq!(Outcome::Draw.margin(), Some(0.0));
        assert_eq!(Outcome::Unknown.margin(), None);
        assert_eq!(format_points(0.25), "0.25");
    }
}
