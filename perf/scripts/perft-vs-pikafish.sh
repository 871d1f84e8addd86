#!/usr/bin/env bash
# qipan's xiangqi perft beside Pikafish's (github.com/official-pikafish/Pikafish),
# the strongest open-source xiangqi engine, on the same machine in the same
# run: perft DEPTH (5) from the start position and from a middlegame, each a
# whole process (`qipan perft xiangqi <FEN> 5` against `position fen <FEN>` +
# `go perft 5` piped into pikafish), ROUNDS times each after one warm-up,
# the two engines alternating (and taking turns at going first) so that other
# load on the machine falls on both alike. hyperfine is not used because it
# runs all of one command before the next. Checks that both print the same
# node count (and, at depth 5, the count recorded below), then prints the
# median wall times and the ratio qipan/Pikafish; the target is ≤ 1.0. It
# also prints each engine's start-up (perft 1) and the ratio without it.
#
#   bash perf/scripts/perft-vs-pikafish.sh
#   CALLGRIND=1 bash perf/scripts/perft-vs-pikafish.sh   # also instruction counts
#
# PIKAFISH names a Pikafish binary whose `go perft` runs without a network
# file (perft evaluates nothing): perf/scripts/build-pikafish.sh builds one under
# /tmp from a clone of the Pikafish repository (its code is not kept here):
#
#   PIKAFISH=$(bash perf/scripts/build-pikafish.sh PIKAFISH_GIT | tail -n 1) \
#       bash perf/scripts/perft-vs-pikafish.sh
#
# Not part of the tests or CI.
#
# Environment (defaults):
#   PIKAFISH      the Pikafish binary (required)
#   DEPTH (5), ROUNDS (7), CALLGRIND (0; 1 counts instructions with
#   valgrind --tool=callgrind at CALLGRIND_DEPTH, default DEPTH - 1),
#   CARGO_TARGET_DIR (target)
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/../.."

pikafish=${PIKAFISH:?PIKAFISH must name a Pikafish binary whose go perft runs without a network file}
[[ -x $pikafish ]] || { echo "PIKAFISH=$pikafish is not an executable" >&2; exit 1; }
DEPTH=${DEPTH:-5}
ROUNDS=${ROUNDS:-7}
CALLGRIND=${CALLGRIND:-0}
CALLGRIND_DEPTH=${CALLGRIND_DEPTH:-$((DEPTH - 1))}
TARGET_DIR=${CARGO_TARGET_DIR:-target}

# The positions, and their perft 5 counts. The start position's is the
# published one (chessprogramming wiki, tests/data/deep/xiangqi-start.perft);
# the middlegame is benches/xiangqi.rs's MIDDLEGAME (the position after its
# OPENING), whose count Pikafish (commit 97133eeb) and qipan both gave.
NAMES=(start middlegame)
FENS=(
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
    '1rbakabr1/9/c1n6/pC2p3p/6Pn1/2p6/P3P2RP/2N1C1N2/9/1RBAKAB2 w - - 0 1'
)
PERFT5=(133312995 115153847)

for tool in cargo awk; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
if [[ $CALLGRIND == 1 ]] && ! command -v valgrind >/dev/null; then
    echo "CALLGRIND=1 needs valgrind" >&2
    exit 1
fi

# --- qipan ----------------------------------------------------------------
cargo build --release --locked --bin qipan
qipan=$TARGET_DIR/release/qipan

# --- runs -----------------------------------------------------------------
# Each prints the node count only.
run_qipan() { "$qipan" perft xiangqi "$1" "$2" 2>/dev/null | tail -n 1; }
run_pikafish() {
    printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$pikafish" |
        awk '/^Nodes searched:/ { print $3 }'
}

# Microseconds since the epoch.
now() { echo "${EPOCHREALTIME/[.,]/}"; }

