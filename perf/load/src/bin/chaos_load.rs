//! Chaos client for persisted matches, driven by `perf/scripts/chaos.sh`: the
//! load that plays while the service is killed with `kill -9` and
//! restarted, and the check that every move it acknowledged is still there.
//!
//! ```text
//! cargo run --release -p qipan-load --bin chaos_load -- load --journal J \
//!     [--url http://127.0.0.1:8080] [--concurrency 32] [--games 2048,xiangqi] [--max-ply 150]
//! cargo run --release -p qipan-load --bin chaos_load -- verify --journal J [--timeline T] [--label L]
//! ```
//!
//! `load` runs `--concurrency` loops until SIGTERM or Ctrl-C. Each creates
//! its own match, the games of `--games` taken in turn by loop: a solo 2048
//! match, or a xiangqi duel whose second seat the loop joins itself (so the
//! seats, the join and each seat's token are exercised). It plays one random
//! legal move per `POST /v1/matches/{id}/play`, with the token of the side
//! to move and `If-Match` of the version it last saw, and starts a new match
//! when the game ends or reaches `--max-ply`. Every answered 2xx play is
//! appended to the journal (one `write(2)` of one line; `--fsync` also
//! syncs it) before it is counted:
//!
//! ```text
//! move <unix ms> <loop> <match id> <version after> <ply after> <action> <code after>
//! create <unix ms> <loop> <match id> <version> <game>
//! fail <unix ms> <loop> <kind> <request>
//! ```
//!
//! (tab-separated). A request that fails — the kill: refused or reset
//! connections — is journaled as `fail` and not as a move, whether or not
//! it landed; the loop then reads the match again (`GET`) to learn its
//! version, retrying with a short back-off until the service is back. The
//! loops never stop on their own, so the client lives across the kills.
//!
//! `verify` reads the journal and, for every match in it, `GET
//! /v1/matches/{id}` and its `/history` (the last 100 moves, by ply): the
//! stored version must be at least the last acknowledged one; every
//! acknowledged move whose ply is still kept must be there with the same
//! action and resulting code (for these matches, which are never taken
//! back, version − ply is the same for every move, so a ply is a version);
//! and where the stored version is the last acknowledged one, the stored
//! state code must be the journaled one. With `--timeline` (lines `kill`,
//! `restart`, `up` and `load-stopped`, each with a unix ms, written by the
//! script) it also gives, per kill, the time from the restart to the first
//! acknowledged move and the requests that failed. Prints the findings and
//! one JSON line; exits 1 when an acknowledged move is missing or differs.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use qipan_load::rng::Rng;
use reqwest::header::{AUTHORIZATION, IF_MATCH};
use reqwest::{Client, Response};
use serde_json::{json, Value};

/// Chaos client for qipan's persisted matches.
#[derive(Debug, Parser)]
#[command(name = "chaos_load")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plays matches until SIGTERM, journaling every acknowledged move.
    Load(LoadArgs),
    /// Checks a journal against the service.
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct LoadArgs {
    /// Base URL of the service.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The journal to append to (created when missing).
    #[arg(long)]
    journal: PathBuf,
    /// Loops playing at once, each its own match.
    #[arg(short, long, default_value_t = 32)]
    concurrency: usize,
    /// Games taken in turn by loop: `2048` (solo) and `xiangqi` (a duel
    /// whose two seats the loop holds).
    #[arg(long, default_value = "2048,xiangqi", value_delimiter = ',')]
    games: Vec<String>,
    /// A match is left for a new one at this ply, so that most of its
    /// moves are still in the kept history (the last 100) when checked.
    #[arg(long, default_value_t = 150)]
    max_ply: i64,
    /// Sync the journal to disk after each line (it is written with one
    /// `write(2)` per line either way, so it survives this client's crash;
    /// syncing makes it survive the machine's).
    #[arg(long)]
    fsync: bool,
    /// Runtime threads of this client (it shares the machine with the server).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// Base URL of the service.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The journal written by `load`.
    #[arg(long)]
    journal: PathBuf,
    /// The script's timeline: `kill|restart|up|load-stopped <unix ms>` lines.
    #[arg(long)]
    timeline: Option<PathBuf>,
    /// A name for this run, copied into the JSON line.
    #[arg(long, default_value = "")]
    label: String,
    /// Matches checked at once.
    #[arg(long, default_value_t = 8)]
    parallel: usize,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// One line per write, to a file opened for appending.
struct Journal {
    file: Mutex<File>,
    fsync: bool,
}

impl Journal {
    fn open(path: &Path, fsync: bool) -> anyhow::Result<Journal> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening the journal {}", path.display()))?;
        Ok(Journal {
            file: Mutex::new(file),
            fsync,
        })
    }

    /// Writes `fields` as one tab-separated line; returns once the kernel
    /// has it (and the disk, with `--fsync`).
    fn record(&self, fields: &[&str]) -> std::io::Result<()> {
        let mut line = fields.join("\t");
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())?;
        if self.fsync {
            file.sync_data()?;
        }
        Ok(())
    }
}

