// libi2c (Debian libi2c-dev) and the i2c-dev ioctls. There is no pkg-config file.
#ifndef WRISTCORE_CI2C_SHIM_H
#define WRISTCORE_CI2C_SHIM_H
#include <stdint.h>
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
#endif
