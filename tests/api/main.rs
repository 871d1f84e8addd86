//! The API test suite: one binary, a freshly spawned server per test, and
//! every live response checked against `openapi.yaml`.

mod analysis;
mod binary;
mod browser;
mod compression;
mod computer;
mod db;
mod docs;
mod duels;
mod errors;
mod gomoku;
mod helpers;
mod http;
mod limits;
mod live;
mod lobby;
mod matches;
mod metrics;
mod outage;
mod pages;
mod picture;
mod quoridor;
mod reads;
mod records;
mod repetition;
mod retention;
mod schema;
mod skips;
mod spec;
mod stateless_repetition;
mod tetris;
mod tls;
mod twenty48;
mod ws;
mod xiangqi;
