//! Quoridor over HTTP: pawns, walls, walls left and shortest paths in the
//! view; the `json` import and export form.

use qipan_rules::quoridor::{Action, CodeError, Player, Position, SetupError, Square, Wall};
use qipan_rules::{Game, GameKind};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{field, import_format, not_taken, only_fields, standard_only, GameApi, Step};
use crate::problem::{Problem, ProblemKind};
use crate::wire::{ActionSyntax, GameInfo, StartQuery, StatusView};

/// The quoridor adapter.
pub struct Quoridor;

/// One legal action in the view.
#[derive(Debug, Serialize)]
pub struct ActionView {
    /// The destination square (`e2`) or the wall (`e3h`), the form `play` takes.
    pub action: String,
    /// `move` or `wall`.
    pub kind: &'static str,
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
    /// Nine rows of nine squares, rank 9 first, file `a` first: the number of
    /// the player whose pawn stands there, or null.
    board: Vec<Vec<Option<u8>>>,
    legal_actions: &'a [ActionView],
    pawns: [&'a str; 2],
    walls: Vec<String>,
    walls_left: [u8; 2],
    shortest_path: [Option<u8>; 2],
}

fn players() -> [Player; 2] {
    [Player::One, Player::Two]
}

impl GameApi for Quoridor {
    type State = Position;
    type ActionView = ActionView;
    const KIND: GameKind = GameKind::Quoridor;

    fn info() -> GameInfo {
        GameInfo {
            game: "quoridor",
            title: "Quoridor (围追堵截), two players",
            players: &["1", "2"],
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "square or wall",
                pattern: "^([a-i][1-9]|[a-h][1-8][hv])$",
                examples: &["e2", "e3h", "d5v"],
                description: "a pawn move is its destination square (files a–i, ranks 1–9 from player 1's side); \
                              a wall is the square of the 2×2 block it touches nearest a1, then h or v \
                              (e3h separates e3|e4 and f3|f4; e3v separates e3|f3 and e4|f4)",
            },
            formats: &["json"],
            start: "/v1/quoridor/start".to_owned(),
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), Problem> {
        standard_only(Self::KIND, query.variant.as_deref())?;
        not_taken(
            query.seed.is_some(),
            "seed",
            "quoridor has no chance in it and takes no seed",
        )?;
        not_taken(
            query.size.is_some(),
            "size",
            "quoridor is played on a 9×9 board and takes no size",
        )?;
        Ok((Position::start(), true))
    }

    fn decode(code: &str) -> Result<Position, Problem> {
        Position::from_code(code).map_err(|e| invalid_code(&e))
    }

    fn encode(state: &Position) -> String {
        state.to_code()
    }

    fn action_views(pos: &Position) -> Vec<ActionView> {
        pos.legal_actions()
            .into_iter()
            .map(|a| ActionView {
                action: a.to_string(),
                kind: match a {
                    Action::Move(_) => "move",
                    Action::Wall(_) => "wall",
                },
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
        let pawns = players().map(|p| pos.pawn(p));
        let names = pawns.map(|s| s.to_string());
        let board = (0..9u8)
            .rev()
            .map(|rank| {
                (0..9u8)
                    .map(|file| {
                        players()
                            .into_iter()
                            .find(|&p| {
                                let s = pos.pawn(p);
                                s.file() == file && s.rank() == rank
                            })
                            .map(Player::number)
                    })
                    .collect()
            })
            .collect();
        serde_json::to_vec(&View {
            game: "quoridor",
            variant: "standard",
            code,
            url,
            to_move: pos.turn().as_str(),
            status: pos.status().into(),
            check: false,
            board,
            legal_actions: &legal,
            pawns: [names[0].as_str(), names[1].as_str()],
            walls: pos.walls().iter().map(Wall::to_string).collect(),
            walls_left: players().map(|p| pos.walls_left(p)),
            shortest_path: players().map(|p| pos.shortest_path(p)),
        })
    }

    fn import(body: &Value) -> Result<Position, Problem> {
        import_format(Self::KIND, body, &["json"])?;
        only_fields(body, &["format", "pawns", "walls", "walls_left", "to_move"])?;
        let pawn_names: [String; 2] = field(body, "pawns")?;
        let mut pawns = [Player::One.start(), Player::Two.start()];
        for (i, name) in pawn_names.iter().enumerate() {
            pawns[i] = name.parse::<Square>().map_err(|e| {
                Problem::new(ProblemKind::InvalidField, format!("`pawns[{i}]`: {e}"))
                    .with("field", "pawns")
            })?;
        }
        let wall_names: Vec<String> = match body.get("walls") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) => field(body, "walls")?,
        };
        let mut walls = Vec::with_capacity(wall_names.len());
        for (i, name) in wall_names.iter().enumerate() {
            walls.push(name.parse::<Wall>().map_err(|e| {
                Problem::new(ProblemKind::InvalidField, format!("`walls[{i}]`: {e}"))
                    .with("field", "walls")
                    .with("index", i)
            })?);
        }
        let walls_left: [u8; 2] = field(body, "walls_left")?;
        let to_move = match field::<u8>(body, "to_move")? {
            1 => Player::One,
            2 => Player::Two,
            n => {
                return Err(Problem::new(
                    ProblemKind::InvalidField,
                    format!("`to_move` is {n}; it is 1 or 2"),
                )
                .with("field", "to_move"))
            }
        };
        Position::from_parts(pawns, &walls, walls_left, to_move).map_err(|e| {
            setup_problem(
                Problem::new(ProblemKind::InvalidImport, format!("json: {e}")),
                &e,
            )
        })
    }

