#!/bin/sh
# busy.sh: no one buys the host's time: a deadline's lateness and an order mail's answer with and without strong-bot games waiting, a strong move's iterations on a quiet and a busy core, and LMTP's answers a second against fetch's with the cores kept busy, each as a ratio within one run.
# usage: busy.sh NGOMA BENCH_NGOMA DIR [quick]
set -eu
NGOMA=$1 BENCH=$2 DIR=$3 QUICK=${4:-}
rm -rf "$DIR/busy" && mkdir -p "$DIR/busy"
/usr/bin/python3 - "$NGOMA" "$BENCH" "$DIR/busy" "$QUICK" "$(cd "$(dirname "$0")" && pwd)" <<'PY'
import os, statistics, subprocess, sys, threading, time
sys.path.insert(0, sys.argv[5])
import serving
ngoma, bench, d = sys.argv[1], sys.argv[2], sys.argv[3]
quick = sys.argv[4] == "quick"
# The sizes: the quick run (make check) only proves the benchmark runs and
# gates nothing on time; make bench gates on the ratios.
PENDING, BOT_MS, DEADLINES, ANSWERS, MOVES, MAIL_GAMES, PER = \
    (5, 200, 2, 5, 5, 12, 5) if quick else (20, 1000, 4, 12, 30, 60, 10)
# A deadline's length: the quick run waits out 1 s, not 3, four times.
DEADLINE_S = 1 if quick else 3


def run(*args, env):
    return serving.run("busy.sh", *args, env=env)


def serve(env, port, log):
    return serving.serve("busy.sh", ngoma, env, port, log)


q, free_port, stop = serving.q, serving.free_port, serving.stop


def spinners(n):
    """n processes that keep a core each busy, at normal priority."""
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(n)]


def halt(ps):
    for p in ps:
        p.kill()
        p.wait()


def fresh(name, extra=()):
    db = os.path.join(d, name + ".db")
    env = dict(os.environ, NGOMA_DB=db)
    env.pop("NGOMA_NOW", None)
    run(ngoma, "init", env=env)
    run(ngoma, "config", "outbox_dir", os.path.join(d, name + "-out"), env=env)
    for k, v in extra:
        run(ngoma, "config", k, v, env=env)
    return db, env


# ---- 1. deadlines and answers, with and without strong-bot games waiting ------------------------------
def order_mail(db, env, game, n):
    """Path of a mail with the order of the seat game A waits for."""
    for seat, who in ((1, "Ann"), (2, "Bob")):
        legal = run(ngoma, "legal", str(game), who, env=env).split("\n")[0].strip()
        if legal and not legal.lower().startswith("no "):
            secret = q(db, "SELECT secret FROM seats WHERE game_id = ? AND seat = ?", game, seat)[0][0]
            path = os.path.join(d, "order-%d-%d.eml" % (game, n))
            mid = "busy-%d-%d-%d@example.org" % (game, n, os.getpid())
            open(path, "w").write("From: %s <%s@example.org>\r\nTo: <ngoma+%d-%d-%s@localhost>\r\nSubject: Re: [ngoma %d]"
                                  " your turn\r\nMessage-ID: <%s>\r\n\r\n%s\r\n" % (who, who.lower(), game, seat, secret,
                                                                                game, mid, legal))
            return path, mid
    sys.exit("busy.sh: game %d waits for nobody" % game)


