"""Connecting to the daemon's harness socket from the CLI suites.

The daemon makes the socket file at bind and chmods it before listen
(UnixSocketListener): for that moment a connection is refused. Under
qemu-user the moment is long enough to hit, so a refused connection is
tried again, for at most `seconds`.
"""
import socket, time


def connect(path, seconds=5.0):
    deadline = time.time() + seconds
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except ConnectionRefusedError:
            s.close()
            if time.time() >= deadline:
                raise
            time.sleep(0.05)
