//! Game records in and out of matches: which formats each game reads and
//! writes, reading a body into a start and moves, and writing a match's
//! record. The formats themselves are the `qipan-records` crate's; the
//! routes (`crate::routes::records`) read bodies and answer; the problems
//! are made in `crate::problem`.
//!
//! | game | import (`POST /v1/{game}/records`, by `Content-Type`) | export (`GET /v1/matches/{id}/record.*`) |
//! |---|---|---|
//! | xiangqi | `application/x-chess-pgn` (PGN), `application/x-xqf` (XQF), `text/plain` (DhtmlXQ) | `record.pgn`, `record.xqf` |
//! | gomoku | `text/plain`: a piskvork `.psq` file or a move list; `application/octet-stream`: a RenLib `.pos` file, or a RenLib `.lib` library (told by its header); `application/x-renlib`: a `.lib` library (its first line) | `record.psq`, `record.txt` |
//! | quoridor | `text/plain`: a move list (`e2 e8 e3h`) | `record.txt` |
//!
//! Tetris positions go through fumen instead: `GET /v1/tetris/{code}/fumen`
//! and `POST /v1/tetris/import` with `{"format": "fumen", …}`.

use qipan_records::gomoku::{self, GomokuError};
use qipan_records::quoridor::QuoridorError;
use qipan_records::tetris::FumenError;
use qipan_records::xiangqi::{self as xr, Charset, Format, ReadError};
use qipan_rules::xiangqi::{self as xq, Counters, Family, Fen};
use qipan_rules::{AnyPlayer, AnyPosition, GameKind};

use crate::games;
use crate::matches::{FileHeaders, KeptRecord, MatchStatus, Seat};
use crate::wire::StartQuery;

/// The most bytes a record body may have.
pub const MAX_BODY: usize = qipan_records::MAX_INPUT_BYTES;

/// The most moves a record may have: what the rules play in one batch.
pub const MAX_PLIES: usize = games::MAX_ACTIONS;

/// Why a record cannot be imported or exported.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The body is larger than [`MAX_BODY`].
    #[error("the body has more than {limit} bytes; a record may have at most {limit}")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// A `Content-Type` the game does not read.
    #[error("{game} reads records sent as {}, not {}", supported.join(", "), sent.as_deref().unwrap_or("a body without Content-Type"))]
    MediaType {
        /// The game.
        game: GameKind,
        /// What was sent.
        sent: Option<String>,
        /// What it reads.
        supported: &'static [&'static str],
    },
    /// A `charset` that is none of UTF-8, GBK/GB18030, Big5.
    #[error("charset {given:?} is not read; send utf-8, gbk (gb18030) or big5, or none to have it detected")]
    Charset {
        /// What was sent.
        given: String,
    },
    /// A game whose records are not read or written here.
    #[error("{game} has no record format here{}", if *.game == GameKind::Tetris { "; Tetris positions go through fumen: GET /v1/tetris/{code}/fumen and POST /v1/tetris/import" } else { "" })]
    NoFormat {
        /// The game.
        game: GameKind,
    },
    /// A xiangqi record that cannot be read.
    #[error("{format}: {error}")]
    Xiangqi {
        /// The format.
        format: &'static str,
        /// Why.
        error: ReadError,
    },
    /// A gomoku record that cannot be read.
    #[error("gomoku record ({format}): {error}")]
    Gomoku {
        /// The format read: `pos`, `psq` or `moves`.
        format: &'static str,
        /// Why.
        error: GomokuError,
    },
    /// A Quoridor move list that cannot be read.
    #[error("quoridor move list: {0}")]
    Quoridor(QuoridorError),
    /// A fumen that cannot be read or written.
    #[error("fumen: {0}")]
    Fumen(FumenError),
    /// A record longer than [`MAX_PLIES`].
    #[error("the record has {plies} moves; a record may have at most {limit}")]
    TooLong {
        /// Its moves.
        plies: usize,
        /// The limit.
        limit: usize,
    },
}

