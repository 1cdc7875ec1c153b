#!/usr/bin/python3
"""press.py: press between players by mail, in games of every kind: each message reaches exactly its recipients and no
other seat's mail, view, history or page, nor an observer's; replies reach their channel; MUTE; grey, public and no
press; anonymous games, where no mail carries another player's address or name; the bounds; publishing after the end.

usage: press.py NGOMA WORK
Prints what it checked; exits 1 with the failures.
"""
import email
import email.policy
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

NGOMA, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
DB = os.path.join(WORK, "ngoma.db")
OUTBOX = os.path.join(WORK, "outbox")
ENV = dict(os.environ, NGOMA_DB=DB)
ENV.pop("NGOMA_NOW", None)
fails = []
checks = [0]
sent = [0]
parsed = {}
stats = {"games": 0, "messages": 0, "mails": 0}


def check(cond, what):
    checks[0] += 1
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def ngoma(*args, stdin=None, ok=True):
    r = subprocess.run([NGOMA] + list(args), input=stdin, capture_output=True, env=ENV, timeout=120)
    if ok and r.returncode != 0:
        sys.exit("ngoma %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.decode(errors="replace")))
    return r.stdout.decode(errors="replace")


def mails():
    """Every mail in the outbox, oldest first: (name, message)."""
    for path in sorted(glob.glob(os.path.join(OUTBOX, "*.eml"))):
        if path not in parsed:
            with open(path, "rb") as f:
                parsed[path] = email.message_from_binary_file(f, policy=email.policy.default)
    return sorted(parsed.items())


def tag(msg):
    return dict(kv.strip().split("=", 1) for kv in str(msg.get("X-Ngoma", "")).split(";") if "=" in kv)


def text_of(msg):
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part else ""


def whole(msg):
    """Every byte a recipient gets: headers and every part, decoded."""
    out = [str(k) + ": " + str(v) for k, v in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            out.append(part.get_content())
    return "\n".join(out)


def to_addr(msg):
    return msg["To"].addresses[0].addr_spec.lower()


def new_mails(since):
    return [(p, m) for p, m in mails() if p > since]


def last_name():
    m = mails()
    return m[-1][0] if m else ""


def send(frm, to, subject, body, extra="", mime=None):
    """A player's mail through ngoma receive --wait."""
    sent[0] += 1
    head = "From: %s\nTo: %s\nSubject: %s\nMessage-ID: <press-%d@players.example>\nDate: Tue, 01 Dec 2026 10:00:00 +0000\n%s" % (
        frm, to, subject, sent[0], extra)
    if mime is None:
        mail = head + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" + body + "\n"
    else:
        mail = head + mime
    r = subprocess.run([NGOMA, "receive", "--wait"], input=mail.encode(), capture_output=True, env=ENV, timeout=120)
    return r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")


def reply(msg, frm, body):
    """A plain Reply: to its Reply-To, the original quoted under it."""
    quoted = "\n".join("> " + l for l in text_of(msg).splitlines())
    return send(frm, str(msg["Reply-To"].addresses[0].addr_spec), "Re: " + str(msg["Subject"]),
                body + "\n\nOn Tue, 1 Dec 2026, ngoma wrote:\n" + quoted,
                "In-Reply-To: %s\n" % msg["Message-ID"])


class Game:
    def __init__(self, module, n, options=(), names=None, addrs=None):
        self.names = names or ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"][:n]
        self.addrs = addrs or ["%s@players.example" % x.lower() for x in self.names]
        args = ["new", module]
        for o in options:
            args += ["--option", o]
        for nm, a in zip(self.names, self.addrs):
            args += ["--player", "%s=%s" % (nm, a)]
        self.id = int(ngoma(*args).strip().splitlines()[-1])
        ngoma("send")
        c = sqlite3.connect(DB)
        rows = c.execute("SELECT seat, name, secret, coalesce(real_name, name), email FROM seats WHERE game_id = ?"
                         " ORDER BY seat", (self.id,)).fetchall()
        c.close()
        self.shown = [r[1] for r in rows]     # the names the game shows (titles when anonymous)
        self.secrets = [r[2] for r in rows]
        # An anonymous game seats its players in an order of its own.
        given = dict(zip(self.names, self.addrs))
        self.names = [r[3] for r in rows]
        self.addrs = [given.get(r[3], r[4]) for r in rows]
        self.n = n
        stats["games"] += 1

    def addr(self, s):
        return "ngoma+%d-%d-%s@example.org" % (self.id, s + 1, self.secrets[s])

    def mail(self, s, body, **kw):
        return send(self.addrs[s], self.addr(s), "Re: [ngoma %d] game" % self.id, body, **kw)

    def received(self, since):
        """The new mails of this game: {seat: [messages]}."""
        out = {}
        for p, m in new_mails(since):
            t = tag(m)
            if t.get("game") == str(self.id) and t.get("seat", "0") != "0":
                out.setdefault(int(t["seat"]) - 1, []).append(m)
        return out


def exactly(game, since, marker, want, what):
    """marker reached exactly the seats of want, each in one press mail,
    and no other mail of the whole outbox."""
    got = game.received(since)
    for s in range(game.n):
        press = [m for m in got.get(s, []) if tag(m).get("kind") == "press" and marker in text_of(m)]
        if s in want:
            check(len(press) == 1, "%s: seat %d got %d press mails with %s" % (what, s + 1, len(press), marker))
            for m in press:
                stats["mails"] += 1
                check(all(len(l) <= 72 for l in text_of(m).splitlines()), "%s: a line over 72 columns" % what)
                check(re.search(r"-[pg]\d+@", str(m["Reply-To"])) is not None, "%s: no channel Reply-To" % what)
                check(to_addr(m) == game.addrs[s], "%s: press to seat %d went to %s" % (what, s + 1, to_addr(m)))
    for p, m in mails():
        t = tag(m)
        if marker in whole(m):
            seat = int(t.get("seat", "0")) - 1
            check(t.get("game") == str(game.id) and (seat in want or (t.get("kind") != "press" and seat == sender_of(
                marker))), "%s: %s reached %s (%s)" % (what, marker, to_addr(m), t))
    stats["messages"] += 1


senders = {}


def sender_of(marker):
    return senders.get(marker, -2)


def press(game, s, to_line, marker, extra_body="", channel_msg=None):
    """Seat s sends press with a unique marker: PRESS TO to_line, or a
    reply to channel_msg."""
    senders[marker] = s
    if channel_msg is not None:
        return reply(channel_msg, game.addrs[s], "%s is my answer.%s" % (marker, extra_body))
    return game.mail(s, "PRESS TO %s\nA word about %s.%s\nEND PRESS" % (to_line, marker, extra_body))


def press_mail(game, since, seat, marker):
    for m in game.received(since).get(seat, []):
        if tag(m).get("kind") == "press" and marker in text_of(m):
            return m
    return None


def observer_sees_none(game, markers, what):
    views = ngoma("show", str(game.id)) + ngoma("show", str(game.id), "--json") + ngoma("export", str(game.id))
    # One site, written again each time: every page anew, each step's
    # picture drawn once (a step never changes what it shows).
    site = os.path.join(WORK, "site")
    ngoma("site", site)
    for f in glob.glob(os.path.join(site, "**", "*"), recursive=True):
        if os.path.isfile(f) and not f.endswith(".png"):
            views += open(f, errors="replace").read()
    for mk in markers:
        check(mk not in views, "%s: %s in an observer's view, the export or the site" % (what, mk))


def history_of(game, s):
    since = last_name()
    game.mail(s, "HISTORY")
    got = [m for m in game.received(since).get(s, []) if tag(m).get("kind") != "press"]
    return text_of(got[-1]) if got else ""


ngoma("init")


# The bots of these games play at once: the strong one has tests of its own.


ngoma("config", "bot_level", "easy")
ngoma("config", "from", "ngoma@example.org")
ngoma("config", "outbox_dir", OUTBOX)

# ---- every kind: messages reach exactly their recipients ----------------------------------------------------
kinds = [("bumuntu", 5), ("bantu", 4), ("kalimambo", 6), ("african-empires", 6), ("kuniumi", 2)]
for module, n in kinds:
    g = Game(module, n)
    what = "%s game %d" % (module, g.id)
    markers = []
    if n >= 4:
        since = last_name()
        mk = "MK%da" % g.id
        out = press(g, 0, "%s and %s" % (g.names[1], g.names[2]), mk)
        check("press sent" in out, "%s: receive said %r" % (what, out))
        exactly(g, since, mk, {1, 2}, what + " PRESS TO two")
        check(not g.received(since).get(0), "%s: the sender got an answer to press that went to all" % what)
        first = press_mail(g, since, 1, mk)
        markers.append(mk)
        check(first is not None and ("Press from %s to you and %s" % (g.names[0], g.names[2])) in text_of(first),
              "%s: the press mail's first line: %r" % (what, text_of(first)[:80] if first else None))
        # A plain Reply reaches the same seats.
        since = last_name()
        mk = "MK%db" % g.id
        press(g, 1, None, mk, channel_msg=first)
        exactly(g, since, mk, {0, 2}, what + " reply to a channel")
        markers.append(mk)
        # ALL, and press beside an order line (BOARD) in one mail.
        since = last_name()
        mk = "MK%dc" % g.id
        senders[mk] = 3
        g.mail(3, "BOARD\nPRESS TO ALL: %s to all of you.\n" % mk)
        exactly(g, since, mk, set(range(n)) - {3}, what + " PRESS TO ALL")
        markers.append(mk)
        answer = [m for m in g.received(since).get(3, []) if tag(m).get("kind") != "press"]
        check(len(answer) == 1 and "press to ALL" not in text_of(answer[0]) and "press to" in text_of(answer[0]).split("\n")[0],
              "%s: the answer to BOARD and press: %r" % (what, text_of(answer[0]).split("\n")[0] if answer else None))
        # MUTE by a reply to the channel: Ann's press no longer reaches Cleo.
        since = last_name()
        cleo_mail = None
        for p, m in mails():
            if tag(m).get("game") == str(g.id) and tag(m).get("seat") == "3" and tag(m).get("kind") == "press" \
                    and ("Press from %s" % g.names[0]) in text_of(m):
                cleo_mail = m
        reply(cleo_mail, g.addrs[2], "MUTE %s" % g.names[0])
        conf = [m for m in g.received(since).get(2, []) if tag(m).get("kind") != "press"]
        check(len(conf) == 1 and "muted" in text_of(conf[0]).split("\n")[0],
              "%s: MUTE's answer: %r" % (what, text_of(conf[0])[:100] if conf else None))
        since = last_name()
        mk = "MK%dd" % g.id
        press(g, 0, "%s, %s" % (g.names[2], g.names[1]), mk)
        exactly(g, since, mk, {1}, what + " after MUTE")
        check(not g.received(since).get(0), "%s: the sender was told of a mute" % what)
        markers.append(mk)
        # HISTORY: each seat sees exactly the press she wrote or read.
        for s in range(n):
            h = history_of(g, s)
            mine = {"MK%da" % g.id: {0, 1, 2}, "MK%db" % g.id: {0, 1, 2}, "MK%dc" % g.id: set(range(n)),
                    "MK%dd" % g.id: {0, 1}}
            for mk2, who in mine.items():
                check((mk2 in h) == (s in who), "%s: seat %d's HISTORY %s %s" % (what, s + 1,
                                                                               "lacks" if s in who else "shows", mk2))
            check(("Your press channels" in h) == (s in set().union(*mine.values())), "%s: seat %d's channels" % (what, s + 1))
        # Every seat's BOARD and LEGAL: no press.
        for s in range(n):
            since = last_name()
            g.mail(s, "BOARD\nLEGAL")
            for m in g.received(since).get(s, []):
                for mk2 in markers:
                    check(mk2 not in whole(m), "%s: %s in seat %d's BOARD answer" % (what, mk2, s + 1))
    else:
        since = last_name()
        mk = "MK%da" % g.id
        press(g, 1, g.names[0], mk)
        exactly(g, since, mk, {0}, what + " PRESS TO one")
        markers.append(mk)
        first = press_mail(g, since, 0, mk)
        since = last_name()
        mk = "MK%db" % g.id
        press(g, 0, None, mk, channel_msg=first)
        exactly(g, since, mk, {1}, what + " reply")
        markers.append(mk)
    observer_sees_none(g, markers, what)
    c = sqlite3.connect(DB)
    rows = c.execute("SELECT count(*) FROM press WHERE game_id = ?", (g.id,)).fetchone()[0]
    c.close()
    check(rows == len(markers), "%s: %d press rows for %d messages" % (what, rows, len(markers)))

# ---- refusals: unknown names, an empty message, gunboat, public ---------------------------------------------
g = Game("bantu", 4)
since = last_name()
out = g.mail(0, "PRESS TO Zed\nhello")
ans = g.received(since).get(0, [])
check(ans and "no player of this game is called \"Zed\"" in text_of(ans[-1]) and "Bob, Cleo, Dan" in text_of(ans[-1]),
      "an unknown name: %r" % (text_of(ans[-1])[:300] if ans else out))
since = last_name()
g.mail(0, "PRESS TO Bob\n\nEND PRESS")
ans = g.received(since).get(0, [])
check(ans and "held no message" in text_of(ans[-1]), "an empty message: %r" % (text_of(ans[-1])[:300] if ans else None))
for mode, line, refusal in (("none", "PRESS TO Bob: hello", "press=none"), ("public", "PRESS TO Bob: hello", "PRESS TO ALL")):
    g = Game("bantu", 4, ["press=" + mode])
    since = last_name()
    g.mail(0, line)
    got = g.received(since)
    ans = got.get(0, [])
    check(ans and refusal in text_of(ans[-1]), "press=%s: %r" % (mode, text_of(ans[-1])[:300] if ans else None))
    check(not any(tag(m).get("kind") == "press" for v in got.values() for m in v), "press=%s: press went out" % mode)
    if mode == "public":
        since = last_name()
        mk = "MKpub%d" % g.id
        senders[mk] = 0
        g.mail(0, "PRESS TO ALL: %s" % mk)
        exactly(g, since, mk, {1, 2, 3}, "press=public PRESS TO ALL")

# ---- grey press: no sender --------------------------------------------------------------------------------
g = Game("bumuntu", 4, ["press=grey"], names=["Quorra", "Bob", "Cleo", "Dan"])
since = last_name()
mk = "MKgrey%d" % g.id
press(g, 0, "Bob and Cleo", mk)
exactly(g, since, mk, {1, 2}, "grey press")
for s in (1, 2):
    m = press_mail(g, since, s, mk)
    check(m is not None and "Quorra" not in whole(m) and "quorra@" not in whole(m).lower(),
          "grey press names its sender to seat %d" % (s + 1))
    # Nor the other it reached: with her, all but one seat are named.
    other = "Cleo" if s == 1 else "Bob"
    check(m is not None and other not in text_of(m) and re.search(r"-g\d+@", str(m["Reply-To"])) is not None,
          "grey press to seat %d names its other recipient, or has a channel's Reply-To" % (s + 1))
# Each grey mail has a reply address of its own: no token links two messages.
tokens = {str(press_mail(g, since, s, mk)["Reply-To"]).split("-")[-1] for s in (1, 2)}
check(len(tokens) == 1, "one grey message, one token: %r" % tokens)
h = history_of(g, 1)
section = h.split("Your latest press")[-1].split("\n\n")[0]
check(mk in section and "a player to you" in section and "Quorra" not in section and "Your press channels" not in h,
      "grey press in the recipient's HISTORY: %r" % h[-300:])
first = press_mail(g, since, 1, mk)
since = last_name()
mk2 = "MKgrey%dr" % g.id
press(g, 1, None, mk2, channel_msg=first)
# A reply to a grey message reaches its writer alone, unnamed, by a token of its own.
exactly(g, since, mk2, {0}, "grey press, a reply")
back = press_mail(g, since, 0, mk2)
check(back is not None and "Bob" not in text_of(back) and str(back["Reply-To"]) != str(first["Reply-To"]),
      "the reply to a grey message names its writer, or shares its token")

# ---- bots, seats that left, bounds, attachments, HTML ----------------------------------------------------
g = Game("bantu", 4, names=["Ann", "Bob", "Cleo", "Dan"],
         addrs=["ann@players.example", "bob@players.example", "cleo@players.example", "bot"])
ngoma("order", str(g.id), "Cleo", "RESIGN")
since = last_name()
mk = "MKall%d" % g.id
senders[mk] = 0
g.mail(0, "PRESS TO ALL\n%s" % mk)
got = g.received(since)
check([tag(m).get("kind") for m in got.get(1, [])].count("press") == 1, "PRESS TO ALL with a bot: Bob's mail")
check(not any(mk in whole(m) for s in (2, 3) for m in got.get(s, [])), "press reached a seat that left or a bot")
ans = [m for m in got.get(0, []) if tag(m).get("kind") != "press"]
t = " ".join(text_of(ans[-1]).split()) if ans else ""
check("Cleo has left the game: not sent to Cleo" in t and "A bot plays Dan, and reads no press" in t,
      "notes of who reads no press: %r" % t[:600])
since = last_name()
g.mail(2, "PRESS TO Ann: I am gone, but still here")
got = g.received(since)
check(got.get(2) and "you have left game" in " ".join(text_of(got[2][-1]).split())
      and not any(tag(m).get("kind") == "press" for v in got.values() for m in v),
      "press from a seat that left: %r" % (text_of(got[2][-1])[:200] if got.get(2) else None))
ngoma("config", "press_max_bytes", "300")
since = last_name()
g.mail(0, "PRESS TO Bob\n" + "a long word " * 40)
ans = g.received(since).get(0, [])
check(ans and "press is sent up to 300" in text_of(ans[-1]), "press_max_bytes: %r" % (text_of(ans[-1])[:300] if ans else None))
check(not any(tag(m).get("kind") == "press" for m in g.received(since).get(1, [])), "an over-long message was sent")
ngoma("config", "press_max_bytes", "4000")
ngoma("config", "press_per_hour", "3")
for i in range(3):
    g.mail(1, "PRESS TO Ann: note %d" % i)
since = last_name()
g.mail(1, "PRESS TO Ann: one too many")
ans = g.received(since).get(1, [])
check(ans and "in the last hour" in text_of(ans[-1]), "press_per_hour: %r" % (text_of(ans[-1])[:300] if ans else None))
ngoma("config", "press_per_hour", "30")
since = last_name()
mk = "MKatt%d" % g.id
mime = ('MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b1"\n\n--b1\nContent-Type: text/plain\n\n'
        'PRESS TO Bob: %s with a file\n--b1\nContent-Type: application/octet-stream\nContent-Disposition: attachment;'
        ' filename="x.bin"\n\nAAAA\n--b1--\n' % mk)
send(g.addrs[0], g.addr(0), "press with a file", "", mime=mime)
m = press_mail(g, since, 1, mk)
check(m is not None and "attachment of the mail was left out" in text_of(m) and "AAAA" not in whole(m),
      "an attachment: %r" % (text_of(m)[:300] if m else None))
check(len(list(m.iter_attachments())) == 0 if m else False, "an attachment went with the press")
since = last_name()
mk = "MKhtml%d" % g.id
mime = ('MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n<html><body><p>PRESS TO Bob</p><p><b>%s</b>'
        ' <script>alert(1)</script>in bold</p></body></html>\n' % mk)
send(g.addrs[0], g.addr(0), "html press", "", mime=mime)
m = press_mail(g, since, 1, mk)
check(m is not None and "<b>" not in text_of(m) and "<script" not in whole(m), "HTML press is read as text: %r" %
      (text_of(m)[:300] if m else None))
# A channel address with another seat's secret, or one not hers, is no way in.
since = last_name()
bogus = "ngoma+%d-1-%s-p99999@example.org" % (g.id, g.secrets[0])
send(g.addrs[0], bogus, "Re: press", "Who reads this?")
got = g.received(since)
check(not any(tag(m).get("kind") == "press" for v in got.values() for m in v), "press to an unknown channel went out")
check(got.get(0) and "no press channel of yours" in text_of(got[0][-1]), "an unknown channel's answer")

# ---- the host's `ngoma order` for a seat takes press as a mail does ------------------------------------------
g = Game("bantu", 3)
since = last_name()
mk = "MKcli%d" % g.id
senders[mk] = 0
out = ngoma("order", str(g.id), "Ann", "PRESS TO Bob: %s" % mk)
ngoma("send")
check("press to Bob sent" in out, "ngoma order with press: %r" % out[:200])
exactly(g, since, mk, {1}, "press by ngoma order")

# ---- an anonymous game: no mail carries another player's address or name -------------------------------------
real = ["Xandrilla", "Quintavius", "Morwenna", "Zebulon", "Ottoline"]
addrs = ["xandrilla.k@far.example", "quintavius@near.example", "morwenna.p@mid.example", "zeb@lo.example",
         "otto.line@hi.example"]
g = Game("african-empires", 5, ["anonymous=yes"], names=real, addrs=addrs)
check(g.shown == ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"], "anonymous titles: %r" % g.shown)
check(sorted(g.names) == sorted(real), "anonymous: every player seated: %r" % g.names)
real, addrs = g.names, g.addrs  # in seat order, drawn from the seed
since = last_name()
mk = "MKanon%d" % g.id
senders[mk] = 0
g.mail(0, "PRESS TO Beta and Gamma\n%s\n\nthanks" % mk)
exactly(g, since, mk, {1, 2}, "anonymous press")
first = press_mail(g, since, 1, mk)
check(first is not None and "Press from Alpha to you and Gamma" in text_of(first), "anonymous press signed by title")
reply(first, addrs[1], "MKanon%dr agreed" % g.id)
# A few orders, then every seat agrees a draw: the game ends.
for s in range(5):
    g.mail(s, "LEGAL")
for s in range(5):
    g.mail(s, "DRAW")
REVEAL = "The game was anonymous; now it is over"
over = [m for p, m in mails() if tag(m).get("game") == str(g.id) and REVEAL in " ".join(text_of(m).split())]
check(len(over) == 5, "the anonymous game ended by a draw: %d mails say who was who" % len(over))
for p, m in mails():
    t = tag(m)
    if t.get("game") != str(g.id) or t.get("seat", "0") == "0":
        continue
    s = int(t["seat"]) - 1
    w = whole(m).lower()
    for o in range(5):
        if o == s:
            continue
        check(addrs[o].lower() not in w, "anonymous: seat %d's %s mail carries %s" % (s + 1, t.get("kind"), addrs[o]))
        if REVEAL not in " ".join(text_of(m).split()):
            check(real[o].lower() not in w, "anonymous: seat %d's %s mail names %s" % (s + 1, t.get("kind"), real[o]))
for m in over:
    check(all(("%s was %s" % (g.shown[o], real[o])) in text_of(m).replace("\n", " ") for o in range(5)),
          "the game-over mail says who was who: %r" % text_of(m)[:500])
# Published once over, with press_after=public; never before.
observer_sees_none(g, [mk], "anonymous game, press_after private")
ngoma("config", "press_after", "public")
rec = json.loads(ngoma("export", str(g.id)))
check(any(mk in p["text"] and p["from"] == "Alpha" for p in rec.get("press", [])), "press_after=public: the export")
with open(os.path.join(WORK, "record.json"), "w") as f:
    json.dump(rec, f)
r = subprocess.run([NGOMA, "verify", "--file", os.path.join(WORK, "record.json")], capture_output=True, env=ENV, timeout=120)
check(r.returncode == 0, "verify --file of a record with press: %s" % r.stdout.decode(errors="replace")[-300:])
site = os.path.join(WORK, "site")
ngoma("site", site)
page = open(os.path.join(site, "game-%d.html" % g.id), errors="replace").read()
check(mk in page, "press_after=public: the site's game page")
check("Alpha was %s" % real[0] in page, "the site's page of a finished anonymous game says who was who")
# A running anonymous game: no site page names who plays it.
hidden = Game("bumuntu", 3, ["anonymous=yes"], names=["Wilhelmina", "Bartholomew", "Cornelius"],
              addrs=["wil@sec.example", "bart@sec.example", "corn@sec.example"])
hidden.mail(0, "PRESS TO Beta: hello")
ngoma("site", site)
for f in glob.glob(os.path.join(site, "**", "*"), recursive=True):
    if os.path.isfile(f) and not f.endswith(".png"):
        text = open(f, errors="replace").read()
        for who in hidden.names + hidden.addrs:
            check(who not in text, "a running anonymous game: %s on the site (%s)" % (who, os.path.basename(f)))
running = Game("bantu", 4)
mk = "MKrun%d" % running.id
senders[mk] = 0
running.mail(0, "PRESS TO ALL: %s" % mk)
observer_sees_none(running, [mk], "a running game, press_after public")
ngoma("config", "press_after", "private")

c = sqlite3.connect(DB)
total = c.execute("SELECT count(*) FROM press").fetchone()[0]
checked = len(mails())
c.close()
print("press.py: %d games, %d messages followed, %d press mails checked line by line, %d press rows, %d mails read"
      % (stats["games"], stats["messages"], stats["mails"], total, checked))
print("press.py: %d checks, %d failed" % (checks[0], len(fails)))
sys.exit(1 if fails else 0)
