//! The rows of the four CSV reports: one flat struct per file, and how a game's record and
//! analysis become rows.
//!
//! Each struct's field order is its file's column order, and each carries a `COLUMNS` table of
//! names and meanings that the CSV header, `--help` and the README are made from (a test checks
//! the table against what serde writes). The structs are flat on purpose: csv cannot write
//! `#[serde(flatten)]` fields ("serializing maps is not supported", rust-csv #155).
//!
//! Every row starts with `source` and `game`, so rows are self-contained keys: part files from
//! sharded runs merge with `sort` or SQL, whatever the batch boundaries.

use std::sync::Arc;

use serde::{Serialize, Serializer};

use super::cell::CellGuard;
use crate::analysis::{Confidence, DisagreementKind, GameAnalysis, GameStatus, RulesetRequest};
use crate::finding::{Code, Finding, Severity};
use crate::record::{CharsetOrigin, GameRecord, ReadStatus};
use crate::rules::outcome::format_points;

/// A column of a report: its name and what it holds.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// The header name.
    pub name: &'static str,
    /// What the column holds, for `--help` and the README.
    pub meaning: &'static str,
}

/// A game's `source` cell, shared by all the rows of the game that repeat it (findings, scores,
/// disagreements) instead of copied into each: written as the text it holds.
pub type SourceCell = Arc<str>;

/// Writes a [`SourceCell`] as the string it holds (serde writes `Arc<str>` only with its `rc`
/// feature).
fn source_cell<S: Serializer>(source: &SourceCell, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(source)
}

const fn col(name: &'static str, meaning: &'static str) -> Column {
    Column { name, meaning }
}

/// One row of `games.csv`: one per game found, unparsed ones included.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow {
    /// See [`GameRow::COLUMNS`].
    pub source: String,
    /// See [`GameRow::COLUMNS`].
    pub game: u32,
    /// See [`GameRow::COLUMNS`].
    pub status: &'static str,
    /// See [`GameRow::COLUMNS`].
    pub board: String,
    /// See [`GameRow::COLUMNS`].
    pub handicap: Option<u32>,
    /// See [`GameRow::COLUMNS`].
    pub komi: Option<String>,
    /// See [`GameRow::COLUMNS`].
    pub rules: String,
    /// See [`GameRow::COLUMNS`].
    pub moves: Option<usize>,
    /// See [`GameRow::COLUMNS`].
    pub result_raw: String,
    /// See [`GameRow::COLUMNS`].
    pub result: String,
    /// See [`GameRow::COLUMNS`].
    pub black: String,
    /// See [`GameRow::COLUMNS`].
    pub white: String,
    /// See [`GameRow::COLUMNS`].
    pub black_rank: String,
    /// See [`GameRow::COLUMNS`].
    pub white_rank: String,
    /// See [`GameRow::COLUMNS`].
    pub date: String,
    /// See [`GameRow::COLUMNS`].
    pub event: String,
    /// See [`GameRow::COLUMNS`].
    pub encoding: &'static str,
    /// See [`GameRow::COLUMNS`].
    pub encoding_from: &'static str,
    /// See [`GameRow::COLUMNS`].
    pub parser: &'static str,
    /// See [`GameRow::COLUMNS`].
    pub findings: usize,
    /// See [`GameRow::COLUMNS`].
    pub line: u32,
    /// See [`GameRow::COLUMNS`].
    pub offset: u64,
}

impl GameRow {
    /// The columns of `games.csv`, in order.
    pub const COLUMNS: &'static [Column] = &[
        col(
            "source",
            "path as given; an archive member is `archive.zip!inner/path.sgf`; `-` is standard input",
        ),
        col("game", "1-based index of the game tree within its file"),
        col("status", "`ok`, `illegal` (at least one illegal move or setup) or `unparsed`"),
        col(
            "board",
            "`19`, or `19x13` (columns x rows) for rectangular boards; empty when unparsed",
        ),
        col("handicap", "HA, or the number of black setup stones when HA is absent"),
        col("komi", "in points, after unit conversion (Fox x100, GoGoD zi)"),
        col("rules", "RU as written"),
        col("moves", "number of main-line moves (passes included)"),
        col("result_raw", "RE exactly as written (decoded text)"),
        col(
            "result",
            "RE normalised: B+3.5, W+R, B+T, B+F, B+ (no margin), 0 (draw), Void, ?; empty when absent or unreadable",
        ),
        col("black", "PB, Black's name"),
        col("white", "PW, White's name"),
        col("black_rank", "BR"),
        col("white_rank", "WR"),
        col("date", "DT as written"),
        col("event", "EV as written"),
        col(
            "encoding",
            "charset the game was decoded with (UTF-8, GBK, Shift_JIS, ...); empty when nothing was decoded",
        ),
        col(
            "encoding_from",
            "how it was chosen: bom, ca, utf8, damaged-utf8 (Fox), detected, assumed (--encoding)",
        ),
        col("parser", "how the game was read: fast, strict, lenient (part may be lost) or failed"),
        col("findings", "number of rows this game has in findings.csv"),
        col("line", "1-based line of the game's opening parenthesis in its file"),
        col("offset", "byte offset of the game's opening parenthesis in its file"),
    ];
}

