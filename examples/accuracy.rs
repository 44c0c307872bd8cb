//! The scoring accuracy benchmark: recomputed results against recorded and expected ones over
//! the shared corpus. Run it through `scripts/accuracy` (release build):
//!
//! ```text
//! scripts/accuracy                      # every set, the whole of aeb-pro's counted games
//! scripts/accuracy --aeb-sample 2000    # a deterministic sample of aeb-pro instead
//! scripts/accuracy --sets none --games DIR --autoscore DIR   # held-out sets only
//! ```
//!
//! Sets (all under `../shared/corpus`, or `KIFU_SHARED_CORPUS`):
//! - `ogs-finished`: finished online games (both passed, dead stones agreed), against RE under
//!   the record's own rules and komi;
//! - `aeb-pro`: professional games with a counted RE, against RE under the record's rules;
//!   reported for Japanese-rules even games (the "professional records" target), for the
//!   deterministic 300-game sample of those (KM 6.5/5.5/4.5, 19x19, no handicap; the 300
//!   whose paths hash lowest, so that the sample stays put when other games leave the set),
//!   and for the rest;
//! - `gnugo`: GNU Go's expected `final_score` results in `regression/score.tst`, `score2.tst`
//!   and `newscore.tst` (`#? [W\+32.5]`), counted the way GNU Go counts (territory, the
//!   record's komi);
//! - `ogs-positions`: 54 final positions with a human removal map: positions whose every stone
//!   status the estimator gets right, and stones wrongly taken dead or alive;
//! - `markup`: every record of the corpus whose last node marks the territory (TB/TW: the dead
//!   stones the players or the server agreed on, mostly KGS, NNGS and computer games in the
//!   GNU Go and Fuego suites): the estimator run on the final position as if there were no
//!   markup, stone by stone against the marks, and the margin under the record's rules;
//! - `passes`: the other finished games of the computer-game folders (`gnugo-regression`,
//!   `fuego-regression`, `yenw-ai`): main line ending in two passes, a counted RE, no territory
//!   markup, not one of GNU Go's score tests; against RE under the record's own rules and komi.
//!   The results were written by servers and tournament referees of bot games (NNGS, CGOS,
//!   olympiads, UEC), some by a count that differs from kifu's (CGOS counts the board as it
//!   stands, some referees counted area for games recorded without RU), so a miss is a board to
//!   judge, not an error by itself.
//!
//! Held-out sets, measured only when given (sets kifu was not developed on):
//! - `--games DIR`: any folder of counted games, scored like `ogs-finished` (repeatable);
//! - `--autoscore DIR`: OGS's autoscore test positions (online-go/goban,
//!   `test/autoscore_test_files/*.json`): the estimator's statuses against the correct
//!   ownership, like `ogs-positions`.
//!
//! For each: exact-margin %, within-2 %, same-winner %, by board size, for all games and for those
//! scored with high confidence; the share of high-confidence recorded-vs-recomputed
//! disagreements; and the time per game (thread CPU time of `analyze`, median and p99).
//!
//! A record with a counted RE but no position to count (no moves at all, or a transcription
//! that stops in the opening: kifu's own `no-score` reasons, as `kifu score` gives them) is left
//! out of its table; a line under the table says how many there were and what the figures would
//! be with them counted as misses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use kifu::analysis::dead_stones;
use kifu::analysis::{
    AnalysisOptions, Confidence, DeadStoneMode, DisagreementKind, RulesetRequest, analyze, replay,
    scoring,
};
use kifu::record::{GameRecord, ReadOptions, ReadStatus, sources, split_source};
use kifu::rules::{Board, BoardSize, Color, Point, preset};
use rayon::prelude::*;

/// CPU time of this thread in seconds. `CLOCK_THREAD_CPUTIME_ID` has nanosecond resolution;
/// `/proc/thread-self/schedstat` on some kernels only advances at the scheduler tick (4 ms),
/// too coarse for a game that takes a few milliseconds.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
    } else {
        thread_local!(static START: Instant = Instant::now());
        START.with(|s| s.elapsed().as_secs_f64())
    }
}

