/* The arm64 test bed's own check, for when no arm64 daemon exists yet:
 * an arm64 program dynamically linked against glibc that loads the daemon's
 * three libraries (libgpiod.so.2, libi2c.so.0, libbluetooth.so.3, as the
 * Embedded Swift build links them) and drives the hardware setup.sh brought
 * up through them. Built on the host with aarch64-linux-gnu-gcc by
 * run-arm64.sh --setup-only; run in the VM after setup.sh.
 *   bed-probe OUT/hw.env
 * Prints "ok N - ..." / "not ok N - ..." and "N passed, N failed"; exit 1
 * when a check failed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#define I2C_SLAVE 0x0703

static int n, passed, failed;
static void result(int ok, const char *what, const char *why)
{
    n++;
    if (ok) { passed++; printf("ok %d - %s\n", n, what); }
    else { failed++; printf("not ok %d - %s\n# %s\n", n, what, why ? why : ""); }
    fflush(stdout);
}

static char env[32][2][256];
static int nenv;
static const char *hw(const char *key)
{
    for (int i = 0; i < nenv; i++)
        if (!strcmp(env[i][0], key)) return env[i][1];
    return "";
}

static void *lib(const char *name)
{
    void *h = dlopen(name, RTLD_NOW);
    char why[512];
    snprintf(why, sizeof why, "dlopen: %s", h ? "" : dlerror());
    char what[128];
    snprintf(what, sizeof what, "%s loads (arm64, glibc's dynamic loader)", name);
    result(h != NULL, what, why);
    return h;
}
#define SYM(h, name) ((h) ? dlsym((h), (name)) : NULL)

static int read_int_file(const char *path)
{
    FILE *f = fopen(path, "r");
    int v = -1;
    if (f) { if (fscanf(f, "%d", &v) != 1) v = -1; fclose(f); }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: bed-probe HW_ENV\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    char line[512];
    while (nenv < 32 && fgets(line, sizeof line, f)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = 0;
        char *v = eq + 1;
        v[strcspn(v, "\n")] = 0;
        if (*v == '"') { v++; v[strcspn(v, "\"")] = 0; }
        snprintf(env[nenv][0], 256, "%s", line);
        snprintf(env[nenv][1], 256, "%s", v);
        nenv++;
    }
    fclose(f);

    struct utsname u;
    uname(&u);
    char why[512];
    snprintf(why, sizeof why, "uname -m says %s", u.machine);
    result(!strcmp(u.machine, "aarch64"), "the probe runs on aarch64", why);

    /* ---- GPIO through libgpiod v1 (libgpiod2 in Debian 12) */
    void *g = lib("libgpiod.so.2");
    void *(*open_by_label)(const char *) = SYM(g, "gpiod_chip_open_by_label");
    unsigned (*num_lines)(void *) = SYM(g, "gpiod_chip_num_lines");
    void *(*find_line)(void *, const char *) = SYM(g, "gpiod_chip_find_line");
    int (*req_in)(void *, const char *) = SYM(g, "gpiod_line_request_input");
    int (*req_out)(void *, const char *, int) = SYM(g, "gpiod_line_request_output");
    int (*get_value)(void *) = SYM(g, "gpiod_line_get_value");
    int (*set_value)(void *, int) = SYM(g, "gpiod_line_set_value");
    void (*release)(void *) = SYM(g, "gpiod_line_release");
    void (*chip_close)(void *) = SYM(g, "gpiod_chip_close");
    if (open_by_label && num_lines && find_line && req_in && req_out && get_value && set_value && release && chip_close) {
        void *chip = open_by_label(hw("GPIO_LABEL"));
        snprintf(why, sizeof why, "gpiod_chip_open_by_label(%s): %s", hw("GPIO_LABEL"), strerror(errno));
        result(chip != NULL, "gpio: libgpiod opens the gpio-sim chip by its label", why);
        if (chip) {
            unsigned lines = num_lines(chip);
            snprintf(why, sizeof why, "%u lines", lines);
            result(lines == 7, "gpio: the chip has the seven lines setup.sh made", why);
            void *btn = find_line(chip, "BTN_POSITIVE");
            int v = btn && req_in(btn, "bed-probe") == 0 ? get_value(btn) : -1;
            snprintf(why, sizeof why, "BTN_POSITIVE %s, value %d", btn ? "found" : "not found by name", v);
            result(v == 1, "gpio: BTN_POSITIVE found by name reads 1 (released, pull-up)", why);
            if (btn) release(btn);
            void *motor = find_line(chip, "MOTOR");
            char path[512];
            snprintf(path, sizeof path, "%s/sim_gpio6/value", hw("GPIO_SYSFS"));
            int on = -1, off = -1;
            if (motor && req_out(motor, "bed-probe", 0) == 0) {
                set_value(motor, 1); usleep(100000); on = read_int_file(path);
                set_value(motor, 0); usleep(100000); off = read_int_file(path);
                release(motor);
            }
            snprintf(why, sizeof why, "%s: %d after driving 1, %d after driving 0", path, on, off);
            result(on == 1 && off == 0, "gpio: MOTOR driven through libgpiod, gpio-sim's value follows", why);
            chip_close(chip);
        }
    } else {
        result(0, "gpio: libgpiod v1 symbols", dlerror());
    }

    /* ---- I2C through libi2c (i2c-stub behind i2c-dev) */
    void *i = lib("libi2c.so.0");
    int32_t (*wr)(int, uint8_t, uint8_t) = SYM(i, "i2c_smbus_write_byte_data");
    int32_t (*rd)(int, uint8_t) = SYM(i, "i2c_smbus_read_byte_data");
    if (wr && rd) {
        char dev[64];
        snprintf(dev, sizeof dev, "/dev/i2c-%s", hw("I2C_BUS"));
        int fd = open(dev, O_RDWR);
        int ok = fd >= 0 && ioctl(fd, I2C_SLAVE, 0x3c) == 0;
        int w = ok ? wr(fd, 0xf1, 0x5a) : -1, r = ok ? rd(fd, 0xf1) : -1;
        if (ok) wr(fd, 0xf1, 0x00);
        snprintf(why, sizeof why, "%s: open/ioctl %s, write %d, read 0x%x", dev, ok ? "ok" : strerror(errno), w, r);
        result(w == 0 && r == 0x5a, "i2c: libi2c writes a register of the stub chip at 0x3c and reads it back", why);
        if (fd >= 0) close(fd);
    } else {
        result(0, "i2c: libi2c symbols", dlerror());
    }

    /* ---- Bluetooth through libbluetooth (btvirt's controllers on hci_vhci) */
    void *b = lib("libbluetooth.so.3");
    int (*devinfo)(int, void *) = SYM(b, "hci_devinfo");
    int (*ba2str)(const void *, char *) = SYM(b, "ba2str");
    if (devinfo && ba2str) {
        const char *idx[2] = { hw("BT_WATCH_INDEX"), hw("BT_PHONE_INDEX") };
        const char *want[2] = { hw("BT_WATCH_ADDR"), hw("BT_PHONE_ADDR") };
        for (int k = 0; k < 2; k++) {
            unsigned char di[512]; /* struct hci_dev_info: dev_id u16, name[8], bdaddr[6], ... */
            char addr[19] = "?";
            memset(di, 0, sizeof di);
            int rc = devinfo(atoi(idx[k]), di);
            if (rc == 0) ba2str(di + 10, addr);
            snprintf(why, sizeof why, "hci_devinfo(%s): %s, name %.8s, address %s, hw.env says %s",
                     idx[k], rc == 0 ? "ok" : strerror(errno), (char *)di + 2, addr, want[k]);
            char what[160];
            snprintf(what, sizeof what, "bluetooth: libbluetooth's hci_devinfo sees hci%s (%s) at the address btmgmt reported",
                     idx[k], k == 0 ? "watch" : "phone");
            result(rc == 0 && !strcasecmp(addr, want[k]), what, why);
        }
    } else {
        result(0, "bluetooth: libbluetooth symbols", dlerror());
    }

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
