#!/usr/bin/env bash
# The board of `crumble serve` in a real browser: starts the server on a free loopback port
# and drives the page with scripts/browser-test.js (headless Chromium through
# playwright-core): a move by clicks with a swap step, the agent's answer, the heatmap and
# the value, a live analysis, a turn stopped mid-swap, a game against `random` to its end, a
# record saved, loaded (file button, drag and drop) and stepped through, a Splinter and a
# Crumo move by clicks answered by the agent, a Nim and a tic-tac-toe move by the page's
# default buttons, and no script error. Screenshots go to OUT_DIR.
#
#   scripts/browser-test.sh [OUT_DIR]        (default: target/browser-test)
#
# Installs Debian's chromium (apt-get) and playwright-core (npm, into OUT_DIR/node) when
# missing. Builds the release binary unless CRUMBLE names one. Not part of `cargo test`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/browser-test}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# shellcheck source=scripts/browser-lib.sh
source "$root/scripts/browser-lib.sh"
ensure_chromium || { echo "no chromium (apt-get install chromium)" >&2; exit 1; }
node_dir="$out/node"
ensure_playwright "$node_dir"
ensure_crumble "$root"

# A free loopback port: the server takes port 0 and prints the one it got.
log="$out/serve.log"
"$CRUMBLE" serve --addr 127.0.0.1:0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" || true)"
    [[ -n "$url" ]] && break
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$url" ]] || { echo "the server did not start" >&2; cat "$log" >&2; exit 1; }
echo "server: $url ($("$chromium" --version 2>/dev/null || echo "$chromium"))"

NODE_PATH="$node_dir/node_modules" node "$root/scripts/browser-test.js" "$url" "$chromium" "$out"
echo "screenshots: $out/*.png"
