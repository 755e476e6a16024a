/// A connected link to the phone as the watch sees it: an ATT packet
/// channel with its security control and the peer's identity. LinuxHAL's
/// `L2CAPChannel` is the real one; tests use fakes over socket pairs.
public protocol BluetoothLink: PacketChannel, LinkSecurityControl {
    var peerAddress: BluetoothAddress { get }
    var peerAddressType: BluetoothAddressType { get }
    /// A descriptor that becomes writable when a pending security request
    /// may have completed (see `L2CAPChannel`); -1 if none.
    var securityWatchDescriptor: Int32 { get }
    /// Called when a request is pending in the kernel.
    var securityRequestStarted: (() -> Void)? { get set }
    /// Observes level changes without taking `securityChangeHandler` (the bearer's).
    var securityObserver: ((LinkSecurityLevel) -> Void)? { get set }
    /// Checks whether a pending request completed; fires the handlers if so.
    @discardableResult func pollSecurity() -> Bool
    /// mgmt reported Authentication Failed for this peer.
    func securityRequestFailed()
}

/// Where links come from: LinuxHAL's L2CAP listener, or a fake in tests.
public protocol BluetoothLinkListener: AnyObject {
    /// Readable when a link is waiting to be accepted.
    var pollDescriptor: Int32 { get }
    /// One waiting link, or nil.
    func acceptLink() throws(HALError) -> (any BluetoothLink)?
    func close()
}
