//! The record layer's input side on its own fixtures: collections split into games, charsets
//! decoded, folders walked, archives opened. Fixtures live in `corpus/cases/{collections,
//! charsets}` (see the README there for what each shows); archives are built here, in a
//! temporary folder, with the same crates kifu reads them with.

mod util;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kifu::finding::Code;
use kifu::record::{
    CharsetOrigin, Limits, PendingGame, ReadOptions, ReadStatus, Source, SplitFile, sources,
    split_file, split_source,
};
use util::sgf_property;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/cases").join(rel)
}

fn split_fixture(rel: &str, options: &ReadOptions) -> SplitFile {
    let bytes = fs::read(fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    split_file(rel, Arc::from(bytes), options)
}

fn codes(findings: &[kifu::finding::Finding]) -> Vec<Code> {
    findings.iter().map(|f| f.code).collect()
}

fn decoded_property(game: &PendingGame, id: &str) -> Option<String> {
    sgf_property(&game.decode(&ReadOptions::default()).text, id)
}

// ---------------------------------------------------------------- collections

#[test]
fn junk_before_the_first_game_is_reported_with_its_line() {
    let file = split_fixture("collections/junk-before-first-game.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 1);
    assert_eq!(file.games[0].location.line, 4);
    assert_eq!(codes(&file.findings), [Code::Junk]);
    let message = &file.findings[0].message;
    assert!(message.contains("before game 1") && message.contains("line 1"), "{message}");
    assert!(message.contains("Downloaded from"), "{message}");
}

#[test]
fn junk_between_and_after_games_is_placed() {
    let file =
        split_fixture("collections/junk-between-and-after-games.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 2);
    assert_eq!(codes(&file.findings), [Code::Junk, Code::Junk]);
    assert!(file.findings[0].message.contains("between games 1 and 2"));
    assert!(file.findings[0].message.contains("----- game 2 -----"));
    assert!(file.findings[1].message.contains("after game 2"));
    // The DOS end-of-file byte is shown, not hidden.
    assert!(file.findings[1].message.contains(r"\u{1a}"), "{}", file.findings[1].message);
}

#[test]
fn an_unclosed_tree_mid_collection_loses_no_game() {
    let file =
        split_fixture("collections/unclosed-tree-mid-collection.sgf", &ReadOptions::default());
    let names: Vec<_> = file.games.iter().map(|g| decoded_property(g, "PB")).collect();
    let names: Vec<_> = names.iter().map(|n| n.as_deref().unwrap_or("?")).collect();
    assert_eq!(names, ["First", "Second", "Third", "Fourth"]);
    let lines: Vec<_> = file.games.iter().map(|g| g.location.line).collect();
    assert_eq!(lines, [1, 2, 3, 4]);

    let broken = file.games[1].decode(&ReadOptions::default());
    assert_eq!(codes(&broken.findings), [Code::Unclosed]);
    assert!(broken.findings[0].message.contains("line 3"), "{}", broken.findings[0].message);
    assert!(broken.text.ends_with(";B[jp]\n)"), "closed for the parser: {:?}", broken.text);
    for game in [&file.games[0], &file.games[2], &file.games[3]] {
        assert!(game.decode(&ReadOptions::default()).findings.is_empty());
    }
}

#[test]
fn a_tree_truncated_inside_a_value_is_closed_for_the_parser() {
    let file = split_fixture("collections/unclosed-tree-at-end.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 2);
    let truncated = file.games[1].decode(&ReadOptions::default());
    assert!(truncated.text.ends_with("stopped in the mid])"), "{:?}", truncated.text);
    assert_eq!(codes(&truncated.findings), [Code::Unclosed]);
    // The record keeps the splitter's finding first, whatever the parser adds.
    let record = file.games[1].read(&ReadOptions::default());
    assert_eq!(record.findings[0].code, Code::Unclosed);
    assert_eq!(record.location.game, 2);
}

#[test]
fn escaped_brackets_and_parentheses_stay_inside_their_values() {
    let file = split_fixture(
        "collections/escaped-brackets-and-parens-in-values.sgf",
        &ReadOptions::default(),
    );
    assert_eq!(file.games.len(), 2, "{:?}", file.findings);
    assert!(file.findings.is_empty());
    assert_eq!(decoded_property(&file.games[0], "PB").as_deref(), Some("Smith (2d]"));
    assert_eq!(decoded_property(&file.games[0], "GN").as_deref(), Some("semis; game (1)"));
    assert_eq!(decoded_property(&file.games[1], "PB").as_deref(), Some("Second"));
    assert_eq!(file.games[1].location.line, 7);
}

#[test]
fn variations_that_look_like_games_stay_one_game() {
    let file =
        split_fixture("collections/variations-that-look-like-games.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 1);
    assert!(file.findings.is_empty());
}

#[test]
fn a_fox_tree_without_its_paren_is_read_as_one_game() {
    let file = split_fixture("collections/no-opening-paren-fox.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 1);
    assert!(file.findings.is_empty(), "no junk: {:?}", file.findings);
    let decoded = file.games[0].decode(&ReadOptions::default());
    assert!(decoded.text.starts_with("(;GM[1]"));
    assert_eq!(codes(&decoded.findings), [Code::Syntax]);
}

#[test]
fn a_sina_tree_without_its_semicolon_is_read_as_one_game() {
    let file = split_fixture("collections/no-semicolon-sina.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 1);
    let decoded = file.games[0].decode(&ReadOptions::default());
    assert!(decoded.text.starts_with("(;\r\nTE[Sina-style scrape]"), "{:?}", decoded.text);
    assert_eq!(codes(&decoded.findings), [Code::Syntax]);
}

#[test]
fn byte_order_marks_at_the_start_and_between_joined_files() {
    let file =
        split_fixture("collections/bom-between-concatenated-games.sgf", &ReadOptions::default());
    assert_eq!(file.games.len(), 2);
    assert_eq!(codes(&file.findings), [Code::ByteOrderMark, Code::ByteOrderMark]);
    assert!(file.findings[1].message.contains("between games 1 and 2"));
    assert_eq!(file.games[0].location.offset, 3, "offsets count the file's bytes");
    assert_eq!(decoded_property(&file.games[1], "PB").as_deref(), Some("Second"));
}

#[test]
fn an_empty_file_and_a_web_page_each_get_one_failed_game() {
    for (rel, says) in [
        ("collections/empty.sgf", "empty"),
        ("collections/not-sgf-html-error-page.sgf", "<!DOCTYPE html>"),
    ] {
        let file = split_fixture(rel, &ReadOptions::default());
        assert_eq!(file.games.len(), 1, "{rel}");
        assert!(!file.games[0].has_tree());
        let record = file.games[0].read(&ReadOptions::default());
        assert_eq!(record.status, ReadStatus::Failed);
        assert_eq!(record.encoding.origin, CharsetOrigin::NotDecoded);
        assert_eq!(codes(&record.findings), [Code::NoGame], "{rel}");
        assert!(record.findings[0].message.contains(says), "{}", record.findings[0].message);
    }
}

#[test]
fn a_source_that_could_not_be_read_is_one_failed_game() {
    let finding = kifu::finding::Finding::new(Code::Io, 0, "cannot read: permission denied");
    let source = Source::read("locked.sgf".into(), Err(finding));
    let file = split_source(source, &ReadOptions::default());
    assert_eq!(file.games.len(), 1);
    let record = file.games[0].read(&ReadOptions::default());
    assert_eq!(record.location.source, "locked.sgf");
    assert_eq!(codes(&record.findings), [Code::Io]);
}

// ---------------------------------------------------------------- charsets

/// Checks the charset chosen for a one-game fixture and its decoded properties.
fn assert_charset(rel: &str, name: &str, origin: CharsetOrigin, expected: &[(&str, &str)]) {
    assert_charset_with(rel, &ReadOptions::default(), name, origin, expected);
}

fn assert_charset_with(
    rel: &str,
    options: &ReadOptions,
    name: &str,
    origin: CharsetOrigin,
    expected: &[(&str, &str)],
) {
    let file = split_fixture(rel, options);
    assert_eq!(file.games.len(), 1, "{rel}: {:?}", file.findings);
    let decoded = file.games[0].decode(options);
    assert_eq!((decoded.encoding.name, decoded.encoding.origin), (name, origin), "{rel}");
    for (id, value) in expected {
        assert_eq!(sgf_property(&decoded.text, id).as_deref(), Some(*value), "{rel} {id}");
    }
    assert!(decoded.text.ends_with(";B[jp])"), "{rel}: the moves survive: {:?}", decoded.text);
}

#[test]
fn gbk_names_whose_trail_byte_is_a_backslash_or_bracket() {
    // 昞 is 95 5C (`\`), 奭 is 8A 5D (`]`, here just before the closing `]`), and GN ends
    // with 昞: `95 5C ]`.
    let names = [("PB", "金昞俊"), ("PW", "朴埈奭"), ("GN", "金昞"), ("RE", "B+R")];
    assert_charset("charsets/gbk-trail-bytes-with-ca.sgf", "GBK", CharsetOrigin::Declared, &names);
    assert_charset(
        "charsets/gbk-trail-bytes-without-ca.sgf",
        "GBK",
        CharsetOrigin::Detected,
        &names,
    );
    assert_charset("charsets/gbk-cp936-alias.sgf", "GBK", CharsetOrigin::Declared, &names);
}

#[test]
fn shift_jis_names_whose_trail_byte_is_a_backslash_or_bracket() {
    // 余 is 97 5D, 江 is 8D 5D, 十 is 8F 5C (GN[十] ends `8F 5C ]`).
    let names = [("PB", "余正麒"), ("PW", "江維杰"), ("EV", "第50期十段戦"), ("GN", "十")];
    let (with, without) = (
        "charsets/shift-jis-trail-bytes-with-ca.sgf",
        "charsets/shift-jis-trail-bytes-without-ca.sgf",
    );
    assert_charset(with, "Shift_JIS", CharsetOrigin::Declared, &names);
    assert_charset(without, "Shift_JIS", CharsetOrigin::Detected, &names);
}

#[test]
fn big5_names_whose_trail_byte_is_a_backslash_or_bracket() {
    // 許 is B3 5C, 因 is A6 5D, 蓋 is BB 5C, 功 is A5 5C (EV ends `A5 5C ]`).
    let names = [("PB", "許家元"), ("PW", "朴廷桓"), ("EV", "蓋因功")];
    assert_charset(
        "charsets/big5-trail-bytes-with-ca.sgf",
        "Big5",
        CharsetOrigin::Declared,
        &names,
    );
    assert_charset(
        "charsets/big5-trail-bytes-without-ca.sgf",
        "Big5",
        CharsetOrigin::Detected,
        &names,
    );
}

#[test]
fn big5_escaped_the_ff4_way_drops_the_escape_inside_characters() {
    let names = [("PB", "許家元"), ("PW", "朴廷桓"), ("EV", "因"), ("GN", "蓋因功")];
    let rel = "charsets/big5-spec-escaped-trail-bytes.sgf";
    assert_charset(rel, "Big5", CharsetOrigin::Declared, &names);
}

#[test]
fn euc_kr_with_and_without_ca() {
    let names = [("PB", "이세돌"), ("PW", "박정환"), ("EV", "제46기 명인전")];
    assert_charset("charsets/euc-kr-with-ca.sgf", "EUC-KR", CharsetOrigin::Declared, &names);
    assert_charset("charsets/euc-kr-without-ca.sgf", "EUC-KR", CharsetOrigin::Detected, &names);
}

#[test]
fn latin_1_with_and_without_ca() {
    let names = [("PB", "José Martínez"), ("PW", "Jürgen Groß"), ("PC", "Besançon")];
    let (with, without) = ("charsets/latin-1-with-ca.sgf", "charsets/latin-1-without-ca.sgf");
    assert_charset(with, "windows-1252", CharsetOrigin::Declared, &names);
    assert_charset(without, "windows-1252", CharsetOrigin::Detected, &names);
}

#[test]
fn utf_16_and_utf_8_byte_order_marks() {
    let names = [("PB", "井山裕太"), ("PW", "一力遼")];
    assert_charset("charsets/utf-16le-with-bom.sgf", "UTF-16LE", CharsetOrigin::Bom, &names);
    assert_charset("charsets/utf-8-with-bom.sgf", "UTF-8", CharsetOrigin::Bom, &names);
    let file = split_fixture("charsets/utf-16le-with-bom.sgf", &ReadOptions::default());
    assert_eq!(codes(&file.findings), [Code::ByteOrderMark]);
}

#[test]
fn fox_damaged_utf_8_is_decoded_with_replacement_not_misdetected() {
    let file = split_fixture("charsets/fox-damaged-utf-8.sgf", &ReadOptions::default());
    let decoded = file.games[0].decode(&ReadOptions::default());
    assert_eq!(decoded.encoding.name, "UTF-8");
    assert_eq!(decoded.encoding.origin, CharsetOrigin::DamagedUtf8);
    assert!(decoded.encoding.replaced);
    // 柯洁: the middle byte of 洁 was replaced by '?'; 党毅飞: the last byte of 飞.
    let black = sgf_property(&decoded.text, "PB").unwrap_or_default();
    let white = sgf_property(&decoded.text, "PW").unwrap_or_default();
    assert!(black.starts_with('柯') && black.contains('\u{FFFD}'), "{black}");
    assert!(white.starts_with("党毅") && white.contains('\u{FFFD}'), "{white}");
    assert_eq!(sgf_property(&decoded.text, "BR").as_deref(), Some("9段"));
    assert_eq!(codes(&decoded.findings), [Code::Encoding]);
}

#[test]
fn a_utf_8_file_that_still_says_gb2312_is_read_as_utf_8() {
    let names = [("PB", "柯洁"), ("PW", "党毅飞")];
    let rel = "charsets/utf-8-declared-gb2312.sgf";
    assert_charset(rel, "UTF-8", CharsetOrigin::Utf8, &names);
    let file = split_fixture(rel, &ReadOptions::default());
    assert_eq!(
        codes(&file.games[0].decode(&ReadOptions::default()).findings),
        [Code::CharsetMismatch]
    );
}

#[test]
fn an_unknown_charset_label_is_reported_and_the_text_still_read() {
    let rel = "charsets/unknown-charset-label.sgf";
    assert_charset(rel, "UTF-8", CharsetOrigin::Utf8, &[("PB", "Worf")]);
    let file = split_fixture(rel, &ReadOptions::default());
    let decoded = file.games[0].decode(&ReadOptions::default());
    assert_eq!(codes(&decoded.findings), [Code::UnknownCharset]);
    assert!(decoded.findings[0].message.contains("x-klingon"));
}

#[test]
fn the_encoding_option_applies_when_the_file_names_none() {
    let gbk_without_ca = "charsets/gbk-trail-bytes-without-ca.sgf";
    let gbk = ReadOptions { encoding: Some("cp936".into()), ..ReadOptions::default() };
    let names = [("PB", "金昞俊"), ("PW", "朴埈奭")];
    assert_charset_with(gbk_without_ca, &gbk, "GBK", CharsetOrigin::Assumed, &names);
    // A declared CA still wins over the option.
    let big5 = ReadOptions { encoding: Some("big5".into()), ..ReadOptions::default() };
    let declared = "charsets/gbk-trail-bytes-with-ca.sgf";
    assert_charset_with(declared, &big5, "GBK", CharsetOrigin::Declared, &names);
    // And a file that is plainly UTF-8 stays UTF-8, with a finding.
    let utf8 = "(;GM[1]PB[柯洁]PW[党毅飞]EV[三星杯];B[pd])".as_bytes();
    let file = split_file("utf8.sgf", Arc::from(utf8), &gbk);
    let decoded = file.games[0].decode(&gbk);
    assert_eq!((decoded.encoding.name, decoded.encoding.origin), ("UTF-8", CharsetOrigin::Utf8));
    assert_eq!(sgf_property(&decoded.text, "PW").as_deref(), Some("党毅飞"));
    assert_eq!(codes(&decoded.findings), [Code::CharsetMismatch]);
}

// ---------------------------------------------------------------- folders and files

fn names(sources: impl Iterator<Item = Source>) -> Vec<String> {
    sources.map(|s| s.name).collect()
}

/// The finding a source carries instead of bytes.
fn failure(source: &Source) -> &kifu::finding::Finding {
    match &source.bytes {
        Err(finding) => finding,
        Ok(bytes) => panic!("{} was read ({} bytes)", source.name, bytes.len()),
    }
}

fn write(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create folder");
    }
    fs::write(path, bytes).expect("write fixture");
}

const GAME: &[u8] = b"(;GM[1]FF[4]SZ[9]PB[a]PW[b];B[ee];W[cc])\n";

#[test]
fn folders_are_walked_in_name_order_with_sgf_in_any_case() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    for rel in ["b/2.sgf", "b/10.SGF", "a.sgf", "c/readme.txt", "c/d/e.Sgf", ".hidden/h.sgf"] {
        write(&root.join(rel), GAME);
    }
    let found = names(sources([root], &ReadOptions::default()));
    let shown = |rel: &str| root.join(rel).display().to_string();
    let expected: Vec<_> =
        [".hidden/h.sgf", "a.sgf", "b/10.SGF", "b/2.sgf", "c/d/e.Sgf"].map(shown).to_vec();
    assert_eq!(found, expected);
}

#[test]
fn inputs_keep_the_order_given_and_a_missing_path_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (z, a) = (dir.path().join("z.sgf"), dir.path().join("a.sgf"));
    write(&z, GAME);
    write(&a, GAME);
    let missing = dir.path().join("missing.sgf");
    let found: Vec<_> = sources([&z, &missing, &a], &ReadOptions::default()).collect();
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].name, z.display().to_string());
    assert_eq!(found[2].name, a.display().to_string());
    let finding = failure(&found[1]);
    assert_eq!(finding.code, Code::Io);
}

#[test]
fn a_file_over_the_size_limit_is_reported_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.sgf");
    write(&big, &GAME.repeat(100));
    let limits = Limits { max_file_size: 1000, ..Limits::default() };
    let options = ReadOptions { limits, ..ReadOptions::default() };
    let found: Vec<_> = sources([&big], &options).collect();
    let finding = failure(&found[0]);
    assert_eq!(finding.code, Code::Limit);
    assert!(finding.message.contains("4100 bytes"), "{}", finding.message);
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops_do_not_hang_the_walk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(&root.join("games/one.sgf"), GAME);
    std::os::unix::fs::symlink(root.join("games"), root.join("games/loop")).expect("symlink");
    std::os::unix::fs::symlink(root.join("games/one.sgf"), root.join("games/link.sgf"))
        .expect("symlink");

    let plain: Vec<_> = sources([root], &ReadOptions::default()).collect();
    let plain_names = names(plain.into_iter());
    assert_eq!(
        plain_names,
        [root.join("games/link.sgf"), root.join("games/one.sgf")].map(|p| p.display().to_string())
    );

    let follow = ReadOptions { follow_links: true, ..ReadOptions::default() };
    let followed: Vec<_> = sources([root], &follow).collect();
    let loops: Vec<_> = followed
        .iter()
        .filter_map(|s| s.bytes.as_ref().err())
        .filter(|f| f.code == Code::Io && f.message.contains("loop"))
        .collect();
    assert_eq!(loops.len(), 1, "{followed:?}");
    assert_eq!(followed.iter().filter(|s| s.bytes.is_ok()).count(), 2);
}

// ---------------------------------------------------------------- archives

/// The members every test archive holds, in stored order: two games, a README (skipped) and
/// a member whose name climbs out of any folder it might be extracted to.
const MEMBERS: &[(&str, &[u8])] = &[
    ("2019/first.sgf", b"(;GM[1]PB[first];B[aa])"),
    ("README.txt", b"not a game"),
    ("Second.SGF", b"(;GM[1]PB[second];B[bb])(;GM[1]PB[third];B[cc])"),
    ("../../x.sgf", b"(;GM[1]PB[climber];B[dd])"),
];

fn tar_bytes(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        // `append_data` refuses `..`; write the name into the header as an archiver might.
        let field = &mut header.as_old_mut().name;
        field[..name.len()].copy_from_slice(name.as_bytes());
        header.set_cksum();
        builder.append(&header, *bytes).expect("tar member");
    }
    builder.into_inner().expect("tar")
}

