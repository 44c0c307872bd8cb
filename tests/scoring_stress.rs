//! Seeded stress tests of scoring: random games on boards from 2x2 to 19x19 (rectangles too),
//! sparse and dense, passed out or stopped anywhere, with or without random TB/TW markup,
//! handicaps and counted results, analysed under every preset with every dead-stone mode. The
//! estimator, the finishing of records that stop early and every count must take whatever
//! position a damaged or odd record leaves, so each analysis must finish without a panic, come
//! out the same twice, the same after the games before it as on a fresh thread (a worker reuses
//! its replay state), and keep the invariants `GameAnalysis::check_invariants` checks: an area
//! count gives every point to one side or to nobody, the margin is the totals less komi and
//! compensation, no more stones are dead than lie on the board, a high-confidence score names
//! no unclear chain.

mod seeded;

use kifu::analysis::{AnalysisOptions, DeadStoneMode, RulesetRequest, analyze};
use kifu::record::sgf::read_game;
use kifu::record::{CharsetOrigin, GameLocation, GameRecord, ReadOptions, TextEncoding};
use kifu::rules::{Board, BoardSize, Color, Point, SuicideRule};
use seeded::Rng;

/// Board shapes: the usual squares, the smallest ones, and rectangles (SZ[w:h]).
const SHAPES: [(u8, u8); 9] =
    [(19, 19), (13, 13), (9, 9), (7, 7), (5, 5), (3, 3), (2, 2), (9, 13), (6, 4)];

fn point_text(p: Point) -> String {
    p.sgf().expect("boards here are small")
}

/// A random game as SGF text: legal moves mostly (a player that plays randomly until the
/// board is `fill` percent full or no move is left to it), with now and then a pass, an illegal move or a handicap,
/// ending with two passes, a resignation or nothing, and a result that may or may not be a
/// count.
fn random_game(rng: &mut Rng) -> String {
    let (w, h) = SHAPES[rng.below(SHAPES.len() as u64) as usize];
    let size = BoardSize::new(w, h).expect("valid shape");
    let mut board = Board::new(size);
    let mut sgf = String::from("(;GM[1]FF[4]");
    sgf.push_str(&if w == h { format!("SZ[{w}]") } else { format!("SZ[{w}:{h}]") });
    match rng.below(6) {
        0 => sgf.push_str("RU[Japanese]"),
        1 => sgf.push_str("RU[Chinese]"),
        2 => sgf.push_str("RU[AGA]"),
        3 => sgf.push_str("RU[NZ]"),
        _ => {} // inferred
    }
    let komi = [0.0, 0.5, 5.5, 6.5, 7.5, 8.0, -3.0][rng.below(7) as usize];
    if rng.chance(80) {
        sgf.push_str(&format!("KM[{komi}]"));
    }
    let points: Vec<Point> = (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y))).collect();
    let mut to_move = Color::Black;
    if w >= 5 && rng.chance(15) {
        let stones = 2 + rng.below(4) as usize;
        sgf.push_str(&format!("HA[{stones}]AB"));
        for _ in 0..stones {
            let p = points[rng.below(points.len() as u64) as usize];
            if board.get(p).is_none() {
                board.set_stone(p, Some(Color::Black)).expect("empty point");
                sgf.push_str(&format!("[{}]", point_text(p)));
            }
        }
        to_move = Color::White;
    }
    let result = match rng.below(5) {
        0 => "B+R".to_string(),
        1 => "0".to_string(),
        2 => "W+".to_string(),
        _ => {
            let winner = if rng.chance(50) { "B" } else { "W" };
            format!("{winner}+{}.5", rng.below(40))
        }
    };
    sgf.push_str(&format!("RE[{result}]"));
    let fill = 20 + rng.below(80);
    // Half the games are played by a player that never fills its own eyes, so that they end in
    // living groups, sekis and settled borders, as finished games do; the others fill anything.
    let spares_eyes = rng.chance(50);
    let area = points.len() as u64;
    let mut moves = 0;
    // Tries, played or not: a board with only eyes and illegal points left ends the game.
    for _ in 0..40 * area {
        if moves >= 4 * area {
            break;
        }
        let stones = u64::from(board.stone_count(Color::Black) + board.stone_count(Color::White));
        if stones * 100 >= fill * area {
            break;
        }
        let letter = if to_move == Color::Black { 'B' } else { 'W' };
        let p = points[rng.below(area) as usize];
        let own_eye =
            board.get(p).is_none() && board.neighbors(p).all(|q| board.get(q) == Some(to_move));
        if spares_eyes && own_eye {
            continue;
        }
        if rng.chance(3) {
            sgf.push_str(&format!(";{letter}[]"));
        } else if board.is_legal(to_move, p, SuicideRule::Forbidden) {
            board.play(to_move, p, SuicideRule::Forbidden).expect("legal");
            sgf.push_str(&format!(";{letter}[{}]", point_text(p)));
        } else if rng.chance(2) {
            // An illegal move now and then: the replay must report it and scoring go on.
            sgf.push_str(&format!(";{letter}[{}]", point_text(p)));
        } else {
            continue;
        }
        to_move = to_move.opponent();
        moves += 1;
    }
    match rng.below(4) {
        0 | 1 => {
            let (a, b) = if to_move == Color::Black { ('B', 'W') } else { ('W', 'B') };
            sgf.push_str(&format!(";{a}[];{b}[]"));
        }
        _ => {}
    }
    if rng.chance(20) {
        // Territory markup on random points, stones included (a stone under the other
        // colour's mark is dead).
        let mut black = String::new();
        let mut white = String::new();
        for &p in &points {
            match rng.below(6) {
                0 => black.push_str(&format!("[{}]", point_text(p))),
                1 => white.push_str(&format!("[{}]", point_text(p))),
                _ => {}
            }
        }
        if !black.is_empty() {
            sgf.push_str(&format!("TB{black}"));
        }
        if !white.is_empty() {
            sgf.push_str(&format!("TW{white}"));
        }
    }
    sgf.push(')');
    sgf
}

