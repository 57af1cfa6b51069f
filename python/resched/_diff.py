"""``diff``: a Python implementation of a catalogue algorithm held against the oracle.

The loop is ``resched diff``'s own (``python/src/diff.rs``): seeded cases from the command's
generator, resched's exact answer through the certify path, the function's answer judged by the
command's judge (the checker first, then the makespan, then the decisions), and the first
mismatch shrunk to a local minimum by the command's shrinker. Case ``i`` of seed ``s`` is the
case ``resched diff --seed s --case i`` draws with the same scope.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from . import _cases, _native


class Verdict(NamedTuple):
    """The judge's word on one answer: ``verdict`` is ``"agree"``, ``"note"`` (same makespan,
    other decisions) or ``"mismatch"``; ``kind`` names a mismatch (``makespan``,
    ``decisions``, ``infeasible``, ``inconsistent``, ``crash``, ``garbage``); ``detail`` says
    what differs."""

    verdict: str
    kind: Optional[str]
    detail: Optional[str]


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """The first mismatch of a ``diff`` run and its shrunk form.

    ``instance`` and ``failures`` are the shrunk case (dict and list, as the function got
    them), ``kind`` and ``detail`` what the function got wrong on it; ``original_*`` the case
    as drawn (``case`` is its number) and what was wrong there. ``shrink_steps`` candidates
    were run; ``exhausted`` is True when the budget ended the shrink before a local minimum.
    """

    case: int
    kind: str
    detail: str
    instance: Dict[str, Any]
    failures: List[int]
    original_kind: str
    original_detail: str
    original_instance: Dict[str, Any]
    original_failures: List[int]
    shrink_steps: int
    exhausted: bool


@dataclasses.dataclass(frozen=True)
class DiffReport:
    """What a ``diff`` run found: ``cases`` drawn (up to and with the mismatch), ``agree``,
    ``notes`` (same makespan, other decisions; the first three in ``first_notes``) and the
    ``mismatch`` (None when every case agreed). True when there is no mismatch."""

    seed: int
    cases: int
    agree: int
    notes: int
    first_notes: List[str]
    mismatch: Optional[Mismatch]

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        head = f"{self.cases} cases (seed {self.seed}): {self.agree} agree, {self.notes} notes"
        m = self.mismatch
        if m is None:
            return head + ", no mismatch"
        jobs = len(m.instance["jobs"])
        return (
            f"{head}; mismatch on case {m.case} ({m.original_kind}: {m.original_detail}), "
            f"shrunk in {m.shrink_steps} steps to {jobs} job(s) on "
            f"P = {m.instance['processors']}, failures {m.failures} "
            f"({m.kind}: {m.detail})"
        )


def _range(value: Any, name: str) -> str:
    """``(lo, hi)``, an int, or the command's text ``"lo..hi"``."""
    if isinstance(value, tuple) and len(value) == 2:
        return f"{_int(value[0], name)}..{_int(value[1], name)}"
    if isinstance(value, str):
        return value
    return str(_int(value, name))


def _int(value: Any, name: str) -> int:
    from . import InputError

    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"option `{name}`: expected an int ≥ 0, got {value!r}")
    return value


def _opt_exact(value: Any, name: str) -> Optional[str]:
    from . import _exact

    if value is None:
        return None
    e = _exact(value, f"option `{name}`", "")
    if isinstance(e, bool) or not isinstance(e, (int, str)):
        from . import InputError

        raise InputError(f"option `{name}`: expected an exact number, got {value!r}")
    return str(e)


def scope_args(procs: Any, jobs: Any, times: str, failures: int, kind: str) -> Tuple[str, str, str, int, str]:
    """The scope keywords in the command's syntax (checked by the Rust side)."""
    return _range(procs, "procs"), _range(jobs, "jobs"), times, _int(failures, "failures"), kind


