//! The readable setup of a finished Tetris game does not read back (found
//! by the `code_tetris` fuzz target, `fuzz/`).
//!
//! A `Setup` is a game in progress: its piece is placed at its spawn place
//! by `Position::from_setup`. A game that ended in a block out has a next
//! piece with no room there, so its own setup is refused with
//! `SpawnBlocked`, and the service's export of such a game is a body its
//! import refuses. These tests pin that, and that a game in progress
//! reached the same way does read back.

use qipan_rules::tetris::{Kind, Position, SetupError};
use qipan_rules::{EndReason, Status};

/// A block-out position the fuzz target reached: its walk from
/// `AcKkDQJaygtqmbS3R39xAw8sAGGFGGjg` ends here.
const BLOCKED_OUT: &str = "AWKqJCYtVD_NHiCGfLMCI3gAawUYaOA4AgGAwDwOAQDgEA4BgGAYBAGA8AgCAMA";

#[test]
fn a_block_out_setup_is_refused() {
    let pos = Position::from_code(BLOCKED_OUT).unwrap();
    assert_eq!(
        pos.status(),
        Status::Over {
            reason: EndReason::BlockOut
        }
    );
    assert!(pos.legal_actions().is_empty());
    assert_eq!(
        Position::from_setup(&pos.to_setup()),
        Err(SetupError::SpawnBlocked { kind: Kind::S })
    );
}

#[test]
fn the_walk_before_the_block_out_reads_back() {
    let start = Position::from_code("AcKkDQJaygtqmbS3R39xAw8sAGGFGGjg").unwrap();
    assert!(start.status().is_ongoing());
    let back = Position::from_setup(&start.to_setup()).unwrap();
    assert_eq!(back.to_setup(), start.to_setup());
}
