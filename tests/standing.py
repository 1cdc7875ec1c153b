#!/usr/bin/python3
"""standing.py: a season of 30 games among 6 people by the CLI, ended by DRAW, CONCEDE and RESIGN in every game; the
final ratings and reliability checked against a Plackett-Luce computation of this file's own; a missed deadline and a
vacation; a game with a bot; a pending secret card that stays secret after a draw."""
import email, math, os, random, re, sqlite3, subprocess, sys

NGOMA, DB = sys.argv[1], sys.argv[2]
env = dict(os.environ, NGOMA_DB=DB)
fails = checks = 0


def ngoma(*args, ok=True, now=None, filler=False):
    e = dict(env)
    if now is not None:
        e["NGOMA_NOW"] = "@%d" % now
    # The season's random orders (some 900 legal and order commands) are
    # filler: under the sanitizers they skip the leak check at exit, which
    # costs more than the command (every other call, and these commands in
    # cli.sh, keep it; ASan and UBSan still watch them all).
    if filler and "ASAN_OPTIONS" in e:
        e["ASAN_OPTIONS"] += ":detect_leaks=0"
    p = subprocess.run([NGOMA, *args], env=e, capture_output=True, text=True, timeout=60)
    if ok and p.returncode != 0:
        check(False, "ngoma %s: %s %s" % (" ".join(args), p.stdout, p.stderr))
    return p.stdout


def check(cond, what):
    global fails, checks
    checks += 1
    if not cond:
        fails += 1
        print("FAIL:", what)


# The model, written again here from Weng and Lin (2011), Algorithm 4, with
# OpenSkill 5's defaults: one player a team.
MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 0.0001, 25.0 / 300


