//! The one route table: every path, method and handler of the service,
//! in the order a request is matched against it (see [`routes`]). The
//! server is assembled around it in `crate::startup`.

use actix_web::{guard, web};
use qipan_rules::GameKind;

use crate::http::errors::method_not_allowed;
use crate::http::reads::Routed;
use crate::routes::matches as matches_routes;
use crate::routes::{
    analysis, assets, docs, games, health, lobby, pages, picture, records, socket, state,
};

/// A resource answering one method; any other method gets a 405 problem
/// naming the one it takes.
pub(crate) fn resource(
    path: &str,
    method: &'static [&'static str],
    route: actix_web::Route,
) -> actix_web::Resource {
    web::resource(path)
        .route(route)
        .default_service(web::to(method_not_allowed(method)))
}

/// The route table, in the order a request is matched against it.
///
/// The stateless API comes first: most requests are for it. Each game has
/// its own `/v1/<game>` scope, a plain prefix, so a request is matched
/// against the patterns of its own game only; inside, the fixed segments
/// (`start`, `import`, `records`: [`Routed`], which the reads answered
/// before routing skip too) come before `{code}` so that they are never
/// read as codes. `/v1/matches`
/// and `/v1/lobby` are scopes of their own too. Every other pattern with a
/// variable part sits under a plain prefix of its own (`/problems`,
/// `/play`, …), so that no request pays for matching patterns it cannot
/// match. `/v1/{game}` comes last and answers every unknown game with a
/// 404 problem.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(match_routes()).service(lobby_routes());
    for kind in GameKind::ALL {
        cfg.service(game_routes(
            web::scope(&format!("/v1/{kind}")).app_data(kind),
        ));
    }
    cfg.service(resource("/healthz", GET, get().to(health::healthz)))
        .service(resource("/openapi.yaml", GET, get().to(docs::openapi)))
        .service(resource("/v1/games", GET, get().to(games::list)))
        .service(web::scope("/problems").service(resource("/{kind}", GET, get().to(docs::problem))))
        .service(resource("/", GET, get().to(assets::playground)))
        .service(
            web::scope("/play")
                .service(resource("/{game}", GET, get().to(assets::playground)))
                .service(resource(
                    "/{game}/{code}",
                    GET,
                    get().to(assets::playground),
                )),
        )
        .service(web::scope("/static").service(resource("/{path:.+}", GET, get().to(assets::file))))
        .service(resource("/docs", GET, get().to(pages::docs)))
        .service(web::scope("/lang").service(resource(
            "/{tag}",
            GET,
            get().to(pages::choose_language),
        )))
        .service(web::scope("/m").service(resource("/{id}", GET, get().to(pages::match_page))));
    let mut pages = web::scope("/p");
    for kind in GameKind::ALL {
        pages = pages.service(
            web::scope(&format!("/{kind}"))
                .app_data(kind)
                .service(resource("/{code}", GET, get().to(pages::state_page))),
        );
    }
    cfg.service(pages.service(resource("/{game}/{code}", GET, get().to(pages::state_page))));
    cfg.service(game_routes(web::scope("/v1/{game}")));
}

pub(crate) const GET: &[&str] = &["GET", "HEAD"];

const POST: &[&str] = &["POST"];

const GET_ONLY: &[&str] = &["GET"];

const GET_POST: &[&str] = &["GET", "HEAD", "POST"];

