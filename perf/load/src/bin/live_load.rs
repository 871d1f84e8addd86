//! Load client for the live match stream, `GET /v1/matches/{id}/events`
//! (Server-Sent Events). Three measurements, one subcommand each; each
//! prints its figures as text and then as one JSON line:
//!
//! ```text
//! cargo run --release -p qipan-load --bin live_load -- [--url http://127.0.0.1:8080] \
//!     [--server-pid PID] [--threads 1] fanout [--spectators 1000] [--moves 200] [--pause 20ms]
//! cargo run --release -p qipan-load --bin live_load -- --server-pid PID idle [--streams 10000] [--matches 1]
//! cargo run --release -p qipan-load --bin live_load -- --server-pid PID throughput \
//!     [--concurrency 64] [--watchers 1000] [--duration 20s] [--warmup 3s] [--rounds 2]
//! ```
//!
//! `fanout`: `--spectators` streams watch one solo 2048 match; once every one
//! of them has its `sync`, one player makes `--moves` writes, one at a time,
//! `--pause` apart (so what is measured is delivery, not a queue of moves).
//! A write's t0 is the instant its `POST /play` answer (body included)
//! reached the player; each spectator notes the instant its stream delivered
//! the event whose `id:` is that write's version. Spectators and player share
//! this process and its clock. The delivery latency is arrival − t0 over every
//! (spectator, write) pair; an event that came before the answer counts as 0
//! and is counted as `early`. `missing` counts pairs with no event; it must
//! be 0. The instants are taken when this client reads the bytes, so the
//! figures include this client's own scheduling of a thousand streams.
//!
//! `idle`: `--streams` streams stay open and quiet (on `--matches` matches,
//! round-robin; by default all on one, so that what is measured is the
//! connection and not the database pages of many matches). The server's
//! VmRSS (`/proc/PID/status`, hence `--server-pid`) is read before any is
//! opened, when half are open and when all are, each time after every open
//! stream has had its `sync` and `--settle` has passed. Reported: KB per
//! connection over all of them, and the marginal cost of the second half
//! (which leaves out what the first connections cost once: buffers, pool
//! connections warming up). Then the server's CPU over `--idle-window` with
//! every stream open and nothing happening (keep-alives), and its RSS and
//! descriptors once this client has closed them all (the server notices a
//! closed stream only when a write to it fails, which can take two
//! keep-alive periods). The file-descriptor limit (`ulimit -n`) of both this
//! process and the server must be above `--streams`.
//!
//! `throughput`: `--concurrency` loops each play their own solo 2048 match
//! (one move per `POST /play`, with `If-Match`) as fast as the server
//! answers, for `--duration` after `--warmup`, first with no watchers, then
//! on fresh matches with `--watchers` streams spread evenly over those
//! matches (watcher j watches match j mod concurrency), all of them read; the
//! pair is run `--rounds` times, alternately, because a two-core machine is
//! noisy. Reported per run: moves/s, play latency, server CPU per move, and
//! with watchers the delivery latency (as in `fanout`, t0 being the play's
//! answer) and the events missed; then the ratio of the moves/s with
//! watchers to those without. Every run plays the same games (same seeds,
//! same policy). A loop whose game ends starts a new match, like
//! `match_load`, and its watchers follow it there (each opens a stream on
//! the new match: a `sync`, then its events), as spectators following a
//! player would; the writes of the new match before that sync are in it.
//!
//! Every player uses the same policy: the first legal action of down, left,
//! right, up (a 2048 game then lasts a hundred moves or more), each
//! match with its own seed. In `fanout`, if the one match's game ends, the
//! player takes the move back (`POST /undo`, itself a write that streams send
//! as an `undo` event) and plays random legal actions for a few moves; undos
//! are writes to deliver like moves (the report says how many there were).
//!
//! `perf/scripts/live-loadtest.sh` builds this, starts the server and runs all
//! three.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use futures_util::StreamExt;
use qipan_load::rng::Rng;
use reqwest::header::{AUTHORIZATION, IF_MATCH};
use reqwest::{Client, Response};
use serde_json::{json, Value};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;

/// Load client for qipan's live match events.
#[derive(Debug, Parser)]
#[command(name = "live_load")]
struct Args {
    /// Base URL of the service.
    #[arg(long, default_value = "http://127.0.0.1:8080", global = true)]
    url: String,
    /// The server's process id, to read its memory and CPU from /proc.
    #[arg(long, global = true)]
    server_pid: Option<u32>,
    /// Runtime threads of this client (it shares the machine with the server).
    #[arg(long, default_value_t = 1, global = true)]
    threads: usize,
    /// Streams being opened at once (each holds it until its `sync`).
    #[arg(long, default_value_t = 256, global = true)]
    open_concurrency: usize,
    /// A name for this run, copied into the JSON line.
    #[arg(long, default_value = "", global = true)]
    label: String,
    #[command(subcommand)]
    test: Test,
}

