//! The report folder of `kifu audit`: four CSV files and `summary.txt`, written whole or not at
//! all.
//!
//! Every file is an [`AtomicFile`]; [`ReportFolder::commit`] renames them into place only after
//! the last row is written and flushed (the summary last, so a `summary.txt` newer than the CSVs
//! means a finished run). Dropping the folder without committing (an error, Ctrl-C) removes the
//! temporary files and leaves any earlier report untouched.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::atomic::AtomicFile;
use super::rows::{DisagreementRow, FindingRow, GameReport, GameRow, ScoreRow};
use super::table::CsvTable;

/// The names of the files `kifu audit` writes, in the order they are committed.
pub const REPORT_FILES: [&str; 5] =
    ["games.csv", "findings.csv", "scores.csv", "disagreements.csv", "summary.txt"];

/// An I/O error with the path it happened on, keeping the error's kind (so that callers can still
/// tell a broken pipe or a permission problem).
pub fn with_path(path: &Path, err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}

/// The open report folder of a run in progress.
#[derive(Debug)]
pub struct ReportFolder {
    dir: PathBuf,
    games: CsvTable<AtomicFile>,
    findings: CsvTable<AtomicFile>,
    scores: CsvTable<AtomicFile>,
    disagreements: CsvTable<AtomicFile>,
    summary: AtomicFile,
}

impl ReportFolder {
    /// Creates `dir` (and its parents) if missing and opens the temporary files. Fails when the
    /// folder cannot be created or written to: the run must not start.
    pub fn create(dir: &Path) -> io::Result<ReportFolder> {
        fs::create_dir_all(dir).map_err(|e| with_path(dir, e))?;
        let open = |name: &str, columns| {
            let path = dir.join(name);
            let file = AtomicFile::create(&path).map_err(|e| with_path(&path, e))?;
            CsvTable::new(file, columns, true).map_err(|e| with_path(&path, e))
        };
        let summary_path = dir.join(REPORT_FILES[4]);
        Ok(ReportFolder {
            dir: dir.to_path_buf(),
            games: open(REPORT_FILES[0], GameRow::COLUMNS)?,
            findings: open(REPORT_FILES[1], FindingRow::COLUMNS)?,
            scores: open(REPORT_FILES[2], ScoreRow::COLUMNS)?,
            disagreements: open(REPORT_FILES[3], DisagreementRow::COLUMNS)?,
            summary: AtomicFile::create(&summary_path).map_err(|e| with_path(&summary_path, e))?,
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes one game's rows.
    pub fn write_game(&mut self, report: &GameReport) -> io::Result<()> {
        if let Some(game) = &report.game {
            self.games.write(game).map_err(|e| self.context(0, e))?;
        }
        for row in &report.findings {
            self.findings.write(row).map_err(|e| self.context(1, e))?;
        }
        for row in &report.scores {
            self.scores.write(row).map_err(|e| self.context(2, e))?;
        }
        for row in &report.disagreements {
            self.disagreements.write(row).map_err(|e| self.context(3, e))?;
        }
        Ok(())
    }

    /// Writes findings about a source as a whole (game 0).
    pub fn write_source_findings(&mut self, rows: &[FindingRow]) -> io::Result<()> {
        for row in rows {
            self.findings.write(row).map_err(|e| self.context(1, e))?;
        }
        Ok(())
    }

    /// Rows written so far to games, findings, scores and disagreements.
    pub fn row_counts(&self) -> [u64; 4] {
        [self.games.rows(), self.findings.rows(), self.scores.rows(), self.disagreements.rows()]
    }

    /// Writes `summary` and moves every file into place.
    pub fn commit(mut self, summary: &str) -> io::Result<()> {
        let summary_path = self.summary.target().to_path_buf();
        self.summary.write_all(summary.as_bytes()).map_err(|e| with_path(&summary_path, e))?;
        let dir = self.dir;
        let tables = [self.games, self.findings, self.scores, self.disagreements];
        // Flush every CSV before renaming any, so that a full disk leaves the old report whole.
        let mut files = Vec::with_capacity(tables.len());
        for (table, name) in tables.into_iter().zip(REPORT_FILES) {
            files.push(table.into_inner().map_err(|e| with_path(&dir.join(name), e))?);
        }
        for file in files {
            let target = file.target().to_path_buf();
            file.commit().map_err(|e| with_path(&target, e))?;
        }
        self.summary.commit().map_err(|e| with_path(&summary_path, e))
    }

    fn context(&self, file: usize, err: io::Error) -> io::Error {
        with_path(&self.dir.join(REPORT_FILES[file]), err)
    }
}
