//! Large files read part by part, so that memory does not grow with the size of a collection.
//!
//! [`split_source`](super::split_source) holds a whole file while its games wait to be read:
//! a 70 MB collection costs 70 MB (and more while it is read). [`split_parts`] reads a file
//! that [`super::sources`] left unread for its size ([`Source::large`]) [`PART_BYTES`] at a
//! time and yields its games part by part, each part holding only its own bytes, so that a
//! part is freed as soon as its games are read. The pipeline's memory is then bounded by the
//! parts its batches still point into, whatever the size of the file.
//!
//! A part ends after the last game tree that closes inside it; whatever follows (a tree cut by
//! the end of the part, the gap before the next tree) is carried into the next part, so every
//! tree is split from its start in one piece, exactly as in a whole file. Game numbers, byte
//! offsets and lines count from the start of the file, the `games` limit counts across parts,
//! and a tree left open at the end of the file is recovered as in a whole file.
//!
//! The charset a file is split in, and the one its games fall back on, is decided on the
//! first part (byte-order mark, the first `CA`, UTF-8), where a file read whole decides it on
//! all its bytes. [`SplitParts::survey`], a first pass over the file in the same bounded
//! memory, checks that the whole file would have been decided the same way (it is UTF-8
//! throughout and its first `CA` is in the first part, or it has none); when it would not (a
//! collection in a legacy charset, UTF-8 damaged past the first part), the file is read whole
//! after all, so that the games read exactly as from a whole file. A UTF-16 file is read whole
//! too (it is transcoded as a whole). The survey also gives the file's game count and its
//! file-level findings (junk between games, byte-order marks) before its games, as a whole
//! file does; the parts give those findings again with the games they follow. So that the
//! file is not split twice, the survey can hand the parts it splits to the reader of the
//! games ([`Handover`]), as many as wait for it within a bound.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use encoding_rs::{Encoding, UTF_8};

use super::ReadOptions;
use super::charset::{self, FileCharset};
use super::input::{LargeFile, Source};
use super::pending::{self, FileText, Frame, PendingGame, SplitFile, TextBytes};
use super::split::{self, Beyond, Split, TreeEnd};
use crate::finding::{Code, Finding};

/// Bytes read per part of a large file (512 KiB: about 400 professional games). A tree
/// longer than a part makes its part as long as the tree.
pub const PART_BYTES: usize = 512 << 10;

/// The least read before the charset is decided (a byte-order mark, the start of UTF-16).
const FIRST_PART_MIN: usize = 16;

/// Bytes read for the first part of a large file by [`split_parts_eager`] (64 KiB: about 40
/// professional games); each part after it reads twice as many as the one before, up to
/// [`PART_BYTES`].
const EAGER_FIRST_PART_BYTES: usize = 64 << 10;

/// The games of a source, part by part: see the module documentation.
pub fn split_parts(source: Source, options: &ReadOptions) -> SplitParts {
    split_parts_of(source, options, PART_BYTES, PART_BYTES)
}

/// [`split_parts`] with a short first part, for a reader whose workers wait for the first
/// games on other cores: the parts start at 64 KiB (`EAGER_FIRST_PART_BYTES`) and double up to
/// [`PART_BYTES`]. The games, their numbers and the findings are the same.
///
/// Read and split whole, a first part of [`PART_BYTES`] kept two cores idle about 0.8 ms into
/// `kifu check -j2` of the bench's 7 MB collection (`perf sched`: its survey reading and
/// splitting it, 128 fresh pages faulted in at about 3 us each on this machine); the parts
/// that follow are read while the workers check the first games. Measured in alternated pairs
/// (60 rounds, everything else stopped): `-j2` 43.0 -> 41.1 ms on the collection, 11.7 -> 10.6
/// ms on tom-9d's 1.1 MB 2008-06. With one worker nothing idles meanwhile, and the worker
/// starting sooner only shares its core with the survey longer: `-j1` on tom-9d 15.9 -> 16.8
/// ms, so [`split_parts`] is for that. Which charset a file is read in does not depend on the
/// first part's length: the survey checks that the whole file would have been decided the
/// same way, however long the first part.
pub fn split_parts_eager(source: Source, options: &ReadOptions) -> SplitParts {
    split_parts_of(source, options, PART_BYTES, EAGER_FIRST_PART_BYTES)
}

/// [`split_parts`] with parts of `part_bytes` bytes, the first of `first_part_bytes` (at
/// most `part_bytes`), each next one twice the one before up to `part_bytes`.
fn split_parts_of(
    source: Source,
    options: &ReadOptions,
    part_bytes: usize,
    first_part_bytes: usize,
) -> SplitParts {
    let state = match source.large {
        Some(large) => match File::open(&large.path) {
            Ok(file) => {
                let streamer =
                    Streamer::new(source.name.clone(), file, options, part_bytes, first_part_bytes);
                State::Streaming(Box::new(streamer), large)
            }
            Err(_) => State::Whole(Some(pending::split_source(
                Source { name: source.name.clone(), bytes: source.bytes, large: Some(large) },
                options,
            ))),
        },
        None => State::Whole(Some(pending::split_source(source.clone(), options))),
    };
    SplitParts { name: source.name, options: options.clone(), part_bytes, first_part_bytes, state }
}