#[derive(Debug, Subcommand)]
enum Test {
    /// Delivery latency of one match's events to many spectators.
    Fanout {
        /// Streams watching the match.
        #[arg(long, default_value_t = 1000)]
        spectators: usize,
        /// Writes the player makes.
        #[arg(long, default_value_t = 200)]
        moves: usize,
        /// Pause after each answer before the next write.
        #[arg(long, default_value = "20ms", value_parser = humantime::parse_duration)]
        pause: Duration,
        /// The match's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How long to wait for the last events once the player is done.
        #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
        drain: Duration,
    },
    /// Server memory per idle stream.
    Idle {
        /// Streams held open.
        #[arg(long, default_value_t = 10_000)]
        streams: usize,
        /// Matches they watch (round-robin).
        #[arg(long, default_value_t = 1)]
        matches: usize,
        /// Pause before each memory reading.
        #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
        settle: Duration,
        /// How long to watch the server's CPU with every stream open and idle
        /// (the keep-alive period is 15 s).
        #[arg(long, default_value = "16s", value_parser = humantime::parse_duration)]
        idle_window: Duration,
    },
    /// Moves per second with and without watchers.
    Throughput {
        /// Loops playing at once, each its own match and connection.
        #[arg(short, long, default_value_t = 64)]
        concurrency: usize,
        /// Streams watching those matches in the runs with watchers.
        #[arg(long, default_value_t = 1000)]
        watchers: usize,
        /// How long moves are counted, after the warm-up.
        #[arg(long, default_value = "20s", value_parser = humantime::parse_duration)]
        duration: Duration,
        /// How long the loops play before moves are counted.
        #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
        warmup: Duration,
        /// Pairs of runs (without, then with watchers).
        #[arg(long, default_value_t = 2)]
        rounds: usize,
        /// How long to wait for the last events once the loops are done.
        #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
        drain: Duration,
    },
}

/// A match as its player sees it.
struct Game {
    id: String,
    token: String,
    version: i64,
    /// Legal actions; empty once the game is over.
    actions: Vec<String>,
}

impl Game {
    /// Reads a match view; `token` is kept from creation.
    fn read(view: &Value, token: String) -> anyhow::Result<Game> {
        let id = view["id"].as_str().context("the answer has no id")?;
        let state = &view["state"];
        let actions = if state["status"]["state"].as_str() == Some("ongoing") {
            state["legal_actions"]
                .as_array()
                .context("the answer has no legal_actions")?
                .iter()
                .filter_map(|a| a["action"].as_str().map(str::to_owned))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Game {
            id: id.to_owned(),
            token,
            version: view["version"]
                .as_i64()
                .context("the answer has no version")?,
            actions,
        })
    }
}

/// A failed request: the status (or `transport`, `body`) and a detail.
type Failure = (String, String);

/// The body of a 2xx answer as JSON.
async fn json_body(res: Result<Response, reqwest::Error>) -> Result<Value, Failure> {
    let res = res.map_err(|e| ("transport".to_owned(), e.to_string()))?;
    let status = res.status();
    let bytes = res
        .bytes()
        .await
        .map_err(|e| ("transport".to_owned(), e.to_string()))?;
    if !status.is_success() {
        let text = String::from_utf8_lossy(&bytes).chars().take(300).collect();
        return Err((status.as_u16().to_string(), text));
    }
    serde_json::from_slice(&bytes).map_err(|e| ("body".to_owned(), e.to_string()))
}

/// Creates a solo 2048 match.
async fn create(client: &Client, base: &str, seed: u64) -> Result<Game, Failure> {
    let res = client
        .post(format!("{base}/v1/matches"))
        .json(&json!({ "game": "2048", "mode": "solo", "seed": seed }))
        .send()
        .await;
    let view = json_body(res).await?;
    let token = view["token"].as_str().unwrap_or_default().to_owned();
    Game::read(&view, token).map_err(|e| ("body".to_owned(), e.to_string()))
}

/// One write that was answered.
struct Write {
    game: Game,
    undo: bool,
    /// When the answer was in.
    at: Instant,
    /// How long it took, in microseconds.
    micros: u32,
}

/// Plays one match: the policy of the module doc.
struct Player {
    rng: Rng,
    /// Writes left to play at random, after an undo.
    random: u32,
}

impl Player {
    fn new(seed: u64) -> Player {
        Player {
            rng: Rng::new(seed),
            random: 0,
        }
    }

    fn choose<'a>(&mut self, actions: &'a [String]) -> &'a str {
        if self.random > 0 {
            self.random -= 1;
            return &actions[self.rng.below(actions.len())];
        }
        ["down", "left", "right", "up"]
            .into_iter()
            .find_map(|want| actions.iter().find(|a| *a == want))
            .unwrap_or_else(|| &actions[self.rng.below(actions.len())])
    }

    /// Plays the next action, or takes the last move back when the game is
    /// over.
    async fn write(&mut self, client: &Client, base: &str, game: &Game) -> Result<Write, Failure> {
        let undo = game.actions.is_empty();
        let req = if undo {
            self.random = 4;
            client.post(format!("{base}/v1/matches/{}/undo", game.id))
        } else {
            let action = self.choose(&game.actions);
            client
                .post(format!("{base}/v1/matches/{}/play", game.id))
                .json(&json!({ "actions": [action] }))
        };
        let sent = Instant::now();
        let res = req
            .header(AUTHORIZATION, format!("Bearer {}", game.token))
            .header(IF_MATCH, format!("\"{}\"", game.version))
            .send()
            .await;
        let view = json_body(res).await?;
        let at = Instant::now();
        let game = Game::read(&view, game.token.clone())
            .map_err(|e| ("body".to_owned(), e.to_string()))?;
        Ok(Write {
            game,
            undo,
            at,
            micros: u32::try_from((at - sent).as_micros()).unwrap_or(u32::MAX),
        })
    }
}

/// One SSE frame, as much of it as this client needs.
#[derive(Default)]
struct Frame {
    id: Option<i64>,
    sync: bool,
    /// Only comments (a keep-alive).
    comment: bool,
}

/// Splits a byte stream into SSE frames (the server ends lines with `\n`).
#[derive(Default)]
struct Sse {
    buf: Vec<u8>,
}

impl Sse {
    fn feed(&mut self, chunk: &[u8], mut on: impl FnMut(Frame)) {
        self.buf.extend_from_slice(chunk);
        let mut start = 0;
        while let Some(end) = self.buf[start..]
            .windows(2)
            .position(|w| w == b"\n\n")
            .map(|p| start + p)
        {
            on(Self::parse(&self.buf[start..end]));
            start = end + 2;
        }
        self.buf.drain(..start);
    }

