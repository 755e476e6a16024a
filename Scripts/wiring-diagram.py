#!/usr/bin/env python3
"""Draws the wiring of a Raspberry Pi board file as an SVG picture.

    Scripts/wiring-diagram.py Boards/rpi-zero2w.json -o docs/build/wiring-rpi-zero2w.svg
    Scripts/wiring-diagram.py Boards/rpi-zero2w.json --check docs/build/wiring-rpi-zero2w.svg

The picture is made from the board file itself (the buttons' and the motor's
GPIO lines, the display's I2C bus), so it cannot drift from what the daemon
opens: `--check` fails when a committed picture differs from what the board
file draws today (Tests/Docs/check_docs.py runs it). Only the Raspberry Pi
40-pin header is drawn (BCM GPIO numbers, I2C bus 1 on pins 3 and 5).
"""
import argparse
import json
import re
import sys

# Physical pin (1-40) of each BCM GPIO on the 40-pin header, and the power pins.
GPIO_PIN = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16,
            24: 18, 10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29,
            6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40}
POWER_PIN = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND",
             20: "GND", 25: "GND", 30: "GND", 34: "GND", 39: "GND"}
PI_CHIPS = {"gpiochip0", "pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"}

ROLE_TEXT = {"positive": "positive (Answer / Pair)", "negative": "negative (Decline / Clear)",
             "select": "select (optional)", "back": "back (optional)",
             "up": "up (optional)", "down": "down (optional)"}

# Wire colours: what a maker would pick from a jumper-wire kit.
RED, BLACK, BLUE, YELLOW, GREEN, PURPLE = "#d62728", "#222222", "#1f77b4", "#e0a000", "#2ca02c", "#9467bd"


