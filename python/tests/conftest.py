"""Shared fixtures of the resched Python package's tests: where the repository's golden cases
(tests/cases/, the corpus every engine test runs) are, read as plain dicts."""

import json
import pathlib

import pytest

CASES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "cases"


def load_case(name):
    with open(CASES / name, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture
def section_4_7():
    """The moldable paper's Section 4.7 example, from the golden corpus."""
    return load_case("moldable_section_4_7.json")
