//! Analysis of any position, and the computer's move, for the HTTP edge.
//!
//! The searches are `qipan-engine`'s; this module decides what a request
//! may ask of them ([`Ask`]: the caps on time, nodes and lines), runs them
//! on their own bounded pool ([`pool::SearchPool`], so a search never takes
//! a thread that answers HTTP) and turns what they find into the wire's
//! shapes. Each game plugs in at one place, [`thinker`]: a game without a
//! search there is refused as `analysis-unavailable`.

pub mod pool;

use std::fmt::Display;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use qipan_engine::{Analysis, Level, Limits};
use qipan_rules::xiangqi::{Counters, History};
use qipan_rules::{AnyPosition, GameKind};

use crate::wire::analysis::{
    AnalysisQuery, AnalysisView, LineView, MoveQuery, MoveView, ScoreView,
};
use crate::wire::StatusView;

/// The longest search a request may ask for, in milliseconds.
pub const MAX_MS: u64 = 5_000;
/// The search time when a request names neither time nor nodes.
pub const DEFAULT_MS: u64 = 300;
/// The most lines a request may ask for.
pub const MAX_LINES: u64 = 10;
/// The most nodes a request may ask for.
pub const MAX_NODES: u64 = 5_000_000;
/// Nodes counted as one millisecond of a client's search budget, for a
/// search limited by nodes alone.
pub const NODES_PER_MS: u64 = 1_000;

/// Why an analysis or a move is not answered.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// A query parameter over its cap or out of its range.
    #[error("{field} is {given}, {rule}")]
    OutOfRange {
        /// The parameter.
        field: &'static str,
        /// What was given.
        given: u64,
        /// What it may be.
        rule: &'static str,
    },
    /// A required parameter is missing.
    #[error("{field} is required: {rule}")]
    Missing {
        /// The parameter.
        field: &'static str,
        /// What it may be.
        rule: &'static str,
    },
    /// The position is final: there is nothing to search.
    #[error("the game is over ({}): there is no move to search", .outcome.phrase())]
    Finished {
        /// How it ended.
        outcome: StatusView,
    },
    /// The game has no search yet.
    #[error("{game} has no search in this service yet; analysis and the computer's move are answered for {}", available())]
    Unavailable {
        /// The game.
        game: GameKind,
    },
    /// Every search thread is busy and the queue is full.
    #[error(
        "every search thread is busy and {queue} searches are waiting already; retry in a second"
    )]
    Busy {
        /// The queue's length.
        queue: usize,
    },
    /// The service is shutting down.
    #[error("the service is shutting down and takes no new search")]
    Closed,
}

/// What an analysis request asks for, its caps checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    /// At most this long.
    pub time: Duration,
    /// At most this many nodes (a reproducible answer).
    pub nodes: Option<u64>,
    /// This many lines, best first.
    pub lines: usize,
    /// What it costs the client's search budget, in milliseconds.
    pub cost: u64,
}

impl Ask {
    /// The caps of an analysis: `ms` at most [`MAX_MS`] (default
    /// [`DEFAULT_MS`]), `nodes` at most [`MAX_NODES`], `lines` 1 to
    /// [`MAX_LINES`] (default 1). A search limited by nodes alone may still
    /// take [`MAX_MS`] at most, and costs a millisecond per
    /// [`NODES_PER_MS`] nodes.
    ///
    /// # Errors
    ///
    /// [`AnalysisError::OutOfRange`] naming the parameter.
    pub fn analysis(q: &AnalysisQuery) -> Result<Ask, AnalysisError> {
        let ms = capped("ms", q.ms, 1, MAX_MS, "from 1 to 5000 (milliseconds)")?;
        let nodes = capped("nodes", q.nodes, 1, MAX_NODES, "from 1 to 5000000")?;
        let lines = capped("lines", q.lines, 1, MAX_LINES, "from 1 to 10")?.unwrap_or(1);
        let (time, cost) = match (ms, nodes) {
            (Some(ms), _) => (ms, ms),
            (None, Some(n)) => (MAX_MS, n.div_ceil(NODES_PER_MS)),
            (None, None) => (DEFAULT_MS, DEFAULT_MS),
        };
        Ok(Ask {
            time: Duration::from_millis(time),
            nodes,
            lines: lines as usize,
            cost,
        })
    }

    /// The engine's limits for this ask, stopped by `stop`.
    pub fn limits(&self, stop: &Arc<AtomicBool>) -> Limits {
        Limits {
            nodes: self.nodes,
            time: Some(self.time),
            depth: None,
            stop: Some(stop.clone()),
        }
    }
}

