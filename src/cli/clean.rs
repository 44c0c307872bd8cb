//! `kifu clean`: a cleaned copy of a corpus, in a new folder, with a manifest that says what
//! became of every input game.
//!
//! Each game kept is written back as SGF by the record layer's writer
//! ([`crate::record::write`]): UTF-8 with `CA[UTF-8]`, RE, KM, HA and AB normalised, passes as
//! `[]`, everything else (variations, comments, other properties) as read; each rewrite is read
//! back and compared before it is written. What is left out is chosen with `--drop`; with
//! `duplicates`, the input is read twice: once to find the groups (as `kifu dedupe`), once to
//! write.

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::{Args as ClapArgs, ValueEnum};

use super::args::{CsvArgs, InputArgs, RunArgs};
use super::dedupe::{ThresholdArgs, gather, headline, write_groups};
use super::session::Session;
use crate::analysis::dedupe::{DuplicateCounts, find_duplicates};
use crate::analysis::{AnalysisOptions, DeadStoneMode, GameAnalysis, GameStatus, analyze};
use crate::finding::{Finding, Severity};
use crate::pipeline::{Completion, Mapped, map_games};
use crate::record::write::{ChangeKind, Rewrite, read_and_rewrite};
use crate::record::{GameLocation, GameRecord, PendingGame, ReadOptions, ReadStatus};
use crate::report::output_paths::relative_path;
use crate::report::{CleanFolder, DuplicateRow, ManifestRow};

/// Options of `kifu clean`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = after_long_help())]
pub struct Args {
    /// Output folder, created if missing; it must be empty. It receives the cleaned games,
    /// manifest.csv, and duplicates.csv with `--drop duplicates`. An interrupted or failed run
    /// removes what it wrote.
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,

    /// What to leave out, comma-separated: `unparsed` (always: a game that cannot be parsed
    /// cannot be written as SGF), `lenient` (read only leniently, part may be lost), `empty`
    /// (no moves), `illegal` (an illegal move or setup), `duplicates` (all but the record kept
    /// of each group, as `kifu dedupe` finds them).
    #[arg(long, value_name = "LIST", default_value = "unparsed")]
    pub drop: DropList,

    /// `source`: one file per input file or archive member, its games in order (collections
    /// stay collections); `game`: one file per game (a collection becomes a folder of
    /// NNNN.sgf).
    #[arg(long, value_name = "HOW", value_enum, default_value_t = Layout::Source)]
    pub layout: Layout,

    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

    /// What counts as a duplicate (with `--drop duplicates`).
    #[command(flatten)]
    pub thresholds: ThresholdArgs,

    /// How to write CSV.
    #[command(flatten)]
    pub csv: CsvArgs,

    /// How to run.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `--layout`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One output file per input file or archive member.
    Source,
    /// One output file per game.
    Game,
}

/// `--drop`: the games left out besides the unparsed ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropList {
    /// Games read only leniently.
    pub lenient: bool,
    /// Games without moves.
    pub empty: bool,
    /// Games with an illegal move or setup.
    pub illegal: bool,
    /// Duplicates other than the record kept.
    pub duplicates: bool,
}

impl FromStr for DropList {
    type Err = String;

    fn from_str(text: &str) -> Result<DropList, String> {
        let mut list = DropList::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item.to_ascii_lowercase().as_str() {
                "unparsed" | "none" => {}
                "lenient" => list.lenient = true,
                "empty" => list.empty = true,
                "illegal" => list.illegal = true,
                "duplicates" | "duplicate" => list.duplicates = true,
                _ => {
                    return Err(format!(
                        "`{item}` is not something to drop; use unparsed, lenient, empty, \
                         illegal, duplicates"
                    ));
                }
            }
        }
        Ok(list)
    }
}

impl fmt::Display for DropList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = vec!["unparsed"];
        for (on, name) in [
            (self.lenient, "lenient"),
            (self.empty, "empty"),
            (self.illegal, "illegal"),
            (self.duplicates, "duplicates"),
        ] {
            if on {
                names.push(name);
            }
        }
        f.write_str(&names.join(","))
    }
}

