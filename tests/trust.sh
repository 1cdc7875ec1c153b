#!/bin/sh
# trust.sh: the program as the MTA, cron and anyone with a record run it: a fault while a mail is taken (exit 75, counted, alerted, then taken exactly once), a hostile record for verify --file, a seed the host chose said so.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=$(mktemp -d /tmp/ngoma-trust.XXXXXX)
trap 'rm -rf "$T"' EXIT
export NGOMA_DB="$T/ngoma.db"
fails=0
tests=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect() {
    want=$1; shift
    tests=$((tests + 1))
    "$NGOMA" "$@" >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" = "$want" ] || fail "ngoma $* exited $got, expected $want; stderr: $(cat "$T/err")"
}
has() { tests=$((tests + 1)); grep -q -- "$1" "$T/out" || fail "output lacks \"$1\": $(head -c 600 "$T/out")"; }
err_has() { tests=$((tests + 1)); grep -q -- "$1" "$T/err" || fail "stderr lacks \"$1\": $(cat "$T/err")"; }
is() { tests=$((tests + 1)); [ "$1" = "$2" ] || fail "$3: \"$1\", not \"$2\""; }
q() { sqlite3 "$NGOMA_DB" "$1"; }

expect 0 init
expect 0 config bot_level easy
expect 0 config outbox_dir "$T/outbox"
expect 0 config admin admin@example.org
expect 0 config images no
expect 0 new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org
G=$(cat "$T/out")
S=$(q "SELECT secret FROM seats WHERE game_id = $G AND seat = 1")
# mail N BODY: Ann's mail number N to her seat's address.
mail() {
    printf 'From: Ann <ann@example.org>\nTo: ngoma+%s-1-%s@localhost\nSubject: Re: [ngoma %s] your turn\nMessage-ID: <trust-%s@example.org>\n\n%s\n' \
        "$G" "$S" "$G" "$1" "$2" >"$T/m$1.eml"
}

# ---- a fault while a mail is taken ------------------------------------------------------------------
# An internal failure (here a trigger that aborts every queued mail): the
# MTA is told to keep the mail (75), nothing of it stays, list and status
# count it, the journal says why, the admin hears of it once; when the
# fault is gone the same mail is taken exactly once.
mail 1 "PLACE EARTH GOD c3"
q "CREATE TRIGGER fault BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'injected fault'); END;"
expect 75 receive --wait "$T/m1.eml"; err_has "is not taken (database: step: injected fault): the MTA keeps it"
expect 75 receive --wait "$T/m1.eml"
is "$(q "SELECT count(*) FROM orders WHERE source = 'mail'")" 0 "orders stored by a failed mail"
is "$(q "SELECT tries || ' ' || reason FROM mail_failures")" "2 database: step: injected fault" "the journal of the failure"
expect 0 list; has "Mail not taken: 1 (tried up to 2 times"; has "injected fault"
expect 0 status "$G"; has "Mail not taken: 1"
q "DROP TRIGGER fault"
expect 0 run; has "0 not taken"
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'alert' AND rcpt = 'admin@example.org'")" 1 "alerts"
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'alert' AND mail LIKE '%could not be taken%'")" 1 "the alert's words"
expect 0 receive --wait "$T/m1.eml"; has "processed"
expect 0 receive --wait "$T/m1.eml"; has "duplicate"
is "$(q "SELECT count(*) FROM orders WHERE source = 'mail' AND text = 'PLACE EARTH GOD c3'")" 1 "the order, taken once"
is "$(q "SELECT count(*) FROM mail_failures WHERE taken_at IS NOT NULL")" 1 "the failure, marked taken"
expect 0 list
tests=$((tests + 1)); grep -q "Mail not taken" "$T/out" && fail "list still counts a mail taken since"
# The same fault with the mail kept (receive's way): the delivery ends
# (0), the worker's try fails, the mail waits in the inbox and is counted;
# once the fault is gone the next reader (send, run, serve) takes it once.
mail 9 "LEGAL"
q "CREATE TRIGGER fault BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'injected fault'); END;"
expect 0 receive "$T/m9.eml"; has "kept as inbox mail"
expect 0 send
is "$(sqlite3 "$NGOMA_DB.inbox" "SELECT count(*) FROM inbox")" 1 "a kept mail whose taking failed stays in the inbox"
is "$(q "SELECT tries > 0 FROM mail_failures WHERE message_id = 'trust-9@example.org'")" 1 "its failure, counted"
expect 0 list; has "Inbox: 1 mail kept and not yet read"; has "Mail not taken: 1"
q "DROP TRIGGER fault"
expect 0 send
is "$(sqlite3 "$NGOMA_DB.inbox" "SELECT count(*) FROM inbox")" 0 "the inbox, read once the fault is gone"
is "$(q "SELECT count(*) FROM messages WHERE message_id = 'trust-9@example.org' AND status = 'processed'")" 1 \
    "the kept mail, taken once"
