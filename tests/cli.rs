//! The `kifu` binary as users run it: help, exit statuses, report files, determinism, pipes,
//! Ctrl-C. Each test runs the real binary in its own temporary folder.

mod util;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

use util::{Dir, assert_same_text, column, csv_rows, run, run_ok, small_game};

const REPORT_FILES: [&str; 5] =
    ["disagreements.csv", "findings.csv", "games.csv", "scores.csv", "summary.txt"];

/// A folder of games: single-game files in nested folders, upper-case extensions, and a file
/// kifu must skip (not .sgf).
fn game_folder(dir: &Dir, games: usize) -> usize {
    for i in 0..games {
        let sub = ["a", "b/c", "d"][i % 3];
        let ext = if i % 5 == 0 { "SGF" } else { "sgf" };
        dir.create(
            &format!("games/{sub}/{i:03}.{ext}"),
            small_game(&format!("Black {i}"), &format!("White {i}"), "B+2"),
        );
    }
    dir.create("games/notes.txt", "not a game");
    games
}

// ---------------------------------------------------------------------------------------------
// help and exit statuses

#[test]
fn top_level_help_names_every_subcommand() {
    let dir = Dir::new("help");
    let help = run_ok(&mut dir.kifu(["--help"]));
    for sub in ["audit", "check", "score", "show", "rules", "codes"] {
        assert!(help.contains(&format!("\n  {sub} ")), "`{sub}` missing from\n{help}");
    }
    assert!(help.contains("Exit status"), "{help}");
}

#[test]
fn audit_help_documents_the_contract_options_files_and_columns() {
    let dir = Dir::new("audit-help");
    let help = run_ok(&mut dir.kifu(["audit", "--help"]));
    for option in [
        "-o, --out <DIR>",
        "-r, --rules <LIST>",
        "-j, --jobs <N>",
        "--dead-stones <HOW>",
        "--encoding <NAME>",
        "-q, --quiet",
        "[default: kifu-report]",
        "[default: recorded,chinese,japanese]",
        "as-is",
        "markup",
        "estimate",
    ] {
        assert!(help.contains(option), "`{option}` missing from audit --help");
    }
    for file in REPORT_FILES {
        assert!(help.contains(file), "{file} missing from audit --help");
    }
    for name in [
        "source",
        "game",
        "status",
        "board",
        "handicap",
        "komi",
        "rules",
        "moves",
        "result_raw",
        "result",
        "move",
        "code",
        "severity",
        "message",
        "ruleset",
        "preset",
        "margin",
        "dead_stones",
        "kind",
        "detail",
    ] {
        assert!(help.contains(&format!(" {name},")) || help.contains(&format!(", {name}")));
    }
    assert!(help.contains("130"), "Ctrl-C exit status missing");
}

#[test]
fn every_subcommand_has_help() {
    let dir = Dir::new("sub-help");
    for (sub, must) in [
        ("check", "findings.csv"),
        ("score", "-r, --rules <LIST>"),
        ("show", "--move <N>"),
        ("rules", "--csv"),
        ("codes", "--markdown"),
    ] {
        let help = run_ok(&mut dir.kifu([sub, "--help"]));
        assert!(help.contains(must), "`kifu {sub} --help` lacks `{must}`:\n{help}");
    }
}

