//! `kifu show`: one position of one game as a text diagram, with the prisoners taken so far and
//! the findings up to that move. For looking at what `findings.csv` points to.
//!
//! The game is read and replayed by the same code as `kifu audit` (record layer, then
//! `analysis::replay` under the record's own rules, tolerant of illegal moves), on the main line
//! cut after the requested move.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;

use crate::analysis::replay::replay;
use crate::finding::Finding;
use crate::record::{self, GameRecord, ReadOptions, ReadStatus};
use crate::rules::{Color, Move};

/// Options of `kifu show`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = "The diagram has X for Black, O for White, . for empty points, \
    column letters without I and rows counted from the bottom, as in findings.csv messages.\n\n\
    Examples:\n  kifu show game.sgf                  the final position\n  \
    kifu show collection.sgf --game 12 --move 57\n  kifu show archive.zip --game 3 --move 0    \
    the position before the first move\n\nExit status: 0 when the position was shown; 2 when \
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
    Ok(0)
}
