//! Rulesets as values: a [`Ruleset`] is a struct of enums, and the named rulesets are rows of a
//! [`PRESETS`] table with the aliases found in real files' `RU` values.
//!
//! Code elsewhere branches on the fields (`ruleset.ko`, `ruleset.scoring`, ...) and never on a
//! preset's name, so a ruleset read from a KataGo-style string (`koPOSITIONALscoreAREAsui1`) or
//! built by hand works everywhere a preset does. This follows KataGo's `cpp/game/rules.h`, whose
//! named rulesets are only rows of field values.
//!
//! Where the sources disagree, each preset says in a comment which one it follows; the facts and
//! their sources are gathered in `shared/notes/rules.md` (section 1).

use std::fmt;

/// How the final position is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Live stones plus surrounded empty points (Chinese, AGA, Ing, NZ, Tromp-Taylor).
    Area,
    /// Surrounded empty points plus prisoners plus dead stones; eyes of groups in seki are not
    /// territory (Japanese 1989 Art. 8, Korean).
    Territory,
    /// Area counting minus a tax of two points for every separate live group (ancient Chinese
    /// 還棋頭: each group "returns" the two eyes it needs to live).
    AreaWithGroupTax,
}

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone in a ko is forbidden; longer cycles are
    /// possible and end the game without result (see [`CycleEnd`]).
    Simple,
    /// No move may recreate an earlier whole-board position.
    PositionalSuperko,
    /// No move may recreate an earlier whole-board position with the same player to move.
    SituationalSuperko,
}

/// Whether a move may leave its own chain without liberties (capturing nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuicideRule {
    /// Every suicide is illegal.
    Forbidden,
    /// Suicide of two or more stones is legal; a lone stone's suicide is not (it would only
    /// pass while changing nothing). This is KataGo's reading of Ing's rules.
    MultiStoneAllowed,
    /// Every suicide is legal: the mover's chain is removed (NZ, Tromp-Taylor).
    Allowed,
}

/// What White receives for Black's handicap stones under area counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapCompensation {
    /// Nothing (territory rules: the stones are already in the count; Ing, NZ, Tromp-Taylor).
    None,
    /// One point per handicap stone (Chinese: half the handicap in zi).
    N,
    /// One point per handicap stone after the first (AGA).
    NMinusOne,
}

impl HandicapCompensation {
    /// Points White receives for `handicap` stones (a handicap of 0 or 1 gives nothing).
    pub fn points(self, handicap: u32) -> f64 {
        if handicap < 2 {
            return 0.0;
        }
        match self {
            HandicapCompensation::None => 0.0,
            HandicapCompensation::N => handicap as f64,
            HandicapCompensation::NMinusOne => (handicap - 1) as f64,
        }
    }
}

/// Who wins when the count is exactly even.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// A draw (jigo).
    Draw,
    /// Black wins ties (Ing's 8-point komi read as 7.5 with Black winning ties).
    BlackWins,
    /// White wins ties (GoGoD's "W wins jigo").
    WhiteWins,
}

/// How a game ends when the whole board repeats and no superko rule forbids it (triple ko,
/// eternal life).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleEnd {
    /// No result: the game is void (Japanese 1989 Art. 12, 無勝負).
    NoResult,
    /// The game is a draw.
    Draw,
}

/// The stones on the board before the first move of an even game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// An empty board.
    Empty,
    /// Two black and two white stones on the corner star points, diagonally opposite (座子,
    /// ancient Chinese play).
    CornerStones,
}

/// A complete ruleset: every parameter the replay and the count depend on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ruleset {
    /// How the final position is counted.
    pub scoring: Scoring,
    /// Which repetitions are forbidden.
    pub ko: KoRule,
    /// Which suicides are legal.
    pub suicide: SuicideRule,
    /// Komi in points, used when a record gives none.
    pub komi: f64,
    /// What White receives for handicap stones.
    pub handicap_compensation: HandicapCompensation,
    /// Whether dead stones are removed before counting. Tromp-Taylor counts the board as it
    /// stands.
    pub remove_dead_stones: bool,
    /// Whether each pass hands a prisoner to the opponent (AGA), which makes a territory count
    /// equal the area count.
    pub pass_stones: bool,
    /// Who wins an even count.
    pub tie: TieBreak,
    /// How a whole-board cycle ends where no superko rule forbids it.
    pub cycle: CycleEnd,
    /// The stones an even game starts with.
    pub opening: Opening,
}

