import HAL
import Notifications

// The consumer's Control Point side: which request goes next (actions
// first, then fetches in arrival order, then what the previous session and
// pre-existing notifications still need) and the command bytes it writes.

extension NotificationConsumer {
    /// Writes the next request while none is outstanding. Nothing calls back
    /// in here from inside a write: a write that cannot go out is the sink's
    /// result (`ControlPointWrite.notSent`), handled in this loop, and the
    /// watch applies its requests after the consumer's events return (the
    /// watch model's effects). So the loop needs no re-entrancy guard.
    func pump(now: MonotonicInstant) {
        while isSessionActive && active == nil && !writeOutstanding {
            guard let w = nextWork() else { break }
            dispatch(w, now: now)
        }
        if reconciling { checkReconciliation(now: now) }
    }

    func nextWork() -> Work? {
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
    func isDue(_ i: Int) -> Bool {
        store.slots[i].hasWork && !retries.isWaiting(i, sequence: store.slots[i].sequence)
    }

    func dispatch(_ w: Work, now: MonotonicInstant) {
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
        if case .notSent(let code)? = sink?.ancsWriteControlPoint(UnsafeRawBufferPointer(rebasing: command[0..<length])) {
            writeFailed(attErrorCode: code, now: now)  // pump's loop goes on to the next request
        }
    }

}
