//! Typed settings, read from the command line and the environment.

use std::net::SocketAddr;

/// How the service runs.
#[derive(Debug, Clone, clap::Args)]
pub struct Settings {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, env = "QIPAN_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// Base of the share URLs in state views (e.g. `https://qipan.example`).
    /// When unset, each URL is built from the request's scheme and Host.
    #[arg(long, env = "QIPAN_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Memory for rendered state views, in MiB; 0 turns the cache off.
    #[arg(long, env = "QIPAN_CACHE_MB", default_value_t = 64)]
    pub cache_mb: u64,

    /// Worker threads; the number of cores when unset.
    #[arg(long, env = "QIPAN_WORKERS")]
    pub workers: Option<usize>,
}

impl Settings {
    /// Settings for tests: a free port on loopback.
    pub fn for_tests() -> Settings {
        Settings {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_url: None,
            cache_mb: 8,
            workers: Some(2),
        }
    }
}