expect 0 replay "$G"

# The same by fetch from a Maildir: the mail stays in new/ and goes through later.
mkdir -p "$T/maildir/new" "$T/maildir/cur" "$T/maildir/tmp"
expect 0 config maildir "$T/maildir"
mail 2 "HELP"
cp "$T/m2.eml" "$T/maildir/new/1.trust:2,"
printf 'From: x@example.org\nTo: ngoma@localhost\nSubject: hi\nMessage-ID: <stranger@example.org>\n\nhello\n' \
    >"$T/maildir/new/2.stranger"
q "CREATE TRIGGER fault BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'injected fault'); END;"
expect 75 fetch; has "1 not taken"; err_has "it is offered again"
tests=$((tests + 1)); [ -e "$T/maildir/new/1.trust:2," ] || fail "the failed mail left new/"
tests=$((tests + 1)); [ -e "$T/maildir/new/2.stranger" ] && fail "the other mail was not taken"
q "DROP TRIGGER fault"
expect 0 fetch; has "1 processed"
tests=$((tests + 1)); [ -e "$T/maildir/new/1.trust:2," ] && fail "the mail taken at last is still in new/"
is "$(q "SELECT count(*) FROM messages WHERE message_id = 'trust-2@example.org'")" 1 "the fetched mail, taken once"

# ---- a hostile record for verify --file ------------------------------------------------------------
expect 0 new kalimambo --player Ann=ann@example.org --player Bob=bob@example.org --player Cleo=bot
K=$(cat "$T/out")
expect 0 export "$K"
cp "$T/out" "$T/record.json"
# A record naming /dev/stdin, or a layout that fixes the deal: refused at
# once (stdin is a FIFO held open and never written: a read would hang).
mkfifo "$T/stdin"
exec 3<>"$T/stdin"
for opts in '{"data":"/dev/stdin","setup":""}' \
    '{"data":"kalimambo.json","setup":"{\"mambo\":0,\"kali\":4,\"explorers\":[1,2,3],\"dung\":[9],\"kali_deck\":[0,1,2,3,4,5,6,7,8,9,10,11]}"}'; do
    /usr/bin/python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
r["options"] = sys.argv[2]
json.dump(r, open(sys.argv[3], "w"))' "$T/record.json" "$opts" "$T/bad.json"
    timeout 10 "$NGOMA" verify --file "$T/bad.json" <"$T/stdin" >"$T/out" 2>"$T/err"
    is "$?" 65 "verify --file of a hostile record"
    tests=$((tests + 1))
    grep -q "which only the host sets" "$T/out" "$T/err" || fail "the refusal does not say whose option it is: $(cat "$T/out" "$T/err")"
done
# A device as the record itself, as a mail, as an mbox; a FIFO in a Maildir.
expect 66 verify --file /dev/zero; err_has "not a regular file"
expect 66 receive /dev/zero; err_has "not a regular file"
expect 66 fetch --mbox /dev/zero; err_has "not a regular file"
mkfifo "$T/maildir/new/3.fifo"
expect 0 fetch; err_has "3.fifo is not a regular file"

# ---- a seed the host chose is said so, everywhere --------------------------------------------------
expect 0 new kuniumi --seed 42 --player Ann=ann@example.org --player Bob=bob@example.org
C=$(cat "$T/out")
expect 0 show "$C"; has "Seed chosen by the host, not drawn by ngoma."
expect 0 show "$K"; has "Seed drawn by ngoma."
expect 0 export "$C"; has '"seed_chosen":[[:space:]]*true'
expect 0 end "$C" --abandon "a test"
expect 0 verify "$C"; has "Seed chosen by the host, not drawn by ngoma."; has "The game is over: abandoned"

# ---- a game that cannot move on (a bot's fault, not a player's) ------------------------------------
# check_bots makes one for real (a defective game); here the host's view
# of it: list and status name it with why, until the game moves on.
T1=$(q "SELECT turn FROM games WHERE id = $G")
q "INSERT INTO game_stuck (game_id, turn, why, since) VALUES ($G, $T1, 'the easy bot of seat 2 (Bob) found no legal order, though the game waits for it.', '2026-12-01T10:00:00Z')"
expect 0 list; has "Stuck since 2026-12-01T10:00:00Z: the easy bot of seat 2"
expect 0 status "$G"; has "Stuck since 2026-12-01T10:00:00Z"; has "The next run or clock pass"
q "UPDATE game_stuck SET turn = turn - 1"
expect 0 list
tests=$((tests + 1)); grep -q "Stuck since" "$T/out" && fail "list still names a game that moved on as stuck"

echo "trust.sh: $tests checks, $fails failed"
[ "$fails" -eq 0 ]
