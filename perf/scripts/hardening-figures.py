#!/usr/bin/env python3
"""The figures of the hardening work, measured against the release binary in
one run, each beside a baseline measured in the same run:

1. slow bodies: clients on 127.0.0.2 open connections that announce a
   60,000-byte body for a stateless play and send 11 bytes of it; how many the service holds,
   how many it refuses at once, how many it cuts off with 408 (and when),
   and `/healthz` p99 from 127.0.0.1 (wrk) meanwhile, against `/healthz`
   p99 with no attack. Once with the defaults (64 connections per client),
   once with the per-client cap off, so that the body deadline alone
   defends;
2. creates from one client: POST /v1/matches as fast as one client can for
   DURATION seconds with the default budgets: how many 201, how many 429;
3. the batch budget: 1,000-action xiangqi batches (the horses back and
   forth) from one client, 16 at a time for DURATION seconds: how many 200,
   how many 429, and `/healthz` p99 from another address meanwhile;
4. shutdown: 48 requests in flight (PNG pictures, one worker), then
   SIGTERM: how many answered, how many refused, how long until exit.

   python3 perf/scripts/hardening-figures.py            # after cargo build --release

Needs wrk. Uses ports 18300-18304 and a SQLite file in a temporary
directory. Not part of the tests or CI. Environment: DURATION (10, seconds),
SLOW (1000, slow connections), QIPAN (target/release/qipan).
"""

import os
import re
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QIPAN = os.environ.get("QIPAN", os.path.join(ROOT, "target/release/qipan"))
DURATION = int(os.environ.get("DURATION", "10"))
SLOW = int(os.environ.get("SLOW", "1000"))
START = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM"
TMP = tempfile.mkdtemp(prefix="qipan-figures-")


def serve(port, *flags, database=True):
    """Starts qipan on `port` (on a fresh SQLite file, or with no database);
    returns the process once /healthz answers."""
    e = dict(os.environ, RUST_LOG="warn")
    db = "sqlite:" + os.path.join(TMP, f"q{port}.db") if database else "none"
    proc = subprocess.Popen(
        [QIPAN, "--addr", f"127.0.0.1:{port}", "--database-url", db, *flags],
        env=e,
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(TMP, f"q{port}.log"), "w"),
    )
    for _ in range(200):
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"qipan did not start on {port}")


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)


def request(port, method, path, body=None, source="127.0.0.1", timeout=10):
    """One request on its own connection: (status, body)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    s.sendall(head.encode() + b"\r\n" + (body or b""))
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, data.split(b"\r\n\r\n", 1)[-1]


def wrk_p99(port, path="/healthz", seconds=None, connections=8):
    """wrk on `path` from 127.0.0.1: (requests/s, p99 in ms, non-2xx)."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds or DURATION}s", "--latency",
         f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    p99 = float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, p99, int(bad.group(1)) if bad else 0


