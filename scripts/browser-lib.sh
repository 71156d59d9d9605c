#!/usr/bin/env bash
# scripts/browser-lib.sh: what the browser scripts share (browser-test.sh,
# book-explorer-test.sh, view_screenshots.sh), sourced by them: their output directory,
# Chromium found or installed, playwright-core from npm, the release binary, a server on a
# free port.

# The directory $1 (relative or absolute), created if missing, as an absolute path.
absolute_dir() {
    mkdir -p "$1"
    (cd "$1" && pwd)
}

# The path of an installed Chromium or Chrome.
find_chromium() {
    for c in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$c" >/dev/null 2>&1; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

# Sets `chromium`, installing Debian's package with apt-get when none is found and this runs
# as root; fails when there is still none.
ensure_chromium() {
    chromium="$(find_chromium || true)"
    if [[ -z "$chromium" ]] && [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian's chromium with apt-get" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y --no-install-recommends chromium >/dev/null \
            || { apt-get update >/dev/null && apt-get install -y --no-install-recommends chromium >/dev/null; } \
            || true
        chromium="$(find_chromium || true)"
    fi
    [[ -n "$chromium" ]]
}

# playwright-core in the folder $1 (from npm when missing); node itself is needed.
ensure_playwright() {
    command -v node >/dev/null || { echo "node is needed (apt-get install nodejs npm)" >&2; exit 1; }
    if [[ ! -d "$1/node_modules/playwright-core" ]]; then
        echo "installing playwright-core from npm into $1" >&2
        mkdir -p "$1"
        (cd "$1" && npm install --silent --no-audit --no-fund playwright-core@1 >/dev/null)
    fi
}

# Sets `CRUMBLE` to the release binary of the checkout $1, built now, unless it names one
# already.
ensure_crumble() {
    if [[ -z "${CRUMBLE:-}" ]]; then
        (cd "$1" && nice -n 10 cargo build --release -q -p crumble-train)
        CRUMBLE="${CARGO_TARGET_DIR:-$1/target}/release/crumble"
    fi
}

# Starts `$CRUMBLE serve` with the arguments after $1 on a free loopback port, its log in
# $1; sets `url` and `server` (its pid; killed when the script exits).
start_serve() {
    local log="$1"
    shift
    "$CRUMBLE" serve --addr 127.0.0.1:0 "$@" >"$log" 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true' EXIT
    url=""
    for _ in $(seq 1 100); do
        url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" || true)"
        [[ -n "$url" ]] && return 0
        kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "the server did not start" >&2
    cat "$log" >&2
    exit 1
}
