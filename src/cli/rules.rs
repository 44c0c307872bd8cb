//! `kifu rules`: the ruleset presets and their parameters, as a table (or CSV).
//!
//! Printed from [`crate::rules::PRESETS`], so the table is always the one kifu uses.

use std::io::{self, Write};

use clap::Args as ClapArgs;

use crate::rules::{
    CycleEnd, HandicapCompensation, KoRule, Opening, PRESETS, Preset, Ruleset, Scoring,
    SuicideRule, TieBreak,
};

/// Options of `kifu rules`.
#[derive(ClapArgs, Clone, Debug)]
pub struct Args {
    /// Write the table as CSV (one row per preset, aliases separated by `;`).
    #[arg(long)]
    pub csv: bool,
}

const HEADER: [&str; 11] = [
    "preset",
    "scoring",
    "ko",
    "suicide",
    "komi",
    "handicap",
    "dead_stones",
    "pass_stones",
    "tie",
    "cycle",
    "opening",
];

/// The parameter cells of a ruleset, in the order of the table's columns after the name.
pub fn parameter_cells(r: &Ruleset) -> [String; 10] {
    [
        match r.scoring {
            Scoring::Area => "area",
            Scoring::Territory => "territory",
            Scoring::AreaWithGroupTax => "area-group-tax",
        }
        .into(),
        match r.ko {
            KoRule::Simple => "simple",
            KoRule::PositionalSuperko => "positional",
            KoRule::SituationalSuperko => "situational",
        }
        .into(),
        match r.suicide {
            SuicideRule::Forbidden => "forbidden",
            SuicideRule::MultiStoneAllowed => "multi-stone",
            SuicideRule::Allowed => "allowed",
        }
        .into(),
        crate::rules::outcome::format_points(r.komi),
        match r.handicap_compensation {
            HandicapCompensation::None => "none",
            HandicapCompensation::N => "N",
            HandicapCompensation::NMinusOne => "N-1",
        }
        .into(),
        if r.remove_dead_stones { "removed" } else { "counted" }.into(),
        if r.pass_stones { "yes" } else { "no" }.into(),
        match r.tie {
            TieBreak::Draw => "draw",
            TieBreak::BlackWins => "black",
            TieBreak::WhiteWins => "white",
        }
        .into(),
        match r.cycle {
            CycleEnd::NoResult => "void",
            CycleEnd::Draw => "draw",
        }
        .into(),
        match r.opening {
            Opening::Empty => "empty",
            Opening::CornerStones => "corner-stones",
        }
        .into(),
    ]
}

fn row(p: &Preset) -> Vec<String> {
    let mut cells = vec![p.name.to_owned()];
    cells.extend(parameter_cells(&p.ruleset));
    cells
}

/// Prints the table to `out`.
pub fn run(args: &Args, out: &mut impl Write) -> io::Result<()> {
    if args.csv {
        let mut w = csv::Writer::from_writer(out);
        let mut header: Vec<&str> = HEADER.to_vec();
        header.extend(["aliases", "summary"]);
        w.write_record(&header).map_err(crate::report::table::into_io)?;
        for p in PRESETS {
            let mut cells = row(p);
            cells.push(p.aliases.join(";"));
            cells.push(p.summary.to_owned());
            w.write_record(&cells).map_err(crate::report::table::into_io)?;
        }
        return w.flush();
    }
    let rows: Vec<Vec<String>> = PRESETS.iter().map(row).collect();
    let widths: Vec<usize> = (0..HEADER.len())
        .map(|i| {
            rows.iter().map(|r| r[i].chars().count()).chain([HEADER[i].len()]).max().unwrap_or(0)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let padded: Vec<String> =
            cells.zip(&widths).map(|(c, w)| format!("{c:<w$}", w = *w)).collect();
        padded.join("  ").trim_end().to_owned()
    };
    writeln!(out, "{}", line(&mut HEADER.iter().copied()))?;
    for r in &rows {
        writeln!(out, "{}", line(&mut r.iter().map(String::as_str)))?;
    }
    writeln!(out)?;
    for p in PRESETS {
        writeln!(out, "{}: {}", p.name, p.summary)?;
        writeln!(out, "  also: {}", p.aliases.join(", "))?;
        if !p.komi_history.is_empty() {
            let eras: Vec<String> = p
                .komi_history
                .iter()
                .map(|e| match e.no_komi_games_too {
                    // The record's result tells which: see `Preset::komi_in_game`.
                    true => format!(
                        "{} from {} (none if RE is a draw or a whole-point win)",
                        e.komi, e.from_year
                    ),
                    false => format!("{} from {}", e.komi, e.from_year),
                })
                .collect();
            writeln!(
                out,
                "  komi by year, for a dated 19x19 record without KM: none before {}, {}",
                p.komi_history[0].from_year,
                eras.join(", ")
            )?;
        }
        if p.handicap_komi != 0.0 {
            writeln!(out, "  komi of a handicap game without KM: {}", p.handicap_komi)?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "komi: used when a record gives none (an even 19x19 record dated by DT: the komi of its \
         year; a\nhandicap game: none, unless listed above). handicap: points White receives \
         for N stones under\narea counting. dead_stones: counted = the board is scored as it \
         stands (Tromp-Taylor). cycle: how\na whole-board repetition ends where no superko \
         forbids it. `--rules` also accepts `recorded`: the\nrules named by the record's RU."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_a_row_per_preset_with_its_parameters() {
        let mut out = Vec::new();
        run(&Args { csv: false }, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert!(lines.next().unwrap().starts_with("preset "));
        let japanese = text.lines().find(|l| l.starts_with("japanese ")).unwrap();
        let cells: Vec<&str> = japanese.split_whitespace().collect();
        assert_eq!(cells[..6], ["japanese", "territory", "simple", "forbidden", "6.5", "none"]);
        let tt = text.lines().find(|l| l.starts_with("tromp-taylor ")).unwrap();
        assert!(tt.contains(" counted "), "{tt}");
    }

    #[test]
    fn the_csv_table_reads_back_with_every_preset() {
        let mut out = Vec::new();
        run(&Args { csv: true }, &mut out).unwrap();
        let mut r = csv::Reader::from_reader(out.as_slice());
        let names: Vec<String> = r.records().map(|rec| rec.unwrap()[0].to_owned()).collect();
        let want: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        assert_eq!(names, want);
        assert_eq!(r.headers().unwrap().len(), HEADER.len() + 2);
    }
}
