import HAL
import LinuxHAL
import Loop

/// What systemd sees of the daemon (`Type=notify`, `WatchdogSec=`): READY=1
/// once the phone link accepts phones, STATUS= saying what Bluetooth is
/// doing, and WATCHDOG=1 from a loop timer at half the watchdog timeout,
/// only while the phone link is healthy.
///
/// While the adapter is gone the pings stop. The last one stretches the
/// watchdog timeout (WATCHDOG_USEC=) to the adapter-loss timeout plus a
/// margin, so the daemon's own deadline decides (it exits non-zero and
/// `Restart=on-failure` restarts it), and a watch that neither recovers
/// nor exits is still restarted by systemd. When the adapter is back the
/// unit's own timeout is restored and the pings resume.
public final class SystemdSupervisor {
    /// How much longer than the adapter-loss timeout systemd waits.
    public static let lossMargin: Duration = .seconds(15)

    private let notifier: SystemdNotifier
    private let loop: any EventLoop
    /// The unit's WatchdogSec= (nil: no watchdog for this process).
    private let watchdogTimeout: Duration?
    private let adapterLossTimeout: Duration
    private var pingTimer: TimerID?
    private var isReady = false
    /// The latest status, sent with READY=1 when it comes before.
    public private(set) var status: String
    /// False while the adapter is gone: no pings.
    public private(set) var phoneLinkHealthy = true
    /// Pings sent so far (for the log and tests).
    public private(set) var pings = 0

    public init(notifier: SystemdNotifier, loop: any EventLoop, watchdogTimeout: Duration?, adapterLossTimeout: Duration, status: String) {
        self.notifier = notifier
        self.loop = loop
        self.watchdogTimeout = watchdogTimeout
        self.adapterLossTimeout = adapterLossTimeout
        self.status = status
    }

    /// The supervisor of this process when systemd started it (`$NOTIFY_SOCKET`), else nil.
    public static func fromEnvironment(loop: any EventLoop, adapterLossTimeout: Duration, status: String) -> SystemdSupervisor? {
        guard let notifier = (try? SystemdNotifier.fromEnvironment()) ?? nil else { return nil }
        return SystemdSupervisor(
            notifier: notifier, loop: loop, watchdogTimeout: SystemdNotifier.watchdogTimeout(),
            adapterLossTimeout: adapterLossTimeout, status: status)
    }

    deinit { if let t = pingTimer { loop.destroyTimer(t) } }

    /// READY=1 with the latest status; the pings start.
    public func ready() {
        guard !isReady else { return }
        isReady = true
        try? notifier.ready(status: status)
        guard let timeout = watchdogTimeout else { return }
        if !phoneLinkHealthy { try? notifier.watchdog(timeout: lostTimeout(timeout)) }
        let interval = timeout / 2
        let timer = loop.makeTimer { [unowned(unsafe) self] in self.ping() }
        pingTimer = timer
        loop.arm(timer, after: interval, repeating: interval)
    }

    /// STATUS= (kept for READY=1 until then).
    public func setStatus(_ text: String) {
        guard text != status else { return }
        status = text
        if isReady { try? notifier.status(text) }
    }

    /// The adapter went away (false) or came back (true).
    public func setPhoneLinkHealthy(_ healthy: Bool) {
        guard healthy != phoneLinkHealthy else { return }
        phoneLinkHealthy = healthy
        guard isReady, let timeout = watchdogTimeout else { return }
        // The last ping before the gap stretches the timeout; the first after it restores it.
        try? notifier.watchdog(timeout: healthy ? timeout : lostTimeout(timeout))
        pings += 1
    }

    /// The watchdog timeout while the adapter is gone: never shorter than the unit's.
    private func lostTimeout(_ unit: Duration) -> Duration {
        max(unit, adapterLossTimeout + Self.lossMargin)
    }

    public func stopping() {
        if let t = pingTimer { loop.disarm(t) }
        try? notifier.stopping()
    }

    private func ping() {
        guard phoneLinkHealthy else { return }
        try? notifier.watchdog()
        pings += 1
    }
}
