//! Scores and disagreements through `analysis::analyze`, from SGF text: the rules texts' worked
//! example (a winner flip between Chinese and Japanese counting), wrong recorded results with
//! their likely reasons, resigned games, territory markup, cycles without superko, and the
//! estimator's determinism across runs and threads.

use kifu::analysis::dead_stones::{self, Status};
use kifu::analysis::{
    AnalysisOptions, Confidence, DeadStoneMode, DeadStoneSource, DisagreementKind, RulesetRequest,
    analyze,
};
use kifu::finding::Code;
use kifu::record::sgf::read_game;
use kifu::record::{CharsetOrigin, GameLocation, GameRecord, ReadOptions, TextEncoding};
use kifu::rules::{Board, Outcome, Point};

fn record(text: &str) -> GameRecord {
    let location = GameLocation { source: "test.sgf".into(), game: 1, offset: 0, line: 1 };
    let utf8 = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    read_game(text, location, utf8, &ReadOptions::default())
}

/// `AB[..]AW[..]` for the stones of a diagram (`x`/`X` Black, `o`/`O` White).
fn setup(diagram: &str) -> String {
    let rows: Vec<&str> = diagram.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let (mut black, mut white) = (String::new(), String::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let p = Point::new(x as u8, y as u8).sgf().expect("small board");
            match ch {
                'x' | 'X' => black.push_str(&format!("[{p}]")),
                'o' | 'O' => white.push_str(&format!("[{p}]")),
                _ => {}
            }
        }
    }
    let mut out = String::new();
    if !black.is_empty() {
        out.push_str("AB");
        out.push_str(&black);
    }
    if !white.is_empty() {
        out.push_str("AW");
        out.push_str(&white);
    }
    out
}

fn requests(names: &[&str]) -> AnalysisOptions {
    AnalysisOptions {
        rulesets: names.iter().map(|n| RulesetRequest::parse(n).expect("known")).collect(),
        dead_stones: DeadStoneMode::Auto,
    }
}

/// DEVELOPERS.md's worked example: Black 140 stones + 44 points, White 140 + 37, no dame.
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

fn worked_example(result: &str, rules: &str, komi: &str) -> GameRecord {
    record(&format!(
        "(;GM[1]FF[4]SZ[19]RU[{rules}]KM[{komi}]RE[{result}]{};B[];W[])",
        setup(WORKED_EXAMPLE)
    ))
}

#[test]
fn the_worked_example_flips_winner_between_chinese_and_japanese() {
    let game = worked_example("W+0.5", "Chinese", "7.5");
    let analysis = analyze(&game, &requests(&["recorded", "chinese", "japanese"]));
    let results: Vec<String> =
        analysis.scores.iter().map(|s| s.outcome.expect("scored").to_string()).collect();
    assert_eq!(results, ["W+0.5", "W+0.5", "B+0.5"]);
    // Komi follows the rules: 7.5 under Chinese, 6.5 under Japanese (an even game).
    let komi: Vec<f64> = analysis.scores.iter().map(|s| s.komi).collect();
    assert_eq!(komi, [7.5, 7.5, 6.5]);
    let kinds: Vec<DisagreementKind> = analysis.disagreements.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, [DisagreementKind::WinnerFlip, DisagreementKind::WinnerFlip]);
    let flip = &analysis.disagreements[1];
    assert!(flip.detail.contains("chinese W+0.5") && flip.detail.contains("japanese B+0.5"));
    let count = analysis.scores[1].count.expect("counted");
    assert_eq!((count.black, count.white, count.neutral), (184.0, 177.0, 0));
}