    fn export(pos: &Position, format: &str) -> Result<Map<String, Value>, Problem> {
        match format {
            "json" => {
                let mut fields = Map::new();
                fields.insert(
                    "pawns".into(),
                    serde_json::json!(players().map(|p| pos.pawn(p).to_string())),
                );
                fields.insert(
                    "walls".into(),
                    serde_json::json!(pos.walls().iter().map(Wall::to_string).collect::<Vec<_>>()),
                );
                fields.insert(
                    "walls_left".into(),
                    serde_json::json!(players().map(|p| pos.walls_left(p))),
                );
                fields.insert("to_move".into(), Value::from(pos.turn().number()));
                Ok(fields)
            }
            other => Err(Problem::new(
                ProblemKind::UnsupportedFormat,
                format!("quoridor does not export {other:?}"),
            )),
        }
    }
}

fn setup_problem(p: Problem, e: &SetupError) -> Problem {
    let (reason, field) = match e {
        SetupError::TooManyWallsLeft { .. } => ("too-many-walls-left", "walls_left"),
        SetupError::PawnsOnOneSquare { .. } => ("pawns-on-one-square", "pawns"),
        SetupError::DuplicateWall { .. } => ("duplicate-wall", "walls"),
        SetupError::OverlappingWalls { .. } => ("overlapping-walls", "walls"),
        SetupError::CrossingWalls { .. } => ("crossing-walls", "walls"),
        SetupError::WallCount { .. } => ("wall-count", "walls_left"),
        SetupError::WinnerToMove { .. } => ("winner-to-move", "to_move"),
        SetupError::NoPath { .. } => ("no-path", "walls"),
    };
    p.with("reason", reason).with("field", field)
}

fn invalid_code(e: &CodeError) -> Problem {
    let p = Problem::new(ProblemKind::InvalidCode, e.to_string());
    let p = match e {
        CodeError::Empty | CodeError::WrongLength { .. } => p.with("reason", "wrong-length"),
        CodeError::Padding { offset } => p.with("reason", "padding").with("offset", offset),
        CodeError::InvalidCharacter { offset, character } => p
            .with("reason", "invalid-character")
            .with("offset", offset)
            .with("character", character.to_string()),
        CodeError::TrailingBits { .. } => p.with("reason", "trailing-bits"),
        CodeError::ReservedBit { .. } => p.with("reason", "unused-bit").with("byte", 1),
        CodeError::PawnSquare { .. } => p.with("reason", "square-out-of-range"),
        CodeError::WallSlot { .. } => p.with("reason", "wall-slot"),
        CodeError::Setup(s) => setup_problem(p, s),
    };
    // `field` names the path segment for every code problem.
    p.with("field", "code")
}
