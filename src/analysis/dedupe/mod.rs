//! Duplicate games: the same game stored twice or more, turned, mirrored, truncated or with
//! other metadata, found across a whole corpus.
//!
//! Collections merged from several sources hold the same game many times. Kombilo keys a game
//! by the smallest of its eight Dyer signatures (six moves); KataGo hashes the raw file. kifu
//! keys each game by its whole canonical move sequence ([`key::MoveKey`]) and groups:
//!
//! - **the same moves** under any symmetry of the board (eight on a square board, four on a
//!   rectangular one), colours as recorded, setup stones included;
//! - **a truncated copy**: a record whose moves are the first moves of a longer one (under some
//!   symmetry), when nothing else could be continued by it (see [`group`]);
//! - **the same game with different metadata** follows from the first two: metadata never
//!   enters the key, and each member's differences from the record kept are listed.
//!
//! What counts is decided by [`DedupeOptions`]: very short games (an empty record, a game
//! resigned after a few moves) are too alike to group on their moves alone.
//!
//! In each group one record is **kept**, the most complete: the longest main line, then the
//! most metadata, then a counted result, then the first in input order. Every other member is
//! described by its [`Relation`] to the record kept: `symmetry` (and which), `truncated`,
//! `metadata` (and which fields), or `exact` when it differs in none of these.
//!
//! The work per game ([`GameEntry::of`]) runs in the pipeline's workers; [`find_duplicates`]
//! then sorts the keys once. Output does not depend on the order games were processed in, only
//! on their ordinals (input order).

pub mod group;
pub mod key;
pub mod symmetry;

pub use group::find_duplicates;
pub use key::MoveKey;
pub use symmetry::{Symmetry, SymmetrySet};

use std::fmt;

use crate::record::{GameRecord, KomiOrigin, ReadStatus};
use crate::rules::{BoardSize, Color, outcome::format_points};

/// Thresholds on what counts as a duplicate, in [`MoveKey::weight`] units (main-line moves
/// plus setup stones other than handicap stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DedupeOptions {
    /// Records with the same moves are grouped on their moves alone from this weight on;
    /// shorter ones only when all their metadata is the same too (every property, private ones
    /// included) and names at least a player, a date or an event. Default 20.
    pub min_same_moves: u32,
    /// A record counts as a truncated copy of a longer one only from this weight on (and never
    /// below `min_same_moves`). Default 30.
    pub min_prefix_moves: u32,
    /// From this weight on a truncated copy is grouped whatever its metadata says; below it,
    /// only when the metadata is compatible: the same players and date wherever both records
    /// give them, and the same winner wherever both name one. Default 100.
    pub long_prefix_moves: u32,
}

impl Default for DedupeOptions {
    fn default() -> DedupeOptions {
        DedupeOptions { min_same_moves: 20, min_prefix_moves: 30, long_prefix_moves: 100 }
    }
}

/// The game-information fields compared between the members of a group, in report order.
pub const COMPARED_FIELDS: [&str; 12] =
    ["PB", "PW", "BR", "WR", "DT", "EV", "RO", "PC", "GN", "RE", "KM", "RU"];

/// Root properties about the file rather than the game: not counted as metadata.
const FORMAT_PROPERTIES: [&str; 5] = ["GM", "FF", "CA", "ST", "AP"];

const PB: usize = 0;
const PW: usize = 1;
const DT: usize = 4;
const EV: usize = 5;
const GN: usize = 8;
const RE: usize = 9;

/// One game as duplicate detection sees it: where it is, its key, and the metadata that the
/// report shows and the choice of the record to keep weighs.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEntry {
    /// Position of the game in input order (0-based, over all games found).
    pub ordinal: u64,
    /// The source, as in `games.csv`.
    pub source: String,
    /// 1-based index of the game in its source.
    pub game: u32,
    /// Board size.
    pub board: BoardSize,
    /// Main-line moves, passes included.
    pub moves: u32,
    /// The key; `None` for a game that could not be read (never grouped).
    pub key: Option<MoveKey>,
    /// A caller's reason to prefer any other member as the record kept (`kifu clean` marks
    /// the games it drops for another reason).
    pub excluded: bool,
    /// [`COMPARED_FIELDS`] as read (trimmed), joined by U+001F.
    fields: Box<str>,
    /// Number of game-information values present (properties with a non-empty value other than
    /// the file-format ones, RE, KM and RU).
    metadata: u32,
    /// The recorded result was counted (a margin or a draw).
    counted: bool,
    /// The recorded winner, if any.
    winner: Option<Color>,
    /// A hash of all the record's metadata, normalised; `None` when it names no player, date
    /// or event (see [`GameEntry::identity`]).
    identity: Option<u64>,
}

