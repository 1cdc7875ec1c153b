#!/bin/sh
# site.sh: the static site of the public record opened in headless Chromium as a phone would: every page loads, every picture resolves, nothing is wider than 390 pixels, nothing only a seat may see; a screenshot of each game's page kept under build/test-output/site/.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-site.XXXXXX)
OUT="$ROOT/build/test-output/site"
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
export NGOMA_DB="$T/ngoma.db"
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }
chrome() {
    timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --disable-dev-shm-usage --user-data-dir="$T/chrome" "$@" 2>>"$T/chrome.log"
}

"$NGOMA" init >/dev/null
"$NGOMA" config bot_level easy >/dev/null
# One finished game of each kind, played by bots; and one African Empires
# game in play with people's hands in it, to prove none reaches the site.
for g in kuniumi kalimambo bumuntu bantu african-empires; do
    "$NGOMA" new $g --player Ann=bot --player Bob=bot --player Cy=bot --seed 3 >/dev/null 2>&1 ||
        "$NGOMA" new $g --player Ann=bot --player Bob=bot --seed 3 >/dev/null || fail "new $g"
done
live=$("$NGOMA" new african-empires --player Dora=dora@example.org --player Emil=emil@example.org \
    --player Fay=fay@example.org --seed 9)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "$NGOMA" run >/dev/null 2>&1; done
for step in 1 2 3 4; do
    who=$("$NGOMA" show "$live" --json | tr -d '\n\t ' | sed -n 's/.*"waiting_for":\["\([^"]*\)".*/\1/p')
    [ -n "$who" ] && "$NGOMA" order "$live" "$who" "$("$NGOMA" legal "$live" "$who" | head -1)" >/dev/null
done
ok test "$(sqlite3 "$NGOMA_DB" "SELECT count(*) FROM games WHERE status = 'finished'")" = 5

"$NGOMA" site "$T/www/site" >"$T/site.out" || fail "ngoma site: $(cat "$T/site.out")"
checks=$((checks + 1))
grep -q "wrote 6 game pages" "$T/site.out" || fail "ngoma site: $(cat "$T/site.out")"
# Which seats were bots, and at which level: on the game's page.
checks=$((checks + 1))
grep -q "Ann (easy bot)" "$T/www/site/game-1.html" || fail "the site does not say Ann was an easy bot"

# Nothing a seat alone may see: no secret, no hand, no card held in the
# game in play that was never played in public.
for s in $(sqlite3 "$NGOMA_DB" "SELECT secret FROM seats"); do
    if grep -rq "$s" "$T/www/site"; then fail "a seat's secret is on the site"; fi
done
checks=$((checks + 1))
if grep -rlq '"hand"\|"shield"' "$T/www/site"; then fail "a hand or a shield is on the site"; fi
checks=$((checks + 1))
/usr/bin/python3 - "$NGOMA_DB" "$live" "$T/www/site" <<'PY' || fail "a card in a hand is on the site"
import json, os, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); game = int(sys.argv[2]); site = sys.argv[3]
state = json.loads(db.execute("SELECT state FROM games WHERE id = ?", (game,)).fetchone()[0])
public = "".join(r[0] for r in db.execute("SELECT log || orders FROM turns WHERE game_id = ?", (game,)))
cards = [state["cards"][c].split(":", 1)[1] for hand in state["hands"] for c in hand]
mine = ["game-%d.html" % game, "game-%d.json" % game]
pages = "".join(open(os.path.join(site, f), errors="replace").read() for f in mine)
leaked = [c for c in cards if c not in public and c in pages]
sys.exit("held cards on the site: %s" % leaked if leaked else 0)
PY

# Served on loopback, opened in Chromium: a harness page loads each page in
# a frame 390 pixels wide and reports what it found.
# Every page in every language, each naming the others; the French,
# Portuguese and Swahili pages with no English left in what they say
# (the cards' printed names and the language's own name aside), their
# pictures labelled in their language.
for l in fr pt sw; do
    checks=$((checks + 1))
    grep -q "<html lang=\"$l\">" "$T/www/site/$l/index.html" || fail "no $l/index.html in $l"
done
checks=$((checks + 1))
grep -q 'href="fr/game-1.html"' "$T/www/site/game-1.html" && grep -q 'href="../game-1.html"' "$T/www/site/fr/game-1.html" &&
    grep -q 'href="../sw/game-1.html"' "$T/www/site/pt/game-1.html" && grep -q 'href="../style.css"' "$T/www/site/fr/index.html" ||
    fail "the pages do not name each other in every language"
