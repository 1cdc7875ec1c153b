#!/bin/sh
# single.sh: one `ngoma receive` of a Gmail-shaped order mail, whole process as the MTA runs it (and with --wait: read, answered, sent), against one sqlite3 process inserting a row durably.
# usage: single.sh NGOMA DIR [MAILS]
set -eu
NGOMA=$1 DIR=$2 N=${3:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export NGOMA_DB="$DIR/single.db"
rm -rf "$DIR/single"* "$DIR/base.db"*
mkdir -p "$DIR/single"
"$NGOMA" init >/dev/null
"$NGOMA" config outbox_dir "$DIR/single-out"
i=0
while [ $i -lt "$N" ]; do
    "$NGOMA" new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org >/dev/null
    i=$((i + 1))
done
"$NGOMA" send >/dev/null
# Each game's first order, in the Gmail fixture of the tests, answering Ann's welcome mail.
sqlite3 "$NGOMA_DB" "SELECT game_id, secret FROM seats WHERE seat = 1" | while IFS='|' read -r g s; do
    sed -e "s/@GAME@/$g/g; s/@SECRET1@/$s/g; s/gmail-fixture-1/bench-single-$g/" "$ROOT/tests/mail/gmail.eml" \
        >"$DIR/single/$g.eml"
done
# The floor: the same durability from SQLite alone (WAL, synchronous=FULL, one process a row).
sqlite3 "$DIR/base.db" "PRAGMA journal_mode=WAL; CREATE TABLE mail(id INTEGER PRIMARY KEY, raw TEXT);" >/dev/null
# One mail at a time, each timing followed by the floor's, so that both
# see the same machine: the first half of the mails by receive as the MTA
# runs it (kept; a worker left to read it and send the answer, whose work
# `ngoma send` then waits for, untimed, so that none runs beside the next
# timing), the second half by receive --wait (read, taken, answered with
# the picture drawn, and sent, all in the process). Then what a process
# costs before any work.
/usr/bin/python3 - "$NGOMA" "$DIR" "$N" <<'PY'
import os, subprocess, sys, time
ngoma, d, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = os.path.join(d, "base.db")
def timed(args, stdin=None):
    t = time.perf_counter()
    r = subprocess.run(args, stdin=stdin, stdout=subprocess.DEVNULL)
    t = time.perf_counter() - t
    if r.returncode:
        sys.exit("single.sh: %s exited %d" % (args, r.returncode))
    return t
kept, waited, floor = [], [], []
for g in range(1, n + 1):
    mail = os.path.join(d, "single", "%d.eml" % g)
    if g <= n // 2:
        kept.append(timed([ngoma, "receive", mail]))
        subprocess.run([ngoma, "send"], stdout=subprocess.DEVNULL, check=True)
    else:
        waited.append(timed([ngoma, "receive", "--wait", mail]))
    floor.append(timed(["sqlite3", base, "PRAGMA synchronous=FULL; INSERT INTO mail(raw) VALUES ('mail %d');" % g]))
start = [timed([ngoma, "--help"]) for _ in range(n)]
start_floor = [timed(["sqlite3", "-version"]) for _ in range(n)]
def ms(v): return sum(v) / len(v) * 1000
def med(v): return sorted(v)[len(v) // 2] * 1000
f = ms(floor)
print("%-46s %11s %12s %7s %7s" % ("one mail, whole process", "ngoma (ms)", "sqlite3 (ms)", "ratio", "target"))
print("%-46s %11.2f %12.2f %7.2f %7s" % ("receive of an order mail / one durable row", ms(kept), f, ms(kept) / f, "<= 2.0"))
print("%-46s %11.2f %12.2f %7.2f %7s" % ("  the same, medians", med(kept), med(floor), med(kept) / med(floor), "-"))
print("%-46s %11.2f %12.2f %7.2f %7s" % ("receive --wait (read, answered, sent) / row", ms(waited), f, ms(waited) / f, "-"))
print("%-46s %11.2f %12.2f %7.2f %7s" % ("start and exit (--help / -version)", ms(start), ms(start_floor),
                                         ms(start) / ms(start_floor), "-"))
with open(os.path.join(d, "single.ratio"), "w") as out:
    out.write("%.3f\n" % (ms(kept) / f))
PY
"$NGOMA" send >/dev/null
processed=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM messages WHERE status = 'processed'")
accepted=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM orders WHERE status = 'accepted'")
replies=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE kind = 'reply' AND status = 'sent'")
pictures=$(grep -l '^Content-Type: image/png' "$DIR/single-out/"*.eml 2>/dev/null | wc -l)
[ "$processed" = "$N" ] && [ "$replies" = "$N" ] || { echo "single.sh: $processed of $N mails processed, $replies replies sent" >&2; exit 1; }
echo "($N mails, each a new process; $accepted orders taken, $replies answers sent, $pictures mails with a picture;" \
    "every commit with fsync)"
ratio=$(cat "$DIR/single.ratio")
awk -v r="$ratio" 'BEGIN { exit !(r <= 2.0) }' || { echo "single.sh: receive took $ratio times the floor (at most 2.0)" >&2; exit 1; }