/// A record read from a body: where it starts, its moves, and what the
/// answer says about it.
#[derive(Debug)]
pub struct Imported {
    /// The start.
    pub start: AnyPosition,
    /// Xiangqi: the start's FEN counters.
    pub counters: Option<Counters>,
    /// The moves, in the game's canonical notation.
    pub actions: Vec<String>,
    /// The format read (`pgn`, `xqf`, `dhtmlxq`, `psq`, `moves`).
    pub format: &'static str,
    /// The charset read in, for the text formats that have one.
    pub charset: Option<&'static str>,
    /// How many games the body holds (the first is imported).
    pub games: usize,
    /// Xiangqi: the record's headers that the answer repeats.
    pub headers: Option<xr::Headers>,
    /// The other games: the players the file names, in the game's order
    /// (a `.psq` file's program names, black's first).
    pub players: [Option<String>; 2],
    /// What the answer says of a file read only in part (a RenLib
    /// library's other lines).
    pub note: Option<String>,
}

/// The gomoku formats, told by the media type and, for a binary body, by
/// its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GomokuFormat {
    /// RenLib's `.lib`: `application/x-renlib`, or a binary body starting
    /// with RenLib's header.
    Lib,
    /// RenLib's `.pos`: any other binary body.
    Pos,
    /// piskvork's `.psq`: a text whose first line names piskvork.
    Psq,
    /// A move list: any other text.
    Moves,
}

impl GomokuFormat {
    fn of(media_type: &str, body: &[u8]) -> GomokuFormat {
        match essence(media_type).as_str() {
            "application/x-renlib" => GomokuFormat::Lib,
            "application/octet-stream" if gomoku::is_lib(body) => GomokuFormat::Lib,
            "application/octet-stream" => GomokuFormat::Pos,
            _ if gomoku::is_psq(body) => GomokuFormat::Psq,
            _ => GomokuFormat::Moves,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            GomokuFormat::Lib => "lib",
            GomokuFormat::Pos => "pos",
            GomokuFormat::Psq => "psq",
            GomokuFormat::Moves => "moves",
        }
    }
}

/// The most characters of a header value kept with a match; a longer one
/// is cut (a file's headers are free text).
pub const HEADER_MAX: usize = 200;

impl Imported {
    /// What the match keeps of the file's headers: event, site, date,
    /// round, the players and the result it names (`None` when the file
    /// says none of them).
    pub fn file_headers(&self) -> Option<FileHeaders> {
        let keep = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(|v| v.chars().take(HEADER_MAX).collect::<String>())
        };
        let Some(h) = self.headers.as_ref() else {
            let kept = FileHeaders {
                players: [keep(&self.players[0]), keep(&self.players[1])],
                ..FileHeaders::default()
            };
            return (kept != FileHeaders::default()).then_some(kept);
        };
        let kept = FileHeaders {
            event: keep(&h.event),
            site: keep(&h.site),
            date: keep(&h.date),
            round: keep(&h.round),
            players: [keep(&h.red), keep(&h.black)],
            result: (h.result != xr::Outcome::Unknown).then(|| h.result.as_pgn().to_owned()),
            ply: 0,
        };
        (kept != FileHeaders::default()).then_some(kept)
    }
}

/// The media types a game's records are read from.
pub fn media_types(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Xiangqi => &["application/x-chess-pgn", "application/x-xqf", "text/plain"],
        GameKind::Gomoku => &[
            "text/plain",
            "application/octet-stream",
            "application/x-renlib",
        ],
        GameKind::Quoridor => &["text/plain"],
        GameKind::Twenty48 | GameKind::Tetris => &[],
    }
}

