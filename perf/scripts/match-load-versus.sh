#!/usr/bin/env bash
# Persisted moves per second of this checkout beside an earlier commit's, in
# one run: builds REV's server in a git worktree under /tmp (its own target
# directory, kept for the next run), then plays ROUNDS rounds, each a run of
# perf/load/src/bin/match_load.rs against REV's server and one against this
# checkout's, alternating which goes first, on SQLite and then on
# PostgreSQL. Both servers face the same client, this checkout's: the
# client is the load, not what is measured (a client built from REV would
# parse REV's answers, which are not the same size). Prints each run, then
# the medians and the median of the rounds' ratios (this checkout / REV).
#
#   bash perf/scripts/match-load-versus.sh REV
#
# Client, server and database share the machine, as in
# perf/scripts/match-loadtest.sh (whose settings this takes: CONCURRENCY,
# DURATION, WARMUP, POOL, PG*); a round's two runs follow each other within
# seconds, so that a change in what else the machine does weighs on both.
# Not part of the tests or CI.
#
# Environment (defaults): ROUNDS (6), CONCURRENCY (64), DURATION (10,
# seconds), WARMUP (2, seconds), POOL (64), BASE_DIR (/tmp/qipan-versus):
# where REV's worktree and target directory go; PGHOST (127.0.0.1), PGPORT
# (5432), PGUSER (postgres), PORT (18190).
set -euo pipefail
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0 RUST_LOG=${RUST_LOG:-warn}

cd "$(dirname "$0")/../.."

rev=${1:?usage: match-load-versus.sh REV}
ROUNDS=${ROUNDS:-6}
CONCURRENCY=${CONCURRENCY:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
POOL=${POOL:-64}
PORT=${PORT:-18190}
BASE_DIR=${BASE_DIR:-/tmp/qipan-versus}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
BENCH_DB=qipan_versus
PG_URL="postgres://$PGUSER@$PGHOST:$PGPORT"

for tool in curl psql git; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
psql -X -q -d postgres -c 'SELECT 1' >/dev/null

commit=$(git rev-parse --verify "$rev^{commit}")
short=$(git rev-parse --short "$commit")
worktree=$BASE_DIR/$short
if [[ ! -d $worktree ]]; then
    mkdir -p "$BASE_DIR"
    git worktree add --detach "$worktree" "$commit" >/dev/null
fi
echo "== building $short in $worktree"
(cd "$worktree" && CARGO_TARGET_DIR=$BASE_DIR/target cargo build --release --locked --bin qipan)
cp "$BASE_DIR/target/release/qipan" "$BASE_DIR/qipan-$short"
echo "== building this checkout"
cargo build --release --locked --bin qipan --bin match_load

tmp=$(mktemp -d)
server_pid=
# shellcheck source=lib/server.sh
source "perf/scripts/lib/server.sh"

cleanup() {
    stop_server_if_any
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $BENCH_DB WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run LABEL BIN DATABASE: one run of the client against a fresh database;
# appends its moves per second to $tmp/DATABASE-LABEL.
run() {
    local label=$1 bin=$2 db=$3 url out mps
    if [[ $db == sqlite ]]; then
        rm -f "$tmp"/versus.db*
        url="sqlite:$tmp/versus.db"
    else
        psql -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP DATABASE IF EXISTS $BENCH_DB WITH (FORCE)" -c "CREATE DATABASE $BENCH_DB"
        url="$PG_URL/$BENCH_DB"
    fi
    QIPAN_BIN=$bin start_server "$PORT" "$url" --database-pool "$POOL"
    out=$(target/release/match_load --url "http://127.0.0.1:$PORT" \
        --concurrency "$CONCURRENCY" --duration "${DURATION}s" --warmup "${WARMUP}s" |
        grep '^{')
    stop_server
    mps=$(sed -nE 's/.*"moves_per_s":([^,}]*).*/\1/p' <<<"$out")
    errors=$(sed -nE 's/.*"errors":([^,}]*).*/\1/p' <<<"$out")
    printf '  %-10s %-8s %10s moves/s  %s errors\n' "$db" "$label" "$mps" "$errors"
    echo "$mps" >>"$tmp/$db-$label"
}

for db in sqlite postgres; do
    echo "== $db: $ROUNDS rounds, $CONCURRENCY concurrent, ${DURATION} s counted"
    for round in $(seq "$ROUNDS"); do
        if ((round % 2)); then
            run "$short" "$BASE_DIR/qipan-$short" "$db"
            run current target/release/qipan "$db"
        else
            run current target/release/qipan "$db"
            run "$short" "$BASE_DIR/qipan-$short" "$db"
        fi
    done
done

echo
echo "== summary: moves/s, medians of $ROUNDS rounds"
printf '%-10s %12s %12s %10s\n' database "$short" current ratio
for db in sqlite postgres; do
    paste "$tmp/$db-$short" "$tmp/$db-current" | awk -v db="$db" '
        function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
                t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
            }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        { base[NR] = $1; cur[NR] = $2; ratio[NR] = $2 / $1 }
        END { printf "%-10s %12.1f %12.1f %10.3f\n", db, median(base, NR), median(cur, NR), median(ratio, NR) }'
done
