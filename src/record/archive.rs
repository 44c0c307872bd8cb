//! Archives: the SGF members of `.zip`, `.tar`, `.tar.gz`/`.tgz`, `.tar.bz2` and `.tar.xz`
//! files, read into memory one at a time, in the order they are stored.
//!
//! A member is named `archive!member` (`games.zip!2019/kisei.sgf`; an archive inside an
//! archive adds another `!`). Member names are only names: kifu never creates a file from one,
//! so `../../x.sgf` is harmless and reported as written (control characters are shown as
//! U+FFFD so that a name cannot break a report line). Members whose name ends in `.sgf` (any
//! case) are read; members that are themselves archives are opened (up to
//! [`MAX_NESTING`] deep); everything else (READMEs, directories, links) is skipped. An
//! archive with no SGF member at all still yields one source, so that it is accounted for.
//!
//! Every problem becomes a source whose content is a [`Finding`]: an archive that cannot be
//! opened (`archive`), a member that cannot be extracted (`archive`: unsupported compression,
//! encryption, damage), a member or expansion over the [`Limits`] (`limit`). A damaged tar
//! stream ends its archive (there is no way to resynchronise); a damaged zip member only
//! itself.
//!
//! Zip archives are read by index (random access). The tar formats are a stream that the tar
//! crate can only walk while it borrows the archive, so each is walked on a helper thread that
//! hands over one member at a time through a channel of capacity one: memory stays bounded by
//! two members, and the thread ends when the archive is done or the reader is dropped.

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read, Seek};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use super::Limits;
use super::input::Source;
use crate::finding::{Code, Finding};

/// How many archives deep kifu opens archives inside archives.
pub const MAX_NESTING: u32 = 3;

/// The archive formats kifu reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveKind {
    /// `.zip` (stored or deflated members).
    Zip,
    /// `.tar`.
    Tar,
    /// `.tar.gz`, `.tgz`.
    TarGz,
    /// `.tar.bz2`, `.tbz2`, `.tbz`.
    TarBz2,
    /// `.tar.xz`, `.txz`.
    TarXz,
}

impl ArchiveKind {
    /// The archive format a file name says, by its extension in any case.
    pub fn from_name(name: &str) -> Option<ArchiveKind> {
        let kinds = [
            (".zip", ArchiveKind::Zip),
            (".tar", ArchiveKind::Tar),
            (".tar.gz", ArchiveKind::TarGz),
            (".tgz", ArchiveKind::TarGz),
            (".tar.bz2", ArchiveKind::TarBz2),
            (".tbz2", ArchiveKind::TarBz2),
            (".tbz", ArchiveKind::TarBz2),
            (".tar.xz", ArchiveKind::TarXz),
            (".txz", ArchiveKind::TarXz),
        ];
        // Compared in place, case aside: this runs on every file name of every folder. Every
        // extension ends in `p`, `r`, `z` or `2`, so nearly every name (`.sgf`) is turned away
        // by its last byte, before nine comparisons.
        let name = name.as_bytes();
        if !matches!(name.last().map(u8::to_ascii_lowercase), Some(b'p' | b'r' | b'z' | b'2')) {
            return None;
        }
        kinds
            .iter()
            .find(|(ext, _)| {
                name.len() >= ext.len()
                    && name[name.len() - ext.len()..].eq_ignore_ascii_case(ext.as_bytes())
            })
            .map(|&(_, kind)| kind)
    }

    /// The archive format bytes start with (for standard input, which has no name): zip,
    /// gzip, bzip2 or xz magic numbers, or a tar header's `ustar` mark. Compressed streams are
    /// taken to hold a tar archive.
    pub fn from_magic(bytes: &[u8]) -> Option<ArchiveKind> {
        if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            Some(ArchiveKind::Zip)
        } else if bytes.starts_with(&[0x1F, 0x8B]) {
            Some(ArchiveKind::TarGz)
        } else if bytes.starts_with(b"BZh") {
            Some(ArchiveKind::TarBz2)
        } else if bytes.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(ArchiveKind::TarXz)
        } else if bytes.get(257..262) == Some(b"ustar") {
            Some(ArchiveKind::Tar)
        } else {
            None
        }
    }
}

/// Whether a name is that of an SGF file: `.sgf` in any case.
pub fn is_sgf_name(name: &str) -> bool {
    name.len() >= 4 && name.is_char_boundary(name.len() - 4) && {
        let ext = &name[name.len() - 4..];
        ext.eq_ignore_ascii_case(".sgf")
    }
}

