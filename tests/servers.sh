#!/bin/sh
# servers.sh: starts and stops the real mail servers of the mail tests (aiosmtpd, Dovecot) on loopback ports.
# Source it, then: servers_start DIR; servers_ngoma NGOMA; ... servers_stop. Sets SMTP_PORT, IMAP_PORT, SMTP_MAILDIR, IMAP_USER, IMAP_PASS.

free_port() {
    /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_port() {
    i=0
    while ! /usr/bin/python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $1), 0.2)" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt 100 ] && { echo "servers.sh: nothing listens on port $1" >&2; return 1; }
        sleep 0.1
    done
}

servers_start() {
    SRV_DIR=$1
    mkdir -p "$SRV_DIR"
    SMTP_PORT=$(free_port)
    SMTP_MAILDIR=$SRV_DIR/smtp-maildir
    /usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" -c aiosmtpd.handlers.Mailbox "$SMTP_MAILDIR" \
        >"$SRV_DIR/smtp.log" 2>&1 &
    SMTP_PID=$!

    IMAP_PORT=$(free_port)
    IMAP_USER=ngoma
    IMAP_PASS=imap-test-secret
    DOVE_BASE=$SRV_DIR/dovecot-run
    DOVE_MAIL=$SRV_DIR/dovecot-mail
    rm -rf "$DOVE_BASE"
    mkdir -p "$DOVE_BASE" "$DOVE_MAIL"
    chown dovecot:dovecot "$DOVE_MAIL"
    chmod 755 "$SRV_DIR"
    # Every folder above the mail must be traversable by the dovecot user.
    d=$SRV_DIR
    while [ "$d" != / ]; do chmod o+x "$d" 2>/dev/null; d=$(dirname "$d"); done
    cat >"$SRV_DIR/dovecot.conf" <<CONF
base_dir = $DOVE_BASE
state_dir = $DOVE_BASE/state
log_path = $SRV_DIR/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = 1
mail_location = maildir:$DOVE_MAIL/%u
passdb {
  driver = static
  args = password=$IMAP_PASS
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=$DOVE_MAIL/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
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
    mkdir -p "$DOVE_BASE/state"
    dovecot -c "$SRV_DIR/dovecot.conf" || { echo "servers.sh: dovecot did not start" >&2; cat "$SRV_DIR/dovecot.log" >&2; return 1; }
    wait_port "$SMTP_PORT" && wait_port "$IMAP_PORT"
}

servers_stop() {
    [ -n "${SMTP_PID:-}" ] && kill "$SMTP_PID" 2>/dev/null
    [ -f "${DOVE_BASE:-/nonexistent}/master.pid" ] && kill "$(cat "$DOVE_BASE/master.pid")" 2>/dev/null
    sleep 0.2
    [ -n "${DOVE_BASE:-}" ] && rm -rf "$DOVE_BASE"
    SMTP_PID=
}

# servers_ngoma NGOMA [KEY VALUE]...: a fresh database ($NGOMA_DB) that
# sends by SMTP to the test server and fetches from its IMAP box, with
# the settings given after it; a line on stderr and 1 if a setting fails.
servers_ngoma() {
    sn_ngoma=$1
    shift
    "$sn_ngoma" init >/dev/null || return 1
    set -- send_method smtp smtp_url "smtp://127.0.0.1:$SMTP_PORT" smtp_tls none \
        imap_url "imap://127.0.0.1:$IMAP_PORT/INBOX" imap_user "$IMAP_USER" imap_password "$IMAP_PASS" \
        imap_tls none from ngoma@localhost "$@"
    while [ $# -ge 2 ]; do
        "$sn_ngoma" config "$1" "$2" >/dev/null || { echo "servers.sh: config $1 $2 failed" >&2; return 1; }
        shift 2
    done
}
