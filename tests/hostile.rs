//! Hostile and broken input through the record layer, at a size that keeps the suite fast: the
//! limits and what a game refused by one looks like, and small versions of the hostile set
//! (`scripts/gen-hostile` writes the full-size one; README "Hostile input" says how to run it).
//!
//! Every test checks the same promise besides its own point: no panic, and every game tree of
//! the input accounted for (a pending game for each, or one that says how many it stands for).

use std::sync::Arc;

use kifu::finding::Code;
use kifu::record::{GameRecord, Limits, ReadOptions, ReadStatus, SplitFile, split_file};
use kifu::record::{charset, split};

fn options_with(limits: Limits) -> ReadOptions {
    ReadOptions { limits, ..ReadOptions::default() }
}

fn split(bytes: &[u8], options: &ReadOptions) -> SplitFile {
    split_file("hostile.sgf", Arc::from(bytes), options)
}

/// Splits and reads every game; checks the accounting promises and returns the records.
fn read_all(bytes: &[u8], options: &ReadOptions) -> Vec<GameRecord> {
    let file = split(bytes, options);
    // An independent count: the splitter alone, without a limit, over the same prepared text.
    let prepared = charset::prepare(Arc::from(bytes), options);
    let trees_found =
        split::split(&prepared.bytes, prepared.start, prepared.charset.layout).trees.len() as u64;
    let stood_for: u64 = file.games.iter().map(|g| g.trees()).sum();
    assert_eq!(stood_for, trees_found, "every tree accounted for");
    assert!(!file.games.is_empty(), "a file always yields at least one game");
    let mut last_offset = None;
    for (i, game) in file.games.iter().enumerate() {
        assert_eq!(game.location.game as usize, i + 1, "games numbered 1, 2, ... in file order");
        if let Some(previous) = last_offset {
            assert!(game.location.offset > previous, "offsets increase");
        }
        last_offset = Some(game.location.offset);
    }
    let records: Vec<GameRecord> = file.games.iter().map(|g| g.read(options)).collect();
    for (game, record) in file.games.iter().zip(&records) {
        assert_eq!(record.location, game.location);
        if record.status == ReadStatus::Failed {
            assert!(!record.findings.is_empty(), "a failed game says why");
        }
    }
    records
}

fn limit_message(record: &GameRecord) -> &str {
    let finding = record.findings.iter().find(|f| f.code == Code::Limit);
    finding.map_or_else(|| panic!("no limit finding in {:?}", record.findings), |f| &f.message)
}

fn has_limit(record: &GameRecord) -> bool {
    record.findings.iter().any(|f| f.code == Code::Limit)
}

const GAME: &str = "(;GM[1]FF[4]SZ[19]PB[Honinbo Shuei]PW[Ishida Shusaku];B[pd];W[dp];B[pq])";

// ------------------------------------------------------------------------------ limits

#[test]
fn trees_beyond_the_games_limit_become_one_game_that_counts_them() {
    let text = format!("{GAME}\n").repeat(10);
    let options = options_with(Limits { max_games_per_file: 3, ..Limits::default() });
    let file = split(text.as_bytes(), &options);
    assert_eq!(file.games.len(), 4, "three games kept, one standing for the rest");
    assert_eq!(file.games.iter().map(|g| g.trees()).collect::<Vec<_>>(), [1, 1, 1, 7]);
    let beyond = &file.games[3];
    assert!(beyond.has_tree());
    assert_eq!((beyond.location.game, beyond.location.line), (4, 4));
    let records = read_all(text.as_bytes(), &options);
    assert_eq!(records[3].status, ReadStatus::Failed);
    let message = limit_message(&records[3]);
    assert!(message.contains("10 game trees") && message.contains("the last 7"), "{message}");
    assert!(records[..3].iter().all(|r| !has_limit(r)));
}

#[test]
fn a_hundred_thousand_tiny_trees_cost_a_thousand_pending_games() {
    // `(;)` is the smallest game tree: a file of them is the cheapest way to ask for millions of
    // rows. Beyond the limit they are only counted.
    let text = "(;)".repeat(100_000);
    let options = options_with(Limits { max_games_per_file: 1000, ..Limits::default() });
    let file = split(text.as_bytes(), &options);
    assert_eq!(file.games.len(), 1001);
    assert_eq!(file.games.iter().map(|g| g.trees()).sum::<u64>(), 100_000);
    assert!(file.findings.is_empty(), "no junk between the trees");
}

#[test]
fn junk_beyond_the_games_limit_is_not_collected() {
    let text = "x(;)".repeat(10_000);
    let options = options_with(Limits { max_games_per_file: 10, ..Limits::default() });
    let file = split(text.as_bytes(), &options);
    assert_eq!(file.games.len(), 11);
    assert!(file.findings.len() <= 11, "{} junk findings", file.findings.len());
}

