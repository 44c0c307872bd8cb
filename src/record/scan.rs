//! A scan of one game's SGF text that sees exactly the tokens sgf-parse's lexer sees, without
//! building anything.
//!
//! sgf-parse throws away what was written: it folds identifiers to their uppercase letters
//! (`AddBlack` → `AB`, `PL;B` → `PLB`), expands and de-duplicates point lists, and keeps numbers
//! only as numbers (`SZ[19:19]` and `SZ[19]` become the same value). Its lexer is private, so
//! the adapter ([`super::sgf`]) re-reads the text with this scanner to hand the interpreter
//! ([`super::builder`]) each property *as written*, and to learn the tree's shape (node count,
//! depth) before deciding how to parse it safely.
//!
//! The scanner mirrors sgf-parse 4.2.8's lexer rule for rule (`src/lexer.rs`), so that its
//! n-th node is sgf-parse's n-th node:
//! - the text is first trimmed of Unicode whitespace (`str::trim`, as `parse_with_options` does);
//! - `(`, `)` and `;` are tokens; anything else starts a property;
//! - an identifier is every ASCII character up to the next `[` (spaces, `;`, `(` included); a
//!   non-ASCII character or the end of text there is a lexer error;
//! - a value runs to the next `]` not escaped by `\`; `\` escapes any character, itself dropped;
//! - ASCII whitespace is skipped after every token and between values.
//!
//! After a lexer error the scan stops, as sgf-parse's lenient mode does. Nothing here allocates
//! except [`RawProperty::values`] for values holding a `\`.

use std::borrow::Cow;

/// Why sgf-parse's lexer would stop at some point of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexError {
    /// A non-ASCII character where an identifier was being read.
    NonAsciiIdentifier,
    /// The text ends inside an identifier (no `[` follows).
    MissingValue,
    /// The text ends inside a value (no closing `]`).
    UnclosedValue,
}

impl LexError {
    /// A sentence for a finding.
    pub fn describe(self) -> &'static str {
        match self {
            LexError::NonAsciiIdentifier => "a non-ASCII character where a property name should be",
            LexError::MissingValue => "a property name with no value before the end of the text",
            LexError::UnclosedValue => "a property value that is never closed by ']'",
        }
    }
}

/// One lexical token of the game text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'t> {
    /// `(`: a game tree or variation starts.
    Open,
    /// `)`: it ends.
    Close,
    /// `;`: a node starts.
    Node,
    /// A property: its identifier as written and its values.
    Property(RawProperty<'t>),
    /// The lexer stops here; no token follows.
    Error {
        /// What went wrong.
        error: LexError,
        /// Byte offset in the trimmed text.
        offset: usize,
    },
}

/// A property as written: the identifier exactly as in the text (`B`, `AddBlack`, `B `, `PL;B`)
/// and the span holding its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawProperty<'t> {
    /// Every character from the property's start to its first `[`.
    pub identifier: &'t str,
    /// From the first `[` to the last `]`, whitespace between values included.
    span: &'t str,
    /// Byte offset of the identifier in the trimmed text.
    pub offset: usize,
}

impl<'t> RawProperty<'t> {
    /// The values, unescaped (a `\` dropped, the character after it kept), in order.
    pub fn values(&self) -> Values<'t> {
        Values { rest: self.span.as_bytes(), text: self.span, pos: 0 }
    }
}

impl<'t> RawProperty<'t> {
    /// The values exactly as written between their brackets, escapes kept (`a\\]b` for the
    /// value `a]b`): written back between brackets, each lexes to the same value again. The
    /// SGF writer ([`super::write`]) copies values this way, so that what it does not
    /// normalise stays byte for byte as read.
    pub fn raw_values(&self) -> RawValues<'t> {
        RawValues { text: self.span, pos: 0 }
    }
}

/// The values of a [`RawProperty`] as written: see [`RawProperty::raw_values`].
pub struct RawValues<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Iterator for RawValues<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if bytes.get(self.pos) != Some(&b'[') {
            return None;
        }
        let start = self.pos + 1;
        let (end, _) = value_end(bytes, start)?;
        self.pos = end + 1;
        Some(&self.text[start..end])
    }
}

