//! The game on diagrams: superko (positional against situational), triple ko as a cycle under
//! simple ko, turn order, the end of the game, setup problems, and tolerant replay.

mod rules_support;

use kifu::rules::{
    Color, Cycle, Game, GameEnd, Illegal, KoRule, Move, Ruleset, SetupProblem, SuicideRule, preset,
};
use rules_support::{assert_stones, at, board};

const B: Color = Color::Black;
const W: Color = Color::White;

fn rules(name: &str) -> Ruleset {
    preset(name).unwrap().ruleset
}

fn with_ko(ko: KoRule) -> Ruleset {
    Ruleset { ko, ..rules("chinese") }
}

fn mv(game: &Game, name: &str) -> Move {
    Move::Play(at(game.board().size().height, name))
}

/// Plays a legal move, checking that `is_legal` agreed beforehand.
#[track_caller]
fn play(game: &mut Game, color: Color, name: &str) -> kifu::rules::Played {
    let m = mv(game, name);
    assert!(game.is_legal(color, m), "{color} {name} should be legal\n{}", game.board());
    game.play(color, m).unwrap()
}

/// Asserts that a move is refused for `why`, that `is_legal` agrees, and that nothing changed.
#[track_caller]
fn refused(game: &mut Game, color: Color, name: &str, why: Illegal) {
    let m = mv(game, name);
    let (before, to_move, moves) = (game.board().clone(), game.to_move(), game.moves_played());
    assert!(!game.is_legal(color, m));
    assert_eq!(game.check(color, m), Err(why));
    assert_eq!(game.play(color, m), Err(why), "{color} {name}");
    assert!(game.board().same_stones(&before) && game.board().hash() == before.hash());
    assert_eq!((game.to_move(), game.moves_played()), (to_move, moves), "a refused move counted");
}

/// Send two, return one: White throws in two stones, Black takes them, White takes one back
/// and the whole board is as it was, with Black to move where White was. Positional superko
/// forbids the last move; situational superko allows it (the player to move differs).
const SEND_TWO_RETURN_ONE: &str = "
    . . . . .
    O X X . .
    . O . X .
    O X X . .
    . . . . .
";

#[test]
fn positional_and_situational_superko_disagree_on_send_two_return_one() {
    for (ko, last) in [
        (KoRule::PositionalSuperko, Err(Illegal::Superko)),
        (KoRule::SituationalSuperko, Ok(())),
        (KoRule::Simple, Ok(())),
    ] {
        let mut game = Game::from_board(&board(SEND_TWO_RETURN_ONE), W, with_ko(ko));
        play(&mut game, W, "C3");
        assert_eq!(play(&mut game, B, "A3").effect.captured, 2);
        let m = mv(&game, "B3");
        assert_eq!(game.check(W, m), last, "{ko:?}");
        if last.is_ok() {
            assert_eq!(play(&mut game, W, "B3").effect.captured, 1);
            assert_stones(game.board(), SEND_TWO_RETURN_ONE);
            assert_eq!(game.board().ko(), None, "the retaking stone has two liberties: no ko");
        } else {
            refused(&mut game, W, "B3", Illegal::Superko);
        }
    }
}

/// Three kos on one board. Taking them in turn, each player always has a ko to take, and after
/// six moves the board is back where it started with the same player to move.
const TRIPLE_KO: &str = "
    . X O . . . X O .
    X O . O . X . X O
    . X O . . . X O .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .
";
const TRIPLE_KO_ROUND: [(Color, &str); 6] =
    [(B, "C8"), (W, "G8"), (B, "C4"), (W, "B8"), (B, "H8"), (W, "B4")];

