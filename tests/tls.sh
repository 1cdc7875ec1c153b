#!/bin/sh
# tls.sh: every TLS mode of smtp_tls and imap_tls against real TLS servers (aiosmtpd, Dovecot) with a good, a self-signed and an expired certificate; every failure names the setting that fixes it.
# usage: tls.sh NGOMA
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-tls.XXXXXX)
. "$ROOT/tests/servers.sh"
pids=""
dovecots=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    for d in $dovecots; do [ -f "$d/master.pid" ] && kill "$(cat "$d/master.pid")" 2>/dev/null; done
    sleep 0.2
    [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
export NGOMA_DB="$T/ngoma.db"
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
matrix() { printf '%-5s %-9s %-12s %-10s %s\n' "$@" >>"$T/matrix"; }

# ---- certificates: a CA and what it signed, a self-signed one, an expired one ---------------------
C="$T/certs"
mkdir -p "$C"
(
    cd "$C" || exit 1
    cat >ca.cnf <<'CNF'
[ ca ]
default_ca = test
[ test ]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[ any ]
commonName = supplied
CNF
    : >index.txt
    echo 01 >serial
    san="-addext subjectAltName=DNS:localhost,IP:127.0.0.1"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=ngoma-test-ca -keyout ca.key -out ca.pem
    # shellcheck disable=SC2086
    openssl req -newkey rsa:2048 -nodes -subj /CN=localhost $san -keyout good.key -out good.csr
    openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in good.csr -out good.pem -days 2
    # shellcheck disable=SC2086
    openssl req -newkey rsa:2048 -nodes -subj /CN=localhost $san -keyout expired.key -out expired.csr
    openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in expired.csr -out expired.pem \
        -startdate 20200101000000Z -enddate 20200201000000Z
    # shellcheck disable=SC2086
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost $san -keyout self.key -out self.pem
) >"$T/openssl.log" 2>&1 || { echo "tls.sh: openssl failed: $(tail -5 "$T/openssl.log")"; exit 1; }
chmod 644 "$C"/*.key

# ---- servers ----------------------------------------------------------------------------------------
smtp() { # NAME ARGS...: an aiosmtpd on a free port, its port in $PORT
    name=$1
    shift
    PORT=$(free_port)
    /usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$PORT" -c aiosmtpd.handlers.Mailbox "$T/smtp-$name" "$@" \
        >"$T/smtp-$name.log" 2>&1 &
    pids="$pids $!"
    wait_port "$PORT"
}
smtp plain
P_PLAIN=$PORT
for cert in good self expired; do
    smtp "starttls-$cert" --tlscert "$C/$cert.pem" --tlskey "$C/$cert.key" --no-requiretls
    eval "P_STARTTLS_$cert=$PORT"
    smtp "smtps-$cert" --smtpscert "$C/$cert.pem" --smtpskey "$C/$cert.key"
    eval "P_SMTPS_$cert=$PORT"
done

IMAP_USER=ngoma
IMAP_PASS=imap-test-secret
chmod 755 "$T"
d=$T
while [ "$d" != / ]; do chmod o+x "$d" 2>/dev/null; d=$(dirname "$d"); done
dovecot_ssl() { # CERT: a Dovecot with STARTTLS on one port and implicit TLS on another
    cert=$1
    base=$T/dove-$cert
    mkdir -p "$base/run/state" "$base/mail"
    chown dovecot:dovecot "$base/mail"
    p143=$(free_port)
    p993=$(free_port)
    cat >"$base/dovecot.conf" <<CONF
base_dir = $base/run
state_dir = $base/run/state
log_path = $base/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = yes
ssl_cert = <$C/$cert.pem
ssl_key = <$C/$cert.key
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = 1
mail_location = maildir:$base/mail/%u
passdb {
  driver = static
  args = password=$IMAP_PASS
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=$base/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $p143
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $p993
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
CONF
    dovecot -c "$base/dovecot.conf" || { echo "tls.sh: dovecot ($cert) did not start: $(cat "$base/dovecot.log")"; exit 1; }
    dovecots="$dovecots $base/run"
    wait_port "$p143" && wait_port "$p993"
    eval "I143_$cert=$p143 I993_$cert=$p993"
}
for cert in good self expired; do dovecot_ssl "$cert"; done

# ---- ngoma ------------------------------------------------------------------------------------------
# new_db: a database in $NGOMA_DB with a game, and the first mail it
# queued in $mail_id, sent again by each case.
new_db() {
    "$NGOMA" init >/dev/null
    "$NGOMA" config send_method smtp >/dev/null
    "$NGOMA" config send_on_receive no >/dev/null
    "$NGOMA" new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org >/dev/null
    mail_id=$(sqlite3 "$NGOMA_DB" "SELECT min(id) FROM outbox")
}
new_db
cfg() { "$NGOMA" config "$@" >/dev/null || fail "config $*"; }

# smtp_case LABEL PORT MODE CA VERIFY OUTCOME [TEXT...]: one mail sent now to 127.0.0.1:PORT;
# OUTCOME sent, or failed with every TEXT in the error (the setting that fixes it).
smtp_case() {
    label=$1 port=$2 mode=$3 ca=$4 verify=$5 want=$6
    shift 6
    checks=$((checks + 1))
    cfg smtp_url "smtp://127.0.0.1:$port"
    cfg smtp_tls "$mode"
    if [ "$ca" = - ]; then cfg tls_ca_file ""; else cfg tls_ca_file "$C/$ca.pem"; fi
    cfg tls_verify "$verify"
    # The same mail each time, as if never sent.
    sqlite3 "$NGOMA_DB" "UPDATE outbox SET status = 'queued', attempts = 0 WHERE id = $mail_id"
    "$NGOMA" outbox --retry "$mail_id" >"$T/out" 2>"$T/err"
    if [ "$want" = sent ]; then
        grep -q "sent [1-9]" "$T/out" || fail "smtp $label ($mode): not sent: $(cat "$T/out" "$T/err")"
        matrix smtp "$mode" "$label" sent ""
        return
    fi
    grep -q "deferred 1" "$T/out" || fail "smtp $label ($mode): sent, but should fail: $(cat "$T/out")"
    for text; do
        grep -q -- "$text" "$T/err" || fail "smtp $label ($mode): the error lacks \"$text\": $(cat "$T/err")"
    done
    matrix smtp "$mode" "$label" refused "$(sed 's/^ngoma: outbox mail [0-9]*: //' "$T/err" | head -c 160)"
}

# An SMTPS port with STARTTLS: each side waits for the other to speak
# first, until ngoma's 20 seconds to connect are up. That case runs on a
# database of its own beside the others, its matrix row and any failure
# taken in at the end.
(
    export NGOMA_DB="$T/slow.db"
    exec >"$T/slow.out" 2>&1
    new_db
    T=$T/slow && mkdir -p "$T" && : >"$T/matrix"
    smtp_case "SMTPS port" "$P_SMTPS_good" required ca yes failed "smtp_tls implicit"
    cat "$T/matrix"
) &
slow=$!

smtp_case "plain server" "$P_PLAIN" none - yes sent
smtp_case "plain server" "$P_PLAIN" starttls - yes sent
smtp_case "plain server" "$P_PLAIN" required - yes failed "offers no STARTTLS" "smtp_tls starttls"
smtp_case "good cert" "$P_STARTTLS_good" starttls ca yes sent
smtp_case "good cert" "$P_STARTTLS_good" required ca yes sent
smtp_case "good cert, CA unknown" "$P_STARTTLS_good" required - yes failed "not trusted" "tls_ca_file" "tls_verify no"
smtp_case "self-signed" "$P_STARTTLS_self" required - yes failed "not trusted" "tls_ca_file"
smtp_case "self-signed, its cert" "$P_STARTTLS_self" required self yes sent
smtp_case "self-signed" "$P_STARTTLS_self" required - no sent
smtp_case "expired" "$P_STARTTLS_expired" required ca yes failed "expired" "tls_verify no"
smtp_case "good cert" "$P_SMTPS_good" implicit ca yes sent
smtp_case "self-signed" "$P_SMTPS_self" implicit - yes failed "not trusted" "tls_ca_file"
smtp_case "expired" "$P_SMTPS_expired" implicit ca yes failed "expired"
smtp_case "STARTTLS port" "$P_STARTTLS_good" implicit ca yes failed "smtp_tls starttls or required"
cfg smtp_url "smtps://127.0.0.1:$P_SMTPS_good"
cfg smtp_tls starttls
cfg tls_ca_file "$C/ca.pem"
checks=$((checks + 1))
sqlite3 "$NGOMA_DB" "UPDATE outbox SET status = 'queued', attempts = 0 WHERE id = $mail_id"
"$NGOMA" outbox --retry "$mail_id" >"$T/out" 2>&1
grep -q "sent 1" "$T/out" || fail "an smtps:// URL is implicit TLS whatever smtp_tls says: $(cat "$T/out")"
matrix smtp "(smtps://)" "good cert" sent ""

# imap_case LABEL CERT PORT MODE CA VERIFY OUTCOME [TEXT...]: ngoma fetch from 127.0.0.1:PORT.
imap_case() {
    label=$1 cert=$2 port=$3 mode=$4 ca=$5 verify=$6 want=$7
    shift 7
    checks=$((checks + 1))
    eval "plain=\$I143_$cert"
    /usr/bin/python3 - "$plain" "$IMAP_USER" "$IMAP_PASS" "$checks" <<'PY' || fail "imap $label: cannot append a mail"
import imaplib, sys
imap = imaplib.IMAP4("127.0.0.1", int(sys.argv[1])); imap.login(sys.argv[2], sys.argv[3])
imap.append("INBOX", None, None, ("From: x@example.org\r\nTo: ngoma@localhost\r\nMessage-ID: <tls%s@example.org>\r\n\r\nhi\r\n" % sys.argv[4]).encode())
imap.logout()
PY
    cfg imap_url "imap://127.0.0.1:$port/INBOX"
    cfg imap_user "$IMAP_USER"
    cfg imap_password "$IMAP_PASS"
    cfg imap_tls "$mode"
    if [ "$ca" = - ]; then cfg tls_ca_file ""; else cfg tls_ca_file "$C/$ca.pem"; fi
    cfg tls_verify "$verify"
    "$NGOMA" fetch >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$want" = fetched ]; then
        [ $rc = 0 ] && grep -q "fetched [1-9]" "$T/out" || fail "imap $label ($mode): nothing fetched: $(cat "$T/out" "$T/err")"
        matrix imap "$mode" "$label" fetched ""
        return
    fi
    [ $rc != 0 ] || fail "imap $label ($mode): fetched, but should fail"
    for text; do
        grep -q -- "$text" "$T/err" || fail "imap $label ($mode): the error lacks \"$text\": $(cat "$T/err")"
    done
    matrix imap "$mode" "$label" refused "$(sed 's/^ngoma: //' "$T/err" | head -c 160)"
}

imap_case "good cert, plain" good "$I143_good" none - yes fetched
imap_case "good cert" good "$I143_good" starttls ca yes fetched
imap_case "good cert" good "$I143_good" required ca yes fetched
imap_case "good cert, CA unknown" good "$I143_good" required - yes failed "not trusted" "tls_ca_file"
imap_case "self-signed" self "$I143_self" required - yes failed "not trusted" "tls_ca_file" "tls_verify no"
imap_case "self-signed" self "$I143_self" required - no fetched
imap_case "expired" expired "$I143_expired" required ca yes failed "expired"
imap_case "good cert" good "$I993_good" implicit ca yes fetched
imap_case "self-signed, its cert" self "$I993_self" implicit self yes fetched
imap_case "expired" expired "$I993_expired" implicit ca yes failed "expired"
imap_case "STARTTLS port" good "$I143_good" implicit ca yes failed "imap_tls starttls or required"

expect_bad() {
    checks=$((checks + 1))
    "$NGOMA" config "$@" >/dev/null 2>"$T/err" && fail "config $* was taken"
}
expect_bad smtp_tls sometimes
expect_bad tls_verify maybe
expect_bad tls_ca_file /nonexistent.pem

wait "$slow"
checks=$((checks + 1))
if grep -q "^FAIL" "$T/slow.out"; then
    cat "$T/slow.out"
    fails=$((fails + 1))
else
    cat "$T/slow.out" >>"$T/matrix"
fi
echo "tls.sh: the matrix (proto, mode, server, outcome, what ngoma said):"
sed 's/^/  /' "$T/matrix"
echo "tls.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
