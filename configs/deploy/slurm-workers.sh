#!/usr/bin/env bash
# configs/deploy/slurm-workers.sh: self-play workers of a shared run as a Slurm job array.
#
# Run by scripts/slurm-smoke.sh on a real one-node Slurm (Debian 12's 22.05) on loopback,
# an array of 2 with one task requeued; not run on a multi-node cluster (shellcheck'd in
# .ci/run).
#
# The trainer runs elsewhere (a login or service node, or its own job):
#   crumble train --run-dir s3://crumble/runs/main --config configs/default.toml --selfplay external
# Then, with the AWS_* variables of the store exported (sbatch passes the environment on;
# CRUMBLE names the binary when it is not `crumble` on the PATH, CRUMBLE_SPOOL_ROOT the
# spools' directory, default ~/crumble-spools):
#   sbatch --array=0-31 configs/deploy/slurm-workers.sh s3://crumble/runs/main
# On a cluster with a shared filesystem instead of S3, give its run directory as the
# location (the trainer then runs with --run-dir on that filesystem) and no AWS_* variables.
# Each job, array task and attempt has its own spool (and so its own worker id): two jobs
# of the same array index never share one, and a spool records its host, run and worker
# and refuses any other (a task requeued onto another node would be refused its old
# spool, so each attempt starts a new one). At Slurm's SIGTERM (scancel, requeue,
# preemption, the time limit; SIGKILL follows after KillWait, 30 s by default) the worker
# uploads its finished files (for at most 20 s) and exits; only its batch in progress stays
# in the ended attempt's spool, not trained on.
# Each task's log is appended to, so a requeued task's log keeps the earlier attempts
# (by default Slurm truncates it).
#SBATCH --job-name=crumble-worker
#SBATCH --cpus-per-task=8
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=crumble-worker-%A_%a.log
#SBATCH --open-mode=append
set -euo pipefail
RUN=${1:?usage: sbatch --array=0-N slurm-workers.sh LOCATION}
JOB=${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-local}}
TASK=${SLURM_ARRAY_TASK_ID:-0}
SPOOL=${CRUMBLE_SPOOL_ROOT:-$HOME/crumble-spools}/job-$JOB/task-$TASK-try-${SLURM_RESTART_COUNT:-0}
exec "${CRUMBLE:-crumble}" worker --run "$RUN" --spool "$SPOOL" --threads "${SLURM_CPUS_PER_TASK:-0}"
