import LinuxLoop
import HAL
import SimBoard

/// Command line of `wristcore-vm-phone` (kept dependency-free: the test
/// driver is its only user).
struct PhoneOptions {
    var hciIndex = 1
    /// The watch is found by scanning for this complete or short local name.
    var watchName = "WristCore VM"
    /// Phone script played when the first ANCS session starts (PhoneScript text).
    var scriptPath: String?
    /// Connect again after a disconnect (the watch restarted).
    var reconnect = true
    /// Answer User Confirmation Requests with yes (false: with no).
    var confirmPairing = true
    var mtu = 185
    /// The media player's queue (AMS); nil: the simulated phone's default.
    var tracks: [SimulatedTrack]?
    /// Relay the link to a client on this Unix SEQPACKET socket instead of
    /// playing the iPhone (the VM's Android test: ATTRelay.swift).
    var relayPath: String?

    static let usage = """
        usage: wristcore-vm-phone [--hci N] [--watch-name NAME] [--script FILE] [--once] [--reject-pairing] [--mtu N]
               [--track "ARTIST|ALBUM|TITLE|SECONDS"]... [--relay PATH]

        The simulated iPhone on a real (virtual) Bluetooth controller, for the
        real-kernel VM tests (docs/testing-vm.md). As an LE central on hciN it
        scans for the watch by name, connects an L2CAP LE socket on the ATT
        channel (CID 4), confirms pairing, serves an iPhone-like GATT database
        with ANCS (SimulatedPhone) and plays --script once the watch has
        subscribed to Notification Source. It serves the Apple Media Service
        too: --track (repeat) replaces the player's queue, the first track
        playing. With --relay PATH it plays no phone: it listens on the Unix
        SEQPACKET socket PATH and relays the L2CAP link to its client PDU for
        PDU (the Gadgetbridge emulator, Tests/CLI/gadgetbridge_phone.py), and
        connects to the watch once a client is there. Lines on stdin are more PhoneScript
        events (add uid=2 ..., remove uid=2, disconnect ...) played at once,
        plus `quit`. Events go to stdout, one per line (see PhoneOutput.swift).
        """

    static func parse(_ args: [String]) -> Result<PhoneOptions, PhoneFailure> {
        var o = PhoneOptions()
        var i = 0
        func value() -> String? {
            i += 1
            return i < args.count ? args[i] : nil
        }
        while i < args.count {
            switch args[i] {
            case "--hci":
                guard let v = value(), let n = Int(v), n >= 0 else { return .failure(PhoneFailure("--hci needs a controller index")) }
                o.hciIndex = n
            case "--watch-name":
                guard let v = value(), !v.isEmpty else { return .failure(PhoneFailure("--watch-name needs a name")) }
                o.watchName = v
            case "--script":
                guard let v = value() else { return .failure(PhoneFailure("--script needs a file")) }
                o.scriptPath = v
            case "--once": o.reconnect = false
            case "--reject-pairing": o.confirmPairing = false
            case "--mtu":
                guard let v = value(), let n = Int(v), n >= 23, n <= 517 else { return .failure(PhoneFailure("--mtu needs 23-517")) }
                o.mtu = n
            case "--track":
                guard let v = value() else { return .failure(PhoneFailure("--track needs ARTIST|ALBUM|TITLE|SECONDS")) }
                let parts = v.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 4, !parts[2].isEmpty else {
                    return .failure(PhoneFailure("--track \(v): give ARTIST|ALBUM|TITLE|SECONDS (4 fields, a title)"))
                }
                o.tracks = (o.tracks ?? []) + [SimulatedTrack(artist: parts[0], album: parts[1], title: parts[2], duration: parts[3])]
            case "--relay":
                guard let v = value(), !v.isEmpty else { return .failure(PhoneFailure("--relay needs a socket path")) }
                o.relayPath = v
            case "-h", "--help": return .failure(PhoneFailure(usage))
            default: return .failure(PhoneFailure("unknown argument \(args[i])\n\(usage)"))
            }
            i += 1
        }
        return .success(o)
    }
}

/// A failure the emulator reports and exits on.
struct PhoneFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