fn after_long_help() -> String {
    let mut text = String::from(
        "Writes into DIR the games kept, and manifest.csv: one row per input game, in input \
         order. Columns:\n",
    );
    for c in ManifestRow::COLUMNS {
        let _ = writeln!(text, "  {:<12} {}", c.name, c.meaning);
    }
    text.push_str(
        "\nEach game written is UTF-8 with CA[UTF-8]; RE, KM and HA normalised (Fox komi \
         converted, RE in SGF form); handicap stones the record left out written as AB; passes \
         as []; everything else (variations, comments, other properties) as read. Every \
         written game is read back and must give the same moves, setup, komi, rules, result \
         and metadata, or it is dropped as `unverified`. Inputs are never modified, and \
         nothing is written outside DIR whatever the names in archives (`..`, absolute paths, \
         drive letters and control characters are removed; clashing names get -2, -3...).\n\n\
         Exit status: 0 when the run completed, whatever it found; 2 when it could not run \
         (bad arguments, DIR not empty or unwritable); 130 when stopped by Ctrl-C.\n\n\
         Examples:\n  kifu clean --out clean games/\n  kifu clean --out clean --drop \
         illegal,duplicates --layout game games.zip more/\n",
    );
    text
}

/// For one game in a duplicate group: the group, and the record kept instead when it is not
/// the one kept.
#[derive(Clone, Debug)]
struct Mark {
    group: u32,
    kept_instead: Option<(String, u32)>,
}

/// The marks of every game in a duplicate group, by source and game index.
#[derive(Debug, Default)]
struct Marks(HashMap<String, HashMap<u32, Mark>>);

impl Marks {
    fn get(&self, location: &GameLocation) -> Option<&Mark> {
        self.0.get(&location.source)?.get(&location.game)
    }
}

/// What a worker hands back for one game.
#[derive(Debug)]
struct Cleaned {
    location: GameLocation,
    status: GameStatus,
    verdict: Verdict,
    mark: Option<Mark>,
}

#[derive(Debug)]
enum Verdict {
    Written(Rewrite),
    Dropped { reason: &'static str, detail: String },
}

/// Replay only: legality decides `illegal`; nothing is scored.
fn replay_only() -> AnalysisOptions {
    AnalysisOptions { rulesets: Vec::new(), dead_stones: DeadStoneMode::Auto }
}

/// The finding that says best why a game is in a state: its first error, else its first.
fn why(findings: &[Finding]) -> String {
    findings
        .iter()
        .find(|f| f.severity == Severity::Error)
        .or(findings.first())
        .map(|f| format!("{}: {}", f.code.as_str(), f.message))
        .unwrap_or_default()
}

/// Why `--drop` leaves a game out, other than as a duplicate.
fn dropped_for(
    record: &GameRecord,
    analysis: &GameAnalysis,
    drop: DropList,
) -> Option<(&'static str, String)> {
    if analysis.status == GameStatus::Unparsed {
        Some(("unparsed", why(&record.findings)))
    } else if drop.lenient && record.status == ReadStatus::Lenient {
        Some(("lenient", why(&record.findings)))
    } else if drop.empty && record.moves.is_empty() {
        Some(("empty", "the game has no moves".to_string()))
    } else if drop.illegal && analysis.status == GameStatus::Illegal {
        let replayed = &analysis.findings[record.findings.len().min(analysis.findings.len())..];
        Some(("illegal", why(replayed)))
    } else {
        None
    }
}

fn clean_game(pending: &PendingGame, read: &ReadOptions, drop: DropList, marks: &Marks) -> Cleaned {
    let mark = marks.get(&pending.location).cloned();
    let mut status = GameStatus::Unparsed;
    let mut dropped = None;
    let (record, rewrite) = read_and_rewrite(pending, read, |record| {
        let analysis = analyze(record, &replay_only());
        status = analysis.status;
        dropped = dropped_for(record, &analysis, drop).or_else(|| {
            let (source, game) = mark.as_ref()?.kept_instead.as_ref()?;
            let group = mark.as_ref().map_or(0, |m| m.group);
            Some(("duplicate", format!("a copy of {source} game {game} (group {group})")))
        });
        dropped.is_none()
    });
    let verdict = match (dropped, rewrite) {
        (Some((reason, detail)), _) => Verdict::Dropped { reason, detail },
        (None, Some(rewrite)) => match &rewrite.check {
            Ok(()) => Verdict::Written(rewrite),
            Err(difference) => {
                Verdict::Dropped { reason: "unverified", detail: difference.clone() }
            }
        },
        (None, None) => Verdict::Dropped { reason: "unparsed", detail: why(&record.findings) },
    };
    Cleaned { location: record.location, status, verdict, mark }
}

/// The path components of one game's own file (`--layout game`): the source's path for a
/// single game, `source-stem/NNNN.sgf` for a game of a collection.
fn game_path(source: &str, game: u32, games: u64, inputs: &[PathBuf]) -> Vec<String> {
    let mut components = relative_path(source, inputs);
    if games > 1 {
        if let Some(last) = components.last_mut() {
            last.truncate(last.len() - 4);
        }
        let width = games.to_string().len().max(4);
        components.push(format!("{game:0width$}.sgf"));
    }
    components
}

/// Refuses an output folder inside one of the input folders: the walk would read the games
/// being written.
fn check_not_inside_inputs(out: &Path, inputs: &[PathBuf]) -> io::Result<()> {
    let out = out.canonicalize()?;
    for input in inputs {
        if let Ok(input) = input.canonicalize()
            && input.is_dir()
            && out.starts_with(&input)
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the output folder {} is inside the input folder {}; choose a folder outside \
                     the inputs",
                    out.display(),
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Counts for the summary.
#[derive(Debug, Default)]
struct Totals {
    sources: u64,
    bytes: u64,
    games: u64,
    written: u64,
    dropped: BTreeMap<&'static str, u64>,
    changes: BTreeMap<ChangeKind, u64>,
}

/// Runs `kifu clean`; the exit status on success.
pub fn run(args: &Args) -> io::Result<u8> {
    let job = args.input.job(replay_only(), args.csv.guard())?;
    if args.drop.duplicates && job.paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--drop duplicates reads the input twice, which standard input cannot be; save it to \
             a file first",
        ));
    }
    let columns = args.drop.duplicates.then_some(DuplicateRow::COLUMNS);
    let mut folder = CleanFolder::create(&args.out, columns)?;
    check_not_inside_inputs(folder.dir(), &job.paths)?;
    let session = Session::start(&args.run)?;
    let guard = args.csv.guard();
    let drop = args.drop;

