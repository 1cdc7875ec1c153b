#!/bin/sh
# run.sh: runs every libFuzzer target for SECONDS each, two at a time (FUZZ_JOBS=1: one), from the seed corpora in tests/fuzz/corpus; a crash fails the run and names its input.
# usage: run.sh FUZZ_BUILD_DIR SECONDS
set -u
B=$1 SECONDS_EACH=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TARGETS="mail orders state template seeds lmtp press plans"
mkdir -p "$B/work" "$B/crashes"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fuzz_one() {
    t=$1
    mkdir -p "$B/work/$t"
    # New inputs go to FUZZ_BUILD_DIR/work; the committed corpus is read, not written.
    # The budgets of docs/reliability.md: an input of up to 64 KB that
    # takes over 2 s (its linear cost is milliseconds, even under ASan) or
    # asks for one block over 64 MB (the peak a whole mail may cost) is a
    # failure, as a quadratic path would be; the process as a whole, with
    # ASan's shadow memory and the corpus, may use 1 GB.
    "$B/fuzz_$t" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=2 -malloc_limit_mb=64 \
        -rss_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix="$B/crashes/$t-" "$B/work/$t" "$ROOT/tests/fuzz/corpus/$t" >"$B/$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$t.log")
    cov=$(grep -o "cov: [0-9]*" "$B/$t.log" | tail -n 1)
    if [ $rc = 0 ]; then
        echo "fuzz $t: ${runs:-?} inputs in ${SECONDS_EACH}s, $cov, no crash"
    else
        echo "fuzz $t: FAILED (exit $rc); the input is in $B/crashes/; keep it in tests/fuzz/corpus/$t/ once fixed"
        tail -n 40 "$B/$t.log"
    fi
    return $rc
}
fails=0
set -- $TARGETS
while [ $# -gt 0 ]; do
    fuzz_one "$1" &
    p1=$!
    p2=
    if [ $# -gt 1 ] && [ "${FUZZ_JOBS:-2}" -gt 1 ]; then
        fuzz_one "$2" &
        p2=$!
    fi
    wait $p1 || fails=$((fails + 1))
    shift
    if [ -n "$p2" ]; then
        wait $p2 || fails=$((fails + 1))
        shift
    fi
done
[ $fails -eq 0 ]
