//! Databases for the match tests: a fresh SQLite file, or a fresh database on
//! the PostgreSQL server at `127.0.0.1:5432` (`QIPAN_TEST_POSTGRES` to point
//! elsewhere), dropped when the test ends.
//!
//! Without a PostgreSQL server the PostgreSQL tests are skipped with a
//! message — unless `CI=true`, where a missing server fails them.

use std::time::Duration;

use qipan::configuration::Settings;
use sqlx::{Connection, Executor, PgConnection};

use crate::helpers::{spawn_app_with, TestApp};

/// The server the PostgreSQL tests create their databases on.
pub fn postgres_server() -> String {
    std::env::var("QIPAN_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned())
}

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A database that lives as long as the test: a file removed, or a
/// PostgreSQL database dropped, on drop.
pub struct TestDb {
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    File(std::path::PathBuf),
    Database(String),
}

impl TestDb {
    /// A fresh database, or `None` when PostgreSQL is not there (outside CI).
    pub async fn new(backend: Backend) -> Option<TestDb> {
        let name = format!("qipan_test_{}", uuid::Uuid::new_v4().simple());
        match backend {
            Backend::Sqlite => {
                let path = std::env::temp_dir().join(format!("{name}.db"));
                Some(TestDb {
                    url: format!("sqlite:{}", path.display()),
                    cleanup: Cleanup::File(path),
                })
            }
            Backend::Postgres => {
                let server = postgres_server();
                let mut admin = match admin_connection(&server).await {
                    Ok(c) => c,
                    Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
                        panic!("PostgreSQL at {server} cannot be reached, and CI=true: {e}")
                    }
                    Err(e) => {
                        crate::skips::skipped(
                            "PostgreSQL",
                            &format!("PostgreSQL at {server} cannot be reached: {e}"),
                        );
                        return None;
                    }
                };
                admin
                    .execute(format!("CREATE DATABASE {name}").as_str())
                    .await
                    .expect("a test database can be created");
                Some(TestDb {
                    url: format!("{server}/{name}"),
                    cleanup: Cleanup::Database(name),
                })
            }
        }
    }
}

async fn admin_connection(server: &str) -> Result<PgConnection, sqlx::Error> {
    tokio::time::timeout(
        Duration::from_secs(5),
        PgConnection::connect(&format!("{server}/test")),
    )
    .await
    .unwrap_or(Err(sqlx::Error::PoolTimedOut))
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
            }
            Cleanup::Database(name) => {
                // Drop runs inside the test's runtime: drop the database
                // from a thread with its own.
                let name = name.clone();
                let server = postgres_server();
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build();
                    if let Ok(rt) = rt {
                        rt.block_on(async {
                            if let Ok(mut admin) = admin_connection(&server).await {
                                let _ = admin
                                    .execute(
                                        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                                            .as_str(),
                                    )
                                    .await;
                            }
                        });
                    }
                })
                .join();
            }
        }
    }
}

/// Settings for a service on `url`.
pub fn settings(url: &str) -> Settings {
    Settings {
        database_url: url.to_owned(),
        ..Settings::for_tests()
    }
}

/// A service with matches on a fresh database; `None` when skipped.
pub struct MatchApp {
    pub app: TestApp,
    /// Kept so the database outlives the service (dropped after it).
    _db: TestDb,
}

impl std::ops::Deref for MatchApp {
    type Target = TestApp;

    fn deref(&self) -> &TestApp {
        &self.app
    }
}

pub async fn spawn_match_app(backend: Backend) -> Option<MatchApp> {
    let db = TestDb::new(backend).await?;
    let app = spawn_app_with(settings(&db.url)).await;
    Some(MatchApp { app, _db: db })
}

/// Runs an `async fn(Backend)` test on both backends, as `<name>::sqlite`
/// and `<name>::postgres`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::db::Backend::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name($crate::db::Backend::Postgres).await;
                }
            }
        )*
    };
}
pub(crate) use on_both_backends;