impl GameEntry {
    /// The entry for a game read as `record`, the `ordinal`-th game of the input.
    pub fn of(ordinal: u64, record: &GameRecord) -> GameEntry {
        let parsed = record.status != ReadStatus::Failed;
        let outcome = record.result.outcome;
        let mut values: Vec<String> = Vec::with_capacity(COMPARED_FIELDS.len());
        for id in COMPARED_FIELDS {
            let value = match id {
                "RE" => match outcome {
                    Some(o) => o.to_string(),
                    None => record.result.raw.clone().unwrap_or_default(),
                },
                "KM" if record.komi.origin != KomiOrigin::Assumed => {
                    format_points(record.komi.points)
                }
                "KM" => String::new(),
                "RU" => record.rules.raw.clone().unwrap_or_default(),
                _ => record.property(id).unwrap_or("").to_string(),
            };
            values.push(value.trim().replace('\u{1f}', " "));
        }
        let mut ids: Vec<&str> = record
            .properties
            .iter()
            .filter(|(k, v)| !v.trim().is_empty() && !FORMAT_PROPERTIES.contains(&k.as_str()))
            .map(|(k, _)| k.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let present = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.trim().is_empty());
        let metadata = ids.len() as u32
            + u32::from(present(&record.result.raw))
            + u32::from(present(&record.komi.raw))
            + u32::from(present(&record.rules.raw));
        let named = [PB, PW, DT, EV, GN].iter().any(|&i| !values[i].is_empty());
        let identity = named.then(|| {
            let mut all: Vec<String> = record
                .properties
                .iter()
                .filter(|(k, _)| !FORMAT_PROPERTIES.contains(&k.as_str()))
                .map(|(k, v)| format!("{k}\u{1f}{}", normalized(v)))
                .chain(values.iter().map(|v| normalized(v)))
                .collect();
            all.sort_unstable();
            fnv1a(all.join("\u{1e}").as_bytes())
        });
        GameEntry {
            ordinal,
            source: record.location.source.clone(),
            game: record.location.game,
            board: record.size,
            moves: record.moves.len() as u32,
            key: parsed.then(|| MoveKey::of(record)),
            excluded: false,
            fields: values.join("\u{1f}").into_boxed_str(),
            metadata,
            counted: outcome.is_some_and(|o| o.is_counted()),
            winner: outcome.and_then(|o| o.winner()),
            identity,
        }
    }

    /// The value of one of [`COMPARED_FIELDS`] as read (trimmed); empty when absent.
    pub fn field(&self, id: &str) -> &str {
        match COMPARED_FIELDS.iter().position(|f| *f == id) {
            Some(i) => self.field_at(i),
            None => "",
        }
    }

    fn field_at(&self, i: usize) -> &str {
        self.fields.split('\u{1f}').nth(i).unwrap_or("")
    }

    /// Number of game-information values the record holds.
    pub fn metadata_count(&self) -> u32 {
        self.metadata
    }

    /// The fields of [`COMPARED_FIELDS`] whose values differ from `other`'s (case and spacing
    /// aside; a value against an absent one differs).
    pub fn differing_fields(&self, other: &GameEntry) -> Vec<&'static str> {
        COMPARED_FIELDS
            .iter()
            .enumerate()
            .filter(|&(i, _)| !same_text(self.field_at(i), other.field_at(i)))
            .map(|(_, id)| *id)
            .collect()
    }

    /// Whether the two records can be the same game by their metadata: the same players and
    /// date wherever both give them, and the same winner wherever both name one.
    pub fn compatible(&self, other: &GameEntry) -> bool {
        let agree = |i: usize| {
            let (a, b) = (self.field_at(i), other.field_at(i));
            a.is_empty() || b.is_empty() || same_text(a, b)
        };
        let winners = match (self.winner, other.winner) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        agree(PB) && agree(PW) && agree(DT) && winners
    }

    /// What makes two short records with the same moves the same game: all their metadata
    /// alike (every property but the file-format ones, private ones included, case and spacing
    /// aside), and at least a
    /// player, a date or an event given. `None` when nothing identifies the record.
    fn identity(&self) -> Option<u64> {
        self.identity
    }

    fn result(&self) -> &str {
        self.field_at(RE)
    }
}

