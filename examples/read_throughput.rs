//! Throughput of kifu's reading front end: split + decode (no parsing), one core.
//!
//! ```text
//! cargo run --release --example read_throughput -- ../shared/corpus
//! ```
//!
//! Reads every source first (timed apart: that is I/O), then splits each file into games and
//! decodes every game's text on one thread, and prints MB/s and games/s per CPU-second
//! (thread CPU time from `/proc/thread-self/schedstat` on Linux, wall time elsewhere), plus
//! what was found: games, charsets and how they were chosen, findings by code.

use std::collections::BTreeMap;
use std::time::Instant;

use kifu::record::{ReadOptions, Source, sources, split_source};

/// CPU time of this thread in seconds, if the platform says.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push("../shared/corpus".into());
    }
    let options = ReadOptions::default();

    let started = Instant::now();
    let loaded: Vec<Source> = sources(&paths, &options).collect();
    let read_seconds = started.elapsed().as_secs_f64();
    let bytes: usize = loaded.iter().map(|s| s.bytes.as_ref().map_or(0, |b| b.len())).sum();

    // Split every file first, then decode every game, timing the two apart.
    let wall = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let files: Vec<_> = loaded.iter().cloned().map(|s| split_source(s, &options)).collect();
    let cpu_split = thread_cpu_seconds();
    let mut games = 0usize;
    let mut stand_ins = 0usize;
    let mut encodings: BTreeMap<String, usize> = BTreeMap::new();
    let mut codes: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut decoded_bytes = 0usize;
    for file in &files {
        for finding in &file.findings {
            *codes.entry(finding.code.as_str()).or_default() += 1;
        }
        for game in &file.games {
            let decoded = game.decode(&options);
            decoded_bytes += decoded.text.len();
            for finding in &decoded.findings {
                *codes.entry(finding.code.as_str()).or_default() += 1;
            }
            if !game.has_tree() {
                stand_ins += 1;
                continue;
            }
            games += 1;
            let key = format!("{} ({:?})", decoded.encoding.name, decoded.encoding.origin);
            *encodings.entry(key).or_default() += 1;
        }
    }
    let cpu_end = thread_cpu_seconds();
    let wall = wall.elapsed().as_secs_f64();
    let (split_s, decode_s) = match (cpu_start, cpu_split, cpu_end) {
        (Some(a), Some(b), Some(c)) => (b - a, c - b),
        _ => (wall, 0.0),
    };
    let total = split_s + decode_s;
    let mb = bytes as f64 / 1e6;
    println!("sources: {} ({mb:.1} MB), read in {read_seconds:.2} s", loaded.len());
    println!("games: {games} (+{stand_ins} stand-ins for sources without a game)");
    println!("decoded text: {:.1} MB", decoded_bytes as f64 / 1e6);
    println!("split:  {split_s:.3} CPU-s, {:.0} MB/CPU-s", mb / split_s);
    println!("decode: {decode_s:.3} CPU-s, {:.0} MB/CPU-s", mb / decode_s);
    println!(
        "split + decode: {total:.3} CPU-s, {:.0} MB/CPU-s, {:.0} games/CPU-s (wall {wall:.3} s)",
        mb / total,
        games as f64 / total,
    );
    println!("charsets:");
    for (key, n) in &encodings {
        println!("  {n:>8}  {key}");
    }
    println!("findings:");
    for (code, n) in &codes {
        println!("  {n:>8}  {code}");
    }
}
