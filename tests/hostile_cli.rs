//! Hostile input through the real `kifu` binary, end to end: small versions of the hostile set
//! audited in a temporary folder, the `--limit` option, archive members that climb out of their
//! folder, and text that spreadsheets would run as formulas. The full-size set is
//! `scripts/gen-hostile DIR && scripts/hostile-check DIR` (README, "Limits on hostile input").

mod util;

use std::collections::BTreeMap;

use util::{Dir, column, csv_rows, run, run_ok};

const GAME: &str = "(;GM[1]FF[4]SZ[19]KM[6.5]PB[Honinbo Shuei]PW[Ishida Shusaku]RE[B+2.5]\
                    ;B[pd];W[dp];B[pq];W[dd];B[fq];W[cn])";

/// Rows of games.csv by source, and the whole report's `internal` findings (panics).
struct Audit {
    rows_by_source: BTreeMap<String, usize>,
    rows: usize,
    internal: usize,
    summary_games: u64,
}

fn audit(dir: &Dir, args: &[&str]) -> Audit {
    let mut all = vec!["audit", "-q", "-o", "report"];
    all.extend_from_slice(args);
    run_ok(&mut dir.kifu(all));
    let games = dir.read("report/games.csv");
    let mut rows_by_source = BTreeMap::new();
    for source in column(&games, "source") {
        *rows_by_source.entry(source).or_insert(0) += 1;
    }
    let internal = column(&dir.read("report/findings.csv"), "code")
        .iter()
        .filter(|c| *c == "internal")
        .count();
    let summary = dir.read("report/summary.txt");
    let summary_games = summary
        .lines()
        .find_map(|l| l.strip_prefix("games").and_then(|n| n.trim().parse().ok()))
        .expect("the summary counts games");
    Audit { rows: rows_by_source.values().sum(), rows_by_source, internal, summary_games }
}

#[test]
fn a_small_hostile_set_is_audited_with_every_game_accounted_for() {
    let dir = Dir::new("hostile-set");
    let mut expected: Vec<(&str, usize)> = Vec::new();
    let mut case = |name: &'static str, rows: usize, bytes: Vec<u8>| {
        dir.create(&format!("set/{name}"), bytes);
        expected.push((name, rows));
    };
    case("one-line.sgf", 3000, GAME.repeat(3000).into_bytes());
    let depth = 250_000; // over the default depth limit of 200,000
    case(
        "nested-variations.sgf",
        1,
        format!("(;GM[1]{}{})", "(;B[aa]".repeat(depth), ")".repeat(depth + 1)).into_bytes(),
    );
    case("nul-bytes.sgf", 200, "(;GM[1]PB[a\0b]C[\0];B[\0a])\0\n".repeat(200).into_bytes());
    case(
        "invalid-utf8.sgf",
        200,
        b"(;GM[1]PB[\xff\xfe]C[\xc0\x80 \xe5\x3f\x83]RE[B+\xf5];B[pd])\n".repeat(200),
    );
    let points: String = (0..52u8)
        .flat_map(|y| (0..52u8).map(move |x| (x, y)))
        .filter_map(|(x, y)| kifu::rules::Point::new(x, y).sgf())
        .map(|p| format!("[{p}]"))
        .collect();
    case("board-52x52.sgf", 1, format!("(;GM[1]SZ[52:52]AB{points};B[aa];W[])").into_bytes());
    let mut unterminated = format!("{GAME}\n").repeat(2000);
    unterminated.push_str("(;GM[1]PB[last]C[never closed ");
    unterminated.push_str(&"z".repeat(2 << 20)); // over the 1 MiB value limit
    case("unterminated-value-at-end.sgf", 2001, unterminated.into_bytes());
    let mut moves = String::from("(;GM[1]SZ[19]");
    for i in 0..20_000u32 {
        let p = kifu::rules::Point::new((i * 7 % 19) as u8, (i * 11 % 19) as u8);
        moves.push_str(&format!(
            ";{}[{}]",
            ["B", "W"][i as usize % 2],
            p.sgf().unwrap_or_default()
        ));
    }
    moves.push(')');
    case("moves-20k.sgf", 1, moves.into_bytes());
    case("tiny-trees.sgf", 5001, "(;)".repeat(50_000).into_bytes());
    case("deep-unclosed.sgf", 1, "(;".repeat(300_000).into_bytes());

    // Dead stones as they stand: this test is about reading and accounting; estimating the
    // status of stones in thousands of copies of an opening would only make it slow.
    let report = audit(&dir, &["--limit", "games=5000", "--dead-stones", "as-is", "set"]);
    assert_eq!(report.internal, 0, "no panic");
    for (name, rows) in expected {
        let source = format!("set/{name}");
        assert_eq!(report.rows_by_source.get(&source), Some(&rows), "{source}");
    }
    assert_eq!(report.summary_games, report.rows as u64, "the summary reconciles");
}

