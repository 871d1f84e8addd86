//! Pages for people: a position's share page `/p/{game}/{code}`, a match's
//! page `/m/{id}` (which also receives invite links opened in a browser),
//! and `/docs`, the API reference.
//!
//! The JSON URLs send browsers here: a `GET` of a state or a match whose
//! `Accept` ranks `text/html` first is answered `303 See Other` to its page,
//! so a shared `url` opens as a board; programs (`Accept: */*` or
//! `application/json`) get the JSON as before.

use actix_web::http::header::{self, EntityTag, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use qipan_rules::{AnyAction, AnyPosition, GameKind};
use serde::Deserialize;

use super::matches::{Id, Service};
use super::state::{Base, Code, Game};
use crate::games;
use crate::http::answer::{immutable, Rendered};
use crate::http::cache::ViewCache;
use crate::http::conditional;
use crate::matches::{MatchId, Secret, Snapshot};
use crate::pages::i18n::{self, Lang};
use crate::pages::{
    game_name, headline_in, player_name, side_name, urlencode, Fact, Invite, Link, Page,
};
use crate::problem::ApiError;
use crate::wire::state::StatusView;

/// The media type of every page.
const HTML: HeaderValue = HeaderValue::from_static("text/html; charset=utf-8");

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

/// Pages speak the reader's language, from the cookie or
/// `Accept-Language`: caches keep one answer per pair.
pub const VARY_LANGUAGE: &str = "Accept-Language, Cookie";

fn vary_by_language(mut res: HttpResponse) -> HttpResponse {
    res.headers_mut()
        .append(header::VARY, HeaderValue::from_static(VARY_LANGUAGE));
    res
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
    let lang = Lang::of(&req);
    let suffix = last
        .as_ref()
        .map(|a| format!("?last={a}"))
        .unwrap_or_default();
    let page_url = format!("{}{suffix}", games::page_url(&base, kind, &code));
    let key = format!("page:{}:{page_url}", lang.tag());
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
            let words = lang.words();
            let variant = games::variant(&pos);
            let mut facts = Vec::new();
            if let Some(a) = &last {
                facts.push(Fact {
                    label: "page.fact.last_move",
                    value: a.to_string(),
                });
            }
            facts.push(Fact {
                label: "page.fact.variant",
                value: words.text(&format!("variant.{variant}")).to_owned(),
            });
            if let Some(p) = pos.xiangqi() {
                if let Some(o) = qipan_records::xiangqi::ecco::of_position(p) {
                    facts.push(opening_fact(&o));
                }
            }
            let headline = headline_in(
                lang,
                &status,
                pos.to_move(),
                games::check(&pos),
                is_solo(kind),
            );
            let mut description = vec![headline.clone()];
            if let Some(a) = &last {
                description.push(words.format("page.last", &[("move", &a.to_string())]));
            }
            let game = game_name(kind, variant, lang);
            let page = Page {
                lang,
                url: &page_url,
                here: format!("/p/{kind}/{code}{suffix}"),
                game,
                alt: words.format("page.alt", &[("game", game), ("headline", &headline)]),
                description: description.join(words.text("page.sep")),
                headline,
                invite: None,
                facts,
                svg: format!("{json}/picture.svg{suffix}"),
                png: format!(
                    "{json}/card.png{suffix}{}lang={}",
                    if suffix.is_empty() { '?' } else { '&' },
                    lang.tag()
                ),
                dimensions,
                links: vec![
                    Link {
                        text: "page.link.play_on",
                        href: format!("/play/{kind}/{code}"),
                    },
                    Link {
                        text: "page.link.json",
                        href: json.clone(),
                    },
                    Link {
                        text: "page.link.png",
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
    Ok(vary_by_language(immutable(&req, rendered)))
}

/// `GET /m/{id}`: the match, and the page every invite link lands on
/// (the API's `invites[].url` and the playground's), with Join first.
pub async fn match_page(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    Base(base): Base,
    query: web::Query<MatchPageQuery>,
) -> Result<HttpResponse, ApiError> {
    let (snapshot, opening) = s
        .runner()
        .run(async move {
            let snapshot = s.snapshot(id).await?;
            let opening = match snapshot.game.game {
                GameKind::Xiangqi if snapshot.game.ply > 0 => s.opening(id).await?,
                _ => None,
            };
            Ok::<_, crate::matches::MatchError>((snapshot, opening))
        })
        .await?;
    let invite = query.invite.as_deref().filter(|i| !i.is_empty());
    let lang = Lang::of(&req);
    let page_url = crate::matches::match_page_url(&base, id);
    // The version, and a hash of what else the page depends on: the
    // invite and the language.
    let depends = format!("{}\n{}", invite.unwrap_or_default(), lang.tag());
    let tag = EntityTag::new_strong(format!(
        "{}-{:016x}",
        snapshot.game.version.get(),
        xxhash_rust::xxh3::xxh3_64(depends.as_bytes()),
    ));
    let policy = HeaderValue::from_static("no-cache");
    if conditional::client_has_in_any_coding(&req, &tag) {
        return Ok(vary_by_language(
            HttpResponse::NotModified()
                .insert_header((header::ETAG, tag.to_string()))
                .insert_header((header::CACHE_CONTROL, policy))
                .finish(),
        ));
    }
    let html = render_match(&snapshot, opening, id, &base, &page_url, invite, lang)?;
    Ok(vary_by_language(
        HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, HTML))
            .insert_header((header::ETAG, tag.to_string()))
            .insert_header((header::CACHE_CONTROL, policy))
            .body(html),
    ))
}

/// What a match's page says of the invite it was opened with.
fn invite_of(snapshot: &Snapshot, id: MatchId, invite: &str, lang: Lang) -> Invite {
    let m = &snapshot.game;
    let presented = Secret::presented(invite);
    // Every seat is compared, so the time taken does not tell which.
    let mut found = None;
    for s in &snapshot.seats {
        if s.invite.as_ref().is_some_and(|h| presented.matches(h)) {
            found = Some(s);
        }
    }
    let open = snapshot.seats.iter().any(|s| s.token.is_none());
    match found {
        _ if !m.status.is_ongoing() => Invite::Over,
        Some(seat) if seat.token.is_none() => Invite::Open {
            from: snapshot
                .seats
                .iter()
                .find(|s| s.token.is_some())
                .and_then(|s| s.name.as_ref())
                .map(|n| n.as_str().to_owned()),
            side: side_name(seat.seat.as_str(), lang),
            play: format!("/play/matches/{id}"),
            invite: invite.to_owned(),
        },
        _ if !open => Invite::Taken,
        _ => Invite::Invalid,
    }
}

fn render_match(
    snapshot: &Snapshot,
    opening: Option<qipan_records::xiangqi::ecco::Opening>,
    id: MatchId,
    base: &str,
    page_url: &str,
    invite: Option<&str>,
    lang: Lang,
) -> Result<String, ApiError> {
    let m = &snapshot.game;
    let kind = m.game;
    let words = lang.words();
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
    let check = m.status.is_ongoing() && games::check(&m.position);
    let headline = headline_in(lang, &status, m.to_move(), check, is_solo(kind));
    let mode = words.text(&format!("mode.{}", m.mode.as_str()));
    let variant_name = words.text(&format!("variant.{variant}"));
    let ply = m.ply.to_string();
    let mut facts = vec![Fact {
        label: "page.fact.match",
        value: words.format(
            "page.match_kind",
            &[("mode", mode), ("variant", variant_name), ("ply", &ply)],
        ),
    }];
    if let Some(o) = &opening {
        facts.push(opening_fact(o));
    }
    if let Some(clock) = &m.clock {
        facts.push(Fact {
            label: "page.fact.clock",
            value: clock.control.to_string(),
        });
    }
    // The last move as players write it: 炮二平五 for xiangqi.
    let last_text = snapshot.last.as_ref().map(|mv| {
        crate::matches::move_names(kind, mv)
            .map_or_else(|| mv.action.clone(), |n| n.chinese.to_string())
    });
    if let (Some(mv), Some(text)) = (&snapshot.last, &last_text) {
        facts.push(Fact {
            label: "page.fact.last_move",
            value: words.format(
                "page.last_by",
                &[("move", text), ("side", &player_name(mv.side, lang))],
            ),
        });
    }
    for seat in &snapshot.seats {
        let state = match (seat.token.is_some(), seat.online) {
            (true, true) => words.text("page.seat.online"),
            (true, false) => words.text("page.seat.offline"),
            (false, _) => words.text("page.seat.open"),
        };
        let side = side_name(seat.seat.as_str(), lang);
        // The computer has no name of its own: it is called so in the
        // page's language, with its level.
        let computer = seat.computer.map(|c| {
            words.format(
                "seat.computer_level",
                &[("level", &c.level.get().to_string())],
            )
        });
        let value = match computer
            .as_deref()
            .or(seat.name.as_ref().map(|n| n.as_str()))
        {
            Some(name) => words.format(
                "page.seat.named",
                &[("side", &side), ("name", name), ("state", state)],
            ),
            None => words.format("page.seat.plain", &[("side", &side), ("state", state)]),
        };
        facts.push(Fact {
            label: "page.fact.seat",
            value,
        });
    }
    let mut description = vec![headline.clone()];
    if m.status.is_ongoing() && m.ply > 0 {
        description.push(match kind {
            // A xiangqi round is a move of each side, red first.
            GameKind::Xiangqi => words.format("page.round", &[("n", &(m.ply / 2 + 1).to_string())]),
            _ => words.format("page.ply", &[("n", &ply)]),
        });
    }
    if let Some(text) = &last_text {
        description.push(words.format("page.last", &[("move", text)]));
    }
    let invite = invite.map(|i| invite_of(snapshot, id, i, lang));
    let mut links = vec![
        Link {
            text: "page.link.open",
            href: format!("/play/matches/{id}"),
        },
        Link {
            text: "page.link.json",
            href: json.clone(),
        },
        Link {
            text: "page.link.png",
            href: format!("{json}/picture.png"),
        },
    ];
    // A finished game replays; a game with a record format downloads.
    if !m.status.is_ongoing() && m.ply > 0 {
        links.push(Link {
            text: "page.link.replay",
            href: format!("{json}/replay.gif?lang={}", lang.tag()),
        });
    }
    for (ext, _) in crate::records::export_formats(kind) {
        links.push(Link {
            text: match *ext {
                "pgn" => "page.link.pgn",
                "xqf" => "page.link.xqf",
                "psq" => "page.link.psq",
                _ => "page.link.txt",
            },
            href: format!("{json}/record.{ext}"),
        });
    }
    let game = game_name(kind, variant, lang);
    let here = match &invite {
        Some(Invite::Open { invite, .. }) => format!("/m/{id}?invite={}", urlencode(invite)),
        _ => format!("/m/{id}"),
    };
    Ok(Page {
        lang,
        url: page_url,
        here,
        game,
        alt: words.format("page.alt", &[("game", game), ("headline", &headline)]),
        description: description.join(words.text("page.sep")),
        headline,
        invite,
        facts,
        svg: format!("{json}/picture.svg?v={}", m.version.get()),
        png: format!("{json}/card.png?v={}&lang={}", m.version.get(), lang.tag()),
        dimensions: match super::picture::panel(snapshot, lang) {
            Some(panel) => qipan_picture::duel_dimensions(&m.position, &options, &panel),
            None => qipan_picture::dimensions(&m.position, &options),
        }
        .map_err(super::picture::problem)?,
        links,
        code: None,
    }
    .render())
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
/// Swagger UI, under the page's own words in the reader's language.
pub async fn docs(req: HttpRequest) -> HttpResponse {
    super::assets::template(&req, "docs/index.html")
}

/// Query of `GET /lang/{tag}`: where to go back to.
#[derive(Debug, Default, Deserialize)]
pub struct LangQuery {
    /// A path of this service.
    pub to: Option<String>,
}

/// `GET /lang/{tag}`: the language links of every page. Keeps the choice
/// in a cookie for a year (the server reads it on every page, the
/// playground's script too), then goes back where the reader was.
pub async fn choose_language(
    tag: web::Path<String>,
    query: web::Query<LangQuery>,
) -> Result<HttpResponse, ApiError> {
    let to = i18n::safe_return(query.to.as_deref()).to_owned();
    let mut res = HttpResponse::SeeOther();
    res.insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"));
    if let Some(lang) = Lang::from_tag(&tag) {
        res.insert_header((
            header::SET_COOKIE,
            format!(
                "{}={}; Path=/; Max-Age=31536000; SameSite=Lax",
                i18n::COOKIE,
                lang.tag()
            ),
        ));
    }
    Ok(res.finish())
}

/// The fact naming a xiangqi opening: `C20 中炮过河车七路马对屏风马两头蛇`.
fn opening_fact(o: &qipan_records::xiangqi::ecco::Opening) -> Fact {
    let mut value = format!("{} {}", o.code, o.name);
    if !o.variation.is_empty() {
        value.push_str(&format!(" · {}", o.variation));
    }
    Fact {
        label: "page.fact.opening",
        value: value.trim_end().to_owned(),
    }
}
