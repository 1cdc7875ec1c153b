#!/bin/sh
# postfix.sh: a private Postfix instance wired exactly as docs/hosting.md says (every sh block of the guide, run in order), then a whole game played by mail through it.
# usage: postfix.sh NGOMA (the build; the guide installs its own copy)
set -u
# The guide's `make install` is the plain build's, whatever make runs this.
unset MAKEFLAGS MFLAGS MAKELEVEL
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-postfix.XXXXXX)
. "$ROOT/tests/servers.sh"
PLAYER="/usr/bin/python3 $ROOT/tests/mailplayer.py"
ETC=$T/postfix/etc
export MAIL_CONFIG="$ETC"
made_user=
# The guide's user, under a name of the test's own: a host that followed
# the guide (its user ngoma, running) is left alone.
U=ngomacheck
cleanup() {
    [ -s "$T/serve.pid" ] && kill -TERM "$(cat "$T/serve.pid")" 2>/dev/null && sleep 1
    pkill -9 -u "$U" 2>/dev/null
    postfix -c "$ETC" stop >/dev/null 2>&1
    [ -n "$made_user" ] && deluser --system "$U" >/dev/null 2>&1
    [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }

if [ "$(id -u)" != 0 ]; then
    echo "postfix.sh: needs root (a Postfix instance and the guide's ngoma user)"
    exit 1
fi
if id "$U" >/dev/null 2>&1; then
    echo "postfix.sh: a user $U exists already: this test creates (and removes) its own, as the guide does the user ngoma" >&2
    exit 1
fi
chmod 755 "$T"

# ---- a private Postfix: its own configuration, queue and log, a loopback port --------------------
PORT=$(free_port)
mkdir -p "$ETC" "$T/postfix/spool" "$T/postfix/data" "$T/postfix/mail" "$T/mailboxes"
cp /etc/postfix/master.cf "$ETC/master.cf"
# No chroot (the queue is not where a chroot would look); smtpd on the test's port.
awk -v port="$PORT" '/^[a-z0-9]/ && NF >= 8 { $5 = "n"; if ($1 == "smtp" && $2 == "inet") $1 = "127.0.0.1:" port }
    { print }' "$ETC/master.cf" >"$ETC/master.cf.new" && mv "$ETC/master.cf.new" "$ETC/master.cf"
nobody_uid=$(id -u nobody)
nogroup_gid=$(getent group nogroup | cut -d: -f3)
chown "$nobody_uid:$nogroup_gid" "$T/mailboxes"
# Stock Debian offers STARTTLS with a self-signed certificate: so does this one.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -keyout "$ETC/snakeoil.key" \
    -out "$ETC/snakeoil.pem" >/dev/null 2>&1
cat >"$ETC/main.cf" <<CF
compatibility_level = 3.6
queue_directory = $T/postfix/spool
data_directory = $T/postfix/data
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = localhost
mydestination = localhost, games.example.org
mynetworks = 127.0.0.0/8
# The guide's local user ngoma is the test's own user here.
alias_maps = hash:$ETC/aliases
alias_database = hash:$ETC/aliases
mail_spool_directory = $T/postfix/mail
maillog_file = $T/postfix/maillog
maillog_file_prefixes = $T
smtpd_tls_cert_file = $ETC/snakeoil.pem
smtpd_tls_key_file = $ETC/snakeoil.key
smtpd_tls_security_level = may
# The players' mailboxes: Maildirs under $T/mailboxes/example.org/.
virtual_mailbox_domains = example.org
virtual_mailbox_base = $T/mailboxes
virtual_mailbox_maps = hash:$ETC/vmailbox
virtual_uid_maps = static:$nobody_uid
virtual_gid_maps = static:$nogroup_gid
CF
for p in ann bob; do echo "$p@example.org example.org/$p/"; done >"$ETC/vmailbox"
echo "ngoma: $U" >"$ETC/aliases"
postalias "$ETC/aliases"
postmap "$ETC/vmailbox"
chown postfix "$T/postfix/data"
chmod 1777 "$T/postfix/mail"
postfix -c "$ETC" start >"$T/start.log" 2>&1 || { echo "postfix.sh: postfix did not start: $(cat "$T/start.log" "$T/postfix/maillog" 2>/dev/null)"; exit 1; }
wait_port "$PORT" || exit 1

# ---- the guide, every sh block, as written (paths swapped for the test's) ---------------------------
HOME_NGOMA=$T/home/ngoma
PREFIX=$T/usr/local
export NGOMA_CONFIG="$T/etc/ngoma.conf"
mkdir -p "$T/etc" "$T/home"
# The contrib/ files the guide copies are make install's, written for the
# test's paths (its PREFIX, database and Postfix queue). systemd is played
# by tests/activate.py: it makes the socket of ngoma-serve.socket (for the
# postfix user, mode 0600) and starts ngoma-serve.service's ExecStart as
# its User with that socket.
mkdir -p "$T/systemd"
swap() {
    sed -e "s|^sh contrib/install-deps|sh $ROOT/contrib/install-deps|" \
        -e "s|^make install|make --no-print-directory -C $ROOT install PREFIX=$PREFIX DB=$HOME_NGOMA/ngoma.db SPOOL=$T/postfix/spool NGOMA_USER=$U|" \
        -e "s|^adduser \(.*\) ngoma\$|adduser \1 $U|" \
        -e "s|runuser -u ngoma --|runuser -u $U --|g" \
        -e "s|chown ngoma:ngoma|chown $U:$U|g" \
        -e "s|-o ngoma |-o $U |g" \
        -e "s|^make\$|make --no-print-directory -C $ROOT|" \
        -e "s|/usr/local/|$PREFIX/|g" \
        -e "s|/etc/systemd/system/|$T/systemd/|g" \
        -e "s|^systemctl daemon-reload\$|:|" \
        -e "s|^systemctl enable --now ngoma-serve.socket\$|/usr/bin/python3 $ROOT/tests/activate.py $T/systemd/ngoma-serve.socket $T/systemd/ngoma-serve.service $T/serve.log >$T/serve.pid|" \
        -e "s|/var/lib/ngoma|$HOME_NGOMA|g" \
        -e "s|/etc/ngoma.conf|$NGOMA_CONFIG|g" \
        -e "s|/etc/postfix|$ETC|g" \
        -e "s|/var/spool/postfix|$T/postfix/spool|g" \
        -e "s|-- ngoma |-- $PREFIX/bin/ngoma |g" \
        -e "s|smtp://localhost:25|smtp://127.0.0.1:$PORT|g"
}
awk '/^```sh$/ { on = 1; n++; next } /^```$/ && on { on = 0; print "# ---- end of block " n; next } on' \
    "$ROOT/docs/hosting.md" | swap >"$T/guide.sh"
blocks=$(grep -c '^# ---- end of block' "$T/guide.sh")
checks=$((checks + 1))
[ "$blocks" -ge 8 ] || fail "docs/hosting.md has only $blocks sh blocks"
# adduser is run as the guide says; the test removes the user it made.
made_user=yes
(cd "$T" && set -e && . "$T/guide.sh") >"$T/guide.log" 2>&1 || {
    fail "the guide's commands failed: $(tail -15 "$T/guide.log")"
    exit 1
}
echo "postfix.sh: ran the $blocks sh blocks of docs/hosting.md ($(grep -vc '^#' "$T/guide.sh") commands)"
NGOMA=$PREFIX/bin/ngoma
ng() { runuser -u "$U" -- "$NGOMA" "$@"; }
ok test "$(stat -c %U "$HOME_NGOMA/ngoma.db")" = "$U"
ok test "$(ng config send_method)" = smtp
ok grep -q "^ngoma .*pipe" "$ETC/master.cf"
ok test "$(postconf -h ngoma_destination_recipient_limit)" = 1
# Root reads as the database's owner: every file beside it stays the owner's.
"$NGOMA" list >/dev/null 2>"$T/err"
ok test $? = 0
"$NGOMA" status 1 >/dev/null 2>>"$T/err"
checks=$((checks + 1))
[ -z "$(find "$HOME_NGOMA" -maxdepth 1 -name 'ngoma.db*' ! -user "$U")" ] ||
    fail "root's list left files of its own beside the database: $(ls -l "$HOME_NGOMA")"

# ---- a whole game by mail through this Postfix, by LMTP to ngoma serve ------------------------------------
BOXES=$T/mailboxes/example.org
count() { $PLAYER count "$BOXES/$1" "$1@example.org"; }
last_text() { $PLAYER last-text "$BOXES/$1" "$1@example.org"; }
waiting() { ng show "$1" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p'; }
n_submit=0
# submit WHO ORDERS: WHO answers her newest mail (by sendmail and by SMTP
# in turn) and waits for ngoma's answer in her mailbox.
submit() {
    who=$1
    before=$(count "$who")
    n_submit=$((n_submit + 1))
    how=smtp
    [ $((n_submit % 2)) = 0 ] && how=sendmail
    t0=$(date +%s%N)
    $PLAYER submit "$BOXES/$who" "$who@example.org" "$how" "$PORT" "$2" >/dev/null ||
        { fail "$who could not submit by $how"; return; }
    $PLAYER wait "$BOXES/$who" "$who@example.org" "$before" 30 >/dev/null ||
        { fail "no answer to $who's mail by $how: $(tail -3 "$T/postfix/maillog")"; return; }
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000)) >>"$T/latency.game"
}

