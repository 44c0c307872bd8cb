//! Charsets: which one a game is written in, and its text decoded to UTF-8 before parsing.
//!
//! sgf-parse takes `&str`, and SGF in the wild is written in whatever the writer's system
//! used: UTF-8, GBK, Big5, Shift_JIS, EUC-KR, Latin-1, UTF-16, and the damaged UTF-8 of the Fox
//! server. The charset of each game is chosen in this order (the first that applies wins):
//!
//! 1. a byte-order mark at the start of the file (UTF-8, UTF-16LE/BE); a UTF-16 file without
//!    a mark is recognised by its NUL bytes. UTF-16 files are transcoded to UTF-8 as a whole
//!    before they are split ([`Prepared`]);
//! 2. the game's own `CA` property, sniffed from the bytes (identifiers are ASCII, so this is
//!    safe before decoding), through [`resolve_label`]: WHATWG labels plus the aliases
//!    encoding_rs lacks (`cp936`, `cp932`, `cp949`, `EUC-CN`, `latin-1`, ...); then a `CA`
//!    of another game of the same file (collections often declare it once);
//! 3. `--encoding` ([`super::ReadOptions::encoding`]), when the file names none;
//! 4. valid UTF-8;
//! 5. the Fox rule: `AP[foxwq]` (or KataGo's other Fox marker, `AP[GNU Go:3.8]` with an empty
//!    `GN[]`), or text in which valid multibyte UTF-8 characters are at least 0.45 times as
//!    many as invalid sequences, is UTF-8 with some bytes replaced by `?`: decoded as UTF-8
//!    with replacement characters, never handed to detection (which calls it windows-1252,
//!    GBK or Shift_JIS). Over the shared corpus the ratio is at least 0.55 for Fox files and
//!    at most 0.30 for legacy-charset files;
//! 6. detection with chardetng, over the whole file (its first MiB), as the last resort.
//!
//! One correction applies to a declared or assumed charset: when `CA` (or `--encoding`) names a
//! legacy charset but the game is valid UTF-8 with real non-ASCII text in it (any for a
//! single-byte charset, at least four CJK, kana or Hangul characters for a multibyte one), the
//! file was re-saved as UTF-8 without its `CA` being updated (or the option was meant for other
//! files of the run); it is read as UTF-8 with a `charset-mismatch` finding.
//!
//! Decoding: UTF-8 without damage is borrowed as is. GBK/GB18030, Big5, Shift_JIS and
//! ISO-2022-JP, whose bytes can look like `]` or `\`, are decoded one property value at a
//! time with the scanner of [`super::split`], so that a trail byte never ends a value and an
//! `FF[4]` escape between lead and trail byte is dropped; every other charset is decoded whole.
//! Each game gets a [`TextEncoding`] saying what was used and whether bytes were replaced.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{
    BIG5, EUC_KR, Encoding, GB18030, GBK, ISO_2022_JP, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE,
    WINDOWS_1252,
};
use memchr::memmem;

use super::split::{ByteLayout, DoubleByte, ValueEnd, scan_value};
use super::{CharsetOrigin, ReadOptions, TextEncoding};
use crate::finding::{Code, Finding, Severity};

/// Labels encoding_rs does not know, as written in real `CA` properties and by Windows and
/// Python tools, with the WHATWG encoding they mean.
fn alias(label: &str) -> Option<&'static Encoding> {
    Some(match label {
        "cp936" | "ms936" | "windows-936" | "euc-cn" | "euccn" | "gb-2312" | "gb2312-80" => GBK,
        "cp54936" | "gb-18030" => GB18030,
        "cp932" | "windows-932" | "shiftjis" | "s-jis" => SHIFT_JIS,
        "cp949" | "ms949" | "uhc" | "euckr" => EUC_KR,
        "cp950" | "ms950" | "windows-950" | "big-5" => BIG5,
        "latin-1" | "iso8859_1" | "cp1252" => WINDOWS_1252,
        "utf-8n" | "utf8n" => UTF_8,
        _ => return None,
    })
}

/// The encoding a charset label names: a WHATWG label (`gb2312`, `Shift_JIS`, `ISO-8859-1`,
/// `UTF-16`...), in any case, with surrounding spaces or quotes, `_` for `-`, or one of the
/// aliases encoding_rs lacks (`cp936` → GBK, `cp932` → Shift_JIS, `cp949` → EUC-KR, `cp950` →
/// Big5, `EUC-CN` → GBK, `latin-1` → windows-1252, ...). Labels WHATWG maps to its
/// "replacement" encoding (`hz-gb-2312`, `iso-2022-kr`) count as unknown.
pub fn resolve_label(label: &str) -> Option<&'static Encoding> {
    // The commonest label by far (tom-9d: every game), told without a lower-cased copy and
    // encoding_rs's search of its labels (0.65M instructions of 93M): what they find for it.
    if label.eq_ignore_ascii_case("utf-8") {
        return Some(UTF_8);
    }
    let trimmed = label.trim().trim_matches(|c| c == '"' || c == '\'').trim();
    if trimmed.is_empty() {
        return None;
    }
    let lower = trimmed.to_ascii_lowercase();
    alias(&lower)
        .or_else(|| Encoding::for_label_no_replacement(lower.as_bytes()))
        .or_else(|| Encoding::for_label_no_replacement(lower.replace('_', "-").as_bytes()))
        .or_else(|| Encoding::for_label_no_replacement(lower.replace(' ', "-").as_bytes()))
}

