#!/usr/bin/env bash
# Load test of the stateless API against a baseline: an actix-web handler
# that returns fixed bytes (perf/load/src/bin/fixed_json.rs) of the same size as
# qipan's answer. Both servers run release builds with the same worker
# count, on loopback only; wrk alternates between them, round by round, and
# the script prints requests/s of each and the ratio qipan/baseline for:
#
#   cached     GET /v1/xiangqi/{code}, one code (the view cache's hit path)
#   read       GET /v1/{game}/{code} over COUNT distinct codes, cache off
#   play       POST /v1/{game}/{code}/play of one legal move, COUNT distinct
#              positions (a play is never cached)
#   read-br    the uncached reads with `Accept-Encoding: br` (the baseline
#              sends its bytes uncompressed: the ratio is what compressing
#              each answer costs)
#
# for each game in GAMES. The positions come from perf/load/src/bin/positions.rs
# (random play from the start, a fixed seed). The baseline's body is qipan's
# answer for the first position of each list. It stops by itself and kills
# every server on exit.
#
#   bash perf/scripts/loadtest.sh
#
# Environment (defaults): GAMES ("xiangqi gomoku"), COUNT (3000), WHAT
# ("cached read play read-br"), CODE (the cached read's code: a xiangqi
# middlegame), WORKERS (1), CONNECTIONS (32), DURATION (10s), ROUNDS (2),
# RUST_LOG (warn: the baseline logs nothing, so qipan's request logs are off
# too; RUST_LOG=info measures them), PIN (1: pin the servers to CPU 0 and wrk
# to CPU 1 when taskset exists), CARGO_TARGET_DIR (target: where the
# binaries are), BUILD (1: build them first).
set -euo pipefail
# The load generator is one client address: its budgets and connection cap
# (docs/configuration.md) would be measured instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/../.."

GAMES=${GAMES:-xiangqi gomoku}
COUNT=${COUNT:-3000}
WHAT=${WHAT:-cached read play read-br}
CODE=${CODE:-VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o}
WORKERS=${WORKERS:-1}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-2}
PIN=${PIN:-1}
export RUST_LOG=${RUST_LOG:-warn}
CACHED_ADDR=127.0.0.1:18080
UNCACHED_ADDR=127.0.0.1:18082
BASE_PORT=18081

command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
command -v curl >/dev/null || (apt-get update && apt-get install -y curl)

BIN=${CARGO_TARGET_DIR:-target}/release
if [[ ${BUILD:-1} == 1 ]]; then
    cargo build --release --locked --bins
fi

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

# Starts a server in the background (pinned, logging to $tmp/$1.log).
start() {
    local name=$1
    shift
    QIPAN_WORKERS=$WORKERS "${server_pin[@]}" "$@" >"$tmp/$name.log" 2>&1 &
    pids+=($!)
}

start cached "$BIN"/qipan --addr "$CACHED_ADDR" --database-url none
start uncached "$BIN"/qipan --addr "$UNCACHED_ADDR" --database-url none \
    --cache-mb 0
wait_for "http://$CACHED_ADDR/healthz"
wait_for "http://$UNCACHED_ADDR/healthz"