#[test]
fn triple_ko_is_a_cycle_under_simple_ko() {
    let mut game = Game::from_board(&board(TRIPLE_KO), B, rules("japanese"));
    for round in 0..3 {
        for (color, name) in TRIPLE_KO_ROUND {
            let played = play(&mut game, color, name);
            assert_eq!(played.effect.captured, 1, "round {round}: {color} {name}");
            // Every move from the end of the first round recreates the one six moves back.
            let number = game.moves_played();
            let expected = (number >= 6).then(|| number - 6);
            assert_eq!(played.recreates, expected, "move {number}");
            assert_eq!(game.cycle().is_some(), number >= 6, "move {number}");
        }
        assert_stones(game.board(), TRIPLE_KO);
    }
    let cycle = Cycle { start: 6, recreates: 0, last: 18, occurrences: 4 };
    assert_eq!(game.cycle(), Some(cycle));
    assert_eq!(cycle.period(), 6);
    // A move that makes a new position ends the cycle.
    play(&mut game, B, "E5");
    assert_eq!(game.cycle(), None);
}

#[test]
fn a_pass_starts_the_count_afresh_under_simple_ko() {
    let mut game = Game::from_board(&board(TRIPLE_KO), B, rules("japanese"));
    for (i, (color, name)) in TRIPLE_KO_ROUND.iter().cycle().take(18).enumerate() {
        if i == 9 {
            // Both pass; the players then go on (the next move is after the end).
            game.play(*color, Move::Pass).unwrap();
            assert_eq!(game.cycle(), None, "a pass breaks the cycle");
            game.play(color.opponent(), Move::Pass).unwrap();
            assert_eq!(game.end(), Some(GameEnd::TwoPasses { at_move: 11 }));
        }
        play(&mut game, *color, name);
    }
    // Counted from the passes (move 11), the first repetition is six moves later.
    assert_eq!(game.cycle(), Some(Cycle { start: 17, recreates: 11, last: 20, occurrences: 2 }));
}

#[test]
fn triple_ko_is_superko_under_both_superko_rules() {
    for ko in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        let mut game = Game::from_board(&board(TRIPLE_KO), B, with_ko(ko));
        for (color, name) in &TRIPLE_KO_ROUND[..5] {
            play(&mut game, *color, name);
        }
        refused(&mut game, W, "B4", Illegal::Superko);
        // Replayed from a record, the move is reported and executed anyway.
        let played = game.play_tolerant(W, mv(&game, "B4"));
        assert_eq!(played.illegal, Some(Illegal::Superko), "{ko:?}");
        assert_eq!(played.recreates, Some(0), "the start position");
        assert_stones(game.board(), TRIPLE_KO);
        assert_eq!(game.cycle(), None, "superko rules have no cycles to report");
    }
}

#[test]
fn a_ko_retake_is_ko_under_every_ko_rule() {
    let diagram = "
        . X O . .
        X O . O .
        . X O . .
    ";
    for ko in [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        let mut game = Game::from_board(&board(diagram), B, with_ko(ko));
        play(&mut game, B, "C2");
        refused(&mut game, W, "B2", Illegal::Ko);
    }
}

#[test]
fn single_stone_suicide_where_suicide_is_legal() {
    let diagram = "
        . X . .
        X . . .
        . . . .
    ";
    // Tromp-Taylor: legal as suicide, but the position does not change, which positional
    // superko forbids.
    let mut game = Game::from_board(&board(diagram), W, rules("tromp-taylor"));
    refused(&mut game, W, "A3", Illegal::Superko);
    // New Zealand: situational superko. The same stones with Black to move are new.
    let mut game = Game::from_board(&board(diagram), W, rules("nz"));
    let played = play(&mut game, W, "A3");
    assert_eq!(played.effect.suicided, 1);
    assert_stones(game.board(), diagram);
    // Now Black passes and White repeats the suicide: (same stones, Black to move) again.
    game.play(B, Move::Pass).unwrap();
    refused(&mut game, W, "A3", Illegal::Superko);
    // Japanese rules: suicide.
    let mut game = Game::from_board(&board(diagram), W, rules("japanese"));
    refused(&mut game, W, "A3", Illegal::Suicide);
    assert_eq!(rules("japanese").suicide, SuicideRule::Forbidden);
}