    let mut marks = Marks::default();
    let mut duplicate_counts = None;
    if drop.duplicates {
        let exclude = move |record: &GameRecord| {
            dropped_for(record, &analyze(record, &replay_only()), drop).is_some()
        };
        let (completion, gathered) = gather(&session, &job, exclude)?;
        if completion == Completion::Interrupted {
            session.progress.finish();
            eprintln!("kifu: interrupted while looking for duplicates; nothing written");
            return Ok(Session::exit_code(completion));
        }
        let groups = find_duplicates(&gathered.entries, &args.thresholds.options());
        if let Some(table) = folder.duplicates() {
            write_groups(table, &groups, &gathered.entries, guard)?;
        }
        for group in &groups {
            let kept = &gathered.entries[group.kept().entry];
            for member in &group.members {
                let e = &gathered.entries[member.entry];
                let mark = Mark {
                    group: group.id,
                    kept_instead: (!member.kept).then(|| (kept.source.clone(), kept.game)),
                };
                marks.0.entry(e.source.clone()).or_default().insert(e.game, mark);
            }
        }
        duplicate_counts = Some(DuplicateCounts::of(&groups));
    }

    let mut totals = Totals::default();
    let mut source_games = 0u64;
    let mut source_output: Option<String> = None;
    let read = job.read.clone();
    let completion = map_games(
        &session.engine,
        &job,
        &session.progress,
        |pending| clean_game(pending, &read, drop, &marks),
        |item| {
            let cleaned = match item {
                Mapped::Source(source) => {
                    folder.close_file()?;
                    source_output = None;
                    source_games = source.games;
                    totals.sources += 1;
                    totals.bytes += source.bytes;
                    return Ok(());
                }
                Mapped::Game(cleaned) => cleaned,
                Mapped::Crashed(location, message) => Cleaned {
                    location,
                    status: GameStatus::Unparsed,
                    verdict: Verdict::Dropped {
                        reason: "internal",
                        detail: format!("kifu failed on this game ({message}); please report it"),
                    },
                    mark: None,
                },
            };
            totals.games += 1;
            let location = &cleaned.location;
            let mut row = ManifestRow {
                source: guard.owned(&location.source),
                game: location.game,
                status: cleaned.status.as_str(),
                action: "written",
                reason: "",
                output: String::new(),
                output_game: None,
                group: cleaned.mark.as_ref().map(|m| m.group),
                kept_source: String::new(),
                kept_game: None,
                detail: String::new(),
            };
            match cleaned.verdict {
                Verdict::Written(rewrite) => {
                    let (output, index) = match args.layout {
                        Layout::Source => {
                            if source_output.is_none() {
                                let components = relative_path(&location.source, &job.paths);
                                source_output = Some(folder.start_file(&components)?);
                            }
                            let index = folder.append(&rewrite.text)?;
                            (source_output.clone().unwrap_or_default(), index)
                        }
                        Layout::Game => {
                            let components = game_path(
                                &location.source,
                                location.game,
                                source_games,
                                &job.paths,
                            );
                            let output = folder.start_file(&components)?;
                            let index = folder.append(&rewrite.text)?;
                            folder.close_file()?;
                            (output, index)
                        }
                    };
                    totals.written += 1;
                    let mut kinds: Vec<ChangeKind> =
                        rewrite.changes.iter().map(|c| c.kind).collect();
                    kinds.dedup();
                    for kind in kinds {
                        *totals.changes.entry(kind).or_default() += 1;
                    }
                    let texts: Vec<&str> =
                        rewrite.changes.iter().map(|c| c.text.as_str()).collect();
                    row.output = guard.owned(&output);
                    row.output_game = Some(index);
                    row.detail = guard.owned(&texts.join("; "));
                }
                Verdict::Dropped { reason, detail } => {
                    *totals.dropped.entry(reason).or_default() += 1;
                    row.action = "dropped";
                    row.reason = reason;
                    row.detail = guard.owned(&detail);
                    if reason == "duplicate"
                        && let Some((source, game)) =
                            cleaned.mark.as_ref().and_then(|m| m.kept_instead.as_ref())
                    {
                        row.kept_source = guard.owned(source);
                        row.kept_game = Some(*game);
                    }
                }
            }
            folder.write_row(&row)
        },
    )?;
    session.progress.finish();
    if completion == Completion::Interrupted {
        // Uncommitted, the folder takes back everything the run wrote.
        std::mem::drop(folder);
        eprintln!(
            "kifu: interrupted after {} games; nothing written ({} left as it was)",
            totals.games,
            args.out.display()
        );
        return Ok(Session::exit_code(completion));
    }
    let files = folder.files();
    let rows = folder.rows();
    folder.commit()?;
    session.say(&summary(&totals, files, rows, duplicate_counts, &session, &args.out));
    Ok(0)
}

