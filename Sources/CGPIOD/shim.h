// One small GPIO API for Swift over libgpiod v1 (Debian 12 / Raspberry Pi OS
// bookworm: 1.6) and v2 (Debian 13 / trixie: 2.x, request-based).
//
// The version is detected at compile time from the header: v1 defines
// GPIOD_LINE_BULK_MAX_LINES, v2 does not. Every function is static inline so
// this header is the whole shim (system library targets carry no C sources).
// Only LinuxHAL imports this module.
#ifndef WRISTCORE_CGPIOD_SHIM_H
#define WRISTCORE_CGPIOD_SHIM_H
// The C library through CLinux first, so that module owns its declarations
// (errno values, timespec, sockets...) and every Swift file that uses them
// needs only `import CLinux` (Embedded Swift checks the owning module).
#include "../CLinux/shim.h"

#include <gpiod.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define WC_GPIOD_API_VERSION 1
#else
#define WC_GPIOD_API_VERSION 2
#endif

enum wc_gpio_bias { WC_BIAS_AS_IS = 0, WC_BIAS_DISABLED = 1, WC_BIAS_PULL_UP = 2, WC_BIAS_PULL_DOWN = 3 };

static inline int wc_gpiod_api_version(void) { return WC_GPIOD_API_VERSION; }

typedef struct wc_gpio_request {
#if WC_GPIOD_API_VERSION == 1
    struct gpiod_line *line;
#else
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
#endif
    unsigned int offset;
} wc_gpio_request;

// MARK: chips

// Where v2 looks for chips by name and label. A macro only so the v2 seam
// test (Tests/CGPIOD-v2) can point it at a directory of fake chips.
#ifndef WC_GPIO_DEV_DIR
#define WC_GPIO_DEV_DIR "/dev"
#endif

// Whether `chip` carries `label`.
static inline bool wc_gpio_chip_has_label(struct gpiod_chip *chip, const char *label) {
#if WC_GPIOD_API_VERSION == 1
    return strcmp(gpiod_chip_label(chip), label) == 0;
#else
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    bool match = info && strcmp(gpiod_chip_info_get_label(info), label) == 0;
    if (info) gpiod_chip_info_free(info);
    return match;
#endif
}

/// Opens a chip by path (/dev/gpiochip0), name (gpiochip0), number (0) or
/// label (pinctrl-rp1). NULL with errno set on failure.
///
/// The same search for libgpiod v1 and v2: the path, /dev/<name>,
/// /dev/gpiochip<number>, then every chip's label, skipping a chip this
/// process may not open. (libgpiod 1.6's gpiod_chip_open_lookup gives up at
/// the first chip it cannot open, so a watch whose user may open only its own
/// chip never found it by label: seen on arm64, where the virt machine's
/// PL061 is gpiochip0 and root's alone.)
static inline struct gpiod_chip *wc_gpio_chip_open(const char *descr) {
    char path[288];
    struct gpiod_chip *chip = NULL;
    if (descr[0] == '/') return gpiod_chip_open(descr);
    snprintf(path, sizeof path, WC_GPIO_DEV_DIR "/%s", descr);
    chip = gpiod_chip_open(path);
    if (chip) return chip;
    if (descr[0] >= '0' && descr[0] <= '9' && strspn(descr, "0123456789") == strlen(descr)) {
        snprintf(path, sizeof path, WC_GPIO_DEV_DIR "/gpiochip%s", descr);
        chip = gpiod_chip_open(path);
        if (chip) return chip;
    }
    DIR *dir = opendir(WC_GPIO_DEV_DIR);
    if (!dir) return NULL;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strncmp(entry->d_name, "gpiochip", 8) != 0) continue;
        snprintf(path, sizeof path, WC_GPIO_DEV_DIR "/%s", entry->d_name);
        chip = gpiod_chip_open(path);
        if (!chip) continue;
        if (wc_gpio_chip_has_label(chip, descr)) break;
        gpiod_chip_close(chip);
        chip = NULL;
    }
    closedir(dir);
    if (!chip) errno = ENOENT;
    return chip;
}

static inline void wc_gpio_chip_close(struct gpiod_chip *chip) { gpiod_chip_close(chip); }

/// Copies the chip's name and label into the buffers; returns its number of lines.
static inline unsigned int wc_gpio_chip_info(struct gpiod_chip *chip, char *name, size_t name_len, char *label, size_t label_len) {
#if WC_GPIOD_API_VERSION == 1
    snprintf(name, name_len, "%s", gpiod_chip_name(chip));
    snprintf(label, label_len, "%s", gpiod_chip_label(chip));
    return gpiod_chip_num_lines(chip);
#else
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) { name[0] = 0; label[0] = 0; return 0; }
    snprintf(name, name_len, "%s", gpiod_chip_info_get_name(info));
    snprintf(label, label_len, "%s", gpiod_chip_info_get_label(info));
    unsigned int n = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return n;
