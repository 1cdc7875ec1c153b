#!/usr/bin/python3
"""activate.py: starts a service from its systemd .socket and .service units as systemd would on a machine without it: the socket of ListenStream made (SocketUser, SocketGroup, SocketMode), ExecStart run as User= with the socket as fd 3 (LISTEN_PID, LISTEN_FDS); prints the service's pid.

usage: activate.py [--as-me] SOCKET_UNIT SERVICE_UNIT LOG
--as-me: no users switched (a test that runs as one user)
"""
import grp
import os
import pwd
import shlex
import socket
import sys

args = sys.argv[1:]
as_me = args and args[0] == "--as-me"
if as_me:
    args = args[1:]
sock_path, svc_path, log = args


def unit(path):
    keys = {}
    for line in open(path):
        line = line.strip()
        if not line or line[0] in "#;[" or "=" not in line:
            continue
        k, v = line.split("=", 1)
        keys[k.strip()] = v.strip()
    return keys


sock, svc = unit(sock_path), unit(svc_path)
listen = sock["ListenStream"]
switch = os.geteuid() == 0 and not as_me
if os.path.exists(listen):
    os.unlink(listen)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(listen)
os.chmod(listen, int(sock.get("SocketMode", "0666"), 8))
if switch:
    os.chown(listen, pwd.getpwnam(sock.get("SocketUser", "root")).pw_uid,
             grp.getgrnam(sock.get("SocketGroup", "root")).gr_gid)
s.listen(128)
argv = shlex.split(svc["ExecStart"])
pid = os.fork()
if pid == 0:
    os.setsid()
    # The log is opened as systemd's journal would be: before the switch.
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    if switch and "User" in svc:
        pw = pwd.getpwnam(svc["User"])
        os.setgid(pw.pw_gid)
        os.initgroups(pw.pw_name, pw.pw_gid)
        os.setuid(pw.pw_uid)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.dup2(s.fileno(), 3)
    os.set_inheritable(3, True)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.environ["LISTEN_PID"] = str(os.getpid())
    os.environ["LISTEN_FDS"] = "1"
    os.execv(argv[0], argv)
print(pid)