/// An iterator over the parts of a source, each a [`SplitFile`] holding the games of that part
/// (numbered, placed and lined as in the whole file) and the file-level findings met in it.
///
/// A consumer that must know a file's game count and file-level findings before its games
/// (the pipeline reports a source before its games) calls [`SplitParts::survey`] first.
pub struct SplitParts {
    name: String,
    options: ReadOptions,
    part_bytes: usize,
    first_part_bytes: usize,
    state: State,
}

enum State {
    /// A source read whole: one part.
    Whole(Option<SplitFile>),
    /// A large file, read part by part.
    Streaming(Box<Streamer>, LargeFile),
    /// Every part was given.
    Done,
}

impl SplitParts {
    /// Whether the source is read part by part (else it comes as one part, as
    /// [`super::split_source`] splits it).
    pub fn is_streamed(&self) -> bool {
        matches!(self.state, State::Streaming(..))
    }

    /// For a file read part by part: a first pass over the whole file, in the same bounded
    /// memory, that counts its game trees (the pending games that stand for trees, as
    /// [`PendingGame::has_tree`] says) and gathers its file-level findings (junk, byte-order
    /// marks), in file order. The parts then give the games; their own file-level findings
    /// repeat the survey's and can be left aside.
    ///
    /// `None` for a source read whole, including a large file whose charset its first part
    /// does not decide as the whole file would (see the module documentation): such a file is
    /// read whole when this returns, and comes as one part.
    ///
    /// The file is read twice (but for the parts a survey hands: see
    /// [`SplitParts::survey_handing`]); should it change in between, the parts tell what the
    /// second reading found.
    pub fn survey(&mut self) -> Option<(u64, Vec<Finding>)> {
        self.survey_with(None)
    }

    /// [`SplitParts::survey`], handing the parts it splits to the reader of the parts
    /// meanwhile, so that the file is split once: see [`Handover`]. The reader's parts come
    /// from [`Handover::parts`].
    pub fn survey_handing(&mut self, handover: &Handover) -> Option<(u64, Vec<Finding>)> {
        // Should the survey end early (a panic), the reader must not wait for ever.
        let _closing = Closing(handover);
        self.survey_with(Some(handover))
    }

    fn survey_with(&mut self, handover: Option<&Handover>) -> Option<(u64, Vec<Finding>)> {
        let State::Streaming(_, large) = &self.state else { return None };
        let file = match File::open(&large.path) {
            Ok(file) => file,
            Err(e) => {
                return Some((0, vec![Finding::new(Code::Io, 0, format!("cannot read: {e}"))]));
            }
        };
        let mut streamer = Streamer::new(
            self.name.clone(),
            file,
            &self.options,
            self.part_bytes,
            self.first_part_bytes,
        );
        streamer.surveying = true;
        // The file the reader goes on reading from where the survey stops handing it parts.
        let mut handing = handover.and_then(|h| Some((h, File::open(&large.path).ok()?)));
        streamer.counting_only = handing.is_none();
        let (mut games, mut findings) = (0u64, Vec::new());
        while !streamer.finished {
            if let Some((handover, spare)) = handing.take_if(|(h, _)| !h.has_room()) {
                handover.go_on_from(streamer.fork(spare));
                streamer.counting_only = true;
            }
            // A part counted only holds no games, but for a file read whole (UTF-16) or one
            // that could not be read.
            let mut part = streamer.next_part();
            games += part.games.iter().filter(|g| g.has_tree()).count() as u64;
            findings.append(&mut part.findings);
            if let Some((handover, _)) = &handing {
                handover.hand(part);
            }
        }
        games += streamer.counted;
        if !streamer.charset_is_the_whole_files() {
            let large = large.clone();
            let source = Source {
                name: self.name.clone(),
                bytes: Ok(Arc::from(&[][..])),
                large: Some(large),
            };
            self.state = State::Whole(Some(pending::split_source(source, &self.options)));
            return None;
        }
        Some((games, findings))
    }

    /// Goes on from where a survey stopped handing parts.
    fn go_on_from(&mut self, streamer: Box<Streamer>) {
        if let State::Streaming(own, _) = &mut self.state {
            *own = streamer;
        }
    }
}

/// Parts of a large file that its survey ([`SplitParts::survey_handing`]) splits and hands to
/// the reader of its games, so that each part is split once, not once by the survey and again
/// by the reader.
///
/// The survey must reach the end of the file before the first game is reported, while the
/// reader waits on the workers, who wait on the report: the survey cannot wait for the reader.
/// It hands at most `HANDED_PARTS` parts not yet taken (memory stays bounded however large
/// the file); when the reader is that far behind, the survey hands it where to go on reading
/// by itself (a copy of its own state, on a file of its own) and only counts the rest. A file
/// of a few parts is then split once; a larger one, split twice past the parts handed.
pub struct Handover {
    handed: Mutex<Handed>,
    changed: Condvar,
}

/// At most this many parts wait for the reader (1.5 MB): a file of up to three parts (about
/// 1.5 MB, such as tom-9d's monthly collections) is always split once, whenever the reader
/// takes its parts.
pub const HANDED_PARTS: usize = 3;

#[derive(Default)]
struct Handed {
    parts: VecDeque<SplitFile>,
    /// Where the reader goes on by itself, once the survey stopped handing parts.
    rest: Option<Box<Streamer>>,
    /// Nothing more will be handed.
    closed: bool,
}

