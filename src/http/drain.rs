//! Shutting down without dropping requests. On SIGTERM the service first
//! *drains* for `--shutdown-grace` (1 s): it goes on accepting and
//! answering, so requests already sent — still in the kernel's accept queue
//! or in a socket's buffer — are answered, and each answer carries
//! `Connection: close` so clients move elsewhere. Then it stops accepting
//! and finishes the requests in flight (up to 10 s).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Whether the service is shutting down.
#[derive(Clone, Default)]
pub struct Draining(Arc<AtomicBool>);

impl Draining {
    /// From now on, answers close their connections.
    pub fn start(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether shutdown has begun.
    pub fn is_on(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
