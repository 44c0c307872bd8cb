//! `kifu clean` on the real binary: a cleaned corpus that re-parses and re-audits to the same
//! games, a manifest that accounts for every input game, hostile archive member names kept
//! inside the output folder, and the folder left as it was when the run cannot finish.

mod util;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use util::{Dir, column, csv_rows, run_expect, run_ok, small_game};

fn case(path: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus").join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `root`, relative (with `/`), sorted.
fn files_under(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = util::files_under(root)
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    names.sort();
    names
}

/// games.csv rows keyed by (source, game): (status, board, handicap, komi, moves, result).
fn audited(dir: &Dir, report: &str) -> BTreeMap<(String, String), Vec<String>> {
    let text = dir.read(&format!("{report}/games.csv"));
    let rows = csv_rows(&text);
    let at = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    rows[1..]
        .iter()
        .map(|r| {
            let key = (r[at("source")].clone(), r[at("game")].clone());
            let value = ["status", "board", "handicap", "komi", "moves", "result", "black"]
                .iter()
                .map(|c| r[at(c)].clone())
                .collect();
            (key, value)
        })
        .collect()
}

/// A small input corpus with the quirks clean normalises, a broken game, and an illegal one.
fn quirky_inputs(dir: &Dir) {
    for name in [
        "quirks/fox-handicap-without-setup.sgf",
        "quirks/fox-komi-units.sgf",
        "quirks/gogod-zi-komi.sgf",
        "quirks/results-chinese.sgf",
        "quirks/tt-pass-on-19x19.sgf",
        "quirks/ff3-mixed-case-identifiers.sgf",
        "quirks/broken-variation-lenient.sgf",
        "quirks/off-board-move.sgf",
        "charsets/gbk-trail-bytes-without-ca.sgf",
        "charsets/fox-damaged-utf-8.sgf",
        "collections/unclosed-tree-mid-collection.sgf",
        "collections/no-semicolon-sina.sgf",
        "collections/variations-that-look-like-games.sgf",
        "quirks/nested-variation-per-move.sgf",
        "quirks/compressed-point-list.sgf",
        "quirks/setup-in-main-line.sgf",
        "quirks/missing-value-swallows-node.sgf",
        "quirks/not-go.sgf",
    ] {
        let bytes = case(&format!("cases/{name}"));
        dir.create(&format!("in/{}", name.replace('/', "-")), bytes);
    }
    let collection = format!(
        "{}{}(;GM[1]SZ[9]B[ee",
        small_game("Ann", "Bob", "B+2"),
        small_game("Cid", "Dee", "W+R")
    );
    dir.create("in/collection.sgf", collection);
}

#[test]
fn a_cleaned_corpus_reparses_and_reaudits_to_the_same_games() {
    let dir = Dir::new("clean-reaudit");
    quirky_inputs(&dir);
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "before", "in"]));
    run_ok(&mut dir.kifu(["clean", "-q", "--out", "clean", "in"]));
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "after", "clean"]));

    let manifest = dir.read("clean/manifest.csv");
    let before = audited(&dir, "before");
    // One manifest row per game found, in the same order as games.csv.
    let games = dir.read("before/games.csv");
    let keys = |text: &str| -> Vec<(String, String)> {
        column(text, "source").into_iter().zip(column(text, "game")).collect()
    };
    assert_eq!(keys(&manifest), keys(&games));

    // Every written game parses strictly with sgf-parse and is UTF-8 with CA[UTF-8].
    for file in files_under(&dir.join("clean")).iter().filter(|f| f.ends_with(".sgf")) {
        let text = std::fs::read_to_string(dir.join(&format!("clean/{file}")))
            .unwrap_or_else(|e| panic!("{file} is not UTF-8: {e}"));
        assert!(sgf_parse::parse(&text).is_ok(), "{file} does not parse:\n{text}");
        assert!(text.contains("CA[UTF-8]"), "{file}");
    }

    // Re-audited, each written game has the moves, result, komi and handicap it had.
    let after = audited(&dir, "after");
    let rows = csv_rows(&manifest);
    let at = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let mut written = 0;
    for row in &rows[1..] {
        let key = (row[at("source")].clone(), row[at("game")].clone());
        if row[at("action")] == "dropped" {
            assert_eq!(before[&key][0], "unparsed", "{key:?} dropped though parsed");
            continue;
        }
        written += 1;
        let output = (format!("clean/{}", row[at("output")]), row[at("output_game")].clone());
        assert_eq!(after[&output], before[&key], "{key:?} -> {output:?}");
    }
    assert!(written >= 12, "{written} games written");

    // No parse finding in the cleaned corpus.
    let findings = dir.read("after/findings.csv");
    for code in ["syntax", "lenient", "unclosed", "encoding", "charset-guessed", "bad-identifier"] {
        assert!(!column(&findings, "code").contains(&code.to_string()), "{code} in\n{findings}");
    }
    // The changes are accounted for, and the normalised values are in the files.
    let detail = column(&manifest, "detail").join("\n");
    for change in [
        "KM[375] -> KM[7.5] (Fox units)",
        "KM[3.75] -> KM[7.5] (zi)",
        "AB[dd][dp][pd] added (handicap stones the record left out)",
        "text decoded from GBK",
        "2 pass(es) [tt] -> []",
        "FF[3] -> FF[4]",
    ] {
        assert!(detail.contains(change), "`{change}` missing from\n{detail}");
    }
}

