#!/bin/sh
# peers.sh: ngoma against hostile IMAP and SMTP servers (tests/peers.py) that stream, stall and refuse: each session ends within its bounds, in bytes and seconds, and says why in the server's words.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3
T=$(mktemp -d /tmp/ngoma-peers.XXXXXX)
export NGOMA_DB="$T/ngoma.db"
fails=0
checks=0
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$T"' EXIT

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }

# start MODE: a hostile server on a free port ($PORT); its log in $T/log.
start() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -f "$T/port" "$T/log"
    "$PY" "$ROOT/tests/peers.py" "$1" "$T/port" "$T/log" &
    server=$!
    for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
    PORT=$(cat "$T/port")
}

# measure CMD...: runs ngoma with a hard bound of 60 s; its exit status,
# seconds and peak memory (KB) in $RC $SECS $KB, stderr in $T/err.
measure() {
    set -- $("$PY" -c '
import resource, subprocess, sys, time
t = time.time()
with open(sys.argv[1], "w") as err:
    try:
        rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=err, timeout=60)
    except subprocess.TimeoutExpired:
        rc = 124
print(rc, "%.1f" % (time.time() - t), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' "$T/err" "$NGOMA" "$@")
    RC=$1 SECS=$2 KB=$3
}

# within SECS_MAX KB_MAX WHAT: the last command stayed within its bounds.
within() {
    checks=$((checks + 1))
    [ "$RC" != 124 ] || { fail "$3: ngoma ran 60 s and was killed"; return; }
    awk "BEGIN { exit !($SECS <= $1) }" || fail "$3: took $SECS s (bound $1)"
    [ "$KB" -le "$2" ] || fail "$3: used $KB KB (bound $2)"
    echo "  $3: exit $RC in $SECS s, $KB KB at most"
}
err_has() { checks=$((checks + 1)); grep -q -- "$1" "$T/err" || fail "stderr lacks \"$1\": $(cat "$T/err")"; }
err_lacks() { checks=$((checks + 1)); ! grep -q -- "$1" "$T/err" || fail "stderr has \"$1\": $(cat "$T/err")"; }

"$NGOMA" init >/dev/null
# The bound on memory: what the program takes to start and list its games
# (more under the sanitizers), plus 48 MB for a session at its limits.
measure list
MEM=$((KB + 49152))
"$NGOMA" config imap_user u >/dev/null
"$NGOMA" config imap_password p >/dev/null
"$NGOMA" config imap_tls none >/dev/null
"$NGOMA" config imap_session_secs 5 >/dev/null
"$NGOMA" config smtp_tls none >/dev/null
"$NGOMA" config smtp_session_secs 5 >/dev/null
"$NGOMA" config send_method smtp >/dev/null
"$NGOMA" config images no >/dev/null

echo "peers.sh: IMAP"
# A server streams one endless SEARCH line, or untagged lines without end:
# the answer's bound (imap_response_bytes, 1 MB) cuts it.
for mode in imap-stream-search imap-stream-untagged; do
    start $mode
    "$NGOMA" config imap_url "imap://127.0.0.1:$PORT/INBOX" >/dev/null
    measure fetch
    within 5 "$MEM" "$mode"
    ok test "$RC" = 75
    err_has "imap_response_bytes"
done
# A line a second for ever: the session's deadline (imap_session_secs) cuts it.
start imap-slow
"$NGOMA" config imap_url "imap://127.0.0.1:$PORT/INBOX" >/dev/null
measure fetch
within 12 "$MEM" "imap-slow"
ok test "$RC" = 75
err_has "imap_session_secs"
# A 64 MB mail: read, kept to max_message_size, taken (as a stranger's, ignored).
start imap-huge-literal
"$NGOMA" config imap_url "imap://127.0.0.1:$PORT/INBOX" >/dev/null
measure fetch
within 20 "$MEM" "imap-huge-literal (64 MB)"
ok test "$RC" = 0
ok test "$(sqlite3 "$NGOMA_DB" "SELECT size FROM messages ORDER BY id DESC LIMIT 1")" -gt 67000000

echo "peers.sh: SMTP"
# queue: three welcome mails, to a@, bad@ and c@.
queue() {
    sqlite3 "$NGOMA_DB" "DELETE FROM outbox"
    "$NGOMA" new kalimambo --player A=a@example.org --player Bad=bad@example.org --player C=c@example.org >/dev/null
}
status_of() { sqlite3 "$NGOMA_DB" "SELECT status FROM outbox WHERE rcpt = '$1'"; }
# A refusal of the session defers the queue: nothing fails, nothing else is
# offered, and the error names the server's words, without a TLS hint.
for case in "smtp-554|refused the session at its greeting: 554 5.7.1 no service" \
    "smtp-421|refused the session at its greeting: 421 4.3.2 too busy" \
    "smtp-mailfrom-550|refused the sender (MAIL FROM): 550 5.7.1 this sender is not welcome" \
    "smtp-stream-ehlo|passed the 300 KB libcurl reads of one reply" \
    "smtp-slow|smtp_session_secs"; do
    mode=${case%%|*} words=${case#*|}
    queue
    start "$mode"
    "$NGOMA" config smtp_url "smtp://127.0.0.1:$PORT" >/dev/null
    measure send
    within 12 "$MEM" "$mode"
    err_has "$words"
    err_lacks "implicit"
    ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE status = 'queued'")" = 3
    ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE attempts > 0")" = 0
    ok test ! -s "$T/log"
done
# A refusal of one recipient fails that mail only; the others go.
queue
start smtp-rcpt-one
"$NGOMA" config smtp_url "smtp://127.0.0.1:$PORT" >/dev/null
measure send
within 5 "$MEM" "smtp-rcpt-one"
err_has "refused the recipient: 550 5.1.1 no such user here"
ok test "$(status_of bad@example.org)" = failed
ok test "$(status_of a@example.org)" = sent
ok test "$(status_of c@example.org)" = sent
ok grep -q "delivered <c@example.org>" "$T/log"

echo "peers.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
