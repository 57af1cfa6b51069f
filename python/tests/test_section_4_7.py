"""The moldable paper's Section 4.7 example, built in Python as a user would: P = 4, the time
table printed there, J3 and J4 fail once. LPA-LIST (jobs in index order) and BATCH-LIST
(ε = 1/100) both end at 13; the optimum (the paper's Figure 3, bottom) ends at 10; the lower
bound L'(J, f) is 19/2 (tests/cases/moldable_section_4_7.json has the hand computation)."""

from fractions import Fraction

import resched

INSTANCE = {
    "processors": 4,
    "jobs": [
        {"name": "J1", "speedup": {"model": "arbitrary", "times": [11, 7, 5, 4]}},
        {"name": "J2", "speedup": {"model": "arbitrary",
                                   "times": [10, Fraction("9.8"), Fraction("9.6"), "9.5"]}},
        {"name": "J3", "speedup": {"model": "arbitrary", "times": [4, 3, 3, Fraction(5, 2)]}},
        {"name": "J4", "speedup": {"model": "arbitrary", "times": [3, 2, "17/10", "1.4"]}},
    ],
}
SCENARIO = {"failures": [0, 0, 1, 1]}


def test_lpa_list_and_batch_list_end_at_13_and_opt_at_10():
    lpa = resched.simulate(INSTANCE, SCENARIO, "lpa-list", priority="index")
    batch = resched.simulate(INSTANCE, SCENARIO, "batch-list", priority="index",
                             eps=Fraction(1, 100))
    best = resched.opt(INSTANCE, SCENARIO)
    assert lpa["makespan"] == 13 and type(lpa["makespan"]) is Fraction
    assert batch["makespan"] == 13 and type(batch["makespan"]) is Fraction
    assert best["makespan"] == 10 and best["optimal"] is True
    assert lpa["canonical"] == "lpa-list" and batch["canonical"] == "batch-list"


def test_lpa_list_schedule_is_the_papers_event_by_event():
    """Section 4.7: LPA gives J1 3, J2 1, J3 1, J4 2 processors; J4 fails at 7, J3 at 9."""
    r = resched.simulate(INSTANCE, SCENARIO, "lpa-list", priority="index")
    got = [(a["job"], a["attempt"], a["start"], a["procs"], a["duration"])
           for a in r["schedule"]["attempts"]]
    assert got == [
        (0, 1, 0, 3, 5),
        (1, 1, 0, 1, 10),
        (2, 1, 5, 1, 4),
        (3, 1, 5, 2, 2),
        (3, 2, 7, 2, 2),
        (2, 2, 9, 1, 4),
    ]
    assert r["completions"] == [5, 10, 13, 9]
    assert all(type(a["start"]) is Fraction for a in r["schedule"]["attempts"])


def test_certify_gives_the_bound_and_the_exact_ratio():
    c = resched.certify(INSTANCE, SCENARIO, "lpa-list", priority="index")
    assert c["bound"]["symbol"] == "L'(J,f)"
    assert c["bound"]["lower"] == Fraction(19, 2)
    assert c["bound"]["area"] == 35  # 11 + 10 + 2·4 + 2·3
    assert c["ratio"] == Fraction(26, 19)


def test_the_corpus_file_gives_the_same_numbers(section_4_7):
    """The same example read from the golden corpus (strings such as "9.8" for times)."""
    inst, sc = section_4_7["instance"], section_4_7["scenario"]
    for e in section_4_7["expect"]:
        params = {"priority": e["priority"]}
        if "eps" in e:
            params["eps"] = e["eps"]
        r = resched.simulate(inst, sc, e["algorithm"], **params)
        assert r["makespan"] == Fraction(str(e["makespan"])), e
    assert resched.opt(inst, sc)["makespan"] == 10


def test_opt_schedule_passes_verify_and_is_not_lpa_lists():
    best = resched.opt(INSTANCE, SCENARIO)
    v = resched.verify(INSTANCE, SCENARIO, best["schedule"], algo="lpa-list", priority="index")
    assert v["feasible"] is True and v["makespan"] == 10
    assert v["same_as_algorithm"] is False and v["algorithm_makespan"] == 13
    assert "first difference at attempt #1" in v["difference"]


def test_exact_false_gives_floats():
    r = resched.certify(INSTANCE, SCENARIO, "lpa-list", priority="index", exact=False)
    assert r["makespan"] == 13.0 and type(r["makespan"]) is float
    assert r["ratio"] == 26 / 19
