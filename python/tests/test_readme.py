"""The Python guide's example (docs/guide/python.md) runs and prints what the page says it prints."""

import contextlib
import io
import pathlib
import re

PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "python.md"


def test_the_readme_example_prints_what_the_readme_shows():
    text = PAGE.read_text(encoding="utf-8")
    m = re.search(r"```python\n(.*?)```\nprints\n```text\n(.*?)```", text, re.S)
    assert m, "docs/guide/python.md lost its example or its printed output"
    code, shown = m.groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/guide/python.md", "exec"), {"__name__": "readme_example"})
    assert out.getvalue() == shown