/// A zip archive whose members are alternately deflated and stored.
fn zip_bytes(members: &[(&str, &[u8])]) -> Vec<u8> {
    zip_bytes_mixed(members, true)
}

/// A zip archive whose members are deflated, except every second one when `mix` is set.
fn zip_bytes_mixed(members: &[(&str, &[u8])], mix: bool) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (i, (name, bytes)) in members.iter().enumerate() {
        let method = if mix && i % 2 == 1 {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default().compression_method(method);
        writer.start_file(*name, options).expect("zip member");
        writer.write_all(bytes).expect("zip data");
    }
    writer.finish().expect("zip").into_inner()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn bz2(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    encoder.write_all(bytes).expect("bzip2");
    encoder.finish().expect("bzip2")
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let options = lzma_rust2::XzOptions::with_preset(3);
    let mut encoder = lzma_rust2::XzWriter::new(Vec::new(), options).expect("xz");
    encoder.write_all(bytes).expect("xz");
    encoder.finish().expect("xz")
}

/// Everything read from `inputs`: (name, games found, first PB of each game).
fn read_all(inputs: &[&Path], options: &ReadOptions) -> Vec<(String, Vec<String>)> {
    sources(inputs, options)
        .map(|source| {
            let name = source.name.clone();
            let file = split_source(source, options);
            let players = file
                .games
                .iter()
                .map(|g| match g.has_tree() {
                    true => decoded_property(g, "PB").unwrap_or_default(),
                    false => format!("<{}>", g.read(options).findings[0].code),
                })
                .collect();
            (name, players)
        })
        .collect()
}

#[test]
fn archives_of_every_format_yield_their_sgf_members_in_stored_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tar = tar_bytes(MEMBERS);
    let archives = [
        ("games.zip", zip_bytes(MEMBERS)),
        ("games.tar", tar.clone()),
        ("games.tar.gz", gz(&tar)),
        ("games.tgz", gz(&tar)),
        ("games.tar.bz2", bz2(&tar)),
        ("games.tar.xz", xz(&tar)),
    ];
    for (name, bytes) in &archives {
        let path = dir.path().join(name);
        write(&path, bytes);
        let shown = path.display().to_string();
        let found = read_all(&[&path], &ReadOptions::default());
        let expected = vec![
            (format!("{shown}!2019/first.sgf"), vec!["first".to_owned()]),
            (format!("{shown}!Second.SGF"), vec!["second".to_owned(), "third".to_owned()]),
            (format!("{shown}!../../x.sgf"), vec!["climber".to_owned()]),
        ];
        assert_eq!(found, expected, "{name}");
    }
    // Member names are only names: nothing was written next to the archives or above them.
    assert_eq!(fs::read_dir(dir.path()).expect("list").count(), archives.len());
    assert!(!dir.path().join("../x.sgf").exists() && !dir.path().join("../../x.sgf").exists());
}

