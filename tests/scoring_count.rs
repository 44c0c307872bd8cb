//! Counting finished positions under every preset: the rules texts' worked example, seki,
//! false eyes, the group tax, handicap compensation, AGA's pass stones, integer-komi draws and
//! cycles. Boards are ASCII diagrams: `x`/`o` live stones, `b`/`w` dead ones, `.` empty.

use kifu::rules::score::{
    ChineseCount, CountInput, Position, Teire, count, count_with, cycle_outcome, outcome_of,
    territory_map, zi_result,
};
use kifu::rules::{BoardSize, Color, Outcome, Ruleset, Scoring, TieBreak, preset};

struct Diagram {
    size: BoardSize,
    stones: Vec<Option<Color>>,
    dead: Vec<bool>,
}

fn diagram(text: &str) -> Diagram {
    let rows: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let size = BoardSize::new(rows[0].len() as u8, rows.len() as u8).expect("diagram fits");
    let mut stones = Vec::new();
    let mut dead = Vec::new();
    for row in &rows {
        assert_eq!(row.len(), size.width as usize, "ragged diagram row {row}");
        for ch in row.chars() {
            stones.push(match ch {
                'x' | 'b' => Some(Color::Black),
                'o' | 'w' => Some(Color::White),
                _ => None,
            });
            dead.push(matches!(ch, 'b' | 'w'));
        }
    }
    Diagram { size, stones, dead }
}

impl Diagram {
    fn position(&self) -> Position<'_> {
        Position { size: self.size, stones: &self.stones, dead: &self.dead }
    }

    fn input(&self, komi: f64) -> CountInput<'_> {
        CountInput {
            position: self.position(),
            captured_by: [0, 0],
            passes: [0, 0],
            handicap: 0,
            komi,
        }
    }
}

fn rules(name: &str) -> Ruleset {
    preset(name).expect("preset exists").ruleset
}

/// DEVELOPERS.md: "a 280-move game ends Black 140 stones + 44 points, White 140 + 37" with no
/// captures and no dame.
const WORKED_EXAMPLE: &str = "
    ...................
    ...................
    ......xxxxxxxxxxxxx
    xxxxxxxxxxxxxxxxxxx
    xxxxxxxxxxxxxxxxxxx
    xxxxxxxxxxxxxxxxxxx
    xxxxxxxxxxxxxxxxxxx
    xxxxxxxxxxxxxxxxxxx
    xxxxxxxxxxxxxxxxxxx
    xxxxxxxxxxxxxoooooo
    ooooooooooooooooooo
    ooooooooooooooooooo
    ooooooooooooooooooo
    ooooooooooooooooooo
    ooooooooooooooooooo
    ooooooooooooooooooo
    ooooooooooooooooooo
    o..................
    ...................
";

#[test]
fn worked_example_area_gives_white_territory_gives_black() {
    let board = diagram(WORKED_EXAMPLE);
    let area = count(&rules("chinese"), &board.input(7.5));
    assert_eq!((area.black.stones, area.black.territory), (140, 44));
    assert_eq!((area.white.stones, area.white.territory), (140, 37));
    assert_eq!(area.neutral, 0);
    // 184 - 3.75 = 180.25 < 180.5: White wins by a quarter zi.
    assert_eq!(area.outcome.to_string(), "W+0.5");
    let zi = area.chinese(board.size).expect("area counts have a Chinese form");
    assert_eq!(zi.black, 184.0);
    assert_eq!(zi.black_needs, 184.25);
    assert_eq!(zi_result(area.outcome), "白胜1/4子");

    let territory = count(&rules("japanese"), &board.input(6.5));
    assert_eq!((territory.black.territory, territory.white.territory), (44, 37));
    // 44 - 37 - 6.5 = 0.5: same board, other winner.
    assert_eq!(territory.outcome.to_string(), "B+0.5");
    assert!(territory.chinese(board.size).is_none());
}

