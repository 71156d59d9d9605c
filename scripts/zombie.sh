#!/usr/bin/env bash
# scripts/zombie.sh: a paused trainer that was taken over never writes again.
#
# On a local-directory store (configs/tiny.toml, synthetic workers uploading ready-made
# record files): trainer A runs; A is SIGSTOPped after its first generation; trainer B
# starts with --take-over and commits two generations; A is SIGCONTed. A watcher samples
# latest.json every 100 ms throughout. Passes when A exits with the fencing message within
# a few heartbeats without writing, the watcher never saw (epoch, generation) go back, and
# `crumble store-check --audit` passes (every generation file's hash against its commit,
# no record file in two commits).
#
# Usage: scripts/zombie.sh   Environment: CRUMBLE (default target/debug/crumble), ZOMBIE_DIR,
# LOCATION (the run's location: default ZOMBIE_DIR/run; an s3://BUCKET/PREFIX of a running S3
# server, with the AWS_* variables set, needs CRUMBLE built with --features s3, and PYTHON with
# boto3 for the watcher; A and B then keep working copies of their own, as on two machines).
set -euo pipefail
cd "$(dirname "$0")/.."
CRUMBLE=${CRUMBLE:-target/debug/crumble}
PYTHON=${PYTHON:-python3}
WORK=${ZOMBIE_DIR:-$(mktemp -d /tmp/crumble-zombie.XXXXXX)}
RUN=${LOCATION:-$WORK/run}
# Each trainer's working copy (the run directory itself for a local location).
A_DIR=$RUN B_DIR=$RUN A_CACHE=() B_CACHE=()
case $RUN in
s3://*) A_DIR=$WORK/cache-a B_DIR=$WORK/cache-b
    A_CACHE=(--cache-dir "$A_DIR") B_CACHE=(--cache-dir "$B_DIR");;
esac
mkdir -p "$WORK"
fail() { printf 'ZOMBIE FAILED: %s (logs in %s)\n' "$*" "$WORK" >&2; exit 1; }
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
# Finished generations in working copy $1.
rows() { [ -f "$1/progress.csv" ] && echo $(($(wc -l <"$1/progress.csv") - 1)) || echo 0; }

"$CRUMBLE" selfplay --agent mcts:uniform:8 --games 4 --out "$WORK/made" \
    --config configs/tiny.toml --threads 1 >/dev/null 2>&1 || fail "could not make record files"
"$CRUMBLE" train --run-dir "$RUN" "${A_CACHE[@]}" --config configs/tiny.toml --generations 50 \
    --selfplay external --poll 0.2 --heartbeat 1 >"$WORK/a.log" 2>&1 &
A=$!; PIDS+=("$A")
"$CRUMBLE" worker --run "$RUN" --synthetic 2 --synthetic-from "$WORK/made" \
    --synthetic-workers 2 --poll 0.5 >"$WORK/workers.log" 2>&1 &
PIDS+=($!)
touch "$WORK/watching"
"$PYTHON" - "$RUN/latest.json" "$WORK/watching" >"$WORK/watch.log" 2>&1 <<'EOF' &
import json, os, sys, time
path, flag = sys.argv[1], sys.argv[2]
if path.startswith("s3://"):
    import boto3
    bucket, key = path[5:].split("/", 1)
    s3 = boto3.client("s3", endpoint_url=os.environ.get("AWS_ENDPOINT_URL"))
    read = lambda: s3.get_object(Bucket=bucket, Key=key)["Body"].read()
else:
    read = lambda: open(path, "rb").read()
top, samples, back = None, 0, 0
while os.path.exists(flag):
    try:
        p = json.loads(read())
        o = (p["epoch"], p["generation"])
        samples += 1
        if top is not None and o < top:
            back += 1
            print(f"WENT BACK: {o} after {top}", flush=True)
        top = o if top is None or o > top else top
    except Exception:  # not there yet, or a read between two writes
        pass
    time.sleep(0.1)
print(f"watcher: {samples} samples, newest (epoch, generation) {top}, went back {back} times")
EOF
W=$!; PIDS+=("$W")

for _ in $(seq 1 1200); do [ "$(rows "$A_DIR")" -ge 1 ] && break; sleep 0.1; done
[ "$(rows "$A_DIR")" -ge 1 ] || fail "trainer A finished no generation"
kill -STOP "$A"
base=$(rows "$A_DIR")
echo "A (pid $A) stopped after generation $base"
"$CRUMBLE" train --run-dir "$RUN" "${B_CACHE[@]}" --generations $((base + 3)) --selfplay external \
    --poll 0.2 --heartbeat 1 --take-over >"$WORK/b.log" 2>&1 &
B=$!; PIDS+=("$B")
for _ in $(seq 1 3000); do [ "$(rows "$B_DIR")" -ge $((base + 2)) ] && break; sleep 0.1; done
[ "$(rows "$B_DIR")" -ge $((base + 2)) ] || fail "trainer B did not commit two generations"
echo "B committed generations $((base + 1)) and $((base + 2)); A continued"
t0=$(date +%s.%N)
kill -CONT "$A"
status=0
wait "$A" || status=$?
t1=$(date +%s.%N)
[ "$status" != 0 ] || fail "A exited 0 after it was taken over"
grep -q "another trainer took the run over" "$WORK/a.log" || {
    tail -5 "$WORK/a.log"; fail "A did not stop on the newer epoch"; }
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "A exited %.1f s after SIGCONT with: ", b - a }'
grep -o "trainer epoch [0-9]* exists, this trainer holds epoch [0-9]*" "$WORK/a.log" | tail -1
wait "$B" || fail "trainer B failed"
rm -f "$WORK/watching"
wait "$W" || true
cat "$WORK/watch.log"
grep -q "went back 0 times" "$WORK/watch.log" || fail "the pointer went back"
"$CRUMBLE" store-check --audit "$RUN" >"$WORK/audit.txt" || fail "the audit failed"
tail -1 "$WORK/audit.txt"
echo "zombie passed"
