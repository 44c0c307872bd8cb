//! Throughput of the sgf-parse reader: `read_game` over every game of a folder, preloaded into
//! memory, on one thread. Reports games and moves per second of CPU time (the thread's user +
//! system time from `/proc/thread-self/stat`, which load on a shared machine affects far less
//! than wall time), best of five runs, and a checksum of what was read so that a fast wrong
//! reader cannot pass unnoticed.
//!
//! ```text
//! cargo bench --bench record_sgf -- [FOLDER]   # default: <shared corpus>/aeb-pro/Honinbo
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use kifu::record::sgf::{count_nodes_with_sgf_parse, read_game};
use kifu::record::{CharsetOrigin, GameLocation, ReadOptions, TextEncoding};

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

/// CPU seconds (user + system) used so far by this thread.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = [
        std::env::var_os("KIFU_SHARED_CORPUS").map(PathBuf::from),
        Some(manifest.join("../shared/corpus")),
        Some(manifest.join("../../shared/corpus")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_dir())
    .unwrap_or_else(|| manifest.join("../shared/corpus"));
    let given = std::env::args().skip(1).find(|a| !a.starts_with('-')).map(PathBuf::from);
    let default_folder = given.is_none();
    let folder = given.unwrap_or_else(|| corpus.join("aeb-pro/Honinbo"));
    if !folder.is_dir() {
        println!("{} not found: nothing to measure", folder.display());
        return;
    }
    let texts: Vec<(String, String)> = files(&folder)
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            Some((p.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()))
        })
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    let options = ReadOptions::default();
    let baseline = sgf_parse_alone(&texts);
    let mut best: Option<(f64, f64)> = None;
    let mut checksum = 0u64;
    let mut moves = 0usize;
    for _ in 0..5 {
        let (cpu0, wall0) = (thread_cpu_seconds(), Instant::now());
        moves = 0;
        checksum = 0;
        for (source, text) in &texts {
            let location = GameLocation { source: source.clone(), game: 1, offset: 0, line: 1 };
            let record = read_game(text, location, encoding, &options);
            moves += record.moves.len();
            for m in &record.moves {
                let p = m.mv.point().map_or(0, |p| 1 + p.x as u64 * 64 + p.y as u64);
                checksum = checksum.wrapping_mul(31).wrapping_add(p);
            }
            checksum = checksum.wrapping_add(record.findings.len() as u64);
        }
        let wall = wall0.elapsed().as_secs_f64();
        let cpu = match (cpu0, thread_cpu_seconds()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => wall,
        };
        if best.is_none_or(|(c, _)| cpu < c) {
            best = Some((cpu, wall));
        }
    }
    let (cpu, wall) = best.unwrap_or((f64::NAN, f64::NAN));
    let games = texts.len();
    println!("folder: {}", folder.display());
    println!(
        "{games} games, {moves} moves, {:.1} MB; checksum {checksum:016x}",
        bytes as f64 / 1e6
    );
    println!("best of 5: {cpu:.2} s CPU ({wall:.2} s wall), one thread");
    println!(
        "read_game:        {:.0} games/s, {:.0} moves/s, {:.1} MB/s per core (CPU time)",
        games as f64 / cpu,
        moves as f64 / cpu,
        bytes as f64 / 1e6 / cpu
    );
    println!(
        "sgf-parse alone:  {:.0} games/s, {:.0} moves/s, {:.1} MB/s per core (parse + teardown, best of 5)",
        games as f64 / baseline,
        moves as f64 / baseline,
        bytes as f64 / 1e6 / baseline
    );
    if default_folder {
        assert_eq!(checksum, HONINBO_CHECKSUM, "the records of aeb-pro/Honinbo changed");
    }
}

/// Checksum of the 4,266 games of aeb-pro/Honinbo as `read_game` reads them.
const HONINBO_CHECKSUM: u64 = 0xa26e_c5ac_3028_4e05;

/// CPU seconds, best of five, for sgf-parse's strict parse and an iterative teardown alone: the
/// floor under `read_game` on this path.
fn sgf_parse_alone(texts: &[(String, String)]) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = thread_cpu_seconds();
        let wall = Instant::now();
        let mut nodes = 0;
        for (_, text) in texts {
            nodes += count_nodes_with_sgf_parse(text).unwrap_or(0);
        }
        std::hint::black_box(nodes);
        let cpu = match (start, thread_cpu_seconds()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => wall.elapsed().as_secs_f64(),
        };
        best = best.min(cpu);
    }
    best
}
