//! Game records from SGF bytes: the only part of kifu that knows SGF and imports `sgf_parse`.
//!
//! The layer turns whatever a user points kifu at (files, folders, collections, archives,
//! standard input) into [`GameRecord`]s: plain values in the rules core's vocabulary (points,
//! colours, moves, rulesets, outcomes) plus the [`Finding`]s met on the way. It never fails as a
//! whole: a game that cannot be read still becomes a record, with [`ReadStatus::Failed`] and the
//! reason among its findings, so no game is ever silently lost.
//!
//! The way through, for one file:
//! 1. `input` and `archive`: discover and read sources in a fixed order, archive members
//!    named `archive.zip!member`; size limits ([`Limits`]) turn into findings.
//! 2. `split`: a byte-level scanner finds each game tree with its byte offset and line, so one
//!    broken game never loses the others.
//! 3. `charset`: BOM, then `CA`, then UTF-8, then detection; decoded before parsing.
//! 4. `sgf`: each game parsed (strict, then lenient as a reported fallback) and turned into a
//!    [`GameRecord`]: size, setup, moves, komi, handicap, rules, result, markup, metadata.
//!    Parsing and interpreting are apart: a reader finds the main line's nodes and properties
//!    as written, and [`builder::GameBuilder`] gives them their meaning (komi units in
//!    [`komi`], handicap stones in [`handicap`], rules in [`game_info`], results in [`result`]),
//!    so that any reader that finds the same main line builds the same record.
//!
//! The pipeline drives steps 1-3 through [`sources`] (inputs to [`Source`]s), [`split_source`]
//! or [`split_file`] (a source to [`PendingGame`]s, cheap and sequential) and
//! [`PendingGame::read`] (decode and parse one game, run in parallel):
//!
//! ```
//! use std::sync::Arc;
//! use kifu::finding::Code;
//! use kifu::record::{ReadOptions, split_file};
//!
//! let options = ReadOptions::default();
//! // Two games; the second lost its closing `)`.
//! let text = "(;GM[1]PB[Honinbo Shusaku];B[qd])\n(;GM[1]PB[Go Seigen];B[pd]";
//! let file = split_file("two.sgf", Arc::from(text.as_bytes()), &options);
//! assert_eq!(file.games.len(), 2);
//! assert_eq!((file.games[1].location.game, file.games[1].location.line), (2, 2));
//!
//! let record = file.games[1].read(&options);
//! assert_eq!(record.findings[0].code, Code::Unclosed);
//! ```

pub mod archive;
pub mod builder;
pub mod charset;
pub mod fast;
pub mod game_info;
pub mod handicap;
pub mod input;
pub mod komi;
pub mod limits;
mod parts;
mod pending;
pub(crate) mod property;
pub mod result;
pub(crate) mod scan;
pub mod sgf;
pub mod split;
pub(crate) mod tree;
pub mod write;

pub use input::LargeFile;
pub use input::{
    Folder, Found, FoundFile, SMALL_READ, Source, Sources, first_files, read_small, sources,
};
pub use parts::{HandedParts, Handover, PART_BYTES, SplitParts, split_parts, split_parts_eager};
pub use pending::{PendingGame, SplitFile, split_file, split_small, split_source};

use std::fmt;

use crate::finding::{Code, Finding};
use crate::rules::{BoardSize, Color, Move, Outcome, Point, Preset, Ruleset};

/// Choices that change how bytes are read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The charset to assume when a game names none (`--encoding`), as a WHATWG label or one
    /// of the aliases [`charset::resolve_label`] knows (`cp936`, `cp932`, ...).
    pub encoding: Option<String>,
    /// Size limits on what is read; a source over a limit is reported, never silently dropped.
    pub limits: Limits,
    /// Follow symbolic links to folders while walking a folder (loops are detected and
    /// reported). Links to files are always read.
    pub follow_links: bool,
    /// Files larger than this many bytes are left unread by [`sources`] (their [`Source`]
    /// says where they are, [`Source::large`]) so that [`split_parts`] reads them part by part
    /// in bounded memory; `None` (the default) reads every file whole. The pipeline sets it.
    pub stream_above: Option<u64>,
}

