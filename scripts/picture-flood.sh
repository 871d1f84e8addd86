#!/usr/bin/env bash
# Another address's moves while one address floods picture renders (issue 28, item 7).
# Starts the release binary ($QIPAN_BIN, default target/release/qipan) on a fresh SQLite
# database with the default picture budget, and measures the latency of one player on
# 127.0.0.1 playing a solo 2048 match one move per request, as fast as it goes
# (perf/load match_load, one loop), four times back to back:
#
#  1. quiet: nothing else runs;
#  2. flood at the budget: 16 connections from 127.0.0.2 ask for PNG pictures of a xiangqi
#     position that the cache cannot hold (every request a new size between 1600 and
#     2048 px, flipped or not), each connection waiting out Retry-After when refused 429:
#     what the budget lets one address render;
#  3. hammer: the same 16 connections asking again at once after a 429 (at most
#     HAMMER_RPS requests a second in all, so the flooding client itself does not take
#     the machine's cores away from the server): the budget's refusals cost too;
#  4. quiet again.
#
# The machine may be busy with other work: the ratios of each loaded p99 to the quiet
# ones of the same run are the figures, not the milliseconds.
#
#   bash scripts/picture-flood.sh
#   SECONDS_EACH=30 bash scripts/picture-flood.sh
#   SERVER_FLAGS='--rate-pictures 0' bash scripts/picture-flood.sh   # no picture budget
#
# Needs curl and python3; builds nothing (cargo build --release first, which builds
# target/release/match_load too).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
# shellcheck source=perf/scripts/lib/server.sh
source perf/scripts/lib/server.sh
flooder=
trap '[[ -n $flooder ]] && kill "$flooder" 2>/dev/null; stop_server_if_any; rm -rf "$tmp"' EXIT

port=${PORT:-18095}
each=${SECONDS_EACH:-15}
hammer_rps=${HAMMER_RPS:-400}
load=${MATCH_LOAD_BIN:-target/release/match_load}
export RUST_LOG=warn
# The player's own budgets are lifted (it plays flat out); the picture budget is the
# default one, which is what is measured.
# shellcheck disable=SC2086 # SERVER_FLAGS is split into flags on purpose
start_server "$port" "sqlite://$tmp/qipan.db?mode=rwc" \
    --rate-writes 0 --rate-actions 0 --rate-creates 0 ${SERVER_FLAGS:-}

cat >"$tmp/flood.py" <<'PY'
import asyncio, random, signal, sys, time
port, mode, rps = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
code = "VVRWU1dFUjRRHEM2ODo8PgQDBQIGFBgABxMZGx8jJio"
stats = {"200": 0, "429": 0, "other": 0}
gap = 16 / rps  # each of the 16 connections' least time between two requests
async def conn(i):
    rng = random.Random(i)
    r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
    while True:
        size = rng.randint(1600, 2048)
        flip = rng.choice(["true", "false"])
        w.write(f"GET /v1/xiangqi/{code}/picture.png?size={size}&flip={flip} HTTP/1.1\r\n"
                "Host: 127.0.0.1\r\n\r\n".encode())
        sent = time.monotonic()
        head = await r.readuntil(b"\r\n\r\n")
        status = head[9:12].decode()
        length = retry = 0
        for line in head.split(b"\r\n"):
            k, _, v = line.partition(b":")
            if k.lower() == b"content-length":
                length = int(v)
            elif k.lower() == b"retry-after":
                retry = int(v)
        await r.readexactly(length)
        stats[status if status in stats else "other"] += 1
        if status == "429" and mode == "budget":
            await asyncio.sleep(retry)
        elif mode == "hammer":
            await asyncio.sleep(max(0.0, gap - (time.monotonic() - sent)))
async def main():
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    tasks = [asyncio.create_task(conn(i)) for i in range(16)]
    started = time.monotonic()
    await stop.wait()
    took = time.monotonic() - started
    for t in tasks:
        t.cancel()
    print(f"  flooder ({mode}): {stats['200']} pictures rendered ({stats['200'] / took:.1f}/s), "
          f"{stats['429']} refused 429 ({stats['429'] / took:.1f}/s), {stats['other']} other",
          flush=True)
asyncio.run(main())
PY

p99() { awk -F'"p99_ms":' 'NF > 1 { split($2, a, /[,}]/); print a[1] }'; }
play() {
    "$load" --url "http://127.0.0.1:$port" --concurrency 1 --duration "${each}s" \
        --warmup 2s --label "$1" >"$tmp/$1.out"
    grep -E "moves|latency|errors" "$tmp/$1.out" | sed 's/^/  /'
    p99 <"$tmp/$1.out"
}
flood() {
    python3 "$tmp/flood.py" "$port" "$1" "$hammer_rps" &
    flooder=$!
    sleep 1
}
unflood() {
    kill "$flooder"
    wait "$flooder" 2>/dev/null || true
    flooder=
}
cpu() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
ticks=$(getconf CLK_TCK)

echo "== 1. quiet"
q1=$(play quiet1 | tee /dev/stderr | tail -1)
echo "== 2. one address flooding pictures at its budget"
flood budget
c0=$(cpu)
f=$(play budget | tee /dev/stderr | tail -1)
c1=$(cpu)
unflood
echo "  server CPU meanwhile: $(echo "scale=2; ($c1 - $c0) / $ticks / ($each + 2)" | bc) cores"
echo "== 3. the same address asking again at once after each 429 (at most $hammer_rps/s)"
flood hammer
c0=$(cpu)
h=$(play hammer | tee /dev/stderr | tail -1)
c1=$(cpu)
unflood
echo "  server CPU meanwhile: $(echo "scale=2; ($c1 - $c0) / $ticks / ($each + 2)" | bc) cores"
echo "== 4. quiet again"
q2=$(play quiet2 | tee /dev/stderr | tail -1)
echo
echo "move p99: quiet ${q1} ms / ${q2} ms; flood at the budget ${f} ms" \
    "($(echo "scale=2; $f / (($q1 + $q2) / 2)" | bc)x the quiet mean);" \
    "hammer ${h} ms ($(echo "scale=2; $h / (($q1 + $q2) / 2)" | bc)x)"
