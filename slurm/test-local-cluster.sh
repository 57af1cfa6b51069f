#!/usr/bin/env bash
# Tests the Slurm scripts on a real single-node Slurm cluster, started here:
#   1. installs Debian's slurm-wlm and munge where it runs as root with apt (else needs them);
#   2. writes a minimal slurm.conf (this host as "localhost", 2 CPUs, no cgroups:
#      proctrack/linuxproc, task/none, no accounting) into a temporary directory and starts
#      munged, slurmctld and slurmd on it;
#   3. submits with slurm/submit.sh a 4-task array of `experiment rigid-procs --quick` and one
#      of `prove --exhaustive` on the small scope (RESCHED_EXHAUSTIVE=small), each followed by
#      its merge as a dependent job, and waits for them; task 2 of the campaign is cancelled
#      before it runs (the node drained meanwhile): its merge must end, failed, naming shard 2
#      and the resume command, and `submit.sh --resume` must finish the run;
#   4. compares each merged directory with the single-process run: the same files, the same
#      bytes once the recorded timings ("seconds", "setup_seconds") are blanked.
# Stops the daemons it started. Skipped with a message where it cannot run (not root, no
# apt, no Slurm); an error under CI=true.
#   usage: slurm/test-local-cluster.sh [RESCHED_BINARY]   (default target/debug/resched)
set -euo pipefail
cd "$(dirname "$0")/.."
strict="${CI:-false}"
started=$(date +%s)
skip_or_fail() {
    if [ "$strict" = "true" ]; then
        echo "error: $1" >&2
        exit 1
    fi
    echo "skipping the Slurm test: $1" >&2
    exit 0
}
bin="${1:-target/debug/resched}"
[ -x "$bin" ] || cargo build --quiet
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

# 1. Slurm and munge.
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
    else
        skip_or_fail "needs Debian's slurm-wlm and munge (apt-get install slurm-wlm munge, as root)"
    fi
fi
[ "$(id -u)" = "0" ] || skip_or_fail "starts slurmctld and slurmd, which needs root"
installed=$(date +%s)

# 2. A single-node cluster in a temporary directory.
work="$(mktemp -d /tmp/resched-slurm.XXXXXX)"
conf="$work/slurm.conf"
mkdir -p "$work/spool/ctld" "$work/spool/d" "$work/log"
cat > "$conf" <<CONF
ClusterName=resched-test
SlurmctldHost=localhost
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$work/spool/ctld
SlurmdSpoolDir=$work/spool/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"
pids=()
keep=false
# Stops what this script started (by pid), waits for it, and removes the cluster's files
# unless a failure left them for reading.
cleanup() {
    local f p
    for f in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munged.pid"; do
        [ -f "$f" ] && pids+=("$(cat "$f")")
    done
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    done
    if [ "$keep" = "false" ]; then rm -rf "$work"; else echo "logs kept in $work" >&2; fi
}
trap cleanup EXIT
# munged: its own socket in $work, so an existing munged is left alone.
sock="$work/munge.socket"
mkdir -p /etc/munge
[ -f /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; chmod 400 /etc/munge/munge.key; }
munged --force --socket="$sock" --pid-file="$work/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munged.seed"
keep=true
# Slurm's munge plugin reads the socket from AuthInfo.
sed -i "s|^AuthType=auth/munge|AuthType=auth/munge\nAuthInfo=socket=$sock|" "$conf"
slurmctld -f "$conf"
slurmd -f "$conf" -N localhost
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -qE "^idle" && break
    sleep 1
done
sinfo -h -o %T | grep -qE "^idle" || { tail -20 "$work/log/"*.log >&2; echo "error: the node never came up" >&2; exit 1; }

