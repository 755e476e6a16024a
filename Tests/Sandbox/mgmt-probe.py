#!/usr/bin/python3
"""Asks the kernel, with the credentials this process runs with, whether it
may use Bluetooth the way the daemon does. Evidence for the unit's choices
(docs/service-hardening.md); run in the test VM by Tests/VM/guest/vmtests.py.

    mgmt-probe.py mgmt     opens the management socket (HCI_CHANNEL_CONTROL)
                           and sends Set Powered to a controller index that
                           does not exist (0xFFFE). The kernel checks the
                           socket's trust (CAP_NET_ADMIN in the initial user
                           namespace at bind time) before the index, so:
                             "mgmt trusted"  (status 0x11 Invalid Index): may
                                             change controllers, as the daemon must
                             "mgmt untrusted" (status 0x14 Permission Denied)
                           Nothing is changed on any controller either way.
    mgmt-probe.py socket   creates an AF_BLUETOOTH socket: "socket ok" or
                           "socket errno NAME" (EAFNOSUPPORT outside the
                           initial network namespace).

Exit status 0 when the probe ran (whatever the answer), 1 when it could not.
"""
import ctypes
import os
import select
import socket
import struct
import sys

AF_BLUETOOTH, BTPROTO_HCI = 31, 1
HCI_DEV_NONE, HCI_CHANNEL_CONTROL = 0xFFFF, 3
MGMT_OP_SET_POWERED = 0x0005
MGMT_EV_CMD_COMPLETE, MGMT_EV_CMD_STATUS = 0x0001, 0x0002
NO_SUCH_INDEX = 0xFFFE
STATUS = {0x11: "trusted", 0x14: "untrusted"}


def bt_socket():
    return socket.socket(AF_BLUETOOTH, socket.SOCK_RAW | socket.SOCK_CLOEXEC, BTPROTO_HCI)


def probe_socket():
    try:
        bt_socket().close()
        print("socket ok")
    except OSError as e:
        print(f"socket errno {errnoname(e.errno)}")
    return 0


def errnoname(n):
    import errno
    return errno.errorcode.get(n, str(n))


def probe_mgmt():
    try:
        s = bt_socket()
    except OSError as e:
        print(f"mgmt socket errno {errnoname(e.errno)}")
        return 1
    # Python's own bind() for BTPROTO_HCI cannot name a channel: bind with libc.
    libc = ctypes.CDLL(None, use_errno=True)
    addr = struct.pack("<HHH", AF_BLUETOOTH, HCI_DEV_NONE, HCI_CHANNEL_CONTROL)
    if libc.bind(s.fileno(), ctypes.c_char_p(addr), len(addr)) != 0:
        print(f"mgmt bind errno {errnoname(ctypes.get_errno())}")
        return 1
    s.send(struct.pack("<HHHB", MGMT_OP_SET_POWERED, NO_SUCH_INDEX, 1, 1))
    deadline = 10.0
    while True:
        r, _, _ = select.select([s], [], [], deadline)
        if not r:
            print("mgmt no reply")
            return 1
        pkt = s.recv(1024)
        if len(pkt) < 9:
            continue
        event, index, _ = struct.unpack_from("<HHH", pkt)
        opcode, status = struct.unpack_from("<HB", pkt, 6)
        if event in (MGMT_EV_CMD_COMPLETE, MGMT_EV_CMD_STATUS) and opcode == MGMT_OP_SET_POWERED:
            print(f"mgmt {STATUS.get(status, 'status')} (status 0x{status:02x}, uid {os.getuid()})")
            return 0


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "mgmt":
        sys.exit(probe_mgmt())
    if what == "socket":
        sys.exit(probe_socket())
    sys.exit(__doc__)
