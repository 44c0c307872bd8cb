//! `fast_reader_vs_sgf_parse`: arbitrary text read by kifu's streaming reader
//! (`record::fast`) and by the sgf-parse reader (`record::sgf`), which must agree.
//!
//! Input: byte 0 picks the limits (bit 0 clear: none; set: tight limits on nodes, depth and
//! value length from bits 1-6, so that every limit is met); the rest is the game's text
//! (invalid UTF-8 replaced, as a decoded game would have it).
//!
//! Asserts, besides never panicking:
//! - when the fast reader reads a game, sgf-parse reads it strictly and the two records are
//!   equal in everything but the read status (`fast` against `strict`; `failed` for both when
//!   the game is not Go), findings included;
//! - the fast reader never reads a game that passes a limit (`limits::game_shape` refuses it),
//!   and when it declines over a limit, `game_shape` refuses the game too: the pipeline checks
//!   the limits only on the games the fast reader declines;
//! - a declined game gives its location back unchanged, and `fast::read_game` (the fallback
//!   wrapper, which applies no limit) then returns sgf-parse's record: exactly, or read `fast`
//!   instead of `strict` when the decline was for one of the tight limits.

#![no_main]

use kifu::record::fast::{Decline, read_game, read_game_fast};
use kifu::record::limits::game_shape;
use kifu::record::{CharsetOrigin, GameLocation, Limits, ReadOptions, ReadStatus, TextEncoding};
use libfuzzer_sys::fuzz_target;

fn limits(choice: u8) -> Limits {
    if choice & 1 == 0 {
        return Limits::NONE;
    }
    let small = |bits: u8| 1 + u64::from(bits & 3) * 3;
    Limits {
        max_game_nodes: 2 + small(choice >> 1) * 4,
        max_tree_depth: 1 + small(choice >> 3),
        max_value_length: small(choice >> 5) * 2,
        ..Limits::NONE
    }
}

fuzz_target!(|data: &[u8]| {
    let [choice, text @ ..] = data else { return };
    let limits = limits(*choice);
    let text = String::from_utf8_lossy(text);
    let location = GameLocation { source: "fuzz.sgf".into(), game: 1, offset: 0, line: 1 };
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    let options = ReadOptions::default();
    let reference = kifu::record::sgf::read_game(&text, location.clone(), encoding, &options);
    match read_game_fast(&text, location.clone(), encoding, &limits) {
        Ok(mut fast) => {
            assert!(
                game_shape(text.as_bytes(), &limits).is_ok(),
                "the fast reader read a game over a limit"
            );
            match (fast.status, reference.status) {
                (ReadStatus::Fast, ReadStatus::Strict) | (ReadStatus::Failed, ReadStatus::Failed) => {}
                (mine, theirs) => panic!("read {mine:?} by the fast reader, {theirs:?} by sgf-parse"),
            }
            fast.status = reference.status;
            // Debug text, so that a komi read as NaN equals itself.
            assert_eq!(format!("{fast:#?}"), format!("{reference:#?}"), "the records differ");
        }
        Err(declined) => {
            assert_eq!(declined.location, location);
            if declined.reason == Decline::Limit {
                assert!(
                    game_shape(text.as_bytes(), &limits).is_err(),
                    "declined over a limit game_shape does not see"
                );
            }
            let mut through = read_game(&text, location, encoding, &options);
            // The wrapper reads without limits (the pipeline checks them before), so a game
            // declined here for a tight limit is read by the fast reader there.
            if declined.reason == Decline::Limit && through.status == ReadStatus::Fast {
                assert_eq!(reference.status, ReadStatus::Strict, "read fast, not strictly");
                through.status = reference.status;
            }
            assert_eq!(format!("{through:?}"), format!("{reference:?}"));
        }
    }
});
