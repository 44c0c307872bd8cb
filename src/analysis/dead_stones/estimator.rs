//! kifu's dead-stone estimator for a final position.
//!
//! Layers, from proof to guess (`shared/notes/dead-stones.md` §5):
//! 1. Benson's algorithm for both players: pass-alive chains are alive, opponent stones in
//!    small regions they enclose are dead. Both are proofs.
//! 2. Playouts (deterministic, seeded from the position) over the points proofs leave open:
//!    a chain whose stones end up the opponent's in most playouts is dead.
//!    A big chain near even after them gets more, to settle the sign of its coin toss.
//!    Chains the playouts leave a coin toss take the status of their group (chains sharing
//!    an eye space or two liberties), by the stone-weighted mean support of its chains.
//! 3. Seki: chains the playouts leave alive but whose region has at most one eye, next to an
//!    opponent chain in the same state, are in seki. The label is for people (`kifu show`):
//!    a chain in seki is alive like any other, and the count finds seki's shared points and
//!    eyes itself from the dead flags (`rules::score`), so no margin depends on this step
//!    (switching it off leaves every accuracy figure as it is).
//!
//! The confidence is high when every status is proven or clear, medium when some rest on a
//! clear playout majority, low when a chain stays unclear.

use super::benson::pass_alive;
use super::layout::Layout;
use super::playout::{Ownership, Sampler};
use super::regions;
use super::{Basis, ChainStatus, Status, Statuses};
use crate::analysis::{Confidence, DeadStoneSource};
use crate::rules::{Board, Color};

/// Settings of the estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateOptions {
    /// Most playouts on boards of more than 100 points (twice as many on smaller boards); fewer
    /// run when every undecided chain is already clearly alive or dead, up to twice as many
    /// while a big chain stays near even (see `BIG_COIN_TOSS_STONES`). More buys little
    /// (aeb-pro Japanese exact / within 2 / same winner 11,103 / 14,321 / 14,471 at 64):
    /// 96 gives 11,109 / 14,333 / 14,475 for +16.1% instructions (`kifu audit -j1` on the
    /// first 600 professional games, 1,997.5M -> 2,318.1M), 128 gives 11,117 / 14,343 /
    /// 14,477 for +27.8%.
    pub playouts: u32,
    /// Whether the position is where the game ended by two passes (the players agreed it was
    /// over) rather than where the record stops before the end. In a record that stops early,
    /// a fight the owner of some stones wins by moving first is one the owner would have settled
    /// their way (see `regions::read_dead_sides_of_seki`).
    pub ended_by_passes: bool,
}

impl Default for EstimateOptions {
    fn default() -> EstimateOptions {
        EstimateOptions { playouts: 64, ended_by_passes: true }
    }
}

/// Playout majority (mean ownership from a chain's side) from which a status counts as
/// decided with high confidence.
const DECISIVE: f32 = 0.8;

/// Support (mean ownership from a chain's side) from which a chain's status is decided by the
/// playouts: alive at +0.3 or more, dead at -0.3 or less, unclear between.
const DECIDED: f32 = 0.3;

/// How far beyond [`DECIDED`] an undecided chain must be for the estimator to stop adding
/// playouts, as a multiple of `sqrt(1/n - 1/m)` after `n` of at most `m` playouts: the margin
/// shrinks like the standard error that separates the mean of `n` playouts from the mean of all
/// `m`, so it is wide after the first batch (0.343 after 16 of 64) and nothing at the maximum
/// (0.325 after 32, 0.314 after 48). A chain beyond [`DECIDED`] on the decided side after the
/// first batch almost never comes back; if it falls into the unclear band, its group's vote
/// (see [`vote_unclear_groups`]) usually gives it the same status, so the margin costs little.
///
/// History, measured with `scripts/accuracy`: a fixed 0.9 from even, then 0.5 (no finished
/// game, removal map or markup game changed, one professional game of 2,269 did, median time
/// 6.6 -> 3.8 ms on 19x19 professional games), then 0.35 (100 counted Honinbo games ran 3,696
/// playouts instead of 4,896; GNU Go's score tests 77.6% -> 79.3%), all with the batches
/// doubling (16, 32, 64). This margin with a look every 8 playouts after the first 16: every
/// figure of every set the same (the held-out sets included) but one game of aeb-pro's other
/// counted games off by more than 2 (917 -> 918), and `kifu audit -j1` on the first 600
/// Honinbo games runs 8,200 playouts instead of 9,200 (2,386.3M -> 2,257.4M instructions).
///
/// Tried and dropped (the same command and sets): stopping as soon as every undecided chain is
/// beyond 0.3, looking every 4 playouts (-8.0% instructions; aeb-pro Japanese within 2 94.4 ->
/// 94.3%, a held-out autoscore position lost); the same from a first batch of 8 (-17.5%;
/// Japanese 72.4 / 94.4 / 95.7% -> 72.1 / 94.1 / 95.5%, GNU Go 81.0 -> 79.3%), or with this
/// margin from 8 (72.2 / 94.3 / 95.6%). Not waiting on the chains of the unclear band either
/// loses more: on a chain within `0.3 - sqrt(1/n - 1/m)` of even (-24% playouts; Japanese
/// 72.0 / 93.7 / 95.5%, GNU Go 79.3%, two removal maps and two autoscore positions lost), or on
/// a chain whose group's vote already gives it the status it leans to (-52% playouts; 71.3 /
/// 92.8 / 94.9%): the support of a coin-toss chain weighs in its group's vote and in the
/// region checks' races, and needs every playout.
const SETTLED_MARGIN: f32 = 0.2;

