//! The glue the pipeline calls: a file's bytes split into [`PendingGame`]s (cheap, sequential),
//! each of which is later decoded and parsed by [`PendingGame::read`] (the expensive part, run
//! in parallel).
//!
//! # Every input is accounted for
//!
//! A curator must find every file they pointed kifu at in `games.csv`, not only in a log. So:
//! - a file with N game trees yields N pending games, numbered 1..=N in file order;
//! - a file with **no game tree** (empty, HTML saved as `.sgf`, a stray text file) yields
//!   **one** pending game, number 1 at offset 0, whose record is [`ReadStatus::Failed`](super::ReadStatus::Failed) with a
//!   `no-game` finding that quotes the start of the file; [`PendingGame::has_tree`] is false
//!   for it, so counts of games found can leave it out;
//! - a source that could not be read at all (`io`, `archive`, `limit`: see [`split_source`])
//!   yields one such pending game too, carrying that finding.
//!
//! - a game refused by a [`super::Limits`] limit is still a pending game: one tree too deep to
//!   be closed, or too large to parse ([`PendingGame::read`] measures it first, see
//!   [`super::limits`]), reads as a [`ReadStatus::Failed`](super::ReadStatus::Failed) record with a `limit` finding; the
//!   trees of a file beyond its `games` limit are counted and become **one** pending game after
//!   the last one kept, whose `limit` finding says how many trees it stands for
//!   ([`PendingGame::trees`]).
//!
//! Findings about the file rather than one game (junk between trees, byte-order marks) are in
//! [`SplitFile::findings`], to be reported with game number 0. Findings about one game's
//! framing (an unclosed tree, a tree cut short by the next game, a missing `;`) and its
//! decoding are put first among that game's record findings.
//!
//! # Repairs
//!
//! A tree that is not closed is read as if it were: the missing `]` and `)` are appended to the
//! text handed to the parser, and an `unclosed` finding says so. A tree without its first `;`
//! (Sina-style scrapes), or without its `(` (some Fox files), is read as if it were there, with
//! a `syntax` warning. No repair touches the bytes; offsets and lines always refer to the file
//! as read (for a tree without its `(`, the offset is that of its first `;`).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::charset::{self, DecodedGame, FileCharset, KnownBytes};
use super::input::Source;
use super::limits;
use super::split::{self, ByteLayout, Opening, Stray, Tree, TreeEnd};
use super::{CharsetOrigin, GameLocation, GameRecord, ReadOptions, TextEncoding};
use crate::finding::{Code, Finding, Severity};

/// A file split into games.
#[derive(Clone, Debug, Default)]
pub struct SplitFile {
    /// One per game tree, in file order; exactly one when the file holds none (see the module
    /// documentation).
    pub games: Vec<PendingGame>,
    /// Findings about the file rather than one game: `junk`, `bom`. Report them with game 0.
    pub findings: Vec<Finding>,
}

/// One game of a file, found but not yet decoded or parsed. Cheap to hold: the file's bytes
/// are shared, a game is a range of them.
pub struct PendingGame {
    /// Where the game is: source name, 1-based index in the file, byte offset and line of its
    /// `(` (for a UTF-16 file: in its UTF-8 transcoding).
    pub location: GameLocation,
    file: Arc<FileText>,
    range: Range<usize>,
    kind: Kind,
    /// The game already read, when reading it was how its file was split ([`split_small`]):
    /// what the first [`PendingGame::read`] returns.
    ahead: Mutex<Option<Box<GameRecord>>>,
}

impl PendingGame {
    fn new(location: GameLocation, file: &Arc<FileText>, range: Range<usize>, kind: Kind) -> Self {
        PendingGame { location, file: Arc::clone(file), range, kind, ahead: Mutex::new(None) }
    }
}

/// A copy reads the game afresh: a record read ahead stays with the original.
impl Clone for PendingGame {
    fn clone(&self) -> PendingGame {
        PendingGame::new(self.location.clone(), &self.file, self.range.clone(), self.kind.clone())
    }
}

impl std::fmt::Debug for PendingGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingGame")
            .field("location", &self.location)
            .field("file", &self.file)
            .field("range", &self.range)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// The bytes a pending game points into (a whole file, or one part of a file read part by
/// part: [`super::parts`]) and how they are decoded.
#[derive(Debug)]
pub(super) struct FileText {
    pub(super) bytes: TextBytes,
    pub(super) charset: FileCharset,
    /// Where the text that was found valid UTF-8 as a whole starts (past a byte-order mark):
    /// `Some` only when every byte from there was checked: a file read whole
    /// ([`charset::Prepared::valid_utf8`]), or a part its file's survey checked (see
    /// [`super::parts`]).
    pub(super) valid_utf8_from: Option<usize>,
    /// Where the text that holds no `CA[` at all starts: `Some` only for a file read whole
    /// and searched whole ([`charset::Prepared::names_no_charset`]), so that its games are not
    /// searched again.
    pub(super) no_charset_from: Option<usize>,
}