/// How the bytes of `encoding` are laid out, as the splitter needs to know.
pub fn layout_of(encoding: &'static Encoding) -> ByteLayout {
    if encoding == GBK || encoding == GB18030 {
        ByteLayout::DoubleByte(DoubleByte::Gbk)
    } else if encoding == BIG5 {
        ByteLayout::DoubleByte(DoubleByte::Big5)
    } else if encoding == SHIFT_JIS {
        ByteLayout::DoubleByte(DoubleByte::ShiftJis)
    } else if encoding == ISO_2022_JP {
        ByteLayout::Iso2022Jp
    } else {
        ByteLayout::AsciiSafe
    }
}

/// A property searched for in raw bytes: a finder for `ID[`, built once.
struct Property(memmem::Finder<'static>);

static CA: LazyLock<Property> = LazyLock::new(|| Property(memmem::Finder::new(b"CA[")));
static AP: LazyLock<Property> = LazyLock::new(|| Property(memmem::Finder::new(b"AP[")));

/// The values of every `ID[...]` property in `bytes` whose value is short printable ASCII
/// (charset labels, application names), in order. `ID` must not be preceded by a letter.
fn short_ascii_values<'a>(
    bytes: &'a [u8],
    property: &'static Property,
) -> impl Iterator<Item = &'a [u8]> + 'a {
    const MAX_LEN: usize = 64;
    let finder = &property.0;
    let opening = finder.needle().len();
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let at = from + finder.find(&bytes[from..])?;
            from = at + 1;
            if at > 0 && bytes[at - 1].is_ascii_alphabetic() {
                continue;
            }
            let value_start = at + opening;
            let window = &bytes[value_start..bytes.len().min(value_start + MAX_LEN + 1)];
            let Some(len) = memchr::memchr(b']', window) else { continue };
            let value = &window[..len];
            // A `\` means the `]` is escaped: not a real label.
            if value.iter().all(|&b| b == b' ' || (b.is_ascii_graphic() && b != b'\\')) {
                return Some(value);
            }
        }
    })
}

/// The label in the first `CA[...]` of `bytes`, if any.
pub fn sniff_declared(bytes: &[u8]) -> Option<&str> {
    short_ascii_values(bytes, &CA).next().and_then(|v| std::str::from_utf8(v).ok())
}

/// Whether the game names the Fox server as its writer: `AP[foxwq]`, or `AP[GNU Go:3.8]`
/// with an empty `GN[]` (Fox files re-saved by GNU Go, which KataGo also treats as Fox).
pub fn fox_marked(bytes: &[u8]) -> bool {
    let mut gnugo = false;
    for value in short_ascii_values(bytes, &AP) {
        if value.windows(5).any(|w| w.eq_ignore_ascii_case(b"foxwq")) {
            return true;
        }
        gnugo |= value == b"GNU Go:3.8";
    }
    gnugo && memmem::find(bytes, b"GN[]").is_some()
}

/// Valid multibyte UTF-8 characters and invalid sequences in `bytes`: what `utf8_chunks`
/// counts, read from [`Utf8Stretches`].
fn utf8_damage(bytes: &[u8]) -> (usize, usize) {
    let (mut valid, mut invalid) = (0, 0);
    for (text, damaged) in Utf8Stretches(bytes) {
        valid += text.bytes().filter(|&b| b >= 0xC0).count();
        invalid += usize::from(damaged);
    }
    (valid, invalid)
}

/// Whether invalid UTF-8 looks like damaged UTF-8 rather than a legacy charset (see the
/// module documentation for the threshold and where it comes from).
pub fn looks_like_damaged_utf8(bytes: &[u8]) -> bool {
    let (valid, invalid) = utf8_damage(bytes);
    valid >= 2 && valid * 100 >= invalid * 45
}

/// How many bytes of a file chardetng looks at.
const DETECTION_SAMPLE: usize = 1 << 20;

/// The charsets CA-less legacy Go records are written in, in practice.
const USUAL_LEGACY: &[&Encoding] = &[
    &encoding_rs::GBK_INIT,
    &encoding_rs::GB18030_INIT,
    &encoding_rs::BIG5_INIT,
    &encoding_rs::SHIFT_JIS_INIT,
    &encoding_rs::EUC_KR_INIT,
    &encoding_rs::WINDOWS_1252_INIT,
    &encoding_rs::WINDOWS_1250_INIT,
    &encoding_rs::WINDOWS_1251_INIT,
    &encoding_rs::KOI8_R_INIT,
];