#[test]
fn version_is_the_crate_version() {
    let dir = Dir::new("version");
    let out = run_ok(&mut dir.kifu(["--version"]));
    assert_eq!(out.trim(), format!("kifu {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn bad_arguments_exit_2_with_a_reason() {
    let dir = Dir::new("bad-args");
    dir.create("g.sgf", small_game("a", "b", "B+2"));
    for (args, reason) in [
        (vec![], "Usage"),
        (vec!["audit"], "PATH"),
        (vec!["audit", "--rules", "chinese,uchikomi", "g.sgf"], "uchikomi"),
        (vec!["audit", "-j", "many", "g.sgf"], "many"),
        (vec!["audit", "--shard", "2/2", "g.sgf"], "shard"),
        (vec!["audit", "--dead-stones", "guess", "g.sgf"], "guess"),
        (vec!["audit", "--encoding", "klingon", "g.sgf"], "klingon"),
        (vec!["audit", "--files-from", "missing.txt"], "missing.txt"),
        (vec!["frobnicate"], "frobnicate"),
    ] {
        let out = run(&mut dir.kifu(&args));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "kifu {args:?}: {stderr}");
        assert!(stderr.contains(reason), "kifu {args:?} should say `{reason}`: {stderr}");
    }
    assert!(!dir.join("kifu-report").exists(), "nothing written on bad arguments");
}

#[test]
fn an_unwritable_report_folder_exits_2_before_reading() {
    let dir = Dir::new("unwritable");
    game_folder(&dir, 3);
    // A path below a regular file can never be created, even by root.
    dir.create("blocker", "a file, not a folder");
    for out_dir in ["blocker", "blocker/report"] {
        let out = run(&mut dir.kifu(["audit", "-q", "-o", out_dir, "games"]));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "-o {out_dir}: {stderr}");
        assert!(stderr.contains("blocker"), "the message names the folder: {stderr}");
    }
    assert_eq!(dir.read("blocker"), "a file, not a folder");
}

// ---------------------------------------------------------------------------------------------
// audit: reports

#[test]
fn audit_creates_the_folder_and_accounts_for_every_game() {
    let dir = Dir::new("accounts");
    let games = game_folder(&dir, 12);
    let stderr_summary = run(&mut dir.kifu(["audit", "-o", "out/nested/report", "games"]));
    assert_eq!(stderr_summary.status.code(), Some(0));
    assert_eq!(dir.list("out/nested/report"), REPORT_FILES, "exactly the report files");

    let games_csv = dir.read("out/nested/report/games.csv");
    assert_eq!(column(&games_csv, "game").len(), games, "one row per game");
    let mut sources = column(&games_csv, "source");
    sources.sort();
    sources.dedup();
    assert_eq!(sources.len(), games, "every file once; notes.txt skipped");
    let scores = column(&dir.read("out/nested/report/scores.csv"), "ruleset");
    assert_eq!(scores.len(), games * 3, "one score row per game and default ruleset");

    // The summary printed is the summary written.
    let printed = String::from_utf8(stderr_summary.stderr).unwrap();
    let written = dir.read("out/nested/report/summary.txt");
    assert_same_text("printed and written summaries", &written, &printed);
}

/// `name  N` lines of the summary, by name.
fn summary_counts(summary: &str) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for line in summary.lines() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if let [name, n, ..] = cells[..]
            && let Ok(n) = n.parse::<u64>()
        {
            counts.entry(name.to_owned()).or_insert(n);
        }
    }
    counts
}

#[test]
fn the_summary_reconciles_with_the_csv_files() {
    let dir = Dir::new("reconcile");
    game_folder(&dir, 7);
    dir.create("games/broken.sgf", "(;GM[1]SZ[19];B[dd];W[pp]");
    dir.create("games/empty.sgf", "");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "r", "-r", "chinese,aga", "games"]));
    let summary = summary_counts(&dir.read("r/summary.txt"));
    let games = dir.read("r/games.csv");
    let statuses = column(&games, "status");
    assert_eq!(summary["games"], statuses.len() as u64);
    for status in ["ok", "illegal", "unparsed"] {
        let n = statuses.iter().filter(|s| *s == status).count() as u64;
        assert_eq!(summary[status], n, "{status}");
    }
    let findings = column(&dir.read("r/findings.csv"), "code");
    assert_eq!(summary["findings"], findings.len() as u64);
    let mut by_code: BTreeMap<String, u64> = BTreeMap::new();
    for code in &findings {
        *by_code.entry(code.clone()).or_default() += 1;
    }
    for (code, n) in by_code {
        assert_eq!(summary[&code], n, "findings with code {code}");
    }
    let disagreements = column(&dir.read("r/disagreements.csv"), "kind");
    assert_eq!(summary["disagreements"], disagreements.len() as u64);
    let scores = column(&dir.read("r/scores.csv"), "ruleset");
    assert_eq!(scores.len() as u64, 2 * summary["games"]);
}