fn summary(
    totals: &Totals,
    files: u64,
    rows: u64,
    duplicates: Option<DuplicateCounts>,
    session: &Session,
    out: &Path,
) -> String {
    let mut text = headline(
        "clean",
        totals.games,
        totals.sources,
        totals.bytes,
        session.started.elapsed(),
        session.engine.threads(),
    );
    let dropped: u64 = totals.dropped.values().sum();
    let _ = writeln!(text, "\n{:<34} {:>8}", "games", totals.games);
    let _ = writeln!(text, "{:<34} {:>8}   into {files} files", "  written", totals.written);
    let _ = writeln!(text, "{:<34} {:>8}", "  dropped", dropped);
    for (reason, n) in &totals.dropped {
        let _ = writeln!(text, "    {reason:<30} {n:>8}");
    }
    let _ = writeln!(text, "\n{:<34} {:>8}", "games changed, by what", "");
    for kind in ChangeKind::ALL {
        let n = totals.changes.get(&kind).copied().unwrap_or(0);
        let _ = writeln!(text, "  {:<32} {n:>8}", kind.as_str());
    }
    if let Some(counts) = duplicates {
        text.push('\n');
        text.push_str(&counts.to_string());
    }
    let _ = writeln!(
        text,
        "\noutput: {}/ ({files} files; manifest.csv: {rows} rows)",
        out.display().to_string().trim_end_matches('/')
    );
    text
}