game=$(ng new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 11)
ng send >/dev/null
$PLAYER wait "$BOXES/ann" ann@example.org 0 30 >/dev/null || fail "no welcome reached Ann: $(tail -5 "$T/postfix/maillog")"
$PLAYER wait "$BOXES/bob" bob@example.org 0 30 >/dev/null || fail "no welcome reached Bob"
ng run >/dev/null
last_text ann | grep -q "Welcome to KuniUmi" || fail "Ann's welcome"
submit ann "PLACE EARTH GOD c3\nPLACE SEA GOD d4\nPLACE LAND b5\nPLACE LAND e2\nPLACE SEA c4\nPLACE SEA d2"
last_text ann | grep -q "Ann places the Sea token on d2" || fail "Ann's setup was not answered"
moves=0
while [ $moves -lt 40 ]; do
    who=$(waiting "$game" | tr 'A-Z' 'a-z')
    [ -n "$who" ] || break
    order=$(ng legal "$game" "$who" | head -n 1)
    submit "$who" "$order"
    last_text "$who" | grep -q "^Accepted" || fail "$who's $order was not accepted by mail"
    moves=$((moves + 1))
done
ok test -z "$(waiting "$game")"
ng show "$game" --json | grep -q '"status":	"finished"' || fail "the game did not finish"
# The last mail may still be on its way: give it the time a run takes.
ng run >/dev/null
sleep 1
for p in ann bob; do
    last_text $p | grep -q "Game over" || fail "$p was not told the game is over"