/// Why a request gave no usable answer: `kind` is `connect`, `timeout`,
/// `transport`, `body` or the status.
struct Failure {
    kind: String,
    detail: String,
}

fn transport(e: &reqwest::Error) -> Failure {
    let kind = if e.is_connect() {
        "connect"
    } else if e.is_timeout() {
        "timeout"
    } else {
        "transport"
    };
    Failure {
        kind: kind.to_owned(),
        detail: e.to_string(),
    }
}

/// The JSON body of a 2xx answer, read to its end.
async fn answer(res: Result<Response, reqwest::Error>) -> Result<Value, Failure> {
    let res = res.map_err(|e| transport(&e))?;
    let status = res.status();
    let bytes = res.bytes().await.map_err(|e| transport(&e))?;
    if !status.is_success() {
        return Err(Failure {
            kind: status.as_u16().to_string(),
            detail: String::from_utf8_lossy(&bytes).chars().take(300).collect(),
        });
    }
    serde_json::from_slice(&bytes).map_err(|e| Failure {
        kind: "body".to_owned(),
        detail: e.to_string(),
    })
}

/// A match a loop plays.
struct Game {
    id: String,
    /// Seat tokens by side (`solo` for the one token of a solo match).
    tokens: Vec<(String, String)>,
    version: i64,
    ply: i64,
    to_move: String,
    code: String,
    actions: Vec<String>,
    /// A request failed: the match must be read before the next move.
    stale: bool,
}

impl Game {
    /// Takes version, ply, side to move, code and legal actions from a
    /// match view.
    fn update(&mut self, view: &Value) -> Result<(), Failure> {
        let bad = |what: &str| Failure {
            kind: "body".to_owned(),
            detail: format!("the match view has no {what}"),
        };
        self.version = view["version"].as_i64().ok_or_else(|| bad("version"))?;
        self.ply = view["ply"].as_i64().ok_or_else(|| bad("ply"))?;
        self.to_move = view["to_move"]
            .as_str()
            .ok_or_else(|| bad("to_move"))?
            .to_owned();
        let state = &view["state"];
        self.code = state["code"]
            .as_str()
            .ok_or_else(|| bad("state.code"))?
            .to_owned();
        self.actions = if state["status"]["state"].as_str() == Some("ongoing") {
            state["legal_actions"]
                .as_array()
                .ok_or_else(|| bad("legal_actions"))?
                .iter()
                .filter_map(|a| a["action"].as_str().map(str::to_owned))
                .collect()
        } else {
            Vec::new()
        };
        self.stale = false;
        Ok(())
    }

    fn token(&self) -> &str {
        let seat = self
            .tokens
            .iter()
            .find(|(side, _)| side == &self.to_move || side == "solo")
            .or(self.tokens.first());
        seat.map(|(_, t)| t.as_str()).unwrap_or_default()
    }
}

struct Load {
    client: Client,
    base: String,
    journal: Journal,
    games: Vec<String>,
    max_ply: i64,
    stop: AtomicBool,
    acked: AtomicU64,
    created: AtomicU64,
    failures: Mutex<BTreeMap<String, (u64, String)>>,
}

