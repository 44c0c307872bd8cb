//! Reading `RE`: every way real records write who won, turned into an [`Outcome`].
//!
//! `FF[4]` allows `B+3.5`, `W+R`/`W+Resign`, `B+T`/`B+Time`, `B+F`/`B+Forfeit`, `0`/`Draw`,
//! `Void` and `?`. Real collections write much more (notes `sgf-in-the-wild.md` §3.1); this
//! module reads:
//!
//! - the `FF[4]` forms in any case, long or short (`black+resign`, `w+time`, `B+Time Over`), with
//!   decimal commas (`B+2,5`), fractions (`W+2 1/2`, `W+.5`, `W+1半`) and a doubtful `?`
//!   (`B+1?` is read as `B+1`);
//! - bare winners (`B+`, `W`, `White`): the winner is known, the margin is not;
//! - English sentences (`Black resigns.`, `White wins by 12 points`, `B wins on time`);
//! - GoGoD notes in brackets: `(zi)`/`{zi}` (the margin is in zi and is doubled to points),
//!   `(moves beyond 150 not known)` and its variants (the record is truncated), and any other
//!   bracketed note, which is dropped (`W+ (but B does not lose)`, `B+R {connect ko}`);
//! - Chinese, Japanese and Korean results: `黑中盘胜` (B+R), `黑胜3又3/4子` (B+7.5: a margin in
//!   zi, 子, counts twice in points), `白胜1/4子` (W+0.5), `黑胜2目半` (B+2.5), `黑胜半目`,
//!   `黑胜3点`, `黑不计点胜` (B+, no margin), `黑超时胜` (B+T), `白胜-黑超时` (W+T), `白犯规胜`
//!   (W+F), `X弃权` (X forfeits: the other side wins by F), `白方强退告负` (B+F), `和棋` (draw),
//!   `双负` (both lose: Void), `没有结果` (unknown); `黒中押し勝ち` (B+R), `白1目半勝ち`,
//!   `黒 5目半勝ち`, `持碁` (draw), `時間切れ勝ち` (T), `反則勝ち` (F); `흑 불계승` (B+R),
//!   `백 시간승` (W+T), `흑 3집반승` (B+3.5), `집승` (won by counting, margin not given);
//!   full stops (`黑中盘胜。`) and Chinese numerals (`黑胜二目半`);
//! - aeb collection oddities: `Jigo` (draw), `Unfinished`, `Game suspended` and `Both lost`
//!   (no result), `B+bye` (forfeit), `X+`/`Y+` (the player named `PX`/`PY` won, colours unknown:
//!   read as unknown), `B+0`/`W+0` (the winner of an even count, e.g. Black under Ing's 8-point
//!   komi: winner known, no margin);
//! - Fox oddities: `B+0.0`, `W+0.02`, `B+0.03`. Fox writes these for games decided otherwise
//!   than by counting (the records stop mid-game); a margin of zero, or one below a quarter
//!   point that is not a multiple of a quarter, is read as "winner known, margin not recorded".
//!   Quarter margins (`W+0.25`, `B+1.75`) are in zi, as Fox writes its Chinese results, and
//!   are doubled to points (W+0.5, B+3.5): no count in points ends in a quarter;
//! - Fox `B+Offline` (the opponent left: forfeit) and old-server `B+Illegal`, `W+Repetition`
//!   (the opponent broke a rule: forfeit);
//! - UEC computer-go cup codes: `B+V` (illegal move: forfeit), `B+AW`, `B+AJ`, `W+RO`, `B+J`
//!   (agreed, operator's or referee's decision: winner known, margin not), `B+J5.5` (referee's
//!   count), `D+J` (referee's draw).
//!
//! Anything else is unreadable: [`read_result`] returns `None` and the caller keeps the raw
//! text in a `result-unreadable` finding. An empty `RE[]` is not a result at all and is left to
//! the caller.

use std::borrow::Cow;

use super::komi::decimal;
use crate::rules::{Color, Outcome, WinBy};

/// What an `RE` value says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResultReading {
    /// How the game ended.
    pub outcome: Outcome,
    /// The margin was written in zi (`子`, GoGoD `(zi)`) and has been doubled to points.
    pub in_zi: bool,
    /// The record says it stops before the end of the game (GoGoD "moves beyond 150 not
    /// known").
    pub truncated: bool,
}

