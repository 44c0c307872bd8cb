//! Limits on what one input may cost: their names for `--limit NAME=VALUE`, and the measure of
//! a game's shape that is checked against them before the game is parsed.
//!
//! kifu reads files from anywhere, and the most trusted parsers put safety on untrusted input
//! first (pgn-reader: "no panics, no denial of service, linear time"). Each limit below guards a
//! cost that would otherwise grow without bound with a hostile input, and each is met with a
//! `limit` finding, never a failure of the run:
//!
//! | limit | guards | checked |
//! |---|---|---|
//! | `file-size` | bytes read into memory | before a file, member or standard input is read |
//! | `archive-total`, `expansion-ratio`, `ratio-floor` | zip bombs | while an archive expands |
//! | `games` | per-game bookkeeping of a file of millions of tiny trees | while a file is split |
//! | `nodes` | sgf-parse's tree (about 450 bytes per node) | before a game is parsed |
//! | `depth` | recursion in sgf-parse (its trees are freed recursively) | before a game is parsed |
//! | `value-length` | one huge value (a 100 MB comment) | before a game is parsed |
//! | `board-side` | replay and scoring cost, or a curator's choice | after a game is parsed |
//!
//! [`game_shape`] measures a game's text in one pass (values are skipped with `memchr`), and
//! stops as soon as a limit is passed, so refusing a hostile game costs no more than reading it.

use memchr::memchr2;

use super::Limits;
use crate::finding::{Code, Finding};

/// One configurable limit: its name on the command line, what it means, and its field.
#[derive(Clone, Copy, Debug)]
pub struct LimitSpec {
    /// The name for `--limit NAME=VALUE`.
    pub name: &'static str,
    /// What it limits, for `--help` and the README.
    pub meaning: &'static str,
    /// The smallest value allowed.
    pub min: u64,
    /// The largest value allowed (`none` sets this).
    pub max: u64,
    get: fn(&Limits) -> u64,
    set: fn(&mut Limits, u64),
}

impl LimitSpec {
    /// The limit's value in `limits`.
    pub fn get(&self, limits: &Limits) -> u64 {
        (self.get)(limits)
    }
}

/// A [`LimitSpec`] for the `u64` field `$field` of [`Limits`]: from `$min` up, `none` meaning no
/// limit at all. Written once so that a limit's `get` and `set` cannot name different fields.
macro_rules! unbounded_limit {
    ($name:literal, $field:ident, $min:literal, $meaning:literal) => {
        LimitSpec {
            name: $name,
            meaning: $meaning,
            min: $min,
            max: u64::MAX,
            get: |l| l.$field,
            set: |l, v| l.$field = v,
        }
    };
}

/// Every limit, in the order `--help` and the README list them.
pub const LIMITS: &[LimitSpec] = &[
    unbounded_limit!(
        "file-size",
        max_file_size,
        1,
        "largest file, archive member or standard input read, in bytes"
    ),
    unbounded_limit!(
        "archive-total",
        max_archive_total,
        1,
        "most bytes one archive may expand to, all members together"
    ),
    unbounded_limit!(
        "expansion-ratio",
        max_expansion_ratio,
        1,
        "largest ratio of expanded to compressed size of an archive (zip bombs)"
    ),
    unbounded_limit!(
        "ratio-floor",
        ratio_floor,
        0,
        "expansion up to this many bytes is never refused for its ratio"
    ),
    unbounded_limit!(
        "games",
        max_games_per_file,
        1,
        "most game trees read from one file; the rest are one unparsed game"
    ),
    unbounded_limit!(
        "nodes",
        max_game_nodes,
        1,
        "most nodes in one game tree, variations included"
    ),
    unbounded_limit!(
        "depth",
        max_tree_depth,
        1,
        "deepest game tree: longest line of nodes, or nesting of variations"
    ),
    unbounded_limit!(
        "value-length",
        max_value_length,
        1,
        "longest property value, in bytes of decoded text"
    ),
    LimitSpec {
        name: "board-side",
        meaning: "largest board side (SZ) read; larger boards are unparsed games",
        min: 1,
        max: 52,
        get: |l| u64::from(l.max_board_side),
        // `max` is 52: the value always fits.
        set: |l, v| l.max_board_side = u8::try_from(v).unwrap_or(52),
    },
];

