//! The output folder of `kifu clean`: the cleaned games, `manifest.csv`, and `duplicates.csv`
//! when duplicates are dropped; complete, or not there at all.
//!
//! - The folder must be new or empty: `kifu clean` never overwrites or mixes with what is
//!   there, and everything in the folder after a run comes from that run.
//! - Game files are created with `create_new` (never following or replacing an existing file)
//!   at paths from [`super::output_paths`], which never leave the folder.
//! - `manifest.csv` and `duplicates.csv` are [`AtomicFile`]s, renamed into place last, so a
//!   folder with a manifest holds a finished run.
//! - A run that fails or is interrupted removes what it wrote ([`CleanFolder`] does so when
//!   dropped uncommitted) and leaves the folder as it found it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::atomic::AtomicFile;
use super::folder::with_path;
use super::output_paths::OutputNames;
use super::rows::Column;
use super::table::CsvTable;

/// The manifest's file name.
pub const MANIFEST_FILE: &str = "manifest.csv";

/// One row of `manifest.csv`: what became of one input game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ManifestRow {
    /// See [`ManifestRow::COLUMNS`].
    pub source: String,
    /// See [`ManifestRow::COLUMNS`].
    pub game: u32,
    /// See [`ManifestRow::COLUMNS`].
    pub status: &'static str,
    /// See [`ManifestRow::COLUMNS`].
    pub action: &'static str,
    /// See [`ManifestRow::COLUMNS`].
    pub reason: &'static str,
    /// See [`ManifestRow::COLUMNS`].
    pub output: String,
    /// See [`ManifestRow::COLUMNS`].
    pub output_game: Option<u32>,
    /// See [`ManifestRow::COLUMNS`].
    pub group: Option<u32>,
    /// See [`ManifestRow::COLUMNS`].
    pub kept_source: String,
    /// See [`ManifestRow::COLUMNS`].
    pub kept_game: Option<u32>,
    /// See [`ManifestRow::COLUMNS`].
    pub detail: String,
}

const fn col(name: &'static str, meaning: &'static str) -> Column {
    Column { name, meaning }
}

impl ManifestRow {
    /// The columns of `manifest.csv`, in order.
    pub const COLUMNS: &'static [Column] = &[
        col("source", "as in games.csv"),
        col("game", "as in games.csv"),
        col("status", "as in games.csv: `ok`, `illegal` or `unparsed`"),
        col("action", "`written` or `dropped`"),
        col(
            "reason",
            "why it was dropped: `unparsed`, `lenient`, `empty`, `illegal`, `duplicate`, `unverified` (the rewritten game did not read back the same: a kifu bug) or `internal` (kifu failed on it); empty when written",
        ),
        col(
            "output",
            "the file it was written to, relative to the output folder; empty when dropped",
        ),
        col("output_game", "1-based index of the game in that file"),
        col("group", "its group in duplicates.csv, when it is in one (with `--drop duplicates`)"),
        col("kept_source", "for a dropped duplicate, the source of the record kept instead"),
        col("kept_game", "for a dropped duplicate, the game index of the record kept instead"),
        col(
            "detail",
            "for a written game, what was normalised (`; `-separated, e.g. `KM[650] -> KM[6.5] (Fox units)`); for a dropped one, why, in words",
        ),
    ];
}

/// The output folder of a run in progress.
#[derive(Debug)]
pub struct CleanFolder {
    dir: PathBuf,
    created_dir: bool,
    /// Files and folders created, in order, for the rollback.
    created: Vec<PathBuf>,
    names: OutputNames,
    current: Option<OpenGameFile>,
    /// Always `Some` until the commit takes it.
    manifest: Option<CsvTable<AtomicFile>>,
    duplicates: Option<CsvTable<AtomicFile>>,
    committed: bool,
    files: u64,
}

#[derive(Debug)]
struct OpenGameFile {
    relative: String,
    writer: BufWriter<File>,
    games: u32,
}

