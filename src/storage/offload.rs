//! Match operations run on threads of their own. On SQLite every write
//! holds the one connection from its first statement to its commit, and
//! each statement is a round trip: were the operation a task of an HTTP
//! worker, each round trip would wait its turn behind whatever else that
//! worker runs — a thousand live streams being sent a move — and the
//! connection, held meanwhile, would hold up every other write. On these
//! threads the operation goes on the moment the database answers.
//!
//! On PostgreSQL, with a pool of connections, nothing is serialized on one
//! of them, and operations run where they are awaited (handing them over
//! would only cost).

use std::future::Future;
use std::sync::OnceLock;

/// An operation that panicked on the operations' threads, with what it
/// said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crashed(pub String);

/// The operations' runtime; `None` when its threads could not be started
/// (operations then run where they are awaited).
static RUNTIME: OnceLock<Option<tokio::runtime::Runtime>> = OnceLock::new();

fn runtime() -> Option<&'static tokio::runtime::Runtime> {
    RUNTIME
        .get_or_init(|| {
            let threads = std::thread::available_parallelism().map_or(2, usize::from);
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(threads)
                .thread_name("qipan-matches")
                .enable_all()
                .build()
                .map_err(|e| tracing::warn!(error = %e, "match operations run on the HTTP workers"))
                .ok()
        })
        .as_ref()
}

/// Where a service's match operations run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// Where they are awaited.
    Here,
    /// On the operations' threads (SQLite).
    Apart,
}

impl Runner {
    /// Runs a match operation and waits for it.
    ///
    /// The operation is boxed at once: the future of a caller holds a
    /// pointer rather than the operation's whole state, so moving it (as
    /// actix does with a handler's future, several times a request) copies
    /// a few bytes, not kilobytes.
    ///
    /// # Errors
    ///
    /// The operation's error; [`Crashed`] when it panicked.
    pub fn run<T: Send + 'static, E: From<Crashed> + Send + 'static>(
        self,
        op: impl Future<Output = Result<T, E>> + Send + 'static,
    ) -> impl Future<Output = Result<T, E>> {
        let op = Box::pin(op);
        async move {
            match (self, runtime()) {
                (Runner::Apart, Some(rt)) => rt
                    .spawn(op)
                    .await
                    .map_err(|e| E::from(Crashed(e.to_string())))?,
                _ => op.await,
            }
        }
    }
}