fn record(text: &str) -> GameRecord {
    let location = GameLocation { source: "stress.sgf".into(), game: 1, offset: 0, line: 1 };
    let utf8 = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    read_game(text, location, utf8, &ReadOptions::default())
}

/// `recorded` and every preset.
fn every_ruleset() -> Vec<RulesetRequest> {
    let mut requests = vec![RulesetRequest::Recorded];
    requests.extend(kifu::rules::PRESETS.iter().map(RulesetRequest::Preset));
    requests
}

/// Checks one analysis: `GameAnalysis::check_invariants`, the same answer twice, and the same
/// answer after the games before it as on a fresh thread (a worker reuses its replay state).
fn check(record: &GameRecord, options: &AnalysisOptions) -> Result<(), String> {
    let analysis = analyze(record, options);
    analysis.check_invariants(record, options)?;
    if analysis != analyze(record, options) {
        return Err("two analyses of the same record differ".into());
    }
    let fresh = std::thread::scope(|s| s.spawn(|| analyze(record, options)).join())
        .map_err(|_| "the analysis panicked on a fresh thread")?;
    if analysis != fresh {
        return Err("the analysis after the previous games differs from a fresh thread's".into());
    }
    Ok(())
}

#[test]
fn random_games_score_under_every_ruleset_and_dead_stone_mode_with_the_counts_invariants() {
    // KIFU_STRESS_GAMES and KIFU_STRESS_SEED run a longer or another series by hand.
    let games: usize =
        std::env::var("KIFU_STRESS_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let seed =
        std::env::var("KIFU_STRESS_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x6b69_6675);
    let mut rng = Rng(seed);
    let modes =
        [DeadStoneMode::Auto, DeadStoneMode::Estimate, DeadStoneMode::Markup, DeadStoneMode::AsIs];
    let mut counted = 0;
    for game in 0..games {
        let text = random_game(&mut rng);
        let record = record(&text);
        let mode = modes[game % modes.len()];
        let options = AnalysisOptions { rulesets: every_ruleset(), dead_stones: mode };
        // A panic inside the analysis is reported with the game that caused it.
        let checked = std::panic::catch_unwind(|| check(&record, &options))
            .unwrap_or_else(|_| Err("the analysis panicked".into()));
        if let Err(why) = checked {
            panic!("game {game} ({mode:?}): {why}\n{text}");
        }
        counted += usize::from(analyze(&record, &options).scores.iter().any(|s| s.count.is_some()));
    }
    // Most games are counted: the test exercises the counts, not only the refusals.
    assert!(counted * 2 > games, "only {counted} of {games} random games were counted");
}