impl Default for Handover {
    fn default() -> Handover {
        Handover { handed: Mutex::new(Handed::default()), changed: Condvar::new() }
    }
}

impl Handover {
    fn handed(&self) -> MutexGuard<'_, Handed> {
        self.handed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn has_room(&self) -> bool {
        self.handed().parts.len() < HANDED_PARTS
    }

    fn hand(&self, part: SplitFile) {
        self.handed().parts.push_back(part);
        self.changed.notify_all();
    }

    fn go_on_from(&self, streamer: Streamer) {
        self.handed().rest = Some(Box::new(streamer));
        self.changed.notify_all();
    }

    fn close(&self) {
        self.handed().closed = true;
        self.changed.notify_all();
    }

    /// The parts of `own` (the reader's [`split_parts`] of the surveyed file): those the
    /// survey hands, then those `own` reads from where the survey stopped handing them.
    pub fn parts(handover: Arc<Handover>, own: SplitParts) -> HandedParts {
        HandedParts { handover: Some(handover), own, taken: false }
    }
}

/// Closes a handover when the survey ends, whichever way it ends.
struct Closing<'a>(&'a Handover);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The reader's parts of a surveyed file: see [`Handover::parts`].
pub struct HandedParts {
    /// `None` once the survey has handed all it will.
    handover: Option<Arc<Handover>>,
    own: SplitParts,
    /// Whether a part was taken from the handover.
    taken: bool,
}

impl Iterator for HandedParts {
    type Item = SplitFile;