/// One row of `findings.csv` (and of `kifu check`): one per problem.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FindingRow {
    /// See [`FindingRow::COLUMNS`].
    #[serde(serialize_with = "source_cell")]
    pub source: SourceCell,
    /// See [`FindingRow::COLUMNS`].
    pub game: u32,
    /// See [`FindingRow::COLUMNS`].
    #[serde(rename = "move")]
    pub move_number: u32,
    /// See [`FindingRow::COLUMNS`].
    pub code: &'static str,
    /// See [`FindingRow::COLUMNS`].
    pub severity: &'static str,
    /// See [`FindingRow::COLUMNS`].
    pub message: String,
    /// See [`FindingRow::COLUMNS`].
    pub line: Option<u32>,
    /// See [`FindingRow::COLUMNS`].
    pub offset: Option<u64>,
}

impl FindingRow {
    /// The columns of `findings.csv`, in order.
    pub const COLUMNS: &'static [Column] = &[
        col("source", "as in games.csv"),
        col(
            "game",
            "as in games.csv; 0 for a problem with the file rather than one game (junk between games, byte-order mark)",
        ),
        col("move", "1-based main-line move number; 0 for file, root or setup problems"),
        col(
            "code",
            "what kind of problem (see Finding codes); an illegal move is exactly one of occupied, suicide, ko, superko, off-board",
        ),
        col("severity", "`info`, `warning` or `error`"),
        col("message", "a sentence naming the point, value or bytes involved"),
        col("line", "1-based line of the game in its file (empty for file problems)"),
        col("offset", "byte offset of the game in its file (empty for file problems)"),
    ];

    /// A row for a problem with a source as a whole (game 0).
    pub fn for_source(source: &str, finding: &Finding, guard: CellGuard) -> FindingRow {
        FindingRow {
            source: guard.text(source).into(),
            game: 0,
            move_number: finding.move_number,
            code: finding.code.as_str(),
            severity: finding.severity.as_str(),
            message: guard.owned(&finding.message),
            line: None,
            offset: None,
        }
    }
}

/// One row of `scores.csv` (and of `kifu score`): one per game and requested ruleset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreRow {
    /// See [`ScoreRow::COLUMNS`].
    #[serde(serialize_with = "source_cell")]
    pub source: SourceCell,
    /// See [`ScoreRow::COLUMNS`].
    pub game: u32,
    /// See [`ScoreRow::COLUMNS`].
    pub ruleset: &'static str,
    /// See [`ScoreRow::COLUMNS`].
    pub preset: &'static str,
    /// See [`ScoreRow::COLUMNS`].
    pub komi: Option<String>,
    /// See [`ScoreRow::COLUMNS`].
    pub result: String,
    /// See [`ScoreRow::COLUMNS`].
    pub margin: Option<String>,
    /// See [`ScoreRow::COLUMNS`].
    pub dead_stones: &'static str,
    /// See [`ScoreRow::COLUMNS`].
    pub confidence: &'static str,
    /// See [`ScoreRow::COLUMNS`].
    pub black_points: Option<String>,
    /// See [`ScoreRow::COLUMNS`].
    pub white_points: Option<String>,
    /// See [`ScoreRow::COLUMNS`].
    pub dead_black: Option<u32>,
    /// See [`ScoreRow::COLUMNS`].
    pub dead_white: Option<u32>,
    /// See [`ScoreRow::COLUMNS`].
    pub neutral: Option<u32>,
    /// See [`ScoreRow::COLUMNS`].
    pub note: String,
}

