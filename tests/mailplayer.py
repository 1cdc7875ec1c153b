#!/usr/bin/python3
"""mailplayer.py: a player's mail client for the end-to-end tests: reads what the SMTP server delivered, replies through IMAP."""
import email
import email.parser
import email.policy
import imaplib
import os
import re
import sys
import time
from email.message import EmailMessage
from email.utils import make_msgid, formatdate


def head_of(path):
    """The headers of the mail at path, parsed as a client shows them (the
    body left unread: most questions are about the headers, and a mail's
    picture is most of its bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    end = re.search(rb"\r?\n\r?\n", data)
    return email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(
        data[:end.end()] if end else data)


def whole(path):
    """The mail at path, every part of it."""
    with open(path, "rb") as f:
        return email.message_from_binary_file(f, policy=email.policy.default)


def delivered(maildir, read=head_of):
    """Every message the SMTP server delivered (a Maildir), or ngoma wrote
    (its outbox directory of NNNNNN.eml files), oldest first, as (path,
    what read gives: its headers, or with read=whole all of it)."""
    if not os.path.isdir(os.path.join(maildir, "new")):
        names = sorted(n for n in os.listdir(maildir) if n.endswith(".eml"))
        return [(os.path.join(maildir, n), read(os.path.join(maildir, n))) for n in names]
    out = []
    for sub in ("new", "cur"):
        d = os.path.join(maildir, sub)
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            path = os.path.join(d, name)
            out.append((os.path.getmtime(path), name, path, read(path)))
    out.sort(key=lambda t: (t[0], t[3]["Date"] or "", t[1]))
    return [(p, m) for _, _, p, m in out]


def to_addr(m):
    return m["To"].addresses[0].addr_spec.lower() if m["To"] else ""


def mails_for(maildir, rcpt):
    return [(p, m) for p, m in delivered(maildir) if to_addr(m) == rcpt.lower()]


def text_of(m):
    part = m.get_body(preferencelist=("plain",))
    return part.get_content() if part else ""


def cmd_count(maildir, rcpt):
    print(len(mails_for(maildir, rcpt)))


def cmd_last_text(maildir, rcpt, headers="no", subject=None):
    mails = [(p, m) for p, m in mails_for(maildir, rcpt) if not subject or m["Subject"] == subject]
    if not mails:
        sys.exit("no mail for %s" % rcpt)
    m = whole(mails[-1][0])
    if headers == "headers":
        print("From: %s\nTo: %s\nSubject: %s\n" % (m["From"], m["To"], m["Subject"]))
    print(text_of(m))


def cmd_last_texts(maildir, outdir):
    """The newest mail's text to every recipient, each in outdir/ADDRESS
    (one reading of the headers for all of them)."""
    last = {}
    for p, m in delivered(maildir):
        last[to_addr(m)] = p
    os.makedirs(outdir, exist_ok=True)
    for addr, p in last.items():
        with open(os.path.join(outdir, addr), "w", encoding="utf-8") as f:
            f.write(text_of(whole(p)))


def compose_reply(maildir, rcpt, orders, subject_part=None):
    """The reply a mail client writes to the newest mail to rcpt (whose
    subject holds subject_part, when given): to its Reply-To, Re: subject,
    threaded, the old text quoted below."""
    mails = [(p, m) for p, m in mails_for(maildir, rcpt) if not subject_part or subject_part == m["Subject"]]
    if not mails:
        sys.exit("no mail for %s to reply to" % rcpt)
    old = whole(mails[-1][0])
    r = EmailMessage()
    r["From"] = rcpt
    r["To"] = old["Reply-To"] or old["From"]
    r["Subject"] = "Re: " + old["Subject"]
    r["Date"] = formatdate(localtime=True)
    r["Message-ID"] = make_msgid(domain="example.org")
    r["In-Reply-To"] = old["Message-ID"]
    r["References"] = ((old["References"] or "") + " " + old["Message-ID"]).strip()
    quoted = "\n".join("> " + line for line in text_of(old).splitlines())
    r.set_content(orders.replace("\\n", "\n") + "\n\nOn " + old["Date"] + ", ngoma wrote:\n" + quoted + "\n")
    return r


def append(port, user, password, msg):
    imap = imaplib.IMAP4("127.0.0.1", int(port))
    imap.login(user, password)
    imap.append("INBOX", None, None, msg.as_bytes())
    imap.logout()
    print(msg["Message-ID"])


def cmd_write(rcpt, to, subject, port, user, password, text):
    """A new mail from rcpt (not a reply), into the IMAP box ngoma reads."""
    r = EmailMessage()
    r["From"] = rcpt
    r["To"] = to
    r["Subject"] = subject
    r["Date"] = formatdate(localtime=True)
    r["Message-ID"] = make_msgid(domain="example.org")
    r.set_content(text.replace("\\n", "\n") + "\n")
    append(port, user, password, r)


def cmd_reply_to(maildir, rcpt, subject_part, port, user, password, orders):
    """Replies to the newest mail to rcpt whose subject is subject_part."""
    append(port, user, password, compose_reply(maildir, rcpt, orders, subject_part))


def cmd_reply(maildir, rcpt, port, user="", password="", orders=""):
    """Replies to the newest mail to rcpt, into an IMAP box (or to stdout
    with port -)."""
    r = compose_reply(maildir, rcpt, orders)
    if port == "-":
        # No IMAP: the reply goes to stdout, for `ngoma receive` (as an MTA pipe would).
        sys.stdout.buffer.write(r.as_bytes())
        return
    imap = imaplib.IMAP4("127.0.0.1", int(port))
    imap.login(user, password)
    imap.append("INBOX", None, None, r.as_bytes())
    imap.logout()
    print(r["Message-ID"])


def cmd_submit(maildir, rcpt, how, port, orders):
    """Replies to the newest mail to rcpt and hands the reply to the MTA:
    by its sendmail program (how = sendmail; $MAIL_CONFIG picks the
    Postfix instance) or by SMTP to 127.0.0.1:port."""
    import smtplib
    import subprocess
    r = compose_reply(maildir, rcpt, orders)
    to = r["To"].addresses[0].addr_spec
    if how == "sendmail":
        subprocess.run(["/usr/sbin/sendmail", "-i", "-f", rcpt, "--", to], input=r.as_bytes(), check=True)
    else:
        with smtplib.SMTP("127.0.0.1", int(port)) as s:
            s.sendmail(rcpt, [to], r.as_bytes())
    print(r["Message-ID"])


def cmd_roundtrip(maildir, rcpt, port, orders, seconds="30"):
    """Replies to the newest mail to rcpt by SMTP to 127.0.0.1:port (the
    reply composed first), then watches the mailbox (a Maildir of its
    own) for the answer; prints the milliseconds from the hand-over to the
    answer's arrival."""
    import smtplib
    r = compose_reply(maildir, rcpt, orders)
    to = r["To"].addresses[0].addr_spec
    data = r.as_bytes()
    new = os.path.join(maildir, "new")
    before = set(os.listdir(new))
    with smtplib.SMTP("127.0.0.1", int(port)) as s:
        t0 = time.perf_counter()
        s.sendmail(rcpt, [to], data)
        while not (set(os.listdir(new)) - before):
            if time.perf_counter() - t0 > float(seconds):
                sys.exit("no answer for %s in %s s" % (rcpt, seconds))
            time.sleep(0.001)
        print("%.1f" % ((time.perf_counter() - t0) * 1000))


