//! Pictures of positions: `GET /v1/{game}/{code}/picture.svg|png` (a pure
//! function of the URL: immutable, cached like state views) and `GET
//! /v1/matches/{id}/picture.svg|png` (the match's current position with its
//! last move marked and, for a duel, each seat's name and clock and how it
//! ended; revalidated by the match's version). Beside each, `card.png`: the
//! chat card, 1200 × 630, the board with a caption that says what the share
//! page says (the game, the players, how it stands, the last move), which
//! the share pages name as their preview image.
//!
//! Drawing is the `qipan-picture` crate's; here the query becomes its
//! [`Options`], and PNG rendering, which takes milliseconds, runs on the
//! blocking pool so it never holds up a worker.

use actix_web::http::header::{self, EntityTag, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use qipan_picture::{
    Card, ClockFace, Options, Panel, PanelPlayer, PictureError, Pieces, CARD_WIDTH,
};
use qipan_rules::{AnyAction, AnyPlayer, AnyPosition, GameKind};

use super::matches::{Id, Service};
use super::state::{Code, Game};
use crate::games;
use crate::http::answer::{immutable, Rendered};
use crate::http::cache::ViewCache;
use crate::http::conditional;
use crate::http::limits::charge_picture;
use crate::matches::clock::slot;
use crate::matches::{KeptMove, Mode, Seat, Snapshot};
use crate::pages::{game_name, headline_in, player_name, Lang};
use crate::problem::{ApiError, Problem, ProblemKind};
use crate::routes::pages::VARY_LANGUAGE;
use crate::wire::picture::PictureQuery;
use crate::wire::state::StatusView;

/// The forms of a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `image/svg+xml`, text drawn as outlines so it looks the same
    /// everywhere.
    Svg,
    /// `image/png`, rendered from the same SVG.
    Png,
    /// The chat card, `image/png`: the board beside a caption.
    Card,
}

/// What a picture shows besides the board.
enum Around {
    /// Nothing: the board alone.
    Nothing,
    /// A duel's bands and result line.
    Panel(Panel),
    /// A chat card's caption.
    Caption(Card),
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Card => "card.png",
        }
    }

    fn content_type(self) -> HeaderValue {
        match self {
            Format::Svg => HeaderValue::from_static("image/svg+xml"),
            Format::Png | Format::Card => HeaderValue::from_static("image/png"),
        }
    }

    /// Draws `pos` with what goes `around` it; PNG on the blocking pool.
    async fn draw(
        self,
        pos: AnyPosition,
        options: Options,
        around: Around,
    ) -> Result<Vec<u8>, ApiError> {
        let drawn = match (self, around) {
            (Format::Svg, Around::Nothing) => {
                qipan_picture::svg(&pos, &options).map(String::into_bytes)
            }
            (Format::Svg, Around::Panel(panel)) => {
                qipan_picture::duel_svg(&pos, &options, &panel).map(String::into_bytes)
            }
            (Format::Svg, Around::Caption(card)) => {
                qipan_picture::card_svg(&pos, &options, &card).map(String::into_bytes)
            }
            (Format::Png | Format::Card, around) => web::block(move || match around {
                Around::Nothing => qipan_picture::png(&pos, &options),
                Around::Panel(panel) => qipan_picture::duel_png(&pos, &options, &panel),
                Around::Caption(card) => qipan_picture::card_png(&pos, &options, &card),
            })
            .await
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("picture thread: {e}")))?,
        };
        drawn.map_err(problem)
    }

    /// What a render costs against the `pictures` budget: an SVG one
    /// unit, a PNG one per 512 × 512 pixels begun (a card is 1200 × 630
    /// at its default width).
    fn cost(self, options: &Options) -> usize {
        const UNIT: u64 = 512 * 512;
        let width = u64::from(options.size);
        let pixels = match self {
            Format::Svg => return 1,
            Format::Png => width * width,
            Format::Card => width * width * 630 / 1200,
        };
        usize::try_from(pixels.div_ceil(UNIT).max(1)).unwrap_or(usize::MAX)
    }

    /// The options of the query, a card's width defaulting to the size
    /// link previews ask for.
    fn options(self, kind: GameKind, query: &PictureQuery) -> Result<Options, ApiError> {
        let mut options = options(kind, query)?;
        if self == Format::Card && query.size.is_none() {
            options.size = CARD_WIDTH;
        }
        Ok(options)
    }
}

