//! The board on diagrams: captures, suicide under each rule, snapback, simple ko, setup that
//! leaves stones without liberties, and SGF's forced moves on occupied points.

mod rules_support;

use kifu::rules::{Board, BoardSize, Color, Illegal, MoveEffect, Point, SuicideRule};
use rules_support::{assert_stones, at, board};

const B: Color = Color::Black;
const W: Color = Color::White;
const SUICIDE_RULES: [SuicideRule; 3] =
    [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed, SuicideRule::Allowed];

fn play(board: &mut Board, color: Color, name: &str) -> MoveEffect {
    let p = at(board.size().height, name);
    let want = board.hash_after(color, p).expect("an empty point");
    let effect = board
        .play(color, p, SuicideRule::Forbidden)
        .unwrap_or_else(|e| panic!("{color} {name}: {e}\n{board}"));
    assert_eq!(board.hash(), want, "hash_after({name}) disagrees with play");
    effect
}

fn refused(board: &Board, color: Color, name: &str, rule: SuicideRule) -> Illegal {
    let p = at(board.size().height, name);
    let mut copy = board.clone();
    let err = copy.play(color, p, rule).expect_err("the move should be illegal");
    assert!(
        copy.same_stones(board) && copy.hash() == board.hash(),
        "a refused move changed the board"
    );
    assert_eq!(board.check(color, p, rule), Err(err));
    err
}

#[test]
fn a_stone_without_liberties_is_captured() {
    let mut b = board(
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .
        ",
    );
    let effect = play(&mut b, B, "C2");
    assert_eq!(effect, MoveEffect { captured: 1, suicided: 0, replaced: None });
    assert_stones(
        &b,
        "
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .
        ",
    );
    assert_eq!((b.captures(B), b.prisoners(B), b.prisoners(W)), (1, 1, 0));
    assert_eq!((b.stone_count(B), b.stone_count(W)), (4, 0));
    assert_eq!(b.ko(), None, "the capturing stone has four liberties: no ko");
}

#[test]
fn one_move_captures_two_chains() {
    let mut b = board(
        "
        X O . O X
        . X . X .
        . . . . .
        ",
    );
    assert_eq!(play(&mut b, B, "C3").captured, 2);
    assert_stones(
        &b,
        "
        X . X . X
        . X . X .
        . . . . .
        ",
    );
}

#[test]
fn a_chain_is_captured_whole_and_its_neighbours_regain_liberties() {
    let mut b = board(
        "
        . O O O X O
        O X X X . O
        . O O O O .
        ",
    );
    assert_eq!(b.liberty_count(at(3, "B2")), 1);
    assert_eq!(b.liberty_count(at(3, "E3")), 1);
    let effect = play(&mut b, W, "E2");
    assert_eq!(effect.captured, 4, "the three-stone chain and the lone stone above E2");
    assert_stones(
        &b,
        "
        . O O O . O
        O . . . O O
        . O O O O .
        ",
    );
    assert_eq!(b.liberty_count(at(3, "B3")), 5, "A3, B2, C2, D2 and E3");
    assert_eq!(b.captures(W), 4);
}

#[test]
fn capturing_is_not_suicide() {
    let mut b = board(
        "
        . O X . .
        O X . . .
        X . . . .
        ",
    );
    for rule in SUICIDE_RULES {
        assert!(b.is_legal(B, at(3, "A3"), rule), "{rule:?}");
    }
    assert_eq!(play(&mut b, B, "A3").captured, 2);
    assert_stones(
        &b,
        "
        X . X . .
        . X . . .
        X . . . .
        ",
    );
}

#[test]
fn single_stone_suicide_is_legal_only_where_all_suicide_is() {
    let start = board(
        "
        . X . .
        X . . .
        . . . .
        ",
    );
    assert_eq!(refused(&start, W, "A3", SuicideRule::Forbidden), Illegal::Suicide);
    assert_eq!(refused(&start, W, "A3", SuicideRule::MultiStoneAllowed), Illegal::Suicide);
    let mut b = start.clone();
    let effect = b.play(W, at(3, "A3"), SuicideRule::Allowed).unwrap();
    assert_eq!(effect, MoveEffect { captured: 0, suicided: 1, replaced: None });
    assert!(b.same_stones(&start), "a lone suicide leaves the position as it was");
    assert_eq!(b.hash(), start.hash());
    assert_eq!((b.suicides(W), b.prisoners(B), b.captures(B)), (1, 1, 0));
    b.check_consistency().unwrap();
}