done
n=$($PLAYER check "$BOXES/ann") || fail "a mail to Ann is malformed: $n"
n=$($PLAYER check "$BOXES/bob") || fail "a mail to Bob is malformed: $n"
ok test "$(ng outbox | grep -c 'queued\|failed')" = 0
ok test "$(sqlite3 -readonly "$HOME_NGOMA/ngoma.db" "SELECT count(*) FROM messages WHERE status <> 'processed'")" = 0
ng replay "$game" >/dev/null || fail "the game played through Postfix does not replay"
grep -q "relay=localhost\[private/ngoma-lmtp\].*status=sent (250 2.0.0" "$T/postfix/maillog" ||
    fail "nothing went through the LMTP transport: $(grep lmtp "$T/postfix/maillog" | tail -3)"

# ---- one mail to two game addresses: two deliveries, each game gets its copy -----------------------
g1=$(ng new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 3)
g2=$(ng new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 4)
ng send >/dev/null
s1=$(sqlite3 -readonly "$HOME_NGOMA/ngoma.db" "SELECT secret FROM seats WHERE game_id = $g1 AND seat = 1")
s2=$(sqlite3 -readonly "$HOME_NGOMA/ngoma.db" "SELECT secret FROM seats WHERE game_id = $g2 AND seat = 1")
printf 'From: ann@example.org\nTo: ngoma+%s-1-%s@games.example.org, ngoma+%s-1-%s@games.example.org\nSubject: both\nMessage-ID: <both@example.org>\n\nPLACE EARTH GOD c3\n' \
    "$g1" "$s1" "$g2" "$s2" >"$T/both.eml"
