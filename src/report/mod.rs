//! The reports: CSV rows for games, findings, scores and disagreements, the summary, and the
//! files they are written to.
//!
//! This module turns analysed games into rows and rows into files; it decides nothing about Go.
//! - [`rows`]: one flat struct per CSV file, with its column table, and
//!   [`rows::GameReport::new`], which builds a game's rows from its record and analysis;
//! - [`cell`]: the guard that keeps spreadsheets from running text cells as formulas;
//! - [`table`]: a CSV writer whose header is written even when no row follows, and
//!   [`csv_line`], which writes its rows;
//! - [`atomic`] and [`folder`]: report files written under temporary names and renamed into place
//!   together, so an interrupted run never leaves half a report;
//! - [`summary`]: the totals printed at the end and written to `summary.txt`;
//! - [`duplicates`]: the rows of `duplicates.csv` (`kifu dedupe`, `kifu clean`);
//! - [`output_paths`]: safe, unique paths for the games `kifu clean` writes;
//! - [`clean_folder`]: `kifu clean`'s output folder and `manifest.csv`, whole or not at all.

pub mod atomic;
pub mod cell;
pub mod clean_folder;
pub mod csv_line;
pub mod duplicates;
pub mod folder;
pub mod output_paths;
pub mod rows;
pub mod summary;
pub mod table;

pub use cell::CellGuard;
pub use clean_folder::{CleanFolder, ManifestRow};
pub use duplicates::DuplicateRow;
pub use folder::{REPORT_FILES, ReportFolder};
pub use rows::{Column, DisagreementRow, FindingRow, GameReport, GameRow, ScoreRow, SourceCell};
pub use summary::Summary;
pub use table::CsvTable;