impl Ruleset {
    /// Whether the ko rule forbids every whole-board repetition (positional or situational).
    pub fn has_superko(&self) -> bool {
        !matches!(self.ko, KoRule::Simple)
    }

    /// The ruleset with a different komi.
    pub fn with_komi(mut self, komi: f64) -> Ruleset {
        self.komi = komi;
        self
    }

    /// Reads a KataGo-style rules string, as some files carry in `RU`, e.g.
    /// `koPOSITIONALscoreAREAtaxALLsui1` or `koSIMPLEscoreTERRITORYsui0komi6.5`. Fields left out
    /// take KataGo's defaults (area, positional superko, suicide legal, komi 7.5 or 6.5 under
    /// territory). `None` when the text is not such a string or asks for something kifu cannot
    /// express (Spight ko, a button, a tax with territory scoring).
    pub fn from_katago_string(text: &str) -> Option<Ruleset> {
        let lower = text.trim().to_ascii_lowercase();
        if !lower.starts_with("ko") && !lower.starts_with("score") {
            return None;
        }
        let mut scoring_area = true;
        let mut tax_all = false;
        let mut ko = KoRule::PositionalSuperko;
        let mut suicide = SuicideRule::MultiStoneAllowed;
        let mut komi = None;
        let mut whb = HandicapCompensation::None;
        const KEYS: [&str; 8] = ["komi", "ko", "score", "tax", "sui", "whb", "button", "fpok"];
        let mut rest = lower.as_str();
        while !rest.is_empty() {
            let (key, after) = KEYS.iter().find_map(|k| rest.strip_prefix(k).map(|a| (*k, a)))?;
            let (value, next) = match key {
                "ko" => split_word(after, &["positional", "situational", "simple", "spight"])?,
                "score" => split_word(after, &["area", "territory"])?,
                "tax" => split_word(after, &["none", "seki", "all"])?,
                // Numeric values: sui0, komi7.5, whbN-1, button0, fpok1.
                _ => after.split_at(
                    after
                        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'n'))
                        .unwrap_or(after.len()),
                ),
            };
            match (key, value) {
                ("ko", "positional") => ko = KoRule::PositionalSuperko,
                ("ko", "situational") => ko = KoRule::SituationalSuperko,
                ("ko", "simple") => ko = KoRule::Simple,
                ("score", "area") => scoring_area = true,
                ("score", "territory") => scoring_area = false,
                ("tax", "all") => tax_all = true,
                ("tax", "none" | "seki") => tax_all = false,
                ("sui", "1") => suicide = SuicideRule::MultiStoneAllowed,
                ("sui", "0") => suicide = SuicideRule::Forbidden,
                ("komi", v) => komi = Some(v.parse::<f64>().ok()?),
                ("whb", "0") => whb = HandicapCompensation::None,
                ("whb", "n") => whb = HandicapCompensation::N,
                ("whb", "n-1") => whb = HandicapCompensation::NMinusOne,
                ("button", "0") | ("fpok", "0" | "1") => {}
                _ => return None,
            }
            rest = next;
        }
        let scoring = match (scoring_area, tax_all) {
            (true, false) => Scoring::Area,
            (true, true) => Scoring::AreaWithGroupTax,
            (false, false) => Scoring::Territory,
            (false, true) => return None,
        };
        let default_komi = if scoring == Scoring::Territory { 6.5 } else { 7.5 };
        Some(Ruleset {
            scoring,
            ko,
            suicide,
            komi: komi.unwrap_or(default_komi),
            handicap_compensation: whb,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::Draw,
            cycle: CycleEnd::NoResult,
            opening: Opening::Empty,
        })
    }
}

fn split_word<'a>(s: &'a str, words: &[&str]) -> Option<(&'a str, &'a str)> {
    words.iter().find_map(|w| s.strip_prefix(w).map(|rest| (&s[..w.len()], rest)))
}

/// A named ruleset: a row of [`PRESETS`].
#[derive(Debug)]
pub struct Preset {
    /// The canonical name, as the reports print it (`chinese`, `tromp-taylor`, ...).
    pub name: &'static str,
    /// Other spellings accepted by [`preset`], compared after [`normalize_name`].
    pub aliases: &'static [&'static str],
    /// The parameters.
    pub ruleset: Ruleset,
    /// One line on what the preset follows, for `kifu rules`.
    pub summary: &'static str,
    /// The komi professional play under these rules used over the years, oldest first, for
    /// records that state none: a game dated before the first era had no komi. Empty when
    /// the ruleset's komi stands whatever the date.
    pub komi_history: &'static [KomiEra],
    /// The komi of a handicap game under these rules, for records that state none: 0.5 where
    /// the rules give White half a point to rule out a draw (AGA), else none: the handicap
    /// stones are the compensation, and the records of such games (old professional handicap
    /// games) give integer margins.
    pub handicap_komi: f64,
}