impl Load {
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn fail(&self, lane: u64, what: &str, f: Failure) {
        let ms = now_ms().to_string();
        let lane = lane.to_string();
        if let Err(e) = self.journal.record(&["fail", &ms, &lane, &f.kind, what]) {
            eprintln!("journal: {e}");
        }
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let entry = failures
            .entry(format!("{what} {}", f.kind))
            .or_insert_with(|| (0, f.detail));
        entry.0 += 1;
    }

    async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Result<Value, Failure> {
        let mut req = self.client.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            req = req.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        answer(req.send().await).await
    }

    /// Creates a match of `game` (and joins its second seat for a duel).
    async fn create(&self, lane: u64, game: &str, seed: u64) -> Result<Game, (String, Failure)> {
        let solo = game != "xiangqi";
        let mut req = json!({ "game": game, "mode": if solo { "solo" } else { "duel" } });
        if matches!(game, "2048" | "tetris") {
            req["seed"] = json!(seed);
        }
        let view = self
            .post("/v1/matches", None, &req)
            .await
            .map_err(|f| ("create".to_owned(), f))?;
        let id = view["id"].as_str().unwrap_or_default().to_owned();
        let seat = view["seat"].as_str().unwrap_or("solo").to_owned();
        let token = view["token"].as_str().unwrap_or_default().to_owned();
        let mut g = Game {
            id,
            tokens: vec![(seat, token)],
            version: 0,
            ply: 0,
            to_move: String::new(),
            code: String::new(),
            actions: Vec::new(),
            stale: false,
        };
        g.update(&view).map_err(|f| ("create".to_owned(), f))?;
        self.created.fetch_add(1, Ordering::Relaxed);
        let joined = if solo {
            Ok(())
        } else {
            let invite = view["invites"][0]["invite"].as_str().unwrap_or_default();
            let path = format!("/v1/matches/{}/join", g.id);
            match self.post(&path, None, &json!({ "invite": invite })).await {
                Ok(joined) => {
                    let seat = joined["seat"].as_str().unwrap_or_default().to_owned();
                    let token = joined["token"].as_str().unwrap_or_default().to_owned();
                    g.tokens.push((seat, token));
                    g.update(&joined)
                }
                Err(f) => Err(f),
            }
        };
        // The version play starts from (after the join): a later gap in the
        // acknowledged versions is a write that landed unacknowledged.
        let (ms, lane_s, version) = (now_ms().to_string(), lane.to_string(), g.version);
        let version = version.to_string();
        if let Err(e) = self
            .journal
            .record(&["create", &ms, &lane_s, &g.id, &version, game])
        {
            eprintln!("journal: {e}");
        }
        joined.map_err(|f| ("join".to_owned(), f))?;
        Ok(g)
    }

    /// Reads the match again after a failed request.
    async fn sync(&self, g: &mut Game) -> Result<(), Failure> {
        let url = format!("{}/v1/matches/{}", self.base, g.id);
        let view = answer(self.client.get(url).send().await).await?;
        g.update(&view)
    }

    /// Plays one move; journals it when acknowledged.
    async fn play(&self, lane: u64, g: &mut Game, action: &str) -> Result<(), Failure> {
        let url = format!("{}/v1/matches/{}/play", self.base, g.id);
        let res = self
            .client
            .post(url)
            .header(AUTHORIZATION, format!("Bearer {}", g.token()))
            .header(IF_MATCH, format!("\"{}\"", g.version))
            .json(&json!({ "actions": [action] }))
            .send()
            .await;
        let view = answer(res).await?;
        g.update(&view)?;
        let fields = [
            "move".to_owned(),
            now_ms().to_string(),
            lane.to_string(),
            g.id.clone(),
            g.version.to_string(),
            g.ply.to_string(),
            action.to_owned(),
            g.code.clone(),
        ];
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
        if let Err(e) = self.journal.record(&fields) {
            // Not journaled, so not counted: the check cannot miss it.
            eprintln!("journal: {e}");
            return Ok(());
        }
        self.acked.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn lane(&self, lane: u64) {
        let mut rng = Rng::new(lane);
        let game = self.games[lane as usize % self.games.len()].clone();
        let mut seed = lane << 32;
        let mut current: Option<Game> = None;
        let mut backoff = Duration::from_millis(5);
        while !self.stopping() {
            let failed = match current.as_mut() {
                Some(g) if g.stale => self.sync(g).await.err().map(|f| ("sync".to_owned(), f)),
                Some(g) if !g.actions.is_empty() && g.ply < self.max_ply => {
                    let action = g.actions[rng.below(g.actions.len())].clone();
                    let failed = self.play(lane, g, &action).await.err();
                    if failed.is_some() {
                        g.stale = true;
                    }
                    failed.map(|f| ("play".to_owned(), f))
                }
                _ => {
                    seed += 1;
                    current = None;
                    match self.create(lane, &game, seed).await {
                        Ok(g) => {
                            current = Some(g);
                            None
                        }
                        Err(e) => Some(e),
                    }
                }
            };
            match failed {
                None => backoff = Duration::from_millis(5),
                Some((what, f)) => {
                    self.fail(lane, &what, f);
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_millis(50));
                }
            }
        }
    }
}

