//! Typed settings, read from the command line and the environment.

use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

/// How the service runs.
#[derive(Debug, Clone, clap::Args)]
pub struct Settings {
    /// Address to listen on; port 0 picks a free port.
    #[arg(
        long,
        global = true,
        env = "QIPAN_ADDR",
        default_value = "127.0.0.1:8080"
    )]
    pub addr: SocketAddr,

    /// Base of the share URLs in state views (e.g. `https://qipan.example`):
    /// an http or https URL with a host and nothing after it; the service
    /// does not start with anything else. When unset, each URL is built
    /// from the request's scheme and Host.
    #[arg(long, global = true, env = "QIPAN_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// When no public URL is set, the hosts the service answers for,
    /// comma-separated (e.g. `qipan.example,localhost`; ports are not
    /// compared): a request naming another Host gets 421 unknown-host, so a
    /// forged Host never reaches a share URL or a cached answer. `*`
    /// answers any Host. Ignored with a public URL, which is then the only
    /// base of URLs.
    #[arg(
        long,
        global = true,
        env = "QIPAN_ALLOWED_HOSTS",
        value_delimiter = ',',
        default_value = "localhost,127.0.0.1,[::1]"
    )]
    pub allowed_hosts: Vec<String>,

    /// Memory for rendered state views, in MiB; 0 turns the cache off.
    #[arg(long, global = true, env = "QIPAN_CACHE_MB", default_value_t = 64)]
    pub cache_mb: u64,

    /// Worker threads; the number of cores when unset.
    #[arg(long, global = true, env = "QIPAN_WORKERS")]
    pub workers: Option<usize>,

    /// Where persisted matches live: `sqlite:<path>` (created when missing),
    /// `sqlite::memory:`, `postgres://user@host/db`, or `none` to serve the
    /// stateless API only.
    #[arg(
        long,
        global = true,
        env = "QIPAN_DATABASE_URL",
        default_value = "sqlite:qipan.db"
    )]
    pub database_url: String,

    /// Most PostgreSQL connections open at once (SQLite uses one).
    #[arg(long, global = true, env = "QIPAN_DATABASE_POOL", default_value_t = 16)]
    pub database_pool: u32,

    /// How long a match request waits for the database before answering
    /// 503 (e.g. `5s`, `500ms`).
    #[arg(long, global = true, env = "QIPAN_DATABASE_TIMEOUT", default_value = "5s", value_parser = humantime::parse_duration)]
    pub database_timeout: Duration,

    /// How long a request's body may take to arrive, from the start of the
    /// request (e.g. `10s`); past it the answer is 408 and the connection
    /// is closed.
    #[arg(long, global = true, env = "QIPAN_BODY_TIMEOUT", default_value = "10s", value_parser = humantime::parse_duration)]
    pub body_timeout: Duration,

    /// How long a seat stays online after its last stream closes, so that a
    /// page reload does not show it leaving (e.g. `5s`).
    #[arg(long, global = true, env = "QIPAN_PRESENCE_GRACE", default_value = "5s", value_parser = humantime::parse_duration)]
    pub presence_grace: Duration,

    /// How often an idle live stream sends a keep-alive (an SSE comment, a
    /// WebSocket ping); a client that went away without closing is noticed
    /// within two of them (e.g. `15s`).
    #[arg(long, global = true, env = "QIPAN_KEEP_ALIVE", default_value = "15s", value_parser = humantime::parse_duration)]
    pub keep_alive: Duration,

    /// Matches, forks, seeks and takes one client address may create per
    /// minute; 0: no limit.
    #[arg(long, global = true, env = "QIPAN_RATE_CREATES", default_value_t = 60)]
    pub rate_creates: u32,

    /// Other match writes (moves, undo, joins, …) one client address may
    /// make per second, in bursts of twice that; 0: no limit.
    #[arg(long, global = true, env = "QIPAN_RATE_WRITES", default_value_t = 20)]
    pub rate_writes: u32,

    /// Actions of play batches (stateless and match) one client address may
    /// send per second, in bursts of ten times that; 0: no limit.
    #[arg(
        long,
        global = true,
        env = "QIPAN_RATE_ACTIONS",
        default_value_t = 2000
    )]
    pub rate_actions: u32,

    /// Milliseconds of search (analysis and computer moves) one client
    /// address may ask for per second, in bursts of ten times that; a
    /// search is charged the most it may take when it is asked for. 0: no
    /// limit.
    #[arg(long, global = true, env = "QIPAN_RATE_SEARCH", default_value_t = 1000)]
    pub rate_search: u32,

    /// Threads that run searches, apart from the HTTP workers; one less
    /// than the cores when unset (at least one), so a core is always left
    /// to answer requests.
    #[arg(long, global = true, env = "QIPAN_ANALYSIS_THREADS")]
    pub analysis_threads: Option<usize>,

    /// Searches that may wait for a free search thread; past it a search
    /// is answered 503 analysis-busy at once.
    #[arg(long, global = true, env = "QIPAN_ANALYSIS_QUEUE", default_value_t = 8)]
    pub analysis_queue: usize,
    /// Picture renders (pictures and cards the cache does not hold) one
    /// client address may cause per second, in units of a 512 × 512 PNG
    /// (a 2048 px PNG is 16, a chat card 3, an SVG 1), in bursts of four
    /// times that; 0: no limit.
    #[arg(long, global = true, env = "QIPAN_RATE_PICTURES", default_value_t = 16)]
    pub rate_pictures: u32,

    /// Proxies whose `X-Forwarded-For` names the client, comma-separated
    /// addresses (e.g. `10.0.0.2,10.0.0.3`); from anyone else the header is
    /// ignored and the peer address is the client.
    #[arg(
        long,
        global = true,
        env = "QIPAN_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,

    /// On SIGTERM, how long the service goes on accepting and answering
    /// (each answer closing its connection) before it stops accepting, so
    /// requests already sent are answered (e.g. `1s`; `0s` stops at once).
    #[arg(long, global = true, env = "QIPAN_SHUTDOWN_GRACE", default_value = "1s", value_parser = humantime::parse_duration)]
    pub shutdown_grace: Duration,

    /// Most open connections in all (each worker takes its share); past
    /// it, new connections wait to be accepted.
    #[arg(
        long,
        global = true,
        env = "QIPAN_MAX_CONNECTIONS",
        default_value_t = 10_000
    )]
    pub max_connections: usize,

    /// Most open connections one client address may hold (trusted proxies
    /// excepted); a connection beyond it is answered 503
    /// too-many-connections and closed. 0: no cap.
    #[arg(
        long,
        global = true,
        env = "QIPAN_MAX_CONNECTIONS_PER_CLIENT",
        default_value_t = 64
    )]
    pub max_connections_per_client: u32,

    /// Matches in which nothing happened for this long are deleted (e.g.
    /// `30d`); `off` keeps them for ever.
    #[arg(long, global = true, env = "QIPAN_RETAIN_IDLE", default_value = "30d")]
    pub retain_idle: Keep,

    /// Finished matches are deleted this long after they ended (e.g. `7d`);
    /// `off` keeps them for ever.
    #[arg(
        long,
        global = true,
        env = "QIPAN_RETAIN_FINISHED",
        default_value = "7d"
    )]
    pub retain_finished: Keep,

    /// How often each instance deletes the matches retention no longer
    /// keeps (e.g. `1m`).
    #[arg(long, global = true, env = "QIPAN_RETENTION_SWEEP", default_value = "1m", value_parser = humantime::parse_duration)]
    pub retention_sweep: Duration,

    /// Serve `GET /metrics` (Prometheus' text format) and count requests
    /// for it; `false` turns both off.
    #[arg(long, global = true, env = "QIPAN_METRICS", default_value_t = true, action = clap::ArgAction::Set)]
    pub metrics: bool,

    /// How long an open seek waits in the lobby before it expires (e.g.
    /// `10m`).
    #[arg(long, global = true, env = "QIPAN_SEEK_TTL", default_value = "10m", value_parser = humantime::parse_duration)]
    pub seek_ttl: Duration,

    /// How long the side to move of a duel must have been away (no stream
    /// of theirs open, and no move) before the other seat may claim the win
    /// or a draw (e.g. `5m`): long enough for a phone that slept through a
    /// subway stop to come back.
    #[arg(long, global = true, env = "QIPAN_ABANDON_AFTER", default_value = "5m", value_parser = humantime::parse_duration)]
    pub abandon_after: Duration,
}

