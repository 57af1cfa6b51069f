"""Inputs from Python: exact numbers in every accepted form, floats refused, and every bad
input an exception of the `ReschedError` hierarchy naming the field — never a crash."""

from decimal import Decimal
from fractions import Fraction
import json

import pytest

import resched


def rigid(*jobs, procs=2):
    return {"processors": procs,
            "jobs": [{"name": f"J{i}", "procs": p, "time": t} for i, (p, t) in enumerate(jobs)]}


@pytest.mark.parametrize("time", [Fraction(3, 2), "3/2", "1.5", Decimal("1.5"), "15e-1"])
def test_every_exact_form_of_a_time(time):
    r = resched.simulate(rigid((1, time), (1, 1)), None, "greedy")
    assert r["makespan"] == Fraction(3, 2)


def test_a_float_is_refused_with_its_field():
    with pytest.raises(resched.InputError, match=r"instance: field `jobs\[1\]\.time`: the float 0\.1"):
        resched.simulate(rigid((1, 1), (1, 0.1)), None, "greedy")
    with pytest.raises(resched.InputError, match="option `eps`"):
        resched.simulate(rigid((1, 1)), None, "batch-list", eps=0.3)


def test_huge_and_tiny_times_stay_exact():
    big = 10**40 + 1
    r = resched.simulate(rigid((1, big), (1, Fraction(1, 10**30))), None, "greedy")
    assert r["makespan"] == big and r["completions"][1] == Fraction(1, 10**30)


@pytest.mark.parametrize("instance, field", [
    (rigid((3, 1)), r"jobs\[0\]\.procs"),
    (rigid((1, -1)), r"jobs\[0\]\.time"),
    (rigid((1, "x")), r"jobs\[0\]\.time"),
    (rigid((True, 1)), r"jobs\[0\]\.procs"),
    ({"processors": 2, "jobs": [{"name": "a", "procs": 1, "time": 1, "typo": 1}]}, r"jobs\[0\]"),
    ({"processors": 0, "jobs": []}, "processors"),
])
def test_a_bad_instance_names_the_field(instance, field):
    with pytest.raises(resched.InputError, match=field):
        resched.simulate(instance, None, "greedy")


def test_a_bad_scenario_names_the_field():
    with pytest.raises(resched.InputError, match="scenario: field `failures`"):
        resched.simulate(rigid((1, 1)), [1, 1], "greedy")
    with pytest.raises(resched.InputError, match=r"failures\[0\]"):
        resched.simulate(rigid((1, 1)), [-1], "greedy")


def test_bad_parameters():
    inst = rigid((1, 1))
    with pytest.raises(resched.InputError, match="unknown algorithm `nope`"):
        resched.simulate(inst, None, "nope")
    with pytest.raises(resched.InputError, match="unknown rule `fifo`"):
        resched.simulate(inst, None, "greedy", priority="fifo")
    with pytest.raises(resched.InputError, match="option `prio`"):
        resched.simulate(inst, None, "greedy", prio="lpt")
    with pytest.raises(resched.InputError, match="takes no ε"):
        resched.simulate(inst, None, "greedy", eps=Fraction(1, 10))
    with pytest.raises(resched.InputError, match="option `seed`"):
        resched.simulate(inst, None, "greedy", seed=-1)
    with pytest.raises(resched.InputError, match="option `method`"):
        resched.opt(inst, None, method="magic")
    with pytest.raises(resched.InputError, match="option `time_limit`"):
        resched.opt(inst, None, time_limit=float("inf"))


def test_moldable_jobs_are_refused_by_rigid_algorithms():
    inst = {"processors": 2, "jobs": [
        {"name": "m", "speedup": {"model": "arbitrary", "times": [2, 1]}}]}
    with pytest.raises(resched.InputError, match="rigid jobs"):
        resched.simulate(inst, None, "easy")
    assert resched.simulate(inst, None, "mintime")["makespan"] == 1


def test_a_scenario_beyond_the_engines_budget_is_a_limit_error():
    with pytest.raises(resched.LimitError, match="attempts"):
        resched.simulate(rigid((1, 1)), [4_000_000_000], "greedy")


@pytest.mark.parametrize("garbage", [None, 3, [1, 2], b"{}", {1: 2}, {"processors": object()}])
def test_garbage_raises_never_crashes(garbage):
    with pytest.raises(resched.ReschedError):
        resched.simulate(garbage, None, "greedy")


def test_an_int_python_cannot_print_is_an_input_error():
    with pytest.raises(resched.InputError):
        resched.simulate(rigid((1, 10**5000)), None, "greedy")


def test_every_exception_is_a_resched_error():
    for cls in (resched.InputError, resched.LimitError, resched.InternalError):
        assert issubclass(cls, resched.ReschedError) and issubclass(cls, Exception)


def test_paths_to_json_files(tmp_path):
    inst = tmp_path / "instance.json"
    inst.write_text(json.dumps(rigid((2, 2), (2, 1), (1, 4), procs=3)))
    sc = tmp_path / "scenario.json"
    sc.write_text(json.dumps({"failures": [1, 0, 0]}))
    assert resched.simulate(inst, sc, "greedy")["makespan"] == 5
    assert resched.simulate(str(inst), str(sc), "greedy")["makespan"] == 5
    sc.write_text('{"failures": [1, 0]}')
    with pytest.raises(resched.InputError, match="scenario.json: field `failures`"):
        resched.simulate(inst, sc, "greedy")
    with pytest.raises(resched.InputError, match="missing.json"):
        resched.simulate(tmp_path / "missing.json", None, "greedy")


def test_deep_nesting_is_an_input_error():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(resched.InputError, match="nested too deeply"):
        resched.simulate({"processors": 1, "jobs": deep}, None, "greedy")
    shallow = []
    for _ in range(200):  # past serde_json's limit of 128, within Python's
        shallow = [shallow]
    with pytest.raises(resched.InputError, match=r"schedule: field `x\[0\].*`: recursion limit exceeded"):
        resched.verify(rigid((1, 1)), None, {"attempts": [], "x": shallow})


def test_a_fraction_python_cannot_print_is_an_input_error():
    with pytest.raises(resched.InputError, match="instance"):
        resched.simulate(rigid((1, Fraction(10**5000, 3))), None, "greedy")