/// A komi in general use from a year on (see [`Preset::komi_history`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KomiEra {
    /// The first year of the era.
    pub from_year: u16,
    /// The komi in points.
    pub komi: f64,
    /// Games without komi were still played in this era (Japan's 4.5-komi years: the Oteai
    /// ranking games kept many no-komi rounds), so a record that states no komi may be either.
    pub no_komi_games_too: bool,
}

impl Preset {
    /// The komi an even game under these rules most likely had in `year` when its record
    /// states none: the era's komi, 0 before komi came into use, the ruleset's komi when the
    /// preset has no history.
    pub fn komi_in(&self, year: u16) -> f64 {
        match self.era_of(year) {
            Some(era) => era.komi,
            None if self.komi_history.is_empty() => self.ruleset.komi,
            None => 0.0,
        }
    }

    /// [`Preset::komi_in`] for a game dated `year` (or undated), told whether its recorded
    /// result is a draw or a win by a whole number of points (`whole_point_result`). A
    /// half-point komi can give neither, so such a result says the game had no komi where
    /// that was still possible: in an era that still played games without komi, or with no
    /// date at all (when the preset has a history, which starts without komi). Elsewhere the
    /// era's komi stands (the result may be the wrong one).
    pub fn komi_in_game(&self, year: Option<u16>, whole_point_result: bool) -> f64 {
        let era_komi = year.map_or(self.ruleset.komi, |year| self.komi_in(year));
        let no_komi_possible = match year {
            Some(year) => self.era_of(year).is_some_and(|era| era.no_komi_games_too),
            None => !self.komi_history.is_empty(),
        };
        if whole_point_result && no_komi_possible && era_komi.fract() != 0.0 {
            0.0
        } else {
            era_komi
        }
    }

    fn era_of(&self, year: u16) -> Option<&KomiEra> {
        self.komi_history.iter().rev().find(|era| era.from_year <= year)
    }
}

/// Komi came into professional play in Japan in the late 1930s ("rarely used in professional
/// tournaments before 1937", Sensei's Library, History of Komi, from the GoGoD database);
/// 4.5 was for a long time the usual value, beside games still played without komi (the
/// Oteai's); 5.5 (first in the 1955 Oza) became the norm by the 1970s, and the Nihon Ki-in
/// moved to 6.5 in September 2002.
const JAPANESE_KOMI: &[KomiEra] = &[
    KomiEra { from_year: 1937, komi: 4.5, no_komi_games_too: true },
    KomiEra { from_year: 1974, komi: 5.5, no_komi_games_too: false },
    KomiEra { from_year: 2003, komi: 6.5, no_komi_games_too: false },
];

/// Korea followed Japan's 5.5 and moved to 6.5 around 1999-2000 (6.5 first in the 1997
/// Tong Yang Cup).
const KOREAN_KOMI: &[KomiEra] = &[
    KomiEra { from_year: 1937, komi: 4.5, no_komi_games_too: true },
    KomiEra { from_year: 1974, komi: 5.5, no_komi_games_too: false },
    KomiEra { from_year: 2000, komi: 6.5, no_komi_games_too: false },
];

/// China played 5.5 (2 3/4 zi) until the move to 3 3/4 zi (7.5) in 2002.
const CHINESE_KOMI: &[KomiEra] = &[
    KomiEra { from_year: 1937, komi: 5.5, no_komi_games_too: false },
    KomiEra { from_year: 2002, komi: 7.5, no_komi_games_too: false },
];

