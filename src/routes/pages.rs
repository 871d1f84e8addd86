//! Pages for people: a position's share page `/p/{game}/{code}`, a match's
//! page `/m/{id}` (which also receives invite links opened in a browser),
//! and `/docs`, the API reference.
//!
//! The JSON URLs send browsers here: a `GET` of a state or a match whose
//! `Accept` ranks `text/html` first is answered `303 See Other` to its page,
//! so a shared `url` opens as a board; programs (`Accept: */*` or
//! `application/json`) get the JSON as before.

use actix_web::http::header::{self, Accept, EntityTag, Header, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use qipan_rules::{AnyAction, AnyPosition, GameKind};
use serde::Deserialize;

use super::matches::{Id, Service};
use super::state::{Base, Code, Game};
use super::{conditional, immutable, Rendered};
use crate::cache::ViewCache;
use crate::games;
use crate::matches::{MatchId, MatchStatus, Snapshot};
use crate::pages::{game_name, headline, player_name, Fact, Link, Page};
use crate::problem::ApiError;
use crate::wire::state::StatusView;

/// The media type of every page.
const HTML: HeaderValue = HeaderValue::from_static("text/html; charset=utf-8");

/// Whether the client ranks HTML first in `Accept`: a browser opening a
/// link, not a program.
pub fn prefers_html(req: &HttpRequest) -> bool {
    // Programs send no `Accept`, `*/*` or `application/json`: no `html`
    // anywhere, and then nothing to parse (parsing and ranking media
    // ranges costs more than a cached answer's lookup).
    let mentions_html = req.headers().get_all(header::ACCEPT).any(|v| {
        v.as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"html"))
    });
    mentions_html
        && Accept::parse(req).is_ok_and(|accept| {
            accept
                .ranked()
                .first()
                .is_some_and(|m| m.type_() == "text" && m.subtype() == "html")
        })
}

/// `303 See Other` to a page, varying by `Accept` like the JSON it stands
/// in for.
pub fn see_page(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::VARY, "Accept"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .finish()
}

/// Query of a state's page: the move that led to it, to mark on the board.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatePageQuery {
    /// The last move, in the game's notation.
    pub last: Option<String>,
}

/// Query of a match's page: the invite it was opened with.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchPageQuery {
    /// An invite to one of its seats.
    pub invite: Option<String>,
}

/// The width in pixels the page's picture is sized at (it shows the SVG,
/// scaled to fit; previews show the chat card).
const PAGE_PICTURE: u32 = 600;

fn status_of(pos: &AnyPosition) -> StatusView {
    StatusView::of(pos.status(), |p| p.as_str())
}

fn is_solo(kind: GameKind) -> bool {
    kind.players().len() == 1
}

/// `GET /p/{game}/{code}`
pub async fn state_page(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    Base(base): Base,
    query: web::Query<StatePageQuery>,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    let pos = games::decode(kind, &code, "code")?;
    let last = super::picture::last_move(kind, query.last.as_deref())?;
    let suffix = last
        .as_ref()
        .map(|a| format!("?last={a}"))
        .unwrap_or_default();
    let page_url = format!("{}{suffix}", games::page_url(&base, kind, &code));
    let key = format!("page:{page_url}");
    let rendered = match cache.get(&key) {
        Some(hit) => hit,
        None => {
            let json = games::share_url(&base, kind, &code);
            let options = qipan_picture::Options {
                size: PAGE_PICTURE,
                last,
                ..qipan_picture::Options::default()
            };
            let dimensions =
                qipan_picture::dimensions(&pos, &options).map_err(super::picture::problem)?;
            let status = status_of(&pos);
            let mut facts = Vec::new();
            if let Some(a) = &last {
                facts.push(Fact {
                    label: "Last move",
                    value: a.to_string(),
                });
            }
            facts.push(Fact {
                label: "Variant",
                value: games::variant(&pos).to_owned(),
            });
            let headline = headline(&status, pos.to_move(), games::check(&pos), is_solo(kind));
            let page = Page {
                url: &page_url,
                game: game_name(kind, games::variant(&pos)),
                alt: format!(
                    "{} board: {headline}",
                    game_name(kind, games::variant(&pos))
                ),
                headline,
                facts,
                svg: format!("{json}/picture.svg{suffix}"),
                png: format!("{json}/card.png{suffix}"),
                dimensions,
                links: vec![
                    Link {
                        text: "Play on from here",
                        href: format!("/play/{kind}/{code}"),
                    },
                    Link {
                        text: "JSON",
                        href: json.clone(),
                    },
                    Link {
                        text: "Picture (PNG)",
                        href: format!("{json}/picture.png{suffix}"),
                    },
                ],
                code: Some(&code),
            };
            let rendered = Rendered::typed(page.render(), HTML);
            cache.insert(key, rendered.clone());
            rendered
        }
    };
    Ok(immutable(&req, rendered))
}