/// Byte-identical reports on 1 thread with one batch and on 2 threads with batches of 3 games, on
/// part of the bundled corpus: a collection, a zip, a tar.gz and the problem games (games of
/// every size, scored, some with findings and disagreements).
#[test]
fn thread_count_and_batch_size_do_not_change_a_byte() {
    let dir = Dir::new("determinism");
    let generated = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/generated");
    // The first 60 games of the 9x9 collection, as a collection of their own.
    let collection =
        std::fs::read_to_string(format!("{generated}/collections/9x9-400-games.sgf")).unwrap();
    let starts: Vec<usize> = collection.match_indices("(;").map(|(i, _)| i).collect();
    dir.create("9x9-60.sgf", &collection[..starts[60]]);
    let mut inputs = vec![dir.join("9x9-60.sgf").display().to_string()];
    inputs.extend(["archives", "illegal", "problems"].iter().map(|p| format!("{generated}/{p}")));
    let variants: [&[&str]; 2] = [
        &["-j", "1", "--batch-games", "1000"],
        &["-j", "2", "--batch-games", "3", "--batch-mb", "1"],
    ];
    for (i, extra) in variants.iter().enumerate() {
        let out = format!("r{i}");
        let mut args = vec!["audit", "-q", "-o", &out];
        args.extend(inputs.iter().map(String::as_str));
        args.extend_from_slice(extra);
        run_ok(&mut dir.kifu(&args));
    }
    assert!(column(&dir.read("r0/findings.csv"), "code").len() > 20, "a test with findings");
    for file in REPORT_FILES.iter().filter(|f| f.ends_with(".csv")) {
        let first = dir.read(&format!("r0/{file}"));
        for i in 1..variants.len() {
            assert_same_text(file, &first, &dir.read(&format!("r{i}/{file}")));
        }
    }
}

#[test]
fn a_finished_run_replaces_the_previous_report_whole() {
    let dir = Dir::new("replace");
    game_folder(&dir, 4);
    dir.create("r/games.csv", "old report\n");
    dir.create("r/keep-me.txt", "a user's file");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "r", "games"]));
    assert_ne!(dir.read("r/games.csv"), "old report\n");
    assert_eq!(dir.read("r/keep-me.txt"), "a user's file", "other files are left alone");
    assert!(dir.list("r").iter().all(|n| !n.ends_with(".tmp")), "{:?}", dir.list("r"));
}

#[test]
fn files_from_reads_a_list_of_paths() {
    let dir = Dir::new("files-from");
    game_folder(&dir, 6);
    dir.create("list.txt", "# games to audit\ngames/a\n\ngames/d/002.sgf\r\ngames/a\n");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "r", "--files-from", "list.txt"]));
    let sources = column(&dir.read("r/games.csv"), "source");
    // games/a holds games 0 and 3 (000.SGF, 003.sgf); games/d holds 2 and 5. A path listed
    // twice is read once.
    assert_eq!(sources, ["games/a/000.SGF", "games/a/003.sgf", "games/d/002.sgf"]);
}

#[test]
fn shards_cover_every_game_exactly_once() {
    let dir = Dir::new("shards");
    game_folder(&dir, 10);
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "all", "games"]));
    let mut union = Vec::new();
    for k in 0..3 {
        let out = format!("part{k}");
        run_ok(&mut dir.kifu(["audit", "-q", "-o", &out, "--shard", &format!("{k}/3"), "games"]));
        let rows = csv_rows(&dir.read(&format!("{out}/games.csv")));
        union.extend(rows.into_iter().skip(1));
    }
    let mut all: Vec<Vec<String>> =
        csv_rows(&dir.read("all/games.csv")).into_iter().skip(1).collect();
    all.sort();
    union.sort();
    assert_eq!(union, all);
}

