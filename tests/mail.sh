#!/bin/sh
# mail.sh: whole games played purely by mail through a real IMAP server (Dovecot) and a real SMTP server (aiosmtpd).
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-mail.XXXXXX)
PLAYER="/usr/bin/python3 $ROOT/tests/mailplayer.py"
. "$ROOT/tests/servers.sh"
cleanup() { servers_stop; rm -rf "$T"; }
trap cleanup EXIT
export NGOMA_DB="$T/ngoma.db"
fails=0
checks=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }

servers_start "$T/servers" || { echo "mail.sh: cannot start the mail servers"; exit 1; }

servers_ngoma "$NGOMA" || fail "ngoma cannot be set up for the servers"

# One round of the mail loop: ngoma fetches what the players sent and sends its answers.
cycle() {
    "$NGOMA" fetch >"$T/fetch.out" 2>"$T/fetch.err" || fail "fetch: $(cat "$T/fetch.err")"
    "$NGOMA" send >"$T/send.out" 2>"$T/send.err" || fail "send: $(cat "$T/send.err")"
    grep -q "failed 0" "$T/send.out" || fail "send failed: $(cat "$T/send.out" "$T/send.err")"
}
count() { $PLAYER count "$SMTP_MAILDIR" "$1"; }
reply() { $PLAYER reply "$SMTP_MAILDIR" "$1" "$IMAP_PORT" "$IMAP_USER" "$IMAP_PASS" "$2" >/dev/null || fail "reply by $1"; }
last_text() { $PLAYER last-text "$SMTP_MAILDIR" "$1"; }
waiting() { "$NGOMA" show "$1" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p'; }

# ---- KuniUmi, a whole game by mail -----------------------------------------------------
game=$("$NGOMA" new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 11)
"$NGOMA" send >/dev/null
ok test "$(count ann@example.org)" = 1
ok test "$(count bob@example.org)" = 1
last_text ann@example.org | grep -q "Welcome to KuniUmi" || fail "no welcome for Ann"

# Ann sets up in one mail, answering her welcome mail.
reply ann@example.org "PLACE EARTH GOD c3\nPLACE SEA GOD d4\nPLACE LAND b5\nPLACE LAND e2\nPLACE SEA c4\nPLACE SEA d2"
cycle
last_text ann@example.org | grep -q "Ann places the Sea token on d2" || fail "Ann's setup reply"
last_text bob@example.org | grep -q "Ann places the Earth God on c3" || fail "Bob was not told of the setup"

# Then each player asks for LEGAL by mail, reads the answer, and plays the first legal order.
moves=0
while [ $moves -lt 60 ]; do
    who=$(waiting "$game")
    [ -n "$who" ] || break
    addr=$(echo "$who" | tr 'A-Z' 'a-z')@example.org
    reply "$addr" "LEGAL"
    cycle
    order=$(last_text "$addr" | sed -n '/legal orders\{0,1\} now:/{n;p;q}')
    [ -n "$order" ] || { fail "no LEGAL answer for $who"; break; }
    # Every order goes with press to the other player, in the same mail.
    other=Bob; [ "$who" = Bob ] && other=Ann
    reply "$addr" "$order\nPRESS TO $other: KuniPress$moves from $who"
    cycle
    last_text "$addr" | grep -q "^Accepted" || fail "$who's $order was not accepted by mail"
    moves=$((moves + 1))
done
# Each press mail reached the other player alone; her own answer quotes it to her.
ok test "$(grep -rl "^Press from" "$SMTP_MAILDIR" | xargs grep -l "KuniPress[0-9]* from" | wc -l)" = "$moves"
ok test "$(grep -rl "^Press from Ann" "$SMTP_MAILDIR" | xargs grep -l KuniPress | xargs grep -L "^To: Bob <" | wc -l)" = 0
ok test "$(grep -rl "^Press from Bob" "$SMTP_MAILDIR" | xargs grep -l KuniPress | xargs grep -L "^To: Ann <" | wc -l)" = 0
ok test -z "$(waiting "$game")"
"$NGOMA" show "$game" --json | grep -q '"status":	"finished"' || fail "the KuniUmi game did not finish"
last_text ann@example.org | grep -q "Game over" || fail "Ann was not told the game is over"
last_text bob@example.org | grep -q "Game over" || fail "Bob was not told the game is over"
"$NGOMA" replay "$game" >/dev/null || fail "replay of the game played by mail"
ok test "$($PLAYER unseen "$IMAP_PORT" "$IMAP_USER" "$IMAP_PASS")" = 0
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE status <> 'sent'")" = 0
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM messages WHERE status <> 'processed'")" = 0
# Every reply went to the player who wrote, threaded under her mail.
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox o JOIN messages m ON m.id = o.in_reply_to
    WHERE o.kind = 'reply' AND lower(o.rcpt) <> lower(m.from_addr)")" = 0
ann_secret=$(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = $game AND seat = 1")
grep -rl "$ann_secret" "$SMTP_MAILDIR" | while read -r f; do
    grep -q "^To: Ann <ann@example.org>" "$f" || fail "Ann's secret in a mail to someone else: $f"
done

# ---- Kalimambo: one round of secret cards by mail -------------------------------------------
kali=$("$NGOMA" new kalimambo --player Cleo=cleo@example.org --player Dan=dan@example.org \
    --player Eve=eve@example.org --seed 5)
"$NGOMA" send >/dev/null
before_dan=$(count dan@example.org)
reply cleo@example.org "PLAY 9"
reply dan@example.org "PLAY 4"
cycle
last_text cleo@example.org | grep -q "Still to come: Dan and Eve." || fail "Cleo's card was not recorded"
last_text dan@example.org | grep -q "Still to come: Eve." || fail "Dan's card was not recorded"
ok test "$(count dan@example.org)" = $((before_dan + 1))
# Nobody has seen a card: no mail to anyone names another's card.
if grep -rl "Cleo: PLAY 9\|Cleo plays 9\|order PLAY 9" "$SMTP_MAILDIR" | xargs grep -l "^To: \(Dan\|Eve\)" 2>/dev/null |
    grep -q .; then
    fail "Cleo's secret card reached another player"
fi
"$NGOMA" show "$kali" --json | grep -q '"turn":	0' || fail "the round resolved too early"
reply cleo@example.org "PLAY 6"
reply eve@example.org "PLAY 2"
cycle
for p in cleo dan eve; do
    last_text $p@example.org | grep -q "Cards: Cleo 6, Dan 4, Eve 2, Kali" || fail "$p has no round report"
done
"$NGOMA" show "$kali" --json | grep -q '"turn":	1' || fail "the round did not resolve"

# ---- press through the servers: Cleo writes to Dan and Eve; Dan's plain Reply reaches Cleo and Eve ------
press_count() { grep -rl "$1" "$SMTP_MAILDIR" | xargs grep -l "^To: $2 <" 2>/dev/null | wc -l; }
reply cleo@example.org "PRESS TO Dan and Eve\nPressMarkOne: shall we hold Kali back?\nEND PRESS"
cycle
ok test "$(press_count PressMarkOne Dan)" = 1
ok test "$(press_count PressMarkOne Eve)" = 1
ok test "$(press_count PressMarkOne Cleo)" = 0
last_text dan@example.org | head -n 1 | grep -q "^Press from Cleo to you and Eve, Kalimambo game $kali:" ||
    fail "Dan's press mail: $(last_text dan@example.org | head -n 1)"
$PLAYER last-text "$SMTP_MAILDIR" dan@example.org headers | grep -q "^From: ngoma" || fail "press not from the game"
if grep -rl PressMarkOne "$SMTP_MAILDIR" | xargs grep -il "cleo@example.org" 2>/dev/null | xargs grep -l "^To: \(Dan\|Eve\)" 2>/dev/null | grep -q .; then
    fail "a press mail to Dan or Eve carries Cleo's address"
fi
reply dan@example.org "PressMarkTwo: yes, I keep my 12 for the last round."
cycle
ok test "$(press_count PressMarkTwo Cleo)" = 1
ok test "$(press_count PressMarkTwo Eve)" = 1
ok test "$(press_count PressMarkTwo Dan)" = 0
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM press WHERE game_id = $kali")" = 2

# ---- hostile: a forged From with no secret gets nothing sent to the forger -----------------------
cat >"$T/forged.eml" <<EOF
From: Mallory <mallory@evil.example>
To: ngoma@localhost
Subject: Re: [ngoma $kali] Kalimambo
Message-ID: <forged-1@evil.example>

PLAYER Cleo
PLAY 11
EOF
/usr/bin/python3 - "$IMAP_PORT" "$IMAP_USER" "$IMAP_PASS" "$T/forged.eml" <<'PY'
import imaplib, sys
imap = imaplib.IMAP4("127.0.0.1", int(sys.argv[1])); imap.login(sys.argv[2], sys.argv[3])
imap.append("INBOX", None, None, open(sys.argv[4], "rb").read()); imap.logout()
PY
cycle
ok test "$(count mallory@evil.example)" = 0
last_text cleo@example.org | grep -q "carried no secret" || fail "Cleo was not told of the forged mail"

# ---- every delivered mail is well formed ---------------------------------------------------------
n=$($PLAYER check "$SMTP_MAILDIR" pictures) || fail "a delivered mail is malformed: $n"
checks=$((checks + 1))
# Mails that show a board show its picture too (images are on by default).
ok test "${n#* }" -gt 0

# ---- SMTP down: mail waits in the outbox and goes later ---------------------------------------------
"$NGOMA" config smtp_url "smtp://127.0.0.1:1" >/dev/null
reply cleo@example.org "BOARD"
# fetch takes the mail (exit 0) and tries its answer at once: deferred.
"$NGOMA" fetch >/dev/null 2>"$T/fetch.err" || fail "fetch failed because the SMTP server is down"
grep -q "Couldn't connect" "$T/fetch.err" || fail "fetch did not try the answer at once: $(cat "$T/fetch.err")"
"$NGOMA" outbox | grep -q "last error" || fail "ngoma outbox does not show the error"
"$NGOMA" config smtp_url "smtp://127.0.0.1:$SMTP_PORT" >/dev/null
NGOMA_NOW=$(($(date +%s) + 120)) "$NGOMA" send >"$T/send.out"
grep -q "sent 1" "$T/send.out" || fail "the deferred mail was not sent later: $(cat "$T/send.out")"

echo "mail.sh: $checks checks, $fails failed (KuniUmi in $moves moves by mail)"
[ "$fails" -eq 0 ]
