//! Xiangqi over HTTP: the state view, its notations, FEN import and export,
//! and the problems for bad codes and FENs.

use qipan_rules::xiangqi::{
    self as xq, CodeError, FenError, Position, PositionError, Side, Square,
};
use qipan_rules::{Game, GameKind};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{field, import_format, not_taken, only_fields, standard_only, GameApi, Step};
use crate::problem::{Problem, ProblemKind};
use crate::wire::{ActionSyntax, GameInfo, StartQuery, StatusView};

/// The xiangqi adapter.
pub struct Xiangqi;

/// One legal move in the view.
#[derive(Debug, Serialize)]
pub struct MoveView {
    /// ICCS coordinates, the form `play` takes (`h2e2`).
    pub action: String,
    /// WXF notation (`C2.5`).
    pub wxf: String,
    /// Traditional Chinese notation (`炮二平五`).
    pub chinese: String,
    /// The point the piece leaves.
    pub from: &'static str,
    /// The point it reaches.
    pub to: &'static str,
    /// The piece's role.
    pub piece: &'static str,
    /// The role of the piece captured, if any.
    pub capture: Option<&'static str>,
}

#[derive(Serialize)]
struct CellView {
    side: &'static str,
    role: &'static str,
    glyph: char,
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
    /// Ten rows of nine points, black's back rank (ICCS rank 9) first, file
    /// `a` first in each row.
    board: Vec<Vec<Option<CellView>>>,
    legal_actions: &'a [MoveView],
    fen: String,
}

fn invalid_code(e: &CodeError) -> Problem {
    let reason = match e {
        CodeError::WrongLength { .. } => "wrong-length",
        CodeError::Padding { .. } => "padding",
        CodeError::InvalidCharacter { .. } => "invalid-character",
        CodeError::TrailingBits { .. } => "trailing-bits",
        CodeError::UnusedBitSet { .. } => "unused-bit",
        CodeError::SquareOutOfRange { .. } => "square-out-of-range",
        CodeError::TwoPiecesOnOnePoint { .. } => "two-pieces-on-one-point",
        CodeError::Position(p) => position_reason(p),
    };
    let p = Problem::new(ProblemKind::InvalidCode, e.to_string())
        .with("field", "code")
        .with("reason", reason);
    match e {
        CodeError::WrongLength { length } => p
            .with("length", length)
            .with("expected_length", xq::CODE_LEN),
        CodeError::Padding { offset } => p.with("offset", offset),
        CodeError::InvalidCharacter { offset, character } => p
            .with("offset", offset)
            .with("character", character.to_string()),
        CodeError::TrailingBits { .. } => p.with("offset", xq::CODE_LEN - 1),
        CodeError::UnusedBitSet { byte, .. } => p.with("byte", byte),
        CodeError::SquareOutOfRange { byte, value, .. } => {
            p.with("byte", byte).with("value", value)
        }
        CodeError::TwoPiecesOnOnePoint {
            square,
            first_byte,
            second_byte,
            ..
        } => p
            .with("point", square.to_string())
            .with("bytes", [first_byte, second_byte]),
        CodeError::Position(pe) => with_position_details(p, pe),
    }
}

fn position_reason(e: &PositionError) -> &'static str {
    match e {
        PositionError::TooManyPieces { .. } => "too-many-pieces",
        PositionError::MissingGeneral { .. } => "missing-general",
        PositionError::ImpossiblePoint { .. } => "impossible-point",
        PositionError::GeneralsFacing { .. } => "generals-facing",
        PositionError::OpponentInCheck { .. } => "opponent-in-check",
    }
}

fn with_position_details(p: Problem, e: &PositionError) -> Problem {
    match e {
        PositionError::ImpossiblePoint { square, .. } => p.with("point", square.to_string()),
        PositionError::GeneralsFacing { file } => {
            p.with("file", ((b'a' + file) as char).to_string())
        }
        PositionError::TooManyPieces { .. }
        | PositionError::MissingGeneral { .. }
        | PositionError::OpponentInCheck { .. } => p,
    }
}

