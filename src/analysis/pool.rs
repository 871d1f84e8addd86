//! The threads searches run on, apart from the ones that answer HTTP.
//!
//! A search spends a core for up to seconds; on the HTTP workers it would
//! hold up every request queued behind it, so searches run here instead:
//! a fixed number of threads (by default one less than the cores, so at
//! least one core is always left to answer requests) fed by a bounded
//! queue. A search that finds every thread busy and the queue full is
//! refused at once ([`Refused::Busy`], answered `503` with `Retry-After`)
//! rather than waiting unseen.
//!
//! Every search has its own stop flag. It is raised when the request that
//! asked for the search goes away (its answer is no longer wanted) and, for
//! every search running or queued, when the service shuts down
//! ([`SearchPool::stop`]): an anytime search then answers with the deepest
//! iteration it finished.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, Weak};

/// A unit of work for a search thread.
type Job = Box<dyn FnOnce() + Send>;

/// Why a search was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Every thread is busy and the queue is full.
    Busy {
        /// The queue's length.
        queue: usize,
    },
    /// The pool is stopping.
    Closed,
}

/// The search threads and their queue.
pub struct SearchPool {
    queue: SyncSender<Job>,
    queue_len: usize,
    threads: usize,
    closing: Arc<AtomicBool>,
    /// The stop flags of searches queued or running, so a shutdown can
    /// raise them.
    flags: Mutex<Vec<Weak<AtomicBool>>>,
}

