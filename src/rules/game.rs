//! A game under a ruleset: the board plus everything the board does not know — whose turn it
//! is, passes in a row and the end of the game, and every earlier situation, for the superko
//! rules and for the cycles (triple ko, eternal life) that end a game without superko.
//! It plays the part of KataGo's `BoardHistory`, next to [`Board`] as KataGo's `Board`.
//!
//! # Strict and tolerant play
//!
//! [`Game::play`] refuses an illegal move and leaves the game as it was; [`Game::is_legal`]
//! always agrees with it. [`Game::play_tolerant`] is for replaying records: it reports what was
//! wrong with a move and then executes it as far as it can be executed, so that one bad move
//! does not hide the rest of the game. A ko or superko retake is played, and a suicide is
//! executed as SGF `FF[4]` executes it (the stone goes on, captures what it can, and the mover's
//! chain comes off if it has no liberties). A move on an occupied point or off the board is
//! not executed at all and changes nothing but the turn: KataGo's tolerant replay
//! (`makeBoardMoveTolerant`) and sgfmill, Sabaki and goban all skip it. `FF[4]` would overwrite
//! the stone instead ([`Board::play_forced`]), but a move on a stone is physically impossible
//! in a real game: such moves are transcription damage, and removing the stone that was there
//! would spoil every later position (shared corpus, aeb-pro Honinbo/59/Q04.sgf: skipping gives
//! 45 moves on occupied points and 4 suicides from move 153; overwriting hides one suicide).
//!
//! Every illegal move is exactly one [`Illegal`] kind, the first that applies of: off the
//! board, occupied, suicide (where the ruleset forbids it), ko, superko. Moves out of turn and
//! after the end of the game are irregular rather than illegal: both kinds of play accept them
//! and say so in [`Played`].
//!
//! # Repetitions
//!
//! A situation is the position plus, under situational superko and simple ko, the player to
//! move (KataGo's `getKoHash`). Under positional or situational superko a move may not create a
//! situation that occurred before; passes and setup do not clear the history.
//!
//! Under simple ko a repetition is legal, and a game that keeps repeating is in a whole-board
//! cycle (triple ko, eternal life) that the rules end without result (Japanese 1989 Art. 12,
//! with the players' agreement) or as a draw (the ruleset's [`super::ruleset::CycleEnd`]).
//! [`Game::cycle`] says whether the game is in such a cycle now: since some move, every move
//! has been legal and has recreated an earlier situation, with no pass between (a pass, or a
//! setup, starts the count afresh, as in KataGo). An illegal move ends a cycle: an illegal ko
//! retake recreates the position two moves back, which is a broken rule, not a cycle. Read at
//! the end of a record, it tells whether the game ended in a cycle. KataGo stops a game at the
//! third occurrence of one situation; records stop when the players agree, usually within the
//! second round (aeb-pro Honinbo/49/01.sgf: the position repeats from move 328 and the game
//! stops at 333), so kifu does not wait for a third. Over the 56,559 aeb-pro games this finds
//! 48 games ending in a cycle: 47 recorded as Void (triple, quadruple and quintuple kos,
//! eternal life) and one forfeit.
//!
//! Every repetition is confirmed by rebuilding the earlier position and comparing stones,
//! never by hash alone.
//!
//! # Example
//!
//! ```
//! use kifu::rules::{BoardSize, Color, Game, Illegal, Move, Point, preset};
//!
//! let japanese = preset("japanese").unwrap().ruleset;
//! let mut game = Game::new(BoardSize::square(9).unwrap(), japanese);
//! let tengen = Move::Play(Point::new(4, 4));
//! game.play(Color::Black, tengen).unwrap();
//! // Strict play refuses, and `is_legal` agrees; nothing changes.
//! assert!(!game.is_legal(Color::White, tengen));
//! assert_eq!(game.play(Color::White, tengen), Err(Illegal::Occupied));
//! // Replaying a record: reported, skipped, and the game goes on.
//! let played = game.play_tolerant(Color::White, tengen);
//! assert_eq!(played.illegal, Some(Illegal::Occupied));
//! assert_eq!((game.moves_played(), game.to_move()), (2, Color::Black));
//! ```