def slow_bodies(port, n):
    """Opens `n` slow-body connections from 127.0.0.2; returns a function
    that, called after the attack, gives (held, refused at once, cut off by
    408, seconds to the 408s, still open)."""
    socks, refused = [], 0
    started = time.monotonic()
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
            s.sendall(f"POST /v1/xiangqi/{START}/play HTTP/1.1\r\nHost: localhost\r\n"
                      "Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n"
                      '{"actions":'.encode())
            socks.append(s)
        except OSError:
            refused += 1
    # A connection over the cap is answered 503 at once and closed.
    time.sleep(0.5)
    held, early = [], 0
    for s in socks:
        r, _, _ = select.select([s], [], [], 0)
        if r:
            early += 1
            s.close()
        else:
            held.append(s)
    refused += early

    def result(wait):
        cut, when = 0, []
        deadline = time.monotonic() + wait
        pending = list(held)
        while pending and time.monotonic() < deadline:
            r, _, _ = select.select(pending, [], [], 0.2)
            for s in r:
                data = s.recv(4096)
                if data.startswith(b"HTTP/1.1 408"):
                    cut += 1
                    when.append(time.monotonic() - started)
                pending.remove(s)
                s.close()
        for s in pending:
            s.close()
        span = f"{min(when):.1f}-{max(when):.1f}" if when else "-"
        return len(held), refused, cut, span, len(pending)

    return result


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    rows = []

    # 1. Slow bodies, with the defaults and with the per-client cap off.
    for port, label, flags in [
        (18300, "defaults", []),
        (18304, "per-client cap off", ["--max-connections-per-client", "0"]),
    ]:
        proc = serve(port, *flags)
        _, base_p99, _ = wrk_p99(port, seconds=5)
        result = slow_bodies(port, SLOW)
        _, p99, bad = wrk_p99(port)
        held, refused, cut, span, left = result(20)
        stop(proc)
        rows.append(f"slow bodies ({label}): {SLOW} opened from one address: {held} held, "
                    f"{refused} refused 503 at once, {cut} cut off 408 at {span} s, {left} still open; "
                    f"/healthz p99 {p99:.2f} ms during (non-2xx {bad}) vs {base_p99:.2f} ms before")

    # 2. Creates from one client with the default budgets.
    proc = serve(18301)
    counts = {}
    end = time.monotonic() + DURATION
    while time.monotonic() < end:
        status, _ = request(18301, "POST", "/v1/matches", b'{"game": "2048", "seed": 1}')
        counts[status] = counts.get(status, 0) + 1
    stop(proc)
    rows.append(f"creates from one client in {DURATION} s: {counts.get(201, 0)} created (201), "
                f"{counts.get(429, 0)} refused (429), others {sum(v for k, v in counts.items() if k not in (201, 429))}")

    # 3. The batch budget: 1,000-action batches, 16 at a time.
    proc = serve(18302)
    batch = ('{"actions": [' + ",".join(['"h0g2"', '"h9g7"', '"g2h0"', '"g7h9"'] * 250) + "]}").encode()
    counts, lock = {}, threading.Lock()
    end = 0.0

    def hammer():
        while time.monotonic() < end:
            try:
                status, _ = request(18302, "POST", f"/v1/xiangqi/{START}/play", batch, source="127.0.0.3")
            except OSError:
                status = 0
            with lock:
                counts[status] = counts.get(status, 0) + 1

    _, base_p99, _ = wrk_p99(18302, seconds=5)
    end = time.monotonic() + DURATION
    threads = [threading.Thread(target=hammer) for _ in range(16)]
    for t in threads:
        t.start()
    _, p99, _ = wrk_p99(18302)
    for t in threads:
        t.join()
    stop(proc)
    rows.append(f"1,000-action batches, 16 at a time for {DURATION} s: {counts.get(200, 0)} played, "
                f"{counts.get(429, 0)} refused 429; /healthz p99 {p99:.2f} ms during vs {base_p99:.2f} ms before")

    # 4. Shutdown with requests in flight.
    proc = serve(18303, "--workers", "1", database=False)
    socks = []
    for i in range(48):
        s = socket.create_connection(("127.0.0.1", 18303))
        s.sendall(f"GET /v1/xiangqi/{START}/picture.png?size={1200 + i} HTTP/1.1\r\n"
                  f"Host: localhost\r\nConnection: close\r\n\r\n".encode())
        socks.append(s)
    signalled = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    answered = refused = dropped = 0
    for s in socks:
        s.settimeout(30)
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        if data.startswith(b"HTTP/1.1 200"):
            answered += 1
        elif data.startswith(b"HTTP/1.1 503"):
            refused += 1
        else:
            dropped += 1
        s.close()
    proc.wait(timeout=30)
    rows.append(f"SIGTERM with 48 picture requests in flight (one worker): {answered} answered 200, "
                f"{refused} refused 503, {dropped} dropped; exited {time.monotonic() - signalled:.1f} s after the signal")

    print()
    for r in rows:
        print("- " + r)


if __name__ == "__main__":
    try:
        main()
    finally:
        subprocess.run(["rm", "-rf", TMP])
