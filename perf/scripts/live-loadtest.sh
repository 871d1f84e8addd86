#!/usr/bin/env bash
# Load test of the live match stream, GET /v1/matches/{id}/events (Server-Sent
# Events), through perf/load/src/bin/live_load.rs, against qipan on a SQLite file and,
# with PG=1, on PostgreSQL too. Three measurements, each on a fresh server and
# a fresh database:
#
#   fanout      SPECTATORS streams watch one solo 2048 match while one player
#               makes MOVES writes PAUSE apart; the delivery latency of every
#               (spectator, write) pair, from the instant the play's answer
#               reached the player to the instant the spectator read the event
#               (same process, same clock): p50, p90, p99, max, and how many
#               events never came (must be 0).
#   idle        IDLE streams held open and quiet (on IDLE_MATCHES matches; by
#               default all on one); the server's VmRSS before, with half and
#               with all of them open (every stream past its sync, then a
#               pause): KB per stream, over all and for the second half alone;
#               then the server's CPU over 16 s of nothing but keep-alives,
#               and its memory once the streams are closed.
#   throughput  CONCURRENCY loops, each playing its own solo 2048 match as fast
#               as the server answers, DURATION s counted after WARMUP s; runs
#               alternate without watchers and with WATCHERS streams spread
#               evenly over the loops' matches (fresh matches each run, the
#               same games in each; when a game ends its loop starts a new
#               match and its watchers follow), ROUNDS pairs; moves/s of each
#               run, the mean ratio with/without, the server's CPU per move,
#               and the delivery latency under load.
#
#   bash perf/scripts/live-loadtest.sh
#   PG=1 TESTS="fanout throughput" ROUNDS=3 bash perf/scripts/live-loadtest.sh
#
# Client and server share the machine (nothing is pinned), so on a small
# machine the client's CPU — reading a thousand streams — is taken from the
# server: the example prints both processes' CPU for each run (and this script
# PostgreSQL's, over each whole test). The open-file limit is raised for both
# (as far as the hard limit allows; IDLE streams need IDLE descriptors in each
# process). Prints each run's output and a summary
# table beside the project's targets (p99 under 50 ms at 1,000 spectators,
# under 20 KB per idle stream, at most 10% fewer moves/s with 1,000 watchers).
# Creates a SQLite file in a temporary directory and, with PG=1, the database
# qipan_live_bench (dropped first, dropped again on exit). Not part of the
# tests or CI.
#
# Environment (defaults): TESTS ("fanout idle throughput"), SPECTATORS (1000),
# MOVES (200), PAUSE (20ms), IDLE (10000), IDLE_MATCHES (1), CONCURRENCY (64),
# WATCHERS (1000), DURATION (20, seconds), WARMUP (3, seconds), ROUNDS (2),
# POOL (64, --database-pool), WORKERS (unset: qipan's default, one per core),
# CLIENT_THREADS (1), SQLITE (1: 0 skips SQLite), PG (0: 1 runs on PostgreSQL
# too), PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), PORT (18190),
# RUST_LOG (warn: request logs off).
set -euo pipefail
# The load generator is one client address: its budgets and connection cap
# (docs/configuration.md) would be measured instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/../.."

TESTS=${TESTS:-fanout idle throughput}
SPECTATORS=${SPECTATORS:-1000}
MOVES=${MOVES:-200}
PAUSE=${PAUSE:-20ms}
IDLE=${IDLE:-10000}
IDLE_MATCHES=${IDLE_MATCHES:-1}
CONCURRENCY=${CONCURRENCY:-64}
WATCHERS=${WATCHERS:-1000}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
ROUNDS=${ROUNDS:-2}
POOL=${POOL:-64}
CLIENT_THREADS=${CLIENT_THREADS:-1}
PG=${PG:-0}
SQLITE=${SQLITE:-1}
PORT=${PORT:-18190}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
export RUST_LOG=${RUST_LOG:-warn}
BENCH_DB=qipan_live_bench
PG_URL="postgres://$PGUSER@$PGHOST:$PGPORT"
if [[ -n ${WORKERS:-} ]]; then export QIPAN_WORKERS=$WORKERS; fi

need="curl jq"
if [[ $PG == 1 ]]; then need="curl jq psql"; fi
for tool in $need; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
if [[ $PG == 1 ]]; then psql -X -q -d postgres -c 'SELECT 1' >/dev/null; fi

# Every stream is a descriptor in the server and one in the client, and both
# inherit this shell's limit. Raise it as far as allowed.
want=$((IDLE > SPECTATORS + WATCHERS ? IDLE + 1024 : SPECTATORS + WATCHERS + 1024))
ulimit -n "$want" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
if (($(ulimit -n) < want)); then
    echo "open-file limit $(ulimit -n) (hard $(ulimit -Hn)) is below the $want these runs need;" \
        "lower IDLE or raise the hard limit" >&2
    exit 1
fi

cargo build --release --bin qipan --bin live_load

tmp=$(mktemp -d)
server_pid=
# shellcheck source=lib/server.sh
source "perf/scripts/lib/server.sh"

cleanup() {
    stop_server_if_any
    if [[ $PG == 1 ]]; then
        psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $BENCH_DB WITH (FORCE)" >/dev/null 2>&1 || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A fresh, empty database for a backend: its URL.
fresh_db() {
    case $1 in
    sqlite)
        rm -f "$tmp"/live.db*
        echo "sqlite:$tmp/live.db"
        ;;
    postgres)
        psql -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP DATABASE IF EXISTS $BENCH_DB WITH (FORCE)" -c "CREATE DATABASE $BENCH_DB" >&2
        echo "$PG_URL/$BENCH_DB"
        ;;
    esac
}

