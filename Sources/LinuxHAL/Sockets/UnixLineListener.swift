import HAL

/// A listening `AF_UNIX` `SOCK_STREAM` socket whose connections carry a line
/// protocol: the harness endpoint.
public final class UnixLineListener: ConnectionListener {
    private let listener: UnixSocketListener

    public init(path: String) throws(HALError) {
        listener = try UnixSocketListener(path: path, kind: .stream)
    }

    public var path: String { listener.path }
    public var pollDescriptor: Int32 { listener.pollDescriptor }

    public func accept() throws(HALError) -> (any LineChannel)? {
        guard let fd = try listener.accept() else { return nil }
        return LineConnection(adopting: fd)
    }

    public func close() { listener.close() }
}