#[test]
fn an_archive_inside_an_archive_is_opened() {
    let dir = tempfile::tempdir().expect("tempdir");
    let inner = gz(&tar_bytes(&[("kisei.sgf", b"(;GM[1]PB[inner];B[aa])")]));
    let outer = dir.path().join("outer.zip");
    write(&outer, &zip_bytes(&[("inner.tar.gz", &inner), ("plain.sgf", GAME)]));
    let found = read_all(&[&outer], &ReadOptions::default());
    let shown = outer.display().to_string();
    assert_eq!(
        found,
        [
            (format!("{shown}!inner.tar.gz!kisei.sgf"), vec!["inner".to_owned()]),
            (format!("{shown}!plain.sgf"), vec!["a".to_owned()]),
        ]
    );
}

#[test]
fn damaged_and_empty_archives_are_accounted_for() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tar_gz = gz(&tar_bytes(MEMBERS));
    let cases = [
        ("truncated.tar.gz", tar_gz[..tar_gz.len() / 2].to_vec()),
        ("garbage.zip", b"PK\x03\x04 this is not really a zip archive".to_vec()),
        ("no-games.zip", zip_bytes(&[("README.txt", b"nothing here")])),
    ];
    for (name, bytes) in &cases {
        write(&dir.path().join(name), bytes);
    }
    let found = read_all(&[dir.path()], &ReadOptions::default());
    let root = dir.path().display().to_string();
    assert_eq!(
        found,
        [
            (format!("{root}/garbage.zip"), vec!["<archive>".to_owned()]),
            (format!("{root}/no-games.zip"), vec!["<no-game>".to_owned()]),
            // Members before the damage are read; the damage ends the archive with a finding.
            (format!("{root}/truncated.tar.gz!2019/first.sgf"), vec!["first".to_owned()]),
            (format!("{root}/truncated.tar.gz"), vec!["<archive>".to_owned()]),
        ]
    );
}