/// What a move request asks for, its caps checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveAsk {
    /// How strongly to play.
    pub level: Level,
    /// At most this long.
    pub time: Duration,
    /// The seed of a weakened level's choice.
    pub seed: u64,
}

impl MoveAsk {
    /// The caps of a move: `level` 1 to 10 (required), `ms` at most
    /// [`MAX_MS`] (default: 100 per level, a second at level 10); the seed
    /// is the query's, or one drawn from `code`, so a position asked twice
    /// at one level gets the same choice among near-best moves.
    ///
    /// # Errors
    ///
    /// [`AnalysisError::Missing`] or [`AnalysisError::OutOfRange`].
    pub fn new(q: &MoveQuery, code: &str) -> Result<MoveAsk, AnalysisError> {
        const LEVEL: &str = "from 1 (a beginner can win) to 10 (full strength)";
        let level = capped("level", q.level, 1, 10, LEVEL)?.ok_or(AnalysisError::Missing {
            field: "level",
            rule: LEVEL,
        })?;
        let level = Level::new(level as u8).map_err(|_| AnalysisError::OutOfRange {
            field: "level",
            given: level,
            rule: LEVEL,
        })?;
        let ms = capped("ms", q.ms, 1, MAX_MS, "from 1 to 5000 (milliseconds)")?
            .unwrap_or(100 * u64::from(level.get()));
        let seed = q
            .seed
            .unwrap_or_else(|| xxhash_rust::xxh3::xxh3_64(code.as_bytes()));
        Ok(MoveAsk {
            level,
            time: Duration::from_millis(ms),
            seed,
        })
    }

    /// What it costs the client's search budget, in milliseconds.
    pub fn cost(&self) -> u64 {
        self.time.as_millis() as u64
    }

    /// The engine's limits for this move, stopped by `stop`.
    pub fn limits(&self, stop: &Arc<AtomicBool>) -> Limits {
        Limits {
            nodes: None,
            time: Some(self.time),
            depth: None,
            stop: Some(stop.clone()),
        }
    }
}

/// `given` checked against `min..=max`.
fn capped(
    field: &'static str,
    given: Option<u64>,
    min: u64,
    max: u64,
    rule: &'static str,
) -> Result<Option<u64>, AnalysisError> {
    match given {
        Some(n) if !(min..=max).contains(&n) => Err(AnalysisError::OutOfRange {
            field,
            given: n,
            rule,
        }),
        other => Ok(other),
    }
}

/// A position to search: the position, and for xiangqi the line that led
/// to it (which the repetition rules judge).
#[derive(Debug, Clone)]
pub struct Subject {
    /// The position.
    pub position: AnyPosition,
    /// Xiangqi: the line since the last capture, ending at `position`.
    pub line: Option<History>,
}

impl Subject {
    /// How the game stands: by the line when there is one, else by the
    /// position.
    pub fn status(&self) -> StatusView {
        match &self.line {
            Some(history) => StatusView::of(
                crate::games::line::verdict(history),
                qipan_rules::AnyPlayer::as_str,
            ),
            None => StatusView::of(self.position.status(), qipan_rules::AnyPlayer::as_str),
        }
    }
}

/// A game's search over one position, as the service runs it.
pub trait Thinker: Send + 'static {
    /// Up to `lines` lines within `limits`, best first.
    fn analyse(&self, limits: &Limits, lines: usize) -> AnalysisView;
    /// The computer's move at `level`, chosen by `seed` among near-best
    /// moves when the level is weakened; `None` when there is none.
    fn choose(&self, level: Level, seed: u64, limits: &Limits) -> Option<Chosen>;
}

/// A move as the computer plays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// What the play endpoint takes.
    pub actions: Vec<String>,
    /// The move in the game's notation.
    pub notation: String,
}

/// The games [`thinker`] searches, for the `analysis-unavailable` detail.
pub const AVAILABLE: [GameKind; 5] = [
    GameKind::Xiangqi,
    GameKind::Gomoku,
    GameKind::Twenty48,
    GameKind::Quoridor,
    GameKind::Tetris,
];

fn available() -> String {
    AVAILABLE.map(GameKind::as_str).join(", ")
}