# `timed ENGINE FEN DEPTH`: runs it, prints "microseconds nodes".
timed() {
    local t0 nodes t1
    t0=$(now)
    nodes=$("run_$1" "$2" "$3")
    t1=$(now)
    echo "$((t1 - t0)) $nodes"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# `alternate FEN DEPTH ROUNDS`: prints "qipan_median_us pikafish_median_us
# qipan_nodes pikafish_nodes", after one warm-up run of each.
alternate() {
    local fen=$1 depth=$2 rounds=$3 i engine q_times="" p_times="" q_nodes="" p_nodes="" t n
    local order=()
    run_qipan "$fen" "$depth" >/dev/null
    run_pikafish "$fen" "$depth" >/dev/null
    for ((i = 0; i < rounds; i++)); do
        if ((i % 2 == 0)); then order=(qipan pikafish); else order=(pikafish qipan); fi
        for engine in "${order[@]}"; do
            read -r t n < <(timed "$engine" "$fen" "$depth")
            if [[ $engine == qipan ]]; then
                q_times+="$t"$'\n'
                q_nodes=$n
            else
                p_times+="$t"$'\n'
                p_nodes=$n
            fi
        done
    done
    echo "$(printf '%s' "$q_times" | median) $(printf '%s' "$p_times" | median) $q_nodes $p_nodes"
}

instructions() {
    # `instructions ENGINE FEN DEPTH`: instructions executed, whole process.
    local out
    if [[ $1 == qipan ]]; then
        out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            "$qipan" perft xiangqi "$2" "$3" 2>&1 >/dev/null)
    else
        out=$(printf 'position fen %s\ngo perft %s\nquit\n' "$2" "$3" |
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$pikafish" 2>&1 >/dev/null)
    fi
    awk '/Collected :/ { print $NF }' <<<"$out"
}

echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
changes=
if [[ -n $(git status --porcelain -- crates/rules 2>/dev/null) ]]; then
    changes=' with uncommitted changes to crates/rules'
fi
echo "qipan $(git rev-parse --short HEAD)$changes, Pikafish $pikafish"
echo "perft $DEPTH, whole process, median of $ROUNDS alternating runs each; start-up = median perft 1"
echo

read -r q1 p1 _ _ < <(alternate "${FENS[0]}" 1 "$ROUNDS")
printf '%-11s %11s %10s %10s %8s %15s\n' position nodes qipan Pikafish ratio "ratio w/o start"
failed=0
for i in "${!NAMES[@]}"; do
    read -r q p qn pn < <(alternate "${FENS[$i]}" "$DEPTH" "$ROUNDS")
    if [[ $qn != "$pn" ]] || { [[ $DEPTH == 5 ]] && [[ $qn != "${PERFT5[$i]}" ]]; }; then
        echo "${NAMES[$i]}: node counts differ: qipan $qn, Pikafish $pn${PERFT5[$i]:+, recorded ${PERFT5[$i]} at depth 5}" >&2
        failed=1
        continue
    fi
    awk -v name="${NAMES[$i]}" -v n="$qn" -v q="$q" -v p="$p" -v q1="$q1" -v p1="$p1" 'BEGIN {
        printf "%-11s %11d %8.3f s %8.3f s %8.2f %15.2f\n", name, n, q / 1e6, p / 1e6, q / p, (q - q1) / (p - p1)
    }'
done
awk -v q1="$q1" -v p1="$p1" 'BEGIN { printf "start-up    %11s %8.3f s %8.3f s\n", "", q1 / 1e6, p1 / 1e6 }'

if [[ $CALLGRIND == 1 ]]; then
    echo
    echo "instructions (valgrind --tool=callgrind), perft $CALLGRIND_DEPTH, whole process:"
    q1=$(instructions qipan "${FENS[0]}" 1)
    p1=$(instructions pikafish "${FENS[0]}" 1)
    printf '%-11s %16s %16s %8s %15s\n' position qipan Pikafish ratio "ratio w/o start"
    for i in "${!NAMES[@]}"; do
        qi=$(instructions qipan "${FENS[$i]}" "$CALLGRIND_DEPTH")
        pi=$(instructions pikafish "${FENS[$i]}" "$CALLGRIND_DEPTH")
        awk -v name="${NAMES[$i]}" -v q="$qi" -v p="$pi" -v q1="$q1" -v p1="$p1" 'BEGIN {
            printf "%-11s %16d %16d %8.2f %15.2f\n", name, q, p, q / p, (q - q1) / (p - p1)
        }'
    done
    awk -v q="$q1" -v p="$p1" 'BEGIN { printf "%-11s %16d %16d\n", "start-up", q, p }'
fi
exit "$failed"