checks=$((checks + 1))
grep -q "Partie 2 : Kalimambo" "$T/www/site/fr/game-2.html" || fail "the French page of game 2 is not in French"
checks=$((checks + 1))
first=$(cd "$T/www/site" && ls game-2/*.png | head -1)
cmp -s "$T/www/site/$first" "$T/www/site/fr/$first" && fail "the French picture $first is the English one"
/usr/bin/python3 - "$T/www/site" "$ROOT/seeds/african-empires.json" <<'PY' || fail "English on the translated pages"
import html, json, os, re, sys
site = sys.argv[1]
cards = [c["name"] for c in json.load(open(sys.argv[2]))["cards"]]
stop = {"the", "and", "you", "your", "game", "games", "round", "turn", "players", "player", "wins", "won", "step",
        "ratings", "rating", "shuffles", "all", "with", "is", "was", "has", "plays", "played", "nobody", "yet", "bot",
        "easy", "strong", "over", "waiting", "for", "written", "only", "may", "see", "here", "record", "start"}
bad = []
for lang in ("fr", "pt", "sw"):
    for name in sorted(os.listdir(os.path.join(site, lang))):
        if not name.endswith(".html"):
            continue
        text = html.unescape(re.sub(r"<[^>]+>", " ", open(os.path.join(site, lang, name)).read()))
        text = re.sub(r"game-[0-9]+\.json|ngoma verify --file", " ", text)  # a file's name, a command
        for c in cards + ["English"]:
            text = text.replace(c, " ")
        words = [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in stop]
        if words:
            bad.append("%s/%s: %s" % (lang, name, " ".join(words[:5])))
sys.exit("; ".join(bad[:6]) if bad else 0)
PY
checks=$((checks + 1))

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$T/www" "$port" >"$T/http.log" 2>&1 &
SERVER=$!
i=0
until /usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 50 ] && { fail "the web server did not start"; break; }
    sleep 0.1
done
# Every English page, and French ones (the longest words) for the other
# languages: their index and the two games with the most to say.
pages=$(cd "$T/www/site" && ls index.html game-*.html fr/index.html fr/game-2.html fr/game-5.html | sed 's/.*/"&"/' |
    paste -sd, -)
cat >"$T/www/harness.html" <<HTML
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="result">running</pre>
<script>
const pages = [$pages], found = {};
let left = pages.length;
for (const name of pages) {
  const f = document.createElement("iframe");
  f.style.width = "390px"; f.style.height = "700px"; f.style.border = "0";
  f.onload = () => {
    const d = f.contentDocument, imgs = [...d.images];
    const wait = () => {
      if (imgs.some(i => !i.complete)) { setTimeout(wait, 50); return; }
      found[name] = { title: d.title, h1: !!d.querySelector("h1"), width: d.documentElement.scrollWidth,
                      images: imgs.length, broken: imgs.filter(i => !(i.naturalWidth > 0)).map(i => i.getAttribute("src")) };
      if (--left === 0) document.getElementById("result").textContent = JSON.stringify(found);
    };
    wait();
  };
  f.src = "site/" + name;
  document.body.appendChild(f);
}
</script></body></html>
HTML
chrome --virtual-time-budget=30000 --window-size=1200,900 --dump-dom "http://127.0.0.1:$port/harness.html" >"$T/dom.html"
/usr/bin/python3 - "$T/dom.html" "$pages" <<'PY' >"$T/report" 2>&1 || fail "the site in Chromium: $(cat "$T/report")"
import html, json, re, sys
m = re.search(r'<pre id="result">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
if not m or m.group(1) == "running":
    sys.exit("the harness did not finish")
found = json.loads(html.unescape(m.group(1)))
want = [p.strip('"') for p in sys.argv[2].split(",")]
bad = []
for p in want:
    r = found.get(p)
    if not r or not r["h1"]:
        bad.append("%s did not load" % p)
    elif r["width"] > 390:
        bad.append("%s is %d pixels wide" % (p, r["width"]))
    elif r["broken"]:
        bad.append("%s has broken pictures %s" % (p, r["broken"][:3]))
    elif not p.endswith("index.html") and r["images"] < 2:
        bad.append("%s has %d pictures" % (p, r["images"]))
print("%d pages, %d pictures" % (len(found), sum(r["images"] for r in found.values())))
sys.exit("; ".join(bad) if bad else 0)
PY
checks=$((checks + 1))

# A screenshot of each game's page, as a phone shows it, kept for people.
rm -rf "$OUT"
mkdir -p "$OUT"
for page in $(cd "$T/www/site" && ls game-*.html); do
    echo "http://127.0.0.1:$port/site/$page $OUT/${page%.html}.png 390 1600"
done | timeout 300 /usr/bin/python3 "$ROOT/tests/shots.py" "$T/chrome" "$T/chrome.log" || fail "the screenshots"
for page in $(cd "$T/www/site" && ls game-*.html); do
    checks=$((checks + 1))
    [ -s "$OUT/${page%.html}.png" ] || fail "no screenshot of $page"
done
ok test "$(ls "$OUT" | wc -l)" = 6

echo "site.sh: $checks checks, $fails failed ($(cat "$T/report" 2>/dev/null); screenshots in build/test-output/site/)"
[ "$fails" -eq 0 ]
