//! The collection splitter: a byte-level scanner that finds every top-level game tree of a
//! file, with its byte range and line, before anything is decoded or parsed.
//!
//! sgf-parse rejects a whole collection over one bad game (strict) or silently drops everything
//! after it (lenient), and its errors carry no position. This scanner is the reason kifu never
//! loses a game to its neighbour: it knows just enough SGF to find where each tree starts and
//! ends, and reports what lies between the trees.
//!
//! What it understands:
//! - property values (`[...]` may hold `(`, `)` and `;`), with `\` escapes;
//! - the double-byte charsets whose trail bytes can be `\` (0x5C) or `]` (0x5D): GBK/GB18030,
//!   Big5 and Shift_JIS, written either as the `FF[4]` spec asks (the escape between lead and
//!   trail byte: `A6 5C 5D` for Big5 因) or, as most writers do, unescaped (`A6 5D`); and the
//!   7-bit ISO-2022-JP, whose two-byte characters can contain any printable ASCII byte
//!   ([`ByteLayout`]);
//! - a tree that starts with `(` but no `;` (Sina-style scrapes: `(\nTE[...]`), or with a
//!   root node but no `(` (some Fox files: `;GM[1]FF[4]...)`) ([`Opening`]).
//!
//! What it reports ([`Stray`], [`TreeEnd`]): bytes outside any tree (junk), byte-order marks
//! between trees (concatenated files), trees not closed at the end of the file, and trees cut
//! short because a new game began inside them.
//!
//! Recovery: a tree that is missing its `)` swallows every later game of the file. When the
//! last tree is still open at the end of the file, the scanner goes back over that tree once
//! more and starts a new game at every line that begins a new root: `(;` at the start of a
//! line, followed by a root or game-information property (`GM`, `FF`, `PB`, `EV`, ...) whose
//! value is properly closed (an SGF text pasted into a comment has its `]` escaped, so it does
//! not qualify). Recovery only runs over an unclosed tail, so a well-formed file whose
//! variations look like games (old collections stored as variations of one root) is never cut.
//!
//! Cost: one pass over the file with `memchr`, plus at most one more pass over an unclosed
//! tail: linear in the size of the input. Nothing recurses; nesting depth is a counter.

use memchr::{memchr2, memchr3};

/// How a charset lays out its bytes, as far as finding the end of a property value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteLayout {
    /// Every byte that looks like `]` or `\` is one (ASCII, UTF-8, single-byte charsets,
    /// EUC-KR, EUC-JP: their multibyte sequences use only bytes >= 0x80).
    AsciiSafe,
    /// A double-byte charset whose trail bytes include `\` and `]`.
    DoubleByte(DoubleByte),
    /// ISO-2022-JP: after `ESC $ B` bytes come in pairs from the printable ASCII range.
    Iso2022Jp,
}

/// The double-byte charsets whose trail byte may be `\` or `]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoubleByte {
    /// GBK, GB2312 (as written in practice) and GB18030 (whose four-byte sequences contain no
    /// special byte and scan as two pairs).
    Gbk,
    /// Big5 and its extensions.
    Big5,
    /// Shift_JIS and Windows-31J.
    ShiftJis,
}

impl DoubleByte {
    fn is_lead(self, b: u8) -> bool {
        match self {
            DoubleByte::Gbk | DoubleByte::Big5 => (0x81..=0xFE).contains(&b),
            DoubleByte::ShiftJis => (0x81..=0x9F).contains(&b) || (0xE0..=0xFC).contains(&b),
        }
    }

    fn is_trail(self, b: u8) -> bool {
        match self {
            DoubleByte::Gbk => {
                (0x30..=0x39).contains(&b) || ((0x40..=0xFE).contains(&b) && b != 0x7F)
            }
            DoubleByte::Big5 => (0x40..=0x7E).contains(&b) || (0xA1..=0xFE).contains(&b),
            DoubleByte::ShiftJis => (0x40..=0x7E).contains(&b) || (0x80..=0xFC).contains(&b),
        }
    }
}

/// One top-level game tree found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Byte offset of its opening `(` (of its first `;` when the `(` is missing).
    pub start: usize,
    /// Byte offset just past its closing `)` (or where it was cut off).
    pub end: usize,
    /// 1-based line of its start.
    pub line: u32,
    /// How it ended.
    pub end_kind: TreeEnd,
    /// How it began.
    pub opening: Opening,
}

