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
    for sub in ["audit", "check", "score", "rules", "codes"] {
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

#[test]
fn thread_count_and_batch_size_do_not_change_a_byte() {
    let dir = Dir::new("determinism");
    game_folder(&dir, 40);
    let variants: [&[&str]; 3] = [
        &["-j", "1", "--batch-games", "1000"],
        &["-j", "2", "--batch-games", "3"],
        &["-j", "2", "--batch-games", "1", "--batch-mb", "1"],
    ];
    for (i, extra) in variants.iter().enumerate() {
        let out = format!("r{i}");
        let mut args = vec!["audit", "-q", "-o", &out, "games"];
        args.extend_from_slice(extra);
        run_ok(&mut dir.kifu(&args));
    }
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
    dir.create("list.txt", "# games to audit\ngames/a\n\ngames/d/002.sgf\r\n");
    run_ok(&mut dir.kifu(["audit", "-q", "-o", "r", "--files-from", "list.txt"]));
    let sources = column(&dir.read("r/games.csv"), "source");
    // games/a holds games 0 and 3 (000.SGF, 003.sgf); games/d holds 2 and 5.
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

/// The bundled corpus (corpus/generated) as a whole: single files, collections, a zip, a
/// tar.gz, three charsets. Every game of the generator's manifest has exactly one row, in input
/// order, and the files are byte-identical on 1 and 2 threads with different batch sizes.
#[test]
fn the_bundled_corpus_is_accounted_for_and_identical_on_one_and_two_threads() {
    let dir = Dir::new("corpus");
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let generated = format!("{corpus}/generated");
    let manifest = std::fs::read_to_string(format!("{generated}/MANIFEST.tsv")).unwrap();
    let mut expected: Vec<(String, String)> = manifest
        .lines()
        .skip(1)
        .map(|line| {
            let mut cells = line.split('\t');
            (format!("{corpus}/{}", cells.next().unwrap()), cells.next().unwrap().to_owned())
        })
        .collect();
    expected.sort();

    run_ok(&mut dir.kifu(["audit", "-q", "-j", "1", "-o", "one", &generated]));
    run_ok(&mut dir.kifu([
        "audit",
        "-q",
        "-j",
        "2",
        "--batch-games",
        "7",
        "-o",
        "two",
        &generated,
    ]));
    let games = dir.read("one/games.csv");
    let mut keys: Vec<(String, String)> =
        column(&games, "source").into_iter().zip(column(&games, "game")).collect();
    keys.sort();
    assert_eq!(keys, expected, "games.csv has one row per game of the manifest");
    for file in REPORT_FILES.iter().filter(|f| f.ends_with(".csv")) {
        assert_same_text(
            file,
            &dir.read(&format!("one/{file}")),
            &dir.read(&format!("two/{file}")),
        );
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
    // Enough score rows (~70 bytes each) to fill any pipe buffer several times over.
    game_folder(&dir, 1500);
    let mut child = dir
        .kifu(["score", "-j", "2", "games"])
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
// Ctrl-C

/// Ctrl-C while the reader waits on a FIFO that never delivers: the run stops at once, exits
/// 130, and leaves the previous report as it was, with no temporary file behind.
#[cfg(unix)]
#[test]
fn ctrl_c_leaves_the_previous_report_untouched() {
    let dir = Dir::new("ctrl-c");
    dir.create("r/games.csv", "previous report\n");
    game_folder(&dir, 2);
    let fifo = dir.join("stuck.sgf");
    assert!(run(std::process::Command::new("mkfifo").arg(&fifo)).status.success());
    let child = dir
        .kifu(["audit", "-o", "r", "games", "stuck.sgf"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the run has opened its temporary files, then interrupt it.
    let started = std::time::Instant::now();
    while !dir.list("r").iter().any(|n| n.ends_with(".tmp")) {
        assert!(started.elapsed().as_secs() < 20, "the run never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_eq!(dir.read("r/games.csv"), "previous report\n");
    assert_eq!(dir.list("r"), ["games.csv"], "no temporary file left");
}
