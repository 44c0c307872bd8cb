//! The interpreter: a game's main line, node by node and property by property as written, turned
//! into a [`GameRecord`].
//!
//! # The seam between reading and interpreting
//!
//! Reading a game has two halves. A *reader* finds the main line in the text: its nodes, and in
//! each node its properties with their identifiers exactly as written and their values after
//! SGF unescaping. This *interpreter* gives those properties their meaning: board size, setup,
//! moves, komi and its unit, handicap, rules, result, markup, metadata, and every finding about
//! them. The two meet in three calls, made in text order:
//!
//! ```text
//! GameBuilder::new(location, encoding)
//!   for each main-line node:      builder.node()
//!     for each of its properties: builder.property(identifier_as_written, &values)
//! builder.finish(status) -> GameRecord
//! ```
//!
//! plus [`GameBuilder::report`] for the reader's own findings (syntax, lenient parsing).
//!
//! Everything that gives meaning lives on this side, so two readers that find the same main
//! line produce the same record, findings included. kifu has one reader today, sgf-parse behind
//! [`super::sgf`], which re-reads each property's spelling with `scan` because
//! sgf-parse keeps only typed values; a streaming reader that skips variations without building
//! a tree (issue 6) drives the same calls and must produce identical records, which a
//! differential test over the whole shared corpus checks. A reader owes the interpreter:
//! - nodes in main-line order (the root first; the main line is every node's first child);
//! - identifiers as written, including lowercase letters and stray characters (`AddBlack`,
//!   `PL;B`): the interpreter reads them as sgf-parse does (uppercase letters only) and reports
//!   them;
//! - values unescaped as sgf-parse's lexer does (`\x` → `x`, soft line breaks kept as `\n`),
//!   undecoded otherwise: no trimming, no case folding, no expansion of point lists.
//!
//! What counts as a well-formed value is sgf-parse's rule (`property`), so a value
//! sgf-parse turns into `Prop::Invalid` always gives a finding here, whichever reader ran.
//!
//! The interpreter allocates per game, not per move, beyond the growth of the move list.
//!
//! # Decisions
//!
//! - Only the main line is read; variations are neither interpreted nor reported.
//! - A game that is not Go (`GM` other than 1) keeps its root's metadata and a `not-go`
//!   finding, and is [`ReadStatus::Failed`]: its moves are not coordinates kifu can replay.
//! - `[tt]` is a pass when both sides of the board are at most 19; elsewhere it is the point
//!   T20. Points outside the board are kept as points, for the replay to report `off-board`.
//! - Root properties (SZ, GM, FF, CA, AP, ST) count only in the root. Game information (PB,
//!   KM, RE...) may sit in a later node of the main line, as `FF[4]` allows; a second occurrence is
//!   ignored with a `misplaced-property` finding.
//! - Setup before the first move (even in a later node) is the starting position; setup after
//!   it is kept in [`GameRecord::later_setup`] and reported (`setup-in-main-line`).
//! - Severity: `info` when nothing is lost (a value kept as written, or read the way its writer
//!   meant, like `KM[6,5]`); `warning` when something is ignored or guessed; `error` when the
//!   game cannot be replayed as recorded (no usable board size, not Go).

use std::borrow::Cow;

use crate::finding::{Code, Finding, Severity};
use crate::rules::{BoardSize, Color, Move, Outcome, Point, WinBy};

use super::game_info::{self, Evidence, FoxEvidence};
use super::handicap::{self, SetupCount};
use super::komi::{self, UnitContext};
use super::property::{self, Kind, Spec, ValueType};
use super::result;
use super::{
    GameLocation, GameRecord, Komi, KomiOrigin, LaterSetup, Placement, Properties, ReadStatus,
    RecordRules, RecordedMove, RecordedResult, RulesOrigin, TerritoryMarkup, TextEncoding,
};

/// Words of [`GameBuilder`]'s bit set of kept identifiers.
const KEPT_WORDS: usize = property::SLOTS.div_ceil(64);

/// What the interpreter made of one property's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// A finding about the value was reported (a bad value, a board size, a game that is not
    /// Go...). Readers with their own opinion of the value (sgf-parse's `Prop::Invalid`) check
    /// that they never reject a value the interpreter let pass unreported.
    pub reported: bool,
}

/// Builds one [`GameRecord`]: see the module documentation for the calls it expects.
pub struct GameBuilder {
    location: GameLocation,
    encoding: TextEncoding,
    findings: Vec<Finding>,
    /// Parallel to `findings`: the finding is about a board coordinate, meaningless (and
    /// dropped) when the game turns out not to be Go.
    about_board: Vec<bool>,

    node: Option<u32>,
    moves_before_node: u32,
    node_first_finding: usize,
    /// The one- and two-capital identifiers met so far in the current node, one bit each
    /// ([`property::slot`]), to report repeats: nearly every identifier, found with a bit
    /// instead of comparing with each one before it (a Fox root holds 18).
    node_slots: [u64; KEPT_WORDS],
    /// The other identifiers met so far in the current node.
    node_ids: Vec<NodeId>,
    node_moves: u32,
    node_colours: [bool; 2],
    node_setup: NodeSetup,
    node_markup: Option<(Vec<Point>, Vec<Point>)>,
    node_mixed_reported: bool,
    /// The current node was opened by [`GameBuilder::move_node`] and nothing has happened
    /// since: the next `move_node` may take its short way (see there).
    in_move_node: bool,

    size: Option<BoardSize>,
    format: Option<i64>,
    not_go: Option<String>,
    komi_raw: Option<String>,
    handicap: Option<Option<u32>>,
    rules_raw: Option<String>,
    result_raw: Option<String>,
    properties: Properties,
    /// The one- and two-capital identifiers among `properties`, one bit each (see
    /// [`property::slot`]): whether a game-information property was kept before is asked
    /// for each of them, and a bit answers it without comparing strings.
    kept: [u64; KEPT_WORDS],
    setup: Vec<Placement>,
    to_move: Option<Color>,
    later_setup: Vec<LaterSetup>,
    moves: Vec<RecordedMove>,
    last_markup: Option<TerritoryMarkup>,
    bad_identifiers: Vec<BadIdentifier>,
    handicap_implied: bool,
}

#[derive(Default)]
struct NodeSetup {
    clear: Vec<Point>,
    black: Vec<Point>,
    white: Vec<Point>,
    to_move: Option<Color>,
    present: bool,
}

impl NodeSetup {
    fn reset(&mut self) {
        self.clear.clear();
        self.black.clear();
        self.white.clear();
        self.to_move = None;
        self.present = false;
    }
}

/// An identifier of more than two capitals met in a node (one or two are bits of
/// `GameBuilder::node_slots`). Identifiers of up to eight bytes (all but damaged ones) are
/// kept as a number, so that looking for repeats compares words and allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
enum NodeId {
    Short(u64),
    Long(String),
}

impl NodeId {
    fn of(id: &str) -> NodeId {
        // `id` is capitals only, so no byte is 0 and zero padding keeps distinct ids distinct.
        if id.len() > 8 {
            return NodeId::Long(id.to_string());
        }
        let word = id.bytes().rev().fold(0u64, |word, b| word << 8 | u64::from(b));
        NodeId::Short(word)
    }
}

