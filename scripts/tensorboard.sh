#!/usr/bin/env bash
# Opens TensorBoard on a training run's scalars.
#
#   scripts/tensorboard.sh [RUN_DIR | RUNS_ROOT] [PORT]
#
# With no argument it shows every run under runs/. TensorBoard comes from PyPI; when the
# `tensorboard` command is missing, this script installs it into a virtualenv under
# .venv-tensorboard/ first (needs python3 with venv and pip).
set -euo pipefail
logdir=${1:-runs}
port=${2:-6006}
if [ -d "$logdir/tb" ]; then
  logdir="$logdir/tb"
fi
if [ ! -d "$logdir" ]; then
  echo "error: $logdir does not exist (give a run directory or a directory of runs)" >&2
  exit 2
fi
tb=$(command -v tensorboard || true)
if [ -z "$tb" ]; then
  venv="$(dirname "$0")/../.venv-tensorboard"
  if [ ! -x "$venv/bin/tensorboard" ]; then
    echo "installing tensorboard into $venv ..." >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet tensorboard
  fi
  tb="$venv/bin/tensorboard"
fi
echo "TensorBoard on http://localhost:$port/ (logdir $logdir); Ctrl-C stops it" >&2
exec "$tb" --logdir "$logdir" --port "$port" --bind_all