use super::board::{Board, Illegal, MoveEffect};
use super::history::{Change, History, Situation};
use super::point::{BoardSize, Color, Move, Point};
use super::ruleset::{KoRule, Ruleset};
use super::zobrist;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Two passes in a row; `at_move` is the number of the second.
    TwoPasses {
        /// The move number of the second pass.
        at_move: u32,
    },
    /// A player resigned after `at_move` moves.
    Resignation {
        /// Who resigned.
        loser: Color,
        /// Moves played before the resignation.
        at_move: u32,
    },
}

/// A whole-board cycle under simple ko: since move `start`, every move has been legal and has
/// recreated an earlier situation (same stones, same player to move), with no pass between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The first move of the cycle: it recreated the situation after move `recreates`.
    pub start: u32,
    /// The move after which the situation `start` recreated had last arisen (0: the start of
    /// the game or a setup).
    pub recreates: u32,
    /// The last move played, still inside the cycle.
    pub last: u32,
    /// The most times one situation of the cycle has occurred (KataGo ends a game at 3).
    pub occurrences: u32,
}

impl Cycle {
    /// The number of moves in one round of the cycle.
    pub fn period(&self) -> u32 {
        self.start - self.recreates
    }
}

/// What a move did, beyond the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Why the move was illegal; only [`Game::play_tolerant`] executes such a move.
    pub illegal: Option<Illegal>,
    /// The mover was not the player to move.
    pub out_of_turn: bool,
    /// The game had already ended, this way; the move reopened it.
    pub after_end: Option<GameEnd>,
    /// Stones captured or suicided (nothing for a move that could not be executed).
    pub effect: MoveEffect,
    /// This move ended the game: the second pass in a row.
    pub ended_game: bool,
    /// The move after which the situation this move created had last arisen (0: the start or
    /// a setup), when it recreated one: a superko violation, or a repetition under simple ko.
    pub recreates: Option<u32>,
}

/// Something wrong with a setup (AB, AW, AE). The setup is applied anyway, as SGF says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// The point lies outside the board; nothing was changed.
    OffBoard {
        /// The point.
        point: Point,
    },
    /// A stone was put on a point that already held one, and replaced it.
    Occupied {
        /// The point.
        point: Point,
        /// The stone that was there.
        was: Color,
        /// The stone put there.
        now: Color,
    },
    /// After the setup a chain has no liberties (SGF keeps it on the board).
    NoLiberties {
        /// The chain's first stone in reading order.
        point: Point,
        /// Its colour.
        color: Color,
        /// Its number of stones.
        stones: u32,
    },
}

/// Where an equal situation lies: the one just left, or one filed in the history (its
/// number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Earlier {
    Current,
    Filed(u32),
}

/// The current situation, which joins the history when the game moves on. It arose at the
/// current move number, so that is not kept.
#[derive(Clone, Copy, Debug)]
struct Current {
    key: u64,
    /// How many times it has occurred since the set was last emptied, this time included.
    count: u32,
    /// The number of stones on the board.
    stones: u16,
}

/// A game in progress: see the module documentation.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    ruleset: Ruleset,
    /// What the player to move adds to a situation's key under this ruleset, by colour.
    player_keys: [u64; 2],
    to_move: Color,
    moves: u32,
    consecutive_passes: u32,
    end: Option<GameEnd>,
    cycle: Option<Cycle>,
    history: History,
    current: Current,
    /// A board to rebuild earlier positions on, created on the first hash hit and kept.
    scratch: Option<Box<Board>>,
}

