//! The handicap: how many stones Black was given, and where they stand when the record does
//! not say.
//!
//! `HA` is the number of stones; `FF[4]` says it "doesn't add any stones to the board", which
//! `AB` must do. Records disagree in three ways, all handled here:
//! - `HA` with no setup at all, White moving first: Fox writes handicap games this way (6,334
//!   Fox professional games with HA ≥ 2, none with AB). The stones go on the standard points
//!   ([`fixed_placement`]) and the record says they were implied;
//! - `AB` with no `HA`: the number of black setup stones is the handicap, unless White stones
//!   are set up too (a position, not a handicap);
//! - `HA` and setup that disagree: a `handicap-mismatch` finding, and `HA` is kept.
//!
//! The standard points are GTP's `fixed_handicap` placement (KataGo, GNU Go): corner star points
//! first, then the side points, then the centre, on the 4-4 points from 13x13 up and the 3-3
//! points below; at most 4 stones on even or 7x7 boards, 9 otherwise, none below 7x7. Before
//! 2018-01-01 Fox put the side stones of a 6- or 7-stone handicap on the top and bottom edges
//! instead of left and right (KataGo applies the same symmetry), which [`fixed_placement`] does
//! when asked.

use crate::finding::Code;
use crate::rules::{BoardSize, Color, Point};

/// The stones set up before the first move (root and any setup node before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetupCount {
    /// Black stones placed.
    pub black: u32,
    /// White stones placed.
    pub white: u32,
}

/// What the record's handicap is, and what kifu did about it.
#[derive(Clone, Debug, PartialEq)]
pub struct HandicapDecision {
    /// The number of handicap stones.
    pub handicap: u32,
    /// Stones kifu placed because the record gives `HA` without them.
    pub implied: Option<Vec<Point>>,
    /// A finding to report (`handicap-implied` or `handicap-mismatch`) and its message.
    pub finding: Option<(Code, String)>,
}

/// Decides the handicap from `HA` (`None` when absent or unreadable), the setup before the first
/// move and the colours of the first moves. Stones are implied when White moves first, or, in a
/// record with no moves, when it comes from Fox (`fox`).
pub fn decide(
    ha: Option<u32>,
    setup: SetupCount,
    opening: &[Color],
    size: BoardSize,
    fox: bool,
    fox_pre_2018: bool,
) -> HandicapDecision {
    let plain = |handicap| HandicapDecision { handicap, implied: None, finding: None };
    let mismatch = |handicap, message: String| HandicapDecision {
        handicap,
        implied: None,
        finding: Some((Code::HandicapMismatch, message)),
    };
    let stones = |s: SetupCount| match s.white {
        0 => format!("{} black stone(s)", s.black),
        w => format!("{} black and {w} white stone(s)", s.black),
    };
    match ha {
        None if setup.white == 0 && setup.black >= 2 => plain(setup.black),
        None => plain(0),
        Some(n) if n < 2 => {
            if setup.white == 0 && setup.black >= 2 {
                mismatch(n, format!("HA[{n}] but {} are set up", stones(setup)))
            } else {
                plain(n)
            }
        }
        Some(n) if setup.black == 0 && setup.white == 0 => {
            let black_run = opening.iter().take_while(|c| **c == Color::Black).count();
            let played_as_moves = black_run == n as usize
                && (opening.len() == black_run || opening[black_run] == Color::White);
            if played_as_moves {
                return plain(n);
            }
            match opening.first() {
                Some(Color::Black) => {
                    return mismatch(
                        n,
                        format!("HA[{n}] but no stones are set up and Black moves first"),
                    );
                }
                None if !fox => {
                    return mismatch(n, format!("HA[{n}] but no stones are set up"));
                }
                _ => {}
            }
            match fixed_placement(size, n, fox_pre_2018) {
                Some(points) => {
                    let names: Vec<String> =
                        points.iter().map(|p| p.display(size.height).to_string()).collect();
                    let layout = if fox_pre_2018 && (n == 6 || n == 7) {
                        " (Fox's layout before 2018: side stones top and bottom)"
                    } else {
                        ""
                    };
                    HandicapDecision {
                        handicap: n,
                        implied: Some(points),
                        finding: Some((
                            Code::HandicapImplied,
                            format!(
                                "HA[{n}] with no stones set up: placed the standard {n} stones{layout}: {}",
                                names.join(" ")
                            ),
                        )),
                    }
                }
                None => mismatch(
                    n,
                    format!(
                        "HA[{n}] with no stones set up, and no standard placement of {n} stones on {size}"
                    ),
                ),
            }
        }
        Some(n) if setup.black != n || setup.white != 0 => {
            mismatch(n, format!("HA[{n}] but {} are set up", stones(setup)))
        }
        Some(n) => plain(n),
    }
}

