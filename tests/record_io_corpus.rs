//! The record layer's input side over the shared corpus of real files (`../shared/corpus`,
//! never copied into the repository). Every test skips with a message when the corpus is
//! absent, so a fresh clone still passes.
//!
//! The default suite looks at the parser test files, the Tom collections and a slice of the
//! Fox and aeb folders (about 5 MB, well under a second of splitting). The whole corpus
//! (about 77k files, 134 MB) is behind `#[ignore]`:
//!
//! ```text
//! cargo test --release --test record_io_corpus -- --ignored --nocapture
//! ```

mod util;

use std::path::Path;

use kifu::finding::Code;
use kifu::record::{ReadOptions, Source, sources, split_source};
use util::sgf_property;

/// A deliberately different count of top-level game trees: one byte at a time, no memchr,
/// no recovery, no charset knowledge. A tree starts at a `(` outside every tree whose next
/// non-blank byte is `;`. Only trusted where its assumptions hold (see `check_counts`).
fn naive_tree_count(bytes: &[u8]) -> usize {
    let (mut depth, mut in_value, mut escaped, mut trees) = (0usize, false, false, 0);
    for (i, &b) in bytes.iter().enumerate() {
        if in_value {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b']') => in_value = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'[' if depth > 0 => in_value = true,
            b'(' if depth > 0 => depth += 1,
            b'(' => {
                let next = bytes[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
                if next == Some(&b';') {
                    trees += 1;
                    depth = 1;
                }
            }
            b')' if depth > 0 => depth -= 1,
            _ => {}
        }
    }
    trees
}

#[derive(Default, Debug)]
struct Tally {
    sources: usize,
    games: usize,
    stand_ins: usize,
    compared: usize,
    repaired: usize,
}

/// Splits every source; checks that every source gives at least one game, that only stand-ins
/// lack a tree, and that clean UTF-8 files hold exactly the trees the naive counter finds.
fn check_counts(sources: impl Iterator<Item = Source>) -> Tally {
    let options = ReadOptions::default();
    let mut tally = Tally::default();
    for source in sources {
        tally.sources += 1;
        let name = source.name.clone();
        let bytes = source.bytes.clone().ok();
        let file = split_source(source, &options);
        assert!(!file.games.is_empty(), "{name}: no game and no stand-in");
        let trees = file.games.iter().filter(|g| g.has_tree()).count();
        if trees == 0 {
            assert_eq!(file.games.len(), 1, "{name}: one stand-in");
            tally.stand_ins += 1;
            continue;
        }
        assert_eq!(trees, file.games.len(), "{name}: stand-ins only for files without a tree");
        tally.games += trees;
        for (i, game) in file.games.iter().enumerate() {
            assert_eq!(game.location.game as usize, i + 1, "{name}: games numbered in order");
        }
        let framing_repaired = file.games.iter().any(|g| {
            let findings = g.decode(&options).findings;
            findings.iter().any(|f| matches!(f.code, Code::Unclosed | Code::Syntax))
        });
        tally.repaired += usize::from(framing_repaired);
        let Some(bytes) = bytes else { continue };
        if !framing_repaired && std::str::from_utf8(&bytes).is_ok() {
            tally.compared += 1;
            assert_eq!(trees, naive_tree_count(&bytes), "{name}: game count");
        }
    }
    tally
}

#[test]
fn corpus_collections_split_into_the_independently_counted_games() {
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let options = ReadOptions::default();
    let inputs = [corpus.join("parser-tests"), corpus.join("tom-9d/2008-07.sgf")];
    // A slice of the one-game-per-file folders: Fox (damaged UTF-8) and aeb (ASCII).
    let slices = ["fox-pro/Pro/9p", "aeb-pro/Kisei"]
        .into_iter()
        .flat_map(|folder| sources([corpus.join(folder)], &options).take(300));
    let tally = check_counts(sources(&inputs, &options).chain(slices));
    eprintln!("{tally:?}");
    assert!(tally.games > 1000, "a Tom collection alone holds more than a thousand: {tally:?}");
    assert!(tally.compared > 400, "{tally:?}");
}

#[test]
#[ignore = "whole shared corpus: run with --release (command in the module docs)"]
fn every_file_of_the_corpus_is_accounted_for() {
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let tally = check_counts(sources([&corpus], &ReadOptions::default()));
    eprintln!("{tally:?}");
    assert!(tally.games > 90_000, "{tally:?}");
}

/// Expected (identifier, value) pairs.
type Properties = &'static [(&'static str, &'static str)];

/// The decoded text of each game of one corpus file, with its charset name.
fn decoded_games(path: &Path) -> Vec<(String, &'static str)> {
    let options = ReadOptions::default();
    sources([path], &options)
        .flat_map(|source| split_source(source, &options).games)
        .map(|game| {
            let decoded = game.decode(&options);
            (decoded.text.into_owned(), decoded.encoding.name)
        })
        .collect()
}

