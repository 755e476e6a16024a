import HAL

/// What the status screen says (the watch menu's "Status"): the phone on
/// the link and which kind, both batteries, and where the time comes from.
/// The model fills it; the renderer words it.
public struct StatusReport: Sendable, Equatable {
    public enum Phone: Sendable, Equatable {
        case bluetoothOff
        /// Advertising: the watch waits for its phone.
        case waiting
        case connected(PhoneKind)
    }

    /// The kind of phone on the link, as far as the watch can tell.
    public enum PhoneKind: Sendable, Equatable {
        /// Connected, but neither ANCS nor Gadgetbridge has spoken yet.
        case unknown
        /// ANCS is subscribed.
        case iPhone
        /// Gadgetbridge spoke on the UART.
        case android
    }

    public enum TimeSource: Sendable, Equatable {
        case phone, system, unknown
    }

    public var phone: Phone
    /// The phone's battery in percent (its Battery Service), when known.
    public var phoneBattery: Int?
    /// The board file names a battery.
    public var hasBattery: Bool
    /// The watch's battery at its last reading.
    public var watchBattery: BatteryReading?
    public var time: TimeSource
    /// Why notifications may not arrive, each cause the watch can tell.
    /// The Bluetooth adapter went away (removed, or switched off by another program).
    public var adapterGone = false
    /// The watch advertises and no phone is bonded: pair one.
    public var notPaired = false
    /// A phone is connected and the link is not encrypted yet: pairing (or
    /// encryption with a stored bond) waits for the phone.
    public var pairing = false
    /// Encrypted, and the phone's notification service has not answered
    /// yet (the `?` beside the Bluetooth rune while it looks).
    public var lookingForNotifications = false
    /// The phone offers no ANCS: an iPhone with Share System Notifications off.
    public var notSharing = false
    /// The phone stopped answering the watch's liveness probes (`!`).
    public var notAnswering = false
    /// The phone forgot the watch's bond: pair again.
    public var bondLost = false
    /// Notifications that arrived Silent in a row (a Focus, most likely).
    public var silentInARow = 0

    var isConnected: Bool {
        if case .connected = phone { return true }
        return false
    }

    /// A cause the wearer should act on (the watch menu opens on Status).
    /// Every cause but Silent notifications asks for it: the `?` and `!`
    /// beside the Bluetooth rune lead here.
    public var needsAttention: Bool {
        adapterGone || notPaired || pairing || lookingForNotifications || notSharing || notAnswering || bondLost
    }

    public init(phone: Phone, phoneBattery: Int? = nil, hasBattery: Bool = false, watchBattery: BatteryReading? = nil,
                time: TimeSource = .unknown) {
        self.phone = phone
        self.phoneBattery = phoneBattery
        self.hasBattery = hasBattery
        self.watchBattery = watchBattery
        self.time = time
    }

    /// Each cause the Status screen can explain: its name (the harness's
    /// `causes`, the runtime status file) and its words (systemd's STATUS=,
    /// `wristcore doctor` on a running watch).
    public enum Cause: Int, CaseIterable, Sendable {
        case adapterGone, notPaired, pairing, lookingForNotifications, notSharing, notAnswering, bondLost, silent

        public var name: StaticString {
            switch self {
            case .adapterGone: "adapterGone"
            case .notPaired: "notPaired"
            case .pairing: "pairing"
            case .lookingForNotifications: "lookingForNotifications"
            case .notSharing: "notSharing"
            case .notAnswering: "notAnswering"
            case .bondLost: "bondLost"
            case .silent: "silent"
            }
        }

        /// What it means and what to do, in a phrase.
        public var words: StaticString {
            switch self {
            case .adapterGone: "the Bluetooth adapter is gone: waiting for it (check its USB connection, 'dmesg')"
            case .notPaired: "no phone is paired: on the phone, Settings > Bluetooth, tap the watch's name"
            case .pairing: "a phone is connected and pairing: tap Pair on the phone"
            case .lookingForNotifications: "looking for the phone's notification service"
            case .notSharing: "the phone shares no notifications (iPhone: Settings > Bluetooth > (i) > Share System Notifications)"
            case .notAnswering: "the phone stopped answering; checking again"
            case .bondLost: "the phone forgot this watch: pair again"
            case .silent: "notifications came Silent in a row (a Focus is on?): listed, not buzzed"
            }
        }
    }

    /// Whether `cause` holds now.
    public func has(_ cause: Cause) -> Bool {
        switch cause {
        case .adapterGone: adapterGone
        case .notPaired: notPaired
        case .pairing: pairing
        case .lookingForNotifications: lookingForNotifications
        case .notSharing: notSharing
        case .notAnswering: notAnswering
        case .bondLost: bondLost
        case .silent: silentInARow >= 2
        }
    }

    /// The causes that hold, one bit each (`Cause.rawValue`), to tell when they change.
    public var causeBits: Int {
        var bits = 0
        for cause in Cause.allCases where has(cause) { bits |= 1 << cause.rawValue }
        return bits
    }
}