#[test]
fn a_recorded_result_that_the_count_does_not_reproduce_is_reported() {
    let game = worked_example("W+3.5", "Chinese", "7.5");
    let analysis = analyze(&game, &requests(&["recorded"]));
    let d = &analysis.disagreements[0];
    assert_eq!(d.kind, DisagreementKind::RecordedVsRecomputed);
    assert!(d.detail.contains("recorded W+3.5 vs recomputed W+0.5"), "{}", d.detail);
    assert!(d.detail.contains("margin differs by 3"), "{}", d.detail);

    let game = worked_example("B+3.5", "Chinese", "7.5");
    let analysis = analyze(&game, &requests(&["recorded"]));
    assert!(analysis.disagreements[0].detail.contains("winner differs"));
}

#[test]
fn an_ing_result_written_with_the_eight_point_komi_agrees() {
    // Ing counts 184 - 177 = 7 against a komi of 8 with Black winning ties, which kifu counts
    // as 7.5: W+0.5. Records write the same result with the 8-point komi, W+1.
    let game = worked_example("W+1", "Ing", "7.5");
    let analysis = analyze(&game, &requests(&["recorded"]));
    assert_eq!(analysis.scores[0].outcome.expect("scored").to_string(), "W+0.5");
    assert!(analysis.disagreements.is_empty(), "{:?}", analysis.disagreements);
    // A result that differs by more is still reported.
    let game = worked_example("W+2", "Ing", "7.5");
    assert_eq!(analyze(&game, &requests(&["recorded"])).disagreements.len(), 1);
}

#[test]
fn likely_reasons_are_named_and_lower_the_confidence() {
    // Area 184 - 177 = 7 without komi: a record counted without komi.
    let game = worked_example("B+7", "Chinese", "7.5");
    let d = &analyze(&game, &requests(&["recorded"])).disagreements[0];
    assert!(d.detail.contains("komi units"), "{}", d.detail);
    assert_eq!(d.confidence, Confidence::Low);
    // Territory 44 - 37 = B+7 with the record's KM[0]; the result B+0.5 is the count with
    // Japanese rules' usual 6.5.
    let game = worked_example("B+0.5", "Japanese", "0");
    let d = &analyze(&game, &requests(&["recorded"])).disagreements[0];
    assert!(d.detail.contains("usual komi of its rules, 6.5, not 0"), "{}", d.detail);
    assert_eq!(d.confidence, Confidence::Low);
    // A komi a point from the usual one is no explanation (a count a point off says as much):
    // B+1.5 with KM[5.5], B+0.5 with 6.5.
    let game = worked_example("B+0.5", "Japanese", "5.5");
    let d = &analyze(&game, &requests(&["recorded"])).disagreements[0];
    assert!(!d.detail.contains("usual komi"), "{}", d.detail);
    // No komi recorded: kifu counts with Japanese rules' 6.5 (B+0.5), and a record that says
    // B+1.5 was counted with 5.5. A difference it cannot explain is still only medium: the
    // record may have been counted with any komi.
    let game = record(&format!(
        "(;GM[1]FF[4]SZ[19]RU[Japanese]RE[B+1.5]{};B[];W[])",
        setup(WORKED_EXAMPLE)
    ));
    let d = &analyze(&game, &requests(&["recorded"])).disagreements[0];
    assert!(
        d.detail.contains("komi not recorded: the record matches komi 5.5, not the assumed 6.5"),
        "{}",
        d.detail
    );
    assert_eq!(d.confidence, Confidence::Low);
    let game = record(&format!(
        "(;GM[1]FF[4]SZ[19]RU[Japanese]RE[B+20.5]{};B[];W[])",
        setup(WORKED_EXAMPLE)
    ));
    let d = &analyze(&game, &requests(&["recorded"])).disagreements[0];
    assert!(d.detail.ends_with("likely: komi not recorded (assumed 6.5)"), "{}", d.detail);
    assert_eq!(d.confidence, Confidence::Medium);
    let game = worked_example("B+20.5", "Japanese", "6.5");
    let d = &analyze(&game, &requests(&["recorded"])).disagreements[0];
    assert_eq!(d.confidence, Confidence::High, "{}", d.detail);
    // Four handicap stones: Chinese rules give White 4 points (W+4.5); a record saying W+0.5
    // gave none.
    let text = format!(
        "(;GM[1]FF[4]SZ[19]RU[Chinese]KM[7.5]HA[4]RE[W+0.5]{};W[];B[])",
        setup(WORKED_EXAMPLE)
    );
    let analysis = analyze(&record(&text), &requests(&["recorded"]));
    assert_eq!(analysis.scores[0].outcome.expect("scored").to_string(), "W+4.5");
    let d = &analysis.disagreements[0];
    assert!(d.detail.contains("handicap compensation"), "{}", d.detail);
    assert_eq!(d.confidence, Confidence::Low);
}