/// lightvector/goscorer `python/test.py::test_final_scoring` (MIT): its twelve exact scores.
#[test]
fn goscorer_final_scores() {
    let territory_totals = |board: &Diagram, captures: [u32; 2], score_false_eyes: bool| {
        let map = territory_map(board.position(), score_false_eyes);
        let mut totals = [captures[0] as f64, captures[1] as f64];
        for (i, p) in map.iter().enumerate() {
            if let Some(c) = p.territory {
                totals[c.index()] += 1.0;
            }
            if let (Some(c), true) = (board.stones[i], board.dead[i]) {
                totals[c.opponent().index()] += 1.0;
            }
        }
        totals
    };
    let area_totals = |board: &Diagram| {
        let c = count(&rules("chinese"), &board.input(0.0));
        [c.black.total, c.white.total]
    };

    let b = diagram(
        "
        .xo.oxxo.
        x.o.oxo.o
        ooooxxo..
        xxxxxxooo
        ....x.x.o",
    );
    assert_eq!(territory_totals(&b, [0, 0], false), [4.0, 4.0]);
    assert_eq!(territory_totals(&b, [0, 0], true), [5.0, 4.0]);
    assert_eq!(territory_totals(&b, [8, 6], true), [13.0, 10.0]); // W 13.5 with komi 3.5
    assert_eq!(area_totals(&b), [21.0, 22.0]); // W 25.5 with komi 3.5

    let b = diagram(
        "
        .xo.oxxo.
        x.o.oxo.o
        ooooxxob.
        xxxxxxooo
        w..wx.x.o",
    );
    assert_eq!(territory_totals(&b, [0, 0], false), [6.0, 5.0]);
    assert_eq!(territory_totals(&b, [0, 0], true), [7.0, 5.0]);
    assert_eq!(territory_totals(&b, [8, 6], true), [15.0, 11.0]); // W 14.5 with komi 3.5
    assert_eq!(area_totals(&b), [21.0, 22.0]);

    let b = diagram(
        "
        .xo.oxxo.
        x.o.oxo.o
        ooooxxo..
        xxxxxxo.w
        ....x.o..",
    );
    assert_eq!(territory_totals(&b, [0, 0], false), [5.0, 8.0]);
    assert_eq!(area_totals(&b), [19.0, 24.0]);

    // The same through `count`: territory rules count no false eye that must be filled.
    let mut input = b.input(0.0);
    input.captured_by = [8, 6];
    let c = count(&rules("japanese"), &input);
    assert_eq!((c.black.total, c.white.total), (13.0, 14.0));
}

/// Two groups with one eye each and three shared liberties: neither can approach, so both live
/// in seki. Area counting counts each eye for its owner and the shared liberties for nobody;
/// territory counting counts nothing in a seki (Japanese 1989 Art. 8).
#[test]
fn seki_eyes_count_under_area_not_territory() {
    let board = diagram(
        "
        xxx.ooo
        x.x.o.o
        xxx.ooo",
    );
    let area = count(&rules("chinese"), &board.input(0.0));
    assert_eq!((area.black.total, area.white.total, area.neutral), (9.0, 9.0, 3));
    let territory = count(&rules("japanese"), &board.input(0.0));
    assert_eq!((territory.black.territory, territory.white.territory), (0, 0));
    assert_eq!(territory.seki[7 + 1], Some(Color::Black));
    assert_eq!(territory.seki[7 + 5], Some(Color::White));
    assert_eq!(territory.outcome, Outcome::Draw);
}

/// A false eye that must eventually be filled scores nothing under territory rules, but counts
/// under area rules (filling it costs nothing there).
#[test]
fn false_eyes_score_under_area_only() {
    // goscorer test_false_eyes: White's point at the top is false (Black's stones on both
    // diagonals), Black's region on the right is territory.
    let board = diagram(
        "
        .........
        xxxx.xx..
        .oxoxox..
        o.oo.ox..
        ..oooox.x
        ...o.x.x.
        ....ooxox
        ...o.o.ox
        .....ooo.",
    );
    let map = territory_map(board.position(), false);
    let false_point = 9 + 4;
    assert!(map[false_point].unscorable_false_eye);
    assert_eq!(map[false_point].territory, None);
    let area = count(&rules("chinese"), &board.input(0.0));
    assert_eq!(area.owner[false_point], Some(Color::Black));
}