fn corpus_dir(args: &[String]) -> Option<PathBuf> {
    // The corpus is the first folder given that is not the value of a flag.
    let takes_value = ["--sets", "--aeb-sample", "--autoscore", "--games"];
    let given = args.iter().enumerate().find(|(i, a)| {
        !a.starts_with("--")
            && (*i == 0 || !takes_value.contains(&args[i - 1].as_str()))
            && Path::new(a).is_dir()
    });
    if let Some((_, p)) = given {
        return Some(PathBuf::from(p));
    }
    if let Ok(p) = std::env::var("KIFU_SHARED_CORPUS") {
        return Some(PathBuf::from(p));
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    [manifest.join("../shared/corpus"), manifest.join("../../shared/corpus")]
        .into_iter()
        .find(|p| p.is_dir())
}

/// One game's comparison.
#[derive(Clone, Debug)]
struct Outcome {
    name: String,
    size: BoardSize,
    want: f64,
    got: Option<f64>,
    confident: bool,
    high_disagreement: bool,
    seconds: f64,
    /// Why the record holds no position to count, when it holds none: kifu's own `no-score`
    /// reason for a record without moves or one that stops in the opening (a game transcribed
    /// in part, "moves beyond 74 not known"). Such a record's RE cannot be reproduced by any
    /// count, so the tables leave it out and say how many there were.
    uncountable: Option<String>,
}

/// FNV-1a, 64 bits: a hash that stays the same across Rust versions and platforms.
fn fnv1a(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn records_in(dir: &Path) -> Vec<GameRecord> {
    let options = ReadOptions::default();
    let loaded: Vec<_> = sources([dir], &options).collect();
    loaded
        .into_par_iter()
        .flat_map_iter(|s| {
            let split = split_source(s, &options);
            split.games.into_iter().map(|g| g.read(&ReadOptions::default())).collect::<Vec<_>>()
        })
        .filter(|r| r.status != ReadStatus::Failed)
        .collect()
}

fn recorded_margin(record: &GameRecord) -> Option<f64> {
    record.result.outcome.and_then(|o| o.margin())
}

/// Scores `record` under its own rules and komi through `analyze`, timed.
fn against_record(record: &GameRecord) -> Option<Outcome> {
    let want = recorded_margin(record)?;
    let options = AnalysisOptions {
        rulesets: vec![RulesetRequest::Recorded],
        dead_stones: DeadStoneMode::Auto,
    };
    let start = thread_cpu_seconds();
    let analysis = analyze(record, &options);
    let seconds = thread_cpu_seconds() - start;
    let score = analysis.scores.first()?;
    let uncountable = if score.outcome.is_none() {
        scoring::unscorable(record, &replay::replay(record, &record.rules.ruleset))
    } else {
        None
    };
    let high_disagreement = analysis.disagreements.iter().any(|d| {
        d.kind == DisagreementKind::RecordedVsRecomputed && d.confidence == Confidence::High
    });
    // The same result written another way (Ing's 8-point komi for 7.5) is the same result.
    let got = score
        .outcome
        .and_then(|o| o.margin())
        .map(|g| if kifu::analysis::agreement::same_result(want, g, score) { want } else { g });
    Some(Outcome {
        name: record.location.source.clone(),
        size: record.size,
        want,
        got,
        confident: score.confidence == Confidence::High,
        high_disagreement,
        seconds,
        uncountable,
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Appends every outcome to the file `KIFU_ACCURACY_DUMP` names, if set: one tab-separated line
/// per game (set, source, board, recorded, recomputed, confident), for comparing two runs.
fn dump(name: &str, outcomes: &[Outcome]) {
    let Ok(path) = std::env::var("KIFU_ACCURACY_DUMP") else { return };
    use std::io::Write;
    let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(&path) else {
        eprintln!("cannot write {path}");
        return;
    };
    for o in outcomes {
        let got = o.got.map_or("-".to_string(), |g| g.to_string());
        let _ =
            writeln!(file, "{name}\t{}\t{}\t{}\t{got}\t{}", o.name, o.size, o.want, o.confident);
    }
}

fn report(name: &str, all: &[Outcome], misses: bool) {
    dump(name, all);
    let (uncountable, outcomes): (Vec<Outcome>, Vec<Outcome>) =
        all.iter().cloned().partition(|o| o.uncountable.is_some());
    let mut by_size: BTreeMap<String, Vec<&Outcome>> = BTreeMap::new();
    for o in &outcomes {
        by_size.entry(o.size.to_string()).or_default().push(o);
        by_size.entry("all".into()).or_default().push(o);
    }
    println!("\n{name}");
    println!(
        "| board | games | exact | within 2 | same winner | confident: games (share), exact | high-conf. disagreements | ms median / p99 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (size, list) in &by_size {
        if size == "all" && by_size.len() == 2 {
            continue;
        }
        let n = list.len();
        let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
        let diff = |o: &&Outcome| o.got.map(|g| (g - o.want).abs());
        let exact = list.iter().filter(|o| diff(o).is_some_and(|d| d < 1e-6)).count();
        let within2 = list.iter().filter(|o| diff(o).is_some_and(|d| d <= 2.0 + 1e-6)).count();
        let winner =
            list.iter().filter(|o| o.got.is_some_and(|g| g.signum() == o.want.signum())).count();
        let confident: Vec<_> = list.iter().filter(|o| o.confident).collect();
        let confident_exact =
            confident.iter().filter(|o| diff(o).is_some_and(|d| d < 1e-6)).count();
        let high = list.iter().filter(|o| o.high_disagreement).count();
        let mut times: Vec<f64> = list.iter().map(|o| o.seconds * 1000.0).collect();
        times.sort_by(f64::total_cmp);
        println!(
            "| {size} | {n} | {:.1}% | {:.1}% | {:.1}% | {} ({:.1}%), {:.1}% | {} ({:.2}%) | {:.2} / {:.2} |",
            pct(exact),
            pct(within2),
            pct(winner),
            confident.len(),
            pct(confident.len()),
            100.0 * confident_exact as f64 / confident.len().max(1) as f64,
            high,
            pct(high),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
        );
    }
    if !uncountable.is_empty() {
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for o in &uncountable {
            let reason = o.uncountable.as_deref().unwrap_or_default();
            let kind =
                if reason.contains("no moves") { "no moves" } else { "stops in the opening" };
            *reasons.entry(kind).or_default() += 1;
        }
        let reasons: Vec<String> = reasons.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let n = all.len().max(1) as f64;
        let close = |limit: f64| {
            outcomes.iter().filter(|o| o.got.is_some_and(|g| (g - o.want).abs() <= limit)).count()
        };
        let winner = outcomes
            .iter()
            .filter(|o| o.got.is_some_and(|g| g.signum() == o.want.signum()))
            .count();
        println!(
            "  left out: {} records with a counted RE but no position to count ({}); counted as \
             misses they would make it {} games, exact {:.1}%, within 2 {:.1}%, same winner {:.1}%",
            uncountable.len(),
            reasons.join(", "),
            all.len(),
            100.0 * close(1e-6) as f64 / n,
            100.0 * close(2.0 + 1e-6) as f64 / n,
            100.0 * winner as f64 / n,
        );
    }
    if misses {
        let mut wrong: Vec<&Outcome> =
            outcomes.iter().filter(|o| o.got.is_none_or(|g| (g - o.want).abs() > 1e-6)).collect();
        wrong.sort_by(|a, b| a.name.cmp(&b.name));
        for o in wrong {
            let got = o.got.map_or("-".to_string(), |g| format!("{g:+}"));
            let conf = if o.confident { " confident" } else { "" };
            let flag = if o.high_disagreement { " HIGH" } else { "" };
            println!("  miss: {} recorded {:+} recomputed {got}{conf}{flag}", o.name, o.want);
        }
    }
}

/// `games/scoring/score3.sgf` → `W+32.5` from GNU Go's score tests.
fn gnugo_expectations(regression: &Path) -> Vec<(PathBuf, f64)> {
    let mut out: BTreeMap<String, f64> = BTreeMap::new();
    for file in ["score.tst", "score2.tst", "newscore.tst"] {
        let Ok(text) = std::fs::read_to_string(regression.join(file)) else { continue };
        let mut current: Option<String> = None;
        for line in text.lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("loadsgf ") {
                let parts: Vec<&str> = rest.split_whitespace().collect();
                current = (parts.len() == 1).then(|| parts[0].to_string());
                continue;
            }
            if line.starts_with('#') && line.contains("loadsgf") {
                current = None;
                continue;
            }
            if let (Some(game), Some(rest)) = (&current, line.strip_prefix("#? [")) {
                let rest = rest.replace('\\', "");
                let (winner, margin) = rest.split_at(1);
                let margin: String = margin
                    .trim_start_matches('+')
                    .chars()
                    .take_while(|c| *c == '.' || c.is_ascii_digit())
                    .collect();
                if let Ok(m) = margin.parse::<f64>() {
                    let signed = if winner == "W" { -m } else { m };
                    out.insert(game.clone(), signed);
                }
            }
        }
    }
    out.into_iter().map(|(g, m)| (regression.join(g), m)).collect()
}

fn gnugo_set(corpus: &Path) -> Vec<Outcome> {
    let regression = corpus.join("gnugo-regression/regression");
    let expectations = gnugo_expectations(&regression);
    let japanese = preset("japanese").expect("preset").ruleset;
    expectations
        .par_iter()
        .filter_map(|(path, want)| {
            let records = records_in_file(path);
            let record = records.first()?;
            let start = thread_cpu_seconds();
            let rep = replay::replay(record, &record.rules.ruleset);
            let (statuses, _) = scoring::statuses(record, &rep, DeadStoneMode::Auto);
            // GNU Go counts territory with the record's komi.
            let count = scoring::count_game(record, &rep, &statuses, &japanese, record.komi.points);
            let seconds = thread_cpu_seconds() - start;
            Some(Outcome {
                name: path.display().to_string(),
                size: record.size,
                want: *want,
                got: Some(count.margin),
                confident: statuses.confidence == Confidence::High,
                high_disagreement: false,
                seconds,
                uncountable: None,
            })
        })
        .collect()
}

fn records_in_file(path: &Path) -> Vec<GameRecord> {
    let options = ReadOptions::default();
    sources([path], &options)
        .flat_map(|s| split_source(s, &options).games)
        .map(|g| g.read(&options))
        .collect()
}

/// The OGS score estimator's test positions: `height`, `width`, `player_to_move` lines, the
/// board (1 black, -1 white, 0 empty), a blank line, then the removal map (1 = removed).
fn read_position(text: &str) -> Option<(Board, Vec<bool>)> {
    let mut rows: Vec<Vec<i32>> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if line.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        rows.push(line.split_whitespace().filter_map(|v| v.parse().ok()).collect());
    }
    let height = rows.len() / 2;
    let width = rows.first()?.len();
    let size = BoardSize::new(width as u8, height as u8)?;
    let mut board = Board::new(size);
    let mut removed = vec![false; width * height];
    for y in 0..height {
        for x in 0..width {
            let p = Point::new(x as u8, y as u8);
            let stone = match rows[y].get(x)? {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ => None,
            };
            if stone.is_some() {
                board.set_stone(p, stone).ok()?;
            }
            removed[y * width + x] = *rows[height + y].get(x)? == 1;
        }
    }
    Some((board, removed))
}

fn positions_set(corpus: &Path, show: bool) {
    let dir = corpus.join("ogs-positions/test_games");
    let mut files: Vec<PathBuf> =
        walk(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "game")).collect();
    files.sort();
    let positions = files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).ok()?;
            let (board, removed) = read_position(&text)?;
            let name = file.strip_prefix(&dir).unwrap_or(file).display().to_string();
            Some((name, board, removed.into_iter().map(Some).collect()))
        })
        .collect();
    removal_set("ogs-positions (removal maps)", positions, show);
}