#[test]
fn a_result_naming_the_wrong_colour_is_told_without_lowering_the_confidence() {
    // The MARKED position below counts W+34.5 (dead stones from the record's markup); a record
    // saying B+34.5 names the wrong colour, one saying B+12.5 is wrong some other way.
    let marked = |re: &str| {
        record(&format!(
            "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7.5]RE[{re}]{}AB[hh];B[];W[]TW[hh])",
            setup(MARKED)
        ))
    };
    let swapped = &analyze(&marked("B+34.5"), &requests(&["recorded"])).disagreements[0];
    assert!(swapped.detail.contains("colours swapped"), "{}", swapped.detail);
    let other = &analyze(&marked("B+12.5"), &requests(&["recorded"])).disagreements[0];
    assert!(!other.detail.contains("colours swapped"), "{}", other.detail);
    assert_eq!(swapped.confidence, other.confidence);
    assert_eq!(swapped.confidence, Confidence::High);
}

#[test]
fn a_result_counted_as_the_board_stands_is_explained() {
    // The MARKED position with H2 left on the board: Black 9 stones + 18 points + H2 = 28,
    // White 10 stones and no point (H2 touches the whole right side): B+10.5 with komi 7.5.
    let text = format!(
        "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7.5]RE[B+10.5]{}AB[hh];B[];W[]TW[hh])",
        setup(MARKED)
    );
    let d = &analyze(&record(&text), &requests(&["recorded"])).disagreements[0];
    assert!(d.detail.contains("counted as the board stands"), "{}", d.detail);
    assert_eq!(d.confidence, Confidence::Low);
}

#[test]
fn resigned_games_are_not_scored() {
    let game = worked_example("W+R", "Japanese", "6.5");
    let analysis = analyze(&game, &requests(&["recorded", "chinese"]));
    assert!(analysis.scores.iter().all(|s| s.outcome.is_none()));
    assert!(
        analysis
            .findings
            .iter()
            .any(|f| f.code == Code::NoScore && f.message.contains("resignation"))
    );
    assert!(analysis.disagreements.is_empty());
}

/// Black's wall on the C column, White's on the D column; White has a stone at G3 in its own
/// area.
const MARKED: &str = "
    . . x o . . . . .
    . . x o . . . . .
    . . x o . . . . .
    . . x o . . . . .
    . . x o . . . . .
    . . x o . . . . .
    . . x o . . o . .
    . . x o . . . . .
    . . x o . . . . .
";

#[test]
fn markup_decides_the_dead_stones_when_the_record_has_it() {
    // A Black stone at H2 inside White's area, marked TW in the last node: dead.
    let text = format!(
        "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7.5]RE[W+34.5]{}AB[hh];B[];W[]TW[hh])",
        setup(MARKED)
    );
    let game = record(&text);
    let analysis = analyze(&game, &requests(&["recorded"]));
    let score = &analysis.scores[0];
    assert_eq!(score.dead_stones, DeadStoneSource::Markup);
    assert_eq!(score.count.expect("counted").dead, [1, 0]);
    // Black: 9 stones + 18 points; White: 10 stones + 44 points (H2 included).
    assert_eq!(score.outcome.expect("scored"), Outcome::from_margin(27.0 - 54.0 - 7.5));
    assert!(analysis.disagreements.is_empty(), "{:?}", analysis.disagreements);
    // Asking for the estimator instead ignores the markup.
    let estimated = analyze(
        &game,
        &AnalysisOptions { dead_stones: DeadStoneMode::Estimate, ..requests(&["recorded"]) },
    );
    assert_eq!(estimated.scores[0].dead_stones, DeadStoneSource::Estimate);
}