/// The lists a builder needs only while it reads (none of them goes into the record), kept on
/// the thread from one game's builder to the next: two allocations and frees a game fewer.
#[derive(Default)]
struct Scratch {
    about_board: Vec<bool>,
    node_ids: Vec<NodeId>,
}

/// Lists longer than this are not kept for the next game (a damaged game's thousands of
/// findings or identifiers in one node would hold memory for nothing).
const MAX_SCRATCH: usize = 1024;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl Scratch {
    /// This thread's kept lists, empty, or new ones (when re-entered, or on a thread being
    /// torn down).
    fn take() -> Scratch {
        SCRATCH
            .try_with(|kept| kept.try_borrow_mut().map(|mut kept| std::mem::take(&mut *kept)).ok())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Keeps the lists for the next builder on this thread, emptied.
    fn give_back(mut self) {
        if self.about_board.capacity() > MAX_SCRATCH || self.node_ids.capacity() > MAX_SCRATCH {
            return;
        }
        self.about_board.clear();
        self.node_ids.clear();
        let _ = SCRATCH.try_with(|kept| {
            if let Ok(mut kept) = kept.try_borrow_mut() {
                *kept = self;
            }
        });
    }
}

struct BadIdentifier {
    raw: String,
    finding: usize,
    count: u32,
    lowercase: bool,
}

/// How an identifier as written relates to the `FF[4]` identifier read from it.
enum IdentifierProblem {
    /// `FF[1-3]` style: letters, some lowercase (`AddBlack`).
    Lowercase,
    /// Characters other than letters (`PL;B`, `W)(;B`): usually a missing bracket.
    Damaged,
}

/// The colour of a move property written exactly `B` or `W`.
#[inline]
fn plain_move_identifier(identifier: &str) -> Option<Color> {
    match identifier.as_bytes() {
        b"B" => Some(Color::Black),
        b"W" => Some(Color::White),
        _ => None,
    }
}

/// The identifier of `colour`'s move property, `B` or `W`.
#[inline]
fn move_id(colour: Color) -> &'static str {
    match colour {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// The move of a well-formed value with nothing to trim: `[]` (a pass) or two letters.
#[inline]
fn plain_move(value: &str) -> Option<Move> {
    match value.as_bytes() {
        [] => Some(Move::Pass),
        [_, _] => property::point(value).map(|p| Move::Play(point_of(p))),
        _ => None,
    }
}

fn point_of(p: (u8, u8)) -> Point {
    Point::new(p.0, p.1)
}

fn sgf_name(p: Point) -> String {
    p.sgf().unwrap_or_else(|| format!("({},{})", p.x, p.y))
}

fn show_values<S: AsRef<str>>(values: &[S]) -> String {
    let mut s = String::new();
    push_values(&mut s, values);
    s
}

/// `{id}{values} {what}`, the message of a `bad-value` finding, put together piece by piece:
/// Fox files bring one or two a game (fox-pro: 12,629), and `format!` costs several times as
/// much.
fn value_message<S: AsRef<str>>(id: &str, values: &[S], what: &str) -> String {
    let mut s = String::with_capacity(id.len() + what.len() + 16);
    s.push_str(id);
    push_values(&mut s, values);
    s.push(' ');
    s.push_str(what);
    s
}

/// Appends [`show_values`] to `s`.
fn push_values<S: AsRef<str>>(s: &mut String, values: &[S]) {
    for v in values {
        s.push('[');
        // Long comments would drown the finding: the first 60 characters say enough.
        let v = v.as_ref();
        match v.char_indices().nth(60) {
            Some((cut, _)) => {
                s.push_str(&v[..cut]);
                s.push('…');
            }
            None => s.push_str(v),
        }
        s.push(']');
    }
}

impl GameBuilder {
    /// Starts a record for the game found at `location`, decoded as `encoding`.
    pub fn new(location: GameLocation, encoding: TextEncoding) -> GameBuilder {
        let spare = super::spare_buffers();
        let scratch = Scratch::take();
        GameBuilder {
            location,
            encoding,
            // Room for what a game usually holds, so that these grow once if at all.
            findings: Vec::with_capacity(4),
            about_board: scratch.about_board,
            node: None,
            moves_before_node: 0,
            node_first_finding: 0,
            node_slots: [0; KEPT_WORDS],
            node_ids: scratch.node_ids,
            node_moves: 0,
            node_colours: [false; 2],
            node_setup: NodeSetup::default(),
            node_markup: None,
            node_mixed_reported: false,
            in_move_node: false,
            size: None,
            format: None,
            not_go: None,
            komi_raw: None,
            handicap: None,
            rules_raw: None,
            result_raw: None,
            properties: spare.properties,
            kept: [0; KEPT_WORDS],
            setup: Vec::new(),
            to_move: None,
            later_setup: Vec::new(),
            moves: spare.moves,
            last_markup: None,
            bad_identifiers: Vec::new(),
            handicap_implied: false,
        }
    }

    /// Makes room for `moves` more moves, for a reader that knows how many the main line holds
    /// (the list then grows once per game instead of doubling its way up).
    pub fn reserve_moves(&mut self, moves: usize) {
        self.moves.reserve(moves);
    }

    /// Adds a finding of the reader's own (syntax, lenient parsing, limits). It belongs to the
    /// current node, or to the game before the first node.
    pub fn report(&mut self, finding: Finding) {
        self.push(finding, false);
    }

    fn push(&mut self, finding: Finding, about_board: bool) {
        self.leave_move_node();
        self.findings.push(finding);
        self.about_board.push(about_board);
    }

    fn found(&mut self, code: Code, message: String) {
        self.push(Finding::new(code, 0, message), false);
    }

    fn found_with(&mut self, code: Code, severity: Severity, message: String) {
        self.push(Finding::new(code, 0, message).with_severity(severity), false);
    }

    /// Starts the next node of the main line (the first call starts the root).
    #[inline]
    pub fn node(&mut self) {
        self.leave_move_node();
        if self.node.is_some() {
            self.close_node();
        }
        self.node = Some(self.node.map_or(0, |n| n + 1));
        self.node_first_finding = self.findings.len();
        self.forget_node_ids();
        self.node_moves = 0;
        self.node_colours = [false; 2];
        if self.node_setup.present {
            // Only a node with setup fills these (and sets `present`).
            self.node_setup.reset();
        }
        self.node_markup = None;
        self.node_mixed_reported = false;
    }

    /// A node holding one move and nothing else (`;B[pd]`, `;W[]`): the same as [`node`]
    /// followed by [`property`] with `B` or `W` and the move's value, in one call. The reader's
    /// commonest node by far; `move_nodes_are_nodes_with_one_move` checks the two agree.
    ///
    /// [`node`]: GameBuilder::node
    /// [`property`]: GameBuilder::property
    #[inline(always)]
    pub fn move_node(&mut self, colour: Color, mv: Move) {
        if self.in_move_node
            && let Some(last) = self.node
        {
            // After a node that held only its move (nearly every node of a game), closing it
            // and opening this one change only these: the node's findings, setup and markup
            // are none, it holds one move, and its identifiers are its move's (`node_slots` is
            // brought up to date when the node is left: see `leave_move_node`).
            if self.last_markup.is_some() {
                self.last_markup = None;
            }
            self.moves_before_node += 1;
            let node = last + 1;
            self.node = Some(node);
            self.node_colours = [false; 2];
            self.node_colours[colour.index()] = true;
            self.moves.push(RecordedMove { color: colour, mv, node });
            return;
        }
        self.open_move_node(colour, mv);
    }

    /// [`GameBuilder::move_node`] for each move of `run`, in order: a run of nodes each holding
    /// one move and nothing else, the bulk of every game. The reader fills in each move's
    /// colour and move; the nodes are numbered here (whatever `node` the reader left). After
    /// the first, the run only numbers the nodes and copies the moves to the list, and the node
    /// state that `move_node`'s short way keeps is written once, as the last of them leaves it.
    ///
    /// The reader lexes a run into a small buffer and hands it over whole: two tight loops,
    /// each with its state in registers, cost less than one loop that lexed and listed each
    /// move in turn, whose state lived on the stack (about 60 instructions a move against 53;
    /// fox-pro's check, 1,515.1M instructions against 1,494.2M). Not inlined: it runs once a
    /// run of up to 64 moves.
    #[inline(never)]
    pub fn move_nodes(&mut self, run: &mut [RecordedMove]) {
        let Some((&mut RecordedMove { color, mv, .. }, rest)) = run.split_first_mut() else {
            return;
        };
        self.move_node(color, mv);
        let (true, Some(first), Some(&RecordedMove { color: last, .. })) =
            (self.in_move_node, self.node, rest.last())
        else {
            // Not a node the short way applies to (a game that is not Go): one by one.
            for &mut RecordedMove { color, mv, .. } in rest {
                self.move_node(color, mv);
            }
            return;
        };
        let mut node = first;
        for m in rest.iter_mut() {
            node += 1;
            m.node = node;
        }
        self.moves.extend_from_slice(rest);
        if self.last_markup.is_some() {
            self.last_markup = None;
        }
        self.moves_before_node += node - first;
        self.node = Some(node);
        self.node_colours = [false; 2];
        self.node_colours[last.index()] = true;
    }

    /// [`GameBuilder::move_node`] the long way: [`GameBuilder::node`], then the move.
    #[inline(never)]
    fn open_move_node(&mut self, colour: Color, mv: Move) {
        self.node();
        let Some(node) = self.node else { return };
        if self.not_go.is_some() && node > 0 {
            // Nothing after the root of a game that is not Go is read.
            return;
        }
        // A fresh node: no identifier met before, no other colour, no setup, nothing to report.
        self.note_id(move_id(colour));
        self.node_colours[colour.index()] = true;
        self.moves.push(RecordedMove { color: colour, mv, node });
        self.node_moves = 1;
        self.in_move_node = true;
    }

    /// Ends the short way of [`GameBuilder::move_node`]: the node's identifiers become its
    /// move's, as the long way leaves them.
    #[inline]
    fn leave_move_node(&mut self) {
        if self.in_move_node {
            self.in_move_node = false;
            let colour = if self.node_colours[0] { Color::Black } else { Color::White };
            self.forget_node_ids();
            self.note_id(move_id(colour));
        }
    }

    /// Notes that the current node holds `id` (capitals only); whether it held it already.
    #[inline]
    fn note_id(&mut self, id: &str) -> bool {
        if let Some(slot) = property::slot(id.as_bytes()) {
            return self.note_slot(slot);
        }
        let node_id = NodeId::of(id);
        let repeated = self.node_ids.contains(&node_id);
        self.node_ids.push(node_id);
        repeated
    }

    /// [`GameBuilder::note_id`] of the identifier in `slot` ([`property::slot`]).
    #[inline]
    fn note_slot(&mut self, slot: usize) -> bool {
        let (word, bit) = (slot / 64, 1 << (slot % 64));
        let repeated = self.node_slots[word] & bit != 0;
        self.node_slots[word] |= bit;
        repeated
    }

    /// A new node holds no identifier yet.
    #[inline]
    fn forget_node_ids(&mut self) {
        self.node_slots = [0; KEPT_WORDS];
        self.node_ids.clear();
    }

    #[inline]
    fn close_node(&mut self) {
        if !self.node_setup.present
            && self.node_markup.is_none()
            && self.findings.len() == self.node_first_finding
        {
            // Nothing but moves in the node (nearly always): what the general case below comes
            // to for such a node.
            if self.node_moves > 0 {
                self.last_markup = None;
            }
            self.moves_before_node += self.node_moves;
            return;
        }
        self.close_any_node();
    }

    #[inline(never)]
    fn close_any_node(&mut self) {
        let Some(node) = self.node else { return };
        if self.node_setup.present {
            let mut placements = Vec::new();
            let mut repeated = 0;
            for (points, stone) in [
                (&mut self.node_setup.clear, None),
                (&mut self.node_setup.black, Some(Color::Black)),
                (&mut self.node_setup.white, Some(Color::White)),
            ] {
                points.sort();
                let before = points.len();
                points.dedup();
                repeated += before - points.len();
                placements.extend(points.iter().map(|&point| Placement { point, stone }));
            }
            if repeated > 0 {
                self.found_with(
                    Code::BadValue,
                    Severity::Info,
                    format!("the setup names {repeated} point(s) more than once"),
                );
            }
            if node == 0 {
                self.setup = placements;
                self.to_move = self.node_setup.to_move;
            } else {
                let after_moves = self.moves_before_node;
                if after_moves > 0 {
                    self.found(
                        Code::SetupInMainLine,
                        format!("setup (AB, AW, AE or PL) after move {after_moves}"),
                    );
                }
                self.later_setup.push(LaterSetup {
                    after_moves,
                    node,
                    placements,
                    to_move: self.node_setup.to_move,
                });
            }
        }
        match self.node_markup.take() {
            Some((mut black, mut white)) => {
                black.sort();
                black.dedup();
                white.sort();
                white.dedup();
                self.last_markup = Some(TerritoryMarkup { black, white });
            }
            None if self.node_moves > 0 => self.last_markup = None,
            None => {}
        }
        let move_number = self.moves_before_node + u32::from(self.node_moves > 0);
        for f in &mut self.findings[self.node_first_finding..] {
            f.move_number = move_number;
        }
        self.moves_before_node += self.node_moves;
    }

    /// Interprets one property of the current node: `identifier` exactly as written, `values`
    /// unescaped. Returns whether a finding was made about the value.
    #[inline]
    pub fn property<S: AsRef<str>>(&mut self, identifier: &str, values: &[S]) -> Verdict {
        self.leave_move_node();
        if let Some(node) = self.node
            && self.not_go.is_none()
            && let [value] = values
            && let Some(colour) = plain_move_identifier(identifier)
            && let Some(mv) = plain_move(value.as_ref())
        {
            // Nearly every property of every game: a move. Kept small so that it inlines into
            // the reader's loop; everything else goes the general way.
            self.plain_move(colour, mv, node);
            return Verdict::default();
        }
        self.any_property(identifier, values)
    }

    /// [`GameBuilder::property`] for whatever is not a plain move.
    #[inline(never)]
    fn any_property<S: AsRef<str>>(&mut self, identifier: &str, values: &[S]) -> Verdict {
        if self.node.is_none() {
            // A reader always opens a node first; be forgiving if one does not.
            self.node();
        }
        let node = self.node.unwrap_or(0);
        if self.not_go.is_some() && node > 0 {
            // Nothing after the root of a game that is not Go is read.
            return Verdict { reported: true };
        }
        // One or two capitals (nearly every identifier): its slot answers whether the node
        // held it already and what it is, with no call to `identifier` or `note_id` and no
        // second look at its letters (fox-pro: 18 a game, 40 instructions each fewer).
        let read;
        let (id, repeated, spec) = match property::slot(identifier.as_bytes()) {
            Some(slot) => (identifier, self.note_slot(slot), property::lookup_slot(slot)),
            None => {
                let Some(id) = self.identifier(identifier) else {
                    return Verdict::default();
                };
                read = id;
                let id: &str = &read;
                (id, self.note_id(id), property::lookup(id))
            }
        };
        let well_formed = spec.is_none_or(|s| property::well_formed(s.value, values));
        let findings_before = self.findings.len();
        match spec {
            Some(spec) => self.known(spec, node, repeated, well_formed, values),
            None => {
                if repeated {
                    self.repeated(id, Severity::Info, "both kept");
                }
                if node == 0 {
                    self.keep(id, values);
                }
            }
        }
        let reported = self.findings[findings_before..]
            .iter()
            .any(|f| f.code != Code::DuplicateProperty && f.code != Code::MixedNode);
        if let Some(spec) = spec.filter(|_| !well_formed && !reported) {
            // Whatever a handler did with it, a malformed value is never passed over in silence.
            let what = format!("is not a valid {}", describe(spec.value));
            if property::is_board_value(spec.value) {
                self.board_bad_value(id, values, &what);
            } else {
                self.bad_value(id, values, &what, Severity::Warning);
            }
        }
        Verdict { reported: reported || !well_formed }
    }

    /// A value the interpreter accepted but the reader's parser rejected (sgf-parse's
    /// `Prop::Invalid`): reported so that no rejection is ever silent.
    pub fn rejected_by_parser<S: AsRef<str>>(&mut self, identifier: &str, values: &[S]) {
        self.found(
            Code::BadValue,
            format!(
                "sgf-parse rejects the value of {identifier}{} that kifu read",
                show_values(values)
            ),
        );
    }

    /// The `FF[4]` identifier read from `raw` (uppercase letters only, as sgf-parse reads it),
    /// reporting any difference; `None` when nothing is left.
    fn identifier<'r>(&mut self, raw: &'r str) -> Option<Cow<'r, str>> {
        if matches!(raw.as_bytes(), [a] | [a, _] if a.is_ascii_uppercase())
            && raw.bytes().all(|b| b.is_ascii_uppercase())
        {
            // Nearly every identifier: one or two capitals, nothing to trim or report.
            return Some(Cow::Borrowed(raw));
        }
        let trimmed = raw.trim_end_matches(|c: char| c.is_ascii_whitespace());
        if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_uppercase()) {
            return Some(Cow::Borrowed(trimmed));
        }
        let id: String = raw.chars().filter(char::is_ascii_uppercase).collect();
        let problem = if trimmed.chars().all(|c| c.is_ascii_alphabetic()) {
            IdentifierProblem::Lowercase
        } else {
            IdentifierProblem::Damaged
        };
        if let Some(known) = self.bad_identifiers.iter_mut().find(|b| b.raw == raw) {
            known.count += 1;
        } else {
            let message = match (&problem, id.is_empty()) {
                (_, true) => format!("identifier {raw:?} has no capital letter: property ignored"),
                (IdentifierProblem::Lowercase, false) => {
                    format!("FF[3]-style identifier {raw} read as {id}")
                }
                (IdentifierProblem::Damaged, false) => format!(
                    "identifier {raw:?} holds characters that are not letters (a missing value \
                     or bracket?): read as {id}"
                ),
            };
            self.bad_identifiers.push(BadIdentifier {
                raw: raw.to_string(),
                finding: self.findings.len(),
                count: 1,
                lowercase: matches!(problem, IdentifierProblem::Lowercase) && !id.is_empty(),
            });
            self.found(Code::BadIdentifier, message);
        }
        (!id.is_empty()).then_some(Cow::Owned(id))
    }

    fn repeated(&mut self, id: &str, severity: Severity, what: &str) {
        // Fox files repeat `AP` in every game (fox-pro: 8,614): pieces, not `format!`.
        let message = [id, " appears twice in one node: ", what].concat();
        self.found_with(Code::DuplicateProperty, severity, message);
    }

    fn bad_value<S: AsRef<str>>(&mut self, id: &str, values: &[S], what: &str, severity: Severity) {
        self.found_with(Code::BadValue, severity, value_message(id, values, what));
    }

    fn board_bad_value<S: AsRef<str>>(&mut self, id: &str, values: &[S], what: &str) {
        self.push(Finding::new(Code::BadValue, 0, value_message(id, values, what)), true);
    }

    /// Keeps a root (or game-information) property among the record's properties.
    fn keep<S: AsRef<str>>(&mut self, id: &str, values: &[S]) {
        if let Some(slot) = property::slot(id.as_bytes()) {
            self.kept[slot / 64] |= 1 << (slot % 64);
        }
        for v in values {
            self.properties.push(id, v.as_ref());
        }
    }

    fn known<S: AsRef<str>>(
        &mut self,
        spec: &'static Spec,
        node: u32,
        repeated: bool,
        well_formed: bool,
        values: &[S],
    ) {
        let id = spec.id;
        match spec.kind {
            Kind::Move if id == "B" || id == "W" => {
                let colour = if id == "B" { Color::Black } else { Color::White };
                self.play(colour, node, repeated, well_formed, values);
            }
            Kind::Setup => self.setup_property(spec, node, repeated, well_formed, values),
            Kind::Root if node > 0 => self.found(
                Code::MisplacedProperty,
                format!("{id}{} outside the root node: ignored", show_values(values)),
            ),
            Kind::Root => self.root_property(spec, repeated, well_formed, values),
            Kind::GameInfo => self.game_info(spec, node, repeated, well_formed, values),
            _ if id == "TB" || id == "TW" => self.markup(id, repeated, well_formed, values),
            _ => {
                if repeated {
                    self.repeated(id, Severity::Info, "both read");
                }
                if !well_formed {
                    let what = format!("is not a valid {}: ignored", describe(spec.value));
                    if property::is_board_value(spec.value) {
                        self.board_bad_value(id, values, &what);
                    } else {
                        self.bad_value(id, values, &what, Severity::Warning);
                    }
                }
                if node == 0 && (id == "C" || id == "N") {
                    self.keep(id, values);
                }
            }
        }
    }

    fn play<S: AsRef<str>>(
        &mut self,
        colour: Color,
        node: u32,
        repeated: bool,
        well_formed: bool,
        values: &[S],
    ) {
        let id = move_id(colour);
        let first = values.first().map(|v| v.as_ref().trim()).unwrap_or("");
        let mv = if first.is_empty() {
            Some(Move::Pass)
        } else {
            property::point(first).map(|p| Move::Play(point_of(p)))
        };
        if !well_formed {
            match mv {
                Some(mv) => {
                    let read = match mv {
                        Move::Pass => "a pass".to_string(),
                        Move::Play(p) => format!("{id}[{}]", sgf_name(p)),
                    };
                    let what = if values.len() > 1 {
                        format!("has {} values: the first is played, as {read}", values.len())
                    } else {
                        format!("read as {read}")
                    };
                    self.board_bad_value(id, values, &what);
                }
                None => self.board_bad_value(id, values, "is not a move: ignored"),
            }
        }
        let Some(mv) = mv else { return };
        self.record_move(colour, mv, node, repeated);
    }

    /// `B` or `W` with one well-formed value: the general path of [`GameBuilder::property`]
    /// through [`GameBuilder::play`], without what cannot happen here (no identifier to
    /// report, no value to check or trim, no finding but `duplicate-property` and
    /// `mixed-node`, which never count as a verdict). It runs for nearly every property of
    /// every game; `plain_moves_take_the_general_path_s_steps` checks the two agree.
    fn plain_move(&mut self, colour: Color, mv: Move, node: u32) {
        let repeated = self.note_id(move_id(colour));
        self.record_move(colour, mv, node, repeated);
    }

    /// What [`GameBuilder::play`] and [`GameBuilder::plain_move`] do once the move is read: a
    /// `duplicate-property` finding for a second move of the colour in the node, `mixed-node`
    /// for moves of both colours (or a move and setup) in one node, then the move itself.
    fn record_move(&mut self, colour: Color, mv: Move, node: u32, repeated: bool) {
        if repeated {
            self.repeated(move_id(colour), Severity::Warning, "both moves are kept");
        }
        self.node_colours[colour.index()] = true;
        if self.node_colours[colour.opponent().index()] && !self.node_mixed_reported {
            self.node_mixed_reported = true;
            self.found(Code::MixedNode, "moves of both colours in one node".to_string());
        }
        self.mixed_setup_and_move();
        self.moves.push(RecordedMove { color: colour, mv, node });
        self.node_moves += 1;
    }

    fn mixed_setup_and_move(&mut self) {
        if self.node_colours != [false; 2] && self.node_setup.present && !self.node_mixed_reported {
            self.node_mixed_reported = true;
            self.found(
                Code::MixedNode,
                "a move and setup in one node: the setup is applied first".to_string(),
            );
        }
    }

    fn setup_property<S: AsRef<str>>(
        &mut self,
        spec: &'static Spec,
        node: u32,
        repeated: bool,
        well_formed: bool,
        values: &[S],
    ) {
        let id = spec.id;
        let _ = node;
        self.node_setup.present = true;
        if id == "PL" {
            let first = values.first().map(|v| v.as_ref().trim()).unwrap_or("");
            let colour = match first.to_ascii_lowercase().as_str() {
                "b" | "black" | "1" => Some(Color::Black),
                "w" | "white" | "2" => Some(Color::White),
                _ => None,
            };
            if !well_formed {
                match colour {
                    Some(c) => self.bad_value(id, values, &format!("read as {c}"), Severity::Info),
                    None => {
                        self.bad_value(id, values, "is not a colour: ignored", Severity::Warning)
                    }
                }
            }
            if repeated {
                self.repeated(id, Severity::Warning, "the last is read");
            }
            if colour.is_some() {
                self.node_setup.to_move = colour;
            }
        } else {
            if repeated {
                self.repeated(id, Severity::Info, "the points are merged");
            }
            let mut unreadable: Vec<&str> = Vec::new();
            let mut points = Vec::new();
            for v in values {
                let v = v.as_ref();
                match property::expand(v).or_else(|| property::expand(v.trim())) {
                    Some(ps) => points.extend(ps.map(point_of)),
                    None => unreadable.push(v),
                }
            }
            if !well_formed {
                let what = if unreadable.is_empty() {
                    "is not an FF[4] point list; its points are read".to_string()
                } else if points.is_empty() {
                    "names no readable point: ignored".to_string()
                } else {
                    format!(
                        "holds {} value(s) that are not points: they are ignored",
                        unreadable.len()
                    )
                };
                self.board_bad_value(id, values, &what);
            }
            let list = match id {
                "AB" => &mut self.node_setup.black,
                "AW" => &mut self.node_setup.white,
                _ => &mut self.node_setup.clear,
            };
            list.extend(points);
        }
        self.mixed_setup_and_move();
    }

    fn markup<S: AsRef<str>>(&mut self, id: &str, repeated: bool, well_formed: bool, values: &[S]) {
        if repeated {
            self.repeated(id, Severity::Info, "the points are merged");
        }
        let mut points = Vec::new();
        let mut unreadable = 0;
        for v in values {
            let v = v.as_ref();
            match property::expand(v).or_else(|| property::expand(v.trim())) {
                Some(ps) => points.extend(ps.map(point_of)),
                None if v.trim().is_empty() => {}
                None => unreadable += 1,
            }
        }
        if !well_formed {
            let what = if unreadable == 0 {
                "is not an FF[4] point list; its points are read".to_string()
            } else {
                format!("holds {unreadable} value(s) that are not points: they are ignored")
            };
            self.board_bad_value(id, values, &what);
        }
        let (black, white) = self.node_markup.get_or_insert_with(Default::default);
        if id == "TB" { black } else { white }.extend(points);
    }

    fn root_property<S: AsRef<str>>(
        &mut self,
        spec: &'static Spec,
        repeated: bool,
        well_formed: bool,
        values: &[S],
    ) {
        let id = spec.id;
        let first = values.first().map(|v| v.as_ref()).unwrap_or("");
        match id {
            "SZ" => {
                if repeated {
                    self.repeated(id, Severity::Warning, "the first is read");
                    return;
                }
                self.board_size(first, values.len());
                return;
            }
            "GM" => match first.trim().parse::<i64>() {
                Ok(1) => {}
                Ok(n) if !repeated => {
                    self.not_go = Some(n.to_string());
                    self.found(
                        Code::NotGo,
                        format!("GM[{n}] is not a game of Go (GM[1]): it is not replayed"),
                    );
                }
                _ if !well_formed => self.bad_value(
                    id,
                    values,
                    "is not a game number: read as Go",
                    Severity::Warning,
                ),
                _ => {}
            },
            "FF" => {
                match first.trim().parse::<i64>() {
                    Ok(n) if self.format.is_none() => self.format = Some(n),
                    _ => {}
                }
                if !well_formed {
                    self.bad_value(
                        id,
                        values,
                        "is not a file format from 1 to 4",
                        Severity::Warning,
                    );
                }
            }
            "AP" if !well_formed && values.len() == 1 => self.bad_value(
                id,
                values,
                "has no version (FF[4] wants name:version): kept as written",
                Severity::Info,
            ),
            _ if !well_formed => self.bad_value(
                id,
                values,
                &format!("is not a valid {}: kept as written", describe(spec.value)),
                Severity::Info,
            ),
            _ => {}
        }
        if repeated {
            self.repeated(id, Severity::Info, "both kept");
        }
        self.keep(id, values);
    }

    fn board_size(&mut self, raw: &str, count: usize) {
        let trimmed = raw.trim();
        let side = |s: &str| s.trim().parse::<i64>().ok();
        let (width, height, composed) = match trimmed.split_once(':') {
            Some((w, h)) => (side(w), side(h), true),
            None => (side(trimmed), side(trimmed), false),
        };
        let (Some(width), Some(height)) = (width, height) else {
            self.found(Code::BoardSize, format!("SZ[{raw}] is not a board size: 19x19 is assumed"));
            return;
        };
        let size = u8::try_from(width).ok().zip(u8::try_from(height).ok());
        match size.and_then(|(w, h)| BoardSize::new(w, h)) {
            Some(size) => {
                self.size = Some(size);
                if composed && width == height {
                    self.found_with(
                        Code::BoardSize,
                        Severity::Info,
                        format!("SZ[{raw}] names a square board the FF[4] way for rectangles; read as {size}"),
                    );
                } else if count > 1 || trimmed != raw {
                    self.found_with(
                        Code::BoardSize,
                        Severity::Info,
                        format!("SZ{} read as {size}", show_values(&[raw])),
                    );
                }
            }
            None => {
                self.found(Code::BoardSize, format!("SZ[{raw}] is outside 1..52: 19x19 is assumed"))
            }
        }
    }

    fn game_info<S: AsRef<str>>(
        &mut self,
        spec: &'static Spec,
        node: u32,
        repeated: bool,
        well_formed: bool,
        values: &[S],
    ) {
        let id = spec.id;
        if repeated {
            self.repeated(id, Severity::Warning, "the first is read");
            return;
        }
        let already = match id {
            "KM" => self.komi_raw.is_some(),
            "HA" => self.handicap.is_some(),
            "RU" => self.rules_raw.is_some(),
            "RE" => self.result_raw.is_some(),
            _ => match property::slot(id.as_bytes()) {
                Some(slot) => self.kept[slot / 64] & 1 << (slot % 64) != 0,
                None => self.properties.iter().any(|(k, _)| k == id),
            },
        };
        if already && node > 0 {
            self.found(
                Code::MisplacedProperty,
                format!(
                    "{id}{} repeats game information in node {node}: ignored",
                    show_values(values)
                ),
            );
            return;
        }
        let first = values.first().map(|v| v.as_ref()).unwrap_or("");
        match id {
            "KM" => {
                self.komi_raw = Some(first.to_string());
                if !well_formed {
                    match komi::read_komi_text(first) {
                        Some(k) if values.len() == 1 => self.bad_value(
                            id,
                            values,
                            &format!("is not an FF[4] real number: read as {}", k.value),
                            Severity::Info,
                        ),
                        Some(k) => self.bad_value(
                            id,
                            values,
                            &format!(
                                "has {} values: the first is read, as {}",
                                values.len(),
                                k.value
                            ),
                            Severity::Warning,
                        ),
                        None => self.bad_value(id, values, "is not a number", Severity::Warning),
                    }
                }
            }
            "HA" => {
                let n = first.trim().parse::<i64>().ok();
                let read = n.and_then(|n| u32::try_from(n).ok());
                self.handicap = Some(read);
                if !well_formed || values.len() > 1 {
                    match read {
                        Some(0) => self.bad_value(
                            id,
                            values,
                            "is not an FF[4] handicap (2 or more): read as no handicap",
                            Severity::Info,
                        ),
                        Some(1) => self.bad_value(
                            id,
                            values,
                            "is not an FF[4] handicap (2 or more): read as one stone, an even \
                             game without komi",
                            Severity::Info,
                        ),
                        Some(n) => {
                            self.bad_value(id, values, &format!("read as {n}"), Severity::Warning)
                        }
                        None => self.bad_value(
                            id,
                            values,
                            "is not a number of stones: ignored",
                            Severity::Warning,
                        ),
                    }
                }
            }
            "RU" | "RE" => {
                if !well_formed {
                    self.bad_value(
                        id,
                        values,
                        &format!("has {} values: the first is read", values.len()),
                        Severity::Warning,
                    );
                }
                let slot = if id == "RU" { &mut self.rules_raw } else { &mut self.result_raw };
                *slot = Some(first.to_string());
            }
            _ => {
                if !well_formed {
                    self.bad_value(
                        id,
                        values,
                        &format!("is not a valid {}: kept as written", describe(spec.value)),
                        Severity::Info,
                    );
                }
                self.keep(id, values);
            }
        }
    }

    /// Drops the record under construction and gives back its location: for a reader that
    /// gives up on a game part way and hands it to another reader.
    pub fn abandon(self) -> GameLocation {
        Scratch { about_board: self.about_board, node_ids: self.node_ids }.give_back();
        self.location
    }

    /// Ends the game and returns its record. `status` says how the reader read it; a game that
    /// turns out not to be Go is [`ReadStatus::Failed`] whatever the reader says.
    pub fn finish(mut self, status: ReadStatus) -> GameRecord {
        self.close_node();
        for bad in &self.bad_identifiers {
            let f = &mut self.findings[bad.finding];
            if bad.count > 1 {
                f.message.push_str(&format!(" ({} times)", bad.count));
            }
            if bad.lowercase && self.format != Some(4) {
                f.severity = Severity::Info;
            }
        }
        let size = self.size.unwrap_or(BoardSize::STANDARD);
        if self.not_go.is_some() {
            return self.not_go_record(size);
        }
        if size.width <= 19 && size.height <= 19 {
            let tt = Point::new(19, 19);
            for m in &mut self.moves {
                if m.mv == Move::Play(tt) {
                    m.mv = Move::Pass;
                }
            }
        }
        let fox = game_info::fox_evidence(&self.properties);
        let handicap = self.decide_handicap(size, fox);
        let komi_text = self.komi_raw.as_deref().and_then(komi::read_komi_text);
        let komi_reading =
            komi_text.map(|t| komi::to_points(t, UnitContext { fox: fox.marker.is_some() }));
        let failed = status == ReadStatus::Failed;
        let rules = self.rules(komi_reading.as_ref().map(|k| (k.points, k.in_zi)), failed);
        let komi = self.komi(komi_reading, fox, handicap, size, &rules, failed);
        let rules = RecordRules { ruleset: rules.ruleset.with_komi(komi.points), ..rules };
        let result = self.result();
        if self.moves.is_empty() && status != ReadStatus::Failed {
            self.found(Code::EmptyGame, "the game has no moves".to_string());
        }
        let record = GameRecord {
            location: self.location,
            status,
            encoding: self.encoding,
            size,
            setup: self.setup,
            later_setup: self.later_setup,
            to_move: self.to_move,
            moves: self.moves,
            handicap,
            handicap_implied: self.handicap_implied,
            komi,
            rules,
            result,
            markup: self.last_markup,
            properties: self.properties,
            findings: self.findings,
        };
        Scratch { about_board: self.about_board, node_ids: self.node_ids }.give_back();
        record
    }
}

