"""Schedules and results as tables and charts: ``Schedule`` (a schedule dict that knows its
platform and job names), pandas DataFrames of schedules and of results, and a Gantt chart that
renders in a notebook (SVG, no dependency) or on a matplotlib axis.

Every table keeps each time twice: a float column for plotting and arithmetic (``start``), and
an exact column beside it (``start_exact``, a ``fractions.Fraction``), so that nothing is
decided on a rounded value. pandas and matplotlib are optional: the functions that need them
import them when called, and say how to install them when they are missing.
"""

from __future__ import annotations

import html
import importlib
from fractions import Fraction
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from . import _native

# One colour per job (mod 10): the Tableau 10 palette, as matplotlib's default cycle.
_COLOURS = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)


def _require(module: str, purpose: str) -> Any:
    """Imports an optional dependency, or says which package to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package = {"matplotlib.pyplot": "matplotlib"}.get(module, module)
        raise ImportError(
            f"{purpose} needs {package}, which is not installed: pip install {package}"
        ) from None


class Schedule(Dict[str, Any]):
    """A schedule in resched's format (a dict: ``attempts``, ``makespan``, ``algorithm``) that
    also knows its platform (``processors``) and job ``names``; equal to the plain dict.

    ``to_frame()`` is its DataFrame, ``gantt()`` its matplotlib chart, ``to_svg()`` its chart
    as SVG text; in a notebook it displays as that chart.
    """

    processors: Optional[int]
    names: Optional[List[str]]

    def __init__(
        self,
        schedule: Mapping[str, Any],
        processors: Optional[int] = None,
        names: Optional[Sequence[str]] = None,
    ) -> None:
        super().__init__(schedule)
        self.processors = processors
        self.names = list(names) if names is not None else None

    def name(self, job: int) -> str:
        """Job ``job``'s name (``J<job+1>`` when the names are unknown)."""
        if self.names is not None and 0 <= job < len(self.names):
            return self.names[job]
        return f"J{job + 1}"

    def nodes(self) -> List[List[int]]:
        """The processor ids of every attempt (in attempt order): the schedule's own, or the
        deterministic placement resched's Batsim export writes (lowest free ids first)."""
        attempts = self["attempts"]
        if all("nodes" in a for a in attempts):
            return [list(a["nodes"]) for a in attempts]
        if self.processors is None:
            raise ValueError("a placement needs the platform: Schedule(d, processors=P)")
        from . import _source  # the package's exact JSON writer

        plain = {"attempts": [{k: v for k, v in a.items()} for a in attempts]}
        return _native.place(self.processors, _source(plain, "schedule"))

    def rows(self) -> List[Dict[str, Any]]:
        """One dict per attempt: ``job``, ``name``, ``attempt``, ``final`` (its job's last
        attempt), ``procs``, ``start``, ``end``, ``duration`` (Fractions), ``nodes``."""
        attempts = self["attempts"]
        last: Dict[int, int] = {}
        for a in attempts:
            last[a["job"]] = max(last.get(a["job"], 0), a["attempt"])
        try:
            nodes: List[Optional[List[int]]] = list(self.nodes())
        except ValueError:
            nodes = [None] * len(attempts)
        out = []
        for a, ids in zip(attempts, nodes):
            start, duration = Fraction(a["start"]), Fraction(a["duration"])
            out.append({
                "job": a["job"],
                "name": self.name(a["job"]),
                "attempt": a["attempt"],
                "final": a["attempt"] == last[a["job"]],
                "procs": a["procs"],
                "start": start,
                "end": start + duration,
                "duration": duration,
                "nodes": ids,
            })
        return out

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per attempt in start order: ``job``, ``name``,
        ``attempt``, ``final``, ``procs``, ``start``, ``end``, ``duration`` (float64), the same
        three times exact (``start_exact``, ``end_exact``, ``duration_exact``: Fractions), and
        ``nodes`` (the processor ids, a tuple; None without the platform)."""
        pd = _require("pandas", "a DataFrame")
        rows = sorted(self.rows(), key=lambda r: (r["start"], r["job"], r["attempt"]))
        cols: Dict[str, List[Any]] = {
            "job": [], "name": [], "attempt": [], "final": [], "procs": [],
            "start": [], "end": [], "duration": [],
            "start_exact": [], "end_exact": [], "duration_exact": [], "nodes": [],
        }
        for r in rows:
            for k in ("job", "name", "attempt", "final", "procs"):
                cols[k].append(r[k])
            for k in ("start", "end", "duration"):
                cols[k].append(float(r[k]))
                cols[f"{k}_exact"].append(r[k])
            cols["nodes"].append(tuple(r["nodes"]) if r["nodes"] is not None else None)
        frame = pd.DataFrame(cols)
        for k in ("job", "attempt", "procs"):
            frame[k] = frame[k].astype("int64")
        frame["final"] = frame["final"].astype(bool)
        for k in ("start", "end", "duration"):
            frame[k] = frame[k].astype("float64")
            frame[f"{k}_exact"] = frame[f"{k}_exact"].astype(object)
        return frame

    def to_svg(self, width: int = 720) -> str:
        """The Gantt chart as SVG text: one row per processor, one box per attempt (a job's
        colour; earlier, failed attempts lighter and hatched), time on the x axis."""
        return _svg(self, width)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def gantt(self, ax: Any = None) -> Any:
        """Draws the Gantt chart on a matplotlib axis (a new figure when ``ax`` is None) and
        returns the axis."""
        plt = _require("matplotlib.pyplot", "a Gantt chart")
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 3))
        for r in self.rows():
            colour = _COLOURS[r["job"] % len(_COLOURS)]
            for lo, hi in _runs(r["nodes"] or []):
                ax.broken_barh(
                    [(float(r["start"]), float(r["duration"]))], (lo, hi - lo + 1),
                    facecolors=colour, edgecolors="black", linewidth=0.5,
                    alpha=1.0 if r["final"] else 0.45, hatch=None if r["final"] else "//",
                )
                ax.text(float(r["start"] + r["duration"] / 2), (lo + hi + 1) / 2,
                        f"{r['name']}.{r['attempt']}", ha="center", va="center", fontsize=7)
        ax.set_xlabel("time")
        ax.set_ylabel("processor")
        if self.processors is not None:
            ax.set_ylim(0, self.processors)
        title = self.get("algorithm") or "schedule"
        ax.set_title(f"{title}: makespan {_makespan(self)}")
        return ax


def _makespan(s: Mapping[str, Any]) -> Fraction:
    ends = [Fraction(a["start"]) + Fraction(a["duration"]) for a in s["attempts"]]
    return max(ends, default=Fraction(0))


def _runs(ids: Iterable[int]) -> List[Tuple[int, int]]:
    """Sorted ids as maximal runs of consecutive ids, ``[(lo, hi), …]``."""
    out: List[Tuple[int, int]] = []
    for i in sorted(ids):
        if out and out[-1][1] + 1 == i:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def _svg(s: Schedule, width: int) -> str:
    rows = s.rows()
    procs = s.processors or max((r["procs"] for r in rows), default=1)
    end = _makespan(s) or Fraction(1)
    left, top, right, bottom = 40, 24, 12, 28
    row_h = max(2.0, min(22.0, 360.0 / procs))
    plot_w = width - left - right
    height = int(top + row_h * procs + bottom)

    def x(t: Fraction) -> float:
        return left + float(t / end) * plot_w

    title = html.escape(f"{s.get('algorithm') or 'schedule'}: makespan {_makespan(s)}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
        '<defs><pattern id="failed" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="3" height="6" fill="white" '
        'fill-opacity="0.5"/></pattern></defs>',
        f'<text x="{left}" y="14">{title}</text>',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{row_h * procs:.2f}" '
        'fill="none" stroke="#888"/>',
    ]
    for r in rows:
        colour = _COLOURS[r["job"] % len(_COLOURS)]
        label = html.escape(f"{r['name']}.{r['attempt']}")
        tip = html.escape(
            f"{r['name']} attempt {r['attempt']}: [{r['start']}, {r['end']}) "
            f"on {r['procs']} processor(s)" + ("" if r["final"] else ", fails")
        )
        ids = r["nodes"] if r["nodes"] is not None else list(range(r["procs"]))
        for lo, hi in _runs(ids):
            x0, x1 = x(r["start"]), x(r["end"])
            y0, h = top + row_h * lo, row_h * (hi - lo + 1)
            opacity = "1" if r["final"] else "0.5"
            out.append(
                f'<g><title>{tip}</title><rect x="{x0:.2f}" y="{y0:.2f}" width="{x1 - x0:.2f}" '
                f'height="{h:.2f}" fill="{colour}" fill-opacity="{opacity}" stroke="black" '
                'stroke-width="0.5"/>'
            )
            if not r["final"]:
                out.append(
                    f'<rect x="{x0:.2f}" y="{y0:.2f}" width="{x1 - x0:.2f}" height="{h:.2f}" '
                    'fill="url(#failed)"/>'
                )
            if x1 - x0 > 6 * len(label) and h >= 9:
                out.append(
                    f'<text x="{(x0 + x1) / 2:.2f}" y="{y0 + h / 2 + 3.5:.2f}" '
                    f'text-anchor="middle">{label}</text>'
                )
            out.append("</g>")
    axis_y = top + row_h * procs
    for k in range(5):
        t = end * k / 4
        out.append(
            f'<text x="{x(t):.2f}" y="{axis_y + 14:.2f}" text-anchor="middle">'
            f"{html.escape(_tick(t))}</text>"
        )
    out.append(
        f'<text x="{left - 4}" y="{top + 10}" text-anchor="end">P={procs}</text></svg>'
    )
    return "\n".join(out)


def _tick(t: Fraction) -> str:
    return str(t) if t.denominator == 1 else f"{float(t):.4g}"


# Result fields that hold an exact time, for ``results_frame``.
_RESULT_TIMES = ("makespan", "ratio")
_BOUND_TIMES = ("tmax", "area", "lower")


def results_frame(results: Iterable[Mapping[str, Any]]) -> Any:
    """A pandas DataFrame of results, one row each: the results of ``certify`` / ``simulate``
    or the responses of ``batch``. Columns: ``id`` and ``error`` (batch), ``algorithm``,
    ``canonical``, ``makespan``, ``ratio``, ``bound``, ``tmax``, ``area``, ``lower`` (float64,
    NaN on an error), each exact beside it (``makespan_exact``…: Fractions, None on an error),
    ``failures`` and ``attempts`` (counts)."""
    pd = _require("pandas", "a DataFrame")
    rows = []
    for r in results:
        bound = r.get("bound") or {}
        row: Dict[str, Any] = {
            "id": r.get("id"),
            "error": r.get("error"),
            "algorithm": r.get("algorithm"),
            "canonical": r.get("canonical"),
            "bound": bound.get("symbol", bound.get("kind")),
        }
        exact: Dict[str, Optional[Fraction]] = {}
        for k in _RESULT_TIMES:
            exact[k] = _fraction(r.get(k))
        for k in _BOUND_TIMES:
            exact[k] = _fraction(bound.get(k))
        for k, v in exact.items():
            row[k] = float(v) if v is not None else float("nan")
            row[f"{k}_exact"] = v
        schedule = r.get("schedule")
        attempts = r.get("attempts")
        if attempts is None and isinstance(schedule, Mapping):
            attempts = len(schedule["attempts"])
        row["attempts"] = attempts
        row["failures"] = r.get("failures")
        rows.append(row)
    frame = pd.DataFrame(rows, columns=[
        "id", "error", "algorithm", "canonical", "makespan", "makespan_exact", "ratio",
        "ratio_exact", "bound", "tmax", "tmax_exact", "area", "area_exact", "lower",
        "lower_exact", "attempts", "failures",
    ])
    for k in ("id", "error"):
        frame[k] = pd.Series([r[k] for r in rows], dtype=object)
    for k in _RESULT_TIMES + _BOUND_TIMES:
        frame[k] = frame[k].astype("float64")
        frame[f"{k}_exact"] = frame[f"{k}_exact"].astype(object)
    return frame


def _fraction(v: Any) -> Optional[Fraction]:
    if v is None:
        return None
    if isinstance(v, float):
        return Fraction(v)
    return Fraction(v)
