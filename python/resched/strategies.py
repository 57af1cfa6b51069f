"""Hypothesis strategies that draw resched cases, with resched as the oracle.

``cases()`` draws an instance (rigid jobs, moldable jobs with explicit tables, or both) and a
failure scenario, built from Hypothesis's own primitives so that Hypothesis shrinks them (fewer
jobs, fewer processors, fewer failures, simpler times). ``assert_agrees`` runs a function on a
case and judges its answer against resched's exact run of the algorithm, as ``resched.diff``
does; a wrong answer is an ``AssertionError`` saying what differs::

    from hypothesis import given
    from resched.strategies import cases, assert_agrees

    @given(cases(jobs=(1, 5), times="rational"))
    def test_my_greedy(case):
        assert_agrees(my_greedy, case, "greedy")

Needs the ``hypothesis`` package (``pip install hypothesis``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

try:
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - exercised only without hypothesis
    raise ImportError(
        "resched.strategies needs hypothesis, which is not installed: pip install hypothesis"
    ) from None

from . import _cases
from ._diff import judge

__all__ = ["Case", "cases", "times", "assert_agrees"]


class Case(NamedTuple):
    """A drawn case: the instance dict (times as Fractions) and the failure counts f_j."""

    instance: Dict[str, Any]
    failures: List[int]


def times(spec: str = "rational") -> st.SearchStrategy[Fraction]:
    """Positive times as ``resched diff --times`` states them: ``grid:K`` (integers 1..K),
    ``rational`` (a/b with a ≤ 12, b ≤ 4) or ``rational:N/D``."""
    if spec.startswith("grid:"):
        k = int(spec[len("grid:"):])
        return st.integers(1, k).map(Fraction)
    num, den = 12, 4
    if spec.startswith("rational:"):
        n, d = spec[len("rational:"):].split("/")
        num, den = int(n), int(d)
    elif spec != "rational":
        raise ValueError(f"times: `{spec}`: expected grid:K or rational[:N/D]")
    return st.builds(Fraction, st.integers(1, num), st.integers(1, den))


@st.composite
def _table(draw: Callable[..., Any], procs: int, t: st.SearchStrategy[Fraction],
           monotonic: bool) -> Dict[str, Any]:
    """A moldable job's explicit table: ``monotonic`` (t(p) at k/4 of the way from
    (p−1)/p·t(p−1) to t(p−1), as the diff generator draws it) or ``arbitrary``."""
    if not monotonic:
        return {"model": "arbitrary", "times": [draw(t) for _ in range(procs)]}
    table = [draw(t)]
    for p in range(2, procs + 1):
        prev = table[-1]
        lo = prev * (p - 1) / p
        k = draw(st.integers(0, 4))
        table.append(lo + (prev - lo) * k / 4)
    return {"model": "monotonic", "times": table}


@st.composite
def cases(
    draw: Callable[..., Any],
    procs: Tuple[int, int] = (1, 8),
    jobs: Tuple[int, int] = (1, 6),
    times: str = "rational",
    failures: int = 2,
    kind: str = "rigid",
) -> Case:
    """A strategy of ``Case``: P in ``procs``, n in ``jobs``, each job rigid (p_j in 1..P, t_j
    drawn by ``times``) or, with ``kind="moldable"`` / ``"mixed"``, moldable with an explicit
    monotonic or arbitrary table; f_j in 0..``failures``."""
    if kind not in ("rigid", "moldable", "mixed"):
        raise ValueError(f"kind: `{kind}`: expected rigid, moldable or mixed")
    t = _times_strategy(times)
    p = draw(st.integers(procs[0], procs[1]))
    n = draw(st.integers(jobs[0], jobs[1]))
    out: List[Dict[str, Any]] = []
    for j in range(n):
        moldable = kind == "moldable" or (kind == "mixed" and draw(st.booleans()))
        if moldable:
            speedup = draw(_table(p, t, draw(st.booleans())))
            out.append({"name": f"J{j + 1}", "speedup": speedup})
        else:
            out.append({"name": f"J{j + 1}", "procs": draw(st.integers(1, p)), "time": draw(t)})
    f = [draw(st.integers(0, failures)) for _ in range(n)]
    return Case({"processors": p, "jobs": out}, f)


_times_strategy = times


def assert_agrees(
    program: Callable[[Dict[str, Any], List[int]], Any],
    case: Case,
    algo: str,
    *,
    rel_tol: Any = None,
    same_schedule: bool = True,
    priority: Optional[str] = None,
    seed: int = 0,
    eps: Any = None,
) -> None:
    """Runs ``program(instance, failures)`` on ``case`` and raises ``AssertionError`` unless
    resched's judge agrees (with ``same_schedule=False``, other decisions with the
    same makespan pass). An exception of the program propagates, so Hypothesis reports it."""
    answer = program(case.instance, list(case.failures))
    v = judge(case.instance, list(case.failures), answer, algo, rel_tol=rel_tol,
              same_schedule=same_schedule, priority=priority, seed=seed, eps=eps)
    if v.verdict == "mismatch":
        raise AssertionError(f"{v.kind}: {v.detail}")
