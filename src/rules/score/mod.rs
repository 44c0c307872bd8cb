//! Counting a finished position under a ruleset: area, territory, area with the ancient group
//! tax; komi, handicap compensation, AGA pass stones, the tie rule, and the Chinese zi form.
//!
//! The input is the final position as a plain row-major array of stones plus which of them are
//! dead (deciding that is the analysis layer's job), the prisoners taken during play, the passes,
//! the handicap and the komi. The count branches on [`Ruleset`] fields only:
//!
//! - [`Scoring::Area`]: live stones plus points reaching only one colour (dead stones are
//!   transparent); points reaching both are neutral. In Chinese terms a neutral point counts half
//!   to each side, which leaves the margin unchanged ([`ChineseCount`]).
//! - [`Scoring::Territory`]: empty points surrounded by one colour (and the points under the
//!   opponent's dead stones), plus prisoners, plus the dead stones themselves. Eyes of groups in
//!   seki are not territory, and false eyes that will have to be filled do not count (the
//!   goscorer approach, see [`territory_map`]). With `pass_stones` each pass hands the opponent a
//!   prisoner, which makes the count equal to the area count when White passes last (AGA).
//! - [`Scoring::AreaWithGroupTax`]: area minus two points for every separate live group (還棋頭):
//!   a group is every chain that lives with the others through the space they share, and a
//!   group in seki keeps its stones but owns no points and pays no tax.
//! - `remove_dead_stones == false` (Tromp-Taylor): every stone counts as it stands.
//!
//! White then receives the komi and the handicap compensation the ruleset grants (N, N-1 or
//! nothing). The margin is Black minus White; [`outcome_of`] turns it into an [`Outcome`] with the
//! ruleset's tie rule, and [`cycle_outcome`] says how a whole-board cycle ends where no superko
//! rule forbids it.

mod area;
pub(crate) mod grid;
mod territory;
mod zi;

pub use territory::TerritoryPoint;
pub use zi::{ChineseCount, points_to_zi, zi_amount, zi_result};

use crate::rules::{BoardSize, Color, CycleEnd, Outcome, Ruleset, Scoring, TieBreak, WinBy};
use grid::Grid;

/// The code of a live stone of `c` in [`live_codes`]: 1 for Black, 2 for White.
#[inline]
fn live_code(c: Color) -> u8 {
    1 + c.index() as u8
}

/// For every point, the [`live_code`] of a live stone there, else 0 (empty, or a dead stone):
/// what the counts' flood fills ask most, read from one byte instead of a stone and a dead
/// flag.
fn live_codes(stones: &[Option<Color>], dead: &[bool]) -> Vec<u8> {
    stones.iter().zip(dead).map(|(s, &d)| s.filter(|_| !d).map_or(0, live_code)).collect()
}

/// A finished position: the stones, row by row from the top left (`y * width + x`), and which of
/// them are dead.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The board's size.
    pub size: BoardSize,
    /// The stone on every point.
    pub stones: &'a [Option<Color>],
    /// For every point, whether its stone is dead (ignored on empty points).
    pub dead: &'a [bool],
}

impl Position<'_> {
    fn check(&self) {
        assert_eq!(self.stones.len(), self.size.area(), "one stone entry per point");
        assert_eq!(self.dead.len(), self.size.area(), "one dead flag per point");
    }
}

/// Everything a count needs besides the ruleset.
#[derive(Clone, Copy, Debug)]
pub struct CountInput<'a> {
    /// The final position and its dead stones.
    pub position: Position<'a>,
    /// Stones each player captured during play, indexed by the capturer ([`Color::index`]).
    pub captured_by: [u32; 2],
    /// Passes each player made, indexed by [`Color::index`] (AGA pass stones).
    pub passes: [u32; 2],
    /// Number of handicap stones (0 or 1 means none).
    pub handicap: u32,
    /// Komi in points, given to White.
    pub komi: f64,
}

/// One side's part of a count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Live stones on the board (counted under area scoring).
    pub stones: u32,
    /// Points counted as this side's: surrounded empty points and points under the opponent's
    /// dead stones.
    pub territory: u32,
    /// Stones captured during play (counted under territory scoring).
    pub prisoners: u32,
    /// The opponent's dead stones (counted as prisoners under territory scoring).
    pub dead: u32,
    /// Prisoners received for the opponent's passes (territory scoring with pass stones).
    pub pass_stones: u32,
    /// Separate live groups taxed two points each (area with group tax).
    pub taxed_groups: u32,
    /// The side's points before komi and handicap compensation.
    pub total: f64,
}