impl GameBuilder {
    /// The handicap, placing Fox's implied stones.
    fn decide_handicap(&mut self, size: BoardSize, fox: FoxEvidence) -> u32 {
        let mut count = SetupCount::default();
        let before_first_move = self.later_setup.iter().filter(|s| s.after_moves == 0);
        for placement in self.setup.iter().chain(before_first_move.flat_map(|s| &s.placements)) {
            match placement.stone {
                Some(Color::Black) => count.black += 1,
                Some(Color::White) => count.white += 1,
                None => {}
            }
        }
        // The colours of the first ten moves, on the stack: a list allocated and freed for
        // every game otherwise.
        let mut opening = [Color::Black; 10];
        let mut opened = 0;
        for (colour, m) in opening.iter_mut().zip(&self.moves) {
            *colour = m.color;
            opened += 1;
        }
        let opening = &opening[..opened];
        let fox_pre_2018 = fox.marker.is_some() && self.year().is_some_and(|year| year < 2018);
        let ha = self.handicap.flatten();
        let decision =
            handicap::decide(ha, count, opening, size, fox.marker.is_some(), fox_pre_2018);
        if let Some((code, message)) = decision.finding {
            self.found(code, message);
        }
        if let Some(points) = decision.implied {
            self.handicap_implied = true;
            self.setup.extend(
                points.into_iter().map(|point| Placement { point, stone: Some(Color::Black) }),
            );
        }
        decision.handicap
    }

