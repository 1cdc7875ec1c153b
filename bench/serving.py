"""serving.py: what the benchmarks that run ngoma serve share: a command's output, a query, a free port, the server started and stopped."""
import signal
import socket
import sqlite3
import subprocess
import sys
import time


def run(who, *args, env):
    """The output of a command that must succeed (who names the benchmark)."""
    r = subprocess.run(list(args), env=env, capture_output=True)
    if r.returncode:
        sys.exit("%s: %s exited %d: %s" % (who, " ".join(args), r.returncode, r.stderr.decode()[-500:]))
    return r.stdout.decode()


def q(db, sql, *a):
    with sqlite3.connect(db, timeout=60) as c:
        return c.execute(sql, a).fetchall()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def serve(who, ngoma, env, port, log):
    """ngoma serve on 127.0.0.1:port, once it listens."""
    p = subprocess.Popen([ngoma, "serve", "--listen", "127.0.0.1:%d" % port], env=env, stdout=log, stderr=log)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return p
        except OSError:
            time.sleep(0.02)
    sys.exit("%s: ngoma serve does not listen" % who)


def stop(p):
    p.send_signal(signal.SIGTERM)
    p.wait(120)
