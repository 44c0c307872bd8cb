//! Reading `KM`: the number as written, then its unit.
//!
//! `FF[4]` gives komi no unit, and real files use three:
//! - points, the usual case (`KM[6.5]`, `KM[0.50]`, `KM[-5.5]`);
//! - Fox's hundredths: `KM[650]` = 6.5 points, `KM[750]` = 7.5, `KM[550]`, `KM[450]`, `KM[700]`,
//!   `KM[50]` = 0.5; and hundredths of zi for Chinese-rules games: `KM[375]` = 3.75 zi = 7.5
//!   points, `KM[325]` = 6.5, `KM[275]` = 5.5, `KM[350]` = 7. Recognised only in records that
//!   carry a Fox marker (see [`super::game_info::FoxEvidence`]) and only for whole numbers of at
//!   least 50 that are multiples of 25, so that no plausible komi is ever divided;
//! - zi (子, two points each), as GoGoD writes Chinese komi: `KM[3.75]` = 7.5 points. A komi
//!   whose fraction is a quarter (.25 or .75) and whose size is below 5 is read as zi: no rules
//!   use a quarter-point komi, and 3.75 zi is the Chinese komi.
//!
//! The number itself is read more generously than `FF[4]`'s Real: `6,5` (decimal comma), `6 1/2`,
//! `6½`, a trailing unit (`7.5目`, `6.5 points`), and `3又3/4子` (zi). What sgf-parse would
//! reject is still reported (`bad-value`) by the interpreter, which also decides what an absent
//! or unreadable komi becomes (the ruleset's default, marked as assumed).

use super::KomiOrigin;

/// A komi value as written, before its unit is decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KomiText {
    /// The number.
    pub value: f64,
    /// Written with the zi unit (`子`): already in zi, whatever the context says.
    pub zi: bool,
}

/// Reads the number in a `KM` value; `None` when there is none.
pub fn read_komi_text(raw: &str) -> Option<KomiText> {
    let mut s = raw.trim();
    if let Ok(v) = s.parse::<f64>() {
        return v.is_finite().then_some(KomiText { value: v, zi: false });
    }
    // Prefixes from UI text: 黑贴3又3/4子 ("Black gives 3 3/4 stones").
    for prefix in ["黑贴", "黒貼", "贴", "貼"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.trim();
        }
    }
    let mut zi = false;
    if let Some(rest) = s.strip_suffix('子') {
        s = rest.trim();
        zi = true;
    } else {
        for unit in ["points", "point", "pts", "pt", "目", "点", "點"] {
            if let Some(rest) = s.strip_suffix(unit) {
                s = rest.trim();
                break;
            }
        }
    }
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest.trim()),
        None => (false, s.strip_prefix('+').unwrap_or(s).trim()),
    };
    let value = unsigned(s)?;
    Some(KomiText { value: if negative { -value } else { value }, zi })
}

fn unsigned(s: &str) -> Option<f64> {
    let mut s = s;
    let mut extra = 0.0;
    for half in ['½', '半'] {
        if let Some(rest) = s.strip_suffix(half) {
            s = rest.trim();
            extra = 0.5;
        }
    }
    if s.is_empty() {
        return (extra > 0.0).then_some(extra);
    }
    if let Some((whole, frac)) = s.split_once(['又', ' ']) {
        return Some(number(whole.trim())? + fraction(frac.trim())? + extra);
    }
    if s.contains('/') {
        return Some(fraction(s)? + extra);
    }
    Some(number(s)? + extra)
}

fn number(s: &str) -> Option<f64> {
    decimal(s).filter(|v| v.is_finite())
}

/// Digits with at most a decimal point or comma: `3`, `3.5`, `3,5`, `.5` (infinite when there
/// are hundreds of digits). Komi and result margins are written alike, so `result` reads its
/// numbers with this too.
pub(super) fn decimal(s: &str) -> Option<f64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b',') {
        return None;
    }
    if !s.starts_with('.') && !s.contains(',') {
        // Nearly every komi and margin (`6.5`, `3`): read as written, with no copy to rewrite.
        return s.parse::<f64>().ok();
    }
    let s = s.replace(',', ".");
    let s = if s.starts_with('.') { format!("0{s}") } else { s };
    s.parse::<f64>().ok()
}

fn fraction(s: &str) -> Option<f64> {
    let (n, d) = s.split_once('/')?;
    let (n, d) = (number(n.trim())?, number(d.trim())?);
    (d > 0.0).then(|| n / d)
}

/// What kifu knows about a record when it decides the unit of its komi.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitContext {
    /// The record carries a Fox marker: Fox's hundredths are possible.
    pub fox: bool,
}

