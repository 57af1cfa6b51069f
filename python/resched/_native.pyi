"""Type stub of ``resched._native``, the PyO3 extension (python/src/*.rs). Call the Python layer
(``resched``), which converts dicts to exact JSON text and documents every function."""

import os
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

# An input the extension reads: JSON text, or a path to a JSON file.
_Source = Union[str, "os.PathLike[str]"]

__version__: str

class ReschedError(Exception): ...
class InputError(ReschedError): ...
class LimitError(ReschedError): ...
class InternalError(ReschedError): ...

def algorithms() -> List[Dict[str, Any]]: ...
def priorities() -> List[str]: ...
def certify(
    instance: _Source,
    scenario: Optional[_Source],
    algo: str,
    priority: Optional[str] = None,
    seed: Optional[int] = None,
    eps: Optional[str] = None,
) -> Dict[str, Any]: ...
def opt(
    instance: _Source,
    scenario: Optional[_Source],
    method: str = "search",
    time_limit: float = 10.0,
    node_limit: Optional[int] = None,
) -> Dict[str, Any]: ...
def verify(
    instance: _Source,
    scenario: Optional[_Source],
    schedule: _Source,
    algo: Optional[str] = None,
    priority: Optional[str] = None,
    seed: Optional[int] = None,
    eps: Optional[str] = None,
) -> Dict[str, Any]: ...
def describe(instance: _Source) -> Tuple[int, List[str]]: ...
def place(processors: int, schedule: _Source) -> List[List[int]]: ...
def batch(
    lines: List[str], schedules: bool = False, threads: Optional[int] = None
) -> List[str]: ...
def draw_case(
    seed: int, case: int, procs: str, jobs: str, times: str, failures: int, kind: str
) -> Tuple[str, str]: ...
def judge(
    instance: _Source,
    scenario: Optional[_Source],
    answer: Tuple[bool, str],
    algo: str,
    priority: Optional[str] = None,
    seed: int = 0,
    eps: Optional[str] = None,
    rel_tol: Optional[str] = None,
    same_schedule: bool = False,
) -> Tuple[str, Optional[str], Optional[str]]: ...
def diff(
    call: Callable[[str, str], Tuple[bool, str]],
    algo: str,
    priority: Optional[str],
    algo_seed: int,
    eps: Optional[str],
    seed: int,
    cases: int,
    procs: str,
    jobs: str,
    times: str,
    failures: int,
    kind: str,
    rel_tol: Optional[str],
    same_schedule: bool,
    shrink_budget: int,
) -> Dict[str, Any]: ...
