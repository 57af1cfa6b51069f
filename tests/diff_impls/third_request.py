#!/usr/bin/env python3
"""A stateful JSONL program for `resched diff`'s flaky re-check (tests/diff_campaign.rs): the
correct GREEDY of greedy.py, except that the third request of a session (id 2, the third line it
reads) is answered with a makespan one too large. Shrinking in one session cannot reproduce it
on a smaller case, and a fresh session answers the shrunk case right: the counterexample is
flaky.

Usage: third_request.py   (reads one request per stdin line)
"""
import json
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import greedy  # noqa: E402


def main():
    seen = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        res = greedy.answer(req["instance"], req["scenario"], req["algo"], req["priority"], False)
        if seen == 2:
            res["makespan"] = str(Fraction(res["makespan"]) + 1)
        seen += 1
        res["id"] = req["id"]
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
