#!/usr/bin/env bash
# Property-based contract test: schemathesis (PyPI, pinned below) against a
# running qipan, every operation of openapi.yaml, every check.
#
#   bash scripts/schemathesis.sh
#   SEED=1 MAX_EXAMPLES=50 MIN_REQUESTS=0 bash scripts/schemathesis.sh   # a quick run
#   bash scripts/schemathesis.sh --include-path-regex '^/v1/matches'   # more `st run` options
#
# Installs schemathesis into a virtual environment (VENV, created if missing,
# reused if present), builds the debug binary (`cargo build --locked --bin
# qipan`: after `cargo test` nothing is left to build), starts
# `target/debug/qipan serve` on a free port with a throwaway SQLite file in a
# temporary directory and the per-client budgets off (schemathesis is one
# client), waits for /healthz, makes a few matches to test against (duels,
# joined and not, solo games, a resigned one), and runs schemathesis against
# the service's own /openapi.yaml: all four phases (the document's examples,
# coverage, fuzzing, and stateful sequences over the links schemathesis
# infers, since the document declares none), positive and negative data,
# `--checks all`. Then it stops the service with SIGTERM and removes the
# temporary directory, also on failure or Ctrl-C.
#
# Prints schemathesis's report, each failure with the curl line that
# reproduces it, the number of requests the service answered during the run
# (by its /metrics) and the service's warnings and errors. Exits non-zero on
# any failure or error schemathesis reports, when the service died, and when
# it answered fewer than MIN_REQUESTS requests. Reports (REPORTS) are left in
# REPORT_DIR.
#
# The run's configuration and hooks are written out below, each part with
# why. In short: parameters named `game`, `code`, `id` (match ids), `invite`,
# `actions`, … draw from dictionaries of real values part of the time, and
# requests on a match (or seek) the run knows carry one of its seat tokens
# (those of the matches made before the run, and every token an answer gives
# during it: create, join, fork, take, open seek), so that requests get past
# the 404s and 401s of random input. positive_data_acceptance is told the
# statuses of the documented refusals a schema cannot express (a code of
# another game, an illegal move, a stale If-Match, …). The hooks also work
# around three problems of schemathesis 4.32.5 on CPython 3.11 (they reach
# into its internals: mind them when changing SCHEMATHESIS_VERSION).
#
# No operation is left out; these need care:
#   GET /v1/matches/{id}/events, GET /v1/lobby/events and
#   GET /v1/lobby/seeks/{seek}/events are Server-Sent Events that never end
#   on their own: schemathesis reads a stream until STREAM_EVENTS events have
#   come or STREAM_TIMEOUT seconds have passed, then checks each event
#   against the `text/event-stream` schema (one event, its JSON data checked
#   through `contentSchema`).
#   GET /v1/matches/{id}/ws is a WebSocket upgrade. It is tested, but only
#   for its HTTP answers: schemathesis speaks plain HTTP (python-requests),
#   which cannot make the handshake (no `Sec-WebSocket-Key`, no frames), so
#   the `101` and the socket's messages are never exercised here
#   (tests/api/ws.rs covers them). Its requests get `426 not-a-websocket` (or
#   400, 404, 405 as documented), and 426 counts as the answer expected of a
#   request that fits the schema as well as of one that does not.
#
# Environment (defaults): SCHEMATHESIS_VERSION (4.32.5), VENV
# (target/schemathesis-venv), PYTHON (python3, to create VENV), MAX_EXAMPLES
# (250, per operation and phase), STATEFUL_STEPS (20, most calls in one
# stateful scenario), WORKERS (2), SEED (random, printed; it repeats the
# generated data, not the service's answers), REQUEST_TIMEOUT (10, seconds),
# STREAM_TIMEOUT (2, seconds), STREAM_EVENTS (1), MIN_REQUESTS (5000),
# REPORTS (junit,json), REPORT_DIR (target/schemathesis-report), RUST_LOG
# (info: the script reads the port from the service's "qipan listening" line,
# so keep qipan's info lines).
set -euo pipefail
# Schemathesis is one client address: its budgets and connection cap (see
# docs/configuration.md) would be tested instead of the service.
export QIPAN_RATE_CREATES=0 QIPAN_RATE_WRITES=0 QIPAN_RATE_ACTIONS=0
export QIPAN_MAX_CONNECTIONS_PER_CLIENT=0

cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=${SCHEMATHESIS_VERSION:-4.32.5}
VENV=${VENV:-target/schemathesis-venv}
PYTHON=${PYTHON:-python3}
MAX_EXAMPLES=${MAX_EXAMPLES:-250}
STATEFUL_STEPS=${STATEFUL_STEPS:-20}
WORKERS=${WORKERS:-2}
SEED=${SEED:-}
REQUEST_TIMEOUT=${REQUEST_TIMEOUT:-10}
STREAM_TIMEOUT=${STREAM_TIMEOUT:-2}
STREAM_EVENTS=${STREAM_EVENTS:-1}
MIN_REQUESTS=${MIN_REQUESTS:-5000}
REPORTS=${REPORTS:-junit,json}
REPORT_DIR=${REPORT_DIR:-target/schemathesis-report}
export RUST_LOG=${RUST_LOG:-info}

started=$SECONDS

# --- schemathesis, in its own virtual environment --------------------------
if [[ ! -x $VENV/bin/schemathesis ]] ||
    [[ $("$VENV/bin/schemathesis" --version 2>/dev/null) != *" $SCHEMATHESIS_VERSION" ]]; then
    echo "== installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
    if ! "$PYTHON" -m venv "$VENV"; then
        # Debian's python3 makes virtual environments only with python3-venv.
        if ! command -v apt-get >/dev/null; then
            echo "cannot make a virtual environment with $PYTHON -m venv" >&2
            exit 1
        fi
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
        rm -rf "$VENV"
        "$PYTHON" -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "schemathesis==$SCHEMATHESIS_VERSION"
fi
VENV=$(cd "$VENV" && pwd)
st=$VENV/bin/schemathesis
py=$VENV/bin/python
"$st" --version

# --- the service -----------------------------------------------------------
echo "== cargo build --locked --bin qipan"
cargo build --locked --bin qipan

tmp=$(mktemp -d)
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

target/debug/qipan serve --addr 127.0.0.1:0 --database-url "sqlite:$tmp/qipan.db" \
    >"$tmp/qipan.log" 2>&1 &
server_pid=$!

# Port 0: the service names the port it got in its "qipan listening" line.
addr=
for _ in $(seq 300); do
    addr=$(grep -o 'qipan listening addr=[0-9.:]*' "$tmp/qipan.log" | head -n1 | cut -d= -f2 || true)
    [[ -n $addr ]] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        cat "$tmp/qipan.log" >&2
        echo "the service did not start" >&2
        exit 1
    fi
    sleep 0.1
done
if [[ -z $addr ]]; then
    cat "$tmp/qipan.log" >&2
    echo "the service did not say where it listens (does RUST_LOG hide qipan's info lines?)" >&2
    exit 1
fi
base=http://$addr

# GET on the service, printing the body; fails on anything but 2xx.
http_get() {
    "$py" -c '
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
    sys.stdout.write(r.read().decode())
' "$1"
}

for _ in $(seq 100); do
    http_get "$base/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
http_get "$base/healthz" >/dev/null
echo "== qipan serves at $base"

