//! Searches for qipan's five games: analysis of any position and a
//! computer opponent.
//!
//! One module per game, each on top of the `qipan-rules` move generators and
//! nothing else: no HTTP, no database, no threads of its own. What a search
//! may spend is a [`Limits`] the caller gives it (nodes for reproducible
//! answers, time for people, a stop flag for a service shutting down), and
//! every search is anytime: it keeps the best answer of the deepest
//! iteration it finished, so whatever stops it, it answers.
//!
//! A search with only a node limit is deterministic: the same position and
//! the same limits give the same lines, on every machine.
//!
//! The shared vocabulary lives here: [`Limits`] and the [`Budget`] a search
//! counts against them, [`Line`] and [`Analysis`] for what a search found,
//! [`Level`] for how strongly the computer plays.

#![deny(missing_docs)]

mod budget;
mod choice;
pub mod gomoku;
mod level;
mod mate;
pub mod quoridor;
pub mod tetris;
pub mod twenty48;
pub mod xiangqi;

pub use budget::{Budget, Limits};
pub use level::{Level, LevelError};

use std::time::Duration;

/// One line a search found: the moves it expects, best play on both sides,
/// and what it thinks of the position at the end of them, from the point of
/// view of the side to move at the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Line<M, S> {
    /// The principal variation; never empty in an [`Analysis`] of a
    /// position with a legal move, and its first move is legal there.
    pub pv: Vec<M>,
    /// The line's score, in the game's own unit.
    pub score: S,
}

/// What a search found, best line first.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis<M, S> {
    /// The lines, best first; as many as asked for when there are as many
    /// legal moves.
    pub lines: Vec<Line<M, S>>,
    /// The deepest iteration finished (plies for two-player games, moves of
    /// lookahead for 2048 and pieces for Tetris).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent (measured, never used to decide anything when only a node
    /// limit was given).
    pub elapsed: Duration,
}

impl<M, S> Analysis<M, S> {
    /// The first move of the best line, if any.
    pub fn best(&self) -> Option<&M> {
        self.lines.first().and_then(|l| l.pv.first())
    }
}
