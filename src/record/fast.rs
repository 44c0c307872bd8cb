//! kifu's own streaming main-line reader: one pass over a game's text, no tree, no allocation
//! per move, feeding the same interpreter ([`super::builder`]) as the sgf-parse reader, so that
//! the records it yields are those of [`super::sgf::read_game`] by construction.
//!
//! # Why
//!
//! sgf-parse builds a whole tree (about 450 bytes and 12 allocations per node) and then
//! kifu re-lexes the text to recover how each property was written. That costs more than
//! replaying the game under superko. This reader lexes the text once, remembers where the
//! main line's properties are (in buffers reused from game to game on each worker thread), and
//! hands them to [`GameBuilder`] exactly as `sgf::read_game` would.
//!
//! # What it reads, and when it declines
//!
//! It accepts a strict subset of what sgf-parse 4.2.8 parses strictly, chosen so that on that
//! subset the two readers make the same calls to the builder:
//!
//! ```text
//! text      = ws* tree ws*                      (ws: Unicode whitespace, as str::trim)
//! tree      = "(" sp node+ variation* ")"
//! variation = "(" sp node+ variation* ")" sp
//! node      = ";" sp property*
//! property  = letter+ sp value+                 (letter: A-Z or a-z)
//! value     = "[" (any char but "]" and "\", or "\" any char)* "]" sp
//! sp        = ASCII whitespace*                 (what sgf-parse's lexer skips)
//! ```
//!
//! and, in the root node, at most one property written exactly `GM`, whose value is exactly `1`
//! (sgf-parse reads any other `GM` as another game or as an error), and at most
//! [`super::sgf::MAX_GAME_NODES`] nodes. The main line is the first node sequence and, at each
//! level, the first variation; the other variations are lexed (a lexer error anywhere fails
//! sgf-parse's strict parse) but not read.
//!
//! Everything else makes it decline, and the caller reads the game with sgf-parse
//! ([`read_game`] does both): identifiers holding digits or punctuation (`PL;B`, a missing
//! bracket), non-ASCII characters where an identifier should be, a value never closed, a node
//! after a variation, an empty variation `()`, two trees, other games than Go. On all of these
//! sgf-parse either fails strictly (lenient reading and its findings follow) or builds a tree
//! whose main line is not the text's first node sequence.
//!
//! # Equivalence
//!
//! On an accepted text, sgf-parse's strict parse succeeds with one Go tree whose main line is
//! the text's first nodes in order (the first child at every level comes first in the text), and
//! `sgf::read_game` feeds the builder each of those nodes' properties with identifiers as
//! written and values unescaped by `scan`, which this module reproduces byte for byte: `\`
//! drops itself and keeps the next character, soft line breaks stay `\n`, nothing is trimmed.
//! The only difference left is [`ReadStatus::Fast`] instead of [`ReadStatus::Strict`]. The
//! claim is checked, not only argued: the differential tests (`tests/record_fast.rs`) compare
//! the two readers on every fixture, under seeded damage, and over the whole shared corpus,
//! and `fuzz/fuzz_targets/fast_reader_vs_sgf_parse.rs` does so on arbitrary input.

use std::cell::RefCell;
use std::ops::Range;

use memchr::memchr2;

use super::builder::GameBuilder;
use super::sgf::MAX_GAME_NODES;
use super::{
    GameLocation, GameRecord, Limits, ReadOptions, ReadStatus, RecordedMove, TextEncoding,
};
use crate::rules::{Color, Move, Point};

/// Why the fast reader left a game to sgf-parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decline {
    /// The text does not start with `(` then `;`.
    Opening,
    /// An identifier holds something other than letters (or none at all), or its value is
    /// missing.
    Identifier,
    /// A value is not closed before the end of the text.
    UnclosedValue,
    /// The tree's structure is outside the subset read here (a node after a variation, `()`,
    /// an unbalanced `)`, text after the tree, a tree never closed).
    Structure,
    /// `GM` in the root names another game than Go, is repeated, or is not written `GM[1]`.
    GameType,
    /// A limit on the game's shape ([`Limits`]: nodes, depth, value length) is passed: the
    /// caller refuses the game with the `limit` finding `limits::game_shape` words.
    Limit,
}

