import HAL
import Notifications

/// The ANCS Notification Consumer: a pure state machine. Bytes and events
/// in (Notification Source, Data Source, Control Point write outcomes, the
/// current time), Control Point commands and events out through `sink`.
///
/// It owns no timer: after every call the app arms its run-loop timer at
/// `nextDeadline` and calls `handleDeadline(now:)` when it fires.
/// It allocates only in `init`; see docs/ancs.md for storage, queueing,
/// eviction and time handling.
///
/// Not thread-safe: use it from the run loop's thread only.
public final class NotificationConsumer {
    public struct Configuration: Sendable {
        /// Notifications kept at once (oldest non-call evicted first).
        public var storeCapacity = 32
        /// Control Point requests waiting behind the one in flight.
        public var queueCapacity = 16
        /// A request without a (complete) answer for this long is dropped.
        /// Every Data Source notification of the answer restarts it.
        public var requestTimeout: Duration = .seconds(5)
        /// ... but never beyond this age, however slowly the answer trickles in.
        public var requestMaxAge: Duration = .seconds(30)
        /// A Control Point write whose ATT outcome was not reported after this
        /// long is forgotten, so the queue moves again (the ATT bearer's own
        /// 30 s transaction timeout should have reported it first), and
        /// re-subscribing is recommended (`.controlPointStuck`).
        public var writeOutcomeTimeout: Duration = .seconds(35)
        /// Real iPhones may leave MessageSize and the action labels out of a
        /// response. Once everything else has arrived, the response ends
        /// after the Data Source has been quiet this long (or at once when
        /// the next response begins). Keep it well below `requestTimeout`.
        public var optionalAttributesQuietPeriod: Duration = .milliseconds(250)
        /// Max lengths sent with Title / Subtitle / Message, and the bytes
        /// kept per notification for them.
        public var titleMaxLength: UInt16 = 64
        public var subtitleMaxLength: UInt16 = 64
        public var messageMaxLength: UInt16 = 256
        /// Bytes kept for each action label (longer labels are truncated).
        /// Labels are asked for only when the EventFlags offer the action.
        public var actionLabelMaxLength: UInt16 = 32
        /// Bytes kept for an AppIdentifier (a longer one is truncated and its
        /// display name not fetched).
        public var appIdentifierMaxLength: UInt16 = 160
        /// Bytes kept for an app's display name.
        public var appNameMaxLength: UInt16 = 64
        /// App display names cached per session.
        public var appNameCacheCapacity = 16
        /// Also fetch Subtitle / Date with the title (off: the policy
        /// fetches AppIdentifier, Title and the action labels).
        public var fetchSubtitle = false
        public var fetchDate = false
        /// Fetch MessageSize together with Message (to know it was cut).
        public var fetchMessageSize = true
        /// Fetch the Message right away for Important and call notifications
        /// (otherwise only when `notificationShown` asks for it).
        public var fetchMessageForImportant = true
        /// Get App Attributes (DisplayName) once per AppIdentifier.
        public var fetchAppNames = true
        /// Liveness checks (ANCS health): on by default, a probe after 15
        /// minutes without traffic and a re-subscription after 6 hours
        /// without a Notification Source event. nil turns them off.
        public var liveness: LivenessPolicy? = LivenessPolicy()
        /// Keep what a session showed when it ends, as "from the previous
        /// session", until the next session's announcements reconcile it
        /// (see PreviousSession.swift and docs/ancs.md).
        public var keepsPreviousSession = true
        /// Reconciliation ends once the new session's pre-existing
        /// announcements have been quiet this long and all were fetched...
        public var reconcileSettle: Duration = .seconds(2)
        /// ... or at the latest this long after the session started.
        public var reconcileTimeout: Duration = .seconds(60)
        /// A notification fetch that timed out or failed (except 0xA2: the
        /// UID is gone) is sent again after each of these delays in turn,
        /// then given up until the notification changes or is opened.
        /// At most 8.
        public var fetchRetryDelays: [Duration] = [.seconds(1), .seconds(4)]

        public init() {}
    }

    struct Active {
        var work: Work
        var tag: UInt32
        var deadline: MonotonicInstant
        /// Bounds `deadline` however often Data Source traffic restarts it.
        var maxDeadline: MonotonicInstant
        var version: UInt32 = 0
        var coveredBasic = false
        var coveredMessage = false
        var discardResult = false
    }

    public let configuration: Configuration
    /// Receives Control Point writes and events. Not retained (the sink owns
    /// the consumer); a sink that goes away first sets this to nil in its deinit.
    public unowned(unsafe) var sink: (any ANCSConsumerSink)?
    public internal(set) var statistics = ANCSStatistics()
    public private(set) var isSessionActive = false
    /// The liveness checks' findings (see `ANCSHealth`).
    public internal(set) var health = ANCSHealth()
    /// The liveness checks in force: `configuration.liveness` until changed
    /// (a bench or test shortens them on a running watch). Through
    /// PhoneSession, use its `liveness`, which also re-arms the timer.
    public var liveness: LivenessPolicy?

