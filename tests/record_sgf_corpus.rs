//! The sgf-parse reader over the shared corpus of real games (`../shared/corpus`, see its
//! README): no panic, every RE understood but a few, and sgf-parse and kifu's interpreter in
//! agreement on every property of every main line.
//!
//! The corpus is not part of the repository; these tests print a message and pass when it is
//! absent. The default suite reads a fixed sample (every 50th file and all parser test files,
//! leaving out the few multi-megabyte collections); the whole corpus (about 95,000 games) runs
//! with:
//!
//! ```text
//! cargo test --release --test record_sgf_corpus -- --ignored --nocapture
//! ```
//!
//! Files go through the record layer's whole front end (`split_file`, charset detection,
//! `PendingGame::read`), so collections (tom-9d, tygem-9d) are read game by game.

mod util;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use kifu::finding::Code;
use kifu::record::{GameRecord, ReadOptions, ReadStatus, split_file};

#[derive(Default)]
struct Tally {
    files: usize,
    games: usize,
    moves: usize,
    statuses: BTreeMap<String, usize>,
    codes: BTreeMap<&'static str, usize>,
    results: usize,
    unreadable: Vec<String>,
    disagreements: Vec<String>,
}

impl Tally {
    fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        self.moves += record.moves.len();
        *self.statuses.entry(format!("{:?}", record.status)).or_default() += 1;
        for f in &record.findings {
            *self.codes.entry(f.code.as_str()).or_default() += 1;
            let disagreement = f.message.contains("sgf-parse rejects")
                || f.message.contains("scan and sgf-parse disagree");
            if disagreement {
                self.disagreements
                    .push(format!("{} game {}: {f}", record.location.source, record.location.game));
            }
            if f.code == Code::ResultUnreadable {
                self.unreadable.push(format!("{}: {}", record.location.source, f.message));
            }
        }
        let has_result = record.result.raw.as_deref().is_some_and(|r| !r.trim().is_empty());
        if has_result && record.status != ReadStatus::Failed {
            self.results += 1;
        }
    }

    fn understood(&self) -> f64 {
        if self.results == 0 {
            return 1.0;
        }
        1.0 - self.unreadable.len() as f64 / self.results as f64
    }

    fn print(&self) {
        println!(
            "{} files, {} games, {} moves; statuses {:?}",
            self.files, self.games, self.moves, self.statuses
        );
        println!("findings by code: {:?}", self.codes);
        println!(
            "RE understood: {} of {} ({:.3}%)",
            self.results - self.unreadable.len(),
            self.results,
            100.0 * self.understood()
        );
        for u in &self.unreadable {
            println!("  unreadable: {u}");
        }
    }
}

fn read_file(path: &Path, tally: &mut Tally) {
    let Ok(bytes) = std::fs::read(path) else { return };
    let options = ReadOptions::default();
    let file = split_file(&path.display().to_string(), Arc::from(bytes), &options);
    tally.files += 1;
    for game in &file.games {
        let record = std::panic::catch_unwind(|| game.read(&options));
        match record {
            Ok(record) => tally.add(&record),
            Err(_) => {
                panic!("reading panicked on {} game {}", game.location.source, game.location.game)
            }
        }
    }
}

/// Reads every `every`-th file (and every parser test file); with `every > 1`, large
/// collections are left to the full run.
fn run(every: usize) -> Option<Tally> {
    let root = util::shared_corpus_or_skip()?;
    let mut tally = Tally::default();
    for (i, path) in util::sgf_files(&root).iter().enumerate() {
        let parser_test = path.components().any(|c| c.as_os_str() == "parser-tests");
        let large = std::fs::metadata(path).is_ok_and(|m| m.len() > 1 << 20);
        if every == 1 || ((i % every == 0 || parser_test) && !large) {
            read_file(path, &mut tally);
        }
    }
    tally.print();
    Some(tally)
}

fn check(tally: &Tally, min_understood: f64) {
    assert!(
        tally.disagreements.is_empty(),
        "sgf-parse and the interpreter disagree:\n{}",
        tally.disagreements.join("\n")
    );
    assert!(
        tally.understood() >= min_understood,
        "only {:.3}% of RE values understood",
        100.0 * tally.understood()
    );
}

#[test]
fn a_sample_of_the_corpus_reads_without_panic_or_disagreement() {
    if let Some(tally) = run(50) {
        check(&tally, 0.99);
    }
}

#[test]
#[ignore = "reads the whole shared corpus (about a minute in release mode)"]
fn the_whole_corpus_reads_and_its_results_are_understood() {
    if let Some(tally) = run(1) {
        check(&tally, 0.999);
    }
}
