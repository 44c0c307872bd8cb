//! The `FF[4]` properties kifu knows: their kind (move, setup, root, game information) and the
//! shape of their values, and the check that decides whether a value is well formed.
//!
//! The check is sgf-parse 4.2.8's, rule for rule (`go::Prop::new` and `parse_general_prop`):
//! a value it would turn into `Prop::Invalid` fails here too. That keeps the interpreter's
//! `bad-value` findings the same whichever tokenizer feeds it, and the sgf-parse adapter checks
//! on every property that the two agree (see [`super::sgf`]). A few of sgf-parse's choices are
//! stricter than `FF[4]` (`HA[0]`, `AP[foxwq]` without a version, an empty `TB[]`); the
//! interpreter reads those values anyway and says so.

/// What a property is for (`FF[4]` "property type").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// B, W and their companions (KO, MN, BL, WL, OB, OW, move annotations).
    Move,
    /// AB, AW, AE, PL.
    Setup,
    /// Only in the root node: AP, CA, FF, GM, ST, SZ.
    Root,
    /// Game information: PB, PW, KM, HA, RE, RU, DT, ...
    GameInfo,
    /// Everything else: comments, markup, annotations, inherited view properties.
    Other,
}

/// The shape of a property's values, as sgf-parse checks them for a Go game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// No value: `[]` (KO, DO, IT).
    None,
    /// One move: `[]` (pass) or a point.
    Move,
    /// One integer within the bounds.
    Number {
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
    },
    /// One real number.
    Real,
    /// `1` or `2`.
    Double,
    /// `B` or `W`.
    Color,
    /// One text value, anything.
    Text,
    /// Points and `ul:lr` rectangles; `empty_ok` says whether the list may be empty.
    Points {
        /// Whether no point at all is accepted (an "elist").
        empty_ok: bool,
    },
    /// `point:point` pairs, distinct points, no pair twice (AR, LN).
    PointPairs,
    /// `point:text` labels, at least one (LB).
    Labels,
    /// `name:version` (AP).
    Application,
    /// Nothing, or `number:text` (FG).
    Figure,
    /// `n` or `columns:rows`, each 0..=255 (SZ; the range is checked by the interpreter).
    Size,
}

/// One known property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The `FF[4]` identifier.
    pub id: &'static str,
    /// What it is for.
    pub kind: Kind,
    /// The shape of its values.
    pub value: ValueType,
}

const fn spec(id: &'static str, kind: Kind, value: ValueType) -> Spec {
    Spec { id, kind, value }
}

const NUMBER: ValueType = ValueType::Number { min: i64::MIN, max: i64::MAX };
const LIST: ValueType = ValueType::Points { empty_ok: false };
const ELIST: ValueType = ValueType::Points { empty_ok: true };

