#!/usr/bin/python3
"""peers.py: hostile IMAP and SMTP servers for tests/peers.sh: they stream, stall and refuse.

usage: peers.py MODE PORTFILE [LOG]

Listens on 127.0.0.1 (a free port, written to PORTFILE), serves one
connection after another in MODE until killed, and appends what clients
did to LOG (delivered recipients for SMTP).
"""
import socket
import sys
import threading
import time

MODE, PORTFILE = sys.argv[1], sys.argv[2]
LOG = sys.argv[3] if len(sys.argv) > 3 else None


def log(line):
    if LOG:
        with open(LOG, "a") as f:
            f.write(line + "\n")


class Conn:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r").decode("latin-1")


def stream_forever(c, pattern):
    """Sends pattern as fast as the client reads it, until it hangs up."""
    block = pattern * (65536 // len(pattern) + 1)
    while True:
        c.send(block)


def imap(c):
    c.send(b"* OK [CAPABILITY IMAP4rev1] fake ready\r\n")
    while True:
        words = c.line().split(" ", 2)
        tag, cmd = words[0], words[1].upper() if len(words) > 1 else ""
        rest = words[2] if len(words) > 2 else ""
        if cmd == "CAPABILITY":
            c.send(b"* CAPABILITY IMAP4rev1\r\n" + tag.encode() + b" OK done\r\n")
        elif cmd == "LOGIN":
            c.send(tag.encode() + b" OK logged in\r\n")
        elif cmd == "SELECT":
            if MODE == "imap-slow":
                # A line a second, for ever: no single wait is long.
                while True:
                    c.send(b"* OK still here\r\n")
                    time.sleep(1)
            c.send(b"* 3 EXISTS\r\n" + tag.encode() + b" OK [READ-WRITE] selected\r\n")
        elif cmd == "UID" and rest.upper().startswith("SEARCH"):
            if MODE == "imap-stream-search":
                c.send(b"* SEARCH")
                stream_forever(c, b" 4294967295")
            if MODE == "imap-stream-untagged":
                stream_forever(c, b"* OK [ALERT] more and more\r\n")
            c.send(b"* SEARCH 1\r\n" + tag.encode() + b" OK done\r\n")
        elif cmd == "UID" and rest.upper().startswith("FETCH"):
            if MODE == "imap-huge-literal":
                # A mail far past any limit: its bytes are read, not kept.
                size = 64 << 20
                c.send(b"* 1 FETCH (UID 1 BODY[] {%d}\r\n" % size)
                head = (b"From: a@example.org\r\nSubject: big\r\nMessage-ID: <big@example.org>\r\n\r\n")
                c.send(head)
                left = size - len(head)
                block = b"x" * 65536
                while left > 0:
                    n = min(left, len(block))
                    c.send(block[:n])
                    left -= n
                c.send(b")\r\n" + tag.encode() + b" OK done\r\n")
            else:
                c.send(tag.encode() + b" NO no such message\r\n")
        elif cmd == "LOGOUT":
            c.send(b"* BYE\r\n" + tag.encode() + b" OK bye\r\n")
            return
        else:
            c.send(tag.encode() + b" OK fine\r\n")


def smtp(c):
    if MODE == "smtp-554":
        c.send(b"554 5.7.1 no service for you here\r\n")
    elif MODE == "smtp-421":
        c.send(b"421 4.3.2 too busy, come back later\r\n")
    else:
        c.send(b"220 fake ESMTP\r\n")
    rcpts = []
    while True:
        line = c.line()
        cmd = line.split(" ", 1)[0].upper()
        if cmd in ("EHLO", "HELO"):
            if MODE == "smtp-stream-ehlo":
                stream_forever(c, b"250-PIPELINING and more and more\r\n")
            if MODE == "smtp-slow":
                while True:
                    c.send(b"250-still thinking\r\n")
                    time.sleep(1)
            c.send(b"250-fake\r\n250 8BITMIME\r\n")
        elif cmd == "MAIL":
            if MODE == "smtp-mailfrom-550":
                c.send(b"550 5.7.1 this sender is not welcome\r\n")
            else:
                rcpts = []
                c.send(b"250 ok\r\n")
        elif cmd == "RCPT":
            if "bad@" in line:
                c.send(b"550 5.1.1 no such user here\r\n")
            else:
                rcpts.append(line.split(":", 1)[1].strip())
                c.send(b"250 ok\r\n")
        elif cmd == "DATA":
            c.send(b"354 go ahead\r\n")
            while c.line() != ".":
                pass
            for r in rcpts:
                log("delivered " + r)
            c.send(b"250 queued\r\n")
        elif cmd == "RSET" or cmd == "NOOP":
            c.send(b"250 ok\r\n")
        elif cmd == "QUIT":
            c.send(b"221 bye\r\n")
            return
        else:
            c.send(b"502 what\r\n")


def serve(sock):
    try:
        (imap if MODE.startswith("imap") else smtp)(Conn(sock))
    except (EOFError, OSError):
        pass
    finally:
        sock.close()


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    with open(PORTFILE + ".tmp", "w") as f:
        f.write(str(srv.getsockname()[1]))
    import os
    os.rename(PORTFILE + ".tmp", PORTFILE)
    while True:
        sock, _ = srv.accept()
        threading.Thread(target=serve, args=(sock,), daemon=True).start()


main()
