#!/bin/sh
# phone.sh: every kind of mail of every game as a phone shows it: played by tapping its links (tests/phone.py), each HTML part opened in headless Chromium at 390 pixels with its pictures, checked for sideways scrolling, clipped or too wide text and text under 15 px; screenshots kept in build/test-output/phone/.
set -u
NGOMA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-phone.XXXXXX)
OUT="$ROOT/build/test-output/phone"
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
chrome() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
        --user-data-dir="$T/chrome" "$@" 2>>"$T/chrome.log"
}

# The games, played by taps; each kind of mail written out as a page.
checks=$((checks + 1))
timeout 600 /usr/bin/python3 "$ROOT/tests/phone.py" "$NGOMA" "$T/work" "$T/www/mail" >"$T/phone.out" 2>&1 ||
    fail "playing by taps: $(tail -20 "$T/phone.out")"
head -1 "$T/phone.out"

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$T/www" "$port" >"$T/http.log" 2>&1 &
SERVER=$!
i=0
until /usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 50 ] && { fail "the web server did not start"; break; }
    sleep 0.1
done
pages=$(/usr/bin/python3 -c 'import json, sys; print(",".join("\"%s.html\"" % p["name"] for p in json.load(open(sys.argv[1]))))' \
    "$T/www/mail/pages.json")
# A harness page loads each mail in a frame 390 pixels wide, as a phone's
# client shows it, and measures what a reader would meet.
cat >"$T/www/harness.html" <<HTML
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="result">running</pre>
<script>
const pages = [$pages], found = {};
let left = pages.length;
function inScrollBox(e, d) {
  for (let p = e; p && p !== d.body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX;
    if (o === "auto" || o === "scroll") return true;
  }
  return false;
}
function check(name, d, w) {
  const r = { wide: [], small: [], clipped: [], boxed: [], images: 0, broken: [], links: d.querySelectorAll("a[href^='mailto:']").length };
  r.width = d.documentElement.scrollWidth;
  r.inner = d.defaultView.innerWidth;
  for (const e of d.body.querySelectorAll("*")) {
    const text = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text) continue;
    const s = getComputedStyle(e), box = inScrollBox(e, d), b = e.getBoundingClientRect(), px = parseFloat(s.fontSize);
    const what = e.tagName + ": " + e.textContent.trim().slice(0, 40);
    if (!box && (b.right > w + 0.5 || b.left < -0.5)) r.wide.push(what + " (" + Math.round(b.right) + ")");
    if (!box && px < 15) r.small.push(what + " (" + px + "px)");
    if (box && px < 12) r.small.push(what + " (" + px + "px in its box)");
    if ((s.overflowX === "hidden" || s.overflow === "hidden") && e.scrollWidth > e.clientWidth + 1) r.clipped.push(what);
    if ((s.overflowX === "auto" || s.overflowX === "scroll") && e.scrollWidth > e.clientWidth + 1)
      r.boxed.push(what + " (" + e.scrollWidth + " in " + e.clientWidth + ")");
  }
  for (const i of d.images) {
    r.images++;
    if (!(i.naturalWidth > 0)) r.broken.push(i.getAttribute("src"));
    else if (i.getBoundingClientRect().width > w + 0.5) r.wide.push("IMG " + i.getAttribute("src"));
  }
  found[name] = r;
}
for (const name of pages) {
  const f = document.createElement("iframe");
  f.style.width = "390px"; f.style.height = "800px"; f.style.border = "0";
  f.onload = () => {
    const d = f.contentDocument;
    const wait = () => {
      if ([...d.images].some(i => !i.complete)) { setTimeout(wait, 50); return; }
      check(name, d, f.clientWidth);
      if (--left === 0) document.getElementById("result").textContent = JSON.stringify(found);
    };
    wait();
  };
  f.src = "mail/" + name;
  document.body.appendChild(f);
}
</script></body></html>
HTML
chrome --virtual-time-budget=60000 --window-size=1200,900 --dump-dom "http://127.0.0.1:$port/harness.html" >"$T/dom.html"
checks=$((checks + 1))
/usr/bin/python3 - "$T/dom.html" "$T/www/mail/pages.json" <<'PY' >"$T/report" 2>&1 || fail "the mails in Chromium at 390 pixels: $(cat "$T/report")"
import html, json, re, sys
m = re.search(r'<pre id="result">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
if not m or m.group(1) == "running":
    sys.exit("the harness did not finish")
found = json.loads(html.unescape(m.group(1)))
pages = json.load(open(sys.argv[2]))
bad = []
for p in pages:
    r = found.get(p["name"] + ".html")
    if not r:
        bad.append("%s did not load" % p["name"])
        continue
    if r.get("inner") != 390:
        bad.append("%s was laid out %s pixels wide, not 390" % (p["name"], r.get("inner")))
    if r["width"] > 390:
        bad.append("%s scrolls sideways (%d pixels)" % (p["name"], r["width"]))
    # Only a board drawn as text may scroll in its box (IMAGES OFF).
    boxed = [b for b in r.get("boxed", []) if "+----" not in b and "|" not in b]
    if boxed:
        bad.append("%s: a box scrolls sideways: %s" % (p["name"], boxed[:2]))
    for k in ("wide", "small", "clipped", "broken"):
        if r[k]:
            bad.append("%s: %s %s" % (p["name"], k, r[k][:3]))
    if p["links"] and not r["links"]:
        bad.append("%s: its links are not links" % p["name"])
kinds = sorted(set(p["kind"] for p in pages))
print("%d mails of %d kinds (%s), %d pictures, %d links" % (len(pages), len(kinds), " ".join(kinds),
      sum(r["images"] for r in found.values()), sum(r["links"] for r in found.values())))
sys.exit("; ".join(bad[:20]) if bad else 0)
PY

# A screenshot of each, as a phone shows it, kept for people.
rm -rf "$OUT"
mkdir -p "$OUT"
# One browser shoots them all (tests/shots.py), each laid out 390 pixels
# wide as the harness measured it.
for page in $(cd "$T/www/mail" && ls *.html); do
    echo "http://127.0.0.1:$port/mail/$page $OUT/${page%.html}.png 390 2400"
done | timeout 300 /usr/bin/python3 "$ROOT/tests/shots.py" "$T/chrome" "$T/chrome.log" || fail "the screenshots"
checks=$((checks + 1))
[ "$(ls "$OUT" | wc -l)" -gt 30 ] || fail "only $(ls "$OUT" | wc -l) screenshots"

echo "phone.sh: $checks checks, $fails failed ($(cat "$T/report" 2>/dev/null); screenshots in build/test-output/phone/)"
[ "$fails" -eq 0 ]