async fn load(args: LoadArgs) -> anyhow::Result<()> {
    if args.concurrency == 0 || args.games.is_empty() {
        bail!("--concurrency and --games must not be empty");
    }
    for g in &args.games {
        if !matches!(g.as_str(), "2048" | "tetris" | "xiangqi") {
            bail!("--games takes 2048, tetris (solo) and xiangqi (duel), not {g:?}");
        }
    }
    let client = Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(args.concurrency)
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(15))
        .build()
        .context("building the HTTP client")?;
    let run = Arc::new(Load {
        client,
        base: args.url.trim_end_matches('/').to_owned(),
        journal: Journal::open(&args.journal, args.fsync)?,
        games: args.games.clone(),
        max_ply: args.max_ply,
        stop: AtomicBool::new(false),
        acked: AtomicU64::new(0),
        created: AtomicU64::new(0),
        failures: Mutex::new(BTreeMap::new()),
    });
    let started = std::time::Instant::now();
    let lanes: Vec<_> = (0..args.concurrency as u64)
        .map(|lane| {
            let run = run.clone();
            tokio::spawn(async move { run.lane(lane).await })
        })
        .collect();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("listening for SIGTERM")?;
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    run.stop.store(true, Ordering::Relaxed);
    for lane in lanes {
        lane.await.context("a load loop panicked")?;
    }
    let secs = started.elapsed().as_secs_f64();
    let acked = run.acked.load(Ordering::Relaxed);
    let failures = run.failures.lock().unwrap_or_else(|e| e.into_inner());
    let failed: u64 = failures.values().map(|(n, _)| n).sum();
    println!(
        "load at {}: {} loops ({}), {secs:.1} s",
        run.base,
        args.concurrency,
        args.games.join(", ")
    );
    println!(
        "  acknowledged moves {acked} ({:.1}/s), matches created {}",
        acked as f64 / secs,
        run.created.load(Ordering::Relaxed)
    );
    println!("  failed requests    {failed}");
    for (kind, (n, detail)) in failures.iter() {
        println!("    {kind}: {n} (first: {detail})");
    }
    Ok(())
}

/// An acknowledged move, from the journal.
#[derive(Clone)]
struct Acked {
    ms: u64,
    version: i64,
    ply: i64,
    action: String,
    code: String,
}

/// What the check of one match found.
#[derive(Default)]
struct Findings {
    acked: u64,
    verified: u64,
    /// Acknowledged moves older than the kept history: checked by version only.
    older: u64,
    missing: u64,
    differ: u64,
    /// Writes that landed without the loop seeing the answer (version gaps).
    unacked_landed: u64,
    /// Matches whose stored version is the last acknowledged one (state
    /// code compared).
    at_acked_version: u64,
    /// Matches whose creation was acknowledged, checked.
    matches: u64,
    /// Of those, matches the service does not know.
    missing_matches: u64,
    problems: Vec<String>,
}

impl Findings {
    fn add(&mut self, o: Findings) {
        self.acked += o.acked;
        self.verified += o.verified;
        self.older += o.older;
        self.missing += o.missing;
        self.differ += o.differ;
        self.unacked_landed += o.unacked_landed;
        self.at_acked_version += o.at_acked_version;
        self.matches += o.matches;
        self.missing_matches += o.missing_matches;
        self.problems.extend(o.problems);
    }
}

