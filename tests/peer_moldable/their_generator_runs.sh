#!/bin/sh
# Their BATCH-LIST and LPA-LIST (for L') on fresh instances of their own generator, for the
# two mix columns of Table 1 (docs/results/moldable-table1.md). Run from the build directory
# of tests/peer_moldable/README.md ($B, holding generate.py, failure.cpp, moldableBatch and
# fixed/moldable_lpa); nothing of theirs is in this repository.
#   usage: sh their_generator_runs.sh SETS SCENARIOS > means.txt
# Instances: generate.py with n = 500 (its loop bound 1000 replaced on the fly) and
# random.seed(set); "mix3c" multiplies its communication draw (param3) by 3, the paper's Mix
# (Section 5.1: "mix uses 3c"); "mixlc" is generate.py unchanged (the paper's Mix-low-com).
# Failures: failure.cpp with lambda = 1e-7 (its rand() is unseeded, as published).
# Prints per setting the mean and maximum of makespan / L' over sets x scenarios.
set -e
SETS=${1:-10}; SCEN=${2:-20}; B=$(pwd); W=$B/gen; mkdir -p "$W"
[ -x "$B/failure" ] || g++ -O2 -o "$B/failure" "$B/failure.cpp"
for setting in mixlc mix3c; do
  for s in $(seq 1 "$SETS"); do
    f=$W/${setting}_$s
    python3 - "$f" "$s" "$setting" "$B/generate.py" <<'PY'
import random, sys
out, seed, setting, src = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
code = open(src).read().replace("range(1000)", "range(500)")
if setting == "mix3c":
    code = code.replace("param3 = (2**power)*coef", "param3 = 3*(2**power)*coef")
code = code.replace("generate_mold(sys.argv[1],sys.argv[2])", "")
random.seed(seed)
g = {"__name__": "gen"}
exec(code, g)
g["generate_mold"](out, "mix")
PY
    "$B/failure" "$f" "$W/failures_${setting}_$s" "$SCEN" 1e-7 > /dev/null
    OMP_NUM_THREADS=1 "$B/moldableBatch" "$f" "$W/failures_${setting}_$s" "$SCEN" 7500 length 0 0 0 2>/dev/null > "$W/batch_${setting}_$s"
    OMP_NUM_THREADS=1 "$B/fixed/moldable_lpa" "$f" "$W/failures_${setting}_$s" "$SCEN" 7500 length 0 0 0 2>/dev/null > "$W/lpa_${setting}_$s"
  done
  python3 - "$W" "$setting" "$SETS" <<'PY'
import sys
w, setting, sets = sys.argv[1], sys.argv[2], int(sys.argv[3])
rb, rl = [], []
for s in range(1, sets + 1):
    b = [l.split() for l in open(f"{w}/batch_{setting}_{s}") if l.strip()]
    l = [x.split() for x in open(f"{w}/lpa_{setting}_{s}") if x.strip()]
    assert len(b) == len(l)
    rb += [float(x[0]) / float(y[1]) for x, y in zip(b, l)]
    rl += [float(y[0]) / float(y[1]) for y in l]
print(f"{setting}: {len(rb)} runs; BATCH mean {sum(rb)/len(rb):.4f} max {max(rb):.4f}; "
      f"LPA mean {sum(rl)/len(rl):.4f} max {max(rl):.4f}")
PY
done
