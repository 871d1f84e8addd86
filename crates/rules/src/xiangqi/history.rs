//! A game's history and the rules that need one: repetition, perpetual
//! check, perpetual chase and the natural-move limit.
//!
//! The rules, which chases count, where Fairy-Stockfish and the AXF rule
//! book differ, and which moves a verdict depends on are documented on
//! [`History`].

mod chase;

use chase::{Board, Points};

use super::fen::{Counters, Fen};
use super::key::PositionKey;
use super::position::{IllegalMove, Position};
use super::types::{Move, Side, Square};
use crate::{EndReason, Reason, Status};

/// What a history keeps about each position in it.
#[derive(Debug, Clone, Copy)]
struct Ply {
    /// The position's key.
    key: PositionKey,
    /// Whether the side to move is in check.
    check: bool,
    /// The pieces of the side to move that the move leading here chased.
    chased: Points,
    /// The move that led here (none for the history's start).
    last: Option<Move>,
    /// Plies since the last capture (Fairy-Stockfish's `rule50`).
    clock: u32,
}

/// The plies without capture after which the game is drawn, before the
/// allowance for checks: Fairy-Stockfish's `2 * nMoveRule - 1` with
/// `nMoveRule = 50`.
pub const MOVE_LIMIT_PLIES: u32 = 100;

/// How many times a position must occur for the repetition rules to
/// apply (Fairy-Stockfish's `nFoldRule`).
pub const REPETITIONS: u32 = 3;

/// A move of a list that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {index} of the history ({mv}) cannot be played: {error}", mv = error_move(error))]
pub struct HistoryError {
    /// The index of the move in the list, from 0.
    pub index: usize,
    /// Why it cannot be played.
    pub error: IllegalMove,
}

fn error_move(error: &IllegalMove) -> Move {
    match error {
        IllegalMove::NoPiece { mv }
        | IllegalMove::NotYourPiece { mv, .. }
        | IllegalMove::CannotReach { mv, .. }
        | IllegalMove::LeavesGeneralInCheck { mv, .. } => *mv,
    }
}

impl Reason for HistoryError {
    fn reason(&self) -> &'static str {
        "illegal-move"
    }
}