# Requests the service has answered so far, by its own count: routed, and
# refused before routing.
requests_answered() {
    http_get "$base/metrics" | awk '
        /^qipan_(http_requests|refused_requests)_total[{ ]/ { n += $NF }
        END { printf "%d\n", n }'
}

# --- matches to test against ---------------------------------------------
# Writes fixtures.json (each match's seat tokens, for the hooks) and
# fixtures.toml (the dictionaries of match ids and open invites).
cat >"$tmp/fixtures.py" <<'PY'
import json
import sys
import urllib.request

base, out = sys.argv[1], sys.argv[2]


def call(path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


tokens, invites = {}, []


def match(body, join=False, moves=()):
    m = call("/v1/matches", body)
    seats = {m["seat"]: m["token"]}
    for invite in m["invites"]:
        if join:
            joined = call(f"/v1/matches/{m['id']}/join", {"invite": invite["invite"]})
            seats[joined["seat"]] = joined["token"]
        else:
            invites.append(invite["invite"])
    for seat, actions in moves:
        call(f"/v1/matches/{m['id']}/play", {"actions": actions}, seats[seat])
    tokens[m["id"]] = list(seats.values())
    return m["id"]


match({"game": "xiangqi"}, join=True, moves=[("red", ["h2e2"]), ("black", ["h9g7"])])
match({"game": "gomoku", "variant": "renju"}, join=True,
      moves=[("black", ["h8"]), ("white", ["h9"]), ("black", ["i8"])])
match({"game": "quoridor"})
# Timed duels with names: a Fischer one under way (its picture has clocks),
# and a correspondence one.
match({"game": "xiangqi", "name": "Lin", "clock": {"base": 600, "increment": 5}}, join=True,
      moves=[("red", ["h2e2"]), ("black", ["h9g7"]), ("red", ["h0g2"])])
match({"game": "gomoku", "name": "Wei", "clock": {"days": 3}})
match({"game": "gomoku", "seat": "white"})
match({"game": "2048", "seed": 42}, moves=[("solo", ["left", "up"])])
match({"game": "tetris", "seed": 7}, moves=[("solo", ["left", "hard"])])
over = match({"game": "xiangqi", "mode": "solo"}, moves=[("solo", ["h2e2", "h9g7"])])
call(f"/v1/matches/{over}/resign", token=tokens[over][0])

with open(f"{out}/fixtures.json", "w") as f:
    json.dump({"tokens": tokens}, f)
with open(f"{out}/fixtures.toml", "w") as f:
    f.write(f"[dictionaries.match-ids]\nvalues = {json.dumps(list(tokens))}\n\n")
    f.write(f"[dictionaries.invites]\nvalues = {json.dumps(invites)}\n")
print(f"{len(tokens)} matches, {len(invites)} open invites")
PY
echo "== matches to test against: $("$py" "$tmp/fixtures.py" "$base" "$tmp")"
before=$(requests_answered)

# --- the run ---------------------------------------------------------------
cat >"$tmp/hooks.py" <<'PY'
import ast
import itertools
import json
import os
import re
import threading

import schemathesis
import schemathesis.generation.dictionaries as _dictionaries
import schemathesis.specs.openapi.warnings as _warnings
from schemathesis.generation.meta import CoveragePhaseData

# CPython before 3.13 keeps the AST constructor's recursion depth in state
# the interpreter's threads share, so two threads parsing at once can fail
# with "SystemError: AST constructor recursion depth mismatch" (CPython
# gh-106905). Hypothesis parses source to describe lambdas while the
# workers generate data: parse one at a time.
_lock = threading.Lock()
_parse = ast.parse


def _serial_parse(*args, **kwargs):
    with _lock:
        return _parse(*args, **kwargs)


ast.parse = _serial_parse

# To sort dictionary entries into those that fit their parameter and those
# that do not, schemathesis builds a validator from the parameter's schema
# alone; when that schema has a `$ref` (the state code's `anyOf`), this fails
# with "Pointer '/x-bundled/…' does not exist" and stops the run. The only
# such parameter bound below is `code`, and every entry of `codes` fits it:
# take the entries as fitting when the validator cannot be built.
def _lenient(make_validator):
    def make(schema, validator_cls, *args, **kwargs):
        try:
            return make_validator(schema, validator_cls, *args, **kwargs)
        except Exception:
            return make_validator({}, validator_cls)

    return make


_dictionaries.make_validator = _lenient(_dictionaries.make_validator)
_warnings.make_validator = _lenient(_warnings.make_validator)

# Seat tokens by match (or seek) id: the matches made before the run, and
# every token an answer gives during it.
with open(os.environ["QIPAN_FIXTURES"]) as f:
    TOKENS = {key: list(value) for key, value in json.load(f)["tokens"].items()}
_turn = itertools.count()


@schemathesis.auth(refresh_interval=None)
class SeatToken:
    """One of the seat tokens of the match or seek in the path, if known
    (in turn, so both seats of a duel play), for operations that take one."""

    def get(self, case, context):
        if not case.operation.definition.raw.get("security"):
            return None
        parameters = case.path_parameters or {}
        key = parameters.get("id") or parameters.get("seek")
        seats = TOKENS.get(str(key).lower()) if key is not None else None
        return seats[next(_turn) % len(seats)] if seats else None

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def after_call(context, case, response):
    if response.status_code not in (200, 201):
        return
    try:
        body = json.loads(response.content)
    except ValueError:
        return
    if isinstance(body, dict) and isinstance(body.get("id"), str) and isinstance(body.get("token"), str):
        seats = TOKENS.setdefault(body["id"].lower(), [])
        if body["token"] not in seats:
            seats.append(body["token"])


# The coverage phase writes header values from [A-Za-z0-9] only, so it cannot
# write an entity tag (`"7"`, `*`) and fills `If-Match` with `0`, which the
# header's pattern refuses, in every request it makes, also those meant to
# fit the schema or to break it elsewhere (say, leave out Authorization).
# The service refuses that If-Match with 400 before anything else, so such a
# request would test nothing but the If-Match. Leave the header out of them
# (it is optional); the coverage requests about If-Match itself keep theirs.
@schemathesis.hook
def before_call(context, case, kwargs):
    meta = case.meta
    data = meta.phase.data if meta is not None else None
    if not isinstance(data, CoveragePhaseData) or not case.headers:
        return
    for parameter in case.operation.headers:
        if parameter.is_required or parameter.name == data.parameter:
            continue
        pattern = (parameter.definition.get("schema") or {}).get("pattern")
        value = case.headers.get(parameter.name)
        if pattern and value is not None and not re.search(pattern, str(value)):
            del case.headers[parameter.name]
PY
export QIPAN_FIXTURES=$tmp/fixtures.json

if [[ -z $SEED ]]; then
    SEED=$("$py" -c 'import secrets; print(secrets.randbits(64))')
fi

cat >"$tmp/schemathesis.toml" <<TOML
hooks = "$tmp/hooks.py"
seed = $SEED
workers = $WORKERS
request-timeout = $REQUEST_TIMEOUT

[generation]
mode = "all"
max-examples = $MAX_EXAMPLES
# No example database: a run is its seed alone.
database = "none"

[phases.stateful]
max-steps = $STATEFUL_STEPS

# No crash files kept between runs (the curl lines are the reproductions).
[cache]
enabled = false

# A request that breaks the schema must be refused; schemathesis's list of
# refusals lacks 413, the answer to a body over 65536 bytes (a batch of more
# than 1000 actions can be one).
[checks.negative_data_rejection]
expected-statuses = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429, "5xx"]

# Real values, drawn part of the time (the rest is generated as usual), so
# that requests get past "unknown game", "invalid code", "unknown match".
# The match ids and invites are those made before the run (fixtures.toml).
[dictionaries.games]
values = ["xiangqi", "gomoku", "2048", "quoridor", "tetris"]

[dictionaries.codes]
values = ["VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM", "AA", "AQ", "Ag", "BA", "AHB_", "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4", "BEyqAAAAAAAAAAAAAAAAAAAAAA", "AWKoAU6Aq1TNpY-77ohQAAMA"]

[dictionaries.actions]
values = ["h2e2", "h9g7", "h0g2", "b9c7", "h8", "h9", "i8", "j10", "a1", "up", "down", "left", "right", "e2", "e8", "e3h", "d5v", "cw", "ccw", "soft", "hard", "hold", "tick"]

[dictionaries.players]
values = ["red", "black", "white", "1", "2", "player"]

[dictionaries.variants]
values = ["standard", "freestyle", "renju"]

[dictionaries.static-files]
values = ["style.css", "index.html"]

[parameters]
"path.game" = { dictionary = "games", probability = 0.8 }
"path.code" = { dictionary = "codes", probability = 0.6 }
"path.id" = { dictionary = "match-ids", probability = 0.6 }
"path.path" = { dictionary = "static-files", probability = 0.5 }
"query.invite" = { dictionary = "invites", probability = 0.5 }
"query.last" = { dictionary = "actions", probability = 0.4 }
"query.bottom" = { dictionary = "players", probability = 0.5 }
"query.variant" = { dictionary = "variants", probability = 0.5 }
"body.invite" = { dictionary = "invites", probability = 0.5 }
"body.actions[*]" = { dictionary = "actions", probability = 0.6 }

# The event streams: one event is enough to check the stream's status, its
# headers and the event; then the stream is closed.
[[operations]]
include-path-regex = '/events\$'
request-timeout = $STREAM_TIMEOUT
max-stream-events = $STREAM_EVENTS

# A match's game is a plain string in the schema (an unknown one is answered
# with the list of games).
[[operations]]
include-operation-id = "createMatch"
parameters = { "body.game" = { dictionary = "games", probability = 0.8 }, "body.from" = { dictionary = "codes", probability = 0.3 } }

# positive_data_acceptance wants every request that fits the schema accepted
# (2xx, 3xx, 401, 403, 404, 409, 429, or 5xx, which not_a_server_error
# reports). The statuses added below are documented refusals that depend on
# more than one value, on the rules or on the match's state, which a schema
# cannot state: a state code of another game (the code schema is the union
# of the five games'), a variant, size, seed, format or picture side the
# game does not have, a \`last\` move or \`from\` code that does not fit, an
# invite sent in neither the body nor the query, a display name that is no
# SeatName (blank, or with a control character or a bidirectional override),
# a \`computer\` with neither level nor ms or for a one-player game or a solo
# match (400); a move that is not legal where it stands, a ply that is not kept
# (422); an If-Match naming a version the match is no longer at (412).
[[operations]]
include-operation-id = ["statePage", "start", "read", "export", "pictureSvg", "picturePng", "cardPng", "matchPictureSvg", "matchPicturePng", "matchCardPng", "createMatch", "openSeek", "takeSeek", "joinMatch", "declineInvite", "fumen", "analyse", "computerMove", "matchRecordPgn", "matchRecordXqf", "matchRecordPsq", "matchRecordTxt", "matchRecordJson", "matchReplayGif"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 400, 401, 403, 404, 409, 429, "5xx"]

# Imports read the text or file they are given (a fumen, a PGN, an XQF): a
# string the schema allows may still be no record (422), a file's type is
# its Content-Type (415); a search on a line must be given a line that
# leads to the code (422).
[[operations]]
include-operation-id = ["import", "importRecord", "analyseLine", "computerMoveLine"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 400, 401, 403, 404, 409, 413, 415, 422, 429, "5xx"]

[[operations]]
include-operation-id = "play"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 400, 401, 403, 404, 409, 422, 429, "5xx"]

