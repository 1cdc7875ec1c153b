#!/bin/sh
# strength.sh: the strong bot against the easy one in every game and seat count, seats rotated: win rate or mean place with a 95% interval, and the time of a move.
# usage: strength.sh BENCH_NGOMA GAMES MS [quick]
set -eu
BENCH=$1 GAMES=$2 MS=$3 QUICK=${4:-}
if [ -n "$QUICK" ]; then
    CONFIGS="kuniumi:2 kalimambo:3"
else
    CONFIGS="kuniumi:2 bantu:2 bantu:3 bantu:4 bumuntu:2 bumuntu:3 bumuntu:4 bumuntu:5 kalimambo:2 kalimambo:3
             kalimambo:4 kalimambo:5 kalimambo:6 kalimambo:7 african-empires:3 african-empires:4 african-empires:5
             african-empires:6"
fi
echo "the strong bot ($MS ms a move) in one seat, the easy bot in the others, $GAMES games each, seats rotated"
echo "two players: the strong bot's share of wins (target >= 0.65); more: its mean place, 1 best (target: 0.5"
echo "better than the (n+1)/2 of an equal bot); +-: the 95% interval's half; met: yes when the whole interval is"
echo "on target, ~ when only the mean; p95 and mean: a move's milliseconds; iters: simulations a move; tree: the"
echo "largest tree, MB; rss: the whole process's peak, MB (bound: 64)"
printf '%-16s %s %5s %3s %-4s %6s %5s %-6s %-3s %7s %7s %5s %8s %6s %6s\n' game n games unf what value "+-" target \
    met p95 mean ms iters tree rss
for c in $CONFIGS; do
    "$BENCH" strength "${c%:*}" "${c#*:}" "$GAMES" "$MS"
done
