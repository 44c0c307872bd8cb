//! One game's SGF text to a game record, through sgf-parse: every quirk fixture in
//! `corpus/cases/quirks/` (see its README for where each quirk is seen), and trees deep enough
//! to overflow a naive reader's stack.

mod util;

use kifu::finding::{Code, Severity};
use kifu::record::sgf::{MAX_GAME_NODES, read_game};
use kifu::record::{
    CharsetOrigin, GameLocation, GameRecord, KomiOrigin, ReadOptions, ReadStatus, RulesOrigin,
    TextEncoding,
};
use kifu::rules::{BoardSize, Color, Move, Outcome, Point, WinBy};

fn utf8() -> TextEncoding {
    TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false }
}

fn read_text(source: &str, text: &str) -> GameRecord {
    let location = GameLocation { source: source.to_string(), game: 1, offset: 0, line: 1 };
    read_game(text, location, utf8(), &ReadOptions::default())
}

fn fixture(name: &str) -> GameRecord {
    let path = format!("{}/corpus/cases/quirks/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_text(name, &text)
}

fn codes(record: &GameRecord) -> Vec<Code> {
    record.findings.iter().map(|f| f.code).collect()
}

fn has(record: &GameRecord, code: Code, words: &str) -> bool {
    record.findings.iter().any(|f| f.code == code && f.message.contains(words))
}

fn moves(record: &GameRecord) -> String {
    let size = record.size;
    record
        .moves
        .iter()
        .map(|m| {
            let at = match m.mv {
                Move::Pass => "pass".to_string(),
                Move::Play(p) if size.contains(p) => p.display(size.height).to_string(),
                Move::Play(p) => format!("[{}]", p.sgf().unwrap_or_default()),
            };
            format!("{}{}", m.color.letter(), at)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The setup stones as a board, `X` black, `O` white, rows from the top.
fn setup_diagram(record: &GameRecord) -> String {
    let size = record.size;
    let mut rows = Vec::new();
    for y in 0..size.height {
        let row: String = (0..size.width)
            .map(|x| {
                let stone = record
                    .setup
                    .iter()
                    .rev()
                    .find(|p| p.point == Point::new(x, y))
                    .and_then(|p| p.stone);
                match stone {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                }
            })
            .collect();
        rows.push(row);
    }
    rows.join("\n")
}

fn outcome(record: &GameRecord) -> String {
    record.result.outcome.map_or("none".to_string(), |o| o.to_string())
}

#[test]
fn tt_is_a_pass_up_to_19x19() {
    let r = fixture("tt-pass-on-19x19.sgf");
    assert_eq!(r.status, ReadStatus::Strict);
    assert_eq!(moves(&r), "BQ16 WD4 BQ4 WD16 Bpass Wpass");
    assert_eq!(r.moves[4].node, 5);
}

#[test]
fn tt_is_a_point_on_larger_boards() {
    let r = fixture("tt-move-on-25x25.sgf");
    assert_eq!(r.size, BoardSize::square(25).unwrap());
    assert_eq!(moves(&r), "BN13 WU6 Bpass Wpass");
}

#[test]
fn compressed_point_lists_expand() {
    let r = fixture("compressed-point-list.sgf");
    assert_eq!(
        setup_diagram(&r),
        "\
O.......O
........O
..XXX...O
..XXX....
..XXX....
.........
.........
.........
........."
    );
    assert_eq!(
        r.findings.iter().filter(|f| f.severity > Severity::Info).count(),
        0,
        "{:?}",
        r.findings
    );
}

#[test]
fn ff3_identifiers_are_read_and_reported_once_each() {
    let r = fixture("ff3-mixed-case-identifiers.sgf");
    assert_eq!(r.size, BoardSize::square(9).unwrap());
    assert_eq!(r.property("PB"), Some("hi"));
    assert_eq!(r.property("PW"), Some("ka"));
    assert_eq!(r.komi.points, -1.5);
    assert_eq!(moves(&r), "BE5 WC7 BG7");
    assert!(has(&r, Code::BadIdentifier, "FF[3]-style identifier Black read as B (2 times)"));
    assert!(has(&r, Code::BadIdentifier, "KoMi read as KM"));
    // FF[3] allowed them: information, not a warning.
    let bad: Vec<_> = r.findings.iter().filter(|f| f.code == Code::BadIdentifier).collect();
    assert_eq!(bad.len(), 8);
    assert!(bad.iter().all(|f| f.severity == Severity::Info));
}

#[test]
fn setup_of_both_colours_then_black_is_no_handicap() {
    let r = fixture("setup-then-black-move.sgf");
    assert_eq!(r.handicap, 0);
    assert_eq!(r.to_move, None);
    assert_eq!(r.setup.len(), 3);
    assert_eq!(moves(&r), "BE5 WG7 BE3");
    assert!(!codes(&r).contains(&Code::HandicapMismatch));
}

#[test]
fn fox_handicap_without_setup_gets_the_standard_stones() {
    let r = fixture("fox-handicap-without-setup.sgf");
    assert_eq!((r.handicap, r.handicap_implied), (3, true));
    let names: Vec<String> = r.setup.iter().map(|p| p.point.display(19).to_string()).collect();
    assert_eq!(names, ["D16", "D4", "Q16"]);
    assert!(r.setup.iter().all(|p| p.stone == Some(Color::Black)));
    assert_eq!(r.moves[0].color, Color::White);
    // KM[50] is Fox's 0.5.
    assert_eq!((r.komi.points, r.komi.origin), (0.5, KomiOrigin::FoxUnits));
    assert!(has(&r, Code::HandicapImplied, "D16 D4 Q16"));
    assert_eq!(r.rules.preset.map(|p| p.name), Some("chinese"));
    assert_eq!(r.rules.ruleset.komi, 0.5);
}

#[test]
fn fox_komi_in_hundredths_of_zi() {
    let r = fixture("fox-komi-units.sgf");
    assert_eq!((r.komi.points, r.komi.origin), (7.5, KomiOrigin::FoxUnits));
    assert_eq!(r.komi.raw.as_deref(), Some("375"));
    assert!(has(&r, Code::KomiUnits, "KM[375] is 7.5 points"));
    // Fox's second AP has no version and repeats AP: both reported as information, both kept.
    let aps: Vec<_> =
        r.properties.iter().filter(|(k, _)| k == "AP").map(|(_, v)| v.as_str()).collect();
    assert_eq!(aps, ["GNU Go:3.8", "foxwq"]);
    assert!(has(&r, Code::BadValue, "AP[foxwq] has no version"));
    assert!(has(&r, Code::DuplicateProperty, "AP appears twice"));
}

#[test]
fn fox_km0_in_an_even_game_is_the_rulesets_komi() {
    let r = fixture("fox-even-game-km0.sgf");
    assert_eq!((r.komi.points, r.komi.origin), (6.5, KomiOrigin::Assumed));
    assert_eq!(r.komi.raw.as_deref(), Some("0"));
    assert!(has(&r, Code::KomiAssumed, "Fox writes KM[0]"));
    assert_eq!(
        r.result.outcome,
        Some(Outcome::Win { winner: Color::Black, by: WinBy::Unspecified })
    );
}

#[test]
fn gogod_komi_and_margin_in_zi() {
    let r = fixture("gogod-zi-komi.sgf");
    assert_eq!((r.komi.points, r.komi.origin), (7.5, KomiOrigin::Zi));
    assert_eq!(outcome(&r), "W+2.5");
    assert!(r.result.in_zi);
}

#[test]
fn a_game_that_is_not_go_is_reported_not_replayed() {
    let r = fixture("not-go.sgf");
    assert_eq!(r.status, ReadStatus::Failed);
    assert!(r.moves.is_empty());
    assert!(has(&r, Code::NotGo, "GM[2]"));
    assert_eq!(r.property("PB"), Some("first"));
    assert_eq!(r.result.raw.as_deref(), Some("B+12"));
    assert_eq!(codes(&r), [Code::NotGo]);
}

#[test]
fn missing_sz_is_19() {
    let r = fixture("missing-sz.sgf");
    assert_eq!(r.size, BoardSize::STANDARD);
    assert_eq!(moves(&r), "BQ16 WD4 BT19");
}

#[test]
fn rectangular_boards() {
    let r = fixture("rectangular-sz.sgf");
    assert_eq!(r.size, BoardSize::new(19, 13).unwrap());
    // W[ta] is column 20 of a 19-column board: kept for the replay to report.
    assert_eq!(moves(&r), "BD10 WQ4 BT1 W[ta]");
    assert!(r.findings.iter().all(|f| f.code != Code::BoardSize));
}

#[test]
fn every_invalid_value_is_reported() {
    let r = fixture("invalid-values.sgf");
    assert_eq!((r.komi.points, r.komi.origin), (6.5, KomiOrigin::Recorded));
    assert!(has(&r, Code::BadValue, "KM[6,5] is not an FF[4] real number: read as 6.5"));
    assert!(has(&r, Code::BadValue, "HA[0] is not an FF[4] handicap"));
    assert!(has(&r, Code::BadValue, "AP[foxwq] has no version"));
    assert!(has(&r, Code::BadValue, "PL[b] read as Black"));
    assert_eq!(r.to_move, Some(Color::Black));
    assert!(has(&r, Code::BadValue, "B[ aa] read as B[aa]"));
    assert!(has(&r, Code::BadValue, "W[aab] is not a move: ignored"));
    assert!(has(&r, Code::BadValue, "B[pd][dd] has 2 values: the first is played"));
    assert_eq!(moves(&r), "BA19 BQ16 Wpass");
    // Move numbers: B[ aa] is move 1, W[aab] sits in a node before move 2.
    let ignored = r.findings.iter().find(|f| f.message.contains("aab")).unwrap();
    assert_eq!(ignored.move_number, 1);
}

#[test]
fn duplicate_properties_in_a_node() {
    let r = fixture("duplicate-properties.sgf");
    assert!(has(&r, Code::DuplicateProperty, "AP appears twice in one node: both kept"));
    assert!(has(&r, Code::DuplicateProperty, "C appears twice in one node"));
    assert!(has(&r, Code::DuplicateProperty, "W appears twice in one node: both moves are kept"));
    assert_eq!(moves(&r), "BD13 WQ4 WD16");
    let twice = r.findings.iter().find(|f| f.message.starts_with("W appears")).unwrap();
    assert_eq!((twice.move_number, twice.severity), (2, Severity::Warning));
}

#[test]
fn setup_after_the_first_move_is_kept_and_reported() {
    let r = fixture("setup-in-main-line.sgf");
    assert_eq!(r.later_setup.len(), 1);
    let later = &r.later_setup[0];
    assert_eq!((later.after_moves, later.node), (1, 2));
    assert_eq!(later.placements.len(), 2);
    assert!(has(&r, Code::SetupInMainLine, "after move 1"));
    assert_eq!(moves(&r), "BE5 WC3");
}

#[test]
fn setup_before_the_first_move_is_the_handicap() {
    let r = fixture("setup-before-first-move.sgf");
    assert_eq!((r.handicap, r.handicap_implied), (2, false));
    assert!(r.setup.is_empty());
    assert_eq!(r.later_setup[0].after_moves, 0);
    assert!(!codes(&r).contains(&Code::SetupInMainLine));
    assert!(!codes(&r).contains(&Code::HandicapMismatch));
}

#[test]
fn mixed_nodes() {
    let r = fixture("mixed-node.sgf");
    assert!(has(&r, Code::MixedNode, "a move and setup in one node"));
    assert!(has(&r, Code::MixedNode, "moves of both colours"));
    assert_eq!(moves(&r), "BC7 BE5 WG3");
    // The setup of node 1 applies before its move.
    assert_eq!(r.later_setup[0].after_moves, 0);
}

#[test]
fn off_board_moves_are_kept_as_points() {
    let r = fixture("off-board-move.sgf");
    assert_eq!(r.moves[1].mv, Move::Play(Point::new(25, 25)));
    assert!(r.findings.iter().all(|f| f.severity < Severity::Warning), "{:?}", r.findings);
}

#[test]
fn empty_games_are_reported() {
    let r = fixture("empty-game.sgf");
    assert_eq!(r.status, ReadStatus::Strict);
    assert!(has(&r, Code::EmptyGame, "no moves"));
    assert_eq!(r.result.outcome, Some(Outcome::NoResult));
}

#[test]
fn broken_variations_fall_back_to_lenient() {
    let r = fixture("broken-variation-lenient.sgf");
    assert_eq!(r.status, ReadStatus::Lenient);
    assert_eq!(moves(&r), "BE5 WC7 BG3");
    let f = r.findings.iter().find(|f| f.code == Code::Lenient).unwrap();
    assert!(f.message.contains("a '(' that opens a variation before any node at byte"), "{f}");
    assert!(f.message.contains("line 2"), "{f}");
}

#[test]
fn unclosed_games_keep_their_moves() {
    let r = fixture("unclosed-game-lenient.sgf");
    assert_eq!(r.status, ReadStatus::Lenient);
    assert_eq!(moves(&r), "BE5 WC7 BG3");
    assert!(has(&r, Code::Lenient, "a property value that is never closed"));
}

#[test]
fn board_sizes_the_spec_forbids() {
    let r = fixture("sz-square-with-colon.sgf");
    assert_eq!(r.size, BoardSize::STANDARD);
    let f = r.findings.iter().find(|f| f.code == Code::BoardSize).unwrap();
    assert_eq!(f.severity, Severity::Info);
    let r = fixture("sz-out-of-range.sgf");
    assert_eq!(r.size, BoardSize::STANDARD);
    let f = r.findings.iter().find(|f| f.code == Code::BoardSize).unwrap();
    assert_eq!(f.severity, Severity::Error);
    assert!(f.message.contains("SZ[60] is outside 1..52"));
}

#[test]
fn missing_komi_is_the_inferred_rulesets() {
    let r = fixture("missing-komi.sgf");
    assert_eq!(r.rules.origin, RulesOrigin::Inferred);
    assert_eq!(r.rules.preset.map(|p| p.name), Some("japanese"));
    assert!(has(&r, Code::RulesInferred, "PC[Nihon Ki-in, Tokyo]"));
    // Undated, and RE[B+2] is a whole-point result that 6.5 komi cannot give: a game from the
    // years without komi (the first Oteai was in 1927).
    assert_eq!(
        (r.komi.points, r.komi.origin, r.komi.raw.clone()),
        (0.0, KomiOrigin::Assumed, None)
    );
    assert!(has(&r, Code::KomiAssumed, "no KM: assumed 0, no komi: RE[B+2] is a whole-point"));
}

/// Old professional records (A. E. Brouwer's collection in ../shared/corpus/aeb-pro) leave KM
/// out: a game dated before komi came into use had none, and one from the 5.5 years had 5.5.
#[test]
fn missing_komi_is_the_komi_of_the_records_year() {
    let record = |dt: &str, size: u32, extra: &str| {
        read_text(
            "old.sgf",
            &format!("(;GM[1]FF[4]SZ[{size}]DT[{dt}]PC[Tokyo]{extra}RE[B+5];B[cc];W[gg])"),
        )
    };
    let r = record("1928-12-00", 19, "");
    assert_eq!((r.komi.points, r.komi.origin), (0.0, KomiOrigin::Assumed));
    assert!(has(&r, Code::KomiAssumed, "no KM: assumed 0, no komi: the game is dated 1928"));
    let r = record("1987-05-12", 19, "");
    assert_eq!(r.komi.points, 5.5);
    assert!(has(&r, Code::KomiAssumed, "assumed 5.5, the usual komi of japanese rules in 1987"));
    assert_eq!(r.rules.ruleset.komi, 5.5, "the recorded rules are scored with that komi");
    let r = record("2010-01-01", 19, "");
    assert!(has(&r, Code::KomiAssumed, "no KM: assumed 6.5, the komi of japanese rules"));
    // The history is that of 19x19 play; a handicap game has the rules' handicap komi: none
    // (the stones are the compensation) but under AGA rules, which give White half a point.
    assert_eq!(record("1987-05-12", 9, "").komi.points, 6.5);
    let r = record("1987-05-12", 19, "HA[3]AB[dd][pp][dp]");
    assert_eq!(r.komi.points, 0.0);
    assert!(has(&r, Code::KomiAssumed, "no KM: assumed 0, the komi of a handicap game under"));
    assert_eq!(record("1987-05-12", 19, "RU[AGA]HA[3]AB[dd][pp][dp]").komi.points, 0.5);
    // A stated komi is never replaced.
    assert_eq!(record("1928-12-00", 19, "KM[4.5]").komi.points, 4.5);
}

/// In the 4.5-komi years games without komi were still played (aeb-pro's Oteai/1950/1.sgf has
/// no KM and RE[B+2]): a draw or a whole-point margin, which 4.5 komi cannot give, says which.
#[test]
fn a_whole_point_result_without_km_in_the_first_komi_years_means_no_komi() {
    let record = |dt: &str, re: &str| {
        read_text("oteai.sgf", &format!("(;GM[1]FF[4]SZ[19]DT[{dt}]EV[Oteai]RE[{re}];B[cc];W[gg])"))
    };
    let r = record("1950-12-20,21", "B+2");
    assert_eq!((r.komi.points, r.komi.origin), (0.0, KomiOrigin::Assumed));
    assert!(has(&r, Code::KomiAssumed, "RE[B+2] is a whole-point result, which the usual 4.5"));
    assert_eq!(record("1950-12-20,21", "Jigo").komi.points, 0.0);
    assert_eq!(record("1950-12-20,21", "W+2.5").komi.points, 4.5);
    assert_eq!(record("1950-12-20,21", "W+R").komi.points, 4.5);
    // Once 5.5 was the norm, a whole-point result is not a no-komi game (the result may be wrong).
    assert_eq!(record("1987-05-12", "B+2").komi.points, 5.5);
    // Without a date, the years without komi are possible (aeb-pro's Hoshiai_Hasseki/2.sgf).
    let undated = read_text("undated.sgf", "(;GM[1]FF[4]SZ[19]EV[Honinbo]RE[W+4];B[cc];W[gg])");
    assert_eq!(undated.komi.points, 0.0);
    assert!(has(&undated, Code::KomiAssumed, "the record has no date (DT)"));
    let undated = read_text("undated.sgf", "(;GM[1]FF[4]SZ[19]EV[Honinbo]RE[W+4.5];B[cc];W[gg])");
    assert_eq!(undated.komi.points, 6.5);
}

#[test]
fn handicap_from_ha_and_setup() {
    let r = fixture("handicap-mismatch.sgf");
    assert_eq!(r.handicap, 3);
    assert!(has(&r, Code::HandicapMismatch, "HA[3] but 4 black stone(s) are set up"));
    let r = fixture("handicap-from-setup.sgf");
    assert_eq!((r.handicap, r.handicap_implied), (4, false));
    assert!(r.findings.iter().all(|f| f.code != Code::HandicapMismatch));
}

#[test]
fn root_properties_outside_the_root_are_ignored() {
    let r = fixture("root-property-outside-root.sgf");
    assert_eq!(r.size, BoardSize::STANDARD);
    assert_eq!(r.komi.points, 6.5);
    assert!(has(&r, Code::MisplacedProperty, "SZ[9] outside the root node: ignored"));
    assert!(has(&r, Code::MisplacedProperty, "KM[7.5] repeats game information in node 3"));
}

#[test]
fn a_missing_value_that_swallows_a_node_is_reported() {
    let r = fixture("missing-value-swallows-node.sgf");
    // sgf-parse reads `PL;W[cc]` as one property `PLW`; the move W[cc] is lost, and said so.
    assert!(has(&r, Code::BadIdentifier, "\"PL;W\" holds characters that are not letters"));
    assert_eq!(moves(&r), "BE5 BG3");
}

#[test]
fn one_variation_per_move_is_still_one_main_line() {
    let r = fixture("nested-variation-per-move.sgf");
    assert_eq!(moves(&r), "BQ16 WD4 BQ4 WD16 BF3");
    assert_eq!(r.rules.origin, RulesOrigin::Recorded);
}

#[test]
fn territory_markup_of_the_last_node() {
    let r = fixture("territory-markup.sgf");
    let markup = r.markup.as_ref().expect("TB/TW in the last node");
    assert_eq!(markup.black, (0..5).map(|y| Point::new(0, y)).collect::<Vec<_>>());
    assert_eq!(markup.white, (0..5).map(|y| Point::new(4, y)).collect::<Vec<_>>());
    // tt on 5x5 is a pass.
    assert_eq!(r.moves.last().unwrap().mv, Move::Pass);
}

#[test]
fn results_in_many_languages() {
    let r = fixture("results-chinese.sgf");
    assert_eq!((outcome(&r), r.result.in_zi), ("B+7.5".to_string(), true));
    assert_eq!(r.property("PB"), Some("黑方"));
    assert_eq!(outcome(&fixture("results-japanese.sgf")), "W+1.5");
    assert_eq!(outcome(&fixture("results-korean.sgf")), "B+R");
    let r = fixture("results-gogod-truncated.sgf");
    assert_eq!((outcome(&r), r.result.truncated), ("B+".to_string(), true));
    let r = fixture("results-unreadable.sgf");
    assert_eq!(r.result.outcome, None);
    assert_eq!(r.result.raw.as_deref(), Some("john wins"));
    assert!(has(&r, Code::ResultUnreadable, "RE[john wins]"));
}

#[test]
fn every_fixture_is_read_without_a_parser_disagreement() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/cases/quirks");
    let names: Vec<String> = util::sgf_files(&dir)
        .iter()
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect();
    assert!(names.len() >= 30);
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for name in names {
        assert!(readme.contains(&format!("`{name}`")), "{name} is not described in the README");
        let r = fixture(&name);
        for f in &r.findings {
            assert!(!f.message.contains("sgf-parse rejects"), "{name}: {f}");
            assert!(!f.message.contains("disagree"), "{name}: {f}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Deep trees: sgf-parse's Drop recurses once per node; a rayon worker has a 2 MiB stack.

/// Runs `f` on a thread with a 2 MiB stack, like a rayon worker's.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a test thread")
        .join()
        .expect("the reader must not overflow a 2 MiB stack")
}

/// A main line of `n` moves, alternating on two columns of a 19x19 board.
fn long_main_line(n: usize) -> String {
    let mut text = String::from("(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]");
    for i in 0..n {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let x = (b'a' + (i % 19) as u8) as char;
        let y = (b'a' + ((i / 19) % 19) as u8) as char;
        text.push_str(&format!(";{colour}[{x}{y}]"));
    }
    text
}

#[test]
fn a_main_line_of_50000_nodes_reads_on_a_small_stack() {
    let record = on_small_stack(|| {
        let text = long_main_line(50_000) + ")";
        read_text("generated", &text)
    });
    assert_eq!(record.status, ReadStatus::Strict);
    assert_eq!(record.moves.len(), 50_000);
    assert_eq!(record.moves[49_999].node, 50_000);
}

#[test]
fn a_variation_per_move_50000_deep_reads_on_a_small_stack() {
    let record = on_small_stack(|| {
        let mut text = String::from("(;GM[1]SZ[19]");
        for i in 0..50_000 {
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            text.push_str(&format!("(;{colour}[{}{}]", (b'a' + (i % 19) as u8) as char, 'a'));
        }
        text.push_str(&")".repeat(50_001));
        read_text("generated", &text)
    });
    assert_eq!(record.status, ReadStatus::Strict);
    assert_eq!(record.moves.len(), 50_000);
}

#[test]
fn a_deep_tree_that_fails_late_reads_leniently_on_a_small_stack() {
    // `((` after 50,000 nodes: sgf-parse's strict parser builds the whole tree, fails, and
    // drops it itself, recursively.
    let record = on_small_stack(|| {
        let text = long_main_line(50_000) + "((;B[aa])))";
        read_text("generated", &text)
    });
    assert_eq!(record.status, ReadStatus::Lenient);
    assert_eq!(record.moves.len(), 50_000);
    assert!(has(&record, Code::Lenient, "keeping 50001 of 50002 nodes"));
}

#[test]
fn games_beyond_the_node_limit_are_refused_with_a_finding() {
    let text = format!("(;GM[1]{})", ";".repeat(MAX_GAME_NODES + 1));
    let record = read_text("generated", &text);
    assert_eq!(record.status, ReadStatus::Failed);
    assert!(has(&record, Code::Limit, "more than the"));
}

#[test]
fn what_cannot_be_parsed_at_all_is_a_failed_record() {
    let record = read_text("junk", "this is not SGF");
    assert_eq!(record.status, ReadStatus::Failed);
    assert_eq!(codes(&record), [Code::Syntax]);
    assert!(record.moves.is_empty());
}