impl Decline {
    /// A few words for statistics and test messages.
    pub fn describe(self) -> &'static str {
        match self {
            Decline::Opening => "does not open with `(;`",
            Decline::Identifier => "an identifier that is not only letters",
            Decline::UnclosedValue => "a value never closed",
            Decline::Structure => "a tree structure outside the fast subset",
            Decline::GameType => "GM other than a single GM[1]",
            Decline::Limit => "over a limit (nodes, depth or value length)",
        }
    }
}

/// A game the fast reader declined: the location handed back, and why.
#[derive(Debug)]
pub struct Declined {
    /// The location given, returned unused.
    pub location: GameLocation,
    /// Why.
    pub reason: Decline,
    /// Byte offset in the trimmed text where the reader stopped.
    pub offset: usize,
}

/// Reads one game: with the fast reader when it accepts the text, else with sgf-parse
/// ([`super::sgf::read_game`]). Never fails, as `sgf::read_game`.
pub fn read_game(
    text: &str,
    location: GameLocation,
    encoding: TextEncoding,
    options: &ReadOptions,
) -> GameRecord {
    // `sgf::read_game` applies no limit of `options` (the pipeline checks them before reading:
    // see `PendingGame::read`), so neither does this.
    match read_game_fast(text, location, encoding, &Limits::NONE) {
        Ok(record) => record,
        Err(declined) => super::sgf::read_game(text, declined.location, encoding, options),
    }
}

thread_local! {
    /// The reader's buffers, one set per thread, reused from game to game.
    static READER: RefCell<FastReader> = RefCell::new(FastReader::default());
}

/// Reads one game with the fast reader only; [`ReadStatus::Fast`] on success. On a text outside
/// its subset (see the module documentation) it declines without side effects.
///
/// It also declines a game whose shape passes one of `limits`' game limits (`max_game_nodes`,
/// `max_tree_depth`, `max_value_length`, measured exactly as [`super::limits::game_shape`]
/// measures them), so that a game it reads is one `game_shape` would let through: the
/// pipeline checks the limits only on the games it declines, instead of in a pass of its own
/// over every game.
pub fn read_game_fast(
    text: &str,
    location: GameLocation,
    encoding: TextEncoding,
    limits: &Limits,
) -> Result<GameRecord, Declined> {
    READER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut reader) => reader.read(text, location, encoding, limits),
        // Only reachable if the builder called back into the reader, which it never does.
        Err(_) => FastReader::default().read(text, location, encoding, limits),
    })
}

/// The fast reader's buffers. Held per thread by [`read_game_fast`]; a caller that prefers to
/// own them (a benchmark, a worker of its own) can hold one and call [`FastReader::read`].
#[derive(Debug, Default)]
pub struct FastReader {
    /// The values of a property with several values or escapes: where each lies in the text,
    /// and whether it holds a `\`.
    values: Vec<Value>,
    /// Unescaped values of the property being fed.
    unescaped: String,
    /// The values being fed, recycled from property to property (see [`recycle`]).
    slices: Vec<&'static str>,
    /// The depth of the tree before each `(` still open (see [`Shape`]).
    saved_depths: Vec<u64>,
}

/// The game's shape as [`super::limits::game_shape`] measures it, checked against the limits
/// as the reader goes.
#[derive(Debug)]
struct Shape {
    /// Nodes so far, variations included.
    nodes: u64,
    /// Nodes on the current line from the root: each `;` adds one, each `)` goes back to the
    /// depth before its `(`.
    depth: u64,
    /// The most nodes allowed.
    max_nodes: u64,
    /// The deepest line of nodes, and the deepest nesting, allowed.
    max_depth: u64,
    /// The longest value allowed, in bytes.
    max_value: u64,
}

/// A value of a property with several values or escapes.
#[derive(Debug)]
struct Value {
    /// Where it lies in the text, brackets excluded.
    raw: Range<usize>,
    /// Whether it holds a `\`; if so, where its unescaped text ends in
    /// [`FastReader::unescaped`] (it starts where the previous escaped value's ends).
    unescaped_end: Option<usize>,
}

/// Where the reader stopped, and why.
type Stop = (Decline, usize);

/// The most plain move nodes lexed before they are handed to the builder together
/// ([`GameBuilder::move_nodes`]): a buffer on the stack that a long run fills several times.
const RUN_CHUNK: usize = 64;

