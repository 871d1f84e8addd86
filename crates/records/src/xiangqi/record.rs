//! The record every format reads into: headers, a start, the moves.

use std::fmt;

use qipan_rules::xiangqi::{Counters, Fen, IllegalMove, Move, Position, Role, Side};
use qipan_rules::Reason;

/// The piece of each of a side's 16 slots in XQF's and DhtmlXQ's start
/// layouts: 车马相仕帅仕相马车炮炮兵兵兵兵兵, red's 16 then black's.
pub(crate) const SLOT_ROLES: [Role; 16] = [
    Role::Chariot,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::General,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Cannon,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
];

/// How a game ended, as PGN's `Result` writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Outcome {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or the game goes on.
    #[default]
    Unknown,
}

impl Outcome {
    /// The PGN result token.
    pub fn as_pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// The outcome of a PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn from_pgn(token: &str) -> Option<Outcome> {
        match token {
            "1-0" => Some(Outcome::RedWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" | "½-½" => Some(Outcome::Draw),
            "*" => Some(Outcome::Unknown),
            _ => None,
        }
    }

    /// The winner, if the game has one.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::RedWins => Some(Side::Red),
            Outcome::BlackWins => Some(Side::Black),
            Outcome::Draw | Outcome::Unknown => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// What a record says about its game besides the moves. Every field is
/// optional text except the outcome; `other` keeps any further PGN tag, in
/// the order read, so that nothing a file carries is lost.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Headers {
    /// The event (PGN `Event`, XQF 比赛名称 or 标题, DhtmlXQ `event`).
    pub event: Option<String>,
    /// Where it was played.
    pub site: Option<String>,
    /// When, as the file writes it (PGN: `yyyy.mm.dd`).
    pub date: Option<String>,
    /// The round.
    pub round: Option<String>,
    /// Red's player.
    pub red: Option<String>,
    /// Red's team.
    pub red_team: Option<String>,
    /// Black's player.
    pub black: Option<String>,
    /// Black's team.
    pub black_team: Option<String>,
    /// The result.
    pub result: Outcome,
    /// How the game ended, in words (PGN `Termination`): resignation,
    /// checkmate, time…
    pub termination: Option<String>,
    /// The time control (PGN `TimeControl`, XQF 用时规则).
    pub time_control: Option<String>,
    /// The ECCO code, `A00`–`E99`.
    pub ecco: Option<String>,
    /// The opening's name.
    pub opening: Option<String>,
    /// The variation's name.
    pub variation: Option<String>,
    /// Every other tag, name and value, in the order read.
    pub other: Vec<(String, String)>,
}

/// One move of a line, the comment after it, and the lines played instead
/// of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// The comment after the move.
    pub comment: Option<String>,
    /// Lines that replace this move: each starts from the position before
    /// it.
    pub variations: Vec<Vec<Step>>,
}

impl Step {
    /// A move with no comment and no variation.
    pub fn new(mv: Move) -> Step {
        Step {
            mv,
            comment: None,
            variations: Vec::new(),
        }
    }
}

/// A game record: headers, a start position with its move counters, a
/// comment before the first move, and the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Event, players, result, opening…
    pub headers: Headers,
    /// Where the game starts (the standard start, or a handicap or
    /// composed position) and its move number.
    pub start: Fen,
    /// The comment before the first move.
    pub comment: Option<String>,
    /// The main line.
    pub moves: Vec<Step>,
}

/// A move of a record that its position does not allow (for a record built
/// by hand and handed to a writer).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} of the line that starts at ply {line_start}: {error}")]
pub struct RecordError {
    /// Where the line holding the move starts (1 = the first ply of the
    /// game), counted along the main line.
    pub line_start: usize,
    /// The move's ply, counted from the record's start (1 = the first).
    pub ply: usize,
    /// Why the move is refused.
    pub error: IllegalMove,
}

impl Reason for RecordError {
    fn reason(&self) -> &'static str {
        self.error.reason()
    }
}