def phase(name, pending):
    db, env = fresh(name, (("images", "no"), ("bot_ms", str(BOT_MS)), ("bot_share", "50")))
    ans = int(run(ngoma, "new", "kuniumi", "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org",
                  env=env).strip())
    if pending:
        run(bench, "pending", db, str(PENDING), env=env)
    port = free_port()
    srv = serve(env, port, open(os.path.join(d, name + "-serve.log"), "w"))
    # Made with the server running: its bots child plays the strong bots
    # (a command leaves them to it), and the first deadline is timed from
    # the step's start as the game keeps it.
    dl = int(run(ngoma, "new", "kuniumi", "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org",
                 "--deadline", "%ds" % DEADLINE_S, "--nmr", "bot:easy", env=env).strip())
    answers, failed = [], []

    def answer_loop():
        try:
            answer_mails()
        except BaseException as e:
            failed.append(str(e))

    def answer_mails():
        for n in range(ANSWERS):
            path, mid = order_mail(db, env, ans, n)
            t = time.perf_counter()
            run(bench, "lmtp-one", str(port), path, env=env)
            for _ in range(3000):
                if q(db, "SELECT count(*) FROM outbox o JOIN messages m ON m.id = o.in_reply_to WHERE"
                         " m.message_id = ? AND o.status = 'sent'", mid)[0][0]:
                    break
                time.sleep(0.005)
            else:
                sys.exit("busy.sh: no answer to %s" % mid)
            answers.append(time.perf_counter() - t)
            time.sleep(0.2)

    th = threading.Thread(target=answer_loop)
    th.start()
    late = []
    turn = q(db, "SELECT turn FROM games WHERE id = ?", dl)[0][0]
    while len(late) < DEADLINES:
        due = q(db, "SELECT unixepoch(step_started_at) FROM games WHERE id = ?", dl)[0][0] + DEADLINE_S
        limit = time.time() + DEADLINE_S + 30
        while q(db, "SELECT turn FROM games WHERE id = ?", dl)[0][0] == turn:
            if time.time() > limit:
                sys.exit("busy.sh: the deadline of game %d never fired (%s)" % (dl, name))
            time.sleep(0.01)
        late.append(time.time() - due)
        if os.environ.get("BUSY_DEBUG"):
            print("deadline due %d, seen %.2f" % (due, time.time()), file=sys.stderr)
        turn = q(db, "SELECT turn FROM games WHERE id = ?", dl)[0][0]
    th.join()
    if failed:
        sys.exit(failed[0])
    waiting = q(db, "SELECT count(DISTINCT s.game_id) FROM seats s JOIN games g ON g.id = s.game_id WHERE"
                    " s.bot_level = 'strong' AND g.status <> 'finished'")[0][0]
    played = q(db, "SELECT count(*) FROM orders WHERE bot_level = 'strong'")[0][0]
    stop(srv)
    return late, answers, waiting, played


late0, ans0, _, _ = phase("quiet", False)
late1, ans1, games1, played1 = phase("bots", True)
med0, med1 = statistics.median(ans0), statistics.median(ans1)
print("%-56s %9s %9s %7s %7s" % ("%d strong-bot games waiting (bot_ms %d, bot_share 50)" % (PENDING, BOT_MS),
                                 "with", "without", "ratio", "target"))
print("%-56s %8.2fs %8.2fs %7s %7s" % ("a deadline's lateness, the worst of %d" % DEADLINES, max(late1), max(late0),
                                        "-", "<= 1 s"))
print("%-56s %7.0fms %7.0fms %7.2f %7s" % ("an order mail's answer sent, median of %d" % ANSWERS, med1 * 1e3,
                                          med0 * 1e3, med1 / med0, "<= 1.5"))
print("%-56s %9d %9s %7s %7s" % ("strong moves played meanwhile", played1, "-", "-", "-"))


# ---- 2. a strong move's iterations on a quiet and a busy core ------------------------------------------
def iterations():
    it, cpu, wall = run(bench, "iterations", "kuniumi", "2", str(MOVES), "100", env=os.environ).split()
    return float(it), float(cpu), float(wall)


quiet = iterations()
spin = spinners(os.cpu_count() or 2)
try:
    busy = iterations()
finally:
    halt(spin)
print("%-56s %9s %9s %7s %7s" % ("a strong move of 100 ms CPU, KuniUmi, %d moves" % MOVES, "busy", "quiet", "ratio",
                                 "target"))
print("%-56s %9.0f %9.0f %7.2f %7s" % ("  iterations a move", busy[0], quiet[0], busy[0] / quiet[0], ">= 0.8"))
print("%-56s %8.0fms %7.0fms %7.2f %7s" % ("  its wall-clock time (capped at 4 times)", busy[2], quiet[2],
                                          busy[2] / quiet[2], "-"))


