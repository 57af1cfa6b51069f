"""resched from Python: exact resilient scheduling of parallel jobs (rigid and moldable).

A thin layer over the Rust engine (``resched._native``, built from this repository with
maturin and PyO3). Every run goes through resched's oracle: the catalogue builds the algorithm,
the semi-online engine runs it, the independent checker validates the schedule, and the lower
bound gives the exact ratio.

Inputs are plain dicts in resched's JSON formats (docs/reference/formats.md)::

    instance = {"processors": 4, "jobs": [{"name": "J1", "procs": 2, "time": Fraction(3, 2)}]}
    scenario = {"failures": [1]}          # or the list [1], or None for no failure

or a path (``str`` or ``os.PathLike``) to such a JSON file. Exact numbers may be given as
``int``, ``fractions.Fraction``, ``decimal.Decimal`` or a string (``"3/2"``, ``"9.8"``).
A ``float`` is refused (``InputError``): 0.1 has no exact binary value, and resched never
guesses which rational was meant; write ``Fraction(1, 10)`` or ``"0.1"``.

Every time returned (makespans, starts, durations, bounds, ratios) is a
``fractions.Fraction``; pass ``exact=False`` to get floats instead (rounded once, at the end).

Errors are exceptions of the ``ReschedError`` hierarchy carrying resched's message, which
names the input and the field (``instance: field `jobs[0].procs`: …``):
``InputError`` (bad input or parameter), ``LimitError`` (beyond a stated budget),
``InternalError`` (a bug in resched: the engine and the checker disagree).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
import json
import numbers
import os
import pathlib
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from . import _native
from ._native import InputError, InternalError, LimitError, ReschedError

__all__ = [
    "ReschedError",
    "InputError",
    "LimitError",
    "InternalError",
    "algorithms",
    "priorities",
    "simulate",
    "certify",
    "opt",
    "verify",
    "batch",
    "diff",
    "judge",
    "draw_case",
    "Schedule",
    "schedule_frame",
    "results_frame",
    "DiffReport",
    "Mismatch",
    "Verdict",
]

__version__: str = _native.__version__

# An input: a dict in resched's JSON format, or a path to such a file.
Input = Union[Mapping[str, Any], str, "os.PathLike[str]"]
# A scenario: as an input, or the list of failure counts, or None (no job fails).
ScenarioInput = Union[Input, List[int], Tuple[int, ...], None]

# The keyword parameters of an algorithm (the `**params` of simulate, certify and verify).
_ALGO_PARAMS = ("priority", "seed", "eps")


def algorithms() -> List[Dict[str, Any]]:
    """The catalogue: one dict per algorithm (``name``, ``aliases``, ``paper``, ``citation``,
    ``section``, ``label``, ``family``, ``params``, ``summary``, ``parametric``,
    ``evaluated``). ``r-list:<m>`` entries are patterns: ``r-list:2`` is R-LIST with m = 2."""
    return _native.algorithms()


def priorities() -> List[str]:
    """The names of the priority rules (``lpt`` … ``index``)."""
    return _native.priorities()


def simulate(
    instance: Input, scenario: ScenarioInput, algo: str, *, exact: bool = True, **params: Any
) -> Dict[str, Any]:
    """Runs ``algo`` on ``instance`` under the failure ``scenario``.

    ``params``: ``priority`` (a name of ``priorities()``, default ``"lpt"``), ``seed``
    (RANDOM's, default 0), ``eps`` (BATCH-LIST's ε, exact, default 3/10).

    Returns ``{"algorithm", "canonical", "makespan", "schedule", "completions"}``; the schedule
    is a dict of the schedule format (``attempts``: ``job``, ``attempt``, ``start``, ``procs``,
    ``duration``), already checked by resched's checker. ``certify`` returns the same run with
    its lower bound and ratio.
    """
    c = certify(instance, scenario, algo, exact=exact, **params)
    return {k: c[k] for k in ("algorithm", "canonical", "makespan", "schedule", "completions")}


def certify(
    instance: Input, scenario: ScenarioInput, algo: str, *, exact: bool = True, **params: Any
) -> Dict[str, Any]:
    """The oracle's certify path: ``simulate``'s result plus ``bound`` (``symbol`` — L(f) of
    the rigid paper or L'(J,f) of the moldable paper — ``tmax``, ``area``, ``lower``),
    ``ratio`` (makespan / lower bound, exact) and ``events`` (instants the scheduler ran)."""
    inst, sc = _inputs(instance, scenario)
    r = _native.certify(inst, sc, _algo_name(algo), **_algo_params(params))
    return _with_schedule(_finish(r, exact), inst)


def opt(
    instance: Input,
    scenario: ScenarioInput,
    *,
    method: str = "search",
    time_limit: Union[int, float, Fraction] = 10,
    node_limit: Optional[int] = None,
    exact: bool = True,
) -> Dict[str, Any]:
    """The exact optimum T_OPT(f) (the scenario known in advance) of a small instance.

    ``method``: ``"search"`` (branch and bound), ``"ilp"`` or ``"both"`` (they must agree).
    ``time_limit``: seconds per method (an int, Fraction or float; wall-clock, not a schedule
    time). Returns ``{"makespan", "optimal", "lower_bound", "schedule", "search_nodes"}``;
    when a limit stops the method, ``optimal`` is False and ``lower_bound`` < ``makespan``.
    """
    inst, sc = _inputs(instance, scenario)
    if not isinstance(method, str):
        raise InputError(f"option `method`: expected a string, got {type(method).__name__}")
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise InputError(f"option `time_limit`: expected seconds, got {time_limit!r}")
    if node_limit is not None:
        node_limit = _count(node_limit, "node_limit")
    r = _native.opt(inst, sc, method, float(time_limit), node_limit)
    return _with_schedule(_finish(r, exact), inst)


def verify(
    instance: Input,
    scenario: ScenarioInput,
    schedule: Input,
    algo: Optional[str] = None,
    *,
    exact: bool = True,
    **params: Any,
) -> Dict[str, Any]:
    """Checks a schedule made elsewhere (a dict ``{"attempts": [...]}``, or a result of
    ``simulate`` / ``certify`` / ``opt``, whose ``schedule`` is read).

    Returns ``{"feasible", "makespan", "violation"}``: ``feasible`` is True when resched's
    checker accepts it (``makespan`` is then its exact makespan), else ``violation`` names the
    first broken invariant. An infeasible schedule is an answer, not an exception. With
    ``algo`` (and its ``params``), also ``algorithm``, ``algorithm_makespan``,
    ``same_as_algorithm`` and ``difference`` (the first attempt where they differ, or None).
    """
    inst, sc = _inputs(instance, scenario)
    sch = _source(schedule, "schedule")
    kw = _algo_params(params)
    if algo is None:
        if kw:
            raise InputError(f"option `{next(iter(kw))}`: only with `algo`")
        r = _native.verify(inst, sc, sch)
    else:
        r = _native.verify(inst, sc, sch, _algo_name(algo), **kw)
    out: Dict[str, Any] = _finish(r, exact)
    return out


# ---------------------------------------------------------------------------------------------
# Inputs: dicts become JSON text with every number exact; paths stay paths.


def _inputs(instance: Any, scenario: Any) -> Tuple[Any, Any]:
    return _source(instance, "instance"), _scenario(scenario)


def _scenario(scenario: Any) -> Any:
    """A scenario dict, a list of failure counts, None (no job fails) or a path; None is
    passed on, and the Rust side makes one zero per job of the instance."""
    if scenario is None:
        return None
    if isinstance(scenario, (list, tuple)):
        scenario = {"failures": list(scenario)}
    return _source(scenario, "scenario")


def _source(value: Any, label: str) -> Any:
    """JSON text for a dict, a ``pathlib.Path`` for a path (the Rust side reads a ``str`` as
    JSON text and anything else as a path)."""
    if isinstance(value, (str, os.PathLike)):
        return pathlib.Path(value)
    if not isinstance(value, Mapping):
        raise InputError(
            f"{label}: expected a dict in resched's JSON format or a path, "
            f"got {type(value).__name__}"
        )
    try:
        return json.dumps(_exact(dict(value), label, ""), separators=(",", ":"))
    except RecursionError:
        raise InputError(f"{label}: nested too deeply") from None
    except ValueError as e:  # an int of more digits than Python converts to text (4300)
        raise InputError(f"{label}: {e}") from None


def _exact(value: Any, label: str, path: str) -> Any:
    """``value`` with every number made exact JSON: ints stay ints, Fractions and Decimals
    become ``"a/b"`` / decimal strings, floats are refused. ``label`` names the input and
    ``path`` the field (``jobs[0].time``), as resched's own messages do."""

    def refuse(msg: str) -> InputError:
        where = f"{label}: field `{path}`" if path else label
        return InputError(f"{where}: {msg}")

    if isinstance(value, Mapping):
        out: Dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise refuse(f"key {k!r} is not a string")
            out[k] = _exact(v, label, f"{path}.{k}" if path else k)
        return out
    if isinstance(value, (list, tuple)):
        return [_exact(v, label, f"{path}[{i}]") for i, v in enumerate(value)]
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise refuse(f"{value} is not a finite number")
        return str(value)
    if isinstance(value, float):
        raise refuse(
            f"the float {value!r} is not exact; write an int, a fractions.Fraction or a "
            f"string such as \"{value!r}\" or \"a/b\""
        )
    if isinstance(value, numbers.Rational):  # e.g. numpy integers, gmpy2 mpq
        return _exact(Fraction(int(value.numerator), int(value.denominator)), label, path)
    raise refuse(f"a {type(value).__name__} is not a JSON value")


def _count(value: Any, name: str) -> int:
    """A non-negative int parameter (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise InputError(f"option `{name}`: expected an int ≥ 0, got {value!r}")
    return int(value)


def _algo_name(algo: Any) -> str:
    if not isinstance(algo, str):
        raise InputError(f"option `algo`: expected a catalogue name, got {algo!r}")
    return algo


def _algo_params(params: Mapping[str, Any]) -> Dict[str, Any]:
    """``priority``, ``seed`` and ``eps`` checked and made exact; any other name refused."""
    for name in params:
        if name not in _ALGO_PARAMS:
            raise InputError(
                f"option `{name}`: unknown; an algorithm takes {', '.join(_ALGO_PARAMS)}"
            )
    kw: Dict[str, Any] = {}
    if params.get("priority") is not None:
        p = params["priority"]
        if not isinstance(p, str):
            raise InputError(f"option `priority`: expected a rule name, got {p!r}")
        kw["priority"] = p
    if params.get("seed") is not None:
        seed = _count(params["seed"], "seed")
        if seed >= 2**64:
            raise InputError(f"option `seed`: {seed} does not fit 64 bits")
        kw["seed"] = seed
    if params.get("eps") is not None:
        e = _exact(params["eps"], "option `eps`", "")
        if isinstance(e, bool) or not isinstance(e, (int, str)):
            raise InputError(f"option `eps`: expected an exact number, got {params['eps']!r}")
        kw["eps"] = str(e)
    return kw


# ---------------------------------------------------------------------------------------------
# Outputs: Fractions, or floats when asked.


def _finish(value: Any, exact: bool) -> Any:
    if exact:
        return value
    return _floats(value)


def _floats(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return value


def _with_schedule(result: Dict[str, Any], instance: Any) -> Dict[str, Any]:
    """The result with its ``schedule`` a ``Schedule`` that knows the platform and the names."""
    if isinstance(result.get("schedule"), Mapping):
        procs, names = _native.describe(instance)
        result["schedule"] = Schedule(result["schedule"], procs, names)
    return result


# ---------------------------------------------------------------------------------------------
# Many requests at once, as `resched batch`.

# Response fields that hold an exact time (batch writes them as strings such as "13/2").
_BATCH_TIMES = ("makespan", "ratio")


def batch(
    requests: Iterable[Mapping[str, Any]],
    *,
    schedules: bool = False,
    threads: Optional[int] = None,
    exact: bool = True,
) -> List[Dict[str, Any]]:
    """Answers many certify requests in one call, by the code of ``resched batch``
    (docs/reference/protocol.md): one response per request, in request order, computed on
    ``threads`` workers (default: one per core) without holding the interpreter.

    A request is a dict: ``instance`` (a dict, or a path: sent as ``instance_file``),
    ``scenario`` (a dict, a list of failure counts, or a path: ``scenario_file``; absent: no
    job fails), ``algo``, and optionally ``priority``, ``seed``, ``eps``, ``id``. A response is
    the protocol's dict with its exact times as Fractions (``exact=False``: floats):
    ``makespan``, ``ratio``, ``bound`` (``kind``, ``tmax``, ``area``, ``lower``),
    ``completions`` (``job``, ``index``, ``time``), with ``schedules=True`` the ``schedule``
    (a ``Schedule``); a request that cannot be answered gets ``{"line", "id", "error"}``
    naming the field, and never stops the others. ``results_frame`` makes a table of them.
    """
    if isinstance(threads, bool) or (threads is not None and not isinstance(threads, int)):
        raise InputError(f"option `threads`: expected an int, got {threads!r}")
    lines: List[str] = []
    platforms: List[Any] = []
    for i, req in enumerate(requests):
        if not isinstance(req, Mapping):
            raise InputError(f"requests[{i}]: expected a dict, got {type(req).__name__}")
        r = dict(req)
        label = f"requests[{i}]"
        for key in ("instance", "scenario"):
            v = r.get(key)
            if isinstance(v, (str, os.PathLike)):
                r[f"{key}_file"] = os.fspath(v)
                del r[key]
            elif key == "scenario" and isinstance(v, (list, tuple)):
                r[key] = {"failures": list(v)}
        if r.get("scenario") is None and "scenario_file" not in r:
            r.pop("scenario", None)
            if isinstance(r.get("instance"), Mapping) and isinstance(r["instance"].get("jobs"), list):
                r["scenario"] = {"failures": [0] * len(r["instance"]["jobs"])}
        inst = r.get("instance")
        platforms.append(inst if isinstance(inst, Mapping) else r.get("instance_file"))
        try:
            lines.append(json.dumps(_exact(r, label, ""), separators=(",", ":")))
        except ValueError as e:
            raise InputError(f"{label}: {e}") from None
    out = _native.batch(lines, bool(schedules), threads)
    responses = []
    for text, platform in zip(out, platforms):
        resp = json.loads(text)
        if "error" not in resp:
            resp = _batch_exact(resp)
            if "schedule" in resp:
                names = [c["job"] for c in resp["completions"]]
                procs = platform.get("processors") if isinstance(platform, Mapping) else None
                if procs is None and platform is not None:
                    procs = _native.describe(pathlib.Path(platform))[0]
                resp["schedule"] = Schedule(_finish(resp["schedule"], exact), procs, names)
            for k in _BATCH_TIMES:
                resp[k] = _finish(resp[k], exact)
            for k in ("tmax", "area", "lower"):
                resp["bound"][k] = _finish(resp["bound"][k], exact)
            for c in resp["completions"]:
                c["time"] = _finish(c["time"], exact)
        responses.append(resp)
    return responses


def _batch_exact(resp: Dict[str, Any]) -> Dict[str, Any]:
    """A response's exact strings as Fractions."""
    for k in _BATCH_TIMES:
        resp[k] = Fraction(resp[k])
    for k in ("tmax", "area", "lower"):
        resp["bound"][k] = Fraction(resp["bound"][k])
    for c in resp["completions"]:
        c["time"] = Fraction(c["time"])
    sch = resp.get("schedule")
    if sch is not None:
        for a in sch["attempts"]:
            a["start"], a["duration"] = Fraction(a["start"]), Fraction(a["duration"])
        if "makespan" in sch:
            sch["makespan"] = Fraction(sch["makespan"])
    return resp


# ---------------------------------------------------------------------------------------------
# Tables, charts, diff: in their own modules.

from ._frames import Schedule, results_frame  # noqa: E402
from ._diff import DiffReport, Mismatch, Verdict, diff, draw_case, judge  # noqa: E402


def schedule_frame(schedule: Mapping[str, Any], instance: Optional[Input] = None) -> Any:
    """A pandas DataFrame of a schedule, one row per attempt (``Schedule.to_frame``). A plain
    schedule dict gets its names and processor ids from ``instance`` when given."""
    if isinstance(schedule, Mapping) and "attempts" not in schedule and "schedule" in schedule:
        schedule = schedule["schedule"]
    if not isinstance(schedule, Schedule) or (instance is not None and schedule.names is None):
        procs, names = (None, None) if instance is None else _native.describe(
            _source(instance, "instance"))
        schedule = Schedule(schedule, procs, names)
    return schedule.to_frame()