/// A komi in points, and how it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct KomiReading {
    /// Points given to White.
    pub points: f64,
    /// Where the value came from.
    pub origin: KomiOrigin,
    /// The value was in zi (GoGoD, Fox's hundredths of zi, `子`): a sign of Chinese rules.
    pub in_zi: bool,
    /// When a unit was converted, a sentence saying how.
    pub note: Option<String>,
}

/// The komi in points, deciding the unit of `text` in `context`.
pub fn to_points(text: KomiText, context: UnitContext) -> KomiReading {
    let v = text.value;
    if text.zi {
        let points = v * 2.0;
        return KomiReading {
            points,
            origin: KomiOrigin::Zi,
            in_zi: true,
            note: Some(format!("komi {v} zi is {points} points")),
        };
    }
    if context.fox && v.fract() == 0.0 && v.abs() >= 50.0 && v % 25.0 == 0.0 {
        let hundredths = v / 100.0;
        // Quarters (3.75, 3.25, 2.75) and the round zi values 2.5..4 are zi; the rest points.
        let in_zi = (hundredths * 2.0).fract() != 0.0 || (2.5..4.0).contains(&hundredths.abs());
        let points = if in_zi { hundredths * 2.0 } else { hundredths };
        let unit = if in_zi { "hundredths of zi" } else { "hundredths of a point" };
        return KomiReading {
            points,
            origin: KomiOrigin::FoxUnits,
            in_zi,
            note: Some(format!("Fox writes komi in {unit}: KM[{v}] is {points} points")),
        };
    }
    if is_quarter(v) && v.abs() < 5.0 {
        let points = v * 2.0;
        return KomiReading {
            points,
            origin: KomiOrigin::Zi,
            in_zi: true,
            note: Some(format!(
                "a quarter-point komi is komi in zi (GoGoD): {v} zi is {points} points"
            )),
        };
    }
    KomiReading { points: v, origin: KomiOrigin::Recorded, in_zi: false, note: None }
}

fn is_quarter(v: f64) -> bool {
    let f = (v * 4.0).rem_euclid(4.0);
    f == 1.0 || f == 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(raw: &str, fox: bool) -> Option<(f64, KomiOrigin)> {
        let text = read_komi_text(raw)?;
        let reading = to_points(text, UnitContext { fox });
        Some((reading.points, reading.origin))
    }

    #[test]
    fn komi_values_from_real_files() {
        use KomiOrigin::*;
        type Case = (&'static str, bool, Option<(f64, KomiOrigin)>);
        let table: &[Case] = &[
            ("6.5", false, Some((6.5, Recorded))),
            ("7.50", false, Some((7.5, Recorded))),
            ("0.50", false, Some((0.5, Recorded))),
            ("7.500000", false, Some((7.5, Recorded))),
            ("-5.5", false, Some((-5.5, Recorded))),
            ("0", false, Some((0.0, Recorded))),
            ("6,5", false, Some((6.5, Recorded))),
            ("6 1/2", false, Some((6.5, Recorded))),
            ("6½", false, Some((6.5, Recorded))),
            ("7.5目", false, Some((7.5, Recorded))),
            (" 6.5 ", false, Some((6.5, Recorded))),
            ("3又3/4子", false, Some((7.5, Zi))),
            ("黑贴3又3/4子", false, Some((7.5, Zi))),
            ("2又3/4子", false, Some((5.5, Zi))),
            // GoGoD zi
            ("3.75", false, Some((7.5, Zi))),
            ("3.25", false, Some((6.5, Zi))),
            ("2.75", false, Some((5.5, Zi))),
            // Fox hundredths, only with a Fox marker
            ("375", true, Some((7.5, FoxUnits))),
            ("325", true, Some((6.5, FoxUnits))),
            ("275", true, Some((5.5, FoxUnits))),
            ("350", true, Some((7.0, FoxUnits))),
            ("650", true, Some((6.5, FoxUnits))),
            ("750", true, Some((7.5, FoxUnits))),
            ("550", true, Some((5.5, FoxUnits))),
            ("450", true, Some((4.5, FoxUnits))),
            ("700", true, Some((7.0, FoxUnits))),
            ("50", true, Some((0.5, FoxUnits))),
            ("0", true, Some((0.0, Recorded))),
            ("7.5", true, Some((7.5, Recorded))),
            ("650", false, Some((650.0, Recorded))),
            ("none", false, None),
            ("", false, None),
            ("inf", false, None),
        ];
        for (raw, fox, want) in table {
            assert_eq!(points(raw, *fox), *want, "KM[{raw}] fox={fox}");
        }
    }
}
