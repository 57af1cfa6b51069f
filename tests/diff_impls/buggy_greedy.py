#!/usr/bin/env python3
"""A GREEDY (R-LIST with m = 0, LPT, ties by job index) with the bugs real simulators have,
for `resched diff`'s tests. Its own event loop, written the way event-queue simulators
usually are: pop one event, update, schedule, repeat.

Planted bug (on unless --no-bug): completions at the same instant are handled one at a time,
in job-index order, and the scheduler runs after each single completion, so a start decision
at an instant can be taken while processors of the same instant are not yet released.
(The rigid paper's own C++ simulator handles its event queue this way.)

--float: floating-point time instead of exact fractions; completions less than 1e-9 apart
(relatively) count as one instant, as careful floating-point simulators do. Only makespans
are printed in this mode (a float schedule cannot be checked exactly).

Usage: buggy_greedy.py [--no-bug] [--float] [--schedule] INSTANCE SCENARIO
       buggy_greedy.py [--no-bug] [--float] [--schedule] --jsonl
"""
import json
import sys
from fractions import Fraction


def read(raw_time, use_float):
    if isinstance(raw_time, str) and "/" in raw_time:
        a, b = raw_time.split("/", 1)
        v = Fraction(a) / Fraction(b)
    else:
        v = Fraction(str(raw_time))
    return float(v) if use_float else v


def simulate(instance, failures, one_at_a_time, use_float):
    procs = int(instance["processors"])
    jobs = [(int(j["procs"]), read(j["time"], use_float)) for j in instance["jobs"]]
    order = sorted(range(len(jobs)), key=lambda j: -jobs[j][1])  # LPT, stable
    queue = list(order)
    made = [0] * len(jobs)
    events = []  # (end, job)
    free = procs
    now = 0.0 if use_float else Fraction(0)
    attempts = []

    def schedule():
        nonlocal free
        for j in list(queue):
            p, t = jobs[j]
            if p <= free:
                free -= p
                queue.remove(j)
                made[j] += 1
                events.append((now + t, j))
                attempts.append({"job": j, "attempt": made[j], "start": str(now),
                                 "procs": p, "duration": str(t)})

    def complete(j):
        nonlocal free
        free += jobs[j][0]
        if made[j] <= failures[j]:
            queue.append(j)
            queue.sort(key=order.index)

    schedule()
    while events:
        events.sort()
        now = events[0][0]
        if one_at_a_time:
            _, j = events.pop(0)
            complete(j)
            schedule()
            continue
        close = (lambda e: e - now <= 1e-9 * max(1.0, abs(now))) if use_float else (lambda e: e == now)
        batch = sorted(j for e, j in events if close(e))
        events[:] = [(e, j) for e, j in events if not close(e)]
        for j in batch:
            complete(j)
        schedule()
    return now, attempts


def answer(req, flags):
    if req["algo"] != "greedy" or req["priority"] != "lpt":
        raise ValueError("only greedy with lpt")
    failures = [int(f) for f in req["scenario"]["failures"]]
    makespan, attempts = simulate(req["instance"], failures, "--no-bug" not in flags,
                                  "--float" in flags)
    if "--schedule" in flags and "--float" not in flags:
        return {"schedule": {"attempts": attempts}}
    return {"makespan": repr(makespan) if "--float" in flags else str(makespan)}


def main(argv):
    flags = {a for a in argv if a.startswith("--") and a != "--jsonl"}
    args = [a for a in argv if not a.startswith("--")]
    if "--jsonl" in argv:
        for line in sys.stdin:
            req = json.loads(line)
            try:
                res = answer(req, flags)
            except ValueError as e:
                res = {"error": str(e)}
            res["id"] = req["id"]
            print(json.dumps(res), flush=True)
        return 0
    with open(args[0]) as f:
        instance = json.load(f)
    with open(args[1]) as f:
        scenario = json.load(f)
    res = answer({"instance": instance, "scenario": scenario, "algo": "greedy",
                  "priority": "lpt"}, flags)
    print(json.dumps(res["schedule"]) if "schedule" in res else res["makespan"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