/// A teire left open when the game was passed out. The shape is the bottom-right corner of
/// `ogs-finished/19x19/615430.sgf` (IGS, Japanese rules, 8 stones handicap, RE B+1.5, whose TB
/// markup gives Black the point): Black's lone stone on the first line keeps the false eye at
/// the bottom of column E and an open dame at G1. Once White fills G1, Black must connect at E1
/// (a teire), so a count that plays every dame and teire gives E1 to nobody; the players who
/// passed with G1 open, and Japanese 1989 Art. 8 (an eye point surrounded by one player's live
/// stones is territory; dame and teire need not be occupied), give it to Black: one point.
#[test]
fn an_unfilled_teire_scores_when_counted_as_left() {
    let board = diagram(
        "
        ....xo...
        ....xo...
        ....xo...
        ....xo...
        ....xo...
        ....xo...
        ....xo...
        ....xoo..
        .....x.o.",
    );
    let teire_point = 8 * 9 + 4;
    let japanese = rules("japanese");
    let played = count_with(&japanese, &board.input(0.0), Teire::Required);
    let as_left = count_with(&japanese, &board.input(0.0), Teire::LeftOpen);
    assert_eq!(played.owner[teire_point], None);
    assert_eq!(as_left.owner[teire_point], Some(Color::Black));
    // Black: 36 points in columns A-D, plus E1 as left; White: 7 x 3 + 2 + 1 = 24; G1 is dame.
    assert_eq!((played.black.territory, played.white.territory), (36, 24));
    assert_eq!((as_left.black.territory, as_left.white.territory), (37, 24));
    assert_eq!(played.margin, 12.0);
    assert_eq!(as_left.margin, 13.0);
    // `count` takes every teire as played; area counting gives Black E1 either way.
    assert_eq!(count(&japanese, &board.input(0.0)).margin, played.margin);
    let area = count_with(&rules("chinese"), &board.input(0.0), Teire::Required);
    assert_eq!(area.owner[teire_point], Some(Color::Black));
}

/// Ancient Chinese counting (還棋頭): every separate live group returns two points.
#[test]
fn group_tax_charges_two_points_per_live_group() {
    // Black: two separate groups; White: one.
    let board = diagram(
        "
        .x.x.o.o.
        xxxxxo.oo
        .....oooo
        xxxxxo.o.
        .x.x.o.oo",
    );
    let plain = count(&rules("chinese").with_komi(0.0), &board.input(0.0));
    let taxed = count(&rules("ancient"), &board.input(0.0));
    assert_eq!(taxed.scoring, Scoring::AreaWithGroupTax);
    assert_eq!((taxed.black.taxed_groups, taxed.white.taxed_groups), (2, 1));
    assert_eq!(taxed.black.total, plain.black.total - 4.0);
    assert_eq!(taxed.white.total, plain.white.total - 2.0);
    assert_eq!(taxed.margin, plain.margin - 2.0);
}

/// What White receives for four handicap stones: N under Chinese rules, N-1 under AGA, nothing
/// under Japanese, Ing, NZ and Tromp-Taylor (whose area or territory already holds them).
#[test]
fn handicap_compensation_per_preset() {
    let board = diagram(WORKED_EXAMPLE);
    let with = |name: &str, handicap: u32| {
        let r = rules(name);
        let mut input = board.input(r.komi);
        input.handicap = handicap;
        count(&r, &input)
    };
    for (name, four) in [
        ("chinese", 4.0),
        ("aga", 3.0),
        ("japanese", 0.0),
        ("ing", 0.0),
        ("nz", 0.0),
        ("tromp-taylor", 0.0),
    ] {
        let handicap = with(name, 4);
        assert_eq!(handicap.handicap_compensation, four, "{name}");
        assert_eq!(with(name, 0).margin - handicap.margin, four, "{name}");
        // One stone is no handicap.
        assert_eq!(with(name, 1).handicap_compensation, 0.0, "{name}");
    }
    // The zi form folds the compensation into what Black needs: 2 more zi for 4 stones.
    let chinese = with("chinese", 4);
    let zi: ChineseCount = chinese.chinese(board.size).expect("area");
    assert_eq!(zi.black_needs, 180.5 + (7.5 + 4.0) / 2.0);
}

