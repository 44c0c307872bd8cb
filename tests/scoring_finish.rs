//! Finishing a record that stops before the end (`analysis::finish`), on small diagrams: the
//! neutral points get filled, a dame that puts a chain in atari or leaves it capturable is
//! filled first and answered with a protective move (before a one-point boundary move, while a
//! dame that only spares an answer waits for the boundary moves), a stone in atari only by
//! dead stones is left alone, as is a chain only dead stones press or whose capture would be a
//! snapback, the stone of a ko is connected by its owner after the boundary moves, a settled
//! position needs nothing, a dame that would kill a chain the statuses call alive is left to
//! its owner, and a dame that would leave the opponent a double atari is not filled, unless one
//! answer meets both threats.

mod util;

use kifu::analysis::dead_stones::Statuses;
use kifu::analysis::finish::{Style, Why, finish, finish_with};
use kifu::analysis::replay::Replay;
use kifu::analysis::scoring::Ending;
use kifu::analysis::{DeadStoneMode, replay, scoring};
use kifu::rules::score::Count;
use kifu::rules::{Board, Color, Outcome, Point, WinBy};

fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram).expect("diagram")
}

/// The finishing moves as `(colour, x, y, why)`.
fn moves(board: &Board, dead: &[bool], to_move: Color) -> Vec<(Color, u8, u8, Why)> {
    finish(board, dead, to_move).moves.into_iter().map(|(c, p, why)| (c, p.x, p.y, why)).collect()
}

fn no_dead(board: &Board) -> Vec<bool> {
    vec![false; board.size().area()]
}

/// A game of the shared corpus as `kifu audit` scores it: replayed, its dead stones
/// estimated, its ending drawn (finished or as left) and counted under the record's own rules
/// and komi. `None` (with a message) where the shared corpus is absent.
struct CorpusEnding {
    replay: Replay,
    statuses: Statuses,
    ending: Ending,
    count: Count,
}

fn corpus_ending(game: &str) -> Option<CorpusEnding> {
    let corpus = util::shared_corpus_or_skip()?;
    let record = util::first_record(&corpus.join(game));
    let replay = replay::replay(&record, &record.rules.ruleset);
    let (statuses, _) = scoring::statuses(&record, &replay, DeadStoneMode::Auto);
    let ending = scoring::ending(&record, &replay, &statuses);
    let count = scoring::count_ending(
        &ending,
        &record.rules.ruleset,
        record.komi.points,
        record.handicap,
        replay.passes,
    );
    Some(CorpusEnding { replay, statuses, ending, count })
}

#[test]
fn a_settled_position_needs_no_move() {
    // Every border is closed: no dame, no weakness.
    let b = board(
        "
        . . O X . .
        . . O X . .
        O O O X . .
        X X X X . .
        . . . . . .",
    );
    assert!(moves(&b, &no_dead(&b), Color::Black).is_empty());
    assert!(moves(&b, &no_dead(&b), Color::White).is_empty());
}

#[test]
fn a_dame_that_ataris_is_filled_first_and_answered_inside_the_territory() {
    // (3, 1) is a neutral point between the walls. If Black fills it, the white stone on
    // (3, 0) is in atari and White must connect at (2, 0), inside its own territory: the
    // protective move Japanese counting charges a point for.
    let b = board(
        "
        . . . O X . .
        . . O . X . .
        O O O X X . .
        X X X X . . .
        . . . . . . .",
    );
    let played = moves(&b, &no_dead(&b), Color::Black);
    assert_eq!(played[0], (Color::Black, 3, 1, Why::Dame));
    assert_eq!(played[1], (Color::White, 2, 0, Why::Rescue));
    // White to move fills the point itself and owes nothing.
    let played = moves(&b, &no_dead(&b), Color::White);
    assert_eq!(played[0], (Color::White, 3, 1, Why::Dame));
    assert!(played.iter().all(|m| m.3 == Why::Dame));
}

#[test]
fn a_dame_that_leaves_a_chain_capturable_forces_a_protective_move_inside_the_territory() {
    // The two white stones on (0, 4) and (1, 4) have three liberties. If Black fills the
    // neutral point (2, 4), two are left, both inside White's territory, and Black could cut
    // on (1, 3): White must connect there or on (0, 3), a protective move Japanese counting
    // charges a point for, just as if the dame had been an atari. So Black fills (2, 4) before
    // the plain dame on (3, 0), and White, to move, fills (2, 4) first to spare itself the
    // answer.
    let b = board(
        "
        . . O . X .
        . . O X X .
        . . O X . .
        . . O X . .
        O O . X . .
        X X X X . .
        . . . . . .",
    );
    let played = moves(&b, &no_dead(&b), Color::Black);
    assert_eq!(played[0], (Color::Black, 2, 4, Why::Dame), "{played:?}");
    assert_eq!((played[1].0, played[1].3), (Color::White, Why::Protect), "{played:?}");
    assert!([(0, 3), (1, 3)].contains(&(played[1].1, played[1].2)), "{played:?}");
    assert_eq!(played[2], (Color::Black, 3, 0, Why::Dame), "{played:?}");
    assert_eq!(
        moves(&b, &no_dead(&b), Color::White),
        [(Color::White, 2, 4, Why::Dame), (Color::Black, 3, 0, Why::Dame)]
    );
}