[[operations]]
include-operation-id = "playMatch"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 401, 403, 404, 409, 412, 422, 429, "5xx"]

[[operations]]
include-operation-id = ["undoMatch", "acceptUndo", "declineUndo", "resignMatch", "inviteAgain", "withdrawInvites", "offerDraw", "acceptDraw", "declineDraw", "claimMatch"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 401, 403, 404, 409, 412, 429, "5xx"]

# Fork also refuses (400) a ply written with a fraction, \`2.0\`, which JSON
# Schema counts as an integer.
[[operations]]
include-operation-id = "forkMatch"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 400, 401, 403, 404, 409, 422, 429, "5xx"]

# The WebSocket upgrade: a plain HTTP request is never a handshake, so it is
# answered 426 whether or not it fits the schema.
[[operations]]
include-operation-id = "matchSocket"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", 401, 403, 404, 409, 426, 429, "5xx"]
checks.negative_data_rejection.expected-statuses = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 426, 428, 429, "5xx"]

TOML
cat "$tmp/fixtures.toml" >>"$tmp/schemathesis.toml"

mkdir -p "$REPORT_DIR"
REPORT_DIR=$(cd "$REPORT_DIR" && pwd)
# shellcheck disable=SC2054 # the commas are in --phases' value
cmd=("$st" --config-file "$tmp/schemathesis.toml" run "$base/openapi.yaml" --url "$base"
    --phases examples,coverage,fuzzing,stateful --checks all --mode all
    --report "$REPORTS" --report-dir "$REPORT_DIR" --no-color "$@")
