#!/usr/bin/env bash
# The HTML explorer of an opening book (`crumble book html`) in a real browser: opens the
# folder's index.html over a file:// URL in headless Chromium and drives it with
# scripts/book-explorer-test.js (playwright-core): the start page, three moves deep by the
# links of the moves tables (the first link of each: the best move in the book), back to the
# start by the page's own links (back, the line's start, the book), then the whole way again
# with the browser's back. Every page must show a board (SVG or text diagram) and, unless
# its game is over, a moves table with links; a deeper page's line must end in the move
# clicked; no console or page error, and no request leaving the folder. A screenshot a step
# goes to OUT_DIR, with steps.json (what each page showed).
#
#   scripts/book-explorer-test.sh [HTML_DIR] [OUT_DIR]   (default OUT_DIR: target/book-explorer-test)
#
# Without HTML_DIR (or with "-") it grows a tiny book first and writes its site to
# OUT_DIR/book-html: BOOK_AGENT (default bot:8, Crumble's built-in network) for
# BOOK_POSITIONS (default 40) positions on one thread, with BOOK_CONFIG as --config when set.
# Installs Debian's chromium (apt-get) and playwright-core (npm, into NODE_DIR, default
# OUT_DIR/node) when missing. Builds the release binary for that unless CRUMBLE names one.
# Not part of `cargo test`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
html="${1:--}"
# shellcheck source=scripts/browser-lib.sh
source "$root/scripts/browser-lib.sh"
out="$(absolute_dir "${2:-$root/target/book-explorer-test}")"
ensure_chromium || { echo "no chromium (apt-get install chromium)" >&2; exit 1; }
node_dir="${NODE_DIR:-$out/node}"
ensure_playwright "$node_dir"

if [[ "$html" == "-" ]]; then
    ensure_crumble "$root"
    book="$out/book.crbook"
    rm -f "$book"
    grow=(book grow --book "$book" --agent "${BOOK_AGENT:-bot:8}"
        --positions "${BOOK_POSITIONS:-40}" --threads 1)
    if [[ -n "${BOOK_CONFIG:-}" ]]; then
        grow+=(--config "$BOOK_CONFIG")
    fi
    echo "growing a book: $CRUMBLE ${grow[*]}"
    "$CRUMBLE" "${grow[@]}" 2>&1 | tail -n 1
    html="$out/book-html"
    "$CRUMBLE" book html --book "$book" --out "$html" --force
fi
[[ -f "$html/index.html" ]] || { echo "no index.html in $html" >&2; exit 1; }
html="$(cd "$html" && pwd)"
echo "book site: $html ($("$chromium" --version 2>/dev/null || echo "$chromium"))"

NODE_PATH="$node_dir/node_modules" node "$root/scripts/book-explorer-test.js" "$html" "$chromium" "$out"
echo "screenshots: $out/*.png"