def strip_comments(text):
    """Board files are JSON with // comments (outside strings)."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(text):
                out.append(text[i + 1]); i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True; out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def fail(path, message):
    sys.exit(f"{path}: {message}")


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            board = json.loads(strip_comments(f.read()))
    except OSError as e:
        fail(path, e.strerror)
    except ValueError as e:
        fail(path, f"not a board file: {e}")
    display = board.get("display", {})
    if display.get("bus") != 1:
        fail(path, "display.bus is not 1: only the Raspberry Pi 40-pin header (I2C1 on pins 3/5) is drawn")
    parts = []
    for b in board.get("buttons", []):
        if b.get("chip") not in PI_CHIPS or b.get("line") not in GPIO_PIN:
            fail(path, f"button {b.get('role')}: line {b.get('line')} on {b.get('chip')} is not a 40-pin header GPIO")
        parts.append(("button", b["role"], b["line"]))
    motor = board.get("motor")
    if motor is not None:
        if motor.get("chip") not in PI_CHIPS or motor.get("line") not in GPIO_PIN:
            fail(path, f"motor: line {motor.get('line')} on {motor.get('chip')} is not a 40-pin header GPIO")
        parts.append(("motor", "motor", motor["line"]))
    return board, parts


class SVG:
    def __init__(self, width, height):
        self.width, self.height, self.items = width, height, []

    def add(self, s):
        self.items.append(s)

    def line(self, points, color, width=2.5):
        pts = " ".join(f"{x},{y}" for x, y in points)
        self.add(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{width}" '
                 'stroke-linejoin="round" stroke-linecap="round"/>')

    def text(self, x, y, s, size=12, anchor="start", weight="normal", color="#000"):
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.add(f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" '
                 f'text-anchor="{anchor}" font-weight="{weight}" fill="{color}">{s}</text>')

    def rect(self, x, y, w, h, fill="none", stroke="#000", rx=0, width=1.5):
        self.add(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="{width}"/>')

    def circle(self, x, y, r, fill="none", stroke="#000", width=1.5):
        self.add(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>')

    def dot(self, x, y, color):
        self.circle(x, y, 4, fill=color, stroke=color)

    def render(self):
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}">\n'
                f'<rect width="{self.width}" height="{self.height}" fill="#ffffff"/>\n')
        return head + "\n".join(self.items) + "\n</svg>\n"


# Header geometry: pin 1 at the left, odd pins on the lower row (the inner
# one on a Zero seen from above), even pins on the upper row.
X0, PITCH, TOP = 70, 26, 96


def pin_xy(pin):
    column = (pin - 1) // 2
    return X0 + column * PITCH, TOP + (PITCH if pin % 2 else 0)


def wire_from_pin(svg, pin, lane_y, to_x, to_y, color):
    """A wire leaving `pin` downwards (an upper-row pin steps aside between
    two lower-row pins first), along `lane_y`, then down to (to_x, to_y)."""
    x, y = pin_xy(pin)
    if pin % 2:
        points = [(x, y), (x, lane_y)]
    else:
        points = [(x, y), (x + PITCH / 2, y + PITCH / 2), (x + PITCH / 2, lane_y)]
    points += [(to_x, lane_y), (to_x, to_y)]
    svg.line(points, color)
    svg.dot(x, y, color)


def draw(board, parts):
    used = {}   # pin -> label
    svg = SVG(1000, 672)
    svg.text(20, 28, f"WristCore wiring: {board.get('name', '')}", size=17, weight="bold")
    svg.text(20, 48, "Drawn from the board file by Scripts/wiring-diagram.py. Header seen from above, pin 1 = square pad.",
             size=12, color="#444")

    # The header.
    svg.rect(X0 - 18, TOP - 16, 20 * PITCH + 10, PITCH + 32, fill="#2b2b2b", rx=4)
    pin_names = dict(POWER_PIN)
    for gpio, pin in GPIO_PIN.items():
        pin_names[pin] = f"GPIO{gpio}"
    for pin in range(1, 41):
        x, y = pin_xy(pin)
        if pin == 1:
            svg.rect(x - 7, y - 7, 14, 14, fill="#d4af37", stroke="#d4af37")
        else:
            svg.circle(x, y, 7, fill="#d4af37", stroke="#d4af37")
    # Pin numbers of the two rows' ends, to orient the reader.
    for pin in (1, 2, 39, 40):
        x, y = pin_xy(pin)
        svg.text(x, y + (26 if pin % 2 else -20), str(pin), size=11, anchor="middle")

    lanes = iter(range(TOP + 60, TOP + 60 + 16 * 20, 16))
    rail_y = 610   # the ground rail along the bottom

    # The OLED module: GND VCC SCL SDA along its top edge (the usual order).
    ox, oy = 60, 330
    svg.rect(ox, oy, 200, 120, fill="#0b2a4a", rx=6)
    svg.rect(ox + 22, oy + 38, 156, 70, fill="#000", stroke="#5aa0ff")
    svg.text(ox + 100, oy + 80, "128x64 OLED", size=13, anchor="middle", color="#9cf")
    svg.text(ox + 100, oy + 140, f"{board['display'].get('controller', 'ssd1306').upper()} I2C "
             f"module, address {board['display'].get('address', '0x3C')}", size=12, anchor="middle")
    terminals = {"GND": ox + 40, "VCC": ox + 80, "SCL": ox + 120, "SDA": ox + 160}
    for name, tx in terminals.items():
        svg.circle(tx, oy + 14, 5, fill="#d4af37", stroke="#d4af37")
        svg.text(tx, oy + 32, name, size=11, anchor="middle", color="#fff")
    # Lanes in header order, so no two wires share a stretch.
    wire_from_pin(svg, 1, next(lanes), terminals["VCC"], oy + 14, RED); used[1] = "3V3"
    wire_from_pin(svg, 3, next(lanes), terminals["SDA"], oy + 14, BLUE); used[3] = "SDA (GPIO2)"
    wire_from_pin(svg, 5, next(lanes), terminals["SCL"], oy + 14, YELLOW); used[5] = "SCL (GPIO3)"
    gnd_lane = next(lanes)
    wire_from_pin(svg, 9, gnd_lane, terminals["GND"], oy + 14, BLACK); used[9] = "GND"
    # Pin 9's ground also feeds the rail the buttons and the transistor share.
    gx, _ = pin_xy(9)
    svg.line([(terminals["GND"], oy + 14), (terminals["GND"] - 30, oy + 14), (terminals["GND"] - 30, rail_y),
              (940, rail_y)], BLACK)
    svg.text(950, rail_y + 4, "GND", size=12, weight="bold")

    # Buttons, left to right in header order, each from its GPIO to the rail.
    buttons = sorted((p for p in parts if p[0] == "button"), key=lambda p: GPIO_PIN[p[2]])
    motor = next((p for p in parts if p[0] == "motor"), None)
    bx = 320
    order = sorted(parts, key=lambda p: GPIO_PIN[p[2]])
    lane_of = {p: next(lanes) for p in order}
    supply_lane = next(lanes)
    for _, role, gpio in buttons:
        pin = GPIO_PIN[gpio]
        top, bottom = 380, 440
        wire_from_pin(svg, pin, lane_of[("button", role, gpio)], bx, top, GREEN)
        used[pin] = f"GPIO{gpio}"
        # A push switch: two contacts, the plunger bar above.
        svg.circle(bx, top, 4, fill="#fff")
        svg.circle(bx, bottom, 4, fill="#fff")
        svg.line([(bx - 10, top + 18), (bx + 14, top + 18)], "#000", 2)
        svg.line([(bx + 2, top + 18), (bx + 2, top + 8)], "#000", 2)
        svg.line([(bx - 10, top + 18), (bx, bottom - 4)], "#000", 2)
        svg.line([(bx, bottom + 4), (bx, rail_y)], BLACK)
        svg.dot(bx, rail_y, BLACK)
        svg.text(bx + 8, top - 8, f"pin {pin}", size=11)
        words = ROLE_TEXT.get(role, role).split(" ", 1)
        svg.text(bx, bottom + 26, words[0], size=12, anchor="middle", weight="bold")
        if len(words) > 1:
            svg.text(bx, bottom + 41, words[1], size=10, anchor="middle")
        bx += 95

    if motor is not None:
        _, _, gpio = motor
        pin = GPIO_PIN[gpio]
        used[pin] = f"GPIO{gpio}"
        mx = max(bx + 60, 760)
        # GPIO -> 1 kOhm -> base.
        base_y = 470
        wire_from_pin(svg, pin, lane_of[motor], mx - 110, base_y - 40, PURPLE)
        svg.line([(mx - 110, base_y - 40), (mx - 110, base_y)], PURPLE)
        svg.rect(mx - 95, base_y - 8, 44, 16, fill="#f3e1c4")
        svg.text(mx - 73, base_y - 14, "1 kΩ", size=11, anchor="middle")
        svg.line([(mx - 110, base_y), (mx - 95, base_y)], PURPLE)
        svg.line([(mx - 51, base_y), (mx - 20, base_y)], PURPLE)
        # NPN transistor: base bar, collector up, emitter (arrow) down.
        svg.circle(mx, base_y, 24, fill="#fff")
        svg.line([(mx - 20, base_y), (mx - 8, base_y)], "#000", 2)
        svg.line([(mx - 8, base_y - 14), (mx - 8, base_y + 14)], "#000", 3)
        svg.line([(mx - 8, base_y - 6), (mx + 8, base_y - 20), (mx + 8, base_y - 40)], "#000", 2)
        svg.line([(mx - 8, base_y + 6), (mx + 8, base_y + 20), (mx + 8, rail_y)], "#000", 2)
        svg.add(f'<polygon points="{mx + 8},{base_y + 20} {mx - 2},{base_y + 18} {mx + 4},{base_y + 10}" fill="#000"/>')
        svg.dot(mx + 8, rail_y, BLACK)
        svg.text(mx + 30, base_y + 4, "NPN: 2N2222 / BC337", size=11)
        svg.text(mx + 30, base_y + 19, "(or a logic-level N-MOSFET)", size=10, color="#444")
        svg.text(mx - 3, base_y + 48, "E", size=10, color="#444")
        svg.text(mx - 3, base_y - 34, "C", size=10, color="#444")
        # The motor from the supply to the collector, the diode across it
        # (cathode, the bar, to the supply).
        m_top, m_bottom = 350, 410
        svg.line([(mx + 8, base_y - 40), (mx + 8, m_bottom)], "#000", 2)
        svg.circle(mx + 8, (m_top + m_bottom) / 2, 18, fill="#eee")
        svg.text(mx + 8, (m_top + m_bottom) / 2 + 5, "M", size=15, anchor="middle", weight="bold")
        svg.text(mx - 16, (m_top + m_bottom) / 2 - 2, "coin motor", size=11, anchor="end")
        svg.text(mx - 16, (m_top + m_bottom) / 2 + 12, "3 V, < 100 mA", size=10, anchor="end", color="#444")
        dx = mx + 60
        svg.line([(mx + 8, m_bottom), (dx, m_bottom), (dx, (m_top + m_bottom) / 2 + 8)], "#000", 2)
        svg.line([(mx + 8, m_top), (dx, m_top), (dx, (m_top + m_bottom) / 2 - 8)], "#000", 2)
        cy = (m_top + m_bottom) / 2
        svg.add(f'<polygon points="{dx - 9},{cy + 8} {dx + 9},{cy + 8} {dx},{cy - 6}" fill="#000"/>')
        svg.line([(dx - 9, cy - 7), (dx + 9, cy - 7)], "#000", 3)
        svg.text(dx + 14, cy - 2, "diode 1N4148 / 1N5819", size=11)
        svg.text(dx + 14, cy + 12, "bar (cathode) to 3V3", size=10, color="#444")
        svg.dot(mx + 8, m_top, RED)
        wire_from_pin(svg, 17, supply_lane, mx + 8, m_top, RED)
        svg.line([(mx + 8, m_top), (mx + 8, m_top - 4)], RED)
        used[17] = "3V3"

    # The pins in use, in words (the wires' colours say which is which).
    legend = ", ".join(f"pin {pin}: {label}" for pin, label in sorted(used.items()))
    svg.text(20, 640, legend, size=11, color="#333")
    svg.text(20, 660, "No resistors on the buttons: the board file turns on the internal pull-ups.",
             size=11, color="#444")
    return svg.render()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("board", help="a Raspberry Pi board file (Boards/*.json)")
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("-o", "--output", help="write the SVG here")
    group.add_argument("--check", metavar="SVG", help="fail when this SVG differs from what the board file draws")
    args = ap.parse_args()
    board, parts = load(args.board)
    picture = draw(board, parts)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(picture)
        return
    try:
        with open(args.check, encoding="utf-8") as f:
            committed = f.read()
    except OSError as e:
        sys.exit(f"{args.check}: {e.strerror}: make it with {sys.argv[0]} {args.board} -o {args.check}")
    if committed != picture:
        sys.exit(f"{args.check} is out of date with {args.board}: "
                 f"regenerate it with Scripts/wiring-diagram.py {args.board} -o {args.check}")


if __name__ == "__main__":
    main()
