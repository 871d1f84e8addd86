//! Match retention (finding 2 of the hardening issue: abandoned and
//! finished matches stayed for ever), on SQLite and PostgreSQL.

use std::time::Duration;

use qipan::matches::retention::{Keep, Retention};
use qipan::matches::Timestamp;
use serde_json::{json, Value};

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, TestDb};
use crate::helpers::{spawn_app_with, TestApp};
use crate::live::{create, post};

const DAY: Duration = Duration::from_secs(86_400);

/// Makes match `id` look as if it last changed `ago`.
async fn age(app: &TestApp, id: &str, ago: Duration) {
    let db = app.database().expect("a database");
    sqlx::query("UPDATE matches SET updated_at = $1 WHERE id = $2")
        .bind(Timestamp::now().minus(ago).millis())
        .bind(id)
        .execute(db.pool())
        .await
        .expect("aged");
}

async fn status_of(app: &TestApp, id: &str) -> u16 {
    app.get(&format!("/v1/matches/{id}")).await.status
}

async fn old_matches_go_and_the_rest_stay(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let solo = json!({ "game": "quoridor", "mode": "solo" });
    let (abandoned, _, _) = create(&app, solo.clone()).await;
    let (finished, token, _) = create(&app, solo.clone()).await;
    post(
        &app,
        &format!("/v1/matches/{finished}/play"),
        &token,
        json!({ "actions": ["e2"] }),
    )
    .await;
    let fork: Value = post(
        &app,
        &format!("/v1/matches/{finished}/fork"),
        &token,
        json!({}),
    )
    .await;
    let fork = fork["id"].as_str().unwrap().to_owned();
    post(
        &app,
        &format!("/v1/matches/{finished}/resign"),
        &token,
        json!({}),
    )
    .await;
    let (quiet, _, _) = create(&app, solo.clone()).await;
    let (fresh_end, token2, _) = create(&app, solo).await;
    post(
        &app,
        &format!("/v1/matches/{fresh_end}/resign"),
        &token2,
        json!({}),
    )
    .await;

    age(&app, &abandoned, 31 * DAY).await;
    age(&app, &finished, 8 * DAY).await;
    age(&app, &quiet, 8 * DAY).await;
    age(&app, &fresh_end, 6 * DAY).await;

    let rules = Retention {
        idle: Keep(Some(30 * DAY)),
        finished: Keep(Some(7 * DAY)),
        every: Duration::from_secs(60),
    };
    let db = app.database().unwrap();
    let own_rows = |id: String| {
        let pool = db.pool().clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT count(*) FROM moves WHERE match_id = $1")
                .bind(id)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    // The fork reads its one move from its parent until the parent goes.
    assert_eq!(own_rows(fork.clone()).await, 0);
    // Off, nothing goes.
    let off = Retention {
        idle: Keep(None),
        finished: Keep(None),
        ..rules
    };
    assert_eq!(off.sweep(db, Timestamp::now()).await.unwrap(), 0);
    assert_eq!(rules.sweep(db, Timestamp::now()).await.unwrap(), 2);
    assert_eq!(status_of(&app, &abandoned).await, 404, "idle for 31 days");
    assert_eq!(status_of(&app, &finished).await, 404, "finished 8 days ago");
    assert_eq!(
        status_of(&app, &quiet).await,
        200,
        "ongoing, quiet for 8 days"
    );
    assert_eq!(
        status_of(&app, &fresh_end).await,
        200,
        "finished 6 days ago"
    );
    // The fork lives on, without its parent, with its moves.
    let forked = app.get(&format!("/v1/matches/{fork}")).await.json();
    assert_eq!(forked["parent"], Value::Null);
    assert_eq!(forked["ply"], json!(1));
    let kept = app.get(&format!("/v1/matches/{fork}/history")).await.json();
    assert_eq!(kept["moves"].as_array().unwrap().len(), 1);
    assert_eq!(kept["moves"][0]["action"], "e2");
    assert_eq!(own_rows(fork.clone()).await, 1, "copied as its parent went");
    // The deleted match's rows went with it.
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM moves WHERE match_id = $1")
        .bind(&finished)
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
    // A second sweep finds nothing more.
    assert_eq!(rules.sweep(db, Timestamp::now()).await.unwrap(), 0);
}

on_both_backends!(old_matches_go_and_the_rest_stay);

async fn the_service_sweeps_by_itself(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    let mut s = settings(&db.url);
    s.retain_finished = Keep(Some(DAY));
    let app = spawn_app_with(s).await;
    let (id, token, _) = create(&app, json!({ "game": "2048", "seed": 3, "mode": "solo" })).await;
    post(&app, &format!("/v1/matches/{id}/resign"), &token, json!({})).await;
    age(&app, &id, 2 * DAY).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while status_of(&app, &id).await != 404 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the sweeper did not delete the match"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(db);
}

on_both_backends!(the_service_sweeps_by_itself);