/// The values of a [`RawProperty`]: see [`RawProperty::values`].
pub struct Values<'t> {
    rest: &'t [u8],
    text: &'t str,
    pos: usize,
}

impl<'t> Iterator for Values<'t> {
    type Item = Cow<'t, str>;

    fn next(&mut self) -> Option<Cow<'t, str>> {
        while self.pos < self.rest.len() && self.rest[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if self.rest.get(self.pos) != Some(&b'[') {
            return None;
        }
        let start = self.pos + 1;
        let (end, escaped) = value_end(self.rest, start)?;
        self.pos = end + 1;
        let raw = &self.text[start..end];
        Some(if escaped { Cow::Owned(unescape(raw)) } else { Cow::Borrowed(raw) })
    }
}

/// Index of the `]` closing a value that starts at `start`, and whether a `\` occurs in it.
fn value_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut i = start;
    let mut escaped = false;
    loop {
        let at = memchr::memchr2(b']', b'\\', &bytes[i..])? + i;
        if bytes[at] == b']' {
            return Some((at, escaped));
        }
        escaped = true;
        // Skip the escaped character, whatever its length in UTF-8: a continuation byte is
        // never `]` or `\`, so stepping one byte past the backslash's target is enough unless
        // the target is itself ASCII, which is one byte anyway.
        i = at + 2;
        if i > bytes.len() {
            return None;
        }
    }
}

fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The tokens of a game's text, in order: see the module documentation.
pub struct Tokens<'t> {
    text: &'t str,
    pos: usize,
    done: bool,
}

/// Scans `text` (one game tree, as sgf-parse would be given it).
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens { text: text.trim(), pos: 0, done: false }
}

impl<'t> Tokens<'t> {
    fn skip_whitespace(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn property(&mut self) -> Token<'t> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut i = start;
        loop {
            match bytes.get(i) {
                None => return self.fail(LexError::MissingValue, i),
                Some(b'[') => break,
                Some(b) if b.is_ascii() => i += 1,
                Some(_) => return self.fail(LexError::NonAsciiIdentifier, i),
            }
        }
        let identifier = &self.text[start..i];
        let values_start = i;
        let mut last_close = i;
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if bytes.get(i) != Some(&b'[') {
                break;
            }
            match value_end(bytes, i + 1) {
                Some((end, _)) => {
                    last_close = end;
                    i = end + 1;
                }
                None => return self.fail(LexError::UnclosedValue, i),
            }
        }
        self.pos = i;
        Token::Property(RawProperty {
            identifier,
            span: &self.text[values_start..=last_close],
            offset: start,
        })
    }

    fn fail(&mut self, error: LexError, offset: usize) -> Token<'t> {
        self.done = true;
        Token::Error { error, offset }
    }
}

impl<'t> Iterator for Tokens<'t> {
    type Item = Token<'t>;

    fn next(&mut self) -> Option<Token<'t>> {
        if self.done {
            return None;
        }
        let token = match self.text.as_bytes().get(self.pos) {
            None => return None,
            Some(b'(') => {
                self.pos += 1;
                Token::Open
            }
            Some(b')') => {
                self.pos += 1;
                Token::Close
            }
            Some(b';') => {
                self.pos += 1;
                Token::Node
            }
            Some(_) => self.property(),
        };
        if !self.done {
            self.skip_whitespace();
        }
        Some(token)
    }
}

/// The shape of the tree sgf-parse would build from a text: enough to decide how to parse it
/// without risking the stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Number of nodes (`;` tokens).
    pub nodes: usize,
    /// The longest chain of nested nodes sgf-parse would build: every node is the child of
    /// the node before it unless a `(` / `)` pair says otherwise. An upper bound of the tree's
    /// depth, whatever sgf-parse then rejects.
    pub depth: usize,
}