#[test]
fn an_unclosed_tree_beyond_the_limit_is_still_recovered_and_counted() {
    // The last tree lost its `)`: recovery splits it from the next game; both are beyond.
    let text = format!("{GAME}\n{GAME}\n(;GM[1];B[aa]\n{GAME}\n");
    let options = options_with(Limits { max_games_per_file: 1, ..Limits::default() });
    let file = split(text.as_bytes(), &options);
    assert_eq!(file.games.iter().map(|g| g.trees()).collect::<Vec<_>>(), [1, 3]);
    let unlimited = split(text.as_bytes(), &ReadOptions::default());
    assert_eq!(unlimited.games.len(), 4);
}

#[test]
fn a_game_with_too_many_nodes_is_unparsed_with_a_limit_finding() {
    let wide = format!("(;GM[1]{})", "(;B[aa])".repeat(50));
    let options = options_with(Limits { max_game_nodes: 40, ..Limits::default() });
    let records = read_all(wide.as_bytes(), &options);
    assert_eq!(records[0].status, ReadStatus::Failed);
    assert!(limit_message(&records[0]).contains("more than 40 nodes"));
    assert!(!has_limit(&read_all(wide.as_bytes(), &ReadOptions::default())[0]));
}

#[test]
fn too_deep_a_tree_is_refused_whether_by_nodes_in_line_or_by_nesting() {
    let options = options_with(Limits { max_tree_depth: 100, ..Limits::default() });
    let line = format!("(;GM[1]{})", ";B[aa];W[bb]".repeat(60));
    let nested = format!("(;GM[1]{}{})", "(;B[aa]".repeat(120), ")".repeat(120));
    let parens = format!("(;GM[1]{}{})", "(".repeat(150), ")".repeat(150));
    for text in [&line, &nested, &parens] {
        let records = read_all(text.as_bytes(), &options);
        assert_eq!(records[0].status, ReadStatus::Failed);
        assert!(limit_message(&records[0]).contains("depth=N"), "{text:.40}");
    }
    // A 100-move game is 101 nodes deep: the limit counts nodes, not moves.
    let short = format!("(;GM[1]{})", ";B[aa]".repeat(99));
    assert!(!has_limit(&read_all(short.as_bytes(), &options)[0]));
}

#[test]
fn an_unclosed_tree_nested_deeper_than_the_limit_is_not_closed_by_kifu() {
    // Closing it would take one `)` per level: a hostile file could double its size in text.
    let text = "(;B[aa]".repeat(5_000);
    let options = options_with(Limits { max_tree_depth: 1000, ..Limits::default() });
    let file = split(text.as_bytes(), &options);
    assert_eq!(file.games.len(), 1);
    assert_eq!(file.games[0].decode(&options).text, "", "nothing decoded");
    let record = file.games[0].read(&options);
    assert!(limit_message(&record).contains("nests 5000 variations deep"));
}

#[test]
fn a_value_longer_than_the_limit_refuses_its_game_only() {
    let long = format!("(;GM[1]C[{}];B[aa])\n{GAME}", "x".repeat(5000));
    let options = options_with(Limits { max_value_length: 4096, ..Limits::default() });
    let records = read_all(long.as_bytes(), &options);
    assert!(limit_message(&records[0]).contains("5000 bytes"));
    assert!(!has_limit(&records[1]), "the next game is read as usual");
}

#[test]
fn the_value_limit_counts_decoded_text_with_escapes() {
    // 3000 escaped brackets are 6000 bytes of text: the value is measured as written.
    let escaped = format!("(;GM[1]C[{}])", "\\]".repeat(3000));
    let options = options_with(Limits { max_value_length: 5000, ..Limits::default() });
    assert!(has_limit(&read_all(escaped.as_bytes(), &options)[0]));
}

#[test]
fn a_board_larger_than_the_board_side_limit_is_not_replayed() {
    let options = options_with(Limits { max_board_side: 13, ..Limits::default() });
    let records = read_all(GAME.as_bytes(), &options);
    assert_eq!(records[0].status, ReadStatus::Failed);
    assert!(limit_message(&records[0]).contains("larger than the limit of 13"));
    assert!(records[0].moves.is_empty());
}

#[test]
fn the_framing_and_decoding_findings_come_before_the_limit() {
    let text = format!("(;GM[1]CA[UTF-8]C[\u{00e9}\u{00e9}{}", "y".repeat(200));
    let mut bytes = text.into_bytes();
    bytes[18] = 0xFF; // damage one byte of the value
    let options = options_with(Limits { max_value_length: 100, ..Limits::default() });
    let record = &read_all(&bytes, &options)[0];
    let codes: Vec<Code> = record.findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, [Code::Unclosed, Code::Encoding, Code::Limit]);
}

