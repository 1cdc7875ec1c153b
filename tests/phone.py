#!/usr/bin/python3
"""phone.py: games of every kind played as players on a phone play them: every order a tap on a mailto: link of the last mail, mailed back through ngoma receive.

usage: phone.py NGOMA WORK OUT
  WORK: a scratch folder (the database, the outbox)
  OUT:  where each kind of mail of each game is written as HTML with its
        pictures (OUT/NAME.html), for tests/phone.sh to open in Chromium;
        OUT/pages.json lists them, OUT/links.json every link they hold.
Then every link of those mails is mailed back to a copy of the database:
each must be taken as an order, or answered as the command it is.
Prints what it did; exits 1 with the reasons when something is wrong.
"""
import email
import email.policy
import glob
import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.parse

NGOMA, WORK, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
DB = os.path.join(WORK, "ngoma.db")
OUTBOX = os.path.join(WORK, "outbox")
ENV = dict(os.environ, NGOMA_DB=DB)
# The common commands' words, in English and in French (Bob reads French).
COMMANDS = ("BOARD", "HISTORY", "LEGAL", "HELP", "DRAW", "CONCEDE",
            "PLATEAU", "HISTORIQUE", "COUPS", "AIDE", "NULLE", "CONCÉDER")
# A plan's tap (IF Bob ... THEN ...): kept, not played now.
PLANS = ("IF", "SI")


def legal_word(b):
    """A LEGAL link with a filter, in either language."""
    return b.startswith("LEGAL ") or b.startswith("COUPS ")
problems = []
sent_n = [0]


