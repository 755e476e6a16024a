import HAL
import Notifications

// The consumer's Data Source side: a reassembled response, a failure or a
// timeout for the request in flight, and what each leaves in the store.

extension NotificationConsumer {
    func assembled(_ event: DataSourceEvent, now: MonotonicInstant) {
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
    func fail(_ error: ANCSRequestError, now: MonotonicInstant) {
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
    func scheduleRetry(_ a: Active, _ error: ANCSRequestError, now: MonotonicInstant) -> Bool {
        switch error {
        case .phone(.invalidParameter), .cancelled: return false
        default: break
        }
        guard !a.discardResult, let i = store.index(of: NotificationUID(a.work.uid)),
            store.slots[i].version == a.version
        else { return false }
        return retries.failed(i, sequence: store.slots[i].sequence, now: now)
    }

    func clearDue(_ a: Active) {
        guard !a.discardResult, let i = store.index(of: NotificationUID(a.work.uid)),
            store.slots[i].version == a.version
        else { return }
        if a.coveredBasic { store.slots[i].needsFetch = false }
        if a.coveredMessage { store.slots[i].wantsMessage = false }
    }

    /// Stores a response and tells the app. `complete`: the response ended
    /// (a requested attribute it lacks is optional and absent on the phone);
    /// otherwise it is what fully arrived before a timeout.
    func commit(_ r: DataSourceResponse, _ a: Active, complete: Bool) {
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
                        store.slots[i].date = ANCSDate.parse(v)
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
    func reportOverlongAttributes(_ r: DataSourceResponse, _ uid: NotificationUID) {
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

}
