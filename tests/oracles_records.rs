//! Other projects' legality cases as game records: KataGo's rules tests, Little Go's illegal
//! games and Fuego's repetition regression suite, transcribed into SGF under
//! `corpus/cases/oracles/sgf/` (sources, commits and licences in `corpus/cases/oracles/README.md`),
//! read by the record layer and replayed by [`replay`], and run through the real `kifu audit`.
//!
//! `EXPECTED.tsv` beside the files lists, for each record, the rule findings kifu must report
//! (code and move number) and the oracle's statement behind them.

mod oracles_support;
mod util;

use std::collections::BTreeMap;

use kifu::analysis::replay::replay;
use kifu::finding::Code;
use kifu::record::sgf::read_game;
use kifu::record::{CharsetOrigin, GameLocation, GameRecord, ReadOptions, TextEncoding};
use kifu::rules::{KoRule, Ruleset, preset};
use util::{Dir, csv_rows, run_ok};

/// The codes that say a game broke the rules of play (the replay's findings).
const RULE_CODES: [Code; 10] = [
    Code::Occupied,
    Code::Suicide,
    Code::Ko,
    Code::Superko,
    Code::OffBoard,
    Code::OutOfTurn,
    Code::AfterEnd,
    Code::Cycle,
    Code::SetupOccupied,
    Code::SetupInMainLine,
];

/// `EXPECTED.tsv`: file name to the expected `code@move` list.
fn expected() -> BTreeMap<String, Vec<String>> {
    let text = oracles_support::read_fixture("sgf/EXPECTED.tsv");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut cells = line.split('\t');
            let file = cells.next().expect("a file").to_string();
            let findings = cells.next().expect("findings");
            let list = match findings {
                "-" => Vec::new(),
                f => f.split_whitespace().map(str::to_string).collect(),
            };
            (file, list)
        })
        .collect()
}

fn read(file: &str) -> GameRecord {
    let text = oracles_support::read_fixture(&format!("sgf/{file}"));
    let location = GameLocation { source: file.to_string(), game: 1, offset: 0, line: 1 };
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    read_game(&text, location, encoding, &ReadOptions::default())
}

/// The rule findings of a replay as `code@move`.
fn rule_findings(record: &GameRecord, ruleset: &Ruleset) -> Vec<String> {
    replay(record, ruleset)
        .findings
        .iter()
        .filter(|f| RULE_CODES.contains(&f.code))
        .map(|f| format!("{}@{}", f.code.as_str(), f.move_number))
        .collect()
}