    /// The rules RU names, or those inferred (with a finding saying from what). Like
    /// [`GameBuilder::komi`] and [`GameBuilder::result`], called once, by
    /// [`GameBuilder::finish`]: the raw text moves into the record.
    fn rules(&mut self, komi: Option<(f64, bool)>, status_failed: bool) -> RecordRules {
        let raw = self.rules_raw.take();
        if let Some(named) = raw.as_deref().and_then(game_info::named_rules) {
            return RecordRules {
                raw,
                preset: named.preset,
                ruleset: named.ruleset,
                origin: RulesOrigin::Recorded,
            };
        }
        let evidence = Evidence { komi, properties: &self.properties };
        let (preset, reason) = game_info::infer_rules(evidence);
        // Nearly every game without RU gets this finding: its message is put together from
        // pieces (`concat`), which costs a tenth of `format!`.
        let inferred = match &reason {
            Some(reason) => [preset.name, " rules inferred from ", reason].concat(),
            None => [
                "nothing to infer the rules from (komi, place, server): ",
                preset.name,
                " rules assumed, kifu's default",
            ]
            .concat(),
        };
        if status_failed {
            // A game that could not be read gets no inference findings: its syntax finding says
            // all there is to say.
        } else if let Some(ru) = raw.as_deref().map(str::trim).filter(|ru| !ru.is_empty()) {
            self.found(Code::RulesUnknown, format!("RU[{ru}] names no known ruleset: {inferred}"));
        } else {
            self.found(Code::RulesInferred, ["no RU: ", &inferred].concat());
        }
        RecordRules {
            raw,
            preset: Some(preset),
            ruleset: preset.ruleset,
            origin: RulesOrigin::Inferred,
        }
    }