/// Stones from which an undecided chain near even keeps the playouts going past the maximum.
/// The sign of a coin toss decides its group's vote (see [`vote_unclear_groups`]), and after 64
/// playouts the sign of a mean near even is noise (its standard error is about 0.12): a big
/// group taken off or left on that noise moves the count by twice its size and more. Such a
/// chain gets up to [`BIG_COIN_TOSS_PLAYOUTS`] times the maximum, 8 more at a time, while its
/// support stays within [`BIG_COIN_TOSS_BAND`] of even (the band narrowing like the standard
/// error as the playouts add up), so that the vote follows the playouts' own verdict rather
/// than the draw: among the big coin tosses of professional records the extra playouts mostly
/// keep alive groups GNU Go and the record keep alive (Judan/19/L03, 29 White stones at -0.01
/// after 64; KK1st/68/19, 22 stones at -0.04). Big chains only, because the cost is playouts
/// of the whole board and a small chain's draw moves few points.
///
/// On the 15,079 counted Japanese-rules records of aeb-pro: 8 more margins exact, 17 more
/// within 2 points, 9 more winners right (40 margins closer, 16 further); an autoscore
/// position already missed (held out) has 20 stones wrong instead of 9; `kifu audit` +1.6%
/// instructions (BENCHMARKS.md, ninth session).
///
/// From 8 or 12 stones, from 5, without the narrowing band (up to two, four or eight times
/// the maximum for every big chain in the unclear band), with a fixed band of 0.1 or 0.15, and
/// with the band starting at 0.2: each measured and dropped, for fewer winners, a GNU Go score
/// test lost, or several times the cost (BENCHMARKS.md, ninth session). The draw moves margins
/// both ways (about one further for every two or three closer), so small differences between
/// these are noise.
const BIG_COIN_TOSS_STONES: usize = 6;

/// How far from even (mean support, at the maximum of playouts) a big chain keeps the playouts
/// going, narrowing with the square root of the playouts run (0.106 after twice the maximum).
const BIG_COIN_TOSS_BAND: f32 = 0.15;

/// Up to how many times the maximum of playouts a big coin toss gets.
const BIG_COIN_TOSS_PLAYOUTS: u32 = 2;

/// Whether some undecided chain (no proof in `basis`) of [`BIG_COIN_TOSS_STONES`] or more is
/// still within the [`BIG_COIN_TOSS_BAND`] of even after `count` playouts of a normal `maximum`.
fn big_coin_toss(
    layout: &Layout,
    basis: &[Option<(Status, Basis)>],
    support: impl Fn(usize) -> f32,
    count: u32,
    maximum: u32,
) -> bool {
    let band = BIG_COIN_TOSS_BAND * (maximum as f32 / count.max(1) as f32).sqrt();
    (0..layout.chains.len()).any(|c| {
        basis[c].is_none()
            && layout.chains[c].stones.len() >= BIG_COIN_TOSS_STONES
            && support(c).abs() < band
    })
}

/// The estimated final status of every stone on `board`, with the default options.
pub fn estimate(board: &Board) -> Statuses {
    estimate_with(board, &EstimateOptions::default())
}

