//! The replay of a game record through the rules core: every setup and every move of the main
//! line checked under a ruleset, each problem turned into a [`Finding`] that names the move and
//! the point, and the final state the scorer counts.
//!
//! The replay is tolerant (see [`Game::play_tolerant`]): an illegal move is reported and then
//! executed as SGF `FF[4]` executes it, so one bad move never hides the rest of the game and the
//! final position is the one any SGF viewer shows. It runs on every game, so it reuses one
//! [`Game`] per thread and allocates only for what it returns.

use std::cell::RefCell;

use crate::finding::{Code, Finding};
use crate::record::{GameRecord, Placement};
use crate::rules::{
    Board, BoardSize, Color, Cycle, CycleEnd, Game, GameEnd, Illegal, KoRule, Move, Played, Point,
    Ruleset, SetupProblem,
};

/// The result of replaying one record under one ruleset.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The position after the last move, with the prisoners each side took
    /// ([`Board::prisoners`]).
    pub board: Board,
    /// The player to move after the last move.
    pub to_move: Color,
    /// Moves replayed: every move of the main line, passes and illegal moves included.
    pub moves_played: u32,
    /// Passes by Black and by White (`[black, white]`), for pass stones.
    pub passes: [u32; 2],
    /// How the game ended, as far as the moves tell: two passes in a row at the end.
    pub end: Option<GameEnd>,
    /// The whole-board cycle the game ends in, under simple ko (triple ko, eternal life): the
    /// ruleset's [`CycleEnd`] then decides the result.
    pub cycle: Option<Cycle>,
    /// Number of illegal moves (each one finding with an illegal-move code).
    pub illegal_moves: u32,
    /// Whether a setup was illegal: a stone on an occupied point or off the board, or chains
    /// left without liberties.
    pub illegal_setup: bool,
    /// What the replay found, in order: setup problems, then move by move.
    pub findings: Vec<Finding>,
}

impl Replay {
    /// Whether any move or setup broke the rules.
    pub fn is_illegal(&self) -> bool {
        self.illegal_moves > 0 || self.illegal_setup
    }

    /// Whether the moves end with two passes in a row.
    pub fn ended_by_passes(&self) -> bool {
        matches!(self.end, Some(GameEnd::TwoPasses { .. }))
    }

    /// Whether a cycle leaves the game without result (or drawn, as the ruleset says).
    pub fn has_cycle(&self) -> bool {
        self.cycle.is_some()
    }
}

thread_local! {
    /// One game per thread, reused from record to record.
    static GAME: RefCell<Option<Game>> = const { RefCell::new(None) };
}

/// Replays `record`'s setup and main line under `ruleset` (usually `record.rules.ruleset`).
pub fn replay(record: &GameRecord, ruleset: &Ruleset) -> Replay {
    with_game(record, ruleset, |game| replay_with(game, record, ruleset))
}

/// Runs `f` with this thread's [`Game`] (a fresh one when re-entered).
fn with_game<T>(record: &GameRecord, ruleset: &Ruleset, f: impl FnOnce(&mut Game) -> T) -> T {
    GAME.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => f(slot.get_or_insert_with(|| Game::new(record.size, *ruleset))),
        // Re-entered from inside a replay (never in kifu itself): use a fresh game.
        Err(_) => f(&mut Game::new(record.size, *ruleset)),
    })
}

/// What a replay found about the rules, without the final state: all that a check without
/// scoring needs, so the final board is not copied out of the thread's game.
#[derive(Clone, Debug)]
pub struct Legality {
    /// As [`Replay::illegal_moves`].
    pub illegal_moves: u32,
    /// As [`Replay::illegal_setup`].
    pub illegal_setup: bool,
    /// `before`, then the replay's findings as [`Replay::findings`].
    pub findings: Vec<Finding>,
}

impl Legality {
    /// Whether any move or setup broke the rules.
    pub fn is_illegal(&self) -> bool {
        self.illegal_moves > 0 || self.illegal_setup
    }
}

/// Replays `record` as [`replay`] does and keeps only what it found, appended to `before`
/// (the record's own findings, so that the game's list is built once).
pub fn legality(record: &GameRecord, ruleset: &Ruleset, before: Vec<Finding>) -> Legality {
    with_game(record, ruleset, |game| {
        let (out, _passes) = replay_findings(game, record, ruleset, before);
        Legality {
            illegal_moves: out.illegal_moves,
            illegal_setup: out.illegal_setup,
            findings: out.list,
        }
    })
}