impl PartialEq for Preset {
    /// Presets are rows of one table: two are equal when they are the same row.
    fn eq(&self, other: &Preset) -> bool {
        self.name == other.name
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

const BASE: Ruleset = Ruleset {
    scoring: Scoring::Area,
    ko: KoRule::PositionalSuperko,
    suicide: SuicideRule::Forbidden,
    komi: 7.5,
    handicap_compensation: HandicapCompensation::N,
    remove_dead_stones: true,
    pass_stones: false,
    tie: TieBreak::Draw,
    cycle: CycleEnd::NoResult,
    opening: Opening::Empty,
};

/// The named rulesets. Order is the order `kifu rules` prints.
pub static PRESETS: &[Preset] = &[
    Preset {
        name: "chinese",
        aliases: &[
            "cn",
            "chn",
            "china",
            "chinese rules",
            "zh",
            "cwa",
            "chinese-ogs",
            "chinese-kgs",
        ],
        // Area counting with 3 3/4 zi komi; N points back for N handicap stones. Ko: the rules
        // text (and the brief) forbids recreating any earlier position; KataGo's `chinese` uses
        // simple ko because referees void complex-ko games in practice. We follow the text.
        ruleset: BASE,
        summary: "area, positional superko, komi 7.5 (3 3/4 zi), White gets N for N handicap stones",
        komi_history: CHINESE_KOMI,
        handicap_komi: 0.0,
    },
    Preset {
        name: "japanese",
        aliases: &["jp", "jpn", "japan", "japanese rules", "ja", "nihon ki-in", "nihonkiin"],
        // Japanese Rules of Go 1989: territory and prisoners, seki eyes not territory (Art. 8),
        // simple ko, suicide illegal (Art. 4), cycles end without result (Art. 12). Komi 6.5 is
        // KataGo's default and the modern professional komi.
        ruleset: Ruleset {
            scoring: Scoring::Territory,
            ko: KoRule::Simple,
            komi: 6.5,
            handicap_compensation: HandicapCompensation::None,
            ..BASE
        },
        summary: "territory + prisoners, simple ko, komi 6.5, seki eyes not counted, cycles void",
        komi_history: JAPANESE_KOMI,
        handicap_komi: 0.0,
    },
    Preset {
        name: "korean",
        aliases: &["kr", "kor", "korea", "korean rules", "ko"],
        // As Japanese (KataGo scores Korean on the same branch).
        ruleset: Ruleset {
            scoring: Scoring::Territory,
            ko: KoRule::Simple,
            komi: 6.5,
            handicap_compensation: HandicapCompensation::None,
            ..BASE
        },
        summary: "as Japanese: territory + prisoners, simple ko, komi 6.5",
        komi_history: KOREAN_KOMI,
        handicap_komi: 0.0,
    },
    Preset {
        name: "aga",
        aliases: &["american", "aga rules", "us", "usa", "bga", "british", "french"],
        // AGA Concise Rules 1991: area counting made equal to territory by pass stones,
        // situational superko, N-1 points for N handicap stones. Komi 7.5 as KataGo (the 1991
        // text says 5.5; the current value is not confirmed in a primary text).
        ruleset: Ruleset {
            ko: KoRule::SituationalSuperko,
            handicap_compensation: HandicapCompensation::NMinusOne,
            pass_stones: true,
            ..BASE
        },
        summary: "area (= territory with pass stones), situational superko, komi 7.5, N-1",
        komi_history: &[],
        // "In handicap games, komi is 0.5 points" (AGA tournament rules summary).
        handicap_komi: 0.5,
    },
    Preset {
        name: "ing",
        aliases: &["goe", "ing goe", "ing-goe", "inggoe", "sst", "ing sst", "ing rules"],
        // Ing SST 1991 as KataGo approximates it: fill-in (area) counting, positional superko
        // standing in for SST's own ko rule, multi-stone suicide legal, no handicap
        // compensation. Komi 8 with Black winning ties equals 7.5, which we use; a record
        // that keeps SST's komi 8 (KM[8]) can tie, and then Black wins (rules notes 4.9).
        ruleset: Ruleset {
            suicide: SuicideRule::MultiStoneAllowed,
            handicap_compensation: HandicapCompensation::None,
            tie: TieBreak::BlackWins,
            ..BASE
        },
        summary: "area (fill-in), positional superko, multi-stone suicide legal, komi 7.5 (= 8, B wins ties)",
        komi_history: &[],
        handicap_komi: 0.0,
    },
    Preset {
        name: "nz",
        aliases: &["new zealand", "newzealand", "new-zealand", "nzgo"],
        // New Zealand rules: area counting, situational superko, suicide legal, komi 7 (so a
        // draw is possible). The text compensates handicap by White passing the first n-1
        // moves instead of komi; as KataGo, no points are added.
        ruleset: Ruleset {
            ko: KoRule::SituationalSuperko,
            suicide: SuicideRule::Allowed,
            komi: 7.0,
            handicap_compensation: HandicapCompensation::None,
            ..BASE
        },
        summary: "area, situational superko, suicide legal, komi 7 (draws possible)",
        komi_history: &[],
        handicap_komi: 0.0,
    },
    Preset {
        name: "tromp-taylor",
        aliases: &["tromptaylor", "tromp taylor", "tt", "logical", "tromp-taylor rules"],
        // Tromp-Taylor: area counting of the board as it stands (no dead-stone removal),
        // positional superko, suicide legal. The text has no komi; 7.5 is KataGo's default.
        ruleset: Ruleset {
            suicide: SuicideRule::Allowed,
            handicap_compensation: HandicapCompensation::None,
            remove_dead_stones: false,
            ..BASE
        },
        summary: "area as the board stands (no dead stones removed), positional superko, suicide legal",
        komi_history: &[],
        handicap_komi: 0.0,
    },
    Preset {
        name: "ancient",
        aliases: &[
            "ancient chinese",
            "old chinese",
            "ancient-chinese",
            "huanqitou",
            "還棋頭",
            "还棋头",
        ],
        // Ming/Qing counting: stones plus points, each separate live group returning two points
        // (還棋頭); games began with four stones on the corner star points (座子). Simple ko
        // and no komi: historical play had neither superko nor komi. "If handicap 3 stones,
        // return 3 stones" is read as N.
        ruleset: Ruleset {
            scoring: Scoring::AreaWithGroupTax,
            ko: KoRule::Simple,
            komi: 0.0,
            opening: Opening::CornerStones,
            ..BASE
        },
        summary: "area minus 2 points per live group (還棋頭), simple ko, no komi, corner stones (座子)",
        komi_history: &[],
        handicap_komi: 0.0,
    },
];

/// Lower-cases, trims and folds runs of spaces, underscores and hyphens into one space, so
/// that "Tromp-Taylor", "tromp_taylor" and " TROMP  TAYLOR " compare equal.
pub fn normalize_name(name: &str) -> String {
    normalized(name).collect()
}

/// The characters of [`normalize_name`], without building the string.
fn normalized(name: &str) -> impl Iterator<Item = char> + '_ {
    name.split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|word| !word.is_empty())
        .enumerate()
        .flat_map(|(i, word)| {
            (i > 0).then_some(' ').into_iter().chain(word.chars().flat_map(char::to_lowercase))
        })
}