/// Limits that keep a hostile or mistaken input from exhausting memory or time.
///
/// A source over a limit is not read; it still appears in the report as one game with
/// [`ReadStatus::Failed`] and a `limit` finding naming the limit and the size met. A game over
/// a limit is not parsed; it still appears, unparsed, with such a finding. Each limit has a
/// name for `--limit NAME=VALUE` ([`limits::LIMITS`], [`Limits::set`]); the defaults sit far above
/// anything real collections hold, so that only hostile or broken input meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest file, archive member or standard input read, in bytes (default 512 MiB; the
    /// largest real collections are around 100 MB).
    pub max_file_size: u64,
    /// Most bytes one archive may expand to, all members together (default 4 GiB). Reading
    /// stops at the limit; the members not read are reported as one `limit` finding.
    pub max_archive_total: u64,
    /// Largest ratio of expanded to compressed bytes an archive may reach (default 200; SGF
    /// text compresses about 3-10x, a zip bomb about 1000x). Checked once an archive has
    /// expanded past `ratio_floor`, so that small, very repetitive archives pass.
    pub max_expansion_ratio: u64,
    /// Expansion up to this many bytes is never refused for its ratio (default 16 MiB).
    pub ratio_floor: u64,
    /// Most game trees read from one file (default 1,000,000; the largest real collections
    /// hold about 600,000). The trees beyond it are counted and reported as one unparsed game
    /// with a `limit` finding, so that a file of a hundred million tiny trees cannot exhaust
    /// memory.
    pub max_games_per_file: u64,
    /// Most nodes in one game tree, variations included (default 1,000,000: sgf-parse holds
    /// about 450 bytes per node, so a game at the limit costs about 0.5-0.7 GB while it is
    /// parsed; the largest commented records have tens of thousands).
    pub max_game_nodes: u64,
    /// Deepest game tree: its longest line of nodes from the root, or its nesting of
    /// variations, whichever is larger (default 200,000; real games are under 1,000 moves, and
    /// OGS nests one variation per move, so depth grows with length).
    pub max_tree_depth: u64,
    /// Longest property value, in bytes of decoded text (default 1 MiB; the longest real
    /// comments are tens of kilobytes).
    pub max_value_length: u64,
    /// Largest board side read (default 52, the most SGF can address); SZ above 52 is a
    /// `board-size` finding whatever this says.
    pub max_board_side: u8,
}

impl Limits {
    /// No limit at all: every field at its largest.
    pub const NONE: Limits = Limits {
        max_file_size: u64::MAX,
        max_archive_total: u64::MAX,
        max_expansion_ratio: u64::MAX,
        ratio_floor: u64::MAX,
        max_games_per_file: u64::MAX,
        max_game_nodes: u64::MAX,
        max_tree_depth: u64::MAX,
        max_value_length: u64::MAX,
        max_board_side: u8::MAX,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_size: 512 << 20,
            max_archive_total: 4 << 30,
            max_expansion_ratio: 200,
            ratio_floor: 16 << 20,
            max_games_per_file: 1_000_000,
            max_game_nodes: 1_000_000,
            max_tree_depth: 200_000,
            max_value_length: 1 << 20,
            max_board_side: 52,
        }
    }
}

/// Where a game was found: enough for a person to open the file at the right place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLocation {
    /// The source as given: a path, `archive.zip!inner/path.sgf`, or `-` for standard input.
    pub source: String,
    /// 1-based index of the game tree within its file.
    pub game: u32,
    /// Byte offset of the game's opening `(` in the file.
    pub offset: u64,
    /// 1-based line of the game's opening `(`.
    pub line: u32,
}

/// How far a game could be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadStatus {
    /// Read by kifu's own streaming main-line reader.
    Fast,
    /// Parsed by sgf-parse in strict mode.
    Strict,
    /// Parsed by sgf-parse only in lenient mode; part of the game may be lost (reported).
    Lenient,
    /// Not parsed: the record holds no moves, and its findings say why.
    Failed,
}

/// A stone put on, or taken off, the board by setup properties (AB, AW, AE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The point.
    pub point: Point,
    /// The stone placed, or `None` to clear the point (AE).
    pub stone: Option<Color>,
}

