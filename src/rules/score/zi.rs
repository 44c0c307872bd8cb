//! The Chinese way of stating an area count: in zi (子, one zi = two points), one colour's
//! stones and points against half the board.
//!
//! On 19x19 the baseline is 361 / 2 = 180.5 zi; with 7.5 points of komi (3¾ zi) Black needs
//! 180.5 + 3.75 = 184.25, so 185 wins by ¾ zi ("黑胜3/4子"), which is B+1.5 in points. A point
//! neutral at the count (dame) counts half to each side, which leaves the margin unchanged
//! (`shared/notes/rules.md` §4.8).

use std::fmt;

use crate::rules::{Color, Outcome, WinBy};

/// An area count as the Chinese rules state it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChineseCount {
    /// Black's stones and points, plus half of every neutral point, in zi.
    pub black: f64,
    /// White's, likewise.
    pub white: f64,
    /// Half the board: 180.5 on 19x19.
    pub baseline: f64,
    /// What Black must reach to win: the baseline plus half of White's komi and handicap
    /// compensation (184.25 on 19x19 with 7.5 komi).
    pub black_needs: f64,
}

impl ChineseCount {
    /// The count from the two sides' area (stones plus points, after any group tax), the board's
    /// number of points and what White receives (komi plus handicap compensation), all in
    /// points. Whatever counts for neither side (dame) is shared half and half.
    pub fn new(black_area: f64, white_area: f64, points: usize, to_white: f64) -> Self {
        let shared = (points as f64 - black_area - white_area) / 2.0;
        let baseline = points as f64 / 2.0;
        ChineseCount {
            black: black_area + shared,
            white: white_area + shared,
            baseline,
            black_needs: baseline + to_white / 2.0,
        }
    }

    /// Black's margin in points: twice what Black has over what Black needs.
    pub fn margin(&self) -> f64 {
        2.0 * (self.black - self.black_needs)
    }
}

impl fmt::Display for ChineseCount {
    /// `黑185子 (需184又1/4子)`: Black's count and what Black needed, in zi.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "黑{} (需{})", zi_amount(self.black), zi_amount(self.black_needs))
    }
}

/// A number of zi written the Chinese way: `3又3/4子`, `3/4子`, `2子`, `1/2子`. Fractions are
/// reduced; anything finer than an eighth is written as a decimal.
pub fn zi_amount(zi: f64) -> String {
    let zi = zi.abs();
    let whole = zi.trunc();
    let eighths = ((zi - whole) * 8.0).round();
    let exact = ((zi - whole) * 8.0 - eighths).abs() < 1e-9;
    if !exact {
        return format!("{zi}子");
    }
    if eighths == 8.0 {
        return format!("{}子", whole as u64 + 1);
    }
    let mut num = eighths as u64;
    let mut den = 8u64;
    while num > 0 && num.is_multiple_of(2) {
        num /= 2;
        den /= 2;
    }
    match (whole as u64, num) {
        (w, 0) => format!("{w}子"),
        (0, n) => format!("{n}/{den}子"),
        (w, n) => format!("{w}又{n}/{den}子"),
    }
}

/// A margin in points (Black minus White) as a number of zi: half of it.
pub fn points_to_zi(points: f64) -> f64 {
    points / 2.0
}

/// An outcome in the Chinese form: `黑胜3/4子` (B+1.5), `白胜1又1/4子` (W+2.5), `和棋` (draw),
/// `无胜负` (no result), `黑中盘胜` (B+R), `黑超时胜`, `黑胜` (winner only), `?` when unknown.
pub fn zi_result(outcome: Outcome) -> String {
    let side = |c: Color| match c {
        Color::Black => "黑",
        Color::White => "白",
    };
    match outcome {
        Outcome::Win { winner, by: WinBy::Points(p) } => {
            format!("{}胜{}", side(winner), zi_amount(points_to_zi(p)))
        }
        Outcome::Win { winner, by: WinBy::Resignation } => format!("{}中盘胜", side(winner)),
        Outcome::Win { winner, by: WinBy::Time } => format!("{}超时胜", side(winner)),
        Outcome::Win { winner, by: WinBy::Forfeit } => format!("{}判胜", side(winner)),
        Outcome::Win { winner, by: WinBy::Unspecified } => format!("{}胜", side(winner)),
        Outcome::Draw => "和棋".to_string(),
        Outcome::NoResult => "无胜负".to_string(),
        Outcome::Unknown => "?".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_in_zi_follow_the_rules_notes() {
        // shared/notes/rules.md §4.8: 3/4子 = 1.5, 1/4子 = 0.5, 1又1/4子 = 2.5, 1又3/4子 = 3.5,
        // 3又3/4子 = 7.5, 1/2子 = 1, 2子 = 4.
        for (points, text) in [
            (1.5, "3/4子"),
            (0.5, "1/4子"),
            (2.5, "1又1/4子"),
            (3.5, "1又3/4子"),
            (7.5, "3又3/4子"),
            (1.0, "1/2子"),
            (4.0, "2子"),
            (5.5, "2又3/4子"),
        ] {
            assert_eq!(zi_amount(points_to_zi(points)), text, "{points} points");
        }
    }

    #[test]
    fn black_with_185_wins_by_three_quarters_of_a_zi() {
        // 19x19 filled board, no neutral point: Black 185, White 176, komi 7.5.
        let count = ChineseCount::new(185.0, 176.0, 361, 7.5);
        assert_eq!(count.baseline, 180.5);
        assert_eq!(count.black_needs, 184.25);
        assert_eq!(count.margin(), 1.5);
        assert_eq!(zi_result(Outcome::from_margin(count.margin())), "黑胜3/4子");
        assert_eq!(count.to_string(), "黑185子 (需184又1/4子)");
    }

    #[test]
    fn neutral_points_count_half_to_each_side_and_leave_the_margin_alone() {
        // Black 184 + White 174 + 3 dame = 361: B - W - komi = 2.5, and so is the zi margin.
        let count = ChineseCount::new(184.0, 174.0, 361, 7.5);
        assert_eq!(count.black, 185.5);
        assert_eq!(count.margin(), 184.0 - 174.0 - 7.5);
    }

    #[test]
    fn other_outcomes_have_chinese_names() {
        assert_eq!(zi_result(Outcome::from_margin(-0.5)), "白胜1/4子");
        assert_eq!(zi_result(Outcome::Draw), "和棋");
        assert_eq!(zi_result(Outcome::NoResult), "无胜负");
        let resign = Outcome::Win { winner: Color::White, by: WinBy::Resignation };
        assert_eq!(zi_result(resign), "白中盘胜");
    }
}
