//! The bridge between the rules crate and HTTP: one module per game turns
//! its states into views and its errors into problems; the functions here do
//! what every game shares (decode, play a batch, import, export) once.

use qipan_rules::{Game, GameKind, Status};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::problem::{ApiError, Problem, ProblemKind};
use crate::wire::{GameInfo, StartQuery, StatusView};

pub mod gomoku;
pub mod quoridor;
pub mod tetris;
pub mod twenty48;
pub mod xiangqi;

/// The most actions one play request may carry.
pub const MAX_ACTIONS: usize = 1000;

/// What the service needs of a game beyond its rules.
pub trait GameApi {
    /// The rules' state.
    type State: Game;
    /// One legal action as listed in views and problems.
    type ActionView: Serialize;

    /// Which game this is.
    const KIND: GameKind;

    /// The game's entry in `GET /v1/games`.
    fn info() -> GameInfo;

    /// The start state, and whether it is a pure function of the query
    /// (not when a random seed had to be drawn).
    ///
    /// # Errors
    ///
    /// A problem when the variant, size or seed is not accepted.
    fn start(query: &StartQuery) -> Result<(Self::State, bool), Problem>;

    /// Reads a state code.
    ///
    /// # Errors
    ///
    /// An `invalid-code` problem naming what is wrong.
    fn decode(code: &str) -> Result<Self::State, Problem>;

    /// The canonical code of a state.
    fn encode(state: &Self::State) -> String;

    /// Reads one action in the game's notation (its `FromStr`).
    ///
    /// # Errors
    ///
    /// A sentence saying what is wrong with the text.
    fn parse_action(text: &str) -> Result<<Self::State as Game>::Action, String>
    where
        <<Self::State as Game>::Action as std::str::FromStr>::Err: std::fmt::Display,
    {
        text.parse()
            .map_err(|e: <<Self::State as Game>::Action as std::str::FromStr>::Err| e.to_string())
    }

    /// Every legal action with its notations.
    fn action_views(state: &Self::State) -> Vec<Self::ActionView>;

    /// The full state view, serialized. `last` is the step that led here
    /// when the view answers a play request (for what a frontend animates).
    fn view(
        state: &Self::State,
        code: String,
        url: String,
        last: Option<&Step<Self::State>>,
    ) -> Result<Vec<u8>, serde_json::Error>;

    /// Reads the body of `POST /v1/{game}/import`.
    ///
    /// # Errors
    ///
    /// A problem naming the field, format or text at fault.
    fn import(body: &Value) -> Result<Self::State, Problem>;

    /// Writes a state in a readable format: the members of the export view
    /// beyond `game`, `code` and `format`.
    ///
    /// # Errors
    ///
    /// `unsupported-format` when the game does not write `format`.
    fn export(state: &Self::State, format: &str) -> Result<Map<String, Value>, Problem>;
}

/// The last step of a play request: the state before it and the action.
pub struct Step<S: Game> {
    /// The state the action was played on.
    pub before: S,
    /// The action.
    pub action: S::Action,
}

/// The share URL of a state.
pub fn share_url(base: &str, game: GameKind, code: &str) -> String {
    format!("{base}/v1/{game}/{code}")
}

/// Calls a generic function with the adapter of `kind`: the one place that
/// lists every game.
macro_rules! dispatch {
    ($kind:expr, $f:ident($($arg:expr),*)) => {
        match $kind {
            GameKind::Xiangqi => $f::<xiangqi::Xiangqi>($($arg),*),
            GameKind::Gomoku => $f::<gomoku::Gomoku>($($arg),*),
            GameKind::Twenty48 => $f::<twenty48::Twenty48>($($arg),*),
            GameKind::Quoridor => $f::<quoridor::Quoridor>($($arg),*),
            GameKind::Tetris => $f::<tetris::Tetris>($($arg),*),
        }
    };
}

fn render<G: GameApi>(
    state: &G::State,
    base: &str,
    last: Option<&Step<G::State>>,
) -> Result<Vec<u8>, ApiError> {
    let code = G::encode(state);
    let url = share_url(base, G::KIND, &code);
    G::view(state, code, url, last).map_err(|e| ApiError::Internal(e.into()))
}

/// Body of `GET /v1/games`.
pub fn list() -> Value {
    fn info<G: GameApi>() -> GameInfo {
        G::info()
    }
    let games: Vec<GameInfo> = GameKind::ALL
        .into_iter()
        .map(|kind| dispatch!(kind, info()))
        .collect();
    serde_json::json!({ "games": games })
}