/// The result of counting one position under one ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    /// How it was counted.
    pub scoring: Scoring,
    /// Black's tally.
    pub black: Tally,
    /// White's tally.
    pub white: Tally,
    /// Points reaching both colours (area), or counting for nobody (territory).
    pub neutral: u32,
    /// Komi given to White.
    pub komi: f64,
    /// Handicap compensation given to White.
    pub handicap_compensation: f64,
    /// Black's total minus White's total, komi and compensation included.
    pub margin: f64,
    /// The margin as a result, with the ruleset's tie rule.
    pub outcome: Outcome,
    /// For every point, the side it counts for (area: stones and surrounded points; territory:
    /// territory only).
    pub owner: Vec<Option<Color>>,
    /// For every point, the colour of a group in seki there (territory scoring and area with
    /// group tax; `None` elsewhere).
    pub seki: Vec<Option<Color>>,
}

impl Count {
    /// Recomputes the margin and the outcome from the tallies, the komi and the compensation,
    /// after any of them changed (a later komi, points drawn for an unfinished border).
    pub fn settle(&mut self, tie: TieBreak) {
        self.margin = self.black.total - self.white.total - self.komi - self.handicap_compensation;
        self.outcome = outcome_of(self.margin, tie);
    }

    /// The count in the Chinese form (zi against half the board), for area counts; `None` under
    /// territory scoring, which the Chinese form does not describe.
    pub fn chinese(&self, size: BoardSize) -> Option<ChineseCount> {
        (self.scoring != Scoring::Territory).then(|| {
            ChineseCount::new(
                self.black.total,
                self.white.total,
                size.area(),
                self.komi + self.handicap_compensation,
            )
        })
    }
}

/// For every point, the player it counts for under area counting (`None`: neutral).
pub fn area_map(position: Position) -> Vec<Option<Color>> {
    position.check();
    area::area_owners(&Grid::new(position.size), position.stones, position.dead)
}

/// The territory-counting analysis of every point: territory, seki, false eyes, dame and eye
/// values. With `score_false_eyes`, false eyes that must eventually be filled still count.
pub fn territory_map(position: Position, score_false_eyes: bool) -> Vec<TerritoryPoint> {
    position.check();
    territory::analyze(&Grid::new(position.size), position.stones, position.dead, score_false_eyes)
}

/// Whether a territory count takes away the points of false eyes that will have to be filled
/// (teire) once the last dame are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Teire {
    /// The position is counted as it will be once every dame and teire is played: a false eye
    /// that must be filled scores nothing. Professional records stop before those moves, and
    /// their recorded results count the teire as played.
    Required,
    /// The position is counted as the players left it: a false eye they did not fill (its dame
    /// still open) is territory. Japanese 1989 Art. 8 counts every eye point surrounded by one
    /// player's live stones, and dame and teire need not be occupied once the game has stopped
    /// by two passes; online servers (OGS, IGS) count a passed-out game this way.
    LeftOpen,
}

/// Counts the position under `ruleset`, with every teire taken as played ([`Teire::Required`]).
///
/// # Panics
/// When `input.position`'s arrays do not hold one entry per point of its size.
pub fn count(ruleset: &Ruleset, input: &CountInput) -> Count {
    count_with(ruleset, input, Teire::Required)
}

/// Counts the position under `ruleset`, with false eyes still to be filled scored as `teire`
/// says (territory scoring only: area scoring counts a false eye's point for its owner either
/// way).
///
/// # Panics
/// When `input.position`'s arrays do not hold one entry per point of its size.
pub fn count_with(ruleset: &Ruleset, input: &CountInput, teire: Teire) -> Count {
    count_with_area(ruleset, input, teire, None)
}

