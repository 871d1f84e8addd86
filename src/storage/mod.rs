//! The database behind persisted matches: SQLite (embedded, the default) or
//! PostgreSQL, through one `sqlx::Any` pool and plain SQL that both accept.
//!
//! The stateless API never touches it. [`Database::connect`] runs the
//! migrations under `migrations/`; the queries live in [`matches`].

/// A struct of columns, and its `sqlx::FromRow` over the `Any` driver: each
/// field read from the column of its name. (What `#[derive(sqlx::FromRow)]`
/// writes, without building sqlx's procedural macros, and with them every
/// database driver a second time, for the compiler.)
macro_rules! row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$field_meta])* $field_vis $field: $ty,)*
        }

        impl<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> for $name {
            fn from_row(row: &'r sqlx::any::AnyRow) -> Result<$name, sqlx::Error> {
                use sqlx::Row as _;
                Ok($name {
                    $($field: row.try_get(stringify!($field))?,)*
                })
            }
        }
    };
}

pub mod computer;
pub mod lobby;
pub mod matches;
mod offload;
pub mod retention;

pub use crate::configuration::DatabaseSettings;
pub use offload::{Crashed, Runner};

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use std::borrow::Cow;

use futures_util::future::BoxFuture;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Executor};

/// The migrations under `migrations/`, embedded at build time by
/// `build.rs`: `(version, description, sql)`, oldest first.
const MIGRATIONS: &[(i64, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// The embedded migrations, as sqlx runs them. Each one's checksum is that
/// of its SQL, as sqlx's own tools compute it.
#[derive(Debug)]
struct Embedded;

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> BoxFuture<'s, Result<Vec<Migration>, BoxDynError>> {
        let migrations = MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                let no_tx = sql.starts_with("-- no-transaction");
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    no_tx,
                )
            })
            .collect();
        Box::pin(std::future::ready(Ok(migrations)))
    }
}

/// The migrator over [`Embedded`].
async fn migrator() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded).await
}

/// Which server a pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file (or memory).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// How connections to PostgreSQL travel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Encryption {
    /// Encrypted, with this TLS version (`TLSv1.3`).
    Tls(String),
    /// Not encrypted.
    Plaintext,
}

/// A connection pool, the backend it talks to and its URL.
#[derive(Debug, Clone)]
pub struct Database {
    pool: AnyPool,
    backend: Backend,
    url: String,
}

/// Why a storage call failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database cannot be reached (no connection, connection lost,
    /// server shutting down, file locked). A write cut off mid-way may have
    /// landed: callers read before they retry.
    #[error("the database cannot be reached: {0}")]
    Unavailable(#[source] sqlx::Error),
    /// A guarded write found the row changed since it was read.
    #[error("the match changed since it was read")]
    Conflict,
    /// A stored row does not make a match: `column` holds `value`, which no
    /// write of this service makes.
    #[error("the stored row is corrupt: column {column} holds {value}")]
    Corrupt {
        /// The column.
        column: &'static str,
        /// What it holds.
        value: String,
    },
    /// Any other failure.
    #[error("database error: {0}")]
    Query(#[source] sqlx::Error),
}

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> Self {
        if is_unavailable(&e) {
            StorageError::Unavailable(e)
        } else if is_lost_race(&e) {
            StorageError::Conflict
        } else {
            StorageError::Query(e)
        }
    }
}

/// Whether PostgreSQL gave up a transaction for a concurrent one: a
/// serialization failure (40001: a snapshot transaction wrote a row changed
/// since it began) or a deadlock (40P01). Nothing of it was written.
fn is_lost_race(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => {
            db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_none()
                && db
                    .code()
                    .is_some_and(|code| code == "40001" || code == "40P01")
        }
        _ => false,
    }
}

/// Whether an error means "the database is not there just now" rather than a
/// fault of the query.
fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(db) => {
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                // SQLite gives extended codes: the primary code is the low
                // byte. Busy, locked, read-only, I/O error, disk full,
                // cannot open: the file, not the query, is at fault.
                let primary = db
                    .code()
                    .and_then(|c| c.parse::<u32>().ok())
                    .map(|c| c & 0xff);
                matches!(primary, Some(5 | 6 | 8 | 10 | 13 | 14))
            } else {
                // PostgreSQL: class 08 (connection exception), 57P01-57P03
                // (shutting down, cannot connect now), 53300 (too many
                // connections).
                db.code().is_some_and(|code| {
                    code.starts_with("08") || code.starts_with("57P") || code == "53300"
                })
            }
        }
        _ => false,
    }
}

/// Whether a SQLite URL names a memory database.
fn is_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}

