//! Writing a game back as clean SGF: UTF-8, a few values in their normalised form, everything
//! else as read.
//!
//! `kifu clean` writes every game it keeps through [`rewrite`]. The game's whole tree is
//! written, variations, comments and unknown properties included, each value byte for byte as
//! it was in the (decoded) text, escapes and all (`scan::RawProperty::raw_values`).
//! Only these change, and each change is named in [`Rewrite::changes`]:
//! - **charset**: the text is written in UTF-8, and the root says so with `CA[UTF-8]` (added,
//!   or replacing the CA that named the charset it was decoded from). Bytes the reader could
//!   not decode stay U+FFFD.
//! - **RE**: the result in its normalised SGF form (`黑中盘胜` → `B+R`, `W+Resign` → `W+R`,
//!   `Jigo` → `0`), when kifu could read it; an unreadable RE is kept as written.
//! - **KM**: the komi in points (`KM[650]` from Fox → `6.5`, GoGoD's zi `KM[3.75]` → `7.5`,
//!   `KM[6,5]` → `6.5`). A komi kifu had to assume (KM absent, unreadable, or Fox's `KM[0]` in
//!   an even game) is left as it was: writing a guess would turn it into a recorded value.
//! - **HA and AB**: HA as a plain number; `HA[0]`, which is no `FF[4]` handicap, dropped
//!   (kept when black stones alone are set up, which an absent HA would make a handicap);
//!   handicap stones that Fox leaves out (HA without AB) written as `AB` in the root, on the
//!   points kifu placed them.
//! - **passes**: `B[tt]`/`W[tt]` on boards up to 19x19 become `B[]`/`W[]`, in variations too.
//! - **identifiers**: as sgf-parse reads them, uppercase letters only (`AddBlack` → `AB`); a
//!   property left with no letter at all cannot be written and is dropped. `FF[1]`-`FF[3]`
//!   becomes `FF[4]`, since the rest of the file now uses `FF[4]` forms.
//! - **structure**: the tree written is the one the reader read (the `tree` module): a game read
//!   only leniently is written as far as sgf-parse could read it, and only the first game tree
//!   of the text is written. The root gets a single `GM[1]` when it had a second GM or one that
//!   is not a number (both read as Go, both refused by sgf-parse's strict parser).
//! - **RU**, in one case only: when kifu inferred the rules from the komi's unit (Fox's
//!   hundredths of zi, GoGoD's zi) and the komi, now in points, no longer says so, the inferred
//!   rules are written (`RU[chinese]`), so that the game means the same thing read again.
//!
//! Every rewrite is checked by reading it back ([`super::sgf::read_game`], sgf-parse strict):
//! the written game must parse strictly with no parse finding and give the same board, setup,
//! moves, handicap, komi, rules, result, markup and metadata as the game read from the input
//! ([`Rewrite::check`]).
//!
//! Writing is iterative (an explicit stack), so trees tens of thousands of nodes deep are
//! written like any other. The layout is fixed, so the same input always gives the same bytes:
//! the root node on its first line, then the main line in lines of about 80 characters, each
//! variation starting on a new line.

use std::borrow::Cow;

use super::tree::{GameTree, ff4_identifier};
use super::{GameRecord, KomiOrigin, PendingGame, ReadOptions, ReadStatus, RulesOrigin};
use crate::finding::Code;
use crate::rules::{Color, outcome::format_points};

/// What a change touched, for counting changes over a corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// The charset: text re-encoded as UTF-8, `CA[UTF-8]` added or replacing another CA.
    Charset,
    /// RE in its normalised form.
    Result,
    /// KM in points.
    Komi,
    /// HA as a plain number, or `HA[0]` dropped.
    Handicap,
    /// Handicap stones the record left out, written as AB.
    HandicapStones,
    /// `[tt]` passes written `[]`.
    Passes,
    /// Identifiers written as `FF[4]` (uppercase letters only), or dropped when none was left.
    Identifiers,
    /// `FF[1]`-`FF[3]` written `FF[4]`.
    FileFormat,
    /// RU written because the komi's unit was what named the rules.
    Rules,
    /// A game read only leniently, written as far as it was read; GM made a single `GM[1]`.
    Structure,
}

