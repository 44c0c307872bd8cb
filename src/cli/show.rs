//! `kifu show`: one position of one game as a text diagram, with the prisoners taken so far and
//! the findings up to that move. For looking at what `findings.csv` points to.
//!
//! The game is read and replayed by the same code as `kifu audit` (record layer, then
//! `analysis::replay` under the record's own rules, tolerant of illegal moves), on the main line
//! cut after the requested move. With `--score`, the position is also counted as `kifu score`
//! counts it, and a second diagram shows the count: dead stones, territory, neutral points.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;

use super::args::DeadStones;

use crate::analysis::dead_stones::{Basis, ChainStatus, Status};
use crate::analysis::replay::{Replay, replay};
use crate::analysis::{DeadStoneMode, RulesetRequest, scoring};
use crate::finding::Finding;
use crate::record::{self, GameRecord, ReadOptions, ReadStatus};
use crate::rules::{Color, Move};

/// Options of `kifu show`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = "The diagram has X for Black, O for White, . for empty points, \
    column letters without I and rows counted from the bottom, as in findings.csv messages.\n\n\
    With --score, the position is also counted (as kifu score counts it) and drawn again: x \
    and o for dead stones, + and - for Black's and White's points, . for neutral points; a \
    record that stops before the end is finished first, and the finishing moves are listed.\n\n\
    Examples:\n  kifu show game.sgf                  the final position\n  \
    kifu show collection.sgf --game 12 --move 57\n  kifu show archive.zip --game 3 --move 0    \
    the position before the first move\n  kifu show game.sgf --score japanese   how the final \
    position is counted\n\nExit status: 0 when the position was shown; 2 when \
    the file, game or move does not exist or the game could not be parsed.")]
pub struct Args {
    /// An .sgf file (a single game or a collection), an archive, or - for standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Which game: its 1-based number in FILE (in an archive, counted across its members in
    /// stored order, as `kifu audit` lists them).
    #[arg(short, long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub game: u64,

    /// Show the position after move N of the main line (0: before the first move) [default: the
    /// last move].
    #[arg(short, long = "move", value_name = "N")]
    pub move_number: Option<u32>,

    /// Charset to assume when the file names none and is not UTF-8 (as for `kifu audit`).
    #[arg(long, value_name = "NAME", value_parser = super::args::parse_encoding)]
    pub encoding: Option<String>,

    /// Also count the position under RULESET (`recorded` or a preset, as for `kifu score`) and
    /// show the count: dead stones, territory and neutral points, and the chains whose status
    /// was not proven.
    #[arg(long, value_name = "RULESET", num_args = 0..=1, default_missing_value = "recorded",
          value_parser = parse_request)]
    pub score: Option<RulesetRequest>,

    /// Where dead stones come from for `--score`.
    #[arg(long, value_name = "HOW", value_enum, default_value_t = DeadStones::Auto)]
    pub dead_stones: DeadStones,
}

fn parse_request(name: &str) -> Result<RulesetRequest, String> {
    RulesetRequest::parse(name).ok_or_else(|| {
        let names: Vec<_> = crate::rules::PRESETS.iter().map(|p| p.name).collect();
        let mut message =
            format!("unknown ruleset `{name}`; use `recorded` or one of {}", names.join(", "));
        // `--score` takes an optional value, so `kifu show --score game.sgf` reads the file's
        // name as the ruleset: say how to write what was meant.
        if std::path::Path::new(name).is_file() {
            message.push_str(&format!(
                " (`{name}` is a file: to count under the record's own rules, write it before \
                 the option, `kifu show {name} --score`)"
            ));
        }
        message
    })
}