def cmd_wait(maildir, rcpt, count, seconds):
    """Waits until rcpt has more than count mails; prints the seconds it took."""
    t0 = time.time()
    while len(mails_for(maildir, rcpt)) <= int(count):
        if time.time() - t0 > float(seconds):
            sys.exit("no new mail for %s in %s s" % (rcpt, seconds))
        time.sleep(0.02)
    print("%.3f" % (time.time() - t0))


def cmd_transcript(maildir):
    """Every delivered mail as a list shows it: to, subject, first line."""
    for path, m in delivered(maildir, whole):
        first = next((l for l in text_of(m).split("\n") if l.strip()), "")
        print("%-18s %-46s %s" % (to_addr(m).split("@")[0], m["Subject"][:46], first[:60]))


def cmd_unseen(port, user, password):
    imap = imaplib.IMAP4("127.0.0.1", int(port))
    imap.login(user, password)
    imap.select("INBOX")
    typ, data = imap.search(None, "UNSEEN")
    imap.logout()
    print(len(data[0].split()))


def cmd_check(maildir, want_pictures=""):
    """Every delivered mail is well formed, read as a player reads it: one
    subject for every mail of a game to a player, every text line within 72
    columns, every picture resolving; prints how many (and how many
    pictures, given a second argument)."""
    n = pictures = 0
    subjects = {}
    for path, m in delivered(maildir, whole):
        n += 1
        kind = (m["X-Ngoma"] or "").split("kind=")[-1]
        lobby = kind in ("lobby", "lobby-limit", "invite", "watch", "left")
        for h in ("Date", "Message-ID", "From", "To", "Subject", "MIME-Version", "Auto-Submitted") + (() if lobby else ("Reply-To",)):
            if not m[h]:
                sys.exit("%s: no %s header" % (path, h))
        if lobby and (not m["Subject"].startswith("[ngoma] ") or m["Reply-To"]):
            sys.exit("%s: a lobby mail must say [ngoma] and be answered at its From: %r" % (path, m["Subject"]))
        if not lobby and "[ngoma " not in m["Subject"]:
            sys.exit("%s: no game tag in %r" % (path, m["Subject"]))
        if m.get_content_type() != "multipart/alternative":
            sys.exit("%s: not multipart/alternative" % path)
        plain = m.get_body(preferencelist=("plain",))
        html = m.get_body(preferencelist=("html",))
        if plain is None or html is None or plain.get_content_charset() != "utf-8":
            sys.exit("%s: needs text/plain; charset=utf-8 and text/html" % path)
        body = html.get_content()
        # Built for a phone: its width, inline styles only, no scripts.
        if 'name="viewport"' not in body or re.search(r"<(style|script)\b", body, re.I):
            sys.exit("%s: the HTML part is not one a phone's client shows as meant" % path)
        pictures += check_pictures(path, m, body)
        key = (to_addr(m), ";".join(m["X-Ngoma"].split(";")[:2]) if m["X-Ngoma"] else "")
        if kind not in ("lobby", "lobby-limit", "invite") and subjects.setdefault(key, m["Subject"]) != m["Subject"]:
            sys.exit("%s: subject %r, where the thread had %r" % (path, m["Subject"], subjects[key]))
        for i, line in enumerate(plain.get_content().split("\n")):
            if len(line.rstrip("\r")) > 72:
                sys.exit("%s: line %d has %d columns: %r" % (path, i + 1, len(line), line))
    print(n if not want_pictures else "%d %d" % (n, pictures))


