#!/usr/bin/env python3
"""Where a request's instructions go, function by function.

perf/scripts/request-cost.sh with PROFILE=1 keeps two callgrind files for each
measurement: NAME.warm.out (the server answering WARM requests) and NAME.out
(WARM + COUNT). Start-up and shut-down are in both, so the difference of
each function's cost between them, over COUNT, is what one request spends
there. This prints the functions with the largest such cost, inclusive
(the function and what it calls) and self (the function alone), and, given a
second measurement (a baseline), the difference between the two.

    python3 perf/scripts/request-profile.py /tmp/request-cost/xiangqi-read 1000
    python3 perf/scripts/request-profile.py /tmp/request-cost/cached-read 1000 \\
        /tmp/request-cost/cached-baseline

Arguments: the measurement's path without `.out`, COUNT, and optionally a
baseline's path. Options: --self (sort by self cost), --top N (40),
--match TEXT (only functions whose name contains TEXT).
"""

import argparse
import os
import re
import subprocess
import sys

LINE = re.compile(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*?)(?: \[[^\]]*\])?$")


def costs(path, inclusive):
    """Instructions by function name, as callgrind_annotate prints them."""
    out = subprocess.run(
        [
            "callgrind_annotate",
            f"--inclusive={'yes' if inclusive else 'no'}",
            "--threshold=100",
            path,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    table = {}
    started = False
    for line in out.splitlines():
        if "file:function" in line:
            started = True
            continue
        m = LINE.match(line) if started else None
        if m:
            name = m.group(2)
            table[name] = table.get(name, 0) + int(m.group(1).replace(",", ""))
    return table


def per_request(base, count, inclusive):
    for path in (base + ".out", base + ".warm.out"):
        if not os.path.isfile(path):
            sys.exit(
                f"{path}: no such callgrind file; run PROFILE=1 bash perf/scripts/request-cost.sh "
                "first (it keeps NAME.out and NAME.warm.out in OUT, /tmp/request-cost by default)"
            )
    total = costs(base + ".out", inclusive)
    warm = costs(base + ".warm.out", inclusive)
    return {k: (total.get(k, 0) - warm.get(k, 0)) / count for k in set(total) | set(warm)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("measurement")
    parser.add_argument("count", type=float)
    parser.add_argument("baseline", nargs="?")
    parser.add_argument("--self", dest="own", action="store_true")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--match", default="")
    args = parser.parse_args()
    inclusive = not args.own
    ours = per_request(args.measurement, args.count, inclusive)
    theirs = per_request(args.baseline, args.count, inclusive) if args.baseline else {}
    rows = []
    for name in set(ours) | set(theirs):
        if args.match not in name:
            continue
        a, b = ours.get(name, 0.0), theirs.get(name, 0.0)
        key = a - b if args.baseline else a
        if abs(key) >= 20:
            rows.append((key, a, b, name))
    rows.sort(key=lambda r: -abs(r[0]))
    kind = "inclusive" if inclusive else "self"
    if args.baseline:
        print(f"{'ours-base':>9} {'ours':>8} {'base':>8}  function ({kind}, per request)")
        for key, a, b, name in rows[: args.top]:
            print(f"{key:9.0f} {a:8.0f} {b:8.0f}  {name[:160]}")
    else:
        print(f"{'ours':>8}  function ({kind}, per request)")
        for key, _, _, name in rows[: args.top]:
            print(f"{key:8.0f}  {name[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
