//! Load client for persisted matches: `--concurrency` loops, each playing
//! its own solo match (2048 by default) one move per request through
//! `POST /v1/matches/{id}/play`, so that every measured request is one
//! write transaction. A loop whose game ends starts a new match. Prints the
//! moves per second and the latency of the plays, as text and then as one
//! JSON line.
//!
//! ```text
//! cargo run --release -p qipan-load --bin match_load -- \
//!     [--url http://127.0.0.1:8080] [--concurrency 64] [--duration 20s] [--warmup 3s]
//! ```
//!
//! `--mode stateless` plays the same games through the stateless
//! `POST /v1/{game}/{code}/play` instead: no database, so what is left is
//! the cost of HTTP, the rules and the rendering. `perf/scripts/match-loadtest.sh`
//! runs both against SQLite and PostgreSQL and sets them beside `pgbench -N`.
//!
//! Each loop picks a legal action from the last answer with its own xorshift
//! generator, seeded from the loop's number, and each match gets its own
//! seed, so two runs play the same games as long as no request fails. Only
//! plays answered between the end of the warm-up and the end of the run are
//! counted; match creations and failed plays are not moves.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, ValueEnum};
use qipan_load::rng::Rng;
use reqwest::header::{AUTHORIZATION, IF_MATCH};
use reqwest::{Client, Response};
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Persisted matches: `POST /v1/matches`, then `/v1/matches/{id}/play`.
    Matches,
    /// The stateless API: `GET /v1/{game}/start`, then `/v1/{game}/{code}/play`.
    Stateless,
}

impl Mode {
    fn as_str(self) -> &'static str {
        match self {
            Mode::Matches => "matches",
            Mode::Stateless => "stateless",
        }
    }
}

/// Load client for qipan's play endpoints.
#[derive(Debug, Parser)]
#[command(name = "match_load")]
struct Args {
    /// Base URL of the service.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Loops playing at once, each its own match and connection.
    #[arg(short, long, default_value_t = 64)]
    concurrency: usize,
    /// How long moves are counted, after the warm-up (e.g. `20s`).
    #[arg(long, default_value = "20s", value_parser = humantime::parse_duration)]
    duration: Duration,
    /// How long the loops play before moves are counted.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    warmup: Duration,
    /// Which endpoints to play through.
    #[arg(long, value_enum, default_value_t = Mode::Matches)]
    mode: Mode,
    /// The game; 2048 and tetris get a seed per match.
    #[arg(long, default_value = "2048")]
    game: String,
    /// Runtime threads of this client (it shares the machine with the server).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A name for this run, copied into the JSON line.
    #[arg(long, default_value = "")]
    label: String,
}

/// Where a loop's game stands.
struct Game {
    /// The match id (matches) or the state code (stateless).
    id: String,
    token: String,
    version: i64,
    actions: Vec<String>,
}

impl Game {
    /// Reads a match view (`matches`) or a state view (`stateless`);
    /// `token` is kept from creation.
    fn read(mode: Mode, view: &Value, token: String) -> anyhow::Result<Game> {
        let (id, state) = match mode {
            Mode::Matches => (&view["id"], &view["state"]),
            Mode::Stateless => (&view["code"], view),
        };
        let id = id
            .as_str()
            .context("the answer has no id or code")?
            .to_owned();
        let ongoing = state["status"]["state"].as_str() == Some("ongoing");
        let actions = if ongoing {
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
            id,
            token,
            version: view["version"].as_i64().unwrap_or(0),
            actions,
        })
    }
}

/// What one loop saw.
#[derive(Default)]
struct Tally {
    /// Latencies of the counted plays, in microseconds.
    latencies: Vec<u32>,
    /// Plays answered 2xx at any time, warm-up included.
    all_moves: u64,
    /// Matches (or stateless games) started.
    started: u64,
    /// Failed requests in the counted window, by status or `transport`.
    errors: BTreeMap<String, u64>,
    /// The first failure, to show.
    first_error: Option<String>,
}

impl Tally {
    fn error(&mut self, counted: bool, kind: String, detail: String) {
        if counted {
            *self.errors.entry(kind).or_default() += 1;
        }
        self.first_error.get_or_insert(detail);
    }
}

/// The body of a 2xx answer, or the status (or `transport`) and a detail.
async fn body(res: Result<Response, reqwest::Error>) -> Result<Vec<u8>, (String, String)> {
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
    Ok(bytes.to_vec())
}

struct Run {
    client: Client,
    base: String,
    mode: Mode,
    game: String,
    counted_from: Instant,
    end: Instant,
}

impl Run {
    fn seeded(&self) -> bool {
        matches!(self.game.as_str(), "2048" | "tetris")
    }

    /// Starts a new match or stateless game.
    async fn start(&self, seed: u64) -> Result<Game, (String, String)> {
        let res = match self.mode {
            Mode::Matches => {
                let mut req = json!({ "game": self.game, "mode": "solo" });
                if self.seeded() {
                    req["seed"] = json!(seed);
                }
                self.client
                    .post(format!("{}/v1/matches", self.base))
                    .json(&req)
                    .send()
                    .await
            }
            Mode::Stateless => {
                let mut url = format!("{}/v1/{}/start", self.base, self.game);
                if self.seeded() {
                    url.push_str(&format!("?seed={seed}"));
                }
                self.client.get(url).send().await
            }
        };
        let bytes = body(res).await?;
        let view: Value =
            serde_json::from_slice(&bytes).map_err(|e| ("body".to_owned(), e.to_string()))?;
        let token = view["token"].as_str().unwrap_or_default().to_owned();
        Game::read(self.mode, &view, token).map_err(|e| ("body".to_owned(), e.to_string()))
    }

