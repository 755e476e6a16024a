"""A minimal iPhone for the watch's phone endpoint (raw ATT PDUs over a Unix
SOCK_SEQPACKET socket): a GATT database with only ANCS at 0x20-0x2A, CCCD
writes accepted, Control Point commands answered. Shared by the CLI tests."""
import socket, time

u = lambda s: bytes.fromhex(s.replace("-", ""))[::-1]
ANCS = u("7905F431-B5CE-4E99-A40F-4B1E122D00D0")
NS = u("9FBF120D-6301-42D9-8C58-25E699A21DBD")
CP = u("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")
DS = u("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB")
le16 = lambda v: bytes([v & 0xFF, v >> 8])


class MinimalPhone:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.connect(path)
        self.sock.settimeout(0.2)
        self.subscribed = set()
        self.actions = []

    def notify_source(self, event, flags, category, uid):
        """Sends a Notification Source notification (8 bytes)."""
        self.sock.send(bytes([0x1B]) + le16(0x22) + bytes([event, flags, category, 1]) + uid.to_bytes(4, "little"))

    def serve(self, seconds, until=lambda phone: False):
        """Answers the watch's requests for up to `seconds`, or until `until(self)`."""
        deadline = time.time() + seconds
        while time.time() < deadline and not until(self):
            try:
                pdu = self.sock.recv(600)
            except socket.timeout:
                continue
            if not pdu:
                return
            self._answer(pdu)

    def _answer(self, pdu):
        p, op = self.sock, pdu[0]
        start = pdu[1] | pdu[2] << 8 if len(pdu) >= 3 else 0
        if op == 0x02:
            p.send(bytes([0x03]) + le16(185))
        elif op == 0x06:
            if pdu[7:] == ANCS and start <= 0x20: p.send(bytes([0x07]) + le16(0x20) + le16(0x2A))
            else: p.send(bytes([0x01, 0x06]) + le16(start) + bytes([0x0A]))
        elif op == 0x10:
            if start <= 0x20: p.send(bytes([0x11, 20]) + le16(0x20) + le16(0x2A) + ANCS)
            else: p.send(bytes([0x01, 0x10]) + le16(start) + bytes([0x0A]))
        elif op == 0x08:
            chars = [c for c in [(0x21, 0x10, 0x22, NS), (0x24, 0x08, 0x25, CP), (0x26, 0x10, 0x27, DS)] if c[0] >= start]
            if chars:
                d, props, v, uuid = chars[0]
                p.send(bytes([0x09, 21]) + le16(d) + bytes([props]) + le16(v) + uuid)
            else: p.send(bytes([0x01, 0x08]) + le16(start) + bytes([0x0A]))
        elif op == 0x04:
            descs = [h for h in (0x23, 0x28) if start <= h <= (pdu[3] | pdu[4] << 8)]
            if descs: p.send(bytes([0x05, 0x01]) + le16(descs[0]) + le16(0x2902))
            else: p.send(bytes([0x01, 0x04]) + le16(start) + bytes([0x0A]))
        elif op == 0x12:
            p.send(bytes([0x13]))
            if start in (0x23, 0x28): self.subscribed.add(start)
            if start == 0x25 and pdu[3] == 0x00:  # Get Notification Attributes: answer every asked attribute
                uid = pdu[4:8]
                values = {0: b"com.apple.mobilephone", 1: b"Mum", 3: b"", 4: b"0", 5: b"20240501T120000", 6: b"Answer", 7: b"Decline"}
                asked, i = [], 8
                while i < len(pdu):
                    asked.append(pdu[i]); i += 3 if pdu[i] in (1, 2, 3) else 1
                attrs = b"".join(bytes([a]) + le16(len(values.get(a, b""))) + values.get(a, b"") for a in asked)
                p.send(bytes([0x1B]) + le16(0x27) + bytes([0]) + uid + attrs)
            elif start == 0x25 and pdu[3] == 0x01:
                app_id = pdu[4:pdu.index(0, 4) + 1]
                p.send(bytes([0x1B]) + le16(0x27) + bytes([0x01]) + app_id + bytes([0]) + le16(5) + b"Phone")
            elif start == 0x25 and pdu[3] == 0x02:
                self.actions.append(pdu[3:])
        elif op & 0x40 == 0 and op not in (0x1B, 0x1D, 0x13, 0x01):
            p.send(bytes([0x01, op, 0, 0, 0x06]))
