#!/bin/sh
# demo.sh: plays a whole KuniUmi game (one player planning her answers), a Kalimambo round and a press exchange by mail, into the local outbox directory, and prints the players' mails.
set -eu
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${DEMO_DIR:-demo}
CLIENT="/usr/bin/python3 $ROOT/tests/mailplayer.py"
rm -rf "$DIR"
mkdir -p "$DIR"
export NGOMA_DB="$DIR/ngoma.db"
OUTBOX="$DIR/outbox"

"$NGOMA" init
"$NGOMA" config from ngoma@demo.example
echo "ngoma mails into $OUTBOX/ (the default send method: one .eml file per mail)."

# A player answers the newest mail she got, as her mail client would: to its
# Reply-To address (which carries her secret), quoting it below. The MTA
# pipes the answer into `ngoma receive`, which keeps it and ends the
# delivery (a worker reads it at once); `ngoma send` waits for that worker
# and sends what is left.
answer() {
    $CLIENT reply "$OUTBOX" "$1" - "" "" "$2" | "$NGOMA" receive >/dev/null
    "$NGOMA" send >/dev/null
}
# show_mail ADDRESS: the newest mail to her, unless it was shown already.
shown_last=""
show_mail() {
    newest=$($CLIENT last-text "$OUTBOX" "$1" headers)
    [ "$newest" = "$shown_last" ] && return 0
    shown_last=$newest
    echo "================================================================"
    echo "Mail to $1:"
    echo "----------------------------------------------------------------"
    printf '%s\n' "$newest"
}
waiting() { "$NGOMA" show "$1" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p'; }

game=$("$NGOMA" new kuniumi --player Amara=amara@example.org --player Kofi=kofi@example.org --seed 2026)
"$NGOMA" send >/dev/null
echo "Started KuniUmi game $game: Amara (seat 1) against Kofi (seat 2). Amara's mails follow."
show_mail amara@example.org

# Amara sets up all six pieces in one mail.
answer amara@example.org "PLACE EARTH GOD c3\nPLACE SEA GOD d4\nPLACE LAND b5\nPLACE LAND e2\nPLACE SEA c4\nPLACE SEA d2"
show_mail amara@example.org
# Kofi first writes a wrong order: he is told why, then chooses his side.
answer kofi@example.org "MOVE a1"
answer kofi@example.org "CHOOSE SEA"

# Then each plays by habit: the n-th legal order on the n-th move, wrapping.
# Amara also plans: after each order of hers she taps every answer her
# reply offers to Kofi's likely replies (IF Kofi ... THEN ...), and when he
# plays one of them her answer is played at once, with no mail.
turn=0
while :; do
    who=$(waiting "$game")
    [ -n "$who" ] || break
    addr=$(echo "$who" | tr 'A-Z' 'a-z')@example.org
    count=$("$NGOMA" legal "$game" "$who" | wc -l)
    move=$("$NGOMA" legal "$game" "$who" | sed -n "$(( (turn * 7) % count + 1 ))p")
    answer "$addr" "$move"
    if [ "$who" = Amara ]; then
        plans=$($CLIENT last-text "$OUTBOX" amara@example.org | sed -n 's/^  \(IF Kofi .* THEN .*\)$/\1/p')
        [ -n "$plans" ] && answer amara@example.org "$plans"
        show_mail amara@example.org
    fi
    turn=$((turn + 1))
done
show_mail amara@example.org
"$NGOMA" replay "$game"

# Kalimambo by mail: the round resolves only when the last secret card is in.
echo
echo "################################################################"
kali=$("$NGOMA" new kalimambo --player Amara=amara@example.org --player Kofi=kofi@example.org \
    --player Zola=zola@example.org --seed 7)
"$NGOMA" send >/dev/null
echo "Started Kalimambo game $kali: Amara, Kofi and Zola choose their cards in secret."
answer amara@example.org "PLAY 9"
answer kofi@example.org "PLAY 4"
answer amara@example.org "PLAY 6"
show_mail amara@example.org
echo "(Amara changed her mind: only her last card counts. Zola's card is still"
echo " missing, so nothing has moved and nobody has seen a card.)"
answer zola@example.org "PLAY 2"
show_mail amara@example.org

# Press: Amara writes to Zola alone, through the game; Zola's plain Reply
# goes back to the same channel. Kofi reads none of it.
answer amara@example.org "PRESS TO Zola: Kofi is ahead. Shall we both play low next round?"
show_mail zola@example.org
answer zola@example.org "Agreed, I keep my high cards for later."
show_mail amara@example.org
echo "================================================================"
echo "$(ls "$OUTBOX" | wc -l) mails are in $OUTBOX/; the games are in $NGOMA_DB:"
echo "  sqlite3 $NGOMA_DB 'SELECT * FROM moves'"