fn refuse(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Finds the requested game in FILE and reads it.
fn find_game(args: &Args, read: &ReadOptions) -> io::Result<GameRecord> {
    let mut seen = 0u64;
    for source in record::sources([args.file.clone()], read) {
        for pending in record::split_source(source, read).games {
            if !pending.has_tree() {
                // Nothing to show; the finding says why (unreadable, not SGF).
                let findings = pending.read(read).findings;
                let why = findings.first().map(|f| f.message.clone()).unwrap_or_default();
                return Err(refuse(format!("{}: {why}", pending.location.source)));
            }
            seen += 1;
            if seen == args.game {
                return Ok(pending.read(read));
            }
        }
    }
    Err(refuse(format!("{}: there is no game {} (found {seen})", args.file.display(), args.game)))
}

/// Prints the position.
pub fn run(args: &Args, out: &mut impl Write) -> io::Result<u8> {
    let read = ReadOptions { encoding: args.encoding.clone(), ..ReadOptions::default() };
    let record = find_game(args, &read)?;
    let location = &record.location;
    if record.status == ReadStatus::Failed {
        let reasons: Vec<String> = record.findings.iter().map(Finding::to_string).collect();
        return Err(refuse(format!(
            "{}, game {}: could not be parsed: {}",
            location.source,
            location.game,
            reasons.join("; ")
        )));
    }
    let total = record.moves.len() as u32;
    let upto = args.move_number.unwrap_or(total);
    if upto > total {
        return Err(refuse(format!(
            "{}, game {}: there is no move {upto} (the main line has {total} moves)",
            location.source, location.game
        )));
    }
    let mut cut = record.clone();
    cut.moves.truncate(upto as usize);
    cut.later_setup.retain(|s| s.after_moves <= upto);
    let replayed = replay(&cut, &record.rules.ruleset);

    let height = record.size.height;
    let name = |id: &str, fallback: &str| record.property(id).unwrap_or(fallback).to_owned();
    writeln!(
        out,
        "{}, game {}: {} (B) vs {} (W)",
        location.source,
        location.game,
        name("PB", "?"),
        name("PW", "?")
    )?;
    let mut facts = vec![crate::report::rows::board_name(&record)];
    facts.push(format!("komi {}", crate::rules::outcome::format_points(record.komi.points)));
    if record.handicap >= 2 {
        facts.push(format!("handicap {}", record.handicap));
    }
    if let Some(ru) = &record.rules.raw {
        facts.push(format!("RU {ru}"));
    }
    if let Some(re) = &record.result.raw {
        facts.push(format!("RE {re}"));
    }
    writeln!(out, "{}", facts.join(", "))?;
    let last = match upto.checked_sub(1).and_then(|i| record.moves.get(i as usize)) {
        None => "before the first move".to_owned(),
        Some(m) => {
            let point = match m.mv {
                Move::Pass => "pass".to_owned(),
                Move::Play(p) => p.display(height).to_string(),
            };
            format!("after move {upto} of {total} ({} {point})", m.color.letter())
        }
    };
    let to_move = if replayed.to_move == Color::Black { "Black" } else { "White" };
    writeln!(out, "position {last}, {to_move} to play")?;
    let board = &replayed.board;
    writeln!(
        out,
        "prisoners: Black has taken {}, White has taken {}\n",
        board.prisoners(Color::Black),
        board.prisoners(Color::White)
    )?;
    write!(out, "{board}")?;

    let findings: Vec<&Finding> = record
        .findings
        .iter()
        .filter(|f| f.move_number <= upto)
        .chain(replayed.findings.iter())
        .collect();
    if findings.is_empty() {
        writeln!(out, "\nno findings up to this move")?;
    } else {
        writeln!(out, "\nfindings up to this move:")?;
        for f in findings {
            writeln!(out, "  {f}")?;
        }
    }
    if let Some(request) = &args.score {
        show_count(out, &cut, &replayed, request, args.dead_stones.into())?;
    }
    Ok(0)
}

/// The count of the shown position under `request`, as a diagram and a tally.
fn show_count(
    out: &mut impl Write,
    record: &GameRecord,
    replayed: &Replay,
    request: &RulesetRequest,
    mode: DeadStoneMode,
) -> io::Result<()> {
    if let Some(reason) = scoring::unscorable(record, replayed) {
        writeln!(out, "\nno count: {reason}")?;
    }
    let (preset, ruleset, komi) = scoring::resolve(request, record);
    let (statuses, _) = scoring::statuses(record, replayed, mode);
    let used = if ruleset.remove_dead_stones {
        statuses
    } else {
        crate::analysis::dead_stones::as_is(&replayed.board)
    };
    let ending = if ruleset.remove_dead_stones {
        scoring::ending(record, replayed, &used)
    } else {
        scoring::as_is_ending(replayed)
    };
    let count = scoring::count_ending(&ending, &ruleset, komi, record.handicap, replayed.passes);
    let board = &ending.board;
    let size = board.size();
    if let Some(finished) = &ending.finished {
        let height = size.height;
        let moves: Vec<String> = finished
            .moves
            .iter()
            .map(|(c, p, why)| format!("{}{} ({})", c.letter(), p.display(height), why.as_str()))
            .collect();
        writeln!(
            out,
            "\nthe record stops before the end; finished with {} moves: {}",
            moves.len(),
            if moves.is_empty() { "none needed".to_string() } else { moves.join(", ") }
        )?;
    }
    writeln!(
        out,
        "\ncount under {preset} (komi {}), dead stones {} ({} confidence):",
        crate::rules::outcome::format_points(komi),
        used.source.as_str(),
        used.confidence.as_str()
    )?;
    writeln!(
        out,
        "X O live stones, x o dead stones, + Black's point, - White's point, . neutral\n"
    )?;
    let width = size.width as usize;
    let mut diagram = String::new();
    crate::rules::write_diagram(&mut diagram, size, |p| {
        let i = p.y as usize * width + p.x as usize;
        match (board.get(p), ending.dead[i], count.owner[i]) {
            (Some(Color::Black), false, _) => 'X',
            (Some(Color::White), false, _) => 'O',
            (Some(Color::Black), true, _) => 'x',
            (Some(Color::White), true, _) => 'o',
            (None, _, Some(Color::Black)) => '+',
            (None, _, Some(Color::White)) => '-',
            (None, _, None) => '.',
        }
    })
    .map_err(io::Error::other)?;
    write!(out, "{diagram}")?;
    let tally = |t: &crate::rules::score::Tally| {
        format!(
            "{} (stones {}, territory {}, prisoners {}, dead {})",
            crate::rules::outcome::format_points(t.total),
            t.stones,
            t.territory,
            t.prisoners,
            t.dead
        )
    };
    writeln!(out, "\nBlack {}", tally(&count.black))?;
    writeln!(out, "White {}", tally(&count.white))?;
    writeln!(out, "neutral {}, result {}", count.neutral, count.outcome)?;
    // The chains worth a look: every one not simply alive, and live ones the estimator was not
    // sure of.
    let doubtful = |c: &&ChainStatus| {
        c.basis != Basis::AsIs && (c.status != Status::Alive || c.certainty < 0.8)
    };
    for chain in used.chains.iter().filter(doubtful) {
        let first = chain.stones.iter().min_by_key(|p| (p.y, p.x)).copied();
        let at = first.map(|p| p.display(size.height).to_string()).unwrap_or_default();
        writeln!(
            out,
            "  {} chain at {at} ({} stones): {} ({}, certainty {:.2})",
            chain.color,
            chain.stones.len(),
            chain.status.as_str(),
            chain.basis.as_str(),
            chain.certainty
        )?;
    }
    for doubt in &used.doubts {
        writeln!(out, "  doubt: {doubt}")?;
    }
    Ok(())
}
