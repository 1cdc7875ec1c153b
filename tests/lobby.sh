#!/bin/sh
# lobby.sh: the lobby by mail through a real IMAP server (Dovecot) and a real SMTP server (aiosmtpd): a game opened, joined by three addresses, watched, played to the end, verified by anyone, rematched.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-lobby.XXXXXX)
PLAYER="/usr/bin/python3 $ROOT/tests/mailplayer.py"
. "$ROOT/tests/servers.sh"
cleanup() { servers_stop; rm -rf "$T"; }
trap cleanup EXIT
export NGOMA_DB="$T/ngoma.db"
fails=0
checks=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }

servers_start "$T/servers" || { echo "lobby.sh: cannot start the mail servers"; exit 1; }
servers_ngoma "$NGOMA" lobby open || fail "ngoma cannot be set up for the servers"

cycle() {
    "$NGOMA" fetch >"$T/fetch.out" 2>"$T/fetch.err" || fail "fetch: $(cat "$T/fetch.err")"
    "$NGOMA" send >"$T/send.out" 2>"$T/send.err" || fail "send: $(cat "$T/send.err")"
}
write() { $PLAYER write "$1" ngoma@localhost "$2" "$IMAP_PORT" "$IMAP_USER" "$IMAP_PASS" "$3" >/dev/null || fail "write by $1"; }
reply() { $PLAYER reply "$SMTP_MAILDIR" "$1" "$IMAP_PORT" "$IMAP_USER" "$IMAP_PASS" "$2" >/dev/null || fail "reply by $1"; }
reply_to() { $PLAYER reply-to "$SMTP_MAILDIR" "$1" "$2" "$IMAP_PORT" "$IMAP_USER" "$IMAP_PASS" "$3" >/dev/null ||
    fail "reply by $1 to $2"; }
count() { $PLAYER count "$SMTP_MAILDIR" "$1"; }
last() { $PLAYER last-text "$SMTP_MAILDIR" "$1" headers ${3:+"$3"}; }
# has ADDRESS TEXT [SUBJECT]: the newest mail to ADDRESS (with that subject) holds TEXT.
has() {
    checks=$((checks + 1))
    last "$1" "" "${3:-}" | tr -s ' \n' '  ' | grep -qF -- "$2" || fail "$1's last mail lacks \"$2\": $(last "$1" "" "${3:-}")"
}

