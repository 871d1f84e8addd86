//! Xiangqi over HTTP: the board with Chinese glyphs, every legal move in
//! ICCS, WXF and Chinese notation, FEN import and export.

use std::sync::OnceLock;

use qipan_rules::xiangqi::{
    self as xq, read_move, CodeError, Counters, Fen, FenError, History, Move, MoveTextError, Name,
    Namer, Piece, Position, PositionError, Role, Side, Square,
};
use qipan_rules::{AnyPlayer, GameKind, Reason};
use serde::de::IgnoredAny;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Serialize, Serializer};

use super::{
    not_taken, standard_only, syntax_location, ActionText, Fault, GameApi, GameError, StartParam,
};
use crate::wire::json::{JsonOut, WriteJson};
use crate::wire::problem::Location;
use crate::wire::state::LineBody;
use crate::wire::{ActionSyntax, Description, StartQuery};

/// One legal move in the view.
#[derive(Debug, Serialize)]
pub struct MoveView {
    /// ICCS coordinates, the form `play` takes (`h2e2`).
    pub action: Iccs,
    /// WXF notation (`C2.5`).
    pub wxf: Inline,
    /// Traditional Chinese notation (`炮二平五`).
    pub chinese: Inline,
    /// The point the piece leaves.
    pub from: &'static str,
    /// The point it reaches.
    pub to: &'static str,
    /// The piece's role.
    pub piece: RoleName,
    /// The role of the piece captured, if any.
    pub capture: Option<RoleName>,
}

/// The view of a legal move `m` of `pos`, named `names`.
fn move_view(pos: &Position, m: Move, names: Option<xq::Names>) -> MoveView {
    let piece = pos
        .piece_at(m.from)
        .expect("a legal move starts on a piece of the side to move");
    let names = names.expect("a legal move starts on a piece, so it has names");
    MoveView {
        action: Iccs(m),
        wxf: Inline(names.wxf),
        chinese: Inline(names.chinese),
        from: m.from.name(),
        to: m.to.name(),
        piece: RoleName(piece.role),
        capture: pos.piece_at(m.to).map(|p| RoleName(p.role)),
    }
}

/// A role in a view, by its English name (`chariot`).
#[derive(Debug, Clone, Copy)]
pub struct RoleName(Role);

impl Serialize for RoleName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.as_str())
    }
}

impl RoleName {
    /// Writes the name without quotes (see [`JsonOut::raw`]): a constant
    /// per role, so that each copy has its length known where it is made.
    #[inline(always)]
    fn write_raw(self, out: &mut JsonOut) {
        match self.0 {
            Role::General => out.raw("general"),
            Role::Advisor => out.raw("advisor"),
            Role::Elephant => out.raw("elephant"),
            Role::Horse => out.raw("horse"),
            Role::Chariot => out.raw("chariot"),
            Role::Cannon => out.raw("cannon"),
            Role::Soldier => out.raw("soldier"),
        }
    }
}

/// What [`crate::json_object!`] would write, member by member: a view
/// lists dozens of moves, and this is most of its text. The ASCII runs
/// (syntax, points, the WXF name) are templates with the move's letters
/// put in, each written as one copy ([`JsonOut::ascii`]); the Chinese name
/// character by character; the roles as constants.
impl WriteJson for MoveView {
    fn write_json(&self, out: &mut JsonOut) {
        let m = self.action.0;
        let (from, to) = (point_bytes(m.from), point_bytes(m.to));
        let mut head = *MOVE_HEAD;
        head[ACTION_AT..ACTION_AT + 2].copy_from_slice(&from);
        head[ACTION_AT + 2..ACTION_AT + 4].copy_from_slice(&to);
        head[WXF_AT..WXF_AT + 4].copy_from_slice(&self.wxf.0.to_chars().map(ascii_byte));
        out.ascii(&head);
        out.raw_chars(self.chinese.0.to_chars());
        let mut points = *MOVE_POINTS;
        points[FROM_AT..FROM_AT + 2].copy_from_slice(&from);
        points[TO_AT..TO_AT + 2].copy_from_slice(&to);
        out.ascii(&points);
        self.piece.write_raw(out);
        match self.capture {
            Some(role) => {
                out.syntax("\",\"capture\":\"");
                role.write_raw(out);
                out.syntax("\"}");
            }
            None => out.syntax("\",\"capture\":null}"),
        }
    }
}

