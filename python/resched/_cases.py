"""Cases and answers across the boundary of ``diff``, ``judge`` and the Hypothesis strategy.

A case reaches a user's function as plain Python values: the instance as a dict in resched's
instance format (docs/reference/formats.md) with every time a ``fractions.Fraction`` and every
count an ``int``, and the failure scenario as the list of failure counts f_j. The function's
answer goes back as JSON text that the command's own reader (``resched diff``'s answer format)
reads exactly: a makespan (an ``int``, ``Fraction``, ``Decimal``, ``float`` or a string such as
``"7/2"``), or a schedule (a dict ``{"attempts": [...]}``, optionally with ``makespan``; a
``resched.Schedule``; or the list of attempts alone). A ``float`` is read as the decimal Python
prints for it (``2.5000000000000004``), never rounded to a nicer value.
"""

from __future__ import annotations

import json
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Dict, List, Tuple

# The fields of the instance format that hold a time (or a list of times).
_TIME_FIELDS = frozenset({"time", "w", "c", "gamma", "delta", "times"})

Instance = Dict[str, Any]
Failures = List[int]
Answer = Any
Program = Callable[[Instance, Failures], Answer]


def instance_from_json(text: str) -> Instance:
    """The instance dict of resched's JSON text, times as Fractions, ``format_version`` dropped."""
    raw = json.loads(text)
    raw.pop("format_version", None)
    return _times(raw, "")  # type: ignore[no-any-return]


def failures_from_json(text: str) -> Failures:
    """The failure counts of a scenario's JSON text."""
    return [int(f) for f in json.loads(text)["failures"]]


def _times(value: Any, key: str) -> Any:
    if isinstance(value, dict):
        return {k: _times(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_times(v, key) for v in value]
    if key in _TIME_FIELDS and isinstance(value, (int, str)) and not isinstance(value, bool):
        return Fraction(value)
    return value


def answer_json(answer: Answer) -> str:
    """The JSON text of an answer (module doc); a ``TypeError`` names what is not one."""
    if isinstance(answer, list):
        answer = {"attempts": answer}
    return json.dumps(_plain(answer, "answer"), separators=(",", ":"))


def _plain(value: Any, path: str) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        # json writes repr(value): the shortest decimal that reads back as this float.
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, numbers.Rational):
        return str(Fraction(int(value.numerator), int(value.denominator)))
    if isinstance(value, numbers.Real):  # e.g. numpy floats
        return float(value)
    raise TypeError(f"{path}: a {type(value).__name__} is not part of an answer")


def call_program(program: Program, instance_text: str, scenario_text: str) -> Tuple[bool, str]:
    """Runs the user's function on a case; ``(True, answer JSON)``, or ``(False, why)`` when it
    raised an ``Exception`` or returned something that is not an answer (a ``crash``, as a
    program that exits with an error is). ``KeyboardInterrupt`` and ``SystemExit`` pass."""
    try:
        answer = program(instance_from_json(instance_text), failures_from_json(scenario_text))
        return True, answer_json(answer)
    except Exception as e:  # noqa: BLE001 - the user's bug is a finding, not a crash of diff
        return False, f"{type(e).__name__}: {e}"