    /// The year DT starts with (`1987-05-12`, `1928`), if it does.
    fn year(&self) -> Option<u16> {
        let (_, dt) = self.properties.iter().find(|&(k, _)| k == "DT")?;
        let digits = dt.trim().get(..4)?;
        digits.bytes().all(|b| b.is_ascii_digit()).then(|| digits.parse().ok())?
    }

    /// The komi in points. When the record has none (with a finding): in a handicap game, the
    /// rules' handicap komi ([`crate::rules::Preset::handicap_komi`]: none, 0.5 under AGA);
    /// in an even 19x19 game dated by DT, the komi in use that year under the rules (none before the
    /// late 1930s, 5.5 for most of the late 20th century: see
    /// [`crate::rules::Preset::komi_in`]); else the
    /// ruleset's default.
    fn komi(
        &mut self,
        reading: Option<komi::KomiReading>,
        fox: FoxEvidence,
        handicap: u32,
        size: BoardSize,
        rules: &RecordRules,
        failed: bool,
    ) -> Komi {
        let raw = self.komi_raw.take();
        // A record that states no komi was most likely played with the komi of its day: old
        // professional records (GoGoD-style collections) leave KM out of no-komi games.
        // The komi history is that of 19x19 play; small boards keep the ruleset's default.
        let even_19 = handicap < 2 && size == BoardSize::STANDARD;
        let dated = match (rules.preset, self.year()) {
            (Some(preset), Some(year)) if even_19 => Some((preset, year)),
            _ => None,
        };
        // Only looked at without KM: a draw or a whole-point margin rules out a half-point komi.
        // Only for presets with a komi history, the only ones it can change.
        let whole_point_result = reading.is_none()
            && even_19
            && rules.preset.is_some_and(|p| !p.komi_history.is_empty())
            && self.result_raw.as_deref().and_then(result::read_result).is_some_and(|r| {
                match r.outcome {
                    Outcome::Draw => true,
                    Outcome::Win { by: WinBy::Points(margin), .. } => {
                        !r.in_zi && margin.fract() == 0.0
                    }
                    _ => false,
                }
            });
        let year = dated.map(|(_, year)| year);
        let default = match (rules.preset, dated) {
            _ if handicap >= 2 => rules.preset.map_or(0.0, |p| p.handicap_komi),
            (Some(preset), _) if even_19 => preset.komi_in_game(year, whole_point_result),
            _ => rules.ruleset.komi,
        };
        let re = || self.result_raw.as_deref().unwrap_or_default();
        // Only a komi assumed is explained, so the explanation is made only then.
        let name = || match (rules.preset, year) {
            (Some(p), Some(year)) if default != p.ruleset.komi => {
                if default == 0.0 && p.komi_in(year) != 0.0 {
                    format!(
                        "no komi: RE[{}] is a whole-point result, which the usual {} komi of \
                         {year} (DT) cannot give, and games without komi were still played then",
                        re(),
                        p.komi_in(year)
                    )
                } else if default == 0.0 {
                    format!("no komi: the game is dated {year} (DT), before komi came into use")
                } else {
                    format!("the usual komi of {} rules in {year} (DT)", p.name)
                }
            }
            (Some(p), None) if whole_point_result && default != p.ruleset.komi => format!(
                "no komi: RE[{}] is a whole-point result, which the {} komi of {} rules cannot \
                 give, and the record has no date (DT) to place it after the years without komi",
                re(),
                p.ruleset.komi,
                p.name
            ),
            (Some(p), _) => format!("the komi of {} rules", p.name),
            (None, _) => "the komi of the RU rules string".to_string(),
        };
        let assumed = |why: String, this: &mut GameBuilder| {
            if !failed {
                this.found(Code::KomiAssumed, why);
            }
            Komi { points: default, origin: KomiOrigin::Assumed, raw: raw.clone() }
        };
        match reading {
            Some(k) if fox.strong && k.points == 0.0 && handicap == 0 => assumed(
                format!(
                    "Fox writes KM[0] in even games whose komi it did not record ({}): assumed \
                     {default}, {}",
                    fox.marker.unwrap_or("Fox"),
                    name()
                ),
                self,
            ),
            Some(k) => {
                if let Some(note) = k.note {
                    self.found(Code::KomiUnits, note);
                }
                Komi { points: k.points, origin: k.origin, raw }
            }
            None => {
                let why = match (&raw, handicap >= 2) {
                    (Some(r), _) if !r.trim().is_empty() => format!("KM[{r}] is unreadable"),
                    (Some(_), _) => "KM is empty".to_string(),
                    (None, _) => "no KM".to_string(),
                };
                let which = if handicap >= 2 {
                    match rules.preset {
                        Some(p) => format!("the komi of a handicap game under {} rules", p.name),
                        None => "no komi in a handicap game".to_string(),
                    }
                } else {
                    name()
                };
                assumed(format!("{why}: assumed {default}, {which}"), self)
            }
        }
    }

