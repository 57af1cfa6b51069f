#!/usr/bin/env bash
# Builds every cargo-fuzz target of resched and runs each for SECONDS (default 10), one after
# the other, then prints executions and executions per second per target.
# Exit code: non-zero as soon as a target finds a crash (its input is left in
# fuzz/artifacts/<target>/, reproduce with `cargo +nightly fuzz run <target> <file>`).
#
# Toolchain: the installed nightly if there is one, else stable with RUSTC_BOOTSTRAP=1 (works
# for cargo-fuzz's -Z flags). Needs `cargo install cargo-fuzz`.
# Seeds: fuzz/seeds/<target>/ (committed); the growing corpus goes to fuzz/corpus/<target>/
# (ignored by git).
set -euo pipefail
SECONDS_PER_TARGET="${1:-10}"
cd "$(dirname "$0")"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    FUZZ=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    FUZZ=(cargo +stable fuzz)
fi
# A target dir of its own: cargo-fuzz builds with sanitizer flags that would invalidate the
# main build's cache.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$(pwd)/target}"
# No sanitizer by default: the code the targets reach is safe Rust (the project's few `unsafe`
# calls are process and signal set-up, which no target reaches), so AddressSanitizer could only
# find what the borrow checker already excludes, and it doubles the build. Coverage guidance is
# kept.
# FUZZ_SANITIZER=address (or memory, thread) restores one.
SANITIZER="${FUZZ_SANITIZER:-none}"
TARGETS=$("${FUZZ[@]}" list)
"${FUZZ[@]}" build -O -s "$SANITIZER" >&2
printf '| target | seconds | executions | exec/s |\n|---|---|---|---|\n'
for t in $TARGETS; do
    mkdir -p "corpus/$t" "seeds/$t"
    log=$(mktemp)
    if ! "${FUZZ[@]}" run -O -s "$SANITIZER" "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 -rss_limit_mb=4096 >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "fuzz target $t failed (artifact in fuzz/artifacts/$t/)" >&2
        rm -f "$log"
        exit 1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    printf '| %s | %s | %s | %s |\n' "$t" "$SECONDS_PER_TARGET" "${runs:-?}" "${rate:-?}"
    rm -f "$log"
done
