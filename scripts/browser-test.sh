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
#   BOOK=FILE scripts/browser-test.sh [OUT_DIR]
#
# With BOOK (a Crumble opening book, `crumble book grow`), scripts/serve-book-test.js drives
# the board's book panel instead: three book moves deep by its rows and back.
#
# Installs Debian's chromium (apt-get) and playwright-core (npm, into OUT_DIR/node) when
# missing. Builds the release binary unless CRUMBLE names one. Not part of `cargo test`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/browser-lib.sh
source "$root/scripts/browser-lib.sh"
out="$(absolute_dir "${1:-$root/target/browser-test}")"
ensure_chromium || { echo "no chromium (apt-get install chromium)" >&2; exit 1; }
node_dir="$out/node"
ensure_playwright "$node_dir"
ensure_crumble "$root"

# With BOOK set, the board shows that opening book and the book's own flow runs instead.
if [[ -n "${BOOK:-}" ]]; then
    start_serve "$out/serve.log" --book "$BOOK"
    script="$root/scripts/serve-book-test.js"
else
    start_serve "$out/serve.log"
    script="$root/scripts/browser-test.js"
fi
echo "server: $url ($("$chromium" --version 2>/dev/null || echo "$chromium"))"

NODE_PATH="$node_dir/node_modules" node "$script" "$url" "$chromium" "$out"
echo "screenshots: $out/*.png"