def rate(players, ranks):
    players = [(m, math.sqrt(s * s + TAU * TAU)) for m, s in players]
    c = math.sqrt(sum(s * s + BETA * BETA for _, s in players))
    n = len(players)
    sumq = [sum(math.exp(players[i][0] / c) for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i, (m, s) in enumerate(players):
        om = de = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = math.exp(m / c) / sumq[q]
                de += p * (1 - p) / a[q]
                om += ((1 if q == i else 0) - p) / a[q]
        var = s * s
        om *= var / c
        de *= var / (c * c) * (s / c)
        out.append((m + om, s * math.sqrt(max(1 - de, KAPPA))))
    return out


ngoma("init")


def play_own(game, players, pick, n=3):
    """Each of players gives n orders of her own (legal ones, at random):
    a game counts for the ratings only then. Returns the orders each gave."""
    own = {p: 0 for p in players}
    who = list(players)  # whom to ask: all, until an answer names who is waited for
    for _ in range(200):
        if min(own.values()) >= n:
            break
        asked_now, who = who, list(players)
        for p in asked_now:
            legal = [l for l in ngoma("legal", game, p, filler=True).split("\n") if l.strip()]
            if legal:
                said = ngoma("order", game, p, legal[pick.randrange(len(legal))], filler=True)
                own[p] += 1
                # "Waiting for P2 and P3.": ask them next, and nobody else.
                m = re.search(r"Waiting for ([^.\n]*)\.", said)
                waited = [w for w in re.split(r", | and ", m.group(1)) if w in own] if m else []
                who = waited or list(players)
                break
    check(min(own.values()) >= n, "game %s: not every seat gave %d orders: %r" % (game, n, own))
    return own


# The bots of these games play at once: the strong one has tests of its own.


ngoma("config", "bot_level", "easy")
people = ["p%d@example.org" % i for i in range(1, 7)]
names = {p: "P%d" % (i + 1) for i, p in enumerate(people)}
seats = {"kuniumi": (2, 2), "kalimambo": (2, 5), "bantu": (2, 4), "bumuntu": (2, 5), "african-empires": (3, 6)}
modules = list(seats)
rnd = random.Random(2026)
ratings = {}
left = {p: 0 for p in people}
asked = {p: 0 for p in people}
ended = {m: {"draw": 0, "concede": 0} for m in modules}
for k in range(30):
    module = modules[k % len(modules)]
    lo, hi = seats[module]
    table = rnd.sample(people, rnd.randint(lo, min(hi, 6)))
    args = ["new", module, "--seed", str(7000 + k)]
    for p in table:
        args += ["--player", "%s=%s" % (names[p], p)]
    out = ngoma(*args)
    game = out.strip().splitlines()[-1].strip()
    still = list(table)
    # Every seat gives three orders of its own first: a game counts for
    # the ratings only then.
    own = play_own(game, [names[p] for p in table], random.Random(k))  # apart from rnd: the season as before
    own = {p: own[names[p]] for p in table}
    for p in table:
        asked[p] += own[p]
    # Now and then one leaves first (with three or more seats).
    if len(still) >= 3 and rnd.random() < 0.4:
        gone = still.pop(rnd.randrange(len(still)))
        ngoma("order", game, names[gone], "RESIGN")
        left[gone] += 1
    how = "draw" if rnd.random() < 0.5 else "concede"
    if how == "draw":
        for p in still:
            ngoma("order", game, names[p], "DRAW")
        winners = set(still)
    else:
        winner = rnd.choice(still)
        for p in still:
            if p != winner:
                ngoma("order", game, names[p], "CONCEDE")
        winners = {winner}
    ended[module][how] += 1
    status = ngoma("show", game)
    check("over" in status.splitlines()[0], "game %s (%s) is not over after its %s" % (game, module, how))
    check(ngoma("replay", game).find("replay exactly") >= 0, "game %s does not replay" % game)
    ranks = [1 if p in winners else (2 if p in still else 3) for p in table]
    got = rate([ratings.get((p, module), (MU, SIGMA))[:2] for p in table], ranks)
    for p, r in zip(table, got):
        ratings[(p, module)] = (r[0], r[1], ratings.get((p, module), (0, 0, 0))[2] + 1)
for m in modules:
    check(ended[m]["draw"] and ended[m]["concede"], "%s: not both a draw and a concession in the season" % m)

con = sqlite3.connect(DB)
ngoma("ratings", "kuniumi")  # the CLI takes any game not yet rated
rows = {(a, m): (mu, s, g) for a, m, mu, s, o, g in con.execute("SELECT address, module, mu, sigma, mu - 3 * sigma, games FROM player_ratings")}
check(len(rows) == len(ratings), "%d ratings stored, %d expected" % (len(rows), len(ratings)))
worst = 0.0
for key, (mu, s, g) in ratings.items():
    got = rows.get(key)
    if not got:
        check(False, "no rating for %s in %s" % key)
        continue
    worst = max(worst, abs(got[0] - mu), abs(got[1] - s))
    check(got[2] == g, "%s in %s: %d games, %d expected" % (key[0], key[1], got[2], g))
check(worst < 1e-9, "ratings differ from the independent computation by %g" % worst)
for p in people:
    r = con.execute("SELECT asked, missed, left, abandoned, score FROM people_reliability WHERE address = ?", (p,)).fetchone()
    check(r == (asked[p], 0, left[p], 0, 100), "%s: reliability %s, expected (%d, 0, %d, 0, 100)" % (
        p, r, asked[p], left[p]))

# A missed deadline lowers reliability; a vacation taken in time does not.
t0 = 1893456000
out = ngoma("new", "kuniumi", "--player", "Gil=gil@example.org", "--player", "Hal=hal@example.org",
            "--deadline", "1h", "--nmr", "bot", now=t0)
game = out.strip().splitlines()[-1].strip()
who = {"Gil": "gil@example.org", "Hal": "hal@example.org"}
expect = {a: [0, 0] for a in who.values()}


def waited(now):
    for n in who:
        if ngoma("legal", game, n, now=now, ok=False).strip():
            return n


x = waited(t0 + 60)
ngoma("order", game, x, ngoma("legal", game, x, now=t0 + 60).splitlines()[0], now=t0 + 60)
expect[who[x]][0] += 1
y = waited(t0 + 120)
ngoma("run", now=t0 + 2 * 3600)   # y misses the deadline: a bot plays for y
expect[who[y]][0] += 1
expect[who[y]][1] += 1
z = waited(t0 + 2 * 3600 + 60)
ngoma("order", game, z, "VACATION 7d", now=t0 + 2 * 3600 + 60)
ngoma("run", now=t0 + 5 * 3600)   # z is away in time: the game waits
for n, a in who.items():
    asked, missed = expect[a]
    score = max(0, min(100, round(100 - (200.0 * missed / asked if asked else 0))))
    got = con.execute("SELECT asked, missed, score FROM people_reliability WHERE address = ?", (a,)).fetchone()
    check(got == (asked, missed, score), "%s: reliability %s, expected %s" % (n, got, (asked, missed, score)))
check(con.execute("SELECT count(*) FROM orders WHERE source = 'nmr'").fetchone()[0] == 1,
      "a vacation taken in time still counted a missed deadline")

# A bot is never rated; a human's DRAW asks it.
out = ngoma("new", "bantu", "--player", "P1=p1@example.org", "--player", "Robo=bot", "--player", "P2=p2@example.org")
game = out.strip().splitlines()[-1].strip()
play_own(game, ["P1", "P2"], random.Random(99))
ngoma("order", game, "P1", "DRAW")
ngoma("order", game, "P2", "DRAW")
if "over" not in ngoma("show", game).splitlines()[0]:
    ngoma("order", game, "P1", "CONCEDE")
    ngoma("order", game, "P2", "CONCEDE")
check("over" in ngoma("show", game).splitlines()[0], "the game with a bot did not end")
ngoma("ratings", "bantu")
rated = [a for (a,) in con.execute("SELECT address FROM rating_changes WHERE game_id = ?", (int(game),))]
check(sorted(rated) == ["p1@example.org", "p2@example.org"], "the game with a bot rated %s" % rated)

# A pending secret card stays secret when a draw ends the round.
out = ngoma("new", "kalimambo", "--player", "P3=p3@example.org", "--player", "P4=p4@example.org",
            "--player", "P5=p5@example.org")
game = out.strip().splitlines()[-1].strip()
mark = con.execute("SELECT coalesce(max(id), 0) FROM outbox").fetchone()[0]
ngoma("order", game, "P3", "PLAY 7")
ngoma("order", game, "P3", "DRAW")
ngoma("order", game, "P4", "DRAW")
answer = ngoma("order", game, "P5", "DRAW")
check("The players agree to a draw" in answer, "the draw did not pass: " + answer)
seen = [ngoma("export", game), ngoma("history", game), ngoma("show", game)]
for (raw,) in con.execute("SELECT mail FROM outbox WHERE id > ? AND rcpt <> 'p3@example.org'", (mark,)):
    for part in email.message_from_string(raw).walk():
        if part.get_content_maintype() == "text":
            seen.append(part.get_payload(decode=True).decode("utf-8", "replace"))
check(len(seen) > 3, "nobody else was mailed the end of the game")
check(not any("PLAY 7" in s or "played 7" in s for s in seen), "P3's pending card shows after the draw")
check(con.execute("SELECT count(*) FROM votes").fetchone()[0] == 0, "votes outlive their games")

print("standing.py: %d checks, %d failed (30 games among 6 people; worst rating difference %.1e)" % (checks, fails, worst))
sys.exit(1 if fails else 0)