#[test]
fn a_dame_that_forces_comes_before_a_one_point_boundary_move_and_one_that_spares_after() {
    // Two moves are worth a point here. The boundary move on (3, 0) seals (4, 0) for Black,
    // or denies it to Black when White plays it. The neutral point (2, 4) is the dame of the
    // diagram above: Black's stone there leaves the two white stones on (0, 4) and (1, 4)
    // capturable, and White must answer inside its own territory.
    let b = board(
        "
        . . O . . X .
        . . O X X X .
        . . O X . . .
        . . O X . . .
        O O . X . . .
        X X X X . . .
        . . . . . . .",
    );
    // For Black, (2, 4) gains its point in sente: Black plays it, White answers, and Black
    // still gets the boundary move.
    let played = moves(&b, &no_dead(&b), Color::Black);
    assert_eq!(played[0], (Color::Black, 2, 4, Why::Dame), "{played:?}");
    assert_eq!((played[1].0, played[1].3), (Color::White, Why::Protect), "{played:?}");
    assert_eq!(played[2], (Color::Black, 3, 0, Why::Boundary), "{played:?}");
    // For White, filling (2, 4) only spares an answer, a point in gote like the boundary
    // move: White closes the border first, and Black then plays its dame in sente.
    let played = moves(&b, &no_dead(&b), Color::White);
    assert_eq!(played[0], (Color::White, 3, 0, Why::Boundary), "{played:?}");
    assert_eq!(played[1], (Color::Black, 2, 4, Why::Dame), "{played:?}");
    assert_eq!((played[2].0, played[2].3), (Color::White, Why::Protect), "{played:?}");
}

#[test]
fn a_stone_in_atari_only_by_dead_stones_is_neither_captured_nor_saved() {
    // The three black stones inside White's wall are dead; the white stone among them is in
    // atari, but only by them. Capturing it on (2, 5) would bring the dead stones back to life
    // in the count (as in aeb-pro `Oza/63/P06`, where it cost White six points), and saving it
    // would be a protective move against nothing: the players agreed the stones are off.
    let b = board(
        "
        . . . . . . .
        X X X X X X X
        O O O O O O O
        O . X . O O O
        O X O X . O O
        O . . . O O O",
    );
    let mut dead = no_dead(&b);
    for (x, y) in [(2, 3), (1, 4), (3, 4)] {
        dead[y * 7 + x] = true;
    }
    for to_move in [Color::Black, Color::White] {
        let finished = finish(&b, &dead, to_move);
        assert_eq!(finished.captured_by, [0, 0], "{to_move:?} to move: {:?}", finished.moves);
        assert!(finished.moves.iter().all(|m| m.2 != Why::Capture && m.2 != Why::Rescue));
    }
}

#[test]
fn a_chain_pressed_only_by_dead_stones_gets_no_protective_move() {
    // The four black stones inside White's wall are dead. The two white stones among them have
    // two liberties, and Black could still catch them along the edge with (2, 6) and (4, 6),
    // but only with the dead stones' help: the players agreed those are off the board, and the
    // record's result charges White no protective move for them (in aeb-pro's counted
    // Japanese-rules records such moves cost the protecting side a point the recorded result
    // does not: `Agon/14/11`, `AsianTV/08/3`, `BC/04/48`).
    let b = board(
        "
        . . . . . . .
        X X X X X X X
        O O O O O O O
        O . . . . . O
        O . X X X . O
        O . X O X . O
        O . . O . . O",
    );
    let mut dead = no_dead(&b);
    for (x, y) in [(2, 4), (3, 4), (4, 4), (2, 5), (4, 5)] {
        dead[y * 7 + x] = true;
    }
    for to_move in [Color::Black, Color::White] {
        let finished = finish(&b, &dead, to_move);
        assert!(
            finished.moves.iter().all(|m| m.2 != Why::Protect && m.2 != Why::Rescue),
            "{to_move:?} to move: {:?}",
            finished.moves
        );
        assert_eq!(finished.protective, [0, 0]);
    }
}