/// The estimated final status of every stone on `board`.
pub fn estimate_with(board: &Board, options: &EstimateOptions) -> Statuses {
    let layout = Layout::of_board(board);
    let n = layout.grid.len();
    let proofs = [pass_alive(&layout, Color::Black), pass_alive(&layout, Color::White)];
    let mut basis: Vec<Option<(Status, Basis)>> = vec![None; layout.chains.len()];
    for (c, chain) in layout.chains.iter().enumerate() {
        let own = &proofs[chain.color.index()];
        let other = &proofs[chain.color.opponent().index()];
        if own.chain_alive[c] {
            basis[c] = Some((Status::Alive, Basis::Proof));
        } else if other.proven_dead[chain.stones[0]] {
            basis[c] = Some((Status::Dead, Basis::Proof));
        }
    }
    let undecided = basis.iter().any(Option::is_none);
    let mut statuses = vec![Status::Alive; layout.chains.len()];
    // Each chain's mean ownership from its own side (+1: always its owner's); 1 for proofs.
    let mut support = vec![1.0f32; layout.chains.len()];
    let mut bases = vec![Basis::Proof; layout.chains.len()];
    if undecided {
        // Empty regions bordered only by pass-alive chains are settled territory: filling or
        // invading them changes no status, so playouts leave them alone.
        let frozen: Vec<bool> =
            (0..n).map(|i| proofs[0].enclosed[i] || proofs[1].enclosed[i]).collect();
        let seed = board.hash() ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // Adaptive: a first batch of 16, then 8 more at a time while some undecided chain is
        // not yet clearly alive or dead (see [`SETTLED_MARGIN`]), up to the maximum. Small
        // boards get twice as many playouts (they are cheaper, and every point weighs more).
        let scale = if n <= 100 { 2 } else { 1 };
        let maximum = options.playouts.max(1) * scale;
        // Only the undecided chains' stones are read from the playouts.
        let watched: Vec<usize> = layout
            .chains
            .iter()
            .zip(&basis)
            .filter(|(_, b)| b.is_none())
            .flat_map(|(chain, _)| chain.stones.iter().copied())
            .collect();
        let mut sampler =
            Sampler::new(&layout, board, &frozen, watched, seed, options.ended_by_passes);
        sampler.run((16 * scale).min(maximum));
        let support_of = |own: &Ownership, c: usize| {
            let chain = &layout.chains[c];
            chain.stones.iter().map(|&i| own.support(i, chain.color)).sum::<f32>()
                / chain.stones.len() as f32
        };
        let own = loop {
            let own = sampler.ownership();
            // The support a chain must reach after this many playouts (counted per `scale`).
            let playouts = (sampler.count() / scale) as f32;
            let spread = (1.0 / playouts - 1.0 / options.playouts.max(1) as f32).max(0.0).sqrt();
            let settled_at = DECIDED + SETTLED_MARGIN * spread;
            let settled = (0..layout.chains.len())
                .all(|c| basis[c].is_some() || support_of(&own, c).abs() >= settled_at);
            if settled && sampler.count() < maximum {
                break own;
            }
            // Past the maximum, only while a big chain stays near even (see
            // [`BIG_COIN_TOSS_STONES`]), up to twice as many.
            let limit = if sampler.count() >= maximum
                && big_coin_toss(&layout, &basis, |c| support_of(&own, c), sampler.count(), maximum)
            {
                maximum * BIG_COIN_TOSS_PLAYOUTS
            } else {
                maximum
            };
            if settled || sampler.count() >= limit {
                break own;
            }
            sampler.run((8 * scale).min(limit - sampler.count()));
        };
        for c in 0..layout.chains.len() {
            if let Some((s, b)) = basis[c] {
                statuses[c] = s;
                bases[c] = b;
                continue;
            }
            let mean = support_of(&own, c);
            support[c] = mean;
            if mean >= DECIDED {
                statuses[c] = Status::Alive;
                bases[c] = Basis::Playout;
            } else if mean <= -DECIDED {
                statuses[c] = Status::Dead;
                bases[c] = Basis::Playout;
            } else {
                statuses[c] = if mean >= 0.0 { Status::Alive } else { Status::Dead };
                bases[c] = Basis::Unclear;
            }
        }
        sampler.recycle();
    } else {
        for (c, b) in basis.iter().enumerate() {
            if let Some((s, bb)) = b {
                statuses[c] = *s;
                bases[c] = *bb;
            }
        }
    }
    vote_unclear_groups(&layout, &bases, &support, &mut statuses);
    let mut dead = vec![false; n];
    for (c, chain) in layout.chains.iter().enumerate() {
        if statuses[c] == Status::Dead {
            for &i in &chain.stones {
                dead[i] = true;
            }
        }
    }
    // Region checks: enclosed one-eyed groups the playouts let live, and seki.
    let pass_alive: Vec<bool> = layout
        .chains
        .iter()
        .enumerate()
        .map(|(c, chain)| proofs[chain.color.index()].chain_alive[c])
        .collect();
    let checks =
        regions::check(board, &layout, &mut dead, &pass_alive, &support, options.ended_by_passes);
    for &(c, lives) in &checks.read {
        statuses[c as usize] = if lives { Status::Alive } else { Status::Dead };
        bases[c as usize] = Basis::Static;
    }
    for &c in &checks.killed {
        statuses[c as usize] = Status::Dead;
        bases[c as usize] = Basis::Static;
    }
    for &c in &checks.seki {
        statuses[c as usize] = Status::Seki;
    }
    // The chains still unclear, now that the region checks have settled those they read.
    let doubts: Vec<String> = (0..layout.chains.len())
        .filter(|&c| bases[c] == Basis::Unclear)
        .map(|c| {
            let chain = &layout.chains[c];
            format!(
                "unclear {} chain at {}",
                chain.color,
                layout.point(chain.stones[0]).display(layout.size.height)
            )
        })
        .collect();
    // High when every status is proven, settled by the region checks, or carried by a large
    // playout majority; low when some chain stayed unclear.
    let decisive = (0..layout.chains.len())
        .all(|c| bases[c] != Basis::Playout || support[c].abs() >= DECISIVE);
    let confidence = if bases.contains(&Basis::Unclear) {
        Confidence::Low
    } else if decisive {
        Confidence::High
    } else {
        Confidence::Medium
    };
    let chains = layout
        .chains
        .iter()
        .enumerate()
        .map(|(c, chain)| ChainStatus {
            color: chain.color,
            stones: chain.stones.iter().map(|&i| layout.point(i)).collect(),
            status: statuses[c],
            basis: bases[c],
            certainty: if bases[c] == Basis::Static { 1.0 } else { support[c].abs().min(1.0) },
        })
        .collect();
    Statuses {
        size: layout.size,
        dead,
        chains,
        source: DeadStoneSource::Estimate,
        confidence,
        doubts,
    }
}