#[test]
fn zip_bombs_and_oversized_members_hit_the_limits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let zeros = vec![0u8; 1 << 20];
    let bomb = dir.path().join("bomb.zip");
    let members: Vec<(String, &[u8])> =
        (0..8).map(|i| (format!("zeros-{i}.sgf"), &zeros[..])).collect();
    let members: Vec<(&str, &[u8])> = members.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    write(&bomb, &zip_bytes_mixed(&members, false));
    // 8 MiB of zeros compress about 1000:1; with a 1 MiB floor the ratio limit trips early.
    let limits = Limits { max_expansion_ratio: 100, ratio_floor: 1 << 20, ..Limits::default() };
    let options = ReadOptions { limits, ..ReadOptions::default() };
    let found: Vec<_> = sources([&bomb], &options).collect();
    let last = found.last().expect("something was read");
    let finding = failure(last);
    assert_eq!(finding.code, Code::Limit);
    assert!(finding.message.contains("later members were not read"), "{}", finding.message);
    assert!(found.len() < 8, "reading stopped early: {} sources", found.len());

    let tar = dir.path().join("big-member.tar");
    write(&tar, &tar_bytes(&[("big.sgf", &GAME.repeat(50)), ("small.sgf", GAME)]));
    let limits = Limits { max_file_size: 1000, ..Limits::default() };
    let options = ReadOptions { limits, ..ReadOptions::default() };
    let found = read_all(&[&tar], &options);
    let shown = tar.display().to_string();
    assert_eq!(
        found,
        [
            (format!("{shown}!big.sgf"), vec!["<limit>".to_owned()]),
            (format!("{shown}!small.sgf"), vec!["a".to_owned()]),
        ]
    );
}
