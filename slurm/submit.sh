#!/usr/bin/env bash
# Submits a resched run as a Slurm job array of N shards plus a merge job, or resumes one.
#
#   slurm/submit.sh [-n N] [-o DIR] [-b RESCHED] -- COMMAND…
#   slurm/submit.sh --resume DIR
#
#   -n N        number of shards (array tasks 0..N-1; default 4)
#   -o DIR      run directory (default out/slurm-<date>); shards in DIR/shard-I, the result in
#               DIR/merged, Slurm logs in DIR/logs, a marker DIR/done/shard-I per task that
#               succeeded, the run's settings in DIR/run.env
#   -b RESCHED  the resched binary (default target/release/resched)
#   COMMAND     what to shard: `experiment <campaign> [options]` or `prove --exhaustive [--large]`
#   --resume DIR  resubmits, with the settings DIR/run.env recorded, only the tasks that have
#               not succeeded (no DIR/done/shard-I: killed, failed, never ran), then the merge;
#               a task resumes its shard (finished cells are kept). With every task done, only
#               the merge is submitted. Refused while the run's jobs are still queued.
# The merge job runs after the array whatever its outcome (afterany): when a task did not
# succeed it lists the missing shards and prints this script's --resume command, and fails
# (merge.sbatch); it never waits forever on a dependency that cannot be satisfied.
# Partition, account, time limit: sbatch's own environment variables apply to both jobs
# (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, …). Prints the two job ids (also in
# DIR/jobs: "<array id> <merge id>", "-" for no array); `squeue -u $USER` follows them.
#
# Example (docs/guide/slurm.md):
#   slurm/submit.sh -n 16 -o runs/qbar -- experiment rigid-qbar --sets 30 --scenarios 1000
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: $0 [-n N] [-o DIR] [-b RESCHED] -- COMMAND…  |  $0 --resume DIR"

# Submits tasks $1 (an --array list such as 0-3 or 1,3; empty: none) and the merge after them.
submit() {
    local tasks="$1" array="-" merge dep=()
    mkdir -p "$RESCHED_OUT/logs" "$RESCHED_OUT/done"
    if [ -n "$tasks" ]; then
        array=$(sbatch --parsable --array="$tasks" \
            --output="$RESCHED_OUT/logs/shard-%a.out" "$here/campaign.sbatch")
        array="${array%%;*}"
        dep=(--dependency="afterany:$array")
        echo "array job $array (shards $tasks of $RESCHED_SHARDS of: resched $RESCHED_ARGS)"
    fi
    merge=$(sbatch --parsable "${dep[@]}" \
        --output="$RESCHED_OUT/logs/merge.out" "$here/merge.sbatch")
    merge="${merge%%;*}"
    echo "merge job $merge (after the shards, whatever their outcome) -> $RESCHED_OUT/merged"
    echo "$array $merge" > "$RESCHED_OUT/jobs"
}

# The tasks of the run in $RESCHED_OUT without a success marker, comma-separated.
unfinished() {
    local i list=()
    for ((i = 0; i < RESCHED_SHARDS; i++)); do
        [ -f "$RESCHED_OUT/done/shard-$i" ] || list+=("$i")
    done
    (IFS=,; echo "${list[*]}")
}

export RESCHED_SCRIPTS="$here"
if [ "${1:-}" = "--resume" ]; then
    [ "$#" -eq 2 ] || { echo "$usage" >&2; exit 2; }
    dir="$2"
    [ -f "$dir/run.env" ] || { echo "error: $dir/run.env not found: not a run directory of $0" >&2; exit 2; }
    # shellcheck source=/dev/null
    source "$dir/run.env"
    export RESCHED RESCHED_OUT RESCHED_SHARDS RESCHED_ARGS RESCHED_MERGE_ARGS
    if [ -f "$RESCHED_OUT/jobs" ]; then
        read -r old_array old_merge < "$RESCHED_OUT/jobs" || true
        ids="${old_merge:-}"
        [ "${old_array:-}" != "-" ] && ids="${old_array:-},$ids"
        if [ -n "$ids" ] && [ -n "$(squeue -h -j "$ids" 2>/dev/null || true)" ]; then
            echo "error: jobs $ids of this run are still queued or running: wait for them, or scancel them, then resume" >&2
            exit 2
        fi
    fi
    tasks=$(unfinished)
    if [ -z "$tasks" ]; then
        echo "every shard of $RESCHED_OUT has finished; submitting the merge only"
    else
        echo "resuming shards $tasks of $RESCHED_SHARDS in $RESCHED_OUT"
    fi
    submit "$tasks"
    exit 0
fi

n=4
out="out/slurm-$(date +%Y%m%d-%H%M%S)"
bin="target/release/resched"
while getopts "n:o:b:" opt; do
    case "$opt" in
        n) n="$OPTARG" ;;
        o) out="$OPTARG" ;;
        b) bin="$OPTARG" ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ "${1:-}" = "--" ]; then shift; fi
if [ "$#" -eq 0 ]; then
    echo "error: no command to run (e.g. -- experiment rigid-procs --quick)" >&2
    exit 2
fi
case "$n" in
    '' | *[!0-9]* | 0) echo "error: -n $n: expected a number of shards ≥ 1" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "error: $bin is not an executable resched binary (cargo build --release)" >&2; exit 2; }
mkdir -p "$out/logs"
export RESCHED="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
export RESCHED_OUT="$(cd "$out" && pwd)"
export RESCHED_SHARDS="$n"
export RESCHED_ARGS="$*"
export RESCHED_MERGE_ARGS="${RESCHED_MERGE_ARGS:-}"
# What --resume needs to resubmit the same run.
{
    for v in RESCHED RESCHED_OUT RESCHED_SHARDS RESCHED_ARGS RESCHED_MERGE_ARGS; do
        printf '%s=%q\n' "$v" "${!v}"
    done
} > "$RESCHED_OUT/run.env"
rm -rf "$RESCHED_OUT/done"
submit "0-$((n - 1))"
