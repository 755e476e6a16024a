// The Linux and C library interfaces of the daemon, for Swift without the Glibc
// overlay (Embedded Swift has none): the headers LinuxHAL, LinuxLoop and the
// CLIs use, plus what the overlay used to add on top of a plain C import:
//   - fixed-arity wrappers for the variadic functions Swift cannot call
//     (open, openat, fcntl, ioctl);
//   - errno as functions (it is a macro over __errno_location());
//   - the macros that are casts or expressions (SIG_IGN, SIG_DFL, MAP_FAILED)
//     and the file-type bits as mode_t (the S_IF* macros import as Int32).
// And what Glibc never exposed: epoll, timerfd, signalfd, eventfd, adjtimex.
// Plain portable C: it is also compiled for bare-metal targets
// (aarch64-none-none-elf, armv7-none-none-eabi) with -D__linux__ and the cross
// glibc headers. Only LinuxHAL, LinuxLoop and the CLIs import this module.
#ifndef WRISTCORE_CLINUX_SHIM_H
#define WRISTCORE_CLINUX_SHIM_H
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/types.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

// MARK: errno

static inline int wc_errno(void) { return errno; }
static inline void wc_set_errno(int value) { errno = value; }

// MARK: variadic functions, at fixed arity

/// open(2) with a mode (used only with O_CREAT / O_TMPFILE; pass 0 otherwise).
static inline int wc_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int wc_openat(int dirfd, const char *path, int flags, mode_t mode) { return openat(dirfd, path, flags, mode); }
/// fcntl(2) without an argument (F_GETFL, F_GETFD) and with an int one (F_SETFL, F_SETFD, F_DUPFD_CLOEXEC).
static inline int wc_fcntl(int fd, int cmd) { return fcntl(fd, cmd); }
// memfd_create(2) without depending on _GNU_SOURCE (its declaration needs it).
#include <sys/syscall.h>
static inline int wc_memfd_create(const char *name, unsigned int flags) { return (int)syscall(SYS_memfd_create, name, flags); }
static inline int wc_fcntl_int(int fd, int cmd, int arg) { return fcntl(fd, cmd, arg); }
/// ioctl(2) with a pointer argument; the request is unsigned long, as glibc declares it.
static inline int wc_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
/// prctl(PR_SET_NAME): the process's name (/proc/self/comm, what ps and pgrep show), at most 15 bytes.
#include <sys/prctl.h>
static inline int wc_set_process_name(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL); }

// MARK: macros that are casts or expressions

/// A signal disposition as signal(2) takes it (sighandler_t is a GNU extension).
typedef void (*wc_sighandler)(int);
static inline wc_sighandler wc_sig_ign(void) { return SIG_IGN; }
static inline wc_sighandler wc_sig_dfl(void) { return SIG_DFL; }
static inline void *wc_map_failed(void) { return MAP_FAILED; }
static inline unsigned long wc_tiocgwinsz(void) { return TIOCGWINSZ; }
/// On 32-bit targets with a 64-bit time_t glibc picks the socket option by
/// sizeof(time_t) in an expression, which Swift cannot import.
static inline int wc_so_rcvtimeo(void) { return SO_RCVTIMEO; }

// The file-type bits of st_mode, typed as st_mode is.
static inline mode_t wc_s_ifmt(void) { return S_IFMT; }
static inline mode_t wc_s_ifreg(void) { return S_IFREG; }
static inline mode_t wc_s_ifdir(void) { return S_IFDIR; }
static inline mode_t wc_s_iflnk(void) { return S_IFLNK; }
static inline mode_t wc_s_ififo(void) { return S_IFIFO; }
static inline mode_t wc_s_ifsock(void) { return S_IFSOCK; }
static inline mode_t wc_s_ifchr(void) { return S_IFCHR; }
static inline mode_t wc_s_ifblk(void) { return S_IFBLK; }

// MARK: structures

/// Where sun_path starts in a sockaddr_un (the length of an abstract or
/// unterminated address is this plus the path's bytes).
static inline size_t wc_sockaddr_un_path_offset(void) { return offsetof(struct sockaddr_un, sun_path); }

// Swift cannot see the packed epoll_event's 64-bit payload reliably on every
// architecture (it is packed on x86_64 only), so read and write it here.
static inline void wc_epoll_event_set(struct epoll_event *ev, uint32_t events, uint64_t data) {
    ev->events = events;
    ev->data.u64 = data;
}
static inline uint32_t wc_epoll_event_events(const struct epoll_event *ev) { return ev->events; }
static inline uint64_t wc_epoll_event_data(const struct epoll_event *ev) { return ev->data.u64; }
static inline size_t wc_epoll_event_size(void) { return sizeof(struct epoll_event); }
#endif