/// The charset of bytes that are not UTF-8 and name none: chardetng's guess, with a prior for
/// tiny samples. chardetng needs some text to go on; given two to seven double-byte characters
/// (`PW[白]`, `C[盘面]` in GNU Go's regression games) it answers ISO-8859-5 or EUC-JP. When
/// its guess is not one of the charsets Go records are usually written in, the sample has
/// fewer than 16 non-ASCII bytes, all in runs of even length (pairs, not Latin-1 letters),
/// and GBK decodes them cleanly, the answer is GBK: most CA-less legacy Go records are
/// Chinese.
pub fn detect(bytes: &[u8]) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    let sample = &bytes[..bytes.len().min(DETECTION_SAMPLE)];
    detector.feed(sample, true);
    let guess = detector.guess(None, Utf8Detection::Deny);
    if USUAL_LEGACY.contains(&guess) {
        return guess;
    }
    let high = sample.iter().filter(|&&b| b >= 0x80).count();
    let even_runs = sample.split(|b| b.is_ascii()).all(|run| run.len() % 2 == 0);
    if high < 16 && even_runs && !GBK.decode_without_bom_handling(sample).1 { GBK } else { guess }
}

/// A UTF-16 file without a byte-order mark, recognised by the NUL high bytes of its ASCII.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(1024) & !1];
    let pairs = sample.len() / 2;
    if pairs < 2 || memchr::memchr(0, sample).is_none() {
        // No zero byte (every file but a UTF-16 one): nothing to count.
        return None;
    }
    let zeros_even = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let zeros_odd = sample.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    if zeros_even * 10 >= pairs * 4 && zeros_odd * 20 <= pairs {
        Some(UTF_16BE)
    } else if zeros_odd * 10 >= pairs * 4 && zeros_even * 20 <= pairs {
        Some(UTF_16LE)
    } else {
        None
    }
}

/// What kifu learnt about a whole file's charset before splitting it.
#[derive(Clone, Debug)]
pub struct FileCharset {
    /// The file started with a UTF-8 byte-order mark.
    pub utf8_bom: bool,
    /// The file was UTF-16 and has been transcoded to UTF-8 as a whole.
    pub utf16: Option<Utf16File>,
    /// The first charset a `CA` of the file names (and kifu knows).
    pub declared: Option<&'static Encoding>,
    /// For games that name no charset and are not UTF-8: what the file as a whole looks like
    /// (damaged UTF-8, or chardetng's guess), when it was needed to split the file.
    pub fallback: Option<(&'static Encoding, CharsetOrigin)>,
    /// The layout the file was split with.
    pub layout: ByteLayout,
}

/// A UTF-16 file, transcoded.
#[derive(Clone, Copy, Debug)]
pub struct Utf16File {
    /// UTF-16LE or UTF-16BE.
    pub encoding: &'static Encoding,
    /// Byte-order mark, `CA`, or detected from NUL bytes.
    pub origin: CharsetOrigin,
    /// Some code units were invalid and replaced.
    pub had_errors: bool,
}

/// A file ready to split: its bytes (transcoded when it was UTF-16), where the text starts
/// (past a UTF-8 byte-order mark), what is known of its charset, and findings about it.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The bytes to split; for a UTF-16 file, its UTF-8 transcoding.
    pub bytes: Arc<[u8]>,
    /// Where the text starts (3 past a UTF-8 byte-order mark, else 0).
    pub start: usize,
    /// The charset knowledge every game of the file shares.
    pub charset: FileCharset,
    /// Findings about the file (`bom`).
    pub findings: Vec<Finding>,
    /// `bytes[start..]` were checked and found valid UTF-8 as a whole (a file with no
    /// byte-order mark and no `CA`, the usual case), so its games need no check of their own.
    pub valid_utf8: bool,
    /// `bytes[start..]` hold no `CA[` at all (the usual case), so no game of the file names a
    /// charset and its games need not look for one ([`decode_game_known`]).
    pub names_no_charset: bool,
}

/// Looks at a whole file before it is split: byte-order mark, UTF-16, the first `CA`, and the
/// charset its bytes must be scanned in.
pub fn prepare(bytes: Arc<[u8]>, options: &ReadOptions) -> Prepared {
    let Inspected { transcoded, start, charset, findings, valid_utf8, names_no_charset } =
        inspect(&bytes, options);
    let bytes = transcoded.unwrap_or(bytes);
    Prepared { bytes, start, charset, findings, valid_utf8, names_no_charset }
}

/// What [`prepare`] finds, its bytes aside: the fields of [`Prepared`], with the transcoding
/// of a UTF-16 file, the one case whose bytes to split are not the file's own.
#[derive(Clone, Debug)]
pub(super) struct Inspected {
    /// The UTF-8 transcoding of a UTF-16 file; `None` for any other.
    pub(super) transcoded: Option<Arc<[u8]>>,
    pub(super) start: usize,
    pub(super) charset: FileCharset,
    pub(super) findings: Vec<Finding>,
    pub(super) valid_utf8: bool,
    pub(super) names_no_charset: bool,
}

