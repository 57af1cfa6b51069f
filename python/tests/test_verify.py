"""`resched.verify` on schedules built in Python: a feasible one, and infeasible ones, each
for a different broken invariant (capacity, a missing attempt, a wrong duration); and every
schedule an algorithm returns (random instances, fixed seeds) verifies as that algorithm's."""

from fractions import Fraction
import random

import pytest

import resched

# P = 3: J1 (2 procs, t = 2) fails once, J2 (2 procs, t = 1), J3 (1 proc, t = 4); the golden
# case tests/cases/opt_two_wide_jobs.json, whose optimum is 5.
INSTANCE = {"processors": 3, "jobs": [
    {"name": "J1", "procs": 2, "time": 2},
    {"name": "J2", "procs": 2, "time": 1},
    {"name": "J3", "procs": 1, "time": 4},
]}
SCENARIO = [1, 0, 0]


def attempt(job, number, start, procs, duration):
    return {"job": job, "attempt": number, "start": start, "procs": procs, "duration": duration}


FEASIBLE = {"attempts": [
    attempt(0, 1, 0, 2, 2),
    attempt(2, 1, 0, 1, 4),
    attempt(0, 2, 2, 2, 2),
    attempt(1, 1, 4, 2, 1),
]}


def test_a_feasible_schedule_built_in_python():
    v = resched.verify(INSTANCE, SCENARIO, FEASIBLE)
    assert v == {"feasible": True, "makespan": Fraction(5), "violation": None}


def test_it_is_greedys_schedule():
    v = resched.verify(INSTANCE, SCENARIO, FEASIBLE, algo="greedy")
    assert v["same_as_algorithm"] is True and v["difference"] is None
    assert v["algorithm_makespan"] == 5


def test_too_many_processors_at_once():
    bad = {"attempts": FEASIBLE["attempts"][:3] + [attempt(1, 1, 2, 2, 1)]}
    v = resched.verify(INSTANCE, SCENARIO, bad)
    assert v["feasible"] is False and v["makespan"] is None
    assert "capacity" in v["violation"] or "processors" in v["violation"], v["violation"]


def test_a_missing_attempt():
    bad = {"attempts": [a for a in FEASIBLE["attempts"] if a["attempt"] != 2]}
    v = resched.verify(INSTANCE, SCENARIO, bad)
    assert v["feasible"] is False
    assert "J1" in v["violation"] or "job 0" in v["violation"], v["violation"]


def test_a_wrong_duration_with_fractions():
    bad = {"attempts": [dict(a) for a in FEASIBLE["attempts"]]}
    bad["attempts"][3]["duration"] = Fraction(1, 2)
    v = resched.verify(INSTANCE, SCENARIO, bad)
    assert v["feasible"] is False
    assert "1/2" in v["violation"], v["violation"]


def test_a_malformed_schedule_is_an_input_error():
    with pytest.raises(resched.InputError, match=r"schedule: field `attempts\[0\]\.procs`"):
        resched.verify(INSTANCE, SCENARIO, {"attempts": [attempt(0, 1, 0, -2, 2)]})


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_every_algorithms_schedule_verifies_as_its_own(seed):
    rng = random.Random(seed)
    p = rng.randint(1, 6)
    jobs = [{"name": f"J{j}", "procs": rng.randint(1, p),
             "time": Fraction(rng.randint(1, 20), rng.randint(1, 4))}
            for j in range(rng.randint(1, 7))]
    inst = {"processors": p, "jobs": jobs}
    sc = [rng.randint(0, 2) for _ in jobs]
    best = resched.opt(inst, sc)
    for entry in resched.algorithms():
        name = entry["name"].replace("<m>", "2")
        r = resched.simulate(inst, sc, name)
        v = resched.verify(inst, sc, r, algo=name)
        assert v["feasible"] and v["same_as_algorithm"], f"seed {seed}, {name}: {v}"
        assert v["makespan"] == r["makespan"] >= best["makespan"], f"seed {seed}, {name}"
        # One attempt one unit shorter than the job's time is never feasible.
        broken = {"attempts": [dict(a) for a in r["schedule"]["attempts"]]}
        broken["attempts"][0]["duration"] -= 1
        assert not resched.verify(inst, sc, broken)["feasible"], f"seed {seed}, {name}"