impl ScoreRow {
    /// The columns of `scores.csv`, in order.
    pub const COLUMNS: &'static [Column] = &[
        col("source", "as in games.csv"),
        col("game", "as in games.csv"),
        col("ruleset", "the name as requested with --rules (recorded, chinese, ...)"),
        col("preset", "the preset actually used (`custom` for a KataGo-style RU string)"),
        col("komi", "komi used, in points"),
        col(
            "result",
            "SGF form (B+3.5, W+0.5, 0, Void) or empty when no score can be computed (findings.csv says why)",
        ),
        col("margin", "Black minus White in points, komi and compensation included"),
        col(
            "dead_stones",
            "where the dead stones came from: as-is, markup or estimate; empty when not scored",
        ),
        col(
            "confidence",
            "how far the recomputed score can be trusted: low, medium or high; empty when not scored",
        ),
        col(
            "black_points",
            "Black's count before komi and compensation (area: stones and points, less any group tax; territory: points, prisoners and dead stones)",
        ),
        col("white_points", "White's count, likewise"),
        col("dead_black", "black stones removed as dead"),
        col("dead_white", "white stones removed as dead"),
        col("neutral", "points that count for nobody (dame, seki)"),
        col(
            "note",
            "why the confidence is not high, why there is no score, or what decided the result instead of a count",
        ),
    ];
}

/// One row of `disagreements.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DisagreementRow {
    /// See [`DisagreementRow::COLUMNS`].
    #[serde(serialize_with = "source_cell")]
    pub source: SourceCell,
    /// See [`DisagreementRow::COLUMNS`].
    pub game: u32,
    /// See [`DisagreementRow::COLUMNS`].
    pub kind: &'static str,
    /// See [`DisagreementRow::COLUMNS`].
    pub detail: String,
    /// See [`DisagreementRow::COLUMNS`].
    pub confidence: &'static str,
}

impl DisagreementRow {
    /// The columns of `disagreements.csv`, in order.
    pub const COLUMNS: &'static [Column] = &[
        col("source", "as in games.csv"),
        col("game", "as in games.csv"),
        col(
            "kind",
            "recorded-vs-recomputed (RE against the score under the record's rules) or winner-flip (between two requested rulesets)",
        ),
        col("detail", "both sides and, where it can be told, the likely reason"),
        col("confidence", "confidence of the recomputed side: low, medium or high"),
    ];
}

/// Everything the reports say about one game: its rows, and the typed values the summary counts.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    /// The `games.csv` row, unless none was asked for ([`GameReport::without_game_row`]).
    pub game: Option<GameRow>,
    /// The `findings.csv` rows.
    pub findings: Vec<FindingRow>,
    /// The `scores.csv` rows, one per requested ruleset.
    pub scores: Vec<ScoreRow>,
    /// The `disagreements.csv` rows.
    pub disagreements: Vec<DisagreementRow>,
    /// The game's status.
    pub status: GameStatus,
    /// Code and severity of each finding, in order.
    pub finding_codes: Vec<(Code, Severity)>,
    /// Kind and confidence of each disagreement, in order.
    pub disagreement_kinds: Vec<(DisagreementKind, Confidence)>,
}

impl GameReport {
    /// The rows for one analysed game. `requested` is `--rules` in order: scores.csv gets one
    /// row per requested ruleset whether or not a score could be computed.
    pub fn new(
        record: &GameRecord,
        analysis: &GameAnalysis,
        requested: &[RulesetRequest],
        guard: CellGuard,
    ) -> GameReport {
        let mut report = GameReport::without_game_row(record, analysis, requested, guard);
        report.game = Some(GameReport::game_row(record, analysis, guard));
        report
    }

    /// The `games.csv` row of an analysed game.
    fn game_row(record: &GameRecord, analysis: &GameAnalysis, guard: CellGuard) -> GameRow {
        let location = &record.location;
        let parsed = record.status != ReadStatus::Failed;
        let text = |value: Option<&str>| guard.owned(value.unwrap_or(""));
        GameRow {
            source: guard.owned(&location.source),
            game: location.game,
            status: analysis.status.as_str(),
            board: if parsed { board_name(record) } else { String::new() },
            handicap: parsed.then_some(record.handicap),
            komi: parsed.then(|| format_points(record.komi.points)),
            rules: text(record.rules.raw.as_deref()),
            moves: parsed.then_some(record.moves.len()),
            result_raw: text(record.result.raw.as_deref()),
            result: record.result.outcome.map(|o| o.to_string()).unwrap_or_default(),
            black: text(record.property("PB")),
            white: text(record.property("PW")),
            black_rank: text(record.property("BR")),
            white_rank: text(record.property("WR")),
            date: text(record.property("DT")),
            event: text(record.property("EV")),
            encoding: if record.encoding.origin == CharsetOrigin::NotDecoded {
                ""
            } else {
                record.encoding.name
            },
            encoding_from: charset_origin_name(record.encoding.origin),
            parser: parser_name(record.status),
            findings: analysis.findings.len(),
            line: location.line,
            offset: location.offset,
        }
    }

