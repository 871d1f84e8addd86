//! qipan: a game-state service. Every position of five games is a short
//! code, and every code a shareable, cacheable URL; the service reads codes,
//! plays actions on them and lists what may be played next.
//!
//! `main.rs` reads the configuration and runs; [`startup`] owns the route
//! table; [`routes`] holds the handlers (parse → call → map); [`wire`] the
//! request and response shapes; [`games`] bridges the pure `qipan-rules`
//! crate to views, one adapter per game; [`matches`] is the typed match
//! domain, kept in [`storage`]; [`problem`] turns every domain error into
//! RFC 9457 problem details, in one place; [`analysis`] runs the
//! `qipan-engine` searches on their own threads. See `docs/architecture.md`.
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod analysis;
pub mod cli;
pub mod configuration;
pub mod games;
pub mod http;
pub mod matches;
pub mod metrics;
pub mod pages;
pub mod problem;
pub mod records;
pub mod routes;
pub mod startup;
pub mod storage;
pub mod telemetry;
pub mod wire;