    /// Plays one action; answers the game after it.
    async fn play(&self, game: &Game, action: &str) -> Result<Game, (String, String)> {
        let req = json!({ "actions": [action] });
        let res = match self.mode {
            Mode::Matches => {
                self.client
                    .post(format!("{}/v1/matches/{}/play", self.base, game.id))
                    .header(AUTHORIZATION, format!("Bearer {}", game.token))
                    .header(IF_MATCH, format!("\"{}\"", game.version))
                    .json(&req)
                    .send()
                    .await
            }
            Mode::Stateless => {
                self.client
                    .post(format!("{}/v1/{}/{}/play", self.base, self.game, game.id))
                    .json(&req)
                    .send()
                    .await
            }
        };
        let bytes = body(res).await?;
        let view: Value =
            serde_json::from_slice(&bytes).map_err(|e| ("body".to_owned(), e.to_string()))?;
        Game::read(self.mode, &view, game.token.clone())
            .map_err(|e| ("body".to_owned(), e.to_string()))
    }

    /// One loop: plays until the end, starting a new game whenever one ends
    /// or a request fails.
    async fn lane(&self, lane: u64) -> Tally {
        let mut tally = Tally::default();
        let mut rng = Rng::new(lane);
        let mut game: Option<Game> = None;
        let mut next_seed = lane << 32;
        while Instant::now() < self.end {
            let current = match game.take() {
                Some(g) if !g.actions.is_empty() => g,
                _ => {
                    next_seed += 1;
                    match self.start(next_seed).await {
                        Ok(g) => {
                            tally.started += 1;
                            game = Some(g);
                        }
                        Err((kind, detail)) => {
                            let counted = Instant::now() >= self.counted_from;
                            tally.error(counted, kind, format!("start: {detail}"));
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                    }
                    continue;
                }
            };
            let action = &current.actions[rng.below(current.actions.len())];
            let sent = Instant::now();
            let answer = self.play(&current, action).await;
            let done = Instant::now();
            let counted = done >= self.counted_from && done < self.end;
            match answer {
                Ok(g) => {
                    tally.all_moves += 1;
                    if counted {
                        let micros = (done - sent).as_micros();
                        tally
                            .latencies
                            .push(u32::try_from(micros).unwrap_or(u32::MAX));
                    }
                    game = Some(g);
                }
                Err((kind, detail)) => {
                    tally.error(counted, kind, format!("play {action}: {detail}"));
                    // The game is dropped: the next turn starts a new one.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
        tally
    }
}

/// The value at quantile `q` of sorted values (nearest rank), in ms.
fn quantile_ms(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1]) / 1000.0
}

/// CPU time this process has used, in seconds (Linux; `None` elsewhere).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses: utime and
    // stime are the 14th and 15th fields, in USER_HZ (100 on Linux) ticks.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

async fn run(args: &Args) -> anyhow::Result<()> {
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let client = Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(args.concurrency)
        .timeout(Duration::from_secs(30))
        .build()
        .context("building the HTTP client")?;
    let base = args.url.trim_end_matches('/').to_owned();
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    let counted_from = started + args.warmup;
    let run = std::sync::Arc::new(Run {
        client,
        base,
        mode: args.mode,
        game: args.game.clone(),
        counted_from,
        end: counted_from + args.duration,
    });
    let lanes: Vec<_> = (0..args.concurrency as u64)
        .map(|lane| {
            let run = run.clone();
            tokio::spawn(async move { run.lane(lane).await })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut all_moves = 0;
    let mut started_games = 0;
    let mut errors: BTreeMap<String, u64> = BTreeMap::new();
    let mut first_error = None;
    for lane in lanes {
        let t = lane.await.context("a load loop panicked")?;
        latencies.extend(t.latencies);
        all_moves += t.all_moves;
        started_games += t.started;
        for (k, n) in t.errors {
            *errors.entry(k).or_default() += n;
        }
        first_error = first_error.or(t.first_error);
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_before.zip(cpu_seconds()).map(|(a, b)| b - a);
    latencies.sort_unstable();

    let seconds = args.duration.as_secs_f64();
    let moves = latencies.len();
    let rate = moves as f64 / seconds;
    let (p50, p90, p99, max) = (
        quantile_ms(&latencies, 0.50),
        quantile_ms(&latencies, 0.90),
        quantile_ms(&latencies, 0.99),
        quantile_ms(&latencies, 1.0),
    );
    let error_count: u64 = errors.values().sum();
    println!(
        "{} {} at {}: {} loops, {seconds:.1} s counted after {:.1} s of warm-up",
        args.mode.as_str(),
        args.game,
        run.base,
        args.concurrency,
        args.warmup.as_secs_f64(),
    );
    println!("  moves      {moves} ({rate:.1}/s)");
    println!("  latency    p50 {p50:.2} ms, p90 {p90:.2} ms, p99 {p99:.2} ms, max {max:.2} ms");
    println!("  errors     {error_count} {errors:?}");
    if let Some(e) = &first_error {
        println!("  first      {e}");
    }
    println!("  games      {started_games} started; {all_moves} moves in all");
    if let Some(cpu) = cpu {
        println!(
            "  client cpu {cpu:.1} s over {wall:.1} s ({:.2} cores)",
            cpu / wall
        );
    }
    let line = json!({
        "label": args.label,
        "mode": args.mode.as_str(),
        "game": args.game,
        "concurrency": args.concurrency,
        "seconds": seconds,
        "moves": moves,
        "moves_per_s": (rate * 10.0).round() / 10.0,
        "p50_ms": p50,
        "p90_ms": p90,
        "p99_ms": p99,
        "max_ms": max,
        "errors": error_count,
        "games_started": started_games,
        "client_cpu_cores": cpu.map(|c| (c / wall * 100.0).round() / 100.0),
    });
    println!("{line}");
    Ok(())
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
