"""Schedules and results as DataFrames, the Gantt chart, and ``batch``: exact values of one small
rigid case (GREEDY/LPT on P = 4, A fails once, C twice)."""

from fractions import Fraction
import xml.etree.ElementTree as ET

import pytest

import resched

INST = {"processors": 4, "jobs": [{"name": "A", "procs": 2, "time": 3},
                                  {"name": "B", "procs": 3, "time": Fraction(5, 2)},
                                  {"name": "C", "procs": 1, "time": 1}]}
FAILS = [1, 0, 2]
# (name, attempt, final, procs, start, end, nodes), in start order.
ROWS = [
    ("A", 1, False, 2, 0, 3, (0, 1)),
    ("C", 1, False, 1, 0, 1, (2,)),
    ("C", 2, False, 1, 1, 2, (2,)),
    ("C", 3, True, 1, 2, 3, (2,)),
    ("A", 2, True, 2, 3, 6, (0, 1)),
    ("B", 1, True, 3, 6, Fraction(17, 2), (0, 1, 2)),
]


def test_a_schedule_knows_its_names_and_is_still_the_dict():
    r = resched.certify(INST, FAILS, "greedy")
    s = r["schedule"]
    assert isinstance(s, resched.Schedule) and s.names == ["A", "B", "C"] and s.processors == 4
    assert s == dict(s) and r["makespan"] == Fraction(17, 2)
    assert resched.verify(INST, FAILS, s)["feasible"]


def test_schedule_frame_has_float_and_exact_columns():
    pd = pytest.importorskip("pandas")
    f = resched.certify(INST, FAILS, "greedy")["schedule"].to_frame()
    assert list(f.columns) == ["job", "name", "attempt", "final", "procs", "start", "end",
                               "duration", "start_exact", "end_exact", "duration_exact",
                               "nodes"]
    got = list(zip(f["name"], f["attempt"], f["final"], f["procs"], f["start_exact"],
                   f["end_exact"], f["nodes"]))
    assert got == ROWS
    assert f["end"].dtype == "float64" and f["end"].iloc[-1] == 8.5
    assert f["end_exact"].dtype == object and isinstance(f["end_exact"].iloc[-1], Fraction)
    assert f["job"].dtype == "int64"
    # A plain schedule dict, with the instance for names and processors.
    plain = dict(resched.opt(INST, FAILS)["schedule"])
    g = resched.schedule_frame(plain, INST)
    assert set(g["name"]) == {"A", "B", "C"} and g["end_exact"].max() == Fraction(17, 2)
    assert isinstance(g, pd.DataFrame)


def test_gantt_svg_is_well_formed_with_one_box_per_processor_run():
    svg = resched.certify(INST, FAILS, "greedy")["schedule"]._repr_svg_()
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    boxes = [g.find(f"{ns}rect") for g in root.iter(f"{ns}g")]
    assert len(boxes) == 6
    tips = [g.find(f"{ns}title").text for g in root.iter(f"{ns}g")]
    assert tips[-1] == "B attempt 1: [6, 17/2) on 3 processor(s)"
    assert tips[0] == "A attempt 1: [0, 3) on 2 processor(s), fails"
    assert "makespan 17/2" in svg


def test_gantt_on_matplotlib():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    ax = resched.certify(INST, FAILS, "greedy")["schedule"].gantt()
    assert len(ax.collections) == 6 and ax.get_title() == "R-LIST(m=0)/LPT: makespan 17/2"


def test_batch_answers_in_order_with_exact_times_and_errors_in_place():
    reqs = [
        {"instance": INST, "scenario": FAILS, "algo": "greedy", "id": "a"},
        {"instance": INST, "scenario": FAILS, "algo": "nope", "id": "b"},
        {"instance": INST, "algo": "easy", "id": "c"},
    ]
    out = resched.batch(reqs, schedules=True, threads=2)
    assert [r["id"] for r in out] == ["a", "b", "c"]
    assert out[0]["makespan"] == Fraction(17, 2) and out[0]["ratio"] == Fraction(17, 12)
    assert out[0]["bound"] == {"kind": "L(f)", "tmax": 6, "area": Fraction(45, 2), "lower": 6}
    assert [c["time"] for c in out[0]["completions"]] == [6, Fraction(17, 2), 3]
    assert out[0]["schedule"] == resched.simulate(INST, FAILS, "greedy")["schedule"]
    assert out[0]["schedule"].names == ["A", "B", "C"]
    assert out[1]["error"].startswith("field `algo`") or "nope" in out[1]["error"]
    assert out[2]["makespan"] == Fraction(11, 2)
    floats = resched.batch(reqs[:1], exact=False)
    assert floats[0]["makespan"] == 8.5 and "schedule" not in floats[0]
    with pytest.raises(resched.InputError, match="requests\\[0\\]"):
        resched.batch([{"instance": INST, "scenario": [0.5, 0, 0], "algo": "greedy"}])


def test_results_frame_of_batch_and_certify():
    pytest.importorskip("pandas")
    out = resched.batch([{"instance": INST, "scenario": FAILS, "algo": a, "id": a}
                         for a in ("greedy", "easy", "bad")])
    out.append(resched.certify(INST, FAILS, "lpa-list"))
    f = resched.results_frame(out)
    assert list(f["id"]) == ["greedy", "easy", "bad", None]
    assert list(f["makespan_exact"][:2]) == [Fraction(17, 2), Fraction(17, 2)]
    assert f["makespan"].iloc[0] == 8.5 and f["makespan"].isna().iloc[2]
    assert f["error"].iloc[2] is not None and f["bound"].iloc[3] == "L(f)"
