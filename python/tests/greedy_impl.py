"""A GREEDY written in Python for the tests of ``resched.diff`` and ``resched.strategies``: R-LIST
with m = 0 and the LPT priority (rigid paper, Algorithm 1 with no reservation), from the paper's
rules, not from resched's code, with switches for the bugs real simulators have.

- ``greedy(instance, failures)``: exact; all attempts ending at one instant complete together
  before any start decision of that instant; the queue is in LPT order, ties by job index, a
  failed job back at its rank; at an instant, every queued job that fits starts, in order.
- ``one_at_a_time=True``: the planted same-instant bug of event-queue simulators: completions
  of one instant are handled one by one and the scheduler runs after each.
- ``use_float=True``: binary floating-point time (returns a float makespan).
"""

from fractions import Fraction


def simulate(instance, failures, *, one_at_a_time=False, use_float=False, schedule=True):
    procs = instance["processors"]
    conv = float if use_float else Fraction
    jobs = [(j["procs"], conv(j["time"])) for j in instance["jobs"]]
    order = sorted(range(len(jobs)), key=lambda j: -Fraction(instance["jobs"][j]["time"]))
    rank = {j: r for r, j in enumerate(order)}
    queue = list(order)
    made = [0] * len(jobs)
    events = []  # (end, job)
    free = procs
    now = conv(0)
    attempts = []

    def start_what_fits():
        nonlocal free
        for j in list(queue):
            p, t = jobs[j]
            if p <= free:
                free -= p
                queue.remove(j)
                made[j] += 1
                events.append((now + t, j))
                attempts.append({"job": j, "attempt": made[j], "start": now, "procs": p,
                                 "duration": t})

    def complete(j):
        nonlocal free
        free += jobs[j][0]
        if made[j] <= failures[j]:
            queue.append(j)
            queue.sort(key=rank.get)

    start_what_fits()
    while events:
        events.sort()
        now = events[0][0]
        ending = [e for e in events if e[0] == now]
        if one_at_a_time:
            ending = ending[:1]
        for e in ending:
            events.remove(e)
            complete(e[1])
        start_what_fits()
    if schedule and not use_float:
        return {"attempts": attempts, "makespan": now}
    return now


def greedy(instance, failures):
    """The correct GREEDY: its schedule."""
    return simulate(instance, failures)


def greedy_makespan(instance, failures):
    """The correct GREEDY: its makespan alone."""
    return simulate(instance, failures, schedule=False)


def buggy_greedy(instance, failures):
    """GREEDY with the same-instant bug: its schedule."""
    return simulate(instance, failures, one_at_a_time=True)


def float_greedy(instance, failures):
    """GREEDY in floating point: a float makespan."""
    return simulate(instance, failures, use_float=True)
