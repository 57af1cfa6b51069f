"""The catalogue from Python, and the whole golden corpus (tests/cases/) run through the
package: every pinned makespan and optimum of every case must come back exactly."""

from fractions import Fraction

import pytest

import resched
from conftest import CASES, load_case


def test_the_catalogue_lists_both_papers():
    entries = {e["name"]: e for e in resched.algorithms()}
    assert {"greedy", "easy", "conservative", "lpa-list", "batch-list"} <= entries.keys()
    assert entries["greedy"]["paper"] == "rigid" and entries["greedy"]["family"] == "rigid"
    assert entries["batch-list"]["params"] == ["priority", "eps"]
    assert "batch" in entries["batch-list"]["aliases"]
    assert entries["r-list:<m>"]["parametric"] is True
    assert "index" in resched.priorities() and "lpt" in resched.priorities()


CORPUS = sorted(p.relative_to(CASES).as_posix() for p in CASES.rglob("*.json"))


@pytest.mark.parametrize("name", CORPUS)
def test_golden_case(name):
    case = load_case(name)
    inst, sc = case["instance"], case["scenario"]
    for e in case["expect"]:
        params = {k: e[k] for k in ("priority", "seed", "eps") if k in e}
        c = resched.certify(inst, sc, e["algorithm"], **params)
        assert c["makespan"] == Fraction(str(e["makespan"])), f"{name}: {e['algorithm']}"
        if "lower_bound" in case:
            assert c["bound"]["lower"] == Fraction(str(case["lower_bound"])), name
