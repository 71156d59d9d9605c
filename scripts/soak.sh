#!/usr/bin/env bash
# Soak test: self-play and training on a config (default configs/tiny.toml) for a long
# time, with the process's memory and open file descriptors sampled, to show that nothing
# grows without bound.
#
#   [CRUMBLE=BIN] scripts/soak.sh [MINUTES] [CONFIG] [OUT_DIR]
#
# Runs `crumble train` (release build) into OUT_DIR/run for MINUTES minutes (default 30),
# samples every 10 s into OUT_DIR/samples.csv (seconds, generations finished, resident
# memory in KiB, open descriptors, threads), then stops the run with Ctrl-C (SIGINT) and
# prints a summary: the first, median and last samples of the second half against the
# first half, so warm-up growth (the replay window filling up) is not counted as a leak.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
config=${2:-configs/tiny.toml}
out=${3:-$(mktemp -d -t crumble-soak-XXXXXX)}
mkdir -p "$out"
if [ -e "$out/run" ]; then
  echo "error: $out/run exists; give a fresh OUT_DIR" >&2
  exit 2
fi
# CRUMBLE=path/to/crumble runs that binary instead of building the release one.
bin=${CRUMBLE:-}
if [ -z "$bin" ]; then
  cargo build --release -q -p crumble-train --bin crumble
  bin=target/release/crumble
fi
"$bin" train --config "$config" --run-dir "$out/run" --generations 1000000 \
  >"$out/train.log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true' EXIT
echo "seconds,generations,rss_kib,fds,threads" >"$out/samples.csv"
start=$(date +%s)
end=$((start + minutes * 60))
while [ "$(date +%s)" -lt "$end" ] && kill -0 "$pid" 2>/dev/null; do
  now=$(($(date +%s) - start))
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo "")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo "")
  fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  gens=0
  if [ -f "$out/run/progress.csv" ]; then
    gens=$(($(wc -l <"$out/run/progress.csv") - 1))
  fi
  echo "$now,$gens,$rss,$fds,$threads" >>"$out/samples.csv"
  sleep 10
done
if ! kill -0 "$pid" 2>/dev/null; then
  echo "error: the training run ended early; see $out/train.log" >&2
  exit 1
fi
kill -INT "$pid"
wait "$pid" || true
trap - EXIT
python3 - "$out/samples.csv" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["rss_kib"]]
half = len(rows) // 2
def col(rs, k):
    return [int(r[k]) for r in rs]
print(f"{len(rows)} samples over {rows[-1]['seconds']} s, {rows[-1]['generations']} generations")
for k in ["rss_kib", "fds", "threads"]:
    a, b = col(rows[:half], k), col(rows[half:], k)
    print(f"{k:8}: first half median {statistics.median(a):>9}, max {max(a):>9}; "
          f"second half median {statistics.median(b):>9}, max {max(b):>9}, last {b[-1]:>9}")
PY
echo "samples: $out/samples.csv; log: $out/train.log"