#endif
}

/// The offset of the line called `name`, or -1 (errno ENOENT) when the chip has none.
static inline int wc_gpio_chip_find_line(struct gpiod_chip *chip, const char *name) {
#if WC_GPIOD_API_VERSION == 1
    unsigned int n = gpiod_chip_num_lines(chip);
    for (unsigned int i = 0; i < n; i++) {
        struct gpiod_line *line = gpiod_chip_get_line(chip, i);
        const char *line_name = line ? gpiod_line_name(line) : NULL;
        if (line_name && strcmp(line_name, name) == 0) return (int)i;
    }
    errno = ENOENT;
    return -1;
#else
    return gpiod_chip_get_line_offset_from_name(chip, name);
#endif
}

/// Line name (may be empty), whether it is in use, and by whom. 0 or -1 with errno.
static inline int wc_gpio_line_info(struct gpiod_chip *chip, unsigned int offset, char *name, size_t name_len,
                                    bool *used, char *consumer, size_t consumer_len) {
#if WC_GPIOD_API_VERSION == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line) return -1;
    gpiod_line_update(line);
    const char *n = gpiod_line_name(line), *c = gpiod_line_consumer(line);
    snprintf(name, name_len, "%s", n ? n : "");
    snprintf(consumer, consumer_len, "%s", c ? c : "");
    *used = gpiod_line_is_used(line);
    return 0;
#else
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, offset);
    if (!info) return -1;
    const char *n = gpiod_line_info_get_name(info), *c = gpiod_line_info_get_consumer(info);
    snprintf(name, name_len, "%s", n ? n : "");
    snprintf(consumer, consumer_len, "%s", c ? c : "");
    *used = gpiod_line_info_is_used(info);
    gpiod_line_info_free(info);
    return 0;
#endif
}

// MARK: requests

#if WC_GPIOD_API_VERSION == 2
static inline struct gpiod_line_request *wc_gpio_v2_request(struct gpiod_chip *chip, unsigned int offset, const char *consumer,
                                                            struct gpiod_line_settings *settings) {
    struct gpiod_line_request *request = NULL;
    struct gpiod_line_config *line_cfg = gpiod_line_config_new();
    struct gpiod_request_config *req_cfg = gpiod_request_config_new();
    if (line_cfg && req_cfg && gpiod_line_config_add_line_settings(line_cfg, &offset, 1, settings) == 0) {
        gpiod_request_config_set_consumer(req_cfg, consumer);
        request = gpiod_chip_request_lines(chip, req_cfg, line_cfg);
    }
    int saved = errno;
    if (req_cfg) gpiod_request_config_free(req_cfg);
    if (line_cfg) gpiod_line_config_free(line_cfg);
    gpiod_line_settings_free(settings);
    errno = saved;
    return request;
}
#endif

/// Requests one input line with both-edge events. `debounce_us` uses the kernel's
/// debouncer where the API has one (v2); with v1 it is ignored and the caller
/// debounces in software. NULL with errno (EBUSY: the line is in use) on failure.
static inline wc_gpio_request *wc_gpio_request_input(struct gpiod_chip *chip, unsigned int offset, const char *consumer,
                                                     bool active_low, int bias, unsigned long debounce_us) {
    wc_gpio_request *r = (wc_gpio_request *)calloc(1, sizeof *r);
    if (!r) return NULL;
    r->offset = offset;
#if WC_GPIOD_API_VERSION == 1
    (void)debounce_us;
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    if (bias == WC_BIAS_DISABLED) flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    if (bias == WC_BIAS_PULL_UP) flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    if (bias == WC_BIAS_PULL_DOWN) flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    r->line = gpiod_chip_get_line(chip, offset);
    if (!r->line || gpiod_line_request_both_edges_events_flags(r->line, consumer, flags) != 0) {
        int saved = errno; free(r); errno = saved; return NULL;
    }
#else
    struct gpiod_line_settings *s = gpiod_line_settings_new();
    if (!s) { free(r); return NULL; }
    gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_edge_detection(s, GPIOD_LINE_EDGE_BOTH);
    gpiod_line_settings_set_active_low(s, active_low);
    gpiod_line_settings_set_bias(s, bias == WC_BIAS_DISABLED ? GPIOD_LINE_BIAS_DISABLED
                                   : bias == WC_BIAS_PULL_UP ? GPIOD_LINE_BIAS_PULL_UP
                                   : bias == WC_BIAS_PULL_DOWN ? GPIOD_LINE_BIAS_PULL_DOWN : GPIOD_LINE_BIAS_AS_IS);
    if (debounce_us) gpiod_line_settings_set_debounce_period_us(s, debounce_us);
    r->request = wc_gpio_v2_request(chip, offset, consumer, s);
    r->events = r->request ? gpiod_edge_event_buffer_new(16) : NULL;
    if (!r->request || !r->events) {
        int saved = errno;
        if (r->request) gpiod_line_request_release(r->request);
        free(r); errno = saved; return NULL;
    }
#endif
    return r;
}