async fn get_json(client: &Client, url: &str) -> anyhow::Result<(u16, Value)> {
    let res = client.get(url).send().await?;
    let status = res.status().as_u16();
    let bytes = res.bytes().await?;
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((status, value))
}

fn line(id: &str, m: &Acked) -> String {
    format!(
        "move {} {id} version {} ply {} {} {}",
        m.ms, m.version, m.ply, m.action, m.code
    )
}

/// Checks one match's acknowledged moves (in journal order) against the
/// service.
async fn check(
    client: &Client,
    base: &str,
    id: &str,
    created: Option<i64>,
    moves: &[Acked],
) -> anyhow::Result<Findings> {
    let mut f = Findings {
        acked: moves.len() as u64,
        matches: 1,
        ..Findings::default()
    };
    let (status, view) = get_json(client, &format!("{base}/v1/matches/{id}")).await?;
    if status != 200 {
        f.missing = moves.len() as u64;
        f.missing_matches = 1;
        let last = moves
            .last()
            .map_or("its creation".to_owned(), |m| line(id, m));
        f.problems.push(format!(
            "{id}: GET answered {status} {view}; {} acknowledged moves, the last: {last}",
            moves.len(),
        ));
        return Ok(f);
    }
    let (status, history) = get_json(client, &format!("{base}/v1/matches/{id}/history")).await?;
    if status != 200 {
        bail!("{id}: GET /history answered {status} {history}");
    }
    let version = view["version"]
        .as_i64()
        .context("the view has no version")?;
    let ply = view["ply"].as_i64().context("the view has no ply")?;
    let code = view["state"]["code"].as_str().unwrap_or_default();
    if history["version"].as_i64() != Some(version) {
        bail!("{id}: the history is of another version than the view (nothing should write)");
    }
    let kept: HashMap<i64, (&str, &str)> = history["moves"]
        .as_array()
        .context("the history has no moves")?
        .iter()
        .filter_map(|m| {
            Some((
                m["ply"].as_i64()?,
                (m["action"].as_str()?, m["code"].as_str()?),
            ))
        })
        .collect();
    // The history keeps the last 100 moves of the line the match stands on.
    let oldest_kept = (ply - 99).max(1);
    let offset = moves.first().map(|m| m.version - m.ply).unwrap_or(0);
    let mut previous = created;
    for m in moves {
        if let Some(p) = previous {
            f.unacked_landed += (m.version - p - 1).max(0) as u64;
        }
        previous = Some(m.version);
        if m.version - m.ply != offset {
            f.differ += 1;
            f.problems.push(format!(
                "{id}: version - ply is not {offset} (no move is ever taken back): {}",
                line(id, m)
            ));
        } else if m.version > version || m.ply > ply {
            f.missing += 1;
            f.problems.push(format!(
                "{id}: stored version {version} ply {ply} is behind the acknowledged {}",
                line(id, m)
            ));
        } else if m.ply < oldest_kept {
            f.older += 1;
        } else {
            match kept.get(&m.ply) {
                None => {
                    f.missing += 1;
                    f.problems
                        .push(format!("{id}: not in the history: {}", line(id, m)));
                }
                Some((action, after)) if *action == m.action && *after == m.code => {
                    f.verified += 1;
                }
                Some((action, after)) => {
                    f.differ += 1;
                    f.problems.push(format!(
                        "{id}: the history has {action} {after} at ply {}: {}",
                        m.ply,
                        line(id, m)
                    ));
                }
            }
        }
    }
    if let Some(last) = moves.last() {
        f.unacked_landed += (version - last.version).max(0) as u64;
        if last.version == version {
            f.at_acked_version += 1;
            if code != last.code {
                f.differ += 1;
                f.problems.push(format!(
                    "{id}: stored code {code} at the acknowledged version: {}",
                    line(id, last)
                ));
            }
        }
    }
    Ok(f)
}

/// The journal, read: acknowledged moves by match (in journal order),
/// creation versions, failures (unix ms, kind).
#[derive(Default)]
struct Read {
    moves: BTreeMap<String, Vec<Acked>>,
    created: HashMap<String, i64>,
    failures: Vec<(u64, String)>,
}