/// The search for `subject`'s game: the one place where a game plugs in.
/// A game is added by a `Thinker` for its position (usually a few lines
/// over its engine module, like [`Gomoku`]) and its arm here.
///
/// # Errors
///
/// [`AnalysisError::Finished`] for a final position;
/// [`AnalysisError::Unavailable`] for a game with no search.
pub fn thinker(subject: Subject) -> Result<Box<dyn Thinker>, AnalysisError> {
    let status = subject.status();
    if status != StatusView::ONGOING {
        return Err(AnalysisError::Finished { outcome: status });
    }
    match subject.position {
        AnyPosition::Gomoku(p) => Ok(Box::new(Gomoku(p))),
        AnyPosition::Quoridor(p) => Ok(Box::new(Quoridor(p))),
        AnyPosition::Xiangqi(p) => Ok(Box::new(Xiangqi(
            subject
                .line
                .unwrap_or_else(|| History::new(p, Counters::default())),
        ))),
        AnyPosition::Twenty48(p) => Ok(Box::new(Twenty48(p))),
        AnyPosition::Tetris(p) => Ok(Box::new(Tetris(p))),
    }
}

/// An engine's analysis as the wire shows it: each move of a two-player
/// game is one action, written in its notation.
fn view<M: Display, S: Copy>(a: &Analysis<M, S>, score: impl Fn(S) -> ScoreView) -> AnalysisView {
    AnalysisView {
        lines: a
            .lines
            .iter()
            .filter_map(|l| {
                let first = l.pv.first()?;
                Some(LineView {
                    actions: vec![first.to_string()],
                    score: score(l.score),
                    pv: l.pv.iter().map(ToString::to_string).collect(),
                })
            })
            .collect(),
        depth: a.depth,
        nodes: a.nodes,
        ms: a.elapsed.as_millis() as u64,
    }
}

/// A move of a two-player game: one action, in its notation.
fn one_action<M: Display>(m: M) -> Chosen {
    let notation = m.to_string();
    Chosen {
        actions: vec![notation.clone()],
        notation,
    }
}

/// Gomoku and Renju: threat-space search, then alpha-beta.
struct Gomoku(qipan_rules::gomoku::Position);

impl Thinker for Gomoku {
    fn analyse(&self, limits: &Limits, lines: usize) -> AnalysisView {
        use qipan_engine::gomoku::{analyse, Score};
        view(&analyse(&self.0, limits, lines), |s| match s {
            Score::Win(n) => ScoreView::ForcedWin(n),
            Score::Loss(n) => ScoreView::ForcedLoss(n),
            Score::Eval(e) => ScoreView::Evaluation(e),
        })
    }

    fn choose(&self, level: Level, seed: u64, limits: &Limits) -> Option<Chosen> {
        qipan_engine::gomoku::choose(&self.0, level, seed, limits).map(one_action)
    }
}

/// Quoridor: alpha-beta over the race.
struct Quoridor(qipan_rules::quoridor::Position);

impl Thinker for Quoridor {
    fn analyse(&self, limits: &Limits, lines: usize) -> AnalysisView {
        use qipan_engine::quoridor::{analyse, Score};
        view(&analyse(&self.0, limits, lines), |s| match s {
            Score::Win(n) => ScoreView::ForcedWin(n),
            Score::Loss(n) => ScoreView::ForcedLoss(n),
            Score::Eval(e) => ScoreView::PathDifference(e),
        })
    }

    fn choose(&self, level: Level, seed: u64, limits: &Limits) -> Option<Chosen> {
        qipan_engine::quoridor::choose(&self.0, level, seed, limits).map(one_action)
    }
}

/// Xiangqi: principal variation search on the line, so that repetitions
/// are judged as the rules judge them.
struct Xiangqi(History);

impl Thinker for Xiangqi {
    fn analyse(&self, limits: &Limits, lines: usize) -> AnalysisView {
        use qipan_engine::xiangqi::{analyse, Score};
        view(&analyse(&self.0, limits, lines), |s| match s {
            Score::Centipawns(c) => ScoreView::Centipawns(c),
            Score::Mate(n) => ScoreView::Mate(n),
        })
    }

    fn choose(&self, level: Level, seed: u64, limits: &Limits) -> Option<Chosen> {
        qipan_engine::xiangqi::choose(&self.0, level, seed, limits).map(one_action)
    }
}

/// 2048: expectimax over the spawns.
struct Twenty48(qipan_rules::twenty48::Position);

impl Thinker for Twenty48 {
    fn analyse(&self, limits: &Limits, lines: usize) -> AnalysisView {
        use qipan_engine::twenty48::{analyse, Score};
        view(&analyse(&self.0, limits, lines), |s| match s {
            Score::Expected(e) => ScoreView::Expected(e as f64),
        })
    }

