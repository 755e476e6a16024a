/// A listening endpoint that accepts connections: a Unix socket at a path on
/// Linux. The run loop watches `pollDescriptor` and calls `accept()` until it
/// returns nil.
public protocol ConnectionListener<Connection>: AnyObject {
    /// What an accepted connection is (a `LineChannel`, a `PacketChannel`).
    associatedtype Connection
    /// Where it listens (for logs).
    var path: String { get }
    /// The descriptor that becomes readable when connections wait (-1 once closed).
    var pollDescriptor: Int32 { get }
    /// The next pending connection, non-blocking; nil when none waits.
    func accept() throws(HALError) -> Connection?
    /// Stops listening (idempotent); on Linux the socket file is removed.
    func close()
}
