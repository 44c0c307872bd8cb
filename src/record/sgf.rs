//! From one game's decoded SGF text to a [`GameRecord`]: the reader built on sgf-parse.
//!
//! sgf-parse is kifu's reference parser. This module runs it safely and feeds what it finds to
//! the interpreter ([`super::builder`]), which gives every property its meaning; see that module
//! for the seam both this reader and a streaming one use.
//!
//! # Strict, then lenient
//!
//! Each game is parsed strictly first (`ReadStatus::Strict`). When that fails the lenient
//! parser keeps what it can (`ReadStatus::Lenient`, with a `lenient` finding naming sgf-parse's
//! error, where kifu's own scan of the text says it lies, and how many nodes were kept). When
//! even that yields nothing the game is `ReadStatus::Failed` with a `syntax` finding.
//!
//! # Deep trees
//!
//! sgf-parse builds a node per `;`, each the child of the one before: a 300-move game is a tree
//! 300 levels deep, and some servers (OGS) nest a variation per move. Parsing is iterative, but
//! sgf-parse's `Drop`, `Clone`, `PartialEq` and `validate` recurse, and a 50,000-node game
//! overflows a 2 MiB stack (a rayon worker's default) and aborts the process. So:
//! - a tree is never cloned, compared or validated here; the main line is walked with
//!   `main_variation()` (a loop) and the tree is torn down with an explicit stack;
//! - sgf-parse drops partial trees itself when a strict parse fails late (a `((` after a long
//!   main line); games deeper than [`INLINE_DEPTH`] are therefore parsed on a helper thread whose
//!   stack grows with the depth, measured beforehand by `scan::shape`;
//! - games of more than [`MAX_GAME_NODES`] nodes are not parsed at all (`limit` finding):
//!   sgf-parse holds about 450 bytes per node.
//!
//! # Spelling
//!
//! sgf-parse keeps typed values only: it folds identifiers to their capitals, expands point
//! lists, and forgets how numbers were written. The interpreter wants what was written (to
//! report `AddBlack`, `SZ[19:19]`, `AB[aa][aa]`), so each main-line property is re-read from the
//! text by `scan`, a scanner that follows sgf-parse's lexer rule for rule; the n-th
//! node in text order is the n-th node of sgf-parse's main line, because the main line is the
//! first child at every level and sgf-parse creates nodes in text order. Every property is
//! checked against sgf-parse's: the identifiers must match, and a value sgf-parse rejects
//! (`Prop::Invalid`) must have been reported by the interpreter, or it is reported here. Should
//! the two ever disagree on a node, its values are taken from sgf-parse's typed values instead,
//! and a finding says so.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};

use sgf_parse::{GameTree, ParseOptions, SgfNode, SgfParseError, SgfProp, go, unknown_game};

use super::builder::GameBuilder;
use super::scan::{self, RawProperty, Token};
use super::{GameLocation, GameRecord, ReadOptions, ReadStatus, TextEncoding};
use crate::finding::{Code, Finding, Severity};

/// Games whose longest chain of nodes is at most this deep are parsed on the caller's thread:
/// sgf-parse's recursive teardown of a failed parse then needs well under 1 MiB of stack even
/// in a debug build (about 300 bytes per level measured; 80 in release).
pub const INLINE_DEPTH: usize = 2_000;

/// Stack per level of depth for games parsed on a helper thread (measured need: 80 bytes in
/// release, under 320 in debug).
const STACK_PER_LEVEL: usize = 512;

/// Stack of a helper thread beyond what the depth needs.
const STACK_BASE: usize = 1 << 20;

/// The most nodes a game may have to be parsed (about 450 MB in sgf-parse's tree). Real games
/// have a few hundred; the largest commented records a few tens of thousands.
pub const MAX_GAME_NODES: usize = 1 << 20;

