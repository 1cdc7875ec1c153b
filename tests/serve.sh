#!/bin/sh
# serve.sh: ngoma serve as an MTA meets it (tests/serve.py), with answers sent to a real SMTP server (aiosmtpd) on loopback; the whole within 5 minutes.
# usage: serve.sh NGOMA
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-serve.XXXXXX)
. "$ROOT/tests/servers.sh"
SMTP_PORT=$(free_port)
/usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" -c aiosmtpd.handlers.Mailbox "$T/smtp" >"$T/smtp.log" 2>&1 &
smtp=$!
trap 'kill $smtp 2>/dev/null; pkill -9 -f "ngoma serve --listen 127.0.0.1:[0-9]* --listen unix:$T/" 2>/dev/null; rm -rf "$T"' EXIT
wait_port "$SMTP_PORT" || exit 1
timeout 300 /usr/bin/python3 "$ROOT/tests/serve.py" "$NGOMA" "$T" "$SMTP_PORT" "$T/smtp"
rc=$?
[ $rc = 124 ] && echo "FAIL: serve.py did not end within 300 s" && tail -20 "$T/serve.log"
[ $rc = 0 ] || tail -30 "$T/serve.log"
exit $rc