/// Moves to make room for before reading: a move takes at least six bytes (`;B[pd]`), so
/// this never reserves much more than the game needs (capped for long commented games).
fn expected_moves(text: &str) -> usize {
    (text.len() / 6).min(1024)
}

impl FastReader {
    /// Reads `text` (one game tree) into a record, or declines. See [`read_game_fast`].
    pub fn read(
        &mut self,
        text: &str,
        location: GameLocation,
        encoding: TextEncoding,
        limits: &Limits,
    ) -> Result<GameRecord, Declined> {
        let text = text.trim();
        let mut builder = GameBuilder::new(location, encoding);
        builder.reserve_moves(expected_moves(text));
        let shape = Shape {
            nodes: 0,
            depth: 0,
            // sgf-parse's own ceiling (`sgf::read_game` refuses more) applies whatever the
            // limits say.
            max_nodes: limits.max_game_nodes.min(MAX_GAME_NODES as u64),
            max_depth: limits.max_tree_depth,
            max_value: limits.max_value_length,
        };
        let mut saved = std::mem::take(&mut self.saved_depths);
        saved.clear();
        let mut lexer = Lexer { bytes: text.as_bytes(), pos: 0, shape, saved };
        let read = self.read_tree(text, &mut lexer, &mut builder);
        self.saved_depths = lexer.saved;
        match read {
            Ok(()) => Ok(builder.finish(ReadStatus::Fast)),
            Err((reason, offset)) => Err(Declined { location: builder.abandon(), reason, offset }),
        }
    }

    /// One pass over the text: the main line goes to the builder as it is met, the other
    /// variations are lexed only; anything outside the subset stops the reading.
    fn read_tree(
        &mut self,
        text: &str,
        lexer: &mut Lexer<'_>,
        builder: &mut GameBuilder,
    ) -> Result<(), Stop> {
        let bytes = text.as_bytes();
        if lexer.peek() != Some(b'(') {
            return Err((Decline::Opening, 0));
        }
        lexer.open_paren()?;
        if lexer.peek() != Some(b';') {
            return Err((Decline::Opening, lexer.pos));
        }
        // The main line: node sequences, entering the first variation at each level.
        let mut depth = 1usize;
        let mut root = true;
        // Filled by each run before it is read: set up once, not at each `;` (a main line
        // written one variation per move, `;B[pd](;W[dp](;B[pp]...`, has a run per node).
        let mut run = [RecordedMove { color: Color::Black, mv: Move::Pass, node: 0 }; RUN_CHUNK];
        loop {
            match lexer.peek() {
                Some(b';') => {
                    // The limits allow this many more plain move nodes: checked once a run
                    // instead of at every node, the count added when the run ends.
                    let budget = lexer.plain_move_budget();
                    let mut left = budget;
                    loop {
                        let lexed = lexer.plain_move_nodes(&mut left, &mut run);
                        builder.move_nodes(&mut run[..lexed]);
                        if lexed < RUN_CHUNK {
                            break;
                        }
                    }
                    lexer.count_plain_move_nodes(budget - left);
                    if left < budget {
                        root = false;
                        continue;
                    }
                    lexer.node()?;
                    if let Some((colour, mv)) = lexer.move_node()? {
                        builder.move_node(colour, mv);
                        root = false;
                        continue;
                    }
                    builder.node();
                    let mut gm = false;
                    while let Some(at) = lexer.identifier()? {
                        let identifier = &text[at.clone()];
                        if root && identifier == "GM" {
                            // sgf-parse reads any other GM as another game or as an error.
                            let one = bytes.get(lexer.pos..lexer.pos + 3) == Some(b"[1]")
                                && bytes[lexer.pos + 3..]
                                    .iter()
                                    .find(|b| !b.is_ascii_whitespace())
                                    .is_none_or(|&b| b != b'[');
                            if gm || !one {
                                return Err((Decline::GameType, at.start));
                            }
                            gm = true;
                        }
                        self.feed_property(lexer, text, identifier, builder)?;
                    }
                    root = false;
                }
                Some(b'(') => {
                    // The first variation continues the main line.
                    lexer.open()?;
                    depth += 1;
                }
                Some(b')') => break,
                Some(_) => return Err((Decline::Identifier, lexer.pos)),
                None => return Err((Decline::Structure, lexer.pos)),
            }
        }
        // The main line ends at this `)`: close its level, then lex the remaining variations
        // of every level without reading them.
        lexer.close_paren();
        depth -= 1;
        while depth > 0 {
            match lexer.peek() {
                Some(b'(') => lexer.skip_variation()?,
                Some(b')') => {
                    lexer.close_paren();
                    depth -= 1;
                }
                _ => return Err((Decline::Structure, lexer.pos)),
            }
        }
        if lexer.pos != bytes.len() {
            return Err((Decline::Structure, lexer.pos));
        }
        Ok(())
    }