impl Record {
    /// An empty record of a game from `start`, counters `0 1`.
    pub fn new(start: Position) -> Record {
        Record {
            headers: Headers::default(),
            start: Fen {
                position: start,
                counters: Counters::default(),
            },
            comment: None,
            moves: Vec::new(),
        }
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> Vec<Move> {
        self.moves.iter().map(|s| s.mv).collect()
    }

    /// Every position of the main line, the start first.
    ///
    /// # Errors
    ///
    /// [`RecordError`] at the first move its position does not allow.
    pub fn positions(&self) -> Result<Vec<Position>, RecordError> {
        let mut out = vec![self.start.position.clone()];
        for (i, step) in self.moves.iter().enumerate() {
            let pos = out.last().unwrap_or(&self.start.position);
            let next = pos.play(step.mv).map_err(|error| RecordError {
                line_start: 1,
                ply: i + 1,
                error,
            })?;
            out.push(next);
        }
        Ok(out)
    }

    /// The position at the end of the main line.
    ///
    /// # Errors
    ///
    /// As [`Record::positions`].
    pub fn end(&self) -> Result<Position, RecordError> {
        let mut pos = self.start.position.clone();
        for (i, step) in self.moves.iter().enumerate() {
            pos = pos.play(step.mv).map_err(|error| RecordError {
                line_start: 1,
                ply: i + 1,
                error,
            })?;
        }
        Ok(pos)
    }

    /// Checks every move of every line, variations included.
    ///
    /// # Errors
    ///
    /// [`RecordError`] at the first move its position does not allow.
    pub fn check(&self) -> Result<(), RecordError> {
        check_line(&self.start.position, &self.moves, 1, 1)
    }

    /// The ECCO opening of the main line, `None` when the game does not
    /// start from the standard position.
    pub fn opening(&self) -> Option<super::ecco::Opening> {
        super::ecco::classify(&self.start.position, &self.main_line())
    }

    /// The fullmove number and side of the ply numbered `ply` (1 = the
    /// record's first ply), from the start's counters.
    pub fn number_of(&self, ply: usize) -> (u32, Side) {
        number_of(&self.start, ply)
    }
}

/// The fullmove number and side of a ply counted from a start (1 = its
/// first ply).
pub(crate) fn number_of(start: &Fen, ply: usize) -> (u32, Side) {
    let first = start.position.turn();
    // Plies counted from a red move at the start's fullmove number.
    let offset = ply.saturating_sub(1) + usize::from(first == Side::Black);
    let number = start
        .counters
        .fullmove_number
        .saturating_add(u32::try_from(offset / 2).unwrap_or(u32::MAX));
    let side = if offset.is_multiple_of(2) {
        Side::Red
    } else {
        Side::Black
    };
    (number, side)
}

fn check_line(
    start: &Position,
    line: &[Step],
    line_start: usize,
    first_ply: usize,
) -> Result<(), RecordError> {
    let mut pos = start.clone();
    for (i, step) in line.iter().enumerate() {
        let ply = first_ply + i;
        for variation in &step.variations {
            check_line(&pos, variation, ply, ply)?;
        }
        pos = pos.play(step.mv).map_err(|error| RecordError {
            line_start,
            ply,
            error,
        })?;
    }
    Ok(())
}

/// A comment as every reader keeps it: line breaks as `\n`, no
/// surrounding whitespace, `None` when nothing is left.
pub(crate) fn comment(text: &str) -> Option<String> {
    let t = text.replace("\r\n", "\n").replace('\r', "\n");
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// A header value as every reader keeps it: one line, trimmed.
pub(crate) fn header(text: &str) -> Option<String> {
    let t = text.replace("\r\n", " ").replace(['\r', '\n'], " ");
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// A move tree while a reader builds it: node 0 is the start, node `i + 1`
/// is `moves[i]`, and each node lists the nodes that follow it, the main
/// continuation first and the moves played instead of it after.
pub(crate) struct Tree {
    pub(crate) moves: Vec<(Move, Option<String>)>,
    pub(crate) children: Vec<Vec<usize>>,
}

impl Tree {
    /// The line that continues from node `from`: its first child, that
    /// child's first child and so on; every other child becomes a
    /// variation of the first. Recursion goes only as deep as variations
    /// nest, which the readers bound.
    pub(crate) fn lines(&self, from: usize) -> Vec<Step> {
        let mut out = Vec::new();
        let mut at = from;
        while let Some((&main, others)) = self.children.get(at).and_then(|c| c.split_first()) {
            let (mv, comment) = self.moves[main - 1].clone();
            out.push(Step {
                mv,
                comment,
                variations: others.iter().map(|&o| self.variation(o)).collect(),
            });
            at = main;
        }
        out
    }

    /// The line that starts with node `first`.
    fn variation(&self, first: usize) -> Vec<Step> {
        let (mv, comment) = self.moves[first - 1].clone();
        let mut line = vec![Step {
            mv,
            comment,
            variations: Vec::new(),
        }];
        line.extend(self.lines(first));
        line
    }
}
