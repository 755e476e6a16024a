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
    let command: UnsafeMutableRawBufferPointer
    var active: Active?
    var writeOutstanding = false
    var writeTag: UInt32 = 0
    var writeSentAt = MonotonicInstant.zero
    var nextTag: UInt32 = 1
    /// Events being delivered (the sink is running).
    var emitting = 0
    var probeRequested = false
    var lastTraffic = MonotonicInstant.zero
    var lastNotificationSource = MonotonicInstant.zero
    var lastDataSource = MonotonicInstant.zero
    var reportedOverlongAttribute = false
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

    func clearSession(keepWriteOutstanding: Bool, keepNotifications: Bool) {
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
        writeFailed(attErrorCode: code, now: now)
        pump(now: now)
    }

    /// A failed write's bookkeeping (the request fails, or the probe's
    /// answer is read from the code), without writing the next one.
    func writeFailed(attErrorCode code: UInt8, now: MonotonicInstant) {
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
    var optionalAttributesDeadline: MonotonicInstant? {
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

    func probeAnswered() {
        health.probesAnswered += 1
        health.record(.probeAnswered, .ok)
    }

    func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant) -> MonotonicInstant {
        guard let a else { return b }
        return min(a, b)
    }

    /// Nothing in flight, queued or due for a fetch.
    var isIdle: Bool {
        active == nil && !writeOutstanding && queue.isEmpty && !hasBackfillWork
    }

    var hasBackfillWork: Bool {
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
    ///
    /// The watch may call this from inside one of the consumer's own events
    /// (a pop-up opening as its notification is announced). Then it is only
    /// recorded: the pump that follows the event writes the request, so a
    /// fetch not yet sent asks for the Message at once, and nothing is
    /// written from inside the event.
    public func notificationShown(_ uid: NotificationUID, now: MonotonicInstant) {
        guard isSessionActive, let i = store.index(of: uid) else { return }
        let s = store.slots[i]
        let lacksBasic = !s.present.contains(.appIdentifier) || !s.present.contains(.title)
        let lacksMessage = !s.present.contains(.message)
        retryFailedAppName(slot: i)
        guard lacksBasic || lacksMessage || s.hasWork else { return pumpUnlessEmitting(now: now) }
        if lacksBasic { store.slots[i].needsFetch = true }
        if lacksMessage { store.slots[i].wantsMessage = true }
        retries.reset(i)
        let w = Work(kind: .notification, uid: uid.rawValue)
        if !queue.insertAfterActions(w) {
            if let dropped = queue.dropLastNonAction() { requeueLater(dropped) }
            _ = queue.insertAfterActions(w)
        }
        pumpUnlessEmitting(now: now)
    }

    /// Inside an event the pump after it does the work (every entry point
    /// that emits ends with `pump`).
    private func pumpUnlessEmitting(now: MonotonicInstant) {
        if emitting == 0 { pump(now: now) }
    }

    /// Queues Perform Notification Action, ahead of every fetch. Throws if
    /// the notification's flags do not offer the action. The outcome comes as
    /// `actionSent` / `actionFailed`.
    public func performAction(_ action: ActionID, on uid: NotificationUID, now: MonotonicInstant) throws(ANCSActionError) {
        noteReentry()
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
    func retryFailedAppName(slot i: Int) {
        guard configuration.fetchAppNames, store.slots[i].present.contains(.appIdentifier),
            !store.slots[i].truncated.contains(.appIdentifier),
            let e = apps.find(store.bytes(.appIdentifier, slot: i)), apps.entries[e].state == .failed
        else { return }
        apps.entries[e].state = .wanted
    }

    /// A queued fetch pushed out of the queue stays due in the store / cache
    /// and is picked up when the queue drains.
    func requeueLater(_ w: Work) {
        if w.kind == .app, apps.entries[w.appEntry].state == .queued {
            apps.entries[w.appEntry].state = .wanted
        }
    }

    // MARK: Notification Source handling

    func wantsMessageEagerly(_ info: NotificationInfo) -> Bool {
        configuration.fetchMessageForImportant && (info.flags.contains(.important) || info.category.isCall)
    }

    func added(_ info: NotificationInfo, now: MonotonicInstant) {
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

    func modified(_ info: NotificationInfo, now: MonotonicInstant) {
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

    func removed(_ uid: NotificationUID) {
        guard let i = store.index(of: uid) else { return }
        forget(uid)
        store.remove(at: i)
        retries.reset(i)
        emit(.notificationRemoved(uid, .removedByPhone))
    }

    func enqueueFetch(_ uid: NotificationUID) {
        if !queue.append(Work(kind: .notification, uid: uid.rawValue)) {
            statistics.queueOverflows += 1  // stays due in the store
        }
    }

    /// Drops queued work for a notification that goes away; a fetch in
    /// flight is still read to the end (to stay in sync) but not stored.
    func forget(_ uid: NotificationUID) {
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

    func emit(_ event: ANCSEvent) {
        emitting += 1
        sink?.ancsEvent(event)
        emitting -= 1
    }

    /// A UI request made from inside one of the consumer's own events (the
    /// watch should apply it after the event returns): counted.
    func noteReentry() {
        if emitting > 0 { statistics.reentrantRequests += 1 }
    }
}
