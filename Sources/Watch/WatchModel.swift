import ANCS
import BoardConfig
import HAL
import Screens

/// The watch's decisions as a pure state machine, built like the ANCS
/// consumer: what is on screen, what a button does there, when the motor
/// runs, when the display dims and sleeps, when a pairing request times out
/// and when static content shifts against burn-in.
///
/// Inputs are method calls taking `now` (button gestures, the phone
/// connecting and going away, ANCS events, pairing requests, notices, link
/// changes); outputs go to `sink`. It owns no timer: after every input the
/// controller arms one loop timer at `nextDeadline` and calls
/// `handleDeadline(now:)` when it fires. The phone's notifications are read
/// from its `NotificationConsumer` (counts, flags, list order).
///
/// The rules are split by concern: WatchModel+Navigation (buttons, list and
/// detail), +Calls, +Pairing, +DisplayPower, +BurnInShift.
/// Allocates only in `init`. Not thread-safe: use it from the loop's thread.
public final class WatchModel {
    /// Receives the model's effects. Held weakly.
    public weak var sink: (any WatchModelSink)?
    public let settings: WatchSettings
    /// What vibrates for which notification.
    public let policy: VibrationPolicy
    let detailLayout: any NotificationDetailLayout

    public internal(set) var screen: Screen = .waitingForPhone
    /// The link to the phone as the status bar shows it.
    public internal(set) var link: LinkIndicator = .off
    /// The notifications the screens show (an empty store without a phone).
    public internal(set) var notifications: NotificationConsumer
    public internal(set) var isPhoneConnected = false
    /// New notifications not yet seen in the list (the status bar's count).
    public internal(set) var unread = 0
    /// The selected row of the list, newest first.
    public internal(set) var listSelection = 0

    // Calls (WatchModel+Calls).
    /// The call ringing now, if any.
    public internal(set) var ringingCall: NotificationUID?

    // Pairing (WatchModel+Pairing).
    /// A passkey is on screen and its request waits for an answer.
    public internal(set) var isAwaitingPairingAnswer = false
    var screenBeforePairing: Screen = .waitingForPhone
    var pairingDeadline: MonotonicInstant?

    // Display power (WatchModel+DisplayPower).
    public internal(set) var displayPower: DisplayPowerState = .on
    var dimDeadline: MonotonicInstant?
    var offDeadline: MonotonicInstant?

    // Burn-in shift (WatchModel+BurnInShift).
    /// Steps taken around the 2x2 pixel square so far.
    public internal(set) var shiftStep = 0
    var shiftDeadline: MonotonicInstant?

    private let noPhone = NotificationConsumer()

    /// - Parameters:
    ///   - detailLayout: how far a notification scrolls (the renderer).
    ///   - now: the display is on from here; it dims `settings.dimAfter` later.
    public init(
        settings: WatchSettings, policy: VibrationPolicy, detailLayout: any NotificationDetailLayout,
        now: MonotonicInstant, sink: (any WatchModelSink)? = nil
    ) {
        self.settings = settings
        self.policy = policy
        self.detailLayout = detailLayout
        self.sink = sink
        notifications = noPhone
        restartPowerDeadlines(now: now)
    }

    /// The watch is running: static content starts moving against burn-in.
    public func start(now: MonotonicInstant) {
        startBurnInShift(now: now)
    }

    // MARK: - The phone

    /// A phone connected; `notifications` is its ANCS store.
    public func phoneConnected(notifications store: NotificationConsumer, now: MonotonicInstant) {
        notifications = store
        isPhoneConnected = true
        unread = 0
        listSelection = 0
        if case .pairing = screen {} else { screen = .idleClock }
        if link == .off || link == .advertising { linkChanged(.connected, now: now) }
        requestRender()
    }

    /// The link went away: its store is gone with it.
    public func phoneDisconnected(now: MonotonicInstant) {
        guard isPhoneConnected else { return }
        isPhoneConnected = false
        notifications = noPhone
        endCall(now: now)
        unread = 0
        listSelection = 0
        screen = .waitingForPhone
        requestRender()
    }

    /// The status bar's link indicator changed (advertising, connected, encrypted...).
    public func linkChanged(_ new: LinkIndicator, now: MonotonicInstant) {
        guard new != link else { return }
        link = new
        requestRender()
    }

    /// An event from the phone's ANCS consumer (its store already updated).
    public func ancsEvent(_ event: ANCSEvent, now: MonotonicInstant) {
        switch event {
        case .notificationAdded(let info):
            notificationAdded(info, now: now)
        case .notificationModified, .attributesReady:
            requestRender()
        case .notificationRemoved(let uid, _):
            if ringingCall == uid { endCall(now: now) }
            if case .detail(let shown, _) = screen, shown == uid { screen = .list(selected: listSelection) }
            clampSelection()
            requestRender()
        case .actionSent(let uid, _):
            if ringingCall == uid { endCall(now: now) }
        case .sessionEnded:
            endCall(now: now)
            requestRender()
        case .sessionStarted, .fetchFailed, .actionFailed, .livenessProbe, .resubscribeRecommended, .protocolError:
            break
        }
    }

    private func notificationAdded(_ info: NotificationInfo, now: MonotonicInstant) {
        if !info.isPreExisting { unread &+= 1 }
        if info.category == .incomingCall && info.shouldAlert {
            startRinging(info.uid, now: now)
        } else if info.shouldAlert {
            if info.flags.contains(.important) { wake(now: now) }
            if let pattern = policy.pattern(for: info) { sink?.watchPlay(pattern) }
            // A new alert pops up unless a call or a passkey has the screen.
            if ringingCall == nil && !isAwaitingPairingAnswer {
                listSelection = 0
                openDetail(info.uid)
            }
        }
        requestRender()
    }

    /// Shows a one-line notice (for example "Pair again" after a stale bond).
    public func showNotice(_ text: String, now: MonotonicInstant) {
        wake(now: now)
        screen = .message(text)
        requestRender()
    }

    // MARK: - Time

    /// When `handleDeadline` must run next: display dim / off, the pairing
    /// timeout, the next burn-in shift. nil when nothing is timed.
    public var nextDeadline: MonotonicInstant? {
        earliest(earliest(dimDeadline, offDeadline), earliest(pairingDeadline, shiftDeadline))
    }

    /// Runs whatever is due at `now`, earliest first (as separate timers would).
    public func handleDeadline(now: MonotonicInstant) {
        while let due = nextDeadline, due <= now {
            // Ties go dim, off, pairing, shift.
            if dimDeadline == due {
                dimDeadlinePassed()
            } else if offDeadline == due {
                offDeadlinePassed()
            } else if pairingDeadline == due {
                pairingTimedOut(now: now)
            } else {
                shiftDeadlinePassed(now: now)
            }
        }
    }

    private func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    func requestRender() {
        sink?.watchRenderRequested()
    }
}
