//! Game records: `POST /v1/{game}/records` (a file in, a solo match out),
//! `GET /v1/matches/{id}/record.{pgn,xqf,psq,txt}` (a match's record as a
//! download), `GET /v1/matches/{id}/record.json` (every move with its
//! code, for a replay), `GET /v1/matches/{id}/replay.gif` (its animated replay),
//! and Tetris fumen: `GET /v1/tetris/{code}/fumen` and the `fumen` format
//! of `POST /v1/tetris/import`. Which game reads and writes what:
//! [`crate::records`].

use actix_web::http::header::{self, EntityTag, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use qipan_picture::{ReplayCaption, ReplayFrame, ReplayOptions};
use qipan_records::xiangqi::{pgn, xqf, Charset};
use qipan_rules::{AnyAction, AnyPosition, GameKind};
use serde::{Deserialize, Serialize};

use super::matches::{created, Id, Service};
use super::state::{Code, Game};
use crate::games;
use crate::http::answer::Rendered;
use crate::http::cache::ViewCache;
use crate::http::conditional;
use crate::http::limits::{Admitted, Creates};
use crate::matches::{KeptRecord, MatchError, Mode, Outcome};
use crate::pages::{headline_in, Lang};
use crate::problem::{ApiError, Problem, ProblemKind};
use crate::records::{self, RecordError};
use crate::wire::StartQuery;

mod fumen;
mod replay;

pub use fumen::{fumen, fumen_import, is_fumen, FumenImport};
pub use replay::{replay_gif, ReplayQuery};

/// Reads a body of at most `limit` bytes, and one byte more when it is
/// longer (which the reader refuses as too large) without reading the
/// rest.
async fn body_upto(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, ApiError> {
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            Problem::new(
                ProblemKind::MalformedBody,
                format!("the body could not be read: {e}"),
            )
        })?;
        body.extend_from_slice(&chunk);
        if body.len() > limit {
            body.truncate(limit + 1);
            break;
        }
    }
    Ok(body)
}

/// What an import answer says of the record besides the match.
#[derive(Serialize)]
struct ImportView {
    format: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    charset: Option<&'static str>,
    plies: usize,
    games: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    headers: Option<HeadersView>,
}

/// A xiangqi record's headers, as read.
#[derive(Serialize)]
struct HeadersView {
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    site: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    red: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<String>,
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ecco: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<String>,
}

/// `POST /v1/{game}/records`: the body is a record file; the answer, `201`,
/// is a solo match at the end of its main line (the match view with its
/// `token`), with an `import` member saying what was read.
#[tracing::instrument(skip_all, fields(game = %kind))]
pub async fn import(
    Service(s): Service,
    Game(kind): Game,
    _: Admitted<Creates>,
    base: super::state::Base,
    req: HttpRequest,
    query: web::Query<StartQuery>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let media_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    // The media type is refused before the body is read.
    records::check_media(kind, media_type.as_deref())?;
    let body = body_upto(payload, records::MAX_BODY).await?;
    let query = query.into_inner();
    let imported = web::block(move || records::import(kind, media_type.as_deref(), &body, &query))
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("record thread: {e}")))??;
    let plies = imported.actions.len();
    let note = imported.note.clone().or_else(|| {
        (imported.games > 1).then(|| {
            format!(
                "the file holds {} games; the first was imported",
                imported.games
            )
        })
    });
    let headers = imported.headers.as_ref().map(|h| {
        let opening = h.opening.clone();
        HeadersView {
            event: h.event.clone(),
            site: h.site.clone(),
            date: h.date.clone(),
            red: h.red.clone(),
            black: h.black.clone(),
            result: h.result.as_pgn(),
            ecco: h.ecco.clone(),
            opening,
        }
    });
    let view = ImportView {
        format: imported.format,
        charset: imported.charset,
        plies,
        games: imported.games,
        note,
        headers,
    };
    let at = base.0.clone();
    let kept = imported.file_headers();
    let outcome = s
        .runner()
        .run(async move {
            s.create_played(
                imported.start,
                imported.counters,
                &imported.actions,
                kept,
                &base.0,
            )
            .await
        })
        .await?;
    let mut body: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&outcome.view).map_err(|e| ApiError::Internal(e.into()))?;
    body.insert(
        "import".to_owned(),
        serde_json::to_value(&view).map_err(|e| ApiError::Internal(e.into()))?,
    );
    let view = serde_json::to_vec(&body).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(created(&at, Outcome { view, ..outcome }))
}

/// The query of `record.pgn`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PgnQuery {
    /// `chinese` (the default), `wxf` or `iccs`.
    notation: Option<String>,
    /// `utf-8` (the default) or `gbk`.
    charset: Option<String>,
}

