//! Load generators for qipan, one binary each (`src/bin/`), and what they
//! share. They are measuring instruments, run by the scripts in
//! `perf/scripts/` against a release build; `cargo test` only builds them.
//!
//! - `fixed_json`: the baseline, an actix-web handler answering fixed bytes
//!   with qipan's header lines;
//! - `positions`: distinct positions with a legal move each, for uncached
//!   reads and plays;
//! - `match_line`: a seeded line of moves in 2048 solo matches, for the cost
//!   of a match move;
//! - `match_load`: persisted moves per second;
//! - `live_load`: live streams (fan-out, idle memory, moves beside watchers);
//! - `chaos_load`: acknowledged moves journaled across `kill -9`.

pub mod rng;