/// A move's object up to its Chinese name, with room for the ICCS action
/// at [`ACTION_AT`] and the WXF name at [`WXF_AT`].
const MOVE_HEAD: &[u8; 41] = b"{\"action\":\"h2e2\",\"wxf\":\"C2.5\",\"chinese\":\"";
const ACTION_AT: usize = 11;
const WXF_AT: usize = 24;
/// From the end of the Chinese name to the piece's role, with room for
/// the two points at [`FROM_AT`] and [`TO_AT`].
const MOVE_POINTS: &[u8; 33] = b"\",\"from\":\"h2\",\"to\":\"e2\",\"piece\":\"";
const FROM_AT: usize = 10;
const TO_AT: usize = 20;

/// A point's ICCS name as its two ASCII bytes (`h2`).
fn point_bytes(sq: Square) -> [u8; 2] {
    [b'a' + sq.file(), b'0' + sq.rank()]
}

/// A character of a WXF name (a letter, a digit or `+-.`) as its byte.
fn ascii_byte(c: char) -> u8 {
    u8::try_from(c).unwrap_or(b'?')
}

/// A move in ICCS (`h2e2`): serde writes its `Display`, [`WriteJson`] the
/// names of its two points, without the formatting machinery.
#[derive(Debug)]
pub struct Iccs(Move);

impl Serialize for Iccs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl WriteJson for Iccs {
    fn write_json(&self, out: &mut JsonOut) {
        out.names(&[self.0.from.name(), self.0.to.name()]);
    }
}

/// A move's name, written as a JSON string straight from the stack.
#[derive(Debug)]
pub struct Inline(Name);

impl Serialize for Inline {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.encode(&mut [0; 16]))
    }
}

/// WXF and Chinese names are ASCII letters, digits, `+-.=` and CJK
/// numerals and glyphs: nothing JSON escapes.
impl WriteJson for Inline {
    fn write_json(&self, out: &mut JsonOut) {
        out.chars(self.0.chars());
    }
}

/// The board of a view: ten rows of nine points, black's back rank (ICCS
/// rank 9) first, file `a` first in each row; written straight from the
/// position, with no intermediate rows.
#[derive(Debug)]
pub struct Board(Position);

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((0..10u8).map(|row| Row(&self.0, row)))
    }
}

impl WriteJson for Board {
    fn write_json(&self, out: &mut JsonOut) {
        let mut rows = out.array();
        for row in 0..10u8 {
            Row(&self.0, row).write_json(rows.item());
        }
        rows.end();
    }
}

/// One row of a [`Board`].
struct Row<'a>(&'a Position, u8);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(9))?;
        for file in 0..9u8 {
            seq.serialize_element(&self.cell(file))?;
        }
        seq.end()
    }
}

impl Row<'_> {
    fn cell(&self, file: u8) -> Option<CellView> {
        let Row(pos, row) = *self;
        Square::from_file_row(file, row)
            .and_then(|s| pos.piece_at(s))
            .map(CellView::of)
    }
}

impl WriteJson for Row<'_> {
    fn write_json(&self, out: &mut JsonOut) {
        let Row(pos, row) = *self;
        let mut cells = out.array();
        for file in 0..9u8 {
            let out = cells.item();
            match Square::from_file_row(file, row).and_then(|s| pos.piece_at(s)) {
                Some(piece) => out.syntax(cell_text(piece)),
                None => out.syntax("null"),
            }
        }
        cells.end();
    }
}

/// The JSON text of a point holding `piece`: a board shows up to 32, each
/// one of fourteen texts, written by serde_json from [`CellView`] once.
fn cell_text(piece: Piece) -> &'static str {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        Side::ALL
            .into_iter()
            .flat_map(|side| Role::ALL.into_iter().map(move |role| Piece { side, role }))
            .map(|p| {
                serde_json::to_string(&CellView::of(p))
                    .expect("three strings from tables serialize")
            })
            .collect()
    });
    let role = Role::ALL
        .iter()
        .position(|&r| r == piece.role)
        .expect("Role::ALL lists every role");
    &texts[piece.side.index() * Role::ALL.len() + role]
}

