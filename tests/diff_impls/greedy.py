#!/usr/bin/env python3
"""A second, independent GREEDY for `resched diff`'s tests: R-LIST with m = 0 (rigid paper,
Algorithm 1 with no reservation), written from the paper and resched's documented rules, not
from resched's code.

- Exact time: every instant is a fractions.Fraction.
- Queue order: the priority rule (lpt, spt, hpa, lpa, la, sa, ljf, index), ties by job index;
  a failed job goes back into the queue at its rank.
- Same-instant rule: all attempts that end at the same instant complete together (processors
  released, outcomes revealed) before any start decision of that instant.
- At an instant: scan the queue in order and start every job that fits in the free processors.

Usage (the two protocols of `resched diff`):
  greedy.py INSTANCE SCENARIO ALGO PRIORITY [--schedule]   one case; prints the makespan
                                                            (or the schedule as JSON)
  greedy.py --jsonl [--schedule]                            one request per stdin line
"""
import json
import sys
from fractions import Fraction

GREEDY_NAMES = {"greedy", "r-list-0", "r-list:0"}


def exact(v):
    """An exact time from JSON: an integer, a string "a/b" or a decimal."""
    if isinstance(v, bool):
        raise ValueError(f"not a time: {v!r}")
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, float):
        return Fraction(repr(v))
    if isinstance(v, str):
        if "/" in v:
            a, b = v.split("/", 1)
            return Fraction(a.strip()) / Fraction(b.strip())
        return Fraction(v.strip())
    raise ValueError(f"not a time: {v!r}")


def read_instance(raw):
    procs = int(raw["processors"])
    jobs = []
    for k, j in enumerate(raw["jobs"]):
        if "speedup" in j:
            raise ValueError(f"job {k} is moldable; this GREEDY schedules rigid jobs only")
        jobs.append((int(j["procs"]), exact(j["time"])))
    return procs, jobs


def queue_order(jobs, procs, priority):
    idx = list(range(len(jobs)))
    p = lambda j: jobs[j][0]
    t = lambda j: jobs[j][1]
    keys = {
        "index": lambda j: 0,
        "lpt": lambda j: -t(j),
        "spt": lambda j: t(j),
        "hpa": lambda j: -p(j),
        "lpa": lambda j: p(j),
        "la": lambda j: -p(j) * t(j),
        "sa": lambda j: p(j) * t(j),
        # Large jobs (2p > P) first by decreasing p, then the small ones by LPT.
        "ljf": lambda j: (0, -p(j), 0) if 2 * p(j) > procs else (1, 0, -t(j)),
    }
    if priority not in keys:
        raise ValueError(f"priority {priority!r} is not supported here")
    return sorted(idx, key=keys[priority])  # stable: ties stay in index order


def greedy(procs, jobs, failures, priority):
    """Returns (makespan, attempts) of GREEDY; attempts are dicts in resched's format."""
    rank = {j: r for r, j in enumerate(queue_order(jobs, procs, priority))}
    queued = set(range(len(jobs)))
    made = [0] * len(jobs)
    running = {}  # job -> end of its attempt
    free = procs
    now = Fraction(0)
    attempts = []

    def start_what_fits():
        nonlocal free
        # Free processors only decrease during the scan, so one pass in queue order starts
        # exactly the jobs that "repeatedly start the first queued job that fits" would.
        for j in sorted(queued, key=rank.get):
            p, t = jobs[j]
            if p <= free:
                free -= p
                queued.discard(j)
                made[j] += 1
                running[j] = now + t
                attempts.append({"job": j, "attempt": made[j], "start": str(now),
                                 "procs": p, "duration": str(t)})

    start_what_fits()
    while running:
        now = min(running.values())
        for j in sorted(j for j, end in running.items() if end == now):
            del running[j]
            free += jobs[j][0]
            if made[j] <= failures[j]:  # this attempt failed: back into the queue
                queued.add(j)
        start_what_fits()
    if queued:
        raise ValueError("a job needs more processors than the platform has")
    return now, attempts


def answer(instance, scenario, algo, priority, schedule):
    if algo.lower() not in GREEDY_NAMES:
        raise ValueError(f"only GREEDY is implemented, not {algo!r}")
    procs, jobs = read_instance(instance)
    failures = [int(f) for f in scenario["failures"]]
    makespan, attempts = greedy(procs, jobs, failures, priority.lower())
    if schedule:
        return {"schedule": {"attempts": attempts}, "makespan": str(makespan)}
    return {"makespan": str(makespan)}


def serve(schedule):
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            res = answer(req["instance"], req["scenario"], req["algo"], req["priority"], schedule)
        except (ValueError, KeyError) as e:
            res = {"error": str(e)}
        res["id"] = req["id"]
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


def main(argv):
    schedule = "--schedule" in argv
    args = [a for a in argv if a != "--schedule"]
    if args == ["--jsonl"]:
        serve(schedule)
        return 0
    if len(args) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        instance = json.load(f)
    with open(args[1]) as f:
        scenario = json.load(f)
    res = answer(instance, scenario, args[2], args[3], schedule)
    print(json.dumps(res["schedule"]) if schedule else res["makespan"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
