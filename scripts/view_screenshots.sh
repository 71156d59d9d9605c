#!/usr/bin/env bash
# Opens `crumble view` pages in a real headless browser, steps through them with the arrow
# keys, checks that the page follows, and takes screenshots to look at.
#
#   scripts/view_screenshots.sh [OUT_DIR]        (default: target/view-screenshots)
#
# Makes three pages (a 6x6 self-play game with search values; an 8x8 self-play game from
# White's side with its moves in the absolute frame; a text record from a custom start that
# ends in a win, with a comment), writes each with `crumble view`,
# and drives Chromium through each (scripts/view_screenshots.py: the DevTools protocol over a
# pipe, Python standard library only). Installs Debian's chromium with apt-get when it is
# missing and this runs as root; otherwise, or without python3, it says so and skips (exit 0).
# Not part of `cargo test`. Set CRUMBLE to use a built binary instead of building one.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/browser-lib.sh
source "$root/scripts/browser-lib.sh"
out="$(absolute_dir "${1:-$root/target/view-screenshots}")"
if ! ensure_chromium; then
    echo "SKIPPED: no chromium (install Debian's package: apt-get install chromium)" >&2
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIPPED: python3 is needed to drive chromium" >&2
    exit 0
fi
echo "browser: $("$chromium" --version 2>/dev/null || echo "$chromium")"

ensure_crumble "$root"

work="$out/games"
rm -rf "$work"
mkdir -p "$work"

# A 6x6 self-play game with the search's values, and an 8x8 one.
cat >"$work/six.toml" <<'EOF'
[selfplay]
max_turns = 120
parallel_games = 1
seed = 5
EOF
sed -e 's/^max_turns = 120/max_turns = 90/' "$work/six.toml" >"$work/eight.toml"
printf '[game.start]\nboard = 8\nresolution = 8\n' >>"$work/eight.toml"
"$CRUMBLE" selfplay --agent mcts:rollout:60 --games 1 --out "$work/six" --config "$work/six.toml" 2>/dev/null
"$CRUMBLE" selfplay --agent mcts:rollout:30 --games 1 --out "$work/eight" --config "$work/eight.toml" 2>/dev/null

"$CRUMBLE" view --record "$work/six/selfplay-000000.crsp" -o "$out/six.html"
"$CRUMBLE" view --record "$work/eight/selfplay-000000.crsp" --view white --frame absolute -o "$out/eight-white.html"
"$CRUMBLE" view --record "$root/core/tests/data/records/custom-start-win.rec" -o "$out/custom.html"

status=0
for page in six eight-white custom; do
    python3 "$root/scripts/view_screenshots.py" "$chromium" "$out/$page.html" "$out/$page" || status=1
done
# The same page in a narrow window (the columns stack).
python3 "$root/scripts/view_screenshots.py" "$chromium" "$out/six.html" "$out/six-narrow" --size 760x1100 --steps 12 || status=1
if [[ $status == 0 ]]; then
    echo "all pages passed; screenshots in $out"
else
    echo "FAILED: see above; screenshots in $out" >&2
fi
exit $status
