//! Files that appear whole or not at all: written under a temporary name in the target folder,
//! renamed into place on commit, removed when dropped uncommitted.
//!
//! An interrupted run (Ctrl-C, a full disk, a crash of the process) must never leave half a
//! report that looks like a whole one. Writing to `.NAME.PID.tmp` next to the target and renaming
//! it gives that: `rename` within one folder is atomic on POSIX file systems, and the temporary
//! name starts with a dot so it does not show up among the reports. A second Ctrl-C kills the
//! process at once and may leave a `.tmp` file behind, but never a partial `NAME`.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written under a temporary name.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temporary: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file for `target` (in the same folder, which must exist).
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        let name = target.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "a report file needs a file name")
        })?;
        let mut temporary_name = std::ffi::OsString::from(".");
        temporary_name.push(name);
        temporary_name.push(format!(".{}.tmp", std::process::id()));
        let temporary = target.with_file_name(temporary_name);
        let file = File::create(&temporary)?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temporary,
            writer: Some(BufWriter::with_capacity(256 * 1024, file)),
        })
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes, syncs and moves the file into place.
    pub fn commit(mut self) -> io::Result<()> {
        if let Some(writer) = self.writer.take() {
            let file = writer.into_inner().map_err(io::IntoInnerError::into_error)?;
            file.sync_all()?;
        }
        fs::rename(&self.temporary, &self.target)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.writer {
            Some(w) => w.write(buf),
            None => Err(io::Error::other("write after commit")),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.writer {
            Some(w) => w.write_all(buf),
            None => Err(io::Error::other("write after commit")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.writer {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            // Never committed: the run failed or was interrupted. Leave no trace.
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "kifu-atomic-{}-{}-{name}",
            std::process::id(),
            line!()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_target_appears_only_on_commit() {
        let dir = scratch("commit");
        let target = dir.join("games.csv");
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"source,game\n").unwrap();
        assert!(!target.exists(), "nothing under the real name before commit");
        assert_eq!(names(&dir).len(), 1);
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "source,game\n");
        assert_eq!(names(&dir), ["games.csv"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn dropping_uncommitted_leaves_the_old_report_untouched() {
        let dir = scratch("drop");
        let target = dir.join("games.csv");
        fs::write(&target, "old report\n").unwrap();
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"half a new rep").unwrap();
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "old report\n");
        assert_eq!(names(&dir), ["games.csv"]);
        fs::remove_dir_all(dir).unwrap();
    }
}
