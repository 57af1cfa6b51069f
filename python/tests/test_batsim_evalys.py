"""resched's schedules opened in evalys, the Batsim world's analysis library: `resched simulate
--batsim-jobs` and `resched steal --batsim-dir` write Batsim's jobs.csv, and evalys's
`JobSet.from_csv` must read them with every job, its times and its processors as resched
computed them.

The `resched` program is the one the Rust tests built (`RESCHED_BIN`, set by python/ci.sh);
evalys comes from the package index (python/ci.sh installs it)."""

import csv
from fractions import Fraction
import os
import pathlib
import subprocess

import evalys.jobset as evalys_jobset

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("RESCHED_BIN", str(ROOT / "target" / "debug" / "resched"))


def resched(*args):
    return subprocess.run([BIN, *args], check=True, capture_output=True, text=True, cwd=ROOT)


def rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_a_rigid_schedule_opens_in_evalys(tmp_path):
    out = tmp_path / "jobs.csv"
    resched("simulate", "--instance", "docs/reference/data/instance.json",
            "--scenario", "docs/reference/data/scenario.json", "--algo", "greedy",
            "--batsim-jobs", str(out))
    js = evalys_jobset.JobSet.from_csv(str(out))
    df = js.df
    # 4 jobs, J2 failing once: 5 attempts, on P = 4 processors 0..3.
    assert len(df) == 5
    assert (js.res_bounds.inf, js.res_bounds.sup) == (0, 3)
    assert list(df.jobID) == ["resched!0", "resched!1", "resched!1#1", "resched!3", "resched!2"]
    assert list(df.starting_time) == [0, 0, 2, 3, 4.5]
    assert list(df.finish_time) == [3, 2, 4, 4.5, 6.5]
    assert list(df.success) == [1, 0, 1, 1, 1]
    assert [str(r) for r in df.allocated_resources] == ["0-1", "2-3", "2-3", "0", "0-3"]
    assert list(js.df.proc_alloc) == [2, 2, 2, 1, 4]


def test_a_steal_run_opens_in_evalys(tmp_path):
    d = tmp_path / "batsim"
    resched("steal", "--workload", "synthetic", "--variant", "baseline,SFSJ", "--seed", "3",
            "--batsim-dir", str(d))
    for variant in ["Baseline", "H111"]:
        path = d / f"{variant}_jobs.csv"
        raw = rows(path)
        js = evalys_jobset.JobSet.from_csv(str(path))
        assert len(js.df) == len(raw) > 1000
        # Every job of the workload completes exactly once.
        done = [r for r in raw if r["final_state"] == "COMPLETED_SUCCESSFULLY"]
        assert len({r["job"] for r in done}) == len(done) == 1000
        # Processor counts agree with the interval sets evalys parsed.
        assert list(js.df.proc_alloc) == [int(r["requested_number_of_resources"]) for r in raw]
        assert js.res_bounds.inf >= 0 and js.res_bounds.sup < 128
        # No processor runs two attempts at once, with evalys's reading of the ids and
        # resched's exact times (evalys's own load adds floats, and counts an attempt ending
        # at t and one starting at t together).
        by_node = {}
        for procs, r in zip(js.df.allocated_resources, raw):
            for node in procs:
                by_node.setdefault(node, []).append(
                    (Fraction(r["exact_start"]), Fraction(r["exact_finish"])))
        for node, spans in by_node.items():
            spans.sort()
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), node
