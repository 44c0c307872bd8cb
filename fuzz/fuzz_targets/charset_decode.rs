//! `charset_decode`: arbitrary bytes through the charset layer, in every charset the decoder
//! treats specially, with and without `--encoding`.
//!
//! Input: byte 0 picks `--encoding` (none, or one of a few labels) and a charset to force on
//! the whole text; the rest is the file.
//!
//! Asserts, besides never panicking:
//! - `prepare` keeps the text start within the file and, for a file that is not UTF-16, the
//!   bytes unchanged;
//! - each game tree the splitter finds decodes to text that says truthfully whether bytes were
//!   replaced: `replaced` comes with an `encoding` finding and U+FFFD in the text; UTF-8 read
//!   without replacement is the bytes themselves;
//! - ASCII without NUL or ESC bytes decodes to itself in every charset, forced or chosen;
//! - the label, CA and Fox sniffers and the detector accept any bytes.

#![no_main]

use std::sync::Arc;

use kifu::finding::Code;
use kifu::record::ReadOptions;
use kifu::record::charset::{
    self, DecodedGame, FileCharset, decode_game, detect, fox_marked, layout_of,
    looks_like_damaged_utf8, prepare, resolve_label, sniff_declared,
};
use kifu::record::split;
use libfuzzer_sys::fuzz_target;

const ASSUMED: [Option<&str>; 4] = [None, Some("gbk"), Some("shift_jis"), Some("windows-1252")];
const FORCED: [&str; 8] =
    ["gbk", "big5", "shift_jis", "iso-2022-jp", "utf-16le", "euc-kr", "windows-1252", "utf-8"];

fuzz_target!(|data: &[u8]| {
    let [choice, file @ ..] = data else { return };
    let options = ReadOptions {
        encoding: ASSUMED[usize::from(choice % 4)].map(str::to_owned),
        ..ReadOptions::default()
    };
    let bytes: Arc<[u8]> = Arc::from(file);
    let plain_ascii = file.iter().all(|&b| b.is_ascii() && b != 0 && b != 0x1B);

    // The sniffers and the detector take anything.
    if let Some(label) = sniff_declared(file) {
        let _ = resolve_label(label);
    }
    let _ = resolve_label(&String::from_utf8_lossy(file));
    let _ = (fox_marked(file), looks_like_damaged_utf8(file), detect(file));

    let prepared = prepare(Arc::clone(&bytes), &options);
    assert!(prepared.start <= prepared.bytes.len());
    if prepared.charset.utf16.is_none() {
        assert_eq!(&prepared.bytes[..], file, "prepare changed a file that is not UTF-16");
    }
    let found = split::split(&prepared.bytes, prepared.start, prepared.charset.layout);
    for tree in &found.trees {
        let game = &prepared.bytes[tree.start..tree.end];
        let decoded = decode_game(game, &prepared.charset, &options);
        check_truthful(game, &decoded);
        if plain_ascii {
            assert_eq!(decoded.text.as_bytes(), game, "ASCII changed by {}", decoded.encoding.name);
        }
    }

    // The whole text forced through one charset, as a file that declares it.
    let Some(forced) = resolve_label(FORCED[usize::from(choice / 4) % FORCED.len()]) else {
        panic!("the forced labels are known");
    };
    let file_charset = FileCharset {
        utf8_bom: false,
        utf16: None,
        declared: Some(forced),
        fallback: None,
        layout: layout_of(forced),
    };
    let decoded = decode_game(file, &file_charset, &ReadOptions::default());
    check_truthful(file, &decoded);
    if plain_ascii {
        assert_eq!(decoded.text.as_bytes(), file, "ASCII changed by forced {}", forced.name());
    }
    let _ = charset::layout_of(forced);
});

/// What a decoded game says about itself is true.
fn check_truthful(bytes: &[u8], decoded: &DecodedGame<'_>) {
    let encoding_findings = decoded.findings.iter().filter(|f| f.code == Code::Encoding).count();
    if decoded.encoding.replaced {
        assert_eq!(encoding_findings, 1, "replaced without exactly one encoding finding");
        assert!(decoded.text.contains('\u{FFFD}'), "replaced, but no U+FFFD in the text");
    } else {
        assert_eq!(encoding_findings, 0, "an encoding finding without replacement");
        if decoded.encoding.name == "UTF-8" {
            assert_eq!(decoded.text.as_bytes(), bytes, "UTF-8 without replacement changed");
        }
    }
}