/// The `charset` parameter of a media type, if it has one.
///
/// # Errors
///
/// [`RecordError::Charset`] for a charset not read.
pub fn charset_of(media_type: &str) -> Result<Option<Charset>, RecordError> {
    let given = media_type.split(';').skip(1).find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').to_owned())
    });
    match given {
        None => Ok(None),
        Some(label) => Charset::from_label(&label)
            .map(Some)
            .ok_or(RecordError::Charset { given: label }),
    }
}

fn essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

fn too_long(plies: usize) -> Result<(), RecordError> {
    if plies > MAX_PLIES {
        return Err(RecordError::TooLong {
            plies,
            limit: MAX_PLIES,
        });
    }
    Ok(())
}

/// Reads a record of `game` from `body`, sent as `media_type`; `query`
/// picks a gomoku variant and board when the record does not say them.
///
/// # Errors
///
/// [`RecordError`]: a media type or charset not read, a record that
/// cannot be read or is too long; the game's refusal of the start.
pub fn import(
    game: GameKind,
    media_type: Option<&str>,
    body: &[u8],
    query: &StartQuery,
) -> Result<Imported, ImportError> {
    let media_type = check_media(game, media_type)?;
    let refused = || RecordError::MediaType {
        game,
        sent: Some(media_type.chars().take(100).collect()),
        supported: media_types(game),
    };
    if body.len() > MAX_BODY {
        return Err(RecordError::TooLarge { limit: MAX_BODY }.into());
    }
    match game {
        GameKind::Xiangqi => {
            let format = Format::from_media_type(media_type).ok_or_else(refused)?;
            let charset = charset_of(media_type)?;
            let name = match format {
                Format::Pgn => "pgn",
                Format::Xqf => "xqf",
                Format::DhtmlXq => "dhtmlxq",
            };
            let records =
                xr::read(body, format, charset).map_err(|error| RecordError::Xiangqi {
                    format: name,
                    error,
                })?;
            let games = records.len();
            let record = records.into_iter().next().ok_or(RecordError::Xiangqi {
                format: name,
                error: ReadError::Pgn(xr::pgn::PgnError::Empty),
            })?;
            too_long(record.moves.len())?;
            let detected = match format {
                Format::Xqf => None,
                Format::Pgn | Format::DhtmlXq => Some(
                    charset
                        .or_else(|| xr_charset(body))
                        .unwrap_or(Charset::Utf8)
                        .as_str(),
                ),
            };
            Ok(Imported {
                start: record.start.position.clone().into(),
                counters: Some(record.start.counters),
                actions: record.main_line().iter().map(ToString::to_string).collect(),
                format: name,
                charset: detected,
                games,
                headers: Some(record.headers),
                players: [None, None],
                note: None,
            })
        }
        GameKind::Gomoku => {
            let format = GomokuFormat::of(media_type, body);
            let refused = |error| RecordError::Gomoku {
                format: format.as_str(),
                error,
            };
            let (list, note) = match format {
                GomokuFormat::Lib => {
                    let library = gomoku::read_lib(body).map_err(refused)?;
                    let note = (library.lines > 1).then(|| {
                        format!(
                            "the library holds {} lines ({} moves); the first line, {} moves, was imported",
                            library.lines,
                            library.tree_moves,
                            library.main_line.moves.len()
                        )
                    });
                    (library.main_line, note)
                }
                GomokuFormat::Pos => (gomoku::read_pos(body).map_err(refused)?, None),
                GomokuFormat::Psq | GomokuFormat::Moves => {
                    (gomoku::read(body).map_err(refused)?, None)
                }
            };
            too_long(list.moves.len())?;
            let start_query = StartQuery {
                variant: query.variant.clone(),
                seed: None,
                size: list.size.or(query.size),
            };
            let (start, _) = games::start(game, &start_query)?;
            Ok(Imported {
                start,
                counters: None,
                actions: list.moves.iter().map(ToString::to_string).collect(),
                format: format.as_str(),
                charset: None,
                games: 1,
                headers: None,
                players: list.players,
                note,
            })
        }
        GameKind::Quoridor => {
            let moves = qipan_records::quoridor::read_moves(body).map_err(RecordError::Quoridor)?;
            too_long(moves.len())?;
            let (start, _) = games::start(game, &StartQuery::default())?;
            Ok(Imported {
                start,
                counters: None,
                actions: moves.iter().map(ToString::to_string).collect(),
                format: "moves",
                charset: None,
                games: 1,
                headers: None,
                players: [None, None],
                note: None,
            })
        }
        GameKind::Twenty48 | GameKind::Tetris => Err(RecordError::NoFormat { game }.into()),
    }
}