/// How a game tree began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// With `(;`, as it should.
    Normal,
    /// With `(` and a property but no `;` (Sina-style scrapes: `(\nTE[...]`).
    NoSemicolon,
    /// With a root node `;GM[1]...` but no `(` (seen in Fox files): `start` is the `;`.
    NoParen,
}

/// How a game tree ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeEnd {
    /// By its matching `)`.
    Closed,
    /// By the end of the file, still open.
    Unclosed(Unfinished),
    /// By a new game starting inside it (a missing `)`), at the given 1-based line.
    CutShort(Unfinished, u32),
}

/// What a tree that did not close was missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// It ended inside a property value (a `]` is missing too).
    pub in_value: bool,
    /// How many `)` are missing.
    pub open_trees: u64,
}

impl Unfinished {
    /// The text that closes the tree: `]` if it ended in a value, then one `)` per open tree.
    pub fn closing_text(&self) -> String {
        let mut s = String::new();
        if self.in_value {
            s.push(']');
        }
        // `open_trees` is bounded by the number of `(` in the input; the text is that long.
        s.extend(std::iter::repeat_n(')', self.open_trees as usize));
        s
    }
}

/// Something found outside every game tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stray {
    /// Bytes that are neither whitespace nor part of a tree (trimmed of whitespace).
    Junk {
        /// Byte offset of the first junk byte.
        start: usize,
        /// Byte offset just past the last junk byte.
        end: usize,
        /// 1-based line of the first junk byte.
        line: u32,
    },
    /// A UTF-8 byte-order mark between trees (files concatenated with their BOMs).
    ByteOrderMark {
        /// Byte offset of the mark.
        offset: usize,
        /// 1-based line of the mark.
        line: u32,
    },
}

/// Everything the splitter found in one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// The game trees, in file order (at most the number asked for, see [`split_at_most`]).
    pub trees: Vec<Tree>,
    /// Junk and byte-order marks outside the trees, in file order (up to the first tree not
    /// kept).
    pub strays: Vec<Stray>,
    /// The trees found after the last one kept, counted but not kept.
    pub beyond: Option<Beyond>,
}

/// Game trees found beyond the number [`split_at_most`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beyond {
    /// How many.
    pub count: u64,
    /// Byte offset of the first of them.
    pub start: usize,
    /// 1-based line of the first of them.
    pub line: u32,
}

/// Finds the game trees of `bytes`, starting at byte `from` (past a byte-order mark), with
/// value scanning suited to `layout`.
pub fn split(bytes: &[u8], from: usize, layout: ByteLayout) -> Split {
    split_at_most(bytes, from, layout, usize::MAX)
}

/// [`split`], keeping at most `max_trees` trees: the trees after them are only counted (in
/// [`Split::beyond`]), and the junk between them is not recorded, so that memory stays bounded
/// whatever the file holds.
pub fn split_at_most(bytes: &[u8], from: usize, layout: ByteLayout, max_trees: usize) -> Split {
    let mut out = Collector { split: Split::default(), max_trees, last: None };
    let mut lines = LineCounter::new(bytes);
    scan_file(bytes, from.min(bytes.len()), layout, false, &mut lines, &mut out);
    // A tree still open at the end swallowed everything after its missing `)`: scan that tail
    // once more, starting a new game at every line that begins a new root.
    let Some(last) = out.last.take() else { return out.split };
    if last.end_kind == TreeEnd::Closed {
        return out.split;
    }
    out.forget_last();
    let mut tail_lines = LineCounter::new(bytes);
    scan_file(bytes, last.start, layout, true, &mut tail_lines, &mut out);
    out.split
}

/// [`split`] for bytes that stop before the end of their file (a file read part by part):
/// every tree, and no recovery of a tree still open at the end, which the caller carries on to
/// the next part instead.
pub fn split_unfinished(bytes: &[u8], from: usize, layout: ByteLayout) -> Split {
    let mut out = Collector { split: Split::default(), max_trees: usize::MAX, last: None };
    let mut lines = LineCounter::new(bytes);
    scan_file(bytes, from.min(bytes.len()), layout, false, &mut lines, &mut out);
    out.split
}

/// The splitter's output while it scans: trees kept up to the limit, then only counted.
struct Collector {
    split: Split,
    max_trees: usize,
    /// The last tree found, kept or not.
    last: Option<Tree>,
}

