//! Replay speed of the rules core, in nanoseconds per move, on fixed games.
//!
//! Run with `cargo bench --bench replay` (add `-- --quick` for fewer repetitions). The games
//! are generated from a fixed seed inside the bench (1,000 random legal 19x19 games of 320
//! moves that do not fill their own eyes: many captures and long chains), and, when the shared
//! corpus is present (`KIFU_SHARED_CORPUS` or `../shared/corpus`), the 4,266 games of
//! aeb-pro/Honinbo are read by the record layer (outside the timed part) and replayed too.
//! Every run checks a checksum of the final positions and captures, so a fast wrong answer
//! cannot pass.
//!
//! What is timed, per move:
//! - `board`: `Board::play` alone (simple ko, no history) — the floor;
//! - `game strict, positional superko`: `Game::play` with every superko check;
//! - `game tolerant, simple ko`: `Game::play_tolerant` with cycle bookkeeping;
//! - `replay (records)`: `analysis::replay::replay` on whole records, findings and final
//!   board included, as the pipeline calls it.
//!
//! Figures are CPU time of the benchmarking thread (its CPU clock; wall time elsewhere),
//! best of N runs and median. `--only board|strict|tolerant|replay` runs one path, for
//! profiling (e.g. under `valgrind --tool=cachegrind --cache-sim=no`).

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

mod common;
use common::cpu_nanos;

#[path = "../tests/seeded/mod.rs"]
mod seeded;

use kifu::analysis::replay::replay;
use kifu::record::{
    CharsetOrigin, GameLocation, GameRecord, Komi, KomiOrigin, Placement, ReadOptions, ReadStatus,
    RecordRules, RecordedMove, RecordedResult, RulesOrigin, TextEncoding, split_file,
};
use kifu::rules::{Board, BoardSize, Color, Game, Move, Point, Ruleset, SuicideRule, preset};
use seeded::Rng;

/// A fixed game: its size, setup and moves.
struct FixedGame {
    size: BoardSize,
    setup: Vec<Placement>,
    moves: Vec<RecordedMove>,
}

/// Whether `p` is an eye of `color`: every neighbour is its stone (random play must not fill
/// those, or games never end).
fn is_own_eye(board: &Board, p: Point, color: Color) -> bool {
    board.neighbors(p).all(|q| board.get(q) == Some(color))
}

/// Random legal games under positional superko (so they are legal under every ko rule), with
/// captures, kos and an ending by two passes.
fn generate(count: usize, seed: u64) -> Vec<FixedGame> {
    let size = BoardSize::STANDARD;
    let rules = preset("chinese").unwrap().ruleset;
    let mut rng = Rng(seed);
    let mut games = Vec::with_capacity(count);
    let mut empties = Vec::new();
    for _ in 0..count {
        let mut game = Game::new(size, rules);
        let mut moves = Vec::new();
        let mut color = Color::Black;
        let mut passes = 0;
        while passes < 2 && moves.len() < 320 {
            empties.clear();
            empties.extend(game.board().empty_points());
            let mut chosen = Move::Pass;
            // Try random empty points until one is legal and no eye.
            for _ in 0..empties.len() {
                let i = (rng.next() % empties.len() as u64) as usize;
                let p = empties.swap_remove(i);
                if !is_own_eye(game.board(), p, color) && game.is_legal(color, Move::Play(p)) {
                    chosen = Move::Play(p);
                    break;
                }
            }
            game.play(color, chosen).expect("chosen moves are legal");
            passes = if chosen == Move::Pass { passes + 1 } else { 0 };
            moves.push(RecordedMove { color, mv: chosen, node: moves.len() as u32 + 1 });
            color = color.opponent();
        }
        games.push(FixedGame { size, setup: Vec::new(), moves });
    }
    games
}

fn record(game: &FixedGame, ruleset: Ruleset) -> GameRecord {
    GameRecord {
        location: GameLocation { source: "bench".into(), game: 1, offset: 0, line: 1 },
        status: ReadStatus::Strict,
        encoding: TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false },
        size: game.size,
        setup: game.setup.clone(),
        later_setup: Vec::new(),
        to_move: None,
        moves: game.moves.clone(),
        handicap: 0,
        handicap_implied: false,
        komi: Komi { points: ruleset.komi, origin: KomiOrigin::Assumed, raw: None },
        rules: RecordRules { raw: None, preset: None, ruleset, origin: RulesOrigin::Inferred },
        result: RecordedResult { raw: None, outcome: None, in_zi: false, truncated: false },
        markup: None,
        properties: Default::default(),
        findings: Vec::new(),
    }
}

/// The Honinbo games of the shared corpus, read by the record layer (outside the timed part).
fn corpus_games() -> Option<Vec<FixedGame>> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = std::env::var_os("KIFU_SHARED_CORPUS")
        .map(PathBuf::from)
        .into_iter()
        .chain([manifest.join("../shared/corpus"), manifest.join("../../shared/corpus")])
        .map(|c| c.join("aeb-pro/Honinbo"))
        .find(|p| p.is_dir())?;
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "sgf") {
                files.push(path);
            }
        }
    }
    files.sort();
    let options = ReadOptions::default();
    let mut games = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let file = split_file(&path.display().to_string(), Arc::from(bytes), &options);
        for pending in &file.games {
            let record = pending.read(&options);
            games.push(FixedGame { size: record.size, setup: record.setup, moves: record.moves });
        }
    }
    Some(games)
}