impl ChangeKind {
    /// Every kind, in the order of the module documentation.
    pub const ALL: [ChangeKind; 10] = [
        ChangeKind::Charset,
        ChangeKind::Result,
        ChangeKind::Komi,
        ChangeKind::Handicap,
        ChangeKind::HandicapStones,
        ChangeKind::Passes,
        ChangeKind::Identifiers,
        ChangeKind::FileFormat,
        ChangeKind::Rules,
        ChangeKind::Structure,
    ];

    /// A short name for summaries: `charset`, `RE`, `KM`, `HA`, `AB`, `passes`, `identifiers`,
    /// `FF`, `RU`, `structure`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Charset => "charset",
            ChangeKind::Result => "RE",
            ChangeKind::Komi => "KM",
            ChangeKind::Handicap => "HA",
            ChangeKind::HandicapStones => "AB",
            ChangeKind::Passes => "passes",
            ChangeKind::Identifiers => "identifiers",
            ChangeKind::FileFormat => "FF",
            ChangeKind::Rules => "RU",
            ChangeKind::Structure => "structure",
        }
    }
}

/// One change made to a game, as a short phrase (`KM[650] -> KM[6.5] (Fox units)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What it touched.
    pub kind: ChangeKind,
    /// What it did.
    pub text: String,
}

/// A game written back as clean SGF.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewrite {
    /// One game tree in SGF, UTF-8, ending with a line break.
    pub text: String,
    /// What was changed, in the order of the module documentation.
    pub changes: Vec<Change>,
    /// The written game read back: `Ok`, or what differs from the game as first read. A
    /// difference is a bug in kifu; callers report it rather than trust the file.
    pub check: Result<(), String>,
}

/// Reads a game with [`PendingGame::read`] (the record every command sees, whichever reader
/// read it) and, when it could be read and `wanted` says so, writes it back clean from its
/// decoded text. The record is returned either way, for the caller's reports.
pub fn read_and_rewrite(
    pending: &PendingGame,
    options: &ReadOptions,
    wanted: impl FnOnce(&GameRecord) -> bool,
) -> (GameRecord, Option<Rewrite>) {
    let record = pending.read(options);
    if record.status == ReadStatus::Failed || !wanted(&record) {
        return (record, None);
    }
    let decoded = pending.decode(options);
    let rewrite = rewrite(&decoded.text, &record, options);
    (record, rewrite)
}

/// Writes the game whose decoded text is `text`, and which was read as `record`, as clean SGF
/// (see the module documentation). `None` when the game could not be read
/// ([`ReadStatus::Failed`]): there is no tree to write.
pub fn rewrite(text: &str, record: &GameRecord, options: &ReadOptions) -> Option<Rewrite> {
    if record.status == ReadStatus::Failed {
        return None;
    }
    let tree = GameTree::build(text);
    if tree.is_empty_root() {
        return None;
    }
    let mut plan = Plan::new(&tree, record, text);
    let mut written = plan.write(&tree);
    let mut check = check_rewrite(record, &written, options);
    if check.is_err() && record.rules.origin == RulesOrigin::Inferred && plan.komi_converted {
        // The komi's unit was the evidence for the rules: say the rules outright.
        if let Some(preset) = record.rules.preset {
            plan.root_additions.push(("RU".to_string(), vec![escape(preset.name)]));
            plan.note(
                ChangeKind::Rules,
                format!(
                    "RU[{}] added (rules inferred from the komi's unit, which KM in points no \
                 longer shows)",
                    preset.name
                ),
            );
            written = plan.write(&tree);
            check = check_rewrite(record, &written, options);
        }
    }
    Some(Rewrite { text: written, changes: plan.changes, check })
}

/// A new value for one property of one node.
struct Edit {
    node: u32,
    index: usize,
    /// The new values, escaped; `None` drops the property.
    values: Option<Vec<String>>,
}

/// What to change, decided once from the record, applied while writing.
struct Plan {
    edits: Vec<Edit>,
    /// Properties appended to the root: `(identifier, escaped values)`.
    root_additions: Vec<(String, Vec<String>)>,
    /// `CA[UTF-8]` must be inserted (the root has none), after this many root properties.
    insert_charset_at: Option<usize>,
    small_board: bool,
    changes: Vec<Change>,
    komi_converted: bool,
}

