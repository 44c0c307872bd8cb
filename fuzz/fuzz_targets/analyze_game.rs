//! `analyze_game`: arbitrary text read as one game and analysed under every ruleset, as
//! `kifu audit` does: replay, dead stones, finishing, counts, disagreements.
//!
//! Input: byte 0 picks the dead-stone mode (bits 0-1: auto, estimate, markup, as-is); the rest
//! is the game's text (invalid UTF-8 replaced, as a decoded game would have it).
//!
//! Asserts, besides never panicking: `GameAnalysis::check_invariants` (one score per ruleset,
//! margins equal to the totals less komi and compensation, area counts that cover the board,
//! dead stones bounded and absent where every stone counts as alive, no unclear chain under a
//! high confidence, disagreements only for counted results), and the same analysis twice.

#![no_main]

use kifu::analysis::{AnalysisOptions, DeadStoneMode, RulesetRequest, analyze};
use kifu::record::{CharsetOrigin, GameLocation, ReadOptions, TextEncoding};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [choice, text @ ..] = data else { return };
    let dead_stones = match choice & 3 {
        0 => DeadStoneMode::Auto,
        1 => DeadStoneMode::Estimate,
        2 => DeadStoneMode::Markup,
        _ => DeadStoneMode::AsIs,
    };
    let text = String::from_utf8_lossy(text);
    let location = GameLocation { source: "fuzz.sgf".into(), game: 1, offset: 0, line: 1 };
    let encoding = TextEncoding { name: "UTF-8", origin: CharsetOrigin::Utf8, replaced: false };
    let record = kifu::record::sgf::read_game(&text, location, encoding, &ReadOptions::default());
    // Boards above 25x25 are legal SGF but make each run slow; the stress test and the corpus
    // cover their counting.
    if u32::from(record.size.width) * u32::from(record.size.height) > 625 {
        return;
    }
    let mut rulesets = vec![RulesetRequest::Recorded];
    rulesets.extend(kifu::rules::PRESETS.iter().map(RulesetRequest::Preset));
    let options = AnalysisOptions { rulesets, dead_stones };
    let analysis = analyze(&record, &options);
    if let Err(why) = analysis.check_invariants(&record, &options) {
        panic!("{why}");
    }
    assert_eq!(analysis, analyze(&record, &options), "two analyses of the same record differ");
});
