#!/usr/bin/env bash
# qipan's quoridor engine (level 10) against a shortest-path runner: an
# opponent that never walls and always steps along a shortest path (ties
# broken by the seed), half the games from each seat. Results go in
# docs/strength.md. A few such games are also a test (crates/engine/tests/
# quoridor.rs); this plays many.
#
#   perf/strength/quoridor-vs-runner.sh [games] [nodes-per-move] [seed]
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${1:-100}
NODES=${2:-20000}
SEED=${3:-1}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/qipan-strength-target}
cargo build --release --quiet --manifest-path perf/strength/runner/Cargo.toml
"$CARGO_TARGET_DIR/release/quoridor-vs-runner" --games "$GAMES" --nodes "$NODES" --seed "$SEED"