/// Setup properties met in the main line after the root node.
#[derive(Clone, Debug, PartialEq)]
pub struct LaterSetup {
    /// Number of main-line moves played before this setup (0: before the first move).
    pub after_moves: u32,
    /// 0-based index of the node in the main line (the root is node 0).
    pub node: u32,
    /// The placements, in the order they apply: AE, then AB, then AW.
    pub placements: Vec<Placement>,
    /// The player to move named by PL in that node, if any.
    pub to_move: Option<Color>,
}

/// One move of the main line as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// Who played it (B or W property).
    pub color: Color,
    /// Where, or pass (`[]`, and `[tt]` on boards up to 19x19).
    pub mv: Move,
    /// 0-based index of the node in the main line (the root is node 0).
    pub node: u32,
}

/// Where the komi came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KomiOrigin {
    /// KM, in points, as written.
    Recorded,
    /// KM in Fox's units (points x 100, or zi x 100), converted.
    FoxUnits,
    /// KM in zi (GoGoD Chinese games: `KM[3.75]`), doubled.
    Zi,
    /// KM absent, empty or unreadable: the komi of the rules in the year DT gives, else the
    /// ruleset's default (with a handicap, the rules' handicap komi: none, 0.5 under AGA).
    Assumed,
}

/// The komi in points, after unit conversion.
#[derive(Clone, Debug, PartialEq)]
pub struct Komi {
    /// Points given to White.
    pub points: f64,
    /// Where the value came from.
    pub origin: KomiOrigin,
    /// KM as written, if present.
    pub raw: Option<String>,
}

/// Where the game's rules came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesOrigin {
    /// RU named a known preset (or a KataGo-style rules string).
    Recorded,
    /// RU absent or unknown: inferred from komi, server or place (a finding says from what).
    Inferred,
}

/// The rules a record was played under.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordRules {
    /// RU as written.
    pub raw: Option<String>,
    /// The preset RU names or that was inferred; `None` for a custom KataGo-style string.
    pub preset: Option<&'static Preset>,
    /// The parameters used for "recorded" scoring (the preset's, or those of the RU string),
    /// with the record's komi ([`GameRecord::komi`]) in place of the ruleset's default.
    pub ruleset: Ruleset,
    /// Whether RU said so or kifu inferred it.
    pub origin: RulesOrigin,
}

/// The recorded result (RE).
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedResult {
    /// RE exactly as written (decoded text), if present.
    pub raw: Option<String>,
    /// What it means; `None` when RE is absent or unreadable (a finding keeps the raw text).
    pub outcome: Option<Outcome>,
    /// The margin was written in zi (GoGoD "(zi)", Chinese 子) and converted to points.
    pub in_zi: bool,
    /// The record says it stops before the end ("moves beyond 150 not known").
    pub truncated: bool,
}

/// Territory markup (TB, TW) in the last node of the main line. A stone under the opponent's
/// mark is dead.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TerritoryMarkup {
    /// Points marked TB, sorted.
    pub black: Vec<Point>,
    /// Points marked TW, sorted.
    pub white: Vec<Point>,
}

/// How the game's text was decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetOrigin {
    /// A byte-order mark.
    Bom,
    /// The CA property.
    Declared,
    /// No CA; the bytes are valid UTF-8.
    Utf8,
    /// Fox-style UTF-8 with damaged bytes (decoded as UTF-8 with replacement).
    DamagedUtf8,
    /// No CA and not UTF-8: guessed by detection.
    Detected,
    /// Given by the user (`--encoding`).
    Assumed,
    /// Nothing was decoded: the source could not be read or holds no game tree.
    NotDecoded,
}

/// The charset used to decode a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextEncoding {
    /// The WHATWG name of the charset used (`UTF-8`, `GBK`, `Shift_JIS`, ...).
    pub name: &'static str,
    /// How it was chosen.
    pub origin: CharsetOrigin,
    /// Whether any byte could not be decoded and was replaced with U+FFFD.
    pub replaced: bool,
}

