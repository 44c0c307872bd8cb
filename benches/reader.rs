//! Throughput of kifu's streaming reader (`record::fast`) against the sgf-parse reader
//! (`record::sgf::read_game`) on the same decoded games, one thread, CPU time.
//!
//! ```text
//! cargo bench --bench reader                 # <shared corpus>/aeb-pro/Honinbo
//! cargo bench --bench reader -- FOLDER       # any folder of .sgf files (recursive)
//! cargo bench --bench reader -- --runs 21    # more repetitions (default 11)
//! cargo bench --bench reader -- --only fast  # the fast reader alone (for perf)
//! ```
//!
//! The games are split and decoded by the record layer before timing (the pipeline's own
//! path), so what is timed is reading alone: text to `GameRecord`. Time is the thread's CPU clock
//! (`CLOCK_THREAD_CPUTIME_ID`, in nanoseconds, so that other processes' load counts less; wall
//! time where there is none), median and best of the runs.
//!
//! Every run computes a checksum of the records (moves, setup, size, komi, handicap, rules,
//! result, properties, finding codes and move numbers). The bench fails when the fast reader's
//! checksum differs from sgf-parse's on the same games, and, on the default folder, when it
//! differs from the known value below: a reader that gets faster by reading wrong cannot pass.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

mod common;
use common::cpu_nanos;

use kifu::record::fast::{FastReader, read_game_fast};
use kifu::record::sgf::read_game;
use kifu::record::{GameRecord, ReadOptions, ReadStatus, TextEncoding, split_file};

/// Checksum of the 4,266 games of aeb-pro/Honinbo as read by both readers.
const HONINBO_CHECKSUM: u64 = 0x9959_2a67_5f76_858d;

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn shared_corpus() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    [
        std::env::var_os("KIFU_SHARED_CORPUS").map(PathBuf::from),
        Some(manifest.join("../shared/corpus")),
        Some(manifest.join("../../shared/corpus")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.join("README.md").is_file())
}

/// FNV-1a over the words fed to it: stable across Rust versions and platforms.
struct Fnv(u64);

impl Fnv {
    fn word(&mut self, w: u64) {
        for b in w.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }

    fn text(&mut self, s: &str) {
        self.word(s.len() as u64);
        for b in s.bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// What a record says, folded into a checksum (the read status left out: it names the reader).
fn fold(sum: &mut Fnv, record: &GameRecord) {
    let point =
        |p: Option<kifu::rules::Point>| p.map_or(0, |p| 1 + u64::from(p.x) * 64 + u64::from(p.y));
    sum.word(u64::from(record.size.width) << 8 | u64::from(record.size.height));
    for m in &record.moves {
        sum.word(point(m.mv.point()) << 1 | m.color.index() as u64);
    }
    for s in &record.setup {
        sum.word(point(Some(s.point)) << 2 | s.stone.map_or(3, |c| c.index() as u64));
    }
    sum.word(record.later_setup.len() as u64);
    sum.word(u64::from(record.handicap));
    sum.word(record.komi.points.to_bits());
    sum.text(record.rules.preset.map_or("custom", |p| p.name));
    sum.text(&record.result.outcome.map(|o| o.to_string()).unwrap_or_default());
    for (k, v) in &record.properties {
        sum.text(k);
        sum.text(v);
    }
    for f in &record.findings {
        sum.text(f.code.as_str());
        sum.word(u64::from(f.move_number));
    }
}

struct Timing {
    median: f64,
    best: f64,
}

fn time(runs: usize, mut f: impl FnMut() -> u64) -> (Timing, u64) {
    let origin = Instant::now();
    let mut samples = Vec::with_capacity(runs);
    let mut checksum = 0;
    for _ in 0..runs {
        let start = cpu_nanos(origin);
        checksum = black_box(f());
        samples.push((cpu_nanos(origin) - start) as f64 / 1e9);
    }
    samples.sort_by(f64::total_cmp);
    let median = samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN);
    (Timing { median, best: samples.first().copied().unwrap_or(f64::NAN) }, checksum)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(11usize);
    let only_fast = args.windows(2).any(|w| w[0] == "--only" && w[1] == "fast");
    let given = args.iter().enumerate().find(|(i, a)| {
        !a.starts_with('-') && (*i == 0 || (args[i - 1] != "--runs" && args[i - 1] != "--only"))
    });
    let (folder, default_folder) = match given {
        Some((_, f)) => (PathBuf::from(f), false),
        None => match shared_corpus() {
            Some(c) => (c.join("aeb-pro/Honinbo"), true),
            None => {
                println!(
                    "the shared corpus is absent (set KIFU_SHARED_CORPUS): nothing to measure"
                );
                return;
            }
        },
    };
    let options = ReadOptions::default();
    let mut games: Vec<(kifu::record::GameLocation, String, TextEncoding)> = Vec::new();
    for path in files(&folder) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let split = split_file(&path.display().to_string(), Arc::from(bytes), &options);
        for pending in split.games.iter().filter(|g| g.has_tree()) {
            let decoded = pending.decode(&options);
            games.push((pending.location.clone(), decoded.text.into_owned(), decoded.encoding));
        }
    }
    let bytes: usize = games.iter().map(|(_, t, _)| t.len()).sum();