impl Limits {
    /// Sets the limit named `name` (see [`LIMITS`]) from text: a number, with an optional
    /// binary suffix `K`, `M` or `G` (`512M` = 512 MiB) and `_` between digits, or `none`
    /// for no limit (the largest value the limit allows).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let spec = LIMITS.iter().find(|s| s.name == name.trim()).ok_or_else(|| {
            let names: Vec<&str> = LIMITS.iter().map(|s| s.name).collect();
            format!("unknown limit `{}`; the limits are {}", name.trim(), names.join(", "))
        })?;
        let number = parse_amount(value.trim())
            .ok_or_else(|| format!("`{value}` is not a number (examples: 5000, 64M, 2G, none)"))?;
        let number = if number == u64::MAX { spec.max } else { number };
        if number < spec.min || number > spec.max {
            return Err(format!(
                "limit {} must lie between {} and {}, not {number}",
                spec.name, spec.min, spec.max
            ));
        }
        (spec.set)(self, number);
        Ok(())
    }

    /// Applies `NAME=VALUE` settings separated by commas, e.g. `games=5000,file-size=64M`.
    pub fn apply(&mut self, settings: &str) -> Result<(), String> {
        for setting in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = setting
                .split_once('=')
                .ok_or_else(|| format!("`{setting}` is not NAME=VALUE (example: games=5000)"))?;
            self.set(name, value)?;
        }
        Ok(())
    }
}

/// A limit's value as `--limit` takes it: `512M`, `4G`, `1_000_000`, `none`.
pub fn format_amount(value: u64) -> String {
    if value == u64::MAX {
        return "none".to_owned();
    }
    for (shift, suffix) in [(30, 'G'), (20, 'M'), (10, 'K')] {
        if value >= 1 << shift && value.is_multiple_of(1 << shift) {
            return format!("{}{suffix}", value >> shift);
        }
    }
    let digits = value.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push('_');
        }
        grouped.push(c);
    }
    grouped
}

/// The limits as a Markdown table (name, default, meaning), for the README.
pub fn markdown_table() -> String {
    let defaults = Limits::default();
    let mut table = String::from("| limit | default | what it bounds |\n|---|---|---|\n");
    for spec in LIMITS {
        let default = format_amount(spec.get(&defaults));
        table.push_str(&format!("| `{}` | `{default}` | {} |\n", spec.name, spec.meaning));
    }
    table
}

/// A number with an optional binary suffix; `none` is `u64::MAX`.
fn parse_amount(text: &str) -> Option<u64> {
    if text.eq_ignore_ascii_case("none") {
        return Some(u64::MAX);
    }
    let (digits, shift) = match text.as_bytes().last()?.to_ascii_uppercase() {
        b'K' => (&text[..text.len() - 1], 10),
        b'M' => (&text[..text.len() - 1], 20),
        b'G' => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') {
        return None;
    }
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// The shape of one game's text, as far as the limits go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameShape {
    /// Nodes (`;` outside values).
    pub nodes: u64,
    /// The longest line of nodes from the root: every node is the child of the node before it
    /// in its sequence, and a variation's first node the child of the node before the `(`.
    /// This is the depth sgf-parse's tree reaches, and what its recursive teardown costs.
    pub depth: u64,
    /// The deepest nesting of `(`.
    pub nesting: u64,
    /// The longest property value, in bytes (an unclosed one runs to the end of the text).
    pub longest_value: u64,
}

