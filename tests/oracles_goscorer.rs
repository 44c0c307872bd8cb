//! goscorer's territory-scoring snapshots (lightvector/goscorer, MIT) beyond the ten the scoring
//! tests carry: `corpus/cases/oracles/goscorer/snapshots.txt` holds each board with goscorer's
//! territory and seki maps, and kifu's `rules::score::territory_map` must draw the same ones
//! (goscorer's defaults: false eyes that must be filled score nothing).
//!
//! Each case also checks that counting the position under Japanese rules gives exactly the
//! territory the map shows plus the dead stones, so the maps are what `kifu` scores.

mod oracles_support;

use kifu::rules::score::{CountInput, Position, count, territory_map};
use kifu::rules::{BoardSize, Color, preset};

struct Case {
    name: String,
    board: Vec<String>,
    territory: Vec<String>,
    seki: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = oracles_support::read_fixture("goscorer/snapshots.txt");
    let mut cases: Vec<Case> = Vec::new();
    let mut section = "";
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(name) = line.strip_prefix("case ") {
            let (board, territory, seki) = (Vec::new(), Vec::new(), Vec::new());
            cases.push(Case { name: name.to_string(), board, territory, seki });
        } else if let Some(name) = line.strip_suffix(':') {
            section = match name {
                "BOARD" => "board",
                "TERRITORY" => "territory",
                "SEKI" => "seki",
                other => panic!("unknown section {other}"),
            };
        } else {
            let case = cases.last_mut().expect("a case first");
            let rows = match section {
                "board" => &mut case.board,
                "territory" => &mut case.territory,
                _ => &mut case.seki,
            };
            rows.push(line.to_string());
        }
    }
    cases
}

/// Draws kifu's maps the way goscorer's `get_output` draws its TERRITORY and SEKI sections.
fn draw(case: &Case) -> (Vec<String>, Vec<String>, f64, f64) {
    let height = case.board.len();
    let width = case.board[0].len();
    let size = BoardSize::new(width as u8, height as u8).expect("a board size");
    let cells: Vec<char> = case.board.iter().flat_map(|r| r.chars().collect::<Vec<_>>()).collect();
    let stones: Vec<Option<Color>> = cells
        .iter()
        .map(|c| match c {
            'x' | 'b' => Some(Color::Black),
            'o' | 'w' => Some(Color::White),
            _ => None,
        })
        .collect();
    let dead: Vec<bool> = cells.iter().map(|c| matches!(c, 'b' | 'w')).collect();
    let position = Position { size, stones: &stones, dead: &dead };
    let map = territory_map(position, false);
    let rows = |f: &dyn Fn(usize) -> char| -> Vec<String> {
        (0..height).map(|y| (0..width).map(|x| f(y * width + x)).collect()).collect()
    };
    let territory = rows(&|i| match map[i].territory {
        Some(Color::Black) => 'z',
        Some(Color::White) => 'a',
        None => cells[i],
    });
    let seki = rows(&|i| match (map[i].seki, stones[i].is_some()) {
        (Some(Color::Black), true) => 'x',
        (Some(Color::White), true) => 'o',
        (Some(Color::Black), false) => 'z',
        (Some(Color::White), false) => 'a',
        (None, _) => '.',
    });
    let japanese = preset("japanese").unwrap().ruleset;
    let input =
        CountInput { position, captured_by: [0, 0], passes: [0, 0], handicap: 0, komi: 0.0 };
    let counted = count(&japanese, &input);
    (territory, seki, counted.black.total, counted.white.total)
}

/// Cases where kifu's map differs from goscorer's, checked by the ignored test below.
const DIFFERENCES: [&str; 2] = ["test_basic_sekis_marked_dead", "test_false_eyes_2"];

#[test]
fn goscorer_snapshots() {
    let cases = cases();
    assert_eq!(cases.len(), 22, "every case of the fixture");
    let agreed: Vec<&Case> =
        cases.iter().filter(|c| !DIFFERENCES.contains(&c.name.as_str())).collect();
    assert_eq!(compare(&agreed), "", "kifu differs from goscorer");
}

#[test]
#[ignore = "kifu differs from goscorer on purpose. test_basic_sekis_marked_dead: White's eye at \
            the right edge is a six-point line bent round the corner holding three black stones \
            marked dead; once they are taken off a line of six makes two eyes, so kifu values it \
            at two (eye_value 2) and counts White's territory, where goscorer values it at one \
            and, the group touching dame at (13,1)-(14,1), puts it in seki with no territory. \
            test_false_eyes_2: the white stone marked dead on Black's false eye (0,1) is in \
            atari at (0,0): Black has to capture it there and then fill (0,1), so neither point \
            scores; kifu applies the rule in goscorer's own mark_scoring (points next to a dead \
            throw-in on an unscorable false eye are unscorable too), which the snapshot, \
            counting (0,0) for Black, does not show"]
fn goscorer_snapshots_kifu_differs_from() {
    let cases = cases();
    let differing: Vec<&Case> =
        cases.iter().filter(|c| DIFFERENCES.contains(&c.name.as_str())).collect();
    assert_eq!(compare(&differing), "", "kifu differs from goscorer");
}

/// The differences between kifu's maps and goscorer's over `cases`, drawn side by side.
fn compare(cases: &[&Case]) -> String {
    let mut report = String::new();
    for case in cases {
        let (territory, seki, black, white) = draw(case);
        for (what, want, got) in
            [("TERRITORY", &case.territory, &territory), ("SEKI", &case.seki, &seki)]
        {
            if want != got {
                report.push_str(&format!("{} {what}: goscorer / kifu\n", case.name));
                for (w, g) in want.iter().zip(got) {
                    report.push_str(&format!("  {w}   {g}{}\n", if w != g { "  <" } else { "" }));
                }
            }
        }
        // The count is the map: territory points (dead stones inside included) plus the dead
        // stones taken as prisoners.
        let expected = |letter: char, dead_stone: char| {
            let points = case.territory.iter().flat_map(|r| r.chars()).filter(|&c| c == letter);
            let prisoners = case.board.iter().flat_map(|r| r.chars()).filter(|&c| c == dead_stone);
            (points.count() + prisoners.count()) as f64
        };
        if (black, white) != (expected('z', 'w'), expected('a', 'b')) && report.is_empty() {
            report
                .push_str(&format!("{}: count {black}-{white} differs from the map\n", case.name));
        }
    }
    report
}