#[test]
fn a_chain_whose_capture_is_a_snapback_is_not_saved() {
    // The white stone on (3, 3) is in atari by Black's live wall; its liberty (3, 4) is also the
    // last liberty of the dead black stone on (3, 5). Black taking it there joins the dead
    // stone, and the two are left in atari: White takes them back. White owes no protective
    // move inside its territory (as in aeb-pro `BC/03/41`, recorded B+2.5, where the one-point
    // teire made it B+3.5).
    let b = board(
        "
        . . . . . . .
        . . . . . . .
        X X X X X X X
        O O X O X O O
        O O O . O O O
        O O O X O O O
        O O O O O O O
        . . . . . . .",
    );
    let mut dead = no_dead(&b);
    dead[5 * 7 + 3] = true;
    for to_move in [Color::Black, Color::White] {
        let finished = finish(&b, &dead, to_move);
        assert!(finished.moves.is_empty(), "{to_move:?} to move: {:?}", finished.moves);
    }
    // Without the dead stone, Black's capture on (3, 4) is a real one, and White saves the
    // stone.
    let b = board(
        "
        . . . . . . .
        . . . . . . .
        X X X X X X X
        O O X O X O O
        O O O . O O O
        O O O . O O O
        O O O O O O O
        . . . . . . .",
    );
    assert_eq!(moves(&b, &no_dead(&b), Color::White)[0], (Color::White, 3, 4, Why::Rescue));
    assert_eq!(moves(&b, &no_dead(&b), Color::Black)[0], (Color::Black, 3, 4, Why::Capture));
}

#[test]
fn a_dame_that_opens_a_double_atari_is_not_filled() {
    // aeb-pro `Oza/31/Oza-1983-r2d.sgf` (31st Oza, 1983-08-04, Yamashiro Hiroshi - Ishii
    // Kunio, W+0.5, Japanese rules, komi 5.5) stops with dame left on the top edge:
    //
    //     J K L M N O P Q R
    //  19 . . X . . X X . X
    //  18 X X O O O O O X .
    //
    // Black's dame on M19 would leave L19-M19 with two liberties, and White's on N19 then put
    // both it and O19-P19 in atari: Black would save one, and White capture two stones every
    // status calls alive. Black does not fill M19 while it opens that double atari (White
    // fills it instead), so the forcing finish captures nothing, as does the careful style;
    // every dame is filled, and the count is the recorded one.
    let Some(game) = corpus_ending("aeb-pro/Oza/31/Oza-1983-r2d.sgf") else { return };
    let CorpusEnding { replay: rep, statuses, ending, count } = game;
    let forcing = finish(&rep.board, &statuses.dead, rep.to_move);
    assert_eq!(forcing.largest_capture, 0);
    assert!(!forcing.moves.contains(&(Color::Black, Point::new(11, 0), Why::Dame)));
    assert!(forcing.moves.contains(&(Color::White, Point::new(11, 0), Why::Dame)));
    let careful = finish_with(&rep.board, &statuses.dead, rep.to_move, Style::Careful);
    assert_eq!(careful.largest_capture, 0);
    let finished = ending.finished.as_ref().expect("finished, not counted as left");
    assert_eq!(finished.largest_capture, 0);
    assert_eq!(count.neutral, 0);
    assert_eq!(count.outcome, Outcome::Win { winner: Color::White, by: WinBy::Points(0.5) });
}

#[test]
fn a_stone_in_atari_is_saved_where_the_save_also_mends_the_chain_next_to_it() {
    // Ryusei 31 (Han Zenki-Akiyama Jiro), around J14, after White's dame on H13:
    //
    //       G H J K L
    //  15   O O X X .
    //  14   X X . . .
    //  13   . O X O X
    //  12   O O O X .
    //
    // The black stone on J13 is in atari, and so is the white stone on K13. Capturing it on
    // K14 saves J13 but leaves G14-H14 with two liberties, G13 a dame: White's next dame
    // there forces a second protective move. Connecting on J14 saves J13 and mends G14-H14
    // at once, as a player would answer; the count is then the recorded B+4.5.
    let Some(game) = corpus_ending("aeb-pro/Ryusei/31/D07.sgf") else { return };
    let CorpusEnding { ending, count, .. } = game;
    let finished = ending.finished.as_ref().expect("finished, not counted as left");
    assert_eq!(finished.moves[0], (Color::White, Point::new(7, 6), Why::Dame));
    assert_eq!(finished.moves[1], (Color::Black, Point::new(8, 5), Why::Rescue));
    assert!(!finished.moves.iter().any(|&(c, p, _)| c == Color::Black && p == Point::new(9, 5)));
    assert_eq!(count.outcome, Outcome::Win { winner: Color::Black, by: WinBy::Points(4.5) });
}

