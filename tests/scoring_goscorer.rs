//! Territory-scoring maps compared with goscorer's own snapshots (lightvector/goscorer, MIT;
//! `tests/fixtures/goscorer/README.md` names the files and the commit).
//!
//! Each fixture holds a board (`x`/`o` stones, `b`/`w` stones marked dead) and goscorer's maps
//! of it: territory, seki, false eyes, unscorable false eyes, dame and eye values. kifu must draw
//! the same maps.

use std::fs;
use std::path::Path;

use kifu::rules::score::{Position, TerritoryPoint, territory_map};
use kifu::rules::{BoardSize, Color};

const SECTIONS: [&str; 7] =
    ["BOARD", "TERRITORY", "SEKI", "FALSE EYES", "UNSCORABLE FALSE EYES", "DAME", "EYEVALUE"];

struct Board {
    rows: Vec<String>,
    size: BoardSize,
    stones: Vec<Option<Color>>,
    dead: Vec<bool>,
}

fn parse_board(rows: &[String]) -> Board {
    let height = rows.len() as u8;
    let width = rows[0].len() as u8;
    let size = BoardSize::new(width, height).expect("fixture boards fit");
    let mut stones = Vec::new();
    let mut dead = Vec::new();
    for row in rows {
        for ch in row.chars() {
            let (stone, is_dead) = match ch {
                'x' => (Some(Color::Black), false),
                'o' => (Some(Color::White), false),
                'b' => (Some(Color::Black), true),
                'w' => (Some(Color::White), true),
                _ => (None, false),
            };
            stones.push(stone);
            dead.push(is_dead);
        }
    }
    Board { rows: rows.to_vec(), size, stones, dead }
}

/// goscorer's `get_output`: the same seven sections, drawn the same way.
fn render(board: &Board, map: &[TerritoryPoint]) -> Vec<(String, Vec<String>)> {
    let w = board.size.width as usize;
    let draw = |f: &dyn Fn(usize, char) -> char| -> Vec<String> {
        board
            .rows
            .iter()
            .enumerate()
            .map(|(y, row)| row.chars().enumerate().map(|(x, c)| f(y * w + x, c)).collect())
            .collect()
    };
    let stones = &board.stones;
    vec![
        ("BOARD".into(), board.rows.clone()),
        (
            "TERRITORY".into(),
            draw(&|i, c| match map[i].territory {
                Some(Color::Black) => 'z',
                Some(Color::White) => 'a',
                None => c,
            }),
        ),
        (
            "SEKI".into(),
            draw(&|i, _| match (map[i].seki, stones[i].is_some()) {
                (Some(Color::Black), true) => 'x',
                (Some(Color::White), true) => 'o',
                (Some(Color::Black), false) => 'z',
                (Some(Color::White), false) => 'a',
                (None, _) => '.',
            }),
        ),
        ("FALSE EYES".into(), draw(&|i, c| if map[i].false_eye { 'F' } else { c })),
        (
            "UNSCORABLE FALSE EYES".into(),
            draw(&|i, c| if map[i].unscorable_false_eye { 'F' } else { c }),
        ),
        ("DAME".into(), draw(&|i, c| if map[i].dame { '1' } else { c })),
        (
            "EYEVALUE".into(),
            draw(&|i, c| match map[i].eye_value {
                0 => c,
                v => char::from(b'0' + v),
            }),
        ),
    ]
}

fn parse_snapshot(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(name) = line.strip_suffix(':')
            && SECTIONS.contains(&name)
        {
            out.push((name.to_string(), Vec::new()));
        } else if let Some((_, rows)) = out.last_mut() {
            rows.push(line.to_string());
        }
    }
    out
}

fn check(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/goscorer").join(name);
    let text = fs::read_to_string(&path).expect("fixture present");
    let expected = parse_snapshot(&text);
    let board = parse_board(&expected[0].1);
    let map = territory_map(
        Position { size: board.size, stones: &board.stones, dead: &board.dead },
        false,
    );
    let actual = render(&board, &map);
    let mut report = String::new();
    for ((name_e, rows_e), (_, rows_a)) in expected.iter().zip(&actual) {
        if rows_e != rows_a {
            report.push_str(&format!("{name_e}: expected / actual\n"));
            for (e, a) in rows_e.iter().zip(rows_a) {
                report.push_str(&format!("  {e}   {a}{}\n", if e != a { "  <" } else { "" }));
            }
        }
    }
    assert!(report.is_empty(), "{name} differs from goscorer:\n{report}");
}

#[test]
fn basic_territory() {
    check("test_basic.txt");
}

#[test]
fn dead_stones_marked() {
    check("test_dead_stone_marking.txt");
}

#[test]
fn false_eyes() {
    check("test_false_eyes.txt");
}

#[test]
fn basic_sekis() {
    check("test_basic_sekis.txt");
}

#[test]
fn more_fancy_sekis() {
    check("test_more_fancy_sekis.txt");
}

#[test]
fn double_ko_seki() {
    check("test_double_ko.txt");
}

#[test]
fn bamboo_interleave_seki() {
    check("test_bamboo_interleave_seki.txt");
}

#[test]
fn three_point_false_eye() {
    check("test_three_point_false_eye.txt");
}

#[test]
fn loose_nakade() {
    check("test_loose_nakade.txt");
}

#[test]
fn cycle_with_two_real_eyes() {
    check("test_cycle_real_2eye.txt");
}