    fn parse(frame: &[u8]) -> Frame {
        let mut f = Frame {
            comment: true,
            ..Frame::default()
        };
        for line in frame.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.starts_with(b":") || line.is_empty() {
                continue;
            }
            f.comment = false;
            if let Some(v) = line.strip_prefix(b"id:") {
                f.id = std::str::from_utf8(v)
                    .ok()
                    .and_then(|s| s.trim().parse().ok());
            } else if let Some(v) = line.strip_prefix(b"event:") {
                f.sync = v.trim_ascii() == b"sync";
            }
        }
        f
    }
}

/// What the streams are told.
#[derive(Debug, Clone, Default)]
struct Ctl {
    /// Each game's last match and version: a stream that has it is done.
    finals: Option<Arc<Vec<(u32, i64)>>>,
    /// Close now.
    stop: bool,
}

/// The match a stream should watch: the `seq`th its game has played, at
/// `url`. A throughput loop whose game ends starts a new match and moves its
/// watchers there, as spectators following a player would.
#[derive(Debug, Clone)]
struct Target {
    seq: u32,
    url: String,
    /// The last version of the match before it: a stream reads that one
    /// to its end before it moves on.
    before: i64,
}

/// What the streams share.
struct Watchers {
    client: Client,
    opening: Semaphore,
    synced: AtomicUsize,
    failed: AtomicUsize,
    finished: AtomicUsize,
    keep_alives: AtomicUsize,
    /// Streams opened again on a game's next match.
    reopened: AtomicUsize,
}

/// What one stream saw.
#[derive(Default)]
struct WatchLog {
    /// The game it watched (an index into the finals).
    game: usize,
    /// Each match's first `sync`: (match seq, version).
    syncs: Vec<(u32, i64)>,
    /// Events after the syncs, as (match seq, id, when it came), in order.
    events: Vec<(u32, i64, Instant)>,
    /// `sync` events after the first of a match (the server gave up on
    /// catching up).
    resyncs: u32,
    error: Option<String>,
}

impl Watchers {
    fn new(client: Client, open_concurrency: usize) -> Arc<Watchers> {
        Arc::new(Watchers {
            client,
            opening: Semaphore::new(open_concurrency.max(1)),
            synced: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            keep_alives: AtomicUsize::new(0),
            reopened: AtomicUsize::new(0),
        })
    }

    /// Starts one stream of game `game` (an index into the finals).
    fn spawn(
        self: &Arc<Self>,
        target: watch::Receiver<Target>,
        game: usize,
        ctl: watch::Receiver<Ctl>,
        record: bool,
    ) -> JoinHandle<WatchLog> {
        let w = self.clone();
        tokio::spawn(async move {
            let mut log = WatchLog {
                game,
                ..WatchLog::default()
            };
            if let Err(e) = w.watch(target, ctl, record, &mut log).await {
                log.error = Some(e);
                w.failed.fetch_add(1, Ordering::Relaxed);
            }
            log
        })
    }

