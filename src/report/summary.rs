//! The summary printed at the end of a run and written to `summary.txt`: games by status,
//! findings by code, scores and disagreements, time and rate.
//!
//! It is counted from the very rows written to the CSV files (one [`Summary::add_game`] per
//! `games.csv` row), so its totals reconcile with the reports by construction; the CLI tests
//! check that they do.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use super::rows::GameReport;
use crate::analysis::{Confidence, DisagreementKind, GameStatus};
use crate::finding::{Code, Finding, Severity};

/// Totals of one run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The subcommand (`audit`, `check`, `score`).
    pub command: &'static str,
    /// Sources read (files, archive members, standard input).
    pub sources: u64,
    /// Sources in which no game was found (unreadable, empty, not SGF).
    pub sources_without_games: u64,
    /// Bytes read from the sources.
    pub bytes: u64,
    /// Games found (rows of `games.csv`).
    pub games: u64,
    /// Games by status: ok, illegal, unparsed.
    pub by_status: BTreeMap<GameStatus, u64>,
    /// Findings by code (rows of `findings.csv`, file-level ones included).
    pub findings_by_code: BTreeMap<Code, u64>,
    /// Findings by severity.
    pub findings_by_severity: BTreeMap<Severity, u64>,
    /// Per requested ruleset, in order: (name, scored, not scored).
    pub scores: Vec<(&'static str, u64, u64)>,
    /// Disagreements by kind, and by confidence within each kind (low, medium, high).
    pub disagreements: BTreeMap<DisagreementKind, [u64; 3]>,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// The run was stopped by Ctrl-C before the end of its input.
    pub interrupted: bool,
}

impl Summary {
    /// An empty summary for `command`, with the requested rulesets' names in order.
    pub fn new(command: &'static str, rulesets: &[&'static str]) -> Summary {
        Summary {
            command,
            scores: rulesets.iter().map(|&name| (name, 0, 0)).collect(),
            ..Summary::default()
        }
    }

    /// Counts a source: its size, whether it held games, and its file-level findings.
    pub fn add_source(&mut self, bytes: u64, games: u64, findings: &[Finding]) {
        self.sources += 1;
        self.bytes += bytes;
        if games == 0 {
            self.sources_without_games += 1;
        }
        for f in findings {
            self.count_finding(f.code, f.severity);
        }
    }

    /// Counts a game from the rows written for it.
    pub fn add_game(&mut self, report: &GameReport) {
        self.games += 1;
        *self.by_status.entry(report.status).or_default() += 1;
        for &(code, severity) in &report.finding_codes {
            self.count_finding(code, severity);
        }
        for (tally, row) in self.scores.iter_mut().zip(&report.scores) {
            if row.result.is_empty() {
                tally.2 += 1;
            } else {
                tally.1 += 1;
            }
        }
        for &(kind, confidence) in &report.disagreement_kinds {
            let column = match confidence {
                Confidence::Low => 0,
                Confidence::Medium => 1,
                Confidence::High => 2,
            };
            self.disagreements.entry(kind).or_default()[column] += 1;
        }
    }

    fn count_finding(&mut self, code: Code, severity: Severity) {
        *self.findings_by_code.entry(code).or_default() += 1;
        *self.findings_by_severity.entry(severity).or_default() += 1;
    }

    /// Games with this status.
    pub fn status_count(&self, status: GameStatus) -> u64 {
        self.by_status.get(&status).copied().unwrap_or(0)
    }

    /// All findings.
    pub fn findings(&self) -> u64 {
        self.findings_by_code.values().sum()
    }

    /// All disagreements.
    pub fn disagreement_count(&self) -> u64 {
        self.disagreements.values().flatten().sum()
    }

    /// Games per second of wall-clock time.
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 { self.games as f64 / secs } else { 0.0 }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: u64, word: &str| {
            if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") }
        };
        writeln!(
            f,
            "kifu {}: {} from {} ({}) in {:.2} s, {:.0} games/s on {}{}",
            self.command,
            plural(self.games, "game"),
            plural(self.sources, "source"),
            human_bytes(self.bytes),
            self.elapsed.as_secs_f64(),
            self.rate(),
            plural(self.threads as u64, "thread"),
            if self.interrupted { " (INTERRUPTED: input not read to the end)" } else { "" },
        )?;
        if self.sources_without_games > 0 {
            writeln!(f, "sources without a game: {}", self.sources_without_games)?;
        }

        writeln!(f)?;
        writeln!(f, "{:<28}{:>10}", "games", self.games)?;
        for status in [GameStatus::Ok, GameStatus::Illegal, GameStatus::Unparsed] {
            writeln!(f, "  {:<26}{:>10}", status.as_str(), self.status_count(status))?;
        }

        writeln!(f)?;
        let sev = |s| self.findings_by_severity.get(&s).copied().unwrap_or(0);
        writeln!(
            f,
            "{:<28}{:>10}   errors {}, warnings {}, info {}",
            "findings",
            self.findings(),
            sev(Severity::Error),
            sev(Severity::Warning),
            sev(Severity::Info)
        )?;
        for (code, n) in &self.findings_by_code {
            writeln!(f, "  {:<26}{:>10}   {}", code.as_str(), n, shorten(code.description(), 58))?;
        }

        if !self.scores.is_empty() {
            writeln!(f)?;
            writeln!(f, "{:<28}{:>10}{:>10}", "scores by ruleset", "scored", "not")?;
            for (name, scored, not) in &self.scores {
                writeln!(f, "  {name:<26}{scored:>10}{not:>10}")?;
            }
        }

        if self.command == "audit" || self.disagreement_count() > 0 {
            writeln!(f)?;
            writeln!(f, "{:<28}{:>10}", "disagreements", self.disagreement_count())?;
            // By confidence: a curator starts from the high ones, where the record is likely
            // wrong (or, for a winner flip, both counts are sure).
            for (kind, [low, medium, high]) in &self.disagreements {
                let n = low + medium + high;
                writeln!(
                    f,
                    "  {:<26}{n:>10}   high {high}, medium {medium}, low {low}",
                    kind.as_str()
                )?;
            }
        }
        Ok(())
    }
}