/// The bytes of a [`FileText`]: a whole file's, shared with the source that read them, or a
/// part's, moved out of the buffer the part was read into rather than copied out of it (a
/// copy cost 1.1M instructions a tom-9d collection of 1.1 MB).
#[derive(Debug)]
pub(super) enum TextBytes {
    Shared(Arc<[u8]>),
    Owned(Vec<u8>),
}

impl std::ops::Deref for TextBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            TextBytes::Shared(bytes) => bytes,
            TextBytes::Owned(bytes) => bytes,
        }
    }
}

impl FileText {
    /// `bytes[range]` as text when the bytes are known to be valid UTF-8 without a new check:
    /// inside the text found valid as a whole, and cut at character boundaries.
    fn known_utf8(&self, range: Range<usize>) -> Option<&str> {
        let from = self.valid_utf8_from?;
        let bytes = &self.bytes;
        // A byte that is not a UTF-8 continuation byte (10xxxxxx) starts a character.
        let boundary = |at: usize| at == bytes.len() || (bytes[at] as i8) >= -0x40;
        if range.start < from || range.end > bytes.len() || range.start > range.end {
            return None;
        }
        if !boundary(range.start) || !boundary(range.end) {
            return None;
        }
        let slice = &bytes[range];
        // SAFETY: `bytes[from..]` was checked valid UTF-8 by `std::str::from_utf8` when the
        // file was prepared or its part surveyed (`valid_utf8_from` is set only then, and the
        // bytes of a `FileText` never change), and `slice` lies inside it and starts and ends
        // on character boundaries (checked above), so it is valid UTF-8 itself.
        Some(unsafe { std::str::from_utf8_unchecked(slice) })
    }
}

impl FileText {
    /// Whether `bytes[range]` is the whole text of a file that names no charset and was found
    /// to be damaged UTF-8 ([`CharsetOrigin::DamagedUtf8`]), but for ASCII whitespace before and
    /// after it: what [`KnownBytes::DamagedUtf8`] says of it then holds (the Fox server's
    /// files, one game each: fox-pro, 9,668 files, whose games were checked again).
    fn is_whole_damaged_utf8(&self, range: Range<usize>) -> bool {
        let Some(from) = self.no_charset_from else { return false };
        matches!(self.charset.fallback, Some((_, CharsetOrigin::DamagedUtf8)))
            && !self.charset.utf8_bom
            && self.charset.declared.is_none()
            && from <= range.start
            && range.start <= range.end
            && self
                .bytes
                .get(from..range.start)
                .is_some_and(|b| b.iter().all(u8::is_ascii_whitespace))
            && self.bytes.get(range.end..).is_some_and(|b| b.iter().all(u8::is_ascii_whitespace))
    }
}

/// Where a run of bytes handed to the splitter sits in its file: what turns the splitter's
/// offsets, lines and game numbers, which count from the start of the bytes it was given,
/// into the file's.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// Offset of the bytes' first byte in the file.
    pub(super) offset: usize,
    /// Line of that byte, minus one.
    pub(super) lines_before: u32,
    /// Games of the file before these bytes.
    pub(super) games_before: usize,
    /// Whether the bytes run to the end of the file.
    pub(super) last: bool,
}

impl Frame {
    /// A whole file.
    pub(super) const WHOLE: Frame =
        Frame { offset: 0, lines_before: 0, games_before: 0, last: true };
}

#[derive(Clone, Debug)]
enum Kind {
    /// A game tree, with what must be repaired before parsing and the splitter's findings.
    Tree { closing: String, opening: Opening, findings: Vec<Finding> },
    /// No game tree: the file held none, or could not be read. The finding says which.
    Missing(Finding),
    /// `trees` game trees refused by a limit before decoding (a tree nested too deep to close,
    /// or the trees beyond the `games` limit). The `limit` finding says which.
    Refused { finding: Finding, trees: u64 },
}

/// The encoding reported for a game that was never decoded.
const NOT_DECODED: TextEncoding =
    TextEncoding { name: "none", origin: CharsetOrigin::NotDecoded, replaced: false };

impl PendingGame {
    /// Whether a game tree was found (false for the stand-in of a file with no game or one that
    /// could not be read; true for trees refused by a limit).
    pub fn has_tree(&self) -> bool {
        matches!(self.kind, Kind::Tree { .. } | Kind::Refused { .. })
    }

    /// How many game trees of the file this pending game stands for: 1 for a tree, 0 for the
    /// stand-in of a file with no game or one that could not be read, and all of the trees
    /// beyond the `games` limit for the one pending game that reports them. Summed over a file's
    /// pending games, it is the number of trees in the file.
    pub fn trees(&self) -> u64 {
        match &self.kind {
            Kind::Tree { .. } => 1,
            Kind::Missing(_) => 0,
            Kind::Refused { trees, .. } => *trees,
        }
    }

    /// Whether the game's bytes are known valid UTF-8 without a check of their own (see
    /// [`FileText::valid_utf8_from`]).
    #[cfg(test)]
    pub(super) fn known_valid_utf8(&self) -> bool {
        self.file.known_utf8(self.range.clone()).is_some()
    }

    /// The game's bytes in the file, from its `(` to its `)` (or where it was cut off).
    pub fn bytes(&self) -> &[u8] {
        &self.file.bytes[self.range.clone()]
    }

