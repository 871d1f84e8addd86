#!/usr/bin/env bash
# The 2048 slide of crates/rules beside nneonneo/2048-ai's execute_move, on
# the same boards, in one run: moves per second of each and the ratio
# ours/theirs, for these workloads (see crates/rules/examples/slide_bench.rs):
#
#   tight  every board × the four directions, over and over (throughput);
#   gains  ours' tight with the score each move gains summed too (theirs
#          has no score: set beside its tight);
#   chain  each move's result is the next move's board (latency).
#
#   bash perf/scripts/slide-vs-nneonneo.sh
#
# Their engine keeps a board in one u64, four bits a cell, and knows neither
# the score nor tiles above 32768; ours answers both, says when a move
# changes nothing, and holds tiles up to 131072. The boards (written by
# `slide_bench positions`) keep every tile at most 32768 and the tile sum
# below 65536, so both engines can slide them all alike; each side prints a
# check of its results and the script stops if they differ.
#
# THEIRS names a program that times nneonneo/2048-ai's execute_move (its
# tables initialised) on the same workloads: `THEIRS BOARDS PASSES CHAIN`
# reads the boards file (one board per line, as `slide_bench positions`
# writes it), and prints `tight <M moves/s> check=<hex>` (the wrapping sum
# of every board one tight pass makes, four directions a board, the board
# itself for a move that changes nothing) and `chain <M moves/s>
# final=<hex> restarts=<n>` (slide_bench's chain, restarting after eight
# moves or a no-op), as `slide_bench run` does. perf/scripts/build-nneonneo.sh
# builds such a program, perf/scripts/nneonneo-driver.cpp, from a git directory
# of their repository, under /tmp (this repository carries none of their
# code):
#
#   THEIRS=$(bash perf/scripts/build-nneonneo.sh DIR | tail -n 1) bash perf/scripts/slide-vs-nneonneo.sh
#
# The two programs run
# alternately, ROUNDS times each, and the medians are compared. With
# CALLGRIND=1 each program also runs once under valgrind's callgrind, which
# counts the instructions spent in the timed loops (stable where wall time
# on a busy machine is not; THEIRS must then name its loops tight_pass and
# chain). valgrind 3.19 cannot run code that uses AVX-512, which a native
# build on a CPU that has it does; with NATIVE=1 the counts are taken on
# builds for x86-64-v3 (AVX2, BMI2) instead: ours built with -C
# target-cpu=x86-64-v3 (in CARGO_TARGET_DIR-callgrind), theirs
# THEIRS_CALLGRIND.
#
# Environment (defaults):
#   THEIRS        the program timing their execute_move (required)
#   WORK          where the boards and copies of both programs go
#                 (/tmp/slide-vs-nneonneo)
#   COUNT, SEED   boards and the seed of the games they come from (4096, 1)
#   PASSES        tight passes over the boards, 4·COUNT moves each (2000)
#   CHAIN         chain moves (20000000)
#   ROUNDS        runs of each program (7)
#   NATIVE        1: -C target-cpu=native for ours (build THEIRS alike); 0: not (1)
#   CALLGRIND     1: also count instructions under callgrind (0)
#   THEIRS_CALLGRIND  the program whose instructions are counted for theirs
#                 (with NATIVE=1: the driver-callgrind beside THEIRS, which
#                 perf/scripts/build-nneonneo.sh builds for x86-64-v3, if there;
#                 else THEIRS)
#   CARGO_TARGET_DIR  where cargo builds slide_bench (/tmp/target-2048)
set -euo pipefail

cd "$(dirname "$0")/../.."

THEIRS=${THEIRS:?THEIRS must name the program timing nneonneo/2048-ai (see the header)}
[[ -x $THEIRS ]] || { echo "THEIRS=$THEIRS is not an executable" >&2; exit 1; }
WORK=${WORK:-/tmp/slide-vs-nneonneo}
COUNT=${COUNT:-4096}
SEED=${SEED:-1}
PASSES=${PASSES:-2000}
CHAIN=${CHAIN:-20000000}
ROUNDS=${ROUNDS:-7}
NATIVE=${NATIVE:-1}
CALLGRIND=${CALLGRIND:-0}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/target-2048}

for tool in cargo awk; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
if [[ $CALLGRIND == 1 ]]; then
    command -v valgrind >/dev/null || { echo "valgrind is needed for CALLGRIND=1" >&2; exit 1; }
fi

rustflags=${RUSTFLAGS:-}
if [[ $NATIVE == 1 ]]; then
    rustflags="$rustflags -C target-cpu=native"
fi

mkdir -p "$WORK"
cp "$THEIRS" "$WORK/theirs"

RUSTFLAGS="$rustflags" cargo build --quiet --release --locked -p qipan-rules --example slide_bench
ours=$CARGO_TARGET_DIR/release/examples/slide_bench
cp "$ours" "$WORK/ours"

"$WORK/ours" positions "$COUNT" "$SEED" >"$WORK/boards.txt"