/// Reads an `RE` value; `None` when it cannot be understood.
pub fn read_result(raw: &str) -> Option<ResultReading> {
    if let Some(reading) = plain_result(raw).or_else(|| short_plus_result(raw)) {
        return Some(reading);
    }
    read_any_result(raw)
}

/// The next commonest results, a colour, `+` and one short word or number (`W+Resign`,
/// `B+Time`, `W+2.5`: tom-9d, 826 of 826 games), read as the general reading
/// ([`read_any_result`]) reads them, without its notes, trimming, search for CJK and lists of
/// whole-result words: such a value holds no note, nothing to trim and no CJK, is no special
/// word (those with a `+` start with `d`, `x` or `y`), and the general reading gives exactly
/// [`how_won`] of the lower-cased word after the `+`, or nothing when that does not read
/// (then left to the general reading all the same).
fn short_plus_result(raw: &str) -> Option<ResultReading> {
    const LONGEST: usize = 16;
    let [colour, b'+', word @ ..] = raw.as_bytes() else { return None };
    let winner = match colour.to_ascii_lowercase() {
        b'b' => Color::Black,
        b'w' => Color::White,
        _ => return None,
    };
    // A trailing `.` is trimmed by the general reading: left to it.
    if word.is_empty()
        || word.len() > LONGEST
        || word.last() == Some(&b'.')
        || !word.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'.')
    {
        return None;
    }
    let mut buffer = [0u8; LONGEST];
    let lower = &mut buffer[..word.len()];
    lower.copy_from_slice(word);
    lower.make_ascii_lowercase();
    let by = how_won(std::str::from_utf8(lower).ok()?)?;
    let reading =
        ResultReading { outcome: Outcome::Win { winner, by }, in_zi: false, truncated: false };
    Some(quarters_in_zi(reading))
}

/// The commonest results of all, `B+R`, `W+T`, `B+F` (fox-pro: 9,088 of 10,349 games), read
/// in one look: what the general reading ([`read_any_result`]) makes of them, without its
/// lower-cased copy and its lists of words (about 1,100 instructions a game).
fn plain_result(raw: &str) -> Option<ResultReading> {
    let &[colour, b'+', how] = raw.as_bytes() else { return None };
    let winner = match colour.to_ascii_lowercase() {
        b'b' => Color::Black,
        b'w' => Color::White,
        _ => return None,
    };
    let by = match how.to_ascii_lowercase() {
        b'r' => WinBy::Resignation,
        b't' => WinBy::Time,
        b'f' => WinBy::Forfeit,
        _ => return None,
    };
    Some(ResultReading { outcome: Outcome::Win { winner, by }, in_zi: false, truncated: false })
}

/// [`read_result`] of any value.
fn read_any_result(raw: &str) -> Option<ResultReading> {
    // Most results (`W+R`, `B+3.5`) hold no note: nothing to split off, nothing to copy.
    let (main, notes) = if raw.contains(['(', '{', '[', '（']) {
        let (main, notes) = split_notes(raw);
        (Cow::Owned(main), notes)
    } else {
        (Cow::Borrowed(raw), Vec::new())
    };
    let mut reading = ResultReading { outcome: Outcome::Unknown, in_zi: false, truncated: false };
    for note in &notes {
        let lower = note.to_lowercase();
        if lower.trim() == "zi" {
            reading.in_zi = true;
        }
        if is_truncation_note(&lower) {
            reading.truncated = true;
        }
    }
    let main = strip_sentence_end(main.trim());
    // CJK first when CJK characters are present, but `W+1半` is a Western form with a CJK
    // half: fall back to the Western reading.
    let cjk = if main.chars().any(is_cjk) { read_cjk(main) } else { None };
    let (outcome, in_zi) = match cjk {
        Some(found) => found,
        None => (read_western(main)?, false),
    };
    reading.in_zi |= in_zi;
    reading.outcome = match outcome {
        Outcome::Win { winner, by: WinBy::Points(m) } if reading.in_zi && !in_zi => {
            Outcome::Win { winner, by: WinBy::Points(m * 2.0) }
        }
        other => other,
    };
    Some(quarters_in_zi(reading))
}

