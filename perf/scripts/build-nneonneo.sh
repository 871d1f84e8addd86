#!/usr/bin/env bash
# Builds the program that times nneonneo/2048-ai's execute_move, the THEIRS
# of perf/scripts/slide-vs-nneonneo.sh and the QIPAN_NNEONNEO of
# `cargo bench --bench twenty48`, from their source and our driver
# (perf/scripts/nneonneo-driver.cpp). Their code stays under /tmp; this
# repository carries none of it.
#
#   NNEONNEO_GIT=/path/to/2048-ai.git bash perf/scripts/build-nneonneo.sh
#   bash perf/scripts/build-nneonneo.sh /path/to/2048-ai.git
#
# The argument (or NNEONNEO_GIT) is a git directory holding nneonneo/2048-ai:
# a bare clone (`git clone --bare` of the nneonneo/2048-ai repository) or
# the .git of a working copy. The script extracts the commit REV of it into
# OUT/src with `git archive`, builds OUT/driver (their engine compiled into
# the driver, execute_move inlined: the form to compare with) and
# OUT/driver-linked (their 2048.cpp compiled apart and execute_move called
# through its exported symbol, as a program using their engine as a library
# does), and prints the first's path last, so that
#
#   THEIRS=$(bash perf/scripts/build-nneonneo.sh DIR | tail -n 1) bash perf/scripts/slide-vs-nneonneo.sh
#
# runs the comparison. The driver is built as slide_bench is: -O3, and with
# NATIVE=1 -march=native beside Rust's -C target-cpu=native. With NATIVE=1
# it also builds OUT/driver-callgrind, the first for -march=x86-64-v3 (AVX2,
# BMI2): valgrind 3.19 stops at the first AVX-512 instruction, which
# -march=native emits on a CPU that has them, and
# perf/scripts/slide-vs-nneonneo.sh counts instructions on this build (beside
# ours built with -C target-cpu=x86-64-v3) when it is there.
#
# Environment (defaults):
#   NNEONNEO_GIT  their git directory (required unless given as the argument)
#   REV           the commit to build (HEAD)
#   OUT           where their source and the driver go (/tmp/nneonneo-2048)
#   CXX           the C++ compiler (g++)
#   NATIVE        1: -march=native; 0: not (1)
set -euo pipefail

cd "$(dirname "$0")/../.."

git_dir=${1:-${NNEONNEO_GIT:-}}
[[ -n $git_dir ]] || {
    echo "name nneonneo/2048-ai's git directory: NNEONNEO_GIT=DIR or the first argument" >&2
    exit 1
}
REV=${REV:-HEAD}
OUT=${OUT:-/tmp/nneonneo-2048}
CXX=${CXX:-g++}
NATIVE=${NATIVE:-1}

command -v "$CXX" >/dev/null || { echo "$CXX is needed" >&2; exit 1; }
commit=$(git --git-dir="$git_dir" rev-parse --verify "$REV^{commit}") || {
    echo "$git_dir: no commit $REV" >&2
    exit 1
}

rm -rf "$OUT/src"
mkdir -p "$OUT/src"
git --git-dir="$git_dir" archive "$commit" | tar -x -C "$OUT/src"
for f in 2048.cpp 2048.h platdefs.h config.h; do
    [[ -f $OUT/src/$f ]] || { echo "$git_dir at $commit has no $f" >&2; exit 1; }
done

# -Wno-return-type: their main, renamed, has no return statement.
flags=(-std=c++11 -O3 -DNDEBUG -Wno-return-type)
if [[ $NATIVE == 1 ]]; then
    flags+=(-march=native)
fi
"$CXX" "${flags[@]}" -I "$OUT/src" -o "$OUT/driver" perf/scripts/nneonneo-driver.cpp
if [[ $NATIVE == 1 ]]; then
    "$CXX" "${flags[@]/-march=native/-march=x86-64-v3}" -I "$OUT/src" -o "$OUT/driver-callgrind" \
        perf/scripts/nneonneo-driver.cpp
fi
"$CXX" "${flags[@]}" -Dmain=nneonneo_main -c -o "$OUT/2048.o" "$OUT/src/2048.cpp"
"$CXX" "${flags[@]}" -DNNEONNEO_LINKED -I "$OUT/src" -o "$OUT/driver-linked" \
    perf/scripts/nneonneo-driver.cpp "$OUT/2048.o"
built="$OUT/driver, $OUT/driver-linked"
[[ $NATIVE == 1 ]] && built+=", $OUT/driver-callgrind (x86-64-v3)"
echo "nneonneo/2048-ai $commit, $CXX ${flags[*]}: $built" >&2
echo "$OUT/driver"