fn read_journal(path: &Path) -> anyhow::Result<Read> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the journal {}", path.display()))?;
    let mut read = Read::default();
    for (n, l) in text.lines().enumerate() {
        let f: Vec<&str> = l.split('\t').collect();
        let bad = || format!("journal line {}: {l:?}", n + 1);
        match f.as_slice() {
            ["move", ms, _lane, id, version, ply, action, code] => {
                read.moves.entry((*id).to_owned()).or_default().push(Acked {
                    ms: ms.parse().with_context(bad)?,
                    version: version.parse().with_context(bad)?,
                    ply: ply.parse().with_context(bad)?,
                    action: (*action).to_owned(),
                    code: (*code).to_owned(),
                });
            }
            ["create", _ms, _lane, id, version, _game] => {
                read.created
                    .insert((*id).to_owned(), version.parse().with_context(bad)?);
            }
            ["fail", ms, _lane, kind, what] => {
                read.failures
                    .push((ms.parse().with_context(bad)?, format!("{what} {kind}")));
            }
            // A line cut short when the client itself was stopped hard.
            _ if n + 1 == text.lines().count() && !text.ends_with('\n') => {}
            _ => bail!("{}", bad()),
        }
    }
    Ok(read)
}

/// A match to check: its acknowledged creation version and moves.
struct ToCheck {
    id: String,
    created: Option<i64>,
    moves: Vec<Acked>,
}

/// One kill under load, from the timeline.
struct Kill {
    at: u64,
    restart: Option<u64>,
    up: Option<u64>,
}

fn read_timeline(path: &Path) -> anyhow::Result<(Vec<Kill>, Vec<Kill>, Option<u64>)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the timeline {}", path.display()))?;
    let (mut under_load, mut quiet, mut stopped) = (Vec::new(), Vec::new(), None);
    for l in text.lines() {
        let mut f = l.split_whitespace();
        let (Some(what), Some(ms)) = (f.next(), f.next()) else {
            continue;
        };
        let ms: u64 = ms.parse().with_context(|| format!("timeline: {l:?}"))?;
        let kills: &mut Vec<Kill> = if stopped.is_some() {
            &mut quiet
        } else {
            &mut under_load
        };
        match what {
            "kill" => kills.push(Kill {
                at: ms,
                restart: None,
                up: None,
            }),
            "restart" => {
                if let Some(k) = kills.last_mut() {
                    k.restart = Some(ms);
                }
            }
            "up" => {
                if let Some(k) = kills.last_mut() {
                    k.up = Some(ms);
                }
            }
            "load-stopped" => stopped = Some(ms),
            _ => bail!("timeline: {l:?}"),
        }
    }
    Ok((under_load, quiet, stopped))
}