impl Plan {
    fn new(tree: &GameTree<'_>, record: &GameRecord, text: &str) -> Plan {
        let mut plan = Plan {
            edits: Vec::new(),
            root_additions: Vec::new(),
            insert_charset_at: None,
            small_board: record.size.width <= 19 && record.size.height <= 19,
            changes: Vec::new(),
            komi_converted: false,
        };
        plan.charset(tree, record);
        plan.game_type(tree);
        plan.result(tree, record);
        plan.komi(tree, record);
        plan.handicap(tree, record);
        plan.counted_changes(tree, record, text);
        plan
    }

    /// The first occurrence of `id` in the main line: the one the interpreter read.
    fn find(tree: &GameTree<'_>, id: &str) -> Option<(u32, usize, String)> {
        tree.main_line().find_map(|node| {
            tree.properties(node).iter().enumerate().find_map(|(i, p)| {
                (ff4_identifier(p.identifier) == id)
                    .then(|| (node, i, p.values().next().map(Cow::into_owned).unwrap_or_default()))
            })
        })
    }

    fn note(&mut self, kind: ChangeKind, text: String) {
        self.changes.push(Change { kind, text });
    }

    fn set(&mut self, node: u32, index: usize, value: &str) {
        self.edits.push(Edit { node, index, values: Some(vec![escape(value)]) });
    }

    fn remove(&mut self, node: u32, index: usize) {
        self.edits.push(Edit { node, index, values: None });
    }

    /// One `GM[1]` in the root: sgf-parse's strict parser refuses a second GM, or one that is
    /// not a number, both of which the reader took for Go.
    fn game_type(&mut self, tree: &GameTree<'_>) {
        let root = tree.properties(tree.root());
        let mut seen = false;
        for (i, p) in root.iter().enumerate() {
            if ff4_identifier(p.identifier) != "GM" {
                continue;
            }
            let value = p.values().next().map(Cow::into_owned).unwrap_or_default();
            if seen {
                self.note(
                    ChangeKind::Structure,
                    format!("a second GM[{value}] in the root dropped"),
                );
                self.remove(tree.root(), i);
            } else if value != "1" {
                self.note(ChangeKind::Structure, format!("GM[{value}] -> GM[1] (read as Go)"));
                self.set(tree.root(), i, "1");
            }
            seen = true;
        }
    }

    fn charset(&mut self, tree: &GameTree<'_>, record: &GameRecord) {
        let root = tree.properties(tree.root());
        let mut declared = None;
        for (i, p) in root.iter().enumerate() {
            if ff4_identifier(p.identifier) == "CA" {
                let values: Vec<Cow<'_, str>> = p.values().collect();
                if values.len() != 1 || values[0] != "UTF-8" {
                    let shown: String = values.iter().map(|v| format!("[{v}]")).collect();
                    self.note(ChangeKind::Charset, format!("CA{shown} -> CA[UTF-8]"));
                    self.set(tree.root(), i, "UTF-8");
                }
                declared.get_or_insert(i);
            }
        }
        if declared.is_none() {
            // After GM and FF when the root starts with them, as most files do.
            let lead = root
                .iter()
                .take_while(|p| matches!(ff4_identifier(p.identifier).as_ref(), "GM" | "FF"))
                .count();
            self.insert_charset_at = Some(lead);
            self.note(ChangeKind::Charset, "CA[UTF-8] added".to_string());
        }
        if record.encoding.name != "UTF-8" && record.encoding.name != "none" {
            self.note(ChangeKind::Charset, format!("text decoded from {}", record.encoding.name));
        }
        if record.encoding.replaced {
            self.note(ChangeKind::Charset, "undecodable bytes kept as U+FFFD".to_string());
        }
    }

    fn result(&mut self, tree: &GameTree<'_>, record: &GameRecord) {
        let Some(outcome) = record.result.outcome else { return };
        let Some((node, index, raw)) = Plan::find(tree, "RE") else { return };
        let normal = outcome.to_string();
        if raw != normal {
            self.note(ChangeKind::Result, format!("RE[{raw}] -> RE[{normal}]"));
            self.set(node, index, &normal);
        }
    }

    fn komi(&mut self, tree: &GameTree<'_>, record: &GameRecord) {
        let unit = match record.komi.origin {
            KomiOrigin::Assumed => return,
            KomiOrigin::Recorded => "",
            KomiOrigin::FoxUnits => " (Fox units)",
            KomiOrigin::Zi => " (zi)",
        };
        let Some((node, index, raw)) = Plan::find(tree, "KM") else { return };
        let normal = format_points(record.komi.points);
        if raw != normal {
            self.note(ChangeKind::Komi, format!("KM[{raw}] -> KM[{normal}]{unit}"));
            self.set(node, index, &normal);
            self.komi_converted = record.komi.origin != KomiOrigin::Recorded;
        }
    }

