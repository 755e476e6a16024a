"""An Android phone running Gadgetbridge, for the watch's phone endpoint.

Written from Gadgetbridge's Java (BangleJSDeviceSupport and the BtLE queue, as
/work/gb-protocol.md describes them), not from the watch's Swift code, so that
the two can disagree. The phone endpoint is a Unix SOCK_SEQPACKET socket; each
connection is one BLE link carrying raw ATT PDUs. This phone plays:

- the GATT *client* of the watch, as Android + Gadgetbridge do: full service
  discovery, notifications on the Nordic UART TX characteristic, MTU 131,
  the setTime/is_gps_active prelude, then lines written in chunks with Write
  Command (write-without-response);
- a GATT *server* with nothing the watch looks for (no ANCS, no AMS, no CTS):
  the watch's discovery gets "Attribute Not Found".

Lines the watch notifies are cut the way Gadgetbridge cuts them (the char
before each \\n is dropped, `(p>0)?(p-1):0`), so a watch that ends lines with
a bare \\n shows up here as broken JSON, as it would on a real phone.

Standard library only.
"""
import base64, decimal, json, math, select, socket, struct, time

NUS = "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"
NUS_RX = "6E400002-B5A3-F393-E0A9-E50E24DCCA9E"   # the phone writes here (GB calls it "TX")
NUS_TX = "6E400003-B5A3-F393-E0A9-E50E24DCCA9E"   # the watch notifies here (GB calls it "RX")
CCCD = 0x2902
PROP_WRITE_NO_RESPONSE, PROP_WRITE, PROP_NOTIFY, PROP_INDICATE = 0x04, 0x08, 0x10, 0x20

# ATT opcodes
ERROR, MTU_REQ, MTU_RSP = 0x01, 0x02, 0x03
FIND_INFO_REQ, FIND_INFO_RSP, FIND_BY_TYPE_REQ, FIND_BY_TYPE_RSP = 0x04, 0x05, 0x06, 0x07
READ_BY_TYPE_REQ, READ_BY_TYPE_RSP, READ_REQ, READ_BLOB_REQ = 0x08, 0x09, 0x0A, 0x0C
READ_MULTI_REQ, READ_BY_GROUP_REQ, READ_BY_GROUP_RSP = 0x0E, 0x10, 0x11
WRITE_REQ, WRITE_RSP, PREP_WRITE_REQ, EXEC_WRITE_REQ = 0x12, 0x13, 0x16, 0x18
NOTIFY, INDICATE, CONFIRM, READ_MULTI_VAR_REQ, WRITE_CMD = 0x1B, 0x1D, 0x1E, 0x20, 0x52
RESPONSES = {0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21}
ATTRIBUTE_NOT_FOUND, INVALID_HANDLE, REQUEST_NOT_SUPPORTED = 0x0A, 0x01, 0x06

# What the watch may send back for each kind of reply (GB's Event.valueOf throws on anything else).
WATCH_N = {"notify": {"DISMISS", "DISMISS_ALL", "OPEN", "MUTE", "REPLY"},
           "call": {"ACCEPT", "REJECT", "END", "IGNORE", "START", "UNDEFINED", "MAKE_CALL"},
           "music": {"PLAY", "PAUSE", "PLAYPAUSE", "NEXT", "PREVIOUS", "VOLUMEUP", "VOLUMEDOWN",
                     "FORWARD", "REWIND"}}

le16 = lambda v: struct.pack("<H", v)
u16 = lambda b, i: b[i] | b[i + 1] << 8


def uuid_bytes(text):
    """A 128-bit UUID as it is on the air (little-endian)."""
    return bytes.fromhex(text.replace("-", ""))[::-1]


def uuid_text(raw):
    """The other way round; 16-bit UUIDs come back as 4 hex digits."""
    if len(raw) == 2:
        return "%04X" % u16(raw, 0)
    h = raw[::-1].hex().upper()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


# ---------------------------------------------------------------- encoding

