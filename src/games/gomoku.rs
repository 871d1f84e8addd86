//! Gomoku over HTTP: free-style, standard and Renju; the view with Black's
//! forbidden points and the winning line; `rows` import and export.

use std::sync::OnceLock;

use qipan_rules::gomoku::{
    CodeError, MovesError, Point, Position, PositionError, RowsError, Stone, Variant, MAX_SIZE,
};
use qipan_rules::xiangqi::Counters;
use qipan_rules::{GameKind, Status};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize, Serializer};

use super::{not_taken, syntax_location, Fault, GameApi, GameError, StartParam};
use crate::wire::json::{JsonOut, WriteJson};
use crate::wire::problem::Location;
use crate::wire::{ActionSyntax, Description, StartQuery};

const VARIANTS: [&str; 3] = ["freestyle", "standard", "renju"];

/// One legal point in the view.
#[derive(Debug, Serialize)]
pub struct PointView {
    /// The point, the form `play` takes (`h8`).
    pub action: Named,
}

/// A point in a view, by its name (`h8`): serde writes its `Display`, and
/// [`WriteJson`] copies its quoted name from a table (a view lists
/// hundreds of points).
#[derive(Debug, Clone, Copy)]
pub struct Named(Point);

/// The JSON texts of every point, made once from its `Display` for all
/// 19×19 points, row by row from row 1, column `a` first: its name
/// (`"h8"`), and its [`PointView`] (`{"action":"h8"}`) as a span of
/// `views`, which holds them all in that order, joined by commas. A view
/// lists hundreds of points in board order, most of them side by side: a
/// run of points next to each other is one slice of `views`.
struct PointTexts {
    names: Vec<String>,
    views: String,
    /// Where each point's view starts in `views`, and ends.
    spans: Vec<(usize, usize)>,
}

impl PointTexts {
    /// The views of the points from index `first` to `last` (both in),
    /// joined by commas.
    fn views(&self, first: usize, last: usize) -> &str {
        &self.views[self.spans[first].0..self.spans[last].1]
    }
}

/// A point's place in [`PointTexts`]: its row and column are below
/// MAX_SIZE (`Point::new`).
fn text_index(p: Point) -> usize {
    usize::from(p.row()) * usize::from(MAX_SIZE) + usize::from(p.col())
}

fn point_texts() -> &'static PointTexts {
    static TEXTS: OnceLock<PointTexts> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let points: Vec<Point> = (0..MAX_SIZE)
            .flat_map(|row| (0..MAX_SIZE).filter_map(move |col| Point::new(col, row)))
            .collect();
        let mut views = String::new();
        let mut spans = Vec::with_capacity(points.len());
        for p in &points {
            if !views.is_empty() {
                views.push(',');
            }
            let start = views.len();
            views.push_str(&format!("{{\"action\":\"{p}\"}}"));
            spans.push((start, views.len()));
        }
        PointTexts {
            names: points.iter().map(|p| format!("\"{p}\"")).collect(),
            views,
            spans,
        }
    })
}

impl WriteJson for PointView {
    fn write_json(&self, out: &mut JsonOut) {
        let i = text_index(self.action.0);
        out.syntax(point_texts().views(i, i));
    }

    /// Each run of points that follow one another in board order is
    /// copied as one slice of the joined views.
    fn write_slice(items: &[PointView], out: &mut JsonOut) {
        let texts = point_texts();
        let mut array = out.array();
        let mut rest = items.iter().map(|v| text_index(v.action.0)).peekable();
        while let Some(first) = rest.next() {
            let mut last = first;
            while rest.next_if(|&i| i == last + 1).is_some() {
                last += 1;
            }
            array.item().syntax(texts.views(first, last));
        }
        array.end();
    }
}

impl Serialize for Named {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl WriteJson for Named {
    fn write_json(&self, out: &mut JsonOut) {
        out.syntax(&point_texts().names[text_index(self.0)]);
    }
}

/// The board of a view: `size` rows of `size` points, top row first,
/// column `a` first, each `black`, `white` or null.
#[derive(Debug)]
pub struct Board {
    size: u8,
    /// Row by row from the top, `size` points each.
    stones: [Option<Stone>; MAX_SIZE as usize * MAX_SIZE as usize],
}

impl Board {
    fn of(pos: &Position) -> Board {
        let size = pos.size();
        let mut stones = [None; MAX_SIZE as usize * MAX_SIZE as usize];
        let mut cells = stones.iter_mut();
        for row in (0..size).rev() {
            for (stone, cell) in pos.row_stones(row).zip(cells.by_ref()) {
                *cell = stone;
            }
        }
        Board { size, stones }
    }

    /// The rows, top first.
    fn rows(&self) -> impl Iterator<Item = &[Option<Stone>]> {
        let size = usize::from(self.size);
        self.stones[..size * size].chunks(size.max(1))
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.rows().map(|row| {
            row.iter()
                .map(|cell| cell.map(Stone::as_str))
                .collect::<Vec<_>>()
        }))
    }
}