/// The string rows of the array under `"key"` in a JSON text of the shape OGS's autoscore test
/// files have (rows of letters and spaces, no escapes).
fn json_rows(text: &str, key: &str) -> Option<Vec<String>> {
    let start = text.find(&format!("\"{key}\""))?;
    let rest = &text[start + key.len() + 2..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let body = &rest[open + 1..close];
    Some(body.split('"').skip(1).step_by(2).map(str::to_string).collect())
}

/// An OGS autoscore test position (online-go/goban `test/autoscore_test_files/*.json`): the
/// board (`b`/`B` Black, `w`/`W` White) and the correct ownership of every point (`B`, `W`,
/// blank for nobody, `*` or `s` for any). A stone is dead when the correct owner of its point
/// is the other colour, alive when it is its own colour or nobody (seki); `*` and `s` points
/// are not judged.
fn read_autoscore(text: &str) -> Option<(Board, Vec<Option<bool>>)> {
    let rows = json_rows(text, "board")?;
    let owners = json_rows(text, "correct_ownership")?;
    let height = rows.len();
    let width = rows.first()?.chars().count();
    if owners.len() != height {
        return None;
    }
    let size = BoardSize::new(width as u8, height as u8)?;
    let mut board = Board::new(size);
    let mut judged = Vec::with_capacity(width * height);
    for (y, (row, owner_row)) in rows.iter().zip(&owners).enumerate() {
        let owner_row: Vec<char> = owner_row.chars().collect();
        for (x, cell) in row.chars().enumerate() {
            let stone = match cell {
                'b' | 'B' => Some(Color::Black),
                'w' | 'W' => Some(Color::White),
                _ => None,
            };
            let owner = *owner_row.get(x)?;
            judged.push(match (stone, owner) {
                (None, _) | (_, '*' | 's') => None,
                (Some(Color::Black), 'W') | (Some(Color::White), 'B') => Some(true),
                _ => Some(false),
            });
            if stone.is_some() {
                board.set_stone(Point::new(x as u8, y as u8), stone).ok()?;
            }
        }
    }
    Some((board, judged))
}

fn autoscore_set(dir: &Path, show: bool) {
    let mut files: Vec<PathBuf> =
        walk(dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let positions = files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).ok()?;
            let Some((board, judged)) = read_autoscore(&text) else {
                eprintln!("{}: not an autoscore test position", file.display());
                return None;
            };
            let name = file.strip_prefix(dir).unwrap_or(file).display().to_string();
            Some((name, board, judged))
        })
        .collect();
    removal_set("OGS autoscore positions (correct ownership)", positions, show);
}

