#!/usr/bin/env bash
# A one-node Slurm cluster on localhost, started for this script and stopped after it, runs
# `puzzle-sat run tests/data` as an `sbatch --array` job of shards; their merge must equal the
# committed snapshot of one run (snapshots/run-tests-data.snap), as tests/run.rs compares one
# run with it. No systemd: munged and the Slurm daemons are started directly, with a private
# configuration (SLURM_CONF), state and logs in a temporary folder; no accounting (squeue is
# polled). Needs root (or sudo) for the daemons and Debian's slurm-wlm and munge, which
# .ci/run installs. Usage: bash .ci/slurm.sh [TARGET_DIR] (the release binary's folder).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bin="${1:-$repo/target/release}/puzzle-sat"
[ -x "$bin" ] || { echo "slurm.sh: no binary at $bin (cargo build --release first)" >&2; exit 1; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
shards=4
work=$(mktemp -d)
chmod 755 "$work"
export SLURM_CONF="$work/slurm.conf"
stop() {
    $sudo pkill -f "slurmctld -f $SLURM_CONF" 2>/dev/null || true
    $sudo pkill -f "slurmd -f $SLURM_CONF" 2>/dev/null || true
    [ -n "${munged_started:-}" ] && $sudo pkill -x munged 2>/dev/null || true
    rm -rf "$work" 2>/dev/null || $sudo rm -rf "$work"
}
trap stop EXIT

# munge: a key (Debian's package makes one; made here when it did not), its socket folder, and
# the daemon as the munge user.
if ! pgrep -x munged >/dev/null; then
    [ -s /etc/munge/munge.key ] || $sudo /usr/sbin/mungekey --create --force 2>/dev/null ||
        $sudo sh -c 'dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null'
    $sudo chown munge:munge /etc/munge/munge.key
    $sudo chmod 400 /etc/munge/munge.key
    $sudo mkdir -p /run/munge /var/log/munge /var/lib/munge
    $sudo chown munge:munge /run/munge /var/log/munge /var/lib/munge
    $sudo chmod 755 /run/munge
    $sudo -u munge /usr/sbin/munged 2>/dev/null || $sudo runuser -u munge -- /usr/sbin/munged
    munged_started=1
fi

cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$work/state" "$work/spool" "$work/out"
cat >"$SLURM_CONF" <<EOF
ClusterName=ci
SlurmctldHost=localhost
SlurmctldPort=6917
SlurmdPort=6918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=ci NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=ci Nodes=ci Default=YES MaxTime=INFINITE State=UP
EOF
$sudo env SLURM_CONF="$SLURM_CONF" /usr/sbin/slurmctld -f "$SLURM_CONF" -c
$sudo env SLURM_CONF="$SLURM_CONF" /usr/sbin/slurmd -f "$SLURM_CONF" -N ci
for _ in $(seq 60); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
    sleep 1
done
sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)' || {
    echo "slurm.sh: the node did not come up" >&2
    cat "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
    exit 1
}

# The job: one shard a task, each taking its share from the array's variables (no --shard).
cat >"$work/shards.sh" <<EOF
#!/bin/bash
#SBATCH --array=1-$shards
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/out/task-%a.log
cd "$repo"
exec "$bin" run tests/data -q --threads 1 -j 1 > "$work/out/shard-\$SLURM_ARRAY_TASK_ID.jsonl"
EOF
started=$(date +%s)
job=$(sbatch --parsable "$work/shards.sh")
echo "slurm.sh: array job $job of $shards shards submitted"
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
    if (($(date +%s) - started > 1800)); then
        echo "slurm.sh: the array job did not end within 30 minutes" >&2
        exit 1
    fi
    sleep 2
done
echo "slurm.sh: array job $job ended after $(($(date +%s) - started)) s"
ls "$work"/out/shard-*.jsonl >/dev/null || { cat "$work"/out/task-*.log >&2; exit 1; }
"$bin" run --merge "$work"/out/shard-*.jsonl --snapshot snapshots/run-tests-data.snap -q >"$work/merged.txt" || {
    echo "slurm.sh: the merged shards differ from snapshots/run-tests-data.snap" >&2
    tail -5 "$work/merged.txt" >&2
    cat "$work"/out/task-*.log >&2
    exit 1
}
tail -1 "$work/merged.txt"
echo "slurm.sh: $shards Slurm shards merged equal one run's snapshot"
