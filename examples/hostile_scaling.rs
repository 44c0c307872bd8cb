//! Time and memory of the reading path on hostile shapes of doubling size: linear or not?
//!
//! ```text
//! cargo run --release --example hostile_scaling                 # 1, 2, 4, 8, 16 MB
//! cargo run --release --example hostile_scaling -- 64 shape    # up to 64 MB, shapes matching
//! cargo run --release --example hostile_scaling -- 64 "" default  # with the default limits
//! ```
//!
//! For each shape of input (a normal collection as the baseline, then inputs built to make a
//! scanner look at the same bytes again and again: candidate roots whose value never closes,
//! recovery over a collection that lost one `)`, thousands of `CA[...]` labels, double-byte
//! trail bytes before long identifiers, deep nesting, junk between tiny trees, ...), it times
//! `split_file` (the sequential part: charset preparation and the splitter) and `read` of every
//! game (decoding, the limit check and the SGF adapter) on one thread, at sizes 1, 2, 4, ...
//! MB, and prints the CPU time per MB. Linear time shows as a flat column; the last column is
//! the ratio of the largest size's time per MB to the smallest's.
//!
//! CPU time is this thread's (from `/proc/thread-self/schedstat`, wall time elsewhere), so the
//! machine's load matters little. Memory is not measured here: run one shape under
//! `/usr/bin/time -v` for its peak RSS, or see `scripts/hostile-check`.

use std::sync::Arc;
use std::time::Instant;

use kifu::record::{ReadOptions, split_file};

/// CPU seconds of this thread, or wall seconds since `origin` where the platform does not say.
fn cpu_seconds(origin: Instant) -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok();
    let ns = stat.and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()));
    ns.map_or_else(|| origin.elapsed().as_secs_f64(), |ns| ns / 1e9)
}

/// A shape: a name, what it attacks, and a generator of about `bytes` bytes.
struct Shape {
    name: &'static str,
    attacks: &'static str,
    make: fn(usize) -> Vec<u8>,
}

fn repeat_to(unit: &[u8], bytes: usize) -> Vec<u8> {
    unit.repeat(bytes.div_ceil(unit.len()).max(1))
}

const GAME: &[u8] = b"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]PB[Honinbo Shuei]PW[Ishida Shusaku]\
RE[B+2.5]C[A game from the collection, with a short comment in it.]\n\
;B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[jp];W[qj];B[qh];W[qm];B[nc];W[cf]\n\
;B[oq];W[ef];B[qp];W[ql];B[gd];W[lc];B[fc];W[dc];B[nd];W[jd];B[je];W[ke])\n";