/// One game read from a file: everything the replay, the count and the reports need.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Where it was found.
    pub location: GameLocation,
    /// How far it could be read.
    pub status: ReadStatus,
    /// How its text was decoded.
    pub encoding: TextEncoding,
    /// Board size (SZ; 19 when absent).
    pub size: BoardSize,
    /// Setup in the root node: AE, then AB, then AW, plus handicap stones kifu placed when HA
    /// came without AB (see `handicap_implied`).
    pub setup: Vec<Placement>,
    /// Setup met later in the main line.
    pub later_setup: Vec<LaterSetup>,
    /// PL in the root node: who moves first.
    pub to_move: Option<Color>,
    /// The main line's moves.
    pub moves: Vec<RecordedMove>,
    /// HA, or the number of black setup stones when HA is absent and no white stone is set up.
    pub handicap: u32,
    /// The handicap stones were not in the record (Fox writes HA without AB) and kifu placed
    /// them on the standard points.
    pub handicap_implied: bool,
    /// Komi in points.
    pub komi: Komi,
    /// The rules.
    pub rules: RecordRules,
    /// The recorded result.
    pub result: RecordedResult,
    /// TB/TW of the last main-line node that has any, provided no move follows it (a comment
    /// node after the marks does not lose them).
    pub markup: Option<TerritoryMarkup>,
    /// Game-information and other root properties as (identifier, decoded text), in file
    /// order, one entry per value: PB, PW, BR, WR, DT, EV, RO, PC, GN, AP, C and whatever else
    /// the root holds, private properties included, then game information met later in the
    /// main line. Left out: the ones turned into fields above (SZ, KM, HA, RU, RE, PL, AB, AW,
    /// AE, B, W, TB, TW) and markup, annotations and move properties, which say nothing about
    /// the game.
    pub properties: Properties,
    /// Everything found wrong while reading, in order of appearance.
    pub findings: Vec<Finding>,
}

impl GameRecord {
    /// The first value of a root property, e.g. `record.property("PB")`.
    pub fn property(&self, id: &str) -> Option<&str> {
        self.properties.get(id)
    }

    /// The online server the record says the game was played on (PC, AP, SO or GN), if any:
    /// see [`game_info::online_server`].
    pub fn online_server(&self) -> Option<&'static str> {
        game_info::online_server(&self.properties)
    }
}

/// A record's game-information and other root properties: (identifier, value) pairs in the
/// order they were met, several per identifier when a property has several values.
///
/// All the text lives in one string, so that a game's dozen properties cost two allocations
/// instead of two each (they are kept for every game, and were a tenth of the reader's work).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Properties {
    /// Identifiers and values, one after the other.
    text: String,
    /// Where each pair's identifier and value end in `text`; each identifier starts where the
    /// previous pair's value ends.
    ends: Vec<(u32, u32)>,
}

impl Properties {
    /// Adds a pair at the end.
    pub fn push(&mut self, id: &str, value: &str) {
        self.text.push_str(id);
        let id_end = self.text.len() as u32;
        self.text.push_str(value);
        self.ends.push((id_end, self.text.len() as u32));
    }

    /// The pairs in order.
    pub fn iter(&self) -> PropertiesIter<'_> {
        PropertiesIter { text: &self.text, ends: self.ends.iter(), start: 0 }
    }

    /// The first value of `id`, if any.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.iter().find(|(k, _)| k == id).map(|(_, v)| v.as_str())
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// The pairs of [`Properties`], in order.
#[derive(Clone, Debug)]
pub struct PropertiesIter<'a> {
    text: &'a str,
    ends: std::slice::Iter<'a, (u32, u32)>,
    /// Where the next pair's identifier starts.
    start: u32,
}