# The wrk script: every request takes the next line of the positions file
# (`code action`), as a read or as a play of its action.
cat >"$tmp/cycle.lua" <<'EOF'
local game, mode, file, encoding = nil, nil, nil, nil
local lines, i = {}, 0
function init(args)
  game, mode, file, encoding = args[1], args[2], args[3], args[4]
  for line in io.lines(file) do
    local code, action = line:match("^(%S+) (%S+)$")
    lines[#lines + 1] = { code = code, action = action }
  end
end
function request()
  i = i % #lines + 1
  local p = lines[i]
  local headers = {}
  if encoding ~= "identity" then headers["Accept-Encoding"] = encoding end
  if mode == "play" then
    headers["Content-Type"] = "application/json"
    return wrk.format("POST", "/v1/" .. game .. "/" .. p.code .. "/play", headers,
      '{"actions": ["' .. p.action .. '"]}')
  end
  return wrk.format("GET", "/v1/" .. game .. "/" .. p.code, headers, nil)
end
EOF

# Runs wrk and prints its requests/s; fails on errors. Arguments: the URL,
# then the cycle script's arguments (none: one fixed GET).
run_wrk() {
    local url=$1 out
    shift
    local script=()
    if (($# > 0)); then
        script=(-s "$tmp/cycle.lua")
    fi
    out=$(timeout 120 "${wrk_pin[@]}" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency \
        "${script[@]}" "$url" ${1+-- "$@"})
    if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
        echo "$out" >&2
        echo "errors against $url" >&2
        return 1
    fi
    awk '/^Requests\/sec:/ { print $2 }' <<<"$out"
}

results=()

# Measures qipan at $1 (a base URL) against a fresh baseline answering
# files $3 (reads) and $4 (plays), both asked for path $2; the rest are
# run_wrk's arguments after the URL. Prints and records one result line
# named $5.
compare() {
    local qipan=$1$2 path=$2 read_body=$3 play_body=$4 name=$5
    shift 5
    local port=$((BASE_PORT))
    start "baseline-$name" "$BIN"/fixed_json "127.0.0.1:$port" \
        "$read_body" "$play_body"
    local baseline_pid=${pids[-1]}
    wait_for "http://127.0.0.1:$port/v1/xiangqi/x"
    DURATION=2s run_wrk "$qipan" "$@" >/dev/null
    DURATION=2s run_wrk "http://127.0.0.1:$port$path" "$@" >/dev/null
    local q_all=() b_all=() q b
    for round in $(seq "$ROUNDS"); do
        q=$(run_wrk "$qipan" "$@")
        b=$(run_wrk "http://127.0.0.1:$port$path" "$@")
        echo "  round $round  qipan $q req/s  baseline $b req/s"
        q_all+=("$q") b_all+=("$b")
    done
    kill "$baseline_pid"
    wait "$baseline_pid" 2>/dev/null || true
    local line
    line=$(awk -v n="$name" -v q="${q_all[*]}" -v b="${b_all[*]}" 'BEGIN {
        nq = split(q, qs, " "); nb = split(b, bs, " ")
        for (i = 1; i <= nq; i++) { sq += qs[i]; sb += bs[i] }
        printf "%-18s qipan %7.0f req/s  baseline %7.0f req/s  ratio %.3f",
            n, sq / nq, sb / nb, (sq / nq) / (sb / nb)
    }')
    echo "$line"
    results+=("$line")
}

echo "workers: $WORKERS; wrk -t1 -c$CONNECTIONS -d$DURATION; $ROUNDS rounds"

if [[ " $WHAT " == *" cached "* ]]; then
    curl -fsS --max-time 5 -o "$tmp/cached.json" "http://$CACHED_ADDR/v1/xiangqi/$CODE"
    echo "== cached read of one xiangqi code ($(wc -c <"$tmp/cached.json") bytes)"
    compare "http://$CACHED_ADDR" "/v1/xiangqi/$CODE" "$tmp/cached.json" "$tmp/cached.json" \
        "xiangqi cached"
fi

for game in $GAMES; do
    "$BIN"/positions "$game" "$COUNT" 7 >"$tmp/$game.txt"
    read -r code action < <(head -n 1 "$tmp/$game.txt")
    # The baseline answers with qipan's bytes for the first position.
    curl -fsS --max-time 5 -o "$tmp/$game-read.json" "http://$UNCACHED_ADDR/v1/$game/$code"
    curl -fsS --max-time 5 -o "$tmp/$game-play.json" -X POST \
        -H 'content-type: application/json' -d "{\"actions\": [\"$action\"]}" \
        "http://$UNCACHED_ADDR/v1/$game/$code/play"
    if [[ " $WHAT " == *" read "* ]]; then
        echo "== uncached reads of $COUNT $game codes ($(wc -c <"$tmp/$game-read.json") bytes)"
        compare "http://$UNCACHED_ADDR" / "$tmp/$game-read.json" "$tmp/$game-play.json" \
            "$game read" "$game" read "$tmp/$game.txt" identity
    fi
    if [[ " $WHAT " == *" play "* ]]; then
        echo "== stateless plays of $COUNT $game positions ($(wc -c <"$tmp/$game-play.json") bytes)"
        compare "http://$UNCACHED_ADDR" / "$tmp/$game-read.json" "$tmp/$game-play.json" \
            "$game play" "$game" play "$tmp/$game.txt" identity
    fi
    if [[ " $WHAT " == *" read-br "* ]]; then
        br=$(curl -fsS --max-time 5 -H 'accept-encoding: br' "http://$UNCACHED_ADDR/v1/$game/$code" | wc -c)
        echo "== uncached reads, brotli ($br bytes on the wire for the first)"
        compare "http://$UNCACHED_ADDR" / "$tmp/$game-read.json" "$tmp/$game-play.json" \
            "$game read br" "$game" read "$tmp/$game.txt" br
    fi
done

echo
printf '%s\n' "${results[@]}"
