//! Analysis of one game record: replay under the rules, final status of the stones, scores
//! under every requested ruleset, and the disagreements worth a curator's attention.
//!
//! It sits between the record layer (which it reads) and the pipeline and reports (which print
//! what it returns). It does no I/O.

pub mod agreement;
pub mod dead_stones;
pub mod dedupe;
pub mod finish;
pub(crate) mod reading;
pub mod replay;
pub mod scoring;

use crate::finding::Finding;
use crate::record::{GameRecord, ReadStatus};
use crate::rules::{Board, Color, Outcome, Point, Preset, Ruleset};

/// The stone on every point of `board`, row by row from the top left (`y * width + x`), the
/// layout the counting code reads. Read a row at a time by location: a game's final position
/// is laid out this way several times over (counts, open borders, the estimator's snapshot),
/// and asking the board point by point costs several times as much.
pub(crate) fn stones_by_row(board: &Board) -> Vec<Option<Color>> {
    let size = board.size();
    let width = size.width as u16;
    let mut stones = Vec::with_capacity(size.area());
    for y in 0..size.height {
        let Some(row) = board.loc(Point::new(0, y)) else { continue };
        stones.extend((row..row + width).map(|loc| board.stone_at(loc)));
    }
    stones
}

/// A ruleset the user asked to score every game under (`--rules`).
#[derive(Clone, Debug, PartialEq)]
pub enum RulesetRequest {
    /// `recorded`: the rules the record names in RU, mapped to a preset, or inferred.
    Recorded,
    /// A preset by name or alias.
    Preset(&'static Preset),
}

impl RulesetRequest {
    /// Reads one item of `--rules`: `recorded` or a preset name or alias.
    pub fn parse(name: &str) -> Option<RulesetRequest> {
        if name.trim().eq_ignore_ascii_case("recorded") {
            Some(RulesetRequest::Recorded)
        } else {
            crate::rules::preset(name).map(RulesetRequest::Preset)
        }
    }

    /// The name printed in the `ruleset` column: `recorded` or the preset's canonical name.
    pub fn name(&self) -> &'static str {
        match self {
            RulesetRequest::Recorded => "recorded",
            RulesetRequest::Preset(p) => p.name,
        }
    }
}

/// How to decide which stones are dead before counting (`--dead-stones`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeadStoneMode {
    /// Markup when the record has it, else the estimator; rulesets that count the board as it
    /// stands (Tromp-Taylor) always as-is.
    #[default]
    Auto,
    /// Every stone alive.
    AsIs,
    /// TB/TW markup only (no markup: every stone alive, said in a finding).
    Markup,
    /// The estimator, even when markup exists.
    Estimate,
}

/// What to compute for every game.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisOptions {
    /// The rulesets to score under, in the order requested.
    pub rulesets: Vec<RulesetRequest>,
    /// Where dead stones come from.
    pub dead_stones: DeadStoneMode,
}

impl Default for AnalysisOptions {
    /// `recorded,chinese,japanese` with automatic dead stones: the command line's defaults.
    fn default() -> AnalysisOptions {
        AnalysisOptions {
            rulesets: ["recorded", "chinese", "japanese"]
                .iter()
                .map(|n| RulesetRequest::parse(n).expect("default rulesets exist"))
                .collect(),
            dead_stones: DeadStoneMode::Auto,
        }
    }
}

/// Analyses one game: replay, statuses, scores and disagreements. Pure and deterministic: the
/// same record and options give the same analysis on any thread.
pub fn analyze(record: &GameRecord, options: &AnalysisOptions) -> GameAnalysis {
    analyze_with_findings(record, record.findings.clone(), options)
}