    /// Decodes the game's text (charset chosen as [`charset`] describes), with the repairs of
    /// the module documentation applied. The findings are the framing and decoding ones.
    pub fn decode(&self, options: &ReadOptions) -> DecodedGame<'_> {
        let Kind::Tree { closing, opening, findings } = &self.kind else {
            let findings = match &self.kind {
                Kind::Missing(finding) | Kind::Refused { finding, .. } => vec![finding.clone()],
                Kind::Tree { .. } => Vec::new(),
            };
            return DecodedGame { text: Cow::Borrowed(""), encoding: NOT_DECODED, findings };
        };
        // A game inside text that holds no `CA[` holds none either.
        let names_no_charset =
            self.file.no_charset_from.is_some_and(|from| self.range.start >= from);
        let known = match self.file.known_utf8(self.range.clone()) {
            Some(text) => KnownBytes::Utf8(text),
            None if self.file.is_whole_damaged_utf8(self.range.clone()) => KnownBytes::DamagedUtf8,
            None => KnownBytes::Unknown,
        };
        let mut decoded = charset::decode_game_known(
            self.bytes(),
            known,
            names_no_charset,
            &self.file.charset,
            options,
        );
        if *opening != Opening::Normal || !closing.is_empty() {
            let text = decoded.text.as_ref();
            let mut repaired = String::with_capacity(text.len() + closing.len() + 1);
            match (opening, text.strip_prefix('(')) {
                (Opening::NoSemicolon, Some(rest)) => {
                    repaired.push_str("(;");
                    repaired.push_str(rest);
                }
                (Opening::NoParen, _) => {
                    repaired.push('(');
                    repaired.push_str(text);
                }
                _ => repaired.push_str(text),
            }
            repaired.push_str(closing);
            decoded.text = Cow::Owned(repaired);
        }
        // The framing findings come first. Most trees have none: the decoding's own list is
        // then kept as it is, not copied into a new one (a Fox file's damaged UTF-8 has one
        // finding a game, 9,668 lists allocated and freed for nothing on fox-pro).
        if !findings.is_empty() {
            let mut all = findings.clone();
            all.append(&mut decoded.findings);
            decoded.findings = all;
        }
        decoded
    }

    /// Decodes and parses the game into a record (kifu's streaming reader, [`super::fast`], or
    /// sgf-parse where it declines: [`super::fast::read_game`]), with the
    /// framing and decoding findings first among its findings. Never fails: a game that cannot
    /// be read comes back [`ReadStatus::Failed`](super::ReadStatus::Failed) with the reason.
    ///
    /// The limits on a game ([`super::Limits`]: nodes, depth, value length) are checked on the
    /// decoded text before it is parsed, and the board side after; a game over one comes back
    /// [`ReadStatus::Failed`](super::ReadStatus::Failed) with a `limit` finding.
    pub fn read(&self, options: &ReadOptions) -> GameRecord {
        if let Some(record) = self.ahead.lock().ok().and_then(|mut ahead| ahead.take()) {
            return *record;
        }
        if let Kind::Missing(finding) | Kind::Refused { finding, .. } = &self.kind {
            return refused(self.location.clone(), NOT_DECODED, Vec::new(), finding.clone());
        }
        let decoded = self.decode(options);
        let fast = super::fast::read_game_fast(
            &decoded.text,
            self.location.clone(),
            decoded.encoding,
            &options.limits,
        );
        let record = match fast {
            Ok(record) => record,
            // The fast reader declines every game over a limit (and games outside its subset):
            // the limits are checked here, then sgf-parse reads the game.
            Err(declined) => {
                let location = declined.location;
                let text = decoded.text.as_bytes();
                if let Err(finding) = limits::game_shape(text, &options.limits) {
                    return refused(location, decoded.encoding, decoded.findings, finding);
                }
                super::sgf::read_game(&decoded.text, location, decoded.encoding, options)
            }
        };
        self.finish_read(decoded.findings, record, options)
    }

    /// The end of [`PendingGame::read`] once the text is parsed: the framing and decoding
    /// `findings` first, then the limit on the board's side.
    fn finish_read(
        &self,
        mut findings: Vec<Finding>,
        mut record: GameRecord,
        options: &ReadOptions,
    ) -> GameRecord {
        // Most games have no framing or decoding finding: the record's own list is kept as it
        // is, not copied into an empty one.
        if !findings.is_empty() {
            findings.append(&mut record.findings);
            record.findings = findings;
        }
        let side = options.limits.max_board_side;
        if record.size.width > side || record.size.height > side {
            let finding = Finding::new(
                Code::Limit,
                0,
                format!(
                    "a {} board, larger than the limit of {side} (--limit board-side=N): the \
                     game was not replayed",
                    record.size
                ),
            );
            let findings = std::mem::take(&mut record.findings);
            return refused(self.location.clone(), record.encoding, findings, finding);
        }
        record
    }
}