/// Checks that `game` reads records sent as `media_type` (and its
/// `charset`, if named), before the body is read.
///
/// # Errors
///
/// [`RecordError::NoFormat`], [`RecordError::MediaType`],
/// [`RecordError::Charset`].
pub fn check_media(game: GameKind, media_type: Option<&str>) -> Result<&str, RecordError> {
    let supported = media_types(game);
    if supported.is_empty() {
        return Err(RecordError::NoFormat { game });
    }
    let refused = || RecordError::MediaType {
        game,
        sent: media_type.map(|m| m.chars().take(100).collect()),
        supported,
    };
    let media_type = media_type.ok_or_else(refused)?;
    let read = supported.contains(&essence(media_type).as_str())
        || (game == GameKind::Xiangqi && Format::from_media_type(media_type).is_some());
    if !read {
        return Err(refused());
    }
    charset_of(media_type)?;
    Ok(media_type)
}

/// The charset a text body reads as, when none was named.
fn xr_charset(body: &[u8]) -> Option<Charset> {
    xr::detect_charset(body)
}

/// An import's refusal: the record's, or the game's (a start it refuses).
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The record.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The game.
    #[error(transparent)]
    Game(#[from] games::GameError),
}

/// The export formats of a game's matches: extension and media type.
pub fn export_formats(game: GameKind) -> &'static [(&'static str, &'static str)] {
    match game {
        GameKind::Xiangqi => &[
            ("pgn", "application/x-chess-pgn"),
            ("xqf", "application/x-xqf"),
        ],
        GameKind::Gomoku => &[("psq", "text/plain"), ("txt", "text/plain")],
        GameKind::Quoridor => &[("txt", "text/plain")],
        GameKind::Twenty48 | GameKind::Tetris => &[],
    }
}

/// A match's record as a xiangqi [`xr::Record`]: its start (with the
/// counters its ply implies), its moves, and headers from the match.
/// `None` for another game or moves that do not replay (never, for a
/// stored match).
pub fn xiangqi_record(rec: &KeptRecord, site: &str) -> Option<xr::Record> {
    let start = rec.start.xiangqi()?;
    let mut moves = Vec::with_capacity(rec.moves.len());
    for text in &rec.moves {
        let m: xq::Move = text.parse().ok()?;
        moves.push(xr::Step::new(m));
    }
    let counters = Counters {
        halfmove_clock: rec.start_halfmove.unwrap_or(0),
        fullmove_number: u32::try_from(rec.start_ply / 2 + 1).unwrap_or(1),
    };
    let m = &rec.game;
    let name = |side: &str| {
        rec.seats
            .iter()
            .find(|s| matches!(s.seat, Seat::Side(p) if p.as_str() == side))
            .and_then(recorded_name)
    };
    let file = rec.headers.clone().unwrap_or_default();
    let result = match m.status {
        MatchStatus::Won { winner, .. } if winner.as_str() == "red" => xr::Outcome::RedWins,
        MatchStatus::Won { .. } => xr::Outcome::BlackWins,
        MatchStatus::Drawn { .. } => xr::Outcome::Draw,
        // The file's result, while the match is where the file left it.
        MatchStatus::Ongoing | MatchStatus::Over { .. } => file
            .result
            .as_deref()
            .filter(|_| rec.headers.is_some() && m.ply == file.ply)
            .and_then(xr::Outcome::from_pgn)
            .unwrap_or(xr::Outcome::Unknown),
    };
    let [red, black] = file.players;
    let mut record = xr::Record {
        headers: xr::Headers {
            event: file.event.or_else(|| Some("qipan".to_owned())),
            site: file.site.or_else(|| Some(site.to_owned())),
            date: file.date.or_else(|| created_date(rec)),
            round: file.round,
            red: name("red").or(red),
            black: name("black").or(black),
            result,
            termination: m.status.reason().map(|r| r.as_str().to_owned()),
            ..xr::Headers::default()
        },
        start: Fen {
            position: start.clone(),
            counters,
        },
        comment: None,
        moves,
    };
    if rec.start_ply == 0 {
        if let Some(opening) = record.opening() {
            record.headers.ecco = Some(opening.code.to_owned());
            record.headers.opening = Some(opening.name.to_owned());
            record.headers.variation =
                (!opening.variation.is_empty()).then(|| opening.variation.to_owned());
        }
    }
    Some(record)
}

