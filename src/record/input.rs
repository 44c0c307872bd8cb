//! Inputs: what the user pointed kifu at, turned into a stream of [`Source`]s (a name and its
//! bytes), one at a time, in a fixed order.
//!
//! - A file is read whatever its extension, except that an archive extension (`.zip`,
//!   `.tar`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tar.xz`, ...) opens it as an archive
//!   ([`super::archive`]).
//! - A folder is walked recursively (walkdir); its `*.sgf` files (any case) and archives are
//!   read, hidden ones included. Entries are sorted by name at every level, so the order does
//!   not depend on the file system. Symbolic links to files are read; links to folders are
//!   followed only with [`super::ReadOptions::follow_links`], and a link loop is then reported
//!   as an `io` finding instead of being walked forever.
//! - `-` is standard input: an SGF file, or an archive recognised by its magic number.
//!
//! Order: inputs in the order given; folder entries by name; archive members in stored order.
//! Nothing is dropped: a path that cannot be read, a folder entry that cannot be listed, a
//! file over the size limit each yield a source whose content is the [`Finding`] that says
//! why, so the report can account for it and the run goes on.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::archive::{ArchiveKind, Member, Members, is_sgf_name};
use super::{Limits, ReadOptions};
use crate::finding::{Code, Finding};

/// One thing to split into games: a file, an archive member or standard input.
#[derive(Clone, Debug)]
pub struct Source {
    /// As the report shows it: the path as given or found in a folder, `archive!member`, or
    /// `-` for standard input.
    pub name: String,
    /// The bytes, or why they could not be read (`io`, `archive`, `limit`, `no-game`).
    pub bytes: Result<Arc<[u8]>, Finding>,
}

/// The sources of a list of inputs, in order: see the module documentation.
pub fn sources<I, P>(inputs: I, options: &ReadOptions) -> Sources
where
    I: IntoIterator<Item = P>,
    P: Into<PathBuf>,
{
    Sources {
        queue: inputs.into_iter().map(Into::into).collect(),
        walker: None,
        archives: Vec::new(),
        limits: options.limits,
        follow_links: options.follow_links,
    }
}

/// An iterator over [`Source`]s; see [`sources`].
pub struct Sources {
    queue: VecDeque<PathBuf>,
    walker: Option<walkdir::IntoIter>,
    /// Archives being read, innermost last.
    archives: Vec<Members>,
    limits: Limits,
    follow_links: bool,
}

impl Iterator for Sources {
    type Item = Source;

    fn next(&mut self) -> Option<Source> {
        loop {
            if let Some(members) = self.archives.last_mut() {
                match members.next() {
                    Some(Member::Source(source)) => return Some(source),
                    Some(Member::Nested { name, kind, bytes, depth, budget }) => {
                        let nested = Members::open_bytes(
                            name,
                            kind,
                            bytes,
                            depth,
                            Some(budget),
                            self.limits,
                        );
                        self.archives.push(nested);
                    }
                    None => {
                        self.archives.pop();
                    }
                }
                continue;
            }
            if let Some(walker) = &mut self.walker {
                match walker.next() {
                    None => self.walker = None,
                    Some(Err(e)) => return Some(walk_error(&e)),
                    Some(Ok(entry)) => {
                        if let Some(source) = self.folder_entry(&entry) {
                            return Some(source);
                        }
                    }
                }
                continue;
            }
            let path = self.queue.pop_front()?;
            if path.as_os_str() == "-" {
                match read_stdin(self.limits) {
                    Ok(bytes) => match ArchiveKind::from_magic(&bytes) {
                        Some(kind) => {
                            let members =
                                Members::open_bytes("-".into(), kind, bytes, 1, None, self.limits);
                            self.archives.push(members);
                        }
                        None => return Some(Source { name: "-".into(), bytes: Ok(bytes) }),
                    },
                    Err(finding) => return Some(Source { name: "-".into(), bytes: Err(finding) }),
                }
                continue;
            }
            let name = path.display().to_string();
            match std::fs::metadata(&path) {
                Err(e) => {
                    let finding = Finding::new(Code::Io, 0, format!("cannot read: {e}"));
                    return Some(Source { name, bytes: Err(finding) });
                }
                Ok(meta) if meta.is_dir() => {
                    // In file-name order. Siblings share their parent's path, so comparing
                    // whole paths as bytes orders them as their names do; walkdir's
                    // `sort_by_file_name` gets the same order but parses both paths at every
                    // comparison, which cost more than reading the files in a flat folder
                    // of thousands.
                    let walker = walkdir::WalkDir::new(&path)
                        .follow_links(self.follow_links)
                        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
                        .into_iter();
                    self.walker = Some(walker);
                }
                Ok(_) => match ArchiveKind::from_name(&name) {
                    Some(kind) => {
                        self.archives.push(Members::open_file(&path, name, kind, self.limits));
                    }
                    None => return Some(read_file(&path, name, self.limits)),
                },
            }
        }
    }
}