impl WriteJson for Board {
    fn write_json(&self, out: &mut JsonOut) {
        let mut rows = out.array();
        for row in self.rows() {
            let out = rows.item();
            // Stone::as_str, quoted, or null, after the row's `[` or a
            // comma: a constant per point, each copied by its own call so
            // that its length is known where it is copied (a choice of
            // texts copied by one call is a call to memcpy per point).
            let Some((head, tail)) = row.split_first() else {
                out.syntax("[]");
                continue;
            };
            match head {
                Some(Stone::Black) => out.syntax("[\"black\""),
                Some(Stone::White) => out.syntax("[\"white\""),
                None => out.syntax("[null"),
            }
            for cell in tail {
                match cell {
                    Some(Stone::Black) => out.syntax(",\"black\""),
                    Some(Stone::White) => out.syntax(",\"white\""),
                    None => out.syntax(",null"),
                }
            }
            out.syntax("]");
        }
        rows.end();
    }
}

crate::json_object! {
    /// A point Black may not play (Renju), and why.
    #[derive(Debug, Serialize)]
    pub struct ForbiddenView {
        point: Named,
        reason: &'static str,
    }
}

crate::json_members! {
    /// The members of a gomoku view beyond the envelope.
    #[derive(Debug, Serialize)]
    pub struct Part {
        /// The board's side, 15 or 19.
        size: u8,
        /// Black's forbidden points, when Black is to move in Renju.
        forbidden: Vec<ForbiddenView>,
        /// The last stone played.
        last_move: Option<Named>,
        /// The winning line, once there is one.
        winning_line: Option<Vec<Named>>,
        /// The moves in order, while the position knows them.
        moves: Option<Vec<Named>>,
    }
}

/// The members of the `rows` import body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
// `format` is the tag, `game` and `code` are what an export view carries:
// accepted, so an export posts back as it is, and not read.
#[allow(dead_code)]
pub struct RowsBody {
    format: Option<IgnoredAny>,
    game: Option<IgnoredAny>,
    code: Option<IgnoredAny>,
    /// The rule set; free-style when absent.
    variant: Option<String>,
    /// One line per row, top first: `.` empty, `x` black, `o` white.
    text: String,
    /// The moves that made the board, space separated, to keep their order.
    moves: Option<String>,
}

/// `POST /v1/gomoku/import`.
#[derive(Debug, Deserialize)]
#[serde(tag = "format")]
pub enum Import {
    /// One text line per row.
    #[serde(rename = "rows")]
    Rows(RowsBody),
}

/// The export body.
#[derive(Debug, Serialize)]
#[serde(tag = "format")]
pub enum Export {
    /// One text line per row.
    #[serde(rename = "rows")]
    Rows {
        /// The rule set.
        variant: &'static str,
        /// The rows.
        text: String,
        /// The moves in order, while the position knows them.
        moves: Option<String>,
    },
}

fn variant(name: &str) -> Result<Variant, GameError> {
    name.parse().map_err(|_| GameError::UnknownVariant {
        game: GameKind::Gomoku,
        given: name.to_owned(),
        supported: &VARIANTS,
    })
}

fn points(list: impl IntoIterator<Item = Point>) -> Vec<Named> {
    list.into_iter().map(Named).collect()
}

fn position_location(_: &PositionError) -> Location {
    Location::default()
}

fn rows_location(e: &RowsError) -> Location {
    match e {
        // The rules count lines and columns from 1; problems count from 0.
        RowsError::RowLength { line, .. } => Location {
            row: Some(line.saturating_sub(1)),
            ..Location::default()
        },
        RowsError::BadCharacter {
            line,
            column,
            character,
            ..
        } => Location {
            row: Some(line.saturating_sub(1)),
            column: Some(column.saturating_sub(1)),
            character: Some(character.to_string()),
            ..Location::default()
        },
        RowsError::Position(p) => position_location(p),
        RowsError::RowCount { .. } | RowsError::Setup(_) => Location::default(),
    }
}

/// A move list (`h8 h9 …`) played from the empty board.
fn replay(variant: Variant, size: u8, moves: &str) -> Result<Position, GameError> {
    let bad = |index: usize, reason: &'static str, detail: String| {
        GameError::InvalidImport(Fault {
            field: "moves",
            reason,
            detail: format!("moves: move {index}: {detail}"),
            at: Box::new(Location {
                index: Some(index),
                ..Location::default()
            }),
        })
    };
    let mut list = Vec::new();
    for (index, text) in moves.split_whitespace().enumerate() {
        list.push(
            text.parse::<Point>()
                .map_err(|e| bad(index, "illegal-move", e.to_string()))?,
        );
    }
    Position::from_moves(variant, size, &list).map_err(|e| match e {
        MovesError::Illegal { index, reason } => bad(index, "illegal-move", reason.to_string()),
        MovesError::Setup(setup) => {
            GameError::InvalidImport(Fault::import("moves", "moves", &setup, Location::default()))
        }
    })
}

