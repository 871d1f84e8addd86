# CPU accounting shared by the load-test scripts (sourced, not run).

# CPU time (clock ticks) used so far by the given processes and their reaped
# children.
ticks() {
    local total=0 pid t
    for pid in "$@"; do
        t=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 + $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || t=0
        total=$((total + ${t:-0}))
    done
    echo "$total"
}

# CPU time used so far by the local PostgreSQL server: the postmaster (the
# oldest process named postgres), whose reaped children count in it, and its
# live children. 0 when the server is not on this machine.
pg_ticks() {
    local main
    main=$(pgrep -o -x postgres || true)
    if [[ -z $main ]]; then echo 0; return; fi
    # shellcheck disable=SC2046
    ticks "$main" $(pgrep -P "$main")
}

HZ=$(getconf CLK_TCK)

# Cores used: ticks over seconds.
cores() { awk -v t="$1" -v s="$2" -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz / s }'; }
