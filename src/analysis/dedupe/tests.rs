//! Keys and groups on SGF examples: orientations, rectangular boards, truncations and edited
//! metadata.

use super::*;
use crate::record::{CharsetOrigin, GameLocation, ReadOptions, TextEncoding};
use crate::rules::Point;

fn read_named(source: &str, text: &str) -> GameRecord {
    let location = GameLocation { source: source.into(), game: 1, offset: 0, line: 1 };
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    crate::record::sgf::read_game(text, location, encoding, &ReadOptions::default())
}

fn key(text: &str) -> MoveKey {
    MoveKey::of(&read_named("test.sgf", text))
}

/// The SGF text with every point of B, W, AB, AW, AE, TB and TW turned by `s` (values are
/// single points here, as in the examples).
fn turned(text: &str, s: Symmetry, size: BoardSize) -> String {
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
        let close = after.find(']').expect("closed value");
        let value = &after[1..close];
        let is_point = matches!(id.as_str(), "B" | "W" | "AB" | "AW" | "AE" | "TB" | "TW");
        out.push('[');
        match Point::from_sgf(value.as_bytes()).filter(|_| is_point && value.len() == 2) {
            Some(p) if size.contains(p) => out.push_str(&s.apply(p, size).sgf().unwrap()),
            _ => out.push_str(value),
        }
        out.push(']');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `n` moves at distinct pseudo-random points of a `w` x `h` board, Black first, from `seed`.
fn moves(seed: u64, n: usize, w: u8, h: u8) -> String {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut used = std::collections::HashSet::new();
    let mut out = String::new();
    while used.len() < n.min(w as usize * h as usize) {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let x = ((state >> 33) % u64::from(w)) as u8;
        let y = ((state >> 17) % u64::from(h)) as u8;
        if used.insert((x, y)) {
            let colour = if used.len() % 2 == 1 { 'B' } else { 'W' };
            out.push_str(&format!(";{colour}[{}]", Point::new(x, y).sgf().unwrap()));
        }
    }
    out
}

fn game(meta: &str, seed: u64, n: usize) -> String {
    format!("(;GM[1]FF[4]SZ[19]{meta}{})", moves(seed, n, 19, 19))
}

/// The first `n` moves of a game written by [`game`].
fn first_moves(text: &str, n: usize) -> String {
    let cut = text.match_indices(';').nth(n + 1).map_or(text.len() - 1, |(i, _)| i);
    format!("{})", &text[..cut])
}

#[test]
fn the_eight_images_of_a_three_four_opening_share_one_key() {
    // Black's first stone on a 3-4 point: in the upper right it is R16 (qd) or Q17 (pc); the
    // eight images cover the four corners both ways round.
    let opening = "(;GM[1]SZ[19];B[qd];W[dp];B[pq])";
    let base = key(opening);
    for s in Symmetry::ALL {
        let image = turned(opening, s, BoardSize::STANDARD);
        assert_eq!(key(&image).tokens(), base.tokens(), "{}: {image}", s.name());
    }
    // A 4-4 opening is another game.
    assert_ne!(key("(;GM[1]SZ[19];B[pd];W[dp];B[pq])").tokens(), base.tokens());
}

#[test]
fn a_turned_copy_names_the_symmetry_that_brings_it_back() {
    let original = game("AB[dd][pp]HA[2]", 7, 120);
    let k = key(&original);
    for s in Symmetry::ALL {
        let copy = key(&turned(&original, s, BoardSize::STANDARD));
        assert_eq!(copy.tokens(), k.tokens());
        assert_eq!(copy.symmetry_onto(&k), s.inverse(), "{}", s.name());
        assert_eq!(k.symmetry_onto(&copy), s, "{}", s.name());
    }
}

#[test]
fn a_rectangular_board_has_four_orientations_and_its_transpose_is_another_board() {
    let size = BoardSize::new(13, 9).unwrap();
    let text = format!("(;GM[1]SZ[13:9]{})", moves(3, 60, 13, 9));
    let k = key(&text);
    for s in Symmetry::of(size).iter() {
        assert_eq!(key(&turned(&text, s, size)).tokens(), k.tokens(), "{}", s.name());
    }
    // The same game drawn on a 9x13 board is not the same record.
    let transposed: String = {
        let t = turned(
            &format!("(;GM[1]SZ[13]{})", moves(3, 60, 13, 9)),
            Symmetry::Transpose,
            BoardSize::square(13).unwrap(),
        );
        t.replace("SZ[13]", "SZ[9:13]")
    };
    assert_ne!(key(&transposed).tokens(), k.tokens());
}

#[test]
fn colours_and_setup_stones_are_part_of_the_key() {
    let text = game("", 11, 40);
    let swapped = text.replace(";B[", ";X[").replace(";W[", ";B[").replace(";X[", ";W[");
    assert_ne!(key(&swapped).tokens(), key(&text).tokens());
    let with_stone = text.replacen("SZ[19]", "SZ[19]AW[jj]", 1);
    assert_ne!(key(&with_stone).tokens(), key(&text).tokens());
}

#[test]
fn final_passes_are_left_out_and_weight_counts_moves_not_handicap_stones() {
    let text = game("", 5, 50);
    let passed = text.replace(")", ";B[];W[])");
    assert_eq!(key(&passed).tokens(), key(&text).tokens());
    assert_eq!(key(&passed).weight(), 50);
    let handicap = game("HA[2]AB[dp][pd]", 5, 50);
    assert_eq!(key(&handicap).weight(), 50);
    // Fox puts the handicap stones in the second node.
    let fox = "(;GM[1]SZ[19]HA[4];AB[pd][dp][dd][pp];W[cn];B[fq])";
    assert_eq!(key(fox).weight(), 2);
    let problem = "(;GM[1]SZ[19]AB[aa][ab][ac]AW[ba][bb];B[ca])";
    assert_eq!(key(problem).weight(), 6);
}

#[test]
fn a_truncated_copy_has_a_prefix_key_in_any_orientation() {
    let full = game("", 21, 180);
    let k = key(&full);
    for s in Symmetry::ALL {
        let part = key(&turned(&first_moves(&full, 70), s, BoardSize::STANDARD));
        assert_eq!(part.moves(), 70);
        assert!(part.is_proper_prefix_of(&k), "{}", s.name());
        assert_eq!(part.symmetry_onto(&k), s.inverse());
    }
}

// ---------------------------------------------------------------------------------------------
// groups

fn entries(games: &[(&str, String)]) -> Vec<GameEntry> {
    games
        .iter()
        .enumerate()
        .map(|(i, (name, text))| GameEntry::of(i as u64, &read_named(name, text)))
        .collect()
}

/// Each group as `kept: member(relation) member(relation)`, by source name.
fn outline(games: &[(&str, String)]) -> Vec<String> {
    let entries = entries(games);
    find_duplicates(&entries, &DedupeOptions::default())
        .iter()
        .map(|g| {
            let mut line = format!("{}:", entries[g.kept().entry].source);
            for m in &g.members[1..] {
                line.push_str(&format!(" {}({})", entries[m.entry].source, m.relation.kinds));
            }
            line
        })
        .collect()
}

#[test]
fn planted_copies_are_found_and_nothing_else_is_grouped() {
    let meta = |i: u64| format!("PB[Black {i}]PW[White {i}]DT[2020-01-{:02}]RE[B+R]", i + 1);
    let originals: Vec<String> =
        (0..8).map(|i| game(&meta(i), 100 + i, 150 + i as usize)).collect();
    let mut games: Vec<(&str, String)> = vec![
        ("g0", originals[0].clone()),
        ("g1", originals[1].clone()),
        ("g2", originals[2].clone()),
        ("g3", originals[3].clone()),
        ("g4", originals[4].clone()),
        ("g5", originals[5].clone()),
        ("g6", originals[6].clone()),
        ("g7", originals[7].clone()),
    ];
    games.push(("g0-rotated", turned(&originals[0], Symmetry::Rotate90, BoardSize::STANDARD)));
    games.push((
        "g1-mirrored",
        turned(&originals[1], Symmetry::MirrorLeftRight, BoardSize::STANDARD),
    ));
    games.push(("g2-cut", first_moves(&originals[2], 90)));
    games.push((
        "g3-renamed",
        originals[3]
            .replace("PB[Black 3]", "PB[B. Three]")
            .replace("DT[2020-01-04]", "DT[2020-01-05]"),
    ));
    let g4 = turned(&first_moves(&originals[4], 120), Symmetry::AntiTranspose, BoardSize::STANDARD);
    games.push(("g4-all", g4.replace("RE[B+R]", "RE[W+R]")));
    games.push(("g5-copy", originals[5].clone()));
    assert_eq!(
        outline(&games),
        [
            "g0: g0-rotated(symmetry)",
            "g1: g1-mirrored(symmetry)",
            "g2: g2-cut(truncated)",
            "g3: g3-renamed(metadata)",
            "g4: g4-all(symmetry+truncated+metadata)",
            "g5: g5-copy(exact)",
        ]
    );
}

#[test]
fn a_record_that_two_games_continue_differently_stays_alone() {
    let start = game("", 31, 60);
    let a = start.replace(
        ")",
        &format!(
            "{})",
            moves(1, 60, 19, 19).replace(";B[", ";X[").replace(";W[", ";B[").replace(";X[", ";W[")
        ),
    );
    let b = start.replace(")", ";B[ss];W[sr];B[rs])");
    let games = vec![("start", start.clone()), ("a", a), ("b", b)];
    assert!(outline(&games).is_empty(), "{:?}", outline(&games));
    // With one continuation only, the record is its truncated copy.
    let games = vec![("start", start.clone()), ("b", start.replace(")", ";B[ss];W[sr];B[rs])"))];
    assert_eq!(outline(&games), ["b: start(truncated)"]);
}

#[test]
fn short_records_group_only_when_their_metadata_names_the_same_game() {
    let short = |meta: &str| format!("(;GM[1]SZ[19]{meta};B[pd];W[dp];B[pp];W[dd])");
    let games = vec![
        ("empty-1", "(;GM[1]SZ[19])".to_string()),
        ("empty-2", "(;GM[1]SZ[19])".to_string()),
        ("a", short("PB[Go Seigen]PW[Honinbo Shusai]DT[1933-10-16]")),
        ("b", short("PB[Go Seigen]PW[Honinbo Shusai]DT[1933-10-16]")),
        ("c", short("PB[Kitani Minoru]PW[Honinbo Shusai]DT[1938-06-26]")),
        // The same record saved in another charset: the file-format properties do not count.
        ("a-gbk", short("CA[GBK]FF[3]PB[Go Seigen]PW[Honinbo Shusai]DT[1933-10-16]")),
        // Placeholders for games whose moves are lost (aeb's collection): the same event and
        // date, other players in private properties. Not the same game.
        ("hon03", "(;EV[31st Honinbo]PX[Cho Chikun]PY[Takagi Shoichi]RE[X+]DT[1975])".to_string()),
        (
            "hon04",
            "(;EV[31st Honinbo]PX[Cho Chikun]PY[Shimamura Toshihiro]RE[X+]DT[1975])".to_string(),
        ),
    ];
    assert_eq!(outline(&games), ["a: b(exact) a-gbk(exact)"]);
}

#[test]
fn a_short_truncated_copy_needs_compatible_metadata_and_a_long_one_does_not() {
    let full = game("PB[Lee Sedol]PW[Gu Li]DT[2014-01-26]RE[B+R]", 41, 220);
    let other_players = |text: String| {
        text.replace(
            "PB[Lee Sedol]PW[Gu Li]DT[2014-01-26]",
            "PB[Park Junghwan]PW[Ke Jie]DT[2015-03-02]",
        )
    };
    // 50 moves by other players on another day: another game that went the same way.
    let games = vec![("full", full.clone()), ("short", other_players(first_moves(&full, 50)))];
    assert!(outline(&games).is_empty());
    // The same 50 moves with the same players (the date missing): a truncated copy.
    let same = first_moves(&full, 50).replace("DT[2014-01-26]", "");
    let games = vec![("full", full.clone()), ("short", same)];
    assert_eq!(outline(&games), ["full: short(truncated+metadata)"]);
    // 120 identical moves are the same game whatever the metadata says.
    let games = vec![("full", full.clone()), ("long", other_players(first_moves(&full, 120)))];
    assert_eq!(outline(&games), ["full: long(truncated+metadata)"]);
    // Under 30 moves, never.
    let games = vec![("full", full.clone()), ("opening", first_moves(&full, 25))];
    assert!(outline(&games).is_empty());
}

#[test]
fn the_record_kept_is_the_most_complete() {
    let base = game("PB[A]PW[B]", 51, 100);
    let kept = |games: &[(&str, String)]| {
        let entries = entries(games);
        let groups = find_duplicates(&entries, &DedupeOptions::default());
        assert_eq!(groups.len(), 1);
        (entries[groups[0].kept().entry].source.clone(), groups[0].reason.clone())
    };
    let longer = base.replace(")", ";B[ss];W[rs])");
    assert_eq!(
        kept(&[("short", base.clone()), ("long", longer)]),
        ("long".to_string(), "longest main line (102 moves; next 100)".to_string())
    );
    let richer = base.replace("PW[B]", "PW[B]DT[2001-02-03]EV[Meijin]");
    assert_eq!(
        kept(&[("plain", base.clone()), ("rich", richer)]),
        ("rich".to_string(), "most metadata (4 values; next 2)".to_string())
    );
    let counted = base.replace("PW[B]", "PW[B]RE[B+3.5]");
    let resigned = base.replace("PW[B]", "PW[B]RE[W+R]");
    assert_eq!(
        kept(&[("resigned", resigned), ("counted", counted)]),
        ("counted".to_string(), "counted result (B+3.5)".to_string())
    );
    assert_eq!(
        kept(&[("first", base.clone()), ("second", base.clone())]),
        ("first".to_string(), "first in input order".to_string())
    );
}

#[test]
fn relations_list_the_fields_that_differ() {
    let a = game("PB[Cho Chikun]PW[Kobayashi Koichi]DT[1986-01-15]RE[W+R]KM[5.5]", 61, 90);
    let b = a
        .replace("PB[Cho Chikun]", "PB[cho  chikun]")
        .replace("RE[W+R]", "RE[W+Resign]")
        .replace("KM[5.5]", "KM[6.5]");
    let list = entries(&[("a", a), ("b", b)]);
    let groups = find_duplicates(&list, &DedupeOptions::default());
    let member = &groups[0].members[1];
    // Case and spacing in names, and the spelling of a result, are not differences.
    assert_eq!(member.relation.differing, ["KM"]);
    assert_eq!(groups[0].kinds.to_string(), "metadata");
}

#[test]
fn counts_sum_up_groups_by_kind() {
    let g = game("PB[X]", 71, 80);
    let games = vec![
        ("g", g.clone()),
        ("copy", g.clone()),
        ("turned", turned(&g, Symmetry::Rotate180, BoardSize::STANDARD)),
    ];
    let list = entries(&games);
    let counts = DuplicateCounts::of(&find_duplicates(&list, &DedupeOptions::default()));
    assert_eq!((counts.groups, counts.games, counts.redundant()), (1, 3, 2));
    assert_eq!(counts.groups_with, [1, 1, 0, 0]);
    assert_eq!(counts.members_with, [1, 1, 0, 0]);
}
