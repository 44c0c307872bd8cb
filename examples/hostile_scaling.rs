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
//! CPU time is this thread's (its CPU clock, `CLOCK_THREAD_CPUTIME_ID`; wall time where there is
//! none), so the machine's load matters little. Memory is not measured here: run one shape under
//! `/usr/bin/time -v` for its peak RSS, or see `scripts/hostile-check`.

use std::sync::Arc;
use std::time::Instant;

use kifu::record::{ReadOptions, split_file};

/// CPU seconds of this thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), or wall seconds since
/// `origin` where there is no such clock.
fn cpu_seconds(origin: Instant) -> f64 {
    #[cfg(unix)]
    {
        let _ = origin;
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        now.tv_sec as f64 + now.tv_nsec as f64 / 1e9
    }
    #[cfg(not(unix))]
    {
        origin.elapsed().as_secs_f64()
    }
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

/// `head`, then `unit` repeated to about `bytes`, then `tail`.
fn framed(head: &[u8], unit: &[u8], bytes: usize, tail: &[u8]) -> Vec<u8> {
    [head, &repeat_to(unit, bytes), tail].concat()
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
        make: |n| framed(b"(;GM[1]C[", b"\n(;GM[", n, b""),
    },
    Shape {
        name: "recovery-collection",
        attacks: "recovery: the first game lost its `)`, so it swallows the whole collection",
        make: |n| framed(b"(;GM[1]PB[first];B[aa]\n", GAME, n, b""),
    },
    Shape {
        name: "ca-labels",
        attacks: "charset sniffing: a `CA[...]` with an unknown label every 10 bytes",
        make: |n| framed(b"(;GM[1]C[\xff]", b"CA[x-ab]", n, b")"),
    },
    Shape {
        name: "gbk-trail-brackets",
        attacks: "the double-byte scanner's look past a trail `]` (lead byte, `]`, capitals)",
        make: |n| framed(b"(;GM[1]CA[gbk]C[", b"\x81]ABCDEFGHIJKLMNOPQRSTUVWXYZ ", n, b"])"),
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
        make: |n| framed(b"(;GM[1]C[", b"\\]", n, b"])"),
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
    replay_scaling(filter, origin);
}

/// A small fixed generator (xorshift64*), so that every run plays the same moves.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

/// The replay of one game of N moves (a record's main line) through the rules core, tolerant
/// as records are replayed, at doubling N: random moves on 19x19 and 52x52 (captures, occupied
/// points, superko checks confirmed by rebuilding positions) and a ko retaken forever (a
/// repetition at every move).
fn replay_scaling(filter: &str, origin: Instant) {
    use kifu::rules::{BoardSize, Color, Game, Move, Point, preset};
    let Some(chinese) = preset("chinese") else { return };
    // A ko in the corner: Black takes at C2 (2,1), White retakes at B2 (1,1), and so on.
    const KO_START: [(u8, u8); 8] =
        [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2), (2, 2), (3, 3), (3, 1)];
    /// Where the i-th move of a shape goes on a board of a given side.
    type NextPoint = fn(&mut Rng, usize, u8) -> (u8, u8);
    let shapes: [(&str, u8, NextPoint); 3] = [
        ("replay-random-19x19", 19, |rng, _, side| {
            (rng.below(u64::from(side)) as u8, rng.below(u64::from(side)) as u8)
        }),
        ("replay-random-52x52", 52, |rng, _, side| {
            (rng.below(u64::from(side)) as u8, rng.below(u64::from(side)) as u8)
        }),
        ("replay-ko-retaken", 19, |_, i, _| match KO_START.get(i) {
            Some(&p) => p,
            None if i % 2 == 0 => (2, 1),
            None => (1, 1),
        }),
    ];
    let sizes = [100_000usize, 200_000, 400_000, 800_000, 1_600_000];
    println!("\n{:<26}", "replay (CPU ns per move)");
    print!("{:<26}", "shape");
    for n in sizes {
        print!(" {:>9}", format!("{}k", n / 1000));
    }
    println!(" {:>8}", "ratio");
    for (name, side, point) in shapes.iter().filter(|(n, _, _)| n.contains(filter)) {
        print!("{name:<26}");
        let mut per_k = Vec::new();
        for n in sizes {
            let Some(size) = BoardSize::square(*side) else { return };
            let mut game = Game::new(size, chinese.ruleset);
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            let start = cpu_seconds(origin);
            for i in 0..n {
                let (x, y) = point(&mut rng, i, *side);
                let color = if i % 2 == 0 { Color::Black } else { Color::White };
                std::hint::black_box(game.play_tolerant(color, Move::Play(Point::new(x, y))));
            }
            let ns = (cpu_seconds(origin) - start) * 1e9 / n as f64;
            per_k.push(ns);
            print!(" {ns:>9.0}");
        }
        let ratio = per_k.last().copied().unwrap_or(0.0) / per_k[0].max(1.0);
        println!(" {ratio:>8.2}");
    }
}