// ------------------------------------------------------------- the hostile set, small

#[test]
fn a_long_collection_on_one_line() {
    let games = 2_000;
    let text = GAME.repeat(games);
    let records = read_all(text.as_bytes(), &ReadOptions::default());
    assert_eq!(records.len(), games);
    assert!(records.iter().all(|r| r.location.line == 1));
}

#[test]
fn a_hundred_thousand_nested_variations() {
    // OGS writes one nesting level per move; this is 100,000 of them, under the default limit
    // of 200,000, and the splitter's depth is a counter, not recursion.
    let depth = 100_000;
    let text = format!("(;GM[1]{}{})", "(;B[aa]".repeat(depth), ")".repeat(depth));
    let records = read_all(text.as_bytes(), &ReadOptions::default());
    assert_eq!(records.len(), 1);
    assert!(!has_limit(&records[0]));
    let deeper = format!("(;GM[1]{}{})", "(;B[aa]".repeat(250_000), ")".repeat(250_000));
    assert!(has_limit(&read_all(deeper.as_bytes(), &ReadOptions::default())[0]));
}

#[test]
fn nul_bytes_in_values_between_games_and_in_the_structure() {
    let in_values = format!("{}\0\0\0", "(;GM[1]PB[a\0b]C[\0\0];B[\0a])\0".repeat(50));
    let records = read_all(in_values.as_bytes(), &ReadOptions::default());
    assert_eq!(records.len(), 50);
    // NUL bytes everywhere, one in three: whatever the splitter makes of it, nothing panics
    // and something is reported.
    let everywhere: Vec<u8> = GAME.repeat(20).bytes().flat_map(|b| [b, 0, 0]).collect();
    let records = read_all(&everywhere, &ReadOptions::default());
    assert!(records.iter().all(|r| r.status == ReadStatus::Failed || !r.findings.is_empty()));
}

#[test]
fn invalid_utf8_in_every_value() {
    let game = b"(;GM[1]PB[\xFF\xFE]PW[\xC0\x80]C[\x80\x80\x80 \xE5\x3F]RE[B+\xF5];B[pd])\n";
    let text: Vec<u8> = game.repeat(300);
    let records = read_all(&text, &ReadOptions::default());
    assert_eq!(records.len(), 300);
    for record in &records {
        assert!(record.encoding.replaced || record.encoding.name != "UTF-8", "{record:?}");
    }
}

#[test]
fn a_52x52_board_full_of_stones() {
    let points: Vec<String> = (0..52u8)
        .flat_map(|x| (0..52u8).map(move |y| (x, y)))
        .map(|(x, y)| kifu::rules::Point::new(x, y).sgf().expect("52x52 points have names"))
        .collect();
    let (black, white): (Vec<_>, Vec<_>) = points.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let list = |stones: Vec<(usize, &String)>| -> String {
        stones.iter().map(|(_, p)| format!("[{p}]")).collect()
    };
    let text = format!("(;GM[1]SZ[52:52]AB{}AW{};B[aa];W[ZZ])", list(black), list(white));
    let records = read_all(text.as_bytes(), &ReadOptions::default());
    assert!(!has_limit(&records[0]), "52x52 is within every default limit");
}

#[test]
fn an_unterminated_value_at_the_end_of_a_large_collection() {
    let games = 3_000;
    let text = format!(
        "{}(;GM[1]PB[last]C[never closed {}",
        format!("{GAME}\n").repeat(games),
        "z".repeat(10_000)
    );
    let file = split(text.as_bytes(), &ReadOptions::default());
    assert_eq!(file.games.len(), games + 1);
    let records = read_all(text.as_bytes(), &ReadOptions::default());
    assert!(records[..games].iter().all(|r| r.findings.iter().all(|f| f.code != Code::Unclosed)));
    assert_eq!(records[games].findings[0].code, Code::Unclosed);
}

#[test]
fn a_single_game_of_a_hundred_thousand_moves() {
    let mut text = String::from("(;GM[1]SZ[19]");
    for i in 0..100_000u32 {
        let color = if i % 2 == 0 { 'B' } else { 'W' };
        let (x, y) = ((i % 19) as u8, (i / 19 % 19) as u8);
        text.push_str(&format!(";{color}[{}{}]", char::from(b'a' + x), char::from(b'a' + y)));
    }
    text.push(')');
    let records = read_all(text.as_bytes(), &ReadOptions::default());
    assert_eq!(records.len(), 1);
    assert!(!has_limit(&records[0]), "100,001 nodes deep is within the default limits");
}
