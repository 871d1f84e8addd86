//! Tetris over HTTP: the field with the active piece, the queue and hold,
//! score, lines and level, every placement a bot may aim for, and what the
//! last lock did; the `json` import and export form.

use qipan_rules::tetris::{
    Action, Cells, CodeError, Kind, Lock, Position, Setup, SetupError, VISIBLE,
};
use qipan_rules::xiangqi::Counters;
use qipan_rules::GameKind;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::{seeded_start, syntax_location, Fault, GameApi, GameError, Parsed, Seed};
use crate::wire::problem::Location;
use crate::wire::{ActionSyntax, Description, StartQuery};

crate::json_object! {
    /// One legal action in the view.
    #[derive(Debug, Serialize)]
    pub struct ActionView {
        /// `left`, `right`, `cw`, `ccw`, `soft`, `hard`, `hold` or `tick`.
        pub action: &'static str,
    }
}

crate::json_object! {
    /// The active piece.
    #[derive(Debug, Serialize)]
    pub struct PieceView {
        kind: &'static str,
        rotation: &'static str,
        /// `[column, row]`, row 0 at the bottom.
        cells: Vec<[u8; 2]>,
    }
}

crate::json_object! {
    /// A place the active piece can lock, and how to get it there.
    #[derive(Debug, Serialize)]
    pub struct PlacementView {
        kind: &'static str,
        rotation: &'static str,
        cells: Vec<[u8; 2]>,
        tspin: Option<&'static str>,
        actions: Vec<&'static str>,
    }
}

crate::json_object! {
    /// What the last lock did.
    #[derive(Debug, Serialize)]
    pub struct LockView {
        lines: u8,
        tspin: Option<&'static str>,
        points: u32,
    }
}

crate::json_members! {
    /// The members of a tetris view beyond the envelope.
    #[derive(Debug, Serialize)]
    pub struct Part {
        piece: Option<PieceView>,
        ghost: Option<Vec<[u8; 2]>>,
        queue: Vec<&'static str>,
        hold: Option<&'static str>,
        can_hold: bool,
        score: u64,
        lines: u32,
        level: u32,
        seed: String,
        placements: Vec<PlacementView>,
        last_lock: Option<LockView>,
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
    /// Rows top first, bottom-aligned, `X` or `.`.
    rows: Option<Vec<String>>,
    /// The active piece.
    piece: Parsed<Kind>,
    /// The preview, next first.
    queue: Option<Vec<Parsed<Kind>>>,
    /// The held piece.
    hold: Option<Parsed<Kind>>,
    /// The generator state.
    seed: Seed,
    /// The score; 0 when absent.
    score: Option<u64>,
    /// Lines cleared; 0 when absent.
    lines: Option<u32>,
    /// The level; `lines / 10 + 1` when absent.
    level: Option<u32>,
}

/// `POST /v1/tetris/import`.
#[derive(Debug, Deserialize)]
#[serde(tag = "format")]
pub enum Import {
    /// The field, pieces and counters.
    #[serde(rename = "json")]
    Json(JsonBody),
}

/// The export body.
#[derive(Debug, Serialize)]
#[serde(tag = "format")]
pub enum Export {
    /// The field, pieces and counters.
    #[serde(rename = "json")]
    Json {
        /// Rows top first.
        rows: Vec<String>,
        /// The active piece.
        piece: &'static str,
        /// The preview.
        queue: Vec<&'static str>,
        /// The held piece.
        hold: Option<&'static str>,
        /// The generator state, in decimal digits.
        seed: String,
        /// The score.
        score: u64,
        /// Lines cleared.
        lines: u32,
        /// The level.
        level: u32,
    },
}

fn cells(c: Cells) -> Vec<[u8; 2]> {
    c.iter().map(|&(col, row)| [col, row]).collect()
}

fn names(kinds: &[Kind]) -> Vec<&'static str> {
    kinds.iter().map(|k| k.as_str()).collect()
}

/// The member of the import body a setup error is about, and where.
fn setup_fault(e: &SetupError) -> (&'static str, Location) {
    let row = |row: usize| Location {
        row: Some(row),
        ..Location::default()
    };
    match e {
        SetupError::RowLength { row: r, .. } | SetupError::FullRow { row: r } => ("rows", row(*r)),
        SetupError::BadCell {
            row: r,
            col,
            character,
        } => (
            "rows",
            Location {
                column: Some(*col),
                character: Some(character.to_string()),
                ..row(*r)
            },
        ),
        SetupError::QueueTooLong { .. } => ("queue", Location::default()),
        SetupError::LevelTooLow { .. } => ("level", Location::default()),
        SetupError::TooManyRows { .. }
        | SetupError::SpawnBlocked { .. }
        | SetupError::PieceCollides { .. }
        | SetupError::GameOver => ("rows", Location::default()),
    }
}

