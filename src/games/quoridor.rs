//! Quoridor over HTTP: pawns, walls, walls left and shortest paths in the
//! view; the `json` import and export form.

use qipan_rules::quoridor::{Action, CodeError, Player, Position, Setup, SetupError, Square, Wall};
use qipan_rules::xiangqi::Counters;
use qipan_rules::GameKind;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::{
    not_taken, standard_only, syntax_location, Fault, GameApi, GameError, Parsed, StartParam,
};
use crate::wire::problem::Location;
use crate::wire::{ActionSyntax, Description, Shown, StartQuery};

crate::json_object! {
    /// One legal action in the view.
    #[derive(Debug, Serialize)]
    pub struct ActionView {
        /// The destination square (`e2`) or the wall (`e3h`), the form `play` takes.
        pub action: Shown<Action>,
        /// `move` or `wall`.
        pub kind: &'static str,
    }
}

crate::json_members! {
    /// The members of a quoridor view beyond the envelope.
    #[derive(Debug, Serialize)]
    pub struct Part {
        pawns: [String; 2],
        walls: Vec<String>,
        walls_left: [u8; 2],
        shortest_path: [Option<u8>; 2],
    }
}

/// The members of the `json` import body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
// `format` is the tag, `game` and `code` are what an export view carries:
// accepted, so an export posts back as it is, and not read.
#[allow(dead_code)]
pub struct JsonBody {
    format: Option<IgnoredAny>,
    game: Option<IgnoredAny>,
    code: Option<IgnoredAny>,
    /// Player 1's and player 2's squares.
    pawns: [Parsed<Square>; 2],
    /// The placed walls.
    walls: Option<Vec<Parsed<Wall>>>,
    /// Walls left to player 1 and player 2.
    walls_left: [u8; 2],
    /// 1 or 2.
    to_move: u8,
}

/// `POST /v1/quoridor/import`.
#[derive(Debug, Deserialize)]
#[serde(tag = "format")]
pub enum Import {
    /// Pawns, walls, walls left and the side to move.
    #[serde(rename = "json")]
    Json(JsonBody),
}

/// The export body.
#[derive(Debug, Serialize)]
#[serde(tag = "format")]
pub enum Export {
    /// Pawns, walls, walls left and the side to move.
    #[serde(rename = "json")]
    Json {
        /// Player 1's and player 2's squares.
        pawns: [String; 2],
        /// The placed walls.
        walls: Vec<String>,
        /// Walls left to each.
        walls_left: [u8; 2],
        /// 1 or 2.
        to_move: u8,
    },
}

/// The member of the import body a setup error is about.
fn setup_field(e: &SetupError) -> &'static str {
    match e {
        SetupError::TooManyWallsLeft { .. } | SetupError::WallCount { .. } => "walls_left",
        SetupError::PawnsOnOneSquare { .. } => "pawns",
        SetupError::DuplicateWall { .. }
        | SetupError::OverlappingWalls { .. }
        | SetupError::CrossingWalls { .. }
        | SetupError::NoPath { .. } => "walls",
        SetupError::WinnerToMove { .. } => "to_move",
    }
}

fn walls(pos: &Position) -> Vec<String> {
    pos.walls().iter().map(Wall::to_string).collect()
}

impl GameApi for Position {
    fn description() -> Description {
        Description {
            title: "Quoridor (围追堵截), two players",
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
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), GameError> {
        standard_only(GameKind::Quoridor, query.variant.as_deref())?;
        not_taken(
            query.seed.is_some(),
            StartParam::Seed,
            "quoridor has no chance in it and takes no seed",
        )?;
        not_taken(
            query.size.is_some(),
            StartParam::Size,
            "quoridor is played on a 9×9 board and takes no size",
        )?;
        Ok((Position::start(), true))
    }

    /// Nine rows of nine squares, rank 9 first, file `a` first: the number
    /// of the player whose pawn stands there, or null.
    type Board = Vec<Vec<Option<u8>>>;

    fn board(&self) -> Self::Board {
        let pawns = self.pawns();
        (0..9u8)
            .rev()
            .map(|rank| {
                (0..9u8)
                    .map(|file| {
                        Player::ALL
                            .iter()
                            .find(|p| {
                                let s = pawns[p.index()];
                                s.file() == file && s.rank() == rank
                            })
                            .map(|p| p.number())
                    })
                    .collect()
            })
            .collect()
    }

    type ActionView = ActionView;

    fn action_view(&self, a: Action) -> ActionView {
        ActionView {
            action: Shown(a),
            kind: match a {
                Action::Move(_) => "move",
                Action::Wall(_) => "wall",
            },
        }
    }

    type Part<'a> = Part;

    fn part(&self, _trace: Option<&()>, _counters: Option<Counters>) -> Part {
        let [one, two] = Player::ALL;
        Part {
            pawns: self.pawns().map(|s| s.to_string()),
            walls: walls(self),
            walls_left: [self.walls_left(one), self.walls_left(two)],
            shortest_path: [self.shortest_path(one), self.shortest_path(two)],
        }
    }

    // Nine rows of nine squares and the walls; an action is a square or a wall with its kind.
    const VIEW_BYTES: usize = 1024;
    const ACTION_BYTES: usize = 32;

    fn code_location(e: &CodeError) -> Location {
        match e {
            CodeError::Syntax(s) => syntax_location(s),
            CodeError::ReservedBit { .. } => Location {
                byte: Some(1),
                ..Location::default()
            },
            CodeError::PawnSquare { .. } | CodeError::WallSlot { .. } | CodeError::Setup(_) => {
                Location::default()
            }
        }
    }

    type Import = Import;
    type ImportFields = JsonBody;

    fn import(body: Import) -> Result<(Position, Option<Counters>), GameError> {
        let Import::Json(body) = body;
        let to_move = match body.to_move {
            1 => Player::One,
            2 => Player::Two,
            n => {
                return Err(GameError::ImportBody(super::BodyFault::Field {
                    field: "to_move".to_owned(),
                    index: None,
                    detail: format!("`to_move` is {n}; it is 1 or 2"),
                }))
            }
        };
        let setup = Setup {
            pawns: body.pawns.map(|p| p.0),
            walls: body
                .walls
                .unwrap_or_default()
                .into_iter()
                .map(|w| w.0)
                .collect(),
            walls_left: body.walls_left,
            to_move,
        };
        Position::from_setup(&setup)
            .map_err(|e| {
                GameError::InvalidImport(Fault::import(
                    "json",
                    setup_field(&e),
                    &e,
                    Location::default(),
                ))
            })
            .map(|p| (p, None))
    }

    type Export<'a> = Export;

    fn export(&self) -> Export {
        Export::Json {
            pawns: self.pawns().map(|s| s.to_string()),
            walls: walls(self),
            walls_left: Player::ALL.map(|p| self.walls_left(p)),
            to_move: qipan_rules::Game::to_move(self).number(),
        }
    }
}