/// Runs `f` `runs` times; returns (best, median) CPU nanoseconds per move and `f`'s checksum.
fn time(runs: usize, moves: usize, f: &mut dyn FnMut() -> u64) -> (f64, f64, u64) {
    let mut samples = Vec::with_capacity(runs);
    let mut checksum = 0;
    let origin = Instant::now();
    for _ in 0..runs {
        let start = cpu_nanos(origin);
        checksum = black_box(f());
        samples.push((cpu_nanos(origin) - start) as f64 / moves as f64);
    }
    samples.sort_by(f64::total_cmp);
    (samples[0], samples[runs / 2], checksum)
}

fn mix(checksum: u64, board: &Board) -> u64 {
    let captures =
        (board.captures(Color::Black) as u64) << 32 | board.captures(Color::White) as u64;
    (checksum.rotate_left(7) ^ board.hash()).wrapping_add(captures)
}

/// Times every way of replaying `games` (or only the one named by `--only`, for profiling),
/// asserting the checksums when known.
fn bench(name: &str, games: &[FixedGame], runs: usize, expected: Option<[u64; 4]>) {
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let wanted = |label: &str| only.as_deref().is_none_or(|o| o == label);
    let time = |label: &str, runs: usize, moves: usize, f: &mut dyn FnMut() -> u64| {
        if wanted(label) { time(runs, moves, f) } else { (f64::NAN, f64::NAN, 0) }
    };
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let positional = preset("chinese").unwrap().ruleset;
    let simple = preset("japanese").unwrap().ruleset;
    let setup = |g: &FixedGame| g.setup.iter().map(|p| (p.point, p.stone)).collect::<Vec<_>>();
    let setups: Vec<_> = games.iter().map(setup).collect();
    println!("{name}: {} games, {moves} moves", games.len());

    let board_only = time("board", runs, moves, &mut || {
        let mut board = Board::new(BoardSize::STANDARD);
        let mut checksum = 0;
        for (g, setup) in games.iter().zip(&setups) {
            board.reset(g.size);
            for &(p, stone) in setup {
                let _ = board.set_stone(p, stone);
            }
            for m in &g.moves {
                match m.mv {
                    Move::Play(p) => {
                        if board.play(m.color, p, SuicideRule::Forbidden).is_err() {
                            let _ = board.play_forced(m.color, p);
                        }
                    }
                    Move::Pass => board.pass(),
                }
            }
            checksum = mix(checksum, &board);
        }
        checksum
    });
    let strict = time("strict", runs, moves, &mut || {
        let mut game = Game::new(BoardSize::STANDARD, positional);
        let mut checksum = 0;
        for (g, setup) in games.iter().zip(&setups) {
            game.reset(g.size, positional);
            game.setup(setup.iter().copied());
            for m in &g.moves {
                if game.play(m.color, m.mv).is_err() {
                    game.play_tolerant(m.color, m.mv);
                }
            }
            checksum = mix(checksum, game.board());
        }
        checksum
    });
    let tolerant = time("tolerant", runs, moves, &mut || {
        let mut game = Game::new(BoardSize::STANDARD, simple);
        let mut checksum = 0;
        for (g, setup) in games.iter().zip(&setups) {
            game.reset(g.size, simple);
            game.setup(setup.iter().copied());
            for m in &g.moves {
                game.play_tolerant(m.color, m.mv);
            }
            checksum = mix(checksum, game.board());
        }
        checksum
    });
    let records: Vec<GameRecord> = games.iter().map(|g| record(g, positional)).collect();
    let full = time("replay", runs, moves, &mut || {
        let mut checksum = 0;
        for r in &records {
            let replay = replay(r, &positional);
            checksum = mix(checksum, &replay.board) ^ replay.findings.len() as u64;
        }
        checksum
    });
    for (label, (best, median, _)) in [
        ("board (simple ko, no history)", board_only),
        ("game strict, positional superko", strict),
        ("game tolerant, simple ko", tolerant),
        ("replay (records, positional superko)", full),
    ] {
        println!(
            "  {label:<40} {best:6.1} ns/move best, {median:6.1} median  ({:.1} M moves/s)",
            1e3 / best
        );
    }
    let sums = [board_only.2, strict.2, tolerant.2, full.2];
    println!("  checksums {sums:016x?}");
    if let Some(expected) = expected.filter(|_| only.is_none()) {
        assert_eq!(sums, expected, "{name}: the replay's results changed");
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = std::env::args()
        .skip_while(|a| a != "--runs")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(if quick { 3 } else { 11 });
    let games = generate(1_000, 0x6b69_6675);
    bench("generated 19x19", &games, runs, Some(GENERATED_CHECKSUMS));
    match corpus_games() {
        Some(games) => bench("aeb-pro/Honinbo", &games, runs, Some(HONINBO_CHECKSUMS)),
        None => println!("aeb-pro/Honinbo: shared corpus not found, skipped"),
    }
}

/// Checksums of the final positions of the generated games (see `bench`): the games are legal,
/// so every path ends on the same positions.
const GENERATED_CHECKSUMS: [u64; 4] = [0xf721_f096_5f94_6735; 4];
/// Checksums of the final positions of the Honinbo games. The board-only path differs because
/// it overwrites stones on occupied points (SGF FF[4]) where the game skips those moves (59/Q04
/// has 45); the record replay mixes in its number of findings.
const HONINBO_CHECKSUMS: [u64; 4] =
    [0x0892_26db_f602_93d5, 0xb279_adb5_e7e8_1e0e, 0xb279_adb5_e7e8_1e0e, 0x8d29_672e_0aa2_cc81];