# The copies callgrind runs, see the header.
cp "$WORK/ours" "$WORK/ours-callgrind"
cp "$THEIRS" "$WORK/theirs-callgrind"
if [[ $CALLGRIND == 1 && $NATIVE == 1 ]]; then
    CARGO_TARGET_DIR=$CARGO_TARGET_DIR-callgrind RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=x86-64-v3" \
        cargo build --quiet --release --locked -p qipan-rules --example slide_bench
    cp "$CARGO_TARGET_DIR-callgrind/release/examples/slide_bench" "$WORK/ours-callgrind"
    THEIRS_CALLGRIND=${THEIRS_CALLGRIND:-$(dirname "$THEIRS")/driver-callgrind}
    [[ -x $THEIRS_CALLGRIND ]] || THEIRS_CALLGRIND=$THEIRS
    cp "$THEIRS_CALLGRIND" "$WORK/theirs-callgrind"
fi

# One run of a program: "workload moves/s rest" lines, the key= prefixes
# of the checks dropped.
run() {
    if [[ $1 == ours ]]; then
        "$WORK/ours" run "$WORK/boards.txt" "$PASSES" "$CHAIN"
    else
        "$WORK/theirs" "$WORK/boards.txt" "$PASSES" "$CHAIN"
    fi | sed -e 's/check=//; s/final=//; s/restarts=//; s/sum=//'
}

declare -A speeds checks
for ((round = 1; round <= ROUNDS; round++)); do
    # Alternate which goes first, so that neither always runs on a machine
    # the other has just warmed or heated.
    if ((round % 2)); then order=(theirs ours); else order=(ours theirs); fi
    for who in "${order[@]}"; do
        out=$(run "$who")
        while read -r workload speed rest; do
            speeds[$who-$workload]+="$speed "
            checks[$who-$workload]=$rest
        done <<<"$out"
        echo "round $round $who: $(tr '\n' ' ' <<<"$out")" >&2
    done
    for workload in tight chain; do
        if [[ ${checks[ours-$workload]} != "${checks[theirs-$workload]}" ]]; then
            echo "the engines disagree on $workload: ours ${checks[ours-$workload]}," \
                "theirs ${checks[theirs-$workload]}" >&2
            exit 1
        fi
    done
done

median() {
    tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The ratio of each round's pair (run back to back, so under much the same
# load), then their median: steadier than the ratio of the medians when the
# machine's load drifts.
ratios() {
    paste -d ' ' <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) |
        awk '{ printf "%.2f ", $1 / $2 }'
}

echo
echo "theirs: $THEIRS; $COUNT boards (seed $SEED), $ROUNDS rounds each"
echo "ours: RUSTFLAGS='${rustflags# }' cargo build --release"
echo "checks agree: tight ${checks[ours-tight]}, chain ${checks[ours-chain]}"
printf '%-8s %10s %12s %12s   %s\n' workload 'ours M/s' 'theirs M/s' 'ours/theirs' \
    'the ratio of each round (the median of these is the ratio)'
# `gains` is ours' tight workload with the gains summed too; theirs has no
# gains and is set beside it with its tight figures.
for workload in tight gains chain; do
    theirs=$workload
    [[ $workload == gains ]] && theirs=tight
    o=$(median "${speeds[ours-$workload]}")
    t=$(median "${speeds[theirs-$theirs]}")
    r=$(ratios "${speeds[ours-$workload]}" "${speeds[theirs-$theirs]}")
    printf '%-8s %10s %12s %12.2f   %s\n' "$workload" "$o" "$t" "$(median "$r")" "$r"
done

if [[ $CALLGRIND == 1 ]]; then
    # Instructions per move in the timed functions: each workload is counted
    # at two sizes, and the difference divided by the difference in moves,
    # so that what runs once (the warm-up pass, a restart) cancels out.
    # Function names: slide_bench::tight_pass, ::gains_pass and ::chain
    # (Rust, demangled), tight_pass and chain (C++, extern "C").
    count_ir() { # function, passes, chain moves, then the command
        local out=$WORK/callgrind.out
        valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$1" \
            "${@:4}" "$2" "$3" >/dev/null 2>&1
        awk '/^(summary|totals):/ { print $2; exit }' "$out"
    }
    per_move() { # function, then the command
        local t1 t2 c1 c2
        if [[ $1 == *chain ]]; then
            c1=$(count_ir "$1" 0 1000000 "${@:2}")
            c2=$(count_ir "$1" 0 3000000 "${@:2}")
            awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.1f", (b - a) / 2000000 }'
        else
            t1=$(count_ir "$1" 10 0 "${@:2}")
            t2=$(count_ir "$1" 30 0 "${@:2}")
            awk -v a="$t1" -v b="$t2" -v n="$COUNT" 'BEGIN { printf "%.1f", (b - a) / (20 * 4 * n) }'
        fi
    }
    echo
    if [[ $NATIVE == 1 ]]; then
        echo "callgrind, instructions per move (ours for x86-64-v3, theirs ${THEIRS_CALLGRIND:-$THEIRS}):"
    else
        echo "callgrind, instructions per move:"
    fi
    echo "ours:   tight $(per_move slide_bench::tight_pass "$WORK/ours-callgrind" run "$WORK/boards.txt")," \
        "gains $(per_move slide_bench::gains_pass "$WORK/ours-callgrind" run "$WORK/boards.txt")," \
        "chain $(per_move slide_bench::chain "$WORK/ours-callgrind" run "$WORK/boards.txt")"
    echo "theirs: tight $(per_move tight_pass "$WORK/theirs-callgrind" "$WORK/boards.txt")," \
        "chain $(per_move chain "$WORK/theirs-callgrind" "$WORK/boards.txt")"
fi
