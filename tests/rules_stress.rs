//! Seeded stress tests: thousands of random moves, garbage included (occupied points, points off
//! the board, suicides, ko retakes, forced moves, setup changes), on 19x19, 13x7, 9x16 and 4x4.
//! After every move the board must agree with a recomputation from scratch, `is_legal` must
//! agree with `play`, and the hash predicted before a move must be the hash after it.
//! KataGo's `runBoardStressTest` is the model.

mod rules_support;

use kifu::rules::{Board, BoardSize, Color, Point, SuicideRule};

/// splitmix64: a tiny, fixed PRNG so that every run plays the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

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