    fn result(&mut self) -> RecordedResult {
        let raw = self.result_raw.take();
        let mut result = RecordedResult { raw, outcome: None, in_zi: false, truncated: false };
        let Some(text) = result.raw.as_deref() else { return result };
        if text.trim().is_empty() {
            return result;
        }
        match result::read_result(text) {
            Some(reading) => {
                result.outcome = Some(reading.outcome);
                result.in_zi = reading.in_zi;
                result.truncated = reading.truncated;
            }
            None => {
                let message = format!("RE[{text}] is not a result kifu can read");
                self.found(Code::ResultUnreadable, message);
            }
        }
        result
    }

    /// The record of a game that is not Go: an unparsed record (see [`super::unparsed`]) of its
    /// board size, with its metadata and the findings that do not depend on reading
    /// coordinates.
    fn not_go_record(mut self, size: BoardSize) -> GameRecord {
        let mut keep = self.about_board.iter().map(|b| !b);
        self.findings.retain(|_| keep.next().unwrap_or(true));
        // Its `syntax` finding is replaced by this game's findings.
        let unparsed = super::unparsed(self.location, self.encoding, "");
        GameRecord {
            size,
            komi: Komi { raw: self.komi_raw, ..unparsed.komi },
            rules: RecordRules { raw: self.rules_raw, ..unparsed.rules },
            result: RecordedResult { raw: self.result_raw, ..unparsed.result },
            properties: self.properties,
            findings: self.findings,
            ..unparsed
        }
    }
}