/// One row of corpus/generated/MANIFEST.tsv: what the generator knows about a game.
struct ManifestGame {
    source: String,
    game: String,
    cells: BTreeMap<String, String>,
}

fn manifest(corpus: &str) -> Vec<ManifestGame> {
    let text = std::fs::read_to_string(format!("{corpus}/generated/MANIFEST.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .map(|line| {
            let cells: BTreeMap<String, String> = header
                .iter()
                .zip(line.split('\t'))
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect();
            ManifestGame {
                source: format!("{corpus}/{}", cells["source"]),
                game: cells["game"].clone(),
                cells,
            }
        })
        .collect()
}

/// Rows of a CSV report keyed by (source, game).
fn rows_by_game(text: &str) -> BTreeMap<(String, String), Vec<BTreeMap<String, String>>> {
    let rows = csv_rows(text);
    let header = rows[0].clone();
    let mut map: BTreeMap<_, Vec<_>> = BTreeMap::new();
    for row in &rows[1..] {
        let cells: BTreeMap<String, String> =
            header.iter().cloned().zip(row.iter().cloned()).collect();
        let key = (cells["source"].clone(), cells["game"].clone());
        map.entry(key).or_default().push(cells);
    }
    map
}

/// The bundled corpus (corpus/generated) as a whole: single files, collections, a zip, a
/// tar.gz, three charsets. Every game of the generator's manifest has exactly one row with the
/// manifest's board, komi, handicap, moves and result, every deliberate problem is reported at
/// its move with its code, and every finished game scores exactly as the generator counted it.
#[test]
fn the_bundled_corpus_is_reported_as_generated() {
    let dir = Dir::new("corpus");
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let generated = format!("{corpus}/generated");
    let games = manifest(corpus);

    run_ok(&mut dir.kifu(["audit", "-q", "-j", "2", "-o", "r", &generated]));
    let rows = rows_by_game(&dir.read("r/games.csv"));
    let findings = rows_by_game(&dir.read("r/findings.csv"));
    let scores = rows_by_game(&dir.read("r/scores.csv"));
    let disagreements = rows_by_game(&dir.read("r/disagreements.csv"));
    let mut expected_keys: Vec<_> =
        games.iter().map(|g| (g.source.clone(), g.game.clone())).collect();
    expected_keys.sort();
    let keys: Vec<_> = rows.keys().cloned().collect();
    assert_eq!(keys, expected_keys, "games.csv has one row per game of the manifest");
    // The summary splits each kind of disagreement by confidence, as disagreements.csv has them.
    let mut by_confidence: BTreeMap<String, u64> = BTreeMap::new();
    for d in disagreements.values().flatten() {
        *by_confidence.entry(format!("{} {}", d["kind"], d["confidence"])).or_default() += 1;
    }
    assert!(!by_confidence.is_empty(), "the corpus has winner flips");
    let summary = dir.read("r/summary.txt");
    for kind in ["recorded-vs-recomputed", "winner-flip"] {
        let count = |level: &str| by_confidence.get(&format!("{kind} {level}")).copied();
        let total: u64 = ["high", "medium", "low"].map(|l| count(l).unwrap_or(0)).iter().sum();
        let want = format!(
            "{total}   high {}, medium {}, low {}",
            count("high").unwrap_or(0),
            count("medium").unwrap_or(0),
            count("low").unwrap_or(0)
        );
        let line = summary.lines().find(|l| l.trim_start().starts_with(kind));
        match line {
            Some(line) => assert!(line.ends_with(&want), "{line:?} is not {want:?}"),
            None => assert_eq!(total, 0, "{kind} missing from the summary"),
        }
    }

    for g in &games {
        let key = (g.source.clone(), g.game.clone());
        let row = &rows[&key][0];
        for (column, manifest_column) in
            ["board", "handicap", "komi", "moves", "result"].map(|c| (c, c))
        {
            assert_eq!(row[column], g.cells[manifest_column], "{column} of {key:?}");
        }
        let code = &g.cells["expected_code"];
        let illegal =
            ["occupied", "suicide", "ko", "superko", "off-board"].contains(&code.as_str());
        assert_eq!(row["status"], if illegal { "illegal" } else { "ok" }, "status of {key:?}");
        if !code.is_empty() {
            let reported = findings
                .get(&key)
                .into_iter()
                .flatten()
                .any(|f| f["code"] == *code && f["move"] == g.cells["illegal_move"]);
            assert!(reported, "{key:?}: no `{code}` finding at move {}", g.cells["illegal_move"]);
        }
        // Finished playouts leave only live stones, so the generator's count is exact: the
        // score under the record's own rules must be it, and RE must agree with it.
        let exact = if g.cells["rules"] == "Japanese" {
            &g.cells["territory_margin"]
        } else {
            &g.cells["area_margin"]
        };
        if !exact.is_empty() {
            let recorded = scores[&key].iter().find(|r| r["ruleset"] == "recorded").unwrap();
            assert_eq!(&recorded["margin"], exact, "recorded-rules margin of {key:?}");
            let recomputed_disagrees = disagreements
                .get(&key)
                .into_iter()
                .flatten()
                .any(|d| d["kind"] == "recorded-vs-recomputed");
            assert!(!recomputed_disagrees, "{key:?}: RE is exact, yet a disagreement");
        }
    }
}

