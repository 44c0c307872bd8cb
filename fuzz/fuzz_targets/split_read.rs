//! `split_read`: arbitrary bytes as a file, through the splitter and the reader, as the pipeline
//! drives them: `split_file`, then `PendingGame::read` on every game.
//!
//! Input: byte 0 picks the options (bit 0: tight limits taken from bits 1-6, so that every
//! limit is met; bit 7: `--encoding gbk`); the rest is the file.
//!
//! Asserts, besides never panicking:
//! - every game tree is accounted for: the trees the pending games stand for
//!   (`PendingGame::trees`) add up to the trees an independent, unlimited split of the same text
//!   finds; a file without a tree yields exactly one stand-in; no more games than the `games`
//!   limit plus the one that counts the rest;
//! - the games kept are exactly the first trees of the independent split, with their bytes;
//! - games are numbered 1, 2, ... in file order, offsets strictly increase, and each line is one
//!   more than the line breaks before the offset;
//! - each record carries its game's location; a failed record says why; a game whose decoded
//!   text passes a limit on nodes, depth or value length is failed with a `limit` finding;
//! - `split_small` (the split of a small file done where its game is read) gives the same
//!   file findings, games and records as `split_file`.

#![no_main]

use std::sync::Arc;

use kifu::finding::Code;
use kifu::record::limits::game_shape;
use kifu::record::{
    Limits, ReadOptions, ReadStatus, Source, charset, split, split_file, split_small,
};
use libfuzzer_sys::fuzz_target;

fn options(choice: u8) -> ReadOptions {
    let limits = if choice & 1 == 0 {
        Limits::default()
    } else {
        let small = |bits: u8| 1 + u64::from(bits & 3) * 3;
        Limits {
            max_games_per_file: small(choice >> 1),
            max_game_nodes: 2 + small(choice >> 3) * 4,
            max_tree_depth: 1 + small(choice >> 5),
            max_value_length: 4 + small(choice >> 2) * 8,
            ..Limits::default()
        }
    };
    let encoding = (choice & 0x80 != 0).then(|| "gbk".to_owned());
    ReadOptions { encoding, limits, ..ReadOptions::default() }
}

fuzz_target!(|data: &[u8]| {
    let [choice, file @ ..] = data else { return };
    let options = options(*choice);
    let limits = options.limits;
    let bytes: Arc<[u8]> = Arc::from(file);
    let split_file = split_file("fuzz.sgf", Arc::clone(&bytes), &options);
    let games = &split_file.games;
    let small = split_small(&Source::read("fuzz.sgf".into(), Ok(Arc::clone(&bytes))), &options);
    assert_eq!(small.findings, split_file.findings, "split_small's file findings");
    assert_eq!(small.games.len(), games.len(), "split_small's games");

    // An independent count: the splitter alone, without a limit, over the same prepared text.
    let prepared = charset::prepare(bytes, &options);
    let text = &prepared.bytes[..];
    let all = split::split(text, prepared.start, prepared.charset.layout).trees;
    let accounted: u64 = games.iter().map(|g| g.trees()).sum();
    assert_eq!(accounted, all.len() as u64, "trees accounted for");
    assert!(!games.is_empty(), "a file always yields a game");
    if all.is_empty() {
        assert!(games.len() == 1 && !games[0].has_tree());
    }
    assert!(games.len() as u64 <= limits.max_games_per_file + 1);

    let mut last_offset = None;
    for (i, game) in games.iter().enumerate() {
        let location = &game.location;
        assert_eq!(location.game as usize, i + 1, "numbering");
        assert!(last_offset.is_none_or(|last| location.offset > last), "offsets increase");
        last_offset = Some(location.offset);
        let offset = usize::try_from(location.offset).unwrap_or(usize::MAX);
        assert!(offset <= text.len());
        let newlines = text[..offset].iter().filter(|&&b| b == b'\n').count();
        assert_eq!(location.line as usize, newlines + 1, "line of game {}", i + 1);
        // The games within the limit are trees; one more stands for all the trees beyond it
        // (even a single one) and holds no bytes.
        let beyond_the_limit = i as u64 >= limits.max_games_per_file;
        if game.trees() == 1 && !beyond_the_limit {
            let tree = &all[i];
            assert_eq!(offset, tree.start, "game {} is the independent split's tree", i + 1);
            assert_eq!(game.bytes(), &text[tree.start..tree.end]);
        }

        let record = game.read(&options);
        assert_eq!(&record.location, location);
        let same = &small.games[i];
        assert_eq!(
            (&same.location, same.bytes(), same.trees()),
            (location, game.bytes(), game.trees())
        );
        // Debug text, so that a komi read as NaN equals itself.
        let (theirs, mine) = (format!("{:?}", same.read(&options)), format!("{record:?}"));
        assert_eq!(theirs, mine, "split_small's record of game {}", i + 1);
        if record.status == ReadStatus::Failed {
            assert!(!record.findings.is_empty(), "game {} failed without a reason", i + 1);
        }
        assert!(record.findings.iter().all(|f| !f.message.is_empty()));
        let refused = record.findings.iter().any(|f| f.code == Code::Limit);
        if game.has_tree() && game.trees() == 1 && !beyond_the_limit {
            let decoded = game.decode(&options);
            if !decoded.text.is_empty() && game_shape(decoded.text.as_bytes(), &limits).is_err() {
                assert!(refused && record.status == ReadStatus::Failed, "over a limit, yet read");
            }
        }
        if beyond_the_limit {
            assert!(refused && game.trees() >= 1, "the games beyond the limit are reported");
        }
    }
});
