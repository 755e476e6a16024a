#!/bin/bash
# In the arm64 VM, after setup.sh (run by guest-init.sh in --setup-only mode when
# run-arm64.sh was given a phone binary): the arm64 wristcore-vm-phone alone on
# controller B, with no watch to find: it must set the controller up through
# mgmt (READY), start scanning, and leave B powered and LE.
#   phone-check.sh OUT/hw.env PHONE_BIN      prints ok / not ok lines; exit 1 on a failure
. "$1"; PHONE="$2"
n=0; bad=0
check() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
ldd "$PHONE" | sed 's/^/# /'
out="$(timeout -s INT 25 "$PHONE" --hci "$BT_PHONE_INDEX" --watch-name "WristCore VM" 2>&1 </dev/null)"
echo "$out" | head -20 | sed 's/^/# /'
grep -q "^READY hci=$BT_PHONE_INDEX addr=$BT_PHONE_ADDR" <<<"$out"
check $? "phone: the arm64 wristcore-vm-phone sets up hci$BT_PHONE_INDEX through mgmt (READY at $BT_PHONE_ADDR)"
grep -q '^SCANNING' <<<"$out"
check $? "phone: it scans for the watch by name"
info="$(sleep 3 | timeout -k 2 20 btmgmt --index "$BT_PHONE_INDEX" info 2>&1)"
grep -qE 'current settings:.*powered.*\ble\b' <<<"$info"
rc=$?; [ "$rc" = 0 ] || sed 's/^/# /' <<<"$info"
check $rc "phone: controller B is left powered with LE on"
exit "$bad"
