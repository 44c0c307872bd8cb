//! Disagreements worth a curator's attention: a counted recorded result that the recount under
//! the record's own rules and komi does not reproduce, and a winner that changes between two
//! requested rulesets.
//!
//! For a recorded-vs-recomputed disagreement kifu says by how much the margins differ, whether
//! the winner changes, and the likely reason when one can be told. Each candidate reason is
//! checked by recounting the same position the way that reason supposes and seeing whether the
//! recorded result comes out:
//! - *komi*: the result matches without komi, with the komi in other units (zi, Fox's ×100),
//!   or, in an even game, with the usual komi of the rules instead of the record's; for a record
//!   that gives no komi, with another usual komi than the one kifu assumed (a recount with an
//!   assumed komi is never high-confidence);
//! - *handicap compensation*: it matches with another compensation (N, N-1 or none);
//! - *counting method*: it matches under area instead of territory counting or the reverse;
//! - *counted as the board stands*: it matches an area count with no stone taken off
//!   (Tromp-Taylor, as CGOS counts);
//! - *seki or false eyes*: under territory counting, it matches when the eyes of seki groups and
//!   the false eyes are counted as territory (as some servers do);
//! - *dame not filled*: open borders remain (empty regions touching both colours);
//! - *dead-stone status unclear*: the estimator left chains unclear;
//! - *colours swapped*: the recount gives the recorded margin to the other player (RE names the
//!   wrong winner). This one is damage to the record rather than a way of counting it, so it
//!   does not lower the confidence.
//!
//! A disagreement is high-confidence only when the statuses are certain (markup or proof), no
//! border is open, and no candidate reason explains it: only then is the record likely wrong.

use super::dead_stones::Statuses;
use super::replay::Replay;
use super::scoring::Counted;
use super::{Confidence, DeadStoneSource, Disagreement, DisagreementKind, RulesetScore};
use crate::record::{GameRecord, KomiOrigin};
use crate::rules::outcome::format_points;
use crate::rules::score::{Position, area_map};
use crate::rules::{Color, HandicapCompensation, Outcome, Ruleset, Scoring, TieBreak};

/// Points a count may differ from the record by floating-point noise (margins are multiples of
/// a quarter point).
const EPSILON: f64 = 1e-6;

/// The smallest recorded margin, in points, for which a recount giving the same margin to the
/// other player is told as colours swapped (B+ for W+), and the smallest difference between the
/// record's komi and its rules' usual komi for which a match with the usual one is told as a
/// komi mistake: below it a count off by a point or two says the same by chance.
const SWAPPED_MIN_MARGIN: f64 = 3.0;

/// The komi records are played with, in points, tried in turn when a record gives none: the
/// usual ones of territory and area rules, a handicap game's, and none.
const USUAL_KOMI: [f64; 5] = [6.5, 7.5, 5.5, 0.5, 0.0];

/// Compares the recorded result with `recomputed` (the score under the record's own rules and
/// komi). `None` when they agree or when the recorded result is not a counted one.
pub fn recorded_vs_recomputed(
    record: &GameRecord,
    replay: &Replay,
    counted: &mut Counted,
    recomputed: &RulesetScore,
) -> Option<Disagreement> {
    let recorded = record.result.outcome?;
    let want = recorded.margin()?;
    let got_outcome = recomputed.outcome?;
    let got = got_outcome.margin()?;
    if same_result(want, got, recomputed) {
        return None;
    }
    let reasons = likely_reasons(record, replay, counted, recomputed, want);
    let explained = !reasons.is_empty();
    let open = counted.open_borders(replay);
    let statuses = &counted.statuses;
    let mut confidence = recomputed.confidence;
    if open.largest >= 3 || statuses.source == DeadStoneSource::AsIs {
        confidence = Confidence::Low;
    } else if open.points > 0 {
        confidence = confidence.min(Confidence::Medium);
    }
    if explained {
        confidence = Confidence::Low;
    }
    let mut why: Vec<String> = reasons;
    // A recount with a komi kifu assumed proves nothing against the record: the record may have
    // been counted with any other.
    if record.komi.origin == KomiOrigin::Assumed {
        confidence = confidence.min(Confidence::Medium);
        if !explained {
            why.push(format!("komi not recorded (assumed {})", format_points(recomputed.komi)));
        }
    }
    // A result that names the wrong colour is damage to the record, not a way of counting that
    // excuses it: told, without lowering the confidence. Only for margins too large for a
    // recount a point or two off to mimic it by chance.
    if want.abs() >= SWAPPED_MIN_MARGIN && (got + want).abs() < EPSILON {
        why.push("colours swapped: the count gives the same margin to the other player".into());
    }
    if open.largest >= 3 {
        why.push(format!("dame not filled: {} open points at the borders", open.points));
    }
    if statuses.source == DeadStoneSource::Estimate && !statuses.doubts.is_empty() {
        why.push("dead-stone status unclear".into());
    }
    let what = if recorded.winner() != got_outcome.winner() {
        "winner differs".to_string()
    } else {
        format!("margin differs by {}", format_points((got - want).abs()))
    };
    let mut detail = format!(
        "recorded {} vs recomputed {} under {} with komi {}: {what}",
        recorded,
        got_outcome,
        recomputed.preset,
        format_points(recomputed.komi)
    );
    if !why.is_empty() {
        detail.push_str("; likely: ");
        detail.push_str(&why.join("; "));
    }
    Some(Disagreement { kind: DisagreementKind::RecordedVsRecomputed, detail, confidence })
}