/// The view of the start state, and whether it may be cached (not when a
/// random seed was drawn).
///
/// # Errors
///
/// The game's problem for a refused variant, size or seed.
pub fn start(kind: GameKind, query: &StartQuery, base: &str) -> Result<(Vec<u8>, bool), ApiError> {
    fn go<G: GameApi>(query: &StartQuery, base: &str) -> Result<(Vec<u8>, bool), ApiError> {
        let (state, pure) = G::start(query)?;
        Ok((render::<G>(&state, base, None)?, pure))
    }
    dispatch!(kind, go(query, base))
}

/// The view of a code.
///
/// # Errors
///
/// `invalid-code` for a code that does not decode.
pub fn read(kind: GameKind, code: &str, base: &str) -> Result<Vec<u8>, ApiError> {
    fn go<G: GameApi>(code: &str, base: &str) -> Result<Vec<u8>, ApiError> {
        render::<G>(&G::decode(code)?, base, None)
    }
    dispatch!(kind, go(code, base))
}

/// Plays a batch of actions on a state; returns the resulting state and the
/// last step.
///
/// # Errors
///
/// `invalid-field` for an empty or oversized batch; `game-over`,
/// `malformed-action` or `illegal-action` naming the index of the first
/// action that cannot be played, with the legal actions at that point.
pub fn play_batch<G: GameApi>(
    state: G::State,
    actions: &[String],
) -> Result<(G::State, Step<G::State>), Problem> {
    play_each::<G>(state, actions, |_, _| Ok(()), |_, _, _| ())
}

/// [`play_batch`] with two hooks: `check` sees each state before its action
/// is read (and may refuse it), `record` sees each step once played.
///
/// # Errors
///
/// As [`play_batch`], and whatever `check` refuses.
pub fn play_each<G: GameApi>(
    mut state: G::State,
    actions: &[String],
    mut check: impl FnMut(usize, &G::State) -> Result<(), Problem>,
    mut record: impl FnMut(&G::State, &<G::State as Game>::Action, &G::State),
) -> Result<(G::State, Step<G::State>), Problem> {
    if actions.is_empty() {
        return Err(Problem::new(
            ProblemKind::InvalidField,
            "`actions` must hold at least one action",
        )
        .with("field", "actions"));
    }
    if actions.len() > MAX_ACTIONS {
        return Err(Problem::new(
            ProblemKind::InvalidField,
            format!(
                "`actions` holds {} actions, at most {MAX_ACTIONS} are accepted",
                actions.len()
            ),
        )
        .with("field", "actions"));
    }
    let mut last = None;
    for (index, text) in actions.iter().enumerate() {
        let status = state.status();
        if status != Status::Ongoing {
            return Err(game_over(status.into(), index, text));
        }
        check(index, &state)?;
        let action = match G::parse_action(text) {
            Ok(a) => a,
            Err(why) => {
                return Err(Problem::new(
                    ProblemKind::MalformedAction,
                    format!("action {index}: {why}"),
                )
                .with("index", index)
                .with("action", text)
                .with("legal_actions", G::action_views(&state)))
            }
        };
        let next = match state.play(action) {
            Ok(next) => next,
            Err(e) => {
                return Err(Problem::new(
                    ProblemKind::IllegalAction,
                    format!("action {index} is illegal: {}", e.reason),
                )
                .with("index", index)
                .with("action", text)
                .with("legal_actions", G::action_views(&state)))
            }
        };
        record(&state, &action, &next);
        last = Some(Step {
            before: std::mem::replace(&mut state, next),
            action,
        });
    }
    // At least one action was played: `actions` is not empty.
    let last = last.ok_or_else(|| {
        Problem::new(ProblemKind::InvalidField, "no action").with("field", "actions")
    })?;
    Ok((state, last))
}

/// The `game-over` problem for action `index` (`text`) of a request.
pub fn game_over(status: StatusView, index: usize, text: &str) -> Problem {
    Problem::new(
        ProblemKind::GameOver,
        format!(
            "action {index} ({text:?}) cannot be played: the game is over ({}{})",
            status.reason.unwrap_or(status.state),
            status
                .winner
                .as_deref()
                .map(|w| format!(", {w} wins"))
                .unwrap_or_default()
        ),
    )
    .with("index", index)
    .with("action", text)
    .with("outcome", status)
}

/// What the match layer keeps of a position beside its code.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The canonical code.
    pub code: String,
    /// The side to move.
    pub to_move: String,
    /// How the game stands.
    pub status: StatusView,
}

fn summarize<G: GameApi>(state: &G::State) -> Summary {
    Summary {
        code: G::encode(state),
        to_move: state.to_move().to_string(),
        status: state.status().into(),
    }
}

/// The players of a game, first to move first.
pub fn players(kind: GameKind) -> &'static [&'static str] {
    fn go<G: GameApi>() -> &'static [&'static str] {
        G::info().players
    }
    dispatch!(kind, go())
}