impl Database {
    /// Opens the pool and runs the migrations.
    ///
    /// # Errors
    ///
    /// When the URL is not a SQLite or PostgreSQL URL, the database cannot
    /// be reached, or a migration fails.
    pub async fn connect(settings: &DatabaseSettings) -> anyhow::Result<Database> {
        sqlx::any::install_default_drivers();
        let url = settings.url.as_str();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            anyhow::bail!(
                "database URL {url:?} is neither sqlite:<path>, sqlite::memory: nor postgres://…"
            );
        };
        let pool = match backend {
            Backend::Sqlite => {
                let memory = is_memory(url);
                let url = if memory || url.contains("mode=") {
                    url.to_owned()
                } else {
                    // Create the file when it is not there yet.
                    let sep = if url.contains('?') { '&' } else { '?' };
                    format!("{url}{sep}mode=rwc")
                };
                let options = AnyConnectOptions::from_str(&url)?;
                let busy_ms = settings.acquire_timeout.as_millis();
                // One connection: SQLite has one writer at a time anyway, and
                // a single connection queues writers in the pool, fairly,
                // instead of in SQLite's busy handler, which sleeps. A memory
                // database lives as long as its one connection.
                AnyPoolOptions::new()
                    .test_before_acquire(false)
                    .max_connections(1)
                    .min_connections(1)
                    .acquire_timeout(settings.acquire_timeout)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .after_connect(move |conn, _| {
                        Box::pin(async move {
                            if !memory {
                                conn.execute("PRAGMA journal_mode = WAL").await?;
                            }
                            // A file another process holds locked is waited
                            // for as long as a connection would be, then 503.
                            let pragmas = format!(
                                "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
                                 PRAGMA busy_timeout = {busy_ms}"
                            );
                            conn.execute(pragmas.as_str()).await?;
                            if memory {
                                // A memory database is new with each
                                // connection (should its one connection ever
                                // be replaced): it gets its tables here.
                                for &(_, _, sql) in MIGRATIONS {
                                    conn.execute(sql).await?;
                                }
                            }
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?
            }
            Backend::Postgres => {
                // No ping before each use: a connection that has died fails
                // its query, which answers 503, and is closed when it goes
                // back to the pool (sqlx checks it then).
                AnyPoolOptions::new()
                    .test_before_acquire(false)
                    .max_connections(settings.max_connections.max(1))
                    .acquire_timeout(settings.acquire_timeout)
                    .connect(url)
                    .await?
            }
        };
        if backend == Backend::Postgres || !is_memory(url) {
            migrator().await?.run(&pool).await?;
        }
        Ok(Database {
            pool,
            backend,
            url: settings.url.clone(),
        })
    }

    /// How a connection to the database travels: `None` for SQLite (no
    /// network), else whether PostgreSQL sees it encrypted, and with which
    /// TLS version. `sslmode` in the URL decides, as with libpq: `prefer`
    /// (the default) encrypts when the server offers TLS and falls back to
    /// plaintext when it does not; `require` refuses plaintext;
    /// `verify-ca` and `verify-full` also check the server's certificate
    /// against `sslrootcert` (or the bundled web roots), `verify-full` its
    /// name too.
    ///
    /// # Errors
    ///
    /// When the database cannot be asked.
    pub async fn encryption(&self) -> Result<Option<Encryption>, StorageError> {
        if self.backend != Backend::Postgres {
            return Ok(None);
        }
        let row: (bool, Option<String>) =
            sqlx::query_as("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                .fetch_one(&self.pool)
                .await?;
        Ok(Some(match row {
            (true, version) => Encryption::Tls(version.unwrap_or_default()),
            (false, _) => Encryption::Plaintext,
        }))
    }

    /// A connection from the pool, for one request's reads and writes.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unavailable`] when none can be had in time.
    pub async fn acquire(&self) -> Result<PoolConnection<Any>, StorageError> {
        Ok(self.pool.acquire().await?)
    }

    /// The pool.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The URL it was opened with (secrets included: never log it).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Which server this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether other instances may share this database (PostgreSQL): their
    /// writes are heard through `LISTEN`/`NOTIFY`, and rows an earlier run
    /// left may be a live instance's. On SQLite this process is the only
    /// instance.
    pub fn is_shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// Where operations on this database run (see [`Runner`]): on SQLite
    /// on threads of their own, on PostgreSQL where they are awaited.
    pub fn runner(&self) -> Runner {
        match self.backend {
            Backend::Sqlite => Runner::Apart,
            Backend::Postgres => Runner::Here,
        }
    }

    /// Puts `conn` aside while an operation computes between its read and
    /// its write (the rules playing a move): PostgreSQL's is kept, as each
    /// return to the pool costs a round trip; SQLite's one connection is
    /// given back, so that other writes go on meanwhile (the version read
    /// guards the write).
    pub fn between(&self, conn: PoolConnection<Any>) -> Between {
        Between {
            db: self.clone(),
            held: (self.backend == Backend::Postgres).then_some(conn),
        }
    }
}

/// A connection put aside between a read and a write
/// ([`Database::between`]).
#[derive(Debug)]
pub struct Between {
    db: Database,
    held: Option<PoolConnection<Any>>,
}

impl Between {
    /// The connection for the write: the one kept, or one from the pool.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unavailable`] when none can be had in time.
    pub async fn resume(self) -> Result<PoolConnection<Any>, StorageError> {
        match self.held {
            Some(conn) => Ok(conn),
            None => self.db.acquire().await,
        }
    }
}
