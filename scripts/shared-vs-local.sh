#!/usr/bin/env bash
# scripts/shared-vs-local.sh: what a shared run costs against a local one on the same machine.
#
# Trains GENERATIONS generations of CONFIG from scratch twice, one after the other: locally
# (`crumble train`), then through a run directory with one trainer (`--selfplay external`) and
# WORKERS workers (`crumble worker --threads 1`). Prints the wall time per generation of each,
# their ratio, and the share of the record files uploaded before the last commit that were
# trained on (from `crumble store-check --audit`). Run it on a quiet machine: it times.
#
# Usage: scripts/shared-vs-local.sh   Environment: CRUMBLE (default target/release/crumble),
# CONFIG (configs/default.toml), GENERATIONS (5), WORKERS (2), WORK (a new temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
CRUMBLE=${CRUMBLE:-target/release/crumble}
CONFIG=${CONFIG:-configs/default.toml}
GENERATIONS=${GENERATIONS:-5}
WORKERS=${WORKERS:-2}
WORK=${WORK:-$(mktemp -d /tmp/crumble-shared.XXXXXX)}
mkdir -p "$WORK"
fail() { printf 'SHARED-VS-LOCAL FAILED: %s (logs in %s)\n' "$*" "$WORK" >&2; exit 1; }
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
rows() { [ -f "$1/progress.csv" ] && echo $(($(wc -l <"$1/progress.csv") - 1)) || echo 0; }
# The ledger's last elapsed_s: seconds from the run's start to its last commit.
elapsed() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "elapsed_s") c = i; next } { e = $c } END { print e }' "$1/progress.csv"; }

since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'; }

t0=$(date +%s.%N)
"$CRUMBLE" train --config "$CONFIG" --run-dir "$WORK/local" --generations "$GENERATIONS" \
    >"$WORK/local.log" 2>&1 || fail "the local run failed"
local_s=$(since "$t0")

t0=$(date +%s.%N)
"$CRUMBLE" train --config "$CONFIG" --run-dir "$WORK/shared" --generations "$GENERATIONS" \
    --selfplay external >"$WORK/trainer.log" 2>&1 &
T=$!; PIDS+=("$T")
for _ in $(seq 1 600); do [ -f "$WORK/shared/latest.json" ] && break; sleep 0.1; done
for w in $(seq 1 "$WORKERS"); do
    "$CRUMBLE" worker --run "$WORK/shared" --threads 1 --spool "$WORK/spool-$w" \
        >"$WORK/worker-$w.log" 2>&1 &
    PIDS+=("$!")
done
wait "$T" || fail "the trainer failed"
shared_s=$(since "$t0")
for p in "${PIDS[@]:1}"; do kill "$p" 2>/dev/null || true; done
for p in "${PIDS[@]:1}"; do wait "$p" 2>/dev/null || true; done
[ "$(rows "$WORK/shared")" -eq "$GENERATIONS" ] || fail "the shared run has $(rows "$WORK/shared") rows"

"$CRUMBLE" store-check --audit "$WORK/shared" >"$WORK/audit.txt" || fail "the audit failed"
used=$(grep -c ' used gen-' "$WORK/audit.txt" || true)
waiting=$(grep -c ' waiting$' "$WORK/audit.txt" || true)
all=$(grep -c '\.crsp ' "$WORK/audit.txt" || true)
before=$((all - waiting))
awk -v n="$GENERATIONS" -v w="$WORKERS" -v l="$local_s" -v s="$shared_s" -v le="$(elapsed "$WORK/local")" \
    -v se="$(elapsed "$WORK/shared")" -v all="$all" -v before="$before" -v used="$used" -v waiting="$waiting" 'BEGIN {
    printf "local: %d generations in %.0f s (%.1f s a generation; ledger %.0f s)\n", n, l, l / n, le
    printf "shared (trainer + %d workers): %.0f s (%.1f s a generation; ledger %.0f s): %.2fx local\n", w, s, s / n, se, s / l
    printf "record files: %d uploaded, %d before the last commit, %d trained on (%.1f%%), %d waiting\n", all, before, used, 100 * used / (before > 0 ? before : 1), waiting
}'