/// The record of a game refused before it was read: unparsed, with `findings` then the finding
/// that says why.
fn refused(
    location: GameLocation,
    encoding: TextEncoding,
    mut findings: Vec<Finding>,
    reason: Finding,
) -> GameRecord {
    let mut record = super::unparsed(location, encoding, &reason.message);
    findings.push(reason);
    record.findings = findings;
    record
}

/// Splits a source: its bytes through [`split_file`], or, when it could not be read, one
/// stand-in game carrying the finding that says why.
pub fn split_source(source: Source, options: &ReadOptions) -> SplitFile {
    let bytes = match &source.large {
        // Left unread for its size: read whole here (the pipeline reads it part by part, with
        // `split_parts`).
        Some(large) => super::input::read_large(large, options.limits),
        None => source.bytes,
    };
    match bytes {
        Ok(bytes) => split_file(&source.name, bytes, options),
        Err(finding) => {
            let file = Arc::new(FileText {
                bytes: TextBytes::Owned(Vec::new()),
                charset: empty_charset(),
                valid_utf8_from: None,
                no_charset_from: None,
            });
            let game = stand_in(&source.name, file, finding);
            SplitFile { games: vec![game], findings: Vec::new() }
        }
    }
}

/// Finds the games of one file (see the module documentation for how a file with no game is
/// accounted for). Cheap: one pass over the bytes, no decoding or parsing.
pub fn split_file(name: &str, bytes: Arc<[u8]>, options: &ReadOptions) -> SplitFile {
    let (file, start, findings) = prepare_file(bytes, options);
    split_prepared(name, file, start, findings, options)
}

/// [`split_file`] for a small file, done where its games are read: a file whose text from its
/// first `(` is one game tree that the fast reader takes whole, followed by nothing but ASCII
/// whitespace, is split by reading that game (the one pending game comes back with its record
/// read, for [`PendingGame::read`] to return), which spares the splitter's pass over a game
/// that the reader reads anyway; any other file is split as [`split_file`] splits it. The
/// result is the same either way (`read_whole_tree` says why).
///
/// The source is borrowed, so that the caller keeps its name for the file's report instead of
/// copying it first (a string a file).
pub fn split_small(source: &Source, options: &ReadOptions) -> SplitFile {
    let bytes = match &source.bytes {
        Ok(bytes) if source.large.is_none() => Arc::clone(bytes),
        // Unread (a finding) or left unread for its size: rare, a copy is no matter.
        _ => return split_source(source.clone(), options),
    };
    let (file, start, findings) = prepare_file(bytes, options);
    if let Some(game) = read_whole_tree(&source.name, &file, start, options) {
        return SplitFile { games: vec![game], findings };
    }
    split_prepared(&source.name, file, start, findings, options)
}

/// A file's bytes with their charset decided: the text, where the text proper starts (past a
/// byte-order mark) and the findings about the charset.
fn prepare_file(bytes: Arc<[u8]>, options: &ReadOptions) -> (Arc<FileText>, usize, Vec<Finding>) {
    let prepared = charset::prepare(bytes, options);
    let file = Arc::new(FileText {
        bytes: TextBytes::Shared(prepared.bytes),
        charset: prepared.charset,
        valid_utf8_from: prepared.valid_utf8.then_some(prepared.start),
        no_charset_from: prepared.names_no_charset.then_some(prepared.start),
    });
    (file, prepared.start, prepared.findings)
}

/// The one game of a file that holds exactly one game tree, from its first byte that is not
/// ASCII whitespace (at or after `start`) to its last, read ahead, or `None` when that cannot
/// be told by reading it with the fast reader alone: the file is not split as single bytes
/// ([`ByteLayout::AsciiSafe`]) or its game not decoded as the bytes are (UTF-8), or the
/// `games` limit is 0, or the fast reader declines the text, or something other than ASCII
/// whitespace follows the tree.
///
/// Why the splitter would find the same single tree: on such text it ends a value at the
/// first `]` that no `\` escapes and counts `(` and `)` outside values, as the fast reader's
/// grammar does; the fast reader accepts only `(`, ASCII whitespace, `;` before its first node
/// (the splitter's normal opening) and a text that closes every `(` it opens, and the gaps
/// before and after the tree are ASCII whitespace, which the splitter passes over without a
/// finding. What the reader is handed is the same text the game's own range decodes to,
/// trimmed (checked: both decode borrowed, to the same encoding, with the same findings).
fn read_whole_tree(
    name: &str,
    file: &Arc<FileText>,
    start: usize,
    options: &ReadOptions,
) -> Option<PendingGame> {
    let bytes = &file.bytes;
    if file.charset.layout != ByteLayout::AsciiSafe || options.limits.max_games_per_file == 0 {
        return None;
    }
    // A file with a fallback charset was found not to be UTF-8 when it was prepared, and text
    // borrowed from bytes that are not UTF-8 cannot be: every charset decodes them into new
    // text, so its game would not decode borrowed. Damaged UTF-8 has its own way below; any
    // other fallback is split first.
    let damaged_utf8 = match file.charset.fallback {
        None => false,
        Some((_, CharsetOrigin::DamagedUtf8)) => true,
        Some(_) => return None,
    };
    let at = start + bytes.get(start..)?.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[at] != b'(' {
        return None;
    }
    let newlines = memchr::memchr_iter(b'\n', &bytes[..at]).count();
    let line = u32::try_from(newlines).unwrap_or(u32::MAX).saturating_add(1);
    if damaged_utf8 {
        return read_whole_damaged_tree(name, file, at, line, options);
    }
    let whole = Tree {
        start: at,
        end: bytes.len(),
        line,
        end_kind: TreeEnd::Closed,
        opening: Opening::Normal,
    };
    let mut game = pending_tree(name, file, 0, &whole, &options.limits, Frame::WHOLE);
    let (record, end, encoding, findings) = {
        let decoded = game.decode(options);
        let Cow::Borrowed(text) = decoded.text else { return None };
        let location = game.location.clone();
        let record =
            super::fast::read_game_fast(text, location, decoded.encoding, &options.limits).ok()?;
        (record, at + text.trim_end().len(), decoded.encoding, decoded.findings)
    };
    if !bytes[end..].iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    game.range = at..end;
    let exact = game.decode(options);
    if !matches!(exact.text, Cow::Borrowed(_))
        || exact.encoding != encoding
        || exact.findings != findings
    {
        return None;
    }
    let record = game.finish_read(exact.findings, record, options);
    game.ahead = Mutex::new(Some(Box::new(record)));
    Some(game)
}

