//! KataGo's scoring tests (lightvector/KataGo `cpp/tests/testrules.cpp` @ 833823d3, MIT; see
//! `corpus/cases/oracles/README.md`) counted by kifu's `rules::score::count`.
//!
//! KataGo prints White minus Black with komi; the tests compare kifu's Black-minus-White margin
//! with the sign turned. KataGo scores the board as it stands except for stones inside the
//! opponent's pass-alive territory, which count for the territory's owner (`calculateArea`
//! with `nonPassAliveStones`): where a case has such a stone, the test marks it dead and says so.
//!
//! The mapping of KataGo's rules: `scoringRule` AREA with `taxRule` NONE is kifu's
//! [`Scoring::Area`]; TERRITORY with TAX_SEKI (no territory in seki) is [`Scoring::Territory`];
//! AREA with TAX_ALL is the nearest kifu has to [`Scoring::AreaWithGroupTax`]. TERRITORY with
//! TAX_NONE or TAX_ALL and AREA with TAX_SEKI have no kifu preset and are left out.
//!
//! Where kifu's count differs from KataGo's by convention, the case is an ignored test whose
//! reason says which convention.

mod oracles_support;

use kifu::rules::{Color, Game, KoRule, Point, Scoring, SuicideRule};
use oracles_support::{at, board, margin, rules};

/// KataGo's W-B scores of a position under `scoring`, before and after each of `moves` (played
/// alternately from `first`), with `dead` naming, per step, the stones KataGo counts for the
/// opponent (inside its pass-alive territory).
fn series(
    start: &str,
    first: Color,
    moves: &[(u8, u8)],
    scoring: Scoring,
    komi: f64,
    dead: &[(usize, (u8, u8))],
) -> Vec<f64> {
    let ruleset = rules(KoRule::PositionalSuperko, SuicideRule::Forbidden, scoring, komi);
    let mut game = Game::from_board(&board(start), first, ruleset);
    let white_minus_black = |game: &Game, step: usize| {
        let size = game.board().size();
        let mut flags = vec![false; size.area()];
        for &(s, (x, y)) in dead {
            if s == step {
                assert!(game.board().get(Point::new(x, y)).is_some(), "a stone at ({x},{y})");
                flags[y as usize * size.width as usize + x as usize] = true;
            }
        }
        -margin(game.board(), &ruleset, Some(&flags))
    };
    let mut scores = vec![white_minus_black(&game, 0)];
    let mut color = first;
    for (i, &(x, y)) in moves.iter().enumerate() {
        game.play(color, at(x, y)).unwrap_or_else(|e| panic!("move {} ({x},{y}): {e}", i + 1));
        color = color.opponent();
        scores.push(white_minus_black(&game, i + 1));
    }
    scores
}

/// testrules.cpp "GroupTaxSekiScoring", board 1.
const GROUP_TAX_SEKI_1: &str = "
    .x.xo.o.x
    ...xooox.
    .xxxxxxoo
    xoooooxo.
    xo.o.oxoo
    xoooooxxx
    xxxo...oo
    .xxxoooo.
    .x.xo.o.o
";

/// testrules.cpp "GroupTaxSekiScoring2": board 1 with the dame row partly filled.
const GROUP_TAX_SEKI_2: &str = "
    .x.xo.o.x
    ...xooox.
    .xxxxxxoo
    xoooooxo.
    xo.o.oxoo
    xoooooxxx
    xxxoxxxoo
    .xxxoooo.
    .x.xo.o.o
";

#[test]
fn katago_group_tax_seki_area() {
    // KataGo: AREA/TAX_NONE, komi 0.5: W-B 4.5 and 1.5.
    assert_eq!(series(GROUP_TAX_SEKI_1, Color::Black, &[], Scoring::Area, 0.5, &[]), [4.5]);
    assert_eq!(series(GROUP_TAX_SEKI_2, Color::Black, &[], Scoring::Area, 0.5, &[]), [1.5]);
}

#[test]
fn katago_group_tax_seki_2_territory() {
    // KataGo: TERRITORY/TAX_SEKI, komi 0.5: W-B -3.5.
    assert_eq!(series(GROUP_TAX_SEKI_2, Color::Black, &[], Scoring::Territory, 0.5, &[]), [-3.5]);
}

#[test]
#[ignore = "convention: KataGo's TAX_SEKI calls seki every region (a group and its territory) \
            that touches an unfilled dame point, reading Japanese 1989 Art. 8 literally with \
            the dame of row 7 still open, so neither side's territory counts (W-B 0.5); kifu \
            follows goscorer's eye analysis, which does not require dame to be filled, and counts \
            Black's 9 points and White's 5 (W-B -3.5)"]
fn katago_group_tax_seki_1_territory() {
    assert_eq!(series(GROUP_TAX_SEKI_1, Color::Black, &[], Scoring::Territory, 0.5, &[]), [0.5]);
}