impl Collector {
    fn push_tree(&mut self, tree: Tree) {
        if self.split.trees.len() < self.max_trees {
            self.split.trees.push(tree.clone());
        } else {
            match &mut self.split.beyond {
                Some(beyond) => beyond.count += 1,
                None => {
                    let (start, line) = (tree.start, tree.line);
                    self.split.beyond = Some(Beyond { count: 1, start, line });
                }
            }
        }
        self.last = Some(tree);
    }

    fn push_stray(&mut self, stray: Stray) {
        if self.split.beyond.is_none() {
            self.split.strays.push(stray);
        }
    }

    /// Takes back the last tree found (to scan it again in recovery mode).
    fn forget_last(&mut self) {
        match &mut self.split.beyond {
            Some(beyond) if beyond.count > 1 => beyond.count -= 1,
            Some(_) => self.split.beyond = None,
            None => {
                self.split.trees.pop();
            }
        }
    }
}

/// The result of scanning one property value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueEnd {
    /// Closed by the `]` at this offset.
    Closed(usize),
    /// Still open at the end of the input.
    Eof,
    /// Cut by a new root starting at this offset (recovery mode only).
    NewRoot(usize),
}

/// Scans a property value that starts at `from` (just past its `[`) and says where it ends.
///
/// `on_inner_escape` is called with the offset of every `\` written between the lead and trail
/// byte of a double-byte character (the `FF[4]` way of escaping a trail byte `\` or `]`), so that
/// a decoder can drop it. With `recover`, a line inside the value that begins a new root ends
/// the value (see the module documentation).
pub fn scan_value(
    bytes: &[u8],
    from: usize,
    layout: ByteLayout,
    recover: bool,
    on_inner_escape: &mut dyn FnMut(usize),
) -> ValueEnd {
    match layout {
        ByteLayout::AsciiSafe => scan_value_ascii(bytes, from, recover),
        ByteLayout::DoubleByte(db) => scan_value_double(bytes, from, db, recover, on_inner_escape),
        ByteLayout::Iso2022Jp => scan_value_iso2022jp(bytes, from, recover),
    }
}

fn scan_value_ascii(bytes: &[u8], mut i: usize, recover: bool) -> ValueEnd {
    let mut closes = CloseFinder::default();
    loop {
        // In recovery mode line breaks matter too; `]` stands in for "no third byte".
        let newline = if recover { b'\n' } else { b']' };
        let Some(p) = find3(bytes, i, b']', b'\\', newline) else { return ValueEnd::Eof };
        match bytes[p] {
            b']' => return ValueEnd::Closed(p),
            b'\\' => i = p + 2,
            _ => {
                if let Some(root) = new_root_after_newline(bytes, p + 1, &mut closes) {
                    return ValueEnd::NewRoot(root);
                }
                i = p + 1;
            }
        }
    }
}

