//! The canonical key of a game's moves: the same for every copy of a game however it is turned,
//! and for a truncated copy, a prefix of the full game's key.
//!
//! A game is read as a sequence of tokens: its board size, its setup (the stones placed before
//! the first move, handicap stones included, as a set), then its moves in order (colour and
//! point, passes included), with any setup met later in the main line at its place. Final
//! passes are left out, so a record that ends `B[];W[]` and one that stops before the passes are
//! the same game. Under each symmetry of the board ([`Symmetry::of`]) the sequence is
//! transformed (a setup re-sorted as a set); the **key** is the lexicographically smallest of
//! the transformed sequences, as Kombilo keeps the smallest of its eight Dyer signatures, but
//! over the whole game.
//!
//! Why the smallest whole sequence: it is the same for all eight orientations of a game, and it
//! is *prefix-stable*. If a record `P` is the first `n` moves of a game `G` (same board and
//! setup), then under every symmetry `P`'s sequence is the first part of `G`'s; the smallest of
//! `G`'s sequences starts with the smallest of `P`'s; so `key(P)` is a prefix of `key(G)`. A
//! sorted list of keys therefore puts every truncated copy just before the games that continue
//! it ([`super::group`]).
//!
//! Tokens are `u16`: two bits of kind (board, setup, move), two of stone (black, white, empty
//! for AE) and twelve of point (`y * 52 + x`, 4095 for a pass). A game costs two bytes per move.

use super::symmetry::{Symmetry, SymmetrySet};
use crate::record::{GameRecord, Placement, RecordedMove};
use crate::rules::{BoardSize, Color, Move, Point};

const KIND_BOARD: u16 = 0;
const KIND_SETUP: u16 = 1 << 14;
const KIND_MOVE: u16 = 2 << 14;
const PASS: u16 = 4095;
/// A point beyond `zZ`; the record layer never makes one, but a key must not overflow.
const FAR: u16 = 4094;

/// The canonical key of one game's moves (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveKey {
    tokens: Box<[u16]>,
    symmetries: SymmetrySet,
    weight: u32,
    moves: u32,
}