    fn handicap(&mut self, tree: &GameTree<'_>, record: &GameRecord) {
        if let Some((node, index, raw)) = Plan::find(tree, "HA") {
            let normal = record.handicap.to_string();
            let same_number = raw.trim().parse::<i64>().ok() == Some(i64::from(record.handicap));
            if record.handicap >= 2 && raw != normal && same_number {
                self.note(ChangeKind::Handicap, format!("HA[{raw}] -> HA[{normal}]"));
                self.set(node, index, &normal);
            } else if record.handicap == 0 && same_number && !black_stones_only(record) {
                // HA[0] (Fox writes it in every even game) is no FF[4] handicap; without it
                // the game reads the same, unless black stones alone are set up, which an
                // absent HA would make a handicap.
                self.note(ChangeKind::Handicap, format!("HA[{raw}] dropped (no handicap)"));
                self.remove(node, index);
            }
        }
        if record.handicap_implied {
            let mut points: Vec<String> = record
                .setup
                .iter()
                .filter(|p| p.stone == Some(Color::Black))
                .filter_map(|p| p.point.sgf())
                .collect();
            points.sort();
            self.note(
                ChangeKind::HandicapStones,
                format!("AB[{}] added (handicap stones the record left out)", points.join("][")),
            );
            self.root_additions.push(("AB".to_string(), points));
        }
    }

    /// Passes, identifiers, FF and structure: counted over the whole tree.
    fn counted_changes(&mut self, tree: &GameTree<'_>, record: &GameRecord, text: &str) {
        let mut passes = 0usize;
        let mut renamed: Vec<(String, String)> = Vec::new();
        let mut renamed_count = 0usize;
        let mut unnamed = 0usize;
        for node in 0..tree.len() as u32 {
            for (i, p) in tree.properties(node).iter().enumerate() {
                let id = ff4_identifier(p.identifier);
                if id.is_empty() {
                    unnamed += 1;
                    continue;
                }
                if id != p.identifier {
                    renamed_count += 1;
                    if renamed.len() < 3 && !renamed.iter().any(|(raw, _)| raw == p.identifier) {
                        renamed.push((p.identifier.to_string(), id.to_string()));
                    }
                }
                if self.small_board && (id == "B" || id == "W") && is_tt(p) {
                    passes += 1;
                }
                if node == tree.root() && id == "FF" {
                    let value = p.values().next().map(Cow::into_owned).unwrap_or_default();
                    if matches!(value.trim(), "1" | "2" | "3") {
                        self.note(ChangeKind::FileFormat, format!("FF[{value}] -> FF[4]"));
                        self.set(node, i, "4");
                    }
                }
            }
        }
        if passes > 0 {
            self.note(ChangeKind::Passes, format!("{passes} pass(es) [tt] -> []"));
        }
        if renamed_count > 0 {
            let shown: Vec<String> =
                renamed.iter().map(|(raw, id)| format!("{raw:?} -> {id}")).collect();
            self.note(
                ChangeKind::Identifiers,
                format!("{renamed_count} identifier(s) as FF[4]: {}", shown.join(", ")),
            );
        }
        if unnamed > 0 {
            self.note(
                ChangeKind::Identifiers,
                format!("{unnamed} propert(ies) without a letter dropped"),
            );
        }
        if record.status == ReadStatus::Lenient {
            let found = super::scan::shape(text).nodes;
            self.note(
                ChangeKind::Structure,
                format!("read leniently: written as read, {} of {found} nodes", tree.len()),
            );
        }
    }

