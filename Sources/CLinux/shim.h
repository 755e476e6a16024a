// Linux system interfaces that Swift's Glibc module does not expose:
// epoll, timerfd, signalfd, eventfd, adjtimex. Only LinuxHAL imports this module.
#ifndef WRISTCORE_CLINUX_SHIM_H
#define WRISTCORE_CLINUX_SHIM_H
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <signal.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

// Swift cannot see the packed epoll_event's 64-bit payload reliably on every
// architecture (it is packed on x86_64 only), so read and write it here.
static inline void wc_epoll_event_set(struct epoll_event *ev, uint32_t events, uint64_t data) {
    ev->events = events;
    ev->data.u64 = data;
}
static inline uint32_t wc_epoll_event_events(const struct epoll_event *ev) { return ev->events; }
static inline uint64_t wc_epoll_event_data(const struct epoll_event *ev) { return ev->data.u64; }
static inline size_t wc_epoll_event_size(void) { return sizeof(struct epoll_event); }

static inline int wc_errno(void) { return errno; }
#endif
