//! Every parameter of every preset, pinned against `shared/notes/rules.md` section 1 and the
//! sources it cites (KataGo `cpp/game/rules.cpp::parseRulesHelper` at 6a1fc5de, "KG" below, and
//! the rules texts). A change to a preset must change this table and name its source.

use kifu::rules::score::{CountInput, Position, count};
use kifu::rules::{
    BoardSize, Color, CycleEnd, HandicapCompensation, KoRule, Opening, Outcome, Ruleset, Scoring,
    SuicideRule, TieBreak, WinBy, preset,
};

fn rules(name: &str) -> Ruleset {
    preset(name).unwrap_or_else(|| panic!("no preset {name}")).ruleset
}

/// One row of the notes' table, in kifu's fields.
struct Row {
    name: &'static str,
    scoring: Scoring,
    ko: KoRule,
    suicide: SuicideRule,
    komi: f64,
    handicap: HandicapCompensation,
    remove_dead_stones: bool,
    pass_stones: bool,
    tie: TieBreak,
    opening: Opening,
}

#[test]
fn every_preset_matches_the_rules_notes() {
    use HandicapCompensation as H;
    use KoRule::*;
    use Scoring::*;
    use SuicideRule::*;
    let table = [
        // Chinese: area; ko "text has positional superko" (DEVELOPERS.md: "No move may recreate
        // an earlier whole-board position"; KG `chinese` says simple, KG `chinese-ogs`/`-kgs`
        // positional); suicide illegal; komi 7.5 = 3 3/4 zi; KG WHB_N (+N); 7.5 cannot tie.
        Row {
            name: "chinese",
            scoring: Area,
            ko: PositionalSuperko,
            suicide: Forbidden,
            komi: 7.5,
            handicap: H::N,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::Draw,
            opening: Opening::Empty,
        },
        // Japanese 1989: territory + prisoners, simple ko, suicide illegal (Art. 4), KG komi
        // 6.5, no handicap compensation, jigo possible with integer komi.
        Row {
            name: "japanese",
            scoring: Territory,
            ko: Simple,
            suicide: Forbidden,
            komi: 6.5,
            handicap: H::None,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::Draw,
            opening: Opening::Empty,
        },
        // Korean: as Japanese (KG scores it on the same branch).
        Row {
            name: "korean",
            scoring: Territory,
            ko: Simple,
            suicide: Forbidden,
            komi: 6.5,
            handicap: H::None,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::Draw,
            opening: Opening::Empty,
        },
        // AGA (KG `aga`, `bga`, `french`): area equal to territory via pass stones, situational
        // superko, suicide illegal, KG komi 7.5, KG WHB_N_MINUS_ONE.
        Row {
            name: "aga",
            scoring: Area,
            ko: SituationalSuperko,
            suicide: Forbidden,
            komi: 7.5,
            handicap: H::NMinusOne,
            remove_dead_stones: true,
            pass_stones: true,
            tie: TieBreak::Draw,
            opening: Opening::Empty,
        },
        // Ing / GOE (KG `ing`, `goe`): area, KG positional, KG multi-stone suicide legal, komi
        // 8 = 7.5 with Black winning ties (notes 4.9), KG WHB 0.
        Row {
            name: "ing",
            scoring: Area,
            ko: PositionalSuperko,
            suicide: MultiStoneAllowed,
            komi: 7.5,
            handicap: H::None,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::BlackWins,
            opening: Opening::Empty,
        },
        // New Zealand (KG `nz`): area, situational ("cannot repeat the position after any of
        // your own earlier moves"), suicide legal, komi 7 (draws possible), KG WHB 0.
        Row {
            name: "nz",
            scoring: Area,
            ko: SituationalSuperko,
            suicide: Allowed,
            komi: 7.0,
            handicap: H::None,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::Draw,
            opening: Opening::Empty,
        },
        // Tromp-Taylor: area with no dead-stone removal, positional superko, suicide legal,
        // text has no komi (KG 7.5), KG WHB 0, tie on equal score.
        Row {
            name: "tromp-taylor",
            scoring: Area,
            ko: PositionalSuperko,
            suicide: Allowed,
            komi: 7.5,
            handicap: H::None,
            remove_dead_stones: false,
            pass_stones: false,
            tie: TieBreak::Draw,
            opening: Opening::Empty,
        },
        // Ancient Chinese (Ming/Qing 還棋頭, KG `stone-scoring` for the tax): area minus two
        // points per live group, simple ko, suicide illegal, no komi in historical play, "if
        // handicap 3 stones, return 3 stones" (N), four corner stones (座子, DEVELOPERS.md).
        Row {
            name: "ancient",
            scoring: AreaWithGroupTax,
            ko: Simple,
            suicide: Forbidden,
            komi: 0.0,
            handicap: H::N,
            remove_dead_stones: true,
            pass_stones: false,
            tie: TieBreak::Draw,
            opening: Opening::CornerStones,
        },
    ];
    let names: Vec<&str> = kifu::rules::PRESETS.iter().map(|p| p.name).collect();
    assert_eq!(names, table.iter().map(|r| r.name).collect::<Vec<_>>(), "one row per preset");
    for row in &table {
        let r = rules(row.name);
        let name = row.name;
        assert_eq!(r.scoring, row.scoring, "{name} scoring");
        assert_eq!(r.ko, row.ko, "{name} ko");
        assert_eq!(r.suicide, row.suicide, "{name} suicide");
        assert_eq!(r.komi, row.komi, "{name} komi");
        assert_eq!(r.handicap_compensation, row.handicap, "{name} handicap compensation");
        assert_eq!(r.remove_dead_stones, row.remove_dead_stones, "{name} dead-stone removal");
        assert_eq!(r.pass_stones, row.pass_stones, "{name} pass stones");
        assert_eq!(r.tie, row.tie, "{name} tie");
        // Japanese 1989 Art. 12 and KG's isNoResult: a cycle without superko has no result.
        assert_eq!(r.cycle, CycleEnd::NoResult, "{name} cycle");
        assert_eq!(r.opening, row.opening, "{name} opening");
    }
}

