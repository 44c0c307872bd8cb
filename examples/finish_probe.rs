//! The finishing against the players' own: complete records (kifu's finishing plays no move on
//! them) cut a few moves before their end, finished by kifu with the full record's dead stones,
//! and counted against the full record's count. The dead stones are the players', so every
//! difference is the finishing's (the order and choice of the last dame, boundary and
//! protective moves), and the moves the players really played say which.
//!
//! ```text
//! cargo build --release --examples
//! target/release/examples/finish_probe LIST 4,6,8,10 > probe.tsv
//! ```
//!
//! LIST holds one SGF path a line (for issue 4, the Japanese-rules professional records kifu
//! counts exactly, from an `examples/accuracy` dump). For each complete record and each cut
//! `k` (records shorter than `k + 50` moves are left out), one line: the path, `k`, the player
//! to move at the cut, the margin of the cut record minus that of the full one, the full
//! record's margin, kifu's finishing moves (`Bq4:dame:TAG`) and the record's last `k` moves
//! (`Wq4:TAG`). A finishing move's TAG says what its point is in the full record's count, from
//! the mover's side, and a record move's what its point is in the count of kifu's finishing:
//! `own` (the mover's territory: a move inside its own area, a teire), `opp` (the other side's),
//! `st` (a stone of the mover's), `ost` (a stone of the other side's), `neu` (neutral). A record
//! move tagged `own` is a teire the players made and kifu's finishing did not. On stderr, per
//! `k`: the games, the exact ones, and those off in favour of the player to move and against.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use kifu::analysis::dead_stones;
use kifu::analysis::{DeadStoneMode, RulesetRequest, replay, scoring};
use kifu::record::{GameRecord, ReadOptions, sources, split_source};
use kifu::rules::{Board, Color, Move, Point};
use rayon::prelude::*;

/// One cut record: `k`, the player to move at the cut, the margin difference, and the line.
type Probe = (usize, Color, f64, String);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(list), Some(cuts)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: finish_probe LIST K[,K...]");
        std::process::exit(2);
    };
    let Ok(cuts) = cuts.split(',').map(str::parse).collect::<Result<Vec<usize>, _>>() else {
        eprintln!("cuts must be numbers: {cuts}");
        std::process::exit(2);
    };
    let Ok(file) = std::fs::File::open(list) else {
        eprintln!("cannot read {list}");
        std::process::exit(2);
    };
    let paths: Vec<String> = std::io::BufReader::new(file).lines().map_while(Result::ok).collect();
    let probes: Vec<Probe> =
        paths.par_iter().flat_map_iter(|p| probe(Path::new(p), &cuts)).collect();
    let mut totals: BTreeMap<usize, [u32; 4]> = BTreeMap::new();
    for (k, to_move, diff, line) in &probes {
        println!("{line}");
        let t = totals.entry(*k).or_default();
        t[0] += 1;
        let for_mover = if *to_move == Color::Black { *diff } else { -diff };
        t[if *diff == 0.0 {
            1
        } else if for_mover > 0.0 {
            2
        } else {
            3
        }] += 1;
    }
    for (k, [games, exact, over, under]) in totals {
        eprintln!("k={k}: {games} games, {exact} exact, {over} off for the mover, {under} against");
    }
}

/// The cut records of the complete record at `path`, one per cut of `cuts`.
fn probe(path: &Path, cuts: &[usize]) -> Vec<Probe> {
    let options = ReadOptions::default();
    let Some(record) = sources([path], &options)
        .flat_map(|s| split_source(s, &options).games)
        .map(|g| g.read(&options))
        .next()
    else {
        return Vec::new();
    };
    let (_, ruleset, komi) = scoring::resolve(&RulesetRequest::Recorded, &record);
    let full = replay::replay(&record, &record.rules.ruleset);
    let (statuses, _) = scoring::statuses(&record, &full, DeadStoneMode::Estimate);
    let full_end = scoring::ending(&record, &full, &statuses);
    if !full_end.finished.as_ref().is_some_and(|f| f.moves.is_empty()) {
        return Vec::new();
    }
    let full_count = scoring::count_ending(&full_end, &ruleset, komi, record.handicap, full.passes);
    let size = full.board.size();
    let height = size.height;
    let index = |p: Point| p.y as usize * size.width as usize + p.x as usize;
    let n = record.moves.len();
    let mut out = Vec::new();
    for &k in cuts.iter().filter(|&&k| k + 50 <= n) {
        let mut cut: GameRecord = record.clone();
        cut.moves.truncate(n - k);
        let rep = replay::replay(&cut, &cut.rules.ruleset);
        // The full record's dead stones, and the stones it captured later (given up by then).
        let mut dead = dead_stones::as_is(&rep.board);
        for (i, p) in size.points().enumerate() {
            let here = rep.board.get(p);
            dead.dead[i] = here.is_some() && (statuses.dead[i] || full.board.get(p) != here);
        }
        let end = scoring::ending(&cut, &rep, &dead);
        let count = scoring::count_ending(&end, &ruleset, komi, cut.handicap, rep.passes);
        let tag = |owner: &[Option<Color>], board: &Board, color: Color, p: Point| match (
            owner[index(p)],
            board.get(p),
        ) {
            (Some(o), _) if o == color => "own",
            (Some(_), _) => "opp",
            (None, Some(s)) if s == color => "st",
            (None, Some(_)) => "ost",
            (None, None) => "neu",
        };
        let initial = |c: Color| if c == Color::Black { 'B' } else { 'W' };
        let finishing: Vec<String> = end
            .finished
            .iter()
            .flat_map(|f| &f.moves)
            .map(|&(c, p, why)| {
                let t = tag(&full_count.owner, &full_end.board, c, p);
                format!("{}{}:{}:{t}", initial(c), p.display(height), why.as_str())
            })
            .collect();
        let played: Vec<String> = record.moves[n - k..]
            .iter()
            .map(|m| match m.mv {
                Move::Play(p) => format!(
                    "{}{}:{}",
                    initial(m.color),
                    p.display(height),
                    tag(&count.owner, &end.board, m.color, p)
                ),
                _ => format!("{}pass", initial(m.color)),
            })
            .collect();
        let diff = count.margin - full_count.margin;
        let line = format!(
            "{}\t{k}\t{}\t{diff}\t{}\t{}\t{}",
            path.display(),
            initial(rep.to_move),
            full_count.margin,
            finishing.join(" "),
            played.join(" ")
        );
        out.push((k, rep.to_move, diff, line));
    }
    out
}
