//! Builds the server: the one route table, middleware and extractor
//! configuration. [`Application::build`] binds first, so tests can ask for
//! port 0 and read the port actually taken.

use std::net::{SocketAddr, TcpListener};

use actix_cors::Cors;
use actix_web::dev::Server;
use actix_web::middleware::ErrorHandlers;
use actix_web::{guard, web, App, HttpServer};
use tracing_actix_web::TracingLogger;

use crate::configuration::Settings;
use crate::problem::{self, method_not_allowed};
use crate::routes::{docs, games, health, state};

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// A bound, not yet running server.
pub struct Application {
    addr: SocketAddr,
    server: Server,
}

impl Application {
    /// Binds the listener and builds the server.
    ///
    /// # Errors
    ///
    /// When the address cannot be bound.
    pub fn build(settings: Settings) -> std::io::Result<Application> {
        let listener = TcpListener::bind(settings.addr)?;
        let addr = listener.local_addr()?;
        let workers = settings.workers;
        let settings = web::Data::new(settings);
        let mut server = HttpServer::new(move || {
            App::new()
                // Innermost first: CORS errors (a refused preflight) are
                // rewritten as problems too, and every request is logged.
                .wrap(cors())
                .wrap(ErrorHandlers::new().default_handler(problem::render_plain_errors))
                .wrap(TracingLogger::default())
                .app_data(settings.clone())
                .app_data(
                    web::JsonConfig::default()
                        .limit(BODY_LIMIT)
                        .error_handler(problem::json_error),
                )
                .app_data(web::QueryConfig::default().error_handler(problem::query_error))
                .app_data(web::PathConfig::default().error_handler(problem::path_error))
                .configure(routes)
                .default_service(web::to(problem::not_found))
        })
        .shutdown_timeout(10)
        .disable_signals()
        .listen(listener)?;
        if let Some(n) = workers {
            server = server.workers(n);
        }
        Ok(Application {
            addr,
            server: server.run(),
        })
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until the server is stopped (tests drop it with their runtime).
    ///
    /// # Errors
    ///
    /// When the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }

    /// Registers SIGINT and SIGTERM handlers at once, then gives the future
    /// that serves until one arrives, drains in-flight requests (up to 10 s)
    /// and returns. Registering before the caller announces the address
    /// means a signal sent right after the announcement is never missed.
    ///
    /// # Errors
    ///
    /// When the signal handlers cannot be installed.
    pub fn run_until_signalled(
        self,
    ) -> std::io::Result<impl std::future::Future<Output = std::io::Result<()>>> {
        use tokio::signal::unix::{signal, SignalKind};
        let mut terminate = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let handle = self.server.handle();
        // The server must keep being polled while it drains, so it runs as
        // its own task and `stop` is sent from here.
        let mut server = tokio::spawn(self.server);
        Ok(async move {
            tokio::select! {
                result = &mut server => return result.map_err(std::io::Error::other)?,
                _ = terminate.recv() => tracing::info!("SIGTERM: shutting down"),
                _ = interrupt.recv() => tracing::info!("SIGINT: shutting down"),
            }
            handle.stop(true).await;
            server.await.map_err(std::io::Error::other)?
        })
    }
}

/// Every public endpoint answers any origin: any frontend may call them.
fn cors() -> Cors {
    Cors::default()
        .allow_any_origin()
        .allowed_methods(["GET", "POST", "OPTIONS"])
        .allow_any_header()
        .expose_headers(["ETag", "Location"])
        .max_age(86_400)
}

/// A resource answering one method; any other method gets a 405 problem
/// naming the one it takes.
fn resource(
    path: &str,
    method: &'static [&'static str],
    route: actix_web::Route,
) -> actix_web::Resource {
    web::resource(path)
        .route(route)
        .default_service(web::to(method_not_allowed(method)))
}

/// The route table. `/v1/{game}/start` and `/v1/{game}/import` come before
/// `/v1/{game}/{code}` so that they are never read as codes.
fn routes(cfg: &mut web::ServiceConfig) {
    const GET: &[&str] = &["GET", "HEAD"];
    const POST: &[&str] = &["POST"];
    // GET routes answer HEAD too (RFC 9110 §9.3.2); actix sends no body.
    let get = || web::route().guard(guard::Any(guard::Get()).or(guard::Head()));
    let post = web::post;
    cfg.service(resource("/healthz", GET, get().to(health::healthz)))
        .service(resource("/openapi.yaml", GET, get().to(docs::openapi)))
        .service(resource("/problems/{kind}", GET, get().to(docs::problem)))
        .service(resource("/v1/games", GET, get().to(games::list)))
        .service(resource("/v1/{game}/start", GET, get().to(state::start)))
        .service(resource(
            "/v1/{game}/import",
            POST,
            post().to(state::import),
        ))
        .service(resource("/v1/{game}/{code}", GET, get().to(state::read)))
        .service(resource(
            "/v1/{game}/{code}/play",
            POST,
            post().to(state::play),
        ))
        .service(resource(
            "/v1/{game}/{code}/export",
            GET,
            get().to(state::export),
        ));
}