#[test]
fn a_cycle_without_superko_has_no_result() {
    // Three kos taken in turn, three rounds: the whole board repeats (tests/rules_game.rs).
    let board = "
        . X O . . . X O .
        X O . O . X . X O
        . X O . . . X O .
        . . . . . . . . .
        . X O . . . . . .
        X O . O . . . . .
        . X O . . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    let round = ";B[cb];W[gb];B[cf];W[bb];B[hb];W[bf]";
    let text = format!(
        "(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]RE[Void]PL[B]{}{round}{round}{round})",
        setup(board)
    );
    let game = record(&text);
    let analysis = analyze(&game, &requests(&["recorded", "japanese", "chinese"]));
    assert_eq!(analysis.scores[0].outcome, Some(Outcome::NoResult));
    assert_eq!(analysis.scores[1].outcome, Some(Outcome::NoResult));
    // Chinese rules forbid the repetition (superko): the final position is counted.
    assert!(analysis.scores[2].outcome.is_some_and(Outcome::is_counted));
    assert!(analysis.findings.iter().any(|f| f.code == Code::NoScore));
}

/// A finished 9x9 position with a dead stone on each side: White's at C8 inside Black's
/// corner, Black's at H5 inside White's side.
const FINISHED: &str = "
    . . . . x o . . .
    . . o . x o . . .
    . . . . x o . . .
    . . . . x o . . .
    x x x x x o . x .
    o o o o o o . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
";

#[test]
fn the_estimator_gives_the_same_answer_every_time_and_on_every_thread() {
    let board = Board::from_diagram(FINISHED).expect("diagram");
    let first = dead_stones::estimate(&board);
    assert_eq!(dead_stones::estimate(&board), first);
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let b = board.clone();
            std::thread::spawn(move || dead_stones::estimate(&b))
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("no panic"), first);
    }
    // And it is right: the stones inside the other side's area are dead.
    let dead_at = |x: u8, y: u8| {
        first
            .chains
            .iter()
            .any(|c| c.stones.contains(&Point::new(x, y)) && c.status == Status::Dead)
    };
    assert!(dead_at(2, 1), "White's stone inside Black's corner");
    assert!(dead_at(7, 4), "Black's stone inside White's side");
    assert!(!dead_at(4, 0) && !dead_at(5, 0), "the walls live");
}

#[test]
fn a_record_that_stops_in_the_opening_is_not_counted() {
    // The first ten moves of a game with the final result of the whole game (a record cut
    // short, as many copies in merged databases are): nothing on the board decides the score.
    let game = record(
        "(;GM[1]FF[4]SZ[19]KM[6.5]RU[Japanese]RE[B+2.5]\
         ;B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[jp];W[qj];B[qh];W[qm])",
    );
    let analysis = analyze(&game, &requests(&["recorded", "chinese"]));
    assert!(analysis.scores.iter().all(|s| s.outcome.is_none()));
    let reason = analysis.findings.iter().find(|f| f.code == Code::NoScore).expect("a reason");
    assert!(reason.message.contains("stops at move 10 with 10 stones"), "{}", reason.message);
    assert!(analysis.disagreements.is_empty(), "no disagreement is claimed");

    // The same few stones, passed out by both players: the players agreed the game was over,
    // so it is counted (Black's 5 stones and White's 5 on an open board).
    let passed = record(
        "(;GM[1]FF[4]SZ[19]KM[6.5]RU[Chinese]RE[W+6.5]\
         ;B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[jp];W[qj];B[qh];W[qm];B[];W[])",
    );
    let analysis = analyze(&passed, &requests(&["recorded"]));
    assert!(analysis.scores.iter().all(|s| s.outcome.is_some()));
}

