//! What the service counts, for `GET /metrics` in Prometheus' text format
//! (the `prometheus` crate): requests by route, method and status, their
//! latency, matches created, moves played, open live streams, rate-limit
//! refusals, request heads refused before routing, database errors, and the database pool's connections.
//!
//! One set of metrics per process (a scrape describes the process, and the
//! places that count — the match domain, the limits, the live feeds — need
//! no handle passed to them). Counters only grow; tests read differences.

use std::sync::LazyLock;
use std::time::Duration;

use actix_web::http::StatusCode;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

/// The service's metrics.
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    matches_created: IntCounter,
    moves_played: IntCounter,
    rate_limited: IntCounterVec,
    refused: IntCounterVec,
    open_streams: IntGaugeVec,
    database_errors: IntCounter,
    pool_size: IntGauge,
    pool_idle: IntGauge,
}

/// A request series a worker thread has counted into: its labels, and
/// the handles [`Metrics::request`] got for them. Route patterns and
/// methods are few, statuses a handful each: a thread keeps some dozens.
struct Series {
    route: String,
    method: &'static str,
    status: StatusCode,
    requests: IntCounter,
    latency: prometheus::Histogram,
}

thread_local! {
    static SERIES: std::cell::RefCell<Vec<Series>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A request method as a label: the methods of RFC 9110 and PATCH by
/// name, any other as `other`. A client may send any token as a method;
/// were each a label, one client could grow the exposition (and the
/// memory behind it) without bound.
pub fn method_label(method: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "other",
    }
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

impl Metrics {
    fn new() -> Metrics {
        let registry =
            Registry::new_custom(Some("qipan".to_owned()), None).expect("a fixed, valid prefix");
        let requests = IntCounterVec::new(
            Opts::new("http_requests_total", "HTTP requests answered"),
            &["route", "method", "status"],
        )
        .expect("valid metric options");
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "Time from a request's head to its answer's head",
            )
            .buckets(vec![
                0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                1.0, 2.5, 5.0,
            ]),
            &["route", "method"],
        )
        .expect("valid metric options");
        let matches_created = IntCounter::new(
            "matches_created_total",
            "Matches created: new matches, forks and duels from taken seeks",
        )
        .expect("valid metric options");
        let moves_played = IntCounter::new("moves_played_total", "Moves played in matches")
            .expect("valid metric options");
        let rate_limited = IntCounterVec::new(
            Opts::new("rate_limited_total", "Requests refused 429, by budget"),
            &["budget"],
        )
        .expect("valid metric options");
        let refused = IntCounterVec::new(
            Opts::new(
                "refused_requests_total",
                "Request heads the HTTP library refused before routing (400 or 431 with no body), by reason",
            ),
            &["reason"],
        )
        .expect("valid metric options");
        let open_streams = IntGaugeVec::new(
            Opts::new(
                "open_streams",
                "Live streams open now: match event streams and sockets, lobby streams",
            ),
            &["kind"],
        )
        .expect("valid metric options");
        let database_errors = IntCounter::new(
            "database_errors_total",
            "Requests that met an unreachable database or a failed query",
        )
        .expect("valid metric options");
        let pool_size = IntGauge::new(
            "database_pool_connections",
            "Connections the database pool holds",
        )
        .expect("valid metric options");
        let pool_idle = IntGauge::new(
            "database_pool_idle_connections",
            "Connections of the pool not in use",
        )
        .expect("valid metric options");
        for collector in [
            Box::new(requests.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(latency.clone()),
            Box::new(matches_created.clone()),
            Box::new(moves_played.clone()),
            Box::new(rate_limited.clone()),
            Box::new(refused.clone()),
            Box::new(open_streams.clone()),
            Box::new(database_errors.clone()),
            Box::new(pool_size.clone()),
            Box::new(pool_idle.clone()),
        ] {
            registry
                .register(collector)
                .expect("each metric is registered once");
        }
        Metrics {
            registry,
            requests,
            latency,
            matches_created,
            moves_played,
            rate_limited,
            refused,
            open_streams,
            database_errors,
            pool_size,
            pool_idle,
        }
    }

    /// An answered request: `route` is its route's pattern
    /// (`/v1/{game}/{code}`), never the path itself, and `method` one of
    /// [`method_label`]'s, so the label set stays small whatever clients
    /// send. (Every other label is chosen by the service: statuses, budget
    /// names, refusal reasons, stream kinds.)
    ///
    /// Each worker thread keeps the series it has counted into, so that a
    /// request finds its counter and histogram by comparing a few short
    /// strings instead of hashing its labels into the shared maps.
    pub fn request(&self, route: &str, method: &'static str, status: StatusCode, took: Duration) {
        SERIES.with_borrow_mut(|series| {
            let found = series
                .iter()
                .position(|s| s.status == status && s.method == method && s.route == route);
            // A series found moves one place up, so that the busiest
            // stay first (the list holds every route's answers in time).
            let found = found.map(|i| match i {
                0 => 0,
                i => {
                    series.swap(i, i - 1);
                    i - 1
                }
            });
            let index = found.unwrap_or_else(|| {
                series.push(Series {
                    route: route.to_owned(),
                    method,
                    status,
                    requests: self
                        .requests
                        .with_label_values(&[route, method, status.as_str()]),
                    latency: self.latency.with_label_values(&[route, method]),
                });
                series.len() - 1
            });
            let s = &series[index];
            s.requests.inc();
            s.latency.observe(took.as_secs_f64());
        });
    }

    /// A match was created.
    pub fn match_created(&self) {
        self.matches_created.inc();
    }

    /// `n` moves were played in a match.
    pub fn moves(&self, n: usize) {
        self.moves_played.inc_by(n as u64);
    }

    /// A request was refused for a spent budget.
    pub fn limited(&self, budget: &str) {
        self.rate_limited.with_label_values(&[budget]).inc();
    }

    /// A request head was refused by the HTTP library (`head-too-large` or
    /// `malformed-head`).
    pub fn refused(&self, reason: &str) {
        self.refused.with_label_values(&[reason]).inc();
    }

    /// A request met a database error.
    pub fn database_error(&self) {
        self.database_errors.inc();
    }

    /// The text exposition, with the pool's connections as they are now.
    pub fn render(&self, pool: Option<(u32, usize)>) -> String {
        if let Some((size, idle)) = pool {
            self.pool_size.set(i64::from(size));
            self.pool_idle.set(i64::try_from(idle).unwrap_or(i64::MAX));
        }
        let mut out = Vec::new();
        // Encoding plain counters and histograms into a Vec cannot fail.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// One open live stream, counted while it lives.
pub struct OpenStream(IntGauge);

impl OpenStream {
    /// Counts a stream of `kind` (`match` or `lobby`) until dropped.
    pub fn new(kind: &str) -> OpenStream {
        let gauge = metrics().open_streams.with_label_values(&[kind]);
        gauge.inc();
        OpenStream(gauge)
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.0.dec();
    }
}