#[test]
fn the_games_limit_on_the_command_line_keeps_one_row_for_the_rest() {
    let dir = Dir::new("limit-games");
    dir.create("five.sgf", format!("{GAME}\n").repeat(5));
    let report = audit(&dir, &["--limit", "games=2", "five.sgf"]);
    assert_eq!(report.rows, 3);
    let games = dir.read("report/games.csv");
    assert_eq!(column(&games, "status")[2], "unparsed");
    assert_eq!(column(&games, "line")[2], "3");
    let findings = csv_rows(&dir.read("report/findings.csv"));
    let limit = findings.iter().find(|r| r.contains(&"limit".to_owned())).expect("a limit row");
    assert_eq!(limit[1], "3", "the finding belongs to game 3");
    assert!(limit.iter().any(|c| c.contains("5 game trees") && c.contains("the last 3")));
}

#[test]
fn bad_limits_are_refused_before_anything_is_read() {
    let dir = Dir::new("limit-bad");
    for bad in ["games=0", "moves=5", "nodes", "depth=-1", "board-side=60"] {
        let out = run(&mut dir.kifu(["audit", "-q", "--limit", bad, "missing.sgf"]));
        assert_eq!(out.status.code(), Some(2), "--limit {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--limit"), "--limit {bad}");
        assert!(!dir.join("kifu-report").exists());
    }
}

#[test]
fn archive_members_named_to_climb_out_are_read_and_nothing_is_written_outside() {
    let dir = Dir::new("traversal");
    let game = GAME.as_bytes();
    let members: [(&str, &[u8]); 4] = [
        ("../../x.sgf", game),
        ("/etc/kifu-absolute.sgf", game),
        ("a/../../../b.sgf", game),
        ("bell\u{7}and\nnewline.sgf", game),
    ];
    dir.create("in/games.zip", util::zip_archive(&members, zip::CompressionMethod::default()));
    let report = audit(&dir, &["in"]);
    assert_eq!(report.internal, 0);
    let sources: Vec<&String> = report.rows_by_source.keys().collect();
    assert_eq!(
        sources,
        [
            "in/games.zip!../../x.sgf",
            "in/games.zip!/etc/kifu-absolute.sgf",
            "in/games.zip!a/../../../b.sgf",
            "in/games.zip!bell\u{FFFD}and\u{FFFD}newline.sgf",
        ]
    );
    assert!(!dir.join("x.sgf").exists() && !dir.join("../x.sgf").exists());
    assert!(!dir.join("b.sgf").exists());
}

/// Every text cell of a report that starts like a formula, unguarded.
fn unguarded_cells(csv: &str) -> Vec<String> {
    csv_rows(csv)
        .into_iter()
        .flatten()
        .filter(|c| c.chars().count() > 1 && c.starts_with(['=', '+', '-', '@', '\t', '\r']))
        .filter(|c| c.parse::<f64>().is_err()) // numbers such as a margin of -3.5
        .collect()
}

#[test]
fn formula_like_names_never_reach_a_spreadsheet_unguarded() {
    let dir = Dir::new("formulas");
    let formulas = ["=HYPERLINK(\"http://example.com\",\"x\")", "+81 3", "-2+3", "@SUM(A1)"];
    let mut collection = String::new();
    for f in formulas {
        collection.push_str(&format!("(;GM[1]PB[{f}]PW[{f}]EV[{f}]RE[{f}]DT[{f}];B[pd])\n"));
    }
    dir.create("=cmd.sgf", &collection);
    dir.create(
        "names.zip",
        util::zip_archive(
            &[("=member.sgf", collection.as_bytes())],
            zip::CompressionMethod::default(),
        ),
    );
    let report = audit(&dir, &["=cmd.sgf", "names.zip"]);
    assert_eq!(report.rows, 8);
    let games = dir.read("report/games.csv");
    let findings = dir.read("report/findings.csv");
    assert_eq!(unguarded_cells(&games), Vec::<String>::new(), "games.csv");
    assert_eq!(unguarded_cells(&findings), Vec::<String>::new(), "findings.csv");
    assert!(column(&games, "source").iter().take(4).all(|s| s == "'=cmd.sgf"));
    // Player names, once the SGF adapter reads them, are guarded the same way.
    for (black, formula) in column(&games, "black").iter().zip(formulas) {
        assert!(black.is_empty() || *black == format!("'{formula}"), "{black}");
    }
    // --raw-text writes them as read, for programs.
    run_ok(&mut dir.kifu(["audit", "-q", "--raw-text", "-o", "raw", "=cmd.sgf"]));
    assert!(column(&dir.read("raw/games.csv"), "source").iter().all(|s| s == "=cmd.sgf"));
}