/// notes 2.7: WHB_N gives N, WHB_N_MINUS_ONE gives N-1 (0 when N <= 1), WHB_ZERO nothing.
#[test]
fn handicap_compensation_follows_katago() {
    for n in 0..=9u32 {
        let n_points = if n <= 1 { 0.0 } else { n as f64 };
        let n_minus_one = if n <= 1 { 0.0 } else { (n - 1) as f64 };
        assert_eq!(HandicapCompensation::N.points(n), n_points);
        assert_eq!(HandicapCompensation::NMinusOne.points(n), n_minus_one);
        assert_eq!(HandicapCompensation::None.points(n), 0.0);
    }
}

/// The SGF `RU` names FF[4] makes mandatory (AGA, GOE, Japanese, NZ) and the ones met in real
/// files (notes section 1) find the rows above; KataGo's rule names resolve as KataGo maps them.
#[test]
fn ru_names_find_the_presets_of_the_notes() {
    for (ru, want) in [
        ("AGA", "aga"),
        ("GOE", "ing"),
        ("Japanese", "japanese"),
        ("NZ", "nz"),
        ("Chinese", "chinese"),
        ("Korean", "korean"),
        ("Tromp-Taylor", "tromp-taylor"),
        ("Ing", "ing"),
        ("bga", "aga"),
        ("french", "aga"),
        ("chinese-ogs", "chinese"),
        ("chinese-kgs", "chinese"),
    ] {
        assert_eq!(preset(ru).map(|p| p.name), Some(want), "RU[{ru}]");
    }
}

/// notes section 1: "KG defaults when only a JSON object is given: AREA, POSITIONAL, suicide
/// legal, komi 7.5 (6.5 for TERRITORY), tax NONE, WHB 0"; `sui1` is KataGo's multi-stone
/// suicide (a lone stone's suicide is never legal in KataGo).
#[test]
fn katago_rule_strings_take_katagos_defaults() {
    let r = Ruleset::from_katago_string("scoreAREA").unwrap();
    assert_eq!(
        (r.scoring, r.ko, r.suicide, r.komi),
        (Scoring::Area, KoRule::PositionalSuperko, SuicideRule::MultiStoneAllowed, 7.5)
    );
    assert_eq!(r.handicap_compensation, HandicapCompensation::None);
    let r = Ruleset::from_katago_string("koSIMPLEscoreTERRITORY").unwrap();
    assert_eq!((r.scoring, r.ko, r.komi), (Scoring::Territory, KoRule::Simple, 6.5));
    let r = Ruleset::from_katago_string("koSITUATIONALscoreAREAtaxALLsui0whbN").unwrap();
    assert_eq!(r.scoring, Scoring::AreaWithGroupTax);
    assert_eq!(r.suicide, SuicideRule::Forbidden);
    assert_eq!(r.handicap_compensation, HandicapCompensation::N);
}

/// Ing's komi 8 with Black winning ties: a record that keeps KM[8] and counts exactly 8 points
/// more for Black is a Black win, not a draw; with 7.5 the same count is B+0.5.
#[test]
fn ing_ties_go_to_black() {
    // 3x3: a Black column, a neutral column, a White column.
    let stones: Vec<Option<Color>> = "x.o\nx.o\nx.o"
        .lines()
        .flat_map(|row| row.chars().collect::<Vec<_>>())
        .map(|c| match c {
            'x' => Some(Color::Black),
            'o' => Some(Color::White),
            _ => None,
        })
        .collect();
    let dead = vec![false; 9];
    let input = |komi| CountInput {
        position: Position { size: BoardSize::square(3).unwrap(), stones: &stones, dead: &dead },
        captured_by: [0, 0],
        passes: [0, 0],
        handicap: 0,
        komi,
    };
    // Black 3 stones, White 3 stones, the middle column neutral: an even count.
    let ing = rules("ing");
    let even = count(&ing, &input(0.0));
    assert_eq!(even.margin, 0.0);
    assert_eq!(even.outcome, Outcome::Win { winner: Color::Black, by: WinBy::Points(0.0) });
    assert_eq!(count(&rules("chinese"), &input(0.0)).outcome, Outcome::Draw);
    assert_eq!(count(&rules("nz"), &input(0.0)).outcome, Outcome::Draw);
}