#[test]
fn parser_test_samples_decode_to_the_right_player_names() {
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let sabaki = corpus.join("parser-tests/sabaki_sgf/tests/sgf");
    // Expected values from SabakiHQ/sgf's own tests (parse.test.js, encoding.test.js) and,
    // for the names its tests do not check, the file decoded with iconv.
    let cases: &[(&str, &str, Properties)] = &[
        ("chinese.sgf", "GBK", &[("PB", "古力"), ("PW", "柯洁"), ("C", "围棋 is fun")]),
        (
            "japanese.sgf",
            "Shift_JIS",
            &[("PB", "井山 裕太"), ("PW", "山下 敬吾"), ("C", "囲碁 is fun")],
        ),
        ("korean.sgf", "EUC-KR", &[("PB", "이세돌"), ("PW", "박정환"), ("C", "바둑 is fun")]),
        ("encoding/nihon-kiin.sgf", "Shift_JIS", &[("PW", "党毅飛"), ("PB", "申眞ソ")]),
        ("utf16le.sgf", "UTF-16LE", &[("PW", "Go Seigen"), ("PB", "Kitani Minoru")]),
        ("utf8bom.sgf", "UTF-8", &[("PW", "Go Seigen"), ("PB", "Kitani Minoru")]),
    ];
    for (file, charset, expected) in cases {
        let games = decoded_games(&sabaki.join(file));
        assert_eq!(games.len(), 1, "{file}");
        let (text, name) = &games[0];
        assert_eq!(name, charset, "{file}");
        for (id, value) in *expected {
            assert_eq!(sgf_property(text, id).as_deref(), Some(*value), "{file} {id}");
        }
    }
    let no_ca = decoded_games(&sabaki.join("no-ca.sgf"));
    let comment = sgf_property(&no_ca[0].0, "C").unwrap_or_default();
    assert!(comment.starts_with("【第三型】"), "Sabaki's detection test: {comment}");
}

#[test]
fn libsgfcplusplus_encoding_samples_decode_to_their_text() {
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let dir = corpus.join("parser-tests/libsgfcplusplus/test/test-files");
    // Each file's last comment says the same thing in its script; these are fragments of it
    // (read off the files with iconv). The UTF-8 files are the reference for the Cyrillic.
    let chinese = "围棋是一种古老的游戏";
    let cyrillic = "Го - древняя игра";
    // The Unicode files carry the Cyrillic comment and a Hindi one.
    let hindi = "गो एक प्राचीन खेल है";
    let cases: &[(&str, &str, &str)] = &[
        ("encoding-chinese-gb18030.sgf", "gb18030", chinese),
        ("encoding-chinese-gbk.sgf", "GBK", chinese),
        ("encoding-simplifiedchinese-gb2312.sgf", "GBK", chinese),
        ("encoding-simplifiedchinese-macos.sgf", "GBK", chinese),
        ("encoding-traditionalchinese-big5.sgf", "Big5", "圍棋是一種古老的遊戲"),
        ("encoding-japanese-shiftjis.sgf", "Shift_JIS", "Goは古代のゲームであり"),
        ("encoding-japanese-macos.sgf", "Shift_JIS", "Goは古代のゲームであり"),
        ("encoding-japanese-iso2022jp.sgf", "ISO-2022-JP", "Goは古代のゲームであり"),
        ("encoding-korean-macos.sgf", "EUC-KR", "바둑은 중국에서"),
        ("encoding-cyrillic-windows.sgf", "windows-1251", cyrillic),
        ("encoding-utf8-nobom.sgf", "UTF-8", cyrillic),
        ("encoding-utf8-nobom.sgf", "UTF-8", hindi),
        ("encoding-utf8-withbom.sgf", "UTF-8", hindi),
        ("encoding-utf16-withbom.sgf", "UTF-16BE", cyrillic),
        ("encoding-utf16-withbom.sgf", "UTF-16BE", hindi),
        ("encoding-utf16-nobom.sgf", "UTF-16BE", hindi),
        ("encoding-western-isolatin1.sgf", "windows-1252", "C[Ää Àà Ââ Åå Ææ Çç"),
        ("encoding-western-windowslatin1.sgf", "windows-1252", "C[ƒ ‰ ™]"),
        ("encoding-western-isolatin9.sgf", "ISO-8859-15", "C[Šš Žž]"),
        ("encoding-western-macosroman.sgf", "macintosh", "C[ƒ ‰ ™]"),
    ];
    for (file, charset, fragment) in cases {
        let games = decoded_games(&dir.join(file));
        assert_eq!(games.len(), 1, "{file}");
        let (text, name) = &games[0];
        assert_eq!(name, charset, "{file}");
        // Compared without whitespace: the files wrap their text differently.
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert!(squeeze(text).contains(&squeeze(fragment)), "{file}: {fragment} not in {text}");
        assert!(!text.contains('\u{FFFD}'), "{file}: nothing replaced");
    }
}

#[test]
fn sgfc_mixed_encoding_file_decodes_each_game_in_its_own_charset() {
    let Some(corpus) = util::shared_corpus_or_skip() else { return };
    let games =
        decoded_games(&corpus.join("parser-tests/sgfc_missdeer/test-files/mixed-encoding.sgf"));
    let charsets: Vec<_> = games.iter().map(|(_, name)| *name).collect();
    assert_eq!(charsets, ["UTF-16LE", "ISO-8859-15", "ISO-8859-15", "gb18030", "Shift_JIS"]);
    let german = "hallö! DÜ! ßüper dich zu s€h€n-";
    assert_eq!(sgf_property(&games[0].0, "C").as_deref(), Some(german));
    assert_eq!(sgf_property(&games[1].0, "C").as_deref(), Some(german));
    let chinese = sgf_property(&games[3].0, "C").unwrap_or_default();
    for word in ["趙 治勲", "조치훈", "交通運輸", "指揮權"] {
        assert!(chinese.contains(word), "{word} in {chinese}");
    }
    assert_eq!(sgf_property(&games[4].0, "C").as_deref(), Some("Yen: \\"));
}
