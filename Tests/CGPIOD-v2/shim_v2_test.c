/* Unit test of Sources/CGPIOD/shim.h's libgpiod v2 branch through its seam:
 * the shim compiled against fake/gpiod.h (v2 declarations) and linked with
 * fake/fake_gpiod.c (simulated chips). Run by `make gpiod-v2-check`; it
 * mirrors what LinuxHAL's GPIOButtonLine / GPIOMotorLine / GPIOChip do. */
#define _GNU_SOURCE
#include "fake_gpiod_control.h"

#define WC_GPIO_DEV_DIR FAKE_DEV_DIR
#include "shim.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int passed, failed;
static const char *current;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "FAIL %s: %s:%d: %s\n", current, __FILE__, __LINE__, #cond);   \
            ok = false;                                                                    \
        }                                                                                  \
    } while (0)

typedef bool (*test_fn)(void);

static void run(const char *name, test_fn fn) {
    current = name;
    fake_reset();
    bool ok = fn();
    if (fake_live_total() != 0) {
        fprintf(stderr, "FAIL %s: leaked libgpiod objects (chips %d, chip infos %d, line infos %d, settings %d, "
                        "line configs %d, request configs %d, requests %d, buffers %d)\n", name, fake_live.chips,
                fake_live.chip_infos, fake_live.line_infos, fake_live.settings, fake_live.line_configs,
                fake_live.request_configs, fake_live.requests, fake_live.buffers);
        ok = false;
    }
    memset(&fake_live, 0, sizeof fake_live);
    if (ok) { passed++; printf("ok   %s\n", name); } else { failed++; printf("FAIL %s\n", name); }
}

static bool set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

/* MARK: tests */

static bool test_compiled_as_v2(void) {
    bool ok = true;
    CHECK(wc_gpiod_api_version() == 2);
    return ok;
}

static bool test_open_by_name_path_and_label(void) {
    bool ok = true;
    char name[64], label[64], path[4096];
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip1");
    CHECK(chip != NULL);
    if (chip) {
        CHECK(wc_gpio_chip_info(chip, name, sizeof name, label, sizeof label) == 8);
        CHECK(strcmp(name, "gpiochip1") == 0);
        CHECK(strcmp(label, "fake-buttons") == 0);
        wc_gpio_chip_close(chip);
    }
    CHECK(getcwd(path, sizeof path - 32) != NULL);
    strcat(path, "/" FAKE_DEV_DIR "/gpiochip0");
    chip = wc_gpio_chip_open(path);
    CHECK(chip != NULL);
    if (chip) {
        wc_gpio_chip_info(chip, name, sizeof name, label, sizeof label);
        CHECK(strcmp(label, "pinctrl-fake") == 0);
        wc_gpio_chip_close(chip);
    }
    /* By label: the shim scans the directory, opening (and closing) each chip. */
    chip = wc_gpio_chip_open("fake-buttons");
    CHECK(chip != NULL);
    if (chip) {
        wc_gpio_chip_info(chip, name, sizeof name, label, sizeof label);
        CHECK(strcmp(name, "gpiochip1") == 0);
        wc_gpio_chip_close(chip);
    }
    return ok;
}

static bool test_open_missing_chip(void) {
    bool ok = true;
    errno = 0;
    CHECK(wc_gpio_chip_open("no-such-label") == NULL);
    CHECK(errno == ENOENT);
    errno = 0;
    CHECK(wc_gpio_chip_open("/nonexistent/gpiochip0") == NULL);
    CHECK(errno == ENOENT);
    return ok;
}

