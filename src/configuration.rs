//! Typed settings, read from the command line and the environment.

use std::net::SocketAddr;
use std::time::Duration;

use crate::storage::DatabaseSettings;

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

    /// Base of the share URLs in state views (e.g. `https://qipan.example`).
    /// When unset, each URL is built from the request's scheme and Host.
    #[arg(long, global = true, env = "QIPAN_PUBLIC_URL")]
    pub public_url: Option<String>,

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
}

impl Settings {
    /// Settings for tests: a free port on loopback.
    pub fn for_tests() -> Settings {
        Settings {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_url: None,
            cache_mb: 8,
            workers: Some(2),
            database_url: "none".to_owned(),
            database_pool: 8,
            database_timeout: Duration::from_secs(1),
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
