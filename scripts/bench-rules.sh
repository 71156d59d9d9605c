#!/usr/bin/env bash
# The rules-engine benchmark in release mode; extra arguments go to `crumble bench rules`
# (e.g. --json).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release -q -p crumble-train --bin crumble -- bench rules "$@"
