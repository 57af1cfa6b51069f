#!/usr/bin/env python3
"""LPA-LIST in binary floating point, written from the moldable paper (Algorithms 1 and 2) the
way a simulator usually is, for `resched diff`'s tests of `--ties`.

- Allocation (Algorithm 2): for each job, the p in 1..=P of least r(alpha, beta) of Eq. (10),
  alpha = p*t(p)/a_min, beta = t(p)/t_min, r = 2*alpha if alpha >= beta, else
  (P*alpha + (P-2)*beta)/(P-1); a strict `<` keeps the first p found. Computed in floats, so an
  exact tie of r (5/2 at p = 4 and at p = 5) may evaluate as 2.5000000000000004 at one of them:
  the program then takes the other count. Nothing else differs from the paper.
- LIST (Algorithm 1): the list ordered by the priority rule on (p_j, t_j(p_j)) (lpt, spt, hpa,
  lpa, la, sa, index), ties by job index; at time 0 and whenever attempts complete (completions
  less than 1e-9 apart, relatively, count as one instant), failed jobs go back into the list and
  every job that fits in the free processors starts, in list order.
- The speedup models of resched's instance format are evaluated in floats (power excepted).

Prints the makespan as Python's repr of a float.

Usage: lpa_list_float.py --jsonl            one request per standard input line
       lpa_list_float.py INSTANCE SCENARIO PRIORITY
"""
import json
import sys
from fractions import Fraction


def num(v):
    if isinstance(v, str) and "/" in v:
        a, b = v.split("/", 1)
        return float(Fraction(a.strip()) / Fraction(b.strip()))
    return float(Fraction(str(v)))


def table(job, P):
    if "speedup" not in job:
        p, t = int(job["procs"]), num(job["time"])
        return {p: t}
    s = job["speedup"]
    m = s["model"]
    if m in ("monotonic", "arbitrary", "table"):
        return {p: num(x) for p, x in enumerate(s["times"], 1)}
    w = num(s["w"])
    out = {}
    for p in range(1, P + 1):
        if m == "roofline":
            t = w / min(p, int(s["pbar"]))
        elif m == "communication":
            t = w / p + (p - 1) * num(s["c"])
        elif m == "amdahl":
            g = num(s["gamma"])
            t = w * ((1 - g) / p + g)
        elif m == "mix":
            g = num(s["gamma"])
            t = w * (1 - g) / min(p, int(s["pbar"])) + w * g + (p - 1) * num(s["c"])
        else:
            raise ValueError(f"model {m!r} is not implemented")
        out[p] = t
    return out


def lpa(times, P):
    tmin = min(times.values())
    amin = min(p * t for p, t in times.items())
    best, best_r = None, None
    for p in sorted(times):
        t = times[p]
        alpha = p * t / amin
        beta = t / tmin
        r = 2 * alpha if alpha >= beta or P <= 1 else (P * alpha + (P - 2) * beta) / (P - 1)
        if best_r is None or r < best_r:
            best, best_r = p, r
    return best


def key(priority, p, t, P):
    return {
        "lpt": -t, "spt": t, "hpa": -p, "lpa": p, "la": -p * t, "sa": p * t, "index": 0,
    }[priority]


def lpa_list(instance, failures, priority):
    P = int(instance["processors"])
    jobs = []
    for j in instance["jobs"]:
        tab = table(j, P)
        p = lpa(tab, P)
        jobs.append((p, tab[p]))
    rank = sorted(range(len(jobs)), key=lambda j: (key(priority, jobs[j][0], jobs[j][1], P), j))
    queue = list(rank)
    made = [0] * len(jobs)
    running = []  # (end, job)
    free = P
    now = 0.0
    while True:
        for j in list(queue):
            p, t = jobs[j]
            if p <= free:
                free -= p
                queue.remove(j)
                made[j] += 1
                running.append((now + t, j))
        if not running:
            break
        now = min(e for e, _ in running)
        done = [j for e, j in running if e - now <= 1e-9 * max(1.0, now)]
        running = [(e, j) for e, j in running if j not in done]
        for j in done:
            free += jobs[j][0]
            if made[j] <= failures[j]:
                queue.append(j)
        queue.sort(key=rank.index)
    return now


def answer(req):
    if req["algo"] != "lpa-list":
        raise ValueError(f"only lpa-list, not {req['algo']!r}")
    failures = [int(f) for f in req["scenario"]["failures"]]
    return repr(lpa_list(req["instance"], failures, req["priority"]))


def main(argv):
    if argv == ["--jsonl"]:
        for line in sys.stdin:
            if not line.strip():
                continue
            req = json.loads(line)
            try:
                res = {"makespan": answer(req)}
            except (ValueError, KeyError) as e:
                res = {"error": str(e)}
            res["id"] = req["id"]
            print(json.dumps(res), flush=True)
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        instance = json.load(f)
    with open(argv[1]) as f:
        scenario = json.load(f)
    print(answer({"instance": instance, "scenario": scenario, "algo": "lpa-list",
                  "priority": argv[2]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
