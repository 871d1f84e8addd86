#!/usr/bin/env bash
# Makes the README's pictures with the service itself: a xiangqi middlegame
# drawn by /picture.png, and a screenshot of the playground (a duel, seen by
# black) taken in Debian's Chromium through playwright-core.
#
#   bash scripts/readme-images.sh        # writes docs/images/*.png
#
# Needs a release build, /usr/bin/chromium and `npm ci --prefix tests/browser`.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet
PORT=18093
BASE="http://127.0.0.1:$PORT"
./target/release/qipan --addr "127.0.0.1:$PORT" --database-url sqlite::memory: >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
for _ in $(seq 50); do curl -fs "$BASE/healthz" >/dev/null && break; sleep 0.1; done

START=VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM
MOVES='["h2e2","h9g7","h0g2","i9h9","i0h0","b9c7","b2b6","c6c5","h0h4","g6g5"]'
CODE=$(curl -fs -X POST "$BASE/v1/xiangqi/$START/play" -H 'content-type: application/json' \
  -d "{\"actions\": $MOVES}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
mkdir -p docs/images
curl -fs -o docs/images/xiangqi-middlegame.png "$BASE/v1/xiangqi/$CODE/picture.png?last=g6g5"
node scripts/readme-screenshot.mjs "$BASE" docs/images/playground.png
echo "wrote docs/images/xiangqi-middlegame.png and docs/images/playground.png"