    /// The clean text of the whole tree.
    fn write(&self, tree: &GameTree<'_>) -> String {
        enum Step {
            Open,
            Close,
            Sequence(u32),
        }
        let mut out = Output { text: String::with_capacity(4096), line_start: 0 };
        out.text.push('(');
        let mut stack = vec![Step::Close, Step::Sequence(tree.root())];
        while let Some(step) = stack.pop() {
            match step {
                Step::Open => {
                    out.newline();
                    out.text.push('(');
                }
                Step::Close => out.text.push(')'),
                Step::Sequence(mut node) => loop {
                    self.node(tree, node, &mut out);
                    let mut children = tree.children(node);
                    match (children.next(), children.next()) {
                        (None, _) => break,
                        (Some(only), None) => node = only,
                        (Some(_), Some(_)) => {
                            let all: Vec<u32> = tree.children(node).collect();
                            for &child in all.iter().rev() {
                                stack.extend([Step::Close, Step::Sequence(child), Step::Open]);
                            }
                            break;
                        }
                    }
                },
            }
        }
        out.text.push('\n');
        out.text
    }

    fn node(&self, tree: &GameTree<'_>, node: u32, out: &mut Output) {
        let root = node == tree.root();
        if !root && out.text.len() - out.line_start > LINE {
            out.newline();
        }
        out.text.push(';');
        for (i, p) in tree.properties(node).iter().enumerate() {
            if root && self.insert_charset_at == Some(i) {
                out.property("CA", ["UTF-8"]);
            }
            let id = ff4_identifier(p.identifier);
            if id.is_empty() {
                continue;
            }
            if let Some(edit) = self.edits.iter().find(|e| e.node == node && e.index == i) {
                if let Some(values) = &edit.values {
                    out.property(&id, values.iter().map(String::as_str));
                }
            } else if self.small_board && (id == "B" || id == "W") && is_tt(p) {
                out.property(&id, [""]);
            } else {
                out.property(&id, p.raw_values());
            }
        }
        if root {
            if self.insert_charset_at == Some(tree.properties(node).len()) {
                out.property("CA", ["UTF-8"]);
            }
            for (id, values) in &self.root_additions {
                out.property(id, values.iter().map(String::as_str));
            }
            out.newline();
        }
    }
}

/// Where a line is broken between nodes.
const LINE: usize = 78;

struct Output {
    text: String,
    line_start: usize,
}

impl Output {
    fn newline(&mut self) {
        if self.text.len() > self.line_start {
            self.text.push('\n');
            self.line_start = self.text.len();
        }
    }

    /// Writes `ID[v1][v2]...`; values are already escaped.
    fn property<'v>(&mut self, id: &str, values: impl IntoIterator<Item = &'v str>) {
        self.text.push_str(id);
        for v in values {
            self.text.push('[');
            self.text.push_str(v);
            self.text.push(']');
            if let Some(at) = v.rfind('\n') {
                self.line_start = self.text.len() - (v.len() - at - 1) - 1;
            }
        }
    }
}

/// Whether the stones set up before the first move are two or more black ones and no white:
/// what makes an absent HA a handicap.
fn black_stones_only(record: &GameRecord) -> bool {
    let before_first_move = record.later_setup.iter().filter(|s| s.after_moves == 0);
    let stones = record.setup.iter().chain(before_first_move.flat_map(|s| &s.placements));
    let (mut black, mut white) = (0, 0);
    for p in stones {
        match p.stone {
            Some(Color::Black) => black += 1,
            Some(Color::White) => white += 1,
            None => {}
        }
    }
    white == 0 && black >= 2
}

fn is_tt(p: &super::scan::RawProperty<'_>) -> bool {
    let mut values = p.raw_values();
    matches!((values.next(), values.next()), (Some(v), None) if v.trim() == "tt")
}

/// A value as SGF text: `]` and `\` escaped.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Codes of findings that say a text was not clean SGF: none may come back from a rewrite.
const PARSE_CODES: &[Code] = &[
    Code::Syntax,
    Code::Lenient,
    Code::Unclosed,
    Code::Junk,
    Code::NoGame,
    Code::ByteOrderMark,
    Code::Encoding,
    Code::UnknownCharset,
    Code::CharsetGuessed,
    Code::BadIdentifier,
    Code::Limit,
];