/// Parses one game tree's text into a record. Never fails: a game that cannot be read comes
/// back with [`ReadStatus::Failed`] and the reason among its findings.
///
/// `text` is the decoded text of one game tree as the splitter found it (from its `(` to the
/// matching `)`); `location` and `encoding` are stored in the record as given. `options` holds
/// nothing this reader uses today.
pub fn read_game(
    text: &str,
    location: GameLocation,
    encoding: TextEncoding,
    options: &ReadOptions,
) -> GameRecord {
    let _ = options;
    let shape = scan::shape(text);
    let where_in_file = Position { text, offset: location.offset, line: location.line };
    let mut builder = GameBuilder::new(location, encoding);
    if shape.nodes > MAX_GAME_NODES {
        builder.report(Finding::new(
            Code::Limit,
            0,
            format!(
                "the game has {} nodes, more than the {MAX_GAME_NODES} kifu parses",
                shape.nodes
            ),
        ));
        return builder.finish(ReadStatus::Failed);
    }
    let parsed = match parse_guarded(text, shape.depth) {
        Ok(parsed) => parsed,
        Err(reason) => {
            builder.report(Finding::new(Code::Syntax, 0, reason));
            return builder.finish(ReadStatus::Failed);
        }
    };
    let kept = parsed.trees.iter().map(count_nodes).sum::<usize>();
    let status = match &parsed.strict_error {
        None => ReadStatus::Strict,
        Some(_) if kept == 0 || is_empty_tree(&parsed.trees) => ReadStatus::Failed,
        Some(_) => ReadStatus::Lenient,
    };
    if let Some(error) = parsed.strict_error {
        let place = where_in_file.describe(scan::first_problem(text));
        let message = match status {
            ReadStatus::Failed => format!("not an SGF game tree: {error}{place}"),
            _ => format!(
                "sgf-parse's strict parser rejects the game ({error}{place}); read leniently, \
                 keeping {kept} of {} nodes",
                shape.nodes
            ),
        };
        let code = if status == ReadStatus::Failed { Code::Syntax } else { Code::Lenient };
        builder.report(Finding::new(code, 0, message));
    }
    if parsed.trees.len() > 1 {
        builder.report(
            Finding::new(
                Code::Syntax,
                0,
                format!("the text holds {} game trees; only the first is read", parsed.trees.len()),
            )
            .with_severity(Severity::Warning),
        );
    }
    if status != ReadStatus::Failed {
        match parsed.trees.first() {
            Some(GameTree::GoGame(root)) => drive(&mut builder, root, text, usize::MAX),
            // A game that is not Go: only its root is read (the interpreter says why).
            Some(GameTree::Unknown(root)) => drive(&mut builder, root, text, 1),
            None => {}
        }
    }
    teardown(parsed.trees);
    builder.finish(status)
}

/// Parses `text` strictly with sgf-parse alone and frees the tree, returning its node count
/// (`None` when strict parsing fails): no scan, no interpretation. It is the cost floor under
/// [`read_game`], which benchmarks and the streaming reader's comparisons measure against.
pub fn count_nodes_with_sgf_parse(text: &str) -> Option<usize> {
    let trees = sgf_parse::parse(text).ok()?;
    let nodes = trees.iter().map(count_nodes).sum();
    teardown(trees);
    Some(nodes)
}

/// Where in the file a problem at an offset of the game's text lies.
struct Position<'t> {
    text: &'t str,
    offset: u64,
    line: u32,
}

impl Position<'_> {
    fn describe(&self, problem: Option<(&'static str, usize)>) -> String {
        let Some((what, at)) = problem else { return String::new() };
        // Offsets from the scan count from the trimmed text.
        let lead = self.text.len() - self.text.trim_start().len();
        let at = (lead + at).min(self.text.len());
        let line =
            self.line as usize + self.text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        format!("; kifu finds {what} at byte {} of the file, line {line}", self.offset + at as u64)
    }
}

struct Parsed {
    trees: Vec<GameTree>,
    strict_error: Option<SgfParseError>,
}

