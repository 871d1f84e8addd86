//! `GET /v1/matches/{id}/replay.gif`: a match's record as an animated
//! replay, one frame a position, cached like the pictures.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The query of `replay.gif`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayQuery {
    /// The first ply shown (0: the match's start); the oldest kept when
    /// absent.
    from: Option<i64>,
    /// The last ply shown; the match's current ply when absent.
    to: Option<i64>,
    /// The width in pixels.
    size: Option<u32>,
    /// Turn the board.
    flip: Option<bool>,
    /// The language of the names and the result.
    lang: Option<String>,
}

/// `GET /v1/matches/{id}/replay.gif`: one frame a position from ply `from`
/// to ply `to`, the last move marked, the players and the result in a
/// band, a longer pause on the last frame. Kept in the view cache by the
/// match's version and the query; revalidated by the same.
#[tracing::instrument(skip_all, fields(id = %id))]
pub async fn replay_gif(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    query: web::Query<ReplayQuery>,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    let lang = match &query.lang {
        Some(tag) => Lang::from_tag(tag).ok_or_else(|| {
            let tags: Vec<&str> = Lang::ALL.iter().map(|l| l.tag()).collect();
            Problem::new(
                ProblemKind::InvalidQuery,
                format!("lang {tag:?} is not one of {}", tags.join(", ")),
            )
        })?,
        None => Lang::of(&req),
    };
    let rec = s
        .runner()
        .run(async move { s.kept_record(id).await })
        .await?;
    let m = &rec.game;
    let from = query.from.unwrap_or(rec.start_ply);
    let to = query.to.unwrap_or(m.ply);
    if from < rec.start_ply {
        return Err(MatchError::PlyNotKept {
            ply: from,
            oldest: rec.start_ply,
            latest: m.ply,
        }
        .into());
    }
    if to > m.ply || from > to {
        return Err(Problem::new(
            ProblemKind::InvalidQuery,
            format!(
                "from={from} and to={to} must satisfy {} <= from <= to <= {}",
                rec.start_ply, m.ply
            ),
        )
        .into());
    }
    let options = ReplayOptions {
        size: query.size.unwrap_or(ReplayOptions::default().size),
        flip: query.flip.unwrap_or(false),
        ..ReplayOptions::default()
    };
    let canonical = format!(
        "from={from}&to={to}&size={}&flip={}&lang={}",
        options.size,
        options.flip,
        lang.tag()
    );
    let tag = EntityTag::new_strong(format!(
        "{}-{:016x}",
        m.version.get(),
        xxhash_rust::xxh3::xxh3_64(canonical.as_bytes())
    ));
    let policy = HeaderValue::from_static("no-cache");
    let answer = |body: web::Bytes| {
        HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, "image/gif"))
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy.clone()))
            .append_header((header::VARY, crate::routes::pages::VARY_LANGUAGE))
            .body(body)
    };
    if conditional::client_has_in_any_coding(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy.clone()))
            .finish());
    }
    let key = format!("replay/{id}/{}/{canonical}", m.version.get());
    if let Some(hit) = cache.get(&key) {
        return Ok(answer(hit.body()));
    }
    let frames = frames(&rec, from, to)?;
    let caption = ReplayCaption {
        // A duel's seats, or the players an imported file named.
        names: if m.mode == Mode::Duel || rec.headers.is_some() {
            records::seat_names(&rec)
        } else {
            Vec::new()
        },
        result: (!m.status.is_ongoing() && to == m.ply).then(|| {
            headline_in(
                lang,
                &m.status.into(),
                m.to_move(),
                false,
                m.game.players().len() == 1,
            )
        }),
    };
    let gif = web::block(move || qipan_picture::replay_gif(&frames, &caption, &options))
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("picture thread: {e}")))?
        .map_err(crate::routes::picture::problem)?;
    let rendered = Rendered::typed(gif, HeaderValue::from_static("image/gif"));
    cache.insert(key, rendered.clone());
    Ok(answer(rendered.body()))
}

/// The positions of plies `from` to `to` of a record, each with the move
/// that led to it.
fn frames(rec: &KeptRecord, from: i64, to: i64) -> Result<Vec<ReplayFrame>, ApiError> {
    let kind = rec.game.game;
    let corrupt = |what: &str| ApiError::Internal(anyhow::anyhow!("match record: {what}"));
    let mut frames = Vec::new();
    let mut position = rec.start.clone();
    let first = usize::try_from(from - rec.start_ply).unwrap_or(0);
    let last = usize::try_from(to - rec.start_ply).unwrap_or(0);
    if first == 0 {
        frames.push(ReplayFrame {
            position: position.clone(),
            last: None,
        });
    }
    for (i, text) in rec.moves.iter().enumerate().take(last) {
        let action = AnyAction::parse(kind, text).map_err(|_| corrupt("a move"))?;
        let code = rec.codes.get(i).ok_or_else(|| corrupt("a code"))?;
        position = games::decode(kind, code, "code").map_err(|_| corrupt("a code"))?;
        if i + 1 >= first {
            frames.push(ReplayFrame {
                position: position.clone(),
                last: Some(action),
            });
        }
    }
    Ok(frames)
}
