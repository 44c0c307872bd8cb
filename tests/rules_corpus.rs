//! Known real cases from the shared corpus (`../shared/corpus`, A. E. Brouwer's professional
//! collection as kept in shiofreecss/Gosei-Kifu): a corrupt record full of moves on occupied
//! points, and an eternal-life game recorded as Void. Skipped, with a message, when the corpus
//! is absent.
//!
//! Records are read by the record layer (`split_file`, then `PendingGame::read`), exactly as
//! `kifu audit` reads them.

mod util;

use std::sync::Arc;

use kifu::analysis::replay::{Replay, replay};
use kifu::analysis::{AnalysisOptions, GameStatus, analyze};
use kifu::finding::Code;
use kifu::record::{GameRecord, ReadOptions, split_file};
use kifu::rules::{Cycle, KoRule, Ruleset, preset};

/// The games of one file, read by the record layer.
fn read_file(path: &std::path::Path) -> Vec<GameRecord> {
    let options = ReadOptions::default();
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = split_file(&path.display().to_string(), Arc::from(bytes), &options);
    file.games.iter().map(|game| game.read(&options)).collect()
}

/// The first game of the file at `relative` in the corpus, or `None` (with a message) when
/// it is absent.
fn corpus_record(relative: &str) -> Option<GameRecord> {
    let Some(path) = util::shared_corpus().map(|c| c.join(relative)).filter(|p| p.is_file()) else {
        eprintln!("skipped: shared corpus file {relative} not found (set KIFU_SHARED_CORPUS)");
        return None;
    };
    read_file(&path).into_iter().next()
}

fn rules(name: &str) -> Ruleset {
    preset(name).unwrap().ruleset
}

fn count(replay: &Replay, code: Code) -> usize {
    replay.findings.iter().filter(|f| f.code == code).count()
}

fn first(replay: &Replay, code: Code) -> Option<u32> {
    replay.findings.iter().find(|f| f.code == code).map(|f| f.move_number)
}

fn illegal_moves(replay: &Replay) -> Vec<(u32, Code)> {
    let illegal = [Code::Occupied, Code::Suicide, Code::Ko, Code::Superko, Code::OffBoard];
    replay
        .findings
        .iter()
        .filter(|f| illegal.contains(&f.code))
        .map(|f| (f.move_number, f.code))
        .collect()
}

/// A Honinbo preliminary (2003, Kurotaki - Redmond) whose record is corrupt from move 153:
/// stretches of earlier moves replayed again. Known from the peers' cross-check
/// (shared/peers/README.md): 45 moves on occupied points and 4 suicides.
#[test]
fn honinbo_59_q04_is_corrupt_from_move_153() {
    let Some(record) = corpus_record("aeb-pro/Honinbo/59/Q04.sgf") else { return };
    let replay = replay(&record, &rules("japanese"));
    assert_eq!(replay.moves_played as usize, record.moves.len());
    assert_eq!(record.moves.len(), 216);
    assert_eq!(count(&replay, Code::Occupied), 45);
    assert_eq!(count(&replay, Code::Suicide), 4);
    let illegal = illegal_moves(&replay);
    assert_eq!(illegal.len(), 49, "nothing but occupied points and suicides");
    assert_eq!(illegal.first(), Some(&(153, Code::Occupied)), "the first 152 moves are sound");
    assert_eq!(replay.illegal_moves, 49);
    let first = &replay.findings[0];
    assert_eq!(first.message, "Black T13 (sg) is played on a White stone; the move is skipped");
    replay.board.check_consistency().unwrap();

    let analysis = analyze(&record, &AnalysisOptions::default());
    assert_eq!(analysis.status, GameStatus::Illegal);
    for f in &replay.findings {
        assert!(analysis.findings.contains(f), "kifu audit reports {f}");
    }
}

/// The 49th Honinbo league game Rin Kaiho - Komatsu Hideki (1993), recorded as Void: eternal
/// life. Moves 328 to 333 recreate the positions after moves 322 to 327 (checked stone by
/// stone; no position repeats earlier), then the record stops.
#[test]
fn honinbo_49_01_eternal_life_is_a_cycle_under_simple_ko_and_superko_otherwise() {
    let Some(record) = corpus_record("aeb-pro/Honinbo/49/01.sgf") else { return };

    let simple = replay(&record, &rules("japanese"));
    assert_eq!(illegal_moves(&simple), []);
    assert_eq!(simple.cycle, Some(Cycle { start: 328, recreates: 322, last: 333, occurrences: 2 }));
    assert_eq!(first(&simple, Code::Cycle), Some(328));
    assert_eq!(count(&simple, Code::Cycle), 1);
    assert!(!simple.is_illegal());
    // `kifu audit` judges the game under the rules the record names or implies.
    let own = analyze(&record, &AnalysisOptions::default()).status;
    let expected = if record.rules.ruleset.ko == KoRule::Simple {
        GameStatus::Ok
    } else {
        GameStatus::Illegal
    };
    assert_eq!(own, expected, "rules {:?}", record.rules.preset.map(|p| p.name));

    for (ruleset, kind) in [("chinese", "positional"), ("aga", "situational")] {
        let superko = replay(&record, &rules(ruleset));
        let expected: Vec<(u32, Code)> = (328..=333).map(|m| (m, Code::Superko)).collect();
        assert_eq!(illegal_moves(&superko), expected, "{ruleset}");
        assert_eq!(superko.cycle, None, "{ruleset}: repetitions are illegal, not a cycle");
        let message = &superko.findings[0].message;
        assert_eq!(
            message,
            &format!("White D1 (ds) recreates the position after move 322 ({kind} superko)")
        );
        // Tolerant replay plays the moves anyway: the final position is the same.
        assert!(superko.board.same_stones(&simple.board));
    }
}

/// Every professional game of the shared corpus replays without a panic and ends on a
/// consistent board. Slow (56k games in a debug build): run with
/// `cargo test --release --test rules_corpus -- --ignored --nocapture`.
#[test]
#[ignore]
fn every_aeb_pro_game_replays_to_a_consistent_board() {
    let Some(root) = util::shared_corpus().map(|c| c.join("aeb-pro")).filter(|p| p.is_dir()) else {
        eprintln!("skipped: shared corpus not found (set KIFU_SHARED_CORPUS)");
        return;
    };
    let files = util::sgf_files(&root);
    let mut counts = std::collections::BTreeMap::new();
    let (mut games, mut moves) = (0, 0);
    let mut cycle_results = std::collections::BTreeMap::new();
    for path in &files {
        for record in read_file(path) {
            for name in ["japanese", "chinese"] {
                let replay = replay(&record, &rules(name));
                if replay.cycle.is_some() {
                    let result = record.result.outcome.map_or("?".into(), |o| o.to_string());
                    *cycle_results.entry(result).or_insert(0u32) += 1;
                }
                replay
                    .board
                    .check_consistency()
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                for f in &replay.findings {
                    *counts.entry((name, f.code.as_str())).or_insert(0u32) += 1;
                }
            }
            games += 1;
            moves += record.moves.len();
        }
    }
    eprintln!("{games} games, {moves} moves; findings: {counts:?}");
    eprintln!("results of the games ending in a cycle: {cycle_results:?}");
    assert!(games > 50_000);
    // Games that end in a cycle are the void ones (triple, quadruple, quintuple ko, eternal
    // life), and one forfeit (Ryusei 13 T05).
    let voids = cycle_results.get("Void").copied().unwrap_or(0);
    let total: u32 = cycle_results.values().sum();
    assert!(voids >= 45 && total - voids <= 2, "{cycle_results:?}");
}