    fn next(&mut self) -> Option<SplitFile> {
        let Some(handover) = &self.handover else { return self.own.next() };
        let mut handed = handover.handed();
        loop {
            if let Some(part) = handed.parts.pop_front() {
                self.taken = true;
                return Some(part);
            }
            if let Some(streamer) = handed.rest.take() {
                drop(handed);
                self.handover = None;
                self.own.go_on_from(streamer);
                return self.own.next();
            }
            if handed.closed {
                drop(handed);
                self.handover = None;
                if self.taken {
                    // Every part was handed (or the survey ended early): nothing is left.
                    self.own.state = State::Done;
                }
                // Else the survey handed nothing (it could not open the file again): the
                // reader reads its own parts.
                return self.own.next();
            }
            handed = handover.changed.wait(handed).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Iterator for SplitParts {
    type Item = SplitFile;

    fn next(&mut self) -> Option<SplitFile> {
        match &mut self.state {
            State::Whole(split) => {
                let split = split.take();
                self.state = State::Done;
                split
            }
            State::Streaming(streamer, _) => {
                let part = streamer.next_part();
                if streamer.finished {
                    self.state = State::Done;
                }
                Some(part)
            }
            State::Done => None,
        }
    }
}

/// The state of a large file being read.
struct Streamer {
    name: String,
    file: File,
    /// Bytes to read per part ([`PART_BYTES`]).
    part_bytes: usize,
    /// Bytes to read for the next part: the first part's size for the first
    /// ([`EAGER_FIRST_PART_BYTES`] with [`split_parts_eager`], else `part_bytes`), then twice
    /// the one before, up to `part_bytes`.
    next_part_bytes: usize,
    options: ReadOptions,
    /// Bytes read from the file so far.
    read: u64,
    /// The file has been read to its end.
    eof: bool,
    /// The file's bytes not yet handed out, from offset `frame.offset` on.
    carry: Vec<u8>,
    /// Where `carry` starts in the file, and the games before it.
    frame: Frame,
    /// The charset decided on the first part; `None` before it.
    charset: Option<FileCharset>,
    /// The first part, the charset was decided on, was the whole file.
    charset_saw_all: bool,
    /// Until the first part is given: where its text starts (past a byte-order mark) and the
    /// findings about the file's start.
    opening: (usize, Vec<Finding>),
    /// Games kept so far (the `games` limit counts them).
    kept: usize,
    /// Trees beyond the `games` limit, counted across parts (offset and line in the file).
    beyond: Option<Beyond>,
    /// Every part was given.
    finished: bool,
    /// The streamer of [`SplitParts::survey`], which alone looks at what the charset check
    /// needs ([`Streamer::witness`]): the parts read after it are the same bytes again.
    surveying: bool,
    /// Whether the parts' games are only counted (in `counted`): a survey's parts that no
    /// reader takes make no pending games and copy no part out of `carry`, and only gather
    /// the file-level findings, which is what a survey gives.
    counting_only: bool,
    /// A read error met before the next read (where a copy of another streamer could not
    /// take its place in the file).
    error: Option<Finding>,
    /// Surveying: the pending games that stand for trees the parts would have given (one per
    /// tree kept, and the one that reports the trees beyond the `games` limit).
    counted: u64,
    /// How many bytes at the start of `carry` are known valid UTF-8 (checked when the charset
    /// was decided), so that the survey does not check them again.
    utf8_checked: usize,
    /// Whether every part handed out so far is UTF-8.
    all_utf8: bool,
    /// The charset the first `CA` of the parts handed out so far names, as
    /// [`charset::declared_in`] reads it; `None` before one is found.
    first_declared: Option<&'static Encoding>,
}

impl Streamer {
    fn new(
        name: String,
        file: File,
        options: &ReadOptions,
        part_bytes: usize,
        first_part_bytes: usize,
    ) -> Streamer {
        let next_part_bytes = first_part_bytes.clamp(1, part_bytes.max(1));
        Streamer {
            name,
            file,
            part_bytes: part_bytes.max(1),
            next_part_bytes,
            options: options.clone(),
            read: 0,
            eof: false,
            // Room for the first part, read in place (see `Streamer::part`).
            carry: Vec::with_capacity(next_part_bytes.max(FIRST_PART_MIN)),
            frame: Frame { offset: 0, lines_before: 0, games_before: 0, last: false },
            charset: None,
            charset_saw_all: false,
            opening: (0, Vec::new()),
            kept: 0,
            beyond: None,
            finished: false,
            surveying: false,
            counting_only: false,
            error: None,
            counted: 0,
            utf8_checked: 0,
            all_utf8: true,
            first_declared: None,
        }
    }

    /// After the last part: whether the charset decided on the first part is the one the
    /// whole file would have been given (the file is UTF-8 throughout, and the first `CA` it
    /// names, if any, was seen in the first part; with no `CA` and no encoding assumed, or
    /// with UTF-8 named, or a UTF-8 byte-order mark, both decide UTF-8 with no fallback).
    /// A UTF-16 file is read whole anyway.
    fn charset_is_the_whole_files(&self) -> bool {
        let Some(first) = &self.charset else { return true };
        if first.utf16.is_some() || self.charset_saw_all {
            return true;
        }
        let assumed = self.options.encoding.as_deref().and_then(charset::resolve_label);
        let decided_utf8 =
            first.utf8_bom || self.first_declared.or(assumed).is_none_or(|e| e == UTF_8);
        self.all_utf8 && first.declared == self.first_declared && decided_utf8
    }

    /// Notes what the charset check needs to know of a part, `carry[..cut]`, and returns
    /// whether the part is valid UTF-8 (so that its games need not check it again). Parts
    /// end at a tree's closing parenthesis, so no character and no `CA[...]` value straddles
    /// two parts.
    fn witness(&mut self, cut: usize) -> bool {
        let bytes = &self.carry[..cut];
        let unchecked = bytes.get(self.utf8_checked..).unwrap_or_default();
        let valid = std::str::from_utf8(unchecked).is_ok();
        self.all_utf8 &= valid;
        if self.first_declared.is_none() {
            self.first_declared = charset::declared_in(bytes);
        }
        valid
    }

    /// A copy of this streamer that reads `file` from where this one is, to give the parts
    /// after the ones this one gave (a survey's parts, past those it handed: see
    /// [`Handover`]).
    fn fork(&self, mut file: File) -> Streamer {
        let error = file
            .seek(SeekFrom::Start(self.read))
            .err()
            .map(|e| Finding::new(Code::Io, 0, format!("cannot read: {e}")));
        Streamer {
            name: self.name.clone(),
            file,
            part_bytes: self.part_bytes,
            next_part_bytes: self.next_part_bytes,
            options: self.options.clone(),
            read: self.read,
            eof: self.eof,
            carry: self.carry.clone(),
            frame: self.frame,
            charset: self.charset.clone(),
            charset_saw_all: self.charset_saw_all,
            opening: self.opening.clone(),
            kept: self.kept,
            beyond: self.beyond,
            finished: self.finished,
            surveying: false,
            counting_only: false,
            error,
            counted: 0,
            utf8_checked: 0,
            all_utf8: true,
            first_declared: None,
        }
    }

    /// Reads until `carry` holds at least `want` bytes or the file ends.
    fn fill(&mut self, want: usize) -> Result<(), Finding> {
        let limit = self.options.limits.max_file_size;
        while !self.eof && self.carry.len() < want {
            if let Some(finding) = self.error.take() {
                return Err(finding);
            }
            let room = (want - self.carry.len()) as u64;
            let allowed = limit.saturating_add(1).saturating_sub(self.read);
            let got = (&mut self.file)
                .take(room.min(allowed))
                .read_to_end(&mut self.carry)
                .map_err(|e| Finding::new(Code::Io, 0, format!("cannot read: {e}")))?;
            self.read += got as u64;
            if self.read > limit {
                return Err(Finding::new(
                    Code::Limit,
                    0,
                    format!(
                        "more than the size limit of {limit} bytes (the file grew while it was read)"
                    ),
                ));
            }
            if got == 0 {
                self.eof = true;
            }
        }
        Ok(())
    }

    /// The next part. Sets `finished` with the last.
    fn next_part(&mut self) -> SplitFile {
        // The first part decides the charset: at least a few bytes for a byte-order mark.
        let mut want = self.next_part_bytes.max(FIRST_PART_MIN);
        loop {
            if let Err(finding) = self.fill(want) {
                return self.fail(finding);
            }
            if self.charset.is_none() {
                // A part may end inside a character: judge the UTF-8 up to the last whole one.
                let (whole, valid) = match std::str::from_utf8(&self.carry) {
                    Ok(_) => (self.carry.len(), self.carry.len()),
                    Err(e) if e.error_len().is_none() && !self.eof => {
                        (e.valid_up_to(), e.valid_up_to())
                    }
                    Err(e) => (self.carry.len(), e.valid_up_to()),
                };
                // A UTF-8 character is whole in `carry[..valid]`, so any prefix of it cut
                // after a `)` is valid too.
                self.utf8_checked = valid;
                let prepared = charset::inspect(&self.carry[..whole], &self.options);
                if prepared.charset.utf16.is_some() {
                    // Transcoded as a whole: read the rest and split the file whole.
                    return self.whole();
                }
                self.charset = Some(prepared.charset);
                self.charset_saw_all = self.eof;
                self.opening = (prepared.start, prepared.findings);
            }
            if let Some(part) = self.part() {
                return part;
            }
            // No tree closes in what is in hand: read on, doubling, so that a tree of any
            // length is scanned a bounded number of times over.
            want = (self.carry.len() + self.next_part_bytes).max(2 * self.carry.len());
        }
    }

    /// Splits what is in hand from `from`; `None` when no tree closes in it before the end of
    /// the file (more must be read).
    fn part(&mut self) -> Option<SplitFile> {
        let from = self.opening.0;
        let charset = self.charset.clone().unwrap_or_else(pending::empty_charset);
        let layout = charset.layout;
        let last = self.eof;
        let split = if last {
            let remaining = usize::try_from(self.options.limits.max_games_per_file)
                .unwrap_or(usize::MAX)
                .saturating_sub(self.kept);
            let remaining = if self.beyond.is_some() { 0 } else { remaining };
            split::split_at_most(&self.carry, from, layout, remaining)
        } else {
            split::split_unfinished(&self.carry, from, layout)
        };
        // Where this part ends: the end of the file, or past the last tree closed in it.
        let cut = if last {
            self.carry.len()
        } else {
            let closed = split.trees.iter().rev().find(|t| t.end_kind == TreeEnd::Closed)?;
            closed.end
        };
        // A part the survey found valid UTF-8 is known so to its games, which need not check
        // their own bytes again; any other part's games check theirs.
        let valid_utf8 = self.surveying && self.witness(cut);
        self.next_part_bytes = self.part_bytes.min(2 * self.next_part_bytes);
        // Games only counted need no part to point into. A part's games point into the very
        // buffer it was read into: the bytes after the cut (a tree not closed yet) move to a
        // new one, which the next part is read into.
        let file = if self.counting_only {
            None
        } else {
            let tail = &self.carry[cut..];
            let mut next = Vec::with_capacity(tail.len().max(self.next_part_bytes));
            next.extend_from_slice(tail);
            let mut bytes = std::mem::replace(&mut self.carry, next);
            bytes.truncate(cut);
            let text = FileText {
                bytes: TextBytes::Owned(bytes),
                charset,
                valid_utf8_from: valid_utf8.then_some(0),
                no_charset_from: None,
            };
            Some(Arc::new(text))
        };

        let frame = Frame { last, ..self.frame };
        let mut findings = std::mem::take(&mut self.opening.1);
        self.opening.0 = 0;
        let whole_file = last && self.kept == 0 && self.beyond.is_none() && self.frame.offset == 0;
        if whole_file && split.trees.is_empty() && split.beyond.is_none() {
            // No game in the whole file: one stand-in, as for a file read whole (a survey
            // counts none: the stand-in stands for no tree).
            let games = match file {
                Some(file) => {
                    let text = &file.bytes[from.min(file.bytes.len())..];
                    let finding = Finding::new(Code::NoGame, 0, pending::describe_no_game(text));
                    vec![pending::stand_in(&self.name, file, finding)]
                }
                None => Vec::new(),
            };
            self.finished = true;
            self.carry = Vec::new();
            return Some(SplitFile { games, findings });
        }
        let mut games = Vec::new();
        let trees: Vec<_> = split.trees.iter().filter(|t| t.start < cut).cloned().collect();
        let max_kept =
            usize::try_from(self.options.limits.max_games_per_file).unwrap_or(usize::MAX);
        let mut kept_here = 0;
        let beyond_before = self.beyond.is_some();
        for (i, tree) in trees.iter().enumerate() {
            if self.beyond.is_none() && self.kept < max_kept {
                match &file {
                    Some(file) => games.push(pending::pending_tree(
                        &self.name,
                        file,
                        i,
                        tree,
                        &self.options.limits,
                        frame,
                    )),
                    None => self.counted += 1,
                }
                self.kept += 1;
                kept_here += 1;
            } else {
                self.count_beyond(tree.start, tree.line);
            }
        }
        // Junk is reported up to the first tree not kept, as in a whole file.
        let first_beyond_here = trees.get(kept_here).map(|t| t.start);
        let strays_until = match first_beyond_here {
            _ if beyond_before => 0,
            Some(start) => start,
            None => cut,
        };
        let kept_trees = &trees[..kept_here];
        // A whole file places junk before the first tree not kept "after" the last one kept.
        let stray_frame = Frame { last: last || first_beyond_here.is_some(), ..frame };
        findings.extend(split.strays.iter().filter(|s| stray_start(s) < strays_until).map(|s| {
            pending::stray_finding(
                s,
                kept_trees,
                part_bytes(file.as_ref(), &self.carry, cut),
                stray_frame,
            )
        }));
        if last {
            self.finish_limit(&split, frame, file.as_ref(), &mut games);
            self.finished = true;
            self.carry = Vec::new();
        } else {
            let newlines =
                memchr::memchr_iter(b'\n', part_bytes(file.as_ref(), &self.carry, cut)).count();
            self.frame.lines_before =
                self.frame.lines_before.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
            self.frame.offset += cut;
            if file.is_none() {
                self.carry.drain(..cut);
            }
            self.utf8_checked = self.utf8_checked.saturating_sub(cut);
        }
        self.frame.games_before = self.kept;
        Some(SplitFile { games, findings })
    }

    /// Counts a tree beyond the `games` limit (`start` and `line` in the current part).
    fn count_beyond(&mut self, start: usize, line: u32) {
        match &mut self.beyond {
            Some(beyond) => beyond.count += 1,
            None => {
                self.beyond = Some(Beyond {
                    count: 1,
                    start: self.frame.offset + start,
                    line: self.frame.lines_before.saturating_add(line),
                })
            }
        }
    }

    /// At the end of the file: the trees `split_at_most` counted beyond the limit, and the one
    /// pending game that reports every tree beyond it.
    fn finish_limit(
        &mut self,
        split: &Split,
        frame: Frame,
        file: Option<&Arc<FileText>>,
        games: &mut Vec<PendingGame>,
    ) {
        if let Some(found) = split.beyond {
            match &mut self.beyond {
                Some(beyond) => beyond.count += found.count,
                None => {
                    self.beyond = Some(Beyond {
                        count: found.count,
                        start: frame.offset + found.start,
                        line: frame.lines_before.saturating_add(found.line),
                    })
                }
            }
        }
        if let Some(beyond) = self.beyond {
            match file {
                Some(file) => games.push(pending::beyond_limit(
                    &self.name,
                    file,
                    self.kept,
                    beyond,
                    &self.options.limits,
                )),
                None => self.counted += 1,
            }
        }
    }

    /// The rest of the file read and split whole (a UTF-16 file).
    fn whole(&mut self) -> SplitFile {
        self.finished = true;
        let rest = self.fill(usize::MAX);
        let bytes = std::mem::take(&mut self.carry);
        let source =
            Source { name: self.name.clone(), bytes: rest.map(|()| Arc::from(bytes)), large: None };
        pending::split_source(source, &self.options)
    }

    /// A read error: what was read is lost, the file is one game that says why (or, after
    /// games were given, a file-level finding).
    fn fail(&mut self, finding: Finding) -> SplitFile {
        self.finished = true;
        self.carry = Vec::new();
        if self.kept == 0 && self.frame.offset == 0 {
            pending::split_source(Source::read(self.name.clone(), Err(finding)), &self.options)
        } else {
            SplitFile { games: Vec::new(), findings: vec![finding] }
        }
    }
}

/// The bytes of the part [`Streamer::part`] cut at `cut`: its text's, or, for a part only
/// counted, which has none, still `carry[..cut]`.
fn part_bytes<'a>(file: Option<&'a Arc<FileText>>, carry: &'a [u8], cut: usize) -> &'a [u8] {
    match file {
        Some(file) => &file.bytes,
        None => &carry[..cut],
    }
}

fn stray_start(stray: &split::Stray) -> usize {
    match *stray {
        split::Stray::Junk { start, .. } => start,
        split::Stray::ByteOrderMark { offset, .. } => offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Limits, split_file};

    /// What a pending game is, as far as the reports go: where, which bytes, how many trees,
    /// and the record it reads into.
    fn describe(game: &PendingGame, options: &ReadOptions) -> String {
        format!(
            "{:?} trees={} has_tree={} bytes={:?}\n{:?}",
            game.location,
            game.trees(),
            game.has_tree(),
            String::from_utf8_lossy(game.bytes()),
            game.read(options)
        )
    }

    /// Part sizes to read a text in: parts of `part_bytes` throughout, and parts starting at
    /// an eighth of that and doubling (as [`split_parts_eager`] reads).
    fn sizes(part_bytes: usize) -> [(usize, usize); 2] {
        [(part_bytes, part_bytes), (part_bytes.div_ceil(8), part_bytes)]
    }

    /// Reading `text` part by part (the first part of `sizes.0` bytes, the others doubling up
    /// to `sizes.1`) gives the games and the file-level findings of reading it whole. Returns
    /// whether it was read part by part (else the survey found its charset undecided by its
    /// first part, and it was read whole).
    fn same_as_whole(text: &[u8], sizes: (usize, usize), options: &ReadOptions) -> bool {
        let (first_part_bytes, part_bytes) = sizes;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sgf");
        std::fs::write(&path, text).unwrap();
        let whole = split_file("c.sgf", Arc::from(text), options);
        let large = LargeFile { path, size: text.len() as u64 };
        let source =
            Source { name: "c.sgf".into(), bytes: Ok(Arc::from(&[][..])), large: Some(large) };
        let mut parts = split_parts_of(source, options, part_bytes, first_part_bytes);
        assert!(parts.is_streamed());
        let show = |f: &[Finding]| f.iter().map(|f| f.to_string()).collect::<Vec<_>>();
        let surveyed = parts.survey();
        if let Some((games, findings)) = &surveyed {
            let want_games = whole.games.iter().filter(|g| g.has_tree()).count() as u64;
            assert_eq!(*games, want_games, "game count, parts of {sizes:?}");
            assert_eq!(show(findings), show(&whole.findings), "findings, parts of {sizes:?}");
        } else {
            assert!(!parts.is_streamed());
        }
        let mut streamed = Vec::new();
        let mut part_findings = Vec::new();
        for part in parts {
            streamed.extend(part.games);
            part_findings.extend(part.findings);
        }
        assert_eq!(show(&part_findings), show(&whole.findings), "parts of {sizes:?}");
        let mine: Vec<String> = streamed.iter().map(|g| describe(g, options)).collect();
        let theirs: Vec<String> = whole.games.iter().map(|g| describe(g, options)).collect();
        assert_eq!(mine.len(), theirs.len(), "games, parts of {sizes:?}");
        for (m, t) in mine.iter().zip(&theirs) {
            assert_eq!(m, t, "parts of {sizes:?}");
        }
        surveyed.is_some()
    }

    fn check(text: &[u8], options: &ReadOptions) {
        for sizes in [1, 7, 40, 333, 4096, 1 << 20].into_iter().flat_map(sizes) {
            assert!(same_as_whole(text, sizes, options), "read whole, parts of {sizes:?}");
        }
    }

    #[test]
    fn collections_read_part_by_part_read_as_whole_files() {
        let options = ReadOptions::default();
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut read = 0;
        for folder in ["corpus/cases/collections", "corpus/generated/collections"] {
            let Ok(entries) = std::fs::read_dir(manifest.join(folder)) else { continue };
            let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            paths.sort();
            for path in paths {
                let bytes = std::fs::read(&path).unwrap();
                for sizes in [7, 333, 4096].into_iter().flat_map(sizes) {
                    same_as_whole(&bytes, sizes, &options);
                }
                read += 1;
            }
        }
        assert!(read >= 5, "{read} collections");
    }

    #[test]
    fn junk_byte_order_marks_and_broken_trees_are_placed_as_in_the_whole_file() {
        let options = ReadOptions::default();
        check(b"junk before\n(;GM[1];B[aa])\n\xEF\xBB\xBF(;GM[1]C[a ) ( ; \\] b];W[bb])more junk\n(;B[cc])", &options);
        check(b"\xEF\xBB\xBF(;GM[1];B[aa])(;W[bb]", &options);
        check(b"(;GM[1];B[aa]\n(;GM[1]PB[x];W[bb])\n(;GM[1]PB[y];B[cc])", &options);
        check(b"(;B[aa])\n;GM[1]FF[4]AP[foxwq];B[pd])\n(\nPB[sina];B[dd])", &options);
        check(b"nothing but junk here", &options);
        check(b"   \n  ", &options);
        check(b"(;C[a value that never ends", &options);
    }

    #[test]
    fn a_file_whose_charset_its_first_part_does_not_decide_is_read_whole() {
        let options = ReadOptions::default();
        // GBK after a UTF-8 start: the whole file is detected as a legacy charset.
        let gbk = b"(;GM[1]PB[\xC0\xEE\xCA\xC0\xCA\xAF]PW[\xB9\xC5\xC1\xA6];B[aa])";
        let mut late_legacy = b"(;GM[1]PB[Lee];B[aa])\n".repeat(20);
        late_legacy.extend_from_slice(gbk);
        // A `CA` first named past the first part.
        let mut late_ca = b"(;GM[1]PB[x];B[aa])\n".repeat(20);
        late_ca.extend_from_slice(b"(;GM[1]CA[GB2312]PB[y];B[bb])");
        // UTF-8 throughout with its `CA` in the first part: read part by part.
        let mut early_ca = b"(;GM[1]CA[UTF-8]PB[\xE6\x9D\x8E];B[aa])\n".to_vec();
        early_ca.extend_from_slice(&b"(;GM[1]PB[\xE5\x8F\xA4];B[bb])\n".repeat(20));
        for part_bytes in [40, 333] {
            let sizes = (part_bytes, part_bytes);
            assert!(!same_as_whole(&late_legacy, sizes, &options));
            assert!(!same_as_whole(&late_ca, sizes, &options));
            assert!(same_as_whole(&early_ca, sizes, &options));
        }
        // One part holding the whole file decides as the whole file.
        assert!(same_as_whole(&late_legacy, (1 << 20, 1 << 20), &options));
    }

    /// The games of `text` read part by part (parts of `sizes`, as in [`same_as_whole`]) while its survey hands
    /// the reader its parts, the reader taking them as they come (`concurrently`) or only
    /// once the survey has ended (so that the survey stops handing them when
    /// [`HANDED_PARTS`] wait): the survey's answer and the games are those of the survey and
    /// the parts alone, which are those of the whole file.
    ///
    /// Returns whether the survey stopped handing parts, for the reader to read on by itself.
    fn same_when_handed(
        text: &[u8],
        sizes: (usize, usize),
        options: &ReadOptions,
        concurrently: bool,
    ) -> bool {
        let (first_part_bytes, part_bytes) = sizes;
        let parts = |source| split_parts_of(source, options, part_bytes, first_part_bytes);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sgf");
        std::fs::write(&path, text).unwrap();
        let source = || {
            let large = LargeFile { path: path.clone(), size: text.len() as u64 };
            Source { name: "c.sgf".into(), bytes: Ok(Arc::from(&[][..])), large: Some(large) }
        };
        let show = |f: &[Finding]| f.iter().map(|f| f.to_string()).collect::<Vec<_>>();
        let alone = parts(source()).survey();
        let handover = Arc::new(Handover::default());
        let mut forked = false;
        let mut surveyor = parts(source());
        let reader = Handover::parts(Arc::clone(&handover), parts(source()));
        let (surveyed, games) = if concurrently {
            std::thread::scope(|scope| {
                let reading = scope.spawn(|| reader.flat_map(|p| p.games).collect::<Vec<_>>());
                let surveyed = surveyor.survey_handing(&handover);
                (surveyed, reading.join().unwrap())
            })
        } else {
            let surveyed = surveyor.survey_handing(&handover);
            forked = handover.handed().rest.is_some();
            (surveyed, reader.flat_map(|p| p.games).collect())
        };
        let context = format!("parts of {sizes:?}, concurrently: {concurrently}");
        assert_eq!(
            surveyed.as_ref().map(|(n, f)| (*n, show(f))),
            alone.as_ref().map(|(n, f)| (*n, show(f))),
            "{context}"
        );
        if surveyed.is_some() {
            // Else the parts do not read as the whole file: their games are dropped.
            let whole = split_file("c.sgf", Arc::from(text), options);
            let mine: Vec<String> = games.iter().map(|g| describe(g, options)).collect();
            let theirs: Vec<String> = whole.games.iter().map(|g| describe(g, options)).collect();
            assert_eq!(mine, theirs, "{context}");
        }
        forked
    }

    #[test]
    fn parts_handed_by_the_survey_read_as_the_parts_alone() {
        let options = ReadOptions::default();
        let mut texts: Vec<Vec<u8>> = vec![
            b"junk before\n(;GM[1];B[aa])\n\xEF\xBB\xBF(;GM[1]C[a ) ( ; \\] b];W[bb])more junk\n(;B[cc])".to_vec(),
            b"(;GM[1];B[aa]\n(;GM[1]PB[x];W[bb])\n(;GM[1]PB[y];B[cc])".to_vec(),
            b"nothing but junk here".to_vec(),
            b"(;C[a value that never ends".to_vec(),
        ];
        let mut many = Vec::new();
        for i in 0..40 {
            many.extend_from_slice(format!("(;GM[1]PB[p{i}];B[aa];W[bb])\n").as_bytes());
        }
        texts.push(many.clone());
        // Not read part by part after all: a legacy charset past the first part.
        many.extend_from_slice(b"(;GM[1]PB[\xC0\xEE\xCA\xC0];B[aa])");
        texts.push(many);
        for text in &texts {
            for sizes in [7, 40, 333, 1 << 20].into_iter().flat_map(sizes) {
                for concurrently in [false, true] {
                    same_when_handed(text, sizes, &options, concurrently);
                }
            }
        }
        // Forty games in parts of 40 bytes: the survey hands three and stops; in one part, it
        // hands them all.
        assert!(same_when_handed(&texts[4], (40, 40), &options, false));
        assert!(!same_when_handed(&texts[4], (1 << 20, 1 << 20), &options, false));
        // The games limit, counted across parts handed and parts read.
        let limited = ReadOptions {
            limits: Limits { max_games_per_file: 3, ..Limits::default() },
            ..ReadOptions::default()
        };
        assert!(same_when_handed(&texts[4], (40, 40), &limited, false));
    }

    #[test]
    fn games_of_parts_the_survey_checked_are_known_utf8_and_decode_as_checked_alone() {
        let options = ReadOptions::default();
        let mut text = Vec::new();
        for i in 0..40 {
            text.extend_from_slice(format!("(;GM[1]CA[UTF-8]PB[李{i}];B[aa];W[bb])\n").as_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sgf");
        std::fs::write(&path, &text).unwrap();
        let source = || {
            let large = LargeFile { path: path.clone(), size: text.len() as u64 };
            Source { name: "c.sgf".into(), bytes: Ok(Arc::from(&[][..])), large: Some(large) }
        };
        // Parts of 60 bytes: about one game each. The survey hands the first three parts and
        // leaves the rest to the reader, who reads them again, unchecked.
        let handover = Arc::new(Handover::default());
        let mut surveyor = split_parts_of(source(), &options, 60, 60);
        let reader =
            Handover::parts(Arc::clone(&handover), split_parts_of(source(), &options, 60, 60));
        assert!(surveyor.survey_handing(&handover).is_some());
        let games: Vec<PendingGame> = reader.flat_map(|p| p.games).collect();
        assert_eq!(games.len(), 40);
        let known: Vec<bool> = games.iter().map(PendingGame::known_valid_utf8).collect();
        let handed = known.iter().take_while(|&&k| k).count();
        assert!((1..40).contains(&handed), "{known:?}");
        assert!(known[handed..].iter().all(|&k| !k), "{known:?}");
        for game in &games {
            let decoded = game.decode(&options);
            let alone = charset::decode_game(game.bytes(), &pending::empty_charset(), &options);
            assert!(matches!(decoded.text, std::borrow::Cow::Borrowed(_)));
            assert_eq!(decoded.text, alone.text);
            assert_eq!(decoded.encoding, alone.encoding);
            assert_eq!(decoded.findings, alone.findings);
        }
    }

    #[test]
    fn the_games_limit_counts_across_parts() {
        let mut text = Vec::new();
        for i in 0..12 {
            text.extend_from_slice(format!("(;GM[1]PB[p{i}];B[aa])x\n").as_bytes());
        }
        for max in [0, 1, 3, 11, 12, 13] {
            let options = ReadOptions {
                limits: Limits { max_games_per_file: max, ..Limits::default() },
                ..ReadOptions::default()
            };
            check(&text, &options);
        }
    }
}
