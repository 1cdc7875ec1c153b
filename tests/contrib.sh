#!/bin/sh
# contrib.sh: runs the ngoma command of every contrib/ example exactly as written (paths swapped for the test's) against real mail.
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

# The example's command with the installed paths swapped for the test's.
local_cmd() { sed -e "s|/usr/local/bin/ngoma|$NGOMA|g" -e "s|/var/lib/ngoma/ngoma.db|$DB|g"; }
messages() { sqlite3 "$DB" "SELECT count(*) FROM messages WHERE status = 'processed'"; }

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
run_receive forward "$(sed -n 's/^"|\(.*\)"$/\1/p' "$ROOT/contrib/forward" | local_cmd)"
# procmail: the line after ":0 w" is "| command"
run_receive procmailrc "$(sed -n 's/^| *//p' "$ROOT/contrib/procmailrc" | local_cmd)"
# Postfix pipe: argv=...
run_receive postfix-master.cf "$(sed -n 's/.*argv=//p' "$ROOT/contrib/postfix-master.cf" | local_cmd)"
# procmail for real, with the example's recipe: the mail reaches ngoma
# (and, when ngoma cannot take it, the Maildir fetch reads).
local_cmd <"$ROOT/contrib/procmailrc" | sed "s|^DEFAULT=.*|DEFAULT=$T/procmail-Maildir/|" >"$T/procmailrc"
procmail_cmd() { sed -e "s|/var/lib/ngoma/.procmailrc|$T/procmailrc|g" | local_cmd; }
# fetchmail: mda "command", procmail with the recipe above
run_receive fetchmailrc "$(sed -n 's/.*mda "\(.*\)"/\1/p' "$ROOT/contrib/fetchmailrc" | procmail_cmd)"
# When ngoma cannot take it (here, its database cannot be opened: 75), the mail lands in the Maildir.
checks=$((checks + 1))
sed -e "s|$DB|$T/nodir/none.db|g" "$T/procmailrc" >"$T/procmailrc-broken"
$CLIENT reply "$T/outbox" ann@example.org - "" "" "PLAY 1" | /usr/bin/procmail -m "$T/procmailrc-broken" ||
    fail "procmail failed instead of filing the mail"
[ "$(ls "$T/procmail-Maildir/new" 2>/dev/null | wc -l)" = 1 ] || fail "procmail did not file the mail ngoma could not take"
# getmail: path plus the arguments tuple
gm_path=$(sed -n 's/^path = //p' "$ROOT/contrib/getmailrc")
gm_args=$(sed -n 's/^arguments = (\(.*\))/\1/p' "$ROOT/contrib/getmailrc" | tr -d '",')
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
maildir_run crontab "$(grep -v '^#' "$ROOT/contrib/crontab" | grep . | cut -d' ' -f6- | local_cmd)"
maildir_run ngoma.service "$(sed -n 's/^ExecStart=//p' "$ROOT/contrib/ngoma.service" | local_cmd | paste -sd';' -)"
grep -q "^OnUnitActiveSec=" "$ROOT/contrib/ngoma.timer" || fail "ngoma.timer has no interval"
echo "contrib.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
