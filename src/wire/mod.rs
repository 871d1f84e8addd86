//! Every request and response shape the service shares across games, as
//! plain serde types kept apart from the domain: the state-view envelope,
//! statuses, the game list, the match API's bodies and views, and the typed
//! extension members of problems.
//!
//! A game's own parts (its board cells, action views, the extra members of
//! its view, its import and export bodies) live with its adapter in
//! `crate::games::<game>`, so that a game is one file in the service.

pub mod analysis;
pub mod json;
pub mod live;
pub mod lobby;
pub mod matches;
pub mod picture;
pub mod problem;
pub mod state;

pub use state::{
    ActionSyntax, Description, GameInfo, PlayRequest, Shown, StartQuery, StateView, StatusView,
};