    /// [`GameReport::new`] without the `games.csv` row, for a command that writes none
    /// (`kifu check`): the row is a dozen strings a game.
    pub fn without_game_row(
        record: &GameRecord,
        analysis: &GameAnalysis,
        requested: &[RulesetRequest],
        guard: CellGuard,
    ) -> GameReport {
        GameReport::rows(record, analysis, None, requested, guard)
    }

    /// [`GameReport::new`] when `game_row`, else [`GameReport::without_game_row`], from an
    /// analysis the caller is done with (the pipeline): the findings' messages are moved into
    /// their rows rather than copied.
    pub fn from_analysis(
        record: &GameRecord,
        mut analysis: GameAnalysis,
        requested: &[RulesetRequest],
        guard: CellGuard,
        game_row: bool,
    ) -> GameReport {
        // The games.csv row counts the findings: made before they are taken.
        let game = game_row.then(|| GameReport::game_row(record, &analysis, guard));
        let findings = std::mem::take(&mut analysis.findings);
        let mut report = GameReport::rows(record, &analysis, Some(findings), requested, guard);
        report.game = game;
        report
    }

    /// The rows but the games.csv one; the findings are `owned` when given (then
    /// `analysis.findings` is not read), else `analysis.findings`, copied.
    fn rows(
        record: &GameRecord,
        analysis: &GameAnalysis,
        owned: Option<Vec<Finding>>,
        requested: &[RulesetRequest],
        guard: CellGuard,
    ) -> GameReport {
        let location = &record.location;
        // One string a game, shared by its rows.
        let source: SourceCell = guard.text(&location.source).into();
        let row = |f: &Finding, message: String| FindingRow {
            source: source.clone(),
            game: location.game,
            move_number: f.move_number,
            code: f.code.as_str(),
            severity: f.severity.as_str(),
            message,
            line: Some(location.line),
            offset: Some(location.offset),
        };
        let (findings, finding_codes) = match owned {
            Some(list) => {
                let codes = list.iter().map(|f| (f.code, f.severity)).collect();
                let rows = list
                    .into_iter()
                    .map(|mut f| {
                        let message = guard.owned_from(std::mem::take(&mut f.message));
                        row(&f, message)
                    })
                    .collect();
                (rows, codes)
            }
            None => (
                analysis.findings.iter().map(|f| row(f, guard.owned(&f.message))).collect(),
                analysis.findings.iter().map(|f| (f.code, f.severity)).collect(),
            ),
        };
        let scores = requested
            .iter()
            .enumerate()
            .map(|(i, request)| {
                // `analysis.scores` follows the request order; look the name up if it does not.
                let score = analysis
                    .scores
                    .get(i)
                    .filter(|s| s.requested == request.name())
                    .or_else(|| analysis.scores.iter().find(|s| s.requested == request.name()));
                match score {
                    Some(s) => {
                        // Where nothing was counted, how it would have been counted says nothing.
                        let scored = s.outcome.is_some();
                        ScoreRow {
                            source: source.clone(),
                            game: location.game,
                            ruleset: request.name(),
                            preset: s.preset,
                            komi: Some(format_points(s.komi)),
                            result: s.outcome.map(|o| o.to_string()).unwrap_or_default(),
                            margin: s.outcome.and_then(|o| o.margin()).map(format_points),
                            dead_stones: if scored { s.dead_stones.as_str() } else { "" },
                            confidence: if scored { s.confidence.as_str() } else { "" },
                            black_points: s.count.map(|c| format_points(c.black)),
                            white_points: s.count.map(|c| format_points(c.white)),
                            dead_black: s.count.map(|c| c.dead[0]),
                            dead_white: s.count.map(|c| c.dead[1]),
                            neutral: s.count.map(|c| c.neutral),
                            note: guard.owned(&s.note),
                        }
                    }
                    None => ScoreRow {
                        source: source.clone(),
                        game: location.game,
                        ruleset: request.name(),
                        preset: "",
                        komi: None,
                        result: String::new(),
                        margin: None,
                        dead_stones: "",
                        confidence: "",
                        black_points: None,
                        white_points: None,
                        dead_black: None,
                        dead_white: None,
                        neutral: None,
                        note: String::new(),
                    },
                }
            })
            .collect();
        let disagreements = analysis
            .disagreements
            .iter()
            .map(|d| DisagreementRow {
                source: source.clone(),
                game: location.game,
                kind: d.kind.as_str(),
                detail: guard.owned(&d.detail),
                confidence: d.confidence.as_str(),
            })
            .collect();
        GameReport {
            game: None,
            findings,
            scores,
            disagreements,
            status: analysis.status,
            finding_codes,
            disagreement_kinds: analysis
                .disagreements
                .iter()
                .map(|d| (d.kind, d.confidence))
                .collect(),
        }
    }
}