static bool test_find_line_by_name(void) {
    bool ok = true;
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip1");
    if (!chip) return false;
    CHECK(wc_gpio_chip_find_line(chip, "MOTOR") == 2);
    CHECK(wc_gpio_chip_find_line(chip, "BTN_POSITIVE") == 0);
    errno = 0;
    CHECK(wc_gpio_chip_find_line(chip, "GPIO99") == -1);
    CHECK(errno == ENOENT);
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_line_info_names_the_user(void) {
    bool ok = true;
    char name[64], consumer[64];
    bool used = false;
    fake_hog(1, 4, "foo");
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip1");
    if (!chip) return false;
    CHECK(wc_gpio_line_info(chip, 4, name, sizeof name, &used, consumer, sizeof consumer) == 0);
    CHECK(strcmp(name, "LED") == 0 && used && strcmp(consumer, "foo") == 0);
    CHECK(wc_gpio_line_info(chip, 3, name, sizeof name, &used, consumer, sizeof consumer) == 0);
    CHECK(name[0] == 0 && !used && consumer[0] == 0); /* unnamed, free: NULL strings become "" */
    CHECK(wc_gpio_line_info(chip, 99, name, sizeof name, &used, consumer, sizeof consumer) == -1);
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_input_request_settings(void) {
    bool ok = true;
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip1");
    if (!chip) return false;
    wc_gpio_request *r = wc_gpio_request_input(chip, 0, "wristcore-positive", true, WC_BIAS_PULL_UP, 20000);
    CHECK(r != NULL);
    if (r) {
        struct fake_line *l = &fake_chips[1].lines[0];
        CHECK(l->used && strcmp(l->consumer, "wristcore-positive") == 0);
        CHECK(l->direction == GPIOD_LINE_DIRECTION_INPUT);
        CHECK(l->edge == GPIOD_LINE_EDGE_BOTH);
        CHECK(l->bias == GPIOD_LINE_BIAS_PULL_UP);
        CHECK(l->active_low);
        CHECK(l->debounce_us == 20000);
        CHECK(wc_gpio_request_debounce_us(chip, r) == 20000); /* what GPIOButtonLine.kernelDebounce reads */
        CHECK(wc_gpio_request_fd(r) >= 0);
        CHECK(wc_gpio_request_get_value(r) == 0); /* pulled up, active-low: not pressed */
        wc_gpio_request_release(r);
        CHECK(!l->used);
    }
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_bias_mapping_and_no_debounce(void) {
    bool ok = true;
    static const int wc[4] = { WC_BIAS_AS_IS, WC_BIAS_DISABLED, WC_BIAS_PULL_UP, WC_BIAS_PULL_DOWN };
    static const int v2[4] = { GPIOD_LINE_BIAS_AS_IS, GPIOD_LINE_BIAS_DISABLED, GPIOD_LINE_BIAS_PULL_UP, GPIOD_LINE_BIAS_PULL_DOWN };
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip0");
    if (!chip) return false;
    for (int i = 0; i < 4; i++) {
        wc_gpio_request *r = wc_gpio_request_input(chip, 5, "t", false, wc[i], 0);
        CHECK(r != NULL);
        if (!r) continue;
        CHECK(fake_chips[0].lines[5].bias == v2[i]);
        CHECK(!fake_chips[0].lines[5].active_low);
        CHECK(fake_chips[0].lines[5].debounce_us == 0);     /* 0: debounce not asked for */
        CHECK(wc_gpio_request_debounce_us(chip, r) == 0);
        wc_gpio_request_release(r);
    }
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_edges_are_logical_timestamped_and_nonblocking(void) {
    bool ok = true;
    bool rising = false;
    uint64_t ts = 0;
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip1");
    if (!chip) return false;
    wc_gpio_request *r = wc_gpio_request_input(chip, 1, "wristcore-negative", true, WC_BIAS_PULL_UP, 0);
    if (!r) { wc_gpio_chip_close(chip); return false; }
    CHECK(set_nonblocking(wc_gpio_request_fd(r)));
    errno = 0;
    CHECK(wc_gpio_request_read_event(r, &rising, &ts) == -1 && errno == EAGAIN); /* nothing pending: never blocks */
    /* Press (active-low: the pin goes low) with a bounce, then release. */
    fake_drive(1, 1, false, 1000);
    fake_drive(1, 1, true, 3000);
    fake_drive(1, 1, false, 4000);
    fake_drive(1, 1, true, 250000000);
    static const bool want_rising[4] = { true, false, true, false };
    static const uint64_t want_ts[4] = { 1000, 3000, 4000, 250000000 };
    for (int i = 0; i < 4; i++) {
        CHECK(wc_gpio_request_read_event(r, &rising, &ts) == 1);
        CHECK(rising == want_rising[i]);
        CHECK(ts == want_ts[i]);
    }
    errno = 0;
    CHECK(wc_gpio_request_read_event(r, &rising, &ts) == -1 && errno == EAGAIN);
    fake_drive(1, 1, false, 300000000);
    CHECK(wc_gpio_request_get_value(r) == 1); /* held */
    wc_gpio_request_release(r);
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_busy_line(void) {
    bool ok = true;
    fake_hog(0, 3, "foo");
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip0");
    if (!chip) return false;
    errno = 0;
    CHECK(wc_gpio_request_input(chip, 3, "wristcore-select", false, WC_BIAS_PULL_UP, 20000) == NULL);
    CHECK(errno == EBUSY);
    errno = 0;
    CHECK(wc_gpio_request_output(chip, 3, "wristcore-motor", false, 0) == NULL);
    CHECK(errno == EBUSY);
    CHECK(strcmp(fake_chips[0].lines[3].consumer, "foo") == 0); /* untouched */
    /* Two requests of one line: the second is busy. */
    wc_gpio_request *first = wc_gpio_request_input(chip, 6, "a", false, WC_BIAS_AS_IS, 0);
    CHECK(first != NULL);
    errno = 0;
    CHECK(wc_gpio_request_input(chip, 6, "b", false, WC_BIAS_AS_IS, 0) == NULL && errno == EBUSY);
    wc_gpio_request_release(first);
    wc_gpio_chip_close(chip);
    return ok; /* the run() leak check covers the settings and configs of the failed requests */
}

static bool test_output_set_and_release(void) {
    bool ok = true;
    struct gpiod_chip *chip = wc_gpio_chip_open("fake-buttons");
    if (!chip) return false;
    int offset = wc_gpio_chip_find_line(chip, "MOTOR");
    CHECK(offset == 2);
    struct fake_line *l = &fake_chips[1].lines[2];
    l->physical = true; /* whatever the pin did before */
    wc_gpio_request *r = wc_gpio_request_output(chip, (unsigned int)offset, "wristcore-motor", false, 0);
    CHECK(r != NULL);
    if (r) {
        CHECK(l->direction == GPIOD_LINE_DIRECTION_OUTPUT && strcmp(l->consumer, "wristcore-motor") == 0);
        CHECK(!l->physical); /* requested inactive: the motor never starts by being opened */
        CHECK(wc_gpio_request_set_value(r, 1) == 0 && l->physical);
        CHECK(wc_gpio_request_get_value(r) == 1);
        CHECK(wc_gpio_request_set_value(r, 0) == 0 && !l->physical);
        /* GPIOMotorLine.release: drive inactive, then release. */
        CHECK(wc_gpio_request_set_value(r, 1) == 0);
        CHECK(wc_gpio_request_set_value(r, 0) == 0);
        wc_gpio_request_release(r);
        CHECK(!l->used && !l->physical);
    }
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_active_low_output(void) {
    bool ok = true;
    struct gpiod_chip *chip = wc_gpio_chip_open("gpiochip0");
    if (!chip) return false;
    wc_gpio_request *r = wc_gpio_request_output(chip, 7, "wristcore-motor", true, 0);
    CHECK(r != NULL);
    if (r) {
        struct fake_line *l = &fake_chips[0].lines[7];
        CHECK(l->active_low && l->physical);         /* inactive = high */
        CHECK(wc_gpio_request_set_value(r, 1) == 0 && !l->physical);
        CHECK(wc_gpio_request_set_value(r, 0) == 0 && l->physical);
        wc_gpio_request_release(r);
    }
    /* An input line refuses set_value (the shim passes the error through). */
    wc_gpio_request *in = wc_gpio_request_input(chip, 1, "t", false, WC_BIAS_AS_IS, 0);
    CHECK(in != NULL);
    if (in) {
        errno = 0;
        CHECK(wc_gpio_request_set_value(in, 1) == -1 && errno == EPERM);
        wc_gpio_request_release(in);
    }
    wc_gpio_chip_close(chip);
    return ok;
}

static bool test_release_null_is_harmless(void) {
    wc_gpio_request_release(NULL);
    return true;
}

/* MARK: main */

int main(void) {
    char dir[] = "/tmp/wc-gpiod-v2-XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0 || mkdir(FAKE_DEV_DIR, 0755) != 0) { perror("setup"); return 2; }
    /* The fake "device nodes": two chips and a file that only looks like one. */
    const char *nodes[] = { FAKE_DEV_DIR "/gpiochip0", FAKE_DEV_DIR "/gpiochip1", FAKE_DEV_DIR "/gpiochip-not-a-chip" };
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        FILE *f = fopen(nodes[i], "w");
        if (!f) { perror(nodes[i]); return 2; }
        fclose(f);
    }

    run("compiled as the v2 branch", test_compiled_as_v2);
    run("open a chip by name, path and label", test_open_by_name_path_and_label);
    run("a missing chip is ENOENT", test_open_missing_chip);
    run("find a line by name", test_find_line_by_name);
    run("line info names the user of a line", test_line_info_names_the_user);
    run("input request: both edges, bias, active-low, kernel debounce", test_input_request_settings);
    run("bias mapping; no debounce asked, none applied", test_bias_mapping_and_no_debounce);
    run("edges: logical, kernel timestamps, non-blocking reads", test_edges_are_logical_timestamped_and_nonblocking);
    run("a busy line is EBUSY and leaks nothing", test_busy_line);
    run("output: starts inactive, set, release", test_output_set_and_release);
    run("active-low output; set_value on an input fails", test_active_low_output);
    run("releasing NULL is harmless", test_release_null_is_harmless);

    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) unlink(nodes[i]);
    rmdir(FAKE_DEV_DIR);
    if (chdir("/") == 0) rmdir(dir);
    printf("libgpiod v2 shim: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