impl Game {
    /// A game on an empty board of `size` under `ruleset`, Black to move.
    pub fn new(size: BoardSize, ruleset: Ruleset) -> Game {
        let mut game = Game {
            board: Board::new(size),
            ruleset,
            player_keys: [0, 0],
            to_move: Color::Black,
            moves: 0,
            consecutive_passes: 0,
            end: None,
            cycle: None,
            history: History::new(),
            current: Current { key: 0, count: 1, stones: 0 },
            scratch: None,
        };
        game.reset(size, ruleset);
        game
    }

    /// A game starting from the stones of `board` (its prisoners and ko point are not kept),
    /// with `to_move` to move.
    pub fn from_board(board: &Board, to_move: Color, ruleset: Ruleset) -> Game {
        let mut game = Game::new(board.size(), ruleset);
        let stones: Vec<(Point, Option<Color>)> =
            board.size().points().filter_map(|p| board.get(p).map(|c| (p, Some(c)))).collect();
        game.setup(stones);
        game.set_to_move(to_move);
        game
    }

    /// Starts a new game on an empty board, reusing this one's memory.
    pub fn reset(&mut self, size: BoardSize, ruleset: Ruleset) {
        self.board.reset(size);
        self.ruleset = ruleset;
        self.player_keys = match ruleset.ko {
            KoRule::PositionalSuperko => [0, 0],
            _ => [0, zobrist::white_to_move_key()],
        };
        self.to_move = Color::Black;
        self.moves = 0;
        self.consecutive_passes = 0;
        self.end = None;
        self.cycle = None;
        self.history.clear();
        self.new_situation();
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The ruleset the game is played under.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The player to move: the opponent of the last mover, or as set up.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Number of moves played (passes, illegal and off-board moves included).
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// Number of passes at the end of the moves played so far.
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// How the game ended, if it has (and was not reopened by a later move).
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// The whole-board cycle the game is in now, under simple ko (see the module
    /// documentation); `None` once a move creates a new situation, after a pass, and always
    /// under the superko rules (where repetitions are illegal instead).
    pub fn cycle(&self) -> Option<Cycle> {
        self.cycle
    }

    /// Says who moves next (SGF `PL`, or White after handicap stones).
    pub fn set_to_move(&mut self, color: Color) {
        if color != self.to_move {
            self.to_move = color;
            self.new_situation();
        }
    }

    /// Records a resignation by `loser`: later moves are reported as after the end.
    pub fn resign(&mut self, loser: Color) {
        self.end = Some(GameEnd::Resignation { loser, at_move: self.moves });
    }

    /// Applies setup changes in order (`Some(colour)` adds a stone, `None` clears the point)
    /// as SGF does: stones replace whatever is there and capture nothing. Returns what was
    /// wrong with them; an empty list allocates nothing. Before the first move the set-up
    /// position is the start of the game; later, the position it replaces stays in the history
    /// for the superko rules, while under simple ko cycles are counted afresh, as after a pass.
    pub fn setup(
        &mut self,
        changes: impl IntoIterator<Item = (Point, Option<Color>)>,
    ) -> Vec<SetupProblem> {
        let mut problems = Vec::new();
        if self.moves > 0 {
            self.file_current();
        }
        if self.ruleset.ko == KoRule::Simple {
            // As after a pass, cycles are counted afresh (KataGo starts a new history).
            self.history.forget_situations();
            self.cycle = None;
        }
        let mut changed = Vec::new();
        for (point, stone) in changes {
            let Some(loc) = self.board.loc(point) else {
                problems.push(SetupProblem::OffBoard { point });
                continue;
            };
            let was = self.board.set_stone_loc(loc, stone);
            if let (Some(was), Some(now)) = (was, stone) {
                problems.push(SetupProblem::Occupied { point, was, now });
            }
            if was != stone {
                self.history.log(Change::Set { loc, stone });
                changed.push(point);
            }
        }
        // Chains this setup left without liberties: they hold a changed point or touch one.
        let mut reported = Vec::new();
        for &point in &changed {
            for q in std::iter::once(point).chain(self.board.neighbors(point)) {
                let (Some(color), Some(chain)) = (self.board.get(q), self.board.chain_id(q)) else {
                    continue;
                };
                if self.board.liberty_count(q) == 0 && !reported.contains(&chain) {
                    reported.push(chain);
                    let first = self.board.chain_stones(q).min_by_key(|p| (p.y, p.x));
                    problems.push(SetupProblem::NoLiberties {
                        point: first.unwrap_or(q),
                        color,
                        stones: self.board.chain_len(q),
                    });
                }
            }
        }
        self.new_situation();
        problems
    }

    /// Whether `color` may play `mv` now: `Ok` exactly when [`Game::play`] would accept it.
    /// Turn order and the end of the game are not rules of legality (see [`Played`]).
    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        let Some(loc) = self.board_check(color, mv)? else { return Ok(()) };
        if self.ruleset.has_superko() && self.would_repeat(color, loc) {
            return Err(Illegal::Superko);
        }
        Ok(())
    }