/// `19`, or `19x13` (columns x rows) for a rectangular board.
pub fn board_name(record: &GameRecord) -> String {
    let size = record.size;
    if size.is_square() {
        size.width.to_string()
    } else {
        format!("{}x{}", size.width, size.height)
    }
}

/// The `parser` column's word for a read status.
pub fn parser_name(status: ReadStatus) -> &'static str {
    match status {
        ReadStatus::Fast => "fast",
        ReadStatus::Strict => "strict",
        ReadStatus::Lenient => "lenient",
        ReadStatus::Failed => "failed",
    }
}

/// The `encoding_from` column's word for how a charset was chosen (empty when nothing was
/// decoded).
pub fn charset_origin_name(origin: CharsetOrigin) -> &'static str {
    match origin {
        CharsetOrigin::Bom => "bom",
        CharsetOrigin::Declared => "ca",
        CharsetOrigin::Utf8 => "utf8",
        CharsetOrigin::DamagedUtf8 => "damaged-utf8",
        CharsetOrigin::Detected => "detected",
        CharsetOrigin::Assumed => "assumed",
        CharsetOrigin::NotDecoded => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{
        AnalysisOptions, Confidence, DeadStoneSource, Disagreement, RulesetScore, ScoreCount,
        analyze,
    };
    use crate::record::{GameLocation, TextEncoding, unparsed};
    use crate::rules::{BoardSize, Outcome, preset};

    fn header_of<T: Serialize>(row: &T) -> Vec<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        text.lines().next().unwrap().split(',').map(str::to_owned).collect()
    }

    fn names(columns: &[Column]) -> Vec<String> {
        columns.iter().map(|c| c.name.to_owned()).collect()
    }

    fn record() -> GameRecord {
        let location = GameLocation { source: "=evil.sgf".into(), game: 3, offset: 120, line: 7 };
        let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
        let mut r = unparsed(location, encoding, "unbalanced parentheses");
        r.status = ReadStatus::Strict;
        r.findings.clear();
        r.size = BoardSize::new(19, 13).unwrap();
        r.properties = [("PB", "@home"), ("PW", "Cho Chikun")].into_iter().collect();
        r.result.raw = Some("W+R".into());
        r.result.outcome = Some(Outcome::from_margin(-2.5));
        r
    }

    #[test]
    fn a_report_from_an_analysis_given_up_is_the_one_from_a_borrowed_analysis() {
        let rec = record();
        let mut analysis = analyze(&rec, &AnalysisOptions::default());
        analysis.findings.push(Finding::new(Code::Occupied, 12, "B at D4: occupied"));
        analysis.findings.push(Finding::new(Code::BadValue, 0, "=HYPERLINK(\"x\")"));
        analysis.findings.push(Finding::new(Code::BadValue, 0, "-"));
        let requested = AnalysisOptions::default().rulesets;
        for guard in [CellGuard::Spreadsheet, CellGuard::Raw] {
            let with_row = GameReport::new(&rec, &analysis, &requested, guard);
            let given = GameReport::from_analysis(&rec, analysis.clone(), &requested, guard, true);
            assert_eq!(given, with_row);
            let without = GameReport::without_game_row(&rec, &analysis, &requested, guard);
            let given = GameReport::from_analysis(&rec, analysis.clone(), &requested, guard, false);
            assert_eq!(given, without);
        }
    }

    #[test]
    fn every_row_struct_writes_the_header_its_table_documents() {
        let rec = record();
        let mut analysis = analyze(&rec, &AnalysisOptions::default());
        analysis.findings.push(Finding::new(Code::Occupied, 12, "B at D4: occupied"));
        analysis.disagreements.push(Disagreement {
            kind: DisagreementKind::WinnerFlip,
            detail: "-x".into(),
            confidence: Confidence::High,
        });
        let requested = AnalysisOptions::default().rulesets;
        let rep = GameReport::new(&rec, &analysis, &requested, CellGuard::Spreadsheet);
        assert_eq!(header_of(rep.game.as_ref().unwrap()), names(GameRow::COLUMNS));
        assert_eq!(header_of(&rep.findings[0]), names(FindingRow::COLUMNS));
        assert_eq!(header_of(&rep.scores[0]), names(ScoreRow::COLUMNS));
        assert_eq!(header_of(&rep.disagreements[0]), names(DisagreementRow::COLUMNS));
    }

    #[test]
    fn a_game_row_guards_text_but_never_numbers_or_results() {
        let rec = record();
        let analysis = analyze(&rec, &AnalysisOptions::default());
        let rep = GameReport::new(&rec, &analysis, &[], CellGuard::Spreadsheet);
        let game = rep.game.unwrap();
        assert_eq!(game.source, "'=evil.sgf");
        assert_eq!(game.black, "'@home");
        assert_eq!(game.white, "Cho Chikun");
        assert_eq!(game.board, "19x13");
        assert_eq!(game.result, "W+2.5");
        assert_eq!(game.result_raw, "W+R");
        let raw = GameReport::new(&rec, &analysis, &[], CellGuard::Raw);
        assert_eq!(raw.game.unwrap().source, "=evil.sgf");
    }

    #[test]
    fn unparsed_games_leave_what_was_not_read_empty() {
        let rec = unparsed(
            GameLocation { source: "a.sgf".into(), game: 1, offset: 0, line: 1 },
            TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false },
            "missing (",
        );
        let analysis = analyze(&rec, &AnalysisOptions::default());
        let requested = AnalysisOptions::default().rulesets;
        let rep = GameReport::new(&rec, &analysis, &requested, CellGuard::Spreadsheet);
        let game = rep.game.as_ref().unwrap();
        assert_eq!(game.status, "unparsed");
        assert_eq!((game.board.as_str(), game.komi.as_deref()), ("", None));
        assert_eq!(game.moves, None);
        assert_eq!(game.findings, 1);
        assert_eq!(rep.findings[0].code, "syntax");
        // One score row per requested ruleset even when nothing could be scored.
        let rulesets: Vec<_> = rep.scores.iter().map(|s| s.ruleset).collect();
        assert_eq!(rulesets, ["recorded", "chinese", "japanese"]);
        assert!(rep.scores.iter().all(|s| s.result.is_empty() && s.margin.is_none()));
    }

    #[test]
    fn score_rows_print_margins_black_minus_white() {
        let rec = record();
        let mut analysis = analyze(&rec, &AnalysisOptions::default());
        let chinese = preset("chinese").unwrap();
        analysis.scores = vec![RulesetScore {
            requested: "chinese".into(),
            preset: chinese.name,
            ruleset: chinese.ruleset,
            komi: 7.5,
            outcome: Some(Outcome::from_margin(-0.5)),
            dead_stones: DeadStoneSource::Estimate,
            confidence: Confidence::Medium,
            count: Some(ScoreCount { black: 180.0, white: 181.0, dead: [3, 0], neutral: 0 }),
            note: "-1 seki".into(),
        }];
        let requested =
            [RulesetRequest::parse("recorded").unwrap(), RulesetRequest::Preset(chinese)];
        let rep = GameReport::new(&rec, &analysis, &requested, CellGuard::Spreadsheet);
        assert_eq!(rep.scores[0].result, "");
        let s = &rep.scores[1];
        assert_eq!((s.result.as_str(), s.margin.as_deref()), ("W+0.5", Some("-0.5")));
        assert_eq!(
            (s.komi.as_deref(), s.dead_stones, s.confidence),
            (Some("7.5"), "estimate", "medium")
        );
        assert_eq!(
            (s.black_points.as_deref(), s.white_points.as_deref()),
            (Some("180"), Some("181"))
        );
        assert_eq!((s.dead_black, s.dead_white, s.neutral), (Some(3), Some(0), Some(0)));
        assert_eq!(s.note, "'-1 seki", "a text column, guarded");
    }
}
