#!/usr/bin/env bash
# scripts/slurm-smoke.sh: configs/deploy/slurm-workers.sh run by a real one-node Slurm on
# this machine, against a shared run on SeaweedFS.
#
# Installs Debian's munge, slurmctld, slurmd and slurm-client when missing (apt-get; needs
# root), writes a slurm.conf for one node on 127.0.0.1 with every state, spool, log and pid
# file under the work directory, and starts munged, slurmctld and slurmd in the foreground
# (its own munge key and socket: the system's munge and Slurm, if any, are not touched).
# Then SeaweedFS (scripts/smoke-lib.sh), a trainer (--selfplay external, configs/tiny.toml
# with 64 games a generation, 8 generations) and the workers as
# `sbatch --array=0-1 configs/deploy/slurm-workers.sh` (one CPU and 1 GiB a task,
# overriding the script's 8 CPUs and 4 GiB); task 1 is requeued
# (`scontrol requeue`) after its first upload. When the trainer has finished: squeue and
# sacct (from the job completion log: no slurmdbd), the run's invariants (crumble
# store-check --audit), each task and attempt with a spool and worker id of its own and
# its games trained on, the requeued task's log holding both attempts; a second array job
# on the finished run gets spools of its own. Everything it started is cancelled and
# stopped on exit.
#
# Usage: scripts/slurm-smoke.sh
# Environment: as scripts/distributed-smoke.sh (CRUMBLE, SMOKE_DIR, S3_PORT, SEAWEEDFS_VENV),
# and SLURM_PORT (6817; slurmd listens on the next port).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/smoke-lib.sh
source scripts/smoke-lib.sh
[ "$(id -u)" = 0 ] || fail "run as root (apt-get; slurmd starts jobs as their owner)"
CTLD_PORT=${SLURM_PORT:-6817}
NODE=$(hostname -s)
CPUS=$(nproc)
JOBS=()
DAEMONS=()