    /// Opens a stream, trying a few times.
    async fn open(&self, url: &str) -> Result<Response, String> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let why = match self.client.get(url).send().await {
                Ok(r) if r.status().is_success() => return Ok(r),
                Ok(r) => format!("status {}", r.status()),
                Err(e) => format!("{e:#}"),
            };
            if attempt == 5 {
                return Err(format!("opening the stream: {why}"));
            }
            tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
        }
    }

    async fn watch(
        &self,
        mut target: watch::Receiver<Target>,
        mut ctl: watch::Receiver<Ctl>,
        record: bool,
        log: &mut WatchLog,
    ) -> Result<(), String> {
        // Held until the first sync, so that only so many open at once.
        let mut permit = Some(self.opening.acquire().await.map_err(|e| e.to_string())?);
        loop {
            let Target { seq, url, .. } = target.borrow_and_update().clone();
            if !log.syncs.is_empty() {
                self.reopened.fetch_add(1, Ordering::Relaxed);
            }
            let mut body = self.open(&url).await?.bytes_stream();
            let mut sse = Sse::default();
            let mut top = i64::MIN;
            let mut leaving = false;
            // Once the game's loop is over, its match does not change.
            let mut settled = false;
            loop {
                let (stop, reached) = {
                    let c = ctl.borrow_and_update();
                    let reached = c
                        .finals
                        .as_ref()
                        .is_some_and(|f| f[log.game].0 == seq && top >= f[log.game].1);
                    (c.stop, reached)
                };
                if reached {
                    self.finished.fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
                if stop {
                    return Ok(());
                }
                if leaving {
                    let next = target.borrow();
                    if next.seq != seq + 1 || top >= next.before {
                        break;
                    }
                }
                tokio::select! {
                    chunk = body.next() => {
                        let chunk = match chunk {
                            Some(Ok(c)) => c,
                            Some(Err(e)) => return Err(format!("reading the stream: {e:#}")),
                            None => return Err("the stream ended".to_owned()),
                        };
                        let at = Instant::now();
                        sse.feed(&chunk, |f| {
                            if f.comment {
                                self.keep_alives.fetch_add(1, Ordering::Relaxed);
                                return;
                            }
                            // Frames without an id (presence) are not writes.
                            let Some(id) = f.id else { return };
                            if f.sync && top == i64::MIN {
                                if log.syncs.is_empty() {
                                    self.synced.fetch_add(1, Ordering::Relaxed);
                                    permit = None;
                                }
                                log.syncs.push((seq, id));
                            } else {
                                log.resyncs += u32::from(f.sync);
                                if record {
                                    log.events.push((seq, id, at));
                                }
                            }
                            top = top.max(id);
                        });
                    }
                    changed = target.changed(), if !leaving && !settled => {
                        if changed.is_err() {
                            settled = true;
                            continue;
                        }
                        // The game moved on to a new match: follow it once
                        // this one's last event is in.
                        leaving = true;
                    }
                    changed = ctl.changed() => {
                        if changed.is_err() {
                            return Ok(());
                        }
                    }
                }
            }
        }
    }

    /// Waits until `n` streams have their `sync` (or failed); answers how
    /// many failed.
    async fn wait_synced(&self, n: usize, limit: Duration) -> anyhow::Result<usize> {
        let until = Instant::now() + limit;
        loop {
            let (synced, failed) = (
                self.synced.load(Ordering::Relaxed),
                self.failed.load(Ordering::Relaxed),
            );
            if synced + failed >= n {
                return Ok(failed);
            }
            if Instant::now() > until {
                bail!(
                    "after {limit:?} only {synced} of {n} streams had their sync ({failed} failed)"
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until `n` streams have seen their game's last version, for at
    /// most `limit`.
    async fn wait_finished(&self, n: usize, limit: Duration) {
        let until = Instant::now() + limit;
        while self.finished.load(Ordering::Relaxed) < n && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// A fixed target: one match that stays watched.
fn fixed(url: String) -> (watch::Sender<Target>, watch::Receiver<Target>) {
    watch::channel(Target {
        seq: 0,
        url,
        before: i64::MIN,
    })
}

/// Joins the streams; the first error, if any.
async fn join(
    handles: Vec<JoinHandle<WatchLog>>,
) -> anyhow::Result<(Vec<WatchLog>, Option<String>)> {
    let mut logs = Vec::with_capacity(handles.len());
    let mut first = None;
    for h in handles {
        let log = h.await.context("a stream task panicked")?;
        if first.is_none() {
            first.clone_from(&log.error);
        }
        logs.push(log);
    }
    Ok((logs, first))
}

/// Delivery of events: the latencies of matched (stream, write) pairs.
#[derive(Default)]
struct Delivery {
    /// Microseconds, sorted.
    micros: Vec<u32>,
    /// Pairs with no event.
    missing: u64,
    /// Events that came before the write's answer (counted as 0).
    early: u64,
    /// `sync` events after the first of a match.
    resyncs: u64,
}

impl Delivery {
    /// `writes[g]`: game g's writes as (match seq, version, t0), in order.
    /// A stream should have every write of its game from its first sync
    /// on: on each match it synced to, those after the sync; on a match it
    /// never synced to (it could not follow fast enough), all of them.
    fn of(writes: &[Vec<(u32, i64, Instant)>], logs: &[WatchLog]) -> Delivery {
        let mut d = Delivery::default();
        for log in logs {
            d.resyncs += u64::from(log.resyncs);
            let Some(&(first_seq, _)) = log.syncs.first() else {
                // A stream that never opened is counted as failed.
                continue;
            };
            for &(seq, version, t0) in &writes[log.game] {
                if seq < first_seq {
                    continue;
                }
                let synced = log.syncs.iter().find(|s| s.0 == seq).map(|s| s.1);
                if synced.is_some_and(|s| version <= s) {
                    continue;
                }
                match log
                    .events
                    .binary_search_by_key(&(seq, version), |e| (e.0, e.1))
                {
                    Ok(i) => {
                        let at = log.events[i].2;
                        let micros = match at.checked_duration_since(t0) {
                            Some(late) => late.as_micros(),
                            None => {
                                d.early += 1;
                                0
                            }
                        };
                        d.micros.push(u32::try_from(micros).unwrap_or(u32::MAX));
                    }
                    Err(_) => d.missing += 1,
                }
            }
        }
        d.micros.sort_unstable();
        d
    }

    fn pairs(&self) -> u64 {
        self.micros.len() as u64 + self.missing
    }

    fn text(&self) -> String {
        let s = Stats::of(&self.micros);
        format!(
            "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms over {} events; missing {}, early {}, re-syncs {}",
            s.p50, s.p90, s.p99, s.max, self.micros.len(), self.missing, self.early, self.resyncs
        )
    }

    fn json(&self) -> Value {
        let s = Stats::of(&self.micros);
        json!({
            "p50_ms": s.p50, "p90_ms": s.p90, "p99_ms": s.p99, "max_ms": s.max,
            "events": self.micros.len(), "missing": self.missing,
            "early": self.early, "resyncs": self.resyncs,
        })
    }
}

/// Quantiles of sorted microseconds, in ms.
struct Stats {
    p50: f64,
    p90: f64,
    p99: f64,
    max: f64,
}

impl Stats {
    fn of(sorted: &[u32]) -> Stats {
        Stats {
            p50: quantile_ms(sorted, 0.50),
            p90: quantile_ms(sorted, 0.90),
            p99: quantile_ms(sorted, 0.99),
            max: quantile_ms(sorted, 1.0),
        }
    }
}

/// The value at quantile `q` of sorted values (nearest rank), in ms.
fn quantile_ms(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    (f64::from(sorted[rank - 1]) / 10.0).round() / 100.0
}

/// CPU time a process (`None`: this one) has used, in seconds (Linux).
fn cpu_seconds(pid: Option<u32>) -> Option<f64> {
    let path = pid.map_or("/proc/self/stat".to_owned(), |p| format!("/proc/{p}/stat"));
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name, which is in parentheses: utime and
    // stime are the 14th and 15th fields, in USER_HZ (100 on Linux) ticks.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// A process's resident memory in KB (`VmRSS`), `None`: this one.
fn rss_kb(pid: Option<u32>) -> Option<u64> {
    let path = pid.map_or("/proc/self/status".to_owned(), |p| {
        format!("/proc/{p}/status")
    });
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// How many file descriptors a process has open.
fn fd_count(pid: u32) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// CPU used by the server and by this client between two moments.
struct Cpu {
    server: Option<f64>,
    client: Option<f64>,
    at: Instant,
}

impl Cpu {
    fn now(pid: Option<u32>) -> Cpu {
        Cpu {
            server: pid.and_then(|p| cpu_seconds(Some(p))),
            client: cpu_seconds(None),
            at: Instant::now(),
        }
    }

    /// (server, client) cores used since `self`.
    fn cores_since(&self, pid: Option<u32>) -> (Option<f64>, Option<f64>) {
        let now = Cpu::now(pid);
        let wall = (now.at - self.at).as_secs_f64().max(1e-9);
        let cores = |a: Option<f64>, b: Option<f64>| a.zip(b).map(|(a, b)| round2((b - a) / wall));
        (
            cores(self.server, now.server),
            cores(self.client, now.client),
        )
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn opt(x: Option<f64>) -> String {
    x.map_or("?".to_owned(), |x| format!("{x:.2}"))
}

/// HTTP clients: one for the players (keep-alive, a timeout), one for the
/// streams (no overall timeout; each stream its own connection).
struct Http {
    base: String,
    players: Client,
    streams: Client,
}

impl Http {
    fn new(url: &str, players: usize) -> anyhow::Result<Http> {
        Ok(Http {
            base: url.trim_end_matches('/').to_owned(),
            players: Client::builder()
                .no_proxy()
                .tcp_nodelay(true)
                .pool_max_idle_per_host(players)
                .timeout(Duration::from_secs(30))
                .build()
                .context("building the HTTP client")?,
            streams: Client::builder()
                .no_proxy()
                .tcp_nodelay(true)
                .connect_timeout(Duration::from_secs(10))
                .build()
                .context("building the HTTP client")?,
        })
    }

    fn events_url(&self, game: &Game) -> String {
        format!("{}/v1/matches/{}/events", self.base, game.id)
    }
}

async fn fanout(
    args: &Args,
    http: &Http,
    spectators: usize,
    moves: usize,
    pause: Duration,
    seed: u64,
    drain: Duration,
) -> anyhow::Result<()> {
    let mut game = create(&http.players, &http.base, seed)
        .await
        .map_err(|(k, d)| anyhow::anyhow!("creating the match: {k}: {d}"))?;
    let watchers = Watchers::new(http.streams.clone(), args.open_concurrency);
    let (ctl, ctl_rx) = watch::channel(Ctl::default());
    let opening = Instant::now();
    let (_target, target) = fixed(http.events_url(&game));
    let handles: Vec<_> = (0..spectators)
        .map(|_| watchers.spawn(target.clone(), 0, ctl_rx.clone(), true))
        .collect();
    let failed = watchers
        .wait_synced(spectators, Duration::from_secs(120))
        .await?;
    let open_s = opening.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let cpu = Cpu::now(args.server_pid);
    let mut player = Player::new(seed);
    let mut writes = Vec::with_capacity(moves);
    let mut play_micros = Vec::with_capacity(moves);
    let mut undos = 0;
    for _ in 0..moves {
        let w = player
            .write(&http.players, &http.base, &game)
            .await
            .map_err(|(k, d)| anyhow::anyhow!("playing: {k}: {d}"))?;
        writes.push((0, w.game.version, w.at));
        play_micros.push(w.micros);
        undos += u32::from(w.undo);
        game = w.game;
        tokio::time::sleep(pause).await;
    }
    let last = game.version;
    ctl.send_modify(|c| c.finals = Some(Arc::new(vec![(0, last)])));
    watchers.wait_finished(spectators - failed, drain).await;
    let (server_cores, client_cores) = cpu.cores_since(args.server_pid);
    ctl.send_modify(|c| c.stop = true);
    let (logs, first_error) = join(handles).await?;
    let d = Delivery::of(&[writes], &logs);
    play_micros.sort_unstable();
    let play = Stats::of(&play_micros);

    println!(
        "fanout at {}: {spectators} spectators of one match, {moves} writes {} ms apart",
        http.base,
        pause.as_millis()
    );
    println!("  streams    {spectators} synced in {open_s:.2} s, {failed} failed");
    if let Some(e) = &first_error {
        println!("  first      {e}");
    }
    println!("  delivery   {}", d.text());
    println!(
        "  expected   {} (spectator, write) pairs; {undos} of the writes were undos",
        d.pairs()
    );
    println!(
        "  plays      p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        play.p50, play.p99, play.max
    );
    println!(
        "  cpu        server {} cores, client {} cores while playing",
        opt(server_cores),
        opt(client_cores)
    );
    let mut line = json!({
        "label": args.label,
        "test": "fanout",
        "spectators": spectators,
        "writes": moves,
        "undos": undos,
        "pause_ms": pause.as_millis() as u64,
        "failed_streams": failed,
        "open_s": round2(open_s),
        "play_p50_ms": play.p50,
        "play_p99_ms": play.p99,
        "server_cpu_cores": server_cores,
        "client_cpu_cores": client_cores,
    });
    merge(&mut line, d.json());
    println!("{line}");
    Ok(())
}

fn merge(into: &mut Value, from: Value) {
    if let (Some(a), Value::Object(b)) = (into.as_object_mut(), from) {
        a.extend(b);
    }
}

async fn idle(
    args: &Args,
    http: &Http,
    streams: usize,
    matches: usize,
    settle: Duration,
    idle_window: Duration,
) -> anyhow::Result<()> {
    let Some(pid) = args.server_pid else {
        bail!("idle needs --server-pid to read the server's memory");
    };
    if streams < 2 || matches == 0 {
        bail!("idle needs at least 2 streams and 1 match");
    }
    let rss =
        |what: &str| rss_kb(Some(pid)).with_context(|| format!("reading VmRSS of {pid} ({what})"));
    let mut games = Vec::with_capacity(matches);
    for i in 0..matches {
        let g = create(&http.players, &http.base, i as u64 + 1)
            .await
            .map_err(|(k, d)| anyhow::anyhow!("creating a match: {k}: {d}"))?;
        games.push(g);
    }
    let targets: Vec<_> = games.iter().map(|g| fixed(http.events_url(g))).collect();
    tokio::time::sleep(settle).await;
    let rss0 = rss("before")?;
    let fds0 = fd_count(pid);
    let client0 = rss_kb(None);

    let watchers = Watchers::new(http.streams.clone(), args.open_concurrency);
    let (ctl, ctl_rx) = watch::channel(Ctl::default());
    let half = streams / 2;
    let mut handles = Vec::with_capacity(streams);
    let mut open_s = 0.0;
    let mut failed = 0;
    let mut readings = Vec::new();
    for upto in [half, streams] {
        let opening = Instant::now();
        for j in handles.len()..upto {
            handles.push(watchers.spawn(
                targets[j % matches].1.clone(),
                j % matches,
                ctl_rx.clone(),
                false,
            ));
        }
        failed = watchers.wait_synced(upto, Duration::from_secs(300)).await?;
        open_s += opening.elapsed().as_secs_f64();
        tokio::time::sleep(settle).await;
        readings.push(rss("open")?);
    }
    let (rss_half, rss_all) = (readings[0], readings[1]);
    let fds_all = fd_count(pid);
    let client_all = rss_kb(None);

    let keep0 = watchers.keep_alives.load(Ordering::Relaxed);
    let cpu = Cpu::now(Some(pid));
    tokio::time::sleep(idle_window).await;
    let (idle_cores, client_idle_cores) = cpu.cores_since(Some(pid));
    let keep = watchers.keep_alives.load(Ordering::Relaxed) - keep0;
    let rss_idle = rss("idle")?;

    ctl.send_modify(|c| c.stop = true);
    let (logs, first_error) = join(handles).await?;
    let errors = logs.iter().filter(|l| l.error.is_some()).count();
    drop(logs);
    // The server notices a closed stream only when a write to it fails: the
    // first keep-alive after the close may still go out, the next one
    // (15 s later) fails. Wait until 99% of the descriptors are gone.
    let closing = Instant::now();
    let open_fds = |n: usize| n + (streams - failed) * 99 / 100 > fds_all.unwrap_or(0);
    while closing.elapsed() < Duration::from_secs(40) && fd_count(pid).is_some_and(open_fds) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let closed_s = closing.elapsed().as_secs_f64();
    let fds_closed = fd_count(pid);
    tokio::time::sleep(settle).await;
    let rss_closed = rss("closed")?;

    let open = streams - failed;
    let per = |kb: u64, base: u64, n: usize| round2((kb as f64 - base as f64) / n.max(1) as f64);
    let per_all = per(rss_all, rss0, open);
    let per_marginal = per(rss_all, rss_half, streams - half);
    let client_per = client0.zip(client_all).map(|(a, b)| per(b, a, open));
    println!(
        "idle at {}: {streams} streams on {matches} match(es), server pid {pid}",
        http.base
    );
    println!("  streams    {open} synced in {open_s:.2} s, {failed} failed, {errors} ended with an error");
    if let Some(e) = &first_error {
        println!("  first      {e}");
    }
    println!(
        "  server rss {rss0} KB before, {rss_half} KB with {half} open, {rss_all} KB with {streams}, {rss_idle} KB after {:.0} s idle, {rss_closed} KB once closed",
        idle_window.as_secs_f64()
    );
    let show = |n: Option<usize>| n.map_or("?".to_owned(), |n| n.to_string());
    println!(
        "  server fds {} before, {} with all open, {} {closed_s:.1} s after the client closed them",
        show(fds0),
        show(fds_all),
        show(fds_closed)
    );
    println!("  per stream {per_all:.2} KB over all, {per_marginal:.2} KB for the second half");
    println!(
        "  idle cpu   server {} cores, client {} cores over {:.0} s ({keep} keep-alives received)",
        opt(idle_cores),
        opt(client_idle_cores),
        idle_window.as_secs_f64()
    );
    if let Some(c) = client_per {
        println!("  client     {c:.2} KB per stream (this process)");
    }
    let line = json!({
        "label": args.label,
        "test": "idle",
        "streams": streams,
        "matches": matches,
        "failed_streams": failed,
        "open_s": round2(open_s),
        "rss_before_kb": rss0,
        "rss_half_kb": rss_half,
        "rss_all_kb": rss_all,
        "rss_idle_kb": rss_idle,
        "rss_closed_kb": rss_closed,
        "fds_before": fds0,
        "fds_all": fds_all,
        "fds_closed": fds_closed,
        "closed_after_s": round2(closed_s),
        "kb_per_stream": per_all,
        "kb_per_stream_marginal": per_marginal,
        "idle_server_cpu_cores": idle_cores,
        "idle_window_s": idle_window.as_secs_f64(),
        "keep_alives": keep,
        "client_kb_per_stream": client_per,
    });
    println!("{line}");
    Ok(())
}

/// What one loop of a throughput run did.
#[derive(Default)]
struct Tally {
    /// Latencies of the counted plays, in microseconds.
    latencies: Vec<u32>,
    /// Every answered play as (match seq, version, t0), warm-up included.
    writes: Vec<(u32, i64, Instant)>,
    /// The match it ended on and that match's version.
    last: (u32, i64),
    /// Matches started after the first (a game ended).
    games: u64,
    errors: BTreeMap<String, u64>,
    first_error: Option<String>,
}

/// The seed of loop `lane`'s `seq`th match: the same in every run.
fn seed(lane: usize, seq: u32) -> u64 {
    ((lane as u64) << 32) + u64::from(seq) + 1
}

/// One loop: plays until `end`; when a game ends, starts a new match and
/// moves its watchers there through `target`.
async fn lane(
    http: Arc<Http>,
    mut game: Game,
    index: usize,
    target: watch::Sender<Target>,
    counted_from: Instant,
    end: Instant,
) -> Tally {
    let mut tally = Tally {
        last: (0, game.version),
        ..Tally::default()
    };
    let mut player = Player::new(index as u64);
    let mut seq = 0;
    while Instant::now() < end {
        if game.actions.is_empty() {
            match create(&http.players, &http.base, seed(index, seq + 1)).await {
                Ok(g) => {
                    seq += 1;
                    tally.games += 1;
                    tally.last = (seq, g.version);
                    target.send_replace(Target {
                        seq,
                        url: http.events_url(&g),
                        before: game.version,
                    });
                    game = g;
                }
                Err((kind, detail)) => {
                    if Instant::now() >= counted_from {
                        *tally.errors.entry(kind).or_default() += 1;
                    }
                    tally.first_error.get_or_insert(format!("start: {detail}"));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            continue;
        }
        match player.write(&http.players, &http.base, &game).await {
            Ok(w) => {
                tally.writes.push((seq, w.game.version, w.at));
                tally.last = (seq, w.game.version);
                if w.at >= counted_from && w.at < end {
                    tally.latencies.push(w.micros);
                }
                game = w.game;
            }
            Err((kind, detail)) => {
                if Instant::now() >= counted_from {
                    *tally.errors.entry(kind).or_default() += 1;
                }
                tally.first_error.get_or_insert(detail);
                tokio::time::sleep(Duration::from_millis(20)).await;
                // Learn where the match stands before trying again.
                let res = http
                    .players
                    .get(format!("{}/v1/matches/{}", http.base, game.id))
                    .send()
                    .await;
                if let Ok(view) = json_body(res).await {
                    if let Ok(g) = Game::read(&view, game.token.clone()) {
                        game = g;
                    }
                }
            }
        }
    }
    tally
}

/// One throughput run.
struct RunResult {
    watchers: usize,
    moves_per_s: f64,
    play: Stats,
    moves: usize,
    games: u64,
    errors: u64,
    server_cores: Option<f64>,
    client_cores: Option<f64>,
    delivery: Option<Delivery>,
    stream_failures: usize,
    /// Streams that followed their game to a new match.
    reopened: usize,
    first_error: Option<String>,
}

impl RunResult {
    fn server_ms_per_move(&self) -> Option<f64> {
        self.server_cores
            .map(|c| round3(c * 1000.0 / self.moves_per_s.max(1e-9)))
    }

    fn json(&self) -> Value {
        let mut v = json!({
            "watchers": self.watchers,
            "moves": self.moves,
            "moves_per_s": (self.moves_per_s * 10.0).round() / 10.0,
            "p50_ms": self.play.p50,
            "p99_ms": self.play.p99,
            "games_started": self.games,
            "errors": self.errors,
            "server_cpu_cores": self.server_cores,
            "server_cpu_ms_per_move": self.server_ms_per_move(),
            "client_cpu_cores": self.client_cores,
        });
        if let Some(d) = &self.delivery {
            v["delivery"] = d.json();
            v["failed_streams"] = json!(self.stream_failures);
            v["streams_reopened"] = json!(self.reopened);
        }
        v
    }
}

#[allow(clippy::too_many_arguments)]
async fn throughput_run(
    args: &Args,
    http: &Arc<Http>,
    concurrency: usize,
    watchers_n: usize,
    duration: Duration,
    warmup: Duration,
    drain: Duration,
) -> anyhow::Result<RunResult> {
    // The same seeds in every run: the runs play the same games.
    let mut creating = Vec::with_capacity(concurrency);
    for lane in 0..concurrency {
        let http = http.clone();
        creating.push(tokio::spawn(async move {
            create(&http.players, &http.base, seed(lane, 0)).await
        }));
    }
    let mut games = Vec::with_capacity(concurrency);
    for c in creating {
        let g = c
            .await
            .context("a task panicked")?
            .map_err(|(k, d)| anyhow::anyhow!("creating a match: {k}: {d}"))?;
        games.push(g);
    }
    let watchers = Watchers::new(http.streams.clone(), args.open_concurrency);
    let (ctl, ctl_rx) = watch::channel(Ctl::default());
    let targets: Vec<_> = games.iter().map(|g| fixed(http.events_url(g))).collect();
    let handles: Vec<_> = (0..watchers_n)
        .map(|j| {
            let g = j % concurrency;
            watchers.spawn(targets[g].1.clone(), g, ctl_rx.clone(), true)
        })
        .collect();
    let stream_failures = watchers
        .wait_synced(watchers_n, Duration::from_secs(120))
        .await?;
    tokio::time::sleep(Duration::from_secs(1)).await;

    let started = Instant::now();
    let counted_from = started + warmup;
    let end = counted_from + duration;
    let lanes: Vec<_> = games
        .into_iter()
        .zip(targets)
        .enumerate()
        .map(|(i, (g, (target, _)))| {
            tokio::spawn(lane(http.clone(), g, i, target, counted_from, end))
        })
        .collect();
    tokio::time::sleep_until(counted_from.into()).await;
    let cpu = Cpu::now(args.server_pid);
    tokio::time::sleep_until(end.into()).await;
    let (server_cores, client_cores) = cpu.cores_since(args.server_pid);
    let mut tallies = Vec::with_capacity(concurrency);
    for l in lanes {
        tallies.push(l.await.context("a load loop panicked")?);
    }
    let finals: Vec<(u32, i64)> = tallies.iter().map(|t| t.last).collect();
    ctl.send_modify(|c| c.finals = Some(Arc::new(finals)));
    watchers
        .wait_finished(watchers_n - stream_failures, drain)
        .await;
    ctl.send_modify(|c| c.stop = true);
    let (logs, stream_error) = join(handles).await?;
    let mut latencies = Vec::new();
    let mut writes = Vec::with_capacity(concurrency);
    let (mut games, mut errors) = (0, 0);
    let mut first_error = stream_error;
    for t in tallies {
        latencies.extend(t.latencies);
        writes.push(t.writes);
        games += t.games;
        errors += t.errors.values().sum::<u64>();
        if first_error.is_none() {
            first_error = t.first_error;
        }
    }
    latencies.sort_unstable();
    let delivery = (watchers_n > 0).then(|| Delivery::of(&writes, &logs));
    Ok(RunResult {
        watchers: watchers_n,
        moves_per_s: latencies.len() as f64 / duration.as_secs_f64(),
        play: Stats::of(&latencies),
        moves: latencies.len(),
        games,
        errors,
        server_cores,
        client_cores,
        delivery,
        stream_failures,
        reopened: watchers.reopened.load(Ordering::Relaxed),
        first_error,
    })
}

#[allow(clippy::too_many_arguments)]
async fn throughput(
    args: &Args,
    http: Arc<Http>,
    concurrency: usize,
    watchers: usize,
    duration: Duration,
    warmup: Duration,
    rounds: usize,
    drain: Duration,
) -> anyhow::Result<()> {
    if concurrency == 0 || rounds == 0 {
        bail!("throughput needs at least one loop and one round");
    }
    println!(
        "throughput at {}: {concurrency} loops, {:.1} s counted after {:.1} s of warm-up, {rounds} round(s) of (0, {watchers}) watchers",
        http.base,
        duration.as_secs_f64(),
        warmup.as_secs_f64()
    );
    let mut runs = Vec::new();
    for round in 1..=rounds {
        for w in [0, watchers] {
            let r = throughput_run(args, &http, concurrency, w, duration, warmup, drain).await?;
            println!(
                "  round {round}, {w:>5} watchers: {:>8.1} moves/s, p50 {:.2} ms, p99 {:.2} ms, {} errors, {} games ended; server {} cores ({} ms/move), client {} cores",
                r.moves_per_s,
                r.play.p50,
                r.play.p99,
                r.errors,
                r.games,
                opt(r.server_cores),
                opt(r.server_ms_per_move()),
                opt(r.client_cores)
            );
            if let Some(d) = &r.delivery {
                println!(
                    "      delivery {}; {} streams failed, {} followed their game to a new match",
                    d.text(),
                    r.stream_failures,
                    r.reopened
                );
            }
            if let Some(e) = &r.first_error {
                println!("      first    {e}");
            }
            runs.push(r);
        }
    }
    let mean = |with: bool| {
        let rates: Vec<f64> = runs
            .iter()
            .filter(|r| (r.watchers > 0) == with)
            .map(|r| r.moves_per_s)
            .collect();
        rates.iter().sum::<f64>() / rates.len() as f64
    };
    let (without, with) = (mean(false), mean(true));
    let ratio = with / without.max(1e-9);
    let pairs: Vec<f64> = runs
        .chunks(2)
        .map(|p| round3(p[1].moves_per_s / p[0].moves_per_s.max(1e-9)))
        .collect();
    println!(
        "  mean       {without:.1} moves/s without, {with:.1} with {watchers} watchers: ratio {ratio:.3} (per round {pairs:?})"
    );
    let with_runs = || runs.iter().filter_map(|r| r.delivery.as_ref());
    let delivery_p99 = with_runs()
        .map(|d| Stats::of(&d.micros).p99)
        .fold(0.0, f64::max);
    let delivery_missing: u64 = with_runs().map(|d| d.missing).sum();
    let cpu_per_move = |with: bool| {
        let v: Vec<f64> = runs
            .iter()
            .filter(|r| (r.watchers > 0) == with)
            .filter_map(RunResult::server_ms_per_move)
            .collect();
        (!v.is_empty()).then(|| round3(v.iter().sum::<f64>() / v.len() as f64))
    };
    let line = json!({
        "label": args.label,
        "test": "throughput",
        "concurrency": concurrency,
        "watchers": watchers,
        "seconds": duration.as_secs_f64(),
        "rounds": rounds,
        "moves_per_s_without": (without * 10.0).round() / 10.0,
        "moves_per_s_with": (with * 10.0).round() / 10.0,
        "ratio": round3(ratio),
        "ratio_per_round": pairs,
        "delivery_p99_ms_worst": delivery_p99,
        "delivery_missing": delivery_missing,
        "server_cpu_ms_per_move_without": cpu_per_move(false),
        "server_cpu_ms_per_move_with": cpu_per_move(true),
        "runs": runs.iter().map(RunResult::json).collect::<Vec<_>>(),
    });
    println!("{line}");
    Ok(())
}

async fn run(args: &Args) -> anyhow::Result<()> {
    match args.test {
        Test::Fanout {
            spectators,
            moves,
            pause,
            seed,
            drain,
        } => {
            let http = Http::new(&args.url, 1)?;
            fanout(args, &http, spectators, moves, pause, seed, drain).await
        }
        Test::Idle {
            streams,
            matches,
            settle,
            idle_window,
        } => {
            let http = Http::new(&args.url, 1)?;
            idle(args, &http, streams, matches, settle, idle_window).await
        }
        Test::Throughput {
            concurrency,
            watchers,
            duration,
            warmup,
            rounds,
            drain,
        } => {
            let http = Arc::new(Http::new(&args.url, concurrency)?);
            throughput(
                args,
                http,
                concurrency,
                watchers,
                duration,
                warmup,
                rounds,
                drain,
            )
            .await
        }
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(run(&args))
}
