//! A CSV table with a fixed header: the writer behind every report file and every command that
//! prints CSV on standard output.
//!
//! serde-driven csv writers only emit a header with the first row, so a report without findings
//! would be an empty file that pandas and DuckDB refuse. The header is therefore written up
//! front from the row type's `COLUMNS` table, and rows are written without one.

use std::io::{self, Write};

use serde::Serialize;

use super::rows::Column;

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
    writer: csv::Writer<W>,
    rows: u64,
}

impl<W: Write> CsvTable<W> {
    /// A table writing to `out`; the header (column names) first unless `header` is false.
    pub fn new(out: W, columns: &[Column], header: bool) -> io::Result<CsvTable<W>> {
        let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(out);
        if header {
            writer.write_record(columns.iter().map(|c| c.name)).map_err(into_io)?;
        }
        Ok(CsvTable { writer, rows: 0 })
    }

    /// Writes one row.
    pub fn write<T: Serialize>(&mut self, row: &T) -> io::Result<()> {
        self.writer.serialize(row).map_err(into_io)?;
        self.rows += 1;
        Ok(())
    }

    /// Number of rows written (the header not counted).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes buffered rows to the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }

    /// Flushes and returns the underlying writer.
    pub fn into_inner(self) -> io::Result<W> {
        self.writer.into_inner().map_err(|e| e.into_error())
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
}
