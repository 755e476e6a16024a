#!/usr/bin/env bash
# In the VM: brings up the simulated hardware with the real kernel drivers and
# writes what the tests need to know about it.
#   usage: setup.sh OUT_DIR GPIO_SIM_KO
# Writes OUT_DIR/hw.env (shell variables) and OUT_DIR/vm-board.json (a board
# file that names the hardware exactly like a real board file does).
#   Bluetooth: hci_vhci + btvirt, two LE-only controllers: hci0 = watch (A), hci1 = phone (B)
#   I2C:       i2c-stub with one chip at 0x3C (the OLED's address) behind i2c-dev
#   GPIO:      gpio-sim (built out of tree) with one bank: six buttons and a motor, by line name
set -euo pipefail
OUT="$1"; KO="$2"
log() { printf "# setup: [%s] %s\n" "$(cut -d" " -f1 /proc/uptime)" "$*"; }
fail() { printf '# setup: FAILED: %s\n' "$*"; exit 1; }
# btmgmt is an interactive shell at heart: when stdin is not a terminal it
# reads commands from it until EOF, and at EOF it quits (with /dev/null,
# before the kernel's reply is printed). So its stdin is a pipe that closes
# after the reply has long arrived, and it must never read the console.
mgmt() { sleep 3 | timeout -k 2 20 btmgmt "$@" 2>&1; }
wait_for() { # wait_for SECONDS COMMAND... : until COMMAND succeeds, by the clock
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@" 2>/dev/null; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

# --- kernel filesystems the drivers and tests use (virtme mounts only some)
log "start"
mountpoint -q /sys/kernel/config || { modprobe configfs; mount -t configfs none /sys/kernel/config; }
mountpoint -q /sys/kernel/tracing || mount -t tracefs none /sys/kernel/tracing 2>/dev/null || true
mkdir -p /var/lib/wristcore-vm /run/wristcore-vm

# --- Bluetooth: two virtual LE controllers on the emulator's shared air
log "bluetooth: hci_vhci + btvirt"
# Both controllers registered with mgmt (sysfs shows them before mgmt does).
# Under TCG one controller's HCI init sometimes never completes (seen once in
# about four boots: hci0 absent from mgmt's index list after a minute), so a
# stuck start is retried from scratch with the kernel log kept as evidence.
two_controllers() { mgmt info | grep -q 'Index list with 2 items'; }
up=""
for attempt in 1 2 3; do
    modprobe hci_vhci
    btvirt -L -l2 >>"$OUT/btvirt.log" 2>&1 &
    echo $! >/run/wristcore-vm/btvirt.pid
    if wait_for 60 two_controllers; then up=1; break; fi
    log "bluetooth: attempt $attempt: two controllers did not come up; kernel log:"
    { dmesg | grep -iE 'bluetooth|hci' | tail -20 | tee -a "$OUT/bluetooth-dmesg.log"; } || true
    mgmt info || true
    kill "$(cat /run/wristcore-vm/btvirt.pid)" 2>/dev/null || true
    sleep 2
    rmmod hci_vhci 2>/dev/null || true
done
[ -n "$up" ] || fail "btvirt did not bring up two controllers in 3 attempts (see btvirt.log, bluetooth-dmesg.log)"
INDEXES=($(mgmt info | sed -n 's/^hci\([0-9]*\):.*/\1/p' | sort -n))
BT_WATCH_INDEX="${INDEXES[0]}"; BT_PHONE_INDEX="${INDEXES[1]}"
addr_of() { mgmt -i "$1" info | sed -n 's/^[[:space:]]*addr \([0-9A-F:]*\).*/\1/p' | head -1; }
BT_WATCH_ADDR="$(addr_of "$BT_WATCH_INDEX")"; BT_PHONE_ADDR="$(addr_of "$BT_PHONE_INDEX")"
[ -n "$BT_WATCH_ADDR" ] && [ -n "$BT_PHONE_ADDR" ] || fail "no controller address from btmgmt info"
log "bluetooth: hci$BT_WATCH_INDEX $BT_WATCH_ADDR (watch, A), hci$BT_PHONE_INDEX $BT_PHONE_ADDR (phone, B)"

# --- I2C: the stub chip at the OLED's address, as /dev/i2c-N
modprobe i2c-dev
modprobe i2c-stub chip_addr=0x3c,0x36  # the OLED, and a MAX17048 fuel gauge
I2C_BUS=""
for d in /sys/bus/i2c/devices/i2c-*; do
    [ "$(cat "$d/name" 2>/dev/null)" = "SMBus stub driver" ] && I2C_BUS="${d##*-}"
done
[ -n "$I2C_BUS" ] || fail "no i2c-stub adapter in /sys/bus/i2c/devices"
wait_for 5 test -e "/dev/i2c-$I2C_BUS" || fail "/dev/i2c-$I2C_BUS did not appear (i2c-dev)"
log "i2c: stub is bus $I2C_BUS (/dev/i2c-$I2C_BUS), chips at 0x3c (OLED) and 0x36 (fuel gauge)"

# --- GPIO: gpio-sim, one chip labelled like a SoC controller, lines named like a board's
insmod "$KO"
SIM=/sys/kernel/config/gpio-sim/wristcore
GPIO_LABEL=wristcore-sim
LINE_NAMES=(BTN_POSITIVE BTN_NEGATIVE BTN_SELECT BTN_UP BTN_DOWN BTN_BACK MOTOR)
mkdir "$SIM" "$SIM/bank0"
echo "${#LINE_NAMES[@]}" >"$SIM/bank0/num_lines"
echo "$GPIO_LABEL" >"$SIM/bank0/label"
for i in "${!LINE_NAMES[@]}"; do
    mkdir "$SIM/bank0/line$i"
    echo "${LINE_NAMES[$i]}" >"$SIM/bank0/line$i/name"
done
echo 1 >"$SIM/live"
GPIO_DEV="$(cat "$SIM/dev_name")"; GPIO_CHIP="$(cat "$SIM/bank0/chip_name")"
GPIO_SYSFS="/sys/devices/platform/$GPIO_DEV/$GPIO_CHIP"
wait_for 5 test -e "/dev/$GPIO_CHIP" || fail "/dev/$GPIO_CHIP did not appear"
# Buttons idle released: active-low buttons read high (like the pull-up on a real board).
for i in 0 1 2 3 4 5; do echo pull-up >"$GPIO_SYSFS/sim_gpio$i/pull"; done
echo pull-down >"$GPIO_SYSFS/sim_gpio6/pull"   # the motor driver's input idles low
log "gpio: $GPIO_CHIP label $GPIO_LABEL ($GPIO_SYSFS)"

# --- who may use the nodes: what deploy/99-wristcore.rules does with udev
# (group i2c / gpio, mode 0660). The daemon runs as an unprivileged user in
# those groups (vmtests.py, like User=/SupplementaryGroups= of the unit); the
# VM has no such names in /etc/group, so the groups are numbers.
I2C_GID=61235; GPIO_GID=61236
chgrp "$I2C_GID" "/dev/i2c-$I2C_BUS"; chmod 0660 "/dev/i2c-$I2C_BUS"
chgrp "$GPIO_GID" "/dev/$GPIO_CHIP"; chmod 0660 "/dev/$GPIO_CHIP"
log "permissions: $(ls -l "/dev/i2c-$I2C_BUS" "/dev/$GPIO_CHIP" | awk '{print $1, $4, $NF}' | tr '\n' ' ')"

# --- what the tests read
cat >"$OUT/hw.env" <<ENV
BT_WATCH_INDEX=$BT_WATCH_INDEX
BT_PHONE_INDEX=$BT_PHONE_INDEX
BT_WATCH_ADDR=$BT_WATCH_ADDR
BT_PHONE_ADDR=$BT_PHONE_ADDR
I2C_BUS=$I2C_BUS
I2C_ADDR=0x3c
GPIO_CHIP=$GPIO_CHIP
GPIO_LABEL=$GPIO_LABEL
GPIO_SYSFS=$GPIO_SYSFS
GPIO_LINES="${LINE_NAMES[*]}"
I2C_GID=$I2C_GID
GPIO_GID=$GPIO_GID
ENV

# The board file: chip by label and lines by name, as on a real board
# (compare Boards/rpi5.json); the display on the stub's bus at 0x3C. Four
# buttons like Boards/rpi-zero2w.json: without up/down the positive button
# also has the long and double press gestures the tests exercise. BTN_UP and
# BTN_DOWN exist on the chip but stay unused.
cat >"$OUT/vm-board.json" <<JSON
// Generated in the test VM by Tests/VM/guest/setup.sh: the simulated
// hardware of the real-kernel tests (gpio-sim chip "$GPIO_LABEL", i2c-stub
// bus $I2C_BUS, btvirt controller hci$BT_WATCH_INDEX). Format: docs/boards.md.
{
  "name": "WristCore test VM",
  "display": { "controller": "ssd1306", "bus": $I2C_BUS, "address": "0x3C", "width": 128, "height": 64 },
  "buttons": [
    { "role": "positive", "chip": "$GPIO_LABEL", "line": "BTN_POSITIVE", "activeLow": true, "bias": "pull-up" },
    { "role": "negative", "chip": "$GPIO_LABEL", "line": "BTN_NEGATIVE", "activeLow": true, "bias": "pull-up" },
    { "role": "select",   "chip": "$GPIO_LABEL", "line": "BTN_SELECT",   "activeLow": true, "bias": "pull-up" },
    { "role": "back",     "chip": "$GPIO_LABEL", "line": "BTN_BACK",     "activeLow": true, "bias": "pull-up" }
  ],
  "motor": { "chip": "$GPIO_LABEL", "line": "MOTOR", "activeLow": false },
  "input": { "debounceMs": 20, "longPressMs": 600, "doublePressMs": 300 },
  "bluetooth": { "hci": $BT_WATCH_INDEX, "name": "WristCore VM" }
}
JSON
log "wrote $OUT/hw.env and $OUT/vm-board.json"