def ngoma(*args, stdin=None, env=None, check=True):
    r = subprocess.run([NGOMA] + list(args), input=stdin, capture_output=True, env=env or ENV, timeout=120)
    if check and r.returncode != 0:
        raise SystemExit("ngoma %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.decode(errors="replace")))
    return r


parsed = {}


def mails():
    """Every mail in the outbox: (path, message), oldest first (each read
    once: the dir method never rewrites a sent mail's file)."""
    out = []
    for path in sorted(glob.glob(os.path.join(OUTBOX, "*.eml"))):
        if path not in parsed:
            with open(path, "rb") as f:
                parsed[path] = email.message_from_binary_file(f, policy=email.policy.default)
        out.append((path, parsed[path]))
    return out


def tag(msg):
    """The X-Ngoma header as a dict: game, seat, kind."""
    return dict(kv.strip().split("=", 1) for kv in str(msg.get("X-Ngoma", "")).split(";") if "=" in kv)


def html_of(msg):
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            return part.get_content()
    return None


def links_of(msg):
    """The mailto: links of a mail's HTML part: (to, subject, body)."""
    out = []
    for href in re.findall(r'href="(mailto:[^"]+)"', html_of(msg) or ""):
        u = urllib.parse.urlsplit(html.unescape(href))
        q = urllib.parse.parse_qs(u.query)
        out.append((urllib.parse.unquote(u.path), q.get("subject", [""])[0], q.get("body", [""])[0]))
    return out


def tap(sender, link, db_env=None, signature="Sent from my phone"):
    """Mails a link back as a phone's client does: its To, Subject and
    body, the client's signature under it."""
    to, subject, body = link
    sent_n[0] += 1
    mail = ("From: %s\nTo: %s\nSubject: %s\nMessage-ID: <tap-%d-%d@phone.example>\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=utf-8\n\n%s\n\n-- \n%s\n"
            % (sender, to, subject, os.getpid(), sent_n[0], body, signature))
    r = ngoma("receive", "--wait", stdin=mail.encode(), env=db_env, check=False)
    return r.returncode, r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")


def waiting(game):
    view = json.loads(ngoma("show", str(game), "--json").stdout)
    return view.get("waiting_for", []), view.get("status", "")


def last_to(addr, game, with_orders=True):
    """The newest mail to addr of a game that has order links."""
    for path, msg in reversed(mails()):
        t = tag(msg)
        if str(msg["To"]).find(addr) < 0 or t.get("game") != str(game):
            continue
        if not with_orders:
            return path, msg
        if any((b.split(" ")[0] not in COMMANDS + PLANS) or legal_word(b) for _, _, b in links_of(msg)):
            return path, msg
    return None, None


def play(game, names, emails, rng_seed, steps_max):
    """Plays a game to its end: each waited-for person taps an order of
    her newest mail (a LEGAL link first when that is all it has)."""
    steps = 0
    while steps < steps_max:
        who, _ = waiting(game)
        people = [n for n in who if emails.get(n)]
        if not people:
            ngoma("run")  # bots play on, where the last command stopped
            capture()
            who, _ = waiting(game)
            if not [n for n in who if emails.get(n)]:
                return steps
            continue
        name = people[0]
        addr = emails[name]
        path, msg = last_to(addr, game)
        if not msg:
            problems.append("game %s: %s must act but no mail of hers has an order to tap" % (game, name))
            return steps
        links = [l for l in links_of(msg) if l[2].split(" ")[0] not in COMMANDS + PLANS or legal_word(l[2])]
        orders = [l for l in links if not l[2].startswith("LEGAL") and not l[2].startswith("COUPS")]
        pick = orders[(steps * 7 + rng_seed) % len(orders)] if orders else links[(steps + rng_seed) % len(links)]
        rc, said = tap(addr, pick)
        if rc != 0 or "processed" not in said:
            problems.append("game %s: %s's tap on %r was not taken: %s" % (game, name, pick[2], said.strip()))
            return steps
        send()
        steps += 1
    problems.append("game %s did not end within %d taps" % (game, steps_max))
    return steps


seen_files = set()
captured = {}  # (module, kind, to) -> page name
pages = []
tried = [0]
ids = {}


def capture():
    """The first mail of each kind to each address of each game, as it
    arrives: written out as a page, and each of its links mailed back to a
    copy of the database as it stands then."""
    copy = os.path.join(WORK, "try.db")
    copy_env = dict(ENV, NGOMA_DB=copy)
    for path, msg in mails():
        if path in seen_files:
            continue
        seen_files.add(path)
        t = tag(msg)
        game = int(t.get("game", "0") or 0)
        kind = t.get("kind", "?")
        module = next((m for m, g in ids.items() if g == game), "lobby")
        to = str(msg["To"]).split("<")[-1].rstrip(">")
        key = (module, kind, to)
        if key in captured or kind in ("alert", "host-welcome", "host", "host-gameover"):
            continue
        name = "%s-%s-%s" % (module, kind, to.split("@")[0])
        captured[key] = name
        r = subprocess.run(["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "mailview.py"), path, OUT,
                            name], capture_output=True, timeout=60)
        if r.returncode:
            problems.append("%s: %s" % (name, r.stderr.decode().strip()))
            continue
        text = msg.get_body(preferencelist=("plain",)).get_content()
        links = links_of(msg)
        pages.append({"name": name, "kind": kind, "module": module, "to": to, "lines": text.count("\n"),
                      "first": text.split("\n", 1)[0], "links": len(links)})
        for link in links:
            snapshot(copy)
            rc, said = tap(to, link, db_env=copy_env)
            tried[0] += 1
            ok = rc == 0 and "processed" in said
            word = link[2].split(" ")[0]
            if ok and word not in COMMANDS + ("REMATCH", "LIST", "JOIN", "MYGAMES", "START", "TAKE", "REVANCHE", "LISTE", "REJOINDRE",
                                                "MES", "COMMENCER", "REPRENDRE"):
                # An order: taken (or recorded for a simultaneous step); a
                # plan: kept.
                ok = re.search(r", 0 refused, [1-9]\d* planned" if word in PLANS else r", [1-9]\d* taken",
                               said) is not None
            if not ok:
                why = subprocess.run(["sqlite3", copy, "SELECT reason FROM orders ORDER BY id DESC LIMIT 1"],
                                     capture_output=True).stdout.decode().strip()
                problems.append("%s: the link %r to %s was not taken: %s (%s)" % (name, link[2], link[0],
                                                                                  said.strip(), why))


# What no line ngoma writes may say: a wrong article or plural, a
# setting's name, a host's command, a range of one.
BAD = [(re.compile(r"\ba [AEIOU][a-z]"), "a wrong article"),
       (re.compile(r"\b1 (chips|tiles|tokens|points|cards|players|orders|rounds|turns|steps|mails|lines|seats|ways)\b"),
        "a wrong plural"),
       (re.compile(r"\w\(s\)"), "a plural left open"),
       (re.compile(r"\b(help|refusals|lobby|invites)_per_hour\b|\bmax_(order_lines|reply_bytes|message_size)\b"),
        "a setting's name"),
       (re.compile(r"\bngoma (verify|export|new|order|legal|show|run|config|site|replay)\b"), "a host's command"),
       (re.compile(r"\b(\d+) to \1 players\b"), "a range of one")]


def read_every_line():
    """Every mail the games produced, read as a player reads its text: its
    first line says what it is about, every line within 72 columns, no word
    stranded by a second wrapping, none of BAD."""
    for path, msg in mails():
        text = msg.get_body(preferencelist=("plain",)).get_content()
        lines = text.split("\n")
        name = os.path.basename(path) + " (" + tag(msg).get("kind", "?") + ")"
        if not re.search(r"(game|partie|jogo|mchezo) \d+|lobby|ngoma", lines[0], re.I):
            problems.append("%s: its first line says nothing of what it is: %r" % (name, lines[0]))
        for i, line in enumerate(lines):
            if len(line) > 72:
                problems.append("%s: line %d has %d columns: %r" % (name, i + 1, len(line), line))
            words = line.split()
            if (len(words) == 1 and len(line.strip()) <= 8 and 0 < i < len(lines) - 1 and len(lines[i - 1]) >= 60
                    and lines[i + 1].strip() and words[0][0].islower()):
                problems.append("%s: line %d strands %r" % (name, i + 1, line))
            for pattern, what in BAD:
                if pattern.search(line):
                    problems.append("%s: line %d holds %s: %r" % (name, i + 1, what, line))


def snapshot(copy):
    """A copy of the database as it stands (its WAL included)."""
    shutil.rmtree(copy + ".outbox", ignore_errors=True)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    src, dst = sqlite3.connect(DB), sqlite3.connect(copy)
    src.backup(dst)
    # What the copy sends stays out of the real outbox, and its answers
    # are read for whether the tap was taken, not looked at: no pictures.
    dst.execute("INSERT OR REPLACE INTO settings(key, value) VALUES ('outbox_dir', ?)", (copy + ".outbox",))
    dst.execute("INSERT OR REPLACE INTO settings(key, value) VALUES ('send_on_receive', 'no')")
    dst.execute("INSERT OR REPLACE INTO settings(key, value) VALUES ('images', 'no')")
    dst.commit()
    dst.close()
    src.close()


def send():
    ngoma("send")
    capture()


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    ngoma("init")
    # The bots of these games play at once: the strong one has tests of its own.
    ngoma("config", "bot_level", "easy")
    for k, v in (("from", "ngoma@example.org"), ("outbox_dir", OUTBOX), ("lobby", "open"),
                 ("admin", "admin@example.org"), ("help_per_hour", "1000"), ("refusals_per_hour", "1000"),
                 ("lobby_per_hour", "1000")):
        ngoma("config", k, v)
    games = [("kuniumi", []), ("kalimambo", ["--player", "Cleo=bot"]), ("bumuntu", ["--option", "stall_rounds=3"]),
             ("bantu", ["--option", "short=yes"]), ("african-empires", ["--player", "Cleo=bot"])]
    t0 = time.time()
    for module, extra in games:
        args = ["new", module, "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org:fr",
                "--deadline", "48h", "--remind", "24h"] + extra
        ids[module] = int(ngoma(*args).stdout.decode().strip())
    send()
    emails = {"Ann": "ann@example.org", "Bob": "bob@example.org"}
    # A watcher and the lobby: a stranger asks, confirms, lists and watches.
    lobby = "ngoma@example.org"
    tap("zed@example.org", (lobby, "games?", "HELP"))
    send()
    _, msg = last_to("zed@example.org", 0, with_orders=False)
    token = re.search(r"confirm (\w+)", str(msg["Subject"])) if msg else None
    if token:
        tap("zed@example.org", (lobby, "Re: " + str(msg["Subject"]), "LIST\nWATCH %d" % ids["kalimambo"]))
    else:
        problems.append("the lobby sent no confirmation to a stranger")
    send()
    # A refused order, a mail without a secret, a reminder, then the games.
    for module in ids:
        _, msg = last_to("ann@example.org", ids[module], with_orders=False)
        tap("ann@example.org", (str(msg["Reply-To"]).split("<")[-1].rstrip(">"), "Re: " + str(msg["Subject"]),
                                "MOVE nowhere"))
    tap("bob@example.org", ("ngoma+%d@example.org" % ids["kuniumi"], "my move", "MOVE a1"))
    ngoma("--now", "@%d" % (int(time.time()) + 25 * 3600), "run")
    capture()
    taps = {}
    for n, (module, _) in enumerate(games):
        taps[module] = play(ids[module], ["Ann", "Bob"], emails, n + 1, 600)
        send()
    capture()
    with open(os.path.join(OUT, "pages.json"), "w") as f:
        json.dump(pages, f, indent=1)
    read_every_line()
    summary = {"pages": len(pages), "links_mailed_back": tried[0], "taps": taps, "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump(summary, f)
    print("phone.py: %d mails as pages, %d links mailed back, taps per game %s, %.1f s"
          % (len(pages), tried[0], taps, time.time() - t0))
    if problems:
        print("\n".join("PROBLEM: " + p for p in problems[:40]))
        sys.exit(1)


main()
