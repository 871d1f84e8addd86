#!/usr/bin/env bash
# What a fork costs beside a create: wrk posts POST /v1/matches (a new 2048
# match), then POST /v1/matches/{id}/fork of a finished match with no moves
# (`fork0`: the fork's own cost) and of one with a full kept history (100 moves: a 2048 match played 120 moves and resigned, so
# anyone may fork it without a token), each for DURATION seconds at
# CONNECTIONS connections, on SQLite and on PostgreSQL, in one run. Prints
# requests per second and latency of each, and the fork/create ratios.
#
#   bash perf/scripts/fork-cost.sh
#
# Creates a SQLite file in a temporary directory and the PostgreSQL database
# qipan_forkcost (dropped first, dropped again on exit). Not part of the
# tests or CI.
#
# Environment (defaults): DURATION (10, seconds), CONNECTIONS (16), POOL (16,
# --database-pool), PORT (18190), PGHOST (127.0.0.1), PGPORT (5432), PGUSER
# (postgres), RUST_LOG (warn).
set -euo pipefail
# The load generator is one client address: its budgets and connection cap
# would be measured instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/../.."

DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-16}
POOL=${POOL:-16}
PORT=${PORT:-18190}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
export RUST_LOG=${RUST_LOG:-warn}
DB=qipan_forkcost
BASE="http://127.0.0.1:$PORT"

for tool in curl jq wrk psql; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

cargo build --release --locked --bin qipan

tmp=$(mktemp -d)
server_pid=
# shellcheck source=lib/server.sh
source "perf/scripts/lib/server.sh"

cleanup() {
    stop_server_if_any
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A finished 2048 match with `$1` moves played (a kept history of at most
# 100); prints its id.
finished_match() {
    local v id token i legal action
    v=$(curl -fsS -X POST "$BASE/v1/matches" -H 'content-type: application/json' \
        -d '{"game": "2048", "seed": 7}')
    id=$(jq -r .id <<<"$v")
    token=$(jq -r .token <<<"$v")
    for ((i = 0; i < $1; i++)); do
        legal=$(jq -r '[.state.legal_actions[] | if type == "object" then .action else . end] | join(" ")' <<<"$v")
        read -r -a legal <<<"$legal"
        action=${legal[$((i % ${#legal[@]}))]}
        v=$(curl -fsS -X POST "$BASE/v1/matches/$id/play" -H 'content-type: application/json' \
            -H "authorization: Bearer $token" -d "{\"actions\": [\"$action\"]}")
    done
    curl -fsS -o /dev/null -X POST "$BASE/v1/matches/$id/resign" -H "authorization: Bearer $token"
    local kept=$(( $1 < 100 ? $1 : 100 ))
    [[ $(curl -fsS "$BASE/v1/matches/$id/history" | jq '.moves | length') == "$kept" ]]
    echo "$id"
}

# wrk posting `body` to `path`; prints "req/s p50 p99" (latencies in ms).
post_load() {
    local path=$1 body=$2
    cat >"$tmp/post.lua" <<EOF
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.2f %.2f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
EOF
    wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s "$tmp/post.lua" "$BASE$path" | awk '/^RESULT/ { print $2, $3, $4, $5 }'
}

declare -A results
for backend in sqlite postgres; do
    if [[ $backend == sqlite ]]; then
        url="sqlite:$tmp/forkcost.db"
    else
        psql -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
        url="postgres://$PGUSER@$PGHOST:$PGPORT/$DB"
    fi
    start_server "$PORT" "$url" --database-pool "$POOL"
    parent=$(finished_match 120)
    bare=$(finished_match 0)
    echo "== $backend: create, fork of $bare (no moves), fork of $parent (100 kept moves)"
    results[$backend-create]=$(post_load /v1/matches '{"game": "2048", "seed": 1}')
    results[$backend-fork0]=$(post_load "/v1/matches/$bare/fork" '')
    results[$backend-fork]=$(post_load "/v1/matches/$parent/fork" '')
    stop_server
done

printf '\n%-9s %-7s %9s %9s %9s %7s\n' backend request 'req/s' 'p50 ms' 'p99 ms' errors
for backend in sqlite postgres; do
    for what in create fork0 fork; do
        read -r rps p50 p99 errors <<<"${results[$backend-$what]}"
        printf '%-9s %-7s %9s %9s %9s %7s\n' "$backend" "$what" "$rps" "$p50" "$p99" "$errors"
    done
    read -r c_rps c_p50 _ _ <<<"${results[$backend-create]}"
    for what in fork0 fork; do
        read -r f_rps f_p50 _ _ <<<"${results[$backend-$what]}"
        awk -v b="$backend" -v w="$what" -v cr="$c_rps" -v fr="$f_rps" -v cp="$c_p50" -v fp="$f_p50" \
            'BEGIN { printf "%-9s %s/create: throughput %.2f, median latency %.2f\n", b, w, fr / cr, fp / cp }'
    done
done
