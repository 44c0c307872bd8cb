//! Findings: every problem kifu reports, with a stable code, a severity and a location.
//!
//! A finding is the unit of `findings.csv`. Its code is a short kebab-case name that a curator
//! can filter on and that the README documents; the five codes for illegal moves (`occupied`,
//! `suicide`, `ko`, `superko`, `off-board`) are fixed by the command-line contract, the others
//! are kifu's own, modelled on sgfc's message catalogue (`shared/notes/sgf-in-the-wild.md` §2).
//!
//! The location is split the way the layers know it: the pipeline knows the source and the
//! game's index in its file; a game's own findings carry the 1-based main-line move number (0 for
//! file, root and setup problems) and, where the record layer knows them, the byte offset and
//! line in the file.

use std::fmt;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing, nothing is wrong with the game (a value converted from Fox units).
    Info,
    /// Something is off but the game was read and replayed in full.
    Warning,
    /// The game breaks a rule or could not be read in full.
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($( $(#[doc = $doc:literal])* $variant:ident = $name:literal, $severity:ident; )*) => {
        /// The kind of a finding. [`Code::as_str`] gives the name written to the reports.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The name written to the reports.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity a finding of this kind has unless its producer says otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// The code with this name.
            pub fn from_name(name: &str) -> Option<Code> {
                match name { $($name => Some(Code::$variant),)* _ => None }
            }

            /// The variant's documentation as one line, for the README, `kifu codes` and the
            /// summary. (Each `///` line is one `doc` literal starting with a space, so
            /// concatenating them joins the lines with single spaces.)
            pub fn description(self) -> &'static str {
                match self { $(Code::$variant => concat!($($doc),*).trim_ascii(),)* }
            }
        }
    };
}

