//! The final status of every stone: alive, dead or in seki, decided three ways.
//!
//! - [`as_is`]: every stone alive, the board as it stands (Tromp-Taylor).
//! - [`from_markup`]: the record's TB/TW territory marks in the last node; a stone under the
//!   opponent's mark is dead (KGS/CGoban's convention). A mark on a stone of the marking colour
//!   contradicts the position and yields a `markup-inconsistent` finding.
//! - [`estimate`]: kifu's own estimator (see [`estimate`]'s module): Benson proofs, region and
//!   eye analysis, seki detection, and deterministic playouts only for what stays unclear.
//!
//! Each returns [`Statuses`]: a dead flag per point, a status per chain with the reason it was
//! decided, where the statuses came from and how far they can be trusted.

mod benson;
mod estimator;
mod eyes;
mod layout;
mod life;
mod markup;
mod playout;
mod regions;

pub use estimator::{EstimateOptions, estimate, estimate_with};
pub use markup::from_markup;

use super::{Confidence, DeadStoneSource};
use crate::rules::{Board, BoardSize, Color, Point};

/// The final status of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Stays on the board and counts.
    Alive,
    /// Will be captured: removed before counting (a prisoner under territory rules).
    Dead,
    /// Alive without two eyes, sharing liberties with an opponent group that is alive the same
    /// way: stays on the board, and its eyes are no territory under territory rules.
    Seki,
}

impl Status {
    /// `alive`, `dead` or `seki`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Dead => "dead",
            Status::Seki => "seki",
        }
    }
}

/// Why a chain got its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Basis {
    /// Nothing was decided: the board is counted as it stands.
    AsIs,
    /// The record's territory markup.
    Markup,
    /// A proof: Benson's unconditional life, or death inside a pass-alive region too small for
    /// two eyes.
    Proof,
    /// Static analysis of eyes and enclosing regions with a clear answer.
    Static,
    /// Playouts with a clear majority.
    Playout,
    /// Playouts without a clear majority: the status is a guess.
    Unclear,
}

impl Basis {
    /// `as-is`, `markup`, `proof`, `static`, `playout` or `unclear`.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::AsIs => "as-is",
            Basis::Markup => "markup",
            Basis::Proof => "proof",
            Basis::Static => "static",
            Basis::Playout => "playout",
            Basis::Unclear => "unclear",
        }
    }
}

/// One chain and its status.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainStatus {
    /// Its colour.
    pub color: Color,
    /// Its stones.
    pub stones: Vec<Point>,
    /// Its status.
    pub status: Status,
    /// Why.
    pub basis: Basis,
    /// How clear the status is, from 0 (a coin toss) to 1 (certain): the playouts' majority for
    /// playout decisions (|mean ownership| from the chain's side), 1 for proofs, markup and
    /// the region checks.
    pub certainty: f32,
}

/// The final status of every stone of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Statuses {
    /// The board's size.
    pub size: BoardSize,
    /// For every point, row by row from the top left: whether a dead stone lies there.
    pub dead: Vec<bool>,
    /// Every chain with its status.
    pub chains: Vec<ChainStatus>,
    /// Where the statuses came from.
    pub source: DeadStoneSource,
    /// How far they can be trusted.
    pub confidence: Confidence,
    /// Why the confidence is not high, in words, when it is not (empty otherwise).
    pub doubts: Vec<String>,
}

impl Statuses {
    /// Number of dead stones of `color`.
    pub fn dead_count(&self, color: Color) -> u32 {
        self.chains
            .iter()
            .filter(|c| c.color == color && c.status == Status::Dead)
            .map(|c| c.stones.len() as u32)
            .sum()
    }

    /// Whether any chain is in seki.
    pub fn has_seki(&self) -> bool {
        self.chains.iter().any(|c| c.status == Status::Seki)
    }

    /// Builds statuses from a dead flag per point: each chain takes the flag of its stones.
    fn from_dead(
        board: &Board,
        dead: Vec<bool>,
        basis: Basis,
        source: DeadStoneSource,
        confidence: Confidence,
    ) -> Statuses {
        let layout = layout::Layout::of_board(board);
        let chains = layout
            .chains
            .iter()
            .map(|c| ChainStatus {
                color: c.color,
                stones: c.stones.iter().map(|&i| layout.point(i)).collect(),
                status: if dead[c.stones[0]] { Status::Dead } else { Status::Alive },
                basis,
                certainty: 1.0,
            })
            .collect();
        Statuses { size: board.size(), dead, chains, source, confidence, doubts: Vec::new() }
    }
}

/// Every stone alive: the board counted as it stands.
pub fn as_is(board: &Board) -> Statuses {
    let dead = vec![false; board.size().area()];
    Statuses::from_dead(board, dead, Basis::AsIs, DeadStoneSource::AsIs, Confidence::High)
}