/// [`prepare`] on borrowed bytes, so that a large file's first part is looked at where it was
/// read instead of being copied first ([`super::parts`]).
pub(super) fn inspect(bytes: &[u8], options: &ReadOptions) -> Inspected {
    let mut findings = Vec::new();
    let bom = Encoding::for_bom(bytes);
    let utf16 = match bom {
        Some((enc, len)) if enc != UTF_8 => Some((enc, len, CharsetOrigin::Bom)),
        Some(_) => None,
        None => sniff_utf16(bytes).map(|enc| (enc, 0, CharsetOrigin::Detected)),
    };
    if let Some((enc, bom_len, origin)) = utf16 {
        let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        let transcoded: Arc<[u8]> = Arc::from(text.as_bytes());
        let origin = match origin {
            CharsetOrigin::Bom => {
                findings.push(Finding::new(
                    Code::ByteOrderMark,
                    0,
                    format!("the file starts with a {} byte-order mark", enc.name()),
                ));
                CharsetOrigin::Bom
            }
            _ if sniff_declared(&transcoded)
                .and_then(resolve_label)
                .is_some_and(|e| e == UTF_16LE || e == UTF_16BE) =>
            {
                CharsetOrigin::Declared
            }
            other => other,
        };
        let charset = FileCharset {
            utf8_bom: false,
            utf16: Some(Utf16File { encoding: enc, origin, had_errors }),
            declared: None,
            fallback: None,
            layout: ByteLayout::AsciiSafe,
        };
        return Inspected {
            transcoded: Some(transcoded),
            start: 0,
            charset,
            findings,
            valid_utf8: false,
            names_no_charset: false,
        };
    }
    let utf8_bom = bom.is_some();
    let start = if utf8_bom { 3 } else { 0 };
    if utf8_bom {
        findings.push(Finding::new(
            Code::ByteOrderMark,
            0,
            "the file starts with a UTF-8 byte-order mark",
        ));
    }
    let text = &bytes[start..];
    // One search tells the usual file, which names no charset, from the others.
    let names_no_charset = CA.0.find(text).is_none();
    let declared = if names_no_charset { None } else { declared_in(text) };
    let assumed = options.encoding.as_deref().and_then(resolve_label);
    let mut fallback = None;
    let mut valid_utf8 = false;
    let split_encoding = if utf8_bom {
        UTF_8
    } else if let Some(enc) = declared.or(assumed) {
        // As for each game: a file that is really UTF-8 is scanned as UTF-8.
        if utf8_contradicts(text, enc) { UTF_8 } else { enc }
    } else if std::str::from_utf8(text).is_ok() {
        valid_utf8 = true;
        UTF_8
    } else if fox_marked(text) || looks_like_damaged_utf8(text) {
        fallback = Some((UTF_8, CharsetOrigin::DamagedUtf8));
        UTF_8
    } else {
        let guess = detect(text);
        fallback = Some((guess, CharsetOrigin::Detected));
        guess
    };
    let charset = FileCharset {
        utf8_bom,
        utf16: None,
        declared,
        fallback,
        layout: layout_of(split_encoding),
    };
    Inspected { transcoded: None, start, charset, findings, valid_utf8, names_no_charset }
}

/// The first charset a `CA` in `text` names (and kifu knows), UTF-16 aside: in a file that is
/// not UTF-16 such a `CA` applies to its own game's values only.
pub(super) fn declared_in(text: &[u8]) -> Option<&'static Encoding> {
    short_ascii_values(text, &CA)
        .filter_map(|v| std::str::from_utf8(v).ok())
        .filter_map(resolve_label)
        .find(|&e| e != UTF_16LE && e != UTF_16BE)
}

/// One game's text, decoded.
#[derive(Clone, Debug)]
pub struct DecodedGame<'a> {
    /// The game's SGF text in UTF-8, borrowed when the bytes were valid UTF-8.
    pub text: Cow<'a, str>,
    /// The charset used.
    pub encoding: TextEncoding,
    /// `encoding`, `unknown-charset`, `charset-guessed`, `charset-mismatch` findings.
    pub findings: Vec<Finding>,
}

/// Chooses the charset of one game's bytes and decodes them (see the module documentation).
pub fn decode_game<'a>(
    bytes: &'a [u8],
    file: &FileCharset,
    options: &ReadOptions,
) -> DecodedGame<'a> {
    decode_game_known(bytes, KnownBytes::Unknown, false, file, options)
}

/// What is known of a game's bytes before they are decoded, from the look taken at its whole
/// file ([`prepare`]), so that they are not checked again.
#[derive(Clone, Copy, Debug)]
pub enum KnownBytes<'a> {
    /// Nothing.
    Unknown,
    /// They are valid UTF-8: the same bytes as text (a game of a file found valid UTF-8 as a
    /// whole, [`Prepared::valid_utf8`]).
    Utf8(&'a str),
    /// They are not valid UTF-8 and look like damaged UTF-8 (a game that is its whole file but
    /// for ASCII whitespace, in a file that names no charset and was found so:
    /// [`FileCharset::fallback`] is [`CharsetOrigin::DamagedUtf8`]). Trimming ASCII whitespace
    /// changes neither: it is valid UTF-8 alone, and no `AP[` value or `GN[]` of
    /// [`fox_marked`], nor any character or invalid sequence [`looks_like_damaged_utf8`]
    /// counts, holds any of it.
    DamagedUtf8,
}

