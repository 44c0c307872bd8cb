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
//! Collections (tom-9d, tygem-9d) are split here with a small bracket-counting splitter until
//! the record layer's own splitter is used; single-game files are read whole.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kifu::finding::Code;
use kifu::record::sgf::read_game;
use kifu::record::{
    CharsetOrigin, GameLocation, GameRecord, ReadOptions, ReadStatus, TextEncoding,
};

fn corpus_dir() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("KIFU_SHARED_CORPUS").map(PathBuf::from),
        Some(manifest.join("../shared/corpus")),
        Some(manifest.join("../../shared/corpus")),
    ];
    candidates.into_iter().flatten().find(|p| p.join("README.md").is_file())
}

fn sgf_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Decodes a file the simple way (UTF-8, else the CA charset, else UTF-8 with replacement):
/// enough for these checks, which are about SGF, not charsets.
fn decode(bytes: &[u8]) -> (String, TextEncoding) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let enc = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
        return (text.to_string(), enc);
    }
    let label = bytes.windows(3).position(|w| w == b"CA[").and_then(|at| {
        let rest = &bytes[at + 3..];
        let end = rest.iter().position(|&b| b == b']')?;
        encoding_rs::Encoding::for_label(rest[..end].trim_ascii())
    });
    let encoding = label.unwrap_or(encoding_rs::UTF_8);
    let (text, _, replaced) = encoding.decode(bytes);
    let origin = if label.is_some() { CharsetOrigin::Declared } else { CharsetOrigin::DamagedUtf8 };
    (text.into_owned(), TextEncoding { name: encoding.name(), origin, replaced })
}

/// Top-level game trees with their byte offsets: `(` at depth 0 to its matching `)`, skipping
/// bracketed values with their escapes. Stand-in for the record layer's splitter.
fn split(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut games = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'[' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    games.push((start, &text[start..=i]));
                }
            }
            _ => {}
        }
        i += 1;
    }
    if depth > 0 {
        games.push((start, &text[start..]));
    }
    if games.is_empty() {
        games.push((0, text));
    }
    games
}

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
    let (text, encoding) = decode(&bytes);
    tally.files += 1;
    let (mut line, mut counted) = (1u32, 0usize);
    for (index, (offset, game)) in split(&text).into_iter().enumerate() {
        line += text[counted..offset].bytes().filter(|&b| b == b'\n').count() as u32;
        counted = offset;
        let location = GameLocation {
            source: path.display().to_string(),
            game: index as u32 + 1,
            offset: offset as u64,
            line,
        };
        let record = std::panic::catch_unwind(|| {
            read_game(game, location.clone(), encoding, &ReadOptions::default())
        });
        match record {
            Ok(record) => tally.add(&record),
            Err(_) => panic!("read_game panicked on {} game {}", location.source, location.game),
        }
    }
}

/// Reads every `every`-th file (and every parser test file); with `every > 1`, large
/// collections are left to the full run.
fn run(every: usize) -> Option<Tally> {
    let Some(root) = corpus_dir() else {
        println!("../shared/corpus not found (set KIFU_SHARED_CORPUS): skipping the corpus check");
        return None;
    };
    let mut tally = Tally::default();
    for (i, path) in sgf_files(&root).iter().enumerate() {
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