/// Strict, then lenient; on a helper thread with a stack to match when the text is deep.
fn parse_guarded(text: &str, depth: usize) -> Result<Parsed, String> {
    if depth <= INLINE_DEPTH {
        return parse_both(text);
    }
    let stack = STACK_BASE + depth.saturating_mul(STACK_PER_LEVEL);
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("kifu-deep-sgf".to_string())
            .stack_size(stack)
            .spawn_scoped(scope, || parse_both(text))
            .map_err(|e| {
                format!("could not start a thread to parse a tree {depth} nodes deep: {e}")
            })?;
        worker.join().unwrap_or_else(|_| Err("sgf-parse panicked on this game".to_string()))
    })
}

fn parse_both(text: &str) -> Result<Parsed, String> {
    let strict = ParseOptions::default();
    let lenient = ParseOptions { lenient: true, ..ParseOptions::default() };
    let outcome =
        catch_unwind(AssertUnwindSafe(|| match sgf_parse::parse_with_options(text, &strict) {
            Ok(trees) => Parsed { trees, strict_error: None },
            Err(e) => Parsed {
                trees: sgf_parse::parse_with_options(text, &lenient).unwrap_or_default(),
                strict_error: Some(e),
            },
        }));
    outcome.map_err(|_| "sgf-parse panicked on this game".to_string())
}

fn is_empty_tree(trees: &[GameTree]) -> bool {
    match trees.first() {
        Some(GameTree::GoGame(root)) => root.properties.is_empty() && root.children.is_empty(),
        Some(GameTree::Unknown(root)) => root.properties.is_empty() && root.children.is_empty(),
        None => true,
    }
}

fn count_nodes(tree: &GameTree) -> usize {
    fn count<P: SgfProp>(root: &SgfNode<P>) -> usize {
        let mut stack = vec![root];
        let mut n = 0;
        while let Some(node) = stack.pop() {
            n += 1;
            stack.extend(node.children.iter());
        }
        n
    }
    match tree {
        GameTree::GoGame(root) => count(root),
        GameTree::Unknown(root) => count(root),
    }
}

/// Frees trees with an explicit stack: sgf-parse's own `Drop` recurses once per level.
fn teardown(trees: Vec<GameTree>) {
    let mut go_nodes: Vec<SgfNode<go::Prop>> = Vec::new();
    let mut other_nodes: Vec<SgfNode<unknown_game::Prop>> = Vec::new();
    for tree in trees {
        match tree {
            GameTree::GoGame(root) => go_nodes.push(root),
            GameTree::Unknown(root) => other_nodes.push(root),
        }
    }
    while let Some(mut node) = go_nodes.pop() {
        go_nodes.append(&mut node.children);
    }
    while let Some(mut node) = other_nodes.pop() {
        other_nodes.append(&mut node.children);
    }
}

/// What the adapter needs from sgf-parse's property types.
trait ParsedProperty: SgfProp {
    /// sgf-parse rejected the value.
    fn is_invalid(&self) -> bool;
    /// The identifier of the most frequent properties without allocating (sgf-parse's
    /// `identifier()` builds a `String`); `None` for the rest.
    fn common_identifier(&self) -> Option<&'static str> {
        None
    }
    /// The values sgf-parse's typed value stands for, as text: the fallback when the scan and
    /// sgf-parse disagree.
    fn typed_values(&self) -> Vec<String>;
}

impl ParsedProperty for go::Prop {
    fn is_invalid(&self) -> bool {
        matches!(self, go::Prop::Invalid(..))
    }