async fn verify(args: VerifyArgs) -> anyhow::Result<bool> {
    let read = read_journal(&args.journal)?;
    let (kills, quiet, stopped) = match &args.timeline {
        Some(path) => read_timeline(path)?,
        None => (Vec::new(), Vec::new(), None),
    };
    let client = Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .build()
        .context("building the HTTP client")?;
    let base = args.url.trim_end_matches('/').to_owned();
    let parallel = args.parallel.max(1);
    // Every match whose creation or a move was acknowledged.
    let mut ids: Vec<&String> = read.moves.keys().chain(read.created.keys()).collect();
    ids.sort_unstable();
    ids.dedup();
    let all: Arc<Vec<ToCheck>> = Arc::new(
        ids.into_iter()
            .map(|id| ToCheck {
                id: id.clone(),
                created: read.created.get(id).copied(),
                moves: read.moves.get(id).cloned().unwrap_or_default(),
            })
            .collect(),
    );
    let workers: Vec<_> = (0..parallel)
        .map(|w| {
            let (all, client, base) = (all.clone(), client.clone(), base.clone());
            tokio::spawn(async move {
                let mut found = Findings::default();
                for m in all.iter().skip(w).step_by(parallel) {
                    found.add(check(&client, &base, &m.id, m.created, &m.moves).await?);
                }
                anyhow::Ok(found)
            })
        })
        .collect();
    let mut found = Findings::default();
    for w in workers {
        found.add(w.await.context("a check panicked")??);
    }

    // Per kill: the first move acknowledged after the restart, and the
    // requests that failed from the kill to the next (or to the end).
    let all_moves: Vec<u64> = {
        let mut v: Vec<u64> = read.moves.values().flatten().map(|m| m.ms).collect();
        v.sort_unstable();
        v
    };
    let first_kill = kills.first().map(|k| k.at).unwrap_or(u64::MAX);
    let outside = read.failures.iter().filter(|f| f.0 < first_kill).count();
    let mut restart_ms = Vec::new();
    let mut first_move_ms = Vec::new();
    let mut failed_per_kill = Vec::new();
    println!(
        "{}: {} acknowledged moves in {} matches ({} matches created, {} of them unknown now)",
        args.label,
        found.acked,
        read.moves.len(),
        found.matches,
        found.missing_matches
    );
    for (i, k) in kills.iter().enumerate() {
        let until = kills.get(i + 1).map(|n| n.at).unwrap_or(u64::MAX);
        let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
        for (_, kind) in read.failures.iter().filter(|f| f.0 >= k.at && f.0 < until) {
            *kinds.entry(kind.as_str()).or_default() += 1;
        }
        let failed: u64 = kinds.values().sum();
        let up = k.restart.zip(k.up).map(|(r, u)| u.saturating_sub(r));
        let first = k.restart.and_then(|r| {
            let i = all_moves.partition_point(|&t| t < r);
            all_moves.get(i).map(|t| t - r)
        });
        let show = |v: Option<u64>| v.map_or("-".to_owned(), |v| format!("{v} ms"));
        println!(
            "  kill {}: service answering {} after the restart, first acknowledged move {} after it \
             ({} after the kill); {failed} requests failed {kinds:?}",
            i + 1,
            show(up),
            show(first),
            show(first.zip(k.restart).map(|(f, r)| f + r - k.at)),
        );
        restart_ms.push(up.map_or("-".to_owned(), |v| v.to_string()));
        first_move_ms.push(first.map_or("-".to_owned(), |v| v.to_string()));
        failed_per_kill.push(failed.to_string());
    }
    if stopped.is_some() && !quiet.is_empty() {
        println!(
            "  then the load stopped and the service was killed {} more time(s) before this check",
            quiet.len()
        );
    }
    let failed = read.failures.len();
    println!("  requests failed: {failed} ({outside} before the first kill)");
    println!(
        "  verified in the history {}, older than the kept history {} (version checked), \
         missing {}, differing {}",
        found.verified, found.older, found.missing, found.differ
    );
    println!(
        "  matches at the acknowledged version {} (state code compared); \
         writes that landed unacknowledged {}",
        found.at_acked_version, found.unacked_landed
    );
    for p in found.problems.iter().take(50) {
        println!("  PROBLEM {p}");
    }
    if found.problems.len() > 50 {
        println!("  … {} problems in all", found.problems.len());
    }
    let json = json!({
        "label": args.label,
        "kills": kills.len(),
        "quiet_kills": quiet.len(),
        "matches": found.matches,
        "missing_matches": found.missing_matches,
        "acked": found.acked,
        "verified": found.verified,
        "older": found.older,
        "missing": found.missing,
        "differ": found.differ,
        "at_acked_version": found.at_acked_version,
        "unacked_landed": found.unacked_landed,
        "failed": failed,
        "failed_outside_kills": outside,
        "failed_per_kill": failed_per_kill.join("/"),
        "up_ms": restart_ms.join("/"),
        "first_move_ms": first_move_ms.join("/"),
    });
    println!("{json}");
    Ok(found.missing == 0 && found.differ == 0 && found.missing_matches == 0)
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let threads = match &args.command {
        Command::Load(a) => a.threads,
        Command::Verify(_) => 1,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .enable_all()
        .build()
        .context("starting the runtime")?;
    match args.command {
        Command::Load(a) => runtime.block_on(load(a)),
        Command::Verify(a) => {
            if runtime.block_on(verify(a))? {
                Ok(())
            } else {
                std::process::exit(1)
            }
        }
    }
}
