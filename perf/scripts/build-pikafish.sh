#!/usr/bin/env bash
# Builds Pikafish (the official-pikafish/Pikafish repository, the strongest
# open-source xiangqi engine) under /tmp, for perf/scripts/perft-vs-pikafish.sh,
# and prints the path of the binary on its last line. Nothing of Pikafish is
# kept in this repository: the script reads a clone of it, copies its
# source out under WORK, and builds it there.
#
#   bash perf/scripts/build-pikafish.sh PIKAFISH_GIT
#   PIKAFISH=$(bash perf/scripts/build-pikafish.sh PIKAFISH_GIT | tail -n 1) \
#       bash perf/scripts/perft-vs-pikafish.sh
#
# PIKAFISH_GIT is a git directory of the repository (a clone, or a bare
# mirror); REV (HEAD) the commit to build. The figures in docs/performance.md were
# measured at 97133eeb.
#
# Pikafish refuses `go perft` until its evaluation network is loaded, and no
# network file can be had here (nor is one needed: perft evaluates nothing).
# The copy under WORK is therefore built with the network check in
# `Engine::perft` removed: one line, `verify_network();`, in that function
# only. Everything else is built as its Makefile builds it, with the
# architecture ARCH (x86-64-bmi2 where the processor has BMI2, else
# x86-64-avx2, else x86-64; the same -march the Makefile picks for it).
#
# Environment (defaults): REV (HEAD), WORK (/tmp/pikafish), ARCH (see
# above), JOBS (nproc).
set -euo pipefail

git_dir=${1:?usage: build-pikafish.sh PIKAFISH_GIT (a git directory of official-pikafish/Pikafish)}
REV=${REV:-HEAD}
WORK=${WORK:-/tmp/pikafish}
JOBS=${JOBS:-$(nproc)}
if [[ -z ${ARCH:-} ]]; then
    flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
    if [[ $flags == *" bmi2"* ]]; then
        ARCH=x86-64-bmi2
    elif [[ $flags == *" avx2"* ]]; then
        ARCH=x86-64-avx2
    else
        ARCH=x86-64
    fi
fi

for tool in git make g++ tar; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
if [[ -d $git_dir/.git ]]; then
    git_dir=$git_dir/.git
fi
git --git-dir="$git_dir" rev-parse --verify --quiet "$REV^{commit}" >/dev/null ||
    { echo "$git_dir has no commit $REV" >&2; exit 1; }

rm -rf "$WORK"
mkdir -p "$WORK"
git --git-dir="$git_dir" archive "$REV" | tar -x -C "$WORK"

engine=$WORK/src/engine.cpp
# Remove the network check from Engine::perft alone: the first
# `verify_network();` after the function's signature.
awk '
    /Engine::perft\(/ { in_perft = 1 }
    in_perft && /verify_network\(\);/ { in_perft = 0; removed = 1; next }
    { print }
    END { if (!removed) exit 1 }
' "$engine" >"$engine.new" || {
    echo "no verify_network() call found in Engine::perft of $engine: the script needs updating for this revision" >&2
    exit 1
}
mv "$engine.new" "$engine"

# `all` builds the engine without the `net` target (which would download
# the network).
make -C "$WORK/src" -j"$JOBS" all ARCH="$ARCH" COMP=gcc >"$WORK/build.log" 2>&1 ||
    { tail -n 30 "$WORK/build.log" >&2; exit 1; }

binary=$WORK/src/pikafish
printf 'position startpos\ngo perft 3\nquit\n' | "$binary" | grep -q '^Nodes searched: 79666$' ||
    { echo "$binary does not count perft 3 from the start as 79666" >&2; exit 1; }
echo "built Pikafish $(git --git-dir="$git_dir" rev-parse --short "$REV") for $ARCH" >&2
echo "$binary"