# 3. Two sharded runs, 4 tasks each, merged by a dependent job.
blank() { sed -E 's/"(setup_)?seconds": ?[-+0-9.eE]+/"\1seconds": T/g' "$1"; }
same_tree() {
    local a="$1" b="$2" f
    diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort) \
        || { echo "error: $a and $b hold different files" >&2; return 1; }
    while read -r f; do
        cmp -s "$a/$f" "$b/$f" && continue
        case "$f" in
            *.json) diff -q <(blank "$a/$f") <(blank "$b/$f") >/dev/null \
                || { echo "error: $f differs beyond timings" >&2; return 1; } ;;
            *) echo "error: $f differs" >&2; return 1 ;;
        esac
    done < <(cd "$a" && find . -type f | sort)
}
export RESCHED_EXHAUSTIVE=small
# The merge joins only shards of a clean commit's build: a binary built from a dirty tree (a
# developer's checkout) is merged with the flag that says so.
if ! "$bin" --version | grep -qE '\(commit [0-9a-f]+\)$'; then
    export RESCHED_MERGE_ARGS=--allow-mixed-builds
fi
run() {
    local name="$1"; shift
    slurm/submit.sh -n 4 -o "$work/$name" -b "$bin" -- "$@"
}
# Waits until the jobs $1 (comma-separated) have left the queue.
wait_jobs() {
    for _ in $(seq 600); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 1
    done
    echo "error: jobs $1 still queued after 600 s" >&2
    return 1
}
# The state of job $1 (JobState=…).
job_state() { scontrol show job "$1" | grep -o 'JobState=[A-Z_]*' | head -1; }
# A killed task: the campaign's array is submitted while the node is drained, its task 2 is
# cancelled before it can run, then the node returns. The merge (afterany) must run, not wait
# forever, and fail naming shard 2 with the resume command; `submit.sh --resume` then reruns
# task 2 alone and the merge, which must give the single-process result.
scontrol update NodeName=localhost State=DRAIN Reason=resched-test
run campaign experiment rigid-procs --quick
read -r array merge < "$work/campaign/jobs"
scancel "${array}_2"
scontrol update NodeName=localhost State=RESUME
run exhaustive prove --exhaustive
last="$(cut -d' ' -f2 "$work/exhaustive/jobs")"
wait_jobs "$array,$merge,$last"
state="$(job_state "$merge")"
if [ "$state" != "JobState=FAILED" ] \
    || ! grep -q "shards did not finish: 2 " "$work/campaign/logs/merge.out" \
    || ! grep -q "submit.sh --resume $work/campaign" "$work/campaign/logs/merge.out"; then
    cat "$work/campaign/logs/"*.out >&2 || true
    echo "error: after a killed task the campaign's merge job $merge ended in $state without naming shard 2 and the resume command" >&2
    exit 1
fi
[ "$(cat "$work/campaign/missing")" = "2" ] || { echo "error: $work/campaign/missing does not list shard 2" >&2; exit 1; }
slurm/submit.sh --resume "$work/campaign"
read -r array merge < "$work/campaign/jobs"
wait_jobs "$array,$merge"
for name in campaign exhaustive; do
    merge="$(cut -d' ' -f2 "$work/$name/jobs")"
    state="$(job_state "$merge")"
    if [ "$state" != "JobState=COMPLETED" ]; then
        cat "$work/$name/logs/"*.out >&2 || true
        echo "error: the $name merge job $merge ended in $state" >&2
        exit 1
    fi
done

# 4. The single-process runs, and the comparison.
"$bin" experiment rigid-procs --quick --out "$work/single-campaign" --no-progress >/dev/null
"$bin" prove --exhaustive --out "$work/single-exhaustive" >/dev/null
same_tree "$work/single-campaign" "$work/campaign/merged"
same_tree "$work/single-exhaustive" "$work/exhaustive/merged"
done_at=$(date +%s)
keep=false
echo "Slurm test passed: 2 job arrays of 4 shards + 2 dependent merges on a 1-node cluster equal the single-process runs, one after a killed task and submit.sh --resume ($((installed - started)) s to install, $((done_at - installed)) s to run)."