/// One step of the sequence before it is turned: a set of placements, or a move.
enum Step<'r> {
    Setup(&'r [Placement]),
    Play(&'r RecordedMove),
}

impl MoveKey {
    /// The key of a record's main line.
    pub fn of(record: &GameRecord) -> MoveKey {
        let size = record.size;
        let played = record.moves.iter().rposition(|m| m.mv != Move::Pass).map_or(0, |i| i + 1);
        let mut steps: Vec<Step<'_>> = Vec::with_capacity(played + 2);
        if !record.setup.is_empty() {
            steps.push(Step::Setup(&record.setup));
        }
        let mut later = record.later_setup.iter().peekable();
        for i in 0..=played {
            while let Some(s) = later.next_if(|s| s.after_moves as usize <= i) {
                steps.push(Step::Setup(&s.placements));
            }
            if let Some(m) = record.moves[..played].get(i) {
                steps.push(Step::Play(m));
            }
        }
        let mut alive: Vec<Symmetry> = Symmetry::of(size).iter().collect();
        let mut tokens: Vec<u16> = Vec::with_capacity(played + record.setup.len() + 1);
        tokens.push(KIND_BOARD | (u16::from(size.width) * 53 + u16::from(size.height)));
        let mut placements = 0u32;
        let mut block: Vec<u16> = Vec::new();
        let mut best: Vec<u16> = Vec::new();
        for step in &steps {
            match step {
                Step::Play(m) => {
                    let token = |s: Symmetry| move_token(s, m, size);
                    if alive.len() > 1 {
                        let smallest = alive.iter().map(|&s| token(s)).min().unwrap_or(0);
                        alive.retain(|&s| token(s) == smallest);
                    }
                    tokens.push(token(alive[0]));
                }
                Step::Setup(set) => {
                    placements += set.len() as u32;
                    best.clear();
                    let mut keep: Vec<Symmetry> = Vec::with_capacity(alive.len());
                    for &s in &alive {
                        block.clear();
                        block.extend(set.iter().map(|p| setup_token(s, p, size)));
                        block.sort_unstable();
                        if keep.is_empty() || block < best {
                            keep.clear();
                            std::mem::swap(&mut best, &mut block);
                            keep.push(s);
                        } else if block == best {
                            keep.push(s);
                        }
                    }
                    alive = keep;
                    tokens.extend_from_slice(&best);
                }
            }
        }
        let mut symmetries = SymmetrySet::EMPTY;
        for s in alive {
            symmetries.insert(s);
        }
        let moves = played as u32;
        MoveKey {
            tokens: tokens.into_boxed_slice(),
            symmetries,
            weight: (moves + placements).saturating_sub(handicap_stones(record)),
            moves,
        }
    }

    /// The tokens, board first.
    pub fn tokens(&self) -> &[u16] {
        &self.tokens
    }

    /// The symmetries that turn the record into its key (more than one only when the game is
    /// itself symmetric so far, as a short game can be).
    pub fn symmetries(&self) -> SymmetrySet {
        self.symmetries
    }

    /// How much the key says about the game: main-line moves (final passes left out) plus setup
    /// stones, not counting handicap stones on their usual points, which every handicap game of
    /// that size shares. Thresholds on what counts as a duplicate are in this unit.
    pub fn weight(&self) -> u32 {
        self.weight
    }

    /// Main-line moves, final passes left out.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Whether this key is a proper prefix of `other`'s.
    pub fn is_proper_prefix_of(&self, other: &MoveKey) -> bool {
        self.tokens.len() < other.tokens.len() && other.tokens.starts_with(&self.tokens)
    }

    /// The symmetry that turns this record onto `other` where their keys agree: the identity
    /// when one symmetry gives both their keys, else the one through the canonical form.
    pub fn symmetry_onto(&self, other: &MoveKey) -> Symmetry {
        if !self.symmetries.intersection(other.symmetries).is_empty() {
            return Symmetry::Identity;
        }
        let mine = self.symmetries.first().unwrap_or(Symmetry::Identity);
        let theirs = other.symmetries.first().unwrap_or(Symmetry::Identity);
        mine.then(theirs.inverse())
    }
}

/// Black stones set up before the first move (in the root or a later node) when they are all
/// the setup and as many as the handicap: they say nothing about which game this is.
fn handicap_stones(record: &GameRecord) -> u32 {
    let before_first_move = record.later_setup.iter().filter(|s| s.after_moves == 0);
    let placements = record.setup.iter().chain(before_first_move.flat_map(|s| &s.placements));
    let (mut black, mut other) = (0u32, 0u32);
    for p in placements {
        if p.stone == Some(Color::Black) {
            black += 1;
        } else {
            other += 1;
        }
    }
    if record.handicap >= 2 && other == 0 && black == record.handicap { black } else { 0 }
}

fn point_bits(p: Point) -> u16 {
    if p.x < 52 && p.y < 52 { u16::from(p.y) * 52 + u16::from(p.x) } else { FAR }
}

fn stone_bits(stone: Option<Color>) -> u16 {
    match stone {
        Some(Color::Black) => 0,
        Some(Color::White) => 1 << 12,
        None => 2 << 12,
    }
}

fn move_token(s: Symmetry, m: &RecordedMove, size: BoardSize) -> u16 {
    let point = match m.mv {
        Move::Pass => PASS,
        Move::Play(p) => point_bits(s.apply(p, size)),
    };
    KIND_MOVE | stone_bits(Some(m.color)) | point
}

fn setup_token(s: Symmetry, p: &Placement, size: BoardSize) -> u16 {
    KIND_SETUP | stone_bits(p.stone) | point_bits(s.apply(p.point, size))
}
