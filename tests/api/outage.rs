//! The database going away and coming back while the service keeps running:
//! a TCP proxy between the service and PostgreSQL is cut (every open
//! connection closed, new ones refused) and restored; another process takes
//! a SQLite file's write lock and releases it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

use crate::db::{postgres_server, settings, Backend, TestDb};
use crate::helpers::{spawn_app_with, TestApp, TestResponse};

/// A TCP proxy that can be cut and restored.
struct Proxy {
    addr: std::net::SocketAddr,
    down: Arc<AtomicBool>,
    links: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let down = Arc::new(AtomicBool::new(false));
        let links: Arc<Mutex<Vec<AbortHandle>>> = Arc::default();
        let (d, l) = (down.clone(), links.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if d.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let upstream = upstream.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                l.lock().expect("links").push(task.abort_handle());
            }
        });
        Proxy { addr, down, links }
    }

    /// Closes every connection and refuses new ones.
    fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for link in self.links.lock().expect("links").drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

async fn play(app: &TestApp, id: &str, token: &str, action: &str) -> TestResponse {
    let auth = format!("Bearer {token}");
    app.request(
        reqwest::Method::POST,
        &format!("/v1/matches/{id}/play"),
        &[
            ("content-type", "application/json"),
            ("authorization", &auth),
        ],
        Some(json!({ "actions": [action] }).to_string().into_bytes()),
    )
    .await
}

/// A solo gomoku match with one move played: its id and token.
async fn solo_match_one_move_in(app: &TestApp) -> (String, String) {
    let res = app
        .post_json("/v1/matches", &json!({ "game": "gomoku", "mode": "solo" }))
        .await;
    assert_eq!(res.status, 201);
    let v = res.json();
    let id = v["id"].as_str().expect("id").to_owned();
    let token = v["token"].as_str().expect("token").to_owned();
    assert_eq!(play(app, &id, &token, "h8").await.status, 200);
    (id, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_answer_503_while_the_database_is_away_and_recover_without_a_restart() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let server = postgres_server();
    let upstream = server
        .rsplit('@')
        .next()
        .unwrap_or("127.0.0.1:5432")
        .to_owned();
    let proxy = Proxy::start(upstream.clone()).await;
    let url = db.url.replace(&upstream, &proxy.addr.to_string());
    let app = spawn_app_with(settings(&url)).await;

    let (id, token) = solo_match_one_move_in(&app).await;

    proxy.cut();
    let res = play(&app, &id, &token, "h9").await;
    res.problem(503, "database-unavailable");
    assert_eq!(res.header("retry-after"), Some("1"));
    app.get(&format!("/v1/matches/{id}"))
        .await
        .problem(503, "database-unavailable");
    app.post_json("/v1/matches", &json!({ "game": "2048" }))
        .await
        .problem(503, "database-unavailable");
    // The stateless API does not notice.
    assert_eq!(app.get("/v1/gomoku/start").await.status, 200);
    assert_eq!(app.get("/healthz").await.status, 200);

    proxy.restore();
    // Back without a restart: the pool opens new connections.
    let deadline = Instant::now() + Duration::from_secs(10);
    let res = loop {
        let res = play(&app, &id, &token, "h9").await;
        if res.status != 503 || Instant::now() > deadline {
            break res;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    assert_eq!(
        v["ply"], 2,
        "the refused move was not written, the next one was"
    );
    let res = app.get(&format!("/v1/matches/{id}/history")).await;
    assert_eq!(res.json()["moves"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn the_service_does_not_start_on_a_database_it_cannot_reach() {
    let mut s = settings("postgres://postgres@127.0.0.1:1/none");
    s.database_timeout = Duration::from_millis(300);
    let err = qipan::startup::Application::build(s)
        .await
        .err()
        .expect("the service refuses to start");
    assert!(
        format!("{err:#}").contains("opening the database"),
        "{err:#}"
    );
    let err = qipan::startup::Application::build(settings("mysql://localhost/x"))
        .await
        .err()
        .expect("an unknown scheme is refused");
    assert!(format!("{err:#}").contains("neither sqlite"), "{err:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_file_locked_by_another_process_answers_503_until_released() {
    use sqlx::{Connection, Executor, SqliteConnection};

    let db = TestDb::new(Backend::Sqlite).await.expect("a SQLite file");
    let app = spawn_app_with(settings(&db.url)).await;
    let (id, token) = solo_match_one_move_in(&app).await;

    // Another process takes the file's write lock and keeps it.
    let mut other = SqliteConnection::connect(&db.url)
        .await
        .expect("a second connection to the file");
    other
        .execute("BEGIN EXCLUSIVE")
        .await
        .expect("the write lock");
    let res = play(&app, &id, &token, "h9").await;
    res.problem(503, "database-unavailable");
    // Readers are not blocked (WAL), nor is the stateless API.
    assert_eq!(app.get(&format!("/v1/matches/{id}")).await.status, 200);
    assert_eq!(app.get("/v1/gomoku/start").await.status, 200);

    other.execute("COMMIT").await.expect("the lock released");
    let res = play(&app, &id, &token, "h9").await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.json()["ply"], 2);
    other.close().await.expect("closed");
}
