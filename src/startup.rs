//! Builds the server around the one route table ([`crate::routes::table`]):
//! middleware and extractor configuration. [`Application::build`] binds
//! first, so tests can ask for port 0 and read the port actually taken.

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

use actix_cors::Cors;
use actix_http::error::DispatchError;
use actix_service::{map_config, IntoServiceFactory, ServiceFactoryExt};
use actix_web::dev::{fn_service, AppConfig, Extensions, Server};
use actix_web::middleware::ErrorHandlers;
use actix_web::rt::net::TcpStream;
use actix_web::{web, App};
use anyhow::Context;

use crate::analysis::pool::SearchPool;
use crate::configuration::Settings;
use crate::http::cache::ViewCache;
use crate::http::connections::ConnectionCap;
use crate::http::drain::Draining;
use crate::http::early::{Answering, Early};
use crate::http::errors;
use crate::http::front::Front;
use crate::http::heads::Guarded;
use crate::http::host::HostPolicy;
use crate::http::limits::Limits;
use crate::http::reads::{self, Reads};
use crate::matches::Matches;
use crate::routes::matches::MatchService;
use crate::routes::observe;
use crate::routes::table::{get, resource, routes, GET};
use crate::storage::{Database, Encryption};

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// A bound, not yet running server.
pub struct Application {
    addr: SocketAddr,
    server: Server,
    database: Option<Database>,
    draining: Draining,
    grace: std::time::Duration,
    searches: web::Data<SearchPool>,
}

impl Application {
    /// Opens the database (running its migrations), binds the listener and
    /// builds the server.
    ///
    /// # Errors
    ///
    /// When the database cannot be opened or migrated, or the address
    /// cannot be bound: the service does not start half-working.
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        if let Some(url) = &settings.public_url {
            check_public_url(url)?;
        }
        let database = match settings.database() {
            Some(db) => Some(
                Database::connect(&db)
                    .await
                    .with_context(|| format!("opening the database {}", redact(&db.url)))?,
            ),
            None => None,
        };
        if let Some(db) = &database {
            match db.encryption().await {
                Ok(Some(Encryption::Tls(version))) => {
                    tracing::info!(%version, "PostgreSQL connections are encrypted");
                }
                Ok(Some(Encryption::Plaintext)) => tracing::warn!(
                    "PostgreSQL connections are not encrypted: sslmode=disable, or the server \
                     offers no TLS and sslmode=prefer (the default) fell back to plaintext; \
                     ?sslmode=require refuses that"
                ),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "cannot tell whether PostgreSQL connections are encrypted")
                }
            }
        }
        let live = settings.live();
        if let Some(db) = &database {
            settings.retention().start(db.clone());
        }
        let searches = web::Data::new(SearchPool::new(
            settings
                .analysis_threads
                .unwrap_or_else(SearchPool::default_threads),
            settings.analysis_queue,
        ));
        let mut matches = database.clone().map(|db| Matches::new(db, live));
        if let Some(m) = &mut matches {
            // The computer's moves run on the analysis pool.
            m.seat_computer(searches.clone().into_inner());
            m.start_live()
                .await
                .context("starting live play (PostgreSQL LISTEN, seat presence)")?;
        }
        let matches = web::Data::new(MatchService(matches));
        let listener = TcpListener::bind(settings.addr)
            .with_context(|| format!("binding {}", settings.addr))?;
        let addr = listener.local_addr()?;
        let workers = settings.workers;
        let cache = web::Data::new(ViewCache::new(settings.cache_mb));
        let limits = web::Data::new(Limits::new(
            settings.rate_creates,
            settings.rate_writes,
            settings.rate_actions,
            settings.rate_search,
            settings.rate_pictures,
            settings.trusted_proxies.clone(),
        ));
        {
            // Clients whose budget is whole again are forgotten each minute.
            let limits = limits.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    every.tick().await;
                    limits.forget_idle();
                }
            });
        }
        let pool = searches.clone();
        let hosts = std::sync::Arc::new(HostPolicy::new(
            settings.public_url.as_deref(),
            &settings.allowed_hosts,
        ));
        let counting = settings.metrics;
        let draining = Draining::default();
        let grace = settings.shutdown_grace;
        let cap = ConnectionCap::new(
            settings.max_connections_per_client,
            settings.trusted_proxies.clone(),
        );
        let per_worker = settings
            .max_connections
            .div_ceil(settings.workers.unwrap_or_else(num_workers).max(1))
            .max(1);
        let reads = Reads::new(cache.clone(), settings.public_url.as_deref());
        let settings = web::Data::new(settings);
        // HttpServer, assembled from its parts so that each connection's
        // request heads pass `http::heads` before actix reads them; the
        // settings are HttpServer's defaults but for the half-close.
        let mut builder = actix_server::Server::build()
            .max_concurrent_connections(per_worker)
            .shutdown_timeout(10)
            .disable_signals();
        if let Some(n) = workers {
            builder = builder.workers(n);
        }
        let shutdown = builder.graceful_shutdown_signal();
        let drain_flag = draining.clone();
        let builder = builder.listen("qipan", listener, move || {
            let app = App::new()
                // Innermost first: CORS errors (a refused preflight) are
                // rewritten as problems too, and every request, problems
                // included, gets its id and span.
                .wrap(cors())
                .wrap(ErrorHandlers::new().default_handler(errors::render_plain_errors))
                .wrap(Front {
                    counting,
                    reads: reads.clone(),
                    hosts: hosts.clone(),
                    draining: drain_flag.clone(),
                })
                .app_data(settings.clone())
                .app_data(limits.clone())
                .app_data(cache.clone())
                .app_data(matches.clone())
                .app_data(pool.clone())
                .app_data(web::PayloadConfig::new(BODY_LIMIT))
                .app_data(
                    web::JsonConfig::default()
                        .limit(BODY_LIMIT)
                        .error_handler(errors::json_error),
                )
                .app_data(web::QueryConfig::default().error_handler(errors::query_error))
                .app_data(web::PathConfig::default().error_handler(errors::path_error))
                .configure(routes)
                .configure(|cfg| {
                    if counting {
                        cfg.service(resource("/metrics", GET, get().to(observe::scrape)));
                    }
                })
                .default_service(web::to(errors::not_found));
            let app = app
                .into_factory()
                .map_err(|e: actix_web::Error| e.error_response());
            // The bound address is the host a request without `Host` is
            // taken to name, as HttpServer has it (its constructor is
            // crate-private; this is the one it offers its test crate).
            // Served over plain HTTP (TLS ends before the service).
            let secure = false;
            let config = AppConfig::__priv_test_new(secure, addr.to_string(), addr);
            // The plainest reads are answered before actix-web sees them,
            // as `Front` would answer them (http::early).
            let app = Early {
                app: map_config(app, move |()| config.clone()),
                answering: Answering {
                    counting,
                    reads: reads.clone(),
                    hosts: hosts.clone(),
                    draining: drain_flag.clone(),
                    secure,
                    own_host: Arc::from(addr.to_string()),
                },
            };
            let signal = shutdown.clone();
            let cap = cap.clone();
            let http = actix_http::HttpService::<Guarded, _, _, _, _>::build()
                .graceful_shutdown_signal(move || {
                    let signal = signal.clone();
                    async move { signal.notified().await }
                })
                .client_disconnect_timeout(std::time::Duration::from_secs(1))
                // A client's FIN ends its connection at once, answer or
                // not: a closed event stream would otherwise be noticed
                // only when a write to it fails (after up to two
                // keep-alives), holding its seat online, its place in the
                // open-streams gauge and its connection slot meanwhile.
                // HTTP clients do not half-close while they wait.
                .h1_allow_half_closed(false)
                .local_addr(addr)
                .on_connect_ext(move |io: &Guarded, data: &mut Extensions| {
                    cap.on_connect(io.tcp(), data)
                })
                .h1(app);
            fn_service(|io: TcpStream| {
                let peer = io.peer_addr().ok();
                std::future::ready(Ok::<_, DispatchError>((Guarded::new(io), peer)))
            })
            .and_then(http)
        })?;
        let server = builder.run();
        Ok(Application {
            addr,
            server,
            database,
            draining,
            grace,
            searches,
        })
    }

    /// The database, when the service has one.
    pub fn database(&self) -> Option<&Database> {
        self.database.as_ref()
    }

    /// A handle to stop the server.
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
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
    /// that serves until one arrives, goes on answering for the shutdown
    /// grace (each answer closing its connection), stops accepting, drains
    /// in-flight requests (up to 10 s) and returns. Registering before the caller announces the address
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
        let (draining, grace, searches) = (self.draining, self.grace, self.searches);
        // The server must keep being polled while it drains, so it runs as
        // its own task and `stop` is sent from here.
        let mut server = tokio::spawn(self.server);
        Ok(async move {
            tokio::select! {
                result = &mut server => return result.map_err(std::io::Error::other)?,
                _ = terminate.recv() => tracing::info!("SIGTERM: shutting down"),
                _ = interrupt.recv() => tracing::info!("SIGINT: shutting down"),
            }
            // Requests already sent are answered first (see http::drain).
            draining.start();
            // Searches answer at once with what they found so far.
            searches.stop();
            tokio::time::sleep(grace).await;
            handle.stop(true).await;
            server.await.map_err(std::io::Error::other)?
        })
    }
}