#[test]
fn standard_input_is_read_as_a_source_named_dash() {
    let dir = Dir::new("stdin");
    let collection: String = (0..3).map(|i| small_game(&format!("B{i}"), "W", "B+2")).collect();
    let mut child =
        dir.kifu(["audit", "-q", "-o", "r", "-"]).stdin(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), collection.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    let games = dir.read("r/games.csv");
    assert_eq!(column(&games, "source"), ["-", "-", "-"]);
    assert_eq!(column(&games, "game"), ["1", "2", "3"]);
}

#[test]
fn a_file_without_a_game_still_gets_its_row() {
    let dir = Dir::new("no-game");
    dir.create("in/empty.sgf", "");
    dir.create("in/page.sgf", "<html><body>404 Not Found</body></html>");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "r", "in"]));
    let games = dir.read("r/games.csv");
    assert_eq!(column(&games, "source"), ["in/empty.sgf", "in/page.sgf"]);
    assert_eq!(column(&games, "status"), ["unparsed", "unparsed"]);
    let findings = dir.read("r/findings.csv");
    assert_eq!(column(&findings, "code"), ["no-game", "no-game"]);
    let summary = dir.read("r/summary.txt");
    assert!(summary.contains("sources without a game: 2"), "{summary}");
}

/// Player names that spreadsheets would run as formulas get a leading quote in text columns;
/// `--raw-text` writes them as read. Numbers are never touched.
#[test]
fn text_that_looks_like_a_formula_is_quoted_unless_raw_text() {
    let dir = Dir::new("formulas");
    let names =
        concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/generated/names/spreadsheet-formulas.sgf");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "guarded", names]));
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "raw", "--raw-text", names]));
    let guarded = dir.read("guarded/games.csv");
    assert_eq!(
        column(&guarded, "black"),
        ["'=HYPERLINK(\"http://example.invalid/\",\"x\")", "'+81 Tokyo", "'-dash-", "'@SUM(A1:A9)"]
    );
    assert_eq!(column(&guarded, "white"), ["Plain Name", "'@admin", "'=1+1", "-"]);
    let raw = dir.read("raw/games.csv");
    assert_eq!(column(&raw, "black")[2], "-dash-");
    assert_eq!(column(&raw, "white")[2], "=1+1");
    assert_eq!(column(&guarded, "komi"), column(&raw, "komi"));
}