impl Settings {
    /// Settings for tests: a free port on loopback.
    pub fn for_tests() -> Settings {
        Settings {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_url: None,
            allowed_hosts: vec!["localhost".to_owned(), "127.0.0.1".to_owned()],
            cache_mb: 8,
            workers: Some(2),
            database_url: "none".to_owned(),
            database_pool: 8,
            database_timeout: Duration::from_secs(1),
            presence_grace: Duration::from_millis(300),
            body_timeout: Duration::from_secs(10),
            keep_alive: Duration::from_millis(500),
            seek_ttl: Duration::from_secs(600),
            abandon_after: Duration::from_secs(300),
            // Tests that are about limits turn them on.
            rate_creates: 0,
            rate_writes: 0,
            rate_actions: 0,
            rate_search: 0,
            analysis_threads: Some(1),
            analysis_queue: 4,
            rate_pictures: 0,
            trusted_proxies: Vec::new(),
            metrics: true,
            max_connections: 10_000,
            shutdown_grace: Duration::from_millis(100),
            max_connections_per_client: 0,
            retain_idle: Keep(None),
            retain_finished: Keep(None),
            retention_sweep: Duration::from_millis(200),
        }
    }

    /// What live streams need to know.
    pub fn live(&self) -> LiveSettings {
        LiveSettings {
            presence_grace: self.presence_grace,
            keep_alive: self.keep_alive,
            seek_ttl: self.seek_ttl,
            abandon_after: self.abandon_after,
        }
    }

