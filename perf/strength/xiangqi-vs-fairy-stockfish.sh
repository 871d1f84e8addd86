#!/usr/bin/env bash
# qipan's xiangqi engine against Fairy-Stockfish (the multi-variant
# Stockfish) with its classical evaluation (`Use NNUE` off: no network
# weights), at equal time per move, from the runner's openings, each played
# with both colours; the rules crate referees. Results go in
# docs/strength.md.
#
#   FSF_SRC=/path/to/Fairy-Stockfish perf/strength/xiangqi-vs-fairy-stockfish.sh [ms] [openings] [runner options]
#
# Runner options after the first two go to xiangqi-vs-ucci as they are
# (`--skip 12`, `--moves`, `--keep-table`).
#
# FSF_SRC is a checkout of https://github.com/fairy-stockfish/Fairy-Stockfish
# (docs/strength.md names the commit measured). It is built under /tmp
# (never inside this repository), once, with large boards (xiangqi's 9×10
# board needs them) and no embedded network.
set -euo pipefail
cd "$(dirname "$0")/../.."
MS=${1:-300}
OPENINGS=${2:-12}
shift $(( $# < 2 ? $# : 2 ))
BIN=${FSF_BIN:-/tmp/fairy-stockfish/stockfish}
if [[ ! -x $BIN ]]; then
    : "${FSF_SRC:?set FSF_SRC to a checkout of fairy-stockfish/Fairy-Stockfish}"
    rm -rf "$(dirname "$BIN")"
    mkdir -p "$(dirname "$BIN")"
    cp -r "$FSF_SRC/src" "$(dirname "$BIN")/src"
    make -C "$(dirname "$BIN")/src" -j2 build ARCH=x86-64-modern largeboards=yes >/dev/null
    cp "$(dirname "$BIN")/src/stockfish" "$BIN"
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/qipan-strength-target}
cargo build --release --quiet --manifest-path perf/strength/runner/Cargo.toml --bin xiangqi-vs-ucci
uptime
"$CARGO_TARGET_DIR/release/xiangqi-vs-ucci" --engine "$BIN" --protocol uci --variant xiangqi \
    --option "Use NNUE=false" --ms "$MS" --openings "$OPENINGS" "$@"
uptime
