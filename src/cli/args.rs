//! Option groups shared by the subcommands that read games (`audit`, `check`, `score`), and the
//! typed values behind them (ruleset lists, shards).
//!
//! Flags are typed and validated here, by clap, before any file is opened (ripgrep's "low
//! args"); turning them into a pipeline job is [`InputArgs::job`]'s business.

use std::fmt;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::str::FromStr;

use clap::{Args, ValueEnum};

use crate::analysis::{AnalysisOptions, DeadStoneMode, RulesetRequest};
use crate::pipeline::{BatchLimits, Job, Shard};
use crate::record::{Limits, ReadOptions};
use crate::report::CellGuard;

/// What to read.
#[derive(Args, Clone, Debug)]
pub struct InputArgs {
    /// An .sgf file (one game or a collection), a folder (searched recursively for *.sgf in any
    /// case), an archive (.zip, .tar, .tar.gz/.tgz, .tar.bz2, .tar.xz), or - for standard input.
    #[arg(value_name = "PATH", required_unless_present = "files_from")]
    pub paths: Vec<PathBuf>,

    /// Also read the paths listed in FILE, one per line (- for standard input). Blank lines and
    /// lines starting with # are skipped. For cluster jobs and `find ... > list` workflows.
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,

    /// Charset to assume when a file names none (CA) and is not UTF-8: a WHATWG label such as
    /// gbk, gb18030, shift_jis, euc-kr, big5, windows-1252, or cp936/cp932/cp949.
    #[arg(long, value_name = "NAME", value_parser = parse_encoding)]
    pub encoding: Option<String>,

    /// Read only shard K of N (K from 0 to N-1): the sources are dealt round-robin in the order
    /// they are found, so N runs with K = 0..N-1 cover every source exactly once. For Slurm array
    /// jobs: --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,

    /// Change a limit on hostile or broken input: NAME=VALUE, repeated or comma-separated.
    /// Names: file-size, archive-total, expansion-ratio, ratio-floor, games, nodes, depth,
    /// value-length, board-side (the README gives each default). Sizes take K, M or G; `none`
    /// lifts a limit. A game or file over a limit is reported (`limit`), never dropped.
    #[arg(long = "limit", value_name = "NAME=VALUE", value_parser = parse_limits)]
    pub limits: Vec<String>,
}

/// How to run.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// Worker threads [default: one per core; 0 also means one per core].
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,

    /// No progress line and no summary on the terminal.
    #[arg(short, long)]
    pub quiet: bool,

    /// Largest batch of games handed to the workers at once. Output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = BatchLimits::default().items as u32,
          help_heading = "Tuning", value_parser = clap::value_parser!(u32).range(1..))]
    pub batch_games: u32,

    /// Largest batch, in megabytes of SGF text. Bounds memory together with --batch-games.
    #[arg(long, value_name = "MB", default_value_t = (BatchLimits::default().bytes >> 20) as u32,
          help_heading = "Tuning", value_parser = clap::value_parser!(u32).range(1..))]
    pub batch_mb: u32,
}

impl RunArgs {
    /// Worker threads for the engine (0: one per core).
    pub fn threads(&self) -> usize {
        self.jobs.unwrap_or(0)
    }

    /// The batch limits asked for.
    pub fn limits(&self) -> BatchLimits {
        BatchLimits { items: self.batch_games as usize, bytes: (self.batch_mb as usize) << 20 }
    }
}

/// How to score.
#[derive(Args, Clone, Debug)]
pub struct ScoringArgs {
    /// Comma-separated rulesets to score every game under: `recorded` (the rules the record
    /// names in RU, mapped to a preset; inferred when absent) and presets by name or alias
    /// (chinese, japanese, korean, aga, ing, nz, tromp-taylor, ancient; see `kifu rules`).
    #[arg(short, long, value_name = "LIST", default_value = "recorded,chinese,japanese")]
    pub rules: RulesetList,

    /// Where dead stones come from before counting.
    #[arg(long, value_name = "HOW", value_enum, default_value_t = DeadStones::Auto)]
    pub dead_stones: DeadStones,
}

/// How CSV is written.
#[derive(Args, Clone, Debug)]
pub struct CsvArgs {
    /// Write text cells exactly as read. By default a text cell that starts with =, +, -, @, tab
    /// or carriage return gets a leading ' so that spreadsheets show it instead of running it as
    /// a formula (player names and other text from the records; never numbers).
    #[arg(long)]
    pub raw_text: bool,
}

impl CsvArgs {
    /// The cell guard asked for.
    pub fn guard(&self) -> CellGuard {
        if self.raw_text { CellGuard::Raw } else { CellGuard::Spreadsheet }
    }
}

/// `--dead-stones`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadStones {
    /// Markup (TB/TW) when the record has it, else kifu's estimate; Tromp-Taylor always as-is.
    Auto,
    /// Every stone on the board counts as alive.
    AsIs,
    /// TB/TW markup only (none: every stone alive, said in a finding).
    Markup,
    /// kifu's estimate, even when markup exists.
    Estimate,
}