#[test]
fn hostile_member_names_are_written_inside_the_output_folder() {
    let dir = Dir::new("clean-hostile");
    let game = small_game("Ann", "Bob", "B+2");
    let members: Vec<(&str, &[u8])> = vec![
        ("../../x.sgf", game.as_bytes()),
        ("/tmp/absolute.sgf", game.as_bytes()),
        ("..\\..\\windows.sgf", game.as_bytes()),
        ("C:\\drive.sgf", game.as_bytes()),
        ("a/../../../up.sgf", game.as_bytes()),
        ("ctrl\u{1b}[31m.sgf", game.as_bytes()),
        ("x.sgf", game.as_bytes()),
    ];
    dir.create("work/in/evil.zip", util::zip_archive(&members, zip::CompressionMethod::Stored));
    run_ok(dir.kifu(["clean", "-q", "--out", "out", "in"]).current_dir(dir.join("work")));
    // Nothing outside work/out (the input is the only other thing there).
    assert_eq!(files_under(dir.path()).iter().filter(|f| !f.starts_with("work/")).count(), 0);
    let written = files_under(&dir.join("work/out"));
    assert_eq!(
        written,
        [
            "in/evil.zip/a/up.sgf",
            // The archive reader already shows control characters as U+FFFD.
            "in/evil.zip/ctrl\u{fffd}[31m.sgf",
            "in/evil.zip/drive.sgf",
            "in/evil.zip/tmp/absolute.sgf",
            "in/evil.zip/windows.sgf",
            "in/evil.zip/x-2.sgf",
            "in/evil.zip/x.sgf",
            "manifest.csv",
        ]
    );
    let manifest = dir.read("work/out/manifest.csv");
    assert_eq!(column(&manifest, "action"), vec!["written"; 7]);
    assert_eq!(column(&manifest, "output")[0], "in/evil.zip/x.sgf");
    assert_eq!(column(&manifest, "output")[6], "in/evil.zip/x-2.sgf");
}

#[test]
fn layouts_write_a_file_per_source_or_per_game() {
    let dir = Dir::new("clean-layout");
    let collection: String =
        (0..3).map(|i| small_game(&format!("B{i}"), &format!("W{i}"), "B+2")).collect();
    dir.create("in/three.sgf", &collection);
    dir.create("in/one.sgf", small_game("Solo", "Duo", "W+R"));
    run_ok(&mut dir.kifu(["clean", "-q", "--out", "by-source", "in"]));
    assert_eq!(files_under(&dir.join("by-source")), ["in/one.sgf", "in/three.sgf", "manifest.csv"]);
    let m = dir.read("by-source/manifest.csv");
    assert_eq!(column(&m, "output_game"), ["1", "1", "2", "3"]);
    run_ok(&mut dir.kifu(["clean", "-q", "--out", "by-game", "--layout", "game", "in"]));
    assert_eq!(
        files_under(&dir.join("by-game")),
        [
            "in/one.sgf",
            "in/three/0001.sgf",
            "in/three/0002.sgf",
            "in/three/0003.sgf",
            "manifest.csv"
        ]
    );
    // The written collection is the three games, each one tree.
    let text = dir.read("by-source/in/three.sgf");
    assert_eq!(sgf_parse::parse(&text).unwrap().len(), 3);
}