#[test]
fn a_count_under_inferred_rules_is_not_confident_when_the_other_counting_differs() {
    // The worked example with one more black stone inside Black's own territory (A19) and both
    // sides passing: territory 43 - 37 - 6.5 = W+0.5, area 184 - 177 - 6.5 = B+0.5.
    let game = |rules: &str| {
        record(&format!(
            "(;GM[1]FF[4]SZ[19]{rules}KM[6.5]RE[W+0.5]{};B[aa];W[];B[])",
            setup(WORKED_EXAMPLE)
        ))
    };
    // No RU: kifu infers Japanese rules from the komi, but the record may have been counted by
    // area, so the territory count is not trusted as exact.
    let inferred = &analyze(&game(""), &requests(&["recorded"])).scores[0];
    assert_eq!(inferred.outcome.expect("scored").to_string(), "W+0.5");
    assert_eq!(inferred.confidence, Confidence::Medium);
    assert!(
        inferred.note.contains("rules inferred: area counting gives B+0.5"),
        "{}",
        inferred.note
    );
    // RU says Japanese: the same count is certain.
    let named = &analyze(&game("RU[Japanese]"), &requests(&["recorded"])).scores[0];
    assert_eq!(named.outcome.expect("scored").to_string(), "W+0.5");
    assert_eq!(named.confidence, Confidence::High, "{}", named.note);
    // The doubt is the recorded rules' alone: a requested preset is counted as asked.
    let chinese = &analyze(&game(""), &requests(&["chinese", "recorded"])).scores;
    assert_eq!(chinese[0].confidence, Confidence::High, "{}", chinese[0].note);
    assert_eq!(chinese[1].confidence, Confidence::Medium);

    // The worked example itself: both counting families give W+0.5 with komi 7.5 (Black and
    // White have 140 stones each), so inferred rules leave nothing in doubt.
    let even =
        record(&format!("(;GM[1]FF[4]SZ[19]KM[7.5]RE[W+0.5]{};B[];W[])", setup(WORKED_EXAMPLE)));
    let score = &analyze(&even, &requests(&["recorded"])).scores[0];
    assert_eq!(score.confidence, Confidence::High, "{}", score.note);
}

/// A seki on the top edge: C5 is the liberty both chains share, B4 and E4 their eyes.
const EDGE_SEKI: &str = "
    x x . o o
    x . x o .
    x x x o o
    x x x o o
    . x x o o
";

#[test]
fn a_neutral_point_left_after_finishing_a_record_leaves_an_area_count_unproven() {
    // The record stops after Black's A1 without the players passing: kifu finishes it, and the
    // shared liberty C5, which neither side can fill without putting itself in atari, stays
    // neutral. Area: Black 13 stones + B4 = 14, White 9 stones + E4 = 10.
    let stopped =
        record(&format!("(;GM[1]FF[4]SZ[5]RU[Chinese]KM[0]RE[B+4]{};B[ae])", setup(EDGE_SEKI)));
    let score = &analyze(&stopped, &requests(&["recorded"])).scores[0];
    assert_eq!(score.outcome.expect("scored").to_string(), "B+4");
    assert_eq!(score.count.expect("counted").neutral, 1);
    assert_eq!(score.confidence, Confidence::Medium);
    assert!(score.note.contains("1 neutral point left unfilled"), "{}", score.note);
    // Passed out by both players, the position is counted as they left it: the same count,
    // certain.
    let passed = record(&format!(
        "(;GM[1]FF[4]SZ[5]RU[Chinese]KM[0]RE[B+4]{};B[ae];W[];B[])",
        setup(EDGE_SEKI)
    ));
    let score = &analyze(&passed, &requests(&["recorded"])).scores[0];
    assert_eq!(score.outcome.expect("scored").to_string(), "B+4");
    assert_eq!(score.confidence, Confidence::High, "{}", score.note);
}
