//! Gomoku over HTTP: free-style, standard and Renju; the view with Black's
//! forbidden points and the winning line; `rows` import and export.

use qipan_rules::gomoku::{CodeError, Point, Position, PositionError, RowsError, Stone, Variant};
use qipan_rules::{Game, GameKind, Status};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{field, import_format, not_taken, only_fields, GameApi, Step};
use crate::problem::{Problem, ProblemKind};
use crate::wire::{ActionSyntax, GameInfo, StartQuery, StatusView};

/// The gomoku adapter.
pub struct Gomoku;

const VARIANTS: [&str; 3] = ["freestyle", "standard", "renju"];

/// One legal point in the view.
#[derive(Debug, Serialize)]
pub struct PointView {
    /// The point, the form `play` takes (`h8`).
    pub action: String,
}

#[derive(Serialize)]
struct ForbiddenView {
    point: String,
    reason: &'static str,
}

#[derive(Serialize)]
struct View<'a> {
    game: &'static str,
    variant: &'static str,
    size: u8,
    code: String,
    url: String,
    to_move: &'static str,
    status: StatusView,
    check: bool,
    /// `size` rows of `size` points, top row first, column `a` first.
    board: Vec<Vec<Option<&'static str>>>,
    legal_actions: &'a [PointView],
    forbidden: Vec<ForbiddenView>,
    last_move: Option<String>,
    winning_line: Option<Vec<String>>,
    moves: Option<Vec<String>>,
}

fn variant(name: &str) -> Result<Variant, Problem> {
    name.parse().map_err(|_| {
        Problem::new(
            ProblemKind::UnknownVariant,
            format!(
                "gomoku has no variant {name:?}; it has {}",
                VARIANTS.join(", ")
            ),
        )
        .with("field", "variant")
        .with("supported", VARIANTS)
    })
}

fn invalid_code(e: &CodeError) -> Problem {
    let p = Problem::new(ProblemKind::InvalidCode, e.to_string())
        .with("field", "code")
        .with("reason", code_reason(e));
    code_details(p, e)
}

fn invalid_rows(e: &RowsError) -> Problem {
    let p = Problem::new(ProblemKind::InvalidImport, format!("rows: {e}"))
        .with("field", "text")
        .with("reason", rows_reason(e));
    rows_details(p, e)
}

/// Plays a space-separated move list from the empty board.
fn replay(v: Variant, size: u8, moves: &str) -> Result<Position, Problem> {
    let bad = |index: usize, detail: String| {
        Problem::new(ProblemKind::InvalidImport, format!("moves: {detail}"))
            .with("field", "moves")
            .with("reason", "illegal-move")
            .with("index", index)
    };
    let mut pos = Position::new(v, size).map_err(|e| {
        Problem::new(ProblemKind::InvalidImport, e.to_string()).with("field", "moves")
    })?;
    for (index, text) in moves.split_whitespace().enumerate() {
        let point: Point = text
            .parse()
            .map_err(|e| bad(index, format!("move {index}: {e}")))?;
        pos = pos
            .play_point(point)
            .map_err(|e| bad(index, format!("move {index}: {}", e.reason)))?;
    }
    Ok(pos)
}

fn points(list: impl IntoIterator<Item = Point>) -> Vec<String> {
    list.into_iter().map(|p| p.to_string()).collect()
}

impl GameApi for Gomoku {
    type State = Position;
    type ActionView = PointView;
    const KIND: GameKind = GameKind::Gomoku;