#[test]
fn dropping_duplicates_keeps_one_record_and_names_it() {
    let dir = Dir::new("clean-duplicates");
    let game = small_game("Ann", "Bob", "B+2");
    dir.create("in/a.sgf", &game);
    dir.create("in/b.sgf", game.replace("PB[Ann]", "PB[Ann]EV[Club night]"));
    dir.create("in/c.sgf", small_game("Cid", "Dee", "W+R").replace("B[ee]", "B[dd]"));
    // Short games (10 moves) group only with the same metadata: make them long enough.
    let long = |g: &str| {
        g.replace(
            ";B[];W[])",
            ";B[aa];W[ab];B[ba];W[bb];B[ca];W[cb];B[da];W[db];B[ea];W[eb];B[fa];W[fb])",
        )
    };
    for name in ["a", "b", "c"] {
        let text = dir.read(&format!("in/{name}.sgf"));
        dir.create(&format!("in/{name}.sgf"), long(&text));
    }
    run_ok(&mut dir.kifu(["clean", "-q", "--out", "out", "--drop", "duplicates", "in"]));
    let manifest = dir.read("out/manifest.csv");
    assert_eq!(column(&manifest, "action"), ["dropped", "written", "written"]);
    assert_eq!(column(&manifest, "reason"), ["duplicate", "", ""]);
    assert_eq!(column(&manifest, "kept_source"), ["in/b.sgf", "", ""]);
    assert_eq!(column(&manifest, "group"), ["1", "1", ""]);
    let duplicates = dir.read("out/duplicates.csv");
    assert_eq!(column(&duplicates, "source"), ["in/b.sgf", "in/a.sgf"]);
    assert!(column(&duplicates, "reason")[0].starts_with("most metadata"));
    // Standard input cannot be read twice.
    run_expect(&mut dir.kifu(["clean", "--out", "o2", "--drop", "duplicates", "-"]), 2);
}

#[test]
fn a_folder_that_is_not_empty_or_inside_the_input_is_refused_and_left_alone() {
    let dir = Dir::new("clean-refuse");
    dir.create("in/a.sgf", small_game("Ann", "Bob", "B+2"));
    dir.create("busy/keep.txt", "mine");
    let out = run_expect(&mut dir.kifu(["clean", "--out", "busy", "in"]), 2);
    assert!(out.is_empty());
    assert_eq!(files_under(&dir.join("busy")), ["keep.txt"]);
    run_expect(&mut dir.kifu(["clean", "--out", "in/clean", "in"]), 2);
    assert!(!dir.join("in/clean").exists(), "the refused folder is removed again");
    run_expect(&mut dir.kifu(["clean", "--out", "o", "--drop", "everything", "in"]), 2);
}

#[test]
fn output_does_not_depend_on_the_number_of_threads() {
    let dir = Dir::new("clean-threads");
    quirky_inputs(&dir);
    run_ok(&mut dir.kifu(["clean", "-q", "-j", "1", "--batch-games", "3", "--out", "one", "in"]));
    run_ok(&mut dir.kifu(["clean", "-q", "-j", "2", "--out", "two", "in"]));
    let one = files_under(&dir.join("one"));
    assert_eq!(one, files_under(&dir.join("two")));
    for file in &one {
        assert_eq!(dir.read(&format!("one/{file}")), dir.read(&format!("two/{file}")), "{file}");
    }
}

/// Ctrl-C after some games were written, while the reader waits on a FIFO that never delivers:
/// the run exits 130 and takes back every file it wrote, leaving the (empty) folder as it was.
#[cfg(unix)]
#[test]
fn ctrl_c_takes_back_what_was_written() {
    let dir = Dir::new("clean-ctrl-c");
    for i in 0..3 {
        dir.create(&format!("games/{i}.sgf"), small_game(&format!("B{i}"), "W", "B+2"));
    }
    dir.fifo("stuck.sgf");
    std::fs::create_dir(dir.join("out")).unwrap();
    let mut clean = dir.kifu(["clean", "--batch-games", "1", "--out", "out", "games", "stuck.sgf"]);
    util::interrupt_when(&mut clean, "wrote its games", || {
        files_under(&dir.join("out")).iter().filter(|f| f.ends_with(".sgf")).count() >= 3
    });
    assert_eq!(dir.list("out"), Vec::<String>::new(), "the folder is empty again");
}
