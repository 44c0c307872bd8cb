//! A CSV table with a fixed header: the writer behind every report file and every command that
//! prints CSV on standard output.
//!
//! serde-driven csv writers only emit a header with the first row, so a report without findings
//! would be an empty file that pandas and DuckDB refuse. The header is therefore written up
//! front from the row type's `COLUMNS` table, and rows are written without one.
//!
//! Rows are written by [`super::csv_line`], which writes the bytes csv's writer would at a
//! fraction of its cost; a row of a shape it leaves aside goes through csv's serializer. Like
//! csv's writer, the table gathers lines in a buffer of [`BUFFER_BYTES`] and hands them to the
//! underlying writer when it fills, on [`CsvTable::flush`] and when dropped.

use std::io::{self, Write};

use serde::Serialize;

use super::csv_line::{write_fields, write_row};
use super::rows::Column;

/// Bytes gathered before they are handed to the underlying writer (csv's default buffer).
pub const BUFFER_BYTES: usize = 8 * 1024;

/// The I/O error inside a csv error, so that its kind (a broken pipe above all) survives;
/// csv's own conversion wraps every error as `ErrorKind::Other`.
pub fn into_io(err: csv::Error) -> io::Error {
    if err.is_io_error() {
        match err.into_kind() {
            csv::ErrorKind::Io(e) => e,
            other => io::Error::other(format!("{other:?}")),
        }
    } else {
        io::Error::other(err)
    }
}

/// A CSV writer whose header is known before the first row.
#[derive(Debug)]
pub struct CsvTable<W: Write> {
    /// The underlying writer; `None` once [`CsvTable::into_inner`] took it.
    out: Option<W>,
    /// Lines not yet handed to `out`.
    buffer: Vec<u8>,
    rows: u64,
}

impl<W: Write> CsvTable<W> {
    /// A table writing to `out`; the header (column names) first unless `header` is false.
    pub fn new(out: W, columns: &[Column], header: bool) -> io::Result<CsvTable<W>> {
        let mut table =
            CsvTable { out: Some(out), buffer: Vec::with_capacity(BUFFER_BYTES), rows: 0 };
        if header {
            write_fields(columns.iter().map(|c| c.name), &mut table.buffer);
            table.spill()?;
        }
        Ok(table)
    }

    /// Writes one row.
    pub fn write<T: Serialize>(&mut self, row: &T) -> io::Result<()> {
        if write_row(row, &mut self.buffer).is_err() {
            let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
            writer.serialize(row).map_err(into_io)?;
            let line = writer.into_inner().map_err(|e| e.into_error())?;
            self.buffer.extend_from_slice(&line);
        }
        self.rows += 1;
        self.spill()
    }

    /// Number of rows written (the header not counted).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes buffered rows to the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_buffer()?;
        self.out.as_mut().map_or(Ok(()), |out| out.flush())
    }

    /// Flushes and returns the underlying writer.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.flush()?;
        // `out` is `None` only after this, which consumes the table.
        self.out.take().ok_or_else(|| io::Error::other("the CSV writer was already taken"))
    }

    /// Hands the buffer to the underlying writer once it is full.
    fn spill(&mut self) -> io::Result<()> {
        if self.buffer.len() >= BUFFER_BYTES { self.write_buffer() } else { Ok(()) }
    }

    fn write_buffer(&mut self) -> io::Result<()> {
        if let Some(out) = self.out.as_mut()
            && !self.buffer.is_empty()
        {
            out.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }
}

impl<W: Write> Drop for CsvTable<W> {
    /// Flushes what is left, as csv's writer does when dropped (errors cannot be reported here:
    /// [`CsvTable::flush`] or [`CsvTable::into_inner`] report them).
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::rows::FindingRow;

    #[test]
    fn an_empty_table_still_has_its_header() {
        let t = CsvTable::new(Vec::new(), FindingRow::COLUMNS, true).unwrap();
        let text = String::from_utf8(t.into_inner().unwrap()).unwrap();
        assert_eq!(text, "source,game,move,code,severity,message,line,offset\n");
    }

