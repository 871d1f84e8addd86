#!/usr/bin/env bash
# Chaos test of persisted moves: perf/load/src/bin/chaos_load.rs runs CONCURRENCY
# loops, each playing its own match one move per POST /v1/matches/{id}/play
# with If-Match (solo 2048 and xiangqi duels whose two seats the loop holds,
# taken in turn), and journals every move the service acknowledges (2xx)
# before counting it. Meanwhile the service is killed with kill -9 every
# INTERVAL seconds, KILLS times, and restarted on the same database after
# DOWNTIME seconds; the client lives across the kills, counting the requests
# that fail and reading its match again once the service is back. Then the
# load stops, the service is killed once more and restarted (so that every
# acknowledged move is read back from a process that never served it), and
# `chaos_load verify` checks the journal against it: every match's version
# is at least the last acknowledged one, every acknowledged move still in the
# kept history (the last 100) is there at its ply with the same action and
# resulting code, and a match stored at its last acknowledged version has the
# journaled state code. Once on a SQLite file, once on a fresh PostgreSQL
# database.
#
#   bash perf/scripts/chaos.sh
#
# Prints each backend's load and check output and a summary table: kills,
# acknowledged moves, verified (in the history), older than the history
# (version checked), missing or differing (must be 0), requests that failed,
# and per restart the time until the service answered /healthz and until the
# first acknowledged move. Exits 1 when an acknowledged move is missing or
# differs (the temporary directory with the journals is then kept). Creates
# the database qipan_chaos_<pid> (dropped on exit) and a SQLite file in a
# temporary directory. Not part of the tests or CI.
#
# Environment (defaults): CONCURRENCY (32), INTERVAL (5, seconds of load
# before each kill and after the last restart), KILLS (3), DOWNTIME (1,
# seconds between a kill and the restart), GAMES (2048,xiangqi), MAX_PLY
# (150: a loop leaves its match for a new one there), BACKENDS (sqlite
# postgres), PORT (18190 for SQLite, the next for PostgreSQL; the next free
# one is taken when busy), PG_URL (postgres://postgres@127.0.0.1:5432: the
# server, trust auth, on which the database is created), JOURNAL_FSYNC (0: 1
# syncs the journal after each move), KEEP (0: 1 keeps the temporary
# directory), RUST_LOG (warn).
set -euo pipefail
# The load is one client address: its budgets and connection cap (see
# docs/configuration.md) would refuse it.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/../.."

CONCURRENCY=${CONCURRENCY:-32}
INTERVAL=${INTERVAL:-5}
KILLS=${KILLS:-3}
DOWNTIME=${DOWNTIME:-1}
GAMES=${GAMES:-2048,xiangqi}
MAX_PLY=${MAX_PLY:-150}
BACKENDS=${BACKENDS:-sqlite postgres}
PORT=${PORT:-18190}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
PG_URL=${PG_URL%/}
JOURNAL_FSYNC=${JOURNAL_FSYNC:-0}
KEEP=${KEEP:-0}
export RUST_LOG=${RUST_LOG:-warn}
CHAOS_DB=qipan_chaos_$$

for tool in curl psql; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
if [[ " $BACKENDS " == *" postgres "* ]]; then
    psql -X -q -d "$PG_URL/postgres" -c 'SELECT 1' >/dev/null
fi

cargo build --release --locked --bin qipan --bin chaos_load
qipan=target/release/qipan
chaos=target/release/chaos_load

tmp=$(mktemp -d)
server_pid='' load_pid='' failed=0 db_created=0
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    if [[ -n $load_pid ]]; then
        kill -KILL "$load_pid" 2>/dev/null || true
        wait "$load_pid" 2>/dev/null || true
    fi
    if [[ -n $server_pid ]]; then
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ $db_created == 1 ]]; then
        psql -X -q -d "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $CHAOS_DB WITH (FORCE)" \
            >/dev/null 2>&1 || true
    fi
    if [[ $KEEP == 1 || $failed == 1 ]]; then
        echo "journals and logs kept in $tmp" >&2
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ms() { date +%s%3N; }

# The first port from $1 on which nothing listens.
free_port() {
    local port=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
        port=$((port + 1))
    done
    echo "$port"
}

# Starts qipan on a port and database URL, logging to $log; waits for
# /healthz. With a timeline file, writes `restart` and `up` lines to it.
start_server() {
    local port=$1 url=$2 timeline=${3:-}
    if [[ -n $timeline ]]; then echo "restart $(now_ms)" >>"$timeline"; fi
    "$qipan" serve --addr "127.0.0.1:$port" --database-url "$url" >>"$log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1500); do
        if curl -fsS --max-time 1 -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; then
            if [[ -n $timeline ]]; then echo "up $(now_ms)" >>"$timeline"; fi
            return 0
        fi
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.02
    done
    tail -20 "$log" >&2
    echo "qipan did not answer on port $port" >&2
    return 1
}