/// [`count_with`], given `area`, the [`area_map`] of `input.position` if the caller has it
/// already (a position is often counted under several rulesets and inspected besides): area
/// scoring that removes dead stones takes it instead of finding it again. It must be that map:
/// the count trusts it.
///
/// # Panics
/// When `input.position`'s arrays, or `area`, do not hold one entry per point of its size.
pub fn count_with_area(
    ruleset: &Ruleset,
    input: &CountInput,
    teire: Teire,
    area: Option<&[Option<Color>]>,
) -> Count {
    let position = input.position;
    position.check();
    let grid = Grid::new(position.size);
    let n = grid.len();
    let no_dead;
    let dead: &[bool] = if ruleset.remove_dead_stones {
        position.dead
    } else {
        no_dead = vec![false; n];
        &no_dead
    };
    let stones = position.stones;
    let mut tally = [Tally::default(), Tally::default()];
    for i in 0..n {
        if let Some(c) = stones[i] {
            if dead[i] {
                tally[c.opponent().index()].dead += 1;
            } else {
                tally[c.index()].stones += 1;
            }
        }
    }
    let mut owner = vec![None; n];
    let mut seki = vec![None; n];
    let mut neutral = 0;
    match ruleset.scoring {
        Scoring::Area | Scoring::AreaWithGroupTax => {
            owner = match area {
                Some(known) if ruleset.remove_dead_stones => {
                    assert_eq!(known.len(), n, "one area owner per point");
                    known.to_vec()
                }
                _ => area::area_owners(&grid, stones, dead),
            };
            if ruleset.scoring == Scoring::AreaWithGroupTax {
                // A group in seki keeps its stones but, not being independently alive, neither
                // owns the space it shares or holds nor pays the tax: the tax stands for the two
                // eyes a living group leaves unfilled when every point is filled with stones,
                // and a seki group's eye space is no such pair (KataGo's TAX_ALL agrees).
                let map = territory::analyze(&grid, stones, dead, true);
                for i in 0..n {
                    seki[i] = map[i].seki;
                    if map[i].seki.is_some() && (stones[i].is_none() || dead[i]) {
                        owner[i] = None;
                    }
                }
            }
            for i in 0..n {
                match owner[i] {
                    Some(c) if stones[i] != Some(c) || dead[i] => tally[c.index()].territory += 1,
                    Some(_) => {}
                    None => neutral += 1,
                }
            }
            if ruleset.scoring == Scoring::AreaWithGroupTax {
                let groups = area::live_groups(&grid, stones, dead, &owner, &seki);
                for c in Color::BOTH {
                    tally[c.index()].taxed_groups = groups[c.index()];
                }
            }
            for t in &mut tally {
                t.total = t.stones as f64 + t.territory as f64 - 2.0 * t.taxed_groups as f64;
            }
        }
        Scoring::Territory => {
            let map = territory::analyze(&grid, stones, dead, teire == Teire::LeftOpen);
            for i in 0..n {
                owner[i] = map[i].territory;
                seki[i] = map[i].seki;
                match map[i].territory {
                    Some(c) => tally[c.index()].territory += 1,
                    None if stones[i].is_none() => neutral += 1,
                    None => {}
                }
            }
            for c in Color::BOTH {
                let t = &mut tally[c.index()];
                t.prisoners = input.captured_by[c.index()];
                if ruleset.pass_stones {
                    t.pass_stones = input.passes[c.opponent().index()];
                }
                t.total = (t.territory + t.prisoners + t.dead + t.pass_stones) as f64;
            }
        }
    }
    let [black, white] = tally;
    let mut count = Count {
        scoring: ruleset.scoring,
        black,
        white,
        neutral,
        komi: input.komi,
        handicap_compensation: ruleset.handicap_compensation.points(input.handicap),
        margin: 0.0,
        outcome: Outcome::Draw,
        owner,
        seki,
    };
    count.settle(ruleset.tie);
    count
}

/// A margin (Black minus White) as a result: a win by points, or on an even count a draw or a
/// win for the side the tie rule favours (written `B+0`).
pub fn outcome_of(margin: f64, tie: TieBreak) -> Outcome {
    if margin != 0.0 {
        return Outcome::from_margin(margin);
    }
    match tie {
        TieBreak::Draw => Outcome::Draw,
        TieBreak::BlackWins => Outcome::Win { winner: Color::Black, by: WinBy::Points(0.0) },
        TieBreak::WhiteWins => Outcome::Win { winner: Color::White, by: WinBy::Points(0.0) },
    }
}

/// How a game ends when the whole board repeats: `None` under a superko rule (the repetition
/// was illegal and the game goes on), else no result or a draw as the ruleset says (Japanese
/// 1989 Art. 12: triple ko and eternal life void the game).
pub fn cycle_outcome(ruleset: &Ruleset) -> Option<Outcome> {
    if ruleset.has_superko() {
        return None;
    }
    Some(match ruleset.cycle {
        CycleEnd::NoResult => Outcome::NoResult,
        CycleEnd::Draw => Outcome::Draw,
    })
}