/// GET routes answer HEAD too (RFC 9110 §9.3.2); actix sends no body.
pub(crate) fn get() -> actix_web::Route {
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

/// Persisted matches. `/v1/matches` is a scope of its own before the game
/// scopes, so `matches` is never read as a game name.
fn match_routes() -> actix_web::Scope {
    use matches_routes as m;
    web::scope("/v1/matches")
        .service(resource("", POST, web::post().to(m::create)))
        .service(resource("/{id}", GET, get().to(m::get)))
        .service(resource("/{id}/history", GET, get().to(m::history)))
        .service(resource("/{id}/events", GET, get().to(m::events)))
        .service(resource("/{id}/play", POST, web::post().to(m::play)))
        .service(resource("/{id}/undo", POST, web::post().to(m::undo)))
        .service(resource(
            "/{id}/undo/accept",
            POST,
            web::post().to(m::accept_undo),
        ))
        .service(resource(
            "/{id}/undo/decline",
            POST,
            web::post().to(m::decline_undo),
        ))
        .service(resource("/{id}/resign", POST, web::post().to(m::resign)))
        .service(resource("/{id}/draw", POST, web::post().to(m::offer_draw)))
        .service(resource(
            "/{id}/draw/accept",
            POST,
            web::post().to(m::accept_draw),
        ))
        .service(resource(
            "/{id}/draw/decline",
            POST,
            web::post().to(m::decline_draw),
        ))
        .service(resource("/{id}/claim", POST, web::post().to(m::claim)))
        .service(resource("/{id}/fork", POST, web::post().to(m::fork)))
        .service(
            web::resource("/{id}/join")
                .route(web::post().to(m::join))
                .route(get().to(pages::invite_link))
                .default_service(web::to(method_not_allowed(GET_POST))),
        )
        .service(resource(
            "/{id}/picture.svg",
            GET,
            get().to(picture::match_svg),
        ))
        .service(resource(
            "/{id}/picture.png",
            GET,
            get().to(picture::match_png),
        ))
        .service(resource(
            "/{id}/card.png",
            GET,
            get().to(picture::match_card),
        ))
        .service(resource(
            "/{id}/replay.gif",
            GET,
            get().to(records::replay_gif),
        ))
        .service(resource(
            "/{id}/record.pgn",
            GET,
            get().to(records::record_pgn),
        ))
        .service(resource(
            "/{id}/record.xqf",
            GET,
            get().to(records::record_xqf),
        ))
        .service(resource(
            "/{id}/record.psq",
            GET,
            get().to(records::record_psq),
        ))
        .service(resource(
            "/{id}/record.txt",
            GET,
            get().to(records::record_txt),
        ))
        .service(resource(
            "/{id}/record.json",
            GET,
            get().to(records::record_json),
        ))
        .service(resource(
            "/{id}/ws",
            GET_ONLY,
            web::get().to(socket::socket),
        ))
        .service(resource("/{id}/invite", POST, web::post().to(m::invite)))
        .service(resource(
            "/{id}/invite/withdraw",
            POST,
            web::post().to(m::withdraw_invites),
        ))
        .service(resource(
            "/{id}/invite/decline",
            POST,
            web::post().to(m::decline_invite),
        ))
}

/// The lobby of open games.
fn lobby_routes() -> actix_web::Scope {
    web::scope("/v1/lobby")
        .service(resource("", GET, get().to(lobby::list)))
        .service(resource("/events", GET, get().to(lobby::events)))
        .service(resource("/seeks", POST, web::post().to(lobby::seek)))
        .service(resource(
            "/seeks/{seek}/events",
            GET,
            get().to(lobby::seeker_events),
        ))
        .service(resource(
            "/seeks/{seek}/take",
            POST,
            web::post().to(lobby::take),
        ))
        .service(resource(
            "/seeks/{seek}/withdraw",
            POST,
            web::post().to(lobby::withdraw),
        ))
}

/// The stateless API of one game scope.
fn game_routes(mut scope: actix_web::Scope) -> actix_web::Scope {
    for routed in Routed::ALL {
        let path = format!("/{}", routed.segment());
        scope = scope.service(match routed {
            Routed::Start => resource(&path, GET, get().to(state::start)),
            Routed::Import => resource(&path, POST, web::post().to(state::import)),
            Routed::Records => resource(&path, POST, web::post().to(records::import)),
        });
    }
    scope
        .service(resource("/{code}", GET, get().to(state::read)))
        .service(resource("/{code}/play", POST, web::post().to(state::play)))
        .service(resource("/{code}/export", GET, get().to(state::export)))
        .service(
            web::resource("/{code}/analysis")
                .route(get().to(analysis::get))
                .route(web::post().to(analysis::post))
                .default_service(web::to(method_not_allowed(GET_POST))),
        )
        .service(
            web::resource("/{code}/move")
                .route(get().to(analysis::get_move))
                .route(web::post().to(analysis::post_move))
                .default_service(web::to(method_not_allowed(GET_POST))),
        )
        .service(resource(
            "/{code}/picture.svg",
            GET,
            get().to(picture::state_svg),
        ))
        .service(resource(
            "/{code}/picture.png",
            GET,
            get().to(picture::state_png),
        ))
        .service(resource(
            "/{code}/card.png",
            GET,
            get().to(picture::state_card),
        ))
        .service(resource("/{code}/fumen", GET, get().to(records::fumen)))
}
