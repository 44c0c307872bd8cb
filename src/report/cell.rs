//! Text cells that spreadsheets will not run: the defence against CSV (formula) injection.
//!
//! kifu writes text it did not author into its reports: player names, event names, the raw `RE`
//! and `RU` values, archive member names. A spreadsheet that opens `games.csv` treats a cell that
//! starts with `=`, `+`, `-` or `@` as a formula, so a record with `PB[=HYPERLINK(...)]` could
//! make a curator's spreadsheet fetch a URL or worse (OWASP "CSV Injection"). The defence used by
//! OWASP and most exporters is to put a single quote before such a cell, which every spreadsheet
//! shows as text and hides.
//!
//! The rule kifu applies, and the README documents:
//! - only in *text* columns that carry text from the input or kifu's messages about it (source,
//!   rules, result_raw, player names, ranks, date, event, message, detail, note); never in
//!   columns kifu fills with numbers or fixed words (game, move, komi, margin, result, code,
//!   status, ...), so a margin of `-3.5` stays a number;
//! - only when the cell starts with `=`, `+`, `-`, `@`, a tab or a carriage return *and* has more
//!   than one character: a lone `-` (the name of standard input) cannot be a formula;
//! - `--raw-text` turns it off for tools that read the CSV programmatically (pandas, DuckDB),
//!   where the quote would only be noise.

use std::borrow::Cow;

/// Whether text cells are guarded against formula injection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellGuard {
    /// Prefix risky text cells with `'` (the default).
    Spreadsheet,
    /// Write text exactly as read.
    Raw,
}

impl CellGuard {
    /// The cell to write for a text value.
    pub fn text<'a>(self, value: &'a str) -> Cow<'a, str> {
        if self == CellGuard::Spreadsheet && starts_like_formula(value) {
            let mut guarded = String::with_capacity(value.len() + 1);
            guarded.push('\'');
            guarded.push_str(value);
            Cow::Owned(guarded)
        } else {
            Cow::Borrowed(value)
        }
    }

    /// [`CellGuard::text`] as an owned `String`, for row structs.
    pub fn owned(self, value: &str) -> String {
        self.text(value).into_owned()
    }

    /// [`CellGuard::owned`] of a `String` the caller gives up: kept as it is (not copied)
    /// unless it needs the quote.
    pub fn owned_from(self, value: String) -> String {
        if self == CellGuard::Spreadsheet && starts_like_formula(&value) {
            self.owned(&value)
        } else {
            value
        }
    }
}

/// Whether a spreadsheet could read the value as a formula.
pub fn starts_like_formula(value: &str) -> bool {
    let mut chars = value.chars();
    let first = chars.next();
    let rest_non_empty = chars.next().is_some();
    rest_non_empty && matches!(first, Some('=' | '+' | '-' | '@' | '\t' | '\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_starts_get_a_quote_in_spreadsheet_mode() {
        let g = CellGuard::Spreadsheet;
        assert_eq!(g.text("=HYPERLINK(\"http://x\",\"y\")"), "'=HYPERLINK(\"http://x\",\"y\")");
        assert_eq!(g.text("+81 Tokyo"), "'+81 Tokyo");
        assert_eq!(g.text("-dash-"), "'-dash-");
        assert_eq!(g.text("@home"), "'@home");
        assert_eq!(g.text("\tcmd"), "'\tcmd");
    }

    #[test]
    fn ordinary_text_and_a_lone_sign_stay_as_they_are() {
        let g = CellGuard::Spreadsheet;
        for plain in ["Honinbo Shusaku", "-", "+", "", "W+R", "a=b", "李世石", "9d"] {
            assert_eq!(g.text(plain), plain);
        }
    }

    #[test]
    fn raw_mode_writes_everything_as_read() {
        assert_eq!(CellGuard::Raw.text("=1+1"), "=1+1");
        assert_eq!(CellGuard::Raw.owned("@x"), "@x");
    }

    #[test]
    fn a_given_string_is_guarded_as_a_borrowed_one() {
        for value in ["=1+1", "-", "-x", "plain", "", "\tcmd"] {
            for guard in [CellGuard::Spreadsheet, CellGuard::Raw] {
                assert_eq!(guard.owned_from(value.to_owned()), guard.owned(value));
            }
        }
    }
}