/// [`decode_game`] of bytes of which something may be known already (`known`). `names_no_charset`
/// says the bytes are known to hold no `CA[` (a game of a file that holds none,
/// [`Prepared::names_no_charset`]), so they are not searched for one.
pub fn decode_game_known<'a>(
    bytes: &'a [u8],
    known: KnownBytes<'a>,
    names_no_charset: bool,
    file: &FileCharset,
    options: &ReadOptions,
) -> DecodedGame<'a> {
    debug_assert!(match known {
        KnownBytes::Unknown => true,
        KnownBytes::Utf8(text) => text.as_bytes() == bytes,
        KnownBytes::DamagedUtf8 =>
            std::str::from_utf8(bytes).is_err()
                && (fox_marked(bytes) || looks_like_damaged_utf8(bytes)),
    });
    debug_assert!(!names_no_charset || sniff_declared(bytes).is_none());
    if let Some(utf16) = file.utf16 {
        // Transcoded before splitting: the bytes are UTF-8 already.
        let text = utf8_lossy(bytes);
        let count = if utf16.had_errors { replacement_count(text.as_bytes()) } else { 0 };
        let replaced = count > 0;
        let mut findings = Vec::new();
        if replaced {
            findings.push(replaced_finding(count, utf16.encoding, utf16.origin));
        }
        let encoding = TextEncoding { name: utf16.encoding.name(), origin: utf16.origin, replaced };
        return DecodedGame { text, encoding, findings };
    }
    let mut findings = Vec::new();
    let (encoding, origin, valid) =
        choose(bytes, known, names_no_charset, file, options, &mut findings);
    let (text, replacements) = match valid {
        Some(text) => (Cow::Borrowed(text), None),
        None => decode_with(bytes, encoding),
    };
    let replaced = replacements.is_some();
    if let Some(count) = replacements {
        findings.push(replaced_finding(count, encoding, origin));
    }
    DecodedGame {
        text,
        encoding: TextEncoding { name: encoding.name(), origin, replaced },
        findings,
    }
}

/// Picks the charset of a game (steps 1-6 of the module documentation), with the text when
/// choosing it proved the bytes UTF-8 (nearly every game: no need to check them twice) or
/// they were known to be and are read as UTF-8.
fn choose<'a>(
    bytes: &'a [u8],
    known: KnownBytes<'a>,
    names_no_charset: bool,
    file: &FileCharset,
    options: &ReadOptions,
    findings: &mut Vec<Finding>,
) -> (&'static Encoding, CharsetOrigin, Option<&'a str>) {
    // Bytes known valid UTF-8 and read as UTF-8 need no check: the text is the bytes (what
    // decoding them with replacement gives too). A collection whose games each declare
    // `CA[UTF-8]` (tom-9d) and whose parts its survey checked: 0.84M instructions of 95M.
    let known_text = match known {
        KnownBytes::Utf8(text) => Some(text),
        _ => None,
    };
    if file.utf8_bom {
        return (UTF_8, CharsetOrigin::Bom, known_text);
    }
    let mut valid = None;
    let mut unknown_label = None;
    let sniffed = if names_no_charset { None } else { sniff_declared(bytes) };
    let declared = match sniffed {
        Some(label) => {
            let resolved = resolve_label(label);
            if resolved.is_none() {
                unknown_label = Some(label.to_owned());
            }
            resolved.or(file.declared)
        }
        None => file.declared,
    };
    let assumed = |findings: &mut Vec<Finding>| {
        let label = options.encoding.as_deref()?;
        let resolved = resolve_label(label);
        if resolved.is_none() {
            findings.push(Finding::new(
                Code::UnknownCharset,
                0,
                format!("--encoding {label:?} names no charset kifu knows; it was ignored"),
            ));
        }
        resolved
    };
    let chosen = match declared {
        Some(enc) => Some((enc, CharsetOrigin::Declared, "CA declares")),
        None => assumed(findings).map(|enc| (enc, CharsetOrigin::Assumed, "--encoding says")),
    };
    let (encoding, origin) = if let Some((enc, origin, who)) = chosen {
        if utf8_contradicts(bytes, enc) {
            findings.push(Finding::new(
                Code::CharsetMismatch,
                0,
                format!(
                    "{who} {} but the text is valid UTF-8 (re-saved without updating CA?): read \
                     as UTF-8",
                    enc.name()
                ),
            ));
            (UTF_8, CharsetOrigin::Utf8)
        } else {
            (enc, origin)
        }
    } else if let Some(text) = match known {
        KnownBytes::Utf8(text) => Some(text),
        KnownBytes::DamagedUtf8 => None,
        KnownBytes::Unknown => std::str::from_utf8(bytes).ok(),
    } {
        valid = Some(text);
        (UTF_8, CharsetOrigin::Utf8)
    } else if matches!(known, KnownBytes::DamagedUtf8)
        || fox_marked(bytes)
        || looks_like_damaged_utf8(bytes)
    {
        (UTF_8, CharsetOrigin::DamagedUtf8)
    } else {
        let guess = match file.fallback {
            Some((enc, CharsetOrigin::Detected)) => enc,
            _ => detect(bytes),
        };
        findings.push(Finding::new(
            Code::CharsetGuessed,
            0,
            format!("no CA and not UTF-8: the charset was guessed as {}", guess.name()),
        ));
        (guess, CharsetOrigin::Detected)
    };
    if let Some(label) = unknown_label {
        findings.push(Finding::new(
            Code::UnknownCharset,
            0,
            format!("CA[{label}] names no charset kifu knows; read as {}", encoding.name()),
        ));
    }
    if encoding == UTF_8 && valid.is_none() {
        valid = known_text;
    }
    (encoding, origin, valid)
}

