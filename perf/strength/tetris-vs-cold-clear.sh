#!/usr/bin/env bash
# qipan's Tetris engine against cold-clear (MinusKelvin/cold-clear, its
# TBP bot `cc-tbp`) at equal time a piece, on the same seeded 7-bag games
# of the rules crate, seed by seed in turn so that both meet the same load.
# Results go in docs/strength.md.
#
#   perf/strength/tetris-vs-cold-clear.sh [ms] [runs] [pieces] [runner options]
#
# Runner options after the first three go to tetris-vs-tbp as they are
# (`--first-seed S`).
#
# cold-clear is built under /tmp (never inside this repository), once, from
# COLD_CLEAR_SRC, a checkout of https://github.com/MinusKelvin/cold-clear
# (docs/strength.md used commit 279edd7), or when that is unset from commit
# 279edd7 of the git directory COLD_CLEAR_GIT. Only the members `cc-tbp`
# needs are kept in the copy's workspace: Cargo resolves every member's
# dependencies, and the GUI client's come from other git hosts. Its git
# dependencies pcf and webutil are pinned by cold-clear (64cd955, 5a54126);
# PCF_GIT and WEBUTIL_GIT, local clones of MinusKelvin/pcf and
# MinusKelvin/webutil, stand in for GitHub when set.
set -euo pipefail
cd "$(dirname "$0")/../.."
MS=${1:-20}
RUNS=${2:-10}
PIECES=${3:-1000}
shift $(( $# < 3 ? $# : 3 ))
CC_DIR=${CC_DIR:-/tmp/cold-clear}
BIN=${CC_TBP_BIN:-$CC_DIR/target/release/cc-tbp}
if [[ ! -x $BIN ]]; then
    if [[ ! -f $CC_DIR/tbp/Cargo.toml ]]; then
        mkdir -p "$CC_DIR"
        if [[ -n ${COLD_CLEAR_SRC:-} ]]; then
            cp -R "$COLD_CLEAR_SRC/." "$CC_DIR"
        else
            : "${COLD_CLEAR_GIT:?set COLD_CLEAR_SRC to a checkout of MinusKelvin/cold-clear, or COLD_CLEAR_GIT to its git directory}"
            git -C "$COLD_CLEAR_GIT" archive 279edd7 | tar -x -C "$CC_DIR"
        fi
        sed -i '/^members = \[/,/^\]/c\members = ["bot", "libtetris", "opening-book", "tbp"]' "$CC_DIR/Cargo.toml"
    fi
    git_config=()
    for pair in "pcf:${PCF_GIT:-}" "webutil:${WEBUTIL_GIT:-}"; do
        if [[ -n ${pair#*:} ]]; then
            git_config+=("url.${pair#*:}.insteadOf=https://github.com/MinusKelvin/${pair%%:*}")
        fi
    done
    export GIT_CONFIG_COUNT=${#git_config[@]}
    for i in "${!git_config[@]}"; do
        export "GIT_CONFIG_KEY_$i=${git_config[i]%%=*}" "GIT_CONFIG_VALUE_$i=${git_config[i]#*=}"
    done
    (cd "$CC_DIR" && CARGO_TARGET_DIR="$CC_DIR/target" nice -n 10 cargo build --release -p cc-tbp -j 2 \
        --config net.git-fetch-with-cli=true)
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/qipan-strength-target}
cargo build --release --quiet --manifest-path perf/strength/runner/Cargo.toml --bin tetris-vs-tbp
uptime
nice -n 10 "$CARGO_TARGET_DIR/release/tetris-vs-tbp" --bot "$BIN" --bot qipan \
    --runs "$RUNS" --pieces "$PIECES" --ms "$MS" "$@"
uptime
