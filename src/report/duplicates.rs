//! `duplicates.csv`: one row per member of each group of duplicate games, the record kept
//! first, written by `kifu dedupe` and by `kifu clean --drop duplicates`.

use serde::Serialize;

use super::cell::CellGuard;
use super::rows::Column;
use crate::analysis::dedupe::{DuplicateGroup, GameEntry};

/// The file the duplicate groups are written to.
pub const DUPLICATES_FILE: &str = "duplicates.csv";

/// One row of `duplicates.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuplicateRow {
    /// See [`DuplicateRow::COLUMNS`].
    pub group: u32,
    /// See [`DuplicateRow::COLUMNS`].
    pub kinds: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub source: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub game: u32,
    /// See [`DuplicateRow::COLUMNS`].
    pub kept: &'static str,
    /// See [`DuplicateRow::COLUMNS`].
    pub relation: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub symmetry: &'static str,
    /// See [`DuplicateRow::COLUMNS`].
    pub differs: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub board: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub moves: u32,
    /// See [`DuplicateRow::COLUMNS`].
    pub black: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub white: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub date: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub result: String,
    /// See [`DuplicateRow::COLUMNS`].
    pub reason: String,
}

const fn col(name: &'static str, meaning: &'static str) -> Column {
    Column { name, meaning }
}

impl DuplicateRow {
    /// The columns of `duplicates.csv`, in order.
    pub const COLUMNS: &'static [Column] = &[
        col("group", "1-based group number, in the input order of each group's first member"),
        col(
            "kinds",
            "how the group's records differ from the one kept, all members together: `exact`, `symmetry`, `truncated`, `metadata`, joined by `+`",
        ),
        col("source", "as in games.csv"),
        col("game", "as in games.csv"),
        col("kept", "`yes` for the record kept (the group's first row), `no` for the others"),
        col(
            "relation",
            "this record against the one kept: `exact` (same moves, orientation, length and compared metadata), or `symmetry`, `truncated` (its moves are the first moves of the one kept), `metadata`, joined by `+`; empty on the kept row",
        ),
        col(
            "symmetry",
            "the symmetry that turns this record onto the one kept: identity, rotate-90 (clockwise), rotate-180, rotate-270, mirror-left-right, mirror-top-bottom, transpose, anti-transpose; empty on the kept row",
        ),
        col(
            "differs",
            "the compared fields whose values differ from the kept record's (PB PW BR WR DT EV RO PC GN RE KM RU; case and spacing aside, RE normalised, KM in points), space-separated",
        ),
        col("board", "as in games.csv"),
        col("moves", "main-line moves of this record, passes included"),
        col("black", "PB"),
        col("white", "PW"),
        col("date", "DT"),
        col("result", "RE normalised as in games.csv (as written when unreadable)"),
        col(
            "reason",
            "on the kept row, why it was kept: the first of longest main line, most metadata, counted result, first in input order that tells it from the next best",
        ),
    ];

    /// The rows of one group, the record kept first.
    pub fn of_group(
        group: &DuplicateGroup,
        entries: &[GameEntry],
        guard: CellGuard,
    ) -> Vec<DuplicateRow> {
        group
            .members
            .iter()
            .map(|m| {
                let e = &entries[m.entry];
                let board = if e.board.is_square() {
                    e.board.width.to_string()
                } else {
                    format!("{}x{}", e.board.width, e.board.height)
                };
                DuplicateRow {
                    group: group.id,
                    kinds: group.kinds.to_string(),
                    source: guard.owned(&e.source),
                    game: e.game,
                    kept: if m.kept { "yes" } else { "no" },
                    relation: if m.kept { String::new() } else { m.relation.kinds.to_string() },
                    symmetry: if m.kept { "" } else { m.relation.symmetry.name() },
                    differs: m.relation.differing.join(" "),
                    board,
                    moves: e.moves,
                    black: guard.owned(e.field("PB")),
                    white: guard.owned(e.field("PW")),
                    date: guard.owned(e.field("DT")),
                    result: guard.owned(e.field("RE")),
                    reason: if m.kept { group.reason.clone() } else { String::new() },
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::dedupe::{DedupeOptions, find_duplicates};
    use crate::record::{CharsetOrigin, GameLocation, ReadOptions, TextEncoding};

    #[test]
    fn rows_carry_the_documented_columns_and_guard_text() {
        let text = "(;GM[1]SZ[9]PB[=cmd]PW[Bob]RE[B+R];B[ee];W[cc];B[gc];W[cg];B[ge];W[eg];B[gg];\
                    W[ce];B[ec];W[ge]C[x];B[dd];W[fd];B[df];W[ff];B[de];W[fe];B[ed];W[ef];B[dg];W[fg])";
        let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
        let entries: Vec<GameEntry> = ["a.sgf", "b.sgf"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let location = GameLocation { source: (*name).into(), game: 1, offset: 0, line: 1 };
                let record = crate::record::sgf::read_game(
                    text,
                    location,
                    encoding,
                    &ReadOptions::default(),
                );
                GameEntry::of(i as u64, &record)
            })
            .collect();
        let groups = find_duplicates(&entries, &DedupeOptions::default());
        let rows = DuplicateRow::of_group(&groups[0], &entries, CellGuard::Spreadsheet);
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in &rows {
            w.serialize(row).unwrap();
        }
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let names: Vec<&str> = DuplicateRow::COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(header, names);
        assert_eq!(
            text.lines().nth(1).unwrap(),
            "1,exact,a.sgf,1,yes,,,,9,20,'=cmd,Bob,,B+R,first in input order"
        );
        assert_eq!(
            text.lines().nth(2).unwrap(),
            "1,exact,b.sgf,1,no,exact,identity,,9,20,'=cmd,Bob,,B+R,"
        );
    }
}