/// Counts nodes and nesting the way sgf-parse's tree builder would.
pub fn shape(text: &str) -> Shape {
    let mut shape = Shape::default();
    let mut depth = 0usize;
    let mut saved: Vec<usize> = Vec::new();
    for token in tokens(text) {
        match token {
            Token::Open => saved.push(depth),
            Token::Close => depth = saved.pop().unwrap_or(0),
            Token::Node => {
                shape.nodes += 1;
                depth += 1;
                shape.depth = shape.depth.max(depth);
            }
            Token::Property(_) | Token::Error { .. } => {}
        }
    }
    shape
}

/// The first place where sgf-parse's strict parser would give up on a text, as a sentence and
/// a byte offset in the text given: the lexer's errors, and the tree builder's (a `)` with no
/// `(`, a `(` with no node before the next `(`, a property outside any node, a tree never
/// closed, more than one root). sgf-parse reports none of these with a position; kifu does.
pub fn first_problem(text: &str) -> Option<(&'static str, usize)> {
    let mut tokens = tokens(text);
    // Lists of children, as sgf-parse's builder keeps them: list 0 holds the roots; every node
    // opens a list for its children. `open` holds the lists saved by unmatched `(`.
    let mut nonempty: Vec<bool> = vec![false];
    let mut current = 0usize;
    let mut open: Vec<usize> = Vec::new();
    let mut roots = 0usize;
    let mut seen_tree = false;
    let mut in_node = false;
    let mut last_offset = 0usize;
    while let Some(token) = tokens.next() {
        let offset = tokens.pos_before(&token);
        last_offset = offset;
        match token {
            Token::Open => {
                if let Some(&saved) = open.last()
                    && !nonempty[saved]
                {
                    return Some(("a '(' that opens a variation before any node", offset));
                }
                open.push(current);
                seen_tree = true;
                in_node = false;
            }
            Token::Close => {
                let Some(saved) = open.pop() else {
                    return Some(("a ')' that closes nothing", offset));
                };
                current = saved;
                in_node = false;
            }
            Token::Node => {
                if !seen_tree {
                    return Some(("a node before the first '('", offset));
                }
                nonempty[current] = true;
                if current == 0 {
                    roots += 1;
                    if roots > 1 {
                        return Some(("a second root node", offset));
                    }
                }
                nonempty.push(false);
                current = nonempty.len() - 1;
                in_node = true;
            }
            Token::Property(p) => {
                if !in_node {
                    return Some(("a property outside any node", p.offset));
                }
            }
            Token::Error { error, offset } => return Some((error.describe(), offset)),
        }
    }
    if !open.is_empty() {
        return Some(("a game tree that is never closed", text.trim().len().max(last_offset)));
    }
    if !seen_tree {
        return Some(("no game tree", 0));
    }
    None
}