/// Every property sgf-parse types for Go, with its kind and value shape.
pub const SPECS: &[Spec] = &[
    spec("B", Kind::Move, ValueType::Move),
    spec("W", Kind::Move, ValueType::Move),
    spec("KO", Kind::Move, ValueType::None),
    spec("MN", Kind::Move, NUMBER),
    spec("BL", Kind::Move, ValueType::Real),
    spec("WL", Kind::Move, ValueType::Real),
    spec("OB", Kind::Move, NUMBER),
    spec("OW", Kind::Move, NUMBER),
    spec("BM", Kind::Move, ValueType::Double),
    spec("TE", Kind::Move, ValueType::Double),
    spec("DO", Kind::Move, ValueType::None),
    spec("IT", Kind::Move, ValueType::None),
    spec("AB", Kind::Setup, LIST),
    spec("AW", Kind::Setup, LIST),
    spec("AE", Kind::Setup, LIST),
    spec("PL", Kind::Setup, ValueType::Color),
    spec("AP", Kind::Root, ValueType::Application),
    spec("CA", Kind::Root, ValueType::Text),
    spec("FF", Kind::Root, ValueType::Number { min: 0, max: 4 }),
    spec("GM", Kind::Root, NUMBER),
    spec("ST", Kind::Root, ValueType::Number { min: 0, max: 3 }),
    spec("SZ", Kind::Root, ValueType::Size),
    spec("AN", Kind::GameInfo, ValueType::Text),
    spec("BR", Kind::GameInfo, ValueType::Text),
    spec("BT", Kind::GameInfo, ValueType::Text),
    spec("CP", Kind::GameInfo, ValueType::Text),
    spec("DT", Kind::GameInfo, ValueType::Text),
    spec("EV", Kind::GameInfo, ValueType::Text),
    spec("GN", Kind::GameInfo, ValueType::Text),
    spec("GC", Kind::GameInfo, ValueType::Text),
    spec("ON", Kind::GameInfo, ValueType::Text),
    spec("OT", Kind::GameInfo, ValueType::Text),
    spec("PB", Kind::GameInfo, ValueType::Text),
    spec("PC", Kind::GameInfo, ValueType::Text),
    spec("PW", Kind::GameInfo, ValueType::Text),
    spec("RE", Kind::GameInfo, ValueType::Text),
    spec("RO", Kind::GameInfo, ValueType::Text),
    spec("RU", Kind::GameInfo, ValueType::Text),
    spec("SO", Kind::GameInfo, ValueType::Text),
    spec("TM", Kind::GameInfo, ValueType::Real),
    spec("US", Kind::GameInfo, ValueType::Text),
    spec("WR", Kind::GameInfo, ValueType::Text),
    spec("WT", Kind::GameInfo, ValueType::Text),
    spec("HA", Kind::GameInfo, ValueType::Number { min: 2, max: i64::MAX }),
    spec("KM", Kind::GameInfo, ValueType::Real),
    spec("C", Kind::Other, ValueType::Text),
    spec("N", Kind::Other, ValueType::Text),
    spec("DM", Kind::Other, ValueType::Double),
    spec("GB", Kind::Other, ValueType::Double),
    spec("GW", Kind::Other, ValueType::Double),
    spec("HO", Kind::Other, ValueType::Double),
    spec("UC", Kind::Other, ValueType::Double),
    spec("V", Kind::Other, ValueType::Real),
    spec("AR", Kind::Other, ValueType::PointPairs),
    spec("LN", Kind::Other, ValueType::PointPairs),
    spec("CR", Kind::Other, LIST),
    spec("MA", Kind::Other, LIST),
    spec("SL", Kind::Other, LIST),
    spec("SQ", Kind::Other, LIST),
    spec("TR", Kind::Other, LIST),
    spec("DD", Kind::Other, ELIST),
    spec("VW", Kind::Other, ELIST),
    spec("TB", Kind::Other, ELIST),
    spec("TW", Kind::Other, ELIST),
    spec("LB", Kind::Other, ValueType::Labels),
    spec("FG", Kind::Other, ValueType::Figure),
    spec("PM", Kind::Other, ValueType::Number { min: 1, max: 2 }),
];

/// The spec of a known `FF[4]` identifier.
pub fn lookup(id: &str) -> Option<&'static Spec> {
    // Every known identifier is one or two capitals: one table read, no string comparison
    // (this runs for every property of every game).
    lookup_slot(slot(id.as_bytes())?)
}

/// [`lookup`] of the identifier in `slot` (below [`SLOTS`], as [`slot`] gives).
#[inline]
pub fn lookup_slot(slot: usize) -> Option<&'static Spec> {
    SPECS.get(usize::from(*INDEX.get(slot)?))
}

/// Marks a slot of [`INDEX`] that no known identifier uses.
const UNKNOWN: u8 = u8::MAX;

/// Number of one- and two-capital identifiers: the places [`slot`] gives.
pub const SLOTS: usize = 26 + 26 * 26;

