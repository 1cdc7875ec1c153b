#!/bin/sh
# batch.sh: `ngoma fetch` of a Maildir of order mails over games of all five kinds: mails per second and peak memory, against SQLite storing the same mails; then `ngoma send` of what they caused, images off and on.
# usage: batch.sh NGOMA BENCH_NGOMA DIR [GAMES [ORDERS_PER_GAME]]
set -eu
NGOMA=$1 BENCH=$2 DIR=$3 GAMES=${4:-1000} PER=${5:-10}
# peak KB PROGRAM ARGS...: runs it, prints "seconds peak_rss_kb".
peak() {
    python3 -c 'import resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
t = time.monotonic() - t
if r.returncode: sys.exit("batch.sh: %s failed" % sys.argv[1:])
print("%.3f %d" % (t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))' "$@"
}
run() { # GAMES PER IMAGES: prints "mails seconds peak_kb"
    g=$1 p=$2
    rm -rf "$DIR/batch" && mkdir -p "$DIR/batch/Maildir/new" "$DIR/batch/Maildir/cur" "$DIR/batch/Maildir/tmp"
    export NGOMA_DB="$DIR/batch/ngoma.db"
    "$NGOMA" init >/dev/null
    "$NGOMA" config maildir "$DIR/batch/Maildir"
    "$NGOMA" config send_on_receive no
    "$NGOMA" config images "$3"
    n=$("$BENCH" genmail "$NGOMA_DB" "$DIR/batch/Maildir" "$g" "$p")
    set -- $(peak "$NGOMA" fetch)
    processed=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM messages WHERE status = 'processed'")
    taken=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM orders WHERE source = 'mail' AND status IN ('accepted', 'pending')")
    [ "$processed" = "$n" ] && [ "$taken" = "$n" ] ||
        { echo "batch.sh: $processed of $n mails processed, $taken orders taken" >&2; exit 1; }
    echo "$n $1 $2"
}
# send: after a run, every mail it queued delivered as .eml files, each
# with the board's picture when the run had images on; prints "mails
# seconds bytes".
send() {
    export NGOMA_DB="$DIR/batch/ngoma.db"
    "$NGOMA" config outbox_dir "$DIR/batch/outbox"
    set -- $(peak "$NGOMA" send)
    m=$(find "$DIR/batch/outbox" -name '*.eml' | wc -l)
    b=$(cat "$DIR/batch/outbox/"*.eml | wc -c)
    echo "$m $1 $b"
}
set -- $(run $((GAMES / 5)) "$PER" yes)
small_n=$1 small_s=$2 small_kb=$3
set -- $(run "$GAMES" "$PER" no)
off_f=$2
set -- $(send)
off_n=$1 off_s=$2 off_b=$3
set -- $(run "$GAMES" "$PER" yes)
n=$1 secs=$2 kb=$3
set -- $(send)
on_n=$1 on_s=$2 on_b=$3
[ "$on_n" = "$off_n" ] && [ "$on_n" -gt 0 ] || { echo "batch.sh: $off_n mails sent without images, $on_n with" >&2; exit 1; }
pics=$(grep -l '^Content-Type: image/png' "$DIR/batch/outbox/"*.eml | wc -l)
[ "$pics" -gt 0 ] || { echo "batch.sh: no mail carries a picture with images on" >&2; exit 1; }
# The floor: SQLite alone storing the same mails, durably, 64 a transaction.
rm -f "$DIR/batch/base.db"*
{
    echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    echo "CREATE TABLE mail(id INTEGER PRIMARY KEY, name TEXT UNIQUE, raw BLOB);"
    k=0
    for f in "$DIR/batch/Maildir/cur/"*; do
        [ $((k % 64)) = 0 ] && echo "BEGIN;"
        echo "INSERT INTO mail(name, raw) VALUES ('$(basename "$f")', readfile('$f'));"
        k=$((k + 1))
        [ $((k % 64)) = 0 ] && echo "COMMIT;"
    done
    [ $((k % 64)) = 0 ] || echo "COMMIT;"
} >"$DIR/batch/base.sql"
set -- $(peak sqlite3 "$DIR/batch/base.db" ".read $DIR/batch/base.sql")
base_s=$1
awk -v n="$n" -v s="$secs" -v kb="$kb" -v sn="$small_n" -v ss="$small_s" -v skb="$small_kb" -v bs="$base_s" -v g="$GAMES" \
    -v on="$on_n" -v offf="$off_f" -v offs="$off_s" -v ons="$on_s" -v offb="$off_b" -v onb="$on_b" -v pics="$pics" 'BEGIN {
    printf "%-44s %12s %12s %7s\n", "batch fetch of a Maildir", "ngoma", "sqlite3", "ratio"
    printf "%-44s %12.0f %12.0f %7.2f\n", sprintf("mails per second (%d mails, %d games)", n, g), n / s, n / bs, (n / bs) / (n / s)
    printf "%-44s %12.0f %12s %7s\n", sprintf("peak memory, KB (%d mails)", n), kb, "-", "-"
    printf "%-44s %12.0f %12s %7.2f\n", sprintf("peak memory, KB (%d mails)", sn), skb, "-", kb / skb
    printf "%-44s %12s %12s %7s\n", "fetch and send, images off and on", "off", "on", "ratio"
    printf "%-44s %12.0f %12.0f %7.2f\n", sprintf("mails per second (%d orders, %d mails sent)", n, on), \
        n / (offf + offs), n / (s + ons), (s + ons) / (offf + offs)
    printf "%-44s %12.0f %12.0f %7.2f\n", "mails fetched per second, fetch alone", n / offf, n / s, s / offf
    printf "%-44s %12.0f %12.0f %7.2f\n", "mails sent per second, send alone", on / offs, on / ons, ons / offs
    printf "%-44s %12.1f %12.1f %7.2f\n", sprintf("KB a mail sent (%d of them with a picture)", pics), \
        offb / on / 1024, onb / on / 1024, onb / offb
    printf "(the sqlite3 floor stores the same raw mails 64 a transaction, WAL, synchronous=FULL; ngoma\n"
    printf " parses each, takes its order, resolves steps and queues every mail they cause, 64 mails a\n"
    printf " transaction with a savepoint each; memory ratio: %d mails against %d, target 1.0; send:\n", n, sn
    printf " the dir method, each mail composed and written as an .eml file, a picture drawn for each\n"
    printf " mail with a board when images are on)\n"
}'
