#!/bin/sh
# schedule.sh: deadlines, reminders, missing-order policies, vacations, host commands and `ngoma run`, with the clock set by --now.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=$(mktemp -d /tmp/ngoma-schedule.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
unset NGOMA_NOW
fails=0
tests=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# at TIME CODE ARGS...: runs ngoma at TIME (UTC) and expects exit CODE; stdout in $T/out, stderr in $T/err.
at() {
    when=$1 want=$2
    shift 2
    tests=$((tests + 1))
    "$NGOMA" --now "$when" "$@" >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" = "$want" ] || fail "ngoma --now $when $* exited $got, expected $want: $(cat "$T/err")"
}
has() { grep -q -- "$1" "$T/out" || fail "output lacks \"$1\": $(head -c 800 "$T/out")"; }
lacks() { ! grep -q -- "$1" "$T/out" || fail "output has \"$1\": $(head -c 800 "$T/out")"; }
err_has() { grep -q -- "$1" "$T/err" || fail "stderr lacks \"$1\": $(cat "$T/err")"; }
q() { sqlite3 -readonly "$NGOMA_DB" "$1"; }
is() { tests=$((tests + 1)); [ "$1" = "$2" ] || fail "$3: got \"$1\", expected \"$2\""; }
# mails GAME KIND [RCPT]: how many mails of that kind the game queued (for RCPT).
mails() { q "SELECT count(*) FROM outbox WHERE game_id = $1 AND kind = '$2' ${3:+AND rcpt = '$3'}"; }
turn_of() { q "SELECT turn FROM games WHERE id = $1"; }
deadline_of() { q "SELECT deadline_at FROM games WHERE id = $1"; }
# play WHEN GAME: the player the game waits for gives her first legal order.
play() {
    who=$("$NGOMA" show "$2" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p')
    [ -n "$who" ] || { fail "game $2 waits for nobody"; return; }
    order=$("$NGOMA" --now "$1" legal "$2" "$who" | head -n 1)
    at "$1" 0 order "$2" "$who" "$order"
}

# fresh NAME: each part of the test has a database of its own, a copy of
# one made by init the first time (init itself is cli.sh's).
fresh() {
    if [ ! -e "$T/fresh.db" ]; then
        NGOMA_DB="$T/fresh.db" "$NGOMA" init >/dev/null || fail "init"
        # The bots play at once; the strong one's deadline is tested below.
        NGOMA_DB="$T/fresh.db" "$NGOMA" config bot_level easy >/dev/null
    fi
    sqlite3 "$T/fresh.db" ".backup '$T/$1.db'" || fail "a copy of the new database for $1"
    export NGOMA_DB="$T/$1.db"
}

# ---- bad options are refused with what would be right ---------------------------------------------
fresh options
P="--player Ann=ann@example.org --player Bob=bob@example.org"
# shellcheck disable=SC2086
{
    at 2026-03-01T10:00Z 64 new kuniumi $P --deadline 5x; err_has "like 90m, 48h or 3d"
    at 2026-03-01T10:00Z 64 new kuniumi $P --deadline 48h --nmr maybe; err_has "bot:easy, bot:strong or drop"
    at 2026-03-01T10:00Z 64 new kuniumi $P --grace 2h; err_has "need a --deadline"
    at 2026-03-01T10:00Z 64 new kuniumi $P --deadline 48h --remind soon; err_has "24h,2h"
    at 2026-03-01T10:00Z 64 new kuniumi $P --deadline 48h --host nobody; err_has "host's mail address"
}
at yesterday 64 list; err_has "like 2026-12-01T18:00Z"
is "$(q 'SELECT count(*) FROM games')" 0 "refused games were stored"

# ---- policy wait: reminders once each, the host told once of the stall -----------------------------
fresh wait
at 2026-03-01T10:00Z 0 new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org \
    --deadline 48h --nmr wait --host host@example.org --seed 3
W=$(cat "$T/out")
is "$(deadline_of "$W")" 2026-03-03T10:00:00Z "the deadline is stored in UTC"
is "$(mails "$W" host-welcome host@example.org)" 1 "the host's welcome"
at 2026-03-01T10:00Z 0 list; has "2026-03-03 10:00 UTC"; has "Ann"
at 2026-03-01T11:00Z 0 run; has "0 reminders"
at 2026-03-02T10:30Z 0 run; has "1 reminders"
at 2026-03-02T10:45Z 0 run; has "0 reminders"
is "$(mails "$W" reminder ann@example.org)" 1 "the 24h reminder goes once"
is "$(mails "$W" reminder bob@example.org)" 0 "Bob, who owes nothing, is not reminded"
at 2026-03-03T08:30Z 0 run; has "1 reminders"
at 2026-03-03T09:59Z 0 run; has "0 reminders"
is "$(mails "$W" reminder ann@example.org)" 2 "the 2h reminder goes once"
at 2026-03-03T10:30Z 0 run; has "1 hosts told"
at 2026-03-03T12:00Z 0 run; has "0 hosts told"
at 2026-03-05T12:00Z 0 run; has "0 hosts told"
is "$(mails "$W" stalled host@example.org)" 1 "the host is told once of the stall"
is "$(mails "$W" reminder ann@example.org)" 3 "one overdue notice after the deadline"
is "$(q "SELECT count(*) FROM outbox WHERE game_id = $W AND mail LIKE '%your order is overdue%'")" 1 "the overdue notice"
is "$(turn_of "$W")" 0 "policy wait never plays for Ann"
at 2026-03-05T12:00Z 0 list; has "(passed)"; has "Ann"
at 2026-03-05T12:00Z 0 status "$W"; has "Waiting for Ann"; has "missing orders: wait"
play 2026-03-05T13:00Z "$W"
is "$(turn_of "$W")" 1 "a late order is still taken"
is "$(deadline_of "$W")" 2026-03-07T13:00:00Z "the next step's deadline counts from its start"

# ---- policy bot: the bot plays the missing order, and says so --------------------------------------
fresh bot
at 2026-03-01T10:00Z 0 new kuniumi --player Cat=cat@example.org --player Dan=dan@example.org \
    --deadline 1d --remind none --nmr bot --seed 5
B=$(cat "$T/out")
at 2026-03-02T09:59Z 0 run; has "0 orders played by bots"
is "$(mails "$B" reminder)" 0 "--remind none sends no reminder"
at 2026-03-02T10:01Z 0 run; has "1 orders played by bots"
is "$(turn_of "$B")" 1 "the bot's order resolved the step"
is "$(q "SELECT count(*) FROM orders WHERE game_id = $B AND source = 'nmr' AND status = 'accepted'")" 1 \
    "the bot's order is stored as such"
is "$(mails "$B" nmr cat@example.org)" 1 "Cat is told"
q "SELECT mail FROM outbox WHERE game_id = $B AND kind = 'nmr'" | grep -q "The bot played" || fail "the NMR mail does not say the bot played"
is "$(deadline_of "$B")" 2026-03-03T10:01:00Z "the next deadline counts from the bot's move"
at 2026-03-02T10:02Z 0 run; has "0 orders played by bots"

# ---- policy drop: the seat resigns by the game's rules ---------------------------------------------
fresh drop
at 2026-03-01T10:00Z 0 new kalimambo --player Eve=eve@example.org --player Fay=fay@example.org \
    --player Gus=gus@example.org --deadline 2d --nmr drop --seed 8
D=$(cat "$T/out")
at 2026-03-01T12:00Z 0 order "$D" Eve "PLAY 5"
at 2026-03-01T12:00Z 0 order "$D" Fay "PLAY 7"
at 2026-03-03T10:00Z 0 run; has "1 seats dropped"
is "$(turn_of "$D")" 2 "Gus resigned (step 1) and the round was played without him (step 2)"
at 2026-03-03T10:00Z 0 show "$D"; has "Gus"
is "$(mails "$D" nmr gus@example.org)" 1 "Gus is told he left"
at 2026-03-03T10:00Z 0 history "$D"; has "Gus missed the deadline and leaves the game"
at 2026-03-03T10:00Z 0 replay "$D"; has "replay exactly"
# KuniUmi for two: dropping one ends the game.
at 2026-03-01T10:00Z 0 new kuniumi --player Hal=hal@example.org --player Ivy=ivy@example.org --deadline 1d --nmr drop
K=$(cat "$T/out")
at 2026-03-02T10:00Z 0 run; has "1 seats dropped"
is "$(q "SELECT status FROM games WHERE id = $K")" finished "a dropped seat ends a game of two"
at 2026-03-02T10:00Z 0 list; has "finished"

# ---- vacation holds the deadline and the reminders --------------------------------------------------
fresh vacation
at 2026-04-01T10:00Z 0 new kuniumi --player Jo=jo@example.org --player Kim=kim@example.org --deadline 2d --nmr bot
V=$(cat "$T/out")
at 2026-04-01T11:00Z 65 order "$V" Jo "VACATION 40d"; has "at most 30 days"
at 2026-04-01T11:00Z 65 order "$V" Jo "VACATION soon"; has "VACATION UNTIL 2026-04-15"
at 2026-04-01T11:00Z 0 order "$V" Jo "VACATION UNTIL 2026-04-08"; has "on vacation until 2026-04-08"
at 2026-04-03T12:00Z 0 run; has "0 reminders, 0 orders played by bots"
at 2026-04-07T12:00Z 0 run; has "0 reminders, 0 orders played by bots"
is "$(mails "$V" reminder)" 0 "no reminders on vacation"
at 2026-04-07T12:00Z 0 status "$V"; has "on vacation until 2026-04-08"; has "deadline for Jo: 2026-04-09 00:00 UTC"
at 2026-04-08T12:00Z 0 run; has "1 reminders"
at 2026-04-09T00:01Z 0 run; has "1 orders played by bots"
is "$(turn_of "$V")" 1 "after the vacation and a day to send, the bot played"
# In a simultaneous step, a vacation holds the deadline for everyone, and they are told.
at 2026-04-10T10:00Z 0 new kalimambo --player Ann=ann@example.org --player Bob=bob@example.org \
    --player Cy=cy@example.org --deadline 2d --nmr bot
KV=$(cat "$T/out")
at 2026-04-10T11:00Z 0 order "$KV" Cy "PLAY 4"
at 2026-04-10T11:00Z 0 order "$KV" Ann "VACATION UNTIL 2026-04-20"
is "$(mails "$KV" notice bob@example.org)" 1 "Bob, still missing, is told the deadline moved"
is "$(mails "$KV" notice cy@example.org)" 0 "Cy, whose card is in, is not"
q "SELECT mail FROM outbox WHERE game_id = $KV AND kind = 'notice'" | grep -q "moves to 2026-04-21 00:00" ||
    fail "the notice lacks the new deadline"
at 2026-04-10T11:05Z 0 status "$KV"; has "deadline for Bob: 2026-04-21 00:00 UTC"; has "deadline for Ann: 2026-04-21"

# ---- time zones: stored in UTC, shown in the seat's zone, across a change to summer time -----------
fresh zones
at 2026-03-07T12:00Z 0 new kuniumi --player Lee=lee@example.org --player Max=max@example.org --deadline 24h --remind 2h
Z=$(cat "$T/out")
at 2026-03-07T12:05Z 65 order "$Z" Lee "TIMEZONE Mars/Olympus"; has "not a time zone"
at 2026-03-07T12:05Z 0 order "$Z" Lee "TIMEZONE America/New_York"; has "America/New_York"
is "$(deadline_of "$Z")" 2026-03-08T12:00:00Z "the deadline is stored in UTC"
at 2026-03-07T12:10Z 0 status "$Z"; has "deadline for Lee: 2026-03-08 08:00 EDT"; lacks "deadline for Max"
at 2026-03-08T10:00Z 0 run; has "1 reminders"
q "SELECT mail FROM outbox WHERE game_id = $Z AND kind = 'reminder'" | grep -q "08:00 EDT" ||
    fail "Lee's reminder does not show her zone"
is "$(q "SELECT DISTINCT subject FROM outbox WHERE game_id = $Z AND seat = 1")" "[ngoma $Z] KuniUmi" \
    "one subject for every mail of a game to a seat"

# ---- pause and resume ------------------------------------------------------------------------------
fresh pause
at 2026-05-01T10:00Z 0 new kuniumi --player Ned=ned@example.org --player Ola=ola@example.org --deadline 1d --nmr bot \
    --host boss@example.org
PZ=$(cat "$T/out")
at 2026-05-01T11:00Z 0 pause "$PZ"; has "paused"
at 2026-05-01T11:00Z 65 pause "$PZ"; err_has "paused already"
is "$(mails "$PZ" notice ned@example.org)" 1 "the players are told of the pause"
at 2026-05-01T11:05Z 65 order "$PZ" Ned "PLACE EARTH GOD c3"; has "paused"
is "$(turn_of "$PZ")" 0 "no order is taken while paused"
at 2026-05-05T10:00Z 0 run; has "0 orders played by bots"
at 2026-05-05T10:00Z 0 list; has "paused"
at 2026-05-05T10:00Z 0 resume "$PZ"; has "2026-05-06 10:00 UTC"
is "$(deadline_of "$PZ")" 2026-05-06T10:00:00Z "resume gives a fresh deadline"
at 2026-05-05T10:00Z 0 order "$PZ" Ned "PLACE EARTH GOD c3"; has "Accepted"

# ---- host commands on the command line: extend, kick, replace, rollback ---------------------------
at 2026-05-05T11:00Z 0 extend "$PZ" 2d; has "2026-05-08 10:00 UTC"
at 2026-05-05T11:00Z 65 extend "$PZ" forever; err_has "EXTEND 2d"
at 2026-05-05T11:00Z 0 replace "$PZ" Ola Pia=pia@example.org; has "Pia"
is "$(q "SELECT name || ' ' || email FROM seats WHERE game_id = $PZ AND seat = 2")" "Pia pia@example.org" "REPLACE"
is "$(mails "$PZ" welcome pia@example.org)" 1 "the new player is welcomed"
at 2026-05-05T11:00Z 65 replace "$PZ" Zed Q=q@example.org; err_has "the players are Ned and Pia"
at 2026-05-05T11:00Z 0 kick "$PZ" Ned; has "bot"
is "$(q "SELECT bot FROM seats WHERE game_id = $PZ AND seat = 1")" 1 "KICK makes the seat a bot"

fresh rollback
at 2026-06-01T10:00Z 0 new kuniumi --player Rae=rae@example.org --player Sam=sam@example.org --seed 21
R=$(cat "$T/out")
i=0
while [ $i -lt 9 ]; do play 2026-06-01T11:00Z "$R"; i=$((i + 1)); done
is "$(turn_of "$R")" 9 "nine steps played"
at 2026-06-01T12:00Z 65 rollback "$R" 9; err_has "ROLLBACK takes the number of a round (turn, move) of the game, 0 (the start) to 3, and goes back to where it began (now: move 3)"
at 2026-06-01T12:00Z 65 rollback "$R" step 9; err_has "0 to 8"
at 2026-06-01T12:00Z 0 rollback "$R" step 4; has "rolled back to setup (step 4)"
is "$(turn_of "$R")" 4 "back at step 4"
is "$(q "SELECT count(*) FROM turns WHERE game_id = $R AND rolled_back = 1")" 5 "the later turns are kept, marked"
is "$(mails "$R" notice)" 2 "everyone is told of the rollback"
at 2026-06-01T12:00Z 0 history "$R"; has "rolled back"
at 2026-06-01T12:00Z 0 replay "$R"; has "replay exactly"
play 2026-06-01T12:30Z "$R"
play 2026-06-01T12:30Z "$R"
is "$(turn_of "$R")" 6 "play goes on after the rollback"
at 2026-06-01T13:00Z 0 replay "$R"; has "replay exactly"
is "$(q "SELECT count(*) FROM turns WHERE game_id = $R AND turn = 5")" 2 "step 5 twice in history: rolled back and played again"
while [ "$(turn_of "$R")" -lt 10 ]; do play 2026-06-01T13:30Z "$R"; done
at 2026-06-01T14:00Z 0 status "$R"; has "move 4 (step 10)"
at 2026-06-01T14:00Z 0 rollback "$R" 2; has "rolled back to move 2 (step 8)"
is "$(turn_of "$R")" 8 "ROLLBACK 2 goes back to where move 2 began"
at 2026-06-01T14:00Z 65 rollback "$R" 2; err_has "the game stands at the start of move 2: ROLLBACK 1 goes back to the start of the one before"

# ---- host commands by mail ------------------------------------------------------------------------
fresh hostmail
at 2026-07-01T10:00Z 0 new kuniumi --player Tia=tia@example.org --player Uma=uma@example.org --deadline 2d --nmr wait \
    --host host@example.org
H=$(cat "$T/out")
hs=$(q "SELECT host_secret FROM games WHERE id = $H")
host_mail() { # FROM BODY ID
    printf 'From: %s\nTo: ngoma+%s-host-%s@localhost\nSubject: Re: [ngoma %s] stalled\nMessage-ID: <%s@example.org>\n\n%s\n' \
        "$1" "$H" "$hs" "$H" "$3" "$2" >"$T/host.eml"
    at 2026-07-04T10:00Z 0 receive --wait "$T/host.eml"
}
at 2026-07-03T10:01Z 0 run; has "1 hosts told"
host_mail host@example.org "EXTEND 2d" h1
is "$(deadline_of "$H")" 2026-07-05T10:00:00Z "EXTEND by mail"
is "$(mails "$H" host host@example.org)" 1 "the host has an answer"
q "SELECT mail FROM outbox WHERE game_id = $H AND kind = 'host' AND rcpt = 'host@example.org'" | grep -q "2026-07-05" ||
    fail "the host's answer lacks the new deadline"
host_mail mallory@example.org "KICK Tia" h2
is "$(q "SELECT bot FROM seats WHERE game_id = $H AND seat = 1")" 0 "a stranger with the host's secret is refused"
is "$(q "SELECT status FROM messages WHERE message_id = 'h2@example.org'")" refused "the stranger's mail is marked refused"
host_mail host@example.org "KICK Tia" h3
is "$(q "SELECT bot FROM seats WHERE game_id = $H AND seat = 1")" 1 "KICK by mail"
is "$(turn_of "$H")" 6 "the kicked seat's bot placed Tia's six pieces at once"
is "$(mails "$H" turn uma@example.org)" 1 "Uma is sent the steps the bot played"
host_mail host@example.org "ROLLBACK STEP 2" h4
is "$(q "SELECT count(*) FROM turns WHERE game_id = $H AND rolled_back = 1")" 4 "ROLLBACK by mail"
is "$(turn_of "$H")" 6 "the bot placed the pieces again"
host_mail host@example.org "FROBNICATE" h5
q "SELECT mail FROM outbox WHERE game_id = $H AND kind = 'host' AND rcpt = 'host@example.org' ORDER BY id DESC LIMIT 1" |
    grep -q "PAUSE" || fail "a wrong host command is not answered with the right ones"
host_mail host@example.org "END" h6
q "SELECT mail FROM outbox WHERE game_id = $H AND kind = 'host' ORDER BY id DESC LIMIT 1" | grep -q "END takes a reason" ||
    fail "END without a reason is not refused with the right form"
is "$(q "SELECT status FROM games WHERE id = $H")" setup "END without a reason changes nothing"
host_mail host@example.org "END ABANDON Uma moved away" h7
is "$(q "SELECT status || ' ' || json_extract(result, '$.ended_by') FROM games WHERE id = $H")" \
    "finished host, abandoned" "END ABANDON by mail"
is "$(q "SELECT kind FROM turns WHERE game_id = $H ORDER BY id DESC LIMIT 1")" end "the end is a turn of its own"
is "$(q "SELECT group_concat(rcpt) FROM outbox WHERE game_id = $H AND kind = 'notice' AND mail LIKE '%Uma moved away%'")" \
    uma@example.org "Uma is told why (a bot plays Tia's seat)"
at 2026-07-04T10:05Z 0 history "$H"; has "The host ends the game: Uma moved away"
at 2026-07-04T10:05Z 0 replay "$H"
at 2026-07-04T10:05Z 0 show "$H"; has "Game over: abandoned by its host, nobody wins."

# ---- END on the command line: scored as the rules score a finished game ---------------------------
fresh endcli
at 2026-07-10T10:00Z 0 new african-empires --player Ann=ann@example.org --player Bob=bob@example.org \
    --player Cy=cy@example.org --seed 4
E=$(cat "$T/out")
play 2026-07-10T10:01Z "$E"
play 2026-07-10T10:02Z "$E"
at 2026-07-10T10:03Z 64 end "$E"; err_has "needs 2 arguments"
at 2026-07-10T10:03Z 0 end "$E" --score the players agreed to stop; has "The host ends the game and scores it"
has "The most VT wins (ties go round from the King's Marker)"
is "$(q "SELECT json_extract(result, '$.ended_by') FROM games WHERE id = $E")" "host, scored" "END --score"
at 2026-07-10T10:04Z 65 end "$E" --abandon too late; err_has "the game is over already"
at 2026-07-10T10:04Z 65 order "$E" Ann "PLAY 1"; has "the game is over"
at 2026-07-10T10:04Z 0 replay "$E"

# ---- bot seats --------------------------------------------------------------------------------------
fresh bots
at 2026-08-01T10:00Z 0 new kuniumi --player Bo=bot --player Al=bot --seed 4
is "$(q "SELECT status FROM games WHERE id = $(cat "$T/out")")" finished "two bots play a game to its end"
at 2026-08-01T10:00Z 0 new kalimambo --player Vi=vi@example.org --player X1=bot --player X2=bot --seed 9
KB=$(cat "$T/out")
at 2026-08-01T10:05Z 0 order "$KB" Vi "PLAY 3"
is "$(turn_of "$KB")" 1 "the bots' cards were in: Vi's card resolved the round"
is "$(q "SELECT count(*) FROM seats WHERE game_id = $KB AND bot = 1")" 2 "bot seats are marked"

# ---- overlapping runs: a second run leaves the work to the first; concurrent runs do nothing twice -
fresh overlap
exec 9>"$NGOMA_DB.lock"
flock 9
at 2026-03-10T10:00Z 0 run; has "another ngoma run"
flock -u 9
exec 9>&-
before=$(q "SELECT count(*) FROM notices")
for w in 1 2 3 4 5 6; do
    "$NGOMA" --now 2026-09-03T08:30Z run >"$T/run$w.out" 2>"$T/run$w.err" &
done
at 2026-09-01T08:00Z 0 new kuniumi --player Wu=wu@example.org --player Yu=yu@example.org --deadline 2d --host h@example.org
wait
for w in 1 2 3 4 5 6; do [ -s "$T/run$w.err" ] && fail "a concurrent run failed: $(cat "$T/run$w.err")"; done
for w in 1 2 3 4 5 6; do
    "$NGOMA" --now 2026-09-03T09:00Z run >"$T/run$w.out" 2>"$T/run$w.err" &
    printf 'From: wu@example.org\nTo: ngoma@localhost\nMessage-ID: <c%s@example.org>\n\nGAME 99\nLEGAL\n' "$w" |
        "$NGOMA" receive >/dev/null 2>"$T/recv$w.err" &
done
wait
for w in 1 2 3 4 5 6; do
    [ -s "$T/run$w.err" ] && fail "a concurrent run failed: $(cat "$T/run$w.err")"
    [ -s "$T/recv$w.err" ] && fail "a receive beside the runs failed: $(cat "$T/recv$w.err")"
done
is "$(q "SELECT count(*) FROM notices GROUP BY game_id, step, started_at, seat, kind HAVING count(*) > 1")" "" \
    "a notice twice"
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'reminder' GROUP BY game_id, rcpt, subject HAVING count(*) > 1")" "" \
    "a reminder mailed twice"
# The workers the receives left read the inbox; send waits for them.
"$NGOMA" --now 2026-09-03T09:00Z send >/dev/null
is "$(q "SELECT count(*) FROM messages WHERE message_id LIKE 'c_@example.org'")" 6 "every receive beside the runs was kept"
[ "$(q "SELECT count(*) FROM notices")" -gt "$before" ] || fail "the concurrent runs did nothing"

# ---- a week-long outage: each overdue game is handled once, the next deadline counts from the restart
fresh outage
n=0
while [ $n -lt 12 ]; do
    at 2026-10-01T10:00Z 0 new kuniumi --player "A$n=a$n@example.org" --player "B$n=b$n@example.org" --deadline 2d \
        --nmr bot --seed $n
    n=$((n + 1))
done
first=$(q "SELECT min(id) FROM games WHERE step_started_at = '2026-10-01T10:00:00Z' AND nmr = 'bot'")
at 2026-10-01T10:00Z 0 new kuniumi --player Oz=oz@example.org --player Pa=pa@example.org --deadline 2d \
    --host host2@example.org
OW=$(cat "$T/out")
at 2026-10-01T11:00Z 0 run
at 2026-10-08T11:00Z 0 run; has "12 orders played by bots"; has "1 hosts told"
is "$(q "SELECT count(*) FROM games WHERE id >= $first AND nmr = 'bot' AND turn = 1")" 12 "each bot game moved one step"
is "$(q "SELECT count(DISTINCT deadline_at) || deadline_at FROM games WHERE id >= $first AND nmr = 'bot'")" \
    "12026-10-10T11:00:00Z" "the new deadlines count from the restart"
is "$(mails "$OW" reminder oz@example.org)" 1 "one overdue notice, not the reminders missed while down"
at 2026-10-08T11:05Z 0 run; has "0 reminders, 0 orders played by bots, 0 seats dropped, 0 hosts told"
is "$(q "SELECT count(*) FROM runs WHERE finished_at IS NOT NULL")" "$(q "SELECT count(*) FROM runs")" "every run finished"

# ---- African Empires: a missed deadline drops one player, and the game goes on -----------------------
fresh aedrop
at 2026-10-20T10:00Z 0 new african-empires --player Ann=ann@example.org --player Bob=bob@example.org \
    --player Cy=cy@example.org --player Di=di@example.org --deadline 1d --nmr drop --seed 2
AD=$(cat "$T/out")
at 2026-10-21T10:01Z 0 run; has "1 seats dropped"
is "$(q "SELECT status FROM games WHERE id = $AD")" active "one missed deadline does not end the game"
who=$("$NGOMA" show "$AD" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p')
[ -n "$who" ] && [ -n "$("$NGOMA" legal "$AD" "$who" | head -n 1)" ] || fail "after the drop, $who has no legal order"
for k in 1 2 3 4 5 6 7 8; do play 2026-10-21T11:0${k}Z "$AD"; done
is "$(q "SELECT status FROM games WHERE id = $AD")" active "the three left play on, a card in every phase"
at 2026-10-21T11:10Z 0 replay "$AD"

# ---- errors reach the host: the run keeps them, list and status show them, one alert a day ---------
fresh alerts
at 2026-11-10T10:00Z 0 list; has "Last run: none yet"
at 2026-11-10T10:00Z 0 config maildir "$T"
rm -rf "$T/gone"; mkdir "$T/gone"
at 2026-11-10T10:00Z 0 config maildir "$T/gone"
rmdir "$T/gone"
at 2026-11-10T10:01Z 75 run; has "1 error"
at 2026-11-10T10:02Z 0 list; has "Last run: 2026-11-10T10:01:00Z, 1 error:"; has "cannot read the Maildir"
is "$(q "SELECT errors FROM runs ORDER BY id DESC LIMIT 1")" 1 "the run's row keeps its errors"
fresh alerts2
# Mail to the players fails for good; mail to the host's own address goes.
cat >"$T/badmail" <<SH
#!/bin/sh
for a; do last=\$a; done
case \$last in
admin@*) cat >>"$T/admin.mbox"; exit 0 ;;
esac
cat >/dev/null
exit 67
SH
chmod +x "$T/badmail"
at 2026-11-10T10:03Z 0 config send_method sendmail
at 2026-11-10T10:03Z 0 config sendmail "$T/badmail"
at 2026-11-10T10:03Z 0 config admin admin@example.org
at 2026-11-10T10:03Z 0 new kuniumi --player Ann=ann@example.org --player Bob=bob@example.org
AG=$(cat "$T/out")
at 2026-11-10T10:05Z 0 run; has "failed 2"
at 2026-11-10T10:10Z 0 run; has "sent 1"
grep -q "^Subject: \[ngoma\] needs you" "$T/admin.mbox" || fail "the alert did not reach the host's address"
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'alert' AND rcpt = 'admin@example.org'")" 1 "the host is alerted"
q "SELECT mail FROM outbox WHERE kind = 'alert'" | grep -q "2 mails failed for good" || fail "the alert does not say what failed"
grep -q "with status 67" "$T/admin.mbox" || fail "the alert does not say why"
at 2026-11-10T18:00Z 0 run
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'alert'")" 1 "one alert a day at most"
at 2026-11-11T10:20Z 0 outbox --retry --all
at 2026-11-11T10:21Z 0 run
is "$(q "SELECT count(*) FROM outbox WHERE kind = 'alert'")" 2 "the next day, another"
at 2026-11-11T10:22Z 0 status "$AG"; has "Last run: 2026-11-11T10:21:00Z"
at 2026-11-11T10:22Z 65 config admin "not an address"

# ---- a game of bots only: created at once, played on by the runs ----------------------------------
fresh botsonly
at 2026-11-01T10:00Z 0 new bumuntu --player A=bot --player B=bot --player C=bot --seed 3
BO=$(cat "$T/out")
is "$(turn_of "$BO")" 64 "the first command plays bot_steps (64) steps and stops"
is "$(q "SELECT status FROM games WHERE id = $BO")" active "the game goes on"
runs=0
while [ "$(q "SELECT status FROM games WHERE id = $BO")" != finished ] && [ $runs -lt 10 ]; do
    at 2026-11-01T10:05Z 0 run; has "bot steps in 1 games"
    runs=$((runs + 1))
done
is "$(q "SELECT status FROM games WHERE id = $BO")" finished "the runs play the bots to the end"
at 2026-11-01T10:10Z 0 run; has "0 bot steps in 0 games"
at 2026-11-01T10:10Z 0 replay "$BO"
at 2026-11-01T10:10Z 0 config bot_steps 5
at 2026-11-01T10:10Z 0 new african-empires --player A=bot --player B=bot --player C=bot --player D=bot --seed 9
BA=$(cat "$T/out")
is "$(turn_of "$BA")" 5 "bot_steps 5: five steps a command"
at 2026-11-01T10:15Z 0 run; has "5 bot steps in 1 games"
is "$(turn_of "$BA")" 10 "a run plays five more"
at 2026-11-01T10:15Z 65 config bot_steps 0; err_has "from 1 to 100000"

# ---- the strong bot: levels by word, the host's default, NMR, KICK ------------------------------------
fresh strong
at 2026-11-02T10:00Z 0 config --unset bot_level
at 2026-11-02T10:00Z 0 config bot_ms 20
at 2026-11-02T10:00Z 65 config bot_level genius; err_has "easy (a one-step look-ahead"
at 2026-11-02T10:00Z 65 config bot_ms 5; err_has "from 10 to 60000"
at 2026-11-02T10:00Z 65 new kuniumi --player Ann=ann@example.org --player Hal=bot:genius
err_has "write bot (the host's level), bot:easy or bot:strong"
# plain bot: the host's default, strong unless set; the strong bot moves after the command, outside its transaction
at 2026-11-02T10:00Z 0 new bantu --player Ann=bot --player Bob=bot:easy --seed 4
SB=$(cat "$T/out")
is "$(q "SELECT group_concat(coalesce(bot_level, '-'), ',') FROM (SELECT bot_level FROM seats WHERE game_id = $SB ORDER BY seat)")" \
    strong,easy "bot is strong by default, bot:easy is easy"
is "$(q "SELECT count(DISTINCT bot_level) FROM orders WHERE game_id = $SB AND source = 'bot'")" 2 \
    "both bots played, each order recorded with its bot's level"
at 2026-11-02T10:00Z 0 history "$SB"; has "Bots play: Ann (strong bot), Bob (easy bot)."
at 2026-11-02T10:00Z 0 status "$SB"; has "a strong bot"; has "an easy bot"
at 2026-11-02T10:01Z 0 replay "$SB"
at 2026-11-02T10:01Z 0 verify "$SB"; has "replay as recorded"
# a command plays 8 strong moves at most; run plays on
at 2026-11-02T10:01Z 0 new kuniumi --player Ada=bot:strong --player Ben=bot:strong --seed 4
SS=$(cat "$T/out")
is "$(q "SELECT count(*) FROM orders WHERE game_id = $SS AND bot_level = 'strong'")" 8 "a command plays 8 strong moves"
at 2026-11-02T10:01Z 0 run; has "bot steps in 2 games"
is "$(q "SELECT count(*) > 8 FROM orders WHERE game_id = $SS AND bot_level = 'strong'")" 1 "run plays on"
at 2026-11-02T10:01Z 0 config bot_level easy
at 2026-11-02T10:01Z 0 new kuniumi --player Ann=ann@example.org --player Eli=bot --seed 4
is "$(q "SELECT bot_level FROM seats WHERE game_id = $(cat "$T/out") AND seat = 2")" easy "bot_level easy: plain bot is easy"
# NMR bot:strong: the search for the missing order runs before the deadline's transaction
at 2026-11-02T10:02Z 0 new kuniumi --player Cat=cat@example.org --player Dan=dan@example.org \
    --deadline 1d --remind none --nmr bot:strong --seed 5
SN=$(cat "$T/out")
is "$(q "SELECT nmr || ' ' || nmr_level FROM games WHERE id = $SN")" "bot strong" "--nmr bot:strong is kept"
at 2026-11-03T10:03Z 0 run; has "1 orders played by bots"
is "$(q "SELECT source || ' ' || bot_level FROM orders WHERE game_id = $SN AND status = 'accepted'")" "nmr strong" \
    "the strong bot played the missing order"
at 2026-11-03T10:03Z 0 history "$SN"; has "(played at the deadline by the strong bot)"
# KICK with a level
at 2026-11-03T10:04Z 0 new kuniumi --player Kay=kay@example.org --player Lou=lou@example.org --seed 5
SK=$(cat "$T/out")
at 2026-11-03T10:04Z 65 kick "$SK" Kay bot:genius; err_has "KICK Kay bot:easy"
at 2026-11-03T10:04Z 0 kick "$SK" Kay bot:strong; has "A bot (strong) plays Kay's seat"
is "$(q "SELECT bot || bot_level FROM seats WHERE game_id = $SK AND seat = 1")" 1strong "KICK bot:strong"
is "$(q "SELECT count(*) > 0 FROM orders WHERE game_id = $SK AND seat = 1 AND bot_level = 'strong'")" 1 \
    "the strong bot played Kay's orders after the kick"

# ---- the strong bot searches holding no lock: another writer gets in meanwhile ---------------------------
fresh searching
at 2026-11-04T10:00Z 0 config bot_ms 20
at 2026-11-04T10:00Z 0 new kuniumi --player Sol=bot:strong --player Ann=ann@example.org --seed 6
SL=$(cat "$T/out")
at 2026-11-04T10:00Z 0 config bot_ms 3000
who=$("$NGOMA" show "$SL" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p')
is "$who" Ann "the strong bot placed its pieces at once; Ann chooses"
order=$("$NGOMA" legal "$SL" Ann | head -n 1)
"$NGOMA" --now 2026-11-04T10:01Z order "$SL" Ann "$order" >"$T/bg.out" 2>&1 &
bg=$!
sleep 1
tests=$((tests + 1))
start=$(date +%s%N)
sqlite3 "$NGOMA_DB" ".timeout 400" "BEGIN IMMEDIATE;" "UPDATE settings SET value = value WHERE key = 'bot_ms';" \
    "COMMIT;" >/dev/null 2>"$T/lock.err" || fail "another writer waited on the searching bot: $(cat "$T/lock.err")"
waited=$((($(date +%s%N) - start) / 1000000))
[ "$waited" -lt 1500 ] || fail "another writer waited $waited ms while the bot searched"
kill -0 "$bg" 2>/dev/null || fail "the search was over before the other writer came: the test proved nothing"
wait "$bg" || fail "Ann's order: $(cat "$T/bg.out")"
is "$(q "SELECT count(*) FROM orders WHERE game_id = $SL AND seat = 1 AND bot_level = 'strong' AND step = \
    (SELECT max(step) FROM orders WHERE game_id = $SL)")" 1 "the bot's searched order came after Ann's"

echo "schedule.sh: $tests checks, $fails failed"
[ "$fails" -eq 0 ]