/// A reading whose margin in points ends in a quarter, read again as a margin in zi.
///
/// Counted in points, with a komi of whole or half points, a margin is a multiple of half a
/// point; counted in zi against Chinese komi (3¾ zi), it ends in a quarter. Fox writes its
/// Chinese results so, unmarked (`W+1.25` for W+2.5), as it writes komi in hundredths of zi
/// (`KM[375]`, read likewise by [`super::komi`]): the shared corpus's fox-pro has 30 such
/// results, all with Fox komi in zi; doubled, 17 are kifu's recount under the record's rules
/// and komi, as written none.
fn quarters_in_zi(reading: ResultReading) -> ResultReading {
    match reading.outcome {
        Outcome::Win { winner, by: WinBy::Points(m) }
            if !reading.in_zi && (m * 2.0).fract() != 0.0 =>
        {
            ResultReading {
                outcome: Outcome::Win { winner, by: WinBy::Points(m * 2.0) },
                in_zi: true,
                ..reading
            }
        }
        _ => reading,
    }
}

/// Splits bracketed notes (`(...)`, `{...}`, `[...]`, `（...）`) from the rest.
fn split_notes(raw: &str) -> (String, Vec<String>) {
    let mut main = String::with_capacity(raw.len());
    let mut notes = Vec::new();
    let mut note = String::new();
    let mut depth = 0usize;
    for c in raw.chars() {
        match c {
            '(' | '{' | '[' | '（' => {
                if depth > 0 {
                    note.push(c);
                }
                depth += 1;
            }
            ')' | '}' | ']' | '）' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    notes.push(std::mem::take(&mut note));
                } else {
                    note.push(c);
                }
            }
            _ if depth > 0 => note.push(c),
            _ => main.push(c),
        }
    }
    if depth > 0 {
        // An unclosed note: keep what was read as a note all the same.
        notes.push(note);
    }
    (main, notes)
}

fn is_truncation_note(lower: &str) -> bool {
    let moves = ["moves beyond", "oves after", "urther moves", "moves after"];
    let unknown = ["not known", "not recorded", "not given", "unknown", "not available"];
    moves.iter().any(|m| lower.contains(m)) && unknown.iter().any(|u| lower.contains(u))
}

fn strip_sentence_end(s: &str) -> &str {
    s.trim_end_matches(['。', '！', '!', '．']).trim_end()
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // kana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
    )
}

// ---------------------------------------------------------------------------------------------
// Western forms

fn read_western(main: &str) -> Option<Outcome> {
    super::game_info::lowercased(main.trim(), read_western_lower)
}

/// [`read_western`] of the text lower-cased.
fn read_western_lower(lower: &str) -> Option<Outcome> {
    let lower = lower.trim_end_matches('.').trim();
    if let Some(o) = special_word(lower) {
        return Some(o);
    }
    // `B+...` and friends; a `,` or `;` ends the result and starts a remark
    // (`B+, human judge for communication error`).
    let head = lower.split([',', ';']).next().unwrap_or(lower).trim();
    if let Some(o) = plus_form(lower, lower).or_else(|| plus_form(head, lower)) {
        return Some(o);
    }
    sentence(lower)
}

fn special_word(lower: &str) -> Option<Outcome> {
    Some(match lower {
        "0" | "0.0" | "draw" | "jigo" | "d" | "tie" | "=" | "d+j" | "d+" | "drawn" => Outcome::Draw,
        "void" | "no result" | "noresult" | "nr" | "both lost" | "both lose" | "both loss"
        | "bl" | "suspended" | "game suspended" | "not played" | "cancelled" | "canceled"
        | "annulled" => Outcome::NoResult,
        "?" | "unknown" | "unfinished" | "not finished" | "adjourned" | "has adjourned"
        | "in progress" | "playing" | "n/a" | "x+" | "y+" | "x+f" | "y+f" | "x+r" | "y+r" => {
            Outcome::Unknown
        }
        _ => return None,
    })
}

fn colour_word(word: &str) -> Option<Color> {
    match word {
        "b" | "black" | "blk" => Some(Color::Black),
        "w" | "white" | "wht" => Some(Color::White),
        _ => None,
    }
}