#[test]
fn multi_stone_suicide_depends_on_the_rule() {
    let start = board(
        "
        O X . .
        . X . .
        X . . .
        ",
    );
    assert_eq!(refused(&start, W, "A2", SuicideRule::Forbidden), Illegal::Suicide);
    for rule in [SuicideRule::MultiStoneAllowed, SuicideRule::Allowed] {
        let mut b = start.clone();
        let effect = b.play(W, at(3, "A2"), rule).unwrap();
        assert_eq!(effect.suicided, 2, "{rule:?}");
        assert_stones(
            &b,
            "
            . X . .
            . X . .
            X . . .
            ",
        );
        assert_eq!(b.prisoners(B), 2);
    }
}

#[test]
fn snapback_retakes_three_stones_and_is_no_ko() {
    let mut b = board(
        "
        . . . . .
        . . . . .
        X X . . .
        O O X . .
        . . X . .
        ",
    );
    // The throw-in: one liberty left for the black stone, two for White's chain.
    play(&mut b, B, "A1");
    assert_eq!(b.liberty_count(at(5, "A2")), 1);
    assert_eq!(play(&mut b, W, "B1").captured, 1);
    assert_eq!(b.ko(), None, "the capturing stone joined a chain: no ko");
    assert_eq!(b.liberty_count(at(5, "B1")), 1, "White's chain is now in atari on A1");
    assert_eq!(play(&mut b, B, "A1").captured, 3);
    assert_stones(
        &b,
        "
        . . . . .
        . . . . .
        X X . . .
        . . X . .
        X . X . .
        ",
    );
    assert_eq!((b.captures(B), b.captures(W)), (3, 1));
}

#[test]
fn simple_ko_forbids_the_immediate_recapture_only() {
    let mut b = board(
        "
        . . . . .
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        ",
    );
    assert_eq!(play(&mut b, B, "C3").captured, 1);
    assert_eq!(b.ko(), Some((at(5, "B3"), W)));
    for rule in SUICIDE_RULES {
        assert_eq!(refused(&b, W, "B3", rule), Illegal::Ko);
    }
    // The ko binds only the player whose stone was taken: Black may fill it.
    assert!(b.is_legal(B, at(5, "B3"), SuicideRule::Forbidden));
    play(&mut b, W, "E1");
    assert_eq!(b.ko(), None);
    play(&mut b, B, "A1");
    assert_eq!(
        play(&mut b, W, "B3").captured,
        1,
        "after an exchange elsewhere the ko may be taken"
    );
    assert_eq!(b.ko(), Some((at(5, "C3"), B)));
    b.pass();
    assert_eq!(b.ko(), None, "a pass lifts the ko");
}

#[test]
fn a_lone_capture_leaving_two_liberties_is_no_ko() {
    let mut b = board(
        "
        . X . . .
        X O . O .
        . X O . .
        ",
    );
    assert_eq!(play(&mut b, B, "C2").captured, 1);
    assert_eq!(b.liberty_count(at(3, "C2")), 2, "B2 and C3");
    assert_eq!(b.ko(), None);
}

#[test]
fn moves_off_the_board_or_on_stones_are_refused() {
    let b = board(
        "
        X .
        . .
        ",
    );
    assert_eq!(refused(&b, W, "A2", SuicideRule::Allowed), Illegal::Occupied);
    assert_eq!(b.check(W, Point::new(2, 0), SuicideRule::Allowed), Err(Illegal::OffBoard));
    assert_eq!(b.check(W, Point::new(0, 25), SuicideRule::Allowed), Err(Illegal::OffBoard));
    assert_eq!(b.hash_after(W, Point::new(0, 0)), None);
}

