//! 2048 over HTTP: the board, score and the spawned tile of the last move;
//! `grid` import and export; seeded starts.

use qipan_rules::twenty48::{CodeError, Direction, GridError, Position};
use qipan_rules::GameKind;
use serde::Serialize;
use serde_json::{Map, Value};

use super::seeded;
use super::{field, import_format, not_taken, only_fields, standard_only, GameApi, Step};
use crate::problem::{Problem, ProblemKind};
use crate::wire::{ActionSyntax, GameInfo, StartQuery, StatusView};

/// The 2048 adapter.
pub struct Twenty48;

/// One legal move in the view.
#[derive(Debug, Serialize)]
pub struct MoveView {
    /// `up`, `down`, `left` or `right`.
    pub action: &'static str,
}

#[derive(Serialize)]
struct SpawnView {
    row: u8,
    col: u8,
    value: u32,
}

#[derive(Serialize)]
struct View<'a> {
    game: &'static str,
    variant: &'static str,
    code: String,
    url: String,
    to_move: &'static str,
    status: StatusView,
    check: bool,
    /// Four rows of four tiles, top row first; 0 is an empty cell.
    board: [[u32; 4]; 4],
    legal_actions: &'a [MoveView],
    score: u64,
    won: bool,
    max_tile: u32,
    /// Decimal digits: the generator state may exceed 2^53, which JSON
    /// numbers do not carry exactly in every client.
    seed: String,
    spawned: Option<SpawnView>,
    gained: Option<u64>,
}

fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

/// The import's `seed`: a number, or a string of decimal digits (as export
/// writes it, since a generator state may exceed 2^53).
pub(super) fn seed(body: &Value) -> Result<u64, Problem> {
    let bad =
        |detail: String| Problem::new(ProblemKind::InvalidField, detail).with("field", "seed");
    match body.get("seed") {
        None => Err(bad("the body needs a `seed` field".into())),
        Some(Value::String(s)) => s
            .parse()
            .ok()
            .filter(|_| s.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| bad(format!("`seed`: {s:?} is not an unsigned 64-bit integer"))),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad(format!("`seed`: {v} is not an unsigned 64-bit integer"))),
    }
}

impl GameApi for Twenty48 {
    type State = Position;
    type ActionView = MoveView;
    const KIND: GameKind = GameKind::Twenty48;

    fn info() -> GameInfo {
        GameInfo {
            game: "2048",
            title: "2048",
            players: &["player"],
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "direction",
                pattern: "^(up|down|left|right)$",
                examples: &["left", "up"],
                description:
                    "the direction every tile slides; a move that changes nothing is not legal",
            },
            formats: &["grid"],
            start: "/v1/2048/start".to_owned(),
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), Problem> {
        standard_only(Self::KIND, query.variant.as_deref())?;
        not_taken(
            query.size.is_some(),
            "size",
            "2048 is played on a 4×4 board and takes no size",
        )?;
        Ok(seeded(query.seed, Position::new))
    }

    fn decode(code: &str) -> Result<Position, Problem> {
        Position::from_code(code).map_err(|e| invalid_code(&e))
    }

    fn encode(state: &Position) -> String {
        state.to_code()
    }

    fn action_views(pos: &Position) -> Vec<MoveView> {
        pos.legal_moves()
            .into_iter()
            .map(|d| MoveView {
                action: direction_name(d),
            })
            .collect()
    }

    fn view(
        pos: &Position,
        code: String,
        url: String,
        last: Option<&Step<Position>>,
    ) -> Result<Vec<u8>, serde_json::Error> {
        let legal = Self::action_views(pos);
        // The spawned tile and the gain of the last move, replayed from the
        // state before it (a pure function, so it gives the same step).
        let traced = last.and_then(|step| step.before.play_traced(step.action).ok());
        serde_json::to_vec(&View {
            game: "2048",
            variant: "standard",
            code,
            url,
            to_move: "player",
            status: pos.outcome().into(),
            check: false,
            board: pos.grid(),
            legal_actions: &legal,
            score: pos.score(),
            won: pos.won(),
            max_tile: pos.max_tile(),
            seed: pos.rng_state().to_string(),
            spawned: traced.as_ref().map(|(_, s, _)| SpawnView {
                row: s.row,
                col: s.col,
                value: s.value,
            }),
            gained: traced.as_ref().map(|(_, _, g)| *g),
        })
    }

    fn import(body: &Value) -> Result<Position, Problem> {
        import_format(Self::KIND, body, &["grid"])?;
        only_fields(body, &["format", "board", "score", "seed"])?;
        let board: [[u32; 4]; 4] = field(body, "board")?;
        let seed = seed(body)?;
        match body.get("score") {
            Some(score) if !score.is_null() => {
                Position::from_grid(board, field(body, "score")?, seed)
                    .map_err(|e| invalid_grid(&e))
            }
            // Without a score, the least these tiles can have been built with.
            _ => match Position::from_grid(board, 0, seed) {
                Err(GridError::ImpossibleScore { min, .. }) => {
                    Position::from_grid(board, min, seed)
                }
                other => other,
            }
            .map_err(|e| invalid_grid(&e)),
        }
    }

    fn export(pos: &Position, format: &str) -> Result<Map<String, Value>, Problem> {
        match format {
            "grid" => {
                let mut fields = Map::new();
                fields.insert("board".into(), serde_json::json!(pos.grid()));
                fields.insert("score".into(), Value::from(pos.score()));
                fields.insert("seed".into(), Value::from(pos.rng_state().to_string()));
                Ok(fields)
            }
            other => Err(Problem::new(
                ProblemKind::UnsupportedFormat,
                format!("2048 does not export {other:?}"),
            )),
        }
    }
}

fn grid_problem(p: Problem, e: &GridError) -> Problem {
    match e {
        GridError::InvalidTile { row, col, value } => p
            .with("reason", "invalid-tile")
            .with("row", row)
            .with("col", col)
            .with("value", value),
        GridError::NoTiles => p.with("reason", "no-tiles"),
        GridError::ImpossibleScore { min, max, .. } => p
            .with("reason", "impossible-score")
            .with("min", min)
            .with("max", max),
    }
}

fn invalid_grid(e: &GridError) -> Problem {
    let field = match e {
        GridError::ImpossibleScore { .. } => "score",
        GridError::InvalidTile { .. } | GridError::NoTiles => "board",
    };
    grid_problem(
        Problem::new(ProblemKind::InvalidImport, format!("grid: {e}")).with("field", field),
        e,
    )
}

fn invalid_code(e: &CodeError) -> Problem {
    let p = Problem::new(ProblemKind::InvalidCode, e.to_string()).with("field", "code");
    match e {
        CodeError::WrongLength { length } => p
            .with("reason", "wrong-length")
            .with("length", length)
            .with("expected_length", qipan_rules::twenty48::CODE_LEN),
        CodeError::Padding { offset } => p.with("reason", "padding").with("offset", offset),
        CodeError::InvalidCharacter { offset, character } => p
            .with("reason", "invalid-character")
            .with("offset", offset)
            .with("character", character.to_string()),
        CodeError::TrailingBits { .. } => p
            .with("reason", "trailing-bits")
            .with("offset", qipan_rules::twenty48::CODE_LEN - 1),
        CodeError::UnknownVersion { .. } => p.with("reason", "unknown-version").with("byte", 0),
        CodeError::ExponentOutOfRange { row, col, exponent } => p
            .with("reason", "tile-out-of-range")
            .with("row", row)
            .with("col", col)
            .with("exponent", exponent),
        CodeError::Grid(g) => grid_problem(p, g),
    }
}
