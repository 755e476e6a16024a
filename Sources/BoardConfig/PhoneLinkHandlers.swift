import HAL

/// What a board's phone link reports to the watch. Made once at start-up;
/// the link calls these on the loop.
public struct PhoneLinkHandlers {
    /// True while a phone session runs: a simulated endpoint refuses a second
    /// phone then (one at a time, as on the air).
    public var linkInUse: () -> Bool
    /// A phone connected: run a session over `channel`; `security` raises the
    /// link's security when the link can (Bluetooth), nil otherwise.
    public var connected: (_ channel: any PacketChannel, _ security: (any LinkSecurityControl)?) -> Void
    /// The phone's link went down.
    public var disconnected: () -> Void
    public var stateChanged: (PhoneLinkState) -> Void
    /// Numeric comparison: show the 6-digit passkey; call `reply` with the wearer's answer.
    public var pairingRequested: (_ passkey: UInt32, _ reply: @escaping (Bool) -> Void) -> Void
    /// The pairing dialog is over (answered, timed out or failed).
    public var pairingEnded: (_ accepted: Bool) -> Void
    /// A stored bond no longer works (the phone forgot the watch) and was removed.
    public var staleBond: (BluetoothAddress) -> Void
    /// Something the wearer must know about the link, as a one-line notice
    /// (for example "Bond not saved: disk full ...").
    public var notice: (String) -> Void
    /// Called once when the link accepts phones (nil), or could not start
    /// (why). Bluetooth starts on the loop, after `startPhoneLink` returned.
    public var ready: (_ failure: String?) -> Void
    /// The link's adapter went away (`present` false: removed, or powered off
    /// by another program) or came back and accepts phones again (true).
    public var adapterChanged: (_ present: Bool) -> Void
    /// Whether some phone is bonded to the watch (a link that keeps bonds:
    /// Bluetooth; reported at start-up and whenever it changes).
    public var pairedChanged: (_ paired: Bool) -> Void
    /// What the link is doing, in a line for systemd's STATUS= ("advertising
    /// as …", "connected to …", "Bluetooth adapter hci0 gone since …").
    public var statusChanged: (String) -> Void
    /// The link failed for good after `ready` (the adapter stayed away too
    /// long ...): the daemon exits non-zero, so systemd restarts it.
    public var failed: (_ why: String) -> Void

    public init(
        linkInUse: @escaping () -> Bool,
        connected: @escaping (_ channel: any PacketChannel, _ security: (any LinkSecurityControl)?) -> Void,
        disconnected: @escaping () -> Void,
        stateChanged: @escaping (PhoneLinkState) -> Void,
        pairingRequested: @escaping (_ passkey: UInt32, _ reply: @escaping (Bool) -> Void) -> Void,
        pairingEnded: @escaping (_ accepted: Bool) -> Void,
        staleBond: @escaping (BluetoothAddress) -> Void,
        notice: @escaping (String) -> Void = { _ in },
        ready: @escaping (_ failure: String?) -> Void = { _ in },
        adapterChanged: @escaping (_ present: Bool) -> Void = { _ in },
        pairedChanged: @escaping (_ paired: Bool) -> Void = { _ in },
        statusChanged: @escaping (String) -> Void = { _ in },
        failed: @escaping (_ why: String) -> Void = { _ in }
    ) {
        self.linkInUse = linkInUse
        self.connected = connected
        self.disconnected = disconnected
        self.stateChanged = stateChanged
        self.pairingRequested = pairingRequested
        self.pairingEnded = pairingEnded
        self.staleBond = staleBond
        self.notice = notice
        self.ready = ready
        self.adapterChanged = adapterChanged
        self.pairedChanged = pairedChanged
        self.statusChanged = statusChanged
        self.failed = failed
    }
}