/// Measures the game text `text` (a decoded game tree, as sgf-parse will see it), stopping
/// at the first limit it passes: `Err` is the `limit` finding that refuses the game.
pub fn game_shape(text: &[u8], limits: &Limits) -> Result<GameShape, Finding> {
    let mut shape = GameShape::default();
    // The depth before each open `(`: as long as the nesting, which the depth limit caps.
    let mut saved: Vec<u64> = Vec::new();
    let mut depth: u64 = 0;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'[' => {
                let end = value_end(text, i + 1);
                let length = (end - (i + 1)) as u64;
                shape.longest_value = shape.longest_value.max(length);
                if length > limits.max_value_length {
                    return Err(refusal(format!(
                        "a property value of {length} bytes, longer than the limit of {} \
                         (--limit value-length=N): the game was not parsed",
                        limits.max_value_length
                    )));
                }
                i = end + 1;
            }
            b'(' => {
                saved.push(depth);
                shape.nesting = shape.nesting.max(saved.len() as u64);
                if shape.nesting > limits.max_tree_depth {
                    return Err(too_deep("variations nested", shape.nesting, limits));
                }
                i += 1;
            }
            b')' => {
                depth = saved.pop().unwrap_or(0);
                i += 1;
            }
            b';' => {
                shape.nodes += 1;
                depth += 1;
                shape.depth = shape.depth.max(depth);
                if shape.nodes > limits.max_game_nodes {
                    return Err(refusal(format!(
                        "more than {} nodes (--limit nodes=N): the game was not parsed",
                        limits.max_game_nodes
                    )));
                }
                if shape.depth > limits.max_tree_depth {
                    return Err(too_deep("a line of nodes", shape.depth, limits));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    Ok(shape)
}

/// The offset of the `]` that closes a value starting at `from`, or the end of the text.
fn value_end(text: &[u8], mut from: usize) -> usize {
    loop {
        let Some(k) = text.get(from..).and_then(|rest| memchr2(b']', b'\\', rest)) else {
            return text.len();
        };
        let p = from + k;
        if text[p] == b']' {
            return p;
        }
        from = p + 2;
    }
}

fn too_deep(what: &str, depth: u64, limits: &Limits) -> Finding {
    refusal(format!(
        "{what} more than {} deep (reached {depth}; --limit depth=N): the game was not parsed",
        limits.max_tree_depth
    ))
}

fn refusal(message: String) -> Finding {
    Finding::new(Code::Limit, 0, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> GameShape {
        game_shape(text.as_bytes(), &Limits::default()).expect("within the default limits")
    }

    #[test]
    fn nodes_depth_and_values_are_measured_as_sgf_parse_builds_the_tree() {
        // Root, then B[aa] and W[bb] in sequence, then two variations of one and two nodes.
        let s = shape("(;GM[1]C[a ; ( ) \\] b];B[aa];W[bb](;B[cc])(;B[dd];W[ee]))");
        assert_eq!(s, GameShape { nodes: 6, depth: 5, nesting: 2, longest_value: 12 });
        // OGS style: one variation per move.
        assert_eq!(shape("(;GM[1](;B[aa](;W[bb](;B[cc]))))").depth, 4);
    }

    #[test]
    fn each_limit_refuses_with_its_name() {
        let tight = Limits {
            max_game_nodes: 3,
            max_tree_depth: 3,
            max_value_length: 4,
            ..Limits::default()
        };
        let refused = |text: &str| game_shape(text.as_bytes(), &tight).unwrap_err().message;
        assert!(refused("(;A[];B[];C[](;D[]))").contains("nodes=N"));
        assert!(refused("(;A[](;B[](;C[](;D[]))))").contains("depth=N"));
        assert!(refused("(((((;A[]").contains("variations nested"));
        assert!(refused("(;C[12345])").contains("value-length=N"));
        assert!(refused("(;C[12345").contains("value-length=N"), "an unclosed value counts too");
        assert!(game_shape(b"(;A[1234];B[](;C[]))", &tight).is_ok());
    }

    #[test]
    fn limits_are_set_by_name_with_units() {
        let mut limits = Limits::default();
        limits.apply("games=5_000, file-size=64M,value-length=2k").unwrap();
        assert_eq!(limits.max_games_per_file, 5000);
        assert_eq!(limits.max_file_size, 64 << 20);
        assert_eq!(limits.max_value_length, 2048);
        limits.set("depth", "none").unwrap();
        assert_eq!(limits.max_tree_depth, u64::MAX);
        limits.set("board-side", "none").unwrap();
        assert_eq!(limits.max_board_side, 52);
        assert!(limits.set("board-side", "53").unwrap_err().contains("between 1 and 52"));
        assert!(limits.set("games", "0").is_err());
        assert!(limits.set("moves", "3").unwrap_err().contains("file-size"));
        for bad in ["", "M", "1.5M", "-3", "1__", "99999999999G", "ten"] {
            assert!(limits.set("nodes", bad).is_err(), "{bad:?}");
        }
        assert!(limits.apply("games").is_err());
    }

    #[test]
    fn amounts_print_as_they_are_typed() {
        let printed: Vec<String> =
            [512 << 20, 4 << 30, 200, 1_000_000, 52, 0, u64::MAX].map(format_amount).into();
        assert_eq!(printed, ["512M", "4G", "200", "1_000_000", "52", "0", "none"]);
        for text in &printed {
            assert_eq!(parse_amount(text).map(format_amount).as_ref(), Some(text));
        }
    }

    #[test]
    fn every_limit_reads_back_what_was_set() {
        for spec in LIMITS {
            let mut limits = Limits::default();
            let value = spec.min.max(1).min(spec.max);
            limits.set(spec.name, &value.to_string()).unwrap();
            assert_eq!(spec.get(&limits), value, "{}", spec.name);
        }
    }
}
