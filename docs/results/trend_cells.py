"""Paired per-seed statistics of a steal-sweep campaign (docs/results/steal-sweep.md).

Usage: python3 docs/results/trend_cells.py OUT_DIR   (OUT_DIR of `resched experiment steal-sweep`)

Reads OUT_DIR/cells/*.json, so it also works on a campaign stopped before its end. Prints, per
statistic, SFSJ / Baseline per (trace, reading, mu, D) as mean +- standard error over seeds,
then the "POOLED" lines: mu <= 2 h, D = 10 min against D = 1 h, paired per seed.
"""
import json, sys, glob, math, statistics as st
from fractions import Fraction
v = {}
for f in glob.glob(sys.argv[1] + '/cells/*.json'):
    c = json.load(open(f))
    for r in c['results']:
        v[(c['trace'], r.get('returns') or 'foreseen', c['mtbf_min'], c['downtime_min'], c['seed'], r['variant'])] = r
def val(r, col): return float(Fraction(r[col]))
def ratio(t, rd, m, d, s, col):
    b, x = v.get((t, rd, m, d, s, 'Baseline')), v.get((t, rd, m, d, s, 'H111'))
    return val(x, col) / val(b, col) if b and x else None
def ms(xs): return (st.mean(xs), st.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float('nan'), len(xs))
traces = sorted({k[0] for k in v}); seeds = sorted({k[4] for k in v})
for col in ['utilization', 'max_flow_largest', 'weighted_mean_flow']:
    print(f"## {col}")
    for t in traces:
        for rd in ['foreseen', 'unforeseen']:
            for m in [20, 40, 60, 120, 300, 600]:
                for d in [10, 60]:
                    xs = [x for x in (ratio(t, rd, m, d, s, col) for s in seeds) if x is not None]
                    if xs:
                        a = ms(xs); print(f"{t} {rd} μ{m} D{d}: {a[0]:.3f} ± {a[1]:.3f} (n={a[2]})")
    for scope, ts in [('window 1', traces[:1]), ('window 2', traces[1:]), ('both', traces)]:
        for rd in ['foreseen', 'unforeseen']:
            diff, a10, a60 = [], [], []
            for t in ts:
                for m in [20, 40, 60, 120]:
                    for s in seeds:
                        x, y = ratio(t, rd, m, 10, s, col), ratio(t, rd, m, 60, s, col)
                        if x is not None and y is not None:
                            diff.append(x - y); a10.append(x); a60.append(y)
            if len(diff) > 1:
                D, A, B = ms(diff), ms(a10), ms(a60)
                print(f"POOLED μ≤2h {scope} {rd}: D10 {A[0]:.4f}±{A[1]:.4f}  D60 {B[0]:.4f}±{B[1]:.4f}  D10−D60 {D[0]:+.4f}±{D[1]:.4f} (n={D[2]})")
