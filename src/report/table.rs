//! A CSV table with a fixed header: the writer behind every report file and every command that
//! prints CSV on standard output.
//!
//! serde-driven csv writers only emit a header with the first row, so a report without findings
//! would be an empty file that pandas and DuckDB refuse. The header is therefore written up
//! front from the row type's `COLUMNS` table, and rows are written without one.
//!
//! The rows of the hot tables (`findings.csv`, the output of `kifu check`) write their own
//! cells ([`Cells`]): going through serde and csv's state machine cost about 2,000 instructions
//! a row, as much as a tenth of `kifu check`. The quoting is csv's (`QuoteStyle::Necessary`, `"`
//! doubled, `\n` terminator), so both ways give the same bytes; a test holds them together.

use std::cell::RefCell;
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

/// A row that writes its own cells into a [`RowCells`], field by field in column order.
pub trait Cells {
    /// Appends the row's cells.
    fn cells(&self, row: &mut RowCells<'_>);
}

/// A row that a [`CsvTable`] can write: through serde or through its own [`Cells`].
pub trait TableRow {
    /// Writes `self` as one row of `table`.
    fn write_to<W: Write>(&self, table: &mut CsvTable<W>) -> io::Result<()>;
}

/// The cells of one row under construction, appended to a line buffer with csv's quoting.
#[derive(Debug)]
pub struct RowCells<'a> {
    line: &'a mut Vec<u8>,
    /// Where the row starts in `line`.
    start: usize,
    /// Cells written so far: every cell but the first has a comma before it.
    cells: usize,
}

