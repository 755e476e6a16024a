import HAL
import Log
import Loop
import Notifications

/// Keeps the notification list in the state directory (the file:
/// `NotificationHistory`; docs/settings.md, "Notification history")
/// without ever writing in a burst: a change only marks the list dirty
/// (`changed(now:)`: two stores and, when no write is pending, arming one
/// timer; nothing allocates); the list is encoded and written once changes
/// have been quiet for `quietPeriod`, at most once per `minimumInterval`
/// (a steady trickle is written every `minimumInterval`), and on a clean
/// shutdown (`flush`) when something is still unwritten.
public final class NotificationHistoryKeeper {
    /// Written this long after the last change...
    public static let quietPeriod: Duration = .seconds(5)
    /// ... and at most once in this long (also the longest a change waits).
    public static let minimumInterval: Duration = .seconds(60)

    /// Where the file goes (the daemon's state directory).
    public struct Storage {
        /// Names the file in log lines.
        public var path: String
        /// Replaces the file atomically, owner-only.
        public var write: ([UInt8]) throws(HALError) -> Void
        /// Deletes it (missing is fine).
        public var remove: () throws(HALError) -> Void

        public init(path: String, write: @escaping ([UInt8]) throws(HALError) -> Void, remove: @escaping () throws(HALError) -> Void) {
            self.path = path
            self.write = write
            self.remove = remove
        }
    }

    private let loop: any TimerScheduling
    private let logger: Logger
    private let storage: Storage
    private let encode: () -> [UInt8]
    private var timer: TimerID!
    /// Something changed since the last write.
    public private(set) var isDirty = false
    private var firstChange = MonotonicInstant.zero
    private var lastChange = MonotonicInstant.zero
    private var lastWrite: MonotonicInstant?
    /// Files written (tests count them).
    public private(set) var writes = 0
    private var reportedFailure = false

    /// - Parameter encode: the file's bytes for the list as it is now.
    public init(loop: any TimerScheduling, logger: Logger, storage: Storage, encode: @escaping () -> [UInt8]) {
        self.loop = loop
        self.logger = logger
        self.storage = storage
        self.encode = encode
        timer = loop.makeTimer { [unowned(unsafe) self] in self.timerFired() }
    }

    deinit { loop.destroyTimer(timer) }

    /// The list changed (a notification added, changed or removed). Hot
    /// path: no allocation, no I/O.
    public func changed(now: MonotonicInstant) {
        lastChange = now
        guard !isDirty else { return }
        isDirty = true
        firstChange = now
        if !loop.isArmed(timer) { loop.arm(timer, at: dueAt) }
    }

    /// When the pending write is due: `quietPeriod` after the last change
    /// (no later than `minimumInterval` after the first), and not before
    /// `minimumInterval` after the last write.
    var dueAt: MonotonicInstant {
        let settled = min(lastChange.advanced(by: Self.quietPeriod), firstChange.advanced(by: Self.minimumInterval))
        guard let w = lastWrite else { return settled }
        return max(settled, w.advanced(by: Self.minimumInterval))
    }

    private func timerFired() {
        guard isDirty else { return }
        let due = dueAt
        if loop.now < due { return loop.arm(timer, at: due) }
        write()
    }

    /// A clean shutdown: writes now what is still unwritten.
    public func flush() {
        if isDirty { write() }
    }

    /// Deletes the file (the harness's `history clear`); nothing is written
    /// until the list changes again. False when it could not be deleted.
    @discardableResult
    public func clear() -> Bool {
        isDirty = false
        loop.disarm(timer)
        do throws(HALError) {
            try storage.remove()
            logger.info("notification history cleared (\(storage.path) deleted)")
            return true
        } catch {
            logger.warning("cannot delete \(storage.path): \(error)")
            return false
        }
    }

    private func write() {
        isDirty = false
        loop.disarm(timer)
        lastWrite = loop.now
        let bytes = encode()
        do throws(HALError) {
            try storage.write(bytes)
            writes += 1
            reportedFailure = false
        } catch {
            // Once per run of failures (a full disk must not fill the log).
            if !reportedFailure { logger.warning("cannot keep the notification list in \(storage.path): \(error) (it is lost on a restart)") }
            reportedFailure = true
        }
    }
}
