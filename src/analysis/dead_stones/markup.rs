//! Dead stones from the record's territory markup (TB, TW in the last node), as KGS and CGoban
//! write it: a stone lying under the opponent's territory mark is dead.
//!
//! Markup is taken at its word where it is consistent. Three things contradict it and each
//! gives a `markup-inconsistent` finding: a mark on a stone of the marking colour (a live stone
//! cannot lie in its owner's territory), a chain only partly marked (dead stones are dead whole
//! chains: the chain follows the majority of its stones), and a mark off the board.

use super::{Basis, Statuses, layout::Layout};
use crate::analysis::{Confidence, DeadStoneSource};
use crate::finding::{Code, Finding};
use crate::record::TerritoryMarkup;
use crate::rules::{Board, Color};

/// The statuses the markup gives, and findings for what contradicts the position. `move_number`
/// locates the findings (the last move of the main line).
pub fn from_markup(
    board: &Board,
    markup: &TerritoryMarkup,
    move_number: u32,
) -> (Statuses, Vec<Finding>) {
    let layout = Layout::of_board(board);
    let size = board.size();
    let height = size.height;
    let n = layout.grid.len();
    let mut marked: Vec<Option<Color>> = vec![None; n];
    let mut findings = Vec::new();
    for (color, points) in [(Color::Black, &markup.black), (Color::White, &markup.white)] {
        for &p in points {
            if !size.contains(p) {
                findings.push(Finding::new(
                    Code::MarkupInconsistent,
                    move_number,
                    format!("T{} mark off the board at {}", color.letter(), p.display(height)),
                ));
                continue;
            }
            let i = layout.index(p);
            if marked[i].is_some_and(|c| c != color) {
                findings.push(Finding::new(
                    Code::MarkupInconsistent,
                    move_number,
                    format!("{} is marked both TB and TW", p.display(height)),
                ));
            }
            marked[i] = Some(color);
        }
    }
    let mut dead = vec![false; n];
    let mut inconsistent = false;
    for chain in &layout.chains {
        let under_opponent =
            chain.stones.iter().filter(|&&i| marked[i] == Some(chain.color.opponent())).count();
        let under_own = chain.stones.iter().filter(|&&i| marked[i] == Some(chain.color)).count();
        let first = layout.point(chain.stones[0]).display(height);
        if under_own > 0 {
            inconsistent = true;
            findings.push(Finding::new(
                Code::MarkupInconsistent,
                move_number,
                format!(
                    "T{} marks {} of {}'s own stones at {first}: a live stone in its own territory",
                    chain.color.letter(),
                    under_own,
                    chain.color
                ),
            ));
        }
        if under_opponent > 0 && under_opponent < chain.stones.len() {
            inconsistent = true;
            findings.push(Finding::new(
                Code::MarkupInconsistent,
                move_number,
                format!(
                    "only {under_opponent} of the {} stones of the {} chain at {first} are marked \
                     dead",
                    chain.stones.len(),
                    chain.color
                ),
            ));
        }
        if 2 * under_opponent >= chain.stones.len() && under_opponent > 0 {
            for &i in &chain.stones {
                dead[i] = true;
            }
        }
    }
    let confidence = if inconsistent { Confidence::Medium } else { Confidence::High };
    let mut statuses =
        Statuses::from_dead(board, dead, Basis::Markup, DeadStoneSource::Markup, confidence);
    if inconsistent {
        statuses.doubts.push("the territory markup contradicts the position".into());
    }
    (statuses, findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    #[test]
    fn stones_under_the_opponents_mark_are_dead() {
        let board = Board::from_diagram(
            "
            . X O .
            X X O O
            . O O .",
        )
        .unwrap();
        // Black's stones lie in White's territory.
        let markup = TerritoryMarkup {
            black: vec![],
            white: vec![Point::new(0, 0), Point::new(1, 0), Point::new(0, 1), Point::new(1, 1)],
        };
        let (s, findings) = from_markup(&board, &markup, 12);
        assert!(findings.is_empty());
        assert_eq!(s.dead_count(Color::Black), 3);
        assert_eq!(s.dead_count(Color::White), 0);
        assert_eq!(s.source, DeadStoneSource::Markup);
        assert_eq!(s.confidence, Confidence::High);
    }

    #[test]
    fn a_mark_on_the_markers_own_stone_is_inconsistent() {
        let board = Board::from_diagram(
            "
            . X O .
            X X O O",
        )
        .unwrap();
        let markup = TerritoryMarkup { black: vec![Point::new(1, 0)], white: vec![] };
        let (s, findings) = from_markup(&board, &markup, 7);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].code, Code::MarkupInconsistent);
        assert_eq!(findings[0].move_number, 7);
        assert!(findings[0].message.contains("B2"), "{}", findings[0].message);
        assert_eq!(s.dead_count(Color::Black), 0);
        assert_eq!(s.confidence, Confidence::Medium);
    }
}