    /// Lexes the values of the property whose identifier was just read and hands the property
    /// to the builder, values unescaped.
    #[inline]
    fn feed_property(
        &mut self,
        lexer: &mut Lexer<'_>,
        text: &str,
        identifier: &str,
        builder: &mut GameBuilder,
    ) -> Result<(), Stop> {
        let (first, escaped) = lexer.value()?;
        if !escaped && lexer.peek() != Some(b'[') {
            // The common case: one value, no escape, borrowed from the text.
            builder.property(identifier, &[&text[first]]);
            return Ok(());
        }
        self.feed_values(lexer, text, identifier, builder, (first, escaped))
    }

    /// [`FastReader::feed_property`] of a property with several values or an escape, whose
    /// first value `first` has been lexed. Out of line: rare (fox-pro: 8,685 of 207,802
    /// properties), it is kept out of the reader's loop.
    #[inline(never)]
    fn feed_values(
        &mut self,
        lexer: &mut Lexer<'_>,
        text: &str,
        identifier: &str,
        builder: &mut GameBuilder,
        first: (Range<usize>, bool),
    ) -> Result<(), Stop> {
        // Escaped values are unescaped into one buffer; then every value is a slice of the
        // text or of that buffer.
        self.values.clear();
        self.unescaped.clear();
        let mut value = first;
        loop {
            let (raw, escaped) = value;
            let unescaped_end = escaped.then(|| {
                unescape_into(&text[raw.clone()], &mut self.unescaped);
                self.unescaped.len()
            });
            self.values.push(Value { raw, unescaped_end });
            if lexer.peek() != Some(b'[') {
                break;
            }
            value = lexer.value()?;
        }
        let mut slices = recycle(std::mem::take(&mut self.slices));
        let mut start = 0;
        for value in &self.values {
            match value.unescaped_end {
                Some(end) => {
                    slices.push(&self.unescaped[start..end]);
                    start = end;
                }
                None => slices.push(&text[value.raw.clone()]),
            }
        }
        builder.property(identifier, &slices);
        self.slices = recycle(slices);
        Ok(())
    }
}