echo "== ${cmd[*]}"
echo "   with $tmp/schemathesis.toml:"
sed 's/^/   | /' "$tmp/schemathesis.toml"

status=0
# From the temporary directory, where Hypothesis leaves its own files.
(cd "$tmp" && "${cmd[@]}") || status=$?
# Less the /metrics request that took `before` (none if the service died).
after=$(requests_answered) || after=$((before + 1))
requests=$((after - before - 1))

echo
echo "== the service answered $requests requests during the run"
echo "== wall time $((SECONDS - started)) s, schemathesis exit status $status (seed $SEED)"
if grep -qE ' (ERROR|WARN) ' "$tmp/qipan.log"; then
    echo "== the service's warnings and errors (the last 40):"
    grep -E ' (ERROR|WARN) ' "$tmp/qipan.log" | tail -n 40
fi
failed=0
if ((status != 0)); then
    echo "FAILED: schemathesis reports failures or errors (above: each failure ends with the curl line that reproduces it)" >&2
    failed=1
fi
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "FAILED: the service is no longer running" >&2
    failed=1
fi
if ((requests < MIN_REQUESTS)); then
    echo "FAILED: $requests requests, fewer than MIN_REQUESTS=$MIN_REQUESTS" >&2
    failed=1
fi
if ((failed)); then
    exit 1
fi
echo "OK: no failure in $requests requests"