/// The estimator on final positions against a human removal map: for every stone, whether it
/// is dead (`None`: not judged).
fn removal_set(title: &str, positions: Vec<(String, Board, Vec<Option<bool>>)>, show: bool) {
    let mut all_right = 0;
    let (mut wrongly_dead, mut wrongly_alive, mut total) = (0, 0, 0);
    let mut misses = Vec::new();
    let mut times = Vec::new();
    for (name, board, removed) in &positions {
        total += 1;
        let start = thread_cpu_seconds();
        let statuses = dead_stones::estimate(board);
        times.push((thread_cpu_seconds() - start) * 1000.0);
        let size = board.size();
        let mut wd = 0;
        let mut wa = 0;
        for (i, p) in size.points().enumerate() {
            if board.get(p).is_none() {
                continue;
            }
            match (statuses.dead[i], removed[i]) {
                (true, Some(false)) => wd += 1,
                (false, Some(true)) => wa += 1,
                _ => {}
            }
        }
        wrongly_dead += wd;
        wrongly_alive += wa;
        if wd == 0 && wa == 0 {
            all_right += 1;
        } else {
            let mut line = format!("{name} ({wd} wrongly dead, {wa} wrongly alive)");
            if show {
                // x/o stones, b/w dead as they should be, B/W wrongly dead, 1/2 wrongly alive,
                // X/O stones not judged.
                for y in 0..size.height as usize {
                    line.push_str("\n    ");
                    for x in 0..size.width as usize {
                        let i = y * size.width as usize + x;
                        let p = Point::new(x as u8, y as u8);
                        line.push(match (board.get(p), statuses.dead[i], removed[i]) {
                            (None, _, _) => '.',
                            (Some(Color::Black), _, None) => 'X',
                            (Some(Color::White), _, None) => 'O',
                            (Some(Color::Black), false, Some(false)) => 'x',
                            (Some(Color::White), false, Some(false)) => 'o',
                            (Some(Color::Black), true, Some(true)) => 'b',
                            (Some(Color::White), true, Some(true)) => 'w',
                            (Some(Color::Black), true, Some(false)) => 'B',
                            (Some(Color::White), true, Some(false)) => 'W',
                            (Some(Color::Black), false, Some(true)) => '1',
                            (Some(Color::White), false, Some(true)) => '2',
                        });
                    }
                }
            }
            misses.push(line);
        }
    }
    times.sort_by(f64::total_cmp);
    println!("\n{title}");
    println!(
        "positions with every stone right: {all_right} of {total}; stones wrongly dead {wrongly_dead}, wrongly alive {wrongly_alive}; ms median / p99 {:.2} / {:.2}",
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
    for m in misses {
        println!("  miss: {m}");
    }
}

/// One record of the markup set: the estimator against the marks.
struct MarkupOutcome {
    name: String,
    wrongly_dead: usize,
    wrongly_alive: usize,
    by_marks: f64,
    by_estimate: f64,
    confident: bool,
    seconds: f64,
    /// Whether the count by the marks reproduces the record's counted RE: two sources agree on
    /// the dead stones (the marks of a bot game, or of a game stopped before the end, can be
    /// partial or wrong; a result counted from the same marks is no proof either, but a count
    /// that disagrees with its own RE is a mark not to trust).
    corroborated: bool,
}

/// The estimator against the records' own territory markup (see the module documentation).
fn markup_set(corpus: &Path, misses: bool) {
    let mut files: Vec<PathBuf> = walk(corpus)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
        .filter(|p| std::fs::read(p).is_ok_and(|b| has_territory_marks(&b)))
        .collect();
    files.sort();
    let results: Vec<MarkupOutcome> = files
        .par_iter()
        .flat_map_iter(|file| records_in_file(file).into_iter().map(move |r| (file.clone(), r)))
        .filter_map(|(file, record)| {
            let markup = record.markup.as_ref()?;
            if markup.black.is_empty() && markup.white.is_empty() || record.moves.len() < 10 {
                return None;
            }
            let rep = replay::replay(&record, &record.rules.ruleset);
            let (marked, _) =
                dead_stones::from_markup(&rep.board, markup, record.moves.len() as u32);
            let start = thread_cpu_seconds();
            let estimated = dead_stones::estimate(&rep.board);
            let seconds = thread_cpu_seconds() - start;
            let size = rep.board.size();
            let (mut wrongly_dead, mut wrongly_alive) = (0, 0);
            for (i, p) in size.points().enumerate() {
                if rep.board.get(p).is_none() {
                    continue;
                }
                match (estimated.dead[i], marked.dead[i]) {
                    (true, false) => wrongly_dead += 1,
                    (false, true) => wrongly_alive += 1,
                    _ => {}
                }
            }
            let ruleset = record.rules.ruleset;
            let komi = record.komi.points;
            let by_marks = scoring::count_game(&record, &rep, &marked, &ruleset, komi).margin;
            let by_estimate = scoring::count_game(&record, &rep, &estimated, &ruleset, komi).margin;
            let name = file.strip_prefix(corpus).unwrap_or(&file).display().to_string();
            let corroborated =
                recorded_margin(&record).is_some_and(|m| (m - by_marks).abs() < 1e-6);
            Some(MarkupOutcome {
                name,
                wrongly_dead,
                wrongly_alive,
                by_marks,
                by_estimate,
                confident: estimated.confidence == Confidence::High,
                seconds,
                corroborated,
            })
        })
        .collect();
    let n = results.len();
    let right = results.iter().filter(|r| r.wrongly_dead == 0 && r.wrongly_alive == 0).count();
    let same_margin = results.iter().filter(|r| (r.by_marks - r.by_estimate).abs() < 1e-6).count();
    let same_winner =
        results.iter().filter(|r| (r.by_marks > 0.0) == (r.by_estimate > 0.0)).count();
    let confident: Vec<_> = results.iter().filter(|r| r.confident).collect();
    let confident_right =
        confident.iter().filter(|r| r.wrongly_dead == 0 && r.wrongly_alive == 0).count();
    let mut times: Vec<f64> = results.iter().map(|r| r.seconds * 1000.0).collect();
    times.sort_by(f64::total_cmp);
    println!("\nmarkup (records with TB/TW in the last node: estimator against the marks)");
    println!(
        "games {n}; every stone as marked {right} ({:.1}%); same margin {same_margin} ({:.1}%), same winner {same_winner} ({:.1}%); stones wrongly dead {}, wrongly alive {}; confident {} ({:.1}% as marked); ms median / p99 {:.2} / {:.2}",
        100.0 * right as f64 / n.max(1) as f64,
        100.0 * same_margin as f64 / n.max(1) as f64,
        100.0 * same_winner as f64 / n.max(1) as f64,
        results.iter().map(|r| r.wrongly_dead).sum::<usize>(),
        results.iter().map(|r| r.wrongly_alive).sum::<usize>(),
        confident.len(),
        100.0 * confident_right as f64 / confident.len().max(1) as f64,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
    );
    let corroborated: Vec<_> = results.iter().filter(|r| r.corroborated).collect();
    let corroborated_right =
        corroborated.iter().filter(|r| r.wrongly_dead == 0 && r.wrongly_alive == 0).count();
    let corroborated_margin =
        corroborated.iter().filter(|r| (r.by_marks - r.by_estimate).abs() < 1e-6).count();
    println!(
        "marks whose count reproduces the record's counted RE: {} games; every stone as marked {corroborated_right} ({:.1}%), same margin {corroborated_margin} ({:.1}%)",
        corroborated.len(),
        100.0 * corroborated_right as f64 / corroborated.len().max(1) as f64,
        100.0 * corroborated_margin as f64 / corroborated.len().max(1) as f64,
    );
    if misses {
        for r in results.iter().filter(|r| r.wrongly_dead + r.wrongly_alive > 0) {
            println!(
                "  miss: {} ({} wrongly dead, {} wrongly alive; margin by marks {:+}, by estimate {:+})",
                r.name, r.wrongly_dead, r.wrongly_alive, r.by_marks, r.by_estimate
            );
        }
        for r in corroborated.iter().filter(|r| r.wrongly_dead + r.wrongly_alive > 0) {
            println!("  miss with marks reproducing RE: {}", r.name);
        }
    }
}

/// The `passes` set (see the module documentation): finished computer and server games with a
/// counted result and no territory markup.
fn passes_set(corpus: &Path, misses: bool) {
    let score_tests: std::collections::BTreeSet<PathBuf> =
        gnugo_expectations(&corpus.join("gnugo-regression/regression"))
            .into_iter()
            .map(|(p, _)| p)
            .collect();
    let mut files: Vec<PathBuf> = ["gnugo-regression", "fuego-regression", "yenw-ai"]
        .iter()
        .flat_map(|d| walk(&corpus.join(d)))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
        .filter(|p| !score_tests.contains(p))
        .filter(|p| std::fs::read(p).is_ok_and(|b| !has_territory_marks(&b)))
        .collect();
    files.sort();
    let outcomes: Vec<Outcome> = files
        .par_iter()
        .flat_map_iter(|file| records_in_file(file))
        .filter(|r| r.status != ReadStatus::Failed && recorded_margin(r).is_some())
        .filter(|r| replay::replay(r, &r.rules.ruleset).ended_by_passes())
        .filter_map(|r| against_record(&r))
        .collect();
    report(
        "passes: finished computer and server games (two passes, counted RE, no markup)",
        &outcomes,
        misses,
    );
}

/// Whether an SGF text holds a TB or TW property with a point value.
fn has_territory_marks(bytes: &[u8]) -> bool {
    bytes.windows(4).any(|w| {
        w[0] == b'T' && (w[1] == b'B' || w[1] == b'W') && w[2] == b'[' && w[3].is_ascii_alphabetic()
    })
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Japanese-rules even games as the notes define the professional sample: 19x19, no handicap,
/// komi 6.5, 5.5 or 4.5, territory counting, a counted result.
fn japanese_even(record: &GameRecord) -> bool {
    record.size == BoardSize::STANDARD
        && record.handicap == 0
        && [6.5, 5.5, 4.5].contains(&record.komi.points)
        && record.rules.ruleset.scoring == kifu::rules::Scoring::Territory
        && recorded_margin(record).is_some()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(corpus) = corpus_dir(&args) else {
        println!("no shared corpus found (set KIFU_SHARED_CORPUS): nothing to measure");
        return;
    };
    let wants = |set: &str| {
        args.iter()
            .position(|a| a == "--sets")
            .and_then(|i| args.get(i + 1))
            .is_none_or(|s| s.split(',').any(|x| x == set))
    };
    let aeb_sample: Option<usize> = args
        .iter()
        .position(|a| a == "--aeb-sample")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok());
    let misses = args.iter().any(|a| a == "--misses");
    println!("corpus: {}", corpus.display());

    if wants("ogs") {
        let records = records_in(&corpus.join("ogs-finished"));
        let outcomes: Vec<Outcome> = records.par_iter().filter_map(against_record).collect();
        report("ogs-finished (recorded rules and komi)", &outcomes, misses);
    }
    if wants("gnugo") {
        report(
            "gnugo-regression score tests (territory, record komi)",
            &gnugo_set(&corpus),
            misses,
        );
    }
    if wants("positions") {
        positions_set(&corpus, args.iter().any(|a| a == "--show"));
    }
    if wants("markup") {
        markup_set(&corpus, misses);
    }
    if wants("passes") {
        passes_set(&corpus, misses);
    }
    // Held-out sets, only when named: a folder of OGS autoscore test positions, and folders of
    // counted games scored under their own rules and komi (like ogs-finished).
    let values_of = |flag: &str| -> Vec<PathBuf> {
        args.windows(2).filter(|w| w[0] == flag).map(|w| PathBuf::from(&w[1])).collect()
    };
    for dir in values_of("--autoscore") {
        autoscore_set(&dir, args.iter().any(|a| a == "--show"));
    }
    for dir in values_of("--games") {
        let records = records_in(&dir);
        let outcomes: Vec<Outcome> = records.par_iter().filter_map(against_record).collect();
        report(&format!("{} (recorded rules and komi)", dir.display()), &outcomes, misses);
    }
    if wants("aeb") {
        let mut records = records_in(&corpus.join("aeb-pro"));
        records.retain(|r| recorded_margin(r).is_some());
        records.sort_by(|a, b| a.location.source.cmp(&b.location.source));
        if let Some(k) = aeb_sample {
            let step = (records.len() as f64 / k as f64).max(1.0);
            records = (0..k)
                .map(|i| (i as f64 * step) as usize)
                .filter(|&i| i < records.len())
                .map(|i| records[i].clone())
                .collect();
        }
        let (japanese, other): (Vec<_>, Vec<_>) = records.into_iter().partition(japanese_even);
        // The sample is the 300 games whose paths (below the corpus) hash lowest, so a game
        // joins or leaves it on its own path only: a sample taken at even steps through the
        // set shifted wholesale whenever a few games left the set, which moved its figures by
        // two points or more with the same answers.
        let mut by_hash: Vec<(u64, usize)> = japanese
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let path = Path::new(&r.location.source);
                (fnv1a(&path.strip_prefix(&corpus).unwrap_or(path).to_string_lossy()), i)
            })
            .collect();
        by_hash.sort_unstable();
        let sample: Vec<usize> = by_hash.iter().take(300).map(|&(_, i)| i).collect();
        let jo: Vec<Option<Outcome>> = japanese.par_iter().map(against_record).collect();
        let sampled: Vec<Outcome> = sample.iter().filter_map(|&i| jo[i].clone()).collect();
        let jo: Vec<Outcome> = jo.into_iter().flatten().collect();
        report("aeb-pro, Japanese-rules even games (counted RE)", &jo, misses);
        report("aeb-pro, deterministic 300-game sample of those", &sampled, false);
        let oo: Vec<Outcome> = other.par_iter().filter_map(against_record).collect();
        report("aeb-pro, other counted games (area rules, handicap, other komi)", &oo, misses);
    }
}