#[test]
fn the_stone_of_a_ko_is_connected_by_its_owner_after_the_boundary_moves() {
    // The white stone on (2, 0) is the stone of a ko: Black could take it on (3, 0), and
    // White take back on (2, 0) but for the ko rule. Winning it (taking, then connecting)
    // gains one point in two moves, less than either boundary move on (2, 4) or (2, 6) gains
    // in one (each seals the point behind it, (1, 4) or (1, 6), for Black, or makes it
    // neutral for White), and professional results count such a ko as its owner's. Black
    // takes a boundary move, White the other, and White connects the ko in the end: Black
    // ends with one point of territory, and no prisoner. Taking the ko first would leave
    // both boundary moves to White and give Black a prisoner it does not get.
    let b = board(
        "
        . X O . O . .
        . X X O O . .
        . . X O . . .
        X X X O . . .
        X . . O . . .
        X X X O . . .
        X . . O . . .",
    );
    let played = moves(&b, &no_dead(&b), Color::Black);
    assert_eq!(played[0].3, Why::Boundary, "{played:?}");
    assert_eq!((played[1].0, played[1].3), (Color::White, Why::Boundary), "{played:?}");
    assert!(played.contains(&(Color::White, 3, 0, Why::Rescue)), "{played:?}");
    assert!(played.iter().all(|m| m.3 != Why::Capture), "{played:?}");
    let finished = finish(&b, &no_dead(&b), Color::Black);
    assert_eq!(finished.captured_by, [0, 0]);
}

#[test]
fn a_dame_that_would_kill_a_chain_called_alive_is_left_to_its_owner() {
    // aeb-pro `Honinbo/39/E04.sgf` (39th Honinbo league, 1983-09-22, Kataoka Satoshi - Awaji
    // Shuzo, W+5.5, Japanese rules, komi 5.5) stops with White's 25 stones from L1 up to P8
    // short of liberties after a fight the players had settled. Once the other dame are
    // filled, Black's stone on the neutral point Q8 would leave them in atari with no way
    // out, and Black would capture a group every status calls alive; the finishing then went
    // wrong, and the count fell back to the position as left (W+6.5). Black leaves Q8 alone,
    // White fills it, the rest of the ending is played out, and the count is the recorded
    // one.
    let Some(game) = corpus_ending("aeb-pro/Honinbo/39/E04.sgf") else { return };
    let CorpusEnding { replay: rep, statuses, ending, count } = game;
    let finished = finish(&rep.board, &statuses.dead, rep.to_move);
    assert!(finished.largest_capture <= 1, "{:?}", finished.moves);
    // Q8: column Q (the 16th from the left, I being skipped), row 8 (the 12th from the top).
    assert_eq!(finished.board.get(Point::new(15, 11)), Some(Color::White), "{:?}", finished.moves);
    assert!(ending.finished.is_some(), "finished, not counted as left");
    assert_eq!(count.outcome, Outcome::Win { winner: Color::White, by: WinBy::Points(5.5) });
}

#[test]
fn a_double_threat_one_answer_meets_is_no_reason_to_leave_a_dame() {
    // aeb-pro `Cho_Chikun/2004-06-21.sgf` (B+1.5, Japanese rules) stops with dame left
    // around K9 and M9:
    //
    //        H J K L M N O
    //     11 O . X X O . X
    //     10 O X . O X X O
    //      9 X X . O . X X
    //      8 O X X O O O O
    //
    // A black dame on K9 leaves a black chain with two liberties that White can take while
    // threatening another black chain, but one black answer saves both: not the first saving
    // move found for either chain. Read with the first saving move of each chain only, the
    // threat looked unanswerable: Black filled M9 instead, White K9, and Black owed a
    // protective move on K7 inside its territory, B+0.5. Every saving move tried, K9 is a
    // dame like any other (Black fills it, or White once Black has filled M9), Black owes
    // nothing, and the count is the recorded one.
    let Some(game) = corpus_ending("aeb-pro/Cho_Chikun/2004-06-21.sgf") else { return };
    let CorpusEnding { ending, count, .. } = game;
    let finished = ending.finished.as_ref().expect("finished, not counted as left");
    assert!(finished.moves.iter().any(|&(_, p, why)| p == Point::new(9, 10) && why == Why::Dame));
    assert!(!finished.moves.iter().any(|&(c, _, why)| c == Color::Black && why == Why::Protect));
    assert_eq!(count.outcome, Outcome::Win { winner: Color::Black, by: WinBy::Points(1.5) });
}