/// [`analyze`] with the record's findings handed over by a caller that took them out of the
/// record (the pipeline, done with the record once it is analysed): they start the game's list
/// instead of being copied into it. Nothing here reads `record.findings`.
pub fn analyze_with_findings(
    record: &GameRecord,
    record_findings: Vec<Finding>,
    options: &AnalysisOptions,
) -> GameAnalysis {
    if record.status == ReadStatus::Failed {
        // The reader's own finding (syntax, no-game, io...) says why; scoring adds none.
        let reason = "the record could not be parsed";
        return GameAnalysis {
            status: GameStatus::Unparsed,
            findings: record_findings,
            scores: options.rulesets.iter().map(|r| scoring::unscored(r, record, reason)).collect(),
            disagreements: Vec::new(),
        };
    }
    if options.rulesets.is_empty() {
        // Nothing to score: the replay's findings are all that is needed, and the final board
        // is not copied out.
        let legality = replay::legality(record, &record.rules.ruleset, record_findings);
        let status = if legality.is_illegal() { GameStatus::Illegal } else { GameStatus::Ok };
        return GameAnalysis {
            status,
            findings: legality.findings,
            scores: Vec::new(),
            disagreements: Vec::new(),
        };
    }
    // Legality is judged under the record's own rules; every requested ruleset counts the final
    // position of that replay.
    let replay = replay::replay(record, &record.rules.ruleset);
    let status = if replay.is_illegal() { GameStatus::Illegal } else { GameStatus::Ok };
    let mut findings = record_findings;
    findings.reserve(replay.findings.len() + 2);
    findings.extend_from_slice(&replay.findings);
    let mut disagreements = Vec::new();
    let scores = {
        // The recorded result is always checked against the record's own rules, requested or
        // not; that score is computed alongside the requested ones.
        let mut requests = options.rulesets.clone();
        let recorded_requested = requests.contains(&RulesetRequest::Recorded);
        if !recorded_requested {
            requests.push(RulesetRequest::Recorded);
        }
        let scoring::Scored { mut scores, findings: score_findings, mut counted } =
            scoring::score_all(record, &replay, &requests, options.dead_stones);
        findings.extend(score_findings);
        let recorded_score = if recorded_requested {
            scores.iter().find(|s| s.requested == RulesetRequest::Recorded.name()).cloned()
        } else {
            scores.pop()
        };
        if let (Some(counted), Some(recorded)) = (&mut counted, &recorded_score)
            && let Some(d) = agreement::recorded_vs_recomputed(record, &replay, counted, recorded)
        {
            disagreements.push(d);
        }
        disagreements.extend(agreement::winner_flips(&scores));
        scores
    };
    GameAnalysis { status, findings, scores, disagreements }
}

/// The status a game gets in `games.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameStatus {
    /// Read and replayed without an illegal move.
    Ok,
    /// At least one illegal move or illegal setup.
    Illegal,
    /// The record could not be parsed.
    Unparsed,
}

impl GameStatus {
    /// `ok`, `illegal` or `unparsed`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Ok => "ok",
            GameStatus::Illegal => "illegal",
            GameStatus::Unparsed => "unparsed",
        }
    }
}

/// Where the final status of the stones came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadStoneSource {
    /// Every stone on the board counts as alive (Tromp-Taylor).
    AsIs,
    /// TB/TW markup in the record's last node.
    Markup,
    /// kifu's estimator.
    Estimate,
}

impl DeadStoneSource {
    /// `as-is`, `markup` or `estimate`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeadStoneSource::AsIs => "as-is",
            DeadStoneSource::Markup => "markup",
            DeadStoneSource::Estimate => "estimate",
        }
    }
}

/// How far a recomputed score can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Confidence {
    /// Unclear stones, open borders or a seki the count depends on.
    Low,
    /// Every status decided, but not proven.
    Medium,
    /// Every status proven or marked, borders closed, and nothing else the margin hangs on:
    /// under inferred rules both counting families give it, and a record kifu finished leaves
    /// no neutral point to an area count.
    High,
}

impl Confidence {
    /// `low`, `medium` or `high`.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

/// The score of one game under one requested ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesetScore {
    /// The name as requested (`recorded`, `chinese`, ...).
    pub requested: String,
    /// The preset actually used (`custom` for a KataGo-style RU string).
    pub preset: &'static str,
    /// The parameters used.
    pub ruleset: Ruleset,
    /// Komi in points.
    pub komi: f64,
    /// The result, or `None` when no score could be computed (a finding says why).
    pub outcome: Option<Outcome>,
    /// Where the dead stones came from.
    pub dead_stones: DeadStoneSource,
    /// How far the score can be trusted.
    pub confidence: Confidence,
    /// The count behind the outcome (`None` when nothing was counted: no score, or a cycle).
    pub count: Option<ScoreCount>,
    /// Why the confidence is not high, why there is no score, or what decided the outcome
    /// instead of a count; empty when there is nothing to say.
    pub note: String,
}