// ---------------------------------------------------------------------------------------------
// standard output commands

#[test]
fn check_and_score_write_csv_on_stdout_with_optional_headers() {
    let dir = Dir::new("stdout");
    game_folder(&dir, 3);
    let scores = run_ok(&mut dir.kifu(["score", "-q", "-r", "japanese", "games"]));
    let rows = csv_rows(&scores);
    assert_eq!(rows[0][..3], ["source", "game", "ruleset"]);
    assert_eq!(rows.len(), 1 + 3);
    assert!(rows[1..].iter().all(|r| r[2] == "japanese"));
    let headless = run_ok(&mut dir.kifu(["score", "-q", "--no-header", "-r", "japanese", "games"]));
    assert_eq!(headless, scores.split_once('\n').unwrap().1);

    let findings = run_ok(&mut dir.kifu(["check", "-q", "games"]));
    assert!(findings.starts_with("source,game,move,code,severity,message,line,offset\n"));
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let dir = Dir::new("pipe");
    // Far more output than a 64 KiB pipe buffer holds: 3 score rows of over 100 bytes per game.
    let folder = format!("games/{}", "a-long-folder-name-".repeat(5));
    for i in 0..600 {
        dir.create(&format!("{folder}/{i:03}.sgf"), small_game("B", "W", "B+2"));
    }
    let mut child = dir
        // Small batches: the first rows are written at once, and every later write meets the
        // closed pipe.
        .kifu(["score", "-j", "2", "--batch-games", "16", "games"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is dropped here: the pipe is closed, as `| head -1` does.
    assert!(first.starts_with("source,game,"));
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Broken pipe") && !stderr.contains("panicked"), "{stderr}");
    // No summary: the run stopped at the closed pipe instead of reading every game.
    assert!(!stderr.contains("kifu score:"), "the run went on after the pipe closed: {stderr}");
}

#[test]
fn rules_and_codes_print_their_tables() {
    let dir = Dir::new("tables");
    let rules = run_ok(&mut dir.kifu(["rules"]));
    for preset in ["chinese", "japanese", "korean", "aga", "ing", "nz", "tromp-taylor", "ancient"] {
        assert!(rules.lines().any(|l| l.starts_with(&format!("{preset} "))), "{preset}");
    }
    let csv = run_ok(&mut dir.kifu(["rules", "--csv"]));
    assert_eq!(csv_rows(&csv).len(), 1 + 8);
    let codes = run_ok(&mut dir.kifu(["codes"]));
    for code in ["occupied", "suicide", "ko", "superko", "off-board", "syntax"] {
        assert!(codes.lines().any(|l| l.starts_with(&format!("{code} "))), "{code}");
    }
}

// ---------------------------------------------------------------------------------------------
// show

#[test]
fn show_draws_the_position_after_a_capture_with_prisoners() {
    let dir = Dir::new("show");
    // Black A5 takes the white stone on B5.
    dir.create(
        "capture.sgf",
        "(;GM[1]SZ[5]KM[0]RU[Chinese];B[bb];W[ab];B[cb];W[ba];B[ca];W[bc];B[aa])",
    );
    let out = run_ok(&mut dir.kifu(["show", "capture.sgf"]));
    let expected = "\
capture.sgf, game 1: ? (B) vs ? (W)
5, komi 0, RU Chinese
position after move 7 of 7 (B A5), White to play
prisoners: Black has taken 1, White has taken 0

  A B C D E
5 X . X . . 5
4 O X X . . 4
3 . O . . . 3
2 . . . . . 2
1 . . . . . 1
  A B C D E

no findings up to this move
";
    assert_same_text("kifu show", expected, &out);
    let before = run_ok(&mut dir.kifu(["show", "capture.sgf", "--move", "4"]));
    assert!(before.contains("5 . O . . . 5\n"), "{before}");
    assert!(before.contains("after move 4 of 7 (W B5), Black to play"), "{before}");
}

#[test]
fn show_lists_the_findings_up_to_the_move_shown() {
    let dir = Dir::new("show-findings");
    let ko = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/generated/illegal/ko-02.sgf");
    let out = run_ok(&mut dir.kifu(["show", ko]));
    assert!(out.contains("findings up to this move:\n  move 284: ko (error)"), "{out}");
    let earlier = run_ok(&mut dir.kifu(["show", ko, "--move", "283"]));
    assert!(earlier.contains("no findings up to this move"), "{earlier}");
}

#[test]
fn show_score_draws_the_count_with_each_sides_tally() {
    let dir = Dir::new("show-score");
    // Black holds the A column, White the D and E columns; both passed.
    dir.create(
        "count.sgf",
        "(;GM[1]SZ[5]KM[0.5]RU[Japanese]AB[ba][bb][bc][bd][be]AW[ca][cb][cc][cd][ce];B[];W[])",
    );
    let out = run_ok(&mut dir.kifu(["show", "count.sgf", "--score"]));
    let count = out.split("count under").nth(1).expect("a count is shown");
    let expected = " japanese (komi 0.5), dead stones estimate (high confidence):
X O live stones, x o dead stones, + Black's point, - White's point, . neutral

  A B C D E
5 + X O - - 5
4 + X O - - 4
3 + X O - - 3
2 + X O - - 2
1 + X O - - 1
  A B C D E

Black 5 (stones 5, territory 5, prisoners 0, dead 0)
White 10 (stones 5, territory 10, prisoners 0, dead 0)
neutral 0, result W+5.5
";
    assert_same_text("kifu show --score", expected, count);
    // Under area counting the stones count too.
    let out = run_ok(&mut dir.kifu(["show", "count.sgf", "--score", "chinese"]));
    assert!(out.contains("Black 10 (stones 5, territory 5"), "{out}");
    // The option's value is optional, so a file written after it is read as the ruleset: the
    // error says how to write what was meant.
    let out = run(&mut dir.kifu(["show", "--score", "count.sgf"]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("write it before the option, `kifu show count.sgf --score`"),
        "{stderr}"
    );
}

#[test]
fn show_refuses_a_game_or_move_that_does_not_exist() {
    let dir = Dir::new("show-missing");
    dir.create("one.sgf", small_game("a", "b", "B+2"));
    for args in [
        vec!["show", "one.sgf", "--game", "2"],
        vec!["show", "one.sgf", "--move", "11"],
        vec!["show", "missing.sgf"],
    ] {
        let out = run(&mut dir.kifu(&args));
        assert_eq!(out.status.code(), Some(2), "kifu {args:?}");
        assert!(!out.stderr.is_empty(), "kifu {args:?} says why");
    }
}

// ---------------------------------------------------------------------------------------------
// Ctrl-C

/// Ctrl-C while the reader waits on a FIFO that never delivers: the run stops at once, exits
/// 130, and leaves the previous report as it was, with no temporary file behind.
#[cfg(unix)]
#[test]
fn ctrl_c_leaves_the_previous_report_untouched() {
    let dir = Dir::new("ctrl-c");
    dir.create("r/games.csv", "previous report\n");
    game_folder(&dir, 2);
    dir.fifo("stuck.sgf");
    // Interrupted once the run has opened its temporary files.
    util::interrupt_when(
        &mut dir.kifu(["audit", "-o", "r", "games", "stuck.sgf"]),
        "started",
        || dir.list("r").iter().any(|n| n.ends_with(".tmp")),
    );
    assert_eq!(dir.read("r/games.csv"), "previous report\n");
    assert_eq!(dir.list("r"), ["games.csv"], "no temporary file left");
}
