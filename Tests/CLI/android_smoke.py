#!/usr/bin/env python3
"""An Android phone running Gadgetbridge against the built binary:
`wristcore run --board sim --phone ... --harness ...` with the independent
Gadgetbridge emulator (gadgetbridge_phone.py) on the phone endpoint, and the
harness (docs/harness.md) to see what the watch shows, buzzes and sends.

Scenarios: the handshake, the clock line, notifications in every encoding
Gadgetbridge uses (Latin-1 escapes, atob, \\u), notify-, the negative button
(DISMISS / OPEN back to the phone), calls (ring, ACCEPT/REJECT, end), music, find,
and hostile input (malformed and oversized lines, a flood, a link dropped in
the middle of a line, a link at MTU 23). Failures print the daemon's log lines of that scenario.
Prints 'N passed, M failed'; exit status 1 on a failure.

usage: android_smoke.py path/to/wristcore [--verbose]
"""
import json, os, select, socket, subprocess, sys, tempfile, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
from gadgetbridge_phone import GadgetbridgePhone, gb_line, time_line

wristcore = sys.argv[1]
verbose = "--verbose" in sys.argv
tmp = tempfile.mkdtemp(prefix="wc-android-")
phone_path, harness_path, log_path = tmp + "/phone.sock", tmp + "/harness.sock", tmp + "/daemon.log"
log_file = open(log_path, "wb")
daemon = subprocess.Popen([wristcore, "run", "--board", "sim", "--phone", "unix:" + phone_path,
                           "--harness", "unix:" + harness_path, "--log-level", "info"],
                          stdout=log_file, stderr=subprocess.STDOUT, env=dict(os.environ, TZ="UTC"))
passed = failed = 0
log_mark = 0


def daemon_log(since=0):
    with open(log_path, "rb") as f:
        return f.read().decode("utf-8", "replace").splitlines()[since:]


def scenario(name):
    """Starts a scenario: its failures show the log lines from here on."""
    global log_mark
    log_mark = len(daemon_log())
    print("# " + name)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
        return True
    failed += 1; print("not ok -", name, detail if isinstance(detail, str) else repr(detail))
    for line in daemon_log(log_mark)[-15:]:
        print("#   log:", line)
    return False


class Harness:
    """A harness client that keeps the motor and events streams apart from
    the replies, and reads snapshot bytes after their header line."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf, self.replies, self.motor, self.events = b"", [], [], []

    def pump(self, timeout=0.0):
        """Reads what has arrived (waiting up to `timeout` for the first bytes)."""
        while True:
            r, _, _ = select.select([self.sock], [], [], timeout)
            if not r:
                return
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the harness closed the connection")
            self.buf += data
            timeout = 0
            self._split()

    def _split(self):
        while b"\n" in self.buf:
            line, rest = self.buf.split(b"\n", 1)
            if line.startswith(b"snapshot ") and len(line.split()) == 3:
                n = int(line.split()[2])
                if len(rest) < n:
                    return                      # the image is not all here yet
                self.replies.append((line.decode(), rest[:n]))
                self.buf = rest[n:]
                continue
            self.buf = rest
            text = line.decode("utf-8", "replace")
            if text.startswith("motor "):
                self.motor.append((text.split()[1], int(text.split()[2])))
            elif text.startswith("{"):
                self.events.append(json.loads(text))
            else:
                self.replies.append(text)

    def ask(self, cmd, timeout=15, phone=None):
        """One command, its one reply; the phone is served meanwhile."""
        self.sock.sendall((cmd + "\n").encode())
        deadline = time.time() + timeout
        while not self.replies and time.time() < deadline:
            if phone and phone.sock:
                phone.serve(0.02)
            self.pump(0.02)
        if not self.replies:
            raise TimeoutError("no reply to %r" % cmd)
        return self.replies.pop(0)

    def state(self, phone=None):
        reply = self.ask("state", phone=phone)
        return json.loads(reply[len("state "):])

    def notifications(self, phone=None):
        reply = self.ask("notifications", phone=phone)
        return json.loads(reply[len("notifications "):])

    def snapshot(self, phone=None):
        header, data = self.ask("snapshot pbm", phone=phone)
        return data


def save_png(name, phone=None):
    """Keeps what the panel shows, for a human to look at."""
    header, data = h.ask("snapshot png", phone=phone)
    with open("%s/%s.png" % (tmp, name), "wb") as out:
        out.write(data)


def until(pred, seconds, phone=None, h=None):
    """Serves the phone and reads the harness until pred() or the time is up."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if pred():
            return True
        if phone and phone.sock:
            phone.serve(0.02)
        if h:
            h.pump(0.02)
    return pred()


def event_for(h, uid, change=("added", "modified")):
    """The latest notification event for uid."""
    found = [e for e in h.events if e.get("event") == "notification" and e.get("uid") == uid
             and e.get("change") in change]
    return found[-1] if found else None


def motor_on_since(h, since):
    return [t for what, t in h.motor if what == "on" and t >= since]


def mono_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


phones = []


