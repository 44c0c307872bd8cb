//! Capturing races the playouts leave a coin toss, on real records (skipped when the shared
//! corpus is absent): the chain with more liberties wins when capturing gives it two eyes, two
//! chains cutting the same stones win together, and a chain that only captures a lone stone
//! inside the opponent's wall stays dead; the chains of a group the playouts leave a coin toss
//! live or die together; a group the playouts keep alive in a clear majority is not killed by
//! the enclosure rule; a capture whose capturing stone is taken back at once saves nothing.

mod util;

use std::path::Path;

use kifu::analysis::{DeadStoneMode, replay, scoring};
use kifu::rules::{Color, Outcome, WinBy};

/// The record's count under its own rules and komi, with estimated dead stones and the
/// finishing of an unfinished ending.
fn recomputed(path: &Path) -> Outcome {
    let record = util::first_record(path);
    let rep = replay::replay(&record, &record.rules.ruleset);
    let (statuses, _) = scoring::statuses(&record, &rep, DeadStoneMode::Auto);
    let ending = scoring::ending(&record, &rep, &statuses);
    scoring::count_ending(
        &ending,
        &record.rules.ruleset,
        record.komi.points,
        record.handicap,
        rep.passes,
    )
    .outcome
}

#[test]
fn a_race_with_more_liberties_and_two_eyes_after_it_is_won() {
    // aeb-pro `Agon/17/Q16.sgf` (B+3.5, Japanese rules): at the bottom White's seven stones
    // (K3 J2 K2 L2 M2 M3 K1) have three liberties against the two of Black's N3 O3 N2, and
    // capturing those gives White its eyes. The playouts, each side as often first, call it a
    // coin toss and once took White's stones off: B+34.5. Since the finishing gives no
    // protective move to a chain only dead stones press, White's T12 (next only to Black's dead
    // S12) is not protected on T13, a teire the record counts: B+2.5, one point off (one of
    // the 40 margins that rule lost against 155 gained).
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let outcome = recomputed(&corpus.join("aeb-pro/Agon/17/Q16.sgf"));
    let Outcome::Win { winner: Color::Black, by: WinBy::Points(margin) } = outcome else {
        panic!("{outcome:?}");
    };
    assert!((2.5..=3.5).contains(&margin), "{outcome:?}");
}

#[test]
fn two_chains_cutting_the_same_stones_win_the_race_together() {
    // aeb-pro `Meijin/40/Q25.sgf` (Redmond - Suzuki, B+6.5, Japanese rules): in the lower
    // left White's B3 C3 (two liberties) cut Black's B8 chain (four) from its D3 chain (three).
    // Capturing them gives the two black chains the corner together; with only B8 alive in
    // the hypothesis the corner touched White's wall through D3 and showed no eye, and the
    // playouts' coin toss took both black chains off: W+46.5.
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let outcome = recomputed(&corpus.join("aeb-pro/Meijin/40/Q25.sgf"));
    assert_eq!(outcome, Outcome::Win { winner: Color::Black, by: WinBy::Points(6.5) });
}

#[test]
fn the_chains_of_a_coin_toss_group_live_or_die_together() {
    // aeb-pro `Ryusei/09/A06.sgf` (Cho U - Hane Naoki, B+3.5, Japanese rules): Black's group
    // on the left side is three chains sharing its eye space, A15 (8 stones), A11 (3) and
    // E13 (6), and the playouts leave it a coin toss: A15 and A11 at -0.03, E13 at +0.19.
    // Chain by chain, eleven of its stones came off and six stayed: W+23.5. By the group's
    // stone-weighted mean support, all live. (The finishing's order of the last dame moves the
    // margin by a point: B+2.5 since the dame that leave a teire owed.)
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let outcome = recomputed(&corpus.join("aeb-pro/Ryusei/09/A06.sgf"));
    let Outcome::Win { winner: Color::Black, by: WinBy::Points(margin) } = outcome else {
        panic!("{outcome:?}");
    };
    assert!((2.5..=3.5).contains(&margin), "{outcome:?}");
}

#[test]
fn capturing_a_lone_stone_inside_a_wall_does_not_save_a_chain() {
    // ogs-finished `19x19/625355.sgf` (W+35.5, finished): Black's twelve stones around O17
    // have three liberties, White's P16 one, but taking P16 leaves Black one eye inside
    // White's wall. The race is not called, and Black's chain stays dead as recorded.
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let outcome = recomputed(&corpus.join("ogs-finished/19x19/625355.sgf"));
    assert_eq!(outcome, Outcome::Win { winner: Color::White, by: WinBy::Points(35.5) });
}

#[test]
fn a_group_the_playouts_keep_alive_is_not_killed_by_enclosure() {
    // aeb-pro `Honinbo/76/Q16.sgf` (W+0.5, Japanese rules): White's 23 stones around K8 and
    // P3 sit in a small area inside Black's strong groups, and the eye count finds fewer than
    // two eyes; the playouts keep them in about four playouts of five (support 0.625). The
    // enclosure rule used to overrule any support below 0.8 and took them off: B+56.5.
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let outcome = recomputed(&corpus.join("aeb-pro/Honinbo/76/Q16.sgf"));
    assert_eq!(outcome, Outcome::Win { winner: Color::White, by: WinBy::Points(0.5) });
}

#[test]
fn a_capture_whose_stone_is_taken_back_at_once_gives_no_eye() {
    // gnugo-regression `games/kgs/GNU-tadf.sgf` (13x13, territory marked by the players): in
    // the lower left Black's A3 A2 have one liberty, A4, and cannot be saved, but White's stone
    // there would stand in atari (A5 and B4 are Black's) and be taken back on A3: the capture
    // is no second eye for White's eleven stones around C5, which the players marked dead.
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let record =
        util::first_record(&corpus.join("gnugo-regression/regression/games/kgs/GNU-tadf.sgf"));
    let rep = replay::replay(&record, &record.rules.ruleset);
    let (statuses, _) = scoring::statuses(&record, &rep, DeadStoneMode::Estimate);
    let c5 = kifu::rules::Point::new(2, 13 - 5);
    let chain = statuses.chains.iter().find(|c| c.stones.contains(&c5)).expect("a chain on C5");
    assert_eq!(
        (chain.color, chain.status),
        (Color::White, kifu::analysis::dead_stones::Status::Dead)
    );
}
