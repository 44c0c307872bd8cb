//! The rules of Go, apart from any file format: points and moves, rulesets as values, the
//! board, the replay of a game under a ruleset, and counting.
//!
//! This module uses only `std`. It knows nothing of SGF, files or CSV, so that it can become a
//! crate of its own and so that every rule can be tested on ASCII diagrams.

pub mod board;
pub mod game;
mod history;
pub mod outcome;
pub mod point;
pub mod ruleset;
pub mod score;
pub mod zobrist;

pub use board::{Board, ChainId, DiagramError, Illegal, MoveEffect, write_diagram};
pub use game::{Cycle, Game, GameEnd, Played, SetupProblem};
pub use outcome::{Outcome, WinBy};
pub use point::{BoardSize, Color, Move, Point};
pub use ruleset::{
    CycleEnd, HandicapCompensation, KoRule, KomiEra, Opening, PRESETS, Preset, Ruleset, Scoring,
    SuicideRule, TieBreak, preset,
};