def check_pictures(path, m, body):
    """Each <img src="cid:..."> of the HTML part resolves, as a mail client
    resolves it, to an image/png part of the same multipart/related with an
    alt text and a PNG inside; returns how many."""
    cids = re.findall(r'<img\b[^>]*\bsrc="cid:([^"]+)"', body)
    if not cids:
        return 0
    related = [p for p in m.walk() if p.get_content_type() == "multipart/related"]
    if len(related) != 1:
        sys.exit("%s: a cid: picture outside one multipart/related" % path)
    parts = {(p["Content-ID"] or "").strip("<>"): p for p in related[0].iter_parts()}
    for tag in re.findall(r'<img\b[^>]*>', body):
        if 'alt="' not in tag or re.search(r'alt=""', tag):
            sys.exit("%s: a picture without an alt text: %s" % (path, tag))
    for cid in cids:
        part = parts.get(cid)
        if part is None or part.get_content_type() != "image/png":
            sys.exit("%s: cid:%s is not an image/png part of the mail" % (path, cid))
        data = part.get_content()
        if not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) > 60 * 1024:
            sys.exit("%s: cid:%s is not a PNG within 60 KB (%d bytes)" % (path, cid, len(data)))
    return len(cids)


def main():
    cmds = {"count": cmd_count, "last-text": cmd_last_text, "last-texts": cmd_last_texts, "reply": cmd_reply, "unseen": cmd_unseen,
            "check": cmd_check, "submit": cmd_submit, "wait": cmd_wait, "roundtrip": cmd_roundtrip, "write": cmd_write,
            "reply-to": cmd_reply_to, "transcript": cmd_transcript}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit("usage: mailplayer.py count|last-text|reply|reply-to|write|unseen|check|submit|wait ...")
    try:
        cmds[sys.argv[1]](*sys.argv[2:])
        sys.stdout.flush()
    except BrokenPipeError:
        # A reader like `grep -q` stopped at the first match: not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    main()
