/* A simulated libgpiod v2: two chips of eight lines, requests with real pipe
 * descriptors carrying edge events, and counters of live objects, so the
 * shim's v2 branch can be exercised without libgpiod 2.x or a GPIO chip. */
#define _GNU_SOURCE
#include "gpiod.h"
#include "fake_gpiod_control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fake_chip fake_chips[FAKE_CHIPS];
struct fake_live fake_live;

struct gpiod_chip { unsigned int index; };
struct gpiod_chip_info { char name[32], label[32]; size_t num_lines; };
struct gpiod_line_info { char name[32], consumer[32]; bool named, used; unsigned long debounce_us; };
struct gpiod_line_settings {
    int direction, edge, bias, output_value;
    bool active_low;
    unsigned long debounce_us;
};
struct gpiod_line_config { bool has_settings; unsigned int offset; struct gpiod_line_settings settings; };
struct gpiod_request_config { char consumer[32]; };
struct gpiod_line_request { unsigned int chip, offset; int read_fd, write_fd; };
struct gpiod_edge_event { int type; uint64_t timestamp_ns; unsigned int offset; };
struct gpiod_edge_event_buffer { size_t capacity; struct gpiod_edge_event events[]; };

static const char *chip1_names[FAKE_LINES] = { "BTN_POSITIVE", "BTN_NEGATIVE", "MOTOR", NULL, "LED", NULL, NULL, "SPARE" };

void fake_reset(void) {
    memset(fake_chips, 0, sizeof fake_chips);
    fake_chips[0] = (struct fake_chip){ .name = "gpiochip0", .label = "pinctrl-fake", .num_lines = FAKE_LINES };
    fake_chips[1] = (struct fake_chip){ .name = "gpiochip1", .label = "fake-buttons", .num_lines = FAKE_LINES };
    for (unsigned int c = 0; c < FAKE_CHIPS; c++)
        for (unsigned int i = 0; i < FAKE_LINES; i++) {
            fake_chips[c].lines[i].request_fd_write = -1;
            fake_chips[c].lines[i].name = c == 1 ? chip1_names[i] : NULL;
        }
}

void fake_hog(unsigned int chip, unsigned int offset, const char *consumer) {
    struct fake_line *l = &fake_chips[chip].lines[offset];
    l->used = true;
    snprintf(l->consumer, sizeof l->consumer, "%s", consumer);
}

static bool logical(const struct fake_line *l) { return l->physical != l->active_low; }

void fake_drive(unsigned int chip, unsigned int offset, bool physical, uint64_t timestamp_ns) {
    struct fake_line *l = &fake_chips[chip].lines[offset];
    bool before = logical(l);
    l->physical = physical;
    bool after = logical(l);
    if (l->request_fd_write < 0 || l->direction != GPIOD_LINE_DIRECTION_INPUT || before == after) return;
    if (l->edge != GPIOD_LINE_EDGE_BOTH && l->edge != (after ? GPIOD_LINE_EDGE_RISING : GPIOD_LINE_EDGE_FALLING)) return;
    struct gpiod_edge_event ev = { after ? GPIOD_EDGE_EVENT_RISING_EDGE : GPIOD_EDGE_EVENT_FALLING_EDGE, timestamp_ns, offset };
    if (write(l->request_fd_write, &ev, sizeof ev) != (ssize_t)sizeof ev) abort();
}

int fake_live_total(void) {
    return fake_live.chips + fake_live.chip_infos + fake_live.line_infos + fake_live.settings + fake_live.line_configs
           + fake_live.request_configs + fake_live.requests + fake_live.buffers;
}

/* MARK: chips */

struct gpiod_chip *gpiod_chip_open(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return NULL; /* errno from stat: ENOENT */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    unsigned int index;
    char tail;
    if (sscanf(base, "gpiochip%u%c", &index, &tail) != 1 || index >= FAKE_CHIPS) { errno = ENODEV; return NULL; }
    struct gpiod_chip *chip = malloc(sizeof *chip);
    chip->index = index;
    fake_live.chips++;
    return chip;
}

void gpiod_chip_close(struct gpiod_chip *chip) {
    if (!chip) return;
    fake_live.chips--;
    free(chip);
}

struct gpiod_chip_info *gpiod_chip_get_info(struct gpiod_chip *chip) {
    struct gpiod_chip_info *info = calloc(1, sizeof *info);
    struct fake_chip *c = &fake_chips[chip->index];
    snprintf(info->name, sizeof info->name, "%s", c->name);
    snprintf(info->label, sizeof info->label, "%s", c->label);
    info->num_lines = c->num_lines;
    fake_live.chip_infos++;
    return info;
}