    let store: NotificationStore
    let apps: AppNameCache
    let queue: RequestQueue
    let assembler: DataSourceAssembler
    let retries: FetchRetries
    private let command: UnsafeMutableRawBufferPointer
    private var active: Active?
    private var writeOutstanding = false
    private var writeTag: UInt32 = 0
    private var writeSentAt = MonotonicInstant.zero
    private var nextTag: UInt32 = 1
    private var pumping = false
    private var probeRequested = false
    private var lastTraffic = MonotonicInstant.zero
    private var lastNotificationSource = MonotonicInstant.zero
    private var lastDataSource = MonotonicInstant.zero
    private var reportedOverlongAttribute = false
    /// Reconciling the previous session's entries (PreviousSession.swift):
    /// until `reconcileDeadline` at the latest; `reconcileSettleAt` is when
    /// the pre-existing announcements count as settled (nil: they are).
    var reconciling = false
    var reconcileDeadline = MonotonicInstant.zero
    var reconcileSettleAt: MonotonicInstant?

    static let messageSizeLimit: UInt16 = 10  // u32 in decimal
    static let dateLimit: UInt16 = 32  // 15 expected; longer is kept cut and fails to parse

    public init(configuration: Configuration = Configuration(), sink: (any ANCSConsumerSink)? = nil) {
        precondition(configuration.storeCapacity >= 1 && configuration.queueCapacity >= 1
            && configuration.appNameCacheCapacity >= 0, "capacities must be positive")
        precondition(configuration.storeCapacity <= Self.maximumStoreCapacity, "at most 65535 notifications")
        precondition(configuration.fetchRetryDelays.count <= 8, "at most 8 fetch retries")
        self.configuration = configuration
        self.sink = sink
        liveness = configuration.liveness
        let c = configuration
        var fields = InlineArray<7, Int>(repeating: 0)
        fields[NotificationTextField.appIdentifier.rawValue] = Int(c.appIdentifierMaxLength)
        fields[NotificationTextField.title.rawValue] = Int(c.titleMaxLength)
        fields[NotificationTextField.subtitle.rawValue] = c.fetchSubtitle ? Int(c.subtitleMaxLength) : 0
        fields[NotificationTextField.message.rawValue] = Int(c.messageMaxLength)
        fields[NotificationTextField.positiveActionLabel.rawValue] = Int(c.actionLabelMaxLength)
        fields[NotificationTextField.negativeActionLabel.rawValue] = Int(c.actionLabelMaxLength)
        fields[NotificationStore.retainedAppName] = c.keepsPreviousSession ? Int(c.appNameMaxLength) : 0
        store = NotificationStore(capacity: c.storeCapacity, fieldCapacities: fields)
        apps = AppNameCache(
            capacity: c.appNameCacheCapacity, idCapacity: Int(c.appIdentifierMaxLength),
            nameCapacity: Int(c.appNameMaxLength))
        queue = RequestQueue(capacity: c.queueCapacity)
        retries = FetchRetries(slots: c.storeCapacity, delays: c.fetchRetryDelays)
        var ac = DataSourceAssembler.Configuration()
        ac.maxPending = 2
        ac.appIdentifierCapacity = Int(c.appIdentifierMaxLength)
        let notificationValues = Int(c.appIdentifierMaxLength) + Int(c.titleMaxLength) + Int(c.subtitleMaxLength)
            + Int(c.messageMaxLength) + Int(Self.messageSizeLimit) + Int(Self.dateLimit)
            + 2 * Int(c.actionLabelMaxLength)
        ac.valueCapacity = max(notificationValues, Int(c.appNameMaxLength))
        ac.truncatesOverlongValues = true
        assembler = DataSourceAssembler(configuration: ac)
        command = .allocate(
            byteCount: ControlPoint.maximumCommandLength(appIdentifierCapacity: Int(c.appIdentifierMaxLength)),
            alignment: 8)
    }

    deinit { command.deallocate() }

    // MARK: session

    /// The Notification Source subscription succeeded (subscribe the Data
    /// Source first). What an earlier session left (ended by a disconnect or
    /// a re-subscription) is kept as "from the previous session" (unless
    /// `keepsPreviousSession` is off) until this session's announcements
    /// reconcile it.
    public func sessionStarted(now: MonotonicInstant) {
        clearSession(keepWriteOutstanding: true, keepNotifications: true)
        isSessionActive = true
        lastTraffic = now
        lastNotificationSource = now
        health.record(health.lastResult == .resubscribing ? .resubscribed : .subscribed, .ok)
        emit(.sessionStarted)
        startReconciliation(now: now)
    }

