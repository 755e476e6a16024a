#!/usr/bin/env bash
# In the VM (started by Tests/VM/run.sh through vng): bring up the simulated
# hardware, then run every real-kernel test. Results go to OUT_DIR, which is
# shared with the host: setup.log, tests.log, results.tap, *.log, rc.
#   usage: main.sh OUT_DIR GPIO_SIM_KO WRISTCORE_BIN PHONE_BIN
set -uo pipefail
OUT="$1"; KO="$2"; WRISTCORE="$3"; PHONE="$4"
HERE="$(cd "$(dirname "$0")" && pwd)"
echo "vm: kernel $(uname -r), booted in $(cut -d' ' -f1 /proc/uptime) s" | tee "$OUT/vm-info"
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH"

if ! "$HERE/setup.sh" "$OUT" "$KO" 2>&1 | tee "$OUT/setup.log"; then
    echo "Bail out! the simulated hardware did not come up (setup.log)"
    echo 1 >"$OUT/rc"; exit 1
fi
python3 -u "$HERE/vmtests.py" "$OUT" "$WRISTCORE" "$PHONE" 2>&1 | tee "$OUT/tests.log"
rc=${PIPESTATUS[0]}
echo "vm: tests finished at $(cut -d' ' -f1 /proc/uptime) s of VM uptime" | tee -a "$OUT/vm-info"
echo "$rc" >"$OUT/rc"
exit "$rc"
