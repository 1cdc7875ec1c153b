#!/bin/sh
# languages.sh: a whole Kalimambo game by mail (the MTA pipe, the outbox directory) with its seats in English, French, Portuguese and Swahili: each reads her own mails, her order words taken; a player changes hers by mail; the lobby answers in French.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-languages.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
export NGOMA_DB="$T/ngoma.db"
cd "$T" || exit 1
PLAYER="/usr/bin/python3 $ROOT/tests/mailplayer.py"
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }

"$NGOMA" init >/dev/null
"$NGOMA" config from ngoma@example.org >/dev/null
"$NGOMA" config lobby open >/dev/null
# Words, not pictures: the pictures have tests of their own.
"$NGOMA" config images no >/dev/null
answer() {
    $PLAYER reply outbox "$1" - "" "" "$2" | "$NGOMA" receive --wait >/dev/null || fail "receive from $1"
    "$NGOMA" send >/dev/null
}
# Each address's newest mail, read once after each step of the test.
snap() { rm -rf "$T/last"; $PLAYER last-texts outbox "$T/last"; }
has() { checks=$((checks + 1)); grep -q -- "$2" "$T/last/$1" || fail "$1's last mail lacks \"$2\": $(head -c 400 "$T/last/$1")"; }
lacks() { checks=$((checks + 1)); ! grep -q -- "$2" "$T/last/$1" || fail "$1's last mail holds \"$2\""; }
# The same in its text as one line: a sentence the mail wrapped.
has_flat() {
    checks=$((checks + 1))
    tr '\n' ' ' <"$T/last/$1" | sed 's/  */ /g' | grep -q -- "$2" || fail "$1's last mail lacks \"$2\""
}

game=$("$NGOMA" new kalimambo --player Ama=ama@example.org --player Bo=bo@example.org:fr \
    --player Cida=cida@example.org:pt --player Dudu=dudu@example.org:sw --seed 7)
"$NGOMA" send >/dev/null
snap
has ama@example.org "Welcome to Kalimambo game $game, Ama!"
has bo@example.org "Bienvenue dans Kalimambo, partie $game, Bo !"
has cida@example.org "Boas-vindas ao Kalimambo, jogo $game, Cida!"
has dudu@example.org "Karibu Kalimambo, mchezo $game, Dudu!"
has bo@example.org "^  JOUER 0"
# The board's own words in hers: Kalimambo's, and where the game stands.
has bo@example.org "De l'arri.re . l'avant : M0"
has bo@example.org "Partie $game : Kalimambo, manche 1 sur 12"
has dudu@example.org "Kadi zilizobaki za Kali:"
has cida@example.org "Cartas que restam . Kali:"
lacks bo@example.org "Back to front"
has cida@example.org "^  JOGAR 0"
has dudu@example.org "^  CHEZA 0"
has ama@example.org "^  PLAY 0"
# The sentences moved into the catalogues are in no mail but English's.
for who in bo cida dudu; do
    for english in "To give orders, reply" "Your secret for game" "Reply HELP" "Your orders now" "In a new mail"; do
        lacks $who@example.org "$english"
    done
done

# A slip of the pen in French: offered back in French, and her "oui"
# under the quoted offer gives it.
answer bo@example.org "JOEUR 3"
snap
has_flat bo@example.org "Vouliez-vous dire JOUER 3 ? Répondez oui"
has_flat bo@example.org "Refusé : jouez une de vos cartes par son numéro"
answer bo@example.org "oui"
snap
has bo@example.org "JOUER 3 pris en compte, en secret"

# The game played to its end, each seat in her own words: Bo writes
# in lower case and without accents, as a phone keyboard gives them.
cida_verb=JOGAR
verb_of() { case $1 in Bo) echo jouer ;; Cida) echo $cida_verb ;; Dudu) echo Cheza ;; *) echo PLAY ;; esac; }
# A player's mail to her seat's address, as her client sends a reply (the
# pipe; ngoma sends its answers once a round).
n_mail=0
play() {
    seat=$1
    secret=$(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats WHERE game_id = $game AND seat = $seat")
    n_mail=$((n_mail + 1))
    printf 'From: <%s>\nTo: ngoma+%s-%s-%s@example.org\nSubject: Re: [ngoma %s] Kalimambo\nMessage-ID: <m%s@example.org>\n\n%s\n' \
        "$2" "$game" "$seat" "$secret" "$game" "$n_mail" "$3" | "$NGOMA" receive --wait >/dev/null || fail "receive from $2"
}
rounds=0
while [ $rounds -lt 40 ]; do
    status=$("$NGOMA" show "$game" --json | tr -d '\n\t ' | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
    [ "$status" = finished ] && break
    seat=0
    for who in Ama Bo Cida Dudu; do
        seat=$((seat + 1))
        card=$("$NGOMA" legal "$game" "$who" | sed -n "$(( rounds % 3 + 1 ))p;1p" | tail -1 | awk '{print $2}')
        [ -n "$card" ] || continue
        play $seat "$(echo "$who" | tr 'A-Z' 'a-z')@example.org" "$(verb_of $who) $card"
    done
    "$NGOMA" send >/dev/null
    rounds=$((rounds + 1))
    # Cida reads Swahili from the fourth round, by one mail, and writes
    # her orders in it (her Portuguese words are hers no more).
    if [ $rounds -eq 3 ]; then
        answer cida@example.org "LUGHA sw"
        snap
        has cida@example.org "Kuanzia sasa ngoma itakuandikia kwa Kiswahili"
        cida_verb=CHEZA
    fi
done
snap
ok test "$status" = finished
ok test "$rounds" -ge 5
has cida@example.org "Asante kwa kucheza."
has bo@example.org "Merci d'avoir joué."
has dudu@example.org "^Imekubaliwa."
has ama@example.org "Thank you for playing."
has bo@example.org "La partie est terminée"
# Every mail well formed, within 72 columns.
n=$($PLAYER check outbox) || fail "a mail is not well formed: $n"

# ---- the lobby, in French from the first mail that asks for it
printf 'From: Eve <eve@example.org>\nTo: ngoma@example.org\nSubject: hello\nMessage-ID: <eve1@example.org>\n\nLANGUE fr\n' |
    "$NGOMA" receive --wait >/dev/null
"$NGOMA" send >/dev/null
answer eve@example.org "yes"
snap
has eve@example.org "ngoma vous écrit en Français"
answer eve@example.org "AIDE"
snap
has eve@example.org "Le salon accepte une commande par ligne"
answer eve@example.org "MES PARTIES"
snap
lacks eve@example.org "Unknown command"
answer eve@example.org "LANGUAGE default"
snap
has eve@example.org "the host's language, English"

echo "languages.sh: $checks checks, $fails failed ($rounds rounds by mail, $(ls outbox | wc -l) mails)"
[ $fails -eq 0 ]
