//! Seeded stress tests: thousands of random moves, garbage included (occupied points, points off
//! the board, suicides, ko retakes, forced moves, setup changes), on 19x19, 13x7, 9x16 and 4x4.
//! After every move the board must agree with a recomputation from scratch, `is_legal` must
//! agree with `play`, and the hash predicted before a move must be the hash after it.
//! KataGo's `runBoardStressTest` is the model.

mod rules_support;
mod seeded;

use kifu::rules::{
    Board, BoardSize, Color, Cycle, Game, Illegal, KoRule, Move, Played, Point, Ruleset,
    SuicideRule, preset,
};
use seeded::Rng;

pub const SIZES: [(u8, u8); 4] = [(19, 19), (13, 7), (9, 16), (4, 4)];
const RULES: [SuicideRule; 3] =
    [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed, SuicideRule::Allowed];

/// A point: mostly on the board, sometimes just off it, sometimes far off.
fn random_point(rng: &mut Rng, size: BoardSize) -> Point {
    if rng.chance(4) {
        let x = rng.below(size.width as u64 + 3) as u8;
        let y = rng.below(size.height as u64 + 3) as u8;
        if rng.chance(10) { Point::new(200, y) } else { Point::new(x, y) }
    } else {
        Point::new(rng.below(size.width as u64) as u8, rng.below(size.height as u64) as u8)
    }
}

/// A random empty point, found by trying a few times (None on a nearly full board).
fn random_empty(rng: &mut Rng, board: &Board) -> Option<Point> {
    let size = board.size();
    (0..20)
        .map(|_| {
            Point::new(rng.below(size.width as u64) as u8, rng.below(size.height as u64) as u8)
        })
        .find(|&p| board.get(p).is_none())
}

/// A move of a random game, from `percent` chances: that it is out of turn, that it is a pass,
/// and (if not) that it is on an empty point rather than anywhere, off the board included.
fn random_move(rng: &mut Rng, game: &Game, percent: [u64; 3]) -> (Color, Move) {
    let [out_of_turn, pass, empty] = percent;
    let size = game.board().size();
    let color = if rng.chance(out_of_turn) { game.to_move().opponent() } else { game.to_move() };
    let mv = if rng.chance(pass) {
        Move::Pass
    } else if rng.chance(empty) {
        random_empty(rng, game.board())
            .map_or_else(|| Move::Play(random_point(rng, size)), Move::Play)
    } else {
        Move::Play(random_point(rng, size))
    };
    (color, mv)
}

#[test]
fn random_boards_stay_consistent_and_legality_agrees_with_play() {
    let mut rng = Rng(20_240_611);
    let mut totals = [0u32; 4]; // legal moves, refused moves, captures, suicides
    for (w, h) in SIZES {
        let size = BoardSize::new(w, h).unwrap();
        let mut board = Board::new(size);
        let mut rule = RULES[0];
        let mut color = Color::Black;
        for step in 0..6_000u32 {
            if step % 500 == 0 {
                board.reset(size);
                rule = RULES[rng.below(3) as usize];
            }
            if rng.chance(10) {
                color = color.opponent(); // now and then the same colour moves twice
            }
            let p = if rng.chance(60) {
                random_empty(&mut rng, &board).unwrap_or_else(|| random_point(&mut rng, size))
            } else {
                random_point(&mut rng, size)
            };
            let before = board.clone();
            let predicted = board.hash_after(color, p);
            match rng.below(100) {
                0..=2 => {
                    board.pass();
                    assert_eq!(board.ko(), None);
                }
                3..=5 => {
                    let stone =
                        [None, Some(Color::Black), Some(Color::White)][rng.below(3) as usize];
                    let was = board.set_stone(p, stone);
                    assert_eq!(was.is_ok(), board.contains(p));
                }
                6..=11 => {
                    // An SGF move executed whatever the rules say.
                    let effect = board.play_forced(color, p);
                    assert_eq!(effect.is_ok(), board.contains(p));
                    if let Some(h) = predicted {
                        assert_eq!(board.hash(), h, "forced move {p:?}\n{before}");
                    }
                }
                _ => {
                    let legal = board.is_legal(color, p, rule);
                    let checked = board.check(color, p, rule);
                    match board.play(color, p, rule) {
                        Ok(effect) => {
                            assert!(legal && checked.is_ok(), "play accepted a move check refused");
                            assert_eq!(Some(board.hash()), predicted, "{color} {p:?}\n{before}");
                            totals[0] += 1;
                            totals[2] += effect.captured;
                            totals[3] += effect.suicided;
                        }
                        Err(e) => {
                            assert!(
                                !legal && checked == Err(e),
                                "{color} {p:?}: {e} vs {checked:?}"
                            );
                            assert!(board.same_stones(&before) && board.hash() == before.hash());
                            assert_eq!(board.ko(), before.ko(), "a refused move touched the ko");
                            totals[1] += 1;
                        }
                    }
                }
            }
            board.check_consistency().unwrap_or_else(|e| {
                panic!("{size} step {step}: {e}\nbefore\n{before}after\n{board}")
            });
            if step % 15 == 0 {
                // The diagram round trip rebuilds everything from the colours alone.
                let again = Board::from_diagram(&board.to_string()).unwrap();
                assert!(again.same_stones(&board) && again.hash() == board.hash());
                for q in size.points() {
                    assert_eq!(again.liberty_count(q), board.liberty_count(q));
                    assert_eq!(again.chain_len(q), board.chain_len(q));
                }
            }
            color = color.opponent();
        }
    }
    // The games must have exercised every path, or the test proves little.
    let [legal, refused, captured, suicided] = totals;
    assert!(legal > 10_000 && refused > 1_000 && captured > 1_000 && suicided > 50, "{totals:?}");
}