/// `B+...`, `black+...`, bare `B`/`White`. `whole` is the full lower-cased text, for the
/// conflict check on a trailing remark.
fn plus_form(head: &str, whole: &str) -> Option<Outcome> {
    if let Some(winner) = colour_word(head) {
        return Some(Outcome::Win { winner, by: WinBy::Unspecified });
    }
    let (who, after) = head.split_once('+')?;
    let winner = colour_word(who.trim())?;
    let after = after.trim();
    let (how, remark) = match how_won(after) {
        Some(by) => (by, ""),
        None => {
            // `B+1.5 ? W+timeout`: the result, then a remark after a space.
            let (first, rest) = after.split_once(char::is_whitespace)?;
            (how_won(first.trim())?, rest)
        }
    };
    // A remark that names the other side as winner contradicts the result.
    let other = match winner {
        Color::Black => ["w+", "white+"],
        Color::White => ["b+", "black+"],
    };
    if other.iter().any(|o| remark.contains(o))
        || (remark.is_empty() && whole != head && {
            let tail = &whole[head.len()..];
            other.iter().any(|o| tail.contains(o))
        })
    {
        return None;
    }
    Some(Outcome::Win { winner, by: how })
}

/// What follows `B+`.
fn how_won(after: &str) -> Option<WinBy> {
    Some(match after {
        "" => WinBy::Unspecified,
        "r" | "res" | "resign" | "resigns" | "resigned" | "resignation" => WinBy::Resignation,
        "t" | "time" | "timeout" | "time out" | "time over" | "time-out" | "on time" | "t/o"
        | "timeover" => WinBy::Time,
        "f" | "forfeit" | "forfeited" | "default" | "bye" | "illegal" | "illegal move"
        | "repetition" | "offline" | "disqualification" | "dq" | "foul" | "v" => WinBy::Forfeit,
        // UEC cup: agreed (AW, AJ), operator (RO), referee (J) decisions.
        "aw" | "aj" | "ro" | "j" => WinBy::Unspecified,
        _ => {
            let number = after.strip_prefix('j').unwrap_or(after);
            return margin(western_number(number)?);
        }
    })
}

/// A margin in points: zero, or a Fox-style `0.02`, means "no margin recorded"; a value that
/// is not a multiple of a quarter point (`1 5/6`) keeps the winner and drops the margin.
fn margin(points: f64) -> Option<WinBy> {
    if !points.is_finite() || points < 0.0 {
        return None;
    }
    let quarters = points * 4.0;
    if points == 0.0 || (quarters - quarters.round()).abs() > 1e-9 {
        return Some(WinBy::Unspecified);
    }
    Some(WinBy::Points(points))
}

/// `3`, `3.5`, `3,5`, `.5`, `2 1/2`, `1/2`, `1半`, `3½`, `half`, with an optional trailing `?`
/// or unit (`pts`, `points`).
fn western_number(s: &str) -> Option<f64> {
    let mut s = s.trim().trim_end_matches('?').trim();
    for unit in ["points", "point", "pts", "pt", "p", "moku"] {
        if let Some(rest) = s.strip_suffix(unit) {
            s = rest.trim();
            break;
        }
    }
    if s == "half" {
        return Some(0.5);
    }
    let mut extra = 0.0;
    for half in ['半', '½'] {
        if let Some(rest) = s.strip_suffix(half) {
            s = rest.trim();
            extra = 0.5;
        }
    }
    if s.is_empty() {
        return (extra > 0.0).then_some(extra);
    }
    if let Some((whole, frac)) = s.split_once(' ') {
        return Some(decimal(whole)? + fraction(frac.trim())? + extra);
    }
    if s.contains('/') {
        return Some(fraction(s)? + extra);
    }
    Some(decimal(s)? + extra)
}

fn fraction(s: &str) -> Option<f64> {
    let (n, d) = s.split_once('/')?;
    let (n, d) = (decimal(n.trim())?, decimal(d.trim())?);
    (d > 0.0).then(|| n / d)
}

/// English sentences: `Black resigns.`, `White wins by 12 points`, `B wins on time`,
/// `white lost on time`.
fn sentence(lower: &str) -> Option<Outcome> {
    let mut words = lower.split(|c: char| c.is_whitespace() || c == '.' || c == ',');
    let subject = colour_word(words.next()?.trim_end_matches('+'))?;
    let rest: Vec<&str> = words.filter(|w| !w.is_empty()).collect();
    let verb = *rest.first()?;
    let by = if rest.iter().any(|w| w.starts_with("resign")) {
        WinBy::Resignation
    } else if rest.iter().any(|w| *w == "time" || w.starts_with("timeout")) {
        WinBy::Time
    } else if rest.iter().any(|w| w.starts_with("forfeit") || *w == "default") {
        WinBy::Forfeit
    } else if let Some(i) = rest.iter().position(|w| *w == "by") {
        rest.get(i + 1)
            .and_then(|n| western_number(n))
            .and_then(margin)
            .unwrap_or(WinBy::Unspecified)
    } else {
        WinBy::Unspecified
    };
    let winner = if verb.starts_with("resign") || verb.starts_with("lose") || verb == "lost" {
        subject.opponent()
    } else if verb.starts_with("win") || verb == "won" || verb == "wins" {
        subject
    } else {
        return None;
    };
    Some(Outcome::Win { winner, by })
}