    fn info() -> GameInfo {
        GameInfo {
            game: "gomoku",
            title: "Gomoku (five in a row), free-style, standard and Renju",
            players: &["black", "white"],
            variants: &VARIANTS,
            action_syntax: ActionSyntax {
                notation: "point",
                pattern: "^[a-s]([1-9]|1[0-9])$",
                examples: &["h8", "j10"],
                description: "the point to play: column a–o (a–s on 19×19) from the left, \
                              row 1–15 (1–19) from the bottom",
            },
            formats: &["rows"],
            start: "/v1/gomoku/start".to_owned(),
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), Problem> {
        not_taken(
            query.seed.is_some(),
            "seed",
            "gomoku has no chance in it and takes no seed",
        )?;
        let v = variant(query.variant.as_deref().unwrap_or("freestyle"))?;
        let size = query.size.unwrap_or(15);
        let pos = Position::new(v, size).map_err(|e| {
            Problem::new(ProblemKind::InvalidQuery, e.to_string()).with("field", "size")
        })?;
        Ok((pos, true))
    }

    fn decode(code: &str) -> Result<Position, Problem> {
        Position::from_code(code).map_err(|e| invalid_code(&e))
    }

    fn encode(state: &Position) -> String {
        state.to_code()
    }

    fn action_views(pos: &Position) -> Vec<PointView> {
        pos.legal_moves()
            .into_iter()
            .map(|p| PointView {
                action: p.to_string(),
            })
            .collect()
    }

    fn view(
        pos: &Position,
        code: String,
        url: String,
        _last: Option<&Step<Position>>,
    ) -> Result<Vec<u8>, serde_json::Error> {
        let legal = Self::action_views(pos);
        let size = pos.size();
        let board = (0..size)
            .rev()
            .map(|row| {
                (0..size)
                    .map(|col| {
                        Point::new(col, row)
                            .and_then(|p| pos.stone_at(p))
                            .map(Stone::as_str)
                    })
                    .collect()
            })
            .collect();
        let status = pos.status();
        serde_json::to_vec(&View {
            game: "gomoku",
            variant: pos.variant().as_str(),
            size,
            code,
            url,
            to_move: pos.turn().as_str(),
            status: status.into(),
            check: false,
            board,
            legal_actions: &legal,
            forbidden: pos
                .forbidden()
                .into_iter()
                .map(|(p, why)| ForbiddenView {
                    point: p.to_string(),
                    reason: why.as_str(),
                })
                .collect(),
            last_move: pos.last_move().map(|p| p.to_string()),
            winning_line: match status {
                Status::Won { .. } => pos.winning_line().map(points),
                Status::Ongoing | Status::Drawn { .. } | Status::Over { .. } => None,
            },
            moves: pos.moves().map(|m| points(m.iter().copied())),
        })
    }

    fn import(body: &Value) -> Result<Position, Problem> {
        import_format(Self::KIND, body, &["rows"])?;
        only_fields(body, &["format", "variant", "text", "moves"])?;
        let v = match body.get("variant") {
            None | Some(Value::Null) => Variant::Freestyle,
            Some(_) => variant(&field::<String>(body, "variant")?)?,
        };
        let text: String = field(body, "text")?;
        let board = Position::from_rows(v, &text).map_err(|e| invalid_rows(&e))?;
        match body.get("moves") {
            None | Some(Value::Null) => Ok(board),
            // The move order of an export view: replayed from the empty
            // board, it must give the rows, and then the order is kept.
            Some(_) => {
                let moves: String = field(body, "moves")?;
                let played = replay(v, board.size(), &moves)?;
                if played.to_rows() != board.to_rows() {
                    return Err(Problem::new(
                        ProblemKind::InvalidImport,
                        "rows: the moves do not give the board of `text`",
                    )
                    .with("field", "moves")
                    .with("reason", "moves-differ"));
                }
                Ok(played)
            }
        }
    }

    fn export(pos: &Position, format: &str) -> Result<Map<String, Value>, Problem> {
        match format {
            "rows" => {
                let mut fields = Map::new();
                fields.insert("variant".into(), Value::from(pos.variant().as_str()));
                fields.insert("text".into(), Value::from(pos.to_rows()));
                fields.insert(
                    "moves".into(),
                    pos.move_list().map_or(Value::Null, Value::from),
                );
                Ok(fields)
            }
            other => Err(Problem::new(
                ProblemKind::UnsupportedFormat,
                format!("gomoku does not export {other:?}"),
            )),
        }
    }
}

fn position_reason(e: &PositionError) -> &'static str {
    match e {
        PositionError::ImpossibleCounts { .. } => "impossible-counts",
        PositionError::LastMoveOnEmptyBoard { .. } => "last-move-on-empty-board",
        PositionError::LastMoveNotMover { .. } => "last-move-not-mover",
        PositionError::WinnerNotLastMover { .. } => "winner-not-last-mover",
        PositionError::PlayedOnAfterWin { .. } => "played-on-after-win",
        PositionError::LastMoveNotWinning { .. } => "last-move-not-winning",
        PositionError::BlackOverline { .. } => "black-overline",
    }
}

fn code_reason(e: &CodeError) -> &'static str {
    match e {
        CodeError::Empty | CodeError::WrongLength { .. } | CodeError::GridLength { .. } => {
            "wrong-length"
        }
        CodeError::MoveListLength { .. } => "wrong-length",
        CodeError::Padding { .. } => "padding",
        CodeError::InvalidCharacter { .. } => "invalid-character",
        CodeError::TrailingBits { .. } | CodeError::MoveListPadding => "trailing-bits",
        CodeError::HeaderBits { .. } => "header-bits",
        CodeError::UnknownVariant { .. } => "unknown-variant",
        CodeError::Setup(_) => "unsupported-size",
        CodeError::GridValue { .. } => "grid-value",
        CodeError::MoveOutOfRange { .. } | CodeError::LastMoveOutOfRange { .. } => {
            "point-out-of-range"
        }
        CodeError::IllegalMove { .. } => "illegal-move",
        CodeError::Position(p) => position_reason(p),
    }
}

fn code_details(p: Problem, e: &CodeError) -> Problem {
    match e {
        CodeError::Padding { offset } => p.with("offset", offset),
        CodeError::InvalidCharacter { offset, character } => p
            .with("offset", offset)
            .with("character", character.to_string()),
        CodeError::WrongLength { length }
        | CodeError::MoveListLength { length }
        | CodeError::GridLength { length, .. } => p.with("length", length),
        CodeError::GridValue { byte, value, .. } => p.with("byte", byte).with("value", value),
        // `index` is 0-based everywhere; the message counts moves from 1.
        CodeError::MoveOutOfRange { number, .. } | CodeError::IllegalMove { number, .. } => {
            p.with("index", number.saturating_sub(1))
        }
        CodeError::Empty
        | CodeError::TrailingBits { .. }
        | CodeError::MoveListPadding
        | CodeError::HeaderBits { .. }
        | CodeError::UnknownVariant { .. }
        | CodeError::Setup(_)
        | CodeError::LastMoveOutOfRange { .. }
        | CodeError::Position(_) => p,
    }
}

fn rows_reason(e: &RowsError) -> &'static str {
    match e {
        RowsError::RowCount { .. } => "row-count",
        RowsError::Setup(_) => "unsupported-size",
        RowsError::RowLength { .. } => "row-length",
        RowsError::BadCharacter { .. } => "invalid-character",
        RowsError::Position(p) => position_reason(p),
    }
}

fn rows_details(p: Problem, e: &RowsError) -> Problem {
    match e {
        RowsError::RowLength { line, .. } => p.with("line", line),
        RowsError::BadCharacter {
            line,
            column,
            character,
            ..
        } => p
            .with("line", line)
            .with("column", column)
            .with("character", character.to_string()),
        RowsError::RowCount { .. } | RowsError::Setup(_) | RowsError::Position(_) => p,
    }
}
