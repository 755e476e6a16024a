import HAL
import LinuxHAL
import LinuxLoop
import Loop

/// `--relay PATH`: the real L2CAP link to the watch, handed to another
/// program PDU for PDU over a Unix SEQPACKET socket, instead of the
/// simulated iPhone. The VM's Android test runs the independent Gadgetbridge
/// emulator (Tests/CLI/gadgetbridge_phone.py) on it: the phone's protocol is
/// the emulator's; the scan, the LE connection and the kernel's L2CAP are real.
///
/// One client at a time, accepted before the watch is looked for; when the
/// link closes the client's socket is closed too (the emulator sees the
/// disconnect), and when the client goes the link is dropped.
final class ATTRelay {
    private let loop: EpollLoop
    private let listener: UnixSocketListener
    private var listenerSource: SourceID?
    private var client: SeqPacketChannel?
    private var clientSource: SourceID?
    private var link: L2CAPChannel?
    private var linkSource: SourceID?
    private var buffer = [UInt8](repeating: 0, count: 1024)
    /// Called when either side went away.
    var closed: () -> Void = {}

    init(loop: EpollLoop, path: String) throws(HALError) {
        self.loop = loop
        listener = try UnixSocketListener(path: path, kind: .seqPacket)
        listenerSource = try loop.addSource(fd: listener.pollDescriptor, events: .readable) { [unowned(unsafe) self] _ in
            self.acceptClient()
        }
    }

    var hasClient: Bool { client != nil }

    private func acceptClient() {
        guard client == nil, let fd = try? listener.accept() else { return }
        guard let c = try? SeqPacketChannel(adopting: fd, name: "relay client") else { return }
        client = c
        PhoneOutput.emit("RELAY client connected")
    }

    /// Starts relaying `link` (connected to the watch). What the client wrote
    /// before waited in its socket until now.
    func attach(_ link: L2CAPChannel) {
        self.link = link
        linkSource = try? loop.addSource(fd: link.pollDescriptor, events: .readable) { [unowned(unsafe) self] _ in
            self.forward(from: link, toLink: false)
        }
        if let c = client {
            clientSource = try? loop.addSource(fd: c.pollDescriptor, events: .readable) { [unowned(unsafe) self] _ in
                self.forward(from: c, toLink: true)
            }
        }
    }

    private func forward(from source: any PacketChannel, toLink: Bool) {
        while true {
            let result = buffer.withUnsafeMutableBytes { try? source.receive(into: $0) }
            switch result {
            case .packet(let n)?:
                let destination: (any PacketChannel)? = toLink ? link : client
                _ = buffer.withUnsafeBytes { try? destination?.send(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            case .wouldBlock?:
                return
            default:  // closed, or an error: both sides go
                PhoneOutput.emit(toLink ? "RELAY client closed" : "RELAY link closed")
                end()
                return
            }
        }
    }

    /// Closes the link and the client (a new client may connect for the next link).
    func end() {
        if let s = linkSource { loop.removeSource(s) }
        if let s = clientSource { loop.removeSource(s) }
        linkSource = nil
        clientSource = nil
        link?.close()
        client?.close()
        link = nil
        client = nil
        closed()
    }
}
