#!/bin/sh
# single.sh: one `ngoma receive` of a Gmail-shaped order mail, whole process, against one sqlite3 process inserting a row durably.
# usage: single.sh NGOMA DIR [MAILS]
set -eu
NGOMA=$1 DIR=$2 N=${3:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export NGOMA_DB="$DIR/single.db"
rm -rf "$DIR/single"* "$DIR/base.db"*
mkdir -p "$DIR/single"
"$NGOMA" init >/dev/null
i=0
while [ $i -lt "$N" ]; do
    "$NGOMA" new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org >/dev/null
    i=$((i + 1))
done
# Each game's first order, in the Gmail fixture of the tests, answering Ann's welcome mail.
sqlite3 "$NGOMA_DB" "SELECT game_id, secret FROM seats WHERE seat = 1" | while IFS='|' read -r g s; do
    sed -e "s/@GAME@/$g/g; s/@SECRET1@/$s/g; s/gmail-fixture-1/bench-single-$g/" "$ROOT/tests/mail/gmail.eml" \
        >"$DIR/single/$g.eml"
done
# The floor: the same durability from SQLite alone (WAL, synchronous=FULL, one process a row).
sqlite3 "$DIR/base.db" "PRAGMA journal_mode=WAL; CREATE TABLE mail(id INTEGER PRIMARY KEY, raw TEXT);" >/dev/null
ns() { date +%s%N; }
t_ngoma=0 t_base=0 g=1
# Ten of each in turn, so that both see the same machine.
while [ $g -le "$N" ]; do
    t0=$(ns)
    k=0
    while [ $k -lt 10 ] && [ $((g + k)) -le "$N" ]; do
        "$NGOMA" receive "$DIR/single/$((g + k)).eml" >/dev/null
        k=$((k + 1))
    done
    t1=$(ns)
    k=0
    while [ $k -lt 10 ] && [ $((g + k)) -le "$N" ]; do
        sqlite3 "$DIR/base.db" "PRAGMA synchronous=FULL; INSERT INTO mail(raw) VALUES ('mail $((g + k))');"
        k=$((k + 1))
    done
    t2=$(ns)
    t_ngoma=$((t_ngoma + t1 - t0))
    t_base=$((t_base + t2 - t1))
    g=$((g + 10))
done
# What a process costs before any work: ngoma loads GMime's 20 libraries.
t0=$(ns); k=0
while [ $k -lt "$N" ]; do "$NGOMA" --help >/dev/null; k=$((k + 1)); done
t1=$(ns); k=0
while [ $k -lt "$N" ]; do sqlite3 -version >/dev/null; k=$((k + 1)); done
t2=$(ns)
s_ngoma=$((t1 - t0)) s_base=$((t2 - t1))
processed=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM messages WHERE status = 'processed'")
accepted=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM orders WHERE status = 'accepted'")
replies=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE kind = 'reply'")
[ "$processed" = "$N" ] && [ "$replies" = "$N" ] || { echo "single.sh: $processed of $N mails processed, $replies replies" >&2; exit 1; }
awk -v n="$N" -v a="$t_ngoma" -v b="$t_base" -v sa="$s_ngoma" -v sb="$s_base" -v acc="$accepted" 'BEGIN {
    printf "%-46s %11s %12s %7s %7s\n", "one mail, whole process", "ngoma (ms)", "sqlite3 (ms)", "ratio", "target"
    printf "%-46s %11.2f %12.2f %7.2f %7s\n", "receive of an order mail / one durable row", a / n / 1e6, b / n / 1e6, a / b, "<= 1.5"
    printf "%-46s %11.2f %12.2f %7.2f %7s\n", "start and exit (--help / -version)", sa / n / 1e6, sb / n / 1e6, sa / sb, "-"
    printf "(%d mails, each a new process: parsed, %d orders taken, replies queued, committed with fsync)\n", n, acc
}'