// ---------------------------------------------------------------------------------------------
// Chinese, Japanese and Korean forms

const DRAW_WORDS: &[&str] = &["和棋", "和局", "平局", "持碁", "ジゴ", "무승부", "打平", "和"];
const VOID_WORDS: &[&str] =
    &["双负", "雙負", "無勝負", "无胜负", "無勝敗", "両負け", "两败", "兩敗", "双方负"];
const UNKNOWN_WORDS: &[&str] =
    &["没有结果", "沒有結果", "未完", "打ち掛け", "打掛", "未知", "无结果", "無結果"];
const WIN_MARKS: &[&str] = &["胜", "勝", "승", "嬴", "赢", "贏"];
const LOSE_MARKS: &[&str] =
    &["负", "負", "패", "敗", "认输", "認輸", "投了", "弃权", "棄權", "投降", "告负"];
const RESIGN_MARKS: &[&str] = &["中盘", "中盤", "中押", "불계", "认输", "認輸", "投了", "投降"];
const TIME_MARKS: &[&str] = &["超时", "超時", "时间", "時間", "시간", "时限", "時限", "切れ"];
const FORFEIT_MARKS: &[&str] = &[
    "犯规", "犯規", "反則", "반칙", "弃权", "棄權", "强退", "強退", "退出", "不戦", "不战", "기권",
    "违规", "違規",
];
const UNCOUNTED_MARKS: &[&str] = &["不计点", "不計點", "不計点"];

/// Returns the outcome and whether its margin was in zi.
fn read_cjk(main: &str) -> Option<(Outcome, bool)> {
    let text: String = main.chars().filter(|c| !c.is_whitespace()).collect();
    let text = text.trim_end_matches(['.', '。']);
    if DRAW_WORDS.contains(&text) || text.contains("和棋") || text.contains("持碁") {
        return Some((Outcome::Draw, false));
    }
    if VOID_WORDS.iter().any(|w| text.contains(w)) {
        return Some((Outcome::NoResult, false));
    }
    if UNKNOWN_WORDS.iter().any(|w| text.contains(w)) {
        return Some((Outcome::Unknown, false));
    }
    let (colour_at, subject) = text.char_indices().find_map(|(i, c)| {
        Some((
            i,
            match c {
                '黑' | '黒' | '흑' => Color::Black,
                '白' | '백' => Color::White,
                _ => return None,
            },
        ))
    })?;
    let after = &text[colour_at..];
    let first = |marks: &[&str]| marks.iter().filter_map(|m| after.find(m)).min();
    let winner = match (first(WIN_MARKS), first(LOSE_MARKS)) {
        (Some(w), Some(l)) if l < w => subject.opponent(),
        (Some(_), _) => subject,
        (None, Some(_)) => subject.opponent(),
        (None, None) => return None,
    };
    let has = |marks: &[&str]| marks.iter().any(|m| text.contains(m));
    let (by, in_zi) = if has(RESIGN_MARKS) {
        (WinBy::Resignation, false)
    } else if has(TIME_MARKS) {
        (WinBy::Time, false)
    } else if has(FORFEIT_MARKS) {
        (WinBy::Forfeit, false)
    } else if has(UNCOUNTED_MARKS) {
        (WinBy::Unspecified, false)
    } else {
        match cjk_margin(after) {
            Some((points, zi)) => (margin(points)?, zi),
            None => (WinBy::Unspecified, false),
        }
    };
    Some((Outcome::Win { winner, by }, in_zi))
}