impl<'a> RowCells<'a> {
    /// A row appended to `line`.
    fn new(line: &'a mut Vec<u8>) -> RowCells<'a> {
        let start = line.len();
        RowCells { line, start, cells: 0 }
    }

    /// Ends the row. A row of one empty cell is written `""`, as csv does, so that it is not
    /// an empty line.
    fn end(self) {
        if self.line.len() == self.start {
            self.line.extend_from_slice(b"\"\"");
        }
        self.line.push(b'\n');
    }

    /// A text cell, quoted when it holds a comma, a quote, a carriage return or a line feed
    /// (quotes doubled), exactly as csv's `QuoteStyle::Necessary` writes it.
    pub fn text(&mut self, value: &[u8]) {
        self.separate();
        // memchr's vector search: most cells are paths and sentences of 40 to 130 bytes, where
        // a byte-by-byte test was most of the cost of a row.
        if memchr::memchr3(b',', b'"', b'\n', value).is_some()
            || memchr::memchr(b'\r', value).is_some()
        {
            self.line.push(b'"');
            let mut rest = value;
            while let Some(quote) = memchr::memchr(b'"', rest) {
                // The quote itself, then its double.
                self.line.extend_from_slice(&rest[..=quote]);
                self.line.push(b'"');
                rest = &rest[quote + 1..];
            }
            self.line.extend_from_slice(rest);
            self.line.push(b'"');
        } else {
            self.line.extend_from_slice(value);
        }
    }

    /// A number cell, in decimal (never quoted).
    pub fn number(&mut self, value: u64) {
        self.separate();
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        let mut rest = value;
        loop {
            start -= 1;
            digits[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.line.extend_from_slice(&digits[start..]);
    }

    /// A number cell, empty for `None` (as serde writes an absent value).
    pub fn optional_number(&mut self, value: Option<u64>) {
        match value {
            Some(n) => self.number(n),
            None => self.separate(),
        }
    }

    fn separate(&mut self) {
        if self.cells > 0 {
            self.line.push(b',');
        }
        self.cells += 1;
    }
}

/// A CSV writer whose header is known before the first row.
#[derive(Debug)]
pub struct CsvTable<W: Write> {
    out: W,
    /// csv's writer for the rows that go through serde. What it writes into is also the
    /// table's buffer: csv's own buffer is emptied into it after every such row, and rows with
    /// their own [`Cells`] are appended to it, so both kinds come out in order.
    serde: csv::Writer<Pending>,
    rows: u64,
}

/// The bytes not yet handed to the underlying writer. csv's writer owns it and lends it only
/// as `&`, hence the cell; it is borrowed for one row at a time.
#[derive(Debug, Default)]
struct Pending(RefCell<Vec<u8>>);

impl Write for Pending {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.get_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Pending bytes are handed to the underlying writer in chunks of about this size (csv's own
/// buffer size), so that an unbuffered writer is not written to once a row.
const CHUNK: usize = 8 * 1024;

impl<W: Write> CsvTable<W> {
    /// A table writing to `out`; the header (column names) first unless `header` is false.
    pub fn new(out: W, columns: &[Column], header: bool) -> io::Result<CsvTable<W>> {
        let pending = Pending(RefCell::new(Vec::with_capacity(CHUNK + 1024)));
        let serde = csv::WriterBuilder::new().has_headers(false).from_writer(pending);
        let table = CsvTable { out, serde, rows: 0 };
        if header {
            let mut pending = table.serde.get_ref().0.borrow_mut();
            let mut row = RowCells::new(&mut pending);
            for column in columns {
                row.text(column.name.as_bytes());
            }
            row.end();
            drop(pending);
        }
        Ok(table)
    }

    /// Writes one row through serde.
    pub fn write<T: Serialize>(&mut self, row: &T) -> io::Result<()> {
        self.serde.serialize(row).map_err(into_io)?;
        // Flushing a writer into a Vec moves csv's buffer into the Vec and nothing else.
        self.serde.flush()?;
        self.row_written()
    }

    /// Writes one row that writes its own cells.
    pub fn write_cells<T: Cells + ?Sized>(&mut self, row: &T) -> io::Result<()> {
        {
            let mut pending = self.serde.get_ref().0.borrow_mut();
            let mut cells = RowCells::new(&mut pending);
            row.cells(&mut cells);
            cells.end();
        }
        self.row_written()
    }

    /// Counts a row and hands the pending bytes on once there are enough.
    fn row_written(&mut self) -> io::Result<()> {
        self.rows += 1;
        if self.serde.get_ref().0.borrow().len() >= CHUNK { self.write_pending() } else { Ok(()) }
    }

    /// Writes the pending bytes to the underlying writer.
    fn write_pending(&mut self) -> io::Result<()> {
        let mut pending = self.serde.get_ref().0.borrow_mut();
        let written = self.out.write_all(&pending);
        pending.clear();
        written
    }

    /// Number of rows written (the header not counted).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes buffered rows to the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.out.flush()
    }

    /// Flushes and returns the underlying writer.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.flush()?;
        Ok(self.out)
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

    #[test]
    fn rows_with_their_own_cells_are_the_bytes_serde_writes() {
        let texts =
            ["", "a.sgf", "x,y", "say \"hi\"", "\"", "line\nbreak", "cr\r", "'=1+1", "李世石", " "];
        let mut serde_table = CsvTable::new(Vec::new(), FindingRow::COLUMNS, true).unwrap();
        let mut cells_table = CsvTable::new(Vec::new(), FindingRow::COLUMNS, true).unwrap();
        for (i, text) in texts.iter().enumerate() {
            for (j, other) in texts.iter().enumerate() {
                let row = FindingRow {
                    source: (*text).into(),
                    game: i as u32 * 1000,
                    move_number: if j == 0 { u32::MAX } else { j as u32 },
                    code: "ko",
                    severity: "error",
                    message: (*other).into(),
                    line: if j % 2 == 0 { None } else { Some(j as u32) },
                    offset: if i % 2 == 0 { Some(u64::MAX - j as u64) } else { None },
                };
                serde_table.write(&row).unwrap();
                cells_table.write_cells(&row).unwrap();
            }
        }
        assert_eq!(cells_table.rows(), serde_table.rows());
        let serde_bytes = serde_table.into_inner().unwrap();
        assert_eq!(
            String::from_utf8(cells_table.into_inner().unwrap()).unwrap(),
            String::from_utf8(serde_bytes).unwrap()
        );
    }

    #[test]
    fn a_row_of_one_empty_cell_is_two_quotes_as_csv_writes_it() {
        struct Empty;
        impl Cells for Empty {
            fn cells(&self, row: &mut RowCells<'_>) {
                row.text(b"");
            }
        }
        let mut t = CsvTable::new(Vec::new(), &[], false).unwrap();
        t.write_cells(&Empty).unwrap();
        t.write(&("",)).unwrap();
        assert_eq!(t.into_inner().unwrap(), b"\"\"\n\"\"\n");
    }

    #[test]
    fn many_rows_reach_the_writer_in_order() {
        let mut t = CsvTable::new(Vec::new(), FindingRow::COLUMNS, true).unwrap();
        let mut expected = String::from("source,game,move,code,severity,message,line,offset\n");
        for n in 0..2000u32 {
            let row = FindingRow {
                source: "s".into(),
                game: n,
                move_number: 0,
                code: "ko",
                severity: "info",
                message: "m".into(),
                line: Some(n),
                offset: None,
            };
            if n % 3 == 0 {
                t.write(&row).unwrap()
            } else {
                t.write_cells(&row).unwrap()
            }
            expected.push_str(&format!("s,{n},0,ko,info,m,{n},\n"));
        }
        assert_eq!(String::from_utf8(t.into_inner().unwrap()).unwrap(), expected);
    }
}