fn scan_value_double(
    bytes: &[u8],
    mut i: usize,
    db: DoubleByte,
    recover: bool,
    on_inner_escape: &mut dyn FnMut(usize),
) -> ValueEnd {
    let mut closes = CloseFinder::default();
    while let Some(&b) = bytes.get(i) {
        match b {
            b']' => return ValueEnd::Closed(i),
            b'\\' => {
                // An escape before a lead byte escapes the whole character: let the lead-byte
                // branch see it, so that its trail byte is not mistaken for `]`.
                let next_is_lead = bytes.get(i + 1).is_some_and(|&n| db.is_lead(n));
                i += if next_is_lead { 1 } else { 2 };
            }
            b'\n' if recover => {
                if let Some(root) = new_root_after_newline(bytes, i + 1, &mut closes) {
                    return ValueEnd::NewRoot(root);
                }
                i += 1;
            }
            lead if db.is_lead(lead) => match bytes.get(i + 1).copied() {
                Some(b'\\') => match bytes.get(i + 2).copied() {
                    // `L \ ]`: the spec's escaped trail `]`, or a character with trail `\`
                    // that ends the value. What follows the `]` decides.
                    Some(b']') if structure_follows(bytes, i + 3) => {
                        return ValueEnd::Closed(i + 2);
                    }
                    Some(b']') | Some(b'\\') => {
                        on_inner_escape(i + 1);
                        i += 3;
                    }
                    // Unescaped trail `\` (what most writers produce).
                    _ => i += 2,
                },
                // A trail `]`, unless the lead byte is a stray one at the end of the value.
                Some(b']') if structure_follows(bytes, i + 2) => return ValueEnd::Closed(i + 1),
                Some(t) if db.is_trail(t) => i += 2,
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    ValueEnd::Eof
}

fn scan_value_iso2022jp(bytes: &[u8], mut i: usize, recover: bool) -> ValueEnd {
    const ESC: u8 = 0x1B;
    let mut closes = CloseFinder::default();
    let mut two_byte = false;
    while let Some(&b) = bytes.get(i) {
        if b == ESC {
            // ESC $ @, ESC $ B, ESC $ ( D: two-byte sets; ESC ( B, ESC ( J, ESC ( I: one-byte.
            match (bytes.get(i + 1), bytes.get(i + 2)) {
                (Some(b'$'), Some(b'(')) => {
                    two_byte = true;
                    i += 4;
                }
                (Some(b'$'), Some(_)) => {
                    two_byte = true;
                    i += 3;
                }
                (Some(b'('), Some(_)) => {
                    two_byte = false;
                    i += 3;
                }
                _ => i += 1,
            }
            continue;
        }
        if two_byte {
            // A writer that forgot to switch back before `]` still ends the value where the
            // structure resumes.
            if b == b']' && structure_follows(bytes, i + 1) {
                return ValueEnd::Closed(i);
            }
            let pair = (0x21..=0x7E).contains(&b)
                && bytes.get(i + 1).is_some_and(|n| (0x21..=0x7E).contains(n));
            i += if pair { 2 } else { 1 };
            continue;
        }
        match b {
            b']' => return ValueEnd::Closed(i),
            b'\\' => i += 2,
            b'\n' if recover => {
                if let Some(root) = new_root_after_newline(bytes, i + 1, &mut closes) {
                    return ValueEnd::NewRoot(root);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    ValueEnd::Eof
}

/// The first of three bytes at or after `from`. SGF values and the gaps between them are
/// mostly a few bytes long (`;B[pd]`), where a plain look at the next bytes beats setting up
/// a vectorised search; longer stretches (comments) go to `memchr3`.
#[inline]
fn find3(bytes: &[u8], from: usize, a: u8, b: u8, c: u8) -> Option<usize> {
    const SHORT: usize = 16;
    let rest = bytes.get(from..)?;
    let head = &rest[..rest.len().min(SHORT)];
    if let Some(k) = head.iter().position(|&x| x == a || x == b || x == c) {
        return Some(from + k);
    }
    let tail = rest.get(SHORT..)?;
    memchr3(a, b, c, tail).map(|k| from + SHORT + k)
}

/// Whether the bytes from `at` look like SGF structure rather than more text: optional
/// whitespace, then `;`, `(`, `)`, the end of the input, or an identifier followed by `[`.
/// Used to settle the one ambiguity of unescaped double-byte text: is this `]` a trail byte or
/// the end of the value?
fn structure_follows(bytes: &[u8], at: usize) -> bool {
    let i = skip_whitespace(bytes, at);
    match bytes.get(i) {
        None | Some(b';') | Some(b'(') | Some(b')') => true,
        Some(b) if b.is_ascii_uppercase() => {
            let j = skip_while(bytes, i, |b| b.is_ascii_uppercase());
            j - i <= 8 && bytes.get(skip_whitespace(bytes, j)) == Some(&b'[')
        }
        _ => false,
    }
}

/// Root and game-information properties: a node that starts with one of them begins a game.
const ROOT_IDENTIFIERS: &[&[u8]] = &[
    b"AN", b"AP", b"BR", b"BT", b"CA", b"CP", b"DT", b"EV", b"FF", b"GC", b"GM", b"GN", b"HA",
    b"KM", b"ON", b"OT", b"PB", b"PC", b"PW", b"RE", b"RO", b"RU", b"SO", b"ST", b"SZ", b"TM",
    b"US", b"WR", b"WT",
];

/// After a line break at `line_start`: the offset of a `(` that begins a new root there.
fn new_root_after_newline(
    bytes: &[u8],
    line_start: usize,
    closes: &mut CloseFinder,
) -> Option<usize> {
    let p = skip_while(bytes, line_start, |b| b == b' ' || b == b'\t');
    (bytes.get(p) == Some(&b'(') && root_follows(bytes, p + 1, closes)).then_some(p)
}

/// Whether the `(` at `p` (inside an open tree) begins a new game: it starts a line and is
/// followed by a root node.
fn new_root_at(bytes: &[u8], p: usize, closes: &mut CloseFinder) -> bool {
    let before = bytes[..p].iter().rposition(|&b| b != b' ' && b != b'\t');
    let at_line_start = match before {
        None => true,
        Some(q) => bytes[q] == b'\n' || bytes[q] == b'\r',
    };
    at_line_start && root_follows(bytes, p + 1, closes)
}

/// Whether a root node follows at `at` (just past a `(`): `;`, a root or game-information
/// identifier, and a value closed by an unescaped `]` within a short distance.
fn root_follows(bytes: &[u8], at: usize, closes: &mut CloseFinder) -> bool {
    const MAX_VALUE: usize = 1024;
    let i = skip_whitespace(bytes, at);
    if bytes.get(i) != Some(&b';') {
        return false;
    }
    let id_start = skip_whitespace(bytes, i + 1);
    let id_end = skip_while(bytes, id_start, |b| b.is_ascii_uppercase());
    if !ROOT_IDENTIFIERS.contains(&&bytes[id_start..id_end]) {
        return false;
    }
    let open = skip_whitespace(bytes, id_end);
    if bytes.get(open) != Some(&b'[') {
        return false;
    }
    closes.first_close(bytes, open + 1).is_some_and(|close| close - (open + 1) <= MAX_VALUE)
}

/// Finds the first unescaped `]` from the start of a value, remembering its last answer.
///
/// Candidate roots can come every few bytes (`;GM[` repeated in junk, a new line starting
/// `(;GM[` on every line of an unclosed value), and each asks where its value closes: looking
/// afresh each time would read the same bytes again for every candidate. The answer for a
/// value starting at `start` is the same for every `start` between the last question and the
/// last answer (no unescaped `]` lies between them), so each byte is read about once per scan.
/// Whether a `]` is escaped depends only on the backslashes just before it (a value starts
/// after `[`, so a run of them never crosses its start).
#[derive(Default)]
struct CloseFinder {
    /// The last question and its answer (`None`: no unescaped `]` up to the end).
    last: Option<(usize, Option<usize>)>,
}

impl CloseFinder {
    fn first_close(&mut self, bytes: &[u8], start: usize) -> Option<usize> {
        if let Some((asked, answer)) = self.last
            && asked <= start
            && answer.is_none_or(|close| start <= close)
        {
            return answer;
        }
        let mut from = start;
        let answer = loop {
            let Some(k) = bytes.get(from..).and_then(|rest| memchr::memchr(b']', rest)) else {
                break None;
            };
            let close = from + k;
            let backslashes = bytes[start..close].iter().rev().take_while(|&&b| b == b'\\').count();
            if backslashes % 2 == 0 {
                break Some(close);
            }
            from = close + 1;
        };
        self.last = Some((start, answer));
        answer
    }
}

fn skip_whitespace(bytes: &[u8], at: usize) -> usize {
    skip_while(bytes, at, |b| b.is_ascii_whitespace() || b == 0x0B)
}

fn skip_while(bytes: &[u8], mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
    while bytes.get(i).is_some_and(|&b| keep(b)) {
        i += 1;
    }
    i
}

/// Whether a tree starts at `p` (a `(` or `;` outside every tree), and how.
fn tree_start_at(bytes: &[u8], p: usize, closes: &mut CloseFinder) -> Option<Opening> {
    if bytes[p] == b';' {
        // Only a root node counts: a stray `;` in junk text does not start a game.
        return root_follows(bytes, p, closes).then_some(Opening::NoParen);
    }
    let i = skip_whitespace(bytes, p + 1);
    match bytes.get(i) {
        Some(b';') => Some(Opening::Normal),
        Some(b) if b.is_ascii_alphabetic() => {
            let j = skip_while(bytes, i, |b| b.is_ascii_alphabetic());
            (bytes.get(skip_whitespace(bytes, j)) == Some(&b'[')).then_some(Opening::NoSemicolon)
        }
        _ => None,
    }
}

/// Scans `bytes` from `from` to the end: gaps between trees and the trees themselves.
fn scan_file(
    bytes: &[u8],
    from: usize,
    layout: ByteLayout,
    recover: bool,
    lines: &mut LineCounter,
    out: &mut Collector,
) {
    let mut pos = from;
    let mut closes = CloseFinder::default();
    loop {
        let gap_start = pos;
        let mut start = None;
        while let Some(k) = memchr2(b'(', b';', &bytes[pos..]) {
            let p = pos + k;
            if let Some(opening) = tree_start_at(bytes, p, &mut closes) {
                start = Some((p, opening));
                break;
            }
            pos = p + 1;
        }
        let Some((start, opening)) = start else {
            record_gap(bytes, gap_start, bytes.len(), lines, out);
            return;
        };
        record_gap(bytes, gap_start, start, lines, out);
        let line = lines.line_of(start);
        let (end, end_kind) = scan_tree(bytes, start + 1, layout, recover, lines);
        out.push_tree(Tree { start, end, line, end_kind, opening });
        pos = end;
    }
}

/// Reports the non-whitespace bytes of `bytes[start..end]`, a gap between trees.
fn record_gap(
    bytes: &[u8],
    start: usize,
    end: usize,
    lines: &mut LineCounter,
    out: &mut Collector,
) {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let gap = &bytes[start..end];
    let Some(first) = gap.iter().position(|b| !b.is_ascii_whitespace()) else { return };
    let last = gap.iter().rposition(|b| !b.is_ascii_whitespace()).unwrap_or(first);
    let (junk_start, junk_end) = (start + first, start + last + 1);
    let line = lines.line_of(junk_start);
    if &bytes[junk_start..junk_end] == BOM {
        out.push_stray(Stray::ByteOrderMark { offset: junk_start, line });
    } else {
        out.push_stray(Stray::Junk { start: junk_start, end: junk_end, line });
    }
}

/// Scans one tree whose `(` lies just before `from`; returns where it ends and how.
fn scan_tree(
    bytes: &[u8],
    from: usize,
    layout: ByteLayout,
    recover: bool,
    lines: &mut LineCounter,
) -> (usize, TreeEnd) {
    let mut depth: u64 = 1;
    let mut pos = from;
    let mut closes = CloseFinder::default();
    loop {
        let Some(p) = find3(bytes, pos, b'[', b'(', b')') else {
            let open = Unfinished { in_value: false, open_trees: depth };
            return (bytes.len(), TreeEnd::Unclosed(open));
        };
        match bytes[p] {
            // A two-letter value (`[pd]`, most of a game): closed where it seems in every
            // layout, since neither letter can be a lead byte, an escape or a line break.
            b'[' if two_letter_value(bytes, p) => {
                // Most of a game is a run of moves, `;B[pd];W[dp]...`: the next `[` is then two
                // bytes past each `]`, with nothing between to look for.
                let mut next = p + 4;
                while matches!(bytes.get(next..next + 3), Some([b';', b'B' | b'W', b'[']))
                    && two_letter_value(bytes, next + 2)
                {
                    next += 6;
                }
                pos = next;
            }
            b'[' => match scan_value(bytes, p + 1, layout, recover, &mut |_| {}) {
                ValueEnd::Closed(q) => pos = q + 1,
                ValueEnd::Eof => {
                    let open = Unfinished { in_value: true, open_trees: depth };
                    return (bytes.len(), TreeEnd::Unclosed(open));
                }
                ValueEnd::NewRoot(r) => {
                    let open = Unfinished { in_value: true, open_trees: depth };
                    return (r, TreeEnd::CutShort(open, lines.line_of(r)));
                }
            },
            b'(' => {
                if recover && new_root_at(bytes, p, &mut closes) {
                    let open = Unfinished { in_value: false, open_trees: depth };
                    return (p, TreeEnd::CutShort(open, lines.line_of(p)));
                }
                depth += 1;
                pos = p + 1;
            }
            _ => {
                depth -= 1;
                if depth == 0 {
                    return (p + 1, TreeEnd::Closed);
                }
                pos = p + 1;
            }
        }
    }
}

/// Whether the `[` at `p` opens a value of two ASCII letters (`[pd]`).
#[inline(always)]
fn two_letter_value(bytes: &[u8], p: usize) -> bool {
    matches!(bytes.get(p + 1..p + 4), Some(&[x, y, b']'])
        if x.is_ascii_alphabetic() && y.is_ascii_alphabetic())
}

/// Turns increasing byte offsets into 1-based line numbers in one pass over the text.
struct LineCounter<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

impl<'a> LineCounter<'a> {
    fn new(bytes: &'a [u8]) -> LineCounter<'a> {
        LineCounter { bytes, pos: 0, line: 1 }
    }

    /// The line of `offset`; offsets asked for must not decrease (a smaller one restarts the
    /// count from the top, which only the recovery pass does, once).
    fn line_of(&mut self, offset: usize) -> u32 {
        let offset = offset.min(self.bytes.len());
        if offset < self.pos {
            self.pos = 0;
            self.line = 1;
        }
        let newlines = memchr::memchr_iter(b'\n', &self.bytes[self.pos..offset]).count();
        self.line = self.line.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        self.pos = offset;
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(text: &[u8]) -> Vec<&str> {
        split(text, 0, ByteLayout::AsciiSafe)
            .trees
            .iter()
            .map(|t| std::str::from_utf8(&text[t.start..t.end]).unwrap_or("<bytes>"))
            .collect()
    }

    #[test]
    fn values_may_hold_parentheses_and_escaped_brackets() {
        let text = b"(;GM[1]C[a (tricky) \\] one; really])(;B[aa])";
        assert_eq!(ranges(text), ["(;GM[1]C[a (tricky) \\] one; really])", "(;B[aa])"]);
    }

    #[test]
    fn variations_nest_inside_one_tree() {
        assert_eq!(
            ranges(b"(;GM[1](;B[aa])(;B[bb](;W[cc])))\n"),
            ["(;GM[1](;B[aa])(;B[bb](;W[cc])))"]
        );
    }

    #[test]
    fn junk_and_lines_are_reported() {
        let s = split(b"header\n(;GM[1])\n-- 2 --\n(;GM[1])\x1a", 0, ByteLayout::AsciiSafe);
        assert_eq!(s.trees.iter().map(|t| t.line).collect::<Vec<_>>(), [2, 4]);
        assert_eq!(
            s.strays,
            [
                Stray::Junk { start: 0, end: 6, line: 1 },
                Stray::Junk { start: 16, end: 23, line: 3 },
                Stray::Junk { start: 32, end: 33, line: 4 },
            ]
        );
    }

    #[test]
    fn a_missing_paren_is_recovered_at_the_next_root() {
        let text = b"(;GM[1]PB[a];B[aa]\n(;GM[1]PB[b];B[bb])\n(;GM[1]PB[c])";
        let s = split(text, 0, ByteLayout::AsciiSafe);
        assert_eq!(s.trees.len(), 3);
        let open = Unfinished { in_value: false, open_trees: 1 };
        assert_eq!(s.trees[0].end_kind, TreeEnd::CutShort(open, 2));
        assert_eq!(s.trees[1].end_kind, TreeEnd::Closed);
        assert_eq!(s.trees[2].end_kind, TreeEnd::Closed);
    }

    #[test]
    fn variations_that_look_like_games_are_not_cut_in_a_closed_tree() {
        let text = b"(;GM[1]GN[collection]\n(;PB[a];B[aa])\n(;PB[b];B[bb])\n)";
        assert_eq!(split(text, 0, ByteLayout::AsciiSafe).trees.len(), 1);
    }

    #[test]
    fn gbk_trail_bytes_do_not_end_a_value() {
        // 昞 is 95 5D in GBK; 埈 is 88 5C: unescaped trail bytes `]` and `\`.
        let text = b"(;GM[1]PB[\x95\x5D]PW[\x88\x5C])(;GM[1])";
        let s = split(text, 0, ByteLayout::DoubleByte(DoubleByte::Gbk));
        assert_eq!(s.trees.len(), 2);
        assert_eq!(s.trees[0].end, 20);
        // Read as single bytes the same text falls apart.
        let naive = split(text, 0, ByteLayout::AsciiSafe);
        assert_ne!(naive.trees.len(), 2);
    }

    #[test]
    fn spec_escaped_trail_bytes_are_reported_for_removal() {
        // Big5 因 (A6 5D) written the FF[4] way: A6 5C 5D.
        let text = b"C[\xA6\x5C\x5D\xA6\x5C\x5D]";
        let mut escapes = Vec::new();
        let end = scan_value(text, 2, ByteLayout::DoubleByte(DoubleByte::Big5), false, &mut |i| {
            escapes.push(i)
        });
        assert_eq!(end, ValueEnd::Closed(8));
        assert_eq!(escapes, [3, 6]);
    }

    #[test]
    fn a_trail_backslash_just_before_the_closing_bracket_ends_the_value() {
        // Shift_JIS ソ is 83 5C: `PB[...ソ]` followed by the next property.
        let text = b"PB[\x90\x5C\xE1\xC1\x83\x5C]\r\nBR[x]";
        let end =
            scan_value(text, 3, ByteLayout::DoubleByte(DoubleByte::ShiftJis), false, &mut |_| {});
        assert_eq!(end, ValueEnd::Closed(9));
    }

    #[test]
    fn sina_style_trees_without_semicolon_are_found() {
        let s = split(b"(\nTE[x]RE[y]GK[1];B[aa])", 0, ByteLayout::AsciiSafe);
        assert_eq!(s.trees.len(), 1);
        assert_eq!(s.trees[0].opening, Opening::NoSemicolon);
        assert!(split(b"(from KGS)", 0, ByteLayout::AsciiSafe).trees.is_empty());
    }

    #[test]
    fn fox_trees_without_their_paren_are_found() {
        let text = b";GM[1]FF[4]AP[foxwq];B[pd](;W[dd])(;W[dp]))";
        let s = split(text, 0, ByteLayout::AsciiSafe);
        assert_eq!(s.trees.len(), 1);
        assert_eq!((s.trees[0].start, s.trees[0].end), (0, text.len()));
        assert_eq!(s.trees[0].opening, Opening::NoParen);
        assert!(s.strays.is_empty());
        assert!(split(b"notes; more notes", 0, ByteLayout::AsciiSafe).trees.is_empty());
    }

    /// A small seeded generator (xorshift64*), so that failures reproduce.
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

    /// Game texts with the hard parts: escapes, brackets and parentheses in values,
    /// variations, double-byte-looking bytes in a UTF-8 comment.
    const GAMES: &[&str] = &[
        "(;GM[1]FF[4]SZ[19]PB[a]PW[b];B[pd];W[dd])",
        "(;GM[1]C[(tricky\\] ; value)];B[aa](;W[bb])(;W[cc]C[x\\\\]))",
        "(;GM[1]GN[((((]C[\\)\\)\\)]\n;B[];W[tt])",
        "(;GM[1]PB[柯洁]C[围棋 \\] 是 ( 游戏 ]\n(;B[aa];W[ab])\n(;B[ba]))",
    ];

    /// Text between games: anything without `(` or `;`, so it cannot start a tree.
    const JUNK: &[&str] = &["", "\n", "\r\n\r\n", " -- next game -- \n", "\u{1a}", "text]\\["];

    #[test]
    fn random_collections_split_into_exactly_their_games() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..500 {
            let count = 1 + rng.below(12);
            let mut text = String::new();
            let mut expected = Vec::new();
            for _ in 0..count {
                text.push_str(JUNK[rng.below(JUNK.len())]);
                let game = GAMES[rng.below(GAMES.len())];
                expected.push((text.len(), game));
                text.push_str(game);
            }
            text.push_str(JUNK[rng.below(JUNK.len())]);
            let found = split(text.as_bytes(), 0, ByteLayout::AsciiSafe);
            let got: Vec<_> =
                found.trees.iter().map(|t| (t.start, &text[t.start..t.end])).collect();
            assert_eq!(got, expected, "round {round}: {text:?}");
            assert!(found.trees.iter().all(|t| t.end_kind == TreeEnd::Closed));
        }
    }

    #[test]
    fn random_damage_never_panics_and_trees_stay_in_order() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let layouts = [
            ByteLayout::AsciiSafe,
            ByteLayout::DoubleByte(DoubleByte::Gbk),
            ByteLayout::DoubleByte(DoubleByte::Big5),
            ByteLayout::DoubleByte(DoubleByte::ShiftJis),
            ByteLayout::Iso2022Jp,
        ];
        let alphabet = b"();[]\\\n GMB\x1b$(\x81\x5c\x5d\xfe";
        for round in 0..2000 {
            let mut bytes: Vec<u8> = GAMES.concat().into_bytes();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(bytes.len());
                match rng.below(3) {
                    0 => bytes[at] = alphabet[rng.below(alphabet.len())],
                    1 => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            let layout = layouts[round % layouts.len()];
            let found = split(&bytes, 0, layout);
            let mut last_end = 0;
            for tree in &found.trees {
                assert!(last_end <= tree.start && tree.start < tree.end && tree.end <= bytes.len());
                last_end = tree.end;
            }
        }
    }

    #[test]
    fn deep_nesting_is_a_counter_not_recursion() {
        let depth = 200_000;
        let mut text = Vec::new();
        text.extend(std::iter::repeat_n(&b"(;B[aa]"[..], depth).flatten());
        text.extend(std::iter::repeat_n(b')', depth));
        let s = split(&text, 0, ByteLayout::AsciiSafe);
        assert_eq!(s.trees.len(), 1);
        assert_eq!(s.trees[0].end, text.len());
    }
}