/// The margin in a CJK result: the number before a unit (目, 点, 點, 子, 집), with 半/반 after
/// the unit adding a half; `子` (zi) counts twice. `None` when no unit is written.
fn cjk_margin(text: &str) -> Option<(f64, bool)> {
    let units = ['目', '点', '點', '子', '집'];
    let (unit_at, unit) = text.char_indices().find(|(_, c)| units.contains(c))?;
    let before = &text[..unit_at];
    // The number runs back from the unit over digits, numerals and fraction words.
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_number_char(*c))
        .last()
        .map(|(i, _)| i)
        .unwrap_or(unit_at);
    let number = &before[start..];
    let after = &text[unit_at + unit.len_utf8()..];
    let half_after = after.starts_with('半') || after.starts_with('반');
    let mut value = if number.is_empty() { 0.0 } else { cjk_number(number)? };
    if half_after {
        value += 0.5;
    }
    if number.is_empty() && !half_after {
        return None;
    }
    Some(if unit == '子' { (value * 2.0, true) } else { (value, false) })
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit()
        || ('０'..='９').contains(&c)
        || matches!(c, '.' | '/' | '又' | '分' | '之' | '半' | '반' | '零' | '〇' | '两' | '兩')
        || CHINESE_DIGITS.contains(&c)
        || c == '十'
}

const CHINESE_DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// `3`, `3.5`, `２`, `二`, `十二`, `3又3/4`, `3/4`, `四分之三`, `三又四分之三`, `半`, `1半`.
fn cjk_number(s: &str) -> Option<f64> {
    if s == "半" || s == "반" {
        return Some(0.5);
    }
    if let Some(rest) = s.strip_suffix('半').or_else(|| s.strip_suffix('반')) {
        return Some(cjk_number(rest)? + 0.5);
    }
    if let Some((whole, frac)) = s.split_once('又') {
        return Some(cjk_number(whole)? + cjk_number(frac)?);
    }
    if let Some((den, num)) = s.split_once("分之") {
        let (d, n) = (cjk_number(den)?, cjk_number(num)?);
        return (d > 0.0).then(|| n / d);
    }
    if let Some((num, den)) = s.split_once('/') {
        let (n, d) = (cjk_number(num)?, cjk_number(den)?);
        return (d > 0.0).then(|| n / d);
    }
    let ascii: String = s
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            other => other,
        })
        .collect();
    if let Some(v) = decimal(&ascii) {
        return Some(v);
    }
    chinese_numeral(s)
}