/// Whether a game that declares the legacy charset `declared` is in fact valid UTF-8 with
/// real non-ASCII text (see the module documentation).
fn utf8_contradicts(bytes: &[u8], declared: &'static Encoding) -> bool {
    if declared == UTF_8 || declared == UTF_16LE || declared == UTF_16BE {
        return false;
    }
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    if text.is_ascii() {
        return false;
    }
    if declared.is_single_byte() {
        return true;
    }
    text.chars().filter(|&c| is_cjk(c)).take(4).count() >= 4
}

/// Kana, CJK ideographs (with extension A) and Hangul syllables: what real Chinese, Japanese
/// and Korean text is made of, and what GBK or Big5 bytes misread as UTF-8 rarely produce.
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3)
}

/// Decodes a game's bytes with `encoding`; when any byte was replaced, how many U+FFFD the
/// text holds (for the `encoding` finding).
fn decode_with<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> (Cow<'a, str>, Option<usize>) {
    if encoding == UTF_8 {
        let (text, inserted) = utf8_lossy_counted(bytes);
        // The U+FFFD put in, and any the bytes held already: counted on the bytes, where
        // EF BF BD is always a whole character (EF never continues one), and where a search
        // is not stopped by every U+FFFD put in (fox-pro: 16.6M instructions for the count
        // on the text).
        let count = matches!(text, Cow::Owned(_)).then(|| inserted + replacement_count(bytes));
        return (text, count);
    }
    let layout = layout_of(encoding);
    let utf16 = encoding == UTF_16LE || encoding == UTF_16BE;
    let (text, replaced) = if layout == ByteLayout::AsciiSafe && !utf16 {
        encoding.decode_without_bom_handling(bytes)
    } else {
        let (text, replaced) = decode_by_value(bytes, encoding, layout);
        (Cow::Owned(text), replaced)
    };
    let count = replaced.then(|| replacement_count(text.as_bytes()));
    (text, count)
}

/// `String::from_utf8_lossy`, the same text (each maximal invalid sequence replaced by one
/// U+FFFD), borrowed when the bytes are valid UTF-8, and built from [`Utf8Stretches`].
pub(super) fn utf8_lossy(bytes: &[u8]) -> Cow<'_, str> {
    utf8_lossy_counted(bytes).0
}

/// [`utf8_lossy`], and how many U+FFFD were put in (one for each invalid sequence).
fn utf8_lossy_counted(bytes: &[u8]) -> (Cow<'_, str>, usize) {
    let mut stretches = Utf8Stretches(bytes);
    let Some((first, damaged)) = stretches.next() else { return (Cow::Borrowed(""), 0) };
    if !damaged {
        // The first stretch ends at the first damage, or at the end: the whole text.
        return (Cow::Borrowed(first), 0);
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut inserted = 0;
    for (text, damaged) in std::iter::once((first, damaged)).chain(stretches) {
        out.push_str(text);
        if damaged {
            out.push(char::REPLACEMENT_CHARACTER);
            inserted += 1;
        }
    }
    (Cow::Owned(out), inserted)
}

/// How many U+FFFD (EF BF BD) the UTF-8 `bytes` hold (whole characters: an EF byte only ever
/// leads one, so no two overlap). Found by their EF, which Go records rarely hold otherwise
/// (it leads only U+F000 to U+FFFF): one byte searched for costs less than memmem's search
/// for the three (fox-pro: 5.9M instructions, 9,672 games).
fn replacement_count(bytes: &[u8]) -> usize {
    memchr::memchr_iter(0xEF, bytes)
        .filter(|&at| bytes[at + 1..].starts_with(&[0xBF, 0xBD]))
        .count()
}

/// The pieces `bytes[..].utf8_chunks()` yields, as (valid text, whether an invalid sequence
/// follows it), found with `from_utf8` instead: `Utf8Chunks` walks every byte, while
/// `from_utf8`'s word-at-a-time ASCII path runs over the valid stretches between the damaged
/// bytes, which are most of a Fox record (fox-pro: 9,668 files decoded with replacement). An
/// invalid sequence is the one `Utf8Error::error_len` delimits, or the rest of the bytes when
/// they end inside a character.
struct Utf8Stretches<'a>(&'a [u8]);