    fn choose(&self, level: Level, seed: u64, limits: &Limits) -> Option<Chosen> {
        qipan_engine::twenty48::choose(&self.0, level, seed, limits).map(one_action)
    }
}

/// Tetris: a beam over the placements of the active piece and the queue.
/// A placement is played by its input path, ending in `hard`.
struct Tetris(qipan_rules::tetris::Position);

/// A placement's input path, as the play endpoint takes it.
fn inputs(p: &qipan_rules::tetris::Placement) -> Vec<String> {
    p.actions.iter().map(ToString::to_string).collect()
}

impl Thinker for Tetris {
    fn analyse(&self, limits: &Limits, lines: usize) -> AnalysisView {
        use qipan_engine::tetris::{analyse, Score};
        let a = analyse(&self.0, limits, lines);
        AnalysisView {
            lines: a
                .lines
                .iter()
                .filter_map(|l| {
                    let first = l.pv.first()?;
                    Some(LineView {
                        actions: inputs(first),
                        score: match l.score {
                            Score::Eval(e) => ScoreView::Evaluation(e),
                            // Locking there ends the game: lost on this move.
                            Score::TopsOut => ScoreView::ForcedLoss(1),
                        },
                        pv: l.pv.iter().map(|p| inputs(p).join(" ")).collect(),
                    })
                })
                .collect(),
            depth: a.depth,
            nodes: a.nodes,
            ms: a.elapsed.as_millis() as u64,
        }
    }

    fn choose(&self, level: Level, seed: u64, limits: &Limits) -> Option<Chosen> {
        qipan_engine::tetris::choose(&self.0, level, seed, limits).map(|p| {
            let actions = inputs(&p);
            Chosen {
                notation: actions.join(" "),
                actions,
            }
        })
    }
}

/// A move answer, timed.
pub fn move_view(chosen: Chosen, level: Level, elapsed: Duration) -> MoveView {
    MoveView {
        actions: chosen.actions,
        notation: chosen.notation,
        level: level.get(),
        ms: elapsed.as_millis() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(ms: Option<u64>, nodes: Option<u64>, lines: Option<u64>) -> Result<Ask, AnalysisError> {
        Ask::analysis(&AnalysisQuery { ms, nodes, lines })
    }

    #[test]
    fn caps_name_the_parameter_over_them() {
        let field = |r: Result<Ask, AnalysisError>| match r {
            Err(AnalysisError::OutOfRange { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field(ask(Some(5001), None, None)), "ms");
        assert_eq!(field(ask(Some(0), None, None)), "ms");
        assert_eq!(field(ask(None, Some(MAX_NODES + 1), None)), "nodes");
        assert_eq!(field(ask(None, None, Some(11))), "lines");
        assert_eq!(field(ask(None, None, Some(0))), "lines");
    }

    #[test]
    fn defaults_and_costs() {
        let a = ask(None, None, None).unwrap();
        assert_eq!(
            (a.time.as_millis(), a.nodes, a.lines, a.cost),
            (300, None, 1, 300)
        );
        let a = ask(None, Some(2_500), Some(3)).unwrap();
        assert_eq!(
            (a.time.as_millis(), a.nodes, a.lines, a.cost),
            (5000, Some(2_500), 3, 3)
        );
        let a = ask(Some(40), Some(2_500), None).unwrap();
        assert_eq!((a.time.as_millis(), a.cost), (40, 40));
    }

    #[test]
    fn a_move_needs_a_level_and_draws_its_seed_from_the_code() {
        let q = |level, ms| MoveQuery {
            level,
            ms,
            seed: None,
        };
        assert!(matches!(
            MoveAsk::new(&q(None, None), "x"),
            Err(AnalysisError::Missing { field: "level", .. })
        ));
        assert!(matches!(
            MoveAsk::new(&q(Some(11), None), "x"),
            Err(AnalysisError::OutOfRange { field: "level", .. })
        ));
        let a = MoveAsk::new(&q(Some(3), None), "abc").unwrap();
        assert_eq!(a.time.as_millis(), 300);
        assert_eq!(
            a.seed,
            MoveAsk::new(&q(Some(9), Some(5)), "abc").unwrap().seed
        );
        assert_ne!(a.seed, MoveAsk::new(&q(Some(3), None), "abd").unwrap().seed);
    }
}