/// `一`..`九`, `十`, `十二`, `二十`, `二十五`, `两`.
fn chinese_numeral(s: &str) -> Option<f64> {
    let digit = |c: char| match c {
        '两' | '兩' => Some(2),
        '零' => Some(0),
        _ => CHINESE_DIGITS.iter().position(|&d| d == c),
    };
    let chars: Vec<char> = s.chars().collect();
    let value = match chars.as_slice() {
        ['十'] => 10,
        [d] => digit(*d)?,
        ['十', d] => 10 + digit(*d)?,
        [t, '十'] => digit(*t)? * 10,
        [t, '十', d] => digit(*t)? * 10 + digit(*d)?,
        _ => return None,
    };
    Some(value as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_results_read_as_the_general_reading_reads_them() {
        let mut plain = 0;
        for colour in ["B", "W", "b", "w", "X", "0", "黑"] {
            for how in ["R", "T", "F", "r", "t", "f", "", "3", "D", "?", "+", "Resign", "半"] {
                for raw in [format!("{colour}+{how}"), format!("{colour}{how}")] {
                    let fast = plain_result(&raw);
                    plain += usize::from(fast.is_some());
                    if fast.is_some() {
                        assert_eq!(fast, read_any_result(&raw), "{raw}");
                    }
                    assert_eq!(read_result(&raw), read_any_result(&raw), "{raw}");
                }
            }
        }
        // B and W in either case, by R, T or F in either case.
        assert_eq!(plain, 4 * 6);
    }

    #[test]
    fn short_plus_results_read_as_the_general_reading_reads_them() {
        let words = [
            "Resign",
            "RESIGNED",
            "Time",
            "T",
            "timeout",
            "Forfeit",
            "Offline",
            "Illegal",
            "V",
            "AW",
            "J5.5",
            "2.5",
            "0.5",
            "12",
            "0",
            "0.02",
            "1.25",
            "1.3",
            "05",
            "3pts",
            "2.5p",
            "half",
            "moku",
            ".5",
            "2.",
            "2..5",
            "1e3",
            "inf",
            "NaN",
            "xyz",
            "R2",
            "Resignation",
            "2.5?",
            "1/2",
            "2 1/2",
            "W+R",
            "Time.",
            "abcdefghijklmnopq",
            "",
        ];
        let mut short = 0;
        for colour in ["B", "W", "b", "w", "X", "D", "黑"] {
            for word in words {
                let raw = format!("{colour}+{word}");
                let fast = short_plus_result(&raw);
                short += usize::from(fast.is_some());
                if fast.is_some() {
                    assert_eq!(fast, read_any_result(&raw), "{raw}");
                }
                assert_eq!(read_result(&raw), read_any_result(&raw), "{raw}");
            }
        }
        // Everything with a B or W but the words with other characters, a trailing `.`, the
        // one too long, the empty one, and those no reading reads.
        let read = |w: &str| {
            ["B", "W", "b", "w"]
                .iter()
                .filter(|c| short_plus_result(&format!("{c}+{w}")).is_some())
                .count()
        };
        assert_eq!(read("Resign"), 4);
        assert_eq!(read("2.5"), 4);
        assert_eq!(read("J5.5"), 4);
        assert_eq!(read("xyz"), 0);
        assert_eq!(read("2."), 0);
        assert_eq!(read("abcdefghijklmnopq"), 0);
        assert!(short > 4 * 20, "{short}");
    }

    fn show(raw: &str) -> String {
        match read_result(raw) {
            None => "unreadable".to_string(),
            Some(r) => {
                let mut s = r.outcome.to_string();
                if r.in_zi {
                    s.push_str(" zi");
                }
                if r.truncated {
                    s.push_str(" truncated");
                }
                s
            }
        }
    }

    /// (RE as written, how kifu reads it). Sources: `FF[4]`; KataGo's `getSgfWinner`; GoGoD via
    /// KataGo; the aeb, Fox, AI-game and GNU Go collections (sgf-in-the-wild.md §3.1); Chinese,
    /// Japanese and Korean clients.
    const TABLE: &[(&str, &str)] = &[
        // FF[4]
        ("B+R", "B+R"),
        ("W+Resign", "W+R"),
        ("B+T", "B+T"),
        ("W+Time", "W+T"),
        ("B+F", "B+F"),
        ("W+Forfeit", "W+F"),
        ("B+0.5", "B+0.5"),
        ("W+64", "W+64"),
        ("0", "0"),
        ("Draw", "0"),
        ("Void", "Void"),
        ("?", "?"),
        // case, long forms, spacing
        ("b+r", "B+R"),
        ("w+resign", "W+R"),
        ("black+", "B+"),
        ("white+", "W+"),
        ("b+resign", "B+R"),
        ("w+time", "W+T"),
        ("b+forfeit", "B+F"),
        ("W+Time Over", "W+T"),
        ("B+ 2.5", "B+2.5"),
        ("B+55.50", "B+55.5"),
        ("B+2,5", "B+2.5"),
        ("W+2 1/2", "W+2.5"),
        ("W+.5", "W+0.5"),
        ("W+1半", "W+1.5"),
        ("B+1?", "B+1"),
        ("W+11.5?", "W+11.5"),
        ("B+", "B+"),
        ("W+", "W+"),
        ("B", "B+"),
        ("W", "W+"),
        ("White", "W+"),
        // words
        ("draw", "0"),
        ("jigo", "0"),
        ("Jigo", "0"),
        ("Unfinished", "?"),
        ("Game suspended", "Void"),
        ("Both lost", "Void"),
        ("Not played", "Void"),
        ("has adjourned.", "?"),
        ("X+", "?"),
        ("Y+", "?"),
        ("B+bye", "B+F"),
        ("B+0", "B+"),
        ("W+0", "W+"),
        ("B+1 5/6", "B+"),
        ("W+6 3/5", "W+"),
        ("W+ (but B does not lose)", "W+"),
        ("W+ (but Black does not lose)", "W+"),
        ("B+, human judge for communication error ", "B+"),
        ("B+, Goro crushed in his 126th move, and could not continue.", "B+"),
        ("B+1.5 ? W+timeout", "unreadable"),
        ("john wins", "unreadable"),
        // GoGoD
        ("B+ (moves beyond 150 not known)", "B+ truncated"),
        ("W+R (moves after 201 not recorded)", "W+R truncated"),
        ("B+3.5 (further moves not given)", "B+3.5 truncated"),
        ("B+3.5 (zi)", "B+7 zi"),
        ("W+1.25 {zi}", "W+2.5 zi"),
        ("B+R {connect ko}", "B+R"),
        ("W+R (...win ko...)", "W+R"),
        ("B+2.5 (time penalty)", "B+2.5"),
        // Fox
        ("B+0.0", "B+"),
        ("W+0.0", "W+"),
        ("B+0.02", "B+"),
        ("W+0.03", "W+"),
        ("W+0.25", "W+0.5 zi"),
        ("B+1.75", "B+3.5 zi"),
        ("B+3.75 (zi)", "B+7.5 zi"),
        ("B+Offline", "B+F"),
        // AI games, UEC
        ("W+J", "W+"),
        ("B+AW", "B+"),
        ("B+AJ", "B+"),
        ("W+RO", "W+"),
        ("B+V", "B+F"),
        ("B+J5.5", "B+5.5"),
        ("D+J", "0"),
        // old server logs
        ("B+Illegal", "B+F"),
        ("W+Repetition", "W+F"),
        ("Black resigns. W 133.5 B 81.0", "W+R"),
        ("White resigns.", "B+R"),
        ("White wins by 12 points", "W+12"),
        ("Black wins on time", "B+T"),
        ("white lost on time", "B+T"),
        // Chinese
        ("黑中盘胜", "B+R"),
        ("白中盘胜", "W+R"),
        ("黑胜3又3/4子", "B+7.5 zi"),
        ("白胜1/4子", "W+0.5 zi"),
        ("黑胜3/4子", "B+1.5 zi"),
        ("白胜1又1/4子", "W+2.5 zi"),
        ("黑胜1又3/4子", "B+3.5 zi"),
        ("黑胜1/2子", "B+1 zi"),
        ("黑胜2子", "B+4 zi"),
        ("黑胜四分之三子", "B+1.5 zi"),
        ("黑胜2目半", "B+2.5"),
        ("黑胜二目半", "B+2.5"),
        ("黑胜半目", "B+0.5"),
        ("黑胜3点", "B+3"),
        ("黑胜", "B+"),
        ("黑不计点胜", "B+"),
        ("黑超时胜", "B+T"),
        ("白胜-黑超时", "W+T"),
        ("白犯规胜", "W+F"),
        ("黑弃权", "W+F"),
        ("白弃权", "B+F"),
        ("和棋", "0"),
        ("和棋。", "0"),
        ("双负", "Void"),
        ("黑中盘胜。", "B+R"),
        ("白方强退告负。", "B+F"),
        ("白方超时负", "B+T"),
        ("黑方认输", "W+R"),
        ("没有结果", "?"),
        // Japanese
        ("黒中押し勝ち", "B+R"),
        ("白中押し勝ち", "W+R"),
        ("白1目半勝ち", "W+1.5"),
        ("黒 5目半勝ち", "B+5.5"),
        ("黒半目勝ち", "B+0.5"),
        ("持碁", "0"),
        ("黒時間切れ勝ち", "B+T"),
        ("白反則勝ち", "W+F"),
        ("黒中押し勝ち!", "B+R"),
        ("黒１２目半勝ち", "B+12.5"),
        // Korean
        ("흑 불계승", "B+R"),
        ("백 불계승", "W+R"),
        ("백 시간승", "W+T"),
        ("흑 3집반승", "B+3.5"),
        ("흑 반집승", "B+0.5"),
        ("흑 집승", "B+"),
        ("흑 기권승", "B+F"),
        ("흑 시간패", "W+T"),
        ("무승부", "0"),
    ];

    #[test]
    fn every_form_in_the_table_reads_as_expected() {
        let mut wrong = Vec::new();
        for (raw, want) in TABLE {
            let got = show(raw);
            if got != *want {
                wrong.push(format!("RE[{raw}]: got {got}, want {want}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn margins_keep_their_winner_and_are_positive() {
        for (raw, _) in TABLE {
            if let Some(ResultReading {
                outcome: Outcome::Win { by: WinBy::Points(m), .. }, ..
            }) = read_result(raw)
            {
                assert!(m > 0.0 && (m * 4.0).fract() == 0.0, "RE[{raw}] gives {m}");
            }
        }
    }
}
