//! kifu audits Go (weiqi, baduk) game records in SGF at corpus scale.
//!
//! # Layers
//!
//! The layers point one way; each knows only those to its left:
//!
//! `rules` (board, ruleset, game, scoring; std only) ← `record` (SGF bytes to game records; the
//! only module that imports `sgf_parse`) ← `analysis` (replay, dead stones, scores,
//! disagreements) ← `pipeline` and `report` (parallel batches, CSV) ← `cli`.
//!
//! [`finding`] is shared by all of them: every problem is a [`finding::Finding`] with a stable
//! code, a severity and a location.

#![deny(missing_docs)]

pub mod analysis;
pub mod cli;
pub mod finding;
pub mod pipeline;
pub mod record;
pub mod report;
pub mod rules;
