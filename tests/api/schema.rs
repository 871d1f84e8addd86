//! The schema's indexes on columns most matches leave NULL (a deadline, a
//! parent) hold only the rows that set them, so that the write every move
//! makes does not update them, and both databases still answer the queries
//! on those columns from them: the flag sweeper's and the forks'.

use sqlx::{AnyConnection, Connection, Executor, Row};

use crate::db::{on_both_backends, settings, Backend, TestDb};
use crate::helpers::spawn_app_with;

on_both_backends!(sparse_columns_have_partial_indexes_the_queries_use);

/// Queries of the service's shape on the indexed columns, and the index
/// each must be answered from.
const QUERIES: [(&str, &str); 4] = [
    (
        "SELECT id FROM matches WHERE deadline IS NOT NULL AND deadline <= 1 \
         AND status = 'ongoing' ORDER BY deadline LIMIT 10",
        "matches_deadline",
    ),
    (
        "SELECT min(deadline) FROM matches WHERE deadline IS NOT NULL AND status = 'ongoing'",
        "matches_deadline",
    ),
    (
        "SELECT id FROM matches WHERE parent_id = 'a' AND shares_upto > shares_from",
        "matches_parent",
    ),
    (
        "SELECT id FROM matches WHERE parent_id IN ('a', 'b')",
        "matches_parent",
    ),
];

async fn sparse_columns_have_partial_indexes_the_queries_use(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    // The service runs the migrations.
    let app = spawn_app_with(settings(&db.url)).await;
    sqlx::any::install_default_drivers();
    let mut conn = AnyConnection::connect(&db.url)
        .await
        .expect("the test database opens");
    for (index, column) in [
        ("matches_deadline", "deadline"),
        ("matches_parent", "parent_id"),
    ] {
        let definition: String = match backend {
            Backend::Sqlite => sqlx::query("SELECT sql FROM sqlite_master WHERE name = $1"),
            Backend::Postgres => {
                sqlx::query("SELECT indexdef FROM pg_indexes WHERE indexname = $1")
            }
        }
        .bind(index)
        .fetch_one(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("index {index}: {e}"))
        .get(0);
        let predicate = definition
            .replace(['(', ')'], "")
            .to_ascii_uppercase()
            .contains(&format!(
                "WHERE {} IS NOT NULL",
                column.to_ascii_uppercase()
            ));
        assert!(predicate, "{index} holds every row: {definition}");
    }
    if backend == Backend::Postgres {
        // The tables are nearly empty: without this a scan of the table is
        // cheaper than any index.
        conn.execute("SET enable_seqscan = off")
            .await
            .expect("a setting");
    }
    for (query, index) in QUERIES {
        let plan: Vec<String> = match backend {
            Backend::Sqlite => sqlx::query(&format!("EXPLAIN QUERY PLAN {query}"))
                .fetch_all(&mut conn)
                .await
                .expect("a plan")
                .iter()
                .map(|r| r.get::<String, _>(3))
                .collect(),
            Backend::Postgres => sqlx::query(&format!("EXPLAIN {query}"))
                .fetch_all(&mut conn)
                .await
                .expect("a plan")
                .iter()
                .map(|r| r.get::<String, _>(0))
                .collect(),
        };
        assert!(
            plan.iter().any(|line| line.contains(index)),
            "{query}\nis not answered from {index}:\n{}",
            plan.join("\n")
        );
    }
    drop(conn);
    drop(app);
}