    /// Whether `color` may play `mv` now; always equals `play(color, mv).is_ok()`.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Plays a legal move, or returns why it is illegal and leaves the game unchanged.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Played, Illegal> {
        let loc = self.board_check(color, mv)?;
        let before = self.board.counters();
        let effect = loc.map_or_else(MoveEffect::default, |l| self.board.play_empty(color, l));
        if let Some(Err(_)) = loc.map(|_| self.find_repeat(color, &effect)) {
            // A superko violation, found on the position the move made: put the old one back
            // from the history (rare, so the common path pays nothing for it).
            let size = self.board.size();
            self.history.rebuild(self.history.log_len(), size, &mut self.board);
            self.board.set_counters(before);
            return Err(Illegal::Superko);
        }
        let left = self.file_current();
        Ok(self.advance(color, mv, loc, effect, None, None, left))
    }

    /// Plays a move whatever the rules say, as a record is replayed: [`Played::illegal`] says
    /// what was wrong, and the move is executed as far as it can be (see the module
    /// documentation): a move off the board or on a stone changes nothing but the turn.
    #[inline]
    pub fn play_tolerant(&mut self, color: Color, mv: Move) -> Played {
        match self.step_tolerant(color, mv, |effect| effect) {
            Ok(effect) => Played { effect, ..Played::default() },
            Err(played) => played,
        }
    }

    /// Replays `moves` in order as [`Game::play_tolerant`] plays each, and calls `noteworthy`
    /// with the game, the move's index in `moves`, the player who was to move and the
    /// [`Played`] of every move that is not a legal stone played in turn into a new situation:
    /// passes, moves out of turn or after the end, illegal moves, repetitions. Replaying a
    /// record this way costs nothing per ordinary move beyond the move itself.
    ///
    /// Always inlined into its caller, so that the loop and the move it plays are compiled as
    /// one whatever else the crate holds: left to the compiler, it was inlined or not
    /// depending on how the crate fell into codegen units, and unrelated changes to the
    /// reader twice moved it out of line, 4.5M instructions more on kifu check over the
    /// bench's professional games (cachegrind).
    #[inline(always)]
    pub fn play_tolerant_all<I>(
        &mut self,
        moves: I,
        mut noteworthy: impl FnMut(&Game, usize, Color, Played),
    ) where
        I: IntoIterator<Item = (Color, Move)>,
        I::IntoIter: ExactSizeIterator,
    {
        let mut moves = moves.into_iter();
        let count = moves.len();
        while let Some((color, mv)) = moves.next() {
            let to_move = self.to_move;
            // The ordinary move's effect is dropped here, where the compiler sees it unused:
            // returned, it was kept in memory for nothing (about 8 instructions a move on the
            // bench's professional games, callgrind).
            if let Err(played) = self.step_tolerant(color, mv, drop) {
                // The move's index, from the moves left: an ordinary move keeps no counter
                // (an `enumerate` counter lived on the stack, loaded and stored every move).
                noteworthy(self, count - moves.len() - 1, to_move, played);
            }
        }
    }

    /// [`Game::play_tolerant`], telling apart the ordinary move, `Ok` with `ordinary` of what
    /// it did to the board, from everything else, `Err` with its [`Played`].
    #[inline(always)]
    fn step_tolerant<T>(
        &mut self,
        color: Color,
        mv: Move,
        ordinary: impl FnOnce(MoveEffect) -> T,
    ) -> Result<T, Played> {
        match mv {
            Move::Play(point) if color == self.to_move && self.end.is_none() => {
                let Some(loc) = self.board.loc(point) else {
                    return Err(self.play_irregular(color, mv));
                };
                match self.board.play_loc(color, loc, self.ruleset.suicide) {
                    Ok(effect) => self.play_regular(color, mv, loc, effect).map(ordinary),
                    // Refused, the board unchanged: the long way reports it.
                    Err(_) => Err(self.play_irregular(color, mv)),
                }
            }
            _ => Err(self.play_irregular(color, mv)),
        }
    }

    /// [`Game::step_tolerant`] of a legal stone by the player to move in a game still going,
    /// once the board has played it with `effect`: nearly every move of every record. What
    /// [`Game::advance`] does for such a move, written out for the case where the new
    /// situation is new, which the history tells (from the stone count alone for most
    /// moves).
    #[inline(always)]
    fn play_regular(
        &mut self,
        color: Color,
        mv: Move,
        loc: u16,
        effect: MoveEffect,
    ) -> Result<MoveEffect, Played> {
        let left = self.file_current();
        let next = color.opponent();
        let key = self.key(self.board.hash(), next);
        let stones = stones_on(&self.board);
        if effect.suicided != 0 || self.history.may_contain(key, stones) {
            // A suicide (which may recreate the position just left), or a repetition.
            return Err(self.finish_tolerant(color, mv, Some(loc), effect, None, left));
        }
        self.moves += 1;
        self.to_move = next;
        self.consecutive_passes = 0;
        self.history.log(Change::Play { loc, color });
        self.current = Current { key, count: 1, stones };
        // What `count_repetition` concludes for a new situation under simple ko; under the
        // superko rules there is never a cycle.
        self.cycle = None;
        Ok(effect)
    }

    /// [`Game::play_tolerant`] of anything else: a pass, a move out of turn or after the end,
    /// an illegal move.
    #[inline(never)]
    fn play_irregular(&mut self, color: Color, mv: Move) -> Played {
        // The situation left behind is filed first (nothing is undone in tolerant play), so
        // that the new one is looked up among all earlier ones.
        let left = self.file_current();
        let (illegal, loc) = match self.board_check(color, mv) {
            Ok(loc) => (None, loc),
            // A ko retake or a suicide can be executed; a stone cannot go where one is.
            Err(e @ (Illegal::Ko | Illegal::Suicide)) => {
                (Some(e), mv.point().and_then(|p| self.board.loc(p)))
            }
            Err(e) => (Some(e), None),
        };
        let effect = loc.map_or_else(MoveEffect::default, |l| self.board.play_empty(color, l));
        self.finish_tolerant(color, mv, loc, effect, illegal, left)
    }

    /// The end of a tolerant move once the board has been changed: the repetition it makes,
    /// if any, then [`Game::advance`].
    #[inline(never)]
    fn finish_tolerant(
        &mut self,
        color: Color,
        mv: Move,
        loc: Option<u16>,
        effect: MoveEffect,
        illegal: Option<Illegal>,
        left: u32,
    ) -> Played {
        let earlier = loc.and_then(|_| self.find_repeat(color, &effect).err());
        let illegal = illegal.or(earlier.map(|_| Illegal::Superko));
        self.advance(color, mv, loc, effect, illegal, earlier, left)
    }

    // --- internals -------------------------------------------------------------------------

    /// The situation key of a position with `to_move` to move under this ruleset.
    #[inline(always)]
    fn key(&self, hash: u64, to_move: Color) -> u64 {
        hash ^ self.player_keys[to_move.index()]
    }

    /// Whether two situations with these players to move can be equal under this ruleset.
    #[inline]
    fn same_player(&self, a: Color, b: Color) -> bool {
        self.ruleset.ko == KoRule::PositionalSuperko || a == b
    }

    /// The rules the board knows: off the board, occupied, suicide, ko. `Ok(None)` for a pass,
    /// else the move's location.
    #[inline(always)]
    fn board_check(&self, color: Color, mv: Move) -> Result<Option<u16>, Illegal> {
        let Move::Play(point) = mv else { return Ok(None) };
        let loc = self.board.loc(point).ok_or(Illegal::OffBoard)?;
        self.board.check_loc(color, loc, self.ruleset.suicide)?;
        Ok(Some(loc))
    }

    /// Under a superko rule: whether a move by `color` on the empty `loc` would recreate an
    /// earlier situation. Works on a copy, so that `&self` suffices (allocating only on a hash
    /// hit).
    fn would_repeat(&self, color: Color, loc: u16) -> bool {
        let next = color.opponent();
        let key = self.key(self.board.hash_after_loc(color, loc), next);
        let current_hit = self.current.key == key && self.same_player(self.to_move, next);
        if !current_hit && !self.history.contains_key(key) {
            return false;
        }
        let mut candidate = self.board.clone();
        candidate.play_forced_loc(color, loc);
        if current_hit && candidate.same_stones(&self.board) {
            return true;
        }
        let mut earlier = Board::new(self.board.size());
        find_equal(&self.history, self.ruleset.ko, key, &candidate, next, &mut earlier).is_some()
    }

    /// Under a superko rule, just after `color`'s move made `effect` on the board: `Err` with
    /// the earlier situation the new one repeats.
    #[inline(always)]
    fn find_repeat(&mut self, color: Color, effect: &MoveEffect) -> Result<(), Earlier> {
        if !self.ruleset.has_superko() {
            return Ok(());
        }
        let next = color.opponent();
        // Only a lone stone's suicide leaves the stones as they were.
        if effect.suicided == 1 && self.same_player(self.to_move, next) {
            return Err(Earlier::Current);
        }
        let key = self.key(self.board.hash(), next);
        if !self.history.may_contain(key, stones_on(&self.board)) {
            return Ok(());
        }
        match self.find_equal_now(key, next) {
            Some(number) => Err(Earlier::Filed(number)),
            None => Ok(()),
        }
    }

    /// The number of the situation filed under `key` that equals the board with `to_move` to
    /// move, if any: [`find_equal`] on the game's scratch board, with the snapshots brought up
    /// to date first.
    fn find_equal_now(&mut self, key: u64, to_move: Color) -> Option<u32> {
        let size = self.board.size();
        let earlier = self.scratch.get_or_insert_with(|| Box::new(Board::new(size)));
        self.history.take_snapshots(size, earlier);
        find_equal(&self.history, self.ruleset.ko, key, &self.board, to_move, earlier)
    }

    /// Moves the game on after the board has been changed (or not) by a move: turn, passes,
    /// end, history. `left` is the number the caller filed the situation before the move
    /// under.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn advance(
        &mut self,
        color: Color,
        mv: Move,
        executed: Option<u16>,
        effect: MoveEffect,
        illegal: Option<Illegal>,
        earlier: Option<Earlier>,
        left: u32,
    ) -> Played {
        let mut played =
            Played { illegal, out_of_turn: color != self.to_move, effect, ..Played::default() };
        if let Some(end) = self.end.take() {
            played.after_end = Some(end);
            self.consecutive_passes = 0;
        }
        let same_as = earlier.map(|earlier| match earlier {
            Earlier::Current => left,
            Earlier::Filed(number) => number,
        });
        played.recreates = same_as.map(|number| self.history.situation(number).move_number);
        self.moves += 1;
        self.to_move = color.opponent();
        match (mv, executed) {
            (Move::Pass, _) => {
                self.board.pass();
                self.consecutive_passes += 1;
                if self.consecutive_passes >= 2 {
                    self.end = Some(GameEnd::TwoPasses { at_move: self.moves });
                    played.ended_game = true;
                }
                if self.ruleset.ko == KoRule::Simple {
                    // A pass breaks a cycle (KataGo clears the history for no-result checks).
                    self.history.forget_situations();
                    self.cycle = None;
                }
            }
            (Move::Play(_), Some(loc)) => {
                self.consecutive_passes = 0;
                self.history.log(Change::Play { loc, color });
            }
            (Move::Play(_), None) => {
                // Off the board or on a stone: nothing was placed (see the module
                // documentation); the turn passes and the ko is lifted.
                self.consecutive_passes = 0;
                self.board.pass();
            }
        }
        self.new_situation();
        if matches!(mv, Move::Play(_)) && self.ruleset.ko == KoRule::Simple {
            played.recreates = self.count_repetition();
            if illegal.is_some() {
                // A cycle is made of legal moves: an illegal ko retake repeats the position
                // two moves back, which is a broken rule (reported as such), not a cycle.
                self.cycle = None;
            }
        }
        played
    }

    /// Makes the current board and player the current situation.
    #[inline(always)]
    fn new_situation(&mut self) {
        self.current = Current {
            key: self.key(self.board.hash(), self.to_move),
            count: 1,
            stones: stones_on(&self.board),
        };
    }

    /// Adds the current situation to the history; returns its number there.
    #[inline(always)]
    fn file_current(&mut self) -> u32 {
        let current = self.current;
        let situation = Situation {
            key: current.key,
            log_len: self.history.log_len(),
            move_number: self.moves,
            count: current.count,
            to_move: self.to_move,
        };
        self.history.file(situation, current.stones)
    }

    /// Under simple ko: counts the occurrences of the new situation since the history was last
    /// emptied, and starts, extends or ends the current cycle. Returns the move after which
    /// the situation last arose, if it is a repetition.
    fn count_repetition(&mut self) -> Option<u32> {
        let Current { key, stones, .. } = self.current;
        let equal = if self.history.may_contain(key, stones) {
            self.find_equal_now(key, self.to_move)
        } else {
            None
        };
        let Some(equal) = equal else {
            self.cycle = None;
            return None;
        };
        let earlier = self.history.situation(equal);
        self.current.count = earlier.count + 1;
        let count = self.current.count;
        let cycle = self.cycle.get_or_insert(Cycle {
            start: self.moves,
            recreates: earlier.move_number,
            last: self.moves,
            occurrences: count,
        });
        cycle.last = self.moves;
        cycle.occurrences = cycle.occurrences.max(count);
        Some(earlier.move_number)
    }
}

/// The number of stones on `board`, as a situation keeps it.
#[inline(always)]
fn stones_on(board: &Board) -> u16 {
    // At most 2,704 (52x52).
    (board.stone_count(Color::Black) + board.stone_count(Color::White)) as u16
}

/// The number of the newest situation filed in `history` under `key` that is `board` with
/// `to_move` to move, confirmed by rebuilding each candidate's position into `earlier` and comparing
/// stones.
fn find_equal(
    history: &History,
    ko: KoRule,
    key: u64,
    board: &Board,
    to_move: Color,
    earlier: &mut Board,
) -> Option<u32> {
    history.candidates(key).find(|&number| {
        let situation = history.situation(number);
        if ko != KoRule::PositionalSuperko && situation.to_move != to_move {
            return false;
        }
        history.rebuild(situation.log_len, board.size(), earlier);
        earlier.same_stones(board)
    })
}