/// One occupied point of the board.
#[derive(Debug, Serialize)]
pub struct CellView {
    side: &'static str,
    role: &'static str,
    glyph: char,
}

impl CellView {
    fn of(p: Piece) -> CellView {
        CellView {
            side: p.side.as_str(),
            role: p.role.as_str(),
            glyph: p.role.chinese(p.side),
        }
    }
}

crate::json_members! {
    /// The members of a xiangqi view beyond the envelope.
    #[derive(Debug, Serialize)]
    pub struct Part {
        /// The position in FEN, with the counters of the line that reached it
        /// when the view has one (a play that sent its `history`, an import, a
        /// match); a code alone knows none and writes `0 1`.
        fen: String,
    }
}

/// The members of the `fen` import body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
// `format` is the tag, `game` and `code` are what an export view carries:
// accepted, so an export posts back as it is, and not read.
#[allow(dead_code)]
pub struct FenBody {
    format: Option<IgnoredAny>,
    game: Option<IgnoredAny>,
    code: Option<IgnoredAny>,
    /// The FEN.
    text: String,
    /// `standard` or null.
    variant: Option<String>,
}

/// `POST /v1/xiangqi/import`.
#[derive(Debug, Deserialize)]
#[serde(tag = "format")]
pub enum Import {
    /// FEN (`rnbakabnr/9/… w`).
    #[serde(rename = "fen")]
    Fen(FenBody),
}

/// The export body.
#[derive(Debug, Serialize)]
#[serde(tag = "format")]
pub enum Export {
    /// FEN.
    #[serde(rename = "fen")]
    Fen {
        /// The FEN.
        text: String,
    },
}

fn position_location(e: &PositionError) -> Location {
    match e {
        PositionError::ImpossiblePoint { square, .. } => Location {
            point: Some(square.to_string()),
            row: Some(usize::from(square.row())),
            column: Some(usize::from(square.file())),
            ..Location::default()
        },
        PositionError::GeneralsFacing { file } => Location {
            file: Some(char::from(b'a' + file).to_string()),
            column: Some(usize::from(*file)),
            ..Location::default()
        },
        PositionError::TooManyPieces { .. }
        | PositionError::MissingGeneral { .. }
        | PositionError::OpponentInCheck { .. } => Location::default(),
    }
}

fn fen_location(e: &FenError) -> Location {
    // FEN ranks count from 1 (black's back rank); problems count rows from 0.
    let at = |rank: Option<usize>, offset: Option<usize>| Location {
        row: rank.map(|r| r.saturating_sub(1)),
        offset,
        ..Location::default()
    };
    match e {
        FenError::InvalidCharacter {
            rank,
            offset,
            character,
        } => Location {
            character: Some(character.to_string()),
            ..at(Some(*rank), Some(*offset))
        },
        FenError::RankTooLong { rank, offset } => at(Some(*rank), Some(*offset)),
        FenError::RankTooShort { rank, .. } => at(Some(*rank), None),
        FenError::InvalidSide { offset, .. } | FenError::InvalidTrailer { offset, .. } => {
            at(None, Some(*offset))
        }
        FenError::Position(pe) => position_location(pe),
        FenError::Empty | FenError::WrongRankCount { .. } | FenError::MissingSide => {
            Location::default()
        }
    }
}

impl GameApi for Position {
    fn description() -> Description {
        Description {
            title: "Xiangqi (Chinese chess)",
            variants: &["standard"],
            action_syntax: ActionSyntax {
                notation: "ICCS",
                pattern: "^[a-i][0-9][a-i][0-9]$",
                examples: &["h2e2", "h9g7"],
                description: "from-point then to-point; files a–i from red's left, ranks 0–9 from red's side. \
                              Each listed move also carries its WXF (C2.5) and Chinese (炮二平五) forms, \
                              and play takes those too, resolved against the position.",
            },
            formats: &["fen"],
        }
    }

    /// ICCS first, as the API writes moves; then the notations people
    /// write, resolved against the position: Chinese (炮二平五, 马８进７,
    /// 前车平四, traditional characters too) and WXF (C2.5, +R-4).
    fn read_action(&self, text: &str) -> Result<Move, ActionText> {
        let iccs = match text.parse::<Move>() {
            Ok(mv) => return Ok(mv),
            Err(e) => e,
        };
        read_move(self, text).map_err(|e| match e {
            MoveTextError::Parse(written) => ActionText::Malformed {
                reason: iccs.reason(),
                detail: format!("{iccs}; nor is it a Chinese or WXF move: {written}"),
            },
            MoveTextError::Resolve(e) => ActionText::Illegal {
                reason: e.reason(),
                detail: e.to_string(),
            },
        })
    }