def draw_case(
    seed: int,
    case: int,
    *,
    procs: Any = (1, 8),
    jobs: Any = (1, 6),
    times: str = "rational",
    failures: int = 2,
    kind: str = "rigid",
) -> Tuple[Dict[str, Any], List[int]]:
    """Case ``case`` of seed ``seed`` (``resched diff``'s generator): ``(instance, failures)``."""
    i, s = _native.draw_case(_int(seed, "seed"), _int(case, "case"),
                             *scope_args(procs, jobs, times, failures, kind))
    return _cases.instance_from_json(i), _cases.failures_from_json(s)


def diff(
    program: _cases.Program,
    algo: str,
    *,
    cases: int = 1000,
    seed: int = 0,
    procs: Any = (1, 8),
    jobs: Any = (1, 6),
    times: str = "rational",
    failures: int = 2,
    kind: str = "rigid",
    priority: Optional[str] = None,
    algo_seed: int = 0,
    eps: Any = None,
    rel_tol: Any = None,
    same_schedule: bool = True,
    shrink_budget: int = 5000,
) -> DiffReport:
    """Holds ``program(instance, failures)`` against resched's ``algo`` on ``cases`` seeded
    cases, and shrinks the first mismatch (module doc; docs/guide/python.md)."""
    from . import InputError, _algo_name

    if not callable(program):
        raise InputError(f"`program`: expected a function, got {type(program).__name__}")
    if priority is not None and not isinstance(priority, str):
        raise InputError(f"option `priority`: expected a rule name, got {priority!r}")
    r = _native.diff(
        lambda i, s: _cases.call_program(program, i, s),
        _algo_name(algo), priority, _int(algo_seed, "algo_seed"), _opt_exact(eps, "eps"),
        _int(seed, "seed"), _int(cases, "cases"),
        *scope_args(procs, jobs, times, failures, kind),
        _opt_exact(rel_tol, "rel_tol"), bool(same_schedule), _int(shrink_budget, "shrink_budget"),
    )
    m = r["mismatch"]
    mismatch = None
    if m is not None:
        inst, sc = m["shrunk"]
        oi, osc = m["original"]
        mismatch = Mismatch(
            case=m["case"],
            kind=m.get("shrunk_kind", m["kind"]),
            detail=m.get("shrunk_detail", m["detail"]),
            instance=_cases.instance_from_json(inst),
            failures=_cases.failures_from_json(sc),
            original_kind=m["kind"],
            original_detail=m["detail"],
            original_instance=_cases.instance_from_json(oi),
            original_failures=_cases.failures_from_json(osc),
            shrink_steps=m["shrink_steps"],
            exhausted=m["exhausted"],
        )
    return DiffReport(seed=seed, cases=r["cases"], agree=r["agree"], notes=r["notes"],
                      first_notes=list(r["first_notes"]), mismatch=mismatch)


def judge(
    instance: Any,
    scenario: Any,
    answer: Any,
    algo: str,
    *,
    rel_tol: Any = None,
    same_schedule: bool = True,
    priority: Optional[str] = None,
    seed: int = 0,
    eps: Any = None,
) -> Verdict:
    """Judges one answer (a makespan or a schedule, as a ``diff`` function returns it) against
    resched's ``algo`` on (instance, scenario), as ``diff`` does: a schedule is checked, then
    its makespan compared (exactly, or within ``rel_tol``), then, with ``same_schedule`` (the
    default), its decisions; ``same_schedule=False`` makes other decisions a ``note``."""
    from . import _algo_name, _inputs

    inst, sc = _inputs(instance, scenario)
    try:
        text = (True, _cases.answer_json(answer))
    except TypeError as e:
        text = (False, f"TypeError: {e}")
    v, kind, detail = _native.judge(
        inst, sc, text, _algo_name(algo), priority, _int(seed, "seed"), _opt_exact(eps, "eps"),
        _opt_exact(rel_tol, "rel_tol"), bool(same_schedule),
    )
    return Verdict(v, kind, detail)
