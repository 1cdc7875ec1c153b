#!/bin/sh
# soak.sh: 1,000 hostile mails of every kind beside normal play: the games end the same, the database grows by little, the players' answers come as fast.
# usage: soak.sh NGOMA BENCH_NGOMA [HOSTILE]
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BENCH=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
HOSTILE=${3:-1000}
T=$(mktemp -d /tmp/ngoma-soak.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
unset NGOMA_NOW
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
is() { checks=$((checks + 1)); [ "$1" = "$2" ] || fail "$3: got \"$1\", expected \"$2\""; }
q() { sqlite3 -readonly "$NGOMA_DB" "$1"; }
ns() { date +%s%N; }

# setup NAME: a database of 30 games of all five kinds and a Maildir of
# their players' order mails (the same games and orders every time).
setup() {
    mkdir -p "$T/$1-mail/new" "$T/$1-mail/cur" "$T/$1-mail/tmp"
    "$NGOMA" init >/dev/null
    "$NGOMA" config outbox_dir "$T/$1-out" >/dev/null
    "$BENCH" genmail "$NGOMA_DB" "$T/$1-mail" 30 8
}

# play NAME: every order mail by receive, as the MTA delivers them; the
# time each delivery took (the mail kept, a worker left to read it), in
# ms, goes to $T/NAME.latency.
play() {
    : >"$T/$1.latency"
    for f in "$T/$1-mail/new/"*; do
        t0=$(ns)
        while :; do
            "$NGOMA" receive "$f" >/dev/null 2>>"$T/$1.err"
            rc=$?
            [ $rc = 75 ] || break
            sleep 0.05
        done
        t1=$(ns)
        [ $rc = 0 ] || echo "receive $f exited $rc" >>"$T/$1.fail"
        echo $(((t1 - t0) / 1000000)) >>"$T/$1.latency"
    done
}

# What the database holds: its pages less the free ones (the inbox's
# pages, freed as its mails are read, are used again by later mail).
size_of() {
    sqlite3 "$1" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    sqlite3 "$1" "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, pragma_freelist_count,
        pragma_page_size"
}
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
p95() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int(NR * 0.95 + 0.5)] }'; }

# ---- alone -------------------------------------------------------------------------------------
export NGOMA_DB="$T/quiet.db"
total=$(setup quiet)
play quiet
# The workers the receives left may still read the inbox: send waits for them.
"$NGOMA" send >/dev/null
q "SELECT id, state FROM games ORDER BY id" >"$T/quiet.states"
quiet_size=$(size_of "$T/quiet.db")

# ---- beside a flood of hostile mail ---------------------------------------------------------------
export NGOMA_DB="$T/flood.db"
total2=$(setup flood)
is "$total2" "$total" "the same orders both times"
# The flood: every shape of bench/hostile_mail.c at four sizes, from a
# stranger and in a seat's name with a wrong secret; auto-replies and
# out-of-office mails to real seat addresses; stranger copies of the
# players' own Message-IDs, sent before the players' mails.
F="$T/flood"
mkdir -p "$F"
g1=$(q "SELECT seat FROM seats WHERE game_id = 1 AND seat = 1")
for size in 4096 16384 65536 262144; do
    "$BENCH" hostile "$F" "$size" "ngoma+1-$g1-wrongsecret@localhost" 5
done
n=0
for g in $(q "SELECT id FROM games ORDER BY id"); do
    for s in 1 2; do
        n=$((n + 1))
        printf 'From: player%s@example.org\nTo: ngoma+%s-%s-nosuchsecret@localhost\nSubject: Out of Office: back Monday\nMessage-ID: <oof%s@example.org>\n\nI am away.\n' \
            "$n" "$g" "$s" "$n" >"$F/oof-$n.eml"
        printf 'From: a@example.org\nTo: ngoma+%s-%s-x@localhost\nX-Autoreply: yes\nMessage-ID: <auto%s@example.org>\n\nThanks.\n' \
            "$g" "$s" "$n" >"$F/auto-$n.eml"
    done
done
for k in $(seq 0 39); do
    printf 'From: mallory@evil.example\nTo: ngoma@localhost\nMessage-ID: <bench-%s@mail.gmail.com>\nSubject: [ngoma 1]\n\nsquat\n' \
        "$k" >"$T/squat-$k.eml"
    "$NGOMA" receive "$T/squat-$k.eml" >/dev/null
done
ls "$F" | head -n "$((HOSTILE - 40))" >"$T/flood.list"
nflood=$(($(wc -l <"$T/flood.list") + 40))
flooder() {
    while read -r f; do
        "$NGOMA" receive "$F/$f" >/dev/null 2>>"$T/flood.err" || [ $? = 75 ] || echo "hostile $f: exit $?" >>"$T/flood.fail"
    done
}
sed -n '1~2p' "$T/flood.list" | flooder &
f1=$!
sed -n '2~2p' "$T/flood.list" | flooder &
f2=$!
play flood
wait $f1 $f2
"$NGOMA" send >/dev/null
q "SELECT id, state FROM games ORDER BY id" >"$T/flood.states"
flood_size=$(size_of "$T/flood.db")

echo "soak.sh: $total order mails played alone and beside $nflood hostile mails"
[ -e "$T/quiet.fail" ] && fail "receives failed alone: $(head -3 "$T/quiet.fail")"
[ -e "$T/flood.fail" ] && fail "receives failed beside the flood: $(head -3 "$T/flood.fail")"
[ -e "$T/flood.fail" ] || true
checks=$((checks + 1))
cmp -s "$T/quiet.states" "$T/flood.states" || fail "the games stand differently after the flood"
is "$(q "SELECT count(*) FROM messages WHERE status = 'processed' AND message_id LIKE 'bench-%'")" "$total" \
    "every player's mail processed (40 of them after a stranger's copy of their Message-ID)"
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'reply'")" "$total" "one answer to each player's mail"
is "$(q "SELECT count(*) FROM outbox WHERE rcpt NOT IN (SELECT email FROM seats)")" 0 \
    "mail to an address that is no seat's"
refused=$(q "SELECT count(*) FROM outbox WHERE kind = 'refused'")
checks=$((checks + 1))
[ "$refused" -le "$(q "SELECT 4 * count(*) FROM seats")" ] || fail "$refused refusals: over 4 a seat"
per_mail=$(( (flood_size - quiet_size) / nflood ))
mq=$(median "$T/quiet.latency") mf=$(median "$T/flood.latency")
pq=$(p95 "$T/quiet.latency") pf=$(p95 "$T/flood.latency")
echo "soak.sh: database $quiet_size bytes alone, $flood_size beside the flood: $per_mail bytes a hostile mail"
echo "soak.sh: a player's mail kept in $mq ms alone, $mf ms beside the flood (median); 95th percentile $pq and $pf ms"
echo "soak.sh: $refused refusal mails to seats, $(q "SELECT count(*) FROM messages WHERE status = 'ignored'") hostile mails journalled as ignored"
checks=$((checks + 1))
[ "$per_mail" -le 4096 ] || fail "the database grew by $per_mail bytes a hostile mail (at most 4096)"
checks=$((checks + 1))
awk -v a="$mq" -v b="$mf" 'BEGIN { exit !(b <= 3 * a + 20) }' || fail "answers slowed from $mq to $mf ms"

echo "soak.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