/// `GET /m/{id}`
pub async fn match_page(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    Base(base): Base,
    query: web::Query<MatchPageQuery>,
) -> Result<HttpResponse, ApiError> {
    let snapshot = s.runner().run(async move { s.snapshot(id).await }).await?;
    let invite = query.invite.as_deref().filter(|i| !i.is_empty());
    let page_url = format!("{base}/m/{id}");
    let tag = EntityTag::new_strong(format!(
        "{}-{:016x}",
        snapshot.game.version.get(),
        xxhash_rust::xxh3::xxh3_64(invite.unwrap_or_default().as_bytes())
    ));
    let policy = HeaderValue::from_static("no-cache");
    if conditional::client_has_in_any_coding(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy))
            .finish());
    }
    let html = render_match(&snapshot, id, &base, &page_url, invite)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, HTML))
        .insert_header((header::ETAG, tag.to_string()))
        .insert_header((header::CACHE_CONTROL, policy))
        .body(html))
}

fn render_match(
    snapshot: &Snapshot,
    id: MatchId,
    base: &str,
    page_url: &str,
    invite: Option<&str>,
) -> Result<String, ApiError> {
    let m = &snapshot.game;
    let kind = m.game;
    let variant = games::variant(&m.position);
    let json = format!("{base}/v1/matches/{id}");
    let last = snapshot
        .last
        .as_ref()
        .and_then(|mv| AnyAction::parse(kind, &mv.action).ok());
    let options = qipan_picture::Options {
        size: PAGE_PICTURE,
        last,
        ..qipan_picture::Options::default()
    };
    let status: StatusView = m.status.into();
    let headline = match m.status {
        MatchStatus::Ongoing => headline(
            &status,
            m.to_move(),
            games::check(&m.position),
            is_solo(kind),
        ),
        _ => headline(&status, m.to_move(), false, is_solo(kind)),
    };
    let mut facts = vec![Fact {
        label: "Match",
        value: format!("{} · {variant} · move {}", m.mode.as_str(), m.ply),
    }];
    if let Some(clock) = &m.clock {
        facts.push(Fact {
            label: "Clock",
            value: clock.control.to_string(),
        });
    }
    if let Some(mv) = &snapshot.last {
        facts.push(Fact {
            label: "Last move",
            value: format!("{} by {}", mv.action, player_name(mv.side)),
        });
    }
    for seat in &snapshot.seats {
        let state = match (seat.token.is_some(), seat.online) {
            (true, true) => "online",
            (true, false) => "joined, offline",
            (false, _) => "open",
        };
        let who = match &seat.name {
            Some(name) => format!("{} ({name})", seat.seat.as_str()),
            None => seat.seat.as_str().to_owned(),
        };
        facts.push(Fact {
            label: "Seat",
            value: format!("{who}: {state}"),
        });
    }
    let open_seat = snapshot.seats.iter().any(|s| s.token.is_none());
    let play = format!("/play/matches/{id}");
    let mut links = Vec::new();
    match invite {
        Some(invite) if open_seat && m.status.is_ongoing() => links.push(Link {
            text: "Join this match",
            // The playground joins on arrival (`join=1`): this is the click.
            href: format!("{play}?invite={}&join=1", urlencode(invite)),
        }),
        _ => links.push(Link {
            text: "Open in the playground",
            href: play,
        }),
    }
    links.push(Link {
        text: "JSON",
        href: json.clone(),
    });
    links.push(Link {
        text: "Picture (PNG)",
        href: format!("{json}/picture.png"),
    });
    let game = game_name(kind, variant);
    Ok(Page {
        url: page_url,
        game,
        alt: format!("{game} board: {headline}"),
        headline,
        facts,
        svg: format!("{json}/picture.svg?v={}", m.version.get()),
        png: format!("{json}/card.png?v={}", m.version.get()),
        dimensions: match super::picture::panel(snapshot) {
            Some(panel) => qipan_picture::duel_dimensions(&m.position, &options, &panel),
            None => qipan_picture::dimensions(&m.position, &options),
        }
        .map_err(super::picture::problem)?,
        links,
        code: None,
    }
    .render())
}

/// Percent-encodes a query value (invites are URL-safe base64 already;
/// anything else a client put there is kept intact but harmless).
fn urlencode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `GET /v1/matches/{id}/join?invite=…`: an invite link opened in a
/// browser. Joining is a `POST`; a `GET` is sent to the match's page, which
/// joins with one click.
pub async fn invite_link(
    Id(id): Id,
    query: web::Query<MatchPageQuery>,
) -> Result<HttpResponse, ApiError> {
    let location = match query.invite.as_deref() {
        Some(invite) if !invite.is_empty() => format!("/m/{id}?invite={}", urlencode(invite)),
        _ => format!("/m/{id}"),
    };
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish())
}

/// `GET /docs`: the API reference, `openapi.yaml` rendered by the vendored
/// Swagger UI.
pub async fn docs(req: HttpRequest) -> HttpResponse {
    super::assets::page(&req, "docs/index.html")
}