    /// Unsubscribe, disconnect or ANCS gone: every UID, pending request and
    /// cached app name is dropped; the notifications are kept as from the
    /// previous session after a disconnect or for a re-subscription, and
    /// dropped when ANCS went away or was unsubscribed. After `.disconnected` no write outcome is
    /// awaited; otherwise the outcome of a write in flight must still be
    /// reported (the next write waits for it).
    public func sessionEnded(_ reason: SessionEndReason, now: MonotonicInstant) {
        guard isSessionActive else { return }
        // A disconnect or a re-subscription: the phone announces again what
        // it still holds, so the list is kept for reconciliation. ANCS
        // withdrawn or unsubscribed: nothing it showed is ours to show.
        clearSession(
            keepWriteOutstanding: reason != .disconnected,
            keepNotifications: reason == .disconnected || reason == .resubscribing)
        isSessionActive = false
        if reason == .resubscribing {
            health.record(.resubscribing, .failing)
        } else {
            health.state = .unknown
        }
        emit(.sessionEnded(reason))
    }

    /// Starts re-subscribing (after `resubscribeRecommended`): the session
    /// ends (`.resubscribing`); call `sessionStarted` once the Data Source
    /// and Notification Source subscriptions are written again, or
    /// `resubscribeFailed` (then drop the link so the phone reconnects).
    public func resubscribeStarted(now: MonotonicInstant) {
        health.resubscribes += 1
        health.record(.resubscribing, .failing)
        sessionEnded(.resubscribing, now: now)
    }

    /// Rewriting the subscriptions failed.
    public func resubscribeFailed(now: MonotonicInstant) {
        health.resubscribeFailures += 1
        health.record(.resubscribeFailed, .failing)
    }

    private func clearSession(keepWriteOutstanding: Bool, keepNotifications: Bool) {
        if configuration.keepsPreviousSession && keepNotifications {
            retainSessionEntries()  // before the app names go
        } else {
            store.removeAll()
        }
        reconciling = false
        reconcileSettleAt = nil
        apps.removeAll()
        queue.removeAll()
        retries.removeAll()
        assembler.reset()
        active = nil
        probeRequested = false
        reportedOverlongAttribute = false
        if !keepWriteOutstanding { writeOutstanding = false }
    }

    // MARK: input

    /// One Notification Source GATT notification. Starts a session if none
    /// is active (the subscription's confirmation may come second).
    public func notificationSourceReceived(_ bytes: UnsafeRawBufferPointer, now: MonotonicInstant) {
        if !isSessionActive { sessionStarted(now: now) }
        lastTraffic = now
        lastNotificationSource = now
        health.lastNotificationSource = now
        health.state = .ok  // events flow
        statistics.notificationSourceEvents += 1
        let event: NotificationSourceEvent
        do throws(NotificationSourceError) {
            event = try NotificationSourceEvent(parsing: bytes)
        } catch {
            statistics.malformedNotificationSource += 1
            emit(.protocolError(.malformedNotificationSource(error)))
            return
        }
        let info = NotificationInfo(
            uid: event.uid, flags: event.flags, category: event.category, categoryCount: event.categoryCount)
        switch event.eventID {
        case .added: added(info, now: now)
        case .modified: modified(info, now: now)
        case .removed: removed(info.uid)
        case .unknown: statistics.unknownEventIDs += 1
        }
        pump(now: now)
    }

    /// One Data Source GATT notification.
    public func dataSourceReceived(_ bytes: UnsafeRawBufferPointer, now: MonotonicInstant) {
        guard isSessionActive else { return }
        lastTraffic = now
        lastDataSource = now
        if let a = active, a.work.kind == .notification || a.work.kind == .app {
            active!.deadline = min(now.advanced(by: configuration.requestTimeout), a.maxDeadline)
        }
        assembler.feed(bytes) { event in self.assembled(event, now: now) }
        pump(now: now)
    }

    /// The last Control Point write got its ATT Write Response.
    public func controlPointWriteSucceeded(now: MonotonicInstant) {
        guard writeOutstanding else {
            emit(.protocolError(.unexpectedWriteResponse))
            return
        }
        writeOutstanding = false
        lastTraffic = now
        if let a = active, a.tag == writeTag {
            switch a.work.kind {
            case .action:
                active = nil
                emit(.actionSent(NotificationUID(a.work.uid), a.work.action))
            case .probe:
                active = nil
                probeAnswered()
                emit(.livenessProbe(.alive))
            case .notification, .app:
                break  // the answer comes on the Data Source
            }
        }
        pump(now: now)
    }

    /// The last Control Point write failed with this ATT error code
    /// (0xA0–0xA3 are ANCS's own; others are ATT's).
    public func controlPointWriteFailed(attErrorCode code: UInt8, now: MonotonicInstant) {
        guard writeOutstanding else {
            emit(.protocolError(.unexpectedWriteResponse))
            return
        }
        writeOutstanding = false
        lastTraffic = now
        let error = ANCSRequestError(attErrorCode: code)
        if let a = active, a.tag == writeTag {
            if a.work.kind == .probe {
                active = nil
                if code == ANCSErrorCode.invalidParameter.rawValue {
                    probeAnswered()
                    emit(.livenessProbe(.alive))
                } else {
                    health.record(.probeRejected, .failing)
                    emit(.livenessProbe(.rejected(error)))
                }
            } else {
                if a.work.kind == .notification || a.work.kind == .app {
                    assembler.cancel(tag: a.tag)
                }
                fail(error, now: now)
            }
        }
        pump(now: now)
    }