/// The stones of a board, point by point: the naive model's idea of a position.
fn stones(board: &Board) -> Vec<Option<Color>> {
    board.size().points().map(|p| board.get(p)).collect()
}

/// A naive model of a game's history: every situation in a list, compared stone by stone.
struct NaiveHistory {
    ko: KoRule,
    situations: Vec<(Vec<Option<Color>>, Color)>,
    since_pass: usize,
    cycle: Option<Cycle>,
}

impl NaiveHistory {
    fn same(&self, a: &(Vec<Option<Color>>, Color), b: &(Vec<Option<Color>>, Color)) -> bool {
        a.0 == b.0 && (self.ko == KoRule::PositionalSuperko || a.1 == b.1)
    }

    /// What the rules say about `color` playing `mv` in `game`, worked out the slow way.
    fn verdict(&self, game: &Game, color: Color, mv: Move) -> Result<(), Illegal> {
        let Move::Play(p) = mv else { return Ok(()) };
        game.board().check(color, p, game.ruleset().suicide)?;
        if self.ko != KoRule::Simple {
            let mut after = game.board().clone();
            after.play_forced(color, p).unwrap();
            let next = (stones(&after), color.opponent());
            if self.situations.iter().any(|s| self.same(s, &next)) {
                return Err(Illegal::Superko);
            }
        }
        Ok(())
    }

    /// Records the situation after a move (the list index is the move number) and follows the
    /// cycle under simple ko: since its start, every move was legal and recreated an earlier
    /// situation.
    fn push(&mut self, game: &Game, mv: Move, legal: bool) {
        let now = (stones(game.board()), game.to_move());
        let number = self.situations.len() as u32;
        if mv == Move::Pass {
            self.since_pass = self.situations.len();
            self.cycle = None;
        }
        let earlier: Vec<usize> = (self.since_pass..self.situations.len())
            .filter(|&i| self.same(&self.situations[i], &now))
            .collect();
        self.situations.push(now);
        if self.ko != KoRule::Simple || mv == Move::Pass {
            return;
        }
        match earlier.last() {
            _ if !legal => self.cycle = None,
            None => self.cycle = None,
            Some(&last) => {
                let occurrences = earlier.len() as u32 + 1;
                let cycle = self.cycle.get_or_insert(Cycle {
                    start: number,
                    recreates: last as u32,
                    last: number,
                    occurrences,
                });
                cycle.last = number;
                cycle.occurrences = cycle.occurrences.max(occurrences);
            }
        }
    }
}