/// Whether the recorded margin `want` is the recomputed `got`. Under a tie rule that lets
/// Black win ties, a half-point komi is the integer komi above it (Ing's 8 points is 7.5
/// with Black winning ties), and records write the result with the integer komi: B+9 for a
/// count of B+9.5, W+3 for W+2.5.
pub fn same_result(want: f64, got: f64, recomputed: &RulesetScore) -> bool {
    let half_komi = (recomputed.komi.fract().abs() - 0.5).abs() < EPSILON;
    (got - want).abs() < EPSILON
        || (recomputed.ruleset.tie == TieBreak::BlackWins
            && half_komi
            && (got - 0.5 - want).abs() < EPSILON)
}

/// Every pair of requested rulesets whose winners differ, with both results.
pub fn winner_flips(scores: &[RulesetScore]) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for (i, a) in scores.iter().enumerate() {
        for b in &scores[i + 1..] {
            let (Some(oa), Some(ob)) = (a.outcome, b.outcome) else { continue };
            if !(oa.is_counted() && ob.is_counted()) || oa.winner() == ob.winner() {
                continue;
            }
            out.push(Disagreement {
                kind: DisagreementKind::WinnerFlip,
                detail: format!(
                    "{} {} (komi {}) vs {} {} (komi {})",
                    a.requested,
                    oa,
                    format_points(a.komi),
                    b.requested,
                    ob,
                    format_points(b.komi)
                ),
                confidence: a.confidence.min(b.confidence),
            });
        }
    }
    out
}

