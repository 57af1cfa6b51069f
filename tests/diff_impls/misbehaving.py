#!/usr/bin/env python3
"""Programs that fail in the ways `resched diff` must report, for its tests.

Usage: misbehaving.py MODE [ARGS...]
  hang           sleeps far longer than any time limit
  crash          writes to stderr and exits with status 3
  segfault       kills itself with SIGSEGV
  garbage        prints text that is not an answer
  jsonl-crash    JSONL: reads a request and exits without answering
  jsonl-wrong-id JSONL: answers with the wrong id
  jsonl-refuse   JSONL: answers every request with an error
  jsonl-newer    JSONL: checks that requests say `format_version` 1, answers in version 2
"""
import json
import os
import signal
import sys
import time


def main(mode):
    if mode == "hang":
        time.sleep(600)
    elif mode == "crash":
        print("Traceback (most recent call last):\n  simulated failure in sim.py", file=sys.stderr)
        return 3
    elif mode == "segfault":
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "garbage":
        print("Makespan is: about 12 seconds")
    elif mode.startswith("jsonl-"):
        for line in sys.stdin:
            req = json.loads(line)
            if mode == "jsonl-crash":
                print("giving up on request", req["id"], file=sys.stderr)
                return 1
            if mode == "jsonl-newer":
                if req.get("format_version") != 1:
                    res = {"id": req["id"], "error": "request without format_version 1"}
                else:
                    res = {"id": req["id"], "format_version": 2, "makespan": 1, "unit": "s"}
            elif mode == "jsonl-refuse":
                res = {"id": req["id"], "error": "algorithm not implemented"}
            elif mode == "jsonl-wrong-id":
                res = {"id": req["id"] + 7, "makespan": 1}
            else:
                res = {"id": req["id"], "makespan": 1}
            print(json.dumps(res), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