/// `text` cut at a word boundary to at most `max` characters, with `...` when cut, so that
/// summary lines stay within 100 columns (`kifu codes` has the whole sentences).
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out = String::new();
    for word in text.split(' ') {
        let needed = if out.is_empty() { word.chars().count() } else { word.chars().count() + 1 };
        if out.chars().count() + needed + 3 > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.trim_end_matches([',', ';', ':']).to_owned() + "..."
}

/// `1.4 MB`, `812 KB`, `93 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_people_write_them() {
        assert_eq!(human_bytes(93), "93 B");
        assert_eq!(human_bytes(812_400), "812.4 KB");
        assert_eq!(human_bytes(7_066_482), "7.1 MB");
    }

    #[test]
    fn long_code_descriptions_are_cut_at_a_word() {
        let text = "A move that leaves its own chain without liberties and captures nothing.";
        assert_eq!(shorten(text, 40), "A move that leaves its own chain...");
        assert_eq!(shorten("Short.", 40), "Short.");
        for code in Code::ALL {
            assert!(shorten(code.description(), 58).chars().count() <= 58);
        }
    }

    #[test]
    fn sources_and_their_findings_are_counted() {
        let mut s = Summary::new("check", &[]);
        s.add_source(100, 0, &[Finding::new(Code::NoGame, 0, "no (; in the file")]);
        s.add_source(2_000, 3, &[]);
        assert_eq!((s.sources, s.sources_without_games, s.bytes), (2, 1, 2_100));
        assert_eq!(s.findings_by_code.get(&Code::NoGame), Some(&1));
        assert_eq!(s.findings(), 1);
        let text = s.to_string();
        assert!(text.starts_with("kifu check: 0 games from 2 sources (2.1 KB)"), "{text}");
        assert!(text.contains("  no-game                            1   The file holds no SGF"));
    }
}
