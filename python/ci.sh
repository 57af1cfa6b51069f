#!/usr/bin/env bash
# Builds the Python package's wheel and tests what a user installs: the Python step of .ci/run,
# runnable alone (`bash python/ci.sh` from anywhere in the checkout).
#
# 1. A build venv under the cargo target dir (nothing outside the checkout changes) with maturin
#    from PyPI builds the abi3 wheel (one wheel for every CPython ≥ 3.9) into target/wheels/.
#    By default under the dev profile, which carries the test profile's settings (Cargo.toml):
#    overflow checks on, as in the Rust tests; `bash python/ci.sh --release` builds the release
#    wheel a user would install. The dev build turns on the crate's `test-build-features`
#    (python/Cargo.toml), and `--features LIST` adds the features `cargo test` was given
#    (.ci/run passes its own), so that cargo resolves every shared dependency exactly as the
#    test build did and reuses it: only pyo3 and the workspace's crates are compiled here.
# 2. A fresh test venv, made anew on every run, installs that wheel (no Rust toolchain or build
#    step involved) with pytest, hypothesis, pandas, matplotlib, mypy and evalys from PyPI, and
#    runs the tests from outside the source tree, so the installed package is what is imported.
# 3. Type hints: `mypy --strict` on the installed package (its `.pyi` stub and `py.typed`) and on
#    a typed usage file (python/tests/typed_usage.py).
# Exit status: 0 when all pass; 3 when python3 with venv/pip is missing (the caller decides
# whether that is a skip or an error).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "python3 with venv and pip not found (apt-get install -y python3-venv)" >&2
    exit 3
fi
target="$(mkdir -p "${CARGO_TARGET_DIR:-target}" && cd "${CARGO_TARGET_DIR:-target}" && pwd)"
started=$SECONDS
buildvenv="$target/python-build-venv"
[ -x "$buildvenv/bin/pip" ] || python3 -m venv "$buildvenv"
"$buildvenv/bin/pip" --disable-pip-version-check -q install 'maturin>=1.16,<2'
wheels="$target/wheels/resched-oracle"
rm -rf "$wheels"
profile=()
features=()
while [ $# -gt 0 ]; do
    case "$1" in
        --release) profile=(--release) ;;
        --features)
            if [ $# -lt 2 ] || [ -z "$2" ]; then
                echo "python/ci.sh: --features needs a comma-separated list" >&2
                exit 2
            fi
            features+=("$2")
            shift
            ;;
        *)
            echo "python/ci.sh: unknown argument '$1' (the arguments are --release and --features LIST)" >&2
            exit 2
            ;;
    esac
    shift
done
[ ${#profile[@]} -gt 0 ] || features+=(test-build-features)
feature_args=()
if [ ${#features[@]} -gt 0 ]; then
    feature_args=(--features "$(IFS=,; echo "${features[*]}")")
fi
"$buildvenv/bin/maturin" build "${profile[@]}" "${feature_args[@]}" --quiet -m python/Cargo.toml --out "$wheels"
wheel="$(ls "$wheels"/resched_oracle-*.whl)"
echo "python/ci.sh: built $(basename "$wheel") in $((SECONDS - started)) s"

testvenv="$target/python-test-venv"
rm -rf "$testvenv"
python3 -m venv "$testvenv"
pip=("$testvenv/bin/pip" --disable-pip-version-check -q)
"${pip[@]}" install "$wheel" pytest hypothesis pandas matplotlib mypy
# evalys (with pandas) reads the Batsim jobs.csv the resched program writes
# (tests/test_batsim_evalys.py); that test runs the program the Rust tests built.
"${pip[@]}" install 'evalys>=4,<5'
RESCHED_BIN="${RESCHED_BIN:-$target/debug/resched}"
[ -x "$RESCHED_BIN" ] || cargo build -p resched-cli --bin resched
RESCHED_BIN="$(cd "$(dirname "$RESCHED_BIN")" && pwd)/$(basename "$RESCHED_BIN")"
export RESCHED_BIN
tests="$(pwd)/python/tests"
# From a directory outside the checkout: `import resched` must find the installed wheel, never
# python/resched/ (which has no extension module).
cd "$testvenv"
MPLBACKEND=Agg "$testvenv/bin/python" -m pytest -q -p no:cacheprovider "$tests"
"$testvenv/bin/python" -m mypy --strict --no-incremental -p resched
"$testvenv/bin/python" -m mypy --strict --no-incremental "$tests/typed_usage.py"
echo "python/ci.sh: wheel built, installed and tested in $((SECONDS - started)) s"
