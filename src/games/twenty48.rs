//! 2048 over HTTP: the board, score and the spawned tile of the last move;
//! `grid` import and export; seeded starts.

use qipan_rules::twenty48::{CodeError, Direction, GridError, Position, Setup, Slide};
use qipan_rules::xiangqi::Counters;
use qipan_rules::GameKind;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::{seeded_start, syntax_location, Fault, GameApi, GameError, Seed};
use crate::wire::problem::Location;
use crate::wire::{ActionSyntax, Description, StartQuery};

crate::json_object! {
    /// One legal move in the view.
    #[derive(Debug, Serialize)]
    pub struct MoveView {
        /// `up`, `down`, `left` or `right`.
        pub action: &'static str,
    }
}

crate::json_object! {
    /// The tile the last move spawned.
    #[derive(Debug, Serialize)]
    pub struct SpawnView {
        row: u8,
        column: u8,
        value: u32,
    }
}

crate::json_members! {
    /// The members of a 2048 view beyond the envelope.
    #[derive(Debug, Serialize)]
    pub struct Part {
        score: u64,
        won: bool,
        max_tile: u32,
        /// Decimal digits: the generator state may exceed 2^53.
        seed: String,
        spawned: Option<SpawnView>,
        gained: Option<u64>,
    }
}

/// The members of the `grid` import body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
// `format` is the tag, `game` and `code` are what an export view carries:
// accepted, so an export posts back as it is, and not read.
#[allow(dead_code)]
pub struct GridBody {
    format: Option<IgnoredAny>,
    game: Option<IgnoredAny>,
    code: Option<IgnoredAny>,
    /// Four rows of four tiles, top first, 0 for empty.
    board: [[u32; 4]; 4],
    /// The score; the least these tiles allow when absent.
    score: Option<u64>,
    /// The generator state.
    seed: Seed,
}

/// `POST /v1/2048/import`.
#[derive(Debug, Deserialize)]
#[serde(tag = "format")]
pub enum Import {
    /// The tiles, score and seed.
    #[serde(rename = "grid")]
    Grid(GridBody),
}

/// The export body.
#[derive(Debug, Serialize)]
#[serde(tag = "format")]
pub enum Export {
    /// The tiles, score and seed.
    #[serde(rename = "grid")]
    Grid {
        /// Four rows of four tiles, top first.
        board: [[u32; 4]; 4],
        /// The score.
        score: u64,
        /// The generator state, in decimal digits.
        seed: String,
    },
}

fn grid_location(e: &GridError) -> Location {
    match e {
        GridError::InvalidTile { row, col, value } => Location {
            row: Some(usize::from(*row)),
            column: Some(usize::from(*col)),
            value: Some(u64::from(*value)),
            ..Location::default()
        },
        GridError::NoTiles => Location::default(),
        GridError::ImpossibleScore { min, max, .. } => Location {
            min: Some(*min),
            max: Some(*max),
            ..Location::default()
        },
    }
}

impl GameApi for Position {
    fn description() -> Description {
        Description {
            title: "2048",
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "direction",
                pattern: "^(up|down|left|right)$",
                examples: &["left", "up"],
                description:
                    "the direction every tile slides; a move that changes nothing is not legal",
            },
            formats: &["grid"],
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), GameError> {
        let why = "2048 is played on a 4×4 board and takes no size";
        seeded_start(GameKind::Twenty48, query, why, Position::new)
    }

    /// Four rows of four tiles, top row first; 0 is an empty cell.
    type Board = [[u32; 4]; 4];

    fn board(&self) -> [[u32; 4]; 4] {
        self.grid()
    }

    type ActionView = MoveView;

    fn action_view(&self, d: Direction) -> MoveView {
        MoveView { action: d.as_str() }
    }

    type Part<'a> = Part;

    fn part(&self, trace: Option<&Slide>, _counters: Option<Counters>) -> Part {
        Part {
            score: self.score(),
            won: self.won(),
            max_tile: self.max_tile(),
            seed: self.rng_state().to_string(),
            spawned: trace.map(|t| SpawnView {
                row: t.spawn.row,
                column: t.spawn.col,
                value: t.spawn.value,
            }),
            gained: trace.map(|t| t.gained),
        }
    }

    // Sixteen tiles and the score; an action is a direction.
    const VIEW_BYTES: usize = 640;
    const ACTION_BYTES: usize = 20;

    fn code_location(e: &CodeError) -> Location {
        match e {
            CodeError::Syntax(s) => syntax_location(s),
            CodeError::UnknownVersion { .. } => Location {
                byte: Some(0),
                ..Location::default()
            },
            CodeError::ExponentOutOfRange { row, col, exponent } => Location {
                row: Some(usize::from(*row)),
                column: Some(usize::from(*col)),
                exponent: Some(*exponent),
                ..Location::default()
            },
            CodeError::Grid(g) => grid_location(g),
        }
    }

    type Import = Import;
    type ImportFields = GridBody;

    fn import(body: Import) -> Result<(Position, Option<Counters>), GameError> {
        let Import::Grid(body) = body;
        let setup = Setup {
            board: body.board,
            score: body.score,
            seed: body.seed.0,
        };
        Position::from_setup(&setup)
            .map_err(|e| {
                let field = match e {
                    GridError::ImpossibleScore { .. } => "score",
                    GridError::InvalidTile { .. } | GridError::NoTiles => "board",
                };
                GameError::InvalidImport(Fault::import("grid", field, &e, grid_location(&e)))
            })
            .map(|p| (p, None))
    }

    type Export<'a> = Export;

    fn export(&self) -> Export {
        Export::Grid {
            board: self.grid(),
            score: self.score(),
            seed: self.rng_state().to_string(),
        }
    }
}