/// A start position with its FEN [`Counters`] and the moves played since:
/// what the repetition rules and the move limit judge.
///
/// A history is built at once ([`History::with_moves`]) or a move at a time
/// ([`History::push`]). It keeps, per ply, only a [`PositionKey`], whether
/// the side to move is in check, and which of its pieces the last move
/// chased, so [`History::verdict`] after every move of a long match costs a
/// walk over the plies since the last capture and one legal-move search.
///
/// # The rule set
///
/// The reference is Fairy-Stockfish's `xiangqi` variant (the rules
/// pychess-variants plays by), read from its source (`variant.cpp`:
/// `nFoldRule = 3`, `nMoveRule = 50`, `perpetualCheckIllegal = true`,
/// `chasingRule = AXF_CHASING`; `position.cpp`: `is_optional_game_end`,
/// `chased`) and checked against pyffish on the cases of
/// `tests/data/xiangqi_repetition.txt`. In the order [`History::verdict`]
/// applies them:
///
/// 1. **No legal move**: the side to move has lost ([`Position::status`]:
///    checkmate or stalemate). This comes first, so the move limit never
///    draws a mate.
/// 2. **Natural-move limit**: drawn ([`EndReason::MoveLimit`]) once the
///    halfmove clock — plies since the last capture, counting the start
///    FEN's clock; only a capture resets it — exceeds 99 plus an allowance
///    for checks. The allowance is Fairy-Stockfish's, which applies it
///    with its AXF chasing rules: once at least 20 plies have been played
///    in this history, the checks of each side since the
///    last capture are counted (positions with the side to move in check,
///    at even and at odd distance from the last), and the limit grows by 2
///    plies for each check beyond 10 of the side that gave more.
/// 3. **Repetition**: decided on the move that brings the current position
///    (same pieces on the same points, same side to move) round for the
///    third time among the positions since the last capture (and since the
///    history's start). Over the plies from the earliest of the three to
///    now:
///    - if every move of one side gave check and not every move of the
///      other did, the checking side loses ([`EndReason::PerpetualCheck`]);
///      if both checked throughout, it is a draw;
///    - otherwise, if one side chased the same enemy piece with every move
///      (the piece followed as it moves) and the other did not, the chasing
///      side loses ([`EndReason::PerpetualChase`]); both chasing is a draw;
///    - otherwise it is a draw ([`EndReason::Repetition`]).
///
///    Perpetual check outranks chase: a side that checks throughout loses
///    even against a side that chases throughout. The span differs a
///    little between the sides, as in Fairy-Stockfish: for the side that
///    made the last move the check test covers the positions from the
///    earliest occurrence to now, both included, and its chase must also
///    have been made by the move that produced the earliest occurrence
///    (unless that is the history's first position); for the other side
///    both tests cover its moves between the occurrences.
///
/// # What is a chase
///
/// A move chases an enemy piece (Fairy-Stockfish's `chased()`, ported
/// step by step in `history/chase.rs`) when, after it:
///
/// - the moved piece — never a general or a soldier — newly attacks it
///   (a chariot or cannon moving along a line is taken to keep the attacks
///   along that line), or a piece of the mover newly attacks it because the
///   move opened a horse's leg, an elephant's eye, a chariot's or cannon's
///   line, or gave a cannon a screen; and
/// - the attacked piece is not the general (that is check) nor a soldier
///   still on its own half; and
/// - either the attacker is weaker — a horse or cannon attacking a
///   chariot, an advisor or elephant attacking a chariot, cannon or horse —
///   or the piece has no real defender: no piece of its side attacks its
///   point with the attacker lifted off the board, pinned defenders (see
///   below) do not count, and a general alone does not defend a point it
///   could only take back on by facing the other general.
///
/// An attack on a piece of the attacker's own kind is an offer to
/// exchange, not a chase, unless the attacked piece is pinned; for a horse
/// with a piece diagonally next to it only a horse that attacks it back is
/// exempt. Pinned means standing alone between its general and an enemy
/// chariot, on the leg of an enemy horse aimed at the general, as one of
/// two pieces between its general and an enemy cannon, or as the only
/// piece of its side between the generals on the file of the mover's
/// general.
///
/// Two indirect threats are chases as well:
///
/// - **undermining**: the move pins a piece of the other side that was not
///   pinned before, and a piece that the pinned piece attacks (by its
///   unrestricted pattern: a soldier ahead and beside) is attacked by a
///   mover's piece that is not itself pinned to the mover's general — the
///   piece so attacked is chased (generals and soldiers before the river
///   excepted);
/// - **discovered-check threats**: a mover's piece that the move made the
///   single shield of the other general (or one of two before a cannon)
///   chases every enemy piece it attacks, and among those next to the
///   enemy general only the ones another mover's piece defends.
///
/// Not detected, so never a chase here: attacks by a general or soldier;
/// attacks that existed before the move (a piece that stays attacked is
/// chased only by moves that make an attack on it anew); threats of mate
/// or of winning material by a combination; attacks on a soldier before
/// the river; a chariot attacking a defended horse or cannon (or any piece
/// attacking a defended piece of equal or lower value); and mixed cycles
/// (a check on one move, a chase on the next; chasing two pieces in turn),
/// which are draws unless every move of one side checks, or every move of
/// one side chases one and the same piece.
///
/// # Where Fairy-Stockfish and the AXF rules differ
///
/// We follow Fairy-Stockfish everywhere. Its chase rules are a reading of
/// the Asian Xiangqi Federation's rule book (its own tests use the book's
/// diagrams); where a rule book would judge otherwise:
///
/// - **The move limit**: Fairy-Stockfish draws after 50 moves a side (100
///   plies) without a capture, with the check allowance above. Rule books
///   and servers set their own figure (this crate's documentation used to
///   name a 60-move rule) and count checks their own way; we use 100
///   plies. A soldier's advance does not reset the count here.
/// - **Mixed cycles**: the Chinese rules treat some mixed forcing cycles,
///   such as alternating check and chase ("one check, one chase"), as a
///   forbidden perpetual attack; Fairy-Stockfish and this module call them
///   draws unless one kind of forcing move fills the whole cycle. Chasing
///   two pieces in turn is a draw in the AXF book too (its rule 32,
///   diagrams 76–80).
/// - **Other threats**: a rule book's arbiter also weighs threats of mate
///   and other forcing moves that no local test sees; such cycles are
///   draws here.
/// - **Geometry kept from the reference**: for chase purposes an elephant
///   or advisor attacks as if the river and the palace did not hold it (an
///   elephant on its fifth rank "attacks" two points across the river),
///   and a newly pinned soldier is taken to defend the points beside it
///   even before the river.
/// - **When the verdict falls**: an arbiter rules once a forbidden cycle is
///   established; here, as in Fairy-Stockfish, the verdict falls on the
///   move that brings a position round for the third time.
///
/// # The window a verdict needs
///
/// The verdict after a move depends only on the plies since the last
/// capture, and on the capture itself (its chase counts in the cycle
/// tests), so on the position before the last capture and the moves from
/// the capture on: [`History::window_start`] says where that window
/// begins, and [`History::trimmed`] is the same history cut to it, whose
/// verdicts after any further moves are the same. A service can store just
/// that: the FEN before the last capture and the moves since. Starting
/// from the position *after* the capture instead loses the capture's
/// chase, which can change a chase verdict in rare cycles that begin right
/// after a capture.
#[derive(Debug, Clone)]
pub struct History {
    start: Position,
    start_counters: Counters,
    moves: Vec<Move>,
    /// One per position, the start's first.
    plies: Vec<Ply>,
    position: Position,
    counters: Counters,
    /// The position before the last capture, its counters, and the
    /// capture's index in `moves`; `None` while there was no capture.
    window: Option<(Position, Counters, usize)>,
}

