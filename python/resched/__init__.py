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

from decimal import Decimal
from fractions import Fraction
import json
import numbers
import os
import pathlib

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
]

__version__ = _native.__version__

# The keyword parameters of an algorithm (the `**params` of simulate, certify and verify).
_ALGO_PARAMS = ("priority", "seed", "eps")


def algorithms():
    """The catalogue: one dict per algorithm (``name``, ``aliases``, ``paper``, ``citation``,
    ``section``, ``label``, ``family``, ``params``, ``summary``, ``parametric``,
    ``evaluated``). ``r-list:<m>`` entries are patterns: ``r-list:2`` is R-LIST with m = 2."""
    return _native.algorithms()


def priorities():
    """The names of the priority rules (``lpt`` … ``index``)."""
    return _native.priorities()


def simulate(instance, scenario, algo, *, exact=True, **params):
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


def certify(instance, scenario, algo, *, exact=True, **params):
    """The oracle's certify path: ``simulate``'s result plus ``bound`` (``symbol`` — L(f) of
    the rigid paper or L'(J,f) of the moldable paper — ``tmax``, ``area``, ``lower``),
    ``ratio`` (makespan / lower bound, exact) and ``events`` (instants the scheduler ran)."""
    inst, sc = _inputs(instance, scenario)
    r = _native.certify(inst, sc, _algo_name(algo), **_algo_params(params))
    return _finish(r, exact)


def opt(instance, scenario, *, method="search", time_limit=10, node_limit=None, exact=True):
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
    return _finish(r, exact)


def verify(instance, scenario, schedule, algo=None, *, exact=True, **params):
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
    return _finish(r, exact)


# ---------------------------------------------------------------------------------------------
# Inputs: dicts become JSON text with every number exact; paths stay paths.


def _inputs(instance, scenario):
    return _source(instance, "instance"), _scenario(scenario)


def _scenario(scenario):
    """A scenario dict, a list of failure counts, None (no job fails) or a path; None is
    passed on, and the Rust side makes one zero per job of the instance."""
    if scenario is None:
        return None
    if isinstance(scenario, (list, tuple)):
        scenario = {"failures": list(scenario)}
    return _source(scenario, "scenario")


def _source(value, label):
    """JSON text for a dict, a ``pathlib.Path`` for a path (the Rust side reads a ``str`` as
    JSON text and anything else as a path)."""
    if isinstance(value, (str, os.PathLike)):
        return pathlib.Path(value)
    if not isinstance(value, dict):
        raise InputError(
            f"{label}: expected a dict in resched's JSON format or a path, "
            f"got {type(value).__name__}"
        )
    try:
        return json.dumps(_exact(value, label, ""), separators=(",", ":"))
    except RecursionError:
        raise InputError(f"{label}: nested too deeply") from None
    except ValueError as e:  # an int of more digits than Python converts to text (4300)
        raise InputError(f"{label}: {e}") from None


def _exact(value, label, path):
    """``value`` with every number made exact JSON: ints stay ints, Fractions and Decimals
    become ``"a/b"`` / decimal strings, floats are refused. ``label`` names the input and
    ``path`` the field (``jobs[0].time``), as resched's own messages do."""

    def refuse(msg):
        where = f"{label}: field `{path}`" if path else label
        return InputError(f"{where}: {msg}")

    if isinstance(value, dict):
        out = {}
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
        return _exact(Fraction(value.numerator, value.denominator), label, path)
    raise refuse(f"a {type(value).__name__} is not a JSON value")


def _count(value, name):
    """A non-negative int parameter (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise InputError(f"option `{name}`: expected an int ≥ 0, got {value!r}")
    return int(value)


def _algo_name(algo):
    if not isinstance(algo, str):
        raise InputError(f"option `algo`: expected a catalogue name, got {algo!r}")
    return algo


def _algo_params(params):
    """``priority``, ``seed`` and ``eps`` checked and made exact; any other name refused."""
    for name in params:
        if name not in _ALGO_PARAMS:
            raise InputError(
                f"option `{name}`: unknown; an algorithm takes {', '.join(_ALGO_PARAMS)}"
            )
    kw = {}
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


def _finish(value, exact):
    if exact:
        return value
    return _floats(value)


def _floats(value):
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return value
