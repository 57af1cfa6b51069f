"""``resched.diff``, ``resched.judge``, ``resched.draw_case`` and the Hypothesis strategy, held
against a correct Python GREEDY and buggy ones (greedy_impl.py): fixed seeds, exact counts, the
shrunk counterexamples pinned."""

from fractions import Fraction

import pytest

import resched
from greedy_impl import buggy_greedy, float_greedy, greedy, greedy_makespan


@pytest.mark.parametrize("program", [greedy, greedy_makespan])
def test_a_correct_greedy_agrees_on_every_case(program):
    r = resched.diff(program, "greedy", cases=500, seed=1)
    assert (r.ok, r.cases, r.agree, r.notes, r.mismatch) == (True, 500, 500, 0, None)
    assert str(r) == "500 cases (seed 1): 500 agree, 0 notes, no mismatch"


def test_the_same_instant_bug_is_found_and_shrunk():
    # Schedules are compared by default: the bug shows as a decision on case 90.
    r = resched.diff(buggy_greedy, "greedy", cases=500, seed=1)
    assert not r and (r.cases, r.agree) == (91, 90)
    m = r.mismatch
    assert (m.case, m.original_kind, m.kind) == (90, "decisions", "decisions")
    assert m.original_detail == (
        "same makespan 58, other decisions: attempt 1 of J2: resched starts at 46 on 6 "
        "processors, other starts at 49 on 6 processors"
    )
    assert m.instance["processors"] == 2 and m.failures == [3, 0, 0]
    assert len(m.instance["jobs"]) == 3 and not m.exhausted
    # The shrunk case still shows the bug, and the correct GREEDY passes it.
    assert resched.judge(m.instance, m.failures, buggy_greedy(m.instance, m.failures),
                         "greedy").verdict == "mismatch"
    assert resched.judge(m.instance, m.failures, buggy_greedy(m.instance, m.failures),
                         "greedy", same_schedule=False).verdict == "note"
    assert resched.judge(m.instance, m.failures, greedy(m.instance, m.failures),
                         "greedy").verdict == "agree"
    # Comparing makespans alone, the same 500 cases pass with 6 notes.
    r = resched.diff(buggy_greedy, "greedy", cases=500, seed=1, same_schedule=False)
    assert (r.ok, r.agree, r.notes) == (True, 494, 6)
    assert r.first_notes[0].startswith("case ")


def test_a_float_greedy_fails_exactly_and_passes_within_a_tolerance():
    r = resched.diff(float_greedy, "greedy", cases=500, seed=1)
    m = r.mismatch
    assert (r.cases, m.case, m.kind) == (5, 4, "makespan")
    assert m.instance == {"processors": 1,
                          "jobs": [{"name": "J2", "procs": 1, "time": Fraction(11, 3)}]}
    assert m.failures == [0]
    assert m.detail == ("resched 11/3 (≈3.666667), other "
                        "7333333333333333/2000000000000000 (≈3.666667)")
    r = resched.diff(float_greedy, "greedy", cases=500, seed=1, rel_tol="1e-9")
    assert (r.ok, r.agree) == (True, 500)


def test_an_exception_is_a_crash_shrunk_to_its_cause():
    def three_jobs_crash(instance, failures):
        if len(instance["jobs"]) > 2:
            raise ValueError("too many jobs")
        return greedy(instance, failures)

    m = resched.diff(three_jobs_crash, "greedy", cases=50).mismatch
    assert (m.case, m.kind, m.detail) == (0, "crash", "crashed: ValueError: too many jobs")
    assert len(m.instance["jobs"]) == 3 and m.instance["processors"] == 1
    assert m.failures == [0, 0, 0]


def test_an_interrupt_ends_the_run():
    def interrupted(instance, failures):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        resched.diff(interrupted, "greedy", cases=5)


def test_bad_options_are_input_errors():
    with pytest.raises(resched.InputError, match="option `procs`"):
        resched.diff(greedy, "greedy", procs=(0, 3))
    with pytest.raises(resched.InputError, match="option `times`"):
        resched.diff(greedy, "greedy", times="float")
    with pytest.raises(resched.InputError, match="rigid jobs only"):
        resched.diff(greedy, "greedy", kind="moldable")
    with pytest.raises(resched.InputError, match="expected a function"):
        resched.diff(3, "greedy")


def test_draw_case_is_the_commands_case():
    inst, f = resched.draw_case(1, 0, kind="mixed", jobs=(1, 4))
    assert inst == {"processors": 5, "jobs": [
        {"name": "J1", "speedup": {"model": "arbitrary", "times": [
            Fraction(1, 3), 1, Fraction(7, 2), Fraction(3, 4), 2]}},
        {"name": "J2", "procs": 5, "time": 2},
    ]}
    assert f == [2, 1]


def test_judge_reads_makespans_and_schedules():
    inst = {"processors": 2, "jobs": [{"name": "A", "procs": 1, "time": 1},
                                      {"name": "B", "procs": 2, "time": Fraction(3, 2)}]}
    assert resched.judge(inst, [1, 0], Fraction(7, 2), "greedy") == ("agree", None, None)
    assert resched.judge(inst, [1, 0], 3.5, "greedy").verdict == "agree"
    v = resched.judge(inst, [1, 0], 3, "greedy")
    assert v == ("mismatch", "makespan", "resched 7/2 (≈3.500000), other 3")
    sch = resched.simulate(inst, [1, 0], "greedy")["schedule"]
    assert resched.judge(inst, [1, 0], sch, "greedy").verdict == "agree"
    bad = {"attempts": [dict(a, procs=2) for a in sch["attempts"]]}
    assert resched.judge(inst, [1, 0], bad, "greedy").kind == "infeasible"
    assert resched.judge(inst, [1, 0], object(), "greedy").kind == "crash"


hypothesis = pytest.importorskip("hypothesis")


def test_the_strategy_passes_a_correct_greedy():
    from hypothesis import given, settings
    from resched.strategies import assert_agrees, cases

    @settings(derandomize=True, database=None, max_examples=300, deadline=None)
    @given(cases())
    def check(case):
        assert_agrees(greedy, case, "greedy", same_schedule=True)

    check()


def test_the_strategy_finds_the_buggy_greedys():
    from hypothesis import find, settings
    from resched.strategies import Case, assert_agrees, cases

    s = settings(derandomize=True, database=None, max_examples=1000, deadline=None)

    def fails(program, **rules):
        def bad(case):
            try:
                assert_agrees(program, case, "greedy", **rules)
            except AssertionError:
                return True
            return False
        return bad

    c = find(cases(), fails(buggy_greedy, same_schedule=True), settings=s)
    one = lambda p: {"procs": p, "time": Fraction(1)}  # noqa: E731
    assert c == Case({"processors": 2, "jobs": [
        dict(name=f"J{k + 1}", **one(p)) for k, p in enumerate([1, 1, 2, 1])]}, [0, 0, 0, 0])
    c = find(cases(), fails(float_greedy), settings=s)
    assert c == Case({"processors": 1, "jobs": [
        {"name": "J1", "procs": 1, "time": Fraction(1, 3)}]}, [0])
    with pytest.raises(AssertionError, match="makespan: resched 1/3"):
        assert_agrees(float_greedy, c, "greedy")