/// A name fit for a report: control characters replaced by U+FFFD.
fn printable_name(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

/// What reading an archive yields next.
pub(crate) enum Member {
    /// An SGF member, or a problem reported under a member's or the archive's name.
    Source(Source),
    /// A member that is itself an archive, read into memory, to be opened next.
    Nested {
        /// `outer.zip!inner.tar.gz`.
        name: String,
        /// Its format.
        kind: ArchiveKind,
        /// Its bytes.
        bytes: Arc<[u8]>,
        /// How deep it lies (the outermost archive is 1).
        depth: u32,
        /// The expansion budget it shares with the archives around it.
        budget: Arc<Budget>,
    },
}

/// The expansion an archive (and the archives nested in it) may still make.
#[derive(Debug)]
pub(crate) struct Budget {
    expanded: AtomicU64,
    allowance: u64,
    limits: Limits,
    compressed: u64,
}

impl Budget {
    /// The budget of an outermost archive of `compressed` bytes.
    pub(crate) fn new(compressed: u64, limits: Limits) -> Arc<Budget> {
        let by_ratio = compressed.saturating_mul(limits.max_expansion_ratio);
        let allowance = by_ratio.max(limits.ratio_floor).min(limits.max_archive_total);
        Arc::new(Budget { expanded: AtomicU64::new(0), allowance, limits, compressed })
    }

    fn remaining(&self) -> u64 {
        self.allowance.saturating_sub(self.expanded.load(Ordering::Relaxed))
    }

    /// Counts `n` expanded bytes; false once the allowance is exceeded.
    fn charge(&self, n: u64) -> bool {
        let before = self.expanded.fetch_add(n, Ordering::Relaxed);
        before.saturating_add(n) <= self.allowance
    }

    fn exhausted_finding(&self, archive: &str) -> Finding {
        let why = if self.allowance == self.limits.max_archive_total {
            format!("the total limit of {} bytes", self.limits.max_archive_total)
        } else {
            format!(
                "{} times its compressed size of {} bytes",
                self.limits.max_expansion_ratio, self.compressed
            )
        };
        Finding::new(
            Code::Limit,
            0,
            format!(
                "{archive} expands to more than {} bytes ({why}); reading stopped there, later \
                 members were not read",
                self.allowance
            ),
        )
    }
}

/// Why a member was not read.
enum MemberError {
    Io(io::Error),
    TooLarge(u64),
    Exhausted,
}

/// Reads one member of `declared` bytes (as its header says) within the limits.
fn read_member(reader: impl Read, declared: u64, budget: &Budget) -> Result<Vec<u8>, MemberError> {
    let max = budget.limits.max_file_size;
    if declared > max {
        return Err(MemberError::TooLarge(declared));
    }
    let cap = max.min(budget.remaining());
    let mut bytes =
        Vec::with_capacity(usize::try_from(declared.min(cap).min(64 << 20)).unwrap_or(0));
    reader.take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(MemberError::Io)?;
    let got = bytes.len() as u64;
    if !budget.charge(got) {
        return Err(MemberError::Exhausted);
    }
    if got > max {
        return Err(MemberError::TooLarge(got));
    }
    Ok(bytes)
}

fn error_source(name: String, code: Code, message: String) -> Member {
    Member::Source(Source::read(name, Err(Finding::new(code, 0, message))))
}

/// What to do with a member, by its name.
enum Wanted {
    Sgf,
    Archive(ArchiveKind),
    Skip,
}

fn wanted(member: &str) -> Wanted {
    if is_sgf_name(member) {
        Wanted::Sgf
    } else if let Some(kind) = ArchiveKind::from_name(member) {
        Wanted::Archive(kind)
    } else {
        Wanted::Skip
    }
}

/// Turns one member's bytes (or why it was not read) into what the reader yields.
/// `None` together with `stop` when the archive's budget ran out.
fn member_result(
    full_name: String,
    want: &Wanted,
    read: Result<Vec<u8>, MemberError>,
    depth: u32,
    budget: &Arc<Budget>,
    archive: &str,
) -> (Member, bool) {
    match read {
        Ok(bytes) => match *want {
            Wanted::Archive(kind) if depth < MAX_NESTING => {
                let nested = Member::Nested {
                    name: full_name,
                    kind,
                    bytes: Arc::from(bytes),
                    depth: depth + 1,
                    budget: Arc::clone(budget),
                };
                (nested, false)
            }
            Wanted::Archive(_) => {
                let message = format!(
                    "archives nested more than {MAX_NESTING} deep are not opened; extract this one"
                );
                (error_source(full_name, Code::Archive, message), false)
            }
            _ => (Member::Source(Source::read(full_name, Ok(Arc::from(bytes)))), false),
        },
        Err(MemberError::Io(e)) => {
            (error_source(full_name, Code::Archive, format!("cannot extract: {e}")), false)
        }
        Err(MemberError::TooLarge(size)) => {
            let message = format!(
                "{size} bytes, over the size limit of {} bytes",
                budget.limits.max_file_size
            );
            (error_source(full_name, Code::Limit, message), false)
        }
        Err(MemberError::Exhausted) => {
            let finding = budget.exhausted_finding(archive);
            (Member::Source(Source::read(full_name, Err(finding))), true)
        }
    }
}

/// Something zip can read from: a file or bytes in memory.
trait ReadSeek: Read + Seek + Send {}
impl<T: Read + Seek + Send> ReadSeek for T {}

/// The members of one archive, as an iterator.
pub(crate) struct Members {
    name: String,
    state: State,
    /// Members yielded so far (SGF sources, nested archives, member errors).
    yielded: usize,
    finished: bool,
}

enum State {
    /// An archive that could not be opened: yield this once.
    Failed(Option<Finding>),
    Zip(Box<ZipMembers>),
    Tar(Receiver<Member>),
}

struct ZipMembers {
    archive: zip::ZipArchive<Box<dyn ReadSeek>>,
    next: usize,
    depth: u32,
    budget: Arc<Budget>,
}

impl Members {
    /// The members of the archive file at `path`, shown as `name`.
    pub(crate) fn open_file(
        path: &Path,
        name: String,
        kind: ArchiveKind,
        limits: Limits,
    ) -> Members {
        let opened = File::open(path).and_then(|f| f.metadata().map(|m| (f, m.len())));
        match opened {
            Ok((file, len)) => {
                let budget = Budget::new(len, limits);
                Members::open(name, kind, Box::new(BufReader::new(file)), 1, budget)
            }
            Err(e) => Members::failed(name, Finding::new(Code::Io, 0, format!("cannot open: {e}"))),
        }
    }

    /// The members of an archive held in memory (standard input, or a nested archive).
    pub(crate) fn open_bytes(
        name: String,
        kind: ArchiveKind,
        bytes: Arc<[u8]>,
        depth: u32,
        budget: Option<Arc<Budget>>,
        limits: Limits,
    ) -> Members {
        let budget = budget.unwrap_or_else(|| Budget::new(bytes.len() as u64, limits));
        Members::open(name, kind, Box::new(Cursor::new(bytes)), depth, budget)
    }

    fn failed(name: String, finding: Finding) -> Members {
        Members { name, state: State::Failed(Some(finding)), yielded: 0, finished: false }
    }

    fn open(
        name: String,
        kind: ArchiveKind,
        reader: Box<dyn ReadSeek>,
        depth: u32,
        budget: Arc<Budget>,
    ) -> Members {
        let state = match kind {
            ArchiveKind::Zip => match zip::ZipArchive::new(reader) {
                Ok(archive) => State::Zip(Box::new(ZipMembers { archive, next: 0, depth, budget })),
                Err(e) => State::Failed(Some(Finding::new(
                    Code::Archive,
                    0,
                    format!("not a readable zip archive: {e}"),
                ))),
            },
            _ => match spawn_tar(name.clone(), kind, reader, depth, budget) {
                Ok(receiver) => State::Tar(receiver),
                Err(e) => State::Failed(Some(Finding::new(
                    Code::Io,
                    0,
                    format!("cannot start reading the archive: {e}"),
                ))),
            },
        };
        Members { name, state, yielded: 0, finished: false }
    }
}

impl Iterator for Members {
    type Item = Member;

    fn next(&mut self) -> Option<Member> {
        if self.finished {
            return None;
        }
        let next = match &mut self.state {
            State::Failed(finding) => {
                finding.take().map(|f| Member::Source(Source::read(self.name.clone(), Err(f))))
            }
            State::Zip(zip) => zip.next_member(&self.name),
            State::Tar(receiver) => receiver.recv().ok(),
        };
        match next {
            Some(member) => {
                self.yielded += 1;
                Some(member)
            }
            None => {
                self.finished = true;
                // An archive without a single SGF member is still accounted for.
                (self.yielded == 0).then(|| {
                    let finding = Finding::new(Code::NoGame, 0, "the archive holds no .sgf member");
                    Member::Source(Source::read(self.name.clone(), Err(finding)))
                })
            }
        }
    }
}

impl ZipMembers {
    fn next_member(&mut self, archive_name: &str) -> Option<Member> {
        while self.next < self.archive.len() {
            let index = self.next;
            self.next += 1;
            let raw_name = match self.archive.name_for_index(index) {
                Some(Ok(name)) => printable_name(name.as_bytes()),
                _ => format!("#{}", index + 1),
            };
            let full_name = format!("{archive_name}!{raw_name}");
            let want = wanted(&raw_name);
            if matches!(want, Wanted::Skip) {
                continue;
            }
            let read = match self.archive.by_index(index) {
                Ok(file) if file.is_dir() || file.is_symlink() => continue,
                Ok(file) => {
                    let declared = file.size();
                    read_member(file, declared, &self.budget)
                }
                Err(e) => Err(MemberError::Io(io::Error::other(e))),
            };
            let (member, stop) =
                member_result(full_name, &want, read, self.depth, &self.budget, archive_name);
            if stop {
                self.next = self.archive.len();
            }
            return Some(member);
        }
        None
    }
}

/// Starts the thread that walks a tar stream and hands over its members.
fn spawn_tar(
    name: String,
    kind: ArchiveKind,
    reader: Box<dyn ReadSeek>,
    depth: u32,
    budget: Arc<Budget>,
) -> io::Result<Receiver<Member>> {
    let (sender, receiver) = sync_channel(1);
    std::thread::Builder::new()
        .name("kifu-tar".into())
        .spawn(move || walk_tar(&name, kind, reader, depth, &budget, &sender))?;
    Ok(receiver)
}

fn walk_tar(
    name: &str,
    kind: ArchiveKind,
    reader: Box<dyn ReadSeek>,
    depth: u32,
    budget: &Arc<Budget>,
    sender: &SyncSender<Member>,
) {
    let stream: Box<dyn Read> = match kind {
        ArchiveKind::TarGz => Box::new(flate2::read::MultiGzDecoder::new(reader)),
        ArchiveKind::TarBz2 => Box::new(bzip2::read::MultiBzDecoder::new(reader)),
        ArchiveKind::TarXz => Box::new(lzma_rust2::XzReader::new(reader, true)),
        ArchiveKind::Tar | ArchiveKind::Zip => Box::new(reader),
    };
    let mut archive = tar::Archive::new(stream);
    let damaged = |e: io::Error| {
        let message = format!("not a readable tar archive or damaged: {e}");
        error_source(name.to_owned(), Code::Archive, message)
    };
    let entries = match archive.entries() {
        Ok(entries) => entries,
        Err(e) => {
            let _ = sender.send(damaged(e));
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let _ = sender.send(damaged(e));
                return;
            }
        };
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let raw_name = printable_name(&entry.path_bytes());
        let want = wanted(&raw_name);
        let declared = entry.size();
        if matches!(want, Wanted::Skip) {
            // Skipping still decompresses the member: it counts against the budget.
            if !budget.charge(declared) {
                let _ = sender.send(Member::Source(Source::read(
                    name.to_owned(),
                    Err(budget.exhausted_finding(name)),
                )));
                return;
            }
            continue;
        }
        let full_name = format!("{name}!{raw_name}");
        let read = read_member(entry, declared, budget);
        let (member, stop) = member_result(full_name, &want, read, depth, budget, name);
        if sender.send(member).is_err() || stop {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name_and_magic() {
        assert_eq!(ArchiveKind::from_name("Games.TGZ"), Some(ArchiveKind::TarGz));
        assert_eq!(ArchiveKind::from_name("a.tar.xz"), Some(ArchiveKind::TarXz));
        assert_eq!(ArchiveKind::from_name("a.sgf"), None);
        // Every extension in either case gets past the test of the last byte.
        for ext in
            [".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz"]
        {
            assert!(ArchiveKind::from_name(&format!("a{ext}")).is_some(), "{ext}");
            let upper = format!("A{}", ext.to_ascii_uppercase());
            assert!(ArchiveKind::from_name(&upper).is_some(), "{upper}");
        }
        assert_eq!(ArchiveKind::from_magic(b"PK\x03\x04rest"), Some(ArchiveKind::Zip));
        assert_eq!(ArchiveKind::from_magic(b"(;GM[1])"), None);
    }

    #[test]
    fn sgf_names_in_any_case() {
        assert!(is_sgf_name("a/b.SGF"));
        assert!(is_sgf_name("棋譜.sgf"));
        assert!(!is_sgf_name("sgf"));
        assert!(!is_sgf_name("a.sgf.txt"));
    }

    #[test]
    fn control_characters_never_reach_a_report() {
        assert_eq!(printable_name(b"a\nb\x1b.sgf"), "a\u{FFFD}b\u{FFFD}.sgf");
    }
}