/// [`read_whole_tree`] for a file of damaged UTF-8 (the Fox server's,
/// [`CharsetOrigin::DamagedUtf8`]), whose tree starts at `at` on line `line`: its game is the
/// text from `at` to the file's last byte that is not ASCII whitespace, decoded once, with
/// replacement characters, as the split file's game would be, or `None` when the fast reader
/// declines that text or it does not end with the tree's `)`.
///
/// Why the splitter would find that very tree: it scans such a file as single bytes
/// ([`ByteLayout::AsciiSafe`]), where only ASCII bytes (`(`, `)`, `[`, `]`, `\`, `;`) make the
/// structure; decoding UTF-8 with replacement keeps every ASCII byte, in order, and turns only
/// runs of other bytes into other characters, none of them ASCII, so the text the reader
/// accepted has the structure of the bytes (a `\` before a damaged byte escapes a character
/// that is not ASCII in both). The reader accepts `ws* tree ws*`; the text ends with `)`, so
/// the tree closes at its last byte, and only ASCII whitespace lies outside it, which the
/// splitter passes over without a finding. The range is the one the splitter gives the tree
/// and is decoded by [`PendingGame::decode`], as the split file's game would be.
fn read_whole_damaged_tree(
    name: &str,
    file: &Arc<FileText>,
    at: usize,
    line: u32,
    options: &ReadOptions,
) -> Option<PendingGame> {
    let bytes = &file.bytes;
    let trailing = bytes.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    // `bytes[at]` is `(`, so the end lies past it.
    let end = bytes.len() - trailing;
    let tree = Tree { start: at, end, line, end_kind: TreeEnd::Closed, opening: Opening::Normal };
    let mut game = pending_tree(name, file, 0, &tree, &options.limits, Frame::WHOLE);
    let decoded = game.decode(options);
    if !decoded.text.ends_with(')') {
        return None;
    }
    let location = game.location.clone();
    let record =
        super::fast::read_game_fast(&decoded.text, location, decoded.encoding, &options.limits)
            .ok()?;
    let record = game.finish_read(decoded.findings, record, options);
    game.ahead = Mutex::new(Some(Box::new(record)));
    Some(game)
}

/// The rest of [`split_file`], on a file whose charset is decided.
fn split_prepared(
    name: &str,
    file: Arc<FileText>,
    start: usize,
    mut findings: Vec<Finding>,
    options: &ReadOptions,
) -> SplitFile {
    let limits = &options.limits;
    let max_trees = usize::try_from(limits.max_games_per_file).unwrap_or(usize::MAX);
    let found = split::split_at_most(&file.bytes, start, file.charset.layout, max_trees);
    if found.trees.is_empty() && found.beyond.is_none() {
        let finding = Finding::new(Code::NoGame, 0, describe_no_game(&file.bytes[start..]));
        return SplitFile { games: vec![stand_in(name, file, finding)], findings };
    }
    let frame = Frame::WHOLE;
    findings.extend(
        found.strays.iter().map(|stray| stray_finding(stray, &found.trees, &file.bytes, frame)),
    );
    let mut games: Vec<PendingGame> = found
        .trees
        .iter()
        .enumerate()
        .map(|(i, tree)| pending_tree(name, &file, i, tree, limits, frame))
        .collect();
    if let Some(beyond) = found.beyond {
        games.push(beyond_limit(name, &file, games.len(), beyond, limits));
    }
    SplitFile { games, findings }
}