/// Reads `written` back and compares it with `original` (see the module documentation).
pub fn check_rewrite(
    original: &GameRecord,
    written: &str,
    options: &ReadOptions,
) -> Result<(), String> {
    let encoding = super::TextEncoding {
        name: "UTF-8",
        origin: super::CharsetOrigin::Declared,
        replaced: false,
    };
    let again = super::sgf::read_game(written, original.location.clone(), encoding, options);
    if again.status != ReadStatus::Strict {
        return Err("sgf-parse's strict parser does not accept the written game".to_string());
    }
    if let Some(f) = again.findings.iter().find(|f| PARSE_CODES.contains(&f.code)) {
        return Err(format!("the written game has a {} finding: {}", f.code.as_str(), f.message));
    }
    let differs = |what: &str| Err(format!("the written game has a different {what}"));
    let sorted = |r: &GameRecord| {
        let mut v: Vec<_> = r.setup.iter().map(|p| (p.point, p.stone.map(Color::index))).collect();
        v.sort();
        v
    };
    let metadata = |r: &GameRecord| -> Vec<(String, String)> {
        // CA, FF and GM are what the rewrite normalises; the rest must be as read.
        let format = |k: &str| matches!(k, "CA" | "FF" | "GM");
        r.properties
            .iter()
            .filter(|(k, _)| !format(k))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    if again.size != original.size {
        return differs("board size");
    }
    if sorted(&again) != sorted(original)
        || again.later_setup != original.later_setup
        || again.to_move != original.to_move
    {
        return differs("setup");
    }
    if again.moves != original.moves {
        return differs("main line");
    }
    if again.handicap != original.handicap {
        return differs("handicap");
    }
    if again.komi.points != original.komi.points {
        return differs("komi");
    }
    if again.rules.preset.map(|p| p.name) != original.rules.preset.map(|p| p.name)
        || again.rules.ruleset != original.rules.ruleset
    {
        return differs("ruleset");
    }
    if again.result.outcome != original.result.outcome {
        return differs("result");
    }
    if again.markup != original.markup {
        return differs("territory markup");
    }
    if metadata(&again) != metadata(original) {
        return differs("metadata");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{CharsetOrigin, GameLocation, TextEncoding};

    fn location() -> GameLocation {
        GameLocation { source: "test.sgf".into(), game: 1, offset: 0, line: 1 }
    }

    fn read(text: &str) -> GameRecord {
        let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
        super::super::sgf::read_game(text, location(), encoding, &ReadOptions::default())
    }

    fn texts(r: &Rewrite) -> Vec<String> {
        r.changes.iter().map(|c| c.text.clone()).collect()
    }

    fn clean(text: &str) -> Rewrite {
        let record = read(text);
        let rewrite = rewrite(text, &record, &ReadOptions::default()).expect("a tree to write");
        assert_eq!(rewrite.check, Ok(()), "{text}\n->\n{}", rewrite.text);
        rewrite
    }

    #[test]
    fn fox_komi_implied_handicap_and_results_are_written_normalised() {
        // A Fox handicap game: komi in hundredths, HA without AB, White first, a Chinese RE.
        let fox = "(;GM[1]FF[4]SZ[19]AP[foxwq]KM[50]HA[3]RE[黑中盘胜]PB[甲]PW[乙];W[qc];B[qe])";
        let r = clean(fox);
        assert_eq!(
            r.text,
            "(;GM[1]FF[4]CA[UTF-8]SZ[19]AP[foxwq]KM[0.5]HA[3]RE[B+R]PB[甲]PW[乙]AB[dd][dp][pd]\n\
             ;W[qc];B[qe])\n"
        );
        assert_eq!(
            texts(&r),
            [
                "CA[UTF-8] added",
                "RE[黑中盘胜] -> RE[B+R]",
                "KM[50] -> KM[0.5] (Fox units)",
                "AB[dd][dp][pd] added (handicap stones the record left out)",
            ]
        );
        let kinds: Vec<ChangeKind> = r.changes.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [ChangeKind::Charset, ChangeKind::Result, ChangeKind::Komi, ChangeKind::HandicapStones]
        );
    }

    #[test]
    fn variations_comments_and_unknown_properties_are_kept_as_written() {
        let text = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]XX[private \\] value]C[a\\\\b]\
                    ;B[ee]C[first](;W[cc];B[tt])(;W[gg]N[other]))";
        let r = clean(text);
        assert_eq!(
            r.text,
            "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]XX[private \\] value]C[a\\\\b]\n\
             ;B[ee]C[first]\n(;W[cc];B[])\n(;W[gg]N[other]))\n"
        );
        assert_eq!(texts(&r), ["1 pass(es) [tt] -> []"]);
    }

    #[test]
    fn old_style_identifiers_and_file_format_are_brought_to_ff4() {
        let text = "(;FF[3]GaMe[1]SiZe[9]CA[ISO-8859-1]PlayerBlack[Ann];Black[ee];White[tt])";
        let r = clean(text);
        assert_eq!(r.text, "(;FF[4]GM[1]SZ[9]CA[UTF-8]PB[Ann]\n;B[ee];W[])\n");
        let changes = texts(&r);
        assert!(changes.contains(&"CA[ISO-8859-1] -> CA[UTF-8]".to_string()), "{changes:?}");
        assert!(changes.contains(&"FF[3] -> FF[4]".to_string()));
        assert!(changes.iter().any(|c| c.starts_with("5 identifier(s) as FF[4]")));
    }

    #[test]
    fn a_zi_komi_that_named_the_rules_leaves_them_written() {
        // Fox's hundredths of zi: KM[325] is 6.5 points under Chinese rules, inferred from the
        // unit. In points, 6.5 alone would suggest Japanese rules.
        let text = "(;GM[1]AP[foxwq]KM[325]RE[W+0.5];B[pd];W[dp])";
        let r = clean(text);
        assert!(r.text.contains("KM[6.5]") && r.text.contains("RU[chinese]"), "{}", r.text);
    }

    #[test]
    fn a_game_read_leniently_is_written_as_read_and_parses_strictly() {
        let text = "(;GM[1]SZ[9];B[ee];W[cc]))(;B[gg])";
        let record = read(text);
        assert_eq!(record.status, ReadStatus::Lenient);
        let r = rewrite(text, &record, &ReadOptions::default()).unwrap();
        assert_eq!(r.check, Ok(()));
        assert!(sgf_parse::parse(&r.text).is_ok());
        assert!(texts(&r).iter().any(|c| c.starts_with("read leniently")), "{:?}", r.changes);
    }

    #[test]
    fn a_root_with_two_game_types_or_a_word_for_one_gets_a_single_gm() {
        // GNU Go's regression games (NNGS) repeat GM and FF; sgfc's test file writes words.
        let r = clean("(;FF[4]GM[1]GM[1]FF[4]SZ[9];B[ee])");
        assert_eq!(r.text, "(;FF[4]GM[1]FF[4]CA[UTF-8]SZ[9]\n;B[ee])\n");
        let r = clean("(;GM[game of go]SZ[9];B[ee])");
        assert_eq!(r.text, "(;GM[1]CA[UTF-8]SZ[9]\n;B[ee])\n");
    }

    #[test]
    fn a_double_charset_and_a_zero_handicap_are_normalised() {
        let r = clean("(;GM[1]CA[UTF-8][UTF-8]HA[0]KM[6.5];B[pd])");
        assert_eq!(r.text, "(;GM[1]CA[UTF-8]KM[6.5]\n;B[pd])\n");
        assert_eq!(texts(&r), ["CA[UTF-8][UTF-8] -> CA[UTF-8]", "HA[0] dropped (no handicap)"]);
        // With black stones alone set up, HA[0] is what keeps them from being a handicap.
        let r = clean("(;GM[1]CA[UTF-8]HA[0]AB[dd][pp];W[pd])");
        assert!(r.text.contains("HA[0]"), "{}", r.text);
    }

    #[test]
    fn unreadable_games_are_not_written() {
        let text = "(;GM[2]SZ[8];B[aa])";
        let record = read(text);
        assert_eq!(record.status, ReadStatus::Failed);
        assert_eq!(rewrite(text, &record, &ReadOptions::default()), None);
    }

    #[test]
    fn deep_trees_are_written_without_recursion() {
        let moves: String = (0..20_000)
            .map(|i| {
                let (c, x, y) = if i % 2 == 0 {
                    ('B', i % 19, (i / 19) % 19)
                } else {
                    ('W', 18 - i % 19, 18 - (i / 19) % 19)
                };
                format!(";{c}[{}{}]", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
            })
            .collect();
        let text = format!("(;GM[1]SZ[19]{moves})");
        let record = read(&text);
        let r = rewrite(&text, &record, &ReadOptions::default()).unwrap();
        assert_eq!(r.check, Ok(()));
        assert!(r.text.lines().all(|l| l.len() <= LINE + 12), "lines stay short");
    }

    #[test]
    fn escaping_covers_brackets_and_backslashes() {
        assert_eq!(escape("a]b\\c:d"), "a\\]b\\\\c:d");
    }
}
