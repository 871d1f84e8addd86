#!/usr/bin/env bash
# Instructions per request, counted by callgrind: what the service executes
# to answer one request, a figure that does not depend on what else the
# machine is doing (unlike wrk's requests/s, see perf/scripts/loadtest.sh).
#
# Each measurement runs a release server (one worker) under
# `valgrind --tool=callgrind` twice: once answering WARM requests, once WARM
# + COUNT, all over one keep-alive connection (one curl); the difference of
# the two totals over COUNT is the cost of a request, start-up and shut-down
# cancelling out. The measurements, as in perf/scripts/loadtest.sh:
#
#   cached     GET /v1/xiangqi/{CODE}, one code (the view cache's hit path)
#   read       GET /v1/{game}/{code} over distinct codes, cache off
#   play       POST /v1/{game}/{code}/play of one legal move, distinct
#              positions
#   baseline   the same GETs and POSTs against fixed_json (perf/load/src/bin/fixed_json.rs, an
#              actix-web handler answering fixed bytes of the same size)
#   match      POST /v1/matches/{id}/play of one move in a 2048 solo match
#              (sqlite, a file), the line of perf/load/src/bin/match_line.rs
#              (seed 7); the matches are all created first, before the
#              counted moves, as many in the WARM run as in the other
#
# The positions come from perf/load/src/bin/positions.rs (seed 7, as loadtest.sh).
# With PROFILE=1 both runs' callgrind files are kept in OUT (default
# /tmp/request-cost): NAME.out and NAME.warm.out, whose difference, function
# by function, is what COUNT requests cost (perf/scripts/request-profile.py).
#
#   bash perf/scripts/request-cost.sh
#
# Environment (defaults): GAMES ("xiangqi gomoku"), WHAT ("cached read
# play match"), COUNT (2000), WARM (200), CODE (a xiangqi middlegame),
# CARGO_TARGET_DIR (target), BUILD (1: build first), PROFILE (0), OUT, PORT
# (18090: two runs at once need two).
set -euo pipefail
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0 QIPAN_WORKERS=1 RUST_LOG=warn

cd "$(dirname "$0")/../.."

GAMES=${GAMES:-xiangqi gomoku}
WHAT=${WHAT:-cached read play match}
COUNT=${COUNT:-2000}
WARM=${WARM:-200}
CODE=${CODE:-VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o}
BIN=${CARGO_TARGET_DIR:-target}/release
PROFILE=${PROFILE:-0}
OUT=${OUT:-/tmp/request-cost}
PORT=${PORT:-18090}

command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
if [[ ${BUILD:-1} == 1 ]]; then
    cargo build --release --locked --bins
fi
mkdir -p "$OUT"

tmp=$(mktemp -d)
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to 60 s (valgrind starts slowly) for the server to answer.
wait_for() {
    for _ in $(seq 600); do
        curl -fsS --max-time 2 -o /dev/null "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "no answer from $1" >&2
    return 1
}

# Writes a curl config of requests $3.. $4 (line numbers, from 1) of the
# positions file $2 in mode $1 (read, play, cached) to stdout.
requests() {
    local mode=$1 file=$2 from=$3 to=$4 game=$5
    local first=1
    sed -n "${from},${to}p" "$file" | while read -r code action; do
        # Requests are separated by `next` (curl refuses one at the end).
        [[ $first == 1 ]] || printf 'next\n'
        first=0
        case $mode in
            cached) printf 'url = "http://127.0.0.1:%s/v1/xiangqi/%s"\n' "$PORT" "$CODE" ;;
            read) printf 'url = "http://127.0.0.1:%s/v1/%s/%s"\n' "$PORT" "$game" "$code" ;;
            play)
                printf 'url = "http://127.0.0.1:%s/v1/%s/%s/play"\n' "$PORT" "$game" "$code"
                printf 'header = "content-type: application/json"\n'
                printf 'data = "{\\"actions\\": [\\"%s\\"]}"\n' "$action"
                ;;
        esac
        printf 'output = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n'
    done
}

# Creates the matches of the line file $1 (perf/load/src/bin/match_line.rs)
# and prints its moves as `id token move`, one a line.
create_matches() {
    local id= token= word seed
    while read -r word seed; do
        if [[ $word == new ]]; then
            read -r id token < <(curl -fsS -X POST -H 'content-type: application/json' \
                -d "{\"game\": \"2048\", \"seed\": $seed}" \
                "http://127.0.0.1:$PORT/v1/matches" |
                python3 -c 'import json, sys; v = json.load(sys.stdin); print(v["id"], v["token"])')
        else
            printf '%s %s %s\n' "$id" "$token" "$word"
        fi
    done <"$1"
}

# A curl config of the first $2 moves of the file $1 (`id token move`).
match_requests() {
    local first=1
    head -n "$2" "$1" | while read -r id token move; do
        [[ $first == 1 ]] || printf 'next\n'
        first=0
        printf 'url = "http://127.0.0.1:%s/v1/matches/%s/play"\n' "$PORT" "$id"
        printf 'header = "content-type: application/json"\n'
        printf 'header = "authorization: Bearer %s"\n' "$token"
        printf 'data = "{\\"actions\\": [\\"%s\\"]}"\n' "$move"
        printf 'output = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n'
    done
}