/// The one pending game that stands for the trees beyond the `games` limit.
pub(super) fn beyond_limit(
    name: &str,
    file: &Arc<FileText>,
    kept: usize,
    beyond: split::Beyond,
    limits: &super::Limits,
) -> PendingGame {
    let total = kept as u64 + beyond.count;
    let finding = Finding::new(
        Code::Limit,
        0,
        format!(
            "the file holds {total} game trees, more than the limit of {} games per file \
             (--limit games=N): the last {} (from line {}, byte {}) were counted, not read",
            limits.max_games_per_file, beyond.count, beyond.line, beyond.start
        ),
    );
    let location = GameLocation {
        source: name.to_owned(),
        game: u32::try_from(kept + 1).unwrap_or(u32::MAX),
        offset: beyond.start as u64,
        line: beyond.line,
    };
    // Nothing to read; `beyond.start` is in the file, which may be past these bytes when the
    // file is read part by part.
    PendingGame::new(location, file, 0..0, Kind::Refused { finding, trees: beyond.count })
}

pub(super) fn empty_charset() -> FileCharset {
    FileCharset {
        utf8_bom: false,
        utf16: None,
        declared: None,
        fallback: None,
        layout: split::ByteLayout::AsciiSafe,
    }
}

pub(super) fn stand_in(name: &str, file: Arc<FileText>, finding: Finding) -> PendingGame {
    let location = GameLocation { source: name.to_owned(), game: 1, offset: 0, line: 1 };
    PendingGame::new(location, &file, 0..0, Kind::Missing(finding))
}

/// The pending game of the `index`-th tree (0-based) of bytes sitting at `frame` in the file.
pub(super) fn pending_tree(
    name: &str,
    file: &Arc<FileText>,
    index: usize,
    tree: &Tree,
    limits: &super::Limits,
    frame: Frame,
) -> PendingGame {
    let location = GameLocation {
        source: name.to_owned(),
        game: u32::try_from(frame.games_before + index + 1).unwrap_or(u32::MAX),
        offset: (frame.offset + tree.start) as u64,
        line: frame.lines_before.saturating_add(tree.line),
    };
    let range = tree.start..tree.end;
    let open_trees = match tree.end_kind {
        TreeEnd::Closed => 0,
        TreeEnd::Unclosed(open) | TreeEnd::CutShort(open, _) => open.open_trees,
    };
    if open_trees > limits.max_tree_depth {
        // Closing it would take a `)` per level, as much text again as the tree itself.
        let finding = Finding::new(
            Code::Limit,
            0,
            format!(
                "the game tree is not closed and nests {open_trees} variations deep, more than \
                 the limit of {} (--limit depth=N): the game was not read",
                limits.max_tree_depth
            ),
        );
        let kind = Kind::Refused { finding, trees: 1 };
        return PendingGame::new(location, file, range, kind);
    }
    let mut findings = Vec::new();
    let closing = match tree.end_kind {
        TreeEnd::Closed => String::new(),
        TreeEnd::Unclosed(open) => {
            let closing = open.closing_text();
            findings.push(Finding::new(
                Code::Unclosed,
                0,
                format!(
                    "the game tree is not closed at the end of the file (missing `{closing}`); \
                     read as if it were"
                ),
            ));
            closing
        }
        TreeEnd::CutShort(open, line) => {
            let line = frame.lines_before.saturating_add(line);
            let closing = open.closing_text();
            findings.push(Finding::new(
                Code::Unclosed,
                0,
                format!(
                    "the game tree is not closed (missing `{closing}`): a new game begins at line \
                     {line}; read up to there as if closed"
                ),
            ));
            closing
        }
    };
    let opening_problem = match tree.opening {
        Opening::Normal => None,
        Opening::NoSemicolon => Some(
            "no `;` after the opening `(` (as in Sina-style scrapes): read as if it were there",
        ),
        Opening::NoParen => {
            Some("the game tree has no opening `(` (as in some Fox files): read as if it had")
        }
    };
    if let Some(message) = opening_problem {
        findings.push(Finding::new(Code::Syntax, 0, message).with_severity(Severity::Warning));
    }
    PendingGame::new(location, file, range, Kind::Tree { closing, opening: tree.opening, findings })
}

/// Where a stray lies relative to the trees: "before game 1", "between games 2 and 3", "after
/// game 7". `trees` are those of the bytes at `frame`.
fn placement(offset: usize, trees: &[Tree], frame: Frame) -> String {
    let after = trees.partition_point(|t| t.start < offset);
    let n = frame.games_before + after;
    match after {
        0 if n == 0 => "before game 1".to_owned(),
        a if a == trees.len() && frame.last => format!("after game {n}"),
        _ => format!("between games {n} and {}", n + 1),
    }
}

/// The finding for a stray of the bytes at `frame`, whose trees are `trees`.
pub(super) fn stray_finding(stray: &Stray, trees: &[Tree], bytes: &[u8], frame: Frame) -> Finding {
    let line = |line: u32| frame.lines_before.saturating_add(line);
    match *stray {
        Stray::Junk { start, end, line: at } => Finding::new(
            Code::Junk,
            0,
            format!(
                "{} byte{} outside any game tree, {}, at line {} (byte {}): {}",
                end - start,
                if end - start == 1 { "" } else { "s" },
                placement(start, trees, frame),
                line(at),
                frame.offset + start,
                quote(&bytes[start..end]),
            ),
        ),
        Stray::ByteOrderMark { offset, line: at } => Finding::new(
            Code::ByteOrderMark,
            0,
            format!(
                "a byte-order mark {}, at line {} (byte {}): files joined together?",
                placement(offset, trees, frame),
                line(at),
                frame.offset + offset
            ),
        ),
    }
}

