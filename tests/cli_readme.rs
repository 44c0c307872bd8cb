//! The README's reference tables are the program's own: every CSV column with its meaning, every
//! finding code with its severity and meaning, and every `--limit` with its default, between `<!-- BEGIN generated: NAME -->`
//! and `<!-- END generated: NAME -->` markers. When a column or a code changes, this test fails;
//! `KIFU_BLESS=1 cargo test --test cli_readme` rewrites the blocks (review the diff).

use kifu::finding::Code;
use kifu::report::{
    Column, DisagreementRow, DuplicateRow, FindingRow, GameRow, ManifestRow, ScoreRow,
};

const README: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");

fn columns_table(columns: &[Column]) -> String {
    let mut table = String::from("| column | meaning |\n|---|---|\n");
    for c in columns {
        table.push_str(&format!("| `{}` | {} |\n", c.name, c.meaning.replace('|', "\\|")));
    }
    table
}

/// The table `kifu codes --markdown` prints.
fn codes_table() -> String {
    let mut out = Vec::new();
    kifu::cli::codes::run(&kifu::cli::codes::Args { markdown: true }, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn generated_blocks() -> Vec<(&'static str, String)> {
    vec![
        ("games.csv", columns_table(GameRow::COLUMNS)),
        ("findings.csv", columns_table(FindingRow::COLUMNS)),
        ("scores.csv", columns_table(ScoreRow::COLUMNS)),
        ("disagreements.csv", columns_table(DisagreementRow::COLUMNS)),
        ("duplicates.csv", columns_table(DuplicateRow::COLUMNS)),
        ("manifest.csv", columns_table(ManifestRow::COLUMNS)),
        ("codes", codes_table()),
        ("limits", limits_table()),
    ]
}

/// `--limit` names, defaults and meanings, as the record layer describes them.
fn limits_table() -> String {
    kifu::record::limits::markdown_table()
}

/// The byte range of a block's content in the README.
fn block_range(readme: &str, name: &str) -> std::ops::Range<usize> {
    let begin = format!("<!-- BEGIN generated: {name} -->\n");
    let end = format!("<!-- END generated: {name} -->");
    let start =
        readme.find(&begin).unwrap_or_else(|| panic!("README lacks `{begin}`")) + begin.len();
    let stop = start + readme[start..].find(&end).unwrap_or_else(|| panic!("README lacks `{end}`"));
    start..stop
}

#[test]
fn readme_tables_are_the_programs_own() {
    let mut readme = std::fs::read_to_string(README).unwrap();
    let bless = std::env::var_os("KIFU_BLESS").is_some();
    let mut stale = Vec::new();
    for (name, expected) in generated_blocks() {
        let range = block_range(&readme, name);
        if readme[range.clone()] != expected {
            stale.push(name);
            readme.replace_range(range, &expected);
        }
    }
    if bless {
        // Through a temporary file: the other tests read the README meanwhile.
        let temporary = format!("{README}.bless.tmp");
        std::fs::write(&temporary, &readme).unwrap();
        std::fs::rename(&temporary, README).unwrap();
    } else {
        assert!(
            stale.is_empty(),
            "README.md tables out of date: {stale:?}; run `KIFU_BLESS=1 cargo test --test \
             cli_readme` and review the diff"
        );
    }
}

#[test]
fn readme_documents_every_code_and_column_once() {
    let readme = std::fs::read_to_string(README).unwrap();
    let codes = &readme[block_range(&readme, "codes")];
    for code in Code::ALL {
        let cell = format!("| `{}` |", code.as_str());
        assert_eq!(codes.matches(&cell).count(), 1, "{cell}");
    }
}

#[test]
fn readme_gives_the_exit_statuses_and_the_first_command() {
    let readme = std::fs::read_to_string(README).unwrap();
    for status in ["| 0 |", "| 2 |", "| 130 |"] {
        assert!(readme.contains(status), "exit status {status} missing");
    }
    assert!(readme.contains("cargo run --release -- audit corpus"));
}