#[test]
fn turns_and_the_end_of_the_game() {
    let mut game = Game::new(kifu::rules::BoardSize::square(9).unwrap(), rules("chinese"));
    assert!(!play(&mut game, B, "E5").out_of_turn);
    assert!(play(&mut game, B, "C3").out_of_turn, "Black twice");
    assert_eq!(game.to_move(), W, "the turn follows the record");
    assert!(!game.play(W, Move::Pass).unwrap().ended_game);
    let second = game.play(B, Move::Pass).unwrap();
    assert!(second.ended_game);
    assert_eq!(game.end(), Some(GameEnd::TwoPasses { at_move: 4 }));
    let after = play(&mut game, W, "G7");
    assert_eq!(after.after_end, Some(GameEnd::TwoPasses { at_move: 4 }));
    assert_eq!(game.end(), None, "a move after the end reopens the game");
    assert_eq!(game.consecutive_passes(), 0);
    game.resign(B);
    let after = play(&mut game, B, "D4");
    assert_eq!(after.after_end, Some(GameEnd::Resignation { loser: B, at_move: 5 }));
    assert_eq!(game.moves_played(), 6);
}

#[test]
fn setup_problems_are_reported_and_the_setup_applied() {
    let mut game = Game::new(kifu::rules::BoardSize::square(5).unwrap(), rules("chinese"));
    let p = |name| at(5, name);
    let problems = game.setup([
        (p("A5"), Some(W)),
        (p("B4"), Some(B)),
        (p("B5"), Some(B)),
        (p("A4"), Some(B)),
        (p("C5"), Some(B)),
        (p("B5"), Some(W)),
        (kifu::rules::Point::new(7, 1), Some(B)),
    ]);
    assert_eq!(
        problems,
        [
            SetupProblem::Occupied { point: p("B5"), was: B, now: W },
            SetupProblem::OffBoard { point: kifu::rules::Point::new(7, 1) },
            // A5 and B5 are White with no liberty left: SGF keeps them.
            SetupProblem::NoLiberties { point: p("A5"), color: W, stones: 2 },
        ]
    );
    assert_stones(
        game.board(),
        "
        O O X . .
        X X . . .
        . . . . .
        . . . . .
        . . . . .
        ",
    );
    assert!(game.setup([(p("E1"), Some(B))]).is_empty());
}

#[test]
fn tolerant_replay_executes_what_strict_play_refuses() {
    let diagram = "
        . X O . . O .
        X O . O O . O
        . X O . . O .
    ";
    let mut game = Game::from_board(&board(diagram), B, rules("japanese"));
    play(&mut game, B, "C2");
    // The ko retake: reported, then executed as SGF does.
    let played = game.play_tolerant(W, mv(&game, "B2"));
    assert_eq!(played.illegal, Some(Illegal::Ko));
    assert_eq!(played.effect.captured, 1);
    // A move on a stone cannot be executed: nothing changes but the turn.
    let before = game.board().clone();
    let played = game.play_tolerant(B, mv(&game, "C3"));
    assert_eq!(played.illegal, Some(Illegal::Occupied));
    assert_eq!(played.effect, kifu::rules::MoveEffect::default());
    assert!(game.board().same_stones(&before));
    game.play(W, Move::Pass).unwrap();
    // A suicide: the stone goes on and comes off again.
    let before = game.board().clone();
    let played = game.play_tolerant(B, mv(&game, "F2"));
    assert_eq!(played.illegal, Some(Illegal::Suicide));
    assert_eq!(played.effect.suicided, 1);
    assert!(game.board().same_stones(&before));
    // Off the board: nothing happens but the turn.
    let played = game.play_tolerant(W, Move::Play(kifu::rules::Point::new(9, 0)));
    assert_eq!(played.illegal, Some(Illegal::OffBoard));
    assert!(game.board().same_stones(&before));
    assert_eq!((game.to_move(), game.moves_played()), (B, 6));
    // Black took one stone; White took one and holds the suicided one.
    assert_eq!((game.board().prisoners(B), game.board().prisoners(W)), (1, 2));
    game.board().check_consistency().unwrap();
}
