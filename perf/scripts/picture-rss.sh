#!/usr/bin/env bash
# What drawing names in Chinese costs the service in memory: starts the release binary
# ($QIPAN_BIN, default target/release/qipan) on a fresh SQLite database, reads its resident
# memory at rest, then makes a duel whose players are named in Chinese, plays a few moves and
# draws the match's picture (PNG and SVG) at ten sizes; reads the memory again (VmRSS now,
# VmHWM the peak); then, where the binary serves them, draws the match's and a state's chat
# cards at eight sizes, and reads it once more.
#
#   bash perf/scripts/picture-rss.sh                    # this checkout's release binary
#   QIPAN_BIN=/tmp/qipan-before bash perf/scripts/picture-rss.sh   # another build, same steps
#
# Needs curl and jq.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
# shellcheck source=perf/scripts/lib/server.sh
source perf/scripts/lib/server.sh
trap 'stop_server_if_any; rm -rf "$tmp"' EXIT

port=${PORT:-18093}
base="http://127.0.0.1:$port"
start_server "$port" "sqlite://$tmp/qipan.db?mode=rwc"

memory() { grep -E '^(VmRSS|VmHWM)' "/proc/$server_pid/status" | tr -s ' \t' ' ' | paste -sd' '; }
echo "at rest:        $(memory)"

created=$(curl -fsS -X POST "$base/v1/matches" -H 'content-type: application/json' \
    -d '{"game": "xiangqi", "name": "柳大华"}')
id=$(jq -r .id <<<"$created")
red=$(jq -r .token <<<"$created")
invite=$(jq -r '.invites[0].invite' <<<"$created")
black=$(curl -fsS -X POST "$base/v1/matches/$id/join" -H 'content-type: application/json' \
    -d "{\"invite\": \"$invite\", \"name\": \"杨官璘\"}" | jq -r .token)
move() {
    curl -fsS -o /dev/null -X POST "$base/v1/matches/$id/play" -H "authorization: Bearer $1" \
        -H 'content-type: application/json' -d "{\"actions\": [\"$2\"]}"
}
move "$red" b2e2
move "$black" b9c7
move "$red" b0c2
code=$(curl -fsS "$base/v1/matches/$id" | jq -r .state.code)

fetch() { curl -sS -o /dev/null -w '%{http_code}' "$base$1"; }
for size in 240 360 480 600 720 840 960 1080 1200 1320; do
    fetch "/v1/matches/$id/picture.png?size=$size" >/dev/null
    fetch "/v1/matches/$id/picture.svg?size=$size" >/dev/null
done
echo "after pictures: $(memory)"
cards=$(fetch "/v1/matches/$id/card.png")
if [[ $cards == 200 ]]; then
    for size in 600 800 1000 1200 1400 1600 1800 2000; do
        fetch "/v1/matches/$id/card.png?size=$size" >/dev/null
        fetch "/v1/xiangqi/$code/card.png?size=$size&last=b0c2" >/dev/null
    done
fi
[[ $cards == 200 ]] && echo "after cards:    $(memory)" || echo "no cards (HTTP $cards)"