void gpiod_chip_info_free(struct gpiod_chip_info *info) {
    if (!info) return;
    fake_live.chip_infos--;
    free(info);
}
const char *gpiod_chip_info_get_name(struct gpiod_chip_info *info) { return info->name; }
const char *gpiod_chip_info_get_label(struct gpiod_chip_info *info) { return info->label; }
size_t gpiod_chip_info_get_num_lines(struct gpiod_chip_info *info) { return info->num_lines; }

struct gpiod_line_info *gpiod_chip_get_line_info(struct gpiod_chip *chip, unsigned int offset) {
    struct fake_chip *c = &fake_chips[chip->index];
    if (offset >= c->num_lines) { errno = EINVAL; return NULL; }
    struct fake_line *l = &c->lines[offset];
    struct gpiod_line_info *info = calloc(1, sizeof *info);
    info->named = l->name != NULL;
    snprintf(info->name, sizeof info->name, "%s", l->name ? l->name : "");
    snprintf(info->consumer, sizeof info->consumer, "%s", l->consumer);
    info->used = l->used;
    info->debounce_us = l->used ? l->debounce_us : 0;
    fake_live.line_infos++;
    return info;
}

int gpiod_chip_get_line_offset_from_name(struct gpiod_chip *chip, const char *name) {
    struct fake_chip *c = &fake_chips[chip->index];
    for (unsigned int i = 0; i < c->num_lines; i++)
        if (c->lines[i].name && strcmp(c->lines[i].name, name) == 0) return (int)i;
    errno = ENOENT;
    return -1;
}

/* MARK: line info */

void gpiod_line_info_free(struct gpiod_line_info *info) {
    if (!info) return;
    fake_live.line_infos--;
    free(info);
}
const char *gpiod_line_info_get_name(struct gpiod_line_info *info) { return info->named ? info->name : NULL; }
bool gpiod_line_info_is_used(struct gpiod_line_info *info) { return info->used; }
const char *gpiod_line_info_get_consumer(struct gpiod_line_info *info) { return info->consumer[0] ? info->consumer : NULL; }
unsigned long gpiod_line_info_get_debounce_period_us(struct gpiod_line_info *info) { return info->debounce_us; }

/* MARK: settings and configs */

struct gpiod_line_settings *gpiod_line_settings_new(void) {
    struct gpiod_line_settings *s = calloc(1, sizeof *s);
    s->direction = GPIOD_LINE_DIRECTION_AS_IS;
    s->edge = GPIOD_LINE_EDGE_NONE;
    s->bias = GPIOD_LINE_BIAS_AS_IS;
    s->output_value = GPIOD_LINE_VALUE_INACTIVE;
    fake_live.settings++;
    return s;
}

void gpiod_line_settings_free(struct gpiod_line_settings *settings) {
    if (!settings) return;
    fake_live.settings--;
    free(settings);
}
int gpiod_line_settings_set_direction(struct gpiod_line_settings *s, enum gpiod_line_direction d) { s->direction = (int)d; return 0; }
int gpiod_line_settings_set_edge_detection(struct gpiod_line_settings *s, enum gpiod_line_edge e) { s->edge = (int)e; return 0; }
int gpiod_line_settings_set_bias(struct gpiod_line_settings *s, enum gpiod_line_bias b) { s->bias = (int)b; return 0; }
void gpiod_line_settings_set_active_low(struct gpiod_line_settings *s, bool active_low) { s->active_low = active_low; }
void gpiod_line_settings_set_debounce_period_us(struct gpiod_line_settings *s, unsigned long p) { s->debounce_us = p; }
int gpiod_line_settings_set_output_value(struct gpiod_line_settings *s, enum gpiod_line_value v) { s->output_value = (int)v; return 0; }

struct gpiod_line_config *gpiod_line_config_new(void) {
    fake_live.line_configs++;
    return calloc(1, sizeof(struct gpiod_line_config));
}

void gpiod_line_config_free(struct gpiod_line_config *config) {
    if (!config) return;
    fake_live.line_configs--;
    free(config);
}

int gpiod_line_config_add_line_settings(struct gpiod_line_config *config, const unsigned int *offsets, size_t num_offsets,
                                        struct gpiod_line_settings *settings) {
    /* The shim requests one line at a time; more would be a shim bug here. */
    if (num_offsets != 1 || !settings) { errno = EINVAL; return -1; }
    config->has_settings = true;
    config->offset = offsets[0];
    config->settings = *settings; /* copied, like the real library */
    return 0;
}

struct gpiod_request_config *gpiod_request_config_new(void) {
    fake_live.request_configs++;
    return calloc(1, sizeof(struct gpiod_request_config));
}

void gpiod_request_config_free(struct gpiod_request_config *config) {
    if (!config) return;
    fake_live.request_configs--;
    free(config);
}