/// Replays with a caller's [`Game`], which is reset first (so its memory is reused).
pub fn replay_with(game: &mut Game, record: &GameRecord, ruleset: &Ruleset) -> Replay {
    let (out, passes) = replay_findings(game, record, ruleset, Vec::new());
    Replay {
        board: game.board().clone(),
        to_move: game.to_move(),
        moves_played: game.moves_played(),
        passes,
        end: game.end(),
        cycle: game.cycle(),
        illegal_moves: out.illegal_moves,
        illegal_setup: out.illegal_setup,
        findings: out.list,
    }
}

/// Resets `game` and replays `record` in it: the findings (after `before`) and the passes of
/// each colour; the final state is left in `game`.
fn replay_findings(
    game: &mut Game,
    record: &GameRecord,
    ruleset: &Ruleset,
    before: Vec<Finding>,
) -> (Findings, [u32; 2]) {
    let size = record.size;
    game.reset(size, *ruleset);
    let mut out = Findings { size, list: before, illegal_moves: 0, illegal_setup: false };

    let first_player = first_player(record);
    out.setup(0, game.setup(changes(&record.setup)));
    game.set_to_move(first_player);

    // The moves run from one later setup to the next; a setup applies before the move it
    // precedes (`after_moves` is its index), and those after the last move at the end.
    let mut passes = [0u32; 2];
    let mut next = 0;
    for setup in &record.later_setup {
        let until = (setup.after_moves as usize).min(record.moves.len());
        replay_moves(game, record, next..until.max(next), &mut passes, &mut out, ruleset);
        next = next.max(until);
        if setup.after_moves > 0 {
            let message = if (setup.after_moves as usize) < record.moves.len() {
                format!(
                    "setup in node {} after move {} changes {} point(s) of the board",
                    setup.node,
                    setup.after_moves,
                    setup.placements.len()
                )
            } else {
                format!("setup in node {} after the last move", setup.node)
            };
            out.push(Finding::new(Code::SetupInMainLine, setup.after_moves, message));
        }
        out.setup(setup.after_moves, game.setup(changes(&setup.placements)));
        if let Some(color) = setup.to_move {
            game.set_to_move(color);
        }
    }
    replay_moves(game, record, next..record.moves.len(), &mut passes, &mut out, ruleset);

    if let Some(cycle) = game.cycle() {
        out.cycle(&cycle, ruleset);
    }
    (out, passes)
}

/// Replays `record.moves[range]`, counting passes into `passes` and reporting what is wrong
/// into `out`.
fn replay_moves(
    game: &mut Game,
    record: &GameRecord,
    range: std::ops::Range<usize>,
    passes: &mut [u32; 2],
    out: &mut Findings,
    ruleset: &Ruleset,
) {
    let first = range.start;
    let moves = &record.moves[range];
    game.play_tolerant_all(
        moves.iter().map(|m| (m.color, m.mv)),
        |game, index, to_move, played| {
            let recorded = &moves[index];
            if recorded.mv == Move::Pass {
                passes[recorded.color.index()] += 1;
            }
            if played.illegal.is_some() || played.out_of_turn || played.after_end.is_some() {
                // A move on a stone is skipped, so the stone is still there to be named.
                let occupant = recorded.mv.point().and_then(|p| game.board().get(p));
                let before = Before { to_move, occupant };
                let number = (first + index) as u32 + 1;
                out.moved(number, recorded.color, recorded.mv, before, &played, ruleset);
            }
        },
    );
}

/// Who moves first: PL, else White after handicap stones (HA or black setup stones alone),
/// else Black. A record that disagrees gets an out-of-turn finding on its first move.
fn first_player(record: &GameRecord) -> Color {
    match record.to_move {
        Some(color) => color,
        None if record.handicap >= 2 => Color::White,
        None => Color::Black,
    }
}

/// What the replay knows of the position a move was played in.
#[derive(Clone, Copy)]
struct Before {
    /// The player who was to move.
    to_move: Color,
    /// The stone on the move's point (still there after the move when it was occupied).
    occupant: Option<Color>,
}

fn changes(placements: &[Placement]) -> impl Iterator<Item = (Point, Option<Color>)> + '_ {
    placements.iter().map(|p| (p.point, p.stone))
}

/// The findings under construction, with the counts that decide the game's status.
struct Findings {
    size: BoardSize,
    list: Vec<Finding>,
    illegal_moves: u32,
    illegal_setup: bool,
}

impl Findings {
    fn push(&mut self, finding: Finding) {
        self.list.push(finding);
    }

    /// A point for people: `Q16 (pd)` on the board, `[zz]` off it.
    fn name(&self, p: Point) -> String {
        let sgf = p.sgf().unwrap_or_else(|| format!("{},{}", p.x, p.y));
        if self.size.contains(p) {
            format!("{} ({sgf})", p.display(self.size.height))
        } else {
            format!("[{sgf}]")
        }
    }

