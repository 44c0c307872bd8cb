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
use std::io::{IoSliceMut, Read, Seek};
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
    /// The bytes, or why they could not be read (`io`, `archive`, `limit`, `no-game`). Empty
    /// for a file left to be read part by part ([`Source::large`]).
    pub bytes: Result<Arc<[u8]>, Finding>,
    /// A file larger than [`ReadOptions::stream_above`], not read yet: [`super::split_parts`]
    /// reads it part by part, [`super::split_source`] whole.
    pub large: Option<LargeFile>,
}

impl Source {
    /// A source whose bytes (or the reason they could not be read) are in hand.
    pub fn read(name: String, bytes: Result<Arc<[u8]>, Finding>) -> Source {
        Source { name, bytes, large: None }
    }
}

/// A file left unread by [`sources`] because of its size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LargeFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its size when it was found, in bytes.
    pub size: u64,
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
        stream_above: options.stream_above,
        first_read: Vec::new(),
        folder: Folder::new(),
        defer_files: false,
        read_a_file: false,
    }
}

/// What [`Sources::next_found`] yields: a source, or a file found in a folder and left for
/// someone else to read ([`Sources::deferring_files`]).
#[derive(Debug)]
pub enum Found {
    /// A source read (or found unreadable), as [`Sources`] yields it.
    Source(Source),
    /// A regular file of a folder (or a link to one), named like a game, not opened yet.
    File(FoundFile),
}

/// A regular file found in a folder and not read yet: [`read_small`] reads it where it will be
/// split, or [`sources`] over its path reads it as if found in its folder.
///
/// Its path is its source name too ([`FoundFile::name`]): the path the walk made is handed on,
/// not copied, and becomes the name of the source read from it without a copy either (two
/// strings a file fewer, made on the walking thread and freed on another).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundFile {
    /// Where it is, as the folder walk found it.
    pub path: PathBuf,
}

impl FoundFile {
    /// Its source name: the path as `path.display()` writes it, invalid UTF-8 replaced.
    pub fn name(&self) -> String {
        path_name(&self.path)
    }

    /// Its source name, made of its path without a copy where the path is valid UTF-8.
    fn into_name(self) -> String {
        self.path.into_os_string().into_string().unwrap_or_else(|path| path_name(Path::new(&path)))
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
    stream_above: Option<u64>,
    /// Where a regular file's first read lands ([`read_file`]), kept from file to file.
    first_read: Vec<u8>,
    /// The folder of the last file read, open.
    folder: Folder,
    /// Whether a folder's regular files are yielded unread ([`Found::File`]).
    defer_files: bool,
    /// Whether a file of a folder was read here yet: the walk's first one always is (see
    /// [`Sources::deferring_files`]).
    read_a_file: bool,
}

impl Iterator for Sources {
    type Item = Source;

    fn next(&mut self) -> Option<Source> {
        match self.next_found()? {
            Found::Source(source) => Some(source),
            Found::File(file) => Some(self.read_file(file, true)),
        }
    }
}

impl Sources {
    /// Regular files found in folders (and links to them) are yielded by
    /// [`Sources::next_found`] unread, as [`Found::File`], for the caller to read where it
    /// will split them: opening and reading thousands of small files is most of the work of
    /// finding them, and can then be shared out. Files named on their own, standard input,
    /// archives and their members, FIFOs and devices are read here as before, and so is the
    /// first file the walk finds: a folder that holds one large collection (a usual layout,
    /// and the bench's) would otherwise send it to be read elsewhere only to learn that it is
    /// too large to split there, and have it read here after all, in a run of its own. (Only
    /// the first: a later large file costs that detour against the whole run, not before its
    /// first game.)
    #[must_use]
    pub fn deferring_files(mut self) -> Sources {
        self.defer_files = true;
        self
    }