    #[test]
    fn a_broken_pipe_stays_a_broken_pipe() {
        struct ClosedPipe;
        impl Write for ClosedPipe {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            }
            fn flush(&mut self) -> io::Result<()> {
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            }
        }
        let mut t = CsvTable::new(ClosedPipe, FindingRow::COLUMNS, true).unwrap();
        let err = t.flush().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }

    #[test]
    fn rows_are_quoted_only_when_needed_and_counted() {
        let mut t = CsvTable::new(Vec::new(), FindingRow::COLUMNS, false).unwrap();
        t.write(&FindingRow {
            source: "a.sgf".into(),
            game: 1,
            move_number: 7,
            code: "ko",
            severity: "error",
            message: "W at C3 retakes the ko, \"immediately\"".into(),
            line: Some(1),
            offset: None,
        })
        .unwrap();
        assert_eq!(t.rows(), 1);
        let text = String::from_utf8(t.into_inner().unwrap()).unwrap();
        assert_eq!(text, "a.sgf,1,7,ko,error,\"W at C3 retakes the ko, \"\"immediately\"\"\",1,\n");
    }

    /// A row of every field shape the fast path takes.
    #[derive(Serialize)]
    struct Shapes {
        text: String,
        small: i8,
        wide: i64,
        count: u64,
        flag: bool,
        letter: char,
        maybe: Option<u32>,
        nothing: Option<String>,
        unit: (),
        side: Side,
    }

    #[derive(Serialize)]
    enum Side {
        Black,
    }

    /// A row the fast path leaves to csv (a float).
    #[derive(Serialize)]
    struct WithFloat {
        name: &'static str,
        komi: f64,
    }

    #[derive(Serialize)]
    struct OneText {
        text: &'static str,
    }

    /// What csv's own serializer writes for `rows`.
    fn by_csv<T: Serialize>(rows: &[T]) -> String {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        for row in rows {
            w.serialize(row).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    fn by_table<T: Serialize>(rows: &[T]) -> String {
        let mut t = CsvTable::new(Vec::new(), &[], false).unwrap();
        for row in rows {
            t.write(row).unwrap();
        }
        assert_eq!(t.rows(), rows.len() as u64);
        String::from_utf8(t.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn rows_are_written_as_csv_s_serializer_writes_them() {
        let texts = [
            String::new(),
            "plain".to_string(),
            "a, b".to_string(),
            "say \"hi\" \"\"".to_string(),
            "two\nlines".to_string(),
            "carriage\rreturn".to_string(),
            "'=1+1".to_string(),
            "李世石".to_string(),
            "x".repeat(20_000),
        ];
        let rows: Vec<Shapes> = texts
            .iter()
            .enumerate()
            .map(|(i, text)| Shapes {
                text: text.clone(),
                small: if i % 2 == 0 { i8::MIN } else { -1 },
                wide: if i % 2 == 0 { i64::MIN } else { i64::MAX },
                count: if i % 2 == 0 { u64::MAX } else { i as u64 },
                flag: i % 2 == 0,
                letter: if i % 2 == 0 { ',' } else { 'é' },
                maybe: (i % 3 != 0).then_some(i as u32 * 1000),
                nothing: None,
                unit: (),
                side: Side::Black,
            })
            .collect();
        let written = by_table(&rows);
        assert_eq!(written, by_csv(&rows));
        let first = ",-128,-9223372036854775808,18446744073709551615,true,\",\",,,,Black\n";
        assert!(written.starts_with(first));
        // Written by the fast path, not handed to csv; a float is.
        let mut line = Vec::new();
        assert!(write_row(&rows[0], &mut line).is_ok());
        assert_eq!(line, first.as_bytes());
        assert!(write_row(&WithFloat { name: "x", komi: 0.5 }, &mut line).is_err());
        assert_eq!(line, first.as_bytes());
        let floats = [WithFloat { name: "x,y", komi: 7.0 }, WithFloat { name: "z", komi: 6.5 }];
        assert_eq!(by_table(&floats), "\"x,y\",7.0\nz,6.5\n");
        // A line that would be empty is one empty quoted field, as csv writes it.
        let lone = [OneText { text: "" }, OneText { text: "a" }];
        assert_eq!(by_table(&lone), by_csv(&lone));
        assert_eq!(by_table(&lone), "\"\"\na\n");
    }

    #[test]
    fn rows_of_both_paths_keep_their_order_and_reach_the_writer() {
        let finding = |game| FindingRow {
            source: "b.sgf".into(),
            game,
            move_number: 0,
            code: "junk",
            severity: "warning",
            message: "3 bytes".into(),
            line: None,
            offset: Some(17),
        };
        let mut out = Vec::new();
        {
            let mut t = CsvTable::new(&mut out, FindingRow::COLUMNS, true).unwrap();
            t.write(&finding(1)).unwrap();
            t.write(&WithFloat { name: "second", komi: 1.5 }).unwrap();
            // More than a buffer's worth, then dropped without a flush.
            for game in 2..1000 {
                t.write(&finding(game)).unwrap();
            }
        }
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1001);
        assert_eq!(lines[0], "source,game,move,code,severity,message,line,offset");
        assert_eq!(lines[1], "b.sgf,1,0,junk,warning,3 bytes,,17");
        assert_eq!(lines[2], "second,1.5");
        assert_eq!(lines[1000], "b.sgf,999,0,junk,warning,3 bytes,,17");
    }
}