codes! {
    // --- illegal moves: exactly one of these per illegal move (the contract's codes) ---
    /// A move on a point that already holds a stone.
    Occupied = "occupied", Error;
    /// A move that leaves its own chain without liberties and captures nothing, where the
    /// ruleset forbids it.
    Suicide = "suicide", Error;
    /// The immediate recapture of a single stone in a ko.
    Ko = "ko", Error;
    /// A move that recreates an earlier whole-board position under a superko rule.
    Superko = "superko", Error;
    /// A move on a point outside the board.
    OffBoard = "off-board", Error;

    // --- other replay problems ---
    /// The same colour moved twice in a row (or the wrong colour moved first).
    OutOfTurn = "out-of-turn", Warning;
    /// A move after the game had ended by two passes or resignation.
    AfterEnd = "after-end", Warning;
    /// The whole board repeated where no superko rule forbids it (triple ko, eternal life):
    /// the game has no result.
    Cycle = "cycle", Warning;
    /// A setup stone (AB, AW) placed on a point that already holds one, or a setup that leaves
    /// chains without liberties.
    SetupOccupied = "setup-occupied", Warning;
    /// Setup properties (AB, AW, AE) after the first move of the main line.
    SetupInMainLine = "setup-in-main-line", Warning;

    // --- reading files ---
    /// The file, folder or archive member could not be read.
    Io = "io", Error;
    /// An archive could not be opened or one of its members could not be extracted.
    Archive = "archive", Error;
    /// A configured limit was exceeded (file size, nodes, depth, value length, games, archive
    /// expansion); the game or file was not read in full.
    Limit = "limit", Error;
    /// The file holds no SGF game tree at all.
    NoGame = "no-game", Error;
    /// Bytes that are not part of any game tree (before `(;`, between or after trees).
    Junk = "junk", Warning;
    /// The file starts with a byte-order mark.
    ByteOrderMark = "bom", Info;
    /// A game tree is not closed before the end of the file.
    Unclosed = "unclosed", Error;
    /// The game's SGF text could not be parsed.
    Syntax = "syntax", Error;
    /// The game parsed only with the lenient parser; part of it may be lost.
    Lenient = "lenient", Warning;
    /// An identifier with lowercase letters or other characters (FF[1-3] style, or damage).
    BadIdentifier = "bad-identifier", Warning;
    /// The same property twice in one node.
    DuplicateProperty = "duplicate-property", Warning;
    /// A property value that cannot be read for its type (sgf-parse's `Prop::Invalid`).
    BadValue = "bad-value", Warning;
    /// Bytes invalid in the game's charset were replaced with U+FFFD.
    Encoding = "encoding", Warning;
    /// The charset named by CA is unknown; another was used.
    UnknownCharset = "unknown-charset", Warning;
    /// No charset was declared and the bytes were not UTF-8: the charset was guessed.
    CharsetGuessed = "charset-guessed", Info;
    /// CA names a legacy charset but the text is valid UTF-8 (re-saved without updating CA):
    /// it was read as UTF-8.
    CharsetMismatch = "charset-mismatch", Warning;
    /// The game is not a game of Go (GM other than 1).
    NotGo = "not-go", Error;
    /// SZ is missing a usable value or lies outside 1..52.
    BoardSize = "board-size", Error;
    /// The game has no moves.
    EmptyGame = "empty-game", Info;
    /// A node holds both a move and setup properties, or moves of both colours.
    MixedNode = "mixed-node", Warning;
    /// A root property (SZ, GM, FF, CA, AP, ST) outside the root node, or game information
    /// repeated in a later node of the main line; it is ignored.
    MisplacedProperty = "misplaced-property", Warning;

    // --- game information ---
    /// HA disagrees with the handicap stones on the board.
    HandicapMismatch = "handicap-mismatch", Warning;
    /// HA with no AB stones (Fox): the standard handicap stones were placed.
    HandicapImplied = "handicap-implied", Info;
    /// KM was missing or unreadable; the komi of the rules in the record's year (DT) was
    /// assumed, else their default.
    KomiAssumed = "komi-assumed", Info;
    /// KM was written in another unit (Fox points x100, GoGoD zi) and converted to points.
    KomiUnits = "komi-units", Info;
    /// RE could not be understood; its raw text is kept.
    ResultUnreadable = "result-unreadable", Warning;
    /// RU names no known ruleset; the rules were inferred.
    RulesUnknown = "rules-unknown", Info;
    /// The record names no rules: they were inferred from komi, place or server.
    RulesInferred = "rules-inferred", Info;

    // --- scoring ---
    /// No score could be computed for this game under this ruleset.
    NoScore = "no-score", Warning;
    /// TB/TW markup contradicts the position (a mark on a live stone of the same colour).
    MarkupInconsistent = "markup-inconsistent", Warning;
    /// The estimator could not decide the status of some stones.
    StatusUnclear = "status-unclear", Info;

    // --- kifu itself ---
    /// kifu failed on this game: a bug, please report it with the game. The game is reported as
    /// unparsed and the run goes on.
    Internal = "internal", Error;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem found in a game (or in the file holding it).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// 1-based main-line move number; 0 for file, root and setup problems.
    pub move_number: u32,
    /// What kind of problem.
    pub code: Code,
    /// How bad.
    pub severity: Severity,
    /// A sentence for people, naming the point, value or bytes involved.
    pub message: String,
}

impl Finding {
    /// A finding with the code's default severity.
    pub fn new(code: Code, move_number: u32, message: impl Into<String>) -> Finding {
        Finding { move_number, code, severity: code.default_severity(), message: message.into() }
    }

    /// The same finding with another severity.
    pub fn with_severity(mut self, severity: Severity) -> Finding {
        self.severity = severity;
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.move_number > 0 {
            write!(f, "move {}: ", self.move_number)?;
        }
        write!(f, "{} ({}): {}", self.code, self.severity, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &c in Code::ALL {
            assert!(seen.insert(c.as_str()), "duplicate {c}");
            assert!(c.as_str().bytes().all(|b| b.is_ascii_lowercase() || b == b'-'), "{c}");
            assert_eq!(Code::from_name(c.as_str()), Some(c));
            assert!(!c.description().is_empty(), "{c} has no description");
            assert!(c.description().ends_with('.'), "{c}: a whole sentence: {}", c.description());
        }
    }

    #[test]
    fn illegal_move_codes_are_the_contracts() {
        let names: Vec<_> =
            [Code::Occupied, Code::Suicide, Code::Ko, Code::Superko, Code::OffBoard]
                .iter()
                .map(|c| c.as_str())
                .collect();
        assert_eq!(names, ["occupied", "suicide", "ko", "superko", "off-board"]);
    }
}