/// Requests one output line, driven to `initial` (logical value) at once.
static inline wc_gpio_request *wc_gpio_request_output(struct gpiod_chip *chip, unsigned int offset, const char *consumer,
                                                      bool active_low, int initial) {
    wc_gpio_request *r = (wc_gpio_request *)calloc(1, sizeof *r);
    if (!r) return NULL;
    r->offset = offset;
#if WC_GPIOD_API_VERSION == 1
    r->line = gpiod_chip_get_line(chip, offset);
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    if (!r->line || gpiod_line_request_output_flags(r->line, consumer, flags, initial ? 1 : 0) != 0) {
        int saved = errno; free(r); errno = saved; return NULL;
    }
#else
    struct gpiod_line_settings *s = gpiod_line_settings_new();
    if (!s) { free(r); return NULL; }
    gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_OUTPUT);
    gpiod_line_settings_set_active_low(s, active_low);
    gpiod_line_settings_set_output_value(s, initial ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    r->request = wc_gpio_v2_request(chip, offset, consumer, s);
    if (!r->request) { int saved = errno; free(r); errno = saved; return NULL; }
#endif
    return r;
}

/// The descriptor that becomes readable when edge events are pending.
static inline int wc_gpio_request_fd(wc_gpio_request *r) {
#if WC_GPIOD_API_VERSION == 1
    return gpiod_line_event_get_fd(r->line);
#else
    return gpiod_line_request_get_fd(r->request);
#endif
}

/// Reads one pending edge: 1 and fills *rising / *timestamp_ns, 0 when none, -1 on error.
/// Call only when the descriptor is readable (v1 reads block otherwise).
static inline int wc_gpio_request_read_event(wc_gpio_request *r, bool *rising, uint64_t *timestamp_ns) {
#if WC_GPIOD_API_VERSION == 1
    struct gpiod_line_event ev;
    if (gpiod_line_event_read(r->line, &ev) != 0) return -1;
    *rising = ev.event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    *timestamp_ns = (uint64_t)ev.ts.tv_sec * 1000000000ull + (uint64_t)ev.ts.tv_nsec;
    return 1;
#else
    int n = gpiod_line_request_read_edge_events(r->request, r->events, 1);
    if (n <= 0) return n;
    struct gpiod_edge_event *ev = gpiod_edge_event_buffer_get_event(r->events, 0);
    *rising = gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE;
    *timestamp_ns = gpiod_edge_event_get_timestamp_ns(ev);
    return 1;
#endif
}

/// Logical value (active-low already applied): 0, 1, or -1 with errno.
static inline int wc_gpio_request_get_value(wc_gpio_request *r) {
#if WC_GPIOD_API_VERSION == 1
    return gpiod_line_get_value(r->line);
#else
    int v = (int)gpiod_line_request_get_value(r->request, r->offset);
    return v < 0 ? -1 : (v == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0);
#endif
}

/// Drives an output line to a logical value. 0 or -1 with errno.
static inline int wc_gpio_request_set_value(wc_gpio_request *r, int value) {
#if WC_GPIOD_API_VERSION == 1
    return gpiod_line_set_value(r->line, value ? 1 : 0);
#else
    return gpiod_line_request_set_value(r->request, r->offset, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
#endif
}

/// The debounce period (µs) the kernel applies to a requested line: what v2
/// reports for it, 0 when none or with v1 (which has no kernel debounce).
static inline unsigned long wc_gpio_request_debounce_us(struct gpiod_chip *chip, wc_gpio_request *r) {
#if WC_GPIOD_API_VERSION == 1
    (void)chip; (void)r;
    return 0;
#else
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, r->offset);
    if (!info) return 0;
    unsigned long us = gpiod_line_info_get_debounce_period_us(info);
    gpiod_line_info_free(info);
    return us;
#endif
}

/// Releases the line back to the kernel and frees the request.
static inline void wc_gpio_request_release(wc_gpio_request *r) {
    if (!r) return;
#if WC_GPIOD_API_VERSION == 1
    gpiod_line_release(r->line);
#else
    gpiod_edge_event_buffer_free(r->events);
    gpiod_line_request_release(r->request);
#endif
    free(r);
}

#endif