impl<'a> Iterator for Utf8Stretches<'a> {
    type Item = (&'a str, bool);

    fn next(&mut self) -> Option<(&'a str, bool)> {
        if self.0.is_empty() {
            return None;
        }
        match std::str::from_utf8(self.0) {
            Ok(text) => {
                self.0 = &[];
                Some((text, false))
            }
            Err(error) => {
                let (valid, after) = self.0.split_at(error.valid_up_to());
                self.0 = error.error_len().map_or(&[], |len| &after[len..]);
                // SAFETY: `from_utf8` found `valid` (the bytes before `valid_up_to()`) valid.
                Some((unsafe { std::str::from_utf8_unchecked(valid) }, true))
            }
        }
    }
}

/// Decodes one property value at a time, copying the SGF structure between values as ASCII,
/// so that no byte of a multibyte character can be read as `]` or `\` and the `FF[4]` escapes
/// between lead and trail bytes are dropped. Also serves a `CA[UTF-16LE]` game inside an
/// ASCII file (sgfc's mixed-encoding test), whose values alone are UTF-16.
fn decode_by_value(
    bytes: &[u8],
    encoding: &'static Encoding,
    layout: ByteLayout,
) -> (String, bool) {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    let mut replaced = false;
    let mut escapes = Vec::new();
    let mut value = Vec::new();
    let mut pos = 0;
    loop {
        let Some(k) = memchr::memchr(b'[', &bytes[pos..]) else {
            replaced |= push_structure(&mut out, &bytes[pos..], encoding);
            break;
        };
        let open = pos + k;
        replaced |= push_structure(&mut out, &bytes[pos..=open], encoding);
        escapes.clear();
        let end = scan_value(bytes, open + 1, layout, false, &mut |i| escapes.push(i));
        let content_end = match end {
            ValueEnd::Closed(q) => q,
            ValueEnd::Eof | ValueEnd::NewRoot(_) => bytes.len(),
        };
        let content = &bytes[open + 1..content_end];
        if !needs_decoding(content, encoding, &escapes) {
            // Plain ASCII: the same in every charset handled here.
            out.extend(content.iter().map(|&b| char::from(b)));
        } else {
            value.clear();
            let mut from = open + 1;
            for &e in &escapes {
                value.extend_from_slice(&bytes[from..e]);
                from = e + 1;
            }
            value.extend_from_slice(&bytes[from..content_end]);
            // In an ASCII file, only values holding NUL bytes are really UTF-16; the others
            // (`FF[4]`, `CA[UTF-16LE]` itself) are single bytes.
            let utf16 = encoding == UTF_16LE || encoding == UTF_16BE;
            let value_encoding =
                if utf16 && memchr::memchr(0, &value).is_none() { UTF_8 } else { encoding };
            let (text, had_errors) = value_encoding.decode_without_bom_handling(&value);
            out.push_str(&text);
            replaced |= had_errors;
        }
        match end {
            ValueEnd::Closed(q) => {
                out.push(']');
                pos = q + 1;
            }
            ValueEnd::Eof | ValueEnd::NewRoot(_) => break,
        }
    }
    (out, replaced)
}

fn needs_decoding(content: &[u8], encoding: &'static Encoding, escapes: &[usize]) -> bool {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        true
    } else if encoding == ISO_2022_JP {
        memchr::memchr(0x1B, content).is_some()
    } else {
        !escapes.is_empty() || !content.is_ascii()
    }
}

/// Appends SGF structure (identifiers, `;`, `(`, `)`, whitespace): ASCII is copied; runs of
/// other bytes (junk) are decoded on their own so they cannot swallow the `[` after them.
fn push_structure(out: &mut String, bytes: &[u8], encoding: &'static Encoding) -> bool {
    let mut replaced = false;
    let mut rest = bytes;
    while !rest.is_empty() {
        let ascii = rest.iter().position(|b| !b.is_ascii()).unwrap_or(rest.len());
        out.extend(rest[..ascii].iter().map(|&b| char::from(b)));
        rest = &rest[ascii..];
        let high = rest.iter().position(|b| b.is_ascii()).unwrap_or(rest.len());
        if high > 0 {
            let (text, had_errors) = encoding.decode_without_bom_handling(&rest[..high]);
            out.push_str(&text);
            replaced |= had_errors;
        }
        rest = &rest[high..];
    }
    replaced
}

