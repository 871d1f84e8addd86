//! Tetris over HTTP: the field with the active piece, the queue and hold,
//! score, lines and level, every placement a bot may aim for, and what the
//! last lock did; the `json` import and export form.

use qipan_rules::tetris::{Cells, CodeError, Kind, Position, SetupError, QUEUE_LEN};
use qipan_rules::GameKind;
use serde::Serialize;
use serde_json::{Map, Value};

use super::seeded;
use super::{field, import_format, not_taken, only_fields, standard_only, GameApi, Step};
use crate::problem::{Problem, ProblemKind};
use crate::wire::{ActionSyntax, GameInfo, StartQuery, StatusView};

/// The tetris adapter.
pub struct Tetris;

/// One legal action in the view.
#[derive(Debug, Serialize)]
pub struct ActionView {
    /// `left`, `right`, `cw`, `ccw`, `soft`, `hard`, `hold` or `tick`.
    pub action: &'static str,
}

#[derive(Serialize)]
struct PieceView {
    kind: &'static str,
    rotation: &'static str,
    /// `[column, row]`, row 0 at the bottom.
    cells: Vec<[u8; 2]>,
}

#[derive(Serialize)]
struct PlacementView {
    kind: &'static str,
    rotation: &'static str,
    cells: Vec<[u8; 2]>,
    tspin: Option<&'static str>,
    actions: Vec<&'static str>,
}

#[derive(Serialize)]
struct LockView {
    lines: u8,
    tspin: Option<&'static str>,
    points: u32,
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
    /// The 20 visible rows, top first, 10 cells each: null (empty), `X`
    /// (the stack) or the active piece's letter.
    board: Vec<Vec<Option<&'static str>>>,
    legal_actions: &'a [ActionView],
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

fn cells(c: Cells) -> Vec<[u8; 2]> {
    c.iter().map(|&(col, row)| [col, row]).collect()
}

fn kind(name: &str, what: &str) -> Result<Kind, Problem> {
    name.parse::<Kind>().map_err(|e| {
        Problem::new(ProblemKind::InvalidField, format!("`{what}`: {e}")).with("field", what)
    })
}

impl GameApi for Tetris {
    type State = Position;
    type ActionView = ActionView;
    const KIND: GameKind = GameKind::Tetris;

    fn info() -> GameInfo {
        GameInfo {
            game: "tetris",
            title: "Tetris (guideline rules, SRS, 7-bag)",
            players: &["player"],
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "input",
                pattern: "^(left|right|cw|ccw|soft|hard|hold|tick)$",
                examples: &["left", "cw", "hard"],
                description: "one player input; a request may carry a whole batch of them",
            },
            formats: &["json"],
            start: "/v1/tetris/start".to_owned(),
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), Problem> {
        standard_only(Self::KIND, query.variant.as_deref())?;
        not_taken(
            query.size.is_some(),
            "size",
            "tetris is played on a 10-wide field and takes no size",
        )?;
        Ok(seeded(query.seed, Position::new))
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
            .map(|a| ActionView { action: a.as_str() })
            .collect()
    }