impl CleanFolder {
    /// Creates `dir` (and its parents) if missing, refusing one that is not empty, and opens
    /// the manifest (and `duplicates.csv` with the given columns, when asked).
    pub fn create(dir: &Path, duplicate_columns: Option<&[Column]>) -> io::Result<CleanFolder> {
        let created_dir = !dir.exists();
        if created_dir {
            fs::create_dir_all(dir).map_err(|e| with_path(dir, e))?;
        } else {
            let mut entries = fs::read_dir(dir).map_err(|e| with_path(dir, e))?;
            if entries.next().is_some() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "{}: the output folder is not empty; kifu clean writes only into a new \
                         or empty folder",
                        dir.display()
                    ),
                ));
            }
        }
        let open = |name: &str, columns: &[Column]| -> io::Result<CsvTable<AtomicFile>> {
            let path = dir.join(name);
            let file = AtomicFile::create(&path).map_err(|e| with_path(&path, e))?;
            CsvTable::new(file, columns, true).map_err(|e| with_path(&path, e))
        };
        let manifest = open(MANIFEST_FILE, ManifestRow::COLUMNS)?;
        let duplicates = match duplicate_columns {
            Some(columns) => Some(open(super::duplicates::DUPLICATES_FILE, columns)?),
            None => None,
        };
        Ok(CleanFolder {
            dir: dir.to_path_buf(),
            created_dir,
            created: Vec::new(),
            names: OutputNames::new(),
            current: None,
            manifest: Some(manifest),
            duplicates,
            committed: false,
            files: 0,
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Game files written so far.
    pub fn files(&self) -> u64 {
        self.files
    }

    /// Closes the game file in hand (if any) and creates a new one at a unique path for
    /// `components` ([`super::output_paths::relative_path`]); returns its path relative to the
    /// folder.
    pub fn start_file(&mut self, components: &[String]) -> io::Result<String> {
        self.close_file()?;
        let relative = self.names.assign(components);
        let mut path = self.dir.clone();
        let parts: Vec<&str> = relative.split('/').collect();
        for folder in &parts[..parts.len() - 1] {
            path.push(folder);
            match fs::create_dir(&path) {
                Ok(()) => self.created.push(path.clone()),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && path.is_dir() => {}
                Err(e) => return Err(with_path(&path, e)),
            }
        }
        path.push(parts[parts.len() - 1]);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| with_path(&path, e))?;
        self.created.push(path);
        self.files += 1;
        self.current = Some(OpenGameFile {
            relative: relative.clone(),
            writer: BufWriter::new(file),
            games: 0,
        });
        Ok(relative)
    }

    /// Appends one game's text to the file in hand; its 1-based index in the file.
    pub fn append(&mut self, text: &str) -> io::Result<u32> {
        let dir = &self.dir;
        let current = self.current.as_mut().ok_or_else(|| {
            io::Error::other("kifu clean: a game was written before its file was started")
        })?;
        current
            .writer
            .write_all(text.as_bytes())
            .map_err(|e| with_path(&dir.join(&current.relative), e))?;
        current.games += 1;
        Ok(current.games)
    }

    /// Whether a game file is open.
    pub fn has_file(&self) -> bool {
        self.current.is_some()
    }

    /// Flushes and closes the game file in hand, if any.
    pub fn close_file(&mut self) -> io::Result<()> {
        if let Some(mut current) = self.current.take() {
            let path = self.dir.join(&current.relative);
            current.writer.flush().map_err(|e| with_path(&path, e))?;
        }
        Ok(())
    }

    /// Writes one manifest row.
    pub fn write_row(&mut self, row: &ManifestRow) -> io::Result<()> {
        let path = self.dir.join(MANIFEST_FILE);
        match &mut self.manifest {
            Some(table) => table.write(row).map_err(|e| with_path(&path, e)),
            None => Err(io::Error::other("kifu clean: a manifest row after the commit")),
        }
    }

    /// Manifest rows written so far.
    pub fn rows(&self) -> u64 {
        self.manifest.as_ref().map_or(0, CsvTable::rows)
    }

    /// The `duplicates.csv` table, when the folder has one.
    pub fn duplicates(&mut self) -> Option<&mut CsvTable<AtomicFile>> {
        self.duplicates.as_mut()
    }

    /// Closes the last game file and moves `duplicates.csv` and the manifest into place.
    pub fn commit(mut self) -> io::Result<()> {
        self.close_file()?;
        let mut files = Vec::new();
        for table in [self.duplicates.take(), self.manifest.take()].into_iter().flatten() {
            files.push(table.into_inner()?);
        }
        for file in files {
            let target = file.target().to_path_buf();
            file.commit().map_err(|e| with_path(&target, e))?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for CleanFolder {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        // Not committed: an error or Ctrl-C. Take back everything this run wrote.
        self.current = None;
        for path in self.created.iter().rev() {
            let _ = if path.is_dir() { fs::remove_dir(path) } else { fs::remove_file(path) };
        }
        if self.created_dir {
            self.duplicates = None;
            // The temporary manifest files go with their tables; then the folder itself.
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}
