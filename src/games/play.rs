//! Playing a batch of actions on any game's position: each action read in
//! the game's notations, checked against the side to move and the legal
//! actions, and the view of the position reached rendered once.

#[allow(clippy::wildcard_imports)]
use super::*;

/// One action of a batch, once played, as a match history keeps it.
#[derive(Debug, Clone)]
pub struct Ply {
    /// The action, in the game's canonical notation.
    pub action: String,
    /// The side that played it.
    pub side: AnyPlayer,
    /// The code before it.
    pub code_before: String,
    /// The code after it.
    pub code_after: String,
}

/// A batch played on a position.
#[derive(Debug)]
pub struct Played {
    /// The position reached.
    pub position: AnyPosition,
    /// Its canonical code.
    pub code: String,
    /// Its view, with what the last action reported.
    pub view: String,
    /// How many actions were played.
    pub count: usize,
    /// Each action with the codes around it, when the batch was recorded
    /// (empty otherwise: encoding every step costs, and only a match keeps
    /// them).
    pub plies: Vec<Ply>,
}

/// How a batch is played.
#[derive(Debug, Clone, Copy, Default)]
pub struct Batch {
    /// Every action must be this side's (a duel seat plays only its own).
    pub only: Option<AnyPlayer>,
    /// Keep every action with the codes around it (for a match history).
    pub record: bool,
}

/// Why a text is not an action to play here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionText {
    /// Not an action of the game in any notation it reads.
    Malformed {
        /// The rules' reason slug.
        reason: &'static str,
        /// What is wrong, for a person.
        detail: String,
    },
    /// An action of the game that names no legal action in this position.
    Illegal {
        /// The rules' reason slug.
        reason: &'static str,
        /// What is wrong, for a person.
        detail: String,
    },
}

/// Plays `actions` in order on `pos`.
///
/// # Errors
///
/// [`GameError::EmptyBatch`] or [`GameError::BatchTooLong`]; for the first
/// action that cannot be played, naming its index: `GameOver`,
/// `NotYourTurn`, `MalformedAction` or `IllegalAction` (with the legal
/// actions there).
pub fn play(
    pos: &AnyPosition,
    actions: &[String],
    batch: Batch,
    base: &str,
) -> Result<Played, GameError> {
    check_batch(actions)?;
    qipan_rules::with_position!(pos, p => play_batch(p, actions, batch, base))
}

/// Refuses a batch that is empty or longer than [`MAX_ACTIONS`]: what the
/// request says, checked before anything else is read.
///
/// # Errors
///
/// [`GameError::EmptyBatch`], [`GameError::BatchTooLong`].
pub fn check_batch(actions: &[String]) -> Result<(), GameError> {
    if actions.is_empty() {
        return Err(GameError::EmptyBatch);
    }
    if actions.len() > MAX_ACTIONS {
        return Err(GameError::BatchTooLong { len: actions.len() });
    }
    Ok(())
}

pub(super) fn play_batch<G: GameApi>(
    start: &G,
    actions: &[String],
    batch: Batch,
    base: &str,
) -> Result<Played, GameError> {
    let (state, trace, plies) = steps(start, actions, batch)?;
    let code = state.to_code();
    let view = render(&state, &code, base, trace.as_ref());
    Ok(Played {
        position: state.into(),
        code,
        view,
        count: actions.len(),
        plies,
    })
}

/// A batch played: the state reached, what its last action reported, and
/// the plies when the batch was recorded.
type Steps<G> = (G, Option<<G as Game>::Trace>, Vec<Ply>);

/// Plays `actions` in order on `start`, without rendering.
pub(super) fn steps<G: GameApi>(
    start: &G,
    actions: &[String],
    batch: Batch,
) -> Result<Steps<G>, GameError> {
    let mut state = start.clone();
    let mut plies = Vec::with_capacity(if batch.record { actions.len() } else { 0 });
    let mut trace = None;
    let mut before = if batch.record {
        state.to_code()
    } else {
        String::new()
    };
    for (index, text) in actions.iter().enumerate() {
        let status = state.status();
        if !matches!(status, qipan_rules::Status::Ongoing) {
            return Err(GameError::GameOver {
                index,
                action: text.clone(),
                outcome: StatusView::of(status, Player::as_str),
            });
        }
        let side = state.to_move();
        if let Some(seat) = batch.only.filter(|&seat| seat != side.into()) {
            return Err(GameError::NotYourTurn {
                index,
                to_move: side.into(),
                seat,
            });
        }
        let action: G::Action = match state.read_action(text) {
            Ok(a) => a,
            Err(ActionText::Malformed { reason, detail }) => {
                return Err(GameError::MalformedAction {
                    index,
                    action: text.clone(),
                    reason,
                    detail,
                    legal: legal_list(&state)?,
                })
            }
            Err(ActionText::Illegal { reason, detail }) => {
                return Err(GameError::IllegalAction {
                    index,
                    action: text.clone(),
                    reason,
                    detail,
                    legal: legal_list(&state)?,
                })
            }
        };
        let (next, t) = match state.play_traced(action) {
            Ok(next) => next,
            Err(e) => {
                return Err(GameError::IllegalAction {
                    index,
                    action: text.clone(),
                    reason: e.reason(),
                    detail: e.to_string(),
                    legal: legal_list(&state)?,
                })
            }
        };
        if batch.record {
            let after = next.to_code();
            plies.push(Ply {
                action: action.to_string(),
                side: side.into(),
                code_before: std::mem::replace(&mut before, after.clone()),
                code_after: after,
            });
        }
        trace = Some(t);
        state = next;
    }
    Ok((state, trace, plies))
}