    fn view(
        pos: &Position,
        code: String,
        url: String,
        last: Option<&Step<Position>>,
    ) -> Result<Vec<u8>, serde_json::Error> {
        let legal = Self::action_views(pos);
        let piece = pos.piece();
        let board = pos
            .rows()
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let r = 19 - i as u8;
                row.chars()
                    .enumerate()
                    .map(|(c, ch)| {
                        let in_piece = piece
                            .as_ref()
                            .is_some_and(|(_, _, cs)| cs.contains(&(c as u8, r)));
                        match (in_piece, ch) {
                            (true, _) => piece.as_ref().map(|(k, _, _)| k.as_str()),
                            (false, 'X') => Some("X"),
                            (false, _) => None,
                        }
                    })
                    .collect()
            })
            .collect();
        let lock = last
            .and_then(|step| step.before.play_traced(step.action).ok())
            .and_then(|(_, lock)| lock);
        serde_json::to_vec(&View {
            game: "tetris",
            variant: "standard",
            code,
            url,
            to_move: "player",
            status: pos.outcome().into(),
            check: false,
            board,
            legal_actions: &legal,
            piece: piece.map(|(k, r, c)| PieceView {
                kind: k.as_str(),
                rotation: r.as_str(),
                cells: cells(c),
            }),
            ghost: pos.ghost().map(cells),
            queue: pos.queue().iter().map(|k| k.as_str()).collect(),
            hold: pos.hold().map(Kind::as_str),
            can_hold: pos.can_hold(),
            score: pos.score(),
            lines: pos.lines(),
            level: pos.level(),
            seed: pos.rng_state().to_string(),
            placements: pos
                .placements()
                .into_iter()
                .map(|p| PlacementView {
                    kind: p.kind.as_str(),
                    rotation: p.rotation.as_str(),
                    cells: cells(p.cells),
                    tspin: p.tspin,
                    actions: p.actions.iter().map(|a| a.as_str()).collect(),
                })
                .collect(),
            last_lock: lock.map(|s| LockView {
                lines: s.lines,
                tspin: s.tspin,
                points: s.points,
            }),
        })
    }

    fn import(body: &Value) -> Result<Position, Problem> {
        import_format(Self::KIND, body, &["json"])?;
        only_fields(
            body,
            &[
                "format", "rows", "piece", "queue", "hold", "seed", "score", "lines", "level",
            ],
        )?;
        let rows: Vec<String> = match body.get("rows") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) => field(body, "rows")?,
        };
        let piece = kind(&field::<String>(body, "piece")?, "piece")?;
        let queue_names: Vec<String> = match body.get("queue") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) => field(body, "queue")?,
        };
        if queue_names.len() > QUEUE_LEN {
            return Err(Problem::new(
                ProblemKind::InvalidField,
                format!(
                    "`queue` has {} pieces; it shows at most {QUEUE_LEN}",
                    queue_names.len()
                ),
            )
            .with("field", "queue"));
        }
        let queue = queue_names
            .iter()
            .map(|n| kind(n, "queue"))
            .collect::<Result<Vec<_>, _>>()?;
        let hold = match body.get("hold") {
            None | Some(Value::Null) => None,
            Some(_) => Some(kind(&field::<String>(body, "hold")?, "hold")?),
        };
        let seed = super::twenty48::seed(body)?;
        let optional = |name: &str| -> Result<Option<u64>, Problem> {
            match body.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(_) => field(body, name).map(Some),
            }
        };
        let score = optional("score")?.unwrap_or(0);
        let lines = u32::try_from(optional("lines")?.unwrap_or(0)).map_err(|_| {
            Problem::new(ProblemKind::InvalidField, "`lines` is too large").with("field", "lines")
        })?;
        let level = optional("level")?
            .map(|l| {
                u32::try_from(l).map_err(|_| {
                    Problem::new(ProblemKind::InvalidField, "`level` is too large")
                        .with("field", "level")
                })
            })
            .transpose()?;
        Position::from_setup(&rows, piece, &queue, hold, seed, score, lines, level)
            .map_err(|e| setup_problem(&e))
    }

    fn export(pos: &Position, format: &str) -> Result<Map<String, Value>, Problem> {
        match format {
            "json" => {
                let s = pos.to_setup();
                let mut fields = Map::new();
                fields.insert("rows".into(), serde_json::json!(s.rows));
                fields.insert("piece".into(), Value::from(s.piece.as_str()));
                fields.insert(
                    "queue".into(),
                    serde_json::json!(s.queue.iter().map(|k| k.as_str()).collect::<Vec<_>>()),
                );
                fields.insert(
                    "hold".into(),
                    s.hold.map_or(Value::Null, |k| Value::from(k.as_str())),
                );
                fields.insert("seed".into(), Value::from(s.seed.to_string()));
                fields.insert("score".into(), Value::from(s.score));
                fields.insert("lines".into(), Value::from(s.lines));
                fields.insert("level".into(), Value::from(s.level));
                Ok(fields)
            }
            other => Err(Problem::new(
                ProblemKind::UnsupportedFormat,
                format!("tetris does not export {other:?}"),
            )),
        }
    }
}

fn setup_problem(e: &SetupError) -> Problem {
    let p = Problem::new(ProblemKind::InvalidImport, format!("json: {e}"));
    let (reason, field) = match e {
        SetupError::TooManyRows { .. } => ("too-many-rows", "rows"),
        SetupError::RowLength { .. } => ("row-length", "rows"),
        SetupError::BadCell { .. } => ("invalid-character", "rows"),
        SetupError::FullRow { .. } => ("full-row", "rows"),
        SetupError::QueueTooLong { .. } => ("queue-too-long", "queue"),
        SetupError::LevelTooLow { .. } => ("level-too-low", "level"),
        SetupError::SpawnBlocked { .. } => ("spawn-blocked", "rows"),
        SetupError::PieceCollides { .. } => ("piece-collides", "rows"),
        SetupError::GameOver => ("game-over", "rows"),
    };
    let p = p.with("reason", reason).with("field", field);
    match e {
        SetupError::RowLength { row, .. } | SetupError::FullRow { row } => p.with("row", row),
        SetupError::BadCell {
            row,
            col,
            character,
        } => p
            .with("row", row)
            .with("col", col)
            .with("character", character.to_string()),
        SetupError::TooManyRows { .. }
        | SetupError::QueueTooLong { .. }
        | SetupError::LevelTooLow { .. }
        | SetupError::SpawnBlocked { .. }
        | SetupError::PieceCollides { .. }
        | SetupError::GameOver => p,
    }
}

fn invalid_code(e: &CodeError) -> Problem {
    let p = Problem::new(ProblemKind::InvalidCode, e.to_string()).with("field", "code");
    match e {
        CodeError::Padding { offset } => p.with("reason", "padding").with("offset", offset),
        CodeError::InvalidCharacter { offset, character } => p
            .with("reason", "invalid-character")
            .with("offset", offset)
            .with("character", character.to_string()),
        CodeError::InvalidLength { length } => {
            p.with("reason", "wrong-length").with("length", length)
        }
        CodeError::TrailingBits { .. } | CodeError::TrailingData { .. } => {
            p.with("reason", "trailing-bits")
        }
        CodeError::Truncated { .. } => p.with("reason", "wrong-length"),
        CodeError::UnknownVersion { .. } => p.with("reason", "unknown-version").with("byte", 0),
        CodeError::OutOfRange { .. } => p.with("reason", "value-out-of-range"),
        CodeError::NotCanonical { .. } => p.with("reason", "not-canonical"),
        CodeError::FullRow { .. } => p.with("reason", "full-row"),
        CodeError::PieceCollides { .. } => p.with("reason", "piece-collides"),
        CodeError::OverPieceMisplaced
        | CodeError::RotatedO
        | CodeError::HoldUsedWithoutHold
        | CodeError::RepeatedInBag { .. }
        | CodeError::LevelTooLow { .. } => p.with("reason", "impossible-state"),
    }
}