/// Unclear chains take the status of their group. Chains of one colour that share an eye space
/// or two liberties (a group, see [`super::eyes`]) live or die together; the playouts sample
/// each chain on its own, and when the group is a coin toss its chains land on both sides of
/// even by chance, so that part of a group was taken off and the rest left (a seven-stone chain
/// dead at -0.03 next to its six-stone partner alive at +0.19). The unclear chains of a group
/// take the sign of the stone-weighted mean support of all its chains, the clear ones
/// included: one question, one answer. Measured with `scripts/accuracy`: aeb-pro Japanese
/// games 63.7 / 91.7 / 93.9% -> 63.8 / 92.0 / 94.1% (exact, within 2, same winner), GNU Go's
/// score tests 79.3 -> 81.0%, every other set the same or better. Counting only the unclear
/// chains of the group gains about half as much. Moving the vote's line off even loses: at
/// +0.1 mean support (more groups dead) 11,034 / 14,270 / 14,442 of 15,070 Japanese games
/// (exact, within 2, same winner; 11,103 / 14,321 / 14,471 at even), at -0.1 11,089 / 14,296
/// / 14,449.
fn vote_unclear_groups(layout: &Layout, bases: &[Basis], support: &[f32], statuses: &mut [Status]) {
    if !bases.contains(&Basis::Unclear) {
        return;
    }
    // The groups as the clear statuses make them: unclear chains stand, as if alive.
    let dead: Vec<bool> = (0..layout.grid.len())
        .map(|i| {
            layout.stones[i].is_some() && {
                let c = layout.chain_of[i] as usize;
                statuses[c] == Status::Dead && bases[c] != Basis::Unclear
            }
        })
        .collect();
    let eyes = super::eyes::analyse(layout, &dead);
    for group in &eyes.groups {
        if !group.chains.iter().any(|&c| bases[c as usize] == Basis::Unclear) {
            continue;
        }
        let mean: f32 = group
            .chains
            .iter()
            .map(|&c| support[c as usize] * layout.chains[c as usize].stones.len() as f32)
            .sum();
        let status = if mean >= 0.0 { Status::Alive } else { Status::Dead };
        for &c in &group.chains {
            if bases[c as usize] == Basis::Unclear {
                statuses[c as usize] = status;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statuses [`vote_unclear_groups`] gives the chains of `diagram`, from each chain's
    /// playout support (given on one of its stones; unclear below 0.3, every other chain
    /// clearly alive), as `(x, y, dead)` of the given stones.
    fn voted(diagram: &str, support_at: &[(usize, usize, f32)]) -> Vec<(usize, usize, bool)> {
        let board = Board::from_diagram(diagram).expect("diagram");
        let layout = Layout::of_board(&board);
        let width = layout.size.width as usize;
        let mut support = vec![1.0f32; layout.chains.len()];
        for &(x, y, s) in support_at {
            support[layout.chain_of[y * width + x] as usize] = s;
        }
        let bases: Vec<Basis> = support
            .iter()
            .map(|s| if s.abs() < 0.3 { Basis::Unclear } else { Basis::Playout })
            .collect();
        let mut statuses: Vec<Status> =
            support.iter().map(|&s| if s >= 0.0 { Status::Alive } else { Status::Dead }).collect();
        vote_unclear_groups(&layout, &bases, &support, &mut statuses);
        support_at
            .iter()
            .map(|&(x, y, _)| {
                (x, y, statuses[layout.chain_of[y * width + x] as usize] == Status::Dead)
            })
            .collect()
    }

    #[test]
    fn only_a_big_chain_near_even_keeps_the_playouts_going() {
        // Black's eight stones along the top are a big chain, White's two at E5 a small one.
        let board = Board::from_diagram(
            "
            X X X X X X X X .
            O O O O O O O O O
            . . . . . . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .expect("diagram");
        let layout = Layout::of_board(&board);
        let width = layout.size.width as usize;
        let big = layout.chain_of[0] as usize;
        let small = layout.chain_of[4 * width + 4] as usize;
        assert_eq!(layout.chains[big].stones.len(), 8);
        assert_eq!(layout.chains[small].stones.len(), 2);
        let undecided = vec![None; layout.chains.len()];
        let asks = |big_support: f32, small_support: f32, count: u32| {
            let support = |c: usize| match c {
                c if c == big => big_support,
                c if c == small => small_support,
                _ => 1.0,
            };
            big_coin_toss(&layout, &undecided, support, count, 64)
        };
        // Near even after the maximum of 64: more playouts; clearly off even: none.
        assert!(asks(-0.05, 1.0, 64));
        assert!(!asks(-0.2, 1.0, 64));
        // The band narrows as the playouts add up: 0.12 from even is in it after 64, out of it
        // after 128.
        assert!(asks(0.12, 1.0, 64));
        assert!(!asks(0.12, 1.0, 128));
        // A small chain's coin toss asks for nothing.
        assert!(!asks(0.9, 0.0, 64));
        // Nor does a big chain a proof decided.
        let mut proven = undecided.clone();
        proven[big] = Some((Status::Alive, Basis::Proof));
        assert!(!big_coin_toss(&layout, &proven, |c| if c == big { 0.0 } else { 1.0 }, 64, 64));
    }

    #[test]
    fn the_chains_of_one_group_live_or_die_together() {
        // Black's two chains in the upper left share the eye space C9 C8 (C7 touches White's
        // C6 and parts the region from the rest): one group. The playouts left the left
        // chain (five stones) a coin toss slightly below even and the right one (three
        // stones) a coin toss above it; taken chain by chain, half the group came off. The
        // stone-weighted mean is above even: both live. Black's lone stone at H3 is a group of
        // its own and keeps its own coin toss.
        let position = "
            . X . X O . . . .
            X X . X O . . . .
            X X . X O . . . .
            O O O O O . . . .
            . . . . . . . . .
            . . . . . O O O .
            . . . . . O . X O
            . . . . . O O O .
            . . . . . . . . .";
        assert_eq!(
            voted(position, &[(1, 0, -0.05), (3, 0, 0.2), (7, 6, -0.1)]),
            vec![(1, 0, false), (3, 0, false), (7, 6, true)]
        );
        // The same group with the larger chain further below even: both come off.
        assert_eq!(voted(position, &[(1, 0, -0.2), (3, 0, 0.1)]), vec![(1, 0, true), (3, 0, true)]);
    }
}
