#!/bin/sh
# contrib.sh: runs the ngoma command of every contrib/ example exactly as make install writes it (for this build and a test database) against real mail.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-contrib.XXXXXX)
trap 'rm -rf "$T"' EXIT
DB="$T/ngoma.db"
CLIENT="/usr/bin/python3 $ROOT/tests/mailplayer.py"
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The examples as make install writes them, for this build and database.
unset MAKEFLAGS MFLAGS MAKELEVEL
make --no-print-directory -s -C "$ROOT" contrib-files CONTRIB_DIR="$T/contrib" BINDIR="$(dirname "$NGOMA")" DB="$DB" SPOOL="$T/spool" \
    >/dev/null || { echo "FAIL: make contrib-files"; exit 1; }
C=$T/contrib
local_cmd() { cat; }
messages() { sqlite3 -cmd ".timeout 5000" "$DB" "SELECT count(*) FROM messages WHERE status = 'processed'"; }

export NGOMA_DB="$DB"
"$NGOMA" init >/dev/null
"$NGOMA" config outbox_dir "$T/outbox"
game=$("$NGOMA" new kalimambo --player Ann=ann@example.org --player Bob=bob@example.org --player Cleo=c@example.org)
"$NGOMA" send >/dev/null
n=0
# Pipes a fresh reply of Ann's into the command, as the MTA would.
run_receive() {
    name=$1 cmd=$2
    checks=$((checks + 1))
    n=$((n + 1))
    [ -n "$cmd" ] || { fail "$name: no ngoma command found"; return; }
    before=$(messages)
    $CLIENT reply "$T/outbox" ann@example.org - "" "" "PLAY $n" >"$T/mail.eml"
    sh -c "$cmd" <"$T/mail.eml" >/dev/null 2>"$T/err" || { fail "$name: '$cmd' failed: $(cat "$T/err")"; return; }
    # receive keeps it and a worker reads it at once: watch for it.
    i=0
    while [ "$(messages)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    [ "$(messages)" = $((before + 1)) ] || fail "$name: the mail was not processed"
}

# .forward: "|command"
run_receive forward "$(sed -n 's/^"|\(.*\)"$/\1/p' "$C/forward" | local_cmd)"
# procmail: the line after ":0 w" is "| command"
run_receive procmailrc "$(sed -n 's/^| *//p' "$C/procmailrc" | local_cmd)"
# Postfix pipe: argv=...
run_receive postfix-master.cf "$(sed -n 's/.*argv=//p' "$C/postfix-master.cf" | local_cmd)"
# procmail for real, with the example's recipe: the mail reaches ngoma
# (and, when ngoma cannot take it, the Maildir fetch reads).
# (the ngoma user's home is the database's folder: $T)
sed "s|^DEFAULT=.*|DEFAULT=$T/procmail-Maildir/|" "$C/procmailrc" >"$T/.procmailrc"
procmail_cmd() { cat; }
# fetchmail: mda "command", procmail with the recipe above
run_receive fetchmailrc "$(sed -n 's/.*mda "\(.*\)"/\1/p' "$C/fetchmailrc" | procmail_cmd)"
# When ngoma cannot take it (here, its database cannot be opened: 75), the mail lands in the Maildir.
checks=$((checks + 1))
sed -e "s|$DB|$T/nodir/none.db|g" "$T/.procmailrc" >"$T/procmailrc-broken"
$CLIENT reply "$T/outbox" ann@example.org - "" "" "PLAY 1" | /usr/bin/procmail -m "$T/procmailrc-broken" ||
    fail "procmail failed instead of filing the mail"
[ "$(ls "$T/procmail-Maildir/new" 2>/dev/null | wc -l)" = 1 ] || fail "procmail did not file the mail ngoma could not take"
# getmail: path plus the arguments tuple
gm_path=$(sed -n 's/^path = //p' "$C/getmailrc")
gm_args=$(sed -n 's/^arguments = (\(.*\))/\1/p' "$C/getmailrc" | tr -d '",')
run_receive getmailrc "$(echo "$gm_path $gm_args" | local_cmd)"

# crontab and systemd run fetch and send: give them a Maildir with one mail.
mkdir -p "$T/Maildir/new" "$T/Maildir/cur" "$T/Maildir/tmp"
"$NGOMA" config maildir "$T/Maildir"
maildir_run() {
    name=$1 cmd=$2
    checks=$((checks + 1))
    n=$((n + 1))
    [ -n "$cmd" ] || { fail "$name: no ngoma command found"; return; }
    $CLIENT reply "$T/outbox" ann@example.org - "" "" "PLAY $n" >"$T/Maildir/new/$n.test"
    before=$(messages)
    sent_before=$(ls "$T/outbox" | wc -l)
    sh -c "$cmd" >/dev/null 2>"$T/err" || { fail "$name: '$cmd' failed: $(cat "$T/err")"; return; }
    [ "$(messages)" = $((before + 1)) ] || fail "$name: the Maildir mail was not processed"
    [ -z "$(ls "$T/Maildir/new")" ] || fail "$name: the mail was left in new/"
    [ "$(ls "$T/outbox" | wc -l)" -gt "$sent_before" ] || fail "$name: nothing was sent"
}
maildir_run crontab "$(grep -v '^#' "$C/crontab" | grep . | cut -d' ' -f6- | local_cmd)"
maildir_run ngoma.service "$(sed -n 's/^ExecStart=//p' "$C/ngoma.service" | local_cmd | paste -sd';' -)"
grep -q "^OnUnitActiveSec=" "$C/ngoma.timer" || fail "ngoma.timer has no interval"

# ngoma-serve.socket and .service, started as systemd would (tests/activate.py:
# the socket made and passed as fd 3): a mail by LMTP through the socket is
# taken, and SIGTERM ends the server.
checks=$((checks + 1))
mkdir -p "$T/spool/private"
pid=$(/usr/bin/python3 "$ROOT/tests/activate.py" --as-me "$C/ngoma-serve.socket" "$C/ngoma-serve.service" "$T/serve.log")
sock=$(sed -n 's/^ListenStream=//p' "$C/ngoma-serve.socket")
before=$(messages)
$CLIENT reply "$T/outbox" ann@example.org - "" "" "PLAY 9" >"$T/mail.eml"
/usr/bin/python3 -c '
import smtplib, sys
c = smtplib.LMTP(sys.argv[1])
bad = c.sendmail("ann@example.org", [sys.argv[2]], open(sys.argv[3], "rb").read())
c.quit()
sys.exit(1 if bad else 0)' "$sock" "$(sed -n 's/^To: .*<\(.*\)>.*/\1/p; s/^To: \([^<]*@[^ ]*\)$/\1/p' "$T/mail.eml" | head -n 1)" "$T/mail.eml" ||
    fail "ngoma-serve.socket: the mail by LMTP was refused: $(cat "$T/serve.log")"
i=0
while [ "$(messages)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ "$(messages)" = $((before + 1)) ] || fail "ngoma-serve.service: the mail by LMTP was not processed: $(cat "$T/serve.log")"
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null && fail "ngoma serve did not stop on SIGTERM"
grep -q "LMTP on systemd:3" "$T/serve.log" || fail "ngoma serve did not take the socket systemd passes: $(cat "$T/serve.log")"
echo "contrib.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
