import HAL

/// Everything the layers above need from the single-threaded run loop:
/// descriptor sources, timers (monotonic and wall-clock), deferred work and
/// the orderly shutdown.
///
/// Two implementations: `EpollLoop` (LinuxLoop: epoll + timerfd + signalfd),
/// chosen only by the composition root, and `ManualLoop` (this module: no
/// descriptors, time moves when a test says so), for unit tests.
public protocol EventLoop: IOWatching, TimerScheduling, WallClockTimerScheduling {
    /// Runs `work` after the handler of the current event (many events, one redraw).
    func deferWork(_ work: @escaping () -> Void)
    /// Registers an orderly-shutdown step. Steps run once, most recently
    /// registered first (like `defer`).
    func onShutdown(_ handler: @escaping () -> Void)
    /// Runs the shutdown steps (once) and stops the loop.
    func shutdown()
}
