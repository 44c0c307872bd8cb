//! Seeded damage to every quirk fixture: characters that matter to SGF inserted, deleted and
//! replaced at random. Whatever the damage, reading must not panic, kifu's scan must see the
//! nodes sgf-parse sees, and every value sgf-parse rejects must be reported by the interpreter
//! itself (so that a reader without sgf-parse reports it too).

mod util;

use kifu::record::sgf::read_game;
use kifu::record::{CharsetOrigin, GameLocation, ReadOptions, TextEncoding};

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

/// Characters that change how SGF reads: structure, escapes, separators, letters of both
/// cases, digits, spaces, and multi-byte characters.
const PALETTE: &[char] = &[
    '(', ')', ';', '[', ']', '\\', ':', ' ', '\n', 'a', 't', 'z', 'A', 'B', 'W', 'K', 'M', 'S',
    'Z', 'H', '0', '1', '9', '.', ',', '-', '+', '黑', 'é',
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        let c = PALETTE[rng.below(PALETTE.len())];
        match rng.below(3) {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn damaged_fixtures_read_without_panic_or_disagreement() {
    let paths = util::sgf_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/cases/quirks"),
    );
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    let mut rng = Rng(0x6b69_6675_2d73_6766);
    let mut read = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        for _ in 0..150 {
            let damaged = mutate(&text, &mut rng);
            let location = GameLocation { source: "mutant".into(), game: 1, offset: 0, line: 1 };
            let record = read_game(&damaged, location, encoding, &ReadOptions::default());
            for f in &record.findings {
                assert!(
                    !f.message.contains("sgf-parse rejects") && !f.message.contains("disagree"),
                    "{}: {f}\n{damaged}",
                    path.display()
                );
            }
            read += 1;
        }
    }
    assert_eq!(read, paths.len() * 150);
}