/// A vector's allocation, emptied and ready for slices of another lifetime: `into_iter` then
/// `collect` into a type of the same size and alignment reuses the buffer (std's in-place
/// collection), so per-property value lists cost no allocation once a worker has warmed up.
fn recycle<'a, 'b>(mut v: Vec<&'a str>) -> Vec<&'b str> {
    v.clear();
    v.into_iter().map(|_| -> &'b str { unreachable!("the vector is empty") }).collect()
}

/// Appends `raw` unescaped as sgf-parse's lexer does: each `\` dropped, the character after it
/// kept (whatever it is, a line break included).
fn unescape_into(raw: &str, out: &mut String) {
    let mut rest = raw;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match after.chars().next() {
            Some(c) => {
                out.push(c);
                rest = &after[c.len_utf8()..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
}

/// The byte-level lexer over the trimmed text.
struct Lexer<'t> {
    bytes: &'t [u8],
    pos: usize,
    shape: Shape,
    /// The depth before each `(` still open; its length is the nesting.
    saved: Vec<u64>,
}

impl Lexer<'_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn skip_space(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// At `;`: a node starts.
    #[inline]
    fn node(&mut self) -> Result<(), Stop> {
        let shape = &mut self.shape;
        shape.nodes += 1;
        shape.depth += 1;
        if shape.nodes > shape.max_nodes || shape.depth > shape.max_depth {
            return Err((Decline::Limit, self.pos));
        }
        self.pos += 1;
        self.skip_space();
        Ok(())
    }

    /// At `(`: one more level of nesting.
    fn open_paren(&mut self) -> Result<(), Stop> {
        self.saved.push(self.shape.depth);
        if self.saved.len() as u64 > self.shape.max_depth {
            return Err((Decline::Limit, self.pos));
        }
        self.pos += 1;
        self.skip_space();
        Ok(())
    }

    /// At `)`: back to the depth before the matching `(`.
    fn close_paren(&mut self) {
        self.shape.depth = self.saved.pop().unwrap_or(0);
        self.pos += 1;
        self.skip_space();
    }

    /// Just after a node's `;`: a node holding one move and nothing else (`B[pd]` or `W[]`,
    /// then the next node, a variation or the end of the tree), read whole; `None` (the
    /// lexer unmoved) for anything else.
    #[inline]
    fn move_node(&mut self) -> Result<Option<(Color, Move)>, Stop> {
        let rest = &self.bytes[self.pos..];
        let colour = match rest.first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => return Ok(None),
        };
        let point = |x, y| Some(Move::Play(Point::new(letter(x)?, letter(y)?)));
        let (mv, len) = match rest.get(1..5) {
            Some(&[b'[', b']', ..]) => (Move::Pass, 3),
            Some(&[b'[', x, y, b']']) => match point(x, y) {
                Some(mv) => (mv, 5),
                None => return Ok(None),
            },
            _ => match rest.get(1..3) {
                Some(b"[]") => (Move::Pass, 3),
                _ => return Ok(None),
            },
        };
        let mut end = self.pos + len;
        while end < self.bytes.len() && self.bytes[end].is_ascii_whitespace() {
            end += 1;
        }
        if !matches!(self.bytes.get(end), Some(b';' | b'(' | b')')) {
            return Ok(None);
        }
        if (len - 3) as u64 > self.shape.max_value {
            return Err((Decline::Limit, self.pos));
        }
        self.pos = end;
        Ok(Some((colour, mv)))
    }

    /// How many plain move nodes ([`Lexer::plain_move_node`]) may follow before one reaches a
    /// node or depth limit, or none if a two-letter value is over the value limit.
    #[inline]
    fn plain_move_budget(&self) -> u64 {
        let shape = &self.shape;
        if shape.max_value < 2 {
            return 0;
        }
        let nodes = shape.max_nodes.saturating_sub(shape.nodes);
        nodes.min(shape.max_depth.saturating_sub(shape.depth))
    }

    /// Counts `count` plain move nodes just read, as [`Lexer::node`] counts each node.
    #[inline]
    fn count_plain_move_nodes(&mut self, count: u64) {
        self.shape.nodes += count;
        self.shape.depth += count;
    }

    /// At `;`: the commonest nodes of all, `;B[pd]` (or `;W[dp]`) each directly followed, after
    /// any whitespace, by the next node, a variation or the end of the tree, read whole, as many
    /// in a row as `run` holds and `left` (from [`Lexer::plain_move_budget`]) allows, into
    /// `run` (colour and move; the builder numbers the nodes); returns how many. `left` goes
    /// down by one a node, and the caller counts the nodes ([`Lexer::count_plain_move_nodes`]).
    /// The lexer stops unmoved before anything else, a node or value limit reached included
    /// (`left` at 0): [`Lexer::node`] and [`Lexer::move_node`] then read it the long way (and
    /// report the limit).
    ///
    /// Never inlined: on its own, the loop keeps its few locals in registers (inlined into the
    /// reader, it kept them on the stack).
    #[inline(never)]
    fn plain_move_nodes(&mut self, left: &mut u64, run: &mut [RecordedMove; RUN_CHUNK]) -> usize {
        let most = usize::try_from(*left).unwrap_or(usize::MAX).min(RUN_CHUNK);
        let lexed = self.lex_plain_move_nodes(most, Some(run));
        *left -= lexed as u64;
        lexed
    }

    /// [`Lexer::plain_move_nodes`] for a variation, which is lexed and not read: at `;`, as
    /// many plain move nodes in a row as `left` allows are passed over and counted
    /// ([`Lexer::count_plain_move_nodes`]), none kept; returns how many. The moves of the
    /// variations after the main line (fox-pro: 269 reviewed games, a fifth of the bytes) are
    /// mostly such nodes: lexed one property at a time, they cost 46.6M instructions.
    #[inline(never)]
    fn skip_plain_move_nodes(&mut self, left: u64) -> u64 {
        let most = usize::try_from(left).unwrap_or(usize::MAX);
        let skipped = self.lex_plain_move_nodes(most, None) as u64;
        self.count_plain_move_nodes(skipped);
        skipped
    }

    /// The loop of [`Lexer::plain_move_nodes`]: lexes up to `most` plain move nodes (at most
    /// [`RUN_CHUNK`] when they are kept in `run`), and leaves the lexer after them.
    #[inline(always)]
    fn lex_plain_move_nodes(
        &mut self,
        most: usize,
        mut run: Option<&mut [RecordedMove; RUN_CHUNK]>,
    ) -> usize {
        /// The bytes `;`, `[`, `]`, `;` at 0, 2, 5 and 6 of eight read as a little-endian word:
        /// `;B[pd];W` as most moves of most records are written.
        const MASK: u64 = 0x00FF_FF00_00FF_00FF;
        const PATTERN: u64 = 0x003B_5D00_005B_003B;
        let bytes = self.bytes;
        let mut pos = self.pos;
        let mut lexed = 0;
        while lexed < most {
            // The usual node, read in one word: lowercase letters, the next node right after.
            if let Some(word) = bytes.get(pos..pos + 8).and_then(|b| <[u8; 8]>::try_from(b).ok()) {
                let word = u64::from_le_bytes(word);
                let [_, colour, _, x, y, ..] = word.to_le_bytes();
                let (x, y) = (x.wrapping_sub(b'a'), y.wrapping_sub(b'a'));
                if word & MASK == PATTERN && x < 26 && y < 26 && (colour == b'B' || colour == b'W')
                {
                    let color = if colour == b'B' { Color::Black } else { Color::White };
                    if let Some(run) = run.as_deref_mut() {
                        run[lexed] =
                            RecordedMove { color, mv: Move::Play(Point::new(x, y)), node: 0 };
                    }
                    lexed += 1;
                    pos += 6;
                    continue;
                }
            }
            // Any other plain move node: capitals, whitespace after it, the end of the tree.
            let Some(&[b';', colour, b'[', x, y, b']']) = bytes.get(pos..pos + 6) else {
                break;
            };
            let color = match colour {
                b'B' => Color::Black,
                b'W' => Color::White,
                _ => break,
            };
            let (Some(x), Some(y)) = (letter(x), letter(y)) else { break };
            let mut end = pos + 6;
            while end < bytes.len() && bytes[end].is_ascii_whitespace() {
                end += 1;
            }
            if !matches!(bytes.get(end), Some(b';' | b'(' | b')')) {
                break;
            }
            if let Some(run) = run.as_deref_mut() {
                run[lexed] = RecordedMove { color, mv: Move::Play(Point::new(x, y)), node: 0 };
            }
            lexed += 1;
            pos = end;
        }
        self.pos = pos;
        lexed
    }

    /// At `(`: a variation must start with a node.
    fn open(&mut self) -> Result<(), Stop> {
        self.open_paren()?;
        if self.peek() != Some(b';') {
            return Err((Decline::Structure, self.pos));
        }
        Ok(())
    }

    /// The identifier of the next property of the node (letters, then any whitespace before
    /// its `[`, which is where this leaves the lexer), or `None` when no letter follows.
    #[inline]
    fn identifier(&mut self) -> Result<Option<Range<usize>>, Stop> {
        let bytes = self.bytes;
        let start = self.pos;
        let mut i = start;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i == start {
            return Ok(None);
        }
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes.get(i) != Some(&b'[') {
            return Err((Decline::Identifier, i));
        }
        self.pos = i;
        Ok(Some(start..i))
    }

    /// At `[`: one value, the whitespace after it skipped. Its range (without the brackets)
    /// and whether it holds a `\`. Always inlined: where the compiler left it out of line
    /// (which an edit of an unrelated module could decide, with four codegen units), its
    /// half a million calls on fox-pro cost 14M instructions more.
    #[inline(always)]
    fn value(&mut self) -> Result<(Range<usize>, bool), Stop> {
        let start = self.pos + 1;
        let (end, escaped) =
            value_end(self.bytes, start).ok_or((Decline::UnclosedValue, self.pos))?;
        if (end - start) as u64 > self.shape.max_value {
            return Err((Decline::Limit, self.pos));
        }
        self.pos = end + 1;
        self.skip_space();
        Ok((start..end, escaped))
    }

    /// At `(`: lexes a whole variation, its own variations included, reading nothing.
    fn skip_variation(&mut self) -> Result<(), Stop> {
        // For each open level: whether a variation has been met at that level (after which
        // only `(` and `)` may follow).
        let mut in_variations: Vec<bool> = Vec::new();
        loop {
            match self.peek() {
                Some(b'(') => {
                    if let Some(last) = in_variations.last_mut() {
                        *last = true;
                    }
                    self.open()?;
                    in_variations.push(false);
                }
                Some(b';') if in_variations.last() == Some(&false) => {
                    if self.skip_plain_move_nodes(self.plain_move_budget()) > 0 {
                        continue;
                    }
                    self.node()?;
                    while self.identifier()?.is_some() {
                        while self.peek() == Some(b'[') {
                            self.value()?;
                        }
                    }
                }
                Some(b')') => {
                    self.close_paren();
                    in_variations.pop();
                    if in_variations.is_empty() {
                        return Ok(());
                    }
                }
                Some(b';') => return Err((Decline::Structure, self.pos)),
                Some(_) => return Err((Decline::Identifier, self.pos)),
                None => return Err((Decline::Structure, self.pos)),
            }
        }
    }
}

/// A coordinate letter as sgf-parse reads it (`a`-`z`: 0-25, `A`-`Z`: 26-51).
#[inline]
fn letter(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// Index of the `]` closing a value that starts at `start`, and whether a `\` occurs in it.
/// Always inlined, as [`Lexer::value`] is.
#[inline(always)]
fn value_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    // Most values are two-letter points: look before calling memchr.
    if let Some(&[a, b, c]) = bytes.get(start..start + 3)
        && a != b']'
        && a != b'\\'
        && b != b']'
        && b != b'\\'
        && c == b']'
    {
        return Some((start + 2, false));
    }
    let mut i = start;
    let mut escaped = false;
    loop {
        let at = memchr2(b']', b'\\', bytes.get(i..)?)? + i;
        if bytes[at] == b']' {
            return Some((at, escaped));
        }
        escaped = true;
        // Skip the escaped character: a continuation byte is never `]` or `\`, so stepping one
        // byte past the backslash's target is enough.
        i = at + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::CharsetOrigin;

    fn location() -> GameLocation {
        GameLocation { source: "t.sgf".into(), game: 1, offset: 0, line: 1 }
    }

    const UTF8: TextEncoding =
        TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };

    fn fast(text: &str) -> Result<GameRecord, Decline> {
        read_game_fast(text, location(), UTF8, &Limits::NONE).map_err(|d| d.reason)
    }

    /// The fast reader's record equals sgf-parse's, status aside.
    fn same_as_sgf_parse(text: &str) {
        let mut mine = fast(text).unwrap_or_else(|d| panic!("declined {text:?}: {d:?}"));
        let theirs = super::super::sgf::read_game(text, location(), UTF8, &ReadOptions::default());
        assert_eq!(mine.status, ReadStatus::Fast);
        assert_eq!(theirs.status, ReadStatus::Strict, "{text}");
        mine.status = ReadStatus::Strict;
        assert_eq!(mine, theirs, "{text}");
    }

    #[test]
    fn reads_the_main_line_through_variations() {
        let text = "(;GM[1]SZ[9]KM[6.5];B[ee](;W[ec];B[cc](;W[gg])(;W[hh]))(;W[cc]))";
        same_as_sgf_parse(text);
        let record = fast(text).unwrap();
        let moves: Vec<_> = record.moves.iter().map(|m| m.mv.point().unwrap().sgf()).collect();
        assert_eq!(
            moves,
            [Some("ee".into()), Some("ec".into()), Some("cc".into()), Some("gg".into())]
        );
    }

    #[test]
    fn values_are_unescaped_as_sgf_parse_does() {
        same_as_sgf_parse("(;GM[1]C[a \\] b\\\\ c\\\nd \\é]PB[x\\:y];B[aa]C[\\]];W[bb])");
        same_as_sgf_parse("(;AB[aa][bb] \n [cc:dd]LB[aa:\\]x][bb:y];B[ee])");
        same_as_sgf_parse(" \u{a0}(;B[aa]PW[黑]\r\n;W[])\n\u{3000}");
    }

    #[test]
    fn identifiers_as_written_reach_the_interpreter() {
        same_as_sgf_parse("(;AddBlack[aa]GaMe[1];B [bb];W\t[cc])");
        same_as_sgf_parse("(;GM[1]GM [2];B[aa])");
    }

    #[test]
    fn declines_what_sgf_parse_reads_otherwise() {
        for (text, why) in [
            ("(;PL;B[aa])", Decline::Identifier),
            ("(;B[aa];W", Decline::Identifier),
            ("(;B[aa];W[bb", Decline::UnclosedValue),
            ("(;C[a\\]", Decline::UnclosedValue),
            ("(;B1[aa])", Decline::Identifier),
            ("(;Bé[aa])", Decline::Identifier),
            ("(;[aa])", Decline::Identifier),
            ("(;B[aa](;W[bb]);B[cc])", Decline::Structure),
            ("(;B[aa]()(;W[bb]))", Decline::Structure),
            ("(;B[aa])(;B[bb])", Decline::Structure),
            ("(;B[aa]))", Decline::Structure),
            ("(;B[aa]", Decline::Structure),
            ("(;B[aa](;W[bb])", Decline::Structure),
            ("(B[aa])", Decline::Opening),
            ("x(;B[aa])", Decline::Opening),
            ("(;GM[2];B[aa])", Decline::GameType),
            ("(;GM[1]GM[1];B[aa])", Decline::GameType),
            ("(;GM[ 1];B[aa])", Decline::GameType),
            ("(;GM[1][1];B[aa])", Decline::GameType),
        ] {
            assert_eq!(fast(text).err(), Some(why), "{text}");
        }
        // `[aa]` with no identifier: the lexer stops at the `[`.
        assert!(fast("(;B[aa];[bb])").is_err());
    }

    #[test]
    fn declined_games_are_read_by_sgf_parse() {
        let record = read_game("(;PL;B[aa])", location(), UTF8, &ReadOptions::default());
        assert_eq!(record.status, ReadStatus::Strict);
        let record = read_game("(;B[aa];W[bb]", location(), UTF8, &ReadOptions::default());
        assert_eq!(record.status, ReadStatus::Lenient);
    }

    #[test]
    fn plain_moves_of_skipped_variations_count_against_the_limits() {
        // 8 nodes; the main line is 4 deep, the second variation 5 (its root move, 4 of its own).
        let text = "(;B[aa](;W[bb];B[cc];W[dd])(;W[ee];B[ff] ;W[GG];B[hh]))";
        let limits =
            |nodes, depth| Limits { max_game_nodes: nodes, max_tree_depth: depth, ..Limits::NONE };
        let read =
            |limits: Limits| read_game_fast(text, location(), UTF8, &limits).map_err(|d| d.reason);
        assert!(read(limits(8, 5)).is_ok());
        assert_eq!(read(limits(7, 5)).err(), Some(Decline::Limit));
        assert_eq!(read(limits(8, 4)).err(), Some(Decline::Limit));
        same_as_sgf_parse(text);
        // A variation's move nodes are checked as the general way checks them: a lexer error
        // after a run of them still declines.
        assert_eq!(fast("(;B[aa](;W[bb])(;W[cc];B[dd];W[e)").err(), Some(Decline::UnclosedValue));
        assert_eq!(fast("(;B[aa](;W[bb])(;W[cc];B[dd]W;[ee]))").err(), Some(Decline::Identifier));
    }

    #[test]
    fn a_variation_after_the_main_line_is_lexed_not_read() {
        same_as_sgf_parse("(;B[aa];W[bb](;B[cc])(;B[dd]C[ ) ( ; ]))");
        // A lexer error in a variation fails sgf-parse's strict parse: decline.
        assert!(fast("(;B[aa](;W[bb])(;W[cc]C[x)").is_err());
        assert!(fast("(;B[aa](;W[bb])(;w;[cc]))").is_err());
    }
}