#[test]
fn every_record_is_listed_once() {
    let listed = expected();
    let mut files: Vec<String> = std::fs::read_dir(oracles_support::fixture("sgf"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    files.sort();
    assert_eq!(files, listed.keys().cloned().collect::<Vec<_>>());
}

/// Each record replayed under the rules its RU names gives exactly the expected findings.
#[test]
fn replays_under_the_recorded_rules_find_what_the_oracles_say() {
    for (file, want) in expected() {
        let record = read(&file);
        assert!(record.findings.iter().all(|f| f.code != Code::Syntax), "{file} reads");
        assert_eq!(rule_findings(&record, &record.rules.ruleset), want, "{file}");
    }
}

/// The move an oracle asks about, replayed under simple ko, situational and positional
/// superko: `None` when it is legal, else the finding's code.
fn verdicts(file: &str, move_number: u32) -> [Option<String>; 3] {
    let record = read(file);
    let base = preset("chinese").unwrap().ruleset;
    [KoRule::Simple, KoRule::SituationalSuperko, KoRule::PositionalSuperko].map(|ko| {
        replay(&record, &Ruleset { ko, ..base })
            .findings
            .iter()
            // A cycle at the end is no verdict on the move's legality.
            .find(|f| {
                f.move_number == move_number
                    && f.code != Code::Cycle
                    && RULE_CODES.contains(&f.code)
            })
            .map(|f| f.code.as_str().to_string())
    })
}

/// Fuego `regression/repetition.tst`: `is_legal` of one move under `go_param_rules ko_rule`
/// simple, superko (situational) and pos_superko, each case on its own position.
#[test]
fn fuego_repetition_verdicts_under_each_ko_rule() {
    let ko = || Some("ko".to_string());
    let superko = || Some("superko".to_string());
    // Tests 10-12: the simple-ko point is illegal under every rule.
    assert_eq!(verdicts("fuego-simpleko.sgf", 2), [ko(), ko(), ko()]);
    // Tests 20-22: the throw-in of a long life (eternal life) is legal only under simple ko.
    assert_eq!(verdicts("fuego-long-life.sgf", 4), [None, superko(), superko()]);
    // Tests 40-42: triple ko.
    assert_eq!(verdicts("fuego-triple-ko.sgf", 6), [None, superko(), superko()]);
    // Tests 50-52: the same position, but with the other player to move.
    assert_eq!(verdicts("fuego-positional-superko.sgf", 3), [None, None, superko()]);
}

/// Little Go's two superko games: the positional one repeats a position with the other player
/// to move (legal under situational superko), the situational one with the same player.
#[test]
fn little_go_superko_games_under_each_ko_rule() {
    let superko = || Some("superko".to_string());
    assert_eq!(verdicts("littlego-positional-superko.sgf", 23), [None, None, superko()]);
    assert_eq!(verdicts("littlego-situational-superko.sgf", 24), [None, superko(), superko()]);
}

/// Fuego tests 30-32 on a whole game (shared corpus, `fuego-regression/regression/sgf/
/// repetition/repetition-1.sgf`, RU[GOE]): "Last move 105 B C9 repeats 99", illegal under
/// situational and positional superko, legal under simple ko.
///
/// Under positional superko (kifu reads GOE as Ing, positional as KataGo's `ing`) the ko fight
/// before it already repeats positions: move 65 recreates the position after move 62, with the
/// other player to move (sgfmill's board agrees), and so on every four moves. Fuego asks only
/// about move 105.
#[test]
fn fuego_repetition_1_last_move_repeats_move_99() {
    let Some(corpus) = oracles_support::shared_corpus() else { return };
    let path = corpus.join("fuego-regression/regression/sgf/repetition/repetition-1.sgf");
    let text = std::fs::read_to_string(&path).unwrap();
    let location = GameLocation { source: "repetition-1.sgf".into(), game: 1, offset: 0, line: 1 };
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    let record = read_game(&text, location, encoding, &ReadOptions::default());
    assert_eq!(record.moves.len(), 105);
    assert_eq!(record.rules.preset.map(|p| p.name), Some("ing"));
    let positional = rule_findings(&record, &record.rules.ruleset);
    assert_eq!(positional.first().map(String::as_str), Some("superko@65"));
    assert_eq!(positional.last().map(String::as_str), Some("superko@105"));
    let base = preset("chinese").unwrap().ruleset;
    let situational = Ruleset { ko: KoRule::SituationalSuperko, ..base };
    assert_eq!(rule_findings(&record, &situational), ["superko@105"]);
    // Under simple ko every move is legal; ending on a repetition of the position after move 99
    // with the same player to move, the record ends in a whole-board cycle by kifu's reading
    // (a record stops where the players stopped; see `rules::game`).
    let simple = Ruleset { ko: KoRule::Simple, ..base };
    assert_eq!(rule_findings(&record, &simple), ["cycle@105"]);
}

/// The whole folder through the real binary: `findings.csv` has the expected rule findings for
/// every record, and `scores.csv` the results the oracles give where they give one.
#[test]
fn kifu_audit_reports_the_oracles_findings() {
    let dir = Dir::new("oracles");
    let folder = oracles_support::fixture("sgf");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "report", folder.to_str().unwrap()]));
    let rows = csv_rows(&dir.read("report/findings.csv"));
    let header = &rows[0];
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (source, code, number) = (col("source"), col("code"), col("move"));
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in &rows[1..] {
        let file = row[source].rsplit('/').next().unwrap().to_string();
        let is_rule = Code::from_name(&row[code]).is_some_and(|c| RULE_CODES.contains(&c));
        let list = found.entry(file).or_default();
        if is_rule {
            list.push(format!("{}@{}", row[code], row[number]));
        }
    }
    for (file, want) in expected() {
        let got = found.get(&file).cloned().unwrap_or_default();
        assert_eq!(got, want, "{file} in findings.csv");
    }

    let scores = csv_rows(&dir.read("report/scores.csv"));
    let header = &scores[0];
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let result_of = |file: &str| {
        scores[1..]
            .iter()
            .find(|r| r[col("source")].ends_with(file) && r[col("ruleset")] == "recorded")
            .map(|r| r[col("result")].clone())
            .unwrap_or_else(|| panic!("no recorded score for {file}"))
    };
    // KataGo "Various komis": komi 0 on a 21-21 split is a draw.
    assert_eq!(result_of("katago-various-komis.sgf"), "0");
    // KataGo "Eternal life" and "Triple ko simple": isNoResult under simple ko.
    assert_eq!(result_of("katago-eternal-life-japanese.sgf"), "Void");
    assert_eq!(result_of("katago-triple-ko-japanese.sgf"), "Void");
}