    /// The next source or, with [`Sources::deferring_files`], file left unread; in the order
    /// of the module documentation either way.
    pub fn next_found(&mut self) -> Option<Found> {
        loop {
            if let Some(members) = self.archives.last_mut() {
                match members.next() {
                    Some(Member::Source(source)) => return Some(Found::Source(source)),
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
                    Some(Err(e)) => return Some(Found::Source(walk_error(&e))),
                    Some(Ok(entry)) => {
                        if let Some(found) = self.folder_entry(entry) {
                            return Some(found);
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
                        None => return Some(Found::Source(Source::read("-".into(), Ok(bytes)))),
                    },
                    Err(finding) => {
                        return Some(Found::Source(Source::read("-".into(), Err(finding))));
                    }
                }
                continue;
            }
            let name = path_name(&path);
            match std::fs::metadata(&path) {
                Err(e) => {
                    let finding = Finding::new(Code::Io, 0, format!("cannot read: {e}"));
                    return Some(Found::Source(Source::read(name, Err(finding))));
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
                Ok(meta) => match ArchiveKind::from_name(&name) {
                    Some(kind) => {
                        self.archives.push(Members::open_file(&path, name, kind, self.limits));
                    }
                    None => {
                        let regular = meta.is_file();
                        let source = self.read_file(FoundFile { path }, regular);
                        return Some(Found::Source(source));
                    }
                },
            }
        }
    }

    /// What one folder entry yields: an SGF file (read, or left unread when deferring), an
    /// archive to open (None, pushed), or nothing (folders, other files).
    fn folder_entry(&mut self, entry: walkdir::DirEntry) -> Option<Found> {
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
        match archive {
            Some(kind) => {
                let name = path_name(entry.path());
                self.archives.push(Members::open_file(entry.path(), name, kind, self.limits));
                None
            }
            // A regular file, or a link that leads to one (checked above), may take the first
            // read's short cut; a FIFO or a device named like a game may stop a read short
            // anywhere, and is read as measured.
            None => {
                let regular = file_type.is_file() || file_type.is_symlink();
                let file = FoundFile { path: entry.into_path() };
                if regular && self.defer_files && self.read_a_file {
                    return Some(Found::File(file));
                }
                self.read_a_file = true;
                Some(Found::Source(self.read_file(file, regular)))
            }
        }
    }

    /// [`read_file`] with this iterator's limits and first-read buffer.
    fn read_file(&mut self, file: FoundFile, regular: bool) -> Source {
        let first_read = regular.then_some(&mut self.first_read);
        read_file(file, self.limits, self.stream_above, first_read, &mut self.folder)
    }
}

/// A path as a source name: as `path.display()` writes it (invalid UTF-8 replaced), without
/// going through the formatter for the usual path that is valid UTF-8, where the two are the
/// same text and the formatter cost a thousand instructions a file.
fn path_name(path: &Path) -> String {
    match path.to_str() {
        Some(text) => text.to_owned(),
        None => path.display().to_string(),
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
    Source::read(name, Err(Finding::new(Code::Io, 0, message)))
}

fn too_large(size: u64, limits: Limits) -> Finding {
    Finding::new(
        Code::Limit,
        0,
        format!("{size} bytes, over the size limit of {} bytes", limits.max_file_size),
    )
}

/// Up to `limit` regular files of `folder` itself (not of its subfolders) that a walk of it
/// yields (named like games, not archives, hidden ones included), in the order the file system
/// lists them rather than by name, each with the path the walk gives it: a guess at some of
/// the walk's files, read before the walk has listed and sorted the whole folder. A file of
/// these may yet not come from the walk (deleted meanwhile); one the walk yields may not be
/// here (a link, past the limit). Nothing when `folder` cannot be listed.
pub fn first_files(folder: &Path, limit: usize) -> impl Iterator<Item = FoundFile> {
    let entries = std::fs::read_dir(folder).into_iter().flatten().flatten();
    entries
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            entry.file_type().is_ok_and(|t| t.is_file())
                && is_sgf_name(&name)
                && ArchiveKind::from_name(&name).is_none()
        })
        .take(limit)
        .map(|entry| FoundFile { path: entry.path() })
}

/// The largest file [`read_small`] reads: one first read's worth.
pub const SMALL_READ: usize = FIRST_READ;

/// Reads a file left unread by [`Sources::deferring_files`] if it holds at most [`SMALL_READ`]
/// bytes, into `buffer` first (kept from file to file by the caller), as [`Sources`] would
/// have read it: the same bytes, or the same finding when it cannot be read or is over the
/// size limit. `Err` gives the file back when it is larger: read it with [`sources`] over its
/// path, which reads it as its folder's walk would have.
pub fn read_small(
    file: FoundFile,
    limits: Limits,
    buffer: &mut Vec<u8>,
    folder: &mut Folder,
) -> Result<Source, FoundFile> {
    let small = Some(SMALL_READ as u64);
    let source = read_file(file, limits, small, Some(buffer), folder);
    match source.large {
        None => Ok(source),
        Some(large) => Err(FoundFile { path: large.path }),
    }
}

/// The folder of the last file opened, itself held open, so that the next file of the same
/// folder is opened relative to it (`openat`): the kernel then looks up one name instead of
/// every component of the path. Opening, reading and closing 4,266 files named by paths of five
/// components took 23.5 ms of kernel time here, 19.9 ms relative to their folder (the same
/// files and calls in C, median of 10); most of the difference is the dentry look-ups.
#[derive(Debug, Default)]
pub struct Folder {
    #[cfg(unix)]
    open: Option<(PathBuf, std::os::fd::OwnedFd)>,
}

impl Folder {
    /// No folder open yet.
    pub const fn new() -> Folder {
        Folder {
            #[cfg(unix)]
            open: None,
        }
    }

