# shellcheck shell=bash
# Starting and stopping the release binary for the load scripts (sourced,
# not run). Needs $tmp, a directory for the logs.

# start_server PORT DATABASE_URL [FLAG...]: starts $QIPAN_BIN (default
# target/release/qipan) on 127.0.0.1:PORT with the flags, logging to
# $tmp/qipan-PORT.log; sets server_pid; waits up to 10 s for /healthz.
start_server() {
    local port=$1 url=$2
    shift 2
    "${QIPAN_BIN:-target/release/qipan}" --addr "127.0.0.1:$port" --database-url "$url" "$@" \
        >"$tmp/qipan-$port.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
        curl -fsS --max-time 1 -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && return 0
        sleep 0.1
    done
    cat "$tmp/qipan-$port.log" >&2
    echo "qipan did not answer on port $port" >&2
    return 1
}

# stop_server: SIGTERM to the server started last; waits for it to exit.
stop_server() {
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

# stop_server_if_any: stop_server for a cleanup trap: does nothing when no
# server runs, and never fails.
stop_server_if_any() {
    if [[ -n ${server_pid:-} ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=
    fi
}