    // MARK: time

    /// When `handleDeadline` must run next; nil when nothing is timed.
    public var nextDeadline: MonotonicInstant? {
        guard isSessionActive else { return nil }
        var d = active?.deadline
        if writeOutstanding { d = earliest(d, writeSentAt.advanced(by: configuration.writeOutcomeTimeout)) }
        if let quiet = optionalAttributesDeadline { d = earliest(d, quiet) }
        if let retry = retries.nextDue { d = earliest(d, retry) }
        if reconciling {
            d = earliest(d, reconcileDeadline)
            if let settle = reconcileSettleAt { d = earliest(d, settle) }
        }
        if let l = liveness {
            if let silence = l.resubscribeAfterSilence {
                d = earliest(d, lastNotificationSource.advanced(by: silence))
            }
            if isIdle { d = earliest(d, lastTraffic.advanced(by: l.probeAfterQuiet)) }
        }
        return d
    }

    /// When the response in progress ends without its missing optional
    /// attributes: every other attribute arrived and the Data Source has
    /// been quiet for `optionalAttributesQuietPeriod`.
    private var optionalAttributesDeadline: MonotonicInstant? {
        guard let a = active, let tag = assembler.tagAwaitingOptionalAttributes, a.tag == tag else { return nil }
        return lastDataSource.advanced(by: configuration.optionalAttributesQuietPeriod)
    }

    /// Runs whatever is due at `now` (end of a response without its
    /// optional attributes, request timeout, fetch retries, liveness).
    public func handleDeadline(now: MonotonicInstant) {
        guard isSessionActive else { return }
        retries.release(now: now)
        if let quiet = optionalAttributesDeadline, now >= quiet {
            assembler.finishWithoutOptionalAttributes { event in self.assembled(event, now: now) }
        }
        if let a = active, now >= a.deadline {
            statistics.timeouts += 1
            switch a.work.kind {
            case .notification, .app:
                assembler.cancel(tag: a.tag) { partial in self.commit(partial, a, complete: false) }
                fail(.timedOut, now: now)
            case .action:
                fail(.timedOut, now: now)
            case .probe:
                active = nil
                health.probesUnanswered += 1
                health.record(.probeUnanswered, .failing)
                emit(.livenessProbe(.noAnswer))
                emit(.resubscribeRecommended(.probeUnanswered))
            }
        }
        if writeOutstanding, isSessionActive, now >= writeSentAt.advanced(by: configuration.writeOutcomeTimeout) {
            // The watchdog: the outcome of this write never came. Forget it
            // (a late outcome is reported as unexpected), so nothing stays
            // stuck behind it, and suggest starting over.
            writeOutstanding = false
            health.stuckRequestsCleared += 1
            health.record(.stuckRequestCleared, .failing)
            if let a = active, a.tag == writeTag {
                if a.work.kind == .notification || a.work.kind == .app { assembler.cancel(tag: a.tag) }
                statistics.timeouts += 1
                fail(.timedOut, now: now)
            }
            emit(.resubscribeRecommended(.controlPointStuck))
        }
        if let l = liveness, isSessionActive {
            var silent = false
            if let silence = l.resubscribeAfterSilence, now >= lastNotificationSource.advanced(by: silence) {
                lastNotificationSource = now
                lastTraffic = now  // the re-subscription supersedes a probe now
                silent = true
                health.record(.silent, .failing)
                emit(.resubscribeRecommended(.notificationSourceSilent))
            }
            // No probe in the pass that recommends re-subscribing: that supersedes it.
            if !silent, isSessionActive, isIdle, now >= lastTraffic.advanced(by: l.probeAfterQuiet) {
                probeRequested = true
            }
        }
        pump(now: now)
    }

    private func probeAnswered() {
        health.probesAnswered += 1
        health.record(.probeAnswered, .ok)
    }