/// A short, printable quotation of some bytes for a message.
fn quote(bytes: &[u8]) -> String {
    const MAX_CHARS: usize = 40;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4 * MAX_CHARS)]);
    let mut quoted = String::new();
    for c in text.chars().take(MAX_CHARS) {
        match c {
            '\t' | '\n' | '\r' => quoted.push(' '),
            c if c.is_control() => quoted.extend(c.escape_default()),
            c => quoted.push(c),
        }
    }
    if text.chars().count() > MAX_CHARS || bytes.len() > 4 * MAX_CHARS {
        quoted.push('…');
    }
    format!("`{quoted}`")
}

pub(super) fn describe_no_game(bytes: &[u8]) -> String {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        if bytes.is_empty() {
            "the file is empty".to_owned()
        } else {
            "the file holds only whitespace".to_owned()
        }
    } else {
        format!("no SGF game tree in {} bytes starting {}", bytes.len(), quote(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::super::ReadStatus;
    use super::*;

    fn split(text: &[u8]) -> SplitFile {
        split_file("t.sgf", Arc::from(text), &ReadOptions::default())
    }

    #[test]
    fn pending_games_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<PendingGame>();
        check::<SplitFile>();
    }

    #[test]
    fn a_small_file_splits_as_a_whole_file_does_whether_or_not_its_game_is_read_ahead() {
        let options = ReadOptions::default();
        let texts: &[&[u8]] = &[
            b"(;GM[1]SZ[9];B[ee];W[cc])",
            b"\n\n  (;GM[1]PB[a\\]b]C[(x)];B[aa]\n;W[bb](;B[cc])(;B[dd]))\r\n\n",
            b"\xEF\xBB\xBF(;GM[1];B[aa])\n",
            b"( ;GM[1];B[aa])",
            b"(;GM[1];B[aa]) junk",
            b"(;GM[1];B[aa])\xE3\x80\x80",
            b"(;GM[1];B[aa])(;GM[1];W[bb])",
            b"(;GM[1];B[aa]",
            b"(;GM[1];B[aa]))",
            b"(;GM[1];B[aa];B[1a])",
            b"(;GM[1]CA[UTF-8]PB[\xC3\xA9];B[aa])",
            b"(;GM[1]CA[GB2312]PB[\xB0\xA1];B[aa])",
            b"x(;GM[1];B[aa])",
            b"(;GM[2];B[aa])",
            b"",
            // Damaged UTF-8, as the Fox server writes it: read ahead when it is one tree in
            // ASCII whitespace, as above.
            b"(;GM[1]AP[foxwq]PB[\xE6\x9F?];B[aa])\n",
            b"\n (;GM[1]AP[foxwq]C[\\\xE6\x9F?\\]\xE6];B[aa](;W[bb])(;W[cc]))\r\n",
            b"(;GM[1]AP[foxwq]PB[\xE6?];B[aa]) \xE6\x9F",
            b"(;GM[1]AP[foxwq]PB[\xE6?];B[aa])\xE3\x80\x80",
            b"(;GM[1]AP[foxwq]PB[\xE6?];B[aa])(;GM[1];W[bb])",
            b"(;GM[1]AP[foxwq]PB[\xE6?];B[aa]",
            b"(;GM[1]AP[foxwq]PB[\xE6?]C[\\\xE6]];B[aa])",
        ];
        for (i, &text) in texts.iter().enumerate() {
            let small = split_small(&Source::read("t.sgf".into(), Ok(Arc::from(text))), &options);
            let whole = split(text);
            let show = String::from_utf8_lossy(text);
            let read_ahead = small.games[0].ahead.lock().unwrap().is_some();
            // One tree in ASCII whitespace, UTF-8: split by reading its game.
            assert!(read_ahead || ![0, 1, 2, 3, 10, 15, 16].contains(&i), "{show}");
            // Not when junk, a second tree or no `)` follows.
            assert!(!read_ahead || !(4..9).contains(&i) && !(17..22).contains(&i), "{show}");
            if (15..22).contains(&i) {
                let origin = whole.games[0].read(&options).encoding.origin;
                assert_eq!(origin, CharsetOrigin::DamagedUtf8, "{show}");
            }
            assert_eq!(small.findings, whole.findings, "{show}");
            assert_eq!(small.games.len(), whole.games.len(), "{show}");
            for (a, b) in small.games.iter().zip(&whole.games) {
                assert_eq!(a.location, b.location, "{show}");
                assert_eq!(a.bytes(), b.bytes(), "{show}");
                assert_eq!(a.trees(), b.trees(), "{show}");
                assert_eq!(a.read(&options), b.read(&options), "{show}");
                // A record read ahead is handed out once; the game reads the same after.
                assert_eq!(a.read(&options), b.read(&options), "{show}");
            }
        }
    }

    #[test]
    fn a_file_without_a_game_gets_one_stand_in() {
        let file = split(b"<html>404</html>");
        assert_eq!(file.games.len(), 1);
        assert!(!file.games[0].has_tree());
        let record = file.games[0].read(&ReadOptions::default());
        assert_eq!(record.status, ReadStatus::Failed);
        assert_eq!(record.findings[0].code, Code::NoGame);
        assert!(record.findings[0].message.contains("<html>"), "{}", record.findings[0].message);
    }

    #[test]
    fn games_share_the_file_bytes() {
        let file = split(b"(;GM[1]PB[a])\n(;GM[1]PB[b])");
        assert_eq!(file.games[1].bytes(), b"(;GM[1]PB[b])");
        assert_eq!(file.games[1].location.line, 2);
        assert_eq!(file.games[1].location.offset, 14);
    }

    /// Game counts agree with sgf-parse's strict parse of the whole file wherever that parse
    /// succeeds (a unit test because only `src/record` may use sgf_parse). Run with
    /// `cargo test --release --lib record::pending -- --ignored --nocapture`.
    #[test]
    #[ignore = "whole shared corpus through sgf-parse: run with --release"]
    fn tree_counts_agree_with_sgf_parse_over_the_shared_corpus() {
        // sgf-parse drops trees recursively: give it a deep stack.
        let worker = std::thread::Builder::new().stack_size(1 << 30).spawn(compare_with_sgf_parse);
        let outcome = worker.map(|handle| handle.join());
        assert!(matches!(outcome, Ok(Ok(()))), "the comparison failed");
    }

    fn compare_with_sgf_parse() {
        // Files above this size (one 15 MB Tygem collection) would take gigabytes in sgf-parse.
        const MAX_BYTES: usize = 8 << 20;
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let Some(corpus) = std::env::var_os("KIFU_SHARED_CORPUS")
            .map(std::path::PathBuf::from)
            .into_iter()
            .chain([manifest.join("../shared/corpus"), manifest.join("../../shared/corpus")])
            .find(|p| p.join("README.md").is_file())
        else {
            eprintln!("skipped: the shared corpus is absent (set KIFU_SHARED_CORPUS)");
            return;
        };
        let options = ReadOptions::default();
        let (mut compared, mut games, mut rejected) = (0usize, 0usize, 0usize);
        let mut disagreements = Vec::new();
        for source in super::super::sources([corpus], &options) {
            let Ok(bytes) = source.bytes.clone() else { continue };
            let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            let Ok(text) = std::str::from_utf8(text) else { continue };
            if text.len() > MAX_BYTES {
                continue;
            }
            let Ok(trees) = sgf_parse::parse(text) else {
                rejected += 1;
                continue;
            };
            let file = split_source(source.clone(), &options);
            let found = file.games.iter().filter(|g| g.has_tree()).count();
            compared += 1;
            games += found;
            if found != trees.len() {
                disagreements.push(format!(
                    "{}: kifu {found}, sgf-parse {}",
                    source.name,
                    trees.len()
                ));
            }
        }
        eprintln!(
            "compared {compared} files ({games} games); sgf-parse rejected {rejected} UTF-8 files"
        );
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
        assert!(compared > 60_000, "{compared}");
    }

    #[test]
    fn repairs_reach_the_text_not_the_bytes() {
        let file = split(b"(\nPB[a];B[aa]");
        let decoded = file.games[0].decode(&ReadOptions::default());
        assert_eq!(decoded.text, "(;\nPB[a];B[aa])");
        let codes: Vec<_> = decoded.findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, [Code::Unclosed, Code::Syntax]);
        assert_eq!(file.games[0].bytes(), b"(\nPB[a];B[aa]");
    }

    #[test]
    fn text_known_valid_is_lent_only_inside_it_and_at_character_boundaries() {
        let bytes: Arc<[u8]> = Arc::from("\u{feff}(;PB[李])".as_bytes());
        let file = FileText {
            bytes: TextBytes::Shared(bytes),
            charset: empty_charset(),
            valid_utf8_from: Some(3),
            no_charset_from: None,
        };
        assert_eq!(file.known_utf8(3..file.bytes.len()), Some("(;PB[李])"));
        assert_eq!(file.known_utf8(3..8), Some("(;PB["));
        assert_eq!(file.known_utf8(3..9), None, "inside 李");
        assert_eq!(file.known_utf8(0..8), None, "before the checked text");
        let unchecked = FileText { valid_utf8_from: None, ..file };
        assert_eq!(unchecked.known_utf8(3..8), None);
    }

    #[test]
    fn games_of_a_file_checked_whole_decode_as_games_checked_alone() {
        let text = "(;GM[1]PB[李世石];B[pd])\n(;GM[1]PW[Cho];W[dp])".as_bytes();
        let split = split(text);
        assert_eq!(split.games.len(), 2);
        for game in &split.games {
            assert!(game.file.valid_utf8_from.is_some());
            let decoded = game.decode(&ReadOptions::default());
            let alone =
                charset::decode_game(game.bytes(), &game.file.charset, &ReadOptions::default());
            assert_eq!(decoded.text, alone.text);
            assert_eq!(decoded.encoding, alone.encoding);
            assert_eq!(decoded.findings, alone.findings);
        }
    }
}