impl<'a> Iterator for PropertiesIter<'a> {
    type Item = (&'a PropertyText, &'a PropertyText);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let &(id_end, value_end) = self.ends.next()?;
        let (start, id_end, value_end) = (self.start as usize, id_end as usize, value_end as usize);
        self.start = value_end as u32;
        debug_assert!(self.text.is_char_boundary(start) && self.text.is_char_boundary(id_end));
        debug_assert!(start <= id_end && id_end <= value_end && value_end <= self.text.len());
        // SAFETY: `Properties::push` records where each identifier and each value it appends
        // ends, so every offset is the end of a whole `str` within the text: in order, in
        // bounds and on a character boundary. Rules inference reads every game's properties
        // several times: checked slicing cost 6M instructions more on 4,266 games (cachegrind).
        let (id, value) = unsafe {
            (self.text.get_unchecked(start..id_end), self.text.get_unchecked(id_end..value_end))
        };
        Some((PropertyText::new(id), PropertyText::new(value)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for PropertiesIter<'_> {}

impl<'a> IntoIterator for &'a Properties {
    type Item = (&'a PropertyText, &'a PropertyText);
    type IntoIter = PropertiesIter<'a>;

    fn into_iter(self) -> PropertiesIter<'a> {
        self.iter()
    }
}

/// An identifier or a value of [`Properties`]: a `str` of the record's (it derefs to one),
/// with the `as_str` that `String` has, so that code written for pairs of strings reads the
/// same over pairs of these.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct PropertyText(str);

impl PropertyText {
    fn new(text: &str) -> &PropertyText {
        // SAFETY: `PropertyText` is `repr(transparent)` over `str`, so a `&str` and a
        // `&PropertyText` have the same layout and metadata (std's `Path` over `OsStr` does
        // the same); the lifetime is carried over unchanged.
        unsafe { &*(text as *const str as *const PropertyText) }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for PropertyText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for PropertyText {
    fn eq(&self, other: &str) -> bool {
        &self.0 == other
    }
}

impl PartialEq<&str> for PropertyText {
    fn eq(&self, other: &&str) -> bool {
        &self.0 == *other
    }
}

impl PartialEq<str> for &PropertyText {
    fn eq(&self, other: &str) -> bool {
        &self.0 == other
    }
}

impl fmt::Display for PropertyText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for PropertyText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Debug for Properties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<K: AsRef<str>, V: AsRef<str>> FromIterator<(K, V)> for Properties {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Properties {
        let mut properties = Properties::default();
        for (k, v) in pairs {
            properties.push(k.as_ref(), v.as_ref());
        }
        properties
    }
}

/// The buffers of a record that has been used up, kept on its thread for the next game's
/// [`builder::GameBuilder`]: a game's move list is a few kilobytes, beyond the allocator's
/// cache of small blocks, so that allocating and freeing one for every game cost about 2,000
/// instructions a game.
#[derive(Default)]
pub(crate) struct SpareBuffers {
    pub moves: Vec<RecordedMove>,
    pub properties: Properties,
}

/// Buffers kept for reuse beyond this many moves would hold memory for a rare long game.
const MAX_SPARE_MOVES: usize = 1 << 14;

thread_local! {
    static SPARE: std::cell::RefCell<SpareBuffers> = std::cell::RefCell::default();
}

/// Gives `record`'s buffers back for the next game read on this thread (the pipeline's workers
/// call this once a game is reported). Dropping a record instead is always right, only slower.
pub fn recycle(record: GameRecord) {
    let GameRecord { mut moves, mut properties, .. } = record;
    if moves.capacity() > MAX_SPARE_MOVES {
        return;
    }
    moves.clear();
    properties.text.clear();
    properties.ends.clear();
    // Only when the thread's spare is free (never re-entered in kifu); else simply dropped.
    let _ = SPARE.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut() {
            if spare.moves.capacity() < moves.capacity() {
                spare.moves = moves;
            }
            if spare.properties.text.capacity() < properties.text.capacity() {
                spare.properties = properties;
            }
        }
    });
}

/// The buffers [`recycle`] kept on this thread, empty, or new ones.
pub(crate) fn spare_buffers() -> SpareBuffers {
    SPARE
        .try_with(|spare| spare.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)).ok())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// A record for a game that could not be parsed: no moves, default game information, and a
/// `syntax` finding with `reason`.
pub fn unparsed(location: GameLocation, encoding: TextEncoding, reason: &str) -> GameRecord {
    let chinese = crate::rules::preset("chinese").expect("the chinese preset exists");
    GameRecord {
        location,
        status: ReadStatus::Failed,
        encoding,
        size: BoardSize::STANDARD,
        setup: Vec::new(),
        later_setup: Vec::new(),
        to_move: None,
        moves: Vec::new(),
        handicap: 0,
        handicap_implied: false,
        komi: Komi { points: chinese.ruleset.komi, origin: KomiOrigin::Assumed, raw: None },
        rules: RecordRules {
            raw: None,
            preset: Some(chinese),
            ruleset: chinese.ruleset,
            origin: RulesOrigin::Inferred,
        },
        result: RecordedResult { raw: None, outcome: None, in_zi: false, truncated: false },
        markup: None,
        properties: Properties::default(),
        findings: vec![Finding::new(Code::Syntax, 0, reason)],
    }
}