/// The reasons, among those kifu can test, that reproduce the recorded margin `want`.
fn likely_reasons(
    record: &GameRecord,
    replay: &Replay,
    counted: &mut Counted,
    recomputed: &RulesetScore,
    want: f64,
) -> Vec<String> {
    let Some(got) = recomputed.outcome.and_then(Outcome::margin) else { return Vec::new() };
    let komi = recomputed.komi;
    let hits = |m: f64| (m - want).abs() < EPSILON;
    let mut reasons = Vec::new();
    // Komi the record does not give: kifu counted with one it assumed, and the players may
    // have had another (Fox's even professional games without komi are counted with 6.5 and
    // 7.5 alike).
    if record.komi.origin == KomiOrigin::Assumed {
        if let Some(&alt) =
            USUAL_KOMI.iter().find(|&&alt| (alt - komi).abs() > EPSILON && hits(got + komi - alt))
        {
            reasons.push(format!(
                "komi not recorded: the record matches komi {}, not the assumed {}",
                format_points(alt),
                format_points(komi)
            ));
        }
    } else if komi != 0.0 {
        // Komi left out, or read in the wrong units.
        if hits(got + komi) {
            reasons.push("komi units: the record seems counted without komi".to_string());
        } else if hits(got + komi - komi * 2.0) || hits(got + komi - komi / 2.0) {
            let unit = match record.komi.origin {
                KomiOrigin::Zi => "zi",
                KomiOrigin::FoxUnits => "Fox units",
                _ => "points",
            };
            reasons.push(format!(
                "komi units: the record seems counted with another komi than {} {unit}",
                format_points(komi)
            ));
        }
    }
    // The record's komi is not the one the game was played with: an even game counted with
    // the usual komi of its rules (Fox writes KM[0] on some even professional games whose
    // result is the count with 6.5). Only for komi far enough apart that a count a point or
    // two off does not match by chance: with 5.5 against 6.5, 660 aeb-pro records "matched".
    let usual = record.rules.preset.map(|p| p.ruleset.komi);
    if let Some(usual) = usual
        && record.handicap < 2
        && (usual - komi).abs() >= SWAPPED_MIN_MARGIN
        && hits(got + komi - usual)
    {
        reasons.push(format!(
            "komi: the record seems counted with the usual komi of its rules, {}, not {}",
            format_points(usual),
            format_points(komi)
        ));
    }
    // Handicap compensation.
    if record.handicap >= 2 {
        let used = recomputed.ruleset.handicap_compensation.points(record.handicap);
        for other in
            [HandicapCompensation::N, HandicapCompensation::NMinusOne, HandicapCompensation::None]
        {
            let alt = other.points(record.handicap);
            if alt != used && hits(got + used - alt) {
                reasons.push(format!(
                    "handicap compensation: the record seems to give White {} points for {} stones",
                    format_points(alt),
                    record.handicap
                ));
                break;
            }
        }
    }
    // The other counting method.
    let other = match recomputed.ruleset.scoring {
        Scoring::Territory => Scoring::Area,
        Scoring::Area | Scoring::AreaWithGroupTax => Scoring::Territory,
    };
    let other_rules = Ruleset { scoring: other, ..recomputed.ruleset };
    let alt = counted.count(&other_rules, komi, record.handicap, replay.passes);
    if hits(alt.margin) {
        reasons.push(format!(
            "counting method: the record matches {} counting",
            if other == Scoring::Area { "area" } else { "territory" }
        ));
    }
    // The board counted as it stands, no stone taken off (Tromp-Taylor; CGOS counts so whatever
    // its records' RU says). Only worth trying when some stones were taken as dead.
    if counted.statuses.dead.iter().any(|&d| d)
        && hits(as_it_stands_margin(record, replay, komi, &recomputed.ruleset))
    {
        reasons.push(
            "counted as the board stands: the record matches an area count with no stone taken \
             off (Tromp-Taylor)"
                .into(),
        );
    }
    // Seki eyes and false eyes counted as territory.
    if recomputed.ruleset.scoring == Scoring::Territory {
        let plain =
            plain_territory_margin(record, replay, &counted.statuses, komi, &recomputed.ruleset);
        if hits(plain) {
            reasons.push(
                "seki or false eyes: the record counts them as territory (a plain count)".into(),
            );
        }
    }
    reasons
}

/// Area counted on the board as it stands: every stone alive, an empty region reaching one
/// colour only that colour's (Tromp-Taylor), with the recount's `komi` and `ruleset`'s handicap
/// compensation.
fn as_it_stands_margin(record: &GameRecord, replay: &Replay, komi: f64, ruleset: &Ruleset) -> f64 {
    let board = &replay.board;
    let stones = super::stones_by_row(board);
    let nothing_dead = vec![false; stones.len()];
    let owners = area_map(Position { size: board.size(), stones: &stones, dead: &nothing_dead });
    let black = owners.iter().filter(|&&o| o == Some(Color::Black)).count() as f64;
    let white = owners.iter().filter(|&&o| o == Some(Color::White)).count() as f64;
    let compensation = ruleset.handicap_compensation.points(record.handicap);
    black - white - komi - compensation
}

/// Territory counted the plain way: every empty point (or point under a dead stone) reaching
/// one colour only is that colour's, seki eyes and false eyes included.
fn plain_territory_margin(
    record: &GameRecord,
    replay: &Replay,
    statuses: &Statuses,
    komi: f64,
    ruleset: &Ruleset,
) -> f64 {
    let board = &replay.board;
    let size = board.size();
    let stones = super::stones_by_row(board);
    let owners = area_map(Position { size, stones: &stones, dead: &statuses.dead });
    let mut total = [0f64; 2];
    for (i, owner) in owners.iter().enumerate() {
        if let Some(c) = owner
            && (stones[i] != Some(*c) || statuses.dead[i])
        {
            total[c.index()] += 1.0;
        }
        if let (Some(c), true) = (stones[i], statuses.dead[i]) {
            total[c.opponent().index()] += 1.0;
        }
    }
    for c in Color::BOTH {
        total[c.index()] += board.prisoners(c) as f64;
    }
    let compensation = ruleset.handicap_compensation.points(record.handicap);
    total[0] - total[1] - komi - compensation
}