/// AGA: each pass hands the opponent a prisoner and White passes last, so a territory count
/// equals the area count. The game behind this board: Black played 141 stones and White 140,
/// Black captured one white stone, then Black passed once, White twice (White last), so both
/// had 142 turns: Black has 141 stones on the board, White 139.
#[test]
fn aga_pass_stones_make_territory_equal_area() {
    let board = diagram(
        "
        .........x.........
        ...................
        ......xxxxxxxxxxxxx
        xxxxxxxxxxxxxxxxxxx
        xxxxxxxxxxxxxxxxxxx
        xxxxxxxxxxxxxxxxxxx
        xxxxxxxxxxxxxxxxxxx
        xxxxxxxxxxxxxxxxxxx
        xxxxxxxxxxxxxxxxxxx
        xxxxxxxxxxxxxoooooo
        ooooooooooooooooooo
        ooooooooooooooooooo
        ooooooooooooooooooo
        ooooooooooooooooooo
        ooooooooooooooooooo
        ooooooooooooooooooo
        ooooooooooooooooooo
        ...................
        ...................",
    );
    let mut input = board.input(7.5);
    input.captured_by = [1, 0];
    input.passes = [1, 2];
    let aga = rules("aga");
    let area = count(&aga, &input);
    assert_eq!((area.black.stones, area.white.stones), (141, 139));
    let territory = Ruleset { scoring: Scoring::Territory, ..aga };
    let with_pass_stones = count(&territory, &input);
    assert_eq!((with_pass_stones.black.pass_stones, with_pass_stones.white.pass_stones), (2, 1));
    assert_eq!(with_pass_stones.margin, area.margin);
    // Without pass stones the two counts differ by the difference in passes.
    let plain = count(&Ruleset { pass_stones: false, ..territory }, &input);
    assert_eq!(area.margin - plain.margin, 1.0);
}

/// With integer komi an even count is a draw (jigo); the tie rule may instead give it to one
/// side (Ing's 8 points read as 7.5 with Black winning ties).
#[test]
fn integer_komi_can_draw() {
    let board = diagram(WORKED_EXAMPLE);
    // Area: 184 - 177 = 7, exactly New Zealand's komi.
    let nz = count(&rules("nz"), &board.input(7.0));
    assert_eq!(nz.margin, 0.0);
    assert_eq!(nz.outcome, Outcome::Draw);
    assert_eq!(nz.outcome.to_string(), "0");
    assert_eq!(outcome_of(0.0, TieBreak::BlackWins).to_string(), "B+0");
    assert_eq!(outcome_of(0.0, TieBreak::WhiteWins).winner(), Some(Color::White));
    // Territory 44 - 37 = 7 with komi 7 is jigo too.
    let jp = count(&rules("japanese"), &board.input(7.0));
    assert_eq!(jp.outcome, Outcome::Draw);
}

/// A whole-board cycle without superko (triple ko, eternal life) voids the game; under superko
/// the repetition was illegal and the game is counted as usual.
#[test]
fn cycles_end_without_result_where_no_superko_forbids_them() {
    assert_eq!(cycle_outcome(&rules("japanese")), Some(Outcome::NoResult));
    assert_eq!(cycle_outcome(&rules("korean")), Some(Outcome::NoResult));
    assert_eq!(cycle_outcome(&rules("ancient")), Some(Outcome::NoResult));
    assert_eq!(cycle_outcome(&rules("chinese")), None);
    assert_eq!(cycle_outcome(&rules("aga")), None);
    let drawn = Ruleset { cycle: kifu::rules::CycleEnd::Draw, ..rules("japanese") };
    assert_eq!(cycle_outcome(&drawn), Some(Outcome::Draw));
}

/// Tromp-Taylor counts the board as it stands: dead marks are ignored.
#[test]
fn tromp_taylor_ignores_dead_marks() {
    let board = diagram(
        "
        .x.o.
        .xwo.
        .x.o.",
    );
    let tt = count(&rules("tromp-taylor"), &board.input(0.0));
    assert_eq!((tt.black.total, tt.white.total), (6.0, 7.0));
    let chinese = count(&rules("chinese"), &board.input(0.0));
    // Removed, the dead white stone leaves a column reaching both sides: neutral. Counted as it
    // stands, it is White's and fences the column off from Black.
    assert_eq!((chinese.black.total, chinese.white.total), (6.0, 6.0));
    assert_eq!((chinese.neutral, tt.neutral), (3, 2));
}
