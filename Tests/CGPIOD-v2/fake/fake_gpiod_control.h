/* The test's handle on the simulated chips behind fake/gpiod.h. */
#ifndef WRISTCORE_FAKE_GPIOD_CONTROL_H
#define WRISTCORE_FAKE_GPIOD_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#define FAKE_CHIPS 2
#define FAKE_LINES 8
/* Chips are found as files named gpiochipN under this directory (relative to
 * the working directory; the test creates it). */
#define FAKE_DEV_DIR "fake-dev"

/* What a line was last requested with, and its simulated physical level. */
struct fake_line {
    const char *name;            /* NULL: unnamed */
    bool used;
    char consumer[32];
    int direction, edge, bias;   /* enum gpiod_line_* values, 0 if never set */
    bool active_low;
    unsigned long debounce_us;
    bool physical;               /* the level on the pin */
    int request_fd_write;        /* the write end of the request's event pipe, -1 when not requested */
};

struct fake_chip {
    const char *name, *label;
    unsigned int num_lines;
    struct fake_line lines[FAKE_LINES];
};

extern struct fake_chip fake_chips[FAKE_CHIPS];

/* Objects the library handed out and not yet freed, by kind (leak checks). */
struct fake_live {
    int chips, chip_infos, line_infos, settings, line_configs, request_configs, requests, buffers;
};
extern struct fake_live fake_live;

/* Resets the chips to their initial state (chip 0 "pinctrl-fake", chip 1
 * "fake-buttons" with named lines; all lines free and low). */
void fake_reset(void);
/* Marks a line as used by another program. */
void fake_hog(unsigned int chip, unsigned int offset, const char *consumer);
/* Drives an input pin; queues an edge event (logical direction, active-low
 * applied) when the line is requested with edge detection and its logical
 * level changes. */
void fake_drive(unsigned int chip, unsigned int offset, bool physical, uint64_t timestamp_ns);
/* Number of live objects of all kinds. */
int fake_live_total(void);

#endif