/// `GET /v1/matches/{id}/record.pgn`
pub async fn record_pgn(
    service: Service,
    id: Id,
    req: HttpRequest,
    base: super::state::Base,
    query: web::Query<PgnQuery>,
) -> Result<HttpResponse, ApiError> {
    let family = records::family(query.notation.as_deref()).ok_or_else(|| {
        Problem::new(
            ProblemKind::InvalidQuery,
            format!(
                "notation {:?} is not one of chinese, wxf, iccs",
                query.notation.as_deref().unwrap_or_default()
            ),
        )
    })?;
    let charset = match query.charset.as_deref() {
        None => Charset::Utf8,
        Some(label) => match Charset::from_label(label) {
            Some(c @ (Charset::Utf8 | Charset::Gbk)) => c,
            _ => {
                return Err(Problem::new(
                    ProblemKind::InvalidQuery,
                    format!("charset {label:?} is not one of utf-8, gbk"),
                )
                .into())
            }
        },
    };
    export(service, id, req, base, "pgn", move |rec| {
        pgn::write(rec, family, charset).map_err(|e| ApiError::Internal(e.into()))
    })
    .await
}

/// `GET /v1/matches/{id}/record.xqf`
pub async fn record_xqf(
    service: Service,
    id: Id,
    req: HttpRequest,
    base: super::state::Base,
) -> Result<HttpResponse, ApiError> {
    export(service, id, req, base, "xqf", |rec| {
        xqf::write(rec).map_err(|e| ApiError::Internal(e.into()))
    })
    .await
}

/// `GET /v1/matches/{id}/record.psq`
pub async fn record_psq(
    service: Service,
    id: Id,
    req: HttpRequest,
    base: super::state::Base,
) -> Result<HttpResponse, ApiError> {
    export(service, id, req, base, "psq", |_| unreachable_format()).await
}

/// `GET /v1/matches/{id}/record.txt`
pub async fn record_txt(
    service: Service,
    id: Id,
    req: HttpRequest,
    base: super::state::Base,
) -> Result<HttpResponse, ApiError> {
    export(service, id, req, base, "txt", |_| unreachable_format()).await
}

/// The xiangqi writer of a format that is not xiangqi's: never called, as
/// the game's formats are checked first.
fn unreachable_format() -> Result<Vec<u8>, ApiError> {
    Err(ApiError::Internal(anyhow::anyhow!(
        "a xiangqi writer was asked for another game's format"
    )))
}

/// A match's record in `ext` (one of its game's export formats), as a
/// download named after its players and date; revalidated by the match's
/// version.
async fn export(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    base: super::state::Base,
    ext: &'static str,
    xiangqi: impl FnOnce(&qipan_records::xiangqi::Record) -> Result<Vec<u8>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let rec = s
        .runner()
        .run(async move { s.kept_record(id).await })
        .await?;
    let kind = rec.game.game;
    let formats = records::export_formats(kind);
    let Some(&(_, media)) = formats.iter().find(|(e, _)| *e == ext) else {
        let supported: Vec<&'static str> = formats.iter().map(|(e, _)| *e).collect();
        let detail = if supported.is_empty() {
            format!("{kind} matches have no record format; record.{ext} is not written")
        } else {
            format!(
                "{kind} matches are written as record.{}, not record.{ext}",
                supported.join(", record.")
            )
        };
        return Err(Problem::with(
            ProblemKind::UnsupportedFormat,
            detail,
            crate::wire::problem::Members::Field(crate::wire::problem::FieldMembers {
                field: "format".to_owned(),
                index: None,
                supported: Some(supported),
            }),
        )
        .into());
    };
    let tag = EntityTag::new_strong(format!(
        "{}-{:016x}",
        rec.game.version.get(),
        xxhash_rust::xxh3::xxh3_64(format!("{ext}?{}", req.query_string()).as_bytes())
    ));
    let name = records::download_name(&rec, ext);
    let body = match kind {
        GameKind::Xiangqi => {
            let page = crate::matches::match_page_url(&base.0, id);
            let record = records::xiangqi_record(&rec, &page).ok_or_else(|| {
                ApiError::Internal(anyhow::anyhow!("match {id}: its kept moves do not replay"))
            })?;
            xiangqi(&record)?
        }
        GameKind::Gomoku => gomoku_export(&rec, ext)?,
        GameKind::Quoridor if rec.start_ply == 0 => {
            qipan_records::quoridor::write_texts(&rec.moves).into_bytes()
        }
        GameKind::Quoridor => return Err(not_from_start(&rec)),
        GameKind::Twenty48 | GameKind::Tetris => unreachable_format()?,
    };
    let policy = HeaderValue::from_static("no-cache");
    if conditional::client_has_in_any_coding(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy))
            .finish());
    }
    let content_type = if media == "text/plain" {
        "text/plain; charset=utf-8".to_owned()
    } else if ext == "pgn" {
        let charset = if req
            .query_string()
            .to_ascii_lowercase()
            .contains("charset=gbk")
        {
            "gbk"
        } else {
            "utf-8"
        };
        format!("{media}; charset={charset}")
    } else {
        media.to_owned()
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CONTENT_DISPOSITION, records::disposition(&name)))
        .insert_header((header::ETAG, tag.to_string()))
        .insert_header((header::CACHE_CONTROL, policy))
        .body(body))
}

