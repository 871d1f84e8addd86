#!/usr/bin/env bash
# qipan's xiangqi engine against ElephantEye (xqbase/eleeye, the classic UCCI
# engine) at equal time per move, from 12 common openings, each played with
# both colours; the rules crate referees. Results go in docs/strength.md.
#
#   ELEEYE_SRC=/path/to/eleeye perf/strength/xiangqi-vs-eleeye.sh [ms] [openings] [runner options]
#
# Runner options after the first two go to xiangqi-vs-ucci as they are:
# `--skip 12` for the second dozen openings, `--moves`, `--keep-table`.
#
# ELEEYE_SRC is a checkout of https://github.com/xqbase/eleeye (the
# measurements in docs/strength.md used commit a9d3914). It is built under
# /tmp (never inside this repository) with one g++ line, once, and plays
# without its opening book.
set -euo pipefail
cd "$(dirname "$0")/../.."
MS=${1:-300}
OPENINGS=${2:-12}
shift $(( $# < 2 ? $# : 2 ))
BIN=${ELEEYE_BIN:-/tmp/eleeye/eleeye.bin}
if [[ ! -x $BIN ]]; then
    : "${ELEEYE_SRC:?set ELEEYE_SRC to a checkout of xqbase/eleeye}"
    mkdir -p "$(dirname "$BIN")"
    (cd "$ELEEYE_SRC/eleeye" && g++ -DNDEBUG -O2 -w -o "$BIN" ../base/pipe.cpp ucci.cpp pregen.cpp \
        position.cpp genmoves.cpp hash.cpp book.cpp movesort.cpp preeval.cpp evaluate.cpp \
        search.cpp eleeye.cpp -lpthread)
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/qipan-strength-target}
cargo build --release --quiet --manifest-path perf/strength/runner/Cargo.toml --bin xiangqi-vs-ucci
uptime
"$CARGO_TARGET_DIR/release/xiangqi-vs-ucci" --engine "$BIN" --ms "$MS" --openings "$OPENINGS" "$@"