    /// The retention rules.
    pub fn retention(&self) -> Retention {
        Retention {
            idle: self.retain_idle,
            finished: self.retain_finished,
            every: self.retention_sweep,
        }
    }

    /// The database to open, or `None` for `none`.
    pub fn database(&self) -> Option<DatabaseSettings> {
        (!self.database_url.eq_ignore_ascii_case("none")).then(|| DatabaseSettings {
            url: self.database_url.clone(),
            max_connections: self.database_pool,
            acquire_timeout: self.database_timeout,
        })
    }
}

/// The timings of live play.
#[derive(Debug, Clone, Copy)]
pub struct LiveSettings {
    /// How long a seat stays online after its last stream closed.
    pub presence_grace: Duration,
    /// How often an idle stream sends a keep-alive.
    pub keep_alive: Duration,
    /// How long a seek stays open at most.
    pub seek_ttl: Duration,
    /// How long the side to move must have been away before a claim.
    pub abandon_after: Duration,
}

/// How to reach the database.
#[derive(Debug, Clone)]
pub struct DatabaseSettings {
    /// `sqlite:<path>`, `sqlite::memory:` or `postgres://…`.
    pub url: String,
    /// Most connections open at once (PostgreSQL; SQLite uses one writer).
    pub max_connections: u32,
    /// How long a request waits for a connection before answering 503.
    pub acquire_timeout: Duration,
}

/// How long a kind of match is kept: a duration, or `off` for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep(pub Option<Duration>);

impl FromStr for Keep {
    type Err = humantime::DurationError;

    fn from_str(s: &str) -> Result<Keep, Self::Err> {
        if s.trim().eq_ignore_ascii_case("off") {
            return Ok(Keep(None));
        }
        humantime::parse_duration(s).map(|d| Keep(Some(d)))
    }
}

/// The retention rules and how often they are applied.
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    /// Matches with no change for this long go.
    pub idle: Keep,
    /// Finished matches go this long after their last change.
    pub finished: Keep,
    /// How often each instance sweeps.
    pub every: Duration,
}

impl Retention {
    /// Whether any rule is on.
    pub fn is_on(&self) -> bool {
        self.idle.0.is_some() || self.finished.0.is_some()
    }
}
