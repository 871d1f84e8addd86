#!/usr/bin/env bash
# Pictures as chat previews: requests/s of the PNG of a xiangqi middlegame
# against the JSON view of the same position, in one run, from one release
# server (1 worker pinned to CPU 0, wrk on CPU 1 when taskset exists).
# Twice: with the view cache on (what a shared link meets after its first
# request) and off (every request renders: the cost of drawing).
#
#   bash perf/scripts/picture-loadtest.sh
#
# Environment (defaults): CODE (a middlegame), CONNECTIONS (32),
# DURATION (10s), SIZE (600, the width share pages put in previews).
set -euo pipefail
# The load generator is one client address: its budgets and connection cap
# (docs/configuration.md) would be measured instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0
cd "$(dirname "$0")/../.."

CODE=${CODE:-VVRWU1dFUjRRHEM2ODo8PgQDBQIGFBgABxMZGx8jJio}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10s}
SIZE=${SIZE:-600}
ADDR=127.0.0.1:18085
export RUST_LOG=warn

command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
cargo build --release --bin qipan

server_pin=() wrk_pin=()
if command -v taskset >/dev/null && (($(nproc) >= 2)); then
    server_pin=(taskset -c 0) wrk_pin=(taskset -c 1)
fi

rps() {
    "${wrk_pin[@]}" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "http://$ADDR$1" |
        awk '/Requests\/sec/ { rps = $2 } / 99%/ { p99 = $2 } END { printf "%s req/s, p99 %s", rps, p99 }'
}

for cache in 64 0; do
    "${server_pin[@]}" ./target/release/qipan --addr "$ADDR" --workers 1 \
        --cache-mb "$cache" --database-url none >/dev/null 2>&1 &
    server=$!
    trap 'kill $server 2>/dev/null' EXIT
    for _ in $(seq 50); do curl -fs "http://$ADDR/healthz" >/dev/null && break; sleep 0.1; done
    json=/v1/xiangqi/$CODE
    png="/v1/xiangqi/$CODE/picture.png?size=$SIZE"
    echo "cache ${cache} MiB: JSON $(curl -fs "http://$ADDR$json" | wc -c) B, PNG $(curl -fs "http://$ADDR$png" | wc -c) B"
    echo "  JSON view  $(rps "$json")"
    echo "  PNG        $(rps "$png")"
    kill "$server"
    wait "$server" 2>/dev/null || true
done