#[test]
fn setup_keeps_stones_without_liberties_as_sgf_asks() {
    let mut b = board(
        "
        . O . .
        O . . .
        . . . .
        ",
    );
    b.set_stone(at(3, "A3"), Some(B)).unwrap();
    assert_eq!(b.liberty_count(at(3, "A3")), 0, "no capture, no removal");
    assert_eq!(b.liberty_count(at(3, "B3")), 2);
    b.check_consistency().unwrap();
    // A move next to the breathless stone's neighbours still counts liberties right.
    play(&mut b, W, "C3");
    assert_stones(
        &b,
        "
        X O O .
        O . . .
        . . . .
        ",
    );
    // Clearing a stone splits its chain.
    b.set_stone(at(3, "A2"), None).unwrap();
    assert_eq!(b.liberty_count(at(3, "A3")), 1);
    b.set_stone(at(3, "A2"), Some(B)).unwrap();
    b.set_stone(at(3, "B3"), Some(B)).unwrap();
    assert_stones(
        &b,
        "
        X X O .
        X . . .
        . . . .
        ",
    );
    assert_eq!(b.chain_len(at(3, "A3")), 3);
}

#[test]
fn a_forced_move_overwrites_the_stone_and_then_captures() {
    // SGF FF[4]: the stone is placed "no matter what was there before", then captures, then
    // the mover's own chain if it has no liberties.
    let mut b = board(
        "
        . X O .
        X O . .
        . . . .
        ",
    );
    let effect = b.play_forced(B, at(3, "B2")).unwrap();
    assert_eq!(effect.replaced, Some(W));
    assert_eq!(effect.captured, 0);
    assert_stones(
        &b,
        "
        . X O .
        X X . .
        . . . .
        ",
    );
    assert_eq!((b.prisoners(B), b.prisoners(W)), (0, 0), "an overwritten stone is no prisoner");
    assert_eq!(b.play_forced(B, Point::new(9, 9)), Err(Illegal::OffBoard));
}

#[test]
fn boards_of_every_shape_have_walls_in_the_right_place() {
    for (w, h) in [(1, 1), (1, 5), (5, 1), (2, 2), (19, 19), (52, 52), (52, 1), (13, 7)] {
        let size = BoardSize::new(w, h).unwrap();
        let mut b = Board::new(size);
        assert_eq!(b.empty_points().count(), size.area());
        // Fill the board row by row with Black; the last stone is a suicide on a full board.
        for (i, p) in size.points().enumerate() {
            let last = i + 1 == size.area();
            let effect = b.play(B, p, SuicideRule::Allowed).unwrap();
            assert_eq!(effect.suicided as usize, if last { size.area() } else { 0 }, "{size}");
            if last || size.area() < 400 || i % 101 == 0 {
                b.check_consistency().unwrap();
            }
        }
        assert_eq!(b.stone_count(B), 0, "{size}: the board filled and took itself off");
        for p in size.points() {
            let inside = |dx: i32, dy: i32| {
                let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                x >= 0 && y >= 0 && x < w as i32 && y < h as i32
            };
            let expected =
                [(0, -1), (-1, 0), (1, 0), (0, 1)].iter().filter(|d| inside(d.0, d.1)).count();
            assert_eq!(b.neighbors(p).count(), expected, "{size} {p:?}");
        }
    }
}

#[test]
fn a_board_reset_to_another_shape_of_the_same_cell_count_moves_its_walls() {
    // A 6x4 and a 5x5 board both take 42 padded cells (strides 7 and 6). A worker's board is
    // reset from game to game: found by the scoring stress test, the 5x5 board after a 6x4
    // game kept the 6x4 walls, so its corner had a neighbour off the board.
    let mut board = Board::new(BoardSize::new(6, 4).expect("size"));
    play(&mut board, B, "A1");
    board.reset(BoardSize::new(5, 5).expect("size"));
    assert_eq!(board.check_consistency(), Ok(()));
    let corner: Vec<Point> = board.neighbors(Point::new(4, 0)).collect();
    assert_eq!(corner, [Point::new(3, 0), Point::new(4, 1)]);
    play(&mut board, B, "E5");
    assert_eq!(board.liberty_count(Point::new(4, 0)), 2);
    assert_eq!(board.empty_points().count(), 24);
}