# shellcheck source=lib/cpu.sh
source "perf/scripts/lib/cpu.sh"

# Stops the server and shows what it logged (warnings and errors only, by
# default).
stop_and_show_log() {
    stop_server
    if [[ -s $tmp/qipan-$PORT.log ]]; then
        echo "  server log (last lines):"
        tail -5 "$tmp/qipan-$PORT.log" | sed 's/^/    /'
    fi
}

# Runs one test on a fresh server and database; keeps its JSON line in
# $tmp/<backend>-<test>.json. On PostgreSQL, also prints the CPU the database
# used over the whole test, setup and pauses included (the example reports
# qipan's and its own over the measured windows).
run_test() {
    local backend=$1 test=$2 url before_pg after_pg start end
    shift 2
    url=$(fresh_db "$backend")
    start_server "$PORT" "$url" --database-pool "$POOL"
    echo "-- $test (server pid $server_pid, $url)"
    before_pg=$(pg_ticks) start=$(date +%s.%N)
    target/release/live_load --url "http://127.0.0.1:$PORT" --server-pid "$server_pid" \
        --threads "$CLIENT_THREADS" --label "$backend" "$test" "$@" | tee "$tmp/$backend-$test.out"
    end=$(date +%s.%N)
    grep '^{' "$tmp/$backend-$test.out" >"$tmp/$backend-$test.json"
    stop_and_show_log
    if [[ $backend == postgres ]]; then
        sleep 0.5
        after_pg=$(pg_ticks)
        awk -v t=$((after_pg - before_pg)) -v a="$start" -v b="$end" -v hz="$HZ" 'BEGIN {
            printf "  postgres cpu %.2f cores over the whole test (%.1f s)\n", t / hz / (b - a), b - a }'
    fi
}

field() {
    local f=$tmp/$1.json
    [[ -f $f ]] || { echo -; return; }
    jq -r "$2 // \"-\"" "$f" 2>/dev/null || echo -
}

echo "== machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo);" \
    "open files $(ulimit -n); qipan $(target/release/qipan --version 2>/dev/null || echo '?')"
if [[ $PG == 1 ]]; then
    echo "== PostgreSQL $(psql -X -At -d postgres -c 'SHOW server_version') at $PGHOST:$PGPORT"
fi

backends=
if [[ $SQLITE == 1 ]]; then backends=sqlite; fi
if [[ $PG == 1 ]]; then backends="$backends postgres"; fi
if [[ -z $backends ]]; then echo "SQLITE=0 and PG=0: nothing to run" >&2; exit 1; fi
for backend in $backends; do
    echo
    echo "== $backend"
    for test in $TESTS; do
        case $test in
        fanout)
            run_test "$backend" fanout --spectators "$SPECTATORS" --moves "$MOVES" --pause "$PAUSE"
            ;;
        idle)
            run_test "$backend" idle --streams "$IDLE" --matches "$IDLE_MATCHES"
            ;;
        throughput)
            run_test "$backend" throughput --concurrency "$CONCURRENCY" --watchers "$WATCHERS" \
                --duration "${DURATION}s" --warmup "${WARMUP}s" --rounds "$ROUNDS"
            ;;
        *)
            echo "unknown test $test (fanout, idle, throughput)" >&2
            exit 1
            ;;
        esac
    done
done

echo
echo "== summary"
row() { printf '%-44s' "$1"; shift; printf ' %14s' "$@"; printf '\n'; }
# shellcheck disable=SC2086
row measure $backends target
cols() {
    local b out=()
    for b in $backends; do out+=("$(field "$b-$1" "$2")"); done
    echo "${out[@]}"
}
# shellcheck disable=SC2046
{
    row "fan-out p50 ms ($SPECTATORS spectators)" $(cols fanout .p50_ms) -
    row "fan-out p90 ms" $(cols fanout .p90_ms) -
    row "fan-out p99 ms" $(cols fanout .p99_ms) "< 50"
    row "fan-out max ms" $(cols fanout .max_ms) -
    row "fan-out events missing (of $((SPECTATORS * MOVES)))" $(cols fanout .missing) 0
    row "fan-out play p99 ms (the player)" $(cols fanout .play_p99_ms) -
    row "fan-out server cpu cores" $(cols fanout .server_cpu_cores) -
    row "idle KB per stream ($IDLE streams)" $(cols idle .kb_per_stream) "< 20"
    row "idle KB per stream, second half" $(cols idle .kb_per_stream_marginal) -
    row "idle server cpu cores (keep-alives)" $(cols idle .idle_server_cpu_cores) -
    row "moves/s, no watchers (mean of $ROUNDS)" $(cols throughput .moves_per_s_without) -
    row "moves/s, $WATCHERS watchers (mean of $ROUNDS)" $(cols throughput .moves_per_s_with) -
    row "ratio with / without" $(cols throughput .ratio) ">= 0.90"
    row "ratio per round" $(cols throughput '(.ratio_per_round | map(tostring) | join(","))') -
    row "server cpu ms per move, no watchers" $(cols throughput .server_cpu_ms_per_move_without) -
    row "server cpu ms per move, watchers" $(cols throughput .server_cpu_ms_per_move_with) -
    row "delivery p99 ms under load (worst run)" $(cols throughput .delivery_p99_ms_worst) -
    row "delivery events missing under load" $(cols throughput .delivery_missing) 0
}