# Cancels the jobs, stops the daemons (slurmd, slurmctld, munged, gently), then the rest.
stop_all() {
    if [ ${#JOBS[@]} -gt 0 ]; then
        scancel "${JOBS[@]}" 2>/dev/null || true
        for _ in $(seq 1 60); do
            [ -z "$(squeue -h -j "$(IFS=,; echo "${JOBS[*]}")" 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    local i
    for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do
        kill "${DAEMONS[i]}" 2>/dev/null || true
        for _ in $(seq 1 20); do kill -0 "${DAEMONS[i]}" 2>/dev/null || break; sleep 0.5; done
        kill -9 "${DAEMONS[i]}" 2>/dev/null || true
    done
    # A job step that outlived its job (none expected): its worker names our spools.
    local left
    left=$(pgrep -f -- "--spool $WORK/" || true)
    if [ -n "$left" ]; then
        echo "stopping leftover job processes: $left" >&2
        # shellcheck disable=SC2086
        kill -9 $left 2>/dev/null || true
    fi
    smoke_cleanup
}
trap stop_all EXIT

missing=0
for c in munged mungekey slurmctld slurmd sbatch squeue sacct scancel; do
    command -v "$c" >/dev/null || missing=1
done
if [ $missing = 1 ]; then
    say "installing munge, slurmctld, slurmd and slurm-client"
    apt-get install -y -qq munge slurmctld slurmd slurm-client >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null && apt-get install -y -qq munge slurmctld slurmd slurm-client >/dev/null; }
fi

say "starting munged, slurmctld and slurmd (node $NODE on 127.0.0.1:$CTLD_PORT, state in $WORK/slurm)"
# munged wants every directory above its socket searchable by all, and its key private.
chmod 711 "$WORK"
M=$WORK/munge
S=$WORK/slurm
mkdir -p "$M" "$S/state" "$S/spool" "$WORK/jobs" "$WORK/spools"
chmod 755 "$M"
mungekey --create --keyfile="$M/munge.key"
munged -F --key-file="$M/munge.key" --socket="$M/munge.socket" --pid-file="$M/munged.pid" \
    --seed-file="$M/munged.seed" --log-file="$M/munged.log" >"$M/munged.out" 2>&1 &
DAEMONS+=($!)
for _ in $(seq 1 40); do [ -S "$M/munge.socket" ] && break; sleep 0.25; done
[ -S "$M/munge.socket" ] || { cat "$M/munged.out"; fail "munged did not start"; }

export SLURM_CONF=$S/slurm.conf
cat >"$SLURM_CONF" <<EOF
# One node on loopback for scripts/slurm-smoke.sh; everything under $S.
ClusterName=crumble-smoke
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$((CTLD_PORT + 1))
SlurmUser=root
AuthType=auth/munge
# A requeued job waits cred_expire seconds before it starts again (120 by default; a
# sooner start is refused by slurmd: "Job N already killed, do not launch batch job").
AuthInfo=socket=$M/munge.socket,cred_expire=5
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
# No cgroups here: processes tracked by parent id, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
# Pending jobs looked at every second or two (60 and 30 s by default): the requeued task's
# next attempt starts soon after its cred_expire.
SchedulerParameters=sched_interval=2,bf_interval=1
SelectTypeParameters=CR_Core_Memory
# No slurmdbd: sacct reads the job completion log (sacct -c).
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$S/jobcomp.txt
MpiDefault=none
ReturnToService=2
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=2048 State=UNKNOWN
PartitionName=smoke Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$S/slurmctld.out" 2>&1 &
DAEMONS+=($!)
slurmd -D -N "$NODE" -f "$SLURM_CONF" >"$S/slurmd.out" 2>&1 &
DAEMONS+=($!)
up=0
for _ in $(seq 1 60); do
    if [ "$(sinfo -h -n "$NODE" -o %t 2>/dev/null)" = idle ]; then up=1; break; fi
    sleep 0.5
done
[ $up = 1 ] || { tail -5 "$S/slurmctld.out" "$S/slurmd.out"; fail "the Slurm node did not come up"; }
sinfo

start_seaweedfs

say "trainer (8 generations of configs/tiny.toml, 64 games each) and sbatch --array=0-1 configs/deploy/slurm-workers.sh"
RUN="s3://$BUCKET/runs/slurm"
# configs/tiny.toml with 64 games a generation, 8 generations: the run lasts long enough
# (about half a minute) for the requeued task's next attempt to play in it.
sed 's/^games = 4 /games = 64 /' configs/tiny.toml >"$WORK/slurm.toml"
grep -q '^games = 64 ' "$WORK/slurm.toml" || fail "could not make the run's config"
"$CRUMBLE" train --run-dir "$RUN" --cache-dir "$WORK/cache" --config "$WORK/slurm.toml" \
    --generations 8 --selfplay external --poll 0.5 --heartbeat 2 >"$WORK/trainer.log" 2>&1 &
T=$!
PIDS+=("$T")
# sbatch passes this environment on: the AWS_* variables, CRUMBLE and the spool root.
CRUMBLE=$(realpath "$CRUMBLE")
export CRUMBLE CRUMBLE_SPOOL_ROOT=$WORK/spools
submit() {
    sbatch --parsable --array=0-1 --cpus-per-task=1 --mem=1G --chdir="$WORK/jobs" \
        configs/deploy/slurm-workers.sh "$RUN"
}
JOB=$(submit)
JOBS+=("$JOB")
echo "submitted array job $JOB"
running=0
for _ in $(seq 1 120); do
    [ "$(squeue -h -j "$JOB" -t R | wc -l)" = 2 ] && { running=1; break; }
    sleep 0.5
done
[ $running = 1 ] || { squeue; fail "the array's two tasks did not both start"; }
echo "squeue, both tasks running:"
squeue
# Task 1 requeued once it has uploaded a file: its next attempt gets a spool of its own.
for _ in $(seq 1 600); do
    grep -q '^worker: uploaded' "$WORK/jobs/crumble-worker-${JOB}_1.log" 2>/dev/null && break
    sleep 0.1
done
scontrol requeue "${JOB}_1"
echo "requeued task ${JOB}_1 after its first upload:"
squeue

for _ in $(seq 1 1200); do kill -0 "$T" 2>/dev/null || break; sleep 0.5; done
kill -0 "$T" 2>/dev/null && { tail -5 "$WORK/trainer.log"; fail "the trainer did not finish in 10 minutes"; }
wait "$T" || fail "the trainer exited with $? (log: $WORK/trainer.log)"
grep '^gen [0-9]*/8:' "$WORK/trainer.log" || true
# The workers stop when the pointer says the run finished.
for _ in $(seq 1 120); do [ -z "$(squeue -h -j "$JOB")" ] && break; sleep 0.5; done
echo "squeue after the trainer finished:"
squeue
[ -z "$(squeue -h -j "$JOB")" ] || fail "array job $JOB still in the queue"

say "the run's invariants and the tasks' spools"
"$CRUMBLE" store-check --audit "$RUN" >"$WORK/audit.txt"
tail -1 "$WORK/audit.txt"
# Each attempt of each task (task 1 ran twice): its own spool
# (job-JOB/task-T-try-ATTEMPT), its own worker id, its games trained on.
ids=()
for attempt in 0-0 1-0 1-1; do
    task=${attempt%-*}
    sp=$WORK/spools/job-$JOB/task-$task-try-${attempt#*-}
    [ -s "$sp/worker-id" ] || fail "task $task attempt ${attempt#*-} has no spool of its own at $sp"
    id=$(cat "$sp/worker-id")
    case " ${ids[*]} " in *" $id "*) fail "$sp reuses worker id $id" ;; esac
    ids+=("$id")
    used=$(grep -c "^incoming/n[0-9]*/$id/.* used" "$WORK/audit.txt" || true)
    left=$(find "$sp/pending" -name '*.crsp' | wc -l)
    echo "task $task, attempt ${attempt#*-}: spool $sp, worker $id, $used files trained on, $left finished files left in its pending/"
    [ "$used" -gt 0 ] || fail "no file of worker $id ($sp) was trained on"
done
# The requeued task's log holds both attempts (--open-mode=append).
log=$WORK/jobs/crumble-worker-${JOB}_1.log
starts=$(grep -c '^worker: worker .* started' "$log" || true)
[ "$starts" = 2 ] || fail "$log holds $starts attempts' starts, not 2"
echo "$log, both attempts:"
grep -E '^worker: (worker .* started|done)|CANCELLED' "$log"

# Another array job on the same (finished) run: spools of its own, other worker ids.
JOB2=$(submit)
JOBS+=("$JOB2")
for _ in $(seq 1 120); do [ -z "$(squeue -h -j "$JOB2")" ] && break; sleep 0.5; done
for task in 0 1; do
    sp=$WORK/spools/job-$JOB2/task-$task-try-0
    [ -s "$sp/worker-id" ] || fail "job $JOB2 task $task has no spool of its own at $sp"
    id=$(cat "$sp/worker-id")
    case " ${ids[*]} " in *" $id "*) fail "job $JOB2 task $task reuses worker id $id" ;; esac
    ids+=("$id")
done
echo "spools:"; (cd "$WORK/spools" && ls -d job-*/task-*)
echo "job $JOB2 (submitted after the run finished) had spools and worker ids of its own: ${ids[*]:3}"

say "sacct (from the job completion log)"
# Slurm 22.05's filetxt reader does not know the array fields (it names them on stderr);
# the log itself has them.
sacct -c --format=JobID,JobName,Partition,State,ExitCode,NodeList,Elapsed 2>/dev/null
sed -n 's/^JobId=\([0-9]*\) .* JobState=\([A-Z_]*\) .* ArrayJobId=\([0-9]*\) ArrayTaskId=\([0-9]*\) .* ExitCode=\([0-9:]*\).*/job \1 = array task \3_\4: \2, exit \5/p' \
    "$S/jobcomp.txt"
done_ok=$(grep -c "ArrayJobId=$JOB .*JobState=COMPLETED\|JobState=COMPLETED .*ArrayJobId=$JOB " "$S/jobcomp.txt" || true)
[ "$done_ok" = 2 ] || fail "$done_ok of array job $JOB's 2 tasks completed"
say "slurm smoke passed (logs and run in $WORK)"
