#!/usr/bin/env python3
"""Is play starved by analysis? One client plays moves in a solo gomoku
match (POST /v1/matches/{id}/play, one move a request, one after the
other) and we measure its latency twice: quiet, then while 4 other
clients each run 1-second analyses back to back
(GET /v1/quoridor/{code}/analysis?ms=1000). Prints p50/p99 of both runs
and the ratio of the p99s (the goal: at most 2).

    cargo build --release --bin qipan
    python3 scripts/analysis-vs-play.py

Starts target/release/qipan (QIPAN_BIN to use another) on 127.0.0.1:PORT
with a SQLite database in a temporary directory, its budgets off (the
clients share one address) and the search pool at its defaults
(--analysis-threads = cores - 1, --analysis-queue 8) unless
QIPAN_ANALYSIS_THREADS / QIPAN_ANALYSIS_QUEUE say otherwise. Environment
(defaults): MOVES (400, per run), ANALYSES (4), PORT (18190).
Not part of the tests or CI.
"""

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

MOVES = int(os.environ.get("MOVES", "400"))
ANALYSES = int(os.environ.get("ANALYSES", "4"))
PORT = int(os.environ.get("PORT", "18190"))
BIN = os.environ.get("QIPAN_BIN", "target/release/qipan")


def request(conn, method, path, body=None, token=None):
    headers = {}
    if body is not None:
        headers["content-type"] = "application/json"
    if token:
        headers["authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    res = conn.getresponse()
    data = res.read()
    return res.status, (json.loads(data) if data else None)


def legal(view):
    """The legal actions anywhere in a match answer."""
    if isinstance(view, dict):
        if "legal_actions" in view:
            return [a["action"] for a in view["legal_actions"]]
        for v in view.values():
            found = legal(v)
            if found is not None:
                return found
    return None


class Player:
    def __init__(self):
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT)
        self.new_match()
        self.n = 0

    def new_match(self):
        status, m = request(self.conn, "POST", "/v1/matches", {"game": "gomoku", "mode": "solo"})
        assert status == 201, (status, m)
        self.id, self.token, self.legal = m["id"], m["token"], legal(m)

    def move(self):
        """One move; its latency in seconds."""
        self.n += 1
        action = self.legal[(self.n * 7) % len(self.legal)]
        started = time.perf_counter()
        status, m = request(self.conn, "POST", f"/v1/matches/{self.id}/play", {"actions": [action]}, self.token)
        took = time.perf_counter() - started
        assert status in (200, 409), (status, m)
        self.legal = legal(m) if status == 200 else None
        if not self.legal:
            self.new_match()
        return took


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def run(player, label):
    for _ in range(20):
        player.move()
    times = [player.move() for _ in range(MOVES)]
    p50, p99 = percentile(times, 50) * 1000, percentile(times, 99) * 1000
    print(f"{label:<34} moves {MOVES:>4}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms", flush=True)
    return p99


def analyst(code, stop, counts, index):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    while not stop.is_set():
        status, _ = request(conn, "GET", f"/v1/quoridor/{code}/analysis?ms=1000")
        counts[index][status] = counts[index].get(status, 0) + 1
        if status == 503:
            time.sleep(0.2)


def main():
    env = dict(os.environ, QIPAN_RATE_CREATES="0", QIPAN_RATE_WRITES="0", QIPAN_RATE_ACTIONS="0",
               QIPAN_RATE_SEARCH="0", QIPAN_MAX_CONNECTIONS_PER_CLIENT="0", RUST_LOG="warn")
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [BIN, "--addr", f"127.0.0.1:{PORT}", "--database-url", f"sqlite:{tmp}/bench.db"],
            env=env, stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/qipan.log", "w"))
        try:
            for _ in range(100):
                try:
                    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=1)
                    if request(c, "GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                sys.exit("qipan did not start; see its log")
            player = Player()
            quiet = run(player, "quiet")
            c = http.client.HTTPConnection("127.0.0.1", PORT)
            code = request(c, "GET", "/v1/quoridor/start")[1]["code"]
            stop = threading.Event()
            counts = [{} for _ in range(ANALYSES)]
            threads = [threading.Thread(target=analyst, args=(code, stop, counts, i)) for i in range(ANALYSES)]
            for t in threads:
                t.start()
            time.sleep(1.5)
            busy = run(player, f"with {ANALYSES} concurrent 1 s analyses")
            stop.set()
            for t in threads:
                t.join()
            answered = {}
            for c in counts:
                for k, v in c.items():
                    answered[k] = answered.get(k, 0) + v
            print(f"analyses answered by status: {dict(sorted(answered.items()))}")
            print(f"p99 ratio (busy / quiet): {busy / quiet:.2f}")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