impl History {
    /// A history of no moves yet from `start`, whose halfmove clock is
    /// `counters.halfmove_clock` (plies already played without capture).
    pub fn new(start: Position, counters: Counters) -> History {
        let ply = Ply {
            key: start.key(),
            check: start.is_check(),
            chased: 0,
            last: None,
            clock: counters.halfmove_clock,
        };
        History {
            position: start.clone(),
            start,
            start_counters: counters,
            moves: Vec::new(),
            plies: vec![ply],
            counters,
            window: None,
        }
    }

    /// The history of `moves` played from `start`.
    ///
    /// # Errors
    ///
    /// [`HistoryError`] with the index of the first move that is not legal
    /// where it is played.
    pub fn with_moves(
        start: Position,
        counters: Counters,
        moves: &[Move],
    ) -> Result<History, HistoryError> {
        let mut history = History::new(start, counters);
        history.moves.reserve(moves.len());
        history.plies.reserve(moves.len());
        for (index, &m) in moves.iter().enumerate() {
            history
                .push(m)
                .map_err(|error| HistoryError { index, error })?;
        }
        Ok(history)
    }

    /// Plays `m` at the end of the history.
    ///
    /// A history is a record: it takes a move even after the game has
    /// ended by [`History::verdict`], which a caller checks first.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when `m` is not legal in [`History::position`]; the
    /// history is left as it was.
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMove> {
        let next = self.position.play(m)?;
        let capture = self.position.piece_at(m.to).is_some();
        let chased = chase::chased(&Board::new(&self.position), &Board::new(&next), m, capture);
        if capture {
            self.window = Some((self.position.clone(), self.counters, self.moves.len()));
        }
        self.counters = self.counters.after(self.position.turn(), capture);
        self.plies.push(Ply {
            key: next.key(),
            check: next.is_check(),
            chased,
            last: Some(m),
            clock: self.counters.halfmove_clock,
        });
        self.moves.push(m);
        self.position = next;
        Ok(())
    }