/// The numbers behind a counted score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreCount {
    /// Black's points before komi and handicap compensation (area: stones plus points, minus
    /// any group tax; territory: points plus prisoners plus dead stones).
    pub black: f64,
    /// White's points, likewise.
    pub white: f64,
    /// Dead stones removed: Black's, White's.
    pub dead: [u32; 2],
    /// Points counting for nobody.
    pub neutral: u32,
}

/// The kind of a disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DisagreementKind {
    /// The recorded counted result differs from the one recomputed under the record's rules.
    RecordedVsRecomputed,
    /// The winner differs between two requested rulesets.
    WinnerFlip,
}

impl DisagreementKind {
    /// `recorded-vs-recomputed` or `winner-flip`.
    pub fn as_str(self) -> &'static str {
        match self {
            DisagreementKind::RecordedVsRecomputed => "recorded-vs-recomputed",
            DisagreementKind::WinnerFlip => "winner-flip",
        }
    }
}

/// One disagreement found in a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// What disagrees.
    pub kind: DisagreementKind,
    /// A sentence naming both sides and, where it can be told, the likely reason.
    pub detail: String,
    /// The confidence of the recomputed side.
    pub confidence: Confidence,
}

/// Everything kifu concludes about one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// ok, illegal or unparsed.
    pub status: GameStatus,
    /// The record's findings followed by the replay's and the scoring's.
    pub findings: Vec<Finding>,
    /// One entry per requested ruleset, in the order requested.
    pub scores: Vec<RulesetScore>,
    /// Disagreements, recorded-vs-recomputed first.
    pub disagreements: Vec<Disagreement>,
}

impl GameAnalysis {
    /// Checks what must hold of any analysis of `record` under `options`, whatever the game,
    /// as [`Board::check_consistency`] does for a board: the seeded stress test and the
    /// `analyze_game` fuzz target call it on games nobody chose. `Err` says what failed:
    /// - one score per requested ruleset, and a count only with a counted outcome;
    /// - the margin is the totals less komi and handicap compensation;
    /// - an area count (no group tax) gives every point of the board to one side or to nobody;
    /// - no more dead stones than points, and none where every stone counts as alive (as-is
    ///   statuses, or a ruleset that counts the board as it stands);
    /// - a high-confidence score names no unclear chain;
    /// - a recorded-vs-recomputed disagreement only for a counted recorded result.
    pub fn check_invariants(
        &self,
        record: &GameRecord,
        options: &AnalysisOptions,
    ) -> Result<(), String> {
        if self.scores.len() != options.rulesets.len() {
            return Err(format!(
                "{} scores for {} rulesets",
                self.scores.len(),
                options.rulesets.len()
            ));
        }
        let points = u32::from(record.size.width) * u32::from(record.size.height);
        for score in &self.scores {
            let Some(count) = score.count else { continue };
            let name = &score.requested;
            let margin = score
                .outcome
                .and_then(Outcome::margin)
                .ok_or_else(|| format!("{name}: a count without a counted outcome"))?;
            let compensation = score.ruleset.handicap_compensation.points(record.handicap);
            let expected = count.black - count.white - score.komi - compensation;
            if (expected - margin).abs() > 1e-9 {
                return Err(format!(
                    "{name}: margin {margin}, but totals {} - {} less komi {} and \
                     compensation {compensation}",
                    count.black, count.white, score.komi
                ));
            }
            if score.ruleset.scoring == crate::rules::Scoring::Area
                && (count.black + count.white + f64::from(count.neutral) - f64::from(points)).abs()
                    > 1e-9
            {
                return Err(format!(
                    "{name}: an area count of {} + {} and {} neutral on {points} points",
                    count.black, count.white, count.neutral
                ));
            }
            let all_alive =
                !score.ruleset.remove_dead_stones || options.dead_stones == DeadStoneMode::AsIs;
            if (all_alive && count.dead != [0, 0]) || count.dead[0] + count.dead[1] > points {
                return Err(format!("{name}: dead stones {:?} on {points} points", count.dead));
            }
            if score.confidence == Confidence::High && score.note.contains("unclear") {
                return Err(format!("{name}: high confidence with the note {:?}", score.note));
            }
        }
        let counted = record.result.outcome.is_some_and(Outcome::is_counted);
        match self.disagreements.iter().find(|d| d.kind == DisagreementKind::RecordedVsRecomputed) {
            Some(d) if !counted => {
                Err(format!("a disagreement with an uncounted recorded result: {}", d.detail))
            }
            _ => Ok(()),
        }
    }
}