impl GameApi for Position {
    fn description() -> Description {
        Description {
            title: "Tetris (guideline rules, SRS, 7-bag)",
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "input",
                pattern: "^(left|right|cw|ccw|soft|hard|hold|tick)$",
                examples: &["left", "cw", "hard"],
                description: "one player input; a request may carry a whole batch of them",
            },
            formats: &["json"],
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), GameError> {
        let why = "tetris is played on a 10-wide field and takes no size";
        seeded_start(GameKind::Tetris, query, why, Position::new)
    }

    /// The 20 visible rows, top first, 10 cells each: null (empty), `X`
    /// (the stack) or the active piece's letter.
    type Board = Vec<Vec<Option<&'static str>>>;

    fn board(&self) -> Self::Board {
        let piece = self.piece();
        // `field()` lists the visible rows top first; cells count rows from
        // the bottom.
        let top = VISIBLE as u8 - 1;
        self.field()
            .iter()
            .zip(0..)
            .map(|(cells, from_top)| {
                cells
                    .iter()
                    .zip(0..)
                    .map(|(&filled, col)| match &piece {
                        Some((kind, _, cs)) if cs.contains(&(col, top - from_top)) => {
                            Some(kind.as_str())
                        }
                        _ => filled.then_some("X"),
                    })
                    .collect()
            })
            .collect()
    }

    type ActionView = ActionView;

    fn action_view(&self, a: Action) -> ActionView {
        ActionView { action: a.as_str() }
    }

    type Part<'a> = Part;

    fn part(&self, trace: Option<&Option<Lock>>, _counters: Option<Counters>) -> Part {
        Part {
            piece: self.piece().map(|(k, r, c)| PieceView {
                kind: k.as_str(),
                rotation: r.as_str(),
                cells: cells(c),
            }),
            ghost: self.ghost().map(cells),
            queue: names(&self.queue()),
            hold: self.hold().map(Kind::as_str),
            can_hold: self.can_hold(),
            score: self.score(),
            lines: self.lines(),
            level: self.level(),
            seed: self.rng_state().to_string(),
            placements: self
                .placements()
                .into_iter()
                .map(|p| PlacementView {
                    kind: p.kind.as_str(),
                    rotation: p.rotation.as_str(),
                    cells: cells(p.cells),
                    tspin: p.tspin.map(|t| t.as_str()),
                    actions: p.actions.iter().map(|a| a.as_str()).collect(),
                })
                .collect(),
            last_lock: trace.and_then(Option::as_ref).map(|lock| LockView {
                lines: lock.lines,
                tspin: lock.tspin.map(|t| t.as_str()),
                points: lock.points,
            }),
        }
    }

    // Twenty rows of ten cells and every placement with its actions; an action is its name.
    const VIEW_BYTES: usize = 7168;
    const ACTION_BYTES: usize = 24;

    fn code_location(e: &CodeError) -> Location {
        match e {
            CodeError::Syntax(s) => syntax_location(s),
            CodeError::UnknownVersion { .. } => Location {
                byte: Some(0),
                ..Location::default()
            },
            // The code counts rows from the bottom; its message names the
            // row that way, and no `row` member (counted from the top
            // everywhere) is sent.
            CodeError::FullRow { .. }
            | CodeError::Truncated { .. }
            | CodeError::TrailingData { .. }
            | CodeError::OutOfRange { .. }
            | CodeError::NotCanonical { .. }
            | CodeError::PieceCollides { .. }
            | CodeError::OverPieceMisplaced
            | CodeError::RotatedO
            | CodeError::HoldUsedWithoutHold
            | CodeError::RepeatedInBag { .. }
            | CodeError::LevelTooLow { .. } => Location::default(),
        }
    }

    type Import = Import;
    type ImportFields = JsonBody;

    fn import(body: Import) -> Result<(Position, Option<Counters>), GameError> {
        let Import::Json(body) = body;
        let setup = Setup {
            rows: body.rows.unwrap_or_default(),
            piece: body.piece.0,
            queue: body
                .queue
                .unwrap_or_default()
                .into_iter()
                .map(|k| k.0)
                .collect(),
            hold: body.hold.map(|k| k.0),
            seed: body.seed.0,
            score: body.score.unwrap_or(0),
            lines: body.lines.unwrap_or(0),
            level: body.level,
        };
        Position::from_setup(&setup)
            .map_err(|e| {
                let (field, at) = setup_fault(&e);
                GameError::InvalidImport(Fault::import("json", field, &e, at))
            })
            .map(|p| (p, None))
    }

    type Export<'a> = Export;

    fn export(&self) -> Export {
        let s = self.to_setup();
        Export::Json {
            rows: s.rows,
            piece: s.piece.as_str(),
            queue: names(&s.queue),
            hold: s.hold.map(Kind::as_str),
            seed: s.seed.to_string(),
            score: s.score,
            lines: s.lines,
            level: s.level.unwrap_or_else(|| self.level()),
        }
    }
}
