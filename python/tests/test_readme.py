"""The README's Python example runs and prints what the README says it prints."""

import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_prints_what_the_readme_shows():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Python\n"):]
    m = re.search(r"```python\n(.*?)```\nprints\n```\n(.*?)```", section, re.S)
    assert m, "README: the Python section lost its example or its printed output"
    code, shown = m.groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    assert out.getvalue() == shown
