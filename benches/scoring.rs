//! Speed of scoring a final position: the dead-stone estimator alone, and the whole scoring of a
//! game (statuses, finishing, counting under three rulesets), per game, on fixed positions.
//!
//! Run with `cargo bench --bench scoring` (`-- --runs N`, default 5; `-- --limit N` for the
//! first N games of each set). The positions are the
//! final positions of the counted games of `../shared/corpus/ogs-finished` (finished online
//! games, 9x9 and 19x19) and of `aeb-pro/Honinbo` (professional records, 19x19), read and
//! replayed outside the timed part; without the shared corpus the bench says so and stops.
//! Every run checks a checksum of every dead flag and margin, so a fast wrong answer cannot
//! pass unnoticed: the checksum is printed, and runs must agree with each other.
//!
//! Figures are CPU time of the benchmarking thread per game (median and 99th percentile over
//! the games of the best run), one thread.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use kifu::analysis::replay::{Replay, replay};
use kifu::analysis::{DeadStoneMode, RulesetRequest, dead_stones, scoring};
use kifu::record::{GameRecord, ReadOptions, ReadStatus, sources, split_source};
use kifu::rules::WinBy;

/// CPU time of this thread in seconds.
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

fn shared_corpus() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KIFU_SHARED_CORPUS") {
        return Some(PathBuf::from(p));
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    [manifest.join("../shared/corpus"), manifest.join("../../shared/corpus")]
        .into_iter()
        .find(|p| p.join("README.md").is_file())
}

/// Counted games (a margin in RE) of `dir`, sorted by source, with their replays.
fn counted_games(dir: &Path) -> Vec<(GameRecord, Replay)> {
    let options = ReadOptions::default();
    let mut records: Vec<GameRecord> = sources([dir], &options)
        .flat_map(|s| split_source(s, &options).games)
        .map(|g| g.read(&options))
        .filter(|r| r.status != ReadStatus::Failed)
        .filter(|r| {
            matches!(r.result.outcome, Some(kifu::rules::Outcome::Win { by: WinBy::Points(_), .. }))
        })
        .collect();
    records.sort_by(|a, b| a.location.source.cmp(&b.location.source));
    records
        .into_iter()
        .map(|r| {
            let rep = replay(&r, &r.rules.ruleset);
            (r, rep)
        })
        .collect()
}

/// FNV-1a over a byte stream.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

struct Timing {
    per_game_ms: Vec<f64>,
    checksum: u64,
}

fn time_estimator(games: &[(GameRecord, Replay)]) -> Timing {
    let mut checksum = 0xcbf2_9ce4_8422_2325u64;
    let mut per_game_ms = Vec::with_capacity(games.len());
    for (_, rep) in games {
        let start = thread_cpu();
        let statuses = black_box(dead_stones::estimate(&rep.board));
        per_game_ms.push((thread_cpu() - start) * 1000.0);
        let flags: Vec<u8> = statuses.dead.iter().map(|&d| u8::from(d)).collect();
        fnv(&mut checksum, &flags);
    }
    Timing { per_game_ms, checksum }
}

fn time_scoring(games: &[(GameRecord, Replay)], requests: &[RulesetRequest]) -> Timing {
    let mut checksum = 0xcbf2_9ce4_8422_2325u64;
    let mut per_game_ms = Vec::with_capacity(games.len());
    for (record, rep) in games {
        let start = thread_cpu();
        let scored = black_box(scoring::score_all(record, rep, requests, DeadStoneMode::Auto));
        per_game_ms.push((thread_cpu() - start) * 1000.0);
        for s in &scored.scores {
            let margin = s.outcome.and_then(|o| o.margin()).unwrap_or(f64::NAN);
            fnv(&mut checksum, &margin.to_le_bytes());
        }
    }
    Timing { per_game_ms, checksum }
}

fn report(name: &str, games: usize, runs: Vec<Timing>) {
    let checksum = runs[0].checksum;
    assert!(
        runs.iter().all(|r| r.checksum == checksum),
        "{name}: the runs disagree: the estimator is not deterministic"
    );
    let best = runs
        .into_iter()
        .min_by(|a, b| {
            let total = |t: &Timing| t.per_game_ms.iter().sum::<f64>();
            total(a).total_cmp(&total(b))
        })
        .expect("at least one run");
    let mut sorted = best.per_game_ms.clone();
    sorted.sort_by(f64::total_cmp);
    let at = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    let total: f64 = sorted.iter().sum();
    println!(
        "{name:<44} {games:>5} games  median {:>6.3} ms  p99 {:>6.3} ms  mean {:>6.3} ms  {:>7.0} games/s  checksum {checksum:016x}",
        at(0.5),
        at(0.99),
        total / games as f64,
        1000.0 * games as f64 / total,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    // `--limit N`: the first N games of each set only (for counting instructions under
    // cachegrind, which runs some 50 times slower).
    let limit: usize = args
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let Some(corpus) = shared_corpus() else {
        println!("no shared corpus (set KIFU_SHARED_CORPUS): nothing to measure");
        return;
    };
    let requests: Vec<RulesetRequest> = ["recorded", "chinese", "japanese"]
        .iter()
        .map(|n| RulesetRequest::parse(n).expect("preset"))
        .collect();
    for (name, dir) in [
        ("ogs-finished", corpus.join("ogs-finished")),
        ("aeb-pro/Honinbo (counted games)", corpus.join("aeb-pro/Honinbo")),
    ] {
        let mut games = counted_games(&dir);
        games.truncate(limit);
        if games.is_empty() {
            println!("{name}: no games");
            continue;
        }
        let estimator: Vec<Timing> = (0..runs).map(|_| time_estimator(&games)).collect();
        report(&format!("{name}: estimator"), games.len(), estimator);
        let whole: Vec<Timing> = (0..runs).map(|_| time_scoring(&games, &requests)).collect();
        report(&format!("{name}: scoring, 3 rulesets"), games.len(), whole);
    }
}