/// Text compared the way people write names: case, and spacing at the ends and inside, aside.
fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// FNV-1a, 64 bits: a hash that is the same in every run (the standard library's is seeded).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn same_text(a: &str, b: &str) -> bool {
    a == b || normalized(a) == normalized(b)
}

/// How a member of a group differs from the record kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The same moves, orientation, length and compared metadata.
    Exact,
    /// The same moves under another symmetry of the board.
    Symmetry,
    /// Fewer moves: the first moves of the record kept.
    Truncated,
    /// Different game information (players, date, result...).
    Metadata,
}

impl Kind {
    /// All kinds, in report order.
    pub const ALL: [Kind; 4] = [Kind::Exact, Kind::Symmetry, Kind::Truncated, Kind::Metadata];

    /// `exact`, `symmetry`, `truncated` or `metadata`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::Symmetry => "symmetry",
            Kind::Truncated => "truncated",
            Kind::Metadata => "metadata",
        }
    }
}

/// A set of [`Kind`]s, written `symmetry+truncated`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Kinds(u8);

impl Kinds {
    /// Adds a kind.
    pub fn insert(&mut self, kind: Kind) {
        self.0 |= 1 << kind as u8;
    }

    /// Whether the set holds `kind`.
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }

    /// Both sets together.
    pub fn union(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members in report order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

impl fmt::Display for Kinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Kind::as_str).collect();
        f.write_str(&names.join("+"))
    }
}

/// How one member of a group relates to the record kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    /// What differs (`exact` when nothing does).
    pub kinds: Kinds,
    /// The symmetry that turns this member onto the record kept.
    pub symmetry: Symmetry,
    /// The compared fields that differ, in [`COMPARED_FIELDS`] order.
    pub differing: Vec<&'static str>,
}

/// One member of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Index of the game in the entries given to [`find_duplicates`].
    pub entry: usize,
    /// Whether this is the record kept.
    pub kept: bool,
    /// How it relates to the record kept (`exact`, identity, nothing differing, for the kept
    /// record itself).
    pub relation: Relation,
}

/// A group of records of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateGroup {
    /// 1-based, in the input order of each group's first member.
    pub id: u32,
    /// The kinds of its members' relations.
    pub kinds: Kinds,
    /// The record kept first, then the others in input order.
    pub members: Vec<Member>,
    /// Why the record kept was chosen, as a phrase (`longest main line (212 moves; next 150)`).
    pub reason: String,
}

impl DuplicateGroup {
    /// The member kept.
    pub fn kept(&self) -> &Member {
        &self.members[0]
    }
}

/// Counts over a list of groups, for summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DuplicateCounts {
    /// Groups found.
    pub groups: u64,
    /// Games in groups (kept ones included).
    pub games: u64,
    /// Groups that have at least one member of each kind, in [`Kind::ALL`] order.
    pub groups_with: [u64; 4],
    /// Members (other than the kept ones) whose relation has each kind, in [`Kind::ALL`] order.
    pub members_with: [u64; 4],
}

impl DuplicateCounts {
    /// The counts of `groups`.
    pub fn of(groups: &[DuplicateGroup]) -> DuplicateCounts {
        let mut counts = DuplicateCounts::default();
        for g in groups {
            counts.groups += 1;
            counts.games += g.members.len() as u64;
            for (i, kind) in Kind::ALL.into_iter().enumerate() {
                counts.groups_with[i] += u64::from(g.kinds.contains(kind));
                counts.members_with[i] +=
                    g.members.iter().filter(|m| !m.kept && m.relation.kinds.contains(kind)).count()
                        as u64;
            }
        }
        counts
    }

    /// Records that are not kept: the games a clean corpus drops.
    pub fn redundant(&self) -> u64 {
        self.games - self.groups
    }
}

impl fmt::Display for DuplicateCounts {
    /// Lines for a summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<34} {:>8}", "duplicate groups", self.groups)?;
        writeln!(f, "{:<34} {:>8}", "  games in them", self.games)?;
        writeln!(f, "{:<34} {:>8}", "  records not kept", self.redundant())?;
        writeln!(f, "groups with a member that is")?;
        for (i, kind) in Kind::ALL.into_iter().enumerate() {
            writeln!(
                f,
                "  {:<32} {:>8}   ({} records)",
                kind.as_str(),
                self.groups_with[i],
                self.members_with[i]
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
