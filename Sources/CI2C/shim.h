// libi2c (Debian libi2c-dev) and the i2c-dev ioctls. There is no pkg-config file.
#ifndef WRISTCORE_CI2C_SHIM_H
#define WRISTCORE_CI2C_SHIM_H
// The C library through CLinux first, so that module owns its declarations
// (errno values, timespec, sockets...) and every Swift file that uses them
// needs only `import CLinux` (Embedded Swift checks the owning module).
#include "../CLinux/shim.h"
#include <stdint.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>

// The ioctl request numbers are macros Swift cannot import as typed values.
static inline unsigned long wc_i2c_slave(void) { return I2C_SLAVE; }
static inline unsigned long wc_i2c_funcs(void) { return I2C_FUNCS; }
static inline unsigned long wc_i2c_rdwr(void) { return I2C_RDWR; }
static inline unsigned long wc_func_i2c(void) { return I2C_FUNC_I2C; }
static inline unsigned long wc_func_smbus_write_i2c_block(void) { return I2C_FUNC_SMBUS_WRITE_I2C_BLOCK; }
static inline int wc_i2c_ioctl_ulong(int fd, unsigned long request, unsigned long arg) { return ioctl(fd, request, arg); }
static inline int wc_i2c_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

// One plain I2C write message (I2C_RDWR with a single i2c_msg): one bus
// transaction of `len` bytes to `addr`, independent of any I2C_SLAVE setting.
static inline int wc_i2c_write_message(int fd, uint16_t addr, const uint8_t *buf, uint16_t len) {
    struct i2c_msg msg;
    msg.addr = addr;
    msg.flags = 0;
    msg.len = len;
    msg.buf = (uint8_t *)buf;
    struct i2c_rdwr_ioctl_data data;
    data.msgs = &msg;
    data.nmsgs = 1;
    return ioctl(fd, I2C_RDWR, &data);
}
static inline int wc_i2c_errno(void) { return errno; }
#endif