/// A picture the options do not allow (a size out of bounds, a `last` move
/// that cannot have led to the position) is the client's to fix; a drawing
/// the renderer refuses is the service's fault.
pub fn problem(e: PictureError) -> ApiError {
    match e {
        // The drawing is the service's own: a renderer's refusal is a bug,
        // and so is a panel asked of a one-player game (duels have two).
        PictureError::Render { .. } | PictureError::NotADuel { .. } => {
            ApiError::Internal(anyhow::Error::new(e))
        }
        // A frame of a replay refused for its own reason is refused so.
        PictureError::InFrame { error, .. } => problem(*error),
        PictureError::SizeOutOfRange { .. }
        | PictureError::LastOfAnotherGame { .. }
        | PictureError::ImpossibleLast { .. }
        | PictureError::ReplaySizeOutOfRange { .. }
        | PictureError::EmptyReplay
        | PictureError::TooManyFrames { .. }
        | PictureError::MixedFrames { .. } => {
            Problem::new(ProblemKind::InvalidQuery, e.to_string()).into()
        }
    }
}

/// The query, read against the game: `bottom` must name one of its
/// players, `last` must be written in its notation.
fn options(kind: GameKind, query: &PictureQuery) -> Result<Options, ApiError> {
    let defaults = Options::default();
    let flip = match (&query.bottom, query.flip) {
        (None, flip) => flip.unwrap_or(false),
        (Some(bottom), flip) => {
            let players = kind.players();
            let Some(index) = players.iter().position(|p| p.as_str() == bottom) else {
                let names: Vec<&str> = players.iter().map(|p| p.as_str()).collect();
                return Err(Problem::new(
                    ProblemKind::InvalidQuery,
                    format!(
                        "bottom {bottom:?} is not a player of {kind}; its players are: {}",
                        names.join(", ")
                    ),
                )
                .into());
            };
            let by_bottom = index == 1;
            if flip.is_some_and(|f| f != by_bottom) {
                return Err(Problem::new(
                    ProblemKind::InvalidQuery,
                    format!(
                        "flip={} contradicts bottom={bottom}; give one of them",
                        !by_bottom
                    ),
                )
                .into());
            }
            by_bottom
        }
    };
    let last = last_move(kind, query.last.as_deref())?;
    let pieces = match query.pieces.as_deref() {
        None => defaults.pieces,
        Some(text) => text
            .parse::<Pieces>()
            .map_err(|e| ApiError::from(Problem::new(ProblemKind::InvalidQuery, e.to_string())))?,
    };
    Ok(Options {
        size: query.size.unwrap_or(defaults.size),
        flip,
        coordinates: query.coordinates.unwrap_or(defaults.coordinates),
        highlights: query.highlights.unwrap_or(defaults.highlights),
        last,
        pieces,
    })
}

/// The `last` query parameter, read in the game's notation.
///
/// # Errors
///
/// `invalid-query` naming the parameter and the notation's complaint.
pub fn last_move(kind: GameKind, last: Option<&str>) -> Result<Option<AnyAction>, ApiError> {
    last.map(|text| {
        AnyAction::parse(kind, text).map_err(|e| {
            Problem::new(
                ProblemKind::InvalidQuery,
                format!("last {text:?} is not a {kind} action: {e}"),
            )
            .into()
        })
    })
    .transpose()
}

/// The language of a picture's words: `lang` in the query, or the reader's
/// (then the answer varies with the request's language headers, and says
/// so). `None` for a picture without words.
///
/// # Errors
///
/// `invalid-query` for a `lang` the service does not speak.
fn language(
    query: &PictureQuery,
    req: &HttpRequest,
    worded: bool,
) -> Result<Option<Words>, ApiError> {
    let asked: Option<Words> = match &query.lang {
        Some(tag) => Lang::from_tag(tag)
            .map(|lang| {
                Some(Words {
                    lang,
                    negotiated: false,
                })
            })
            .ok_or_else(|| {
                let tags: Vec<&str> = Lang::ALL.iter().map(|l| l.tag()).collect();
                Problem::new(
                    ProblemKind::InvalidQuery,
                    format!("lang {tag:?} is not one of {}", tags.join(", ")),
                )
            })
            .map_err(ApiError::from)?,
        None => Some(Words {
            lang: Lang::of(req),
            negotiated: true,
        }),
    };
    // A picture without words takes `lang` too (it is checked, then not
    // needed), so that one link shape serves every picture.
    Ok(asked.filter(|_| worded))
}

/// The language a picture's words are in, and whether it came from the
/// request's headers rather than its URL.
#[derive(Debug, Clone, Copy)]
struct Words {
    lang: Lang,
    negotiated: bool,
}

impl Words {
    /// The answer, marked as varying with the language headers when they
    /// chose its words.
    fn mark(words: Option<Words>, mut res: HttpResponse) -> HttpResponse {
        if words.is_some_and(|w| w.negotiated) {
            res.headers_mut()
                .append(header::VARY, HeaderValue::from_static(VARY_LANGUAGE));
        }
        res
    }
}