    /// Opens `path` for reading, relative to its folder when it can: as `File::open` does
    /// (the same file, the same errors), through the folder opened last or now.
    fn open(&mut self, path: &Path) -> std::io::Result<File> {
        #[cfg(unix)]
        if let Some((parent, name)) = split_name(path) {
            use rustix::fs::{Mode, OFlags};
            let same = |(open, _): &(PathBuf, _)| open.as_os_str() == parent.as_os_str();
            if !self.open.as_ref().is_some_and(same) {
                // A folder that cannot be opened (searched only) leaves the whole path.
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                let folder = retry(|| rustix::fs::open(parent, flags, Mode::empty()));
                self.open = folder.ok().map(|fd| (parent.to_path_buf(), fd));
            }
            if let Some((_, folder)) = &self.open {
                let flags = OFlags::RDONLY | OFlags::CLOEXEC;
                let fd = retry(|| rustix::fs::openat(folder, name, flags, Mode::empty()))?;
                return Ok(File::from(fd));
            }
        }
        File::open(path)
    }
}

/// A path's folder and last name, for opening the name relative to the folder: the bytes
/// before and after the last `/`, when both are there and the name is a real one (not `.` or
/// `..`, the path not ending in `/`); else `Path::parent` and `Path::file_name`, with a folder
/// that is not empty. Splitting the bytes spares parsing every component of the path twice, a
/// thousand instructions a file (fox-pro: 10,349 files); the folder may keep a doubled `/`
/// that `Path::parent` would drop, which names the same folder.
#[cfg(unix)]
fn split_name(path: &Path) -> Option<(&Path, &std::ffi::OsStr)> {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    if let Some(slash) = memchr::memrchr(b'/', bytes) {
        let (folder, name) = (&bytes[..slash], &bytes[slash + 1..]);
        if !folder.is_empty() && !name.is_empty() && name != b"." && name != b".." {
            return Some((Path::new(OsStr::from_bytes(folder)), OsStr::from_bytes(name)));
        }
    }
    let (parent, name) = (path.parent()?, path.file_name()?);
    (!parent.as_os_str().is_empty()).then_some((parent, name))
}

/// A call retried while a signal interrupts it, as `File::open` retries.
#[cfg(unix)]
fn retry<T>(call: impl Fn() -> rustix::io::Result<T>) -> rustix::io::Result<T> {
    loop {
        match call() {
            Err(rustix::io::Errno::INTR) => {}
            done => return done,
        }
    }
}

/// Bytes a regular file's first read asks for: most files of a folder of games are smaller, and
/// are then read without measuring their size first.
const FIRST_READ: usize = 64 << 10;

/// Reads a whole file within the size limit.
///
/// A regular file (`first_read` is then a buffer to reuse) is first read into that buffer,
/// [`FIRST_READ`] bytes and one more: a read that stops short of them has met the end of the
/// file, which then needs no measuring (one system call less a file: 4,266 on a folder of as
/// many games). A read that fills the buffer, and anything that is not known to be a regular
/// file (a FIFO's read may stop short anywhere), is measured and read as before. The source is
/// named by the file's path, which becomes its name.
fn read_file(
    file: FoundFile,
    limits: Limits,
    stream_above: Option<u64>,
    first_read: Option<&mut Vec<u8>>,
    folder: &mut Folder,
) -> Source {
    let mut large = None;
    let path = file.path.as_path();
    let read = || -> Result<Arc<[u8]>, Finding> {
        let io = |e: std::io::Error| Finding::new(Code::Io, 0, format!("cannot read: {e}"));
        let mut file = folder.open(path).map_err(io)?;
        if let Some(buffer) = first_read {
            buffer.resize(FIRST_READ + 1, 0);
            let n = read_once(&mut file, buffer).map_err(io)?;
            if n < buffer.len() {
                let size = n as u64;
                if size > limits.max_file_size {
                    return Err(too_large(size, limits));
                }
                if stream_above.is_some_and(|above| size > above) {
                    large = Some(LargeFile { path: path.to_path_buf(), size });
                    return Ok(Arc::from(&[][..]));
                }
                return Ok(Arc::from(&buffer[..n]));
            }
            // Larger than the first read: from the start, measured.
            file.rewind().map_err(io)?;
        }
        let size = file.metadata().map_err(io)?.len();
        if size > limits.max_file_size {
            return Err(too_large(size, limits));
        }
        if stream_above.is_some_and(|above| size > above) {
            large = Some(LargeFile { path: path.to_path_buf(), size });
            return Ok(Arc::from(&[][..]));
        }
        read_limited(file, size, limits).map_err(|e| e.unwrap_or_else(|| too_large(size, limits)))
    };
    let bytes = read();
    Source { name: file.into_name(), bytes, large }
}

/// One read into `buffer`, retried when interrupted: the number of bytes read.
fn read_once(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match reader.read(buffer) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

/// Reads a file found too large to read at once ([`Source::large`]) whole after all, within
/// the size limit.
pub(super) fn read_large(large: &LargeFile, limits: Limits) -> Result<Arc<[u8]>, Finding> {
    let io = |e: std::io::Error| Finding::new(Code::Io, 0, format!("cannot read: {e}"));
    let file = File::open(&large.path).map_err(io)?;
    read_limited(file, large.size, limits)
        .map_err(|e| e.unwrap_or_else(|| too_large(large.size, limits)))
}

/// Reads `reader` to its end, refusing more than the size limit. `Err(None)` when over it.
fn read_limited(
    reader: impl Read,
    size_hint: u64,
    limits: Limits,
) -> Result<Arc<[u8]>, Option<Finding>> {
    let max = limits.max_file_size;
    let io = |e: std::io::Error| Some(Finding::new(Code::Io, 0, format!("cannot read: {e}")));
    let mut reader = reader;
    let mut bytes = Vec::new();
    if let Ok(expected) = usize::try_from(size_hint)
        && expected > 0
        && size_hint <= max
    {
        // The size is known (a file): read straight into the shared buffer, which saves
        // reading into a Vec and copying it into an Arc, for every file of a folder.
        let mut shared: Arc<[u8]> = std::iter::repeat_n(0u8, expected).collect();
        let buffer = Arc::get_mut(&mut shared).expect("a new Arc has no other owner");
        let mut probe = [0u8; 1];
        // One read asks for a byte more than the size measured: a file that has not grown
        // since fills the buffer and leaves the probe empty, and is taken as read whole without
        // a second read to see its end (one system call less a file: 4,266 on a folder of as
        // many games). Anything else reads on as before.
        let (filled, more) = match read_over(&mut reader, buffer, &mut probe).map_err(io)? {
            n if n > expected => (expected, 1),
            n if n == expected => return Ok(shared),
            n => {
                let filled = n + fill(&mut reader, &mut buffer[n..]).map_err(io)?;
                let more = if filled == expected {
                    fill(&mut reader, &mut probe).map_err(io)?
                } else {
                    0
                };
                if filled == expected && more == 0 {
                    return Ok(shared);
                }
                (filled, more)
            }
        };
        // The file changed size since it was measured: what was read, and the rest below.
        bytes.extend_from_slice(&shared[..filled]);
        bytes.extend_from_slice(&probe[..more]);
    }
    let read_so_far = bytes.len() as u64;
    if read_so_far <= max {
        reader.take(max.saturating_add(1) - read_so_far).read_to_end(&mut bytes).map_err(io)?;
    }
    if bytes.len() as u64 > max {
        return Err(None);
    }
    Ok(Arc::from(bytes))
}

/// One read into `buffer` and then `probe` (retried when interrupted, as `read_to_end` does):
/// the number of bytes read into both. A reader that cannot read into several buffers at once
/// reads into `buffer` only.
fn read_over(
    reader: &mut impl Read,
    buffer: &mut [u8],
    probe: &mut [u8],
) -> std::io::Result<usize> {
    loop {
        match reader.read_vectored(&mut [IoSliceMut::new(buffer), IoSliceMut::new(probe)]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

/// Reads into `buffer` until it is full or the reader ends (retrying interrupted reads, as
/// `read_to_end` does); the number of bytes read.
fn fill(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_path_splits_into_the_folder_and_name_path_parsing_finds() {
        for path in [
            "a/b.sgf",
            "/tmp/games/b.sgf",
            "a//b.sgf",
            "./b.sgf",
            "a/./b.sgf",
            "a/../b.sgf",
            "/b.sgf",
            "b.sgf",
            "a/b/",
            "a/b/.",
            "a/..",
            "/",
            "",
        ] {
            let path = Path::new(path);
            let split = split_name(path);
            let parsed = path
                .parent()
                .zip(path.file_name())
                .filter(|(parent, _)| !parent.as_os_str().is_empty());
            // The same name, and a folder that is the same once parsed (a doubled `/` aside).
            assert_eq!(split.map(|(_, name)| name), parsed.map(|(_, name)| name), "{path:?}");
            let split_folder = split.map(|(folder, _)| folder.components().collect::<Vec<_>>());
            let parsed_folder = parsed.map(|(folder, _)| folder.components().collect::<Vec<_>>());
            assert_eq!(split_folder, parsed_folder, "{path:?}");
        }
    }

    fn limits(max: u64) -> Limits {
        Limits { max_file_size: max, ..Limits::default() }
    }

    fn read(text: &[u8], hint: u64, max: u64) -> Result<Vec<u8>, Option<Finding>> {
        read_limited(text, hint, limits(max)).map(|bytes| bytes.to_vec())
    }

    #[test]
    fn a_file_of_the_size_measured_is_read_whole() {
        assert_eq!(read(b"(;B[pd])", 8, 100).unwrap(), b"(;B[pd])");
    }

    #[test]
    fn a_file_that_grew_or_shrank_since_it_was_measured_is_read_as_it_is_now() {
        let text = b"(;GM[1];B[pd];W[dp])";
        for hint in [1, 5, 19, 21, 40, 100] {
            assert_eq!(read(text, hint, 100).unwrap(), text, "size hint {hint}");
        }
    }

    #[test]
    fn the_size_limit_holds_whatever_the_size_hint() {
        let text = b"0123456789";
        for hint in [0, 3, 9, 10, 11] {
            assert!(matches!(read(text, hint, 9), Err(None)), "size hint {hint}");
            assert_eq!(read(text, hint, 10).unwrap(), text, "size hint {hint}");
        }
    }

    #[test]
    fn interrupted_reads_are_retried() {
        struct Stuttering<'a>(&'a [u8], bool);
        impl Read for Stuttering<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.1 = !self.1;
                if self.1 {
                    return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
                }
                let n = buf.len().min(self.0.len()).min(3);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text = b"(;B[aa];W[bb])";
        let bytes = read_limited(Stuttering(text, false), text.len() as u64, limits(100)).unwrap();
        assert_eq!(&bytes[..], text);
    }

    #[test]
    fn a_regular_file_reads_the_same_whether_its_first_read_finds_its_end_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let mut first_read = Vec::new();
        let game = b"(;GM[1]SZ[19];B[pd];W[dp])";
        for size in [0, 1, FIRST_READ - 1, FIRST_READ, FIRST_READ + 1, FIRST_READ + 2, 200_000] {
            let text: Vec<u8> = game.iter().copied().cycle().take(size).collect();
            let path = dir.path().join(format!("{size}.sgf"));
            std::fs::write(&path, &text).unwrap();
            let folder = &mut Folder::new();
            for buffer in [Some(&mut first_read), None] {
                let file = FoundFile { path: path.clone() };
                let source = read_file(file, limits(1 << 20), None, buffer, folder);
                assert_eq!(source.name, path_name(&path));
                assert_eq!(&source.bytes.unwrap()[..], &text[..], "{size} bytes");
            }
            // Over the limit or past the size read part by part: named by its size.
            let file = FoundFile { path: path.clone() };
            let source = read_file(file, limits(100), None, Some(&mut first_read), folder);
            match source.bytes {
                Ok(bytes) => assert!(size <= 100 && bytes.len() == size),
                Err(finding) => assert!(finding.message.starts_with(&format!("{size} bytes"))),
            }
            let source = read_file(
                FoundFile { path: path.clone() },
                limits(1 << 20),
                Some(50),
                Some(&mut first_read),
                folder,
            );
            let large = source.large.map(|large| large.size);
            assert_eq!(large, (size > 50).then_some(size as u64), "{size} bytes");
        }
    }

    /// Deferred, a folder's regular files come unread, in the same order and with the same
    /// names as the sources read; [`read_small`] reads each small one as they were read, and
    /// hands a larger one back; a file gone meanwhile is a finding that names why.
    #[test]
    fn a_folder_deferred_reads_as_a_folder_read() {
        let dir = tempfile::tempdir().unwrap();
        let sizes = [("a.sgf", 10), ("b.SGF", SMALL_READ), ("c.sgf", SMALL_READ + 1), ("d.txt", 5)];
        for (name, size) in sizes {
            std::fs::write(dir.path().join(name), vec![b'('; size]).unwrap();
        }
        std::fs::create_dir(dir.path().join("e")).unwrap();
        std::fs::write(dir.path().join("e/f.sgf"), b"(;)").unwrap();
        let options = ReadOptions::default();
        let read: Vec<Source> = sources([dir.path()], &options).collect();
        let mut deferred = sources([dir.path()], &options).deferring_files();
        let (mut buffer, mut folder) = (Vec::new(), Folder::new());
        // The first file is read by the walk itself, as without deferring.
        let Some(Found::Source(first)) = deferred.next_found() else { panic!("first not read") };
        assert_eq!(first.name, read[0].name);
        assert_eq!(first.bytes.as_ref().unwrap(), read[0].bytes.as_ref().unwrap());
        let mut found = Vec::new();
        while let Some(next) = deferred.next_found() {
            let Found::File(file) = next else { panic!("a file read: {next:?}") };
            found.push(file);
        }
        let names: Vec<String> = found.iter().map(FoundFile::name).collect();
        assert_eq!(names, read[1..].iter().map(|s| s.name.clone()).collect::<Vec<_>>());
        assert_eq!(names.len(), 3, "{names:?}");
        for (file, source) in found.iter().zip(&read[1..]) {
            match read_small(file.clone(), options.limits, &mut buffer, &mut folder) {
                Ok(small) => {
                    assert_eq!(small.name, source.name);
                    assert_eq!(small.bytes.unwrap(), *source.bytes.as_ref().unwrap());
                }
                Err(larger) => {
                    assert_eq!(&larger, file, "the same file handed back");
                    assert_eq!(source.bytes.as_ref().unwrap().len(), SMALL_READ + 1);
                }
            }
        }
        let small_limit = limits(5);
        let a = FoundFile { path: dir.path().join("a.sgf") };
        let over = read_small(a, small_limit, &mut buffer, &mut folder).unwrap();
        assert!(over.bytes.unwrap_err().message.starts_with("10 bytes, over the size limit"));
        let gone = FoundFile { path: dir.path().join("gone.sgf") };
        let source = read_small(gone.clone(), options.limits, &mut buffer, &mut folder).unwrap();
        assert_eq!(source.name, gone.name());
        let finding = source.bytes.unwrap_err();
        assert_eq!(finding.code, Code::Io);
        assert!(finding.message.starts_with("cannot read: "), "{}", finding.message);
    }

    /// The files read ahead of a folder's walk are files the walk yields, with the same paths:
    /// its own regular files named like games, not archives nor what is in its subfolders.
    #[test]
    fn the_first_files_of_a_folder_are_files_its_walk_yields() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.sgf", "a.SGF", ".hidden.sgf", "notes.txt", "games.zip", "c.sgf"] {
            std::fs::write(dir.path().join(name), b"(;)").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/d.sgf"), b"(;)").unwrap();
        let options = ReadOptions::default();
        let mut walk = sources([dir.path()], &options).deferring_files();
        let mut walked = Vec::new();
        while let Some(found) = walk.next_found() {
            match found {
                Found::File(file) => walked.push(file),
                // The first file, read by the walk itself.
                Found::Source(source) if walked.is_empty() => {
                    walked.push(FoundFile { path: source.name.into() })
                }
                // The archive, opened by the walk.
                Found::Source(_) => {}
            }
        }
        let mut ahead: Vec<FoundFile> = first_files(dir.path(), 100).collect();
        ahead.sort_by(|a, b| a.path.cmp(&b.path));
        let own: Vec<FoundFile> =
            walked.into_iter().filter(|f| f.path.parent() == Some(dir.path())).collect();
        assert_eq!(ahead, own);
        assert_eq!(ahead.len(), 4, "{ahead:?}");
        assert_eq!(first_files(dir.path(), 2).count(), 2);
        assert_eq!(first_files(&dir.path().join("missing"), 2).count(), 0);
    }

    /// Files opened relative to the folder opened last read as opened by their paths, when the
    /// folder changes from one file to the next too; a missing file is the same error.
    #[test]
    fn a_folder_opens_what_file_open_opens() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["x", "y"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
            for name in ["1.sgf", "2.sgf"] {
                std::fs::write(dir.path().join(sub).join(name), format!("{sub}/{name}")).unwrap();
            }
        }
        let mut folder = Folder::new();
        for path in ["x/1.sgf", "x/2.sgf", "y/1.sgf", "x/2.sgf", "y/2.sgf", "y/missing.sgf"] {
            let path = dir.path().join(path);
            let read = |file: std::io::Result<File>| {
                file.and_then(|mut f| {
                    let mut text = String::new();
                    f.read_to_string(&mut text).map(|_| text)
                })
                .map_err(|e| e.to_string())
            };
            assert_eq!(read(folder.open(&path)), read(File::open(&path)), "{}", path.display());
        }
    }

    /// A FIFO found in a folder is not a regular file: a read of it may stop short of its end
    /// (here between the writer's two writes), so it does not take the first read's short cut
    /// and is read to its end.
    #[cfg(unix)]
    #[test]
    fn a_fifo_in_a_folder_is_read_to_its_end() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success(), "mkfifo");
        let (first, rest) = (&b"(;GM[1]SZ[19];B[pd]"[..], &b";W[dp])"[..]);
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut fifo = File::create(&path).unwrap();
                fifo.write_all(first).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(200));
                fifo.write_all(rest).unwrap();
            })
        };
        let found: Vec<Source> = sources([dir.path()], &ReadOptions::default()).collect();
        writer.join().unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(&found[0].bytes.as_ref().unwrap()[..], [first, rest].concat());
    }

    #[cfg(unix)]
    #[test]
    fn a_path_is_named_as_display_writes_it() {
        use std::os::unix::ffi::OsStrExt;
        let paths = [
            Path::new("games/李世石 vs Cho.sgf"),
            Path::new(""),
            Path::new(std::ffi::OsStr::from_bytes(b"bad\xff\xfename.sgf")),
        ];
        for path in paths {
            assert_eq!(path_name(path), path.display().to_string());
            let file = FoundFile { path: path.to_path_buf() };
            assert_eq!(file.name(), path_name(path));
            assert_eq!(file.into_name(), path_name(path), "a found file is named by its path");
        }
    }
}