# A stranger's first question: the commands, and the way to confirm.
write ann@example.org "How do I join?" "HELP"
cycle
has ann@example.org "Subject: [ngoma] Lobby: confirm"
has ann@example.org "JOIN 12 [AS YourName] [SALT any words]"
# Ann opens a game by replying (her reply confirms her address).
reply ann@example.org "NEW kalimambo SEATS 3 AS Ann SALT blue moon"
cycle
has ann@example.org "Game 1 (Kalimambo, 3 seats) is open, and you sit in seat 1 as Ann"
commitment=$(last ann@example.org | sed -n '/published before the deal/{n;p;q}' | tr -d ' ')
ok test ${#commitment} = 64
# Bob finds it and joins; Walt watches; Ann invites Cleo, who joins.
write bob@example.org "games?" "LIST"
cycle
has bob@example.org "Game 1: Kalimambo, 1 of 3 seats taken (Ann)"
reply bob@example.org "JOIN 1 AS Bob SALT 42 elephants"
write walt@example.org "watching" "WATCH 1"
cycle
has bob@example.org "in seat 2 of 3"
has walt@example.org "waits until you confirm your address"
reply walt@example.org "yes, it is me"
write ann@example.org "invite" "INVITE 1 cleo@example.org"
cycle
has walt@example.org "You watch game 1"
has cleo@example.org "Ann (ann@example.org) invites you to Kalimambo game 1"
ok test "$(count cleo@example.org)" = 1
reply cleo@example.org "JOIN 1 AS Cleo"
cycle
has cleo@example.org "the last one. Game 1 starts with 3 players"
has cleo@example.org "Welcome to Kalimambo game 1, Cleo" "[ngoma 1] Kalimambo"
for p in ann bob cleo; do
    $PLAYER last-text "$SMTP_MAILDIR" $p@example.org no "[ngoma 1] Kalimambo" | grep -q "$commitment" ||
        fail "$p's welcome lacks the commitment"
done
checks=$((checks + 1))
"$NGOMA" show 1 | grep -q "Salts mixed into the deal: Ann \"blue moon\", Bob \"42 elephants\"" ||
    fail "show lacks the salts"

# play_out GAME PLAYERS...: each answers the game's newest mail with a
# legal card, round after round, until it is over (13 rounds at most);
# $status says how it stands, $rounds how many rounds it took.
play_out() {
    g=$1
    shift
    rounds=0
    while [ $rounds -lt 13 ]; do
        status=$("$NGOMA" show "$g" --json | tr -d '\n\t ' | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
        [ "$status" = finished ] && break
        for p in "$@"; do
            card=$("$NGOMA" legal "$g" "$p" | head -1)
            [ -n "$card" ] && reply_to "$(echo "$p" | tr 'A-Z' 'a-z')@example.org" "[ngoma $g] Kalimambo" "$card"
        done
        cycle
        rounds=$((rounds + 1))
    done
}
# The game by mail: each player answers the game's newest mail with a legal card.
play_out 1 Ann Bob Cleo
game1_rounds=$rounds
ok test "$status" = finished
seed=$(sqlite3 "$NGOMA_DB" "SELECT base_seed FROM games WHERE id = 1")
has bob@example.org "Seed: $seed" "[ngoma 1] Kalimambo"
ok test "$($PLAYER count "$SMTP_MAILDIR" walt@example.org)" -ge 8
has walt@example.org "Kalimambo game 1 is over"
checks=$((checks + 1))
for s in $(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = 1"); do
    if grep -rl "$s" "$SMTP_MAILDIR" | xargs grep -l "^To: walt@example.org" 2>/dev/null | grep -q .; then
        fail "a player's secret reached the watcher"
    fi
done
$PLAYER count "$SMTP_MAILDIR" ann@example.org >/dev/null
# Ann hosts and plays: the result is in her own game-over mail, not twice.
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE kind = 'host-gameover'")" = 0
has ann@example.org "Kalimambo game 1 is over, Ann" "[ngoma 1] Kalimambo"

# Anyone can check the shuffles: from the database, and from the public record alone.
"$NGOMA" verify 1 >"$T/verify.out" || fail "verify 1: $(cat "$T/verify.out")"
checks=$((checks + 1))
grep -q "With one salt a seat (2 given) it deals from" "$T/verify.out" || fail "verify says nothing of the salts: $(cat "$T/verify.out")"
"$NGOMA" export 1 >"$T/record.json" || fail "export 1"
(unset NGOMA_DB; cd "$T" && "$NGOMA" verify --file "$T/record.json" >"$T/verify2.out") ||
    fail "verify --file: $(cat "$T/verify2.out")"
checks=$((checks + 1))
# By hand, as docs/lobby.md shows: its sh block, run as written on game 1.
mkdir -p "$T/hand/bin"
ln -s "$NGOMA" "$T/hand/bin/ngoma"
sed -n '/<!-- verify-by-hand/,/^```$/p' "$ROOT/docs/lobby.md" | sed '1,2d;$d' | sed 's/ngoma export 12/ngoma export 1/' \
    >"$T/hand/verify.sh"
(cd "$T/hand" && PATH="$T/hand/bin:$PATH" sh -e verify.sh >"$T/hand/out" 2>&1) || fail "the walk-through fails: $(cat "$T/hand/out")"
ok test "$(sed -n 1p "$T/hand/out")" = "$commitment"
ok test "$(sed -n 2p "$T/hand/out")" = "$commitment"
ok test "$(sed -n 3p "$T/hand/out")" = "the seed that deals: $(sqlite3 "$NGOMA_DB" "SELECT seed FROM games WHERE id = 1")"
checks=$((checks + 1))
grep -q "All [0-9]* steps replay as recorded" "$T/hand/out" || fail "the walk-through's verify: $(cat "$T/hand/out")"

# A rematch: Bob asks, Ann and Cleo are invited and keep their names.
write bob@example.org "again" "REMATCH 1"
cycle
has bob@example.org "The rematch of game 1 is game 2"
has cleo@example.org "you play as Cleo again"
reply ann@example.org "JOIN 2"
reply cleo@example.org "JOIN 2"
cycle
ok test "$(sqlite3 "$NGOMA_DB" "SELECT group_concat(name, ',') FROM (SELECT name FROM seats WHERE game_id = 2 ORDER BY seat)")" = "Bob,Ann,Cleo"
has cleo@example.org "Welcome to Kalimambo game 2, Cleo" "[ngoma 2] Kalimambo"

# A silent player: three deadlines in a row played for her, and her seat is
# offered in the lobby; Dora, new to the game, takes it over by mail and
# plays it to the end, reading her seat's hand and nobody else's.
write ann@example.org "one more" "NEW kalimambo SEATS 3 DEADLINE 2h NMR bot:easy AS Ann"
cycle
has ann@example.org "Game 3 (Kalimambo, 3 seats) is open"
write bob@example.org "join" "JOIN 3 AS Bob"
write cleo@example.org "join" "JOIN 3 AS Cleo"
cycle
has cleo@example.org "Welcome to Kalimambo game 3, Cleo" "[ngoma 3] Kalimambo"
# deadline_passes N: Ann and Bob play, Cleo does not; `ngoma run` just
# after the deadline plays for her.
deadline_passes() {
    i=0
    while [ $i -lt "$1" ]; do
        for p in Ann Bob; do
            card=$("$NGOMA" legal 3 $p | head -1)
            [ -n "$card" ] && reply_to "$(echo $p | tr 'A-Z' 'a-z')@example.org" "[ngoma 3] Kalimambo" "$card"
        done
        cycle
        due=$(date -u -d "$(sqlite3 "$NGOMA_DB" "SELECT deadline_at FROM games WHERE id = 3")" +%s)
        NGOMA_NOW=$((due + 60)) "$NGOMA" run >"$T/run.out" 2>&1 || fail "run: $(cat "$T/run.out")"
        cycle
        i=$((i + 1))
    done
}
deadline_passes 2
ok test "$(sqlite3 "$NGOMA_DB" "SELECT bot FROM seats WHERE game_id = 3 AND seat = 3")" = 0
deadline_passes 1
ok test "$(sqlite3 "$NGOMA_DB" "SELECT bot FROM seats WHERE game_id = 3 AND seat = 3")" = 1
has cleo@example.org "You have missed 3 deadlines in a row, so the seat is no longer yours" "[ngoma 3] Kalimambo"
has bob@example.org "Cleo missed 3 deadlines in a row and leaves the game" "[ngoma 3] Kalimambo"
write dora@example.org "a seat?" "HELP"
cycle
reply dora@example.org "yes, it is me"
write dora@example.org "a seat?" "LIST"
cycle
has dora@example.org "Game 3, Kalimambo: seat 3, Cleo,"
has dora@example.org "TAKE 3 Cleo takes it."
reply dora@example.org "TAKE 3 Cleo AS Dora"
cycle
has dora@example.org "You take over seat 3 of game 3" "[ngoma] Lobby"
has ann@example.org "Dora takes over seat 3 from Cleo" "[ngoma 3] Kalimambo"
# Her welcome: the game under way, its board once.
has dora@example.org "You take this seat in a game under way" "[ngoma 3] Kalimambo"
checks=$((checks + 1))
n=$($PLAYER last-text "$SMTP_MAILDIR" dora@example.org no "[ngoma 3] Kalimambo" | grep -c "^Waiting for")
[ "$n" = 1 ] || fail "Dora's welcome says who the game waits for $n times"
# Cleo's old address no longer plays the seat.
before=$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM orders WHERE game_id = 3 AND seat = 3 AND source = 'mail'")
reply_to cleo@example.org "[ngoma 3] Kalimambo" "$("$NGOMA" legal 3 Dora | head -1)"
cycle
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM orders WHERE game_id = 3 AND seat = 3 AND source = 'mail'")" = "$before"
play_out 3 Ann Bob Dora
ok test "$status" = finished
has dora@example.org "Game over:" "[ngoma 3] Kalimambo"
ok test "$(sqlite3 "$NGOMA_DB" "SELECT group_concat(address || ':' || coalesce(how, 'end'), ' ') FROM (SELECT * FROM seat_holders WHERE game_id = 3 AND seat = 3 ORDER BY id)")" = "cleo@example.org:dropped bot:taken dora@example.org:end"
# Dora's mails hold no other seat's secret.
checks=$((checks + 1))
for s in $(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = 3 AND seat < 3"); do
    if grep -rl "$s" "$SMTP_MAILDIR" | xargs grep -l "^To: dora@example.org" 2>/dev/null | grep -q .; then
        fail "another seat's secret reached Dora"
    fi
done
"$NGOMA" verify 3 >"$T/verify3.out" || fail "verify 3: $(cat "$T/verify3.out")"

# MYGAMES, and every mail well formed (within 72 columns, lobby mails answered at their From).
write cleo@example.org "mine" "MYGAMES"
cycle
has cleo@example.org "Game 2 (kalimambo, active): you play Cleo, seat 3"
n=$($PLAYER check "$SMTP_MAILDIR") || fail "a delivered mail is malformed: $n"
checks=$((checks + 1))
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM outbox WHERE status <> 'sent'")" = 0

# LOBBY_TRANSCRIPT=1 prints the exchange as the players' mail lists show it.
[ -z "${LOBBY_TRANSCRIPT:-}" ] || $PLAYER transcript "$SMTP_MAILDIR"
echo "lobby.sh: $checks checks, $fails failed ($game1_rounds rounds by mail, $n mails)"
[ "$fails" -eq 0 ]
