#!/bin/sh
# cli.sh: end-to-end tests of the ngoma command line: exit codes, errors, a whole game, and the documented queries.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
export NGOMA_DB="$T/ngoma.db"
fails=0
tests=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect CODE CMD...: runs ngoma with the arguments; stdout in $T/out, stderr in $T/err.
expect() {
    want=$1; shift
    tests=$((tests + 1))
    "$NGOMA" "$@" >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" = "$want" ] || fail "ngoma $* exited $got, expected $want; stderr: $(cat "$T/err")"
}
has() { grep -q -- "$1" "$T/out" || fail "output lacks \"$1\": $(head -c 600 "$T/out")"; }
# has_text TEXT: the output holds TEXT as it is, newlines included.
has_text() {
    case "$(cat "$T/out")" in *"$1"*) ;; *) fail "output lacks \"$1\": $(head -c 600 "$T/out")" ;; esac
}
lacks() { ! grep -q -- "$1" "$T/out" || fail "output holds \"$1\": $(head -c 600 "$T/out")"; }
err_has() { grep -q -- "$1" "$T/err" || fail "stderr lacks \"$1\": $(cat "$T/err")"; }
one_err_line() { [ "$(wc -l <"$T/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$T/err")"; }

# --- the program and its help
expect 0 --help; has "usage: ngoma"
expect 64; err_has "usage"
expect 64 frobnicate; err_has 'unknown command "frobnicate"'; one_err_line
expect 64 --colour init; one_err_line
for c in init games rules new order legal show history replay; do
    expect 0 "$c" --help; has "usage: ngoma $c"
done

# --- init is idempotent
expect 0 init; has "schema version"
expect 0 init
[ "$(sqlite3 "$NGOMA_DB" 'SELECT count(*) FROM schema_version')" = "$(ls "$ROOT"/migrations/*.sql | wc -l)" ] ||
    fail "init twice changed schema_version"
[ "$(sqlite3 "$NGOMA_DB" 'PRAGMA journal_mode')" = wal ] || fail "database not in WAL mode"

# --- games and rules
expect 0 games; has "kuniumi"
expect 0 rules kuniumi; has "CHOOSE LAND"
expect 64 rules chess; err_has "unknown game"; one_err_line
expect 64 rules

# --- new
expect 64 new kuniumi; err_has "no players"; one_err_line
expect 65 new kuniumi --player Ann=ann@example.org; err_has "exactly 2 players"; one_err_line
expect 64 new chess --player A=a@x.org --player B=b@x.org; err_has "unknown game"
expect 64 new kuniumi --player Ann --player B=b@x.org; err_has "NAME=EMAIL"
expect 64 new kuniumi --player A=a@x.org --player B=b@x.org --seed minus1; err_has "--seed"
expect 65 new kuniumi --player A=a@x.org --player B=b@x.org --option speed=fast; err_has 'no option "speed"'
expect 65 new kuniumi --player A=a@x.org --player B=nowhere; err_has "not a mail address"
expect 0 new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 42
[ "$(cat "$T/out")" = 1 ] || fail "new did not print id 1: $(cat "$T/out")"

# --- order and legal
expect 0 legal 1 Ann; has "PLACE EARTH GOD a1"
expect 0 legal 1 Bob; [ -s "$T/out" ] && fail "Bob has legal orders out of turn"
expect 0 order 1 Ann "PLACE EARTH GOD c3"; has "Accepted."; has "Waiting for Ann."
expect 65 order 1 ann "PLACE EARTH GOD d3"; has "Rejected: every EARTH GOD piece"; has "Send LEGAL"
expect 65 order 1 Bob "CHOOSE LAND"; has "not your turn"
expect 66 order 99 Ann "MOVE a1"; err_has "no game 99"; one_err_line
expect 65 order 1 Zed "MOVE a1"; err_has 'no player "Zed"'; one_err_line
expect 64 order one Ann "MOVE a1"; err_has "not a game number"; one_err_line
expect 64 order 1 Ann; err_has "needs 3 arguments"; one_err_line
printf 'place sea god d4\n\n> quoted junk\nPLACE LAND c4\n-- \nsignature\n' >"$T/orders.txt"
tests=$((tests + 1))
"$NGOMA" order 1 Ann - <"$T/orders.txt" >"$T/out" 2>"$T/err" || fail "order from stdin failed"
has "Sea God on d4"; has "Land token on c4"
grep -q "signature" "$T/out" && fail "the signature was read as an order"
expect 0 order 1 2 "LEGAL"; has "waits for Ann"

# --- play the rest of a game by always taking the first legal order
n=0
while [ $n -lt 200 ]; do
    "$NGOMA" show 1 --json >"$T/json" || { fail "show --json failed"; break; }
    grep -q '"status":	"finished"' "$T/json" && break
    who=$(sed -n 's/.*"waiting_for":[^"]*"\([^"]*\)".*/\1/p' "$T/json" | head -1)
    [ -n "$who" ] || who=$(tr -d '\n\t' <"$T/json" | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p')
    mv=$("$NGOMA" legal 1 "$who" | head -1)
    [ -n "$mv" ] || { fail "no legal move for $who"; break; }
    "$NGOMA" order 1 "$who" "$mv" >/dev/null || { fail "legal order $mv refused"; break; }
    n=$((n + 1))
done
expect 0 show 1; has "Game over"
expect 0 show 1 --json; has '"winners"'
tests=$((tests + 1))
[ "$(sqlite3 "$NGOMA_DB" "SELECT json_valid(readfile('$T/out'))")" = 1 ] || fail "show --json is not JSON"
expect 0 show 1 --turn 0; has "Game 1: KuniUmi, setup"
expect 0 show 1 --step 0; has "Game 1: KuniUmi, setup"
expect 0 show 1 --turn 2; has "Game 1: KuniUmi, move 2"
expect 0 show 1 --as Bob --turn 3
expect 65 show 1 --turn 9999; err_has "has no move 9999: its moves so far are 0 (the start) to 28"
expect 64 show 1 --turn soon
expect 0 history 1; has_text "Setup
  A game of KuniUmi begins.
  Ann: PLACE EARTH GOD c3"; has_text "
Move 1
  Ann: "
expect 0 history 1 --turn 1; has_text "Move 1
  Ann: "; lacks "Move 2"
expect 0 history 1 --as Ann
expect 65 order 1 Ann "MOVE a1"; has "game is over"

# --- replay, then tampering found
expect 0 replay 1; has "replay exactly"
orig=$(sqlite3 "$NGOMA_DB" "SELECT json_extract(state, '\$.moves') FROM turns WHERE game_id = 1 AND turn = 9")
sqlite3 "$NGOMA_DB" "UPDATE turns SET state = json_set(state, '\$.moves', 77) WHERE game_id = 1 AND turn = 9"
expect 65 replay 1; has "turn 9"
sqlite3 "$NGOMA_DB" "UPDATE turns SET state = json_set(state, '\$.moves', $orig) WHERE game_id = 1 AND turn = 9"
expect 0 replay 1

# --- Kalimambo from the command line: 2 to 7 players, secret cards
expect 65 new kalimambo --player A=a@x.org; err_has "2 to 7 players"
expect 65 new kalimambo --player A=a@x.org --player B=b@x.org --player C=c@x.org --player D=d@x.org \
    --player E=e@x.org --player F=f@x.org --player G=g@x.org --player H=h@x.org; err_has "2 to 7 players"
expect 0 new kalimambo --player Ann=a@x.org --player Bob=b@x.org --player Cleo=c@x.org --player Dan=d@x.org \
    --player Eve=e@x.org --player Fay=f@x.org --player Gus=g@x.org
kid=$(cat "$T/out")
expect 0 order "$kid" Ann "PLAY 3"; has "Still to come: Bob, Cleo, Dan, Eve, Fay and Gus."
expect 0 show "$kid" --as Bob --json
grep -q '"last_card"' "$T/out" && fail "a pending card shows before the round resolves"
expect 65 new kalimambo --player A=a@x.org --player B=b@x.org --option 'setup={"mambo":0}'
err_has "\"kali\" is missing"
expect 0 rules kalimambo; has "PLAY 7"; has "setup"

# --- settings
expect 0 config; has "send_method"; has "smtp_password"
expect 0 config from; has "ngoma@localhost"
expect 65 config from "not an address"; err_has "not a mail address"; one_err_line
expect 65 config from "ngoma+1@x.org"; err_has "no + in it"
expect 65 config maildir /nonexistent/Maildir; err_has "not a directory"
expect 64 config colour blue; err_has 'no setting "colour"'
expect 0 config smtp_password hunter2
expect 0 config; has "smtp_password     (set)"
grep -q hunter2 "$T/out" && fail "config lists a password"
expect 0 config --unset smtp_password
expect 0 config smtp_password; [ -s "$T/out" ] && [ "$(cat "$T/out")" != "" ] && fail "unset password still set"
expect 64 receive a b

# --- sending through a sendmail program: taken, deferred, refused for good
cat >"$T/sendmail" <<'SH'
#!/bin/sh
# A stand-in for sendmail: keeps the mail, answers with the status in $T/sendmail.rc.
cat >>"${0%/*}/sendmail.out"
exit "$(cat "${0%/*}/sendmail.rc")"
SH
chmod +x "$T/sendmail"
expect 0 send  # the dir method drains what the games above queued
expect 0 config send_method sendmail
expect 0 config sendmail "$T/sendmail"
echo 75 >"$T/sendmail.rc"
expect 0 new kuniumi --player Sam=sam@x.org --player Tom=tom@x.org
expect 0 send; has "sent 0, deferred 1"
expect 0 outbox; has "exited with status 75"; has "next try"
echo 67 >"$T/sendmail.rc"
NGOMA_NOW=$(($(date +%s) + 3600)) expect 0 send; has "failed 2"
expect 0 outbox; has "failed"; has "exited with status 67"
echo 0 >"$T/sendmail.rc"
first=$(sqlite3 "$NGOMA_DB" "SELECT min(id) FROM outbox WHERE status = 'failed'")
expect 0 outbox --retry "$first"; has "1 mail due now: sent 1"
expect 0 outbox --retry --all; has "1 mail due now: sent 1"
expect 65 outbox --retry 1; err_has "is sent, or being sent"
# A deferred mail goes now, not when its backoff says.
echo 75 >"$T/sendmail.rc"
expect 0 new kuniumi --player Sam=sam@x.org --player Tom=tom@x.org
expect 0 send; has "sent 0, deferred 1"
echo 0 >"$T/sendmail.rc"
expect 0 send; has "sent 1, deferred 0"  # the one not tried yet; the deferred one waits its minute
expect 0 outbox --retry all; has "1 mail due now: sent 1"
grep -q "^Subject: \[ngoma " "$T/sendmail.out" || fail "sendmail got no mail"
expect 0 outbox; has "no unsent mail"
expect 0 config send_method dir
expect 0 send; has "written 0 to $T/outbox/"

# --- every line of every template fits a mail (72 columns), bar comments and subjects
tests=$((tests + 1))
long=$(awk 'length > 72 && !/^\{\{!/ && !/^Subject:/ {print FILENAME ":" FNR}' "$ROOT"/templates/*.txt "$ROOT"/templates/rules/*.txt)
[ -z "$long" ] || fail "template lines over 72 columns: $long"

# --- every example query of docs/queries.md runs and returns rows (press among them: Ann writes to Bob)
secret1=$(sqlite3 -readonly "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = 1 AND seat = 1")
printf 'From: ann@example.org\nTo: ngoma+1-1-%s@localhost\nMessage-ID: <press-1@example.org>\n\nPRESS TO Bob: well played.\n' \
    "$secret1" >"$T/press.eml"
"$NGOMA" receive --wait "$T/press.eml" >/dev/null || fail "press after the game"
awk '/^```sql$/ {q = ""; inq = 1; next} /^```$/ && inq {print q; print "--END--"; inq = 0; next} inq {q = q " " $0}' \
    "$ROOT/docs/queries.md" >"$T/queries"
nq=0
while IFS= read -r q; do
    [ "$q" = "--END--" ] && continue
    nq=$((nq + 1)); tests=$((tests + 1))
    rows=$(sqlite3 -readonly "$NGOMA_DB" "$q" 2>"$T/err") || { fail "query failed: $q: $(cat "$T/err")"; continue; }
    [ -n "$rows" ] || fail "query returned no rows: $q"
done <"$T/queries"
[ "$nq" -ge 5 ] || fail "found only $nq example queries in docs/queries.md"

# --- a busy database is a temporary failure (EX_TEMPFAIL) and changes nothing
mkfifo "$T/lock"
sqlite3 "$NGOMA_DB" <"$T/lock" >/dev/null 2>&1 &
exec 3>"$T/lock"
echo "BEGIN IMMEDIATE; INSERT INTO settings VALUES ('lock', 'held');" >&3
sleep 0.5
before=$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM orders')
NGOMA_BUSY_TIMEOUT_MS=100 expect 75 order 1 Ann "LEGAL"
NGOMA_BUSY_TIMEOUT_MS=100 expect 75 new kuniumi --player C=c@x.org --player D=d@x.org
printf 'From: a@x.org\nTo: ngoma+1-1-abc@localhost\nMessage-ID: <busy@x.org>\n\nLEGAL\n' >"$T/busy.eml"
NGOMA_BUSY_TIMEOUT_MS=100 expect 75 receive --wait "$T/busy.eml"
# receive keeps it all the same: the inbox is a database of its own, and
# the mail is read once the main one is free.
NGOMA_BUSY_TIMEOUT_MS=100 expect 0 receive "$T/busy.eml"; has "kept as inbox mail"
echo "ROLLBACK;" >&3
exec 3>&-
wait
expect 0 new kuniumi --player C=c@x.org --player D=d@x.org
[ "$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM orders')" = "$before" ] || fail "a busy run stored orders"
expect 0 send
[ "$(sqlite3 -readonly "$NGOMA_DB" "SELECT count(*) FROM messages WHERE message_id = 'busy@x.org' AND status = 'refused'")" = 1 ] ||
    fail "the mail kept while busy was not taken later"
expect 0 receive --wait "$T/busy.eml"; has "duplicate"
# A busy inbox makes the MTA keep the mail (75).
mkfifo "$T/lock2"
sqlite3 "$NGOMA_DB.inbox" <"$T/lock2" >/dev/null 2>&1 &
exec 3>"$T/lock2"
echo "BEGIN IMMEDIATE; DELETE FROM inbox WHERE id < 0;" >&3
sleep 0.5
NGOMA_BUSY_TIMEOUT_MS=100 expect 75 receive "$T/busy.eml"
echo "ROLLBACK;" >&3
exec 3>&-
wait

# --- where the database is: never a new empty one by accident; never another user's
mkdir "$T/elsewhere"
( cd "$T/elsewhere" && NGOMA_DB= "$NGOMA" list >"$T/out" 2>"$T/err" ); rc=$?
tests=$((tests + 1)); [ $rc = 66 ] || fail "list with no database anywhere exited $rc"
err_has "there is no database at ngoma.db"; err_has "ngoma init"
[ -e "$T/elsewhere/ngoma.db" ] && fail "list created a database"
printf '# ngoma.conf\ndb = %s\n' "$NGOMA_DB" >"$T/ngoma.conf"
( cd "$T/elsewhere" && NGOMA_DB= NGOMA_CONFIG="$T/ngoma.conf" "$NGOMA" list >"$T/out" 2>"$T/err" ); rc=$?
tests=$((tests + 1)); [ $rc = 0 ] || fail "the configuration file's db was not used: $(cat "$T/err")"
printf 'db /nowhere\n' >"$T/bad.conf"
( cd "$T/elsewhere" && NGOMA_DB= NGOMA_CONFIG="$T/bad.conf" "$NGOMA" list >"$T/out" 2>"$T/err" ); rc=$?
tests=$((tests + 1)); [ $rc = 78 ] || fail "a bad configuration file exited $rc"
err_has "line 1: write key = value"
( cd "$T/elsewhere" && NGOMA_DB= "$NGOMA" init >/dev/null 2>&1 ) && [ -e "$T/elsewhere/ngoma.db" ] ||
    fail "init did not create ./ngoma.db"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    cp "$NGOMA_DB" "$T/theirs.db"
    chown nobody "$T/theirs.db"
    NGOMA_DB="$T/theirs.db" expect 77 list; err_has "belongs to nobody"; err_has "runuser -u nobody -- ngoma"
    [ -e "$T/theirs.db-shm" ] && fail "a refused command left a file beside another user's database"
    chmod 755 "$T"
    mkdir "$T/theirdir" && chown nobody "$T/theirdir"
    NGOMA_DB="$T/theirdir/new.db" expect 77 init; err_has "create the database as that user"
    # The build may sit where nobody reaches (a clone under /root, mode
    # 700): nobody runs a copy of the program in a folder it can read.
    mkdir "$T/bin" && cp "$NGOMA" "$T/bin/ngoma" && chmod 755 "$T/bin" "$T/bin/ngoma"
    runuser -u nobody -- "$T/bin/ngoma" --db "$T/theirdir/new.db" init >"$T/err" 2>&1 ||
        fail "the owner cannot init: $(cat "$T/err")"
    [ "$(stat -c %U "$T/theirdir/new.db")" = nobody ] || fail "the database is not the owner's"
fi

# --- addresses are checked the same way wherever they come in
for bad in 'a b@x.org' 'a@x@y.org' '<a@x.org>' 'a@x.org,b@y.org' 'a@-x.org' 'a@x..org' '.a@x.org' 'a/b@x.org' \
    'a"b@x.org' "$(printf 'a\nb@x.org')"; do
    expect 65 new kuniumi --player "A=$bad" --player B=b@x.org; err_has "address"
    expect 64 new kuniumi --player A=a@x.org --player B=b@x.org --deadline 1d --host "$bad"; err_has "address"
    expect 65 config from "$bad"
done
expect 0 new kuniumi --player "A=ann.o'neil+games@mail.example.org" --player B=b@x.org
expect 65 replace 1 Bob "Eve=eve@x..org"; err_has "address"

# --- a mail received is kept, and the delivery ends: a worker reads it and
# sends its answer at once (send_on_receive), unless the host says no
expect 0 new kuniumi --player Ivy=ivy@x.org --player Jay=jay@x.org
ivy=$(cat "$T/out")
expect 0 send
ivys=$(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = $ivy AND seat = 1")
printf 'From: ivy@x.org\nTo: ngoma+%s-1-%s@localhost\nMessage-ID: <now1@x.org>\n\nLEGAL\n' "$ivy" "$ivys" >"$T/now1.eml"
before=$(ls "$T/outbox" | wc -l)
expect 0 receive "$T/now1.eml"; has "kept as inbox mail"
# The worker the receive left behind: no waiting here, only watching.
i=0
while [ "$(ls "$T/outbox" | wc -l)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ "$(ls "$T/outbox" | wc -l)" -gt "$before" ] || fail "the worker did not answer at once"
[ "$(sqlite3 -readonly "$NGOMA_DB" "SELECT status FROM messages WHERE message_id = 'now1@x.org'")" = processed ] ||
    fail "the kept mail was not read"
[ "$(sqlite3 -readonly "$NGOMA_DB.inbox" "SELECT count(*) FROM inbox")" = 0 ] || fail "the inbox still holds the mail"
expect 0 config send_on_receive no
printf 'From: ivy@x.org\nTo: ngoma+%s-1-%s@localhost\nMessage-ID: <now2@x.org>\n\nBOARD\n' "$ivy" "$ivys" >"$T/now2.eml"
before=$(ls "$T/outbox" | wc -l)
expect 0 receive --wait "$T/now2.eml"; has "processed"
[ "$(ls "$T/outbox" | wc -l)" = "$before" ] || fail "send_on_receive no still sent"
expect 0 config send_on_receive yes
expect 65 config send_on_receive maybe
# send reads what the inbox keeps first, then sends: after it, all is out.
printf 'From: ivy@x.org\nTo: ngoma+%s-1-%s@localhost\nMessage-ID: <now4@x.org>\n\nBOARD\n' "$ivy" "$ivys" >"$T/now4.eml"
before=$(ls "$T/outbox" | wc -l)
expect 0 receive "$T/now4.eml"
expect 0 send
[ "$(ls "$T/outbox" | wc -l)" -ge $((before + 2)) ] || fail "send did not wait for the kept mail's answer"
[ "$(sqlite3 -readonly "$NGOMA_DB.inbox" "SELECT count(*) FROM inbox")" = 0 ] || fail "send left the inbox unread"
# The mail is taken (exit 0) whatever becomes of its answer: a server that is down defers it.
expect 0 config send_method smtp
expect 0 config smtp_url smtp://127.0.0.1:1
printf 'From: ivy@x.org\nTo: ngoma+%s-1-%s@localhost\nMessage-ID: <now3@x.org>\n\nBOARD\n' "$ivy" "$ivys" >"$T/now3.eml"
expect 0 receive --wait "$T/now3.eml"; has "processed"
expect 0 outbox; has "last error: SMTP smtp://127.0.0.1:1"
expect 0 config send_method dir
expect 0 config --unset smtp_url
expect 0 send

# --- a recovered mbox is read with fetch --mbox, each mail once
{
    printf 'From ivy@x.org Tue Dec  1 10:00:00 2026\nFrom: ivy@x.org\nTo: ngoma+%s-1-%s@localhost\n' "$ivy" "$ivys"
    printf 'Message-ID: <mbox1@x.org>\n\nLEGAL\n>From the start\n\n'
    printf 'From jay@x.org Tue Dec  1 10:01:00 2026\nFrom: ivy@x.org\nTo: ngoma+%s-1-%s@localhost\n' "$ivy" "$ivys"
    printf 'Message-ID: <mbox2@x.org>\n\nBOARD\n'
} >"$T/spool.mbox"
expect 0 fetch --mbox "$T/spool.mbox"; has "fetched 2 messages: 2 processed"
expect 0 fetch --mbox "$T/spool.mbox"; has "2 duplicate"
expect 66 fetch --mbox "$T/nothing.mbox"; err_has "cannot read the mbox"

# --- the dir outbox names its files by mail, never by address
expect 0 send
tests=$((tests + 1))
ls "$T/outbox" | grep -qv '^[0-9]\{6,\}\.eml$' && fail "outbox files not named by id: $(ls "$T/outbox" | head -3)"

# --- prune: sent mail, raw copies and journal rows past their age; the history stays
turns=$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM turns')
orders=$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM orders')
sent=$(sqlite3 -readonly "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE status = 'sent'")
expect 0 prune; has "0 sent mails"
NGOMA_NOW=$(($(date +%s) + 100 * 86400)) expect 0 prune; has "$sent sent mails"
[ "$(sqlite3 -readonly "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 0 ] || fail "prune left sent mail"
[ "$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM messages WHERE raw IS NOT NULL')" = 0 ] ||
    fail "prune left raw copies"
[ "$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM turns')" = "$turns" ] || fail "prune touched the turns"
[ "$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM orders')" = "$orders" ] || fail "prune touched the orders"
expect 0 replay 1
expect 64 prune --before soon; err_has "like 90d"
expect 0 prune --before 1h
expect 65 config retention 5m; err_has "at least an hour"

# --- backup: a copy that opens, replays and holds every game
expect 0 backup "$T/copy.db"; has "backed up"
[ "$(sqlite3 -readonly "$T/copy.db" 'PRAGMA integrity_check')" = ok ] || fail "the backup is damaged"
[ "$(sqlite3 -readonly "$T/copy.db" 'SELECT count(*) FROM games')" = "$(sqlite3 -readonly "$NGOMA_DB" 'SELECT count(*) FROM games')" ] ||
    fail "the backup lacks games"
NGOMA_DB="$T/copy.db" expect 0 replay 1
expect 73 backup /nonexistent/dir/copy.db; err_has "cannot create"

echo "cli.sh: $tests checks, $fails failed"
[ "$fails" -eq 0 ]
