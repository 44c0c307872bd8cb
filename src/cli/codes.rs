//! `kifu codes`: every finding code with its severity and meaning, from
//! [`crate::finding::Code::ALL`]. The README's table is this command's `--markdown` output.

use std::io::{self, Write};

use clap::Args as ClapArgs;

use crate::finding::Code;

/// Options of `kifu codes`.
#[derive(ClapArgs, Clone, Debug)]
pub struct Args {
    /// Write a Markdown table (as in the README).
    #[arg(long)]
    pub markdown: bool,
}

/// Prints the codes to `out`.
pub fn run(args: &Args, out: &mut impl Write) -> io::Result<()> {
    if args.markdown {
        writeln!(out, "| code | default severity | meaning |")?;
        writeln!(out, "|---|---|---|")?;
        for &code in Code::ALL {
            let meaning = code.description().replace('|', "\\|");
            writeln!(out, "| `{}` | {} | {} |", code.as_str(), code.default_severity(), meaning)?;
        }
        return Ok(());
    }
    let width = Code::ALL.iter().map(|c| c.as_str().len()).max().unwrap_or(0);
    for &code in Code::ALL {
        writeln!(
            out,
            "{:<width$}  {:<7}  {}",
            code.as_str(),
            code.default_severity().as_str(),
            code.description()
        )?;
    }
    Ok(())
}
