//! Properties of the service's game layer (`qipan::games`), reached through
//! the `qipan` library without a server.

use qipan::games::GameError;
use qipan::problem::ApiError;
use qipan_rules::{with_position, AnyPosition};
use serde_json::Value;

use crate::assert_code_round_trips;

/// The base URL views are rendered with.
pub const BASE: &str = "http://qipan.test";

/// A refusal must become a client problem (4xx) with a JSON body: a
/// request never gets an opaque 500 for what it sent.
pub fn assert_client_problem(error: GameError) {
    let text = error.to_string();
    let body = ApiError::from(error).body();
    let problem: Value = serde_json::from_str(&body)
        .unwrap_or_else(|e| panic!("problem body {body:?} is not JSON: {e}"));
    let status = problem["status"].as_u64();
    assert!(
        matches!(status, Some(400..=499)),
        "{text:?} answered with status {status:?}: {body}"
    );
}

/// A position the service built: its code round-trips and its state view
/// renders.
pub fn assert_servable(pos: &AnyPosition) {
    with_position!(pos, p => assert_code_round_trips(p));
    let view = qipan::games::view(pos, BASE);
    let view: Value = serde_json::from_str(&view).expect("a view is JSON");
    assert_eq!(view["code"].as_str(), Some(pos.to_code().as_str()));
}
