#!/bin/sh
# run.sh: `make bench`: every benchmark in turn, each printing its figures against a baseline measured in the same run.
# usage: run.sh NGOMA BENCH_NGOMA [quick]
set -eu
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BENCH=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
QUICK=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d "${TMPDIR:-/var/tmp}/ngoma-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
unset NGOMA_NOW
if [ -n "$QUICK" ]; then
    MAILS=40 GAMES=40 PER=5 STEPS=100 LONG=500 ROUNDS=50 SECS=0.3 REPEATS=1 POSITIONS=5 LMTP_ONE=40 PLAN_GAMES=1
else
    MAILS=300 GAMES=1000 PER=10 STEPS=400 LONG=1500 ROUNDS=300 SECS=2 REPEATS=5 POSITIONS=40 LMTP_ONE=200 PLAN_GAMES=20
fi
echo "ngoma benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n): $(nproc) cores, $(uname -r)"
echo "disk: $(df -h "$T" | awk 'NR == 2 {print $1 ", " $2}'); sqlite $(sqlite3 -version | cut -d' ' -f1)"
echo
echo "== 1. one mail"
sh "$HERE/single.sh" "$NGOMA" "$T" "$MAILS"
echo
echo "== 2. a batch of mails"
sh "$HERE/batch.sh" "$NGOMA" "$BENCH" "$T" "$GAMES" "$PER"
echo
echo "== 3. history length"
"$BENCH" history "$T" "$LONG" "$ROUNDS"
echo
echo "== 4. engine: random playouts in process"
"$BENCH" playouts "$SECS"
echo
echo "== 5. database size per resolved step"
"$BENCH" dbsize "$T" "$STEPS"
echo
echo "== 6. the worst mails at the size limit"
sh "$HERE/hostile.sh" "$NGOMA" "$BENCH" "$T" "$REPEATS"
echo
echo "== 7. a board's picture"
"$BENCH" pictures "$POSITIONS" "$REPEATS"
echo
echo "== 8. ngoma serve by LMTP"
sh "$HERE/lmtp.sh" "$NGOMA" "$BENCH" "$T" "$LMTP_ONE" "$GAMES" "$PER" $QUICK
echo
echo "== 9. the strong bot against the easy one (make bench-strength: every game, enough games for the intervals)"
if [ -n "$QUICK" ]; then
    sh "$HERE/strength.sh" "$BENCH" 2 20 quick
else
    sh "$HERE/strength.sh" "$BENCH" "${STRENGTH_GAMES:-20}" 200
fi
echo
echo "== 10. the host's time: deadlines and answers beside strong bots, a busy core, answers under load"
sh "$HERE/busy.sh" "$NGOMA" "$BENCH" "$T" $QUICK
if [ -z "$QUICK" ]; then
    echo
    echo "== 11. through a private Postfix: a player's mail to the answer in her mailbox"
    if [ "$(id -u)" = 0 ]; then
        # tests/postfix.sh sets the Postfix up as docs/hosting.md says; 50 mails by each way.
        LATENCY_MAILS=50 sh "$HERE/../tests/postfix.sh" "$NGOMA" | grep "answer in her mailbox"
    else
        echo "(needs root: a Postfix instance and the guide's ngoma user)"
    fi
fi
echo
echo "== 12. plans: the mails a game takes when both players plan two moves ahead (the easy bot as planner)"
"$BENCH" plans "$T" "$PLAN_GAMES"