    /// The position the history started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The counters of the start position.
    pub fn start_counters(&self) -> Counters {
        self.start_counters
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the last move.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The counters after the last move.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The position after the last move with its counters.
    pub fn fen(&self) -> Fen {
        Fen {
            position: self.position.clone(),
            counters: self.counters,
        }
    }

    /// The pieces of the side to move that the last move chased, by the
    /// definition in the [`History`] documentation (empty before the
    /// first move).
    pub fn chased_by_last_move(&self) -> Vec<Square> {
        chase::squares(self.last().chased).collect()
    }

    /// The index in [`History::moves`] where the moves the verdicts depend
    /// on begin: the last capture's, or 0 when no move captured.
    pub fn window_start(&self) -> usize {
        self.window.as_ref().map_or(0, |&(_, _, index)| index)
    }

    /// The same history from the position before the last capture: the
    /// same [`History::position`], and the same verdicts now and after any
    /// further moves, with fewer moves kept. A history without a capture
    /// is returned whole.
    pub fn trimmed(&self) -> History {
        let Some((start, counters, index)) = &self.window else {
            return self.clone();
        };
        let mut plies = Vec::with_capacity(self.plies.len() - index);
        plies.push(Ply {
            key: start.key(),
            check: start.is_check(),
            chased: 0,
            last: None,
            clock: counters.halfmove_clock,
        });
        plies.extend_from_slice(&self.plies[index + 1..]);
        History {
            start: start.clone(),
            start_counters: *counters,
            moves: self.moves[*index..].to_vec(),
            plies,
            position: self.position.clone(),
            counters: self.counters,
            window: Some((start.clone(), *counters, 0)),
        }
    }

    fn last(&self) -> &Ply {
        self.plies
            .last()
            .unwrap_or_else(|| unreachable!("a history holds its start"))
    }

    /// How the game stands after the last move: a side without a legal
    /// move has lost; else the move limit and then the repetition rules of
    /// the [`History`] documentation may end it.
    pub fn verdict(&self) -> Status<Side> {
        let status = self.position.status();
        if !status.is_ongoing() {
            return status;
        }
        if self.move_limit_reached() {
            return Status::Drawn {
                reason: EndReason::MoveLimit,
            };
        }
        self.repetition().unwrap_or(Status::Ongoing)
    }

    /// Plies since the start, Fairy-Stockfish's `pliesFromNull`.
    fn played(&self) -> usize {
        self.plies.len() - 1
    }

    /// How far back the repetition and check counts look: the plies since
    /// the last capture, within this history.
    fn reach(&self) -> usize {
        (self.last().clock as usize).min(self.played())
    }

    /// Fairy-Stockfish's n-move rule with the AXF check allowance.
    fn move_limit_reached(&self) -> bool {
        let clock = i64::from(self.last().clock);
        let limit = i64::from(MOVE_LIMIT_PLIES);
        if clock < limit {
            return false;
        }
        let n = self.played();
        let mut allowance = 0;
        if n >= 20 {
            let end = self.reach();
            let check = |k: usize| i64::from(self.plies[k].check);
            let mut them = check(n);
            let mut us = check(n - 1);
            let mut i = 2;
            while i < end {
                them += check(n - i);
                us += check(n - i - 1);
                i += 2;
            }
            allowance = 2 * (them.max(us) - 10).max(0);
        }
        clock - allowance >= limit
    }

    /// Fairy-Stockfish's n-fold repetition test, with its perpetual check
    /// and chase flags.
    fn repetition(&self) -> Option<Status<Side>> {
        let end = self.reach();
        if end < 4 {
            return None;
        }
        let n = self.played();
        let p = &self.plies;
        let now = &p[n];
        // "Them" made the last move, "us" is to move.
        let mut perpetual_them = now.check && p[n - 2].check;
        let mut perpetual_us = p[n - 1].check && p[n - 3].check;
        let mut chase_them = chase::undo(now.chased, p[n - 1].last) & p[n - 2].chased;
        let mut chase_us = chase::undo(p[n - 1].chased, p[n - 2].last) & p[n - 3].chased;
        let mut seen = 0;
        let mut i = 4;
        while i <= end {
            if i != n {
                chase_them = chase::undo(chase_them, p[n - i + 1].last) & p[n - i].chased;
            }
            let earlier = &p[n - i];
            perpetual_them &= earlier.check;
            if earlier.key == now.key {
                seen += 1;
                if seen + 1 >= REPETITIONS {
                    return Some(self.judge(perpetual_them, perpetual_us, chase_them, chase_us));
                }
            }
            if i < end {
                perpetual_us &= p[n - i - 1].check;
                chase_us = chase::undo(chase_us, p[n - i].last) & p[n - i - 1].chased;
            }
            i += 2;
        }
        None
    }

    /// The outcome of a repetition, given which side forced it how.
    fn judge(
        &self,
        perpetual_them: bool,
        perpetual_us: bool,
        chase_them: Points,
        chase_us: Points,
    ) -> Status<Side> {
        let us = self.position.turn();
        let lone = |them: bool, ours: bool, reason: EndReason| match (them, ours) {
            (true, false) => Some(Status::Won { winner: us, reason }),
            (false, true) => Some(Status::Won {
                winner: us.opponent(),
                reason,
            }),
            (true, true) | (false, false) => None,
        };
        let drawn = Status::Drawn {
            reason: EndReason::Repetition,
        };
        if perpetual_them || perpetual_us {
            return lone(perpetual_them, perpetual_us, EndReason::PerpetualCheck).unwrap_or(drawn);
        }
        lone(chase_them != 0, chase_us != 0, EndReason::PerpetualChase).unwrap_or(drawn)
    }
}

impl From<Fen> for History {
    /// A history of no moves from the FEN's position and counters.
    fn from(fen: Fen) -> History {
        History::new(fen.position, fen.counters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().expect("ICCS"))
            .collect()
    }

    #[test]
    fn horses_out_and_back_twice_draw_on_the_third_occurrence() {
        let cycle = moves("b0c2 b9c7 c2b0 c7b9");
        let mut h = History::new(Position::start(), Counters::default());
        for (i, &m) in cycle.iter().cycle().take(8).enumerate() {
            assert_eq!(h.verdict(), Status::Ongoing, "before ply {}", i + 1);
            h.push(m).expect("legal");
        }
        assert_eq!(
            h.verdict(),
            Status::Drawn {
                reason: EndReason::Repetition
            }
        );
        assert_eq!(h.counters().halfmove_clock, 8);
        assert_eq!(h.counters().fullmove_number, 5);
    }

    #[test]
    fn an_illegal_move_names_its_index() {
        let err = History::with_moves(Position::start(), Counters::default(), &moves("b0c2 b0c2"))
            .expect_err("b0 is empty");
        assert_eq!(err.index, 1);
        assert_eq!(err.reason(), "illegal-move");
        assert!(err.to_string().contains("b0c2"), "{err}");
    }
}