    fn setup(&mut self, after_moves: u32, problems: Vec<SetupProblem>) {
        for problem in problems {
            self.illegal_setup = true;
            let finding = match problem {
                SetupProblem::OffBoard { point } => Finding::new(
                    Code::OffBoard,
                    after_moves,
                    format!(
                        "setup point {} lies outside the {} board",
                        self.name(point),
                        self.size
                    ),
                ),
                SetupProblem::Occupied { point, was, now } => Finding::new(
                    Code::SetupOccupied,
                    after_moves,
                    format!(
                        "setup puts a {now} stone on {}, which already holds a {was} stone",
                        self.name(point)
                    ),
                ),
                SetupProblem::NoLiberties { point, color, stones } => Finding::new(
                    Code::SetupOccupied,
                    after_moves,
                    format!(
                        "setup leaves the {color} chain of {stones} stone(s) at {} without \
                         liberties (kept on the board, as SGF says)",
                        self.name(point)
                    ),
                ),
            };
            self.push(finding);
        }
    }

    fn cycle(&mut self, cycle: &Cycle, ruleset: &Ruleset) {
        let end = match ruleset.cycle {
            CycleEnd::NoResult => "the game has no result",
            CycleEnd::Draw => "the game is a draw",
        };
        let earlier = match cycle.recreates {
            0 => "the start".to_string(),
            m => format!("move {m}"),
        };
        self.push(Finding::new(
            Code::Cycle,
            cycle.start,
            format!(
                "the game ends in a whole-board cycle of {} moves: move {} recreates the \
                 position after {earlier} with the same player to move, and every move after it \
                 up to move {} repeats too; without superko {end}",
                cycle.period(),
                cycle.start,
                cycle.last
            ),
        ));
    }

    /// The findings of one move that is not an ordinary one. Kept out of the replay's loop
    /// (cold, never inlined): rare, and all formatting, it would otherwise be compiled into
    /// the loop, whose code then changed with every edit to the findings' code elsewhere in
    /// the crate (fat LTO: replay_moves moved by about 1% with unrelated edits).
    #[cold]
    #[inline(never)]
    fn moved(
        &mut self,
        number: u32,
        color: Color,
        mv: Move,
        before: Before,
        played: &Played,
        ruleset: &Ruleset,
    ) {
        let what = match mv {
            Move::Play(p) => format!("{color} {}", self.name(p)),
            Move::Pass => format!("{color} pass"),
        };
        if let Some(end) = played.after_end {
            let how = match end {
                GameEnd::TwoPasses { at_move } => format!("by two passes at move {at_move}"),
                GameEnd::Resignation { loser, at_move } => {
                    format!("by {loser}'s resignation after move {at_move}")
                }
            };
            self.push(Finding::new(
                Code::AfterEnd,
                number,
                format!("{what} is played after the game ended {how}"),
            ));
        }
        if played.out_of_turn {
            let to_move = before.to_move;
            let why = if number == 1 {
                format!("{to_move} was to move first")
            } else {
                format!("{to_move} was to move")
            };
            self.push(Finding::new(Code::OutOfTurn, number, format!("{what} out of turn: {why}")));
        }
        if let Some(illegal) = played.illegal {
            self.illegal_moves += 1;
            let detail = match illegal {
                Illegal::OffBoard => format!("lies outside the {} board", self.size),
                Illegal::Occupied => match before.occupant {
                    Some(stone) if stone == color => {
                        "is played on its own stone; the move is skipped".to_string()
                    }
                    Some(stone) => format!("is played on a {stone} stone; the move is skipped"),
                    None => "is played on an occupied point; the move is skipped".to_string(),
                },
                Illegal::Suicide => format!(
                    "is suicide: it leaves its chain of {} stone(s) without liberties and \
                     captures nothing",
                    played.effect.suicided
                ),
                Illegal::Ko => "retakes the ko at once".to_string(),
                Illegal::Superko => {
                    let kind = if ruleset.ko == KoRule::SituationalSuperko {
                        "situational"
                    } else {
                        "positional"
                    };
                    match played.recreates {
                        Some(0) => format!("recreates the starting position ({kind} superko)"),
                        Some(m) => {
                            format!("recreates the position after move {m} ({kind} superko)")
                        }
                        None => format!("recreates an earlier position ({kind} superko)"),
                    }
                }
            };
            let code = match illegal {
                Illegal::OffBoard => Code::OffBoard,
                Illegal::Occupied => Code::Occupied,
                Illegal::Suicide => Code::Suicide,
                Illegal::Ko => Code::Ko,
                Illegal::Superko => Code::Superko,
            };
            self.push(Finding::new(code, number, format!("{what} {detail}")));
        }
    }
}
