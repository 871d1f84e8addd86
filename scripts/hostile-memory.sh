#!/usr/bin/env bash
# What one hostile client can make the server hold (issue 28): starts the release binary
# ($QIPAN_BIN, default target/release/qipan) on a fresh SQLite database and measures
#
#  1. resident memory (VmRSS) before, while and after one client sends a WebSocket frame
#     whose header declares 512 MiB and then streams its payload for 10 s;
#  2. the size of /metrics before and after 300 requests with made-up 2,000-character
#     methods;
#  3. the open-streams gauge while 2,000 SSE clients (from one address, all at once) open a
#     match's event stream, read its first event and close it (FIN), in a loop for a
#     minute; how many opens were refused (503) or failed, how long the gauge takes to
#     come back to zero after the last close, and the resident memory meanwhile.
#
#   bash scripts/hostile-memory.sh
#   QIPAN_BIN=/tmp/qipan-before bash scripts/hostile-memory.sh   # another build
#   SSE_SECONDS=10 bash scripts/hostile-memory.sh                # a shorter SSE loop
#
# Needs curl, jq and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
# shellcheck source=perf/scripts/lib/server.sh
source perf/scripts/lib/server.sh
trap 'stop_server_if_any; rm -rf "$tmp"' EXIT

port=${PORT:-18094}
base="http://127.0.0.1:$port"
# One address opens the 2,000 streams: the per-client cap is raised to hold them.
start_server "$port" "sqlite://$tmp/qipan.db?mode=rwc" \
    --max-connections-per-client 2100 --max-connections 10000

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$server_pid/status"; }
id=$(curl -fsS -X POST "$base/v1/matches" -H 'content-type: application/json' \
    -d '{"game": "xiangqi"}' | jq -r .id)

echo "== 1. a WebSocket frame declaring 512 MiB"
before=$(rss)
python3 - "$port" "$id" "$server_pid" <<'PY'
import socket, struct, sys, time, threading
port, match, pid = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])
s = socket.create_connection(("127.0.0.1", port))
s.sendall((f"GET /v1/matches/{match}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
head = b""
while b"\r\n\r\n" not in head:
    head += s.recv(4096)
got = []
def reader():
    while True:
        try:
            chunk = s.recv(65536)
        except OSError:
            break
        if not chunk:
            break
        got.append(chunk)
threading.Thread(target=reader, daemon=True).start()
s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", 512 << 20) + b"\0\0\0\0")
chunk, sent, peak, started = b" " * (1 << 20), 0, 0, time.time()
s.settimeout(1)
while time.time() - started < 10 and sent < (512 << 20):
    try:
        s.sendall(chunk)
        sent += len(chunk)
    except OSError:
        break
    peak = max(peak, rss())
peak = max(peak, rss())
data = b"".join(got)
close = data.find(b"\x88")
code = struct.unpack(">H", data[close + 2:close + 4])[0] if close >= 0 else None
print(f"client sent {sent >> 20} MiB of the frame; close code {code}; peak VmRSS {peak} kB")
PY
after=$(rss)
echo "VmRSS before ${before} kB, after ${after} kB"

echo "== 2. 300 requests with made-up methods"
size() { curl -fsS "$base/metrics" | wc -c; }
m0=$(size)
cat >"$tmp/methods.py" <<'PY'
import socket, sys
port = int(sys.argv[1])
for i in range(300):
    s = socket.create_connection(("127.0.0.1", port))
    method = f"M{i:03d}" + "X" * 1996
    s.sendall(f"{method} /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    while s.recv(65536):
        pass
    s.close()
PY
python3 "$tmp/methods.py" "$port"
m1=$(size)
echo "/metrics: ${m0} bytes before, ${m1} bytes after ($((m1 - m0)) bytes more); VmRSS $(rss) kB"
# The first unknown method adds the `other` series once; 300 more add nothing.
python3 "$tmp/methods.py" "$port"
m2=$(size)
echo "300 more: ${m2} bytes ($((m2 - m1)) bytes more)"

echo "== 3. 2,000 SSE clients opening and closing for ${SSE_SECONDS:-60} s"
gauge() {
    curl -fsS "$base/metrics" | awk '/^qipan_open_streams\{kind="match"\}/ { print $2 }'
}
python3 - "$port" "$id" "${SSE_SECONDS:-60}" "$server_pid" <<'PY'
import asyncio, sys, time
port, match, seconds, pid = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
stats = {"opened": 0, "refused": 0, "failed": 0}
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])
async def one():
    try:
        r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
    except (OSError, asyncio.TimeoutError):
        stats["failed"] += 1
        return
    try:
        w.write(f"GET /v1/matches/{match}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Accept: text/event-stream\r\n\r\n".encode())
        line = await asyncio.wait_for(r.readline(), 10)
        if line.startswith(b"HTTP/1.1 200"):
            stats["opened"] += 1
            await asyncio.wait_for(r.readuntil(b"event: sync"), 10)
        elif line.startswith(b"HTTP/1.1 503"):
            stats["refused"] += 1
        else:
            stats["failed"] += 1
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
        stats["failed"] += 1
    finally:
        w.close()  # a clean close: FIN
async def main():
    started, rounds, peak = time.time(), 0, rss()
    while time.time() - started < seconds:
        await asyncio.gather(*(one() for _ in range(2000)))
        rounds += 1
        peak = max(peak, rss())
    print(f"{rounds} rounds of 2,000: streams opened {stats['opened']}, refused 503 "
          f"{stats['refused']}, failed {stats['failed']}; peak VmRSS {peak} kB")
asyncio.run(main())
PY
closed=$(date +%s.%N)
while :; do
    g=$(gauge)
    if [[ ${g:-0} == 0 ]]; then
        echo "open-streams gauge back to 0 $(echo "$(date +%s.%N) - $closed" | bc) s after the last close"
        break
    fi
    if (($(echo "$(date +%s.%N) - $closed > 30" | bc))); then
        echo "open-streams gauge still $g 30 s after the last close"
        break
    fi
    sleep 0.1
done
echo "VmRSS $(rss) kB"