const SHAPES: &[Shape] = &[
    Shape {
        name: "collection",
        attacks: "nothing: the baseline, a collection of ordinary games",
        make: |n| repeat_to(GAME, n),
    },
    Shape {
        name: "one-line-collection",
        attacks: "line counting: the same games without a line break",
        make: |n| repeat_to(&GAME.iter().copied().filter(|&b| b != b'\n').collect::<Vec<_>>(), n),
    },
    Shape {
        name: "junk-roots-unclosed",
        attacks: "the splitter's look for a root node after each `;` in junk (`;GM[` never closed)",
        make: |n| repeat_to(b";GM[", n),
    },
    Shape {
        name: "recovery-roots-unclosed",
        attacks: "recovery inside an unclosed tree: a candidate root on every line",
        make: |n| {
            let mut v = b"(;GM[1]C[".to_vec();
            v.extend(repeat_to(b"\n(;GM[", n));
            v
        },
    },
    Shape {
        name: "recovery-collection",
        attacks: "recovery: the first game lost its `)`, so it swallows the whole collection",
        make: |n| {
            let mut v = b"(;GM[1]PB[first];B[aa]\n".to_vec();
            v.extend(repeat_to(GAME, n));
            v
        },
    },
    Shape {
        name: "ca-labels",
        attacks: "charset sniffing: a `CA[...]` with an unknown label every 10 bytes",
        make: |n| {
            let mut v = b"(;GM[1]C[\xff]".to_vec();
            v.extend(repeat_to(b"CA[x-ab]", n));
            v.extend(b")");
            v
        },
    },
    Shape {
        name: "gbk-trail-brackets",
        attacks: "the double-byte scanner's look past a trail `]` (lead byte, `]`, capitals)",
        make: |n| {
            let mut v = b"(;GM[1]CA[gbk]C[".to_vec();
            v.extend(repeat_to(b"\x81]ABCDEFGHIJKLMNOPQRSTUVWXYZ ", n));
            v.extend(b"])");
            v
        },
    },
    Shape {
        name: "nested-unclosed",
        attacks: "nesting: `(;` repeated, never closed",
        make: |n| repeat_to(b"(;B[aa]", n),
    },
    Shape {
        name: "parens",
        attacks: "tree starts: `(` repeated, no tree ever starts",
        make: |n| repeat_to(b"( ", n),
    },
    Shape {
        name: "junk-between-tiny-trees",
        attacks: "junk findings: a junk byte before every `(;)`",
        make: |n| repeat_to(b"x(;)", n),
    },
    Shape {
        name: "invalid-utf8",
        attacks: "charset detection: invalid UTF-8 in every value",
        make: |n| repeat_to(b"(;GM[1]PB[\xff\xfe\xfd]C[\xc0\x80 \x80\x80 \xe5\x3f];B[pd])\n", n),
    },
    Shape {
        name: "escapes",
        attacks: "escaped brackets: `\\]` repeated in one value",
        make: |n| {
            let mut v = b"(;GM[1]C[".to_vec();
            v.extend(repeat_to(b"\\]", n));
            v.extend(b"])");
            v
        },
    },
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let largest_mb: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(16);
    let filter = args.get(1).map(String::as_str).unwrap_or("");
    let sizes: Vec<usize> = std::iter::successors(Some(1usize), |s| Some(s * 2))
        .take_while(|&s| s <= largest_mb)
        .collect();
    // The limits are lifted so that the full cost of each shape is measured, not a refusal,
    // unless the third argument is `default`.
    let mut options = ReadOptions::default();
    if args.get(2).map(String::as_str) != Some("default") {
        options
            .limits
            .apply("games=none,nodes=none,depth=none,value-length=none")
            .expect("valid limit settings");
    }
    let origin = Instant::now();
    print!("{:<26}", "shape (CPU ms per MB)");
    for mb in &sizes {
        print!(" {:>13}", format!("{mb} MB"));
    }
    println!(" {:>8}  games at the largest size", "ratio");
    for shape in SHAPES.iter().filter(|s| s.name.contains(filter)) {
        print!("{:<26}", shape.name);
        let mut per_mb = Vec::new();
        let mut games = 0;
        for &mb in &sizes {
            let bytes: Arc<[u8]> = Arc::from((shape.make)(mb << 20));
            let megabytes = bytes.len() as f64 / f64::from(1 << 20);
            let start = cpu_seconds(origin);
            let file = split_file(shape.name, bytes, &options);
            let split = cpu_seconds(origin);
            for game in &file.games {
                std::hint::black_box(game.read(&options));
            }
            let read = cpu_seconds(origin);
            games = file.games.len();
            per_mb.push((read - start) * 1e3 / megabytes);
            print!(
                " {:>13}",
                format!(
                    "{:.1}+{:.1}",
                    (split - start) * 1e3 / megabytes,
                    (read - split) * 1e3 / megabytes
                )
            );
        }
        let ratio = per_mb.last().copied().unwrap_or(0.0)
            / per_mb.first().copied().unwrap_or(1.0).max(1e-9);
        println!(" {ratio:>8.2}  {games}");
        println!("{:<26}   ({})", "", shape.attacks);
    }
    println!("\neach cell: split + read, CPU ms per MB of input; ratio: largest / smallest size");
}