/// The start position of a game as the match layer keeps it.
///
/// # Errors
///
/// The game's problem for a refused variant, size or seed.
pub fn start_summary(kind: GameKind, query: &StartQuery) -> Result<Summary, ApiError> {
    fn go<G: GameApi>(query: &StartQuery) -> Result<Summary, ApiError> {
        Ok(summarize::<G>(&G::start(query)?.0))
    }
    dispatch!(kind, go(query))
}

/// A code as the match layer keeps it (canonical, with its side and status).
///
/// # Errors
///
/// `invalid-code`.
pub fn summary(kind: GameKind, code: &str) -> Result<Summary, ApiError> {
    fn go<G: GameApi>(code: &str) -> Result<Summary, ApiError> {
        Ok(summarize::<G>(&G::decode(code)?))
    }
    dispatch!(kind, go(code))
}

/// One action of a batch, once played.
#[derive(Debug, Clone)]
pub struct Ply {
    /// The action, in the game's canonical notation.
    pub action: String,
    /// The side that played it.
    pub side: String,
    /// The code before it.
    pub code_before: String,
    /// The code after it.
    pub code_after: String,
}

/// A batch played on a code, one [`Ply`] per action.
pub struct Played {
    /// The actions, in order.
    pub plies: Vec<Ply>,
    /// The position reached.
    pub summary: Summary,
    /// Its view, with the last step.
    pub view: Vec<u8>,
}

/// Plays `actions` on `code` one ply at a time. With `only_side`, every
/// action must be that side's (a duel seat plays only its own moves).
///
/// # Errors
///
/// As [`play_batch`]; `not-your-turn` naming the index of an action that
/// would be the other side's.
pub fn play_plies(
    kind: GameKind,
    code: &str,
    actions: &[String],
    only_side: Option<&str>,
    base: &str,
) -> Result<Played, ApiError> {
    fn go<G: GameApi>(
        code: &str,
        actions: &[String],
        only_side: Option<&str>,
        base: &str,
    ) -> Result<Played, ApiError> {
        let mut plies = Vec::with_capacity(actions.len());
        let check = |index: usize, state: &G::State| match only_side {
            Some(side) if state.to_move().to_string() != side => Err(Problem::new(
                ProblemKind::NotYourTurn,
                format!(
                    "action {index} would be {}'s move; the seat {side} plays only its own moves",
                    state.to_move()
                ),
            )
            .with("index", index)
            .with("to_move", state.to_move().to_string())
            .with("seat", side)),
            _ => Ok(()),
        };
        let record = |before: &G::State, action: &<G::State as Game>::Action, after: &G::State| {
            plies.push(Ply {
                action: action.to_string(),
                side: before.to_move().to_string(),
                code_before: G::encode(before),
                code_after: G::encode(after),
            });
        };
        let (state, last) = play_each::<G>(G::decode(code)?, actions, check, record)?;
        let summary = summarize::<G>(&state);
        let view = G::view(
            &state,
            summary.code.clone(),
            share_url(base, G::KIND, &summary.code),
            Some(&last),
        )
        .map_err(|e| ApiError::Internal(e.into()))?;
        Ok(Played {
            plies,
            summary,
            view,
        })
    }
    dispatch!(kind, go(code, actions, only_side, base))
}

/// The view after playing `actions` on `code`.
///
/// # Errors
///
/// See [`play_batch`], and `invalid-code`.
pub fn play(
    kind: GameKind,
    code: &str,
    actions: &[String],
    base: &str,
) -> Result<Vec<u8>, ApiError> {
    fn go<G: GameApi>(code: &str, actions: &[String], base: &str) -> Result<Vec<u8>, ApiError> {
        let (state, last) = play_batch::<G>(G::decode(code)?, actions)?;
        render::<G>(&state, base, Some(&last))
    }
    dispatch!(kind, go(code, actions, base))
}

/// The view of an imported readable form.
///
/// # Errors
///
/// The game's import problems.
pub fn import(kind: GameKind, body: &Value, base: &str) -> Result<Vec<u8>, ApiError> {
    fn go<G: GameApi>(body: &Value, base: &str) -> Result<Vec<u8>, ApiError> {
        render::<G>(&G::import(body)?, base, None)
    }
    dispatch!(kind, go(body, base))
}

