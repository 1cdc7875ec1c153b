#!/usr/bin/python3
"""serve.py: ngoma serve as an MTA meets it: LMTP on TCP and a unix socket, pipelined, bounded, busy, stopped and HUPed, the clock to the second, and killed with -9 at any moment while mail comes: nothing lost, nothing taken or sent twice.

usage: serve.py NGOMA WORKDIR SMTP_PORT SMTP_MAILDIR
"""
import email
import mailbox
import os
import random
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time

NGOMA, WORK, SMTP_PORT, SMTP_MAILDIR = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
DB = os.path.join(WORK, "ngoma.db")
ENV = dict(os.environ, NGOMA_DB=DB)
ENV.pop("NGOMA_NOW", None)
checks = [0]
fails = []


def check(cond, what):
    checks[0] += 1
    if not cond:
        fails.append(what)
        print("FAIL:", what, flush=True)
    return cond


def ngoma(*args, env=None, check_rc=True, stdin=None):
    r = subprocess.run([NGOMA] + list(args), env=env or ENV, capture_output=True, timeout=120, input=stdin)
    if check_rc and r.returncode:
        raise SystemExit("ngoma %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()))
    return r


def q(sql, *args):
    with sqlite3.connect(DB, timeout=30) as c:
        return c.execute(sql, args).fetchall()


def qi(sql, *args):
    """The inbox, a database beside the main one."""
    if not os.path.exists(DB + ".inbox"):
        return [(0,)]
    with sqlite3.connect(DB + ".inbox", timeout=30) as c:
        return c.execute(sql, args).fetchall()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


PORT = free_port()
SOCK = os.path.join(WORK, "lmtp.sock")
LOG = os.path.join(WORK, "serve.log")


def start(env=None, extra=()):
    log = open(LOG, "a")
    p = subprocess.Popen([NGOMA, "serve", "--listen", "127.0.0.1:%d" % PORT, "--listen", "unix:" + SOCK] + list(extra),
                         env=env or ENV, stdout=log, stderr=log)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", PORT), 0.2).close()
            return p
        except OSError:
            if p.poll() is not None:
                raise SystemExit("ngoma serve exited %d: %s" % (p.returncode, open(LOG).read()[-2000:]))
            time.sleep(0.05)
    raise SystemExit("ngoma serve does not listen")


def stop(p, sig=signal.SIGTERM):
    if p.poll() is None:
        p.send_signal(sig)
    try:
        return p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        return p.wait()


def children_of_db():
    """The ngoma processes of this database still running (orphaned children)."""
    out = subprocess.run(["pgrep", "-f", "ngoma serve --listen 127.0.0.1:%d" % PORT], capture_output=True).stdout
    return [int(x) for x in out.split()]


def wait_for(cond, secs=10, step=0.02):
    end = time.time() + secs
    while time.time() < end:
        if cond():
            return True
        time.sleep(step)
    return cond()


class Session:
    """A raw LMTP client: replies read whole, lines sent as given."""

    def __init__(self, where=None, timeout=10):
        if where is None:
            self.s = socket.create_connection(("127.0.0.1", PORT), timeout)
        else:
            self.s = socket.socket(socket.AF_UNIX)
            self.s.settimeout(timeout)
            self.s.connect(where)
        self.buf = b""

    def reply(self):
        lines = []
        while True:
            while b"\n" not in self.buf:
                got = self.s.recv(65536)
                if not got:
                    return lines or None
                self.buf += got
            line, self.buf = self.buf.split(b"\n", 1)
            line = line.rstrip(b"\r").decode(errors="replace")
            lines.append(line)
            if len(line) < 4 or line[3] != "-":
                return lines

    def code(self):
        r = self.reply()
        return int(r[-1][:3]) if r else None

    def send(self, data):
        self.s.sendall(data if isinstance(data, bytes) else data.encode())

    def hello(self):
        greeting = self.reply()
        self.send("LHLO test.example\r\n")
        return greeting, self.reply()

    def close(self):
        self.s.close()


def stuffed(mail):
    out = []
    for line in mail.replace("\r\n", "\n").split("\n"):
        out.append(("." + line) if line.startswith(".") else line)
    return "\r\n".join(out) + "\r\n.\r\n"


def transact(sess, rcpts, mail, sender="ann@example.org"):
    """MAIL, RCPT..., DATA pipelined, then the mail: (replies to the
    commands, the replies after the data)."""
    cmds = "MAIL FROM:<%s>\r\n" % sender + "".join("RCPT TO:<%s>\r\n" % r for r in rcpts) + "DATA\r\n"
    sess.send(cmds)
    first = [sess.code() for _ in range(len(rcpts) + 2)]
    if first[-1] != 354:
        return first, []
    sess.send(stuffed(mail))
    return first, [sess.code() for _ in range(sum(1 for c in first[1:-1] if c == 250))]


n_mail = [0]


def order_mail(game, seat, secret, text, frm="ann@example.org"):
    n_mail[0] += 1
    mid = "serve-%d-%d@example.org" % (os.getpid(), n_mail[0])
    return mid, ("From: Player <%s>\nTo: ngoma+%s-%s-%s@localhost\nSubject: Re: [ngoma %s] your turn\n"
                 "Message-ID: <%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n%s\n"
                 % (frm, game, seat, secret, game, mid, text))


def new_game(module="kuniumi", extra=()):
    g = ngoma("new", module, "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org", *extra)
    return int(g.stdout.decode().strip())


def secret(game, seat):
    return q("SELECT secret FROM seats WHERE game_id = ? AND seat = ?", game, seat)[0][0]


def first_order(game):
    return ngoma("legal", str(game), "Ann").stdout.decode().split("\n")[0].strip()


def processed(mid):
    return q("SELECT count(*) FROM messages WHERE message_id = ? AND status = 'processed'", mid)[0][0]


# ---- setup ----------------------------------------------------------------------------------
ngoma("init")
# The bots of these games play at once: the strong one has tests of its own.
ngoma("config", "bot_level", "easy")
ngoma("config", "outbox_dir", os.path.join(WORK, "outbox"))
OUTBOX = os.path.join(WORK, "outbox")
figures = {}

# ---- the protocol, on both sockets -------------------------------------------------------------
srv = start()
check(stat.S_IMODE(os.stat(SOCK).st_mode) == 0o660, "the unix socket is made with mode 0660")
s = Session()
greeting, lhlo = s.hello()
check(greeting and greeting[0].startswith("220 "), "a 220 greeting: %s" % greeting)
text = "\n".join(lhlo or [])
for ext in ("PIPELINING", "ENHANCEDSTATUSCODES", "SIZE 2097152", "8BITMIME"):
    check(ext in text, "LHLO offers %s: %s" % (ext, text))
# Two games in one pipelined transaction: a reply per recipient after DATA,
# each game its own copy (the recipient's address names it).
g1, g2 = new_game(), new_game()
o1 = first_order(g1)
mid, mail = order_mail(g1, 1, secret(g1, 1), o1)
mail = mail.replace("To: ngoma+%s-1-%s@localhost" % (g1, secret(g1, 1)),
                    "To: ngoma+%s-1-%s@localhost, ngoma+%s-1-%s@localhost" % (g1, secret(g1, 1), g2, secret(g2, 1)))
t0 = time.time()
first, after = transact(s, ["ngoma+%s-1-%s@localhost" % (g1, secret(g1, 1)),
                            "ngoma+%s-1-%s@localhost" % (g2, secret(g2, 1))], mail)
check(first == [250, 250, 250, 354], "MAIL, two RCPTs and DATA pipelined: %s" % first)
check(after == [250, 250], "a reply per recipient after DATA: %s" % after)
check(wait_for(lambda: processed(mid) == 2), "the mail was taken once for each game")
check(q("SELECT turn FROM games WHERE id IN (?, ?) ORDER BY id", g1, g2) == [(1,), (1,)], "both games moved")
# The answers go out at once: no `ngoma send`, no cron.
check(wait_for(lambda: q("SELECT count(*) FROM outbox WHERE in_reply_to IN (SELECT id FROM messages WHERE message_id = ?)"
                         " AND status = 'sent'", mid)[0][0] == 2, 10),
      "the answers were sent by the server's sender")
figures["answer"] = "%.0f ms" % ((time.time() - t0) * 1000)
# Several transactions on one connection, all pipelined in one write.
mids = []
blob = ""
for g in (new_game(), new_game(), new_game()):
    m, text_ = order_mail(g, 1, secret(g, 1), first_order(g))
    mids.append(m)
    blob += "MAIL FROM:<ann@example.org>\r\nRCPT TO:<ngoma+%s-1-%s@localhost>\r\nDATA\r\n" % (g, secret(g, 1))
    blob += stuffed(text_)
s.send(blob + "NOOP\r\n")
codes = [s.code() for _ in range(3 * 4 + 1)]
check(codes == [250, 250, 354, 250] * 3 + [250], "three mails in one write: %s" % codes)
check(wait_for(lambda: all(processed(m) == 1 for m in mids)), "the three mails were taken")
# Wrong commands and bounds.
s.send("RCPT TO:<a@b>\r\n")
check(s.code() == 503, "RCPT before MAIL is 503")
s.send("HELO x\r\n")
check(s.code() == 500, "HELO is 500 (this is LMTP)")
s.send("MAIL FROM:<a@x> SIZE=99999999\r\n")
check(s.code() == 552, "a SIZE over max_message_size is 552 at MAIL")
s.send("MAIL FROM:<a@x>\r\nRCPT TO:<nobody>\r\n")
check([s.code(), s.code()] == [250, 501], "a recipient that is no address is 501")
s.send("RSET\r\nQUIT\r\n")
check([s.code(), s.code()] == [250, 221], "RSET, QUIT")
s.close()
# The unix socket takes mail too.
g = new_game()
u = Session(SOCK)
u.hello()
m, text_ = order_mail(g, 1, secret(g, 1), first_order(g))
first, after = transact(u, ["ngoma+%s-1-%s@localhost" % (g, secret(g, 1))], text_)
check(after == [250] and wait_for(lambda: processed(m) == 1), "a mail by the unix socket: %s %s" % (first, after))
u.close()

# ---- settings read again on SIGHUP: the size limit, idle time, connection cap ------------------------
# First the connection caps, with time enough to idle (no timing here).
ngoma("config", "lmtp_connections", "3")
ngoma("config", "lmtp_connections_per_peer", "2")
srv.send_signal(signal.SIGHUP)
check(wait_for(lambda: "settings read again" in open(LOG).read()), "SIGHUP rereads the settings")
time.sleep(0.3)
p1 = Session()
p1.hello()
time.sleep(1.1)  # p1 is now idle longer than p2 will be
p2 = Session()
p2.hello()
# A third from the same address: past lmtp_connections_per_peer.
p3 = Session()
r = p3.reply()
check(r and r[0].startswith("421") and "from you" in r[0], "a peer's connection past its limit gets 421: %s" % r)
p3.close()
# Another peer (the unix socket's uid) is served; when the server is full,
# the connection idle longest between mails makes room for it.
d = Session(SOCK)
d.hello()
e = Session(SOCK)
r = e.reply()
check(r and r[0].startswith("220"), "a new peer is served when the server is full: %s" % r)
r = p1.reply()
check(r and r[0].startswith("421") and "another client" in r[0], "the connection idle longest made room: %s" % r)
for x in (e, d, p2, p1):
    x.close()
ngoma("config", "--unset", "lmtp_connections_per_peer")
ngoma("config", "max_message_size", "4096")
ngoma("config", "lmtp_idle_secs", "2")
ngoma("config", "lmtp_connections", "2")
mark = open(LOG).read().count("settings read again")
srv.send_signal(signal.SIGHUP)
check(wait_for(lambda: open(LOG).read().count("settings read again") > mark), "SIGHUP rereads the settings")
a = Session()
_, lhlo = a.hello()
check(any("SIZE 4096" in l for l in lhlo or []), "the new size limit is offered: %s" % lhlo)
g = new_game()
m, text_ = order_mail(g, 1, secret(g, 1), first_order(g) + "\n" + "x" * 6000)
first, after = transact(a, ["ngoma+%s-1-%s@localhost" % (g, secret(g, 1))], text_)
check(after == [552], "a mail over the limit is 552 after DATA: %s" % after)
check(processed(m) == 0, "the mail over the limit is not taken")
b = Session()
b.hello()
c = Session()
r = c.reply()
# Full, and neither a (its mail just answered) nor b idle long: one of
# them makes room, or, if neither may, 421.
check(r and (r[0].startswith("220") or r[0].startswith("421")), "a connection past lmtp_connections: %s" % r)
c.close()
a.close()
# Idle for longer than lmtp_idle_secs: 421, then the server hangs up (the
# bound is the server's limit with room for a loaded machine, far below
# the 300 s an MTA waits).
t0 = time.time()
r = b.reply()
check(r and r[0].startswith("421") and time.time() - t0 < 20, "an idle connection is told 421 after 2 s: %s" % r)
check(b.reply() is None, "and then closed")
b.close()
ngoma("config", "--unset", "max_message_size")
ngoma("config", "--unset", "lmtp_idle_secs")
ngoma("config", "--unset", "lmtp_connections")
srv.send_signal(signal.SIGHUP)
time.sleep(0.3)

# ---- receive and run beside the server ------------------------------------------------------------
g = new_game()
m, text_ = order_mail(g, 1, secret(g, 1), first_order(g))
path = os.path.join(WORK, "pipe.eml")
open(path, "w").write(text_)
r = ngoma("receive", path)
check("ngoma serve reads it now" in r.stdout.decode(), "receive wakes the server: %s" % r.stdout.decode().strip())
check(wait_for(lambda: processed(m) == 1, 5), "the server read the kept mail")
r = ngoma("run", check_rc=False)
check(r.returncode == 0, "ngoma run beside the server: %s" % r.stderr.decode())
doubled = q("SELECT count(*) FROM (SELECT in_reply_to FROM outbox WHERE kind = 'reply' AND in_reply_to IS NOT NULL"
            " GROUP BY in_reply_to HAVING count(*) > 1)")[0][0]
check(doubled == 0, "no mail answered twice beside run and receive")

# ---- the database busy: 451, and the mail taken once it is free ---------------------------------------
# (kept: the inbox's database; lmtp_ack taken: the main one)
stop(srv)
srv = start(env=dict(ENV, NGOMA_BUSY_TIMEOUT_MS="300"))
for ack, locked in (("kept", DB + ".inbox"), ("taken", DB)):
    if ack == "taken":
        ngoma("config", "lmtp_ack", "taken")
        srv.send_signal(signal.SIGHUP)
        time.sleep(0.3)
    g = new_game()
    m, text_ = order_mail(g, 1, secret(g, 1), first_order(g))
    holder = subprocess.Popen(["sqlite3", locked], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    # (It waits its turn: the server's clock may be committing a bot's
    # move just then.)
    holder.stdin.write(b".timeout 10000\nBEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS lock_held(x);\n")
    holder.stdin.flush()
    time.sleep(0.3)
    s = Session()
    s.hello()
    first, after = transact(s, ["ngoma+%s-1-%s@localhost" % (g, secret(g, 1))], text_)
    check(after == [451], "lmtp_ack %s: a busy database is 451 (the MTA keeps the mail): %s" % (ack, after))
    holder.stdin.write(b"ROLLBACK;\n.quit\n")
    holder.stdin.close()
    holder.wait(10)
    first, after = transact(s, ["ngoma+%s-1-%s@localhost" % (g, secret(g, 1))], text_)
    check(after == [250] and wait_for(lambda: processed(m) == 1),
          "lmtp_ack %s: the same mail, tried again, taken once: %s" % (ack, after))
    s.close()
ngoma("config", "--unset", "lmtp_ack")
stop(srv)
srv = start()

# ---- the clock, to the second ---------------------------------------------------------------------------
g = new_game("kuniumi", ("--deadline", "3s", "--remind", "2s", "--nmr", "bot"))
# Measured as the server stamped what it did (the reminder's row, the
# bot's order), from when the step began as the game keeps it (whole
# seconds): what its clock decided, not how soon a loaded machine let this
# script see it. Cron would do it at its next pass, a minute apart.
started = q("SELECT unixepoch(step_started_at) FROM games WHERE id = ?", g)[0][0]
check(wait_for(lambda: q("SELECT count(*) FROM outbox WHERE game_id = ? AND kind = 'reminder'", g)[0][0] > 0, 30),
      "the reminder due after 1 s was sent")
reminded = q("SELECT min(unixepoch(created_at)) FROM outbox WHERE game_id = ? AND kind = 'reminder'", g)[0][0] - started
check(wait_for(lambda: q("SELECT turn FROM games WHERE id = ?", g)[0][0] > 0, 30),
      "the bot played the missing order at the deadline")
moved = q("SELECT min(unixepoch(received_at)) FROM orders WHERE game_id = ? AND bot_level IS NOT NULL", g)[0][0] - started
check(1 <= reminded < 3 and 3 <= moved <= 5,
      "reminder at %d s (due 1, before the deadline), the bot at %d s (due 3): to the second" % (reminded, moved))
figures["clock"] = "reminder at %d s (due at 1 s), deadline kept at %d s (due at 3 s)" % (reminded, moved)

# ---- a strong bot: the server's reader plays it after the answer, no cron --------------------------------
ngoma("config", "bot_ms", "50")
g = int(ngoma("new", "kuniumi", "--player", "Ann=ann@example.org", "--player", "Sol=bot:strong").stdout.decode().strip())
for _ in range(5):
    ngoma("order", str(g), "Ann", first_order(g))
mid, mail = order_mail(g, 1, secret(g, 1), first_order(g))
s = Session()
s.hello()
first, after = transact(s, ["ngoma+%s-1-%s@localhost" % (g, secret(g, 1))], mail)
s.close()
check(after == [250], "Ann's last placement by LMTP: %s" % after)
check(wait_for(lambda: q("SELECT count(*) FROM orders WHERE game_id = ? AND seat = 2 AND bot_level = 'strong'"
                         " AND status = 'accepted'", g)[0][0] > 0, 10),
      "the strong bot chose, with no ngoma run")
check(wait_for(lambda: q("SELECT count(*) FROM outbox WHERE game_id = ? AND rcpt = 'ann@example.org' AND"
                         " status = 'sent' AND id > (SELECT max(o.id) FROM outbox o JOIN messages m ON"
                         " o.in_reply_to = m.id WHERE m.message_id = ?)", g, mid)[0][0] > 0, 10),
      "Ann was mailed the bot's move by the server's sender")
ngoma("config", "--unset", "bot_ms")

# ---- SIGTERM: no new connection, what is in flight finishes ----------------------------------------------
g = new_game()
m, text_ = order_mail(g, 1, secret(g, 1), first_order(g))
busy = Session()
busy.hello()
idle = Session()
idle.hello()
busy.send("MAIL FROM:<ann@example.org>\r\nRCPT TO:<ngoma+%s-1-%s@localhost>\r\nDATA\r\n" % (g, secret(g, 1)))
check([busy.code(), busy.code(), busy.code()] == [250, 250, 354], "a mail under way")
half = stuffed(text_)
busy.send(half[: len(half) // 2])
srv.send_signal(signal.SIGTERM)
r = idle.reply()
check(r and r[0].startswith("421"), "SIGTERM: a connection between mails is told 421: %s" % r)
try:
    socket.create_connection(("127.0.0.1", PORT), 1).close()
    refused = False
except OSError:
    refused = True
check(refused, "SIGTERM: no new connection is taken")
busy.send(half[len(half) // 2:])
check(busy.code() == 250, "SIGTERM: the mail under way is finished and taken")
busy.send("QUIT\r\n")
busy.reply()
busy.close()
check(srv.wait(30) == 0, "the server exits 0 once it is done")
check(processed(m) == 1, "the mail finished after SIGTERM was kept")
check(wait_for(lambda: not children_of_db(), 15), "the sender and the clock end with the server")
idle.close()

# ---- kill -9 at any moment, as mail comes and answers go --------------------------------------------------
ngoma("config", "send_method", "smtp")
ngoma("config", "smtp_url", "smtp://127.0.0.1:%d" % SMTP_PORT)
ngoma("config", "smtp_tls", "none")
games = [new_game() for _ in range(40)]
ngoma("send")
pending = []  # (message id, rcpt, mail) still without a 250
for gm in games:
    m, text_ = order_mail(gm, 1, secret(gm, 1), first_order(gm))
    pending.append((m, "ngoma+%s-1-%s@localhost" % (gm, secret(gm, 1)), text_))
acked = set()
kills = sender_kills = 0
rng = random.Random(7)
tries = 0
while pending and tries < 200:
    tries += 1
    srv = start()
    deadline = time.time() + rng.uniform(0.005, 0.25)
    try:
        sess = Session(timeout=5)
        sess.hello()
        while pending and time.time() < deadline:
            m, rcpt, text_ = pending[0]
            # The kill may come during DATA: the mail in two writes.
            sess.send("MAIL FROM:<ann@example.org>\r\nRCPT TO:<%s>\r\nDATA\r\n" % rcpt)
            if [sess.code(), sess.code(), sess.code()] != [250, 250, 354]:
                break
            data = stuffed(text_)
            sess.send(data[:len(data) // 2])
            if rng.random() < 0.2:
                break  # killed in the middle of DATA
            sess.send(data[len(data) // 2:])
            if sess.code() != 250:
                break
            acked.add(m)
            pending.pop(0)
    except (OSError, TypeError):
        pass
    # Now and then the sender itself dies too, mid-send or not.
    if rng.random() < 0.3:
        for pid in subprocess.run(["pgrep", "-P", str(srv.pid)], capture_output=True).stdout.split():
            os.kill(int(pid), signal.SIGKILL)
            sender_kills += 1
    srv.send_signal(signal.SIGKILL)
    srv.wait()
    kills += 1
# Once no server runs: what was kept is read, what is owed is sent.
wait_for(lambda: not children_of_db(), 30)
srv = start()
check(wait_for(lambda: qi("SELECT count(*) FROM inbox")[0][0] == 0, 20), "the inbox was read after the kills")
check(wait_for(lambda: q("SELECT count(*) FROM outbox WHERE status <> 'sent'")[0][0] == 0, 30),
      "every answer went out after the kills")
stop(srv)
wait_for(lambda: not children_of_db(), 30)
lost = [m for m in acked if processed(m) != 1]
never = len(pending)
taken_twice = q("SELECT count(*) FROM (SELECT message_id FROM messages WHERE message_id LIKE 'serve-%%'"
                " AND status = 'processed' GROUP BY message_id, rcpt HAVING count(*) > 1)")[0][0]
answered_twice = q("SELECT count(*) FROM (SELECT in_reply_to FROM outbox WHERE kind = 'reply' AND in_reply_to IS NOT NULL"
                   " GROUP BY in_reply_to HAVING count(*) > 1)")[0][0]
sent_ids = {}
for key, msg in mailbox.Maildir(SMTP_MAILDIR, factory=None).items():
    mid_ = msg["Message-ID"]
    sent_ids[mid_] = sent_ids.get(mid_, 0) + 1
sent_twice = sum(1 for v in sent_ids.values() if v > 1)
check(not lost, "%d mails that got 250 were lost: %s" % (len(lost), lost[:3]))
check(never == 0, "%d mails never got their 250 in %d tries" % (never, tries))
check(taken_twice == 0, "%d mails were taken twice" % taken_twice)
check(answered_twice == 0, "%d mails were answered twice" % answered_twice)
check(len(acked) == len(games), "every mail was taken: %d of %d" % (len(acked), len(games)))
figures["kill -9"] = ("%d kills of the server (%d of its children with it), %d mails: %d lost, %d taken twice, %d "
                      "answered twice, %d answers delivered twice to the SMTP server"
                      % (kills, sender_kills, len(games), len(lost), taken_twice, answered_twice, sent_twice))
# A sender killed between the SMTP server's 250 and its record sends that
# mail again (SMTP cannot say otherwise); the server killed alone never.
check(sent_twice <= sender_kills, "answers delivered twice (%d) only where a sender was killed (%d)"
      % (sent_twice, sender_kills))

for k, v in figures.items():
    print("serve.py: %s: %s" % (k, v))
print("serve.py: %d checks, %d failed" % (checks[0], len(fails)))
sys.exit(1 if fails else 0)
