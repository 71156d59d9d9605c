#!/usr/bin/env bash
# scripts/intake.sh: how much of what workers upload a trainer trains on.
#
# On a local-directory store: one trainer (--selfplay external, configs/tiny.toml unless
# CONFIG) and WORKERS synthetic workers (`crumble worker --synthetic`, ready-made valid
# record files at RATE files per second each) for DURATION seconds; then the workers stop, the
# trainer commits one more generation and is stopped, and the audit's counts give the share
# of uploaded games that were trained on, the games trained per hour and the dropped files.
#
# Usage: scripts/intake.sh   Environment: CRUMBLE (default target/debug/crumble), CONFIG,
# WORKERS (20), RATE (0.5), DURATION (120 s), CAP (the trainer's --intake-cap; default its own),
# INTAKE_DIR, LOCATION (the run's location: default INTAKE_DIR/run; an s3://BUCKET/PREFIX of a
# running S3 server, with the AWS_* variables set, needs CRUMBLE built with --features s3).
set -euo pipefail
cd "$(dirname "$0")/.."
CRUMBLE=${CRUMBLE:-target/debug/crumble}
CONFIG=${CONFIG:-configs/tiny.toml}
WORKERS=${WORKERS:-20}
RATE=${RATE:-0.5}
DURATION=${DURATION:-120}
WORK=${INTAKE_DIR:-$(mktemp -d /tmp/crumble-intake.XXXXXX)}
RUN=${LOCATION:-$WORK/run}
# The trainer's working copy: the run directory itself, or a cache of the store.
LEDGER_DIR=$RUN
CACHE=()
case $RUN in s3://*) LEDGER_DIR=$WORK/cache; CACHE=(--cache-dir "$LEDGER_DIR");; esac
mkdir -p "$WORK"
fail() { printf 'INTAKE FAILED: %s (logs in %s)\n' "$*" "$WORK" >&2; exit 1; }
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
# Record files uploaded and not yet committed.
waiting() {
    case $RUN in
    s3://*) "$CRUMBLE" store-check --audit "$RUN" 2>/dev/null | grep -c ' waiting$' || true;;
    *) find "$RUN/incoming" -name '*.crsp' 2>/dev/null | wc -l;;
    esac
}

"$CRUMBLE" selfplay --agent mcts:uniform:8 --games 8 --out "$WORK/made" \
    --config "$CONFIG" --threads 1 >/dev/null 2>&1 || fail "could not make record files"
cap=()
[ -n "${CAP:-}" ] && cap=(--intake-cap "$CAP")
"$CRUMBLE" train --run-dir "$RUN" "${CACHE[@]}" --config "$CONFIG" --generations 100000 \
    --selfplay external --poll 0.5 --heartbeat 2 "${cap[@]}" >"$WORK/trainer.log" 2>&1 &
T=$!; PIDS+=("$T")
for _ in $(seq 1 600); do [ -f "$LEDGER_DIR/progress.csv" ] && break; sleep 0.1; done
"$CRUMBLE" worker --run "$RUN" --synthetic "$RATE" --synthetic-from "$WORK/made" \
    --synthetic-workers "$WORKERS" --poll 1 >"$WORK/workers.log" 2>&1 &
S=$!; PIDS+=("$S")
t0=$(date +%s.%N)
sleep "$DURATION"
kill "$S"; wait "$S" 2>/dev/null || true
t1=$(date +%s.%N)
# What is still waiting goes into the next generation if it makes the minimum; a minute
# at most, then what is left counts as not trained on.
for _ in $(seq 1 120); do
    [ "$(waiting)" -eq 0 ] && break
    sleep 0.5
done
kill "$T"; wait "$T" 2>/dev/null || true
"$CRUMBLE" store-check --audit "$RUN" >"$WORK/audit.txt" || fail "the audit failed"
used=$(grep -c ' used gen-' "$WORK/audit.txt" || true)
dropped=$(grep -c ' dropped gen-' "$WORK/audit.txt" || true)
waiting=$(grep -c ' waiting$' "$WORK/audit.txt" || true)
all=$(grep -c '\.crsp ' "$WORK/audit.txt" || true)
tail -1 "$WORK/audit.txt"
awk -F, -v t0="$t0" -v t1="$t1" -v used="$used" -v all="$all" -v dropped="$dropped" \
    -v waiting="$waiting" -v w="$WORKERS" -v r="$RATE" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { sps += $col["samples_per_s"]; n++ }
    $col["unix_time"] <= t1 { games += $col["games"]; k++ }
    END {
        s = t1 - t0
        printf "%d synthetic workers at %s files/s for %.0f s: %d files uploaded, %d used (%.1f%%), %d dropped over the cap, %d waiting\n", w, r, s, all, used, 100 * used / (all > 0 ? all : 1), dropped, waiting
        printf "%d generations committed while the workers ran, %d games trained on: %.0f games/h; %d generations in all, mean training speed %.1f samples/s\n", k, games, games * 3600 / s, n, sps / (n > 0 ? n : 1)
    }' "$LEDGER_DIR/progress.csv"
