//! The streaming reader (`record::fast`) against the sgf-parse reader (`record::sgf`): on every
//! game both read, the two records must be equal in everything but `status` (`fast` and
//! `strict`), findings included; and where the fast reader declines, the game must still be read
//! (by sgf-parse, through `fast::read_game`).
//!
//! - every fixture of the bundled `corpus/` (hand-written quirks, charsets, collections, the
//!   oracles' games, the generated games);
//! - the quirk fixtures and a sample of generated games under seeded damage: SGF's special
//!   characters inserted, deleted and replaced at random, the approach of
//!   `tests/record_sgf_mutations.rs`;
//! - a sample of the shared corpus (a few hundred files from each folder), skipped with a
//!   message when it is absent;
//! - the whole shared corpus, behind `#[ignore]` (about 95,000 games; a minute or two in
//!   release):
//!
//! ```text
//! cargo test --release --test record_fast -- --ignored --nocapture
//! ```

mod util;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use util::{sgf_files, shared_corpus};

use kifu::record::fast::{Decline, read_game_fast};
use kifu::record::sgf::read_game;
use kifu::record::{
    CharsetOrigin, GameLocation, GameRecord, Limits, ReadOptions, ReadStatus, TextEncoding,
    split_file,
};

/// What a comparison found over many games.
#[derive(Debug, Default)]
struct Tally {
    /// Games read by both readers, with equal records.
    same: usize,
    /// Games the fast reader declined, by reason.
    declined: Vec<(Decline, usize)>,
    /// Moves in the games read by both.
    moves: usize,
    /// Differences, as messages naming the game.
    differences: Vec<String>,
}

impl Tally {
    fn declined(&self) -> usize {
        self.declined.iter().map(|(_, n)| n).sum()
    }

    fn decline(&mut self, reason: Decline) {
        match self.declined.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => self.declined.push((reason, 1)),
        }
    }

    fn assert_no_difference(&self, what: &str) {
        eprintln!(
            "{what}: {} games read alike by both readers ({} moves); fast reader declined {} {:?}",
            self.same,
            self.moves,
            self.declined(),
            self.declined
        );
        assert!(
            self.differences.is_empty(),
            "{} differences, the first:\n{}",
            self.differences.len(),
            self.differences.iter().take(3).cloned().collect::<Vec<_>>().join("\n\n")
        );
    }
}

/// Reads `text` with both readers and records how they compare. Records are compared through
/// their `Debug` text, so that a komi read as NaN compares equal to itself.
fn compare(text: &str, location: GameLocation, encoding: TextEncoding, tally: &mut Tally) {
    let options = ReadOptions::default();
    let reference = read_game(text, location.clone(), encoding, &options);
    match read_game_fast(text, location.clone(), encoding, &Limits::NONE) {
        Ok(mut fast) => {
            let mut problems = Vec::new();
            // The interpreter fails a game that is not Go whoever read it; otherwise each
            // reader names itself.
            match (fast.status, reference.status) {
                (ReadStatus::Fast, ReadStatus::Strict)
                | (ReadStatus::Failed, ReadStatus::Failed) => {}
                (mine, theirs) => problems
                    .push(format!("read {mine:?} by the fast reader, {theirs:?} by sgf-parse")),
            }
            fast.status = reference.status;
            if format!("{fast:?}") != format!("{reference:?}") {
                problems.push(describe_difference(&fast, &reference));
            }
            if problems.is_empty() {
                tally.same += 1;
                tally.moves += fast.moves.len();
            } else {
                tally.differences.push(format!(
                    "{} game {}: {}\n{}",
                    location.source,
                    location.game,
                    problems.join("; "),
                    excerpt(text)
                ));
            }
        }
        Err(declined) => {
            assert_eq!(declined.location, location, "a declined game gives its location back");
            tally.decline(declined.reason);
            // The reader the pipeline uses still reads it: through sgf-parse, the same record.
            let through = kifu::record::fast::read_game(text, location, encoding, &options);
            if format!("{through:?}") != format!("{reference:?}") {
                tally.differences.push(format!(
                    "{}: fast::read_game differs from sgf::read_game after declining",
                    excerpt(text)
                ));
            }
        }
    }
}

