#!/bin/sh
# reliability.sh: kill -9 at random moments during fetch and send, and many receives beside overlapping runs: nothing lost, nothing done twice.
# usage: reliability.sh NGOMA BENCH_NGOMA [KILLS] [GAMES] [CRASH]
#   KILLS fetches killed, of CRASH games' mails (10 a game), then GAMES games' mails at once
#   (make check: 60 kills of 100 games' mails, 60 games; make soak: 60 of 200, 240)
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BENCH=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
KILLS=${3:-60}
GAMES=${4:-240}
CRASH=${5:-200}
T=$(mktemp -d /tmp/ngoma-reliability.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
unset NGOMA_NOW
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
is() { checks=$((checks + 1)); [ "$1" = "$2" ] || fail "$3: got \"$1\", expected \"$2\""; }
q() { sqlite3 -readonly "$NGOMA_DB" "$1"; }
# A random number of milliseconds in [lo, hi).
rand_ms() { awk -v lo="$1" -v hi="$2" -v s="$3" 'BEGIN { srand(s); printf "%d", lo + rand() * (hi - lo) }'; }
sleep_ms() { sleep "$(awk -v m="$1" 'BEGIN { printf "%.3f", m / 1000 }')"; }

# Every game replays from its seed and orders to the state stored.
replay_all() {
    bad=0
    for g in $(q "SELECT id FROM games"); do
        "$NGOMA" replay "$g" >/dev/null 2>"$T/replay.err" || { bad=$((bad + 1)); cat "$T/replay.err"; }
    done
    is "$bad" 0 "$1: games whose replay differs"
}

# ---- crash safety: kill -9 a fetch of CRASH games' mails (10 a game), again and again
export NGOMA_DB="$T/crash.db"
M="$T/crash-mail"
mkdir -p "$M/new" "$M/cur" "$M/tmp"
"$NGOMA" init >/dev/null
"$NGOMA" config maildir "$M"
"$NGOMA" config outbox_dir "$T/crash-out"
total=$("$BENCH" genmail "$NGOMA_DB" "$M" "$CRASH" 10)
[ "$total" -ge $((CRASH * 95 / 10)) ] || fail "only $total mails were generated"
kills=0 seed=1
while [ $kills -lt "$KILLS" ] && [ -n "$(ls "$M/new")" ]; do
    "$NGOMA" fetch >/dev/null 2>>"$T/fetch.err" &
    pid=$!
    sleep_ms "$(rand_ms 5 60 $seed)"
    kill -9 $pid 2>/dev/null && kills=$((kills + 1))
    wait $pid 2>/dev/null
    # The outbox too: a send killed at any moment.
    "$NGOMA" send >/dev/null 2>>"$T/send.err" &
    pid=$!
    sleep_ms "$(rand_ms 0 15 $((seed + 7)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    seed=$((seed + 1))
done
"$NGOMA" fetch >/dev/null 2>>"$T/fetch.err" || fail "the last fetch failed: $(cat "$T/fetch.err")"
"$NGOMA" send >/dev/null 2>>"$T/send.err" || fail "the last send failed: $(cat "$T/send.err")"
[ $kills -ge 50 ] || fail "only $kills fetches were killed (the mails ran out first)"
echo "reliability.sh: $kills fetches of $total mails killed with -9 at random moments, and as many sends"
is "$(ls "$M/new" | wc -l)" 0 "mails left unread"
is "$(ls "$M/cur" | wc -l)" "$total" "mails acknowledged"
is "$(q "SELECT count(*) FROM messages")" "$total" "mails journalled (each Message-ID once)"
is "$(q "SELECT count(*) FROM messages WHERE status = 'processed'")" "$total" "mails processed"
is "$(q "SELECT count(*) FROM orders WHERE source = 'mail' AND status IN ('accepted', 'pending')")" "$total" \
    "orders taken, none lost"
is "$(q "SELECT count(*) FROM orders WHERE source = 'mail' AND status = 'rejected'")" 0 "orders refused"
is "$(q "SELECT count(*) FROM (SELECT in_reply_to FROM outbox WHERE kind = 'reply' GROUP BY in_reply_to
    HAVING count(*) = 1)")" "$total" "one reply to each mail"
is "$(q "SELECT count(*) FROM outbox WHERE status <> 'sent'")" 0 "mails not sent"
is "$(ls "$T/crash-out" | wc -l)" "$(q "SELECT count(*) FROM outbox")" "mail files written, each once"
dups=$(grep -h "^Message-ID:" "$T/crash-out"/* | sort | uniq -d | wc -l)
is "$dups" 0 "mails delivered twice"
replay_all "after the kills"
[ -s "$T/fetch.err" ] && grep -v "^$" "$T/fetch.err" | head -3

# ---- concurrency: 8 receives at once beside overlapping runs, GAMES games of 10 mails -------------
export NGOMA_DB="$T/busy.db"
M="$T/busy-mail"
mkdir -p "$M/new" "$M/cur" "$M/tmp"
"$NGOMA" init >/dev/null
"$NGOMA" config outbox_dir "$T/busy-out"
"$NGOMA" config images no
total=$("$BENCH" genmail "$NGOMA_DB" "$M" "$GAMES" 10)
# Each game's mails go to one receiver, in order, as one player's MTA would
# deliver them; eight receivers deliver at once.
for f in "$M/new/"*; do
    g=$(sed -n 's/^To: .*ngoma+\([0-9]*\)-.*/\1/p' "$f" | head -n 1)
    echo "$f" >>"$T/queue.$((g % 8))"
done
receiver() {
    n=0 retries=0
    while read -r f; do
        # 75 is what an MTA retries later: so do we.
        while :; do
            "$NGOMA" receive "$f" >/dev/null 2>>"$T/recv.err.$1"
            rc=$?
            [ $rc = 75 ] || break
            retries=$((retries + 1))
            sleep 0.05
        done
        [ $rc = 0 ] || echo "receive $f exited $rc" >>"$T/recv.fail"
        n=$((n + 1))
    done <"$T/queue.$1"
    echo "$n $retries" >"$T/recv.done.$1"
}
runner() {
    while [ ! -e "$T/stop" ]; do
        "$NGOMA" run >/dev/null 2>>"$T/run.err" || echo "run exited $?" >>"$T/run.fail"
    done
}
# Online backups beside them: each copy must be one moment of the database.
backuper() {
    b=0
    while [ ! -e "$T/stop" ]; do
        b=$((b + 1))
        "$NGOMA" backup "$T/backup.$b.db" >/dev/null 2>>"$T/backup.err" || echo "backup $b exited $?" >>"$T/backup.fail"
        sleep 0.2
    done
}
runner &
r1=$!
runner &
r2=$!
backuper &
r3=$!
pids=""
for k in 0 1 2 3 4 5 6 7; do
    receiver $k &
    pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
touch "$T/stop"
wait $r1 $r2 $r3
"$NGOMA" run >/dev/null 2>>"$T/run.err" || fail "the last run failed"
# The workers the receives left may still read the inbox: send waits for them.
"$NGOMA" send >/dev/null 2>>"$T/run.err" || fail "the last send failed"
retries=$(cat "$T/recv.done."* | awk '{ s += $2 } END { print s + 0 }')
echo "reliability.sh: $total mails by 8 receives at once beside 2 looping runs ($retries busy retries)"
[ -e "$T/recv.fail" ] && fail "receives failed: $(head -3 "$T/recv.fail")"
[ -e "$T/run.fail" ] && fail "runs failed: $(head -3 "$T/run.fail") $(head -3 "$T/run.err")"
is "$(q "SELECT count(*) FROM messages WHERE status = 'processed'")" "$total" "mails processed, none lost"
is "$(q "SELECT count(*) FROM orders WHERE source = 'mail' AND status IN ('accepted', 'pending')")" "$total" \
    "orders taken"
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'reply'")" "$total" "replies, none doubled"
is "$(q "SELECT count(*) FROM outbox WHERE status <> 'sent'")" 0 "mails not sent"
is "$(ls "$T/busy-out" | wc -l)" "$(q "SELECT count(*) FROM outbox")" "mail files, each once"
is "$(grep -l "internal error\|failed" "$T/busy-out"/* 2>/dev/null | wc -l)" 0 "a failure reached a player"
replay_all "after the concurrent receives"
[ -e "$T/backup.fail" ] && fail "backups failed: $(head -3 "$T/backup.fail") $(head -3 "$T/backup.err")"
nb=0 torn=0
for b in "$T"/backup.*.db; do
    [ -e "$b" ] || continue
    nb=$((nb + 1))
    [ "$(sqlite3 -readonly "$b" 'PRAGMA integrity_check')" = ok ] || { torn=$((torn + 1)); continue; }
    # One mail, one order, one reply, all in one transaction: a copy of one
    # moment holds as many of each.
    counts=$(sqlite3 -readonly "$b" "SELECT (SELECT count(*) FROM messages WHERE status = 'processed'),
        (SELECT count(*) FROM orders WHERE source = 'mail' AND status IN ('accepted', 'pending')),
        (SELECT count(*) FROM outbox WHERE kind = 'reply')")
    echo "$counts" | awk -F'|' '{ exit !($1 == $2 && $2 == $3) }' || torn=$((torn + 1))
done
echo "reliability.sh: $nb online backups taken beside the receives"
checks=$((checks + 1))
[ "$nb" -ge 3 ] || fail "only $nb backups were taken"
is "$torn" 0 "backups that are not one moment of the database"

echo "reliability.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