#[test]
fn katago_group_tax_seki_2_tax_all() {
    // KataGo: AREA/TAX_ALL, komi 0.5: W-B -2.5. Every dame is filled: the groups in seki keep
    // their stones and pay no tax, every independently alive group (its chains and the space
    // they share) pays 2.
    let tax = Scoring::AreaWithGroupTax;
    assert_eq!(series(GROUP_TAX_SEKI_2, Color::Black, &[], tax, 0.5, &[]), [-2.5]);
}

#[test]
#[ignore = "convention: KataGo's TAX_ALL also scores every region touching an unfilled dame \
            point as seki (stones only, no tax), here both sides' groups next to the open dame \
            of row 7 (W-B 6.5); kifu calls seki only what the eye analysis shows to be seki and \
            counts those groups' points and tax (W-B 0.5)"]
fn katago_group_tax_seki_1_tax_all() {
    let tax = Scoring::AreaWithGroupTax;
    assert_eq!(series(GROUP_TAX_SEKI_1, Color::Black, &[], tax, 0.5, &[]), [6.5]);
}

/// testrules.cpp "Area scoring in the main phase" / "Territory scoring in the main phase".
const MAIN_PHASE: &str = "
    ox.ooo.
    oxxxxxx
    ooooooo
    .xoxx..
    ooox...
    x.oxxxx
    .xox...
";

const MAIN_PHASE_MOVES: [(u8, u8); 7] = [(5, 3), (6, 3), (6, 4), (5, 4), (4, 4), (0, 3), (6, 6)];

/// After Black's (6,4), Black's right-hand group has two vital regions and is pass-alive;
/// White's move 4 at (5,4) lies inside its territory and counts for Black.
const MAIN_PHASE_DEAD: [(usize, (u8, u8)); 1] = [(4, (5, 4))];

#[test]
fn katago_area_scoring_in_the_main_phase() {
    let scores =
        series(MAIN_PHASE, Color::Black, &MAIN_PHASE_MOVES, Scoring::Area, 0.5, &MAIN_PHASE_DEAD);
    assert_eq!(scores, [-3.5, -4.5, -3.5, -6.5, -6.5, -6.5, -3.5, -3.5]);
}

#[test]
#[ignore = "convention: KataGo's TAX_SEKI makes Black's right-hand group seki while its region \
            touches the open dame (6,3) and (0,3), so its 3-point eye at the bottom is no \
            territory (W-B 0.5 for the first three positions); kifu counts the eye as territory \
            (-2.5) as goscorer does; from Black's (6,4) on, the five later positions agree"]
fn katago_territory_scoring_in_the_main_phase() {
    let scores = series(
        MAIN_PHASE,
        Color::Black,
        &MAIN_PHASE_MOVES,
        Scoring::Territory,
        0.5,
        &MAIN_PHASE_DEAD,
    );
    assert_eq!(scores, [0.5, 0.5, 0.5, -4.5, -5.5, -4.5, -3.5, -2.5]);
}

#[test]
fn katago_area_tax_all_in_the_main_phase() {
    // From White's (5,4) on, no region touches an open dame and KataGo's independent-life
    // regions are kifu's live groups: the counts agree.
    let scores = series(
        MAIN_PHASE,
        Color::Black,
        &MAIN_PHASE_MOVES,
        Scoring::AreaWithGroupTax,
        0.5,
        &MAIN_PHASE_DEAD,
    );
    assert_eq!(scores[3..], [-3.5, -3.5, -3.5, -1.5, -1.5]);
}

#[test]
#[ignore = "convention: KataGo's TAX_ALL scores a region touching an open dame as seki (stones \
            only, no tax); in the first three positions Black's right-hand group touches the \
            open (6,3), so KataGo neither counts its eye nor taxes it (0.5, -0.5, 0.5) where \
            kifu counts both (-0.5, -1.5, -0.5); the five later positions agree"]
fn katago_area_tax_all_in_the_main_phase_with_open_dame() {
    let scores = series(
        MAIN_PHASE,
        Color::Black,
        &MAIN_PHASE_MOVES,
        Scoring::AreaWithGroupTax,
        0.5,
        &MAIN_PHASE_DEAD,
    );
    assert_eq!(scores[..3], [0.5, -0.5, 0.5]);
}

/// testrules.cpp "Fill seki liberties in main phase" (TERRITORY/TAX_SEKI, komi -0.5): filling
/// a seki's liberties changes the count only when it kills.
#[test]
fn katago_fill_seki_liberties_in_the_main_phase() {
    let start = "
        ...oxx.
        oooox.x
        xxxxoxx
        o.xoooo
        .oxox.o
        oxxo.x.
        o.xoo.x
    ";
    let moves = [(6, 5), (5, 6), (0, 4), (6, 0), (1, 0), (4, 5), (5, 4)];
    let scores = series(start, Color::White, &moves, Scoring::Territory, -0.5, &[]);
    assert_eq!(scores, [0.5, 0.5, 0.5, 0.5, 2.5, 1.5, 1.5, 11.5]);
}