impl Sources {
    /// What one folder entry yields: an SGF file, an archive to open (None, pushed), or
    /// nothing (folders, other files).
    fn folder_entry(&mut self, entry: &walkdir::DirEntry) -> Option<Source> {
        let file_type = entry.file_type();
        if file_type.is_dir() {
            return None;
        }
        let file_name = entry.file_name().to_string_lossy();
        let archive = ArchiveKind::from_name(&file_name);
        if archive.is_none() && !is_sgf_name(&file_name) {
            return None;
        }
        // A link that was not followed: read it if it leads to a file.
        if file_type.is_symlink() && !entry.path().is_file() {
            return None;
        }
        let name = entry.path().display().to_string();
        match archive {
            Some(kind) => {
                self.archives.push(Members::open_file(entry.path(), name, kind, self.limits));
                None
            }
            None => Some(read_file(entry.path(), name, self.limits)),
        }
    }
}

/// A folder entry that could not be listed, or a link loop.
fn walk_error(e: &walkdir::Error) -> Source {
    let name = e.path().map_or_else(|| "?".to_owned(), |p| p.display().to_string());
    let message = match e.loop_ancestor() {
        Some(ancestor) => {
            format!("symbolic link loop back to {}: not followed", ancestor.display())
        }
        None => format!(
            "cannot read: {}",
            e.io_error().map_or_else(|| e.to_string(), ToString::to_string)
        ),
    };
    Source { name, bytes: Err(Finding::new(Code::Io, 0, message)) }
}

fn too_large(size: u64, limits: Limits) -> Finding {
    Finding::new(
        Code::Limit,
        0,
        format!("{size} bytes, over the size limit of {} bytes", limits.max_file_size),
    )
}

/// Reads a whole file within the size limit.
fn read_file(path: &Path, name: String, limits: Limits) -> Source {
    let read = || -> Result<Arc<[u8]>, Finding> {
        let io = |e: std::io::Error| Finding::new(Code::Io, 0, format!("cannot read: {e}"));
        let file = File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size > limits.max_file_size {
            return Err(too_large(size, limits));
        }
        read_limited(file, size, limits).map_err(|e| e.unwrap_or_else(|| too_large(size, limits)))
    };
    Source { name, bytes: read() }
}

/// Reads `reader` to its end, refusing more than the size limit. `Err(None)` when over it.
fn read_limited(
    reader: impl Read,
    size_hint: u64,
    limits: Limits,
) -> Result<Arc<[u8]>, Option<Finding>> {
    let max = limits.max_file_size;
    let mut bytes = Vec::with_capacity(usize::try_from(size_hint.min(max)).unwrap_or(0));
    reader
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Some(Finding::new(Code::Io, 0, format!("cannot read: {e}"))))?;
    if bytes.len() as u64 > max {
        return Err(None);
    }
    Ok(Arc::from(bytes))
}

fn read_stdin(limits: Limits) -> Result<Arc<[u8]>, Finding> {
    let stdin = std::io::stdin().lock();
    read_limited(stdin, 0, limits).map_err(|e| {
        e.unwrap_or_else(|| {
            let message = format!("more than the size limit of {} bytes", limits.max_file_size);
            Finding::new(Code::Limit, 0, message)
        })
    })
}