fn invalid_fen(e: &FenError) -> Problem {
    let reason = match e {
        FenError::Empty => "empty",
        FenError::WrongRankCount { .. } => "wrong-rank-count",
        FenError::InvalidCharacter { .. } => "invalid-character",
        FenError::RankTooLong { .. } => "rank-too-long",
        FenError::RankTooShort { .. } => "rank-too-short",
        FenError::MissingSide => "missing-side",
        FenError::InvalidSide { .. } => "invalid-side",
        FenError::InvalidTrailer { .. } => "invalid-trailer",
        FenError::Position(p) => position_reason(p),
    };
    let p = Problem::new(ProblemKind::InvalidImport, format!("FEN: {e}"))
        .with("field", "text")
        .with("reason", reason);
    match e {
        FenError::InvalidCharacter {
            rank,
            offset,
            character,
        } => p
            .with("rank", rank)
            .with("offset", offset)
            .with("character", character.to_string()),
        FenError::RankTooLong { rank, offset } => p.with("rank", rank).with("offset", offset),
        FenError::RankTooShort { rank, .. } => p.with("rank", rank),
        FenError::InvalidSide { offset, .. } | FenError::InvalidTrailer { offset, .. } => {
            p.with("offset", offset)
        }
        FenError::Position(pe) => with_position_details(p, pe),
        FenError::Empty | FenError::WrongRankCount { .. } | FenError::MissingSide => p,
    }
}

fn side_name(side: Side) -> &'static str {
    side.as_str()
}

impl GameApi for Xiangqi {
    type State = Position;
    type ActionView = MoveView;
    const KIND: GameKind = GameKind::Xiangqi;

    fn info() -> GameInfo {
        GameInfo {
            game: "xiangqi",
            title: "Xiangqi (Chinese chess)",
            players: &["red", "black"],
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "ICCS",
                pattern: "^[a-i][0-9][a-i][0-9]$",
                examples: &["h2e2", "h9g7"],
                description: "from-point then to-point; files a–i from red's left, ranks 0–9 from red's side. \
                              Each listed move also carries its WXF (C2.5) and Chinese (炮二平五) forms.",
            },
            formats: &["fen"],
            start: "/v1/xiangqi/start".to_owned(),
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), Problem> {
        standard_only(Self::KIND, query.variant.as_deref())?;
        not_taken(
            query.seed.is_some(),
            "seed",
            "xiangqi has no chance in it and takes no seed",
        )?;
        not_taken(
            query.size.is_some(),
            "size",
            "xiangqi is played on one board and takes no size",
        )?;
        Ok((Position::start(), true))
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
            .map(|m| MoveView {
                action: m.to_string(),
                wxf: xq::wxf(pos, m).unwrap_or_default(),
                chinese: xq::chinese(pos, m).unwrap_or_default(),
                from: m.from.name(),
                to: m.to.name(),
                piece: pos.piece_at(m.from).map_or("", |p| p.role.as_str()),
                capture: pos.piece_at(m.to).map(|p| p.role.as_str()),
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
        let status: StatusView = if legal.is_empty() {
            pos.status().into()
        } else {
            qipan_rules::Status::<Side>::Ongoing.into()
        };
        let board = (0..10u8)
            .map(|row| {
                (0..9u8)
                    .map(|file| {
                        Square::from_file_row(file, row)
                            .and_then(|s| pos.piece_at(s))
                            .map(|p| CellView {
                                side: side_name(p.side),
                                role: p.role.as_str(),
                                glyph: p.role.chinese(p.side),
                            })
                    })
                    .collect()
            })
            .collect();
        serde_json::to_vec(&View {
            game: "xiangqi",
            variant: "standard",
            code,
            url,
            to_move: side_name(pos.to_move()),
            status,
            check: pos.is_check(),
            board,
            legal_actions: &legal,
            fen: pos.to_fen(),
        })
    }

    fn import(body: &Value) -> Result<Position, Problem> {
        import_format(Self::KIND, body, &["fen"])?;
        only_fields(body, &["format", "text", "variant"])?;
        if let Some(v) = body
            .get("variant")
            .filter(|v| !v.is_null() && v.as_str() != Some("standard"))
        {
            return Err(Problem::new(
                ProblemKind::UnknownVariant,
                format!("xiangqi has no variant {v}; it has: standard"),
            )
            .with("field", "variant")
            .with("supported", ["standard"]));
        }
        let text: String = field(body, "text")?;
        Position::from_fen(&text).map_err(|e| invalid_fen(&e))
    }

    fn export(pos: &Position, format: &str) -> Result<Map<String, Value>, Problem> {
        match format {
            "fen" => {
                let mut fields = Map::new();
                fields.insert("text".into(), Value::from(pos.to_fen()));
                Ok(fields)
            }
            other => Err(Problem::new(
                ProblemKind::UnsupportedFormat,
                format!("xiangqi does not export {other:?}"),
            )),
        }
    }
}
