#!/usr/bin/env bash
# Load test of persisted moves: perf/load/src/bin/match_load.rs runs CONCURRENCY loops,
# each playing its own solo 2048 match one move per POST /v1/matches/{id}/play
# (every move one write transaction), against qipan on SQLite and then on
# PostgreSQL. Then, on the same PostgreSQL server and in the same session,
# pgbench -N (TPC-B without the teller and branch updates: one UPDATE, one
# SELECT, one INSERT per transaction) with as many clients, for scale. With
# STATELESS=1 the same loops also play through the stateless
# POST /v1/2048/{code}/play against a server without a database: the cost of
# HTTP, the rules and the rendering alone.
#
#   bash perf/scripts/match-loadtest.sh
#
# Prints each run's output, the CPU each process used while it ran (in cores;
# client, server and database share the machine, nothing is pinned, so on a
# small machine the figures are of the three together; the stateless run in
# particular can be bounded by the client), and a summary table. Creates the databases qipan_bench and qipan_pgbench (dropped
# first, dropped again on exit) and a SQLite file in a temporary directory.
# Not part of the tests or CI.
#
# Environment (defaults): CONCURRENCY (64), DURATION (20, seconds), WARMUP (3,
# seconds), POOL (64, --database-pool), WORKERS (unset: qipan's default, one
# per core), CLIENT_THREADS (1), STATELESS (1), PGHOST (127.0.0.1), PGPORT
# (5432), PGUSER (postgres), PGBENCH_SCALE (10), PGBENCH_THREADS (2), PORT
# (18180, and the next two), RUST_LOG (warn: request logs off).
set -euo pipefail
# The load generator is one client address: its budgets and connection cap
# (docs/configuration.md) would be measured instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/../.."

CONCURRENCY=${CONCURRENCY:-64}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
POOL=${POOL:-64}
CLIENT_THREADS=${CLIENT_THREADS:-1}
STATELESS=${STATELESS:-1}
PGBENCH_SCALE=${PGBENCH_SCALE:-10}
PGBENCH_THREADS=${PGBENCH_THREADS:-2}
PORT=${PORT:-18180}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
export RUST_LOG=${RUST_LOG:-warn}
BENCH_DB=qipan_bench
PGBENCH_DB=qipan_pgbench
PG_URL="postgres://$PGUSER@$PGHOST:$PGPORT"
if [[ -n ${WORKERS:-} ]]; then export QIPAN_WORKERS=$WORKERS; fi

for tool in curl psql pgbench; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
psql -X -q -d postgres -c 'SELECT 1' >/dev/null

cargo build --release --bin qipan --bin match_load

tmp=$(mktemp -d)
server_pid=
# shellcheck source=lib/server.sh
source "perf/scripts/lib/server.sh"