void gpiod_request_config_set_consumer(struct gpiod_request_config *config, const char *consumer) {
    snprintf(config->consumer, sizeof config->consumer, "%s", consumer);
}

/* MARK: requests */

struct gpiod_line_request *gpiod_chip_request_lines(struct gpiod_chip *chip, struct gpiod_request_config *req_cfg,
                                                    struct gpiod_line_config *line_cfg) {
    struct fake_chip *c = &fake_chips[chip->index];
    if (!line_cfg || !line_cfg->has_settings || line_cfg->offset >= c->num_lines) { errno = EINVAL; return NULL; }
    struct fake_line *l = &c->lines[line_cfg->offset];
    if (l->used) { errno = EBUSY; return NULL; }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return NULL;
    const struct gpiod_line_settings *s = &line_cfg->settings;
    l->used = true;
    snprintf(l->consumer, sizeof l->consumer, "%s", req_cfg && req_cfg->consumer[0] ? req_cfg->consumer : "?");
    l->direction = s->direction;
    l->edge = s->edge;
    l->bias = s->bias;
    l->active_low = s->active_low;
    l->debounce_us = s->debounce_us;
    l->request_fd_write = fds[1];
    if (s->direction == GPIOD_LINE_DIRECTION_OUTPUT) l->physical = (s->output_value == GPIOD_LINE_VALUE_ACTIVE) != s->active_low;
    if (s->direction == GPIOD_LINE_DIRECTION_INPUT && s->bias == GPIOD_LINE_BIAS_PULL_UP) l->physical = true;
    if (s->direction == GPIOD_LINE_DIRECTION_INPUT && s->bias == GPIOD_LINE_BIAS_PULL_DOWN) l->physical = false;
    struct gpiod_line_request *r = malloc(sizeof *r);
    *r = (struct gpiod_line_request){ chip->index, line_cfg->offset, fds[0], fds[1] };
    fake_live.requests++;
    return r;
}

void gpiod_line_request_release(struct gpiod_line_request *request) {
    if (!request) return;
    struct fake_line *l = &fake_chips[request->chip].lines[request->offset];
    l->used = false;
    l->consumer[0] = 0;
    l->request_fd_write = -1; /* the physical level stays, as on real pins */
    close(request->read_fd);
    close(request->write_fd);
    fake_live.requests--;
    free(request);
}

enum gpiod_line_value gpiod_line_request_get_value(struct gpiod_line_request *request, unsigned int offset) {
    if (offset != request->offset) { errno = EINVAL; return GPIOD_LINE_VALUE_ERROR; }
    return logical(&fake_chips[request->chip].lines[offset]) ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
}

int gpiod_line_request_set_value(struct gpiod_line_request *request, unsigned int offset, enum gpiod_line_value value) {
    struct fake_line *l = &fake_chips[request->chip].lines[request->offset];
    if (offset != request->offset || l->direction != GPIOD_LINE_DIRECTION_OUTPUT) { errno = EPERM; return -1; }
    l->physical = (value == GPIOD_LINE_VALUE_ACTIVE) != l->active_low;
    return 0;
}

int gpiod_line_request_get_fd(struct gpiod_line_request *request) { return request->read_fd; }

int gpiod_line_request_read_edge_events(struct gpiod_line_request *request, struct gpiod_edge_event_buffer *buffer,
                                        size_t max_events) {
    if (max_events > buffer->capacity) max_events = buffer->capacity;
    /* Blocks unless the descriptor is non-blocking, exactly like the library's read(). */
    ssize_t rd = read(request->read_fd, buffer->events, max_events * sizeof(struct gpiod_edge_event));
    if (rd < 0) return -1;
    return (int)((size_t)rd / sizeof(struct gpiod_edge_event));
}

/* MARK: edge events */

enum gpiod_edge_event_type gpiod_edge_event_get_event_type(struct gpiod_edge_event *event) {
    return (enum gpiod_edge_event_type)event->type;
}
uint64_t gpiod_edge_event_get_timestamp_ns(struct gpiod_edge_event *event) { return event->timestamp_ns; }

struct gpiod_edge_event_buffer *gpiod_edge_event_buffer_new(size_t capacity) {
    if (capacity == 0) capacity = 64;
    struct gpiod_edge_event_buffer *b = calloc(1, sizeof *b + capacity * sizeof(struct gpiod_edge_event));
    b->capacity = capacity;
    fake_live.buffers++;
    return b;
}

void gpiod_edge_event_buffer_free(struct gpiod_edge_event_buffer *buffer) {
    if (!buffer) return;
    fake_live.buffers--;
    free(buffer);
}

struct gpiod_edge_event *gpiod_edge_event_buffer_get_event(struct gpiod_edge_event_buffer *buffer, unsigned long index) {
    return index < buffer->capacity ? &buffer->events[index] : NULL;
}