/// The notation a `notation` query names.
pub fn family(name: Option<&str>) -> Option<Family> {
    match name.unwrap_or("chinese") {
        "chinese" => Some(Family::Chinese),
        "wxf" => Some(Family::Wxf),
        "iccs" => Some(Family::Iccs),
        _ => None,
    }
}

/// The name a record gives a seat: its holder's display name, or for the
/// computer `qipan (level N)`, as records name engines.
fn recorded_name(seat: &crate::matches::SeatSlot) -> Option<String> {
    match (&seat.computer, &seat.name) {
        (Some(c), _) => Some(format!("qipan (level {})", c.level.get())),
        (None, name) => name.as_ref().map(|n| n.as_str().to_owned()),
    }
}

/// The players of a match by its game's order: a seat's name, else the
/// name its imported file gave; `None` for neither (a solo match has no
/// seat names).
pub fn seat_names(rec: &KeptRecord) -> Vec<Option<String>> {
    rec.game
        .game
        .players()
        .iter()
        .enumerate()
        .map(|(i, &p): (usize, &AnyPlayer)| {
            rec.seats
                .iter()
                .find(|s| s.seat == Seat::Side(p))
                .and_then(recorded_name)
                .or_else(|| {
                    rec.headers
                        .as_ref()
                        .and_then(|h| h.players.get(i).cloned().flatten())
                })
        })
        .collect()
}

/// The day a match was made, written `yyyy.mm.dd`.
fn created_date(rec: &KeptRecord) -> Option<String> {
    Some(rec.game.created_at.rfc3339().get(..10)?.replace('-', "."))
}

/// A download's name for a match's record in `ext`: its players and its
/// date (the imported file's, else the day the match was made).
pub fn download_name(rec: &KeptRecord, ext: &str) -> String {
    let date = rec
        .headers
        .as_ref()
        .and_then(|h| h.date.clone())
        .or_else(|| created_date(rec))
        .unwrap_or_else(|| "0000.00.00".to_owned());
    file_name(&seat_names(rec), &date, ext)
}

/// A download's `Content-Disposition`: an ASCII `filename` (other
/// characters as `_`) and the full name as RFC 6266's `filename*`.
pub fn disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' && c != '%' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut encoded = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// A file name from the players and the date: `name1-name2-2026.11.28.ext`,
/// `record-<date>.ext` without names; characters file systems refuse
/// become `_`.
pub fn file_name(names: &[Option<String>], date: &str, ext: &str) -> String {
    let mut parts: Vec<String> = names.iter().flatten().cloned().collect();
    if parts.is_empty() {
        parts.push("record".to_owned());
    }
    parts.push(date.to_owned());
    let stem: String = parts
        .join("-")
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() || c.is_whitespace() => '_',
            c => c,
        })
        .take(80)
        .collect();
    format!("{stem}.{ext}")
}

#[cfg(test)]
mod tests;