impl Tokens<'_> {
    /// The offset at which `token` (just returned) started, in the trimmed text.
    fn pos_before(&self, token: &Token<'_>) -> usize {
        match token {
            Token::Property(p) => p.offset,
            Token::Error { offset, .. } => *offset,
            // One-byte tokens: the scanner has moved past them and any whitespace after; walk
            // back over that whitespace.
            _ => {
                let bytes = self.text.as_bytes();
                let mut at = self.pos;
                while at > 0 && bytes[at - 1].is_ascii_whitespace() {
                    at -= 1;
                }
                at.saturating_sub(1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe(text: &str) -> Vec<String> {
        tokens(text)
            .map(|t| match t {
                Token::Open => "(".to_string(),
                Token::Close => ")".to_string(),
                Token::Node => ";".to_string(),
                Token::Property(p) => {
                    let values: Vec<String> = p.values().map(|v| v.into_owned()).collect();
                    format!("{}={:?}", p.identifier, values)
                }
                Token::Error { error, offset } => format!("error {error:?} at {offset}"),
            })
            .collect()
    }

    #[test]
    fn tokens_follow_sgf_parse_lexer() {
        assert_eq!(
            describe(" (;SZ[9]C[a \\] b];B[de]\n;W[fe] [ff])  "),
            [
                "(",
                ";",
                "SZ=[\"9\"]",
                "C=[\"a ] b\"]",
                ";",
                "B=[\"de\"]",
                ";",
                "W=[\"fe\", \"ff\"]",
                ")"
            ]
        );
    }

    #[test]
    fn identifiers_keep_everything_up_to_the_bracket() {
        // A missing value swallows the next node marker into the identifier, as in sgf-parse.
        assert_eq!(describe("(;PL;B[aa])"), ["(", ";", "PL;B=[\"aa\"]", ")"]);
        assert_eq!(describe("(;AddBlack[aa])"), ["(", ";", "AddBlack=[\"aa\"]", ")"]);
        assert_eq!(describe("(;B [aa])"), ["(", ";", "B =[\"aa\"]", ")"]);
    }

    #[test]
    fn escapes_drop_the_backslash_and_keep_the_next_character() {
        assert_eq!(describe("(;C[a\\\\b\\\nc\\é])"), ["(", ";", "C=[\"a\\\\b\\nc\u{e9}\"]", ")"]);
    }

    #[test]
    fn raw_values_keep_their_escapes_and_lex_back_to_the_same_values() {
        let text = "(;C[a\\]b\\\\c] [d]\n [e\\\nf])";
        let Some(Token::Property(p)) = tokens(text).nth(2) else { panic!("a property") };
        let raw: Vec<&str> = p.raw_values().collect();
        assert_eq!(raw, ["a\\]b\\\\c", "d", "e\\\nf"]);
        let rebuilt = format!("(;C{})", raw.iter().map(|v| format!("[{v}]")).collect::<String>());
        let Some(Token::Property(q)) = tokens(&rebuilt).nth(2) else { panic!("a property") };
        assert!(p.values().eq(q.values()));
    }

    #[test]
    fn lexer_errors_stop_the_scan() {
        assert_eq!(
            describe("(;B[aa];W[bb"),
            ["(", ";", "B=[\"aa\"]", ";", "error UnclosedValue at 9"]
        );
        assert_eq!(describe("(;B[aa];W"), ["(", ";", "B=[\"aa\"]", ";", "error MissingValue at 9"]);
        assert_eq!(describe("(;Bé[aa])"), ["(", ";", "error NonAsciiIdentifier at 3"]);
        // A value ending in a lone backslash is never closed.
        assert_eq!(describe("(;C[a\\]"), ["(", ";", "error UnclosedValue at 3"]);
    }

    #[test]
    fn first_problem_points_where_sgf_parse_gives_up() {
        let problem = |t: &str| first_problem(t).map(|(what, at)| format!("{what} @{at}"));
        assert_eq!(problem("(;B[aa](;W[bb])(;W[cc]))"), None);
        assert_eq!(problem("(;B[aa];W[bb]"), Some("a game tree that is never closed @13".into()));
        assert_eq!(problem("(;B[aa]))"), Some("a ')' that closes nothing @8".into()));
        assert_eq!(
            problem("(;B[aa]((;W[bb])))"),
            Some("a '(' that opens a variation before any node @8".into())
        );
        assert_eq!(problem("(B[aa])"), Some("a property outside any node @1".into()));
        assert_eq!(
            problem("(;B[aa];W[bb"),
            Some("a property value that is never closed by ']' @9".into())
        );
        // sgf-parse accepts a variation opened right after a closed one.
        assert_eq!(problem("(;a[](;b[])((;c[])))"), None);
        for t in
            ["(;B[aa](;W[bb])(;W[cc]))", "(;B[aa]((;W[bb])))", "(B[aa])", "(;a[](;b[])((;c[])))"]
        {
            assert_eq!(
                first_problem(t).is_none(),
                sgf_parse::parse(t).is_ok(),
                "{t}: kifu and sgf-parse disagree"
            );
        }
    }

    #[test]
    fn shape_counts_nodes_and_nesting() {
        assert_eq!(shape("(;a[];b[](;c[])(;d[];e[]))"), Shape { nodes: 5, depth: 4 });
        let deep = format!("({})", ";B[aa]".repeat(1000));
        assert_eq!(shape(&deep), Shape { nodes: 1000, depth: 1000 });
        let nested = format!("{}{}", "(;B[aa]".repeat(500), ")".repeat(500));
        assert_eq!(shape(&nested), Shape { nodes: 500, depth: 500 });
    }
}
