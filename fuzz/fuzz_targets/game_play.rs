//! `game_play`: arbitrary games, decoded from the fuzz bytes, under every ko and suicide rule.
//!
//! Input: bytes 0 and 1 give the width and height (1 + b % 25); byte 2 the ko rule (`% 3`:
//! simple, positional, situational superko), the suicide rule (`/ 3 % 3`) and the mode
//! (`/ 9 % 2`); then every three bytes are one action `(op, x, y)`: `op % 16 == 15` is a pass,
//! otherwise a move at `(x, y)` (just off the board or far off it too); bit 4 makes the player not
//! to move play (out of turn); in the free mode bit 5 plays tolerantly; bits 6 and 7 together set up
//! a stone instead (none, black, white by `op % 16 % 3`; in the strict mode only before the first
//! move); in the free mode `op == 0xEE` resigns.
//!
//! After every action:
//! - `is_legal` equals `check(..).is_ok()`, and `play` accepts exactly what `check` accepts,
//!   refusing with the same reason and leaving the board, the player to move and the move count
//!   as they were; `play_tolerant` reports exactly `check`'s reason;
//! - the board's incremental chains, liberties, counts and hash equal their recomputation
//!   (every 4 actions and at the end);
//! - in the strict mode (strict play only, any setup before the first move) under a superko
//!   rule, the verdict equals a naive history that keeps every earlier situation stone by stone:
//!   a move is a superko exactly when the position it makes (with the player to move, under
//!   situational superko) occurred before.

#![no_main]

use std::collections::HashSet;

use kifu::rules::{
    BoardSize, Color, Game, Illegal, KoRule, Move, Point, Ruleset, SuicideRule, preset,
};
use libfuzzer_sys::fuzz_target;

const KO: [KoRule; 3] = [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko];
const SUICIDE: [SuicideRule; 3] =
    [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed, SuicideRule::Allowed];

fn coordinate(b: u8, extent: u8) -> u8 {
    if b >= 250 { b } else { b % (extent + 2) }
}

/// Every earlier situation, compared stone by stone (through a set of stone vectors).
struct NaiveHistory {
    positional: bool,
    seen: HashSet<(Vec<u8>, u8)>,
}

impl NaiveHistory {
    fn key(&self, game_board: &kifu::rules::Board, to_move: Color) -> (Vec<u8>, u8) {
        let stones = game_board
            .size()
            .points()
            .map(|p| match game_board.get(p) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            })
            .collect();
        let turn = if self.positional { 0 } else { 1 + to_move.index() as u8 };
        (stones, turn)
    }

    fn verdict(&self, game: &Game, color: Color, mv: Move) -> Result<(), Illegal> {
        let Move::Play(p) = mv else { return Ok(()) };
        game.board().check(color, p, game.ruleset().suicide)?;
        let mut after = game.board().clone();
        if after.play_forced(color, p).is_err() {
            panic!("check accepted {p:?} but it cannot be played");
        }
        if self.seen.contains(&self.key(&after, color.opponent())) {
            return Err(Illegal::Superko);
        }
        Ok(())
    }

    fn push(&mut self, game: &Game) {
        let key = self.key(game.board(), game.to_move());
        self.seen.insert(key);
    }
}

fuzz_target!(|data: &[u8]| {
    let [w, h, rules, actions @ ..] = data else { return };
    let Some(size) = BoardSize::new(1 + w % 25, 1 + h % 25) else {
        panic!("every size from 1x1 to 25x25 exists");
    };
    let Some(chinese) = preset("chinese") else { panic!("the chinese preset exists") };
    let ko = KO[usize::from(rules % 3)];
    let suicide = SUICIDE[usize::from(rules / 3 % 3)];
    let strict_mode = rules / 9 % 2 == 0;
    let ruleset = Ruleset { ko, suicide, ..chinese.ruleset };
    let mut game = Game::new(size, ruleset);
    let mut naive = (strict_mode && ko != KoRule::Simple).then(|| NaiveHistory {
        positional: ko == KoRule::PositionalSuperko,
        seen: HashSet::new(),
    });
    if let Some(n) = &mut naive {
        n.push(&game);
    }
    for (step, action) in actions.chunks_exact(3).enumerate() {
        let (op, x, y) = (action[0], action[1], action[2]);
        let p = Point::new(coordinate(x, size.width), coordinate(y, size.height));
        let color = if op & 0x10 == 0 { game.to_move() } else { game.to_move().opponent() };
        let setup = op & 0xC0 == 0xC0 && (!strict_mode || game.moves_played() == 0);
        if setup {
            let stone = [None, Some(Color::Black), Some(Color::White)][usize::from(op & 0x0F) % 3];
            let _problems = game.setup([(p, stone)]);
            if let Some(n) = &mut naive {
                // Before the first move the set-up position is the start of the game.
                n.seen.clear();
                n.push(&game);
            }
        } else if op == 0xEE && !strict_mode {
            game.resign(color);
        } else {
            let mv = if op % 16 == 15 { Move::Pass } else { Move::Play(p) };
            play_one(&mut game, color, mv, op & 0x20 != 0 && !strict_mode, naive.as_mut(), step);
        }
        if step % 4 == 3 {
            if let Err(e) = game.board().check_consistency() {
                panic!("step {step}: {e}\n{}", game.board());
            }
        }
    }
    if let Err(e) = game.board().check_consistency() {
        panic!("at the end: {e}\n{}", game.board());
    }
});

fn play_one(
    game: &mut Game,
    color: Color,
    mv: Move,
    tolerant: bool,
    naive: Option<&mut NaiveHistory>,
    step: usize,
) {
    let checked = game.check(color, mv);
    assert_eq!(game.is_legal(color, mv), checked.is_ok());
    if let Some(n) = &naive {
        let expected = n.verdict(game, color, mv);
        assert_eq!(checked, expected, "step {step}: {color} {mv:?}\n{}", game.board());
    }
    if tolerant {
        let played = game.play_tolerant(color, mv);
        assert_eq!(played.illegal, checked.err(), "step {step}: {color} {mv:?}");
        return;
    }
    let before = game.board().clone();
    let (to_move, moves) = (game.to_move(), game.moves_played());
    match game.play(color, mv) {
        Ok(played) => {
            assert!(checked.is_ok(), "play accepted {color} {mv:?} that check refused");
            assert_eq!(played.illegal, None);
            assert_eq!(game.moves_played(), moves + 1);
            if let Some(n) = naive {
                n.push(game);
            }
        }
        Err(e) => {
            assert_eq!(checked, Err(e), "step {step}: {color} {mv:?}");
            assert!(game.board().same_stones(&before), "a refused move changed the board");
            assert_eq!(game.board().hash(), before.hash());
            assert_eq!((game.to_move(), game.moves_played()), (to_move, moves));
        }
    }
}
