//! `kifu clean --drop duplicates` over the whole shared corpus (`../shared/corpus`, about 95k
//! games): the manifest accounts for every game `kifu audit` finds, nothing is `unverified`, and
//! the cleaned corpus re-audits with no parse finding, every written game with the status, board,
//! handicap, komi, moves and result it had. Ignored by default (about 5 CPU-minutes); run with
//!
//! ```text
//! cargo test --release --test dedupe_corpus -- --ignored --nocapture
//! ```
//!
//! The corpus is found through `KIFU_SHARED_CORPUS`, then `../shared/corpus` and
//! `../../shared/corpus` from the repository; the test is skipped with a message without it.

mod util;

use std::collections::HashMap;

use util::{Dir, csv_rows, run_ok};

/// A CSV file as a header index and rows.
struct Table {
    header: HashMap<String, usize>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn read(dir: &Dir, path: &str) -> Table {
        let mut rows = csv_rows(&dir.read(path));
        let header = rows.remove(0).into_iter().enumerate().map(|(i, h)| (h, i)).collect();
        Table { header, rows }
    }

    fn get<'r>(&self, row: &'r [String], column: &str) -> &'r str {
        &row[self.header[column]]
    }
}

const COMPARED: [&str; 6] = ["status", "board", "handicap", "komi", "moves", "result"];

#[test]
#[ignore = "reads the whole shared corpus three times; run with --ignored"]
fn the_shared_corpus_is_cleaned_and_reaudits_to_the_same_games() {
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let dir = Dir::new("corpus-clean");
    let corpus = corpus.canonicalize().unwrap();
    let corpus = corpus.to_str().unwrap();
    run_ok(&mut dir.kifu(["audit", "-q", "-r", "recorded", "-o", "before", corpus]));
    run_ok(&mut dir.kifu(["clean", "-q", "--drop", "duplicates", "--out", "clean", corpus]));
    run_ok(&mut dir.kifu(["audit", "-q", "-r", "recorded", "-o", "after", "clean"]));

    let before = Table::read(&dir, "before/games.csv");
    let manifest = Table::read(&dir, "clean/manifest.csv");
    let after = Table::read(&dir, "after/games.csv");
    assert_eq!(manifest.rows.len(), before.rows.len(), "one manifest row per game found");
    let mut written = HashMap::new();
    let mut reasons: HashMap<String, usize> = HashMap::new();
    for (m, b) in manifest.rows.iter().zip(&before.rows) {
        let key = |t: &Table, r: &[String]| {
            (t.get(r, "source").to_string(), t.get(r, "game").to_string())
        };
        assert_eq!(key(&manifest, m), key(&before, b), "manifest and games.csv in the same order");
        let reason = manifest.get(m, "reason");
        *reasons.entry(reason.to_string()).or_default() += 1;
        assert!(!matches!(reason, "unverified" | "internal"), "{m:?}");
        if manifest.get(m, "action") == "written" {
            let output = format!("clean/{}", manifest.get(m, "output"));
            written.insert((output, manifest.get(m, "output_game").to_string()), b.clone());
        } else {
            assert!(
                matches!(reason, "unparsed" | "duplicate"),
                "only unparsed games and duplicates are dropped: {m:?}"
            );
        }
    }
    assert_eq!(after.rows.len(), written.len(), "every written game is found again");
    for a in &after.rows {
        let key = (after.get(a, "source").to_string(), after.get(a, "game").to_string());
        let b = written.get(&key).unwrap_or_else(|| panic!("{key:?} is not in the manifest"));
        for column in COMPARED {
            assert_eq!(after.get(a, column), before.get(b, column), "{column} of {key:?}");
        }
    }
    let findings = Table::read(&dir, "after/findings.csv");
    let parse_codes = ["syntax", "lenient", "unclosed", "junk", "encoding", "bad-identifier"];
    for f in &findings.rows {
        let code = findings.get(f, "code");
        assert!(!parse_codes.contains(&code) && code != "charset-guessed", "{f:?}");
    }
    let duplicates = Table::read(&dir, "clean/duplicates.csv");
    let mut by_kind: HashMap<String, usize> = HashMap::new();
    let mut groups = std::collections::HashSet::new();
    for row in &duplicates.rows {
        if groups.insert(duplicates.get(row, "group").to_string()) {
            for kind in duplicates.get(row, "kinds").split('+') {
                *by_kind.entry(kind.to_string()).or_default() += 1;
            }
        }
    }
    eprintln!(
        "{} games, {} written, dropped by reason {reasons:?}; {} duplicate groups, groups by \
         kind {by_kind:?}",
        before.rows.len(),
        written.len(),
        groups.len()
    );
}