/// The place of a one- or two-capital identifier in [`INDEX`] (below [`SLOTS`]).
pub const fn slot(id: &[u8]) -> Option<usize> {
    match id {
        [a] if a.is_ascii_uppercase() => Some((*a - b'A') as usize),
        [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => {
            Some(26 + (*a - b'A') as usize * 26 + (*b - b'A') as usize)
        }
        _ => None,
    }
}

/// For every one- and two-capital identifier, its index in [`SPECS`] or [`UNKNOWN`]; built at
/// compile time.
static INDEX: [u8; 26 + 26 * 26] = {
    let mut table = [UNKNOWN; 26 + 26 * 26];
    let mut i = 0;
    while i < SPECS.len() {
        match slot(SPECS[i].id.as_bytes()) {
            Some(at) => table[at] = i as u8,
            None => panic!("a known identifier is one or two capitals"),
        }
        i += 1;
    }
    table
};

/// Whether the value types point to the board: their values mean nothing in a game that is
/// not Go, so their checks are dropped there.
pub fn is_board_value(value: ValueType) -> bool {
    matches!(
        value,
        ValueType::Move | ValueType::Points { .. } | ValueType::PointPairs | ValueType::Labels
    )
}

/// Whether `values` are well formed for `value`, exactly as sgf-parse decides for a Go game.
pub fn well_formed<S: AsRef<str>>(value: ValueType, values: &[S]) -> bool {
    let all = |f: &dyn Fn(&str) -> bool| values.iter().all(|v| f(v.as_ref()));
    match value {
        ValueType::None => match values {
            [] => true,
            [v] => v.as_ref().is_empty(),
            _ => false,
        },
        ValueType::Move => single(values).is_some_and(|v| v.is_empty() || point(v).is_some()),
        ValueType::Number { min, max } => single(values)
            .and_then(|v| v.parse::<i64>().ok())
            .is_some_and(|n| (min..=max).contains(&n)),
        ValueType::Real => single(values).is_some_and(|v| v.parse::<f64>().is_ok()),
        ValueType::Double => single(values).is_some_and(|v| v == "1" || v == "2"),
        ValueType::Color => single(values).is_some_and(|v| v == "B" || v == "W"),
        ValueType::Text => values.len() == 1,
        ValueType::Points { empty_ok } => {
            (empty_ok || !values.is_empty()) && all(&|v| expand(v).is_some())
        }
        ValueType::PointPairs => {
            let mut seen: Vec<(Point, Point)> = Vec::with_capacity(values.len());
            for v in values {
                let Some((a, b)) = compose(v.as_ref()) else { return false };
                let (Some(a), Some(b)) = (point(a), point(b)) else { return false };
                if a == b || seen.contains(&(a, b)) {
                    return false;
                }
                seen.push((a, b));
            }
            true
        }
        ValueType::Labels => {
            !values.is_empty() && all(&|v| compose(v).is_some_and(|(p, _)| point(p).is_some()))
        }
        ValueType::Application => single(values).is_some_and(|v| compose(v).is_some()),
        ValueType::Figure => match values {
            [] => true,
            [v] => {
                let v = v.as_ref();
                v.is_empty() || compose(v).is_some_and(|(n, _)| n.parse::<i64>().is_ok())
            }
            _ => false,
        },
        ValueType::Size => single(values).is_some_and(|v| match compose(v) {
            Some((w, h)) => w.parse::<u8>().is_ok() && h.parse::<u8>().is_ok(),
            None if v.contains(':') => false,
            None => v.parse::<u8>().is_ok(),
        }),
    }
}

type Point = (u8, u8);

fn single<S: AsRef<str>>(values: &[S]) -> Option<&str> {
    match values {
        [v] => Some(v.as_ref()),
        _ => None,
    }
}

/// Two letters `a..z`/`A..Z` (sgf-parse counts characters, so `é` is one).
pub fn point(v: &str) -> Option<Point> {
    // Both characters must be ASCII letters, so a point is exactly two bytes: a value of two
    // characters with a multi-byte one among them is longer, and is no point either way.
    match v.as_bytes() {
        &[x, y] => Some((letter(x)?, letter(y)?)),
        _ => None,
    }
}

fn letter(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// Splits `a:b` when the value holds exactly one `:` (sgf-parse's `split_compose`).
pub fn compose(v: &str) -> Option<(&str, &str)> {
    let (a, b) = v.split_once(':')?;
    (!b.contains(':')).then_some((a, b))
}

/// The points a list value names: one point, or every point of a `ul:lr` rectangle. `None`
/// when the value is neither, which is exactly when [`well_formed`] rejects it in a list.
pub fn expand(v: &str) -> Option<impl Iterator<Item = Point>> {
    let (ul, lr) = match compose(v) {
        Some((a, b)) => (point(a)?, point(b)?),
        None if v.contains(':') => return None,
        None => {
            let p = point(v)?;
            (p, p)
        }
    };
    if ul.0 > lr.0 || ul.1 > lr.1 {
        return None;
    }
    Some((ul.1..=lr.1).flat_map(move |y| (ul.0..=lr.0).map(move |x| (x, y))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_parse::SgfProp;
    use sgf_parse::go::Prop;

    /// The check agrees with sgf-parse on a table of values chosen at its edges.
    #[test]
    fn agrees_with_sgf_parse_on_edge_values() {
        let cases: &[(&str, &[&str])] = &[
            ("B", &["dd"]),
            ("B", &[""]),
            ("B", &["tt"]),
            ("B", &["zZ"]),
            ("B", &["aab"]),
            ("B", &[" aa"]),
            ("B", &["a"]),
            ("B", &["aa", "bb"]),
            ("B", &["1a"]),
            ("W", &["é1"]),
            ("KO", &[""]),
            ("KO", &["x"]),
            ("MN", &["+5"]),
            ("MN", &["5 "]),
            ("HA", &["0"]),
            ("HA", &["1"]),
            ("HA", &["2"]),
            ("HA", &["7.5"]),
            ("KM", &["6.5"]),
            ("KM", &["6,5"]),
            ("KM", &["375"]),
            ("KM", &["inf"]),
            ("KM", &["1e3"]),
            ("KM", &[".5"]),
            ("KM", &[""]),
            ("FF", &["4"]),
            ("FF", &["5"]),
            ("ST", &["4"]),
            ("PM", &["0"]),
            ("GM", &["1"]),
            ("GM", &["go"]),
            ("PL", &["B"]),
            ("PL", &["b"]),
            ("PL", &[""]),
            ("DM", &["1"]),
            ("DM", &["3"]),
            ("AB", &["aa", "bb"]),
            ("AB", &["aa:cc"]),
            ("AB", &["cc:aa"]),
            ("AB", &["aa:aa"]),
            ("AB", &["aa:bb:cc"]),
            ("AB", &[""]),
            ("AB", &["aa", "aa"]),
            ("TB", &[""]),
            ("TB", &["aa:ss"]),
            ("VW", &["aa"]),
            ("AR", &["aa:bb", "bb:aa"]),
            ("AR", &["aa:aa"]),
            ("AR", &["aa:bb", "aa:bb"]),
            ("LB", &["aa:A"]),
            ("LB", &["aa:a:b"]),
            ("LB", &["aa"]),
            ("AP", &["foxwq"]),
            ("AP", &["GNU Go:3.8"]),
            ("AP", &["a:b:c"]),
            ("FG", &[""]),
            ("FG", &["257:Figure 1"]),
            ("FG", &["x:Figure"]),
            ("SZ", &["19"]),
            ("SZ", &["19:13"]),
            ("SZ", &["19:19"]),
            ("SZ", &["300"]),
            ("SZ", &["-1"]),
            ("SZ", &["19:"]),
            ("SZ", &[""]),
            ("SZ", &["19", "19"]),
            ("PB", &["a", "b"]),
            ("C", &[""]),
        ];
        for (id, values) in cases {
            let owned: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let invalid = matches!(Prop::new(id.to_string(), owned), Prop::Invalid(..));
            let spec = lookup(id).unwrap();
            assert_eq!(well_formed(spec.value, values), !invalid, "{id}{values:?}");
        }
    }

    #[test]
    fn every_spec_is_typed_by_sgf_parse() {
        for s in SPECS {
            let prop = Prop::new(s.id.to_string(), vec!["\u{0}".to_string()]);
            // A value no type accepts except text: known properties become Invalid or typed,
            // never Unknown.
            assert!(!matches!(prop, Prop::Unknown(..)), "{} is unknown to sgf-parse", s.id);
        }
    }

    #[test]
    fn lookup_finds_every_spec_and_nothing_else() {
        for s in SPECS {
            assert_eq!(lookup(s.id), Some(s));
        }
        for id in ["", "b", "BB", "ABC", "Bx", "ZZ", "B ", "黑"] {
            assert_eq!(lookup(id), None, "{id}");
        }
    }

    #[test]
    fn rectangles_expand_row_by_row() {
        let pts: Vec<_> = expand("ab:bc").unwrap().collect();
        assert_eq!(pts, [(0, 1), (1, 1), (0, 2), (1, 2)]);
        assert!(expand("bc:ab").is_none());
        assert_eq!(expand("zz").unwrap().count(), 1);
    }
}