    fn common_identifier(&self) -> Option<&'static str> {
        Some(match self {
            go::Prop::B(_) => "B",
            go::Prop::W(_) => "W",
            go::Prop::C(_) => "C",
            go::Prop::BL(_) => "BL",
            go::Prop::WL(_) => "WL",
            go::Prop::OB(_) => "OB",
            go::Prop::OW(_) => "OW",
            go::Prop::AB(_) => "AB",
            go::Prop::AW(_) => "AW",
            go::Prop::LB(_) => "LB",
            go::Prop::TR(_) => "TR",
            go::Prop::N(_) => "N",
            _ => return None,
        })
    }

    fn typed_values(&self) -> Vec<String> {
        let point = |p: &go::Point| crate::rules::Point::new(p.x, p.y).sgf().unwrap_or_default();
        let points = |set: &std::collections::HashSet<go::Point>| {
            let mut v: Vec<String> = set.iter().map(point).collect();
            v.sort();
            v
        };
        match self {
            go::Prop::Unknown(_, values) | go::Prop::Invalid(_, values) => values.clone(),
            go::Prop::B(m) | go::Prop::W(m) => vec![match m {
                go::Move::Pass => String::new(),
                go::Move::Move(p) => point(p),
            }],
            go::Prop::AB(s)
            | go::Prop::AW(s)
            | go::Prop::AE(s)
            | go::Prop::TB(s)
            | go::Prop::TW(s) => points(s),
            other => values_of_display(&other.to_string()),
        }
    }
}

impl ParsedProperty for unknown_game::Prop {
    fn is_invalid(&self) -> bool {
        matches!(self, unknown_game::Prop::Invalid(..))
    }

    fn typed_values(&self) -> Vec<String> {
        match self {
            unknown_game::Prop::Unknown(_, values) | unknown_game::Prop::Invalid(_, values) => {
                values.clone()
            }
            other => values_of_display(&other.to_string()),
        }
    }
}

/// The values of a property as sgf-parse writes it (`KM[6.5]`, `C[a\]b]`), unescaped.
fn values_of_display(written: &str) -> Vec<String> {
    let text = format!("(;{written})");
    scan::tokens(&text)
        .find_map(|t| match t {
            Token::Property(p) => Some(p.values().map(Cow::into_owned).collect()),
            _ => None,
        })
        .unwrap_or_default()
}

/// Feeds the first `limit` nodes of the main line to the interpreter, each property as the scan
/// read it from the text, checked against sgf-parse's reading.
fn drive<P: ParsedProperty>(
    builder: &mut GameBuilder,
    root: &SgfNode<P>,
    text: &str,
    limit: usize,
) {
    let mut tokens = scan::tokens(text).peekable();
    let mut raw: Vec<RawProperty<'_>> = Vec::new();
    let mut values: Vec<Cow<'_, str>> = Vec::new();
    for (index, node) in root.main_variation().take(limit).enumerate() {
        raw.clear();
        // The next node in text order, with its properties.
        while let Some(token) = tokens.next() {
            if token == Token::Node {
                while let Some(Token::Property(p)) = tokens.peek() {
                    raw.push(*p);
                    tokens.next();
                }
                break;
            }
        }
        builder.node();
        let aligned = raw.len() == node.properties.len()
            && raw.iter().zip(&node.properties).all(|(r, p)| {
                let capitals = r.identifier.chars().filter(char::is_ascii_uppercase);
                match p.common_identifier() {
                    Some(id) => capitals.eq(id.chars()),
                    None => capitals.eq(p.identifier().chars()),
                }
            });
        if !aligned {
            builder.report(
                Finding::new(
                    Code::Syntax,
                    0,
                    format!(
                        "kifu's scan and sgf-parse disagree about node {index}; its values are \
                         taken from sgf-parse's reading"
                    ),
                )
                .with_severity(Severity::Info),
            );
        }
        for (i, prop) in node.properties.iter().enumerate() {
            values.clear();
            let identifier: Cow<'_, str> = if aligned {
                values.extend(raw[i].values());
                Cow::Borrowed(raw[i].identifier)
            } else {
                values.extend(prop.typed_values().into_iter().map(Cow::Owned));
                Cow::Owned(prop.identifier())
            };
            let verdict = builder.property(&identifier, &values);
            if prop.is_invalid() && !verdict.reported {
                builder.rejected_by_parser(&identifier, &values);
            }
        }
    }
}