/// Every public endpoint answers any origin: any frontend may call them.
/// (Reads of codes, answered before routing, add the same headers
/// themselves: `crate::http::reads`.)
/// No credentials are involved, so the answer is the wildcard `*`, the same
/// for every origin — which keeps cached responses shareable (no `Vary`).
fn cors() -> Cors {
    Cors::default()
        .allow_any_origin()
        .send_wildcard()
        .disable_vary_header()
        .allowed_methods(["GET", "POST", "OPTIONS"])
        .allow_any_header()
        .expose_headers(reads::EXPOSED)
        .max_age(86_400)
}

/// The number of workers actix starts when none is set: one per core.
fn num_workers() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Refuses a `--public-url` that is not the base of a URL: an `http` or
/// `https` scheme and a host, with no path beyond `/`, no query and no
/// fragment (share URLs are built by appending to it).
fn check_public_url(url: &str) -> anyhow::Result<()> {
    let refuse = |why: &str| {
        anyhow::anyhow!(
            "--public-url {url:?} {why}: give the service's base URL, such as https://qipan.example"
        )
    };
    let uri: actix_web::http::Uri = url.parse().map_err(|_| refuse("is not a URL"))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        _ => return Err(refuse("does not start with http:// or https://")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(refuse("has no host"));
    }
    if uri.query().is_some() || url.contains('#') {
        return Err(refuse("has a query or a fragment"));
    }
    if !matches!(uri.path(), "" | "/") {
        return Err(refuse("has a path"));
    }
    Ok(())
}

/// A database URL fit for logs: without its password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::check_public_url;

    #[test]
    fn a_public_url_is_the_base_of_a_url() {
        for ok in [
            "https://qipan.example",
            "https://qipan.example/",
            "http://127.0.0.1:8080",
        ] {
            assert!(check_public_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "not-a-url",
            "qipan.example",
            "ftp://qipan.example",
            "https://",
            "https://qipan.example/app",
            "https://qipan.example/?x=1",
            "https://qipan.example#top",
            "https://qipan example",
        ] {
            assert!(check_public_url(bad).is_err(), "{bad}");
        }
    }
}