/// The preset with this name or alias, compared after [`normalize_name`].
pub fn preset(name: &str) -> Option<&'static Preset> {
    // Runs for every game (RU, inferred rules): the names are compared character by character
    // instead of normalising each into a new string.
    // Names and aliases are unique after normalising (a test checks), and normalising
    // lower-cases: a name or alias equal but for ASCII case (`Japanese`, `AGA`: most RU values)
    // is the answer, found without normalising anything.
    let same = |candidate: &str| candidate.eq_ignore_ascii_case(name);
    if let Some(p) = PRESETS.iter().find(|p| same(p.name) || p.aliases.iter().any(|a| same(a))) {
        return Some(p);
    }
    let key = normalize_name(name);
    let is_key = |candidate: &str| normalized(candidate).eq(key.chars());
    PRESETS.iter().find(|p| is_key(p.name) || p.aliases.iter().any(|a| is_key(a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_finds_its_own_preset_and_no_other() {
        for p in PRESETS {
            assert!(std::ptr::eq(preset(p.name).unwrap(), p), "{}", p.name);
            for a in p.aliases {
                assert!(std::ptr::eq(preset(a).unwrap(), p), "{a} should be {}", p.name);
            }
        }
    }

    #[test]
    fn real_ru_spellings_resolve() {
        for (ru, want) in [
            ("Japanese", "japanese"),
            ("Chinese", "chinese"),
            ("AGA", "aga"),
            ("GOE", "ing"),
            ("NZ", "nz"),
            ("Korean", "korean"),
            ("Tromp-Taylor", "tromp-taylor"),
            ("Ing", "ing"),
            ("jp", "japanese"),
            ("cn", "chinese"),
            ("  ING_GOE ", "ing"),
        ] {
            assert_eq!(preset(ru).map(|p| p.name), Some(want), "{ru}");
        }
        assert!(preset("Uchikomi").is_none());
    }

    #[test]
    fn the_komi_of_a_year_follows_the_history_of_komi() {
        let komi = |name, year| preset(name).unwrap().komi_in(year);
        // Shusaku's and Honinbo Shusai's games had no komi.
        assert_eq!(komi("japanese", 1853), 0.0);
        assert_eq!(komi("japanese", 1936), 0.0);
        assert_eq!(komi("japanese", 1937), 4.5);
        assert_eq!(komi("japanese", 1973), 4.5);
        assert_eq!(komi("japanese", 1974), 5.5);
        assert_eq!(komi("japanese", 2002), 5.5);
        assert_eq!(komi("japanese", 2003), 6.5);
        assert_eq!(komi("korean", 1999), 5.5);
        assert_eq!(komi("korean", 2000), 6.5);
        assert_eq!(komi("chinese", 2001), 5.5);
        assert_eq!(komi("chinese", 2002), 7.5);
        // Rules without a history keep their komi whatever the date.
        assert_eq!(komi("nz", 1900), 7.0);
        assert_eq!(komi("ancient", 1700), 0.0);
        // The last era reaches the present and the preset's own komi.
        for p in PRESETS {
            assert_eq!(p.komi_in(2100), p.ruleset.komi, "{}", p.name);
        }
    }

    #[test]
    fn a_whole_point_result_in_the_first_komi_era_means_a_game_without_komi() {
        let komi = |name, year, whole| preset(name).unwrap().komi_in_game(Some(year), whole);
        // B+3 in a 1950 Oteai record: 4.5 komi cannot give it; no komi can.
        assert_eq!(komi("japanese", 1950, true), 0.0);
        assert_eq!(komi("japanese", 1950, false), 4.5);
        assert_eq!(komi("korean", 1960, true), 0.0);
        // Once 5.5 was the norm, a whole-point result is a wrong result, not a no-komi game.
        assert_eq!(komi("japanese", 1980, true), 5.5);
        assert_eq!(komi("chinese", 1980, true), 5.5);
        // Before komi there was none either way.
        assert_eq!(komi("japanese", 1900, true), 0.0);
        assert_eq!(komi("nz", 1950, true), 7.0);
        // An undated record may be from any year, those without komi among them.
        let japanese = preset("japanese").unwrap();
        assert_eq!(japanese.komi_in_game(None, true), 0.0);
        assert_eq!(japanese.komi_in_game(None, false), 6.5);
        assert_eq!(preset("aga").unwrap().komi_in_game(None, true), 7.5);
    }

    #[test]
    fn presets_match_the_rules_notes() {
        let r = |n| preset(n).unwrap().ruleset;
        assert_eq!(r("chinese").scoring, Scoring::Area);
        assert_eq!(r("chinese").komi, 7.5);
        assert_eq!(r("chinese").handicap_compensation.points(4), 4.0);
        assert_eq!(r("japanese").scoring, Scoring::Territory);
        assert_eq!(r("japanese").ko, KoRule::Simple);
        assert_eq!(r("japanese").komi, 6.5);
        assert_eq!(r("aga").ko, KoRule::SituationalSuperko);
        assert_eq!(r("aga").handicap_compensation.points(4), 3.0);
        assert_eq!(r("nz").suicide, SuicideRule::Allowed);
        assert_eq!(r("nz").komi, 7.0);
        assert!(!r("tromp-taylor").remove_dead_stones);
        assert_eq!(r("ing").suicide, SuicideRule::MultiStoneAllowed);
        assert_eq!(r("ancient").scoring, Scoring::AreaWithGroupTax);
        assert_eq!(r("ancient").opening, Opening::CornerStones);
        assert_eq!(HandicapCompensation::N.points(1), 0.0);
    }

    #[test]
    fn katago_rule_strings_become_rulesets() {
        let r = Ruleset::from_katago_string("koPOSITIONALscoreAREAtaxALLsui1").unwrap();
        assert_eq!(r.scoring, Scoring::AreaWithGroupTax);
        assert_eq!(r.ko, KoRule::PositionalSuperko);
        assert_eq!(r.suicide, SuicideRule::MultiStoneAllowed);
        let r = Ruleset::from_katago_string("koSIMPLEscoreTERRITORYsui0komi6.5").unwrap();
        assert_eq!(r.scoring, Scoring::Territory);
        assert_eq!(r.ko, KoRule::Simple);
        assert_eq!(r.suicide, SuicideRule::Forbidden);
        assert_eq!(r.komi, 6.5);
        let r = Ruleset::from_katago_string("koSITUATIONALscoreAREAtaxNONEsui0whbN-1").unwrap();
        assert_eq!(r.handicap_compensation, HandicapCompensation::NMinusOne);
        assert!(Ruleset::from_katago_string("Japanese").is_none());
        assert!(Ruleset::from_katago_string("koSPIGHTscoreAREA").is_none());
    }
}