# Total instructions of one server run under callgrind answering the first
# $1 requests. Arguments: the count, the mode, the positions file, the game,
# the callgrind output file, then the server's command.
instructions() {
    local n=$1 mode=$2 file=$3 game=$4 out=$5
    shift 5
    # A match run starts on an empty database; a read of a code needs none.
    local probe
    if [[ $mode == match ]]; then
        rm -f "$tmp"/cost.db*
        probe=/healthz
    else
        probe="/v1/$game/$(head -n 1 "$file" | cut -d' ' -f1)"
    fi
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >"$tmp/server.log" 2>&1 &
    server_pid=$!
    # An answer both servers give (fixed_json has no /healthz).
    wait_for "http://127.0.0.1:$PORT$probe" || {
        cat "$tmp/server.log" >&2
        return 1
    }
    if [[ $mode == match ]]; then
        # Each line of $file becomes `id token move`.
        create_matches "$file" >"$tmp/moves.txt"
        match_requests "$tmp/moves.txt" "$n" >"$tmp/requests.cfg"
    else
        requests "$mode" "$file" 1 "$n" "$game" >"$tmp/requests.cfg"
    fi
    local codes
    codes=$(curl -sS -K "$tmp/requests.cfg" | sort | uniq -c)
    if [[ $codes != *" $n 200" ]]; then
        echo "not all $n answers were 200: $codes" >&2
        return 1
    fi
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    run_total "$out"
}

# The instructions of callgrind file $1, less quanta's clock calibration:
# it runs once a process and spins for a set time, not a set count, so its
# instructions change from run to run (by thousands a request over COUNT)
# and belong to no request.
run_total() {
    local total calibration
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$1")
    calibration=$(callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk '/quanta::Calibration::calibrate/ { gsub(",", "", $1); print $1; exit }')
    echo $((total - ${calibration:-0}))
}

# Prints the instructions per request of a server command (after --) for
# mode $1 over positions file $2 of game $3; $4 names the line.
measure() {
    local mode=$1 file=$2 game=$3 name=$4
    shift 5
    local warm total
    warm=$(instructions "$WARM" "$mode" "$file" "$game" "$OUT/$name.warm.out" "$@")
    total=$(instructions $((WARM + COUNT)) "$mode" "$file" "$game" "$OUT/$name.out" "$@")
    [[ $PROFILE == 1 ]] || rm -f "$OUT/$name.out" "$OUT/$name.warm.out"
    awk -v n="$name" -v w="$warm" -v t="$total" -v c="$COUNT" \
        'BEGIN { printf "%-22s %9.0f instructions/request\n", n, (t - w) / c }'
}

qipan() {
    echo "$BIN/qipan" --addr "127.0.0.1:$PORT" --database-url none "$@"
}

for game in $GAMES; do
    "$BIN/positions" "$game" $((WARM + COUNT)) 7 >"$tmp/$game.txt"
done
"$BIN/match_line" $((WARM + COUNT)) 7 >"$tmp/match-line.txt"
first=${GAMES%% *}

if [[ " $WHAT " == *" cached "* ]]; then
    # shellcheck disable=SC2046
    measure cached "$tmp/$first.txt" xiangqi "cached-read" -- $(qipan)
    curl_body=$tmp/cached.json
    "$BIN/qipan" --addr "127.0.0.1:$PORT" --database-url none >"$tmp/plain.log" 2>&1 &
    server_pid=$!
    wait_for "http://127.0.0.1:$PORT/healthz"
    curl -fsS -o "$curl_body" "http://127.0.0.1:$PORT/v1/xiangqi/$CODE"
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    measure cached "$tmp/$first.txt" xiangqi "cached-baseline" -- \
        "$BIN/fixed_json" "127.0.0.1:$PORT" "$curl_body"
fi

for game in $GAMES; do
    for mode in read play; do
        [[ " $WHAT " == *" $mode "* ]] || continue
        # shellcheck disable=SC2046
        measure "$mode" "$tmp/$game.txt" "$game" "$game-$mode" -- $(qipan --cache-mb 0)
        # The baseline answers with qipan's bytes for the first position.
        "$BIN/qipan" --addr "127.0.0.1:$PORT" --database-url none --cache-mb 0 \
            >"$tmp/plain.log" 2>&1 &
        server_pid=$!
        wait_for "http://127.0.0.1:$PORT/healthz"
        read -r code action < <(head -n 1 "$tmp/$game.txt")
        curl -fsS -o "$tmp/read.json" "http://127.0.0.1:$PORT/v1/$game/$code"
        curl -fsS -o "$tmp/play.json" -X POST -H 'content-type: application/json' \
            -d "{\"actions\": [\"$action\"]}" "http://127.0.0.1:$PORT/v1/$game/$code/play"
        kill "$server_pid"
        wait "$server_pid" 2>/dev/null || true
        server_pid=
        measure "$mode" "$tmp/$game.txt" "$game" "$game-$mode-baseline" -- \
            "$BIN/fixed_json" "127.0.0.1:$PORT" "$tmp/read.json" "$tmp/play.json"
    done
done

if [[ " $WHAT " == *" match "* ]]; then
    # shellcheck disable=SC2046
    measure match "$tmp/match-line.txt" 2048 "2048-match-move" -- \
        "$BIN/qipan" --addr "127.0.0.1:$PORT" --database-url "sqlite:$tmp/cost.db"
fi