# ---- 3. answers a second, LMTP against fetch, both cores kept busy ------------------------------------
base, benv = fresh("many", (("send_on_receive", "no"),))
maildir = os.path.join(d, "Maildir")
for sub in ("new", "cur", "tmp"):
    os.makedirs(os.path.join(maildir, sub))
total = int(run(bench, "genmail", base, maildir, str(MAIL_GAMES), str(PER), env=benv))
listing = []
for name in sorted(os.listdir(os.path.join(maildir, "new"))):
    path = os.path.join(maildir, "new", name)
    head = open(path, errors="replace").read(4096)
    listing.append("%s %s" % (head.split("ngoma+", 1)[1].split("-", 1)[0], path))
list_path = os.path.join(d, "mails.list")
open(list_path, "w").write("\n".join(listing) + "\n")
q(base, "PRAGMA wal_checkpoint(TRUNCATE)")


def copy_db(k):
    db = os.path.join(d, "many-%s.db" % k)
    subprocess.run(["sqlite3", base, ".backup '%s'" % db], check=True)
    env = dict(benv, NGOMA_DB=db)
    run(ngoma, "config", "send_on_receive", "yes", env=env)
    run(ngoma, "config", "images", "yes", env=env)
    run(ngoma, "config", "outbox_dir", os.path.join(d, "many-%s-out" % k), env=env)
    return db, env


def all_sent(db):
    return q(db, "SELECT count(*) FROM outbox WHERE status <> 'sent'")[0][0] == 0


def lmtp_answers():
    db, env = copy_db("lmtp")
    port = free_port()
    srv = serve(env, port, open(os.path.join(d, "many-serve.log"), "w"))
    t = time.perf_counter()
    run(bench, "lmtp-many", str(port), "4", list_path, env=env)
    while not all_sent(db):
        time.sleep(0.01)
    secs = time.perf_counter() - t
    stop(srv)
    return q(db, "SELECT count(*) FROM outbox")[0][0], secs


def fetch_answers():
    import shutil
    db, env = copy_db("fetch")
    box = os.path.join(d, "Maildir-fetch")
    shutil.copytree(maildir, box)
    run(ngoma, "config", "maildir", box, env=env)
    t = time.perf_counter()
    run(ngoma, "fetch", env=env)
    run(ngoma, "send", env=env)
    secs = time.perf_counter() - t
    if not all_sent(db):
        sys.exit("busy.sh: fetch and send left answers unsent")
    return q(db, "SELECT count(*) FROM outbox")[0][0], secs


spin = spinners(os.cpu_count() or 2)
try:
    fa, fs = fetch_answers()
    la, ls = lmtp_answers()
finally:
    halt(spin)
print("%-56s %9s %9s %7s %7s" % ("%d order mails, images on, both cores kept busy" % total, "LMTP", "fetch", "ratio",
                                 "target"))
print("%-56s %9.1f %9.1f %7.2f %7s" % ("answers sent a second (%d and %d answers)" % (la, fa), la / ls, fa / fs,
                                       (la / ls) / (fa / fs), ">= 1"))
with open(os.path.join(d, "ratios"), "w") as f:
    f.write("%.3f %.3f %.3f %.3f\n" % (max(late1), med1 / med0, busy[0] / quiet[0], (la / ls) / (fa / fs)))
PY
[ -n "$QUICK" ] && exit 0
set -- $(cat "$DIR/busy/ratios")
awk -v l="$1" -v a="$2" -v i="$3" -v t="$4" 'BEGIN { exit !(l <= 1 && a <= 1.5 && i >= 0.8 && t >= 1) }' ||
    { echo "busy.sh: a target missed: lateness $1 s (at most 1), answer ratio $2 (at most 1.5), iterations busy/quiet $3 (at least 0.8), LMTP/fetch answers a second $4 (at least 1)" >&2; exit 1; }