/// The options written out in one fixed order: part of the cache key and
/// of a match picture's entity tag.
fn canonical(format: Format, options: &Options, words: Option<Words>) -> String {
    format!(
        "{}?size={}&flip={}&coordinates={}&highlights={}&pieces={}&lang={}&last={}",
        format.extension(),
        options.size,
        options.flip,
        options.coordinates,
        options.highlights,
        options.pieces,
        words.map_or("", |w| w.lang.tag()),
        options
            .last
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default()
    )
}

/// `GET /v1/{game}/{code}/picture.svg`
pub async fn state_svg(
    game: Game,
    req: HttpRequest,
    code: Code,
    query: web::Query<PictureQuery>,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    state_picture(Format::Svg, game, req, code, query, cache).await
}

/// `GET /v1/{game}/{code}/picture.png`
pub async fn state_png(
    game: Game,
    req: HttpRequest,
    code: Code,
    query: web::Query<PictureQuery>,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    state_picture(Format::Png, game, req, code, query, cache).await
}

/// `GET /v1/{game}/{code}/card.png`
pub async fn state_card(
    game: Game,
    req: HttpRequest,
    code: Code,
    query: web::Query<PictureQuery>,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    state_picture(Format::Card, game, req, code, query, cache).await
}

async fn state_picture(
    format: Format,
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    query: web::Query<PictureQuery>,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    let pos = games::decode(kind, &code, "code")?;
    if query.v.is_some() {
        return Err(Problem::new(
            ProblemKind::InvalidQuery,
            "v is taken by match pictures only: a state picture never changes",
        )
        .into());
    }
    let options = format.options(kind, &query)?;
    // Only a card has words: a state's board alone is the same in every
    // language.
    let words = language(&query, &req, format == Format::Card)?;
    let key = format!(
        "{kind}/{code}/picture.{}",
        canonical(format, &options, words)
    );
    if let Some(hit) = cache.get(&key) {
        return Ok(Words::mark(words, immutable(&req, hit)));
    }
    let around = match (format, words) {
        (Format::Card, Some(w)) => {
            Around::Caption(state_caption(&pos, options.last.as_ref(), w.lang))
        }
        _ => Around::Nothing,
    };
    charge_picture(&req, format.cost(&options))?;
    let body = format.draw(pos, options, around).await?;
    let rendered = Rendered::typed(body, format.content_type());
    cache.insert(key, rendered.clone());
    Ok(Words::mark(words, immutable(&req, rendered)))
}

/// `GET /v1/matches/{id}/picture.svg`
pub async fn match_svg(
    service: Service,
    id: Id,
    req: HttpRequest,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, ApiError> {
    match_picture(Format::Svg, service, id, req, query).await
}

/// `GET /v1/matches/{id}/picture.png`
pub async fn match_png(
    service: Service,
    id: Id,
    req: HttpRequest,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, ApiError> {
    match_picture(Format::Png, service, id, req, query).await
}

/// `GET /v1/matches/{id}/card.png`
pub async fn match_card(
    service: Service,
    id: Id,
    req: HttpRequest,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, ApiError> {
    match_picture(Format::Card, service, id, req, query).await
}

/// A match changes, so its picture is revalidated (`no-cache`) with an
/// entity tag made of its version and the options.
async fn match_picture(
    format: Format,
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, ApiError> {
    if query.last.is_some() {
        return Err(Problem::new(
            ProblemKind::InvalidQuery,
            "last is not taken by a match picture: the match marks its own last move",
        )
        .into());
    }
    let snapshot = s.runner().run(async move { s.snapshot(id).await }).await?;
    let kind = snapshot.game.game;
    let mut options = format.options(kind, &query)?;
    // A card's caption, and a duel's names and result, have words.
    let worded = format == Format::Card || snapshot.game.mode == Mode::Duel;
    let words = language(&query, &req, worded)?;
    let lang = words.map_or(Lang::En, |w| w.lang);
    options.last = snapshot
        .last
        .as_ref()
        .and_then(|mv| AnyAction::parse(kind, &mv.action).ok());
    let tag = EntityTag::new_strong(format!(
        "{}-{:016x}",
        snapshot.game.version.get(),
        xxhash_rust::xxh3::xxh3_64(canonical(format, &options, words).as_bytes())
    ));
    let policy = HeaderValue::from_static("no-cache");
    if conditional::client_has_in_any_coding(&req, &tag) {
        return Ok(Words::mark(
            words,
            HttpResponse::NotModified()
                .insert_header((header::ETAG, tag.to_string()))
                .insert_header((header::CACHE_CONTROL, policy))
                .finish(),
        ));
    }
    let around = match format {
        Format::Card => Around::Caption(match_caption(&snapshot, lang)),
        Format::Svg | Format::Png => panel(&snapshot, lang).map_or(Around::Nothing, Around::Panel),
    };
    charge_picture(&req, format.cost(&options))?;
    let body = format.draw(snapshot.game.position, options, around).await?;
    Ok(Words::mark(
        words,
        HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, format.content_type()))
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy))
            .body(body),
    ))
}