def java_number(x, single=False):
    """Java's Integer/Long/Double/Float.toString, which is how GB writes numbers
    (1.0, 12.5, 1.0E-4, 5.5); `single` rounds through a 32-bit float first."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    if single:  # the shortest decimal that reads back as the same float32
        f = struct.unpack("<f", struct.pack("<f", x))[0]
        p = next(p for p in range(1, 10)
                 if struct.unpack("<f", struct.pack("<f", float("%.*e" % (p - 1, f))))[0] == f)
        text = "%.*e" % (p - 1, f)
    else:
        text = repr(x)     # the shortest decimal that reads back as the same double
    sign, digit_tuple, exponent = decimal.Decimal(text).as_tuple()
    digits = "".join(map(str, digit_tuple)).lstrip("0")
    exp = len(digits) + exponent - 1 if digits else 0
    digits = digits.rstrip("0") or "0"
    sign = "-" if sign else ""
    if 1e-3 <= abs(x) < 1e7:
        if exp >= 0:
            whole, frac = digits[:exp + 1].ljust(exp + 1, "0"), digits[exp + 1:]
        else:
            whole, frac = "0", "0" * (-exp - 1) + digits
        return sign + whole + "." + (frac or "0")
    return sign + digits[0] + "." + (digits[1:] or "0") + "E" + str(exp)


def js_string(s):
    """Port of GB's jsonToStringInternal for a String: walks UTF-16 units,
    escapes what the UART can't carry, sends 0x80-0xC1 and 0xF5-0xFF as raw
    Latin-1 characters, and switches to atob("...") when that is shorter."""
    raw = s.encode("utf-16-le")
    units = [u16(raw, i) for i in range(0, len(raw), 2)]
    out, has_unicode = ['"'], False
    for i, ch in enumerate(units):
        nxt = units[i + 1] if i + 1 < len(units) else 0
        if ch > 255:
            has_unicode = True
        if ch < 8:
            out.append("\\x0%d" % ch if 0x30 <= nxt <= 0x37 else "\\%d" % ch)
        elif 8 <= ch <= 12:
            out.append("\\" + "btnvf"[ch - 8])
        elif ch == 16:
            out.append("\\20")
        elif ch == 34:
            out.append('\\"')
        elif ch == 92:
            out.append("\\\\")
        elif ch < 32 or ch in (127, 173) or 0xC2 <= ch <= 0xF4:
            out.append("\\x%02x" % ch)
        elif ch > 255:
            out.append("\\u%04x" % ch)
        else:
            out.append(chr(ch))
    text = "".join(out)
    if not has_unicode and len(text) > 5 + (len(units) * 4 // 3):
        return 'atob("%s")' % base64.b64encode(bytes(units)).decode("ascii")
    return text + '"'


def js(value):
    """Port of jsonToStringInternal for any value. Dict keys keep their order
    (Android's JSONObject is a LinkedHashMap) and a None value drops its key,
    as JSONObject.put(name, null) does; None inside a list is `null`."""
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, dict):
        return "{" + ",".join('"%s":%s' % (k, js(v)) for k, v in value.items() if v is not None) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(js(v) for v in value) + "]"
    if value is None:
        return "null"
    return java_number(value)


def gb_line(obj):
    """One GB line as uartTxJSON builds it: \\x10GB(<object>)\\n in ISO-8859-1."""
    return ("\x10GB(" + js(obj) + ")\n").encode("latin-1")


def time_line(utc_seconds=None, tz_hours=None):
    """The setTime line of transmitTime: UTC seconds, then the zone as a Java float."""
    now = time.time()
    ts = int(now if utc_seconds is None else utc_seconds)
    if tz_hours is None:
        tz_hours = (time.localtime(now).tm_gmtoff or 0) / 3600.0
    tz = java_number(float(tz_hours), single=True)
    cmd = "\x10setTime(%d);E.setTimeZone(%s);" % (ts, tz)
    cmd += "(s=>s&&(s.timezone=%s,require('Storage').write('setting.json',s)))" \
           "(require('Storage').readJSON('setting.json',1))" % tz
    return (cmd + "\n").encode("latin-1")


def render(text):
    """renderUnicodeAsImage with GB's defaults (text bitmaps off): … becomes ...
    (the emoji-to-ASCII table is left out)."""
    return None if text is None else text.replace("\u2026", "...")


def crop(text, n):
    """GB's cropToLength on rendered text (null becomes ""), in UTF-16 units."""
    if text is None:
        return ""
    text = render(text)
    units = len(text.encode("utf-16-le")) // 2
    if units <= n:
        return text
    return text.encode("utf-16-le")[:2 * (n - 3)].decode("utf-16-le", "replace") + "..."


# ---------------------------------------------------------------- the phone

class ATTError(Exception):
    """The watch answered one of our requests with an Error Response."""


class GadgetbridgePhone:
    """Gadgetbridge on Android, connected to the watch's phone endpoint."""

    def __init__(self, path, mtu=131, server_mtu=517, verbose=False):
        self.path, self.request_mtu, self.server_mtu, self.verbose = path, mtu, server_mtu, verbose
        self.sock = None
        self.mtu_size = 20           # GB's chunk size; a field of the device support, kept across links
        self.received_line = ""      # GB's receivedLine, also kept across links
        self.paused = False          # XOFF seen, no XON yet
        self.lines = []              # the watch's JSON lines with a "t", parsed
        self.rx_lines = []           # every line as GB cut it: (line, the char GB dropped before \n)
        self.malformed = []          # lines starting '{' that org.json would reject ("Malformed JSON" toast)
        self.problems = []           # protocol breaches GB would trip on (non-ASCII, unknown n, ...)
        self.watch_requests = []     # opcodes of the requests the watch sent us
        self.watch_mtu = None        # the MTU the watch asked for, if it did
        self.att_mtu = 23            # the MTU our own exchange gave
        self.link_mtu = 23           # the ATT_MTU in force (either side's exchange)
        self.services, self.characteristics = [], []
        self.rx_handle = self.tx_handle = self.cccd_handle = None
        self.rx_props = self.tx_props = 0
        self.writes = 0              # chunks written

    # ---- the link

    def open(self, attempts=50):
        """Opens a link. The watch takes one phone at a time and may not have
        seen the last one go yet, so a link closed at once is retried."""
        self.link_mtu, self.att_mtu, self.watch_mtu = 23, 23, None
        for _ in range(attempts):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect(self.path)
            s.setblocking(False)
            readable, _, _ = select.select([s], [], [], 0.1)
            if readable:
                try:
                    first = s.recv(1024)
                except (BlockingIOError, ConnectionResetError):
                    first = b""
                if not first:       # closed at once: the previous link is still up
                    s.close(); time.sleep(0.1); continue
                self.sock = s
                self._handle(first)
                return
            self.sock = s
            return
        raise ConnectionError("the watch kept refusing the link")

    def close(self):
        """Disconnects (the link goes, like Bluetooth off on the phone)."""
        if self.sock:
            self.sock.close()
            self.sock = None
        self.paused = False   # BtLEQueue.connect() clears the pause

    def connect(self, order="gadgetbridge", prelude=True):
        """The whole handshake. Android discovers every service on connect
        (before GB's initializeDevice); GB then enables notifications on TX,
        asks for MTU 131 and sends the time and is_gps_active lines.
        order="mtu-first" exchanges the MTU before discovery instead."""
        if self.sock is None:
            self.open()
        if order == "mtu-first":
            self.exchange_mtu()
        self.discover()
        if self.rx_handle is None or self.tx_handle is None:
            raise AssertionError("no Nordic UART RX/TX on the watch: %r" % self.characteristics)
        self.write_request(self.cccd_handle, b"\x01\x00" if self.tx_props & PROP_NOTIFY else b"\x02\x00")
        if order != "mtu-first":
            self.exchange_mtu()
        if prelude:
            self.send_raw(time_line())
            self.send_json({"t": "is_gps_active"})

    def exchange_mtu(self):
        rsp = self.request(bytes([MTU_REQ]) + le16(self.request_mtu), MTU_RSP)
        self.att_mtu = self.link_mtu = max(23, min(self.request_mtu, u16(rsp, 1)))
        return self.att_mtu

    def discover(self):
        """Primary services by group type, included services, characteristics
        and descriptors of every service, as Android's discoverServices()."""
        self.services, self.characteristics = [], []
        start = 1
        while start <= 0xFFFF:
            rsp = self.request(bytes([READ_BY_GROUP_REQ]) + le16(start) + le16(0xFFFF) + le16(0x2800),
                               READ_BY_GROUP_RSP, tolerate=True)
            if rsp is None:
                break
            n = rsp[1]
            for i in range(2, len(rsp) - n + 1, n):
                s, e = u16(rsp, i), u16(rsp, i + 2)
                self.services.append((s, e, uuid_text(rsp[i + 4:i + n])))
                start = e + 1
            if n < 6 or start <= 1:
                break
        for s, e, _ in self.services:   # included services: none expected, but Android asks
            self.request(bytes([READ_BY_TYPE_REQ]) + le16(s) + le16(e) + le16(0x2802), READ_BY_TYPE_RSP, tolerate=True)
        for s, e, suuid in self.services:
            chars, start = [], s
            while start <= e:
                rsp = self.request(bytes([READ_BY_TYPE_REQ]) + le16(start) + le16(e) + le16(0x2803),
                                   READ_BY_TYPE_RSP, tolerate=True)
                if rsp is None:
                    break
                n = rsp[1]
                for i in range(2, len(rsp) - n + 1, n):
                    decl, props, value = u16(rsp, i), rsp[i + 2], u16(rsp, i + 3)
                    chars.append({"service": suuid, "decl": decl, "props": props, "value": value,
                                  "uuid": uuid_text(rsp[i + 5:i + n]), "descriptors": {}})
                    start = decl + 1
            for k, c in enumerate(chars):
                end = chars[k + 1]["decl"] - 1 if k + 1 < len(chars) else e
                h = c["value"] + 1
                while h <= end:
                    rsp = self.request(bytes([FIND_INFO_REQ]) + le16(h) + le16(end), FIND_INFO_RSP, tolerate=True)
                    if rsp is None:
                        break
                    size = 4 if rsp[1] == 1 else 18
                    for i in range(2, len(rsp) - size + 1, size):
                        c["descriptors"][uuid_text(rsp[i + 2:i + size])] = u16(rsp, i)
                        h = u16(rsp, i) + 1
            self.characteristics += chars
        for c in self.characteristics:
            if c["service"] == NUS and c["uuid"] == NUS_RX:
                self.rx_handle, self.rx_props = c["value"], c["props"]
            if c["service"] == NUS and c["uuid"] == NUS_TX:
                self.tx_handle, self.tx_props = c["value"], c["props"]
                self.cccd_handle = c["descriptors"].get("%04X" % CCCD)
        return self.services

    def write_request(self, handle, value):
        """A Write Request, waiting for its Write Response."""
        return self.request(bytes([WRITE_REQ]) + le16(handle) + value, WRITE_RSP)

    def request(self, pdu, expect, timeout=5.0, tolerate=False):
        """Sends one request and serves the watch until its response comes.
        An Error Response raises ATTError, or gives None if `tolerate`."""
        self._send(pdu)
        deadline = time.time() + timeout
        while time.time() < deadline:
            rsp = self._recv(deadline - time.time())
            if rsp is None:
                continue
            if rsp[0] == expect:
                return rsp
            if rsp[0] == ERROR and len(rsp) >= 5 and rsp[1] == pdu[0]:
                if tolerate:
                    return None
                raise ATTError("request 0x%02x: error 0x%02x on handle 0x%04x" % (pdu[0], rsp[4], u16(rsp, 2)))
            self._handle(rsp)
        raise TimeoutError("no response to request 0x%02x (%s)" % (pdu[0], pdu.hex(" ")))

    # ---- writing lines

    def send_raw(self, data, chunk=None, pace=0.0):
        """Writes bytes to RX as uartTx does: cut every mtu_size bytes (or
        `chunk`), one Write Command each, in order; waits while the watch has
        said XOFF, as BtLEQueue does between writes."""
        size = chunk or self.mtu_size
        for i in range(0, len(data), size):
            self._wait_while_paused()
            part = data[i:i + size]
            if self.rx_props & PROP_WRITE_NO_RESPONSE or not self.rx_props & PROP_WRITE:
                self._send(bytes([WRITE_CMD]) + le16(self.rx_handle) + part)
            else:
                self.write_request(self.rx_handle, part)
            self.writes += 1
            self.poll()
            if pace:
                time.sleep(pace)
            size = chunk or self.mtu_size   # a notification in between may have grown it

    def send_json(self, obj):
        self.send_raw(gb_line(obj))

    def notify(self, id, src=None, title=None, subject=None, body=None, sender=None, tel=None, reply=False):
        """onNotification: title/subject 80, body 400, sender 40; those four
        always present ("" for null), src and tel dropped when null."""
        self.send_json({"t": "notify", "id": id, "src": src, "title": crop(title, 80),
                        "subject": crop(subject, 80), "body": crop(body, 400), "sender": crop(sender, 40),
                        "tel": tel, "reply": True if reply else None})

    def notify_removed(self, id):
        self.send_json({"t": "notify-", "id": id})

    def call(self, cmd, name=None, number=None):
        """onSetCallState: cmd is undefined/accept/incoming/outgoing/reject/start/end."""
        self.send_json({"t": "call", "cmd": cmd, "name": render(name), "number": number})

    def music_info(self, artist=None, album=None, track=None, dur=0, c=0, n=0):
        self.send_json({"t": "musicinfo", "artist": render(artist), "album": render(album), "track": render(track),
                        "dur": dur, "c": c, "n": n})

    def music_state(self, state="play", position=0, shuffle=-1, repeat=-1):
        """state: "play", "pause", "stop" or "" (unknown)."""
        self.send_json({"t": "musicstate", "state": state, "position": position,
                        "shuffle": shuffle, "repeat": repeat})

    def find(self, on):
        self.send_json({"t": "find", "n": bool(on)})

    def vibrate(self, n):
        self.send_json({"t": "vibrate", "n": n})

    def weather(self, temp, hi, lo, hum, rain, uv, code, txt, wind, wdir, loc):
        """onSendWeather: temperatures in Kelvin (WeatherSpec), wind in km/h
        rounded to 2 decimals, uv an integer."""
        self.send_json({"t": "weather", "temp": temp, "hi": hi, "lo": lo, "hum": hum, "rain": rain, "uv": int(uv),
                        "code": code, "txt": render(txt), "wind": round(wind, 2), "wdir": wdir, "loc": render(loc)})

    def calendar(self, id, timestamp, duration, title, description="", location="", cal_name="", color=0,
                 all_day=False, type=0):
        """onAddCalendarEvent (only with the device's sync_calendar on): the
        start in Unix seconds, the duration in seconds."""
        self.send_json({"t": "calendar", "id": id, "type": type, "timestamp": timestamp,
                        "durationInSeconds": duration, "title": render(title), "description": render(description),
                        "location": render(location), "calName": render(cal_name), "color": color, "allDay": all_day})

    def calendar_removed(self, ids):
        """deleteCalendarEvents: one id or an array of them."""
        self.send_json({"t": "calendar-", "id": ids})

    # ---- serving the watch

    def serve(self, seconds, until=lambda phone: False):
        """Answers the watch's requests and collects its notifications for up
        to `seconds`, or until `until(self)` is true. Returns until's value."""
        deadline = time.time() + seconds
        while not until(self) and time.time() < deadline and self.sock:
            pdu = self._recv(min(0.1, max(0.0, deadline - time.time())))
            if pdu is not None:
                self._handle(pdu)
        return until(self)

    def poll(self):
        """Handles whatever the watch has already sent, without waiting."""
        while self.sock:
            pdu = self._recv(0)
            if pdu is None:
                return
            self._handle(pdu)

    def wait_line(self, predicate, seconds=5.0, since=None):
        """The first parsed line that satisfies predicate, among those received
        from now on (or from index `since` of self.lines)."""
        seen = len(self.lines) if since is None else since
        found = []
        def hit(p):
            for line in p.lines[seen:]:
                if predicate(line):
                    found.append(line); return True
            return False
        self.serve(seconds, hit)
        return found[0] if found else None

    def _wait_while_paused(self, limit=10.0):
        deadline = time.time() + limit
        while self.paused and time.time() < deadline:
            self.serve(0.1)
        if self.paused:
            self.problems.append("XOFF with no XON for %.0f s: Gadgetbridge's queue would stall" % limit)
            self.paused = False

    def _send(self, pdu):
        """Sends one PDU; while the socket is full, serves the watch (it may be
        waiting for us to read before it reads again)."""
        while True:
            try:
                self.sock.send(pdu)
                return
            except BlockingIOError:
                readable, _, _ = select.select([self.sock], [self.sock], [], 1.0)
                if readable:
                    pdu_in = self._recv(0)
                    if pdu_in is not None:
                        self._handle(pdu_in)

    def _recv(self, timeout):
        """One PDU from the watch, or None. A closed link raises ConnectionError."""
        if self.sock is None:
            raise ConnectionError("not connected")
        readable, _, _ = select.select([self.sock], [], [], max(0.0, timeout))
        if not readable:
            return None
        try:
            pdu = self.sock.recv(4096)
        except BlockingIOError:
            return None
        if not pdu:
            self.sock.close(); self.sock = None
            raise ConnectionError("the watch closed the link")
        if self.verbose:
            print("watch ->", pdu.hex(" "))
        return pdu

    def _handle(self, pdu):
        """A PDU from the watch that is not the response we wait for."""
        op = pdu[0]
        start = u16(pdu, 1) if len(pdu) >= 3 else 0
        if op == MTU_REQ:
            self.watch_mtu = u16(pdu, 1)
            self.link_mtu = max(23, min(self.watch_mtu, self.server_mtu))
            self.watch_requests.append(op)
            self._send(bytes([MTU_RSP]) + le16(self.server_mtu))
        elif op in (READ_BY_GROUP_REQ, READ_BY_TYPE_REQ, FIND_INFO_REQ, FIND_BY_TYPE_REQ):
            self.watch_requests.append(op)   # no ANCS, no AMS, no CTS on this phone
            self._send(bytes([ERROR, op]) + le16(start) + bytes([ATTRIBUTE_NOT_FOUND]))
        elif op in (READ_REQ, READ_BLOB_REQ, WRITE_REQ, PREP_WRITE_REQ):
            self.watch_requests.append(op)
            self._send(bytes([ERROR, op]) + le16(start) + bytes([INVALID_HANDLE]))
        elif op in (NOTIFY, INDICATE):
            if op == INDICATE:
                self._send(bytes([CONFIRM]))
            if len(pdu) > self.link_mtu:
                self.problems.append("a %d-byte PDU over ATT_MTU %d: %s" % (len(pdu), self.link_mtu, pdu[:24].hex(" ")))
            if start == self.tx_handle:
                self._uart_rx(pdu[3:])
        elif op in RESPONSES or op in (CONFIRM, WRITE_CMD, 0xD2):
            pass                             # a late response, or a command: nothing to answer
        else:
            self.watch_requests.append(op)
            self._send(bytes([ERROR, op]) + le16(0) + bytes([REQUEST_NOT_SUPPORTED]))

    def _uart_rx(self, chars):
        """onCharacteristicChanged: grow the chunk size, strip XON/XOFF, cut
        lines at \\n dropping the char before it, hand each to handleUartRxLine."""
        if len(chars) > self.mtu_size:
            self.mtu_size = len(chars)
        kept = bytearray()
        for b in chars:
            if b == 0x13:
                self.paused = True
            elif b == 0x11:
                self.paused = False
            else:
                kept.append(b)
        if any(b >= 0x80 for b in kept):
            self.problems.append("non-ASCII bytes in a notification (GB reads Latin-1): %r" % bytes(kept))
        self.received_line += kept.decode("latin-1")
        while "\n" in self.received_line:
            p = self.received_line.index("\n")
            line = self.received_line[:p - 1 if p > 0 else 0]
            dropped = self.received_line[p - 1] if p > 0 else ""
            self.received_line = self.received_line[p + 1:]
            self.rx_lines.append((line, dropped))
            self._uart_rx_line(line, dropped)

    def _uart_rx_line(self, line, dropped):
        """handleUartRxLine: empty lines ignored, '{' lines parsed as JSON."""
        if dropped not in ("\r", ""):
            self.problems.append("line not ended by \\r\\n: GB dropped %r from %r" % (dropped, line + dropped))
        if not line or not line.startswith("{"):
            return
        try:
            obj = json.loads(line)
        except ValueError as e:
            self.malformed.append(line)
            self.problems.append("Malformed JSON from Bangle.js: %s in %r" % (e, line))
            return
        if not isinstance(obj, dict) or "t" not in obj:
            return                            # "parsed but doesn't contain 't' - ignoring"
        allowed = WATCH_N.get(obj["t"])
        if allowed is not None and str(obj.get("n", "")).upper() not in allowed:
            self.problems.append("unknown n for %s (Event.valueOf would throw): %r" % (obj["t"], line))
        self.lines.append(obj)


if __name__ == "__main__":
    # The encoder against the exact bytes of /work/gb-protocol.md (2.2, 2.4, 2.5).
    rene = gb_line({"t": "notify", "id": 1234, "src": "WhatsApp", "title": "René", "subject": "",
                    "body": "Café at 5?\nOK", "sender": "René", "tel": "+441234567890"})
    assert rene == (b'\x10GB({"t":"notify","id":1234,"src":"WhatsApp","title":"Ren\\xe9","subject":"",'
                    b'"body":"Caf\\xe9 at 5?\\nOK","sender":"Ren\\xe9","tel":"+441234567890"})\n'), rene
    assert len(rene) == 146 and len(range(0, len(rene), 20)) == 8
    assert js("àéèêëïîôùç") == 'atob("4Ono6uvv7vT55w==")'
    assert js("Здравствуй") == '"\\u0417\\u0434\\u0440\\u0430\\u0432\\u0441\\u0442\\u0432\\u0443\\u0439"'
    assert js("Grüße °C").encode("latin-1") == b'"Gr\xfc\\xdfe \xb0C"'
    assert js("a\x01" + "7\x02x\x10\r\u0416") == '"a\\x017\\2x\\20\\x0d\\u0416"'
    assert js({"t": "call", "cmd": "end", "name": None, "number": "+44"}) == '{"t":"call","cmd":"end","number":"+44"}'
    assert time_line(1735732800, 1.0) == (b"\x10setTime(1735732800);E.setTimeZone(1.0);(s=>s&&(s.timezone=1.0,"
                                          b"require('Storage').write('setting.json',s)))"
                                          b"(require('Storage').readJSON('setting.json',1))\n")
    assert [java_number(v, single=True) for v in (5.5, 5.75, -3.5, 0.0)] == ["5.5", "5.75", "-3.5", "0.0"]
    assert [java_number(v) for v in (12.5, 1e-4, 1e7, 100.0)] == ["12.5", "1.0E-4", "1.0E7", "100.0"]
    print("the encoder matches gb-protocol.md")
