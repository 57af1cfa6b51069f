#!/usr/bin/env bash
# Submits a resched run as a Slurm job array of N shards plus a dependent merge job.
#
#   slurm/submit.sh [-n N] [-o DIR] [-b RESCHED] -- COMMAND…
#
#   -n N        number of shards (array tasks 0..N-1; default 4)
#   -o DIR      run directory (default out/slurm-<date>); shards in DIR/shard-I, the result in
#               DIR/merged, Slurm logs in DIR/logs
#   -b RESCHED  the resched binary (default target/release/resched)
#   COMMAND     what to shard: `experiment <campaign> [options]` or `prove --exhaustive [--large]`
# Partition, account, time limit: sbatch's own environment variables apply to both jobs
# (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, …). Prints the two job ids (also in
# DIR/jobs); `squeue -u $USER` follows them.
#
# Example (docs/guide/slurm.md):
#   slurm/submit.sh -n 16 -o runs/qbar -- experiment rigid-qbar --sets 30 --scenarios 1000
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
n=4
out="out/slurm-$(date +%Y%m%d-%H%M%S)"
bin="target/release/resched"
while getopts "n:o:b:" opt; do
    case "$opt" in
        n) n="$OPTARG" ;;
        o) out="$OPTARG" ;;
        b) bin="$OPTARG" ;;
        *) echo "usage: $0 [-n N] [-o DIR] [-b RESCHED] -- COMMAND…" >&2; exit 2 ;;
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
array=$(sbatch --parsable --array="0-$((n - 1))" \
    --output="$RESCHED_OUT/logs/shard-%a.out" "$here/campaign.sbatch")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" \
    --output="$RESCHED_OUT/logs/merge.out" "$here/merge.sbatch")
merge="${merge%%;*}"
echo "array job $array ($n shards of: resched $RESCHED_ARGS)"
echo "merge job $merge (after every shard succeeded) -> $RESCHED_OUT/merged"
echo "$array $merge" > "$RESCHED_OUT/jobs"