/// The first field that differs, for a readable failure.
fn describe_difference(fast: &GameRecord, reference: &GameRecord) -> String {
    macro_rules! field {
        ($($f:ident),*) => {
            $(if format!("{:?}", fast.$f) != format!("{:?}", reference.$f) {
                return format!(
                    "{} differs:\n  fast:      {:?}\n  sgf-parse: {:?}",
                    stringify!($f), fast.$f, reference.$f
                );
            })*
        };
    }
    field!(
        location,
        encoding,
        size,
        setup,
        later_setup,
        to_move,
        moves,
        handicap,
        handicap_implied,
        komi,
        rules,
        result,
        markup,
        properties,
        findings
    );
    "the records differ".to_string()
}

fn excerpt(text: &str) -> String {
    let cut = text.char_indices().nth(300).map_or(text.len(), |(i, _)| i);
    format!("{}{}", &text[..cut], if cut < text.len() { "…" } else { "" })
}

/// Every game of a file as the pipeline would read it: split, decoded, then both readers.
fn compare_file(name: &str, bytes: Vec<u8>, tally: &mut Tally) {
    let options = ReadOptions::default();
    let split = split_file(name, Arc::from(bytes), &options);
    for pending in split.games.iter().filter(|g| g.has_tree()) {
        let decoded = pending.decode(&options);
        compare(&decoded.text, pending.location.clone(), decoded.encoding, tally);
    }
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const UTF8: TextEncoding =
    TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };

#[test]
fn every_bundled_fixture_reads_alike() {
    let mut tally = Tally::default();
    let files = sgf_files(&manifest().join("corpus"));
    assert!(files.len() > 250, "the bundled corpus is missing: {} files", files.len());
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        compare_file(&path.display().to_string(), bytes, &mut tally);
    }
    tally.assert_no_difference("bundled corpus");
    // The generated games are plain FF[4]: the fast reader must read them, not decline them.
    assert!(tally.same >= 200, "the fast reader read only {} games", tally.same);
}

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Characters that change how SGF reads (as in `record_sgf_mutations.rs`), plus whitespace
/// kinds the lexers treat differently (form feed is ASCII whitespace, vertical tab is not,
/// no-break space is Unicode whitespace) and a byte-order mark.
const PALETTE: &[char] = &[
    '(', ')', ';', '[', ']', '\\', ':', ' ', '\n', '\r', '\t', '\u{c}', '\u{b}', '\u{a0}',
    '\u{feff}', 'a', 't', 'z', 'A', 'B', 'W', 'G', 'M', 'K', 'S', 'Z', 'H', 'P', 'L', '0', '1',
    '9', '.', ',', '-', '+', '黑', 'é',
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        let c = PALETTE[rng.below(PALETTE.len())];
        match rng.below(4) {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at + 1 < chars.len() => chars.swap(at, at + 1),
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn damaged_fixtures_read_alike() {
    let mut paths = sgf_files(&manifest().join("corpus/cases/quirks"));
    paths.extend(sgf_files(&manifest().join("corpus/cases/oracles")));
    // A few generated games: long main lines with variations and comments.
    paths.extend(sgf_files(&manifest().join("corpus/generated/19x19")).into_iter().step_by(50));
    paths.extend(sgf_files(&manifest().join("corpus/generated/illegal")));
    let mut rng = Rng(0x6661_7374_2d72_6561);
    let mut tally = Tally::default();
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for _ in 0..30 {
            let damaged = mutate(&text, &mut rng);
            let location = GameLocation { source: "mutant".into(), game: 1, offset: 0, line: 1 };
            compare(&damaged, location, UTF8, &mut tally);
        }
    }
    tally.assert_no_difference("damaged fixtures");
    // Damage the fast reader takes in its stride (a changed letter, extra spaces) must be
    // common, or this test compares nothing.
    assert!(tally.same > tally.declined() / 4, "{tally:?}");
}

/// Hand-made texts at the edges of the fast reader's subset, each read alike or declined.
#[test]
fn edges_of_the_subset_read_alike() {
    let texts = [
        "(;GM[1]FF[4]SZ[19];B[pd];W[dp])",
        "(;B[pd](;W[dp])(;W[dd];B[pp]))",
        "(;B[pd](;W[dp](;B[aa])(;B[bb]))(;W[dd]))",
        "(;B[pd]\n(\n;W[dp]\n)\n(\n;W[dd]\n)\n)",
        "(;GM [2];B[pd])",
        "(;GM[1] ;B[pd])",
        "(;GM[1][1];B[pd])",
        "(;GM[01];B[pd])",
        "(;GM[1]GM[1];B[pd])",
        "(;B[pd]W[dp])",
        "(;B[pd];B[pd];W[])",
        "(;B[tt];W[TT];B[zz];W[aA])",
        "(;SZ[25];B[tt])",
        "(;AB[aa:cc][dd]AW[ee]PL[W];W[ff])",
        "(;B[pd]C[a\\]b\\\\c]N[x\\\ny];W[dp])",
        "(;C[\\]];B[\\p\\d])",
        "(;B[p\\d])",
        "(;B [pd];W\t[dp]\u{c};B[qq])",
        "(;KM[6.5]RE[B+R]RU[Japanese]PB[黑]PW[白];B[pd])",
        "(;KM[nan];B[pd])",
        "(;TB[aa][bb]TW[cc];B[];W[])",
        "(;B[pd];TB[aa]TW[bb])",
        "(;B[pd];W[dp]TB[aa];C[after the marks])",
        "(;B[pd]AB[dd];W[])",
        "(;AddBlack[aa]B[pd])",
        "(;Bx[pd])",
        "(;b[pd];w[dp])",
        "(;B[pd];;W[dp])",
        "(;B[]C[];W[]C[])",
        "(;)",
        "(;B[pd](;W[dp]))",
        "(;B[pd]\u{b};W[dp])",
    ];
    let mut tally = Tally::default();
    for text in texts {
        let location = GameLocation { source: "edge".into(), game: 1, offset: 0, line: 1 };
        compare(text, location, UTF8, &mut tally);
    }
    tally.assert_no_difference("edges");
    assert!(tally.same >= 25, "{tally:?}");
}

/// The first `per_folder` files of each folder of the shared corpus (sorted by path).
fn sample(corpus: &Path, per_folder: usize) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(corpus)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    folders.sort();
    folders.iter().flat_map(|f| sgf_files(f).into_iter().take(per_folder)).collect()
}

