/// What one receive call on a `PacketChannel` produced.
public enum PacketReceiveResult: Equatable, Sendable {
    /// One whole message of this many bytes is in the caller's buffer.
    case packet(Int)
    /// Nothing to read right now; wait for `pollDescriptor` to become readable.
    case wouldBlock
    /// The peer closed the link (orderly end of stream or connection reset).
    case closed
}

/// What one send call on a `PacketChannel` did.
public enum PacketSendResult: Equatable, Sendable {
    /// The whole message was queued to the kernel.
    case sent
    /// The link cannot take it now; wait for `pollDescriptor` to become writable
    /// and send the same message again.
    case wouldBlock
}

/// A connected, message-oriented link: every send is one message and every
/// receive returns exactly one message, like an L2CAP channel (the ATT bearer
/// on CID 4) or an `AF_UNIX` `SOCK_SEQPACKET` socket.
///
/// Implementations are non-blocking; the run loop watches `pollDescriptor`.
/// Nothing here allocates per call.
public protocol PacketChannel: AnyObject {
    /// The descriptor to watch for readability (and writability while a send
    /// returned `wouldBlock`). -1 once closed.
    var pollDescriptor: Int32 { get }
    /// False once `close()` was called.
    var isOpen: Bool { get }
    /// Sends one message.
    func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult
    /// Receives one message into `buffer`. A message longer than the buffer is
    /// reported as an error (its tail would be lost), never silently truncated.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult
    /// Closes the link (idempotent). For a Bluetooth link this disconnects.
    func close()
}

/// Link security, in the kernel's terms (`BT_SECURITY_*`): LE Security Mode 1
/// levels 1–4.
public enum LinkSecurityLevel: Int, Comparable, Sendable, CustomStringConvertible {
    /// No encryption (BT_SECURITY_LOW).
    case none = 1
    /// Encrypted, keys not authenticated ("Just Works") (BT_SECURITY_MEDIUM).
    case encrypted = 2
    /// Encrypted with MITM-protected keys (BT_SECURITY_HIGH).
    case authenticated = 3
    /// Authenticated LE Secure Connections, 128-bit keys (BT_SECURITY_FIPS).
    case secureConnections = 4

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .none: "none"
        case .encrypted: "encrypted"
        case .authenticated: "authenticated"
        case .secureConnections: "secure connections"
        }
    }
}

/// The part of a link that can raise its security (pair or re-encrypt with a
/// stored key). The GATT client calls `requestSecurity` when the phone answers
/// "Insufficient Authentication / Encryption"; the implementation reports the
/// outcome (the new level, possibly unchanged when pairing failed) through
/// `securityChangeHandler`, after which the client retries.
///
/// On Linux this is `setsockopt(BT_SECURITY)` on the L2CAP socket (the kernel
/// runs SMP); in the simulator it is a shared in-process flag.
public protocol LinkSecurityControl: AnyObject {
    /// The link's current security level.
    var securityLevel: LinkSecurityLevel { get }
    /// Starts raising security to at least `level`; returns at once. Throws
    /// when the request cannot even be made (for example an unsupported link).
    func requestSecurity(_ level: LinkSecurityLevel) throws(HALError)
    /// Called (on the loop) whenever the level changes or a request completes.
    var securityChangeHandler: ((LinkSecurityLevel) -> Void)? { get set }
}

/// A packet channel a command-line tool may block on (no run loop).
public protocol BlockingPacketChannel: PacketChannel {
    /// Waits up to `timeout` for a message to read; false on timeout.
    func waitReadable(timeout: Duration) throws(HALError) -> Bool
}