/// `ply-not-kept`: a move list must start at the game's start, and the
/// moves before `start_ply` are not kept.
fn not_from_start(rec: &KeptRecord) -> ApiError {
    MatchError::PlyNotKept {
        ply: 0,
        oldest: rec.start_ply,
        latest: rec.game.ply,
    }
    .into()
}

/// A gomoku match as `.psq` or a move list: its position's own move list
/// (a gomoku position keeps every stone's order when it was played from
/// an empty board), else the kept moves from an empty board.
fn gomoku_export(rec: &KeptRecord, ext: &str) -> Result<Vec<u8>, ApiError> {
    let AnyPosition::Gomoku(pos) = &rec.game.position else {
        return unreachable_format();
    };
    let moves: Vec<qipan_rules::gomoku::Point> = match pos.moves() {
        Some(moves) => moves.to_vec(),
        None if rec.start_ply == 0 => rec.moves.iter().filter_map(|m| m.parse().ok()).collect(),
        None => return Err(not_from_start(rec)),
    };
    Ok(match ext {
        "psq" => {
            let names = records::seat_names(rec);
            let name = |i: usize| names.get(i).and_then(Option::as_deref);
            qipan_records::gomoku::write_psq(pos.size(), &moves, [name(0), name(1)])
        }
        _ => qipan_records::gomoku::write_moves(&moves),
    }
    .into_bytes())
}

/// One move of a record's JSON.
#[derive(Serialize)]
struct RecordMoveView<'a> {
    ply: i64,
    action: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    wxf: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chinese: Option<String>,
    /// The state code after the move.
    code: &'a str,
}

/// What an imported file said of the game, in a record's JSON.
#[derive(Serialize)]
struct FileHeadersView<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    site: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    round: Option<&'a str>,
    players: [Option<&'a str>; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a str>,
}

/// The answer of `record.json`.
#[derive(Serialize)]
struct RecordView<'a> {
    id: String,
    game: &'static str,
    ply: i64,
    version: i64,
    start_ply: i64,
    start_code: String,
    moves: Vec<RecordMoveView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    headers: Option<FileHeadersView<'a>>,
}

/// `GET /v1/matches/{id}/record.json`: every move of the match's record
/// with the state code after it, from the position its record starts at:
/// what a replay steps through. Revalidated by the match's version.
pub async fn record_json(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    use qipan_rules::xiangqi as xq;
    let rec = s
        .runner()
        .run(async move { s.kept_record(id).await })
        .await?;
    let m = &rec.game;
    let tag = EntityTag::new_strong(format!("{}-json", m.version.get()));
    let policy = HeaderValue::from_static("no-cache");
    if conditional::client_has_in_any_coding(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy))
            .finish());
    }
    let mut before = rec.start.xiangqi().cloned();
    let mut moves = Vec::with_capacity(rec.moves.len());
    for (i, (action, code)) in rec.moves.iter().zip(&rec.codes).enumerate() {
        // Xiangqi moves carry their WXF and Chinese names, as `/history`.
        let names = before.as_ref().and_then(|p| {
            let mv: xq::Move = action.parse().ok()?;
            xq::names(p, mv)
        });
        if before.is_some() {
            before = xq::Position::from_code(code).ok();
        }
        moves.push(RecordMoveView {
            ply: rec.start_ply + i as i64 + 1,
            action,
            wxf: names.map(|n| n.wxf.to_string()),
            chinese: names.map(|n| n.chinese.to_string()),
            code,
        });
    }
    let headers = rec.headers.as_ref().map(|h| FileHeadersView {
        event: h.event.as_deref(),
        site: h.site.as_deref(),
        date: h.date.as_deref(),
        round: h.round.as_deref(),
        players: [h.players[0].as_deref(), h.players[1].as_deref()],
        result: h.result.as_deref(),
    });
    let body = serde_json::to_vec(&RecordView {
        id: id.to_string(),
        game: m.game.as_str(),
        ply: m.ply,
        version: m.version.get(),
        start_ply: rec.start_ply,
        start_code: rec.start.to_code(),
        moves,
        headers,
    })
    .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "application/json"))
        .insert_header((header::ETAG, tag.to_string()))
        .insert_header((header::CACHE_CONTROL, policy))
        .body(body))
}
