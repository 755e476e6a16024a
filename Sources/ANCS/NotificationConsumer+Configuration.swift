import HAL

extension NotificationConsumer {
    /// Capacities, timeouts and what to fetch; the defaults are the daemon's.
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