/// A duel picture's bands in `lang`: each seat's name (its side's name,
/// `红方`, `Black`, when it chose none) and, in a timed duel, its time left
/// as of the last move (the side to move's clock lit while it runs), and
/// once over, the headline the match page shows. `None` for a solo match.
pub fn panel(snapshot: &Snapshot, lang: Lang) -> Option<Panel> {
    let m = &snapshot.game;
    if m.mode != Mode::Duel {
        return None;
    }
    let players = m.game.players();
    let running = m
        .clock
        .filter(|c| c.since.is_some())
        .map(|_| slot(m.game, m.to_move()));
    let player = |i: usize| {
        let side = players.get(i).copied();
        PanelPlayer {
            name: side.map(|side| seat_name(snapshot, side, lang)),
            clock: m.clock.and_then(|c| {
                c.left.get(i).map(|left| ClockFace {
                    left: left.duration(),
                    running: running == Some(i),
                })
            }),
        }
    };
    let result = (!m.status.is_ongoing())
        .then(|| headline_in(lang, &m.status.into(), m.to_move(), false, false));
    Some(Panel {
        players: [player(0), player(1)],
        result,
    })
}

/// The name a seat chose, or its side's name in `lang`.
fn seat_name(snapshot: &Snapshot, side: AnyPlayer, lang: Lang) -> String {
    snapshot
        .seats
        .iter()
        .find(|s| s.seat == Seat::Side(side))
        .and_then(|s| s.name.as_ref())
        .map_or_else(|| player_name(side, lang), |n| n.as_str().to_owned())
}

/// A move as the card names it: a xiangqi move in Chinese for Chinese
/// readers and in WXF for English ones (`炮二平五`, `C2.5`); other games in
/// their one notation.
fn move_text(kind: GameKind, mv: &KeptMove, lang: Lang) -> String {
    match crate::matches::move_names(kind, mv) {
        Some(names) if lang == Lang::En => names.wxf.to_string(),
        Some(names) => names.chinese.to_string(),
        None => mv.action.clone(),
    }
}

/// A state's card in `lang`: the game, how it stands and the move that led
/// to it, as its share page says them.
fn state_caption(pos: &AnyPosition, last: Option<&AnyAction>, lang: Lang) -> Card {
    let kind = pos.kind();
    let words = lang.words();
    let status = StatusView::of(pos.status(), |p| p.as_str());
    let solo = kind.players().len() == 1;
    Card {
        title: game_name(kind, games::variant(pos), lang).to_owned(),
        players: Vec::new(),
        headline: headline_in(lang, &status, pos.to_move(), games::check(pos), solo),
        details: last
            .map(|a| line(words.format("page.last", &[("move", &a.to_string())])))
            .into_iter()
            .collect(),
    }
}

/// A phrase as a line of its own on a card: the catalogue writes phrases
/// to run inside a sentence ("last move h2e2"), a card line starts with a
/// capital ("Last move h2e2"); scripts without case are left as they are.
fn line(phrase: String) -> String {
    let mut chars = phrase.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => phrase,
    }
}

/// A match's card in `lang`: the game, the seats' names (the side's name
/// for a seat without one), how it stands, the last move and the move
/// number, as the match page says them.
fn match_caption(snapshot: &Snapshot, lang: Lang) -> Card {
    let m = &snapshot.game;
    let kind = m.game;
    let words = lang.words();
    let solo = m.mode != Mode::Duel;
    let players = if solo {
        Vec::new()
    } else {
        kind.players()
            .iter()
            .map(|&side| seat_name(snapshot, side, lang))
            .collect()
    };
    let check = m.status.is_ongoing() && games::check(&m.position);
    let mut details: Vec<String> = snapshot
        .last
        .iter()
        .map(|mv| {
            line(words.format(
                "page.last_by",
                &[
                    ("move", &move_text(kind, mv, lang)),
                    ("side", &player_name(mv.side, lang)),
                ],
            ))
        })
        .collect();
    details.push(line(match kind {
        // As the match page counts: a xiangqi round is a move of each
        // side, red first, and the one being played is named.
        GameKind::Xiangqi if m.status.is_ongoing() && m.ply > 0 => {
            words.format("page.round", &[("n", &(m.ply / 2 + 1).to_string())])
        }
        _ => words.format("page.ply", &[("n", &m.ply.to_string())]),
    }));
    Card {
        title: game_name(kind, games::variant(&m.position), lang).to_owned(),
        players,
        headline: headline_in(
            lang,
            &m.status.into(),
            m.to_move(),
            check,
            kind.players().len() == 1,
        ),
        details,
    }
}
