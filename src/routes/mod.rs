//! HTTP handlers, one file per resource. Handlers only parse the request,
//! call into [`crate::games`] or [`crate::matches`] and map the result to a
//! response; what every request goes through around them (admission,
//! limits, conditional requests, compression, headers) is [`crate::http`].

pub mod analysis;
pub mod assets;
pub mod docs;
pub mod games;
pub mod health;
pub mod lobby;
pub mod matches;
pub mod observe;
pub mod pages;
pub mod picture;
pub mod records;
pub mod socket;
pub mod state;
pub mod table;
