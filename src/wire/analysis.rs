//! The shapes of the analysis endpoints: their queries and bodies, the
//! lines a search answers with, and the computer's move.

use serde::{Deserialize, Serialize};

use super::state::LineBody;

/// Query of `GET|POST /v1/{game}/{code}/analysis`. Every member is
/// optional; the caps are checked by `crate::analysis::Ask::analysis`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    /// Milliseconds the search may take.
    pub ms: Option<u64>,
    /// Nodes the search may visit (a reproducible answer).
    pub nodes: Option<u64>,
    /// How many lines to answer, best first.
    pub lines: Option<u64>,
}

/// Query of `GET|POST /v1/{game}/{code}/move`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveQuery {
    /// How strongly the computer plays, 1 to 10.
    pub level: Option<u64>,
    /// Milliseconds the computer may think (the level's own time when
    /// absent).
    pub ms: Option<u64>,
    /// The seed of a weakened level's choice (from the code when absent).
    pub seed: Option<u64>,
}

/// Body of `POST /v1/{game}/{code}/analysis` and `POST …/move`: the line
/// that led to the code, as the play endpoint takes it (xiangqi only), so
/// the search judges repetitions.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    /// The line since the last capture (xiangqi only).
    pub history: Option<LineBody>,
}

/// What a line is worth to the side to move, in the game's own unit:
/// `{"kind": "centipawns", "value": 35}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum ScoreView {
    /// Xiangqi: the material and position balance, in hundredths of a
    /// pawn (a soldier).
    Centipawns(i32),
    /// Xiangqi: mate in this many moves of the side to move; negative when
    /// the side to move is mated.
    Mate(i32),
    /// A forced win: the side to move wins on its move this many plies
    /// from now (1 = at once).
    ForcedWin(u32),
    /// A forced loss: the opponent wins this many plies from now.
    ForcedLoss(u32),
    /// The game's position evaluation (gomoku's line patterns, tetris's
    /// field), positive when the side to move stands better.
    Evaluation(i32),
    /// Quoridor: the opponent's shortest path less one's own, in
    /// hundredths of a step, counting the move and the walls in hand.
    PathDifference(i32),
    /// 2048: the score the search expects to gain over its horizon.
    Expected(f64),
}

/// One line of an analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineView {
    /// What `POST /v1/{game}/{code}/play` takes to play the line's first
    /// move.
    pub actions: Vec<String>,
    /// The line's worth to the side to move.
    pub score: ScoreView,
    /// The line's moves, in the game's notation, best play on both sides.
    pub pv: Vec<String>,
}

/// Body of a `200` from `…/analysis`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalysisView {
    /// The lines, best first.
    pub lines: Vec<LineView>,
    /// The deepest iteration finished (plies; moves for 2048, pieces for
    /// tetris).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub ms: u64,
}

/// Body of a `200` from `…/move`: the computer's move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveView {
    /// What `POST /v1/{game}/{code}/play` takes to play it.
    pub actions: Vec<String>,
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The level it was chosen at.
    pub level: u8,
    /// Milliseconds the choice took.
    pub ms: u64,
}
