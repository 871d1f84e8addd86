#!/usr/bin/env bash
# qipan's gomoku engine against Rapfi (dhbloo/rapfi, the Gomocup champion)
# with its classical evaluator, at equal time per move, over the Gomocup
# (piskvork) protocol. Results go in docs/strength.md.
#
#   RAPFI_SRC=/path/to/rapfi perf/strength/gomoku-vs-rapfi.sh [rule] [ms] [openings] [seed]
#
# rule: freestyle (default), standard or renju; ms per move (default 300);
# openings (default 5): each is played twice, colours swapped; seed picks the
# openings (3 stones on the 5x5 centre, h8 first).
#
# RAPFI_SRC is a checkout of https://github.com/dhbloo/rapfi (GPL-3.0; the
# measurements in docs/strength.md used commit 3aedf3a). It is built under
# /tmp (never inside this repository) with cmake and g++, once. Without the
# network-weights submodule Rapfi runs on its built-in classical evaluation.
# Needs: apt-get install -y cmake g++
set -euo pipefail
cd "$(dirname "$0")/../.."
RULE=${1:-freestyle}
MS=${2:-300}
OPENINGS=${3:-5}
SEED=${4:-1}
BUILD=${RAPFI_BUILD:-/tmp/rapfi-build}
BRAIN=$BUILD/pbrain-rapfi
if [[ ! -x $BRAIN ]]; then
    : "${RAPFI_SRC:?set RAPFI_SRC to a checkout of dhbloo/rapfi}"
    mkdir -p "$BUILD"
    cmake -S "$RAPFI_SRC/Rapfi" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON >/dev/null
    make -C "$BUILD" -j"$(nproc)" >/dev/null
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/qipan-strength-target}
cargo build --release --quiet --manifest-path perf/strength/runner/Cargo.toml
uptime
"$CARGO_TARGET_DIR/release/gomoku-vs-piskvork" --brain "$BRAIN" --rule "$RULE" --ms "$MS" --openings "$OPENINGS" --seed "$SEED"