/// The standard handicap points for `stones` stones on a square board, sorted; `None` when
/// there is no standard placement (non-square boards, boards below 7x7, too many stones).
/// `fox_pre_2018` moves the side stones of a 6- or 7-stone handicap to the top and bottom.
pub fn fixed_placement(size: BoardSize, stones: u32, fox_pre_2018: bool) -> Option<Vec<Point>> {
    if !size.is_square() || size.width < 7 || stones < 2 {
        return None;
    }
    let n = size.width;
    let max = if n.is_multiple_of(2) || n == 7 { 4 } else { 9 };
    if stones > max {
        return None;
    }
    let edge = if n >= 13 { 3 } else { 2 };
    let (low, mid, high) = (edge, n / 2, n - 1 - edge);
    let p = |x: u8, y: u8| Point::new(x, y);
    // GTP order: the two opposite corners (lower left, upper right), the upper left, the lower
    // right; then the centre for an odd count, and the sides in pairs.
    let corners = [p(low, high), p(high, low), p(low, low), p(high, high)];
    let (left, right, top, bottom) = (p(low, mid), p(high, mid), p(mid, low), p(mid, high));
    let (side_a, side_b) = if fox_pre_2018 { (top, bottom) } else { (left, right) };
    let centre = p(mid, mid);
    let mut points: Vec<Point> = match stones {
        2..=4 => corners[..stones as usize].to_vec(),
        5 => [&corners[..], &[centre]].concat(),
        6 => [&corners[..], &[side_a, side_b]].concat(),
        7 => [&corners[..], &[side_a, side_b, centre]].concat(),
        8 => [&corners[..], &[left, right, top, bottom]].concat(),
        _ => [&corners[..], &[left, right, top, bottom, centre]].concat(),
    };
    points.sort();
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws the points on a board, `X` for a stone, rows from the top.
    fn diagram(size: u8, points: &[Point]) -> String {
        let mut rows = Vec::new();
        for y in 0..size {
            let row: String = (0..size)
                .map(|x| if points.contains(&Point::new(x, y)) { 'X' } else { '.' })
                .collect();
            rows.push(row);
        }
        rows.join("\n")
    }

    fn names(size: u8, stones: u32) -> Vec<String> {
        let board = BoardSize::square(size).unwrap();
        let mut v: Vec<String> = fixed_placement(board, stones, false)
            .unwrap()
            .iter()
            .map(|p| p.display(size).to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn gtp_placements_on_19x19_and_13x13() {
        // GTP fixed_handicap 7 on 19x19: D16 Q16 D10 K10 Q10 D4 Q4 (rules.md §2.7).
        assert_eq!(names(19, 7), ["D10", "D16", "D4", "K10", "Q10", "Q16", "Q4"]);
        // 3 stones on 13x13: D10 K10 D4.
        assert_eq!(names(13, 3), ["D10", "D4", "K10"]);
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 9).len(), 9);
    }

    #[test]
    fn nine_stones_on_9x9_use_the_third_line() {
        let board = BoardSize::square(9).unwrap();
        let pts = fixed_placement(board, 9, false).unwrap();
        assert_eq!(
            diagram(9, &pts),
            "\
.........
.........
..X.X.X..
.........
..X.X.X..
.........
..X.X.X..
.........
........."
        );
    }

    #[test]
    fn fox_before_2018_puts_six_stones_top_and_bottom() {
        let board = BoardSize::STANDARD;
        let modern = fixed_placement(board, 6, false).unwrap();
        let old = fixed_placement(board, 6, true).unwrap();
        assert!(modern.contains(&Point::new(3, 9)) && modern.contains(&Point::new(15, 9)));
        assert!(old.contains(&Point::new(9, 3)) && old.contains(&Point::new(9, 15)));
    }

    #[test]
    fn decisions_for_the_ways_records_give_a_handicap() {
        use Color::{Black as B, White as W};
        let size = BoardSize::STANDARD;
        let none = SetupCount::default();
        let four = SetupCount { black: 4, white: 0 };
        // Fox: HA without AB, White moves first.
        let fox = decide(Some(3), none, &[W, B], size, true, false);
        assert_eq!((fox.handicap, fox.implied.as_ref().map(Vec::len)), (3, Some(3)));
        assert_eq!(fox.finding.unwrap().0, Code::HandicapImplied);
        // HA with matching AB.
        assert_eq!(
            decide(Some(4), four, &[W], size, false, false),
            HandicapDecision { handicap: 4, implied: None, finding: None }
        );
        // AB without HA.
        assert_eq!(decide(None, four, &[W], size, false, false).handicap, 4);
        // A position with stones of both colours is no handicap.
        assert_eq!(
            decide(None, SetupCount { black: 4, white: 2 }, &[B], size, false, false).handicap,
            0
        );
        // HA disagreeing with AB.
        let m = decide(Some(3), four, &[W], size, false, false);
        assert_eq!((m.handicap, m.finding.unwrap().0), (3, Code::HandicapMismatch));
        // No moves: implied for Fox records only.
        assert!(decide(Some(3), none, &[], size, true, false).implied.is_some());
        let m = decide(Some(3), none, &[], size, false, false);
        assert_eq!((m.implied, m.finding.unwrap().0), (None, Code::HandicapMismatch));
        // Handicap stones played as Black's first moves.
        assert_eq!(decide(Some(2), none, &[B, B, W], size, false, false).finding, None);
        // HA but Black simply moves first.
        let m = decide(Some(2), none, &[B, W], size, false, false);
        assert_eq!(m.finding.unwrap().0, Code::HandicapMismatch);
        // HA[0] (Fox's even games) and HA[1] (no komi) need no stones.
        assert_eq!(decide(Some(0), none, &[B], size, false, false).handicap, 0);
        assert_eq!(decide(Some(1), none, &[B], size, false, false).handicap, 1);
    }

    #[test]
    fn no_standard_placement_where_gtp_has_none() {
        let sq = |n| BoardSize::square(n).unwrap();
        assert!(fixed_placement(sq(19), 10, false).is_none());
        assert!(fixed_placement(sq(6), 2, false).is_none());
        assert!(fixed_placement(sq(7), 5, false).is_none());
        assert!(fixed_placement(sq(8), 4, false).is_some());
        assert!(fixed_placement(sq(8), 5, false).is_none());
        assert!(fixed_placement(BoardSize::new(19, 13).unwrap(), 2, false).is_none());
        assert!(fixed_placement(sq(19), 1, false).is_none());
    }
}
