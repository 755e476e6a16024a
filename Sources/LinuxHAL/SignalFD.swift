import CLinux
import HAL

/// Delivers the given signals (for the daemon: SIGINT and SIGTERM) as readable
/// events on a descriptor instead of asynchronous handlers, so shutdown runs as
/// ordinary code in the run loop. The signals are blocked for the calling thread
/// while this exists; the previous mask is restored when it goes away.
public struct SignalFD: ~Copyable {
    private let fd: FileDescriptor
    private let previousMask: sigset_t
    private let watched: sigset_t
    public var rawValue: Int32 { fd.rawValue }

    public init(signals: [Int32]) throws(HALError) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        var old = sigset_t()
        let rc = pthread_sigmask(SIG_BLOCK, &set, &old)
        if rc != 0 { throw Errno(rc).halError("pthread_sigmask") }
        let raw = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        if raw < 0 {
            let e = Errno.current
            _ = pthread_sigmask(SIG_SETMASK, &old, nil)
            throw e.halError("signalfd")
        }
        fd = FileDescriptor(adopting: raw)
        previousMask = old
        watched = set
    }

    /// The next pending signal number, or nil when none is pending.
    public func next() -> Int32? {
        var info = signalfd_siginfo()
        let n = CLinux.read(fd.rawValue, &info, MemoryLayout<signalfd_siginfo>.size)
        return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }

    deinit {
        // Signals that were blocked before stay blocked and pending: the
        // daemon blocks them for its whole life, so one arriving during a
        // restart reaches the next image (execv keeps the mask and what is
        // pending). The ones this blocked are consumed first, or restoring
        // the mask would deliver them with their default action.
        var unblocking = sigset_t()
        sigemptyset(&unblocking)
        var old = previousMask
        var watchedSet = watched
        var any = false
        for s in 1..<Int32(65) where sigismember(&watchedSet, s) == 1 && sigismember(&old, s) == 0 {
            sigaddset(&unblocking, s)
            any = true
        }
        if any {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&unblocking, nil, &none) > 0 {}
        }
        _ = pthread_sigmask(SIG_SETMASK, &old, nil)
    }
}
