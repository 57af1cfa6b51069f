#!/usr/bin/env bash
# Builds the Python package and runs its tests: the Python step of .ci/run, runnable alone
# (`bash python/ci.sh` from anywhere in the checkout).
#
# A venv under the cargo target dir (nothing outside the checkout changes; pip refuses nothing
# there); maturin and pytest come from PyPI. `pip install ./python` builds the extension through
# maturin into the workspace's target dir, as a debug build (`--profile dev`): the tests need no
# speed. Exit status: 0 when the tests pass; 3 when python3 with venv/pip is missing (the
# caller decides whether that is a skip or an error).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "python3 with venv and pip not found (apt-get install -y python3-venv)" >&2
    exit 3
fi
pyvenv="${CARGO_TARGET_DIR:-target}/python-venv"
[ -x "$pyvenv/bin/pip" ] || python3 -m venv "$pyvenv"
pip=("$pyvenv/bin/pip" --disable-pip-version-check -q)
# maturin's PEP 517 hooks run the `maturin` executable by name, and without build isolation
# nothing puts the venv's bin/ on PATH (seen with maturin 1.16.0 on a fresh machine:
# "No such file or directory: 'maturin'"); activate it the way `source bin/activate` would.
PATH="$(cd "$pyvenv/bin" && pwd):$PATH"
export PATH
"${pip[@]}" install 'maturin>=1.16,<2' pytest
# evalys (with pandas) reads the Batsim jobs.csv the resched program writes
# (tests/test_batsim_evalys.py); that test runs the program the Rust tests built.
"${pip[@]}" install 'evalys>=4,<5'
RESCHED_BIN="${RESCHED_BIN:-${CARGO_TARGET_DIR:-target}/debug/resched}"
[ -x "$RESCHED_BIN" ] || cargo build -p resched-cli --bin resched
RESCHED_BIN="$(cd "$(dirname "$RESCHED_BIN")" && pwd)/$(basename "$RESCHED_BIN")"
export RESCHED_BIN
MATURIN_PEP517_ARGS="--profile dev" \
    "${pip[@]}" install --no-build-isolation --force-reinstall --no-deps ./python
"$pyvenv/bin/pytest" -q -p no:cacheprovider python/tests