#[test]
fn random_games_agree_with_a_naive_history() {
    let mut rng = Rng(7_051_953);
    let mut seen = [0u32; 5]; // superko refusals, cycles, strict moves, tolerant moves, passes
    let sizes = SIZES.iter().chain(&[(3, 3), (2, 3)]);
    for &(w, h) in sizes {
        let size = BoardSize::new(w, h).unwrap();
        // Small boards repeat positions often; keep their games short so the naive history
        // (quadratic) stays cheap, and play many of them.
        let (games, length) = if size.area() <= 16 { (60, 120) } else { (4, 400) };
        for _ in 0..games {
            let ko = [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko]
                [rng.below(3) as usize];
            let suicide = RULES[rng.below(3) as usize];
            let ruleset = Ruleset { ko, suicide, ..preset("chinese").unwrap().ruleset };
            let mut game = Game::new(size, ruleset);
            let mut naive = NaiveHistory {
                ko,
                situations: vec![(stones(game.board()), Color::Black)],
                since_pass: 0,
                cycle: None,
            };
            for _ in 0..length {
                let (color, mv) = random_move(&mut rng, &game, [5, 4, 70]);
                let expected = naive.verdict(&game, color, mv);
                assert_eq!(
                    game.check(color, mv),
                    expected,
                    "{ko:?} {suicide:?} {color} {mv:?}\n{}",
                    game.board()
                );
                assert_eq!(game.is_legal(color, mv), expected.is_ok());
                let before = game.board().clone();
                let played = if rng.chance(50) {
                    seen[3] += 1;
                    let played = game.play_tolerant(color, mv);
                    assert_eq!(played.illegal, expected.err());
                    played
                } else {
                    seen[2] += 1;
                    match game.play(color, mv) {
                        Ok(played) => played,
                        Err(e) => {
                            assert_eq!(Err(e), expected);
                            let after = game.board();
                            assert!(after.same_stones(&before) && after.hash() == before.hash());
                            assert_eq!(after.ko(), before.ko(), "a refused move touched the ko");
                            for c in [Color::Black, Color::White] {
                                assert_eq!(after.prisoners(c), before.prisoners(c));
                            }
                            after.check_consistency().unwrap();
                            continue;
                        }
                    }
                };
                seen[0] += u32::from(played.illegal == Some(Illegal::Superko));
                seen[4] += u32::from(mv == Move::Pass);
                naive.push(&game, mv, played.illegal.is_none());
                assert_eq!(game.cycle(), naive.cycle, "move {}", game.moves_played());
                seen[1] += u32::from(game.cycle().is_some_and(|c| c.start == game.moves_played()));
                game.board().check_consistency().unwrap();
            }
        }
    }
    let [superko, cycles, strict, tolerant, passes] = seen;
    assert!(
        superko > 100 && cycles > 10 && strict > 1_000 && tolerant > 1_000 && passes > 100,
        "{seen:?}"
    );
}

#[test]
fn replaying_a_whole_line_at_once_plays_it_as_move_by_move() {
    let mut rng = Rng(31_415_926);
    let mut reported = 0usize;
    for &(w, h) in SIZES.iter().chain(&[(3, 3)]) {
        let size = BoardSize::new(w, h).unwrap();
        for _ in 0..30 {
            let ko = [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko]
                [rng.below(3) as usize];
            let suicide = RULES[rng.below(3) as usize];
            let ruleset = Ruleset { ko, suicide, ..preset("chinese").unwrap().ruleset };
            // A record's line: mostly moves in turn on empty points, with garbage, passes
            // (two in a row end the game, so later moves come after the end) and repetitions
            // on the small boards.
            let mut by_one = Game::new(size, ruleset);
            let mut line = Vec::new();
            let mut expected = Vec::new();
            for index in 0..300 {
                let (color, mv) = random_move(&mut rng, &by_one, [3, 3, 85]);
                let to_move = by_one.to_move();
                let played = by_one.play_tolerant(color, mv);
                line.push((color, mv));
                expected.push((index, to_move, played));
            }
            let mut at_once = Game::new(size, ruleset);
            let mut noted = Vec::new();
            at_once.play_tolerant_all(line.iter().copied(), |_, index, to_move, played| {
                noted.push((index, to_move, played));
            });
            // Every move it passes over is an ordinary one: legal, in turn, new, no pass.
            let mut noted_iter = noted.iter().peekable();
            for (index, to_move, played) in &expected {
                if noted_iter.peek().is_some_and(|n| n.0 == *index) {
                    assert_eq!(noted_iter.next(), Some(&(*index, *to_move, *played)));
                    continue;
                }
                let ordinary = Played { effect: played.effect, ..Played::default() };
                assert_eq!(*played, ordinary, "move {index} was passed over");
                assert_ne!(line[*index].1, Move::Pass);
            }
            assert!(noted_iter.next().is_none());
            reported += noted.len();
            assert!(at_once.board().same_stones(by_one.board()));
            assert_eq!(at_once.board().hash(), by_one.board().hash());
            assert_eq!(
                (at_once.to_move(), at_once.moves_played(), at_once.end(), at_once.cycle()),
                (by_one.to_move(), by_one.moves_played(), by_one.end(), by_one.cycle())
            );
            at_once.board().check_consistency().unwrap();
        }
    }
    assert!(reported > 1_000, "{reported}");
}