impl From<DeadStones> for DeadStoneMode {
    fn from(d: DeadStones) -> DeadStoneMode {
        match d {
            DeadStones::Auto => DeadStoneMode::Auto,
            DeadStones::AsIs => DeadStoneMode::AsIs,
            DeadStones::Markup => DeadStoneMode::Markup,
            DeadStones::Estimate => DeadStoneMode::Estimate,
        }
    }
}

/// A `--rules` list: requested rulesets in order, without repeats.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesetList(pub Vec<RulesetRequest>);

impl FromStr for RulesetList {
    type Err = String;

    fn from_str(text: &str) -> Result<RulesetList, String> {
        let mut list: Vec<RulesetRequest> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let request = RulesetRequest::parse(item).ok_or_else(|| {
                let names: Vec<_> = crate::rules::PRESETS.iter().map(|p| p.name).collect();
                format!("unknown ruleset `{item}`; use `recorded` or one of {}", names.join(", "))
            })?;
            // `japanese,jp` asks for one ruleset; two identical column sets would only confuse.
            if !list.iter().any(|r| r.name() == request.name()) {
                list.push(request);
            }
        }
        if list.is_empty() {
            return Err("the list of rulesets is empty".into());
        }
        Ok(RulesetList(list))
    }
}

impl fmt::Display for RulesetList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = self.0.iter().map(RulesetRequest::name).collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: write K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: NonZeroU32 = n.trim().parse().map_err(|_| bad())?;
        if index >= count.get() {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl InputArgs {
    /// The paths to read: PATH arguments, then those listed by --files-from, each once.
    pub fn paths(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut paths = self.paths.clone();
        if let Some(list) = &self.files_from {
            if list.as_os_str() == "-" && paths.iter().any(|p| p.as_os_str() == "-") {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "standard input cannot be both --files-from - and a PATH -",
                ));
            }
            paths.extend(read_path_list(list)?);
        }
        // A path given twice is read once: every game appears in the report exactly once.
        let mut seen = std::collections::HashSet::new();
        paths.retain(|p| seen.insert(p.clone()));
        Ok(paths)
    }

    /// The pipeline job for these inputs and the given analysis.
    pub fn job(&self, analysis: AnalysisOptions, guard: CellGuard) -> std::io::Result<Job> {
        Ok(Job {
            paths: self.paths()?,
            read: ReadOptions {
                encoding: self.encoding.clone(),
                limits: self.read_limits()?,
                ..ReadOptions::default()
            },
            analysis,
            guard,
            shard: self.shard,
            game_rows: true,
        })
    }
}

impl InputArgs {
    /// The limits asked for with `--limit`, over the defaults.
    fn read_limits(&self) -> std::io::Result<Limits> {
        let mut limits = Limits::default();
        for settings in &self.limits {
            limits
                .apply(settings)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        }
        Ok(limits)
    }
}

/// Checks `--limit` settings against the limits the record layer knows.
fn parse_limits(settings: &str) -> Result<String, String> {
    Limits::default().apply(settings).map(|()| settings.to_owned())
}

impl ScoringArgs {
    /// The analysis these options ask for.
    pub fn analysis(&self) -> AnalysisOptions {
        AnalysisOptions { rulesets: self.rules.0.clone(), dead_stones: self.dead_stones.into() }
    }
}

/// Checks an `--encoding` label against the labels the record layer knows.
pub(crate) fn parse_encoding(label: &str) -> Result<String, String> {
    match crate::record::charset::resolve_label(label) {
        Some(_) => Ok(label.to_owned()),
        None => Err(format!(
            "unknown charset `{label}`; use a WHATWG label such as gbk, shift_jis, euc-kr, big5, \
             windows-1252, utf-8"
        )),
    }
}

/// Reads a list of paths, one per line; `-` reads standard input.
fn read_path_list(list: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if list.as_os_str() == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes)?;
    } else {
        bytes = std::fs::read(list).map_err(|e| {
            std::io::Error::new(e.kind(), format!("--files-from {}: {e}", list.display()))
        })?;
    }
    Ok(bytes
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .filter(|line| !line.is_empty() && !line.starts_with(b"#"))
        .map(path_from_bytes)
        .collect())
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruleset_lists_resolve_aliases_and_drop_repeats() {
        let list: RulesetList = "recorded, Chinese ,jp,japanese,tromp_taylor".parse().unwrap();
        assert_eq!(list.to_string(), "recorded,chinese,japanese,tromp-taylor");
    }

    #[test]
    fn unknown_or_empty_ruleset_lists_are_refused_with_the_choices() {
        let err = "chinese,uchikomi".parse::<RulesetList>().unwrap_err();
        assert!(err.contains("`uchikomi`") && err.contains("tromp-taylor"), "{err}");
        assert!(" , ".parse::<RulesetList>().is_err());
    }

    #[test]
    fn shards_are_k_of_n_from_zero() {
        let s: Shard = "3/4".parse().unwrap();
        assert_eq!((s.index, s.count.get()), (3, 4));
        for bad in ["4/4", "1/0", "x/2", "2", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
