#!/bin/sh
# demo.sh: plays a whole KuniUmi game between two players through `ngoma order`, printing each reply and the winner.
set -eu
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DIR=${DEMO_DIR:-demo}
rm -rf "$DIR"
mkdir -p "$DIR"
export NGOMA_DB="$DIR/ngoma.db"

"$NGOMA" init
game=$("$NGOMA" new kuniumi --player Amara=amara@example.org --player Kofi=kofi@example.org --seed 2026)
echo "Started KuniUmi game $game: Amara (seat 1) against Kofi (seat 2)."
echo

say() {
    echo "================================================================"
    echo "$1 writes: $(echo "$2" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
    echo "----------------------------------------------------------------"
    "$NGOMA" order "$game" "$1" "$2" || true
}

# Amara sets up all six pieces in one message, as a player would by mail.
say Amara "PLACE EARTH GOD c3
PLACE SEA GOD d4
PLACE LAND b5
PLACE LAND e2
PLACE SEA c4
PLACE SEA d2"
# A wrong order gets a clear reason.
say Kofi "MOVE a1"
say Kofi "CHOOSE SEA"

# The players then pick their moves from LEGAL, each with a simple habit:
# the n-th legal order on her n-th move, wrapping around.
turn=0
while :; do
    status=$("$NGOMA" show "$game" --json | tr -d '\n\t ' )
    case "$status" in *'"status":"finished"'*) break ;; esac
    who=$(echo "$status" | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p')
    count=$("$NGOMA" legal "$game" "$who" | wc -l)
    pick=$(( (turn * 7) % count + 1 ))
    move=$("$NGOMA" legal "$game" "$who" | sed -n "${pick}p")
    say "$who" "$move"
    turn=$((turn + 1))
done

echo "================================================================"
"$NGOMA" show "$game"
echo
"$NGOMA" replay "$game"

# Kalimambo: one round of secret cards. It resolves only when the last card is in.
echo
echo "################################################################"
kali=$("$NGOMA" new kalimambo --player Amara=amara@example.org --player Kofi=kofi@example.org \
    --player Zola=zola@example.org --seed 7)
echo "Started Kalimambo game $kali: Amara, Kofi and Zola choose their cards in secret."
game=$kali
say Amara "PLAY 9"
say Kofi "PLAY 4"
say Amara "PLAY 6"
echo "(Amara changed her mind: only her last card counts. Kofi and Amara are in;"
echo " the round waits for Zola, and nobody has seen a card yet.)"
"$NGOMA" show "$kali" --as Kofi | tail -8
say Zola "PLAY 2"
echo "The whole games are in $NGOMA_DB; try: sqlite3 $NGOMA_DB 'SELECT * FROM moves'"
