// libbluetooth (Debian libbluetooth-dev): HCI and L2CAP socket definitions,
// plus the kernel management interface structures from BlueZ's
// doc/mgmt-api.txt (libbluetooth-dev ships no mgmt.h). All mgmt values are
// little-endian on the wire; the Swift codecs in LinuxHAL/Bluetooth/Management
// encode them byte by byte and use these declarations for sizes and checks.
#ifndef WRISTCORE_CBLUETOOTH_SHIM_H
#define WRISTCORE_CBLUETOOTH_SHIM_H
// The C library through CLinux first, so that module owns its declarations
// (errno values, timespec, sockets...) and every Swift file that uses them
// needs only `import CLinux` (Embedded Swift checks the owning module).
#include "../CLinux/shim.h"
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>

static inline int wc_bt_proto_l2cap(void) { return BTPROTO_L2CAP; }
static inline int wc_bt_proto_hci(void) { return BTPROTO_HCI; }
static inline int wc_sol_bluetooth(void) { return SOL_BLUETOOTH; }
static inline int wc_bt_security_opt(void) { return BT_SECURITY; }
static inline int wc_af_bluetooth(void) { return AF_BLUETOOTH; }
static inline uint16_t wc_hci_dev_none(void) { return HCI_DEV_NONE; }
static inline uint16_t wc_hci_channel_control(void) { return HCI_CHANNEL_CONTROL; }

// MARK: - mgmt (doc/mgmt-api.txt)

#define WC_MGMT_INDEX_NONE 0xFFFF
#define WC_MGMT_HEADER_SIZE 6

/// Every packet: opcode (command) or event code, controller index, parameter length.
struct wc_mgmt_hdr {
    uint16_t opcode;
    uint16_t index;
    uint16_t len;
} __attribute__((packed));

struct wc_mgmt_addr_info {
    bdaddr_t bdaddr;
    uint8_t type;
} __attribute__((packed));

/// Read Controller Information reply (280 bytes).
struct wc_mgmt_rp_read_info {
    bdaddr_t bdaddr;
    uint8_t version;
    uint16_t manufacturer;
    uint32_t supported_settings;
    uint32_t current_settings;
    uint8_t dev_class[3];
    uint8_t name[249];
    uint8_t short_name[11];
} __attribute__((packed));

/// One entry of Load Long Term Keys and the key of New Long Term Key (36 bytes).
struct wc_mgmt_ltk_info {
    struct wc_mgmt_addr_info addr;
    uint8_t type;
    uint8_t central;
    uint8_t enc_size;
    uint16_t ediv;
    uint64_t rand;
    uint8_t val[16];
} __attribute__((packed));

/// One entry of Load Identity Resolving Keys and the key of New IRK (23 bytes).
struct wc_mgmt_irk_info {
    struct wc_mgmt_addr_info addr;
    uint8_t val[16];
} __attribute__((packed));

/// Add Advertising parameters (followed by adv data then scan response).
struct wc_mgmt_cp_add_advertising {
    uint8_t instance;
    uint32_t flags;
    uint16_t duration;
    uint16_t timeout;
    uint8_t adv_data_len;
    uint8_t scan_rsp_len;
} __attribute__((packed));

/// User Confirmation Request event.
struct wc_mgmt_ev_user_confirm_request {
    struct wc_mgmt_addr_info addr;
    uint8_t confirm_hint;
    uint32_t value;
} __attribute__((packed));

/// Device Disconnected event.
struct wc_mgmt_ev_device_disconnected {
    struct wc_mgmt_addr_info addr;
    uint8_t reason;
} __attribute__((packed));

/// Authentication Failed event.
struct wc_mgmt_ev_auth_failed {
    struct wc_mgmt_addr_info addr;
    uint8_t status;
} __attribute__((packed));

static inline size_t wc_mgmt_rp_read_info_size(void) { return sizeof(struct wc_mgmt_rp_read_info); }
static inline size_t wc_mgmt_ltk_info_size(void) { return sizeof(struct wc_mgmt_ltk_info); }
static inline size_t wc_mgmt_irk_info_size(void) { return sizeof(struct wc_mgmt_irk_info); }
static inline size_t wc_mgmt_cp_add_advertising_size(void) { return sizeof(struct wc_mgmt_cp_add_advertising); }

// MARK: - socket addresses

/// Fills a sockaddr_hci for the control channel (no controller index).
static inline void wc_sockaddr_hci_control(struct sockaddr_hci *a) {
    memset(a, 0, sizeof(*a));
    a->hci_family = AF_BLUETOOTH;
    a->hci_dev = HCI_DEV_NONE;
    a->hci_channel = HCI_CHANNEL_CONTROL;
}

/// Fills a sockaddr_l2 for an LE fixed channel (cid in host order).
static inline void wc_sockaddr_l2_le(struct sockaddr_l2 *a, const uint8_t bdaddr[6], uint16_t cid, uint8_t type) {
    memset(a, 0, sizeof(*a));
    a->l2_family = AF_BLUETOOTH;
    memcpy(&a->l2_bdaddr, bdaddr, 6);
    a->l2_cid = htobs(cid);
    a->l2_bdaddr_type = type;
}
static inline void wc_sockaddr_l2_address(const struct sockaddr_l2 *a, uint8_t out[6]) { memcpy(out, &a->l2_bdaddr, 6); }
static inline uint8_t wc_sockaddr_l2_type(const struct sockaddr_l2 *a) { return a->l2_bdaddr_type; }

/// Reads an adapter's public address with HCIGETDEVINFO (0 on success, -1 with errno).
static inline int wc_hci_device_address(int dev_id, uint8_t out[6]) {
    bdaddr_t ba;
    if (hci_devba(dev_id, &ba) < 0) return -1;
    memcpy(out, &ba, 6);
    return 0;
}
#endif