def new_phone(**options):
    """A fresh Gadgetbridge (chunk size back at 20); kept for the final check."""
    phones.append(GadgetbridgePhone(phone_path, **options))
    return phones[-1]


def alive():
    return daemon.poll() is None


phone = None
try:
    for _ in range(200):
        if os.path.exists(harness_path) and os.path.exists(phone_path): break
        time.sleep(0.05)
    enc = subprocess.run([sys.executable, os.path.join(here, "gadgetbridge_phone.py")], capture_output=True, text=True)
    check("the emulator's encoder matches the reference bytes (gadgetbridge_phone.py's self-test)",
          enc.returncode == 0, enc.stderr[-500:])
    h = Harness(harness_path)
    check("motor stream", h.ask("motor") == "ok motor")
    check("events stream", h.ask("events") == "ok events")

    # ------------------------------------------------------------ handshake
    scenario("handshake: Android's discovery, CCCD, MTU 131, no time line yet")
    phone = new_phone(verbose=verbose)
    try:
        phone.connect(prelude=False)
        ok = True
    except Exception as e:   # noqa: broad on purpose: report, don't stop the suite
        ok = False; err = e
    check("the handshake completes (NUS found by its 128-bit UUID, CCCD written, MTU exchanged)", ok,
          "" if ok else repr(err))
    check("RX 6E400002 offers write-without-response", phone.rx_props & 0x04, hex(phone.rx_props))
    check("TX 6E400003 notifies and has a CCCD", phone.tx_props & 0x10 and phone.cccd_handle, str(phone.characteristics))
    check("the MTU exchange gives 131", phone.att_mtu == 131, str(phone.att_mtu))
    check("the watch looked for the phone's services and took 'Attribute Not Found'",
          set(phone.watch_requests) & {0x06, 0x10}, str(phone.watch_requests))
    until(lambda: phone.lines, 3, phone, h)
    ver = [l for l in phone.lines if l.get("t") == "ver"]
    check("the watch volunteers a 'ver' line", ver, str(phone.rx_lines))
    print("#   the watch asked for MTU %s (we answer %d, as Android does); its 'ver' notification was %d bytes"
          % (phone.watch_mtu, phone.server_mtu, phone.mtu_size))
    check("Gadgetbridge's chunk size grew to the longest notification (%d)" % phone.mtu_size,
          phone.mtu_size > 20, str(phone.mtu_size))
    st = h.state(phone)
    check("the harness shows the phone connected", st["connected"] and st["link"] == "connected", str(st))

    # ------------------------------------------------------------ the clock
    scenario("setTime: the idle clock follows the phone's time and zone")

    def clock_snapshot():
        st = h.state(phone)
        if st["display"] == "off":
            h.ask("press back", phone=phone)     # the first press only wakes it
        phone.serve(0.4)
        return h.snapshot(phone), h.state(phone)["screen"]

    def clock_scenario():
        now = int(time.time())
        minute = now // 60
        m0 = minute * 60
        a, screen = clock_snapshot()                                          # before any setTime
        phone.send_raw(time_line(now, 0.0)); b, _ = clock_snapshot()          # the phone's now, UTC
        phone.send_raw(time_line(now + 7 * 3600 + 13 * 60, 0.0)); c, _ = clock_snapshot()
        phone.send_raw(time_line(now - 19800, 5.5)); d, _ = clock_snapshot()  # UTC-5:30 at +5.5: the same wall time
        phone.send_raw(time_line(now, 5.5)); e, _ = clock_snapshot()          # 5:30 east of now
        phone.send_raw(time_line(now, -3.5)); f, _ = clock_snapshot()         # a float zone west
        phone.send_raw(time_line(now + 3 * 3600 + 1800, -3.5)); g, _ = clock_snapshot()  # the same wall time
        phone.send_raw(time_line(m0 + 1, 0.0)); s1, _ = clock_snapshot()      # two seconds of one minute
        phone.send_raw(time_line(m0 + 58, 0.0)); s2, _ = clock_snapshot()
        phone.send_raw(time_line(m0 + 61, 0.0)); s3, _ = clock_snapshot()     # the next minute
        phone.send_raw(b" \x03" + time_line(now + 7 * 3600 + 13 * 60, 0.0)); o, _ = clock_snapshot()
        return int(time.time()) // 60 == minute, screen, a, b, c, d, e, f, g, s1, s2, s3, o

    for attempt in range(3):
        same_minute, screen, a, b, c, d, e, f, g, s1, s2, s3, o = clock_scenario()
        if same_minute: break
    check("the clock shows on the idle screen", screen == "idleClock", screen)
    check("setTime changes the clock (now+7h13m differs from now)", b != c)
    check("setTime is read as seconds (:01 and :58 of a minute look the same, :61 differs)",
          s1 == s2 == b and s3 != s2)
    check("E.setTimeZone(5.5) is added to UTC (UTC-5:30 with +5.5 shows the same as UTC with 0.0)", b == d)
    check("E.setTimeZone(5.5) moves the clock (now with +5.5 differs from now with 0.0)", b != e)
    check("E.setTimeZone(-3.5): a negative zone (UTC+3:30 with -3.5 equals UTC with 0.0)", b == g and f != b)
    check("a pre-2023 Gadgetbridge's ' \\x03' (Ctrl-C) before the time line: the clock is still set", o == c)
    print("#   before any setTime the idle clock %s" % ("looks the same as with the phone's time" if a == b
          else "differs from the phone's time (no time yet)"))
    for name, image in (("before-settime", a), ("phone-utc", b), ("phone-plus-5.5", e), ("phone-minus-3.5", f)):
        with open("%s/clock-%s.pbm" % (tmp, name), "wb") as out:
            out.write(image)
    print("#   the clock screens are in %s/clock-*.pbm (UTC now was %s)" % (tmp, time.strftime("%H:%M %a %d %b", time.gmtime())))
    phone.send_raw(time_line())   # back to the real time, as GB's prelude would

    # ------------------------------------------------------------ the prelude on a new link
    scenario("the connect prelude on a fresh link (setTime + is_gps_active)")
    phone.close()
    until(lambda: not h.state()["connected"], 3, None, h)
    phone = new_phone(verbose=verbose)
    phone.connect()
    until(lambda: any(l.get("t") == "gps_power" for l in phone.lines), 2, phone, h)
    check("connect() with the prelude: the daemon lives and the link is up", alive() and h.state(phone)["connected"])
    check("the harness state says an Android phone", h.state(phone).get("phone") == "android", h.state(phone))
    sync = phone.wait_line(lambda l: l.get("t") == "force_calendar_sync", 2, since=0)
    check("the watch tells Gadgetbridge which calendar events it holds (force_calendar_sync)",
          sync is not None and isinstance(sync.get("ids"), list), str(phone.lines[-4:]))
    gps = [l for l in phone.lines if l.get("t") == "gps_power"]
    print("#   is_gps_active: %s" % ("answered %r" % gps[0] if gps else
          "no gps_power reply (optional; BangleApps answers {\"t\":\"gps_power\",\"status\":false})"))

    # ------------------------------------------------------------ a notification
    scenario("notify: WhatsApp, René, Café at 5?\\nOK")
    since = mono_ns()
    phone.notify(1234, src="WhatsApp", title="René", body="Café at 5?\nOK", sender="René", tel="+441234567890")
    until(lambda: event_for(h, 1234), 3, phone, h)
    ev = event_for(h, 1234)
    check("an 'added' event for id 1234", ev is not None, str(h.events[-3:]))
    ev = ev or {}
    check("its title is UTF-8 'René'", ev.get("title") == "René", repr(ev.get("title")))
    check("its message is 'Café at 5?\\nOK'", ev.get("message") == "Café at 5?\nOK", repr(ev.get("message")))
    check("its app is WhatsApp", "WhatsApp" in (ev.get("app"), ev.get("appName")), str(ev))
    stored = [n for n in h.notifications(phone) if n["uid"] == 1234]
    check("it is in the store with the same title and message",
          stored and stored[0]["title"] == "René" and stored[0]["message"] == "Café at 5?\nOK", str(stored))
    st = h.state(phone)
    check("it pops up (detail screen, uid 1234)", st["screen"] == "detail" and st["uid"] == 1234, str(st))
    save_png("notification-rene", phone)
    until(lambda: motor_on_since(h, since), 2, phone, h)
    check("the motor buzzes for it", motor_on_since(h, since),
          "no motor line; the watch has it as category %r, flags %r" % (ev.get("category"), ev.get("flags")))

    # ------------------------------------------------------------ encodings
    scenario("encodings: atob, \\u, raw Latin-1, escapes")
    body = "àéèêëïîôùç"
    line = gb_line({"t": "notify", "id": 1235, "src": "Mail", "title": "Accents", "subject": "", "body": body,
                    "sender": ""})
    check("the encoder sends the accent-heavy body as atob(...)", b'"body":atob("4Ono6uvv7vT55w==")' in line, line)
    phone.notify(1235, src="Mail", title="Accents", body=body)
    until(lambda: event_for(h, 1235), 3, phone, h)
    ev = event_for(h, 1235) or {}
    check("atob(...) arrives decoded: 'àéèêëïîôùç'", ev.get("message") == body, repr(ev.get("message")))

    title = "Здравствуй"
    phone.notify(1236, src="Telegram", title=title, body="Привет, как дела?")
    until(lambda: event_for(h, 1236), 3, phone, h)
    ev = event_for(h, 1236) or {}
    check("a Cyrillic title (\\u escapes) arrives right", ev.get("title") == title, repr(ev.get("title")))
    check("a Cyrillic body arrives right", ev.get("message") == "Привет, как дела?", repr(ev.get("message")))

    body = 'say "hi" \\ tab\there 😀 end'
    phone.notify(1237, src="Signal", title="Grüße °C", body=body)
    until(lambda: event_for(h, 1237), 3, phone, h)
    ev = event_for(h, 1237) or {}
    check("raw Latin-1 bytes and \\xdf: 'Grüße °C'", ev.get("title") == "Grüße °C", repr(ev.get("title")))
    check("\\\" \\\\ \\t and a surrogate pair (\\ud83d\\ude00) decode right", ev.get("message") == body,
          repr(ev.get("message")))

    body = "a\x01b\x017 c\x10d e\rf 😀"   # \1, \x01 before a digit, \20 (DLE), \x0d; emoji keeps it off atob
    phone.notify(1238, src="Odd", title="Controls", body=body)
    until(lambda: event_for(h, 1238), 3, phone, h)
    ev = event_for(h, 1238) or {}
    msg = ev.get("message") or ""
    check("octal \\1, \\x01 before a digit, \\20 and \\x0d decode to the same characters", msg == body, repr(msg))

    # ------------------------------------------------------------ notify-
    scenario("notify- removes")
    phone.notify_removed(1236)
    until(lambda: event_for(h, 1236, ("removed",)), 3, phone, h)
    check("notify- 1236 gives a 'removed' event", event_for(h, 1236, ("removed",)) is not None)
    check("and it leaves the store", all(n["uid"] != 1236 for n in h.notifications(phone)))

    # ------------------------------------------------------------ the negative button
    scenario("the negative button on a shown notification sends DISMISS")
    phone.notify(1240, src="WhatsApp", title="Anna", body="Lunch at one?")
    until(lambda: event_for(h, 1240), 3, phone, h)
    st = h.state(phone)
    check("it is on screen (detail, uid 1240, display on)",
          st["screen"] == "detail" and st["uid"] == 1240 and st["display"] == "on", str(st))
    rx_before, mark = len(phone.rx_lines), len(phone.lines)
    h.ask("press negative", phone=phone)
    reply = phone.wait_line(lambda l: l.get("t") == "notify", 3, since=mark)
    check('the phone gets {"t":"notify","id":1240,"n":"DISMISS"}', reply == {"t": "notify", "id": 1240, "n": "DISMISS"},
          "%r; lines: %r" % (reply, phone.rx_lines[rx_before:]))
    print("#   after DISMISS and before the phone's notify-, 1240 is %s the watch's store"
          % ("still in" if any(n["uid"] == 1240 for n in h.notifications(phone)) else "gone from"))
    check("that line ends \\r\\n (nothing of it lost to GB's cut)",
          all(d == "\r" for _, d in phone.rx_lines[rx_before:] if _), str(phone.rx_lines[rx_before:]))
    phone.notify_removed(1240)     # Android removes the notification; GB says so
    until(lambda: event_for(h, 1240, ("removed",)), 2, phone, h)
    check("the following notify- removes it", all(n["uid"] != 1240 for n in h.notifications(phone)))

    scenario("the positive button on a shown notification sends OPEN")
    phone.notify(1241, src="WhatsApp", title="Ben", body="Call me")
    until(lambda: event_for(h, 1241), 3, phone, h)
    st = h.state(phone)
    check("it is on screen (detail, uid 1241)", st["screen"] == "detail" and st["uid"] == 1241, str(st))
    mark = len(phone.lines)
    h.ask("press positive", phone=phone)
    reply = phone.wait_line(lambda l: l.get("t") == "notify", 3, since=mark)
    check('the phone gets {"t":"notify","id":1241,"n":"OPEN"}', reply == {"t": "notify", "id": 1241, "n": "OPEN"},
          repr(reply))
    phone.notify_removed(1241)

    scenario("an updated notification (the same id again) replaces the old one")
    phone.notify(1250, src="Chat", title="Group", body="first")
    until(lambda: event_for(h, 1250), 3, phone, h)
    phone.notify(1250, src="Chat", title="Group", body="first\nsecond")
    until(lambda: (event_for(h, 1250) or {}).get("message") == "first\nsecond", 3, phone, h)
    same = [n for n in h.notifications(phone) if n["uid"] == 1250]
    check("one entry, with the new body", len(same) == 1 and same[0]["message"] == "first\nsecond", str(same))

    scenario("the longest notify Gadgetbridge sends (crop limits, every char a \\u escape), and odd chunkings")
    cyr = "Ж" * 500
    line = gb_line({"t": "notify", "id": 1260, "src": "Telegram", "title": cyr[:77] + "...",
                    "subject": cyr[:77] + "...", "body": cyr[:397] + "...", "sender": cyr[:37] + "...",
                    "tel": "+441234567890"})
    print("#   that line is %d bytes" % len(line))
    phone.notify(1260, src="Telegram", title=cyr, subject=cyr, body=cyr, sender=cyr, tel="+441234567890")
    until(lambda: event_for(h, 1260), 3, phone, h)
    ev = event_for(h, 1260) or {}
    title, msg = ev.get("title") or "", ev.get("message") or ""
    check("it is not dropped (3.7 KB), and what is kept is a prefix cut on a character boundary",
          ev and (cyr[:77] + "...").startswith(title) and (cyr[:397] + "...").startswith(msg) and msg,
          "title %r, message %r" % (title[:12], msg[:12]))
    print("#   kept: title %d chars (%d UTF-8 bytes), message %d chars (%d UTF-8 bytes); sent 80 and 400 chars"
          % (len(title), len(title.encode()), len(msg), len(msg.encode())))
    phone.send_raw(gb_line({"t": "notify", "id": 1261, "src": "Mail", "title": "Tiny chunks", "subject": "",
                            "body": "Ren\xe9 \u0416 \u00e0\u00e9\u00e8\u00ea\u00eb\u00ef\u00ee\u00f4",
                            "sender": ""}), chunk=1)
    until(lambda: event_for(h, 1261), 3, phone, h)
    check("one byte per write (escapes and atob split everywhere) arrives right",
          (event_for(h, 1261) or {}).get("message") == "Ren\xe9 \u0416 \u00e0\u00e9\u00e8\u00ea\u00eb\u00ef\u00ee\u00f4",
          repr((event_for(h, 1261) or {}).get("message")))
    phone.send_raw(gb_line({"t": "notify", "id": 1262, "src": "Mail", "title": "Twenty", "subject": "",
                            "body": "Caf\xe9 Ren\xe9 " * 4, "sender": ""}), chunk=20)
    until(lambda: event_for(h, 1262), 3, phone, h)
    check("20-byte writes (Gadgetbridge before the watch's first notification) arrive right",
          (event_for(h, 1262) or {}).get("message") == "Caf\xe9 Ren\xe9 " * 4)
    phone.send_raw(gb_line({"t": "notify", "id": 1263, "src": "Tasker", "title": "No DLE", "subject": "",
                            "body": "ok", "sender": ""})[1:])
    until(lambda: event_for(h, 1263), 2, phone, h)
    check("a GB(...) line without the leading \\x10 (Tasker / App Loader pass-through) is read too",
          event_for(h, 1263) is not None)
    for uid in (1250, 1260, 1261, 1262, 1263):
        phone.notify_removed(uid)
    phone.serve(0.3)

    # ------------------------------------------------------------ calls
    scenario("an incoming call rings; the positive button accepts; end removes")
    since = mono_ns()
    phone.call("incoming", name="Alice", number="+441234567890")
    until(lambda: h.state(phone)["ringing"] is not None, 3, phone, h)
    st = h.state(phone)
    check("the call rings (state.ringing set, incomingCall screen)",
          st["ringing"] is not None and st["screen"] == "incomingCall", str(st))
    until(lambda: motor_on_since(h, since), 2, phone, h)
    check("the motor rings", motor_on_since(h, since), str(h.motor[-4:]))
    save_png("call-alice", phone)
    calls = [n for n in h.notifications(phone) if n["category"] == "incomingCall"]
    check("the caller's name is shown", calls and "Alice" in (calls[0]["title"] or ""), str(calls))
    mark = len(phone.lines)
    h.ask("press positive", phone=phone)
    reply = phone.wait_line(lambda l: l.get("t") == "call", 3, since=mark)
    check('the positive button sends {"t":"call","n":"ACCEPT"}', reply == {"t": "call", "n": "ACCEPT"}, repr(reply))
    phone.serve(0.3)
    st = h.state(phone)
    check("the ring stops on the press", st["motor"] == "off", str(st))
    since = mono_ns()
    phone.call("start", name="Alice", number="+441234567890")   # Android: off-hook after the answer
    phone.serve(1.0)
    check("'start' (the call answered) does not ring again", not motor_on_since(h, since), str(h.motor[-4:]))
    phone.call("end", number="+441234567890")
    until(lambda: h.state(phone)["ringing"] is None and h.state(phone)["screen"] != "incomingCall", 3, phone, h)
    st = h.state(phone)
    check("'end' removes the call", st["ringing"] is None and st["screen"] != "incomingCall"
          and not [n for n in h.notifications(phone) if n["category"] == "incomingCall"], str(st))

    phone.call("incoming", name="Bob", number="+15550100")
    until(lambda: h.state(phone)["screen"] == "incomingCall", 3, phone, h)
    mark = len(phone.lines)
    h.ask("press negative", phone=phone)
    reply = phone.wait_line(lambda l: l.get("t") == "call", 3, since=mark)
    check('the negative button on a call sends {"t":"call","n":"REJECT"}', reply == {"t": "call", "n": "REJECT"},
          repr(reply))
    phone.call("end", number="+15550100")
    until(lambda: h.state(phone)["ringing"] is None, 3, phone, h)
    check("the rejected call goes with 'end'", h.state(phone)["ringing"] is None)

    # ------------------------------------------------------------ music
    scenario("musicinfo / musicstate")
    phone.music_info(artist="Ava Max", album="Heaven & Hell", track="Sweet but Psycho", dur=187, c=-1, n=-1)
    phone.music_state("play", position=42)
    until(lambda: (h.state(phone).get("media") or {}).get("state") == "playing", 3, phone, h)
    media = h.state(phone).get("media")
    check("state.media has the track", media and media.get("title") == "Sweet but Psycho"
          and media.get("artist") == "Ava Max" and media.get("album") == "Heaven & Hell", str(media))
    check("state.media is playing, 187 s long, at about 42 s",
          media and media.get("state") == "playing" and media.get("durationMs") == 187000
          and 41000 <= (media.get("elapsedMs") or 0) <= 50000, str(media))
    check("an events 'media' line came", any(e.get("event") == "media" for e in h.events))
    phone.music_state("pause", position=50)
    until(lambda: (h.state(phone).get("media") or {}).get("state") == "paused", 3, phone, h)
    media = h.state(phone).get("media") or {}
    check("musicstate pause: paused at 50 s", media.get("state") == "paused"
          and media.get("elapsedMs") == 50000, str(media))

    # ------------------------------------------------------------ find / vibrate
    scenario("find / vibrate")
    since = mono_ns()
    phone.find(True)
    until(lambda: motor_on_since(h, since), 2.5, phone, h)
    check("find n:true buzzes the motor", motor_on_since(h, since), str(h.motor[-4:]))
    phone.find(False)
    phone.serve(1.5)
    check("find n:false leaves the motor off", h.state(phone)["motor"] == "off", str(h.motor[-4:]))
    since = mono_ns()
    phone.vibrate(1)
    until(lambda: motor_on_since(h, since), 2, phone, h)
    check("vibrate n:1 buzzes the motor", motor_on_since(h, since), str(h.motor[-4:]))
    phone.serve(1.0)

    # ------------------------------------------------------------ weather, calendar, find phone
    scenario("weather and calendar events reach the watch; the watch menu rings the phone")
    phone.weather(288, 291, 282, 72, 20, 3, 802, "scattered clouds", 12.5, 230, "Berlin")
    until(lambda: (h.state(phone).get("weather") or {}).get("temperature") == 15, 2, phone, h)
    w = h.state(phone).get("weather")
    check("weather: 288 K is 15 °C, with its condition and place",
          w == {"temperature": 15, "summary": "scattered clouds", "location": "Berlin"}, str(w))
    start = int(time.time()) + 2 * 3600
    phone.calendar(5678, start, 3600, "Standup", location="Room 1", cal_name="Work", color=-16776961)
    phone.calendar(5679, start + 86400, 1800, "Dentist")
    until(lambda: h.state(phone).get("calendarEvents") == 2, 2, phone, h)
    check("two calendar events are held", h.state(phone).get("calendarEvents") == 2, str(h.state(phone)))
    phone.calendar(5678, start + 600, 3600, "Standup (moved)")
    phone.calendar_removed([5679])
    until(lambda: h.state(phone).get("calendarEvents") == 1, 2, phone, h)
    check("the same id replaces, calendar- [ids] removes", h.state(phone).get("calendarEvents") == 1, str(h.state(phone)))
    phone.send_json({"t": "alarm", "d": [{"h": 6, "m": 45, "rep": 31, "on": True}, {"h": 9, "m": 0, "rep": 0, "on": False}]})
    until(lambda: h.state(phone).get("phoneAlarms") == 2, 2, phone, h)
    al = h.state(phone).get("alarms") or {}
    check("the phone's alarms are the watch's to ring: listed with ' phone'",
          al.get("list") == ["06:45 Mon-Fri on phone", "09:00 Once off phone"], str(al))
    mark = len(phone.lines)
    phone.send_json({"t": "force_calendar_sync_start"})
    reply = phone.wait_line(lambda l: l.get("t") == "force_calendar_sync" and l.get("ids") == [5678], 2, since=mark)
    check('force_calendar_sync_start is answered {"t":"force_calendar_sync","ids":[5678]}', reply is not None,
          str(phone.lines[-3:]))
    for _ in range(4):   # to the lit clock: back wakes the display, leaves notices and Now Playing
        st = h.state(phone)
        if st["display"] == "on" and st["screen"] == "idleClock":
            break
        h.ask("press back", phone=phone)
        phone.serve(0.2)
    h.ask("hold negative 800", phone=phone)
    phone.serve(0.3)
    check("the clock's negative long press opens the watch menu", h.state(phone)["screen"] == "watchMenu", str(h.state(phone)))
    for _ in range(3):   # past Alarms, Timer, Stopwatch
        h.ask("press down", phone=phone)
    h.ask("press positive", phone=phone)
    phone.serve(0.3)
    check("its fourth entry is the weather screen", h.state(phone)["screen"] == "weather", str(h.state(phone)))
    h.ask("press negative", phone=phone)
    h.ask("press down", phone=phone)   # back on "Weather": "Agenda"
    h.ask("press down", phone=phone)   # "Find phone"
    mark = len(phone.lines)
    h.ask("press positive", phone=phone)
    ring = phone.wait_line(lambda l: l.get("t") == "findPhone", 2, since=mark)
    check('"Find phone" sends {"t":"findPhone","n":true}', ring == {"t": "findPhone", "n": True}, str(phone.lines[mark:]))
    mark = len(phone.lines)
    h.ask("press negative", phone=phone)
    stop = phone.wait_line(lambda l: l.get("t") == "findPhone", 2, since=mark)
    check('any button stops it: {"t":"findPhone","n":false}', stop == {"t": "findPhone", "n": False}, str(phone.lines[mark:]))
    h.ask("press negative", phone=phone)
    phone.serve(0.3)
    check("and back to the clock", h.state(phone)["screen"] == "idleClock", str(h.state(phone)))

    # ------------------------------------------------------------ a notification's menu: reply, mute
    scenario("a notification's menu: a canned reply and 'mute this app'")
    phone.notify(1300, src="Signal", title="Ana", body="Lunch today?", sender="Ana", reply=True)
    until(lambda: event_for(h, 1300), 3, phone, h)
    h.ask("press back", phone=phone)       # the pop-up's detail, back to the list
    phone.serve(0.2)
    h.ask("hold negative 800", phone=phone)
    phone.serve(0.3)
    st = h.state(phone)
    check("the list's negative long press opens the notification's menu",
          st["screen"] == "notificationMenu" and st["uid"] == 1300, str(st))
    h.ask("press positive", phone=phone)   # "Reply"
    phone.serve(0.2)
    check("'Reply' lists the canned replies", h.state(phone)["screen"] == "replyPicker", str(h.state(phone)))
    mark = len(phone.lines)
    h.ask("press positive", phone=phone)   # the first: "OK"
    reply = phone.wait_line(lambda l: l.get("n") == "REPLY", 2, since=mark)
    check('the phone gets {"t":"notify","id":1300,"n":"REPLY","msg":"OK"}',
          reply == {"t": "notify", "id": 1300, "n": "REPLY", "msg": "OK"}, str(phone.lines[mark:]))
    phone.notify(1301, src="Gmail", title="Build", body="All green")
    until(lambda: event_for(h, 1301), 3, phone, h)
    h.ask("press back", phone=phone)
    phone.serve(0.2)
    h.ask("hold negative 800", phone=phone)
    phone.serve(0.3)
    mark = len(phone.lines)
    h.ask("press positive", phone=phone)   # no reply offered: "Mute on phone" is the first entry
    mute = phone.wait_line(lambda l: l.get("n") == "MUTE", 2, since=mark)
    check('without "reply":true the menu only mutes: {"t":"notify","id":1301,"n":"MUTE"}',
          mute == {"t": "notify", "id": 1301, "n": "MUTE"}, str(phone.lines[mark:]))
    h.ask("press negative", phone=phone)   # the list, back to the clock
    phone.serve(0.2)

    # ------------------------------------------------------------ hostile input
    scenario("malformed and hostile lines")
    bad = [b'\x10GB({"t":"notify",\n',
           b"garbage \xff\xfe{{{ ]]]\n",
           b"\x10GB(not json at all)\n",
           b'\x10GB({"t":"notify","id":"seven","title":5})\n',
           b'\x10GB({"t":"no_such_type","x":[1,2,{"y":null}]})\n',
           b'\x10GB({"t":"notify","id":1,"title":"abc\\\n',
           b'\x10GB({"t":"notify","id":2,"title":"\\xZZ\\u12","body":atob("!!!")})\n',
           b'\x10GB({"t":"notify","id":3,"x":' + b"[" * 5000 + b"]" * 5000 + b"})\n",
           b'\x10GB({"t":"notify","id":4,"title":"' + b"\\u" * 3000 + b'"})\n',
           b"\x03\x03\r\n\n\n\x10\n",
           b"\x10g.dump()\n",
           b'\x10GB({"t":"call","cmd":"incoming"})\n',      # no name, no number (both null)
           b'\x10GB({"t":"call","cmd":"end"})\n',
           b'\x10GB({"t":"notify-","id":999999})\n',       # unknown id
           b'\x10GB({"t":"notify","id":-1,"src":"","title":"","subject":"","body":"","sender":""})\n']
    for line in bad:
        phone.send_raw(line)
    phone.serve(1.0)
    check("the daemon survives malformed lines", alive())
    check("and still answers the harness", h.ask("state", phone=phone).startswith("state {"))
    phone.notify(2001, src="Good", title="After junk", body="still here")
    until(lambda: event_for(h, 2001), 3, phone, h)
    check("the next good notification shows", (event_for(h, 2001) or {}).get("title") == "After junk")

    scenario("an oversized line (10 KB) and a line past 64 KB")
    big = gb_line({"t": "notify", "id": 2100, "src": "Big", "title": "Big one", "subject": "",
                   "body": "x" * 10000, "sender": ""})
    check("the 10 KB line is over 10 KB", len(big) > 10000, str(len(big)))
    phone.send_raw(big)
    phone.serve(1.0)
    check("the daemon survives a 10 KB line", alive() and h.ask("state", phone=phone).startswith("state {"))
    ev = event_for(h, 2100)
    print("#   10 KB line: %s" % ("shown, message of %d chars" % len(ev.get("message") or "") if ev else "dropped"))
    phone.send_raw(b"\x10GB(" + b"y" * 70000 + b")\n")
    phone.notify(2101, src="Good", title="After big", body="ok")
    until(lambda: event_for(h, 2101), 5, phone, h)
    check("the daemon survives a 70 KB line", alive())
    check("the next good notification shows", (event_for(h, 2101) or {}).get("title") == "After big")

    scenario("a flood of 200 notifications in a burst")
    t0 = time.time()
    for i in range(200):
        phone.notify(3000 + i, src="Flood", title="Flood %d" % i, body="message number %d" % i)
    sent = time.time() - t0
    t1 = time.time()
    reply = h.ask("state", phone=phone)
    print("#   200 notifications written in %.2f s (%d-byte chunks); state answered %.2f s later"
          % (sent, phone.mtu_size, time.time() - t1))
    phone.serve(2.0)
    check("the daemon survives the flood", alive() and reply.startswith("state {"))
    st = h.state(phone)
    check("the store stays bounded", st["notifications"] <= 200, str(st["notifications"]))
    flood_seen = sorted(e["uid"] for e in h.events if e.get("event") == "notification"
                        and e.get("change") == "added" and 3000 <= e.get("uid", 0) < 3200)
    print("#   the events stream saw %d of the 200 added; the store holds %d" % (len(flood_seen), st["notifications"]))
    check("the newest of the flood is in the store", any(n["uid"] == 3199 for n in h.notifications(phone)))
    phone.notify(2200, src="Good", title="After flood", body="ok")
    until(lambda: event_for(h, 2200), 3, phone, h)
    check("the next good notification shows", (event_for(h, 2200) or {}).get("title") == "After flood")

    scenario("a disconnect in the middle of a line, then a reconnect")
    half = gb_line({"t": "notify", "id": 2300, "src": "Cut", "title": "Cut off", "subject": "",
                    "body": "this line is cut in the middle", "sender": ""})
    phone.send_raw(half[:60])
    phone.serve(0.2)
    phone.close()
    until(lambda: not h.state()["connected"], 3, None, h)
    check("the watch sees the link go", not h.state()["connected"])
    phone = new_phone(verbose=verbose)
    phone.connect(order="mtu-first")
    phone.send_raw(half[60:])                # the rest of the old line: must not complete it
    phone.notify(2301, src="Good", title="After reconnect", body="ok")
    until(lambda: event_for(h, 2301), 3, phone, h)
    check("reconnecting works (MTU first this time) and the next notification shows",
          (event_for(h, 2301) or {}).get("title") == "After reconnect")
    check("the half line did not come back as a notification", event_for(h, 2300) is None)
    kept = [n for n in h.notifications(phone) if n["uid"] != 2301]
    check("the list from before the drop carries over to the new link (Gadgetbridge does not resend)",
          len(kept) > 0, "%d kept" % len(kept))
    phone.serve(0.5)

    scenario("write requests instead of write commands (a central that ignores the default write type)")
    phone.rx_props &= ~0x04   # the emulator then uses Write Request for each chunk
    try:
        phone.notify(2400, src="Req", title="By write request", body="ok")
        ok = True
    except Exception as e:
        ok = False; err = e
    phone.rx_props |= 0x04
    until(lambda: event_for(h, 2400), 3, phone, h)
    check("lines written with Write Request (0x12) arrive too", ok and event_for(h, 2400) is not None,
          "" if ok else repr(err))

    scenario("a link that stays at ATT_MTU 23 (a central answering 23 and asking 23)")
    phone.close()
    until(lambda: not h.state()["connected"], 3, None, h)
    small = new_phone(mtu=23, server_mtu=23, verbose=verbose)
    small.connect()
    small.notify(2500, src="Small", title="MTU 23", body="ok")
    until(lambda: event_for(h, 2500) and small.lines, 3, small, h)
    check("the notification arrives in 20-byte writes", event_for(h, 2500) is not None)
    check("the watch's lines come in notifications of at most 20 bytes and still parse",
          small.lines and small.mtu_size <= 20 and not small.problems, "%s %s" % (small.mtu_size, small.problems[:3]))
    small.close()
    until(lambda: not h.state()["connected"], 3, None, h)
    phone = new_phone(verbose=verbose)
    phone.connect()
    mark = len(phone.lines)
    phone.notify(2501, src="Again", title="Back at 131", body="ok")
    until(lambda: event_for(h, 2501), 3, phone, h)
    h.ask("press negative", phone=phone)
    reply = phone.wait_line(lambda l: l.get("t") == "notify", 3, since=mark)
    check("back at MTU 131: a notification and its DISMISS", reply == {"t": "notify", "id": 2501, "n": "DISMISS"},
          repr(reply))

    # ------------------------------------------------------------ what the watch sent
    scenario("every line the watch sent is one Gadgetbridge parses")
    phone.serve(0.5)
    problems = [p for ph in phones for p in ph.problems]
    check("on every link, no problems: \\r\\n endings, ASCII, valid JSON, known n values, PDUs within the MTU",
          not problems, "; ".join(problems[:5]))
    print("#   the watch sent: %s" % [l for ph in phones for l in ph.lines])
except Exception as e:   # a scenario that blew up: say so, and still stop the daemon
    import traceback
    traceback.print_exc()
    check("the suite runs to the end", False, repr(e))
finally:
    if phone: phone.close()
    daemon.terminate()
    try:
        rc = daemon.wait(10)
    except subprocess.TimeoutExpired:
        daemon.kill(); rc = "killed"
    check("SIGTERM stops the daemon cleanly", rc == 0, "exit %s" % rc)
    print("# daemon log: %s" % log_path)
    print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