    private func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant) -> MonotonicInstant {
        guard let a else { return b }
        return min(a, b)
    }

    /// Nothing in flight, queued or due for a fetch.
    private var isIdle: Bool {
        active == nil && !writeOutstanding && queue.isEmpty && !hasBackfillWork
    }

    private var hasBackfillWork: Bool {
        var i = 0
        while i < store.capacity {
            if store.slots[i].inUse && store.slots[i].hasWork { return true }
            i += 1
        }
        i = 0
        while i < apps.capacity {
            if apps.entries[i].state == .wanted { return true }
            i += 1
        }
        return false
    }

    // MARK: UI requests

    /// The notification is on screen: fetch whatever it lacks, ahead of
    /// other fetches: its Message (bounded) and MessageSize, and its
    /// AppIdentifier / Title / action labels if an earlier fetch failed. A
    /// fetch waiting for its retry goes now, with its retries renewed; an
    /// app name whose lookup failed is asked again.
    public func notificationShown(_ uid: NotificationUID, now: MonotonicInstant) {
        guard isSessionActive, let i = store.index(of: uid) else { return }
        let s = store.slots[i]
        let lacksBasic = !s.present.contains(.appIdentifier) || !s.present.contains(.title)
        let lacksMessage = !s.present.contains(.message)
        retryFailedAppName(slot: i)
        guard lacksBasic || lacksMessage || s.hasWork else { return pump(now: now) }
        if lacksBasic { store.slots[i].needsFetch = true }
        if lacksMessage { store.slots[i].wantsMessage = true }
        retries.reset(i)
        let w = Work(kind: .notification, uid: uid.rawValue)
        if !queue.insertAfterActions(w) {
            if let dropped = queue.dropLastNonAction() { requeueLater(dropped) }
            _ = queue.insertAfterActions(w)
        }
        pump(now: now)
    }

    /// Queues Perform Notification Action, ahead of every fetch. Throws if
    /// the notification's flags do not offer the action. The outcome comes as
    /// `actionSent` / `actionFailed`.
    public func performAction(_ action: ActionID, on uid: NotificationUID, now: MonotonicInstant) throws(ANCSActionError) {
        guard isSessionActive else { throw .noSession }
        guard let i = store.index(of: uid) else { throw .unknownNotification(uid) }
        guard store.slots[i].flags.contains(action.requiredFlag) else { throw .actionNotAvailable(uid, action) }
        let w = Work(kind: .action, uid: uid.rawValue, action: action)
        if !queue.contains(w) {
            if queue.isFull {
                guard let dropped = queue.dropLastNonAction() else { throw .queueFull }
                statistics.queueOverflows += 1
                requeueLater(dropped)
            }
            _ = queue.insertAfterActions(w)
        }
        pump(now: now)
    }

    /// The app name of the notification in slot `i` failed to arrive: look
    /// it up again (the wearer is looking at the entry).
    private func retryFailedAppName(slot i: Int) {
        guard configuration.fetchAppNames, store.slots[i].present.contains(.appIdentifier),
            !store.slots[i].truncated.contains(.appIdentifier),
            let e = apps.find(store.bytes(.appIdentifier, slot: i)), apps.entries[e].state == .failed
        else { return }
        apps.entries[e].state = .wanted
    }

    /// A queued fetch pushed out of the queue stays due in the store / cache
    /// and is picked up when the queue drains.
    private func requeueLater(_ w: Work) {
        if w.kind == .app, apps.entries[w.appEntry].state == .queued {
            apps.entries[w.appEntry].state = .wanted
        }
    }

    // MARK: Notification Source handling

    private func wantsMessageEagerly(_ info: NotificationInfo) -> Bool {
        configuration.fetchMessageForImportant && (info.flags.contains(.important) || info.category.isCall)
    }

    private func added(_ info: NotificationInfo, now: MonotonicInstant) {
        if store.index(of: info.uid) != nil {
            modified(info, now: now)  // a repeated Added is a change
            return
        }
        if info.isPreExisting { preExistingAnnounced(now: now) }
        makeRoomForUID(info.uid)
        if store.count >= store.capacity {
            guard let v = store.victim(forPreExisting: info.isPreExisting) else {
                statistics.droppedPreExisting += 1
                return
            }
            let evicted = NotificationUID(store.slots[v].uid)
            forget(evicted)
            store.remove(at: v)
            retries.reset(v)
            statistics.evictions += 1
            emit(.notificationRemoved(evicted, .evicted))
        }
        guard let i = store.insert(info) else { return }
        retries.reset(i)
        store.slots[i].needsFetch = true
        store.slots[i].wantsMessage = wantsMessageEagerly(info)
        emit(.notificationAdded(info))
        if !info.isPreExisting { enqueueFetch(info.uid) }
    }

    private func modified(_ info: NotificationInfo, now: MonotonicInstant) {
        guard let i = store.index(of: info.uid) else {
            added(info, now: now)
            return
        }
        let hadMessage = store.slots[i].present.contains(.message) || store.slots[i].wantsMessage
        store.slots[i].flags = info.flags
        store.slots[i].category = info.category
        store.slots[i].categoryCount = info.categoryCount
        store.slots[i].needsFetch = true
        store.slots[i].wantsMessage = hadMessage || wantsMessageEagerly(info)
        store.slots[i].version &+= 1
        retries.reset(i)  // new content: a fresh set of attempts
        emit(.notificationModified(info))
        if !info.isPreExisting { enqueueFetch(info.uid) }
    }

    private func removed(_ uid: NotificationUID) {
        guard let i = store.index(of: uid) else { return }
        forget(uid)
        store.remove(at: i)
        retries.reset(i)
        emit(.notificationRemoved(uid, .removedByPhone))
    }

    private func enqueueFetch(_ uid: NotificationUID) {
        if !queue.append(Work(kind: .notification, uid: uid.rawValue)) {
            statistics.queueOverflows += 1  // stays due in the store
        }
    }

    /// Drops queued work for a notification that goes away; a fetch in
    /// flight is still read to the end (to stay in sync) but not stored.
    private func forget(_ uid: NotificationUID) {
        var cancelled = InlineArray<2, Bool>(repeating: false)
        var k = 0
        while k < queue.count {
            let w = queue[k]
            if w.kind == .action && w.uid == uid.rawValue { cancelled[Int(w.action.rawValue)] = true }
            k += 1
        }
        queue.removeAll { ($0.kind == .notification || $0.kind == .action) && $0.uid == uid.rawValue }
        if let a = active, a.work.kind == .notification, a.work.uid == uid.rawValue {
            active!.discardResult = true
        }
        // (Not `ActionID.allCases`: that builds an array.)
        if cancelled[0] { emit(.actionFailed(uid, .positive, .cancelled)) }
        if cancelled[1] { emit(.actionFailed(uid, .negative, .cancelled)) }
    }

    // MARK: dispatch

    private func pump(now: MonotonicInstant) {
        guard !pumping else { return }
        pumping = true
        while isSessionActive && active == nil && !writeOutstanding {
            guard let w = nextWork() else { break }
            dispatch(w, now: now)
        }
        pumping = false
        if reconciling { checkReconciliation(now: now) }
    }

    private func nextWork() -> Work? {
        while let w = queue.popFirst() {
            switch w.kind {
            case .notification:
                if let i = store.index(of: NotificationUID(w.uid)), isDue(i) { return w }
            case .app:
                if apps.entries[w.appEntry].state == .queued { return w }
            case .action:
                if store.index(of: NotificationUID(w.uid)) != nil { return w }
            case .probe:
                return w
            }
        }
        // Live notifications that did not fit in the queue, oldest first.
        var pick = -1
        var i = 0
        while i < store.capacity {
            let s = store.slots[i]
            if s.inUse && !s.isPreExisting && isDue(i) && (pick < 0 || s.sequence < store.slots[pick].sequence) {
                pick = i
            }
            i += 1
        }
        if pick >= 0 { return Work(kind: .notification, uid: store.slots[pick].uid) }
        // App names that did not fit in the queue.
        i = 0
        while i < apps.capacity {
            if apps.entries[i].state == .wanted {
                apps.entries[i].state = .queued
                return Work(kind: .app, appEntry: i)
            }
            i += 1
        }
        // Pre-existing notifications, newest first.
        pick = -1
        i = 0
        while i < store.capacity {
            let s = store.slots[i]
            if s.inUse && s.isPreExisting && isDue(i) && (pick < 0 || s.sequence > store.slots[pick].sequence) {
                pick = i
            }
            i += 1
        }
        if pick >= 0 { return Work(kind: .notification, uid: store.slots[pick].uid) }
        if probeRequested {
            probeRequested = false
            return Work(kind: .probe)
        }
        return nil
    }

    /// Slot `i` has a fetch due now (not waiting for a retry).
    private func isDue(_ i: Int) -> Bool {
        store.slots[i].hasWork && !retries.isWaiting(i, sequence: store.slots[i].sequence)
    }

    private func dispatch(_ w: Work, now: MonotonicInstant) {
        let tag = nextTag
        nextTag &+= 1
        var a = Active(
            work: w, tag: tag, deadline: now.advanced(by: configuration.requestTimeout),
            maxDeadline: now.advanced(by: max(configuration.requestTimeout, configuration.requestMaxAge)))
        let c = configuration
        var length = 0
        do throws(ControlPointEncodingError) {
            switch w.kind {
            case .notification:
                guard let i = store.index(of: NotificationUID(w.uid)) else { return }
                let s = store.slots[i]
                var list = AttributeList()
                if s.needsFetch {
                    list.append(.notification(.appIdentifier, maxLength: c.appIdentifierMaxLength))
                    list.append(.notification(.title, maxLength: c.titleMaxLength))
                    if c.fetchSubtitle { list.append(.notification(.subtitle, maxLength: c.subtitleMaxLength)) }
                    if c.fetchDate { list.append(.notification(.date, maxLength: Self.dateLimit)) }
                    if s.flags.contains(.positiveAction) {
                        list.append(.notification(.positiveActionLabel, maxLength: c.actionLabelMaxLength))
                    }
                    if s.flags.contains(.negativeAction) {
                        list.append(.notification(.negativeActionLabel, maxLength: c.actionLabelMaxLength))
                    }
                }
                if s.wantsMessage {
                    list.append(.notification(.message, maxLength: c.messageMaxLength))
                    if c.fetchMessageSize { list.append(.notification(.messageSize, maxLength: Self.messageSizeLimit)) }
                }
                a.version = s.version
                a.coveredBasic = s.needsFetch
                a.coveredMessage = s.wantsMessage
                length = try ControlPoint.encodeGetNotificationAttributes(
                    uid: NotificationUID(w.uid), attributes: list, into: command)
                do throws(DataSourceAssembler.ExpectError) {
                    try assembler.expectNotificationAttributes(uid: NotificationUID(w.uid), attributes: list, tag: tag)
                } catch {
                    // Sized in init so this cannot happen; never trap on it.
                    store.slots[i].needsFetch = false
                    store.slots[i].wantsMessage = false
                    return
                }
            case .app:
                var list = AttributeList()
                list.append(.app(.displayName, maxLength: c.appNameMaxLength))
                let id = apps.identifier(w.appEntry)
                length = try ControlPoint.encodeGetAppAttributes(appIdentifier: id, attributes: list, into: command)
                do throws(DataSourceAssembler.ExpectError) {
                    try assembler.expectAppAttributes(appIdentifier: id, attributes: list, tag: tag)
                } catch {
                    apps.entries[w.appEntry].state = .failed
                    return
                }
                apps.entries[w.appEntry].state = .requested
            case .action:
                length = try ControlPoint.encodePerformNotificationAction(
                    uid: NotificationUID(w.uid), action: w.action, into: command)
            case .probe:
                var list = AttributeList()
                list.append(.notification(.appIdentifier, maxLength: c.appIdentifierMaxLength))
                length = try ControlPoint.encodeGetNotificationAttributes(uid: .probe, attributes: list, into: command)
                statistics.probesSent += 1
                health.probes += 1
            }
        } catch {
            // The command buffer is sized in init for the largest command
            // and an AppIdentifier with NUL fails here: drop the work, so the
            // same work is not picked again.
            if w.kind == .app { apps.entries[w.appEntry].state = .failed }
            if w.kind == .notification, let i = store.index(of: NotificationUID(w.uid)) {
                store.slots[i].needsFetch = false
                store.slots[i].wantsMessage = false
            }
            return
        }
        active = a
        writeOutstanding = true
        writeTag = tag
        writeSentAt = now
        statistics.requestsSent += 1
        sink?.ancsWriteControlPoint(UnsafeRawBufferPointer(rebasing: command[0..<length]))
    }

    // MARK: results

    private func assembled(_ event: DataSourceEvent, now: MonotonicInstant) {
        switch event {
        case .response(let r):
            guard let a = active, a.tag == r.tag else { return }
            active = nil
            statistics.responsesCompleted += 1
            if !r.hasEveryAttribute { statistics.responsesWithoutOptionalAttributes += 1 }
            commit(r, a, complete: true)
        case .failed(let tag, let error):
            statistics.malformedResponses += 1
            if let a = active, a.tag == tag { fail(.malformedResponse(error), now: now) }
        case .discarded(let error):
            statistics.strayDataSourceEpisodes += 1
            emit(.protocolError(.dataSource(error)))
        }
    }

    /// The active request failed: tell, and for a notification fetch either
    /// schedule its retry (`FetchRetries`) or give up on it.
    private func fail(_ error: ANCSRequestError, now: MonotonicInstant) {
        guard let a = active else { return }
        active = nil
        switch a.work.kind {
        case .notification:
            if !scheduleRetry(a, error, now: now) { clearDue(a) }
            if !a.discardResult { emit(.fetchFailed(NotificationUID(a.work.uid), error)) }
        case .app:
            if apps.entries[a.work.appEntry].state == .requested { apps.entries[a.work.appEntry].state = .failed }
        case .action:
            emit(.actionFailed(NotificationUID(a.work.uid), a.work.action, error))
        case .probe:
            break
        }
    }

    /// Keeps the failed fetch's work due and makes it wait for its retry.
    /// False when it is not retried: the UID is gone on the phone (0xA2) or
    /// here, the notification changed meanwhile (it is fetched again anyway),
    /// or its retries are used up.
    private func scheduleRetry(_ a: Active, _ error: ANCSRequestError, now: MonotonicInstant) -> Bool {
        switch error {
        case .phone(.invalidParameter), .cancelled: return false
        default: break
        }
        guard !a.discardResult, let i = store.index(of: NotificationUID(a.work.uid)),
            store.slots[i].version == a.version
        else { return false }
        return retries.failed(i, sequence: store.slots[i].sequence, now: now)
    }

    private func clearDue(_ a: Active) {
        guard !a.discardResult, let i = store.index(of: NotificationUID(a.work.uid)),
            store.slots[i].version == a.version
        else { return }
        if a.coveredBasic { store.slots[i].needsFetch = false }
        if a.coveredMessage { store.slots[i].wantsMessage = false }
    }

    /// Stores a response and tells the app. `complete`: the response ended
    /// (a requested attribute it lacks is optional and absent on the phone);
    /// otherwise it is what fully arrived before a timeout.
    private func commit(_ r: DataSourceResponse, _ a: Active, complete: Bool) {
        switch a.work.kind {
        case .notification:
            // A partial answer (timeout) leaves the work due: `fail` decides.
            if complete { clearDue(a) }
            reportOverlongAttributes(r, NotificationUID(a.work.uid))
            guard !a.discardResult, let i = store.index(of: NotificationUID(a.work.uid)) else { return }
            if complete { retries.reset(i) }
            var fields = NotificationFields()
            var k = 0
            while k < r.requested.count {
                let id = r.requested[k].id
                if r.value(at: k) == nil && complete {
                    // Left out by the phone: drop what an earlier fetch stored.
                    let f = NotificationFields(attribute: id)
                    store.slots[i].present.remove(f)
                    store.slots[i].truncated.remove(f)
                    if let tf = NotificationTextField(attribute: id) {
                        store.set(tf, slot: i, from: UnsafeRawBufferPointer(start: nil, count: 0))
                    } else if id == NotificationAttributeID.messageSize.rawValue {
                        store.slots[i].messageSize = nil
                    } else if id == NotificationAttributeID.date.rawValue {
                        store.slots[i].date = nil
                    }
                }
                if let v = r.value(at: k) {
                    let f = NotificationFields(attribute: id)
                    fields.insert(f)
                    if r.isTruncated(at: k) {
                        store.slots[i].truncated.insert(f)
                    } else {
                        store.slots[i].truncated.remove(f)
                    }
                    if let tf = NotificationTextField(attribute: id) {
                        store.set(tf, slot: i, from: v)
                    } else if id == NotificationAttributeID.messageSize.rawValue {
                        store.slots[i].messageSize = MessageSize.parse(v)
                    } else if id == NotificationAttributeID.date.rawValue {
                        store.slots[i].date = ANCSDateTime(parsing: v)
                    }
                }
                k += 1
            }
            store.slots[i].present.formUnion(fields)
            if fields.contains(.appIdentifier) && configuration.fetchAppNames
                && !store.slots[i].truncated.contains(.appIdentifier)
            {
                let id = store.bytes(.appIdentifier, slot: i)
                if id.count > 0 {
                    if let e = apps.find(id) {
                        apps.touch(e)
                        if apps.entries[e].state == .resolved { fields.insert(.appDisplayName) }
                    } else if let e = apps.add(id) {
                        if queue.append(Work(kind: .app, appEntry: e)) {
                            apps.entries[e].state = .queued
                        }
                    }
                }
            }
            emit(.attributesReady(NotificationUID(a.work.uid), fields))
            reconcile(slot: i)
        case .app:
            let e = a.work.appEntry
            guard apps.entries[e].state == .requested else { return }
            if let v = r.value(for: AppAttributeID.displayName) {
                let index = r.requested.index(of: AppAttributeID.displayName.rawValue) ?? 0
                apps.setName(e, v, truncated: r.isTruncated(at: index))
            } else {
                apps.entries[e].state = .failed
                return
            }
            let id = apps.identifier(e)
            var i = 0
            while i < store.capacity {
                if store.slots[i].inUse && store.slots[i].present.contains(.appIdentifier)
                    && memoryEqual(store.bytes(.appIdentifier, slot: i), id)
                {
                    emit(.attributesReady(NotificationUID(store.slots[i].uid), .appDisplayName))
                }
                i += 1
            }
        case .action, .probe:
            break
        }
    }

    /// A Title / Subtitle / Message the phone sent longer than we asked:
    /// counted always, reported once per session.
    private func reportOverlongAttributes(_ r: DataSourceResponse, _ uid: NotificationUID) {
        var k = 0
        while k < r.requested.count {
            if r.exceededMaxLength(at: k) {
                statistics.overlongAttributes += 1
                if !reportedOverlongAttribute {
                    reportedOverlongAttribute = true
                    emit(.protocolError(.attributeExceedsMaxLength(
                        uid, attributeID: r.requested[k].id, length: r.declaredLength(at: k) ?? 0,
                        maxLength: Int(r.requested[k].maxLength))))
                }
            }
            k += 1
        }
    }

    func emit(_ event: ANCSEvent) {
        sink?.ancsEvent(event)
    }
}

// MARK: - conveniences for tests and tools (the arrays are the caller's)

extension NotificationConsumer {
    public func notificationSourceReceived(_ bytes: [UInt8], now: MonotonicInstant) {
        bytes.withUnsafeBytes { notificationSourceReceived($0, now: now) }
    }

    public func dataSourceReceived(_ bytes: [UInt8], now: MonotonicInstant) {
        bytes.withUnsafeBytes { dataSourceReceived($0, now: now) }
    }

    public func appDisplayName(forAppIdentifier id: String) -> String? {
        var copy = id
        return copy.withUTF8 { utf8 in
            appDisplayName(forAppIdentifier: UnsafeRawBufferPointer(utf8)).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
