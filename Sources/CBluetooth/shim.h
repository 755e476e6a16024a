// libbluetooth (Debian libbluetooth-dev): HCI and L2CAP socket definitions.
// The kernel management interface structures (doc/mgmt-api.txt) are declared
// by the Bluetooth issue's work, since libbluetooth-dev ships no mgmt.h.
#ifndef WRISTCORE_CBLUETOOTH_SHIM_H
#define WRISTCORE_CBLUETOOTH_SHIM_H
#include <stdint.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>

static inline int wc_bt_proto_l2cap(void) { return BTPROTO_L2CAP; }
static inline int wc_bt_proto_hci(void) { return BTPROTO_HCI; }
static inline int wc_sol_bluetooth(void) { return SOL_BLUETOOTH; }
#endif
