#!/usr/bin/env python3
"""How soon the computer's reply lands in a duel against it: for each search
time, N gomoku duels are created with `"computer": {"ms": …}`, the person
plays h8, and the match is read every 5 ms until the computer's move is
there. The time is from sending the move to reading the reply (the move's
own round trip included).

   python3 perf/scripts/computer-reply.py http://127.0.0.1:8080 [N]

against a running service with matches (any database).
"""

import json
import statistics
import sys
import time
import urllib.request


def request(base, method, path, body=None, token=None):
    req = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
    )
    if body is not None:
        req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as res:
        return json.load(res)


def main():
    base = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    for ms in (20, 200):
        waits = []
        for _ in range(n):
            m = request(base, "POST", "/v1/matches", {"game": "gomoku", "computer": {"ms": ms}})
            start = time.monotonic()
            request(base, "POST", f"/v1/matches/{m['id']}/play", {"actions": ["h8"]}, m["token"])
            while request(base, "GET", f"/v1/matches/{m['id']}")["ply"] < 2:
                time.sleep(0.005)
            waits.append((time.monotonic() - start) * 1000)
        waits.sort()
        print(
            f"ms={ms}: reply after median {statistics.median(waits):.0f} ms, "
            f"max {waits[-1]:.0f} ms ({n} duels)"
        )


if __name__ == "__main__":
    main()
