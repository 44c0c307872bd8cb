//! `kifu dedupe` on the real binary: duplicates planted among the bundled generated games
//! (rotations, reflections, truncations, edited metadata, copies inside a collection and an
//! archive) are all found, and nothing else is grouped.

mod util;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use kifu::analysis::dedupe::Symmetry;
use kifu::rules::{BoardSize, Point};
use util::{Dir, column, csv_rows, run_expect, run_ok};

fn generated(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/generated/19x19").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Number of move nodes in a generated game (every node after the root holds one move).
fn move_count(text: &str) -> usize {
    text.matches(';').count() - 1
}

/// The game with every point of B, W, AB and AW turned by `s` on a 19x19 board.
fn turned(text: &str, s: Symmetry) -> String {
    let size = BoardSize::STANDARD;
    let mut out = String::new();
    let mut id = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let (before, after) = rest.split_at(open);
        out.push_str(before);
        let letters: String = before.chars().rev().take_while(char::is_ascii_uppercase).collect();
        if !letters.is_empty() {
            id = letters.chars().rev().collect();
        }
        let close = after.find(']').expect("a closed value");
        let value = &after[1..close];
        out.push('[');
        match Point::from_sgf(value.as_bytes()) {
            Some(p) if matches!(id.as_str(), "B" | "W" | "AB" | "AW") && size.contains(p) => {
                out.push_str(&s.apply(p, size).sgf().unwrap())
            }
            _ => out.push_str(value),
        }
        out.push(']');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The root and the first `n` moves.
fn first_moves(text: &str, n: usize) -> String {
    let cut = text.match_indices(';').nth(n + 1).map_or(text.len(), |(i, _)| i);
    format!("{})\n", text[..cut].trim_end().trim_end_matches(')'))
}

/// The game with one property's value replaced (or removed, with `None`).
fn with_property(text: &str, id: &str, value: Option<&str>) -> String {
    let key = format!("{id}[");
    let start = text.find(&key).unwrap_or_else(|| panic!("no {id} in the game"));
    let end = start + text[start..].find(']').unwrap() + 1;
    let replacement = value.map(|v| format!("{id}[{v}]")).unwrap_or_default();
    format!("{}{replacement}{}", &text[..start], &text[end..])
}

/// Groups of duplicates.csv as (sorted member sources, group kinds).
fn groups(csv: &str) -> BTreeSet<(Vec<String>, String)> {
    let rows = csv_rows(csv);
    let header = &rows[0];
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut by_group: BTreeMap<String, (Vec<String>, String)> = BTreeMap::new();
    for row in &rows[1..] {
        let entry = by_group.entry(row[at("group")].clone()).or_default();
        let name = row[at("source")].rsplit(['/', '!']).next().unwrap().to_string();
        entry.0.push(format!("{name}#{}", row[at("game")]));
        entry.1 = row[at("kinds")].clone();
    }
    by_group
        .into_values()
        .map(|(mut members, kinds)| {
            members.sort();
            (members, kinds)
        })
        .collect()
}

#[test]
fn planted_duplicates_are_all_found_and_nothing_else_is_grouped() {
    let dir = Dir::new("dedupe-planted");
    // Originals: the first 30 generated 19x19 games long enough to cut (handicap games among
    // them), as one file each.
    let mut long: Vec<(String, String)> = Vec::new();
    for i in 1..=200 {
        let name = format!("{i:04}.sgf");
        let text = generated(&name);
        dir.create(&format!("held/{name}"), &text);
        if move_count(&text) >= 150 && long.len() < 30 {
            long.push((name, text));
        }
    }
    assert_eq!(long.len(), 30, "enough long generated games");
    let g = |i: usize| long[i].1.as_str();
    let original = |i: usize| format!("{}#1", long[i].0);
    let mut expected: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
    let mut plant = |name: &str, text: String, of: usize, kinds: &str| {
        dir.create(&format!("planted/{name}"), text);
        let mut members = vec![original(of), format!("{name}#1")];
        members.sort();
        expected.insert((members, kinds.to_string()));
    };
    plant("rotate-90.sgf", turned(g(0), Symmetry::Rotate90), 0, "symmetry");
    plant("rotate-180.sgf", turned(g(1), Symmetry::Rotate180), 1, "symmetry");
    plant("rotate-270.sgf", turned(g(2), Symmetry::Rotate270), 2, "symmetry");
    plant("mirror-lr.sgf", turned(g(3), Symmetry::MirrorLeftRight), 3, "symmetry");
    plant("mirror-tb.sgf", turned(g(4), Symmetry::MirrorTopBottom), 4, "symmetry");
    plant("transpose.sgf", turned(g(5), Symmetry::Transpose), 5, "symmetry");
    plant("anti-transpose.sgf", turned(g(6), Symmetry::AntiTranspose), 6, "symmetry");
    let cut = |i: usize, share: f64| first_moves(g(i), (move_count(g(i)) as f64 * share) as usize);
    plant("cut-60.sgf", cut(7, 0.6), 7, "truncated");
    // A short cut without its result: grouped because the players and date agree.
    let short = with_property(&first_moves(g(8), 40), "RE", None);
    plant("cut-40-no-result.sgf", short, 8, "truncated+metadata");
    plant("cut-turned.sgf", turned(&cut(9, 0.5), Symmetry::Rotate180), 9, "symmetry+truncated");
    let renamed =
        with_property(&with_property(g(10), "PB", Some("Someone Else")), "DT", Some("1999-09-09"));
    plant("renamed.sgf", renamed, 10, "metadata");
    plant("result.sgf", with_property(g(11), "RE", Some("Void")), 11, "metadata");
    let everything = with_property(&turned(&cut(12, 0.7), Symmetry::Transpose), "PW", Some("X"));
    plant("everything.sgf", everything, 12, "metadata+symmetry+truncated");
    // Copies inside a collection and an archive.
    dir.create(
        "planted/collection.sgf",
        format!("{}\n{}", g(13), turned(g(14), Symmetry::MirrorLeftRight)),
    );
    expected.insert((vec![original(13), "collection.sgf#1".into()], "exact".into()));
    expected.insert((vec![original(14), "collection.sgf#2".into()], "symmetry".into()));
    let edited = with_property(&turned(g(15), Symmetry::Rotate90), "GN", Some("a copy"));
    dir.create(
        "planted/archive.zip",
        util::zip_archive(&[("deep/copy.sgf", edited.as_bytes())], zip::CompressionMethod::Stored),
    );
    let mut members = vec![original(15), "copy.sgf#1".to_string()];
    members.sort();
    expected.insert((members, "metadata+symmetry".into()));

    run_ok(&mut dir.kifu(["dedupe", "-q", "-o", "report", "held", "planted"]));
    let report = dir.read("report/duplicates.csv");
    // Kinds are written in a fixed order; compare them as sets.
    let normalise =
        |set: BTreeSet<(Vec<String>, String)>| -> BTreeSet<(Vec<String>, BTreeSet<String>)> {
            set.into_iter().map(|(m, k)| (m, k.split('+').map(str::to_string).collect())).collect()
        };
    let found = normalise(groups(&report));
    let wanted = normalise(expected);
    let missing: Vec<_> = wanted.difference(&found).collect();
    let extra: Vec<_> = found.difference(&wanted).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nextra {extra:#?}");
}

#[test]
fn the_record_kept_comes_first_with_its_reason_and_output_does_not_depend_on_threads() {
    let dir = Dir::new("dedupe-kept");
    let game = generated("0003.sgf");
    dir.create("a/full.sgf", &game);
    dir.create("b/cut.sgf", first_moves(&game, move_count(&game) / 2));
    dir.create("c/turned.sgf", turned(&game, Symmetry::Rotate270));
    let one = run_ok(&mut dir.kifu(["dedupe", "-j", "1", "-o", "one", "a", "b", "c"]));
    assert!(one.is_empty(), "the summary goes to standard error");
    run_ok(&mut dir.kifu(["dedupe", "-q", "-j", "2", "-o", "two", "a", "b", "c"]));
    let report = dir.read("one/duplicates.csv");
    assert_eq!(report, dir.read("two/duplicates.csv"));
    assert_eq!(column(&report, "kept"), ["yes", "no", "no"]);
    assert_eq!(column(&report, "source"), ["a/full.sgf", "b/cut.sgf", "c/turned.sgf"]);
    assert_eq!(column(&report, "relation"), ["", "truncated", "symmetry"]);
    assert_eq!(column(&report, "symmetry"), ["", "identity", "rotate-90"]);
    let reason = &column(&report, "reason")[0];
    assert!(reason.starts_with("first in input order"), "{reason}");
}

#[test]
fn dedupe_help_documents_the_columns_and_bad_arguments_exit_2() {
    let dir = Dir::new("dedupe-help");
    let help = run_ok(&mut dir.kifu(["dedupe", "--help"]));
    for name in kifu::report::DuplicateRow::COLUMNS.iter().map(|c| c.name) {
        assert!(help.contains(&format!("  {name} ")), "{name} missing from dedupe --help");
    }
    for option in ["--min-same-moves", "--min-prefix-moves", "--long-prefix-moves", "-o, --out"] {
        assert!(help.contains(option), "{option}");
    }
    run_expect(&mut dir.kifu(["dedupe", "--min-prefix-moves", "many", "x.sgf"]), 2);
}