/// The `encoding` finding for a game whose bytes were partly replaced, its text holding
/// `count` U+FFFD.
fn replaced_finding(count: usize, encoding: &'static Encoding, origin: CharsetOrigin) -> Finding {
    let plural = if count == 1 { "" } else { "s" };
    let what = match origin {
        CharsetOrigin::DamagedUtf8 => {
            " (damaged UTF-8: bytes replaced by '?', as the Fox server writes; the damaged \
             characters cannot be recovered)"
        }
        _ => "",
    };
    // One a game in Fox files (fox-pro: 9,668): pieces, not `format!`.
    let message = [
        &count.to_string(),
        " byte sequence",
        plural,
        " invalid in ",
        encoding.name(),
        " replaced with U+FFFD",
        what,
    ]
    .concat();
    Finding::new(Code::Encoding, 0, message).with_severity(Severity::Warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_encoding_rs_lacks_are_aliased() {
        assert_eq!(resolve_label("cp936"), Some(GBK));
        assert_eq!(resolve_label(" CP932 "), Some(SHIFT_JIS));
        assert_eq!(resolve_label("cp949"), Some(EUC_KR));
        assert_eq!(resolve_label("EUC-CN"), Some(GBK));
        assert_eq!(resolve_label("iso8859_1"), Some(WINDOWS_1252));
        assert_eq!(resolve_label("euc_kr"), Some(EUC_KR));
        assert_eq!(resolve_label("MS_KANJI"), Some(SHIFT_JIS));
        assert_eq!(resolve_label("\"UTF-8\""), Some(UTF_8));
        assert_eq!(resolve_label("hz-gb-2312"), None);
        assert_eq!(resolve_label("xyz-123"), None);
    }

    #[test]
    fn utf_8_in_any_case_is_what_encoding_rs_finds_for_it() {
        for label in ["UTF-8", "utf-8", "Utf-8", "uTF-8"] {
            assert_eq!(resolve_label(label), Some(UTF_8));
            assert_eq!(Encoding::for_label_no_replacement(label.as_bytes()), Some(UTF_8));
        }
        assert_eq!(resolve_label("utf-8x"), None);
        assert_eq!(resolve_label(" utf_8 "), Some(UTF_8));
    }

    #[test]
    fn ca_is_sniffed_but_not_inside_a_longer_identifier() {
        assert_eq!(sniff_declared(b"(;FF[4]XCA[x]CA[ GB2312 ]GM[1])"), Some(" GB2312 "));
        assert_eq!(sniff_declared(b"(;FF[4]GM[1])"), None);
    }

    #[test]
    fn fox_markers() {
        assert!(fox_marked(b"(;GM[1]AP[GNU Go:3.8]AP[foxwq])"));
        assert!(fox_marked(b"(;GM[1]GN[]AP[GNU Go:3.8])"));
        assert!(!fox_marked(b"(;GM[1]GN[x]AP[GNU Go:3.8])"));
        assert!(!fox_marked(b"(;GM[1]C[AP[foxwq\\]])"));
    }

    #[test]
    fn damaged_utf8_is_told_from_gbk() {
        // 柯洁 and 党毅飞 in UTF-8 with the middle byte of one character replaced by '?'.
        let damaged = "PB[柯洁]PW[党毅飞]"
            .as_bytes()
            .iter()
            .enumerate()
            .map(|(i, &b)| if i == 4 { b'?' } else { b })
            .collect::<Vec<_>>();
        assert!(looks_like_damaged_utf8(&damaged));
        let (gbk, _, _) = GBK.encode("PB[柯洁]PW[党毅飞]");
        assert!(!looks_like_damaged_utf8(&gbk));
    }

    #[test]
    fn the_replacement_finding_writes_its_count_in_decimal() {
        for count in [0, 1, 9, 10, 11, 407, 1_000_000, usize::MAX] {
            let finding = replaced_finding(count, UTF_8, CharsetOrigin::Utf8);
            let plural = if count == 1 { "" } else { "s" };
            let want =
                format!("{count} byte sequence{plural} invalid in UTF-8 replaced with U+FFFD");
            assert_eq!(finding.message, want);
        }
    }

    #[test]
    fn lossy_decoding_and_damage_counts_are_the_standard_library_s() {
        // Every kind of damage: Fox's '?' in the middle of a character, a cut at the end,
        // overlong forms, surrogates, code points past U+10FFFF, stray continuation bytes,
        // a U+FFFD already in the text, one cut short, and another character led by EF.
        let pieces: &[&[u8]] = &[
            "C[柯洁]".as_bytes(),
            b"\xE6\x9F?",
            b"\xE6?",
            b"\xC0\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\x80\x80",
            b"\xFF",
            "\u{FFFD}".as_bytes(),
            b"\xEF\xBF",
            "（".as_bytes(),
            b";B[pd]",
            b"\xF0\x9F\x98",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..2_000 {
            let mut bytes = Vec::new();
            for _ in 0..8 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.extend_from_slice(pieces[(seed % pieces.len() as u64) as usize]);
            }
            for end in [bytes.len(), bytes.len().saturating_sub(1), bytes.len() / 2] {
                let part = &bytes[..end];
                let chunks = part.utf8_chunks().fold((0, 0), |(valid, invalid), chunk| {
                    let leads = chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
                    (valid + leads, invalid + usize::from(!chunk.invalid().is_empty()))
                });
                assert_eq!(utf8_damage(part), chunks, "{part:?}");
                let (ours, inserted) = utf8_lossy_counted(part);
                let theirs = String::from_utf8_lossy(part);
                assert_eq!(ours, theirs, "{part:?}");
                assert_eq!(matches!(ours, Cow::Borrowed(_)), std::str::from_utf8(part).is_ok());
                // The count the `encoding` finding gives, from the bytes, is the text's.
                let in_text = theirs.chars().filter(|&c| c == '\u{FFFD}').count();
                assert_eq!(inserted + replacement_count(part), in_text, "{part:?}");
                assert_eq!(replacement_count(theirs.as_bytes()), in_text, "{part:?}");
            }
        }
    }
}