#[test]
fn a_sample_of_the_shared_corpus_reads_alike() {
    let Some(corpus) = shared_corpus() else {
        eprintln!("skipped: the shared corpus is absent (set KIFU_SHARED_CORPUS)");
        return;
    };
    let mut tally = Tally::default();
    for path in sample(&corpus, 40) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        // Multi-game collections of megabytes: a few of their games are enough here.
        if bytes.len() > 1 << 20 {
            continue;
        }
        compare_file(&path.display().to_string(), bytes, &mut tally);
    }
    tally.assert_no_difference("shared corpus sample");
    assert!(tally.same > 200, "{tally:?}");
}

/// The whole shared corpus: run with
/// `cargo test --release --test record_fast -- --ignored --nocapture`.
#[test]
#[ignore = "the whole shared corpus: about 95,000 games through both readers; run in release"]
fn the_whole_shared_corpus_reads_alike() {
    let Some(corpus) = shared_corpus() else {
        eprintln!("skipped: the shared corpus is absent (set KIFU_SHARED_CORPUS)");
        return;
    };
    // sgf-parse frees its trees recursively: a deep stack for the deepest games.
    let worker = std::thread::Builder::new().stack_size(1 << 30).spawn(move || {
        let mut tally = Tally::default();
        for path in sgf_files(&corpus) {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            compare_file(&path.display().to_string(), bytes, &mut tally);
        }
        tally
    });
    let tally = worker.expect("a thread").join().expect("the comparison ran");
    tally.assert_no_difference("whole shared corpus");
    assert!(tally.same > 90_000, "{tally:?}");
}