    fn start(query: &StartQuery) -> Result<(Position, bool), GameError> {
        standard_only(GameKind::Xiangqi, query.variant.as_deref())?;
        not_taken(
            query.seed.is_some(),
            StartParam::Seed,
            "xiangqi has no chance in it and takes no seed",
        )?;
        not_taken(
            query.size.is_some(),
            StartParam::Size,
            "xiangqi is played on one board and takes no size",
        )?;
        Ok((Position::start(), true))
    }

    fn check(&self) -> bool {
        self.is_check()
    }

    fn history_of(&self, sent: &LineBody) -> Result<History, GameError> {
        super::line::leading_to(self, sent)
    }

    fn play_along(
        &self,
        actions: &[String],
        sent: &LineBody,
        base: &str,
    ) -> Result<String, GameError> {
        super::line::play(self, actions, sent, base)
    }

    /// A side with no chariot, horse, cannon or soldier cannot win: its
    /// general, advisors and elephants never leave its own half of the
    /// board, so they can never give mate.
    fn can_win(&self, side: AnyPlayer) -> bool {
        match side {
            AnyPlayer::Xiangqi(side) => self.has_mating_material(side),
            _ => false,
        }
    }

    type Board = Board;

    fn board(&self) -> Board {
        Board(self.clone())
    }

    type ActionView = MoveView;

    fn action_view(&self, m: Move) -> MoveView {
        let names = xq::names(self, m);
        move_view(self, m, names)
    }

    fn legal_views(&self) -> Vec<MoveView> {
        let namer = Namer::new(self);
        self.legal_actions()
            .into_iter()
            .map(|m| move_view(self, m, namer.names(m)))
            .collect()
    }

    type Part<'a> = Part;

    fn part(&self, _trace: Option<&()>, counters: Option<Counters>) -> Part {
        Part {
            fen: match counters {
                Some(counters) => self.to_fen_with(counters),
                None => self.to_fen(),
            },
        }
    }

    // Ten rows of points, 32 pieces at most, and the FEN; a move with its names is about 100.
    const VIEW_BYTES: usize = 2400;
    const ACTION_BYTES: usize = 112;

    fn code_location(e: &CodeError) -> Location {
        match e {
            CodeError::Syntax(s) => syntax_location(s),
            CodeError::UnusedBitSet { byte, .. } => Location {
                byte: Some(*byte),
                ..Location::default()
            },
            CodeError::SquareOutOfRange { byte, value, .. } => Location {
                byte: Some(*byte),
                value: Some(u64::from(*value)),
                ..Location::default()
            },
            CodeError::TwoPiecesOnOnePoint {
                square,
                first_byte,
                second_byte,
                ..
            } => Location {
                point: Some(square.to_string()),
                bytes: Some([*first_byte, *second_byte]),
                ..Location::default()
            },
            CodeError::Position(pe) => position_location(pe),
        }
    }

    type Import = Import;
    type ImportFields = FenBody;

    fn import(body: Import) -> Result<(Position, Option<Counters>), GameError> {
        let Import::Fen(body) = body;
        standard_only(GameKind::Xiangqi, body.variant.as_deref())?;
        let fen: Fen = body.text.parse().map_err(|e| {
            GameError::InvalidImport(Fault::import("FEN", "text", &e, fen_location(&e)))
        })?;
        Ok((fen.position, Some(fen.counters)))
    }

    type Export<'a> = Export;

    fn export(&self) -> Export {
        Export::Fen {
            text: self.to_fen(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_is_written_as_its_display() {
        let squares =
            (0..9u8).flat_map(|f| (0..10u8).filter_map(move |r| Square::from_file_row(f, r)));
        for from in squares.clone() {
            for to in squares.clone() {
                let m = Move { from, to };
                let mut out = JsonOut::default();
                Iccs(m).write_json(&mut out);
                assert_eq!(out.into_string(), format!("\"{m}\""));
            }
        }
    }
}
