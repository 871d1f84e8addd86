#!/usr/bin/env bash
# Load test of GET /v1/xiangqi/{code} against a baseline: an actix-web
# handler that returns the same bytes as a fixed JSON body
# (examples/fixed_json.rs). Both servers run release builds with the same
# worker count, on loopback only; wrk runs rounds alternating between them
# and the script prints requests/s of each and the ratio qipan/baseline.
# It stops by itself and kills both servers on exit.
#
#   bash scripts/loadtest.sh
#
# Environment (defaults): CODE (a middlegame), WORKERS (1), CONNECTIONS (32),
# DURATION (10s), ROUNDS (2), RUST_LOG (warn: the baseline logs nothing, so
# qipan's request logs are off too; RUST_LOG=info measures them), PIN (1: pin
# the servers to CPU 0 and wrk to CPU 1 when taskset exists).
set -euo pipefail
# The load generator is one client address: its budgets and connection cap
# (see the README) would be measured instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/.."

CODE=${CODE:-VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o}
WORKERS=${WORKERS:-1}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-2}
PIN=${PIN:-1}
export RUST_LOG=${RUST_LOG:-warn}
QIPAN_ADDR=127.0.0.1:18080
BASE_ADDR=127.0.0.1:18081
PATH_=/v1/xiangqi/$CODE

command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
command -v curl >/dev/null || (apt-get update && apt-get install -y curl)

cargo build --release --examples --bins

server_pin=() wrk_pin=()
if [[ $PIN == 1 ]] && command -v taskset >/dev/null && (($(nproc) >= 2)); then
    server_pin=(taskset -c 0) wrk_pin=(taskset -c 1)
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to 10 s for a URL to answer 2xx.
wait_for() {
    for _ in $(seq 100); do
        curl -fsS --max-time 1 -o /dev/null "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "no answer from $1" >&2
    return 1
}

QIPAN_WORKERS=$WORKERS "${server_pin[@]}" target/release/qipan --addr "$QIPAN_ADDR" \
    >"$tmp/qipan.log" 2>&1 &
pids+=($!)
wait_for "http://$QIPAN_ADDR/healthz"

# The exact bytes qipan answers (its share URL names the Host wrk sends too).
curl -fsS --max-time 5 -o "$tmp/body.json" "http://$QIPAN_ADDR$PATH_"

QIPAN_WORKERS=$WORKERS "${server_pin[@]}" target/release/examples/fixed_json "$BASE_ADDR" \
    "$tmp/body.json" >"$tmp/baseline.log" 2>&1 &
pids+=($!)
wait_for "http://$BASE_ADDR$PATH_"
curl -fsS --max-time 5 "http://$BASE_ADDR$PATH_" | cmp -s - "$tmp/body.json" \
    || { echo "baseline body differs from qipan's" >&2; exit 1; }

echo "body: $(wc -c <"$tmp/body.json") bytes; workers: $WORKERS; wrk -t1 -c$CONNECTIONS -d$DURATION"

# Runs wrk against a URL and prints its requests/s; fails on errors.
run_wrk() {
    local out
    out=$(timeout 120 "${wrk_pin[@]}" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "$1")
    if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
        echo "$out" >&2
        echo "errors against $1" >&2
        return 1
    fi
    printf '%s\n' "$out" | grep -E '^ +(50|99)%' | tr -s ' ' | sed 's/^/    latency/' >&2
    awk '/^Requests\/sec:/ { print $2 }' <<<"$out"
}

# Short warm-up of both, not counted.
DURATION=2s run_wrk "http://$QIPAN_ADDR$PATH_" >/dev/null
DURATION=2s run_wrk "http://$BASE_ADDR$PATH_" >/dev/null

q_all=() b_all=()
for round in $(seq "$ROUNDS"); do
    q=$(run_wrk "http://$QIPAN_ADDR$PATH_")
    echo "round $round  qipan     $q req/s"
    b=$(run_wrk "http://$BASE_ADDR$PATH_")
    echo "round $round  baseline  $b req/s"
    q_all+=("$q") b_all+=("$b")
done

awk -v q="${q_all[*]}" -v b="${b_all[*]}" 'BEGIN {
    nq = split(q, qs, " "); nb = split(b, bs, " ")
    for (i = 1; i <= nq; i++) { sq += qs[i]; sb += bs[i] }
    printf "mean     qipan %.0f req/s, baseline %.0f req/s, ratio qipan/baseline %.3f\n",
        sq / nq, sb / nb, (sq / nq) / (sb / nb)
}'
