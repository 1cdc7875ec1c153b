#!/bin/sh
# suites.sh: runs each Check suite of CHECK in a process of its own, its tests in that process (no fork a test), under a bound of its own; prints each suite's time and fails naming every suite that failed.
# usage: suites.sh CHECK [SUITE...]   (every suite when none is named)
#
# The sanitizer run's way: a forked test costs its process a leak scan and
# its pages again (under ASan 0.1 to 0.2 s a test, the most of a short
# one), so each suite runs its tests in one process, and LeakSanitizer
# looks once, when the suite is done. A hang or a crash fails that suite
# alone, by name; the others still run. (The gcc run forks every test, and
# bounds each by CK_DEFAULT_TIMEOUT.)
set -u
CHECK=$1
shift
BOUND=${SUITE_SECONDS:-600} # seconds a suite may take at the most
if [ $# -eq 0 ]; then
    set -- $("$CHECK" --list) || exit 1
fi
failed=""
t0=$(date +%s)
for suite in "$@"; do
    s0=$(date +%s)
    CK_FORK=no timeout -k 5 "$BOUND" "$CHECK" "$suite"
    rc=$?
    took=$(($(date +%s) - s0))
    case $rc in
    0) echo "suites.sh: $suite passed in $took s" ;;
    124 | 137) echo "suites.sh: $suite FAILED: still running after $BOUND s"; failed="$failed $suite" ;;
    *) echo "suites.sh: $suite FAILED (exit $rc) after $took s"; failed="$failed $suite" ;;
    esac
done
if [ -n "$failed" ]; then
    echo "suites.sh: failed:$failed"
    exit 1
fi
echo "suites.sh: $# suites passed in $(($(date +%s) - t0)) s"