impl SearchPool {
    /// The number of search threads when none is configured: one less than
    /// the cores, at least one.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .saturating_sub(1)
            .max(1)
    }

    /// Starts `threads` search threads (at least one) with room for
    /// `queue` searches waiting for one (0: a search is taken only when a
    /// thread is free).
    ///
    /// # Panics
    ///
    /// When the operating system refuses to start a thread (at start-up).
    pub fn new(threads: usize, queue: usize) -> SearchPool {
        let threads = threads.max(1);
        let (tx, rx) = sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        for n in 0..threads {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("search-{n}"))
                .spawn(move || work(&rx))
                .expect("a search thread starts");
        }
        SearchPool {
            queue: tx,
            queue_len: queue,
            threads,
            closing: Arc::new(AtomicBool::new(false)),
            flags: Mutex::new(Vec::new()),
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `search` on a search thread, handing it its stop flag, and
    /// answers what it returns. Dropping the future (the client went away)
    /// raises the flag.
    ///
    /// # Errors
    ///
    /// [`Refused::Busy`] when every thread is busy and the queue is full,
    /// [`Refused::Closed`] once the pool is stopping (or a search
    /// panicked, which is logged).
    pub async fn run<T: Send + 'static>(
        &self,
        search: impl FnOnce(&Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<T, Refused> {
        if self.closing.load(Ordering::Relaxed) {
            return Err(Refused::Closed);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let flag = stop.clone();
        let closing = self.closing.clone();
        let job: Job = Box::new(move || {
            if closing.load(Ordering::Relaxed) {
                flag.store(true, Ordering::Relaxed);
            }
            // The receiver may be gone (the client left): nothing to do.
            let _ = tx.send(search(&flag));
        });
        self.register(&stop);
        match self.queue.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                return Err(Refused::Busy {
                    queue: self.queue_len,
                })
            }
            Err(TrySendError::Disconnected(_)) => return Err(Refused::Closed),
        }
        let guard = StopOnDrop(stop);
        let answer = rx.await.map_err(|_| Refused::Closed);
        drop(guard);
        answer
    }

    /// Raises the stop flag of every search queued or running, and takes
    /// no new one: each answers at once with what it has.
    pub fn stop(&self) {
        self.closing.store(true, Ordering::Relaxed);
        let flags = self.flags.lock().unwrap_or_else(|e| e.into_inner());
        for flag in flags.iter().filter_map(Weak::upgrade) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    fn register(&self, stop: &Arc<AtomicBool>) {
        let mut flags = self.flags.lock().unwrap_or_else(|e| e.into_inner());
        flags.retain(|f| f.strong_count() > 0);
        flags.push(Arc::downgrade(stop));
    }
}

/// Raises a search's stop flag when its request is dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// How much lower than the HTTP workers' the search threads' scheduling
/// priority is (a nice value, added to the process's own).
pub const NICE: i32 = 10;

/// Lowers the calling thread's scheduling priority by [`NICE`]: on Linux a
/// nice value belongs to a thread, so the workers that answer HTTP keep
/// theirs and win a core from a search whenever both are runnable. Where
/// the system refuses, the search runs at the same priority, as before.
fn lower_priority() {
    #[cfg(unix)]
    {
        let current = rustix::process::getpriority_process(None).unwrap_or(0);
        if let Err(e) = rustix::process::setpriority_process(None, current + NICE) {
            tracing::warn!(error = %e, "a search thread could not lower its priority");
        }
    }
}

/// A search thread: lowers its priority, then takes jobs until the pool is
/// dropped.
fn work(queue: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        let job = {
            let rx = queue.lock().unwrap_or_else(|e| e.into_inner());
            rx.recv()
        };
        let Ok(job) = job else { return };
        // A search that panics loses its answer (the request is told the
        // search failed), not the thread.
        if std::panic::catch_unwind(AssertUnwindSafe(job)).is_err() {
            tracing::error!("a search panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A search that spins until its flag is raised or `max` passes, and
    /// says whether the flag stopped it.
    fn spin(max: Duration) -> impl FnOnce(&Arc<AtomicBool>) -> bool + Send + 'static {
        move |stop| {
            let start = Instant::now();
            while start.elapsed() < max {
                if stop.load(Ordering::Relaxed) {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            false
        }
    }

    /// Searches run below the priority of the threads that answer HTTP
    /// (nice values run from -20 to 19; the test's own thread stands for a
    /// worker).
    #[cfg(unix)]
    #[tokio::test]
    async fn searches_run_at_a_lower_priority_than_the_workers() {
        let worker = rustix::process::getpriority_process(None).unwrap();
        let pool = SearchPool::new(1, 1);
        let search = pool
            .run(|_| rustix::process::getpriority_process(None).unwrap())
            .await
            .unwrap();
        assert_eq!(search, (worker + NICE).min(19), "worker at {worker}");
        assert!(search > worker || worker == 19);
    }

    #[tokio::test]
    async fn a_full_pool_refuses_and_a_stop_ends_every_search() {
        let pool = Arc::new(SearchPool::new(1, 1));
        let running = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(spin(Duration::from_secs(20))).await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let queued = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(spin(Duration::from_secs(20))).await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(
            pool.run(spin(Duration::ZERO)).await,
            Err(Refused::Busy { queue: 1 })
        );
        let started = Instant::now();
        pool.stop();
        assert_eq!(running.await.unwrap(), Ok(true));
        assert_eq!(queued.await.unwrap(), Ok(true));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(pool.run(spin(Duration::ZERO)).await, Err(Refused::Closed));
    }

    #[tokio::test]
    async fn a_dropped_request_stops_its_search() {
        let pool = Arc::new(SearchPool::new(1, 0));
        // With no queue a search is taken only by a thread waiting for one:
        // give the new thread the time to start waiting.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let stopped = Arc::new(AtomicBool::new(false));
        let seen = stopped.clone();
        let request = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.run(move |stop| {
                    let r = spin(Duration::from_secs(20))(stop);
                    seen.store(r, Ordering::Relaxed);
                })
                .await
            }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        request.abort();
        // The thread is free again once the search saw its flag.
        assert_eq!(
            tokio::time::timeout(Duration::from_secs(5), async {
                loop {
                    if stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
            .await,
            Ok(())
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(pool.run(|_| 7).await, Ok(7));
    }
}
