#!/bin/sh
# hostile.sh: the worst mails one can build at the size limit against a plain-text mail of the same size: time and peak memory of `ngoma receive`, each a ratio to that baseline.
# usage: hostile.sh NGOMA BENCH_NGOMA DIR [REPEATS]
set -eu
NGOMA=$1 BENCH=$2 DIR=$3 R=${4:-5}
W="$DIR/hostile"
rm -rf "$W"
mkdir -p "$W/mail"
export NGOMA_DB="$W/base.db"
"$NGOMA" init >/dev/null
"$NGOMA" new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 1 >/dev/null
"$NGOMA" config send_on_receive no >/dev/null
SIZE=$("$NGOMA" config max_message_size)
secret=$(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = 1 AND seat = 1")
"$BENCH" hostile "$W/mail" "$SIZE" "ngoma+1-1-$secret@localhost"
# One run: a fresh copy of the database, so that no mail is a duplicate.
# receive --wait reads the mail in its own process, which is timed: a
# plain receive only keeps it and leaves the reading to a worker it
# detaches, which would still be writing run.db when the next run copies
# over it.
run() {
    rm -f "$W/run.db-wal" "$W/run.db-shm" "$W"/run.db.inbox*
    cp "$W/base.db" "$W/run.db"
    NGOMA_DB="$W/run.db" "$BENCH" rusage "$NGOMA" receive --wait "$1"
}
# The median time of R runs and the largest peak.
measure() {
    i=0
    while [ $i -lt "$R" ]; do run "$1"; i=$((i + 1)); done | sort -n | awk -v r="$R" '
        { t[NR] = $1; if ($2 > m) m = $2; if ($3 != 0) bad = $3 }
        END { printf "%.6f %d %d\n", t[int((r + 1) / 2)], m, bad }'
}
printf "%-22s %-8s %9s %9s %7s\n" "mail ($SIZE bytes)" "from" "ms" "peak MB" "ratio"
worst=0 worst_name="" peak=0 fails=0
for who in stranger seat; do
    set -- $(measure "$W/mail/plain-$who.eml")
    base=$1
    printf "%-22s %-8s %9.1f %9.1f %7s\n" "plain (baseline)" "$who" "$(echo "$1" | awk '{print $1 * 1000}')" \
        "$(echo "$2" | awk '{print $1 / 1024}')" "1.00"
    for f in "$W"/mail/*-"$who".eml; do
        name=$(basename "$f" "-$who.eml")
        [ "$name" = plain ] && continue
        set -- $(measure "$f")
        [ "$3" = 0 ] || { echo "hostile.sh: ngoma receive of $name from a $who exited $3" >&2; fails=$((fails + 1)); }
        ratio=$(awk -v a="$1" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
        printf "%-22s %-8s %9.1f %9.1f %7s\n" "$name" "$who" "$(echo "$1" | awk '{print $1 * 1000}')" \
            "$(echo "$2" | awk '{print $1 / 1024}')" "$ratio"
        if awk -v r="$ratio" -v w="$worst" 'BEGIN { exit !(r > w) }'; then worst=$ratio worst_name="$name from a $who"; fi
        [ "$2" -gt "$peak" ] && peak=$2
    done
done
echo "worst: $worst x the plain mail ($worst_name), target <= 5; peak $(awk -v p="$peak" 'BEGIN { printf "%.1f", p / 1024 }') MB, target <= 64"
# The memory bound holds always. The time ratio is gated on the median of
# three runs or more (make bench takes five): the quick run's single
# runs (make check) measure one process against one other, and on a
# loaded machine either may wait for a core.
awk -v p="$peak" 'BEGIN { exit !(p <= 65536) }' || { echo "hostile.sh: a mail took over 64 MB" >&2; exit 1; }
if [ "$R" -ge 3 ]; then
    awk -v w="$worst" 'BEGIN { exit !(w <= 5) }' || { echo "hostile.sh: a mail took over 5 times the plain one's time" >&2; exit 1; }
fi
[ "$fails" -eq 0 ]