impl GameApi for Position {
    fn description() -> Description {
        Description {
            title: "Gomoku (five in a row), free-style, standard and Renju",
            variants: &VARIANTS,
            action_syntax: ActionSyntax {
                notation: "point",
                pattern: "^[a-s]([1-9]|1[0-9])$",
                examples: &["h8", "j10"],
                description: "the point to play: column a–o (a–s on 19×19) from the left, \
                              row 1–15 (1–19) from the bottom",
            },
            formats: &["rows"],
        }
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), GameError> {
        not_taken(
            query.seed.is_some(),
            StartParam::Seed,
            "gomoku has no chance in it and takes no seed",
        )?;
        let v = variant(query.variant.as_deref().unwrap_or("freestyle"))?;
        let pos =
            Position::new(v, query.size.unwrap_or(15)).map_err(|e| GameError::StartParam {
                param: StartParam::Size,
                detail: e.to_string(),
            })?;
        Ok((pos, true))
    }

    fn variant(&self) -> &'static str {
        Position::variant(self).as_str()
    }

    type Board = Board;

    fn board(&self) -> Board {
        Board::of(self)
    }

    type ActionView = PointView;

    fn action_view(&self, p: Point) -> PointView {
        PointView { action: Named(p) }
    }

    type Part<'a> = Part;

    fn part(&self, _trace: Option<&()>, _counters: Option<Counters>) -> Part {
        Part {
            size: self.size(),
            forbidden: self
                .forbidden()
                .into_iter()
                .map(|(p, why)| ForbiddenView {
                    point: Named(p),
                    reason: why.as_str(),
                })
                .collect(),
            last_move: self.last_move().map(Named),
            winning_line: match self.status() {
                Status::Won { .. } => self.winning_line().map(points),
                Status::Ongoing | Status::Drawn { .. } | Status::Over { .. } => None,
            },
            moves: self.moves().map(|m| points(m.iter().copied())),
        }
    }

    // The board (15×15 or 19×19 points) and the move list; a point is `{"action":"h8"},`.
    const VIEW_BYTES: usize = 2048;
    const ACTION_BYTES: usize = 18;

    fn code_location(e: &CodeError) -> Location {
        match e {
            CodeError::Syntax(s) => syntax_location(s),
            CodeError::MoveListLength { length } | CodeError::GridLength { length, .. } => {
                Location {
                    length: Some(*length),
                    ..Location::default()
                }
            }
            CodeError::GridValue { byte, value, .. } => Location {
                byte: Some(*byte),
                value: Some(u64::from(*value)),
                ..Location::default()
            },
            // `index` counts from 0 everywhere; the message counts moves from 1.
            CodeError::MoveOutOfRange { number, .. } | CodeError::IllegalMove { number, .. } => {
                Location {
                    index: Some(number.saturating_sub(1)),
                    ..Location::default()
                }
            }
            CodeError::Position(p) => position_location(p),
            CodeError::MoveListPadding
            | CodeError::HeaderBits { .. }
            | CodeError::UnknownVariant { .. }
            | CodeError::Setup(_)
            | CodeError::LastMoveOutOfRange { .. } => Location::default(),
        }
    }

    type Import = Import;
    type ImportFields = RowsBody;

    fn import(body: Import) -> Result<(Position, Option<Counters>), GameError> {
        let Import::Rows(body) = body;
        let v = match body.variant.as_deref() {
            None => Variant::Freestyle,
            Some(name) => variant(name)?,
        };
        let board = Position::from_rows(v, &body.text).map_err(|e| {
            GameError::InvalidImport(Fault::import("rows", "text", &e, rows_location(&e)))
        })?;
        let Some(moves) = body.moves else {
            return Ok((board, None));
        };
        // The move order of an export view: replayed from the empty board,
        // it must give the rows, and then the order is kept.
        let played = replay(v, board.size(), &moves)?;
        if played.to_rows() != board.to_rows() {
            return Err(GameError::InvalidImport(Fault {
                field: "moves",
                reason: "moves-differ",
                detail: "rows: the moves do not give the board of `text`".to_owned(),
                at: Box::default(),
            }));
        }
        Ok((played, None))
    }

    type Export<'a> = Export;

    fn export(&self) -> Export {
        Export::Rows {
            variant: Position::variant(self).as_str(),
            text: self.to_rows(),
            moves: self.move_list(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_is_written_as_its_display() {
        for col in 0..MAX_SIZE {
            for row in 0..MAX_SIZE {
                let p = Point::new(col, row).expect("a point below MAX_SIZE");
                let mut out = JsonOut::default();
                Named(p).write_json(&mut out);
                assert_eq!(out.into_string(), format!("\"{p}\""));
            }
        }
    }
}