kill_server() {
    echo "kill $(now_ms)" >>"$1"
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

# One backend: load, kills, quiet kill, check. Leaves the check's JSON line
# in $tmp/<label>.json.
run_backend() {
    local label=$1 url=$2 port rc=0 timeline=$tmp/$1.timeline journal=$tmp/$1.journal
    port=$(free_port "$3")
    log=$tmp/qipan-$label.log
    : >"$timeline"
    echo "== $label ($url), port $port: $CONCURRENCY loops ($GAMES), kill -9 every ${INTERVAL} s," \
        "$KILLS times, ${DOWNTIME} s down"
    start_server "$port" "$url"
    local fsync=()
    if [[ $JOURNAL_FSYNC == 1 ]]; then fsync=(--fsync); fi
    "$chaos" load --url "http://127.0.0.1:$port" --journal "$journal" \
        --concurrency "$CONCURRENCY" --games "$GAMES" --max-ply "$MAX_PLY" "${fsync[@]}" \
        >"$tmp/$label.load" 2>&1 &
    load_pid=$!
    for k in $(seq "$KILLS"); do
        sleep "$INTERVAL"
        kill_server "$timeline"
        echo "  kill $k: $(grep -c $'^move\t' "$journal" || true) moves acknowledged so far"
        sleep "$DOWNTIME"
        start_server "$port" "$url" "$timeline"
    done
    sleep "$INTERVAL"
    kill -TERM "$load_pid" 2>/dev/null || true
    wait "$load_pid" || { echo "the load client failed" >&2; cat "$tmp/$label.load" >&2; return 1; }
    load_pid=
    echo "load-stopped $(now_ms)" >>"$timeline"
    cat "$tmp/$label.load"
    # Once more without load: what the check reads comes from a process
    # that never served these moves.
    kill_server "$timeline"
    start_server "$port" "$url" "$timeline"
    "$chaos" verify --url "http://127.0.0.1:$port" --journal "$journal" --timeline "$timeline" \
        --label "$label" >"$tmp/$label.verify" 2>&1 || rc=$?
    cat "$tmp/$label.verify"
    grep '^{' "$tmp/$label.verify" >"$tmp/$label.json" || true
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    local warnings
    warnings=$(grep -ciE ' (warn|error) ' "$log" || true)
    echo "  server log: $warnings warnings or errors"
    grep -iE ' (warn|error) ' "$log" | sed -E 's/^[^ ]+ +//' | sort | uniq -c | sort -rn | head -5 |
        sed 's/^/    /' || true
    if [[ $rc != 0 ]]; then
        echo "  CHECK FAILED ($label): acknowledged moves are missing or differ" >&2
        failed=1
    fi
}

for backend in $BACKENDS; do
    case $backend in
        sqlite) run_backend sqlite "sqlite:$tmp/chaos.db" "$PORT" ;;
        postgres)
            psql -X -q -d "$PG_URL/postgres" -c 'SET client_min_messages = warning' \
                -c "DROP DATABASE IF EXISTS $CHAOS_DB WITH (FORCE)" -c "CREATE DATABASE $CHAOS_DB"
            db_created=1
            run_backend postgres "$PG_URL/$CHAOS_DB" $((PORT + 1))
            psql -X -q -d "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $CHAOS_DB WITH (FORCE)"
            db_created=0
            ;;
        *) echo "unknown backend $backend (sqlite, postgres)" >&2; exit 2 ;;
    esac
done

field() { sed -nE "s/.*\"$2\":\"?([^,\"}]*)\"?[,}].*/\1/p" "$tmp/$1.json"; }

echo
echo "== summary: $CONCURRENCY loops ($GAMES), kill -9 every ${INTERVAL} s, ${DOWNTIME} s down;" \
    "times per restart in ms"
printf '%-9s %6s %9s %9s %7s %8s %9s %7s %-20s %-20s\n' backend kills acked verified older \
    missing unacked failed "answering /healthz" "first acked move"
for backend in $BACKENDS; do
    [[ -s $tmp/$backend.json ]] || { printf '%-9s (no result)\n' "$backend"; continue; }
    printf '%-9s %6s %9s %9s %7s %8s %9s %7s %-20s %-20s\n' "$backend" \
        "$(field "$backend" kills)+$(field "$backend" quiet_kills)" \
        "$(field "$backend" acked)" "$(field "$backend" verified)" "$(field "$backend" older)" \
        "$(( $(field "$backend" missing) + $(field "$backend" differ) + $(field "$backend" missing_matches) ))" \
        "$(field "$backend" unacked_landed)" "$(field "$backend" failed)" \
        "$(field "$backend" up_ms)" "$(field "$backend" first_move_ms)"
done
echo "kills: under load + once more before the check; verified: acknowledged moves found in the"
echo "kept history with the same action and code; older: beyond the last 100 moves, version checked;"
echo "missing: acknowledged moves (or created matches) missing or differing; unacked: writes that"
echo "landed although their answer was lost in a kill; failed: requests that failed (all kills)"
exit "$failed"