fn describe(value: ValueType) -> &'static str {
    match value {
        ValueType::None => "empty value",
        ValueType::Move => "move",
        ValueType::Number { .. } => "number",
        ValueType::Real => "real number",
        ValueType::Double => "emphasis (1 or 2)",
        ValueType::Color => "colour (B or W)",
        ValueType::Text => "single text value",
        ValueType::Points { .. } => "point list",
        ValueType::PointPairs => "list of point pairs",
        ValueType::Labels => "list of labels",
        ValueType::Application => "name:version",
        ValueType::Figure => "figure",
        ValueType::Size => "board size",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::CharsetOrigin;

    /// Builds a record from nodes of `(identifier, values)`.
    fn build(nodes: &[Vec<(String, Vec<String>)>]) -> GameRecord {
        let location = GameLocation { source: "t.sgf".into(), game: 1, offset: 0, line: 1 };
        let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
        let mut builder = GameBuilder::new(location, encoding);
        for node in nodes {
            builder.node();
            for (id, values) in node {
                builder.property(id, values);
            }
        }
        builder.finish(ReadStatus::Fast)
    }

    /// The shortcut for `B[..]`/`W[..]` ([`GameBuilder::plain_move`]) and the general path
    /// (taken for `B `, the same identifier with a space the interpreter trims silently) build
    /// the same records, whatever surrounds the moves: repeats, both colours in a node, setup
    /// in the node, passes, `tt`, malformed values.
    #[test]
    fn plain_moves_take_the_general_path_s_steps() {
        let mut state = 0x5eed_u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let values = ["pd", "", "tt", "zz", "Ab", " pd", "pdq", "a"];
        let others: [(&str, &[&str]); 5] =
            [("AB", &["aa"]), ("PL", &["W"]), ("C", &["x"]), ("TB", &["cc"]), ("KM", &["6.5"])];
        for _ in 0..2_000 {
            let mut plain = Vec::new();
            let mut general = Vec::new();
            for _ in 0..1 + next(6) {
                let (mut p, mut g) = (Vec::new(), Vec::new());
                for _ in 0..next(4) {
                    if next(3) == 0 {
                        let (id, vs) = others[next(others.len() as u64) as usize];
                        let vs: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
                        p.push((id.to_string(), vs.clone()));
                        g.push((id.to_string(), vs));
                    } else {
                        let id = if next(2) == 0 { "B" } else { "W" };
                        let v = vec![values[next(values.len() as u64) as usize].to_string()];
                        p.push((id.to_string(), v.clone()));
                        g.push((format!("{id} "), v));
                    }
                }
                plain.push(p);
                general.push(g);
            }
            assert_eq!(build(&plain), build(&general), "{plain:?}");
        }
    }

    /// [`GameBuilder::move_node`] is [`GameBuilder::node`] then one move property, whatever
    /// came before: setup, markup, findings, games that are not Go.
    #[test]
    fn move_nodes_are_nodes_with_one_move() {
        let location = GameLocation { source: "t.sgf".into(), game: 1, offset: 0, line: 1 };
        let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
        let mut state = 0x6d6f_7665_u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let others: [(&str, &[&str]); 7] = [
            ("AB", &["aa"]),
            ("PL", &["W"]),
            ("TB", &["cc"]),
            ("KM", &["6.5"]),
            ("GM", &["2"]),
            ("W", &["zz9"]),
            ("B", &["dd"]),
        ];
        let moves =
            [(Color::Black, "pd"), (Color::White, "dd"), (Color::Black, ""), (Color::White, "tt")];
        // `three` takes each run of move nodes at once, through `move_nodes`.
        fn flush(three: &mut GameBuilder, run: &mut Vec<(Color, Move)>) {
            let mut moves: Vec<RecordedMove> =
                run.drain(..).map(|(color, mv)| RecordedMove { color, mv, node: 0 }).collect();
            three.move_nodes(&mut moves);
        }
        for _ in 0..2_000 {
            let mut one = GameBuilder::new(location.clone(), encoding);
            let mut two = GameBuilder::new(location.clone(), encoding);
            let mut three = GameBuilder::new(location.clone(), encoding);
            let mut run = Vec::new();
            // Long runs of move nodes take `move_node`'s short way; a property after a move node
            // (which no reader sends, but the calls allow) must find the node as the long way
            // leaves it.
            for _ in 0..1 + next(16) {
                if next(3) > 0 {
                    let (colour, value) = moves[next(moves.len() as u64) as usize];
                    let mv = plain_move(value).expect("a plain move");
                    one.move_node(colour, mv);
                    two.node();
                    two.property(move_id(colour), &[value]);
                    run.push((colour, mv));
                    if next(6) == 0 {
                        let (id, values) = others[next(others.len() as u64) as usize];
                        one.property(id, values);
                        two.property(id, values);
                        flush(&mut three, &mut run);
                        three.property(id, values);
                    }
                } else {
                    one.node();
                    two.node();
                    flush(&mut three, &mut run);
                    three.node();
                    for _ in 0..next(3) {
                        let (id, values) = others[next(others.len() as u64) as usize];
                        one.property(id, values);
                        two.property(id, values);
                        three.property(id, values);
                    }
                }
            }
            flush(&mut three, &mut run);
            let one = one.finish(ReadStatus::Fast);
            assert_eq!(one, two.finish(ReadStatus::Fast));
            assert_eq!(one, three.finish(ReadStatus::Fast));
        }
    }
}