/// The readable form of a code: `game`, `code`, `format` and the format's
/// own members.
///
/// # Errors
///
/// `invalid-code`, `unsupported-format`.
pub fn export(kind: GameKind, code: &str, format: Option<&str>) -> Result<Value, ApiError> {
    fn go<G: GameApi>(code: &str, format: Option<&str>) -> Result<Value, ApiError> {
        let state = G::decode(code)?;
        let info = G::info();
        let format = match format {
            None => info.formats[0],
            Some(f) => info
                .formats
                .iter()
                .copied()
                .find(|&x| x == f)
                .ok_or_else(|| {
                    Problem::new(
                        ProblemKind::UnsupportedFormat,
                        format!(
                            "{} does not export {f:?}; it writes {}",
                            G::KIND,
                            info.formats.join(", ")
                        ),
                    )
                    .with("field", "format")
                    .with("supported", info.formats)
                })?,
        };
        let mut view = Map::new();
        view.insert("game".into(), Value::from(G::KIND.as_str()));
        view.insert("code".into(), Value::from(G::encode(&state)));
        view.insert("format".into(), Value::from(format));
        view.extend(G::export(&state, format)?);
        Ok(Value::Object(view))
    }
    dispatch!(kind, go(code, format))
}

/// The start state of a game with chance: from `seed`, or from a fresh
/// random seed, in which case the answer must not be cached (`false`).
pub fn seeded<S>(seed: Option<u64>, new: impl FnOnce(u64) -> S) -> (S, bool) {
    match seed {
        Some(seed) => (new(seed), true),
        None => {
            use std::hash::{BuildHasher, RandomState};
            let fresh = RandomState::new().hash_one(std::time::SystemTime::now());
            (new(fresh), false)
        }
    }
}

/// Refuses any variant but `standard`, for games that have only that one.
///
/// # Errors
///
/// `unknown-variant` listing `standard`.
pub fn standard_only(game: GameKind, variant: Option<&str>) -> Result<(), Problem> {
    match variant.filter(|&v| v != "standard") {
        None => Ok(()),
        Some(v) => Err(Problem::new(
            ProblemKind::UnknownVariant,
            format!("{game} has no variant {v:?}; it has: standard"),
        )
        .with("field", "variant")
        .with("supported", ["standard"])),
    }
}

/// Refuses a start parameter the game does not take.
///
/// # Errors
///
/// `invalid-query` naming the parameter and `why`.
pub fn not_taken(given: bool, name: &str, why: &str) -> Result<(), Problem> {
    if given {
        Err(Problem::new(ProblemKind::InvalidQuery, why.to_owned()).with("field", name))
    } else {
        Ok(())
    }
}

/// The `format` of an import body, when it is one of `supported`.
///
/// # Errors
///
/// `invalid-field` when it is missing or not a string, `unsupported-format`
/// when the game does not read it.
pub fn import_format(
    game: GameKind,
    body: &Value,
    supported: &'static [&'static str],
) -> Result<&'static str, Problem> {
    if !body.is_object() {
        return Err(Problem::new(
            ProblemKind::MalformedBody,
            "the body must be a JSON object",
        ));
    }
    let format: String = field(body, "format")?;
    supported
        .iter()
        .copied()
        .find(|&f| f == format)
        .ok_or_else(|| {
            Problem::new(
                ProblemKind::UnsupportedFormat,
                format!(
                    "{game} does not import {format:?}; it reads {}",
                    supported.join(", ")
                ),
            )
            .with("field", "format")
            .with("supported", supported)
        })
}

/// Reads one field of an import body as the given type.
///
/// # Errors
///
/// `invalid-field` naming the field when it is missing or of the wrong type.
pub fn field<T: serde::de::DeserializeOwned>(body: &Value, name: &str) -> Result<T, Problem> {
    let Some(value) = body.get(name) else {
        return Err(Problem::new(
            ProblemKind::InvalidField,
            format!("the body needs a `{name}` field"),
        )
        .with("field", name));
    };
    serde_json::from_value(value.clone()).map_err(|e| {
        Problem::new(ProblemKind::InvalidField, format!("`{name}`: {e}")).with("field", name)
    })
}

/// Refuses fields of an import body that the format does not read. `game`
/// and `code` are always allowed (and not read), so an export view can be
/// posted back as it is.
///
/// # Errors
///
/// `invalid-field` naming the first unknown field.
pub fn only_fields(body: &Value, allowed: &[&str]) -> Result<(), Problem> {
    let Some(obj) = body.as_object() else {
        return Err(Problem::new(
            ProblemKind::MalformedBody,
            "the body must be a JSON object",
        ));
    };
    let exported = ["game", "code"];
    match obj
        .keys()
        .find(|k| !allowed.contains(&k.as_str()) && !exported.contains(&k.as_str()))
    {
        None => Ok(()),
        Some(k) => Err(Problem::new(
            ProblemKind::InvalidField,
            format!(
                "unknown field `{k}`; this format reads {}",
                allowed.join(", ")
            ),
        )
        .with("field", k)),
    }
}