/usr/sbin/sendmail -i -f ann@example.org -- "ngoma+$g1-1-$s1@games.example.org" "ngoma+$g2-1-$s2@games.example.org" <"$T/both.eml"
i=0
while [ "$(sqlite3 -readonly "$HOME_NGOMA/ngoma.db" "SELECT count(*) FROM messages WHERE message_id = 'both@example.org'")" -lt 2 ] &&
    [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
ok test "$(sqlite3 -readonly "$HOME_NGOMA/ngoma.db" "SELECT turn FROM games WHERE id IN ($g1, $g2) ORDER BY id" | tr '\n' ' ')" = "1 1 "

# ---- a player's mail to the answer in her mailbox: by LMTP to ngoma serve, then by the pipe ------------------
# (each mail answers a welcome just received: one game each; LATENCY_MAILS of each)
LATENCY_MAILS=${LATENCY_MAILS:-10}
latency() {
    : >"$T/latency.$1"
    k=0
    while [ $k -lt "$LATENCY_MAILS" ]; do
        before=$(count ann)
        g=$(ng new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org)
        ng send >/dev/null
        $PLAYER wait "$BOXES/ann" ann@example.org "$before" 30 >/dev/null || { fail "no welcome to Ann in game $g"; return; }
        $PLAYER roundtrip "$BOXES/ann" ann@example.org "$PORT" "$(ng legal "$g" ann | head -n 1)" >>"$T/latency.$1" ||
            { fail "no answer by $1 in game $g: $(tail -3 "$T/postfix/maillog")"; return; }
        k=$((k + 1))
    done
}
stats() { sort -n "$T/latency.$1" | awk '{ v[NR] = $1 } END { printf "median %.0f ms, 95th percentile %.0f ms", v[int((NR + 1) / 2)], v[int(NR * 0.95 + 0.5)] }'; }
latency lmtp
# The pipe, as before ngoma serve: the server stopped, receive's worker reads the mail.
kill -TERM "$(cat "$T/serve.pid")"
i=0
while kill -0 "$(cat "$T/serve.pid")" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
checks=$((checks + 1))
pgrep -u "$U" -f " serve" >/dev/null && fail "ngoma serve (or a child of it) still runs after SIGTERM"
echo "ngoma@games.example.org ngoma:" >"$ETC/transport"
postmap "$ETC/transport" && postfix -c "$ETC" reload >/dev/null 2>&1
sleep 1
latency pipe
grep -q "status=sent (delivered via ngoma service" "$T/postfix/maillog" || fail "nothing went through the pipe transport"
lmtp_med=$(sort -n "$T/latency.lmtp" | awk '{ v[NR] = $1 } END { print int(v[int((NR + 1) / 2)]) }')
echo "postfix.sh: a player's mail to the answer in her mailbox, $LATENCY_MAILS mails each: by LMTP to ngoma serve" \
    "$(stats lmtp); by the pipe $(stats pipe)"
# A ratio in one run, not a time: a loaded machine slows both ways alike
# (make check must pass with both cores busy). make bench prints the
# times against their targets.
pipe_med=$(sort -n "$T/latency.pipe" | awk '{ v[NR] = $1 } END { print int(v[int((NR + 1) / 2)]) }')
checks=$((checks + 1))
[ "${lmtp_med:-999}" -le $(( ${pipe_med:-0} * 3 / 2 + 5 )) ] ||
    fail "by LMTP the median answer took $lmtp_med ms, by the pipe $pipe_med: LMTP should be no slower"

# ---- without systemd: the guide's other way to ngoma serve, as written -----------------------------------
sed -n '/<!-- without-systemd/,/^```$/p' "$ROOT/docs/hosting.md" | sed '1,2d;$d' | swap >"$T/nosystemd.sh"
checks=$((checks + 1))
grep -q "ngoma serve" "$T/nosystemd.sh" || fail "docs/hosting.md has no block for ngoma serve without systemd"
(cd "$T" && set -e && . "$T/nosystemd.sh") >"$T/nosystemd.log" 2>&1 || fail "the guide's block without systemd failed: $(cat "$T/nosystemd.log")"
i=0
while [ ! -S "$T/postfix/spool/ngoma/lmtp" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
ok test "$(stat -c %G "$T/postfix/spool/ngoma/lmtp")" = postfix
before=$(count ann)
g4=$(ng new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 4)
ng send >/dev/null
$PLAYER wait "$BOXES/ann" ann@example.org "$before" 30 >/dev/null || fail "no welcome to game $g4 reached Ann"
submit ann "PLACE EARTH GOD c3"
last_text ann | grep -q "Ann places the Earth God on c3" ||
    fail "ngoma serve started without systemd did not take Ann's mail: $(tail -5 "$T/postfix/maillog")"
pkill -TERM -u "$U" -f " serve" 2>/dev/null
i=0
while pgrep -u "$U" -f " serve" >/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done

# ---- the .forward variant, then procmail's -------------------------------------------------------------
ok test "$(postconf -h ngoma_destination_recipient_limit)" = 1
# (The test unwires the pipe transport: the guide's variants are one or the other.)
postconf -e 'transport_maps =' && postfix -c "$ETC" reload >/dev/null 2>&1
sleep 1
before=$(count ann)
g3=$(ng new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org --seed 5)
ng send >/dev/null
$PLAYER wait "$BOXES/ann" ann@example.org "$before" 30 >/dev/null
submit ann "PLACE EARTH GOD c3"
last_text ann | grep -q "Ann places the Earth God on c3" || fail "the .forward variant did not take Ann's mail"
grep -q "status=sent (delivered to command:" "$T/postfix/maillog" || fail "nothing went through .forward"
rm "$HOME_NGOMA/.forward"
submit ann "PLACE SEA GOD d4"
last_text ann | grep -q "Ann places the Sea God on d4" || fail "the procmail variant did not take Ann's mail"
grep -q "procmail" "$T/postfix/maillog" || grep -q "mailbox_command\|delivered to command: /usr/bin/procmail" "$T/postfix/maillog" ||
    fail "nothing went through procmail"
# And when ngoma cannot take it, procmail files it in the Maildir that fetch reads.
chmod 000 "$HOME_NGOMA/ngoma.db"
before=$(ls "$HOME_NGOMA/Maildir/new" 2>/dev/null | wc -l)
printf 'From: bob@example.org\nTo: ngoma@games.example.org\nSubject: x\nMessage-ID: <later@example.org>\n\nhello\n' |
    /usr/sbin/sendmail -i -f bob@example.org -- ngoma@games.example.org
i=0
while [ "$(ls "$HOME_NGOMA/Maildir/new" 2>/dev/null | wc -l)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
chmod 644 "$HOME_NGOMA/ngoma.db"
ok test "$(ls "$HOME_NGOMA/Maildir/new" | wc -l)" -gt "$before"
ng config maildir "$HOME_NGOMA/Maildir"
ng run | grep -q "fetched 1" || fail "run did not fetch the mail procmail kept"

# ---- sending by Postfix's sendmail, the guide's other way out ---------------------------------------------
# This instance's sendmail (-C): Postfix lets only root point sendmail at a
# configuration other than the system's, so root plays this part, with a
# database of its own.
printf '#!/bin/sh\nexec /usr/sbin/sendmail -C %s "$@"\n' "$ETC" >"$T/sendmail"
chmod 755 "$T/sendmail"
R="$NGOMA --db $T/root.db"
$R init >/dev/null
$R config from ngoma@games.example.org >/dev/null
$R config send_method sendmail >/dev/null
$R config sendmail "$T/sendmail" >/dev/null
before=$(count bob)
$R new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org >/dev/null
$R send | grep -q "sent 2" || fail "sendmail did not take the welcome mails"
$PLAYER wait "$BOXES/bob" bob@example.org "$before" 30 >/dev/null || fail "no mail by sendmail reached Bob"

echo "postfix.sh: $n_submit mails by sendmail and SMTP through Postfix; KuniUmi in $moves moves"
echo "postfix.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