cleanup() {
    stop_server_if_any
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $BENCH_DB WITH (FORCE)" \
        -c "DROP DATABASE IF EXISTS $PGBENCH_DB WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fresh_db() {
    psql -X -q -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1"
}

# shellcheck source=lib/cpu.sh
source "perf/scripts/lib/cpu.sh"

# Runs the client against the server on a port, keeps its JSON line in
# $tmp/<label>.json, stops the server and prints the CPU the server (and, with
# pg=1, PostgreSQL) used while the client ran, warm-up included. PostgreSQL
# is read after the server is gone, when its backends have exited and been
# counted in the postmaster.
run_client() {
    local port=$1 label=$2 mode=$3 pg=$4 before_s before_pg after_s after_pg start end wall
    before_s=$(ticks "$server_pid") before_pg=$(pg_ticks) start=$(date +%s.%N)
    target/release/match_load --url "http://127.0.0.1:$port" --mode "$mode" \
        --concurrency "$CONCURRENCY" --duration "${DURATION}s" --warmup "${WARMUP}s" \
        --threads "$CLIENT_THREADS" --label "$label" | tee "$tmp/$label.out"
    end=$(date +%s.%N)
    after_s=$(ticks "$server_pid")
    stop_server
    sleep 0.5
    after_pg=$(pg_ticks)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    printf '  server cpu %s cores' "$(cores $((after_s - before_s)) "$wall")"
    if [[ $pg == 1 ]]; then
        cores $((after_pg - before_pg)) "$wall" >"$tmp/$label.pgcpu"
        printf ', postgres cpu %s cores' "$(cat "$tmp/$label.pgcpu")"
    fi
    printf ' (over %.1f s, warm-up included)\n' "$wall"
    grep '^{' "$tmp/$label.out" >"$tmp/$label.json"
}

field() { sed -nE "s/.*\"$2\":([^,}]*).*/\1/p" "$tmp/$1.json"; }

echo "== machine: $(nproc) cores; $(psql -X -At -d postgres -c 'SHOW server_version') at $PGHOST:$PGPORT;" \
    "synchronous_commit=$(psql -X -At -d postgres -c 'SHOW synchronous_commit')," \
    "fsync=$(psql -X -At -d postgres -c 'SHOW fsync')"

echo "== SQLite ($tmp/bench.db)"
start_server "$PORT" "sqlite:$tmp/bench.db" --database-pool "$POOL"
run_client "$PORT" sqlite matches 0

echo "== PostgreSQL ($PG_URL/$BENCH_DB, pool $POOL)"
fresh_db "$BENCH_DB"
start_server $((PORT + 1)) "$PG_URL/$BENCH_DB" --database-pool "$POOL"
run_client $((PORT + 1)) postgres matches 1
psql -X -At -d "$BENCH_DB" -c "SELECT 'rows: ' || (SELECT count(*) FROM matches) || ' matches, ' ||
    (SELECT count(*) FROM moves) || ' moves kept'"

if [[ $STATELESS == 1 ]]; then
    echo "== stateless (no database)"
    start_server $((PORT + 2)) none --database-pool "$POOL"
    run_client $((PORT + 2)) stateless stateless 0
fi

echo "== pgbench -N on $PGBENCH_DB (scale $PGBENCH_SCALE)"
fresh_db "$PGBENCH_DB"
pgbench -q -i -s "$PGBENCH_SCALE" "$PGBENCH_DB" 2>&1 | tail -1
before_pg=$(pg_ticks) before_c=$(ticks $$)
start=$(date +%s.%N)
# -l logs every transaction's latency (third field, µs) for the percentiles.
(cd "$tmp" && pgbench -N -c "$CONCURRENCY" -j "$PGBENCH_THREADS" -T "$DURATION" -M prepared -r \
    -l --log-prefix=pgbench_log "$PGBENCH_DB") 2>&1 | tee "$tmp/pgbench.out"
end=$(date +%s.%N)
sleep 0.5
after_pg=$(pg_ticks) after_c=$(ticks $$)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
pgbench_pgcpu=$(cores $((after_pg - before_pg)) "$wall")
echo "  postgres cpu $pgbench_pgcpu cores," \
    "pgbench cpu $(cores $((after_c - before_c)) "$wall") cores (over $wall s)"
pgbench_tps=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' "$tmp/pgbench.out" | tail -1)
read -r pgbench_p50 pgbench_p99 < <(cat "$tmp"/pgbench_log.* | awk '{ print $3 }' | sort -n |
    awk '{ v[NR] = $1 } END {
        r50 = int(NR * 0.50); if (r50 < NR * 0.50) r50++
        r99 = int(NR * 0.99); if (r99 < NR * 0.99) r99++
        printf "%.3f %.3f\n", v[r50] / 1000, v[r99] / 1000 }')

echo
echo "== summary: $CONCURRENCY concurrent, ${DURATION} s counted"
printf '%-28s %12s %10s %10s %8s\n' run "per second" "p50 ms" "p99 ms" errors
for label in sqlite postgres stateless; do
    [[ -f $tmp/$label.json ]] || continue
    printf '%-28s %12s %10s %10s %8s\n' "$label moves" "$(field "$label" moves_per_s)" \
        "$(field "$label" p50_ms)" "$(field "$label" p99_ms)" "$(field "$label" errors)"
done
printf '%-28s %12s %10s %10s %8s\n' "pgbench -N transactions" "$pgbench_tps" \
    "$pgbench_p50" "$pgbench_p99" -
awk -v pg="$(field postgres moves_per_s)" -v tps="$pgbench_tps" -v sq="$(field sqlite moves_per_s)" \
    -v pgcpu="$(cat "$tmp/postgres.pgcpu")" -v bcpu="$pgbench_pgcpu" 'BEGIN {
    printf "ratio PostgreSQL moves/s / pgbench -N tps: %.3f\n", pg / tps
    printf "ratio SQLite moves/s / pgbench -N tps:     %.3f\n", sq / tps
    printf "PostgreSQL cpu per move %.3f ms, per pgbench -N transaction %.3f ms\n",
        pgcpu / pg * 1000, bcpu / tps * 1000
}'
