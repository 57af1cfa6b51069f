"""A typed use of the package, checked by ``mypy --strict`` in python/ci.sh (and run by pytest):
the stub of the extension, ``py.typed`` and the annotations of the Python layer must let a
strictly typed program call every public function."""

from fractions import Fraction
from typing import Any, Dict, List

import resched
from resched.strategies import Case, assert_agrees

INSTANCE: Dict[str, Any] = {
    "processors": 2,
    "jobs": [{"name": "A", "procs": 1, "time": 1}, {"name": "B", "procs": 2, "time": 2}],
}


def makespan_of(instance: Dict[str, Any], failures: List[int]) -> Fraction:
    result = resched.simulate(instance, failures, "greedy")
    makespan: Fraction = result["makespan"]
    return makespan


def test_typed_usage() -> None:
    schedule: resched.Schedule = resched.certify(INSTANCE, [1, 0], "greedy")["schedule"]
    assert schedule.names == ["A", "B"]
    svg: str = schedule.to_svg()
    assert svg.startswith("<svg")
    report: resched.DiffReport = resched.diff(makespan_of, "greedy", cases=20)
    assert report.ok and report.mismatch is None
    verdict: resched.Verdict = resched.judge(INSTANCE, [1, 0], Fraction(4), "greedy")
    assert verdict.verdict == "agree"
    responses: List[Dict[str, Any]] = resched.batch(
        [{"instance": INSTANCE, "scenario": [1, 0], "algo": "greedy"}]
    )
    assert responses[0]["makespan"] == Fraction(4)
    assert_agrees(makespan_of, Case(INSTANCE, [1, 0]), "greedy")
    inst, failures = resched.draw_case(0, 0)
    assert isinstance(inst["processors"], int) and len(failures) == len(inst["jobs"])