    // The reference: sgf-parse, fewer runs (it is slow), and what the fast reader declines.
    let mut declined = 0usize;
    let mut moves = 0usize;
    let (slow, slow_sum) = time(if only_fast { 0 } else { runs.min(3) }, || {
        let mut sum = Fnv(0xcbf2_9ce4_8422_2325);
        moves = 0;
        for (location, text, encoding) in &games {
            let record = read_game(text, location.clone(), *encoding, &options);
            moves += record.moves.len();
            fold(&mut sum, &record);
        }
        sum.0
    });
    let mut reader = FastReader::default();
    let (fast, fast_sum) = time(runs, || {
        let mut sum = Fnv(0xcbf2_9ce4_8422_2325);
        declined = 0;
        for (location, text, encoding) in &games {
            let record = match reader.read(text, location.clone(), *encoding, &options.limits) {
                Ok(record) => record,
                Err(d) => {
                    declined += 1;
                    read_game(text, d.location, *encoding, &options)
                }
            };
            fold(&mut sum, &record);
        }
        sum.0
    });
    // The thread-local entry point the pipeline uses, for its overhead.
    let (entry, entry_sum) = time(runs, || {
        let mut sum = Fnv(0xcbf2_9ce4_8422_2325);
        for (location, text, encoding) in &games {
            let record = match read_game_fast(text, location.clone(), *encoding, &options.limits) {
                Ok(record) => {
                    debug_assert_eq!(record.status, ReadStatus::Fast);
                    record
                }
                Err(d) => read_game(text, d.location, *encoding, &options),
            };
            fold(&mut sum, &record);
        }
        sum.0
    });

    let n = games.len() as f64;
    println!(
        "folder: {} ({} games, {moves} moves, {:.1} MB)",
        folder.display(),
        games.len(),
        bytes as f64 / 1e6
    );
    println!(
        "checksum: fast {fast_sum:016x}, sgf-parse {slow_sum:016x}; fast reader declined {declined} games"
    );
    let line = |name: &str, t: &Timing| {
        println!(
            "{name:<26} median {:>8.1} ms CPU (best {:>8.1}): {:>9.0} games/s {:>11.0} moves/s {:>7.1} MB/s",
            t.median * 1e3,
            t.best * 1e3,
            n / t.median,
            moves as f64 / t.median,
            bytes as f64 / 1e6 / t.median
        )
    };
    line("sgf-parse reader", &slow);
    line("fast reader (own buffers)", &fast);
    line("fast reader (thread-local)", &entry);
    println!("speed-up: {:.1}x", slow.median / fast.median);
    assert_eq!(entry_sum, fast_sum, "the thread-local entry point read different records");
    if !only_fast {
        assert_eq!(fast_sum, slow_sum, "the fast reader and sgf-parse read different records");
    }
    if default_folder {
        assert_eq!(fast_sum, HONINBO_CHECKSUM, "the records of aeb-pro/Honinbo changed");
    }
}
