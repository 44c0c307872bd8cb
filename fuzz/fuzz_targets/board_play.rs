//! `board_play`: arbitrary sequences of board operations, decoded from the fuzz bytes, on any
//! board size from 1x1 to 52x52.
//!
//! Input: byte 0 and 1 give the width and height (1 + b % 52); then every three bytes are one
//! operation `(op, x, y)`: `op % 8` is 0-4 a checked move, 5 a forced move (an SGF move executed
//! whatever the rules say), 6 a setup change, 7 a pass; bit 3 picks the colour; `op >> 4` picks
//! the suicide rule or the setup stone. Coordinates just off the board and far off it occur.
//!
//! After every operation:
//! - `is_legal` and `check` agree with what `play` does, and a refused move leaves the stones,
//!   the hash and the ko point as they were;
//! - the hash predicted by `hash_after` is the hash after the move;
//! and every 4 operations (and at the end):
//! - `check_consistency()` holds: chains, liberties, stone counts and the Zobrist hash kept
//!   incrementally equal those recomputed from the colours alone;
//! and every 32 operations (and at the end) the board read back from its own diagram, which
//! rebuilds everything from scratch, has the same stones, hash, chains and liberties.

#![no_main]

use kifu::rules::{Board, BoardSize, Color, Point, SuicideRule};
use libfuzzer_sys::fuzz_target;

const RULES: [SuicideRule; 3] =
    [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed, SuicideRule::Allowed];

/// A coordinate: mostly on the board, sometimes one or two off it, rarely far off.
fn coordinate(b: u8, extent: u8) -> u8 {
    if b >= 250 { b } else { b % (extent + 2) }
}

fuzz_target!(|data: &[u8]| {
    let [w, h, ops @ ..] = data else { return };
    let Some(size) = BoardSize::new(1 + w % 52, 1 + h % 52) else {
        panic!("every size from 1x1 to 52x52 exists");
    };
    let mut board = Board::new(size);
    for (step, op) in ops.chunks_exact(3).enumerate() {
        let (kind, x, y) = (op[0], op[1], op[2]);
        let color = if kind & 8 == 0 { Color::Black } else { Color::White };
        let p = Point::new(coordinate(x, size.width), coordinate(y, size.height));
        let choice = usize::from(kind >> 4) % 3;
        let before = board.clone();
        let predicted = board.hash_after(color, p);
        match kind % 8 {
            0..=4 => {
                let rule = RULES[choice];
                let legal = board.is_legal(color, p, rule);
                let checked = board.check(color, p, rule);
                assert_eq!(legal, checked.is_ok());
                match board.play(color, p, rule) {
                    Ok(_) => {
                        assert!(legal, "play accepted {color} {p:?} that check refused\n{before}");
                        assert_eq!(Some(board.hash()), predicted, "{color} {p:?}\n{before}");
                    }
                    Err(e) => {
                        assert_eq!(checked, Err(e), "{color} {p:?}\n{before}");
                        assert!(board.same_stones(&before), "a refused move changed the board");
                        assert_eq!(board.hash(), before.hash());
                        assert_eq!(board.ko(), before.ko(), "a refused move touched the ko");
                    }
                }
            }
            5 => {
                let effect = board.play_forced(color, p);
                assert_eq!(effect.is_ok(), size.contains(p));
                if let Some(h) = predicted {
                    assert_eq!(board.hash(), h, "forced {color} {p:?}\n{before}");
                }
            }
            6 => {
                let stone = [None, Some(Color::Black), Some(Color::White)][choice];
                let was = board.set_stone(p, stone);
                assert_eq!(was.is_ok(), size.contains(p));
                if let Ok(was) = was {
                    assert_eq!(was, before.get(p));
                    assert_eq!(board.get(p), stone);
                }
            }
            _ => {
                board.pass();
                assert_eq!(board.ko(), None, "a pass clears the ko");
                assert!(board.same_stones(&before));
            }
        }
        // The checks from scratch cost a pass over the board each: every few steps keeps the
        // fuzzer fast, and a broken incremental structure stays broken until it is seen.
        if step % 4 == 3 {
            if let Err(e) = board.check_consistency() {
                panic!("step {step}: {e}\nbefore\n{before}after\n{board}");
            }
        }
        if step % 32 == 31 {
            from_scratch(&board);
        }
    }
    if let Err(e) = board.check_consistency() {
        panic!("at the end: {e}\n{board}");
    }
    from_scratch(&board);
});

/// The board rebuilt from its diagram (colours only) equals the incremental one.
fn from_scratch(board: &Board) {
    let diagram = board.to_string();
    let again = match Board::from_diagram(&diagram) {
        Ok(b) => b,
        Err(e) => panic!("a board's own diagram does not read back: {e}\n{diagram}"),
    };
    assert!(again.same_stones(board), "diagram round trip lost stones\n{diagram}");
    assert_eq!(again.hash(), board.hash(), "hash from scratch differs\n{diagram}");
    for q in board.size().points() {
        assert_eq!(again.liberty_count(q), board.liberty_count(q), "{q:?}\n{diagram}");
        assert_eq!(again.chain_len(q), board.chain_len(q), "{q:?}\n{diagram}");
    }
}
