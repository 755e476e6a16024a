import LinuxLoop
import GATT
import HAL
import LinuxHAL
import Loop
import SimBoard

/// One phone across connections: scan → connect (L2CAP LE, CID 4) → serve the
/// simulated iPhone over the real link → on disconnect, scan again (the
/// watch restarted). Notifications the phone still has are announced again
/// as pre-existing in the next session, as iOS does.
final class PhoneLink {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    deinit { lifetime.end() }

    private let loop: EpollLoop
    private let options: PhoneOptions
    private var scanner: WatchScanner?
    private var channel: L2CAPChannel?
    private(set) var phone: SimulatedPhone?
    private var script: [PhoneEvent]
    private var scriptPlayed = false
    private var carriedOver: [SimulatedNotification] = []
    /// Events from stdin that arrived while no session was up.
    private var queued: [PhoneEvent] = []
    private var lastLevel: LinkSecurityLevel?
    private var securityTimer: TimerID!
    private var connections = 0
    /// `--relay`: the link goes to the relay's client instead of the simulated iPhone.
    private let relay: ATTRelay?

    init(loop: EpollLoop, options: PhoneOptions, script: [PhoneEvent], relay: ATTRelay? = nil) {
        self.loop = loop
        self.options = options
        self.script = script
        self.relay = relay
        // The link's security is read back from the kernel (BT_SECURITY); a
        // short poll reports it without a hook in the kernel's SMP.
        securityTimer = loop.makeTimer { [unowned(unsafe) self] in self.checkSecurity() }
    }

    func start() {
        // A relay connects once its client is there (the client then sees the whole link).
        if let relay, !relay.hasClient {
            loop.schedule(after: .milliseconds(100)) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.start() } }
            return
        }
        let s = WatchScanner(loop: loop, index: options.hciIndex, name: options.watchName)
        scanner = s
        do {
            try s.scan { [unowned(unsafe) self] address, type in
                self.scanner = nil
                // Connect outside the scanner's callback (it just closed its socket).
                self.loop.deferWork { self.connect(address, type) }
            }
        } catch {
            PhoneOutput.emit("ERROR scan: \(error)")
            retry()
        }
    }

    private func retry() {
        loop.schedule(after: .seconds(1)) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.start() } }
    }

    private func connect(_ address: BluetoothAddress, _ type: BluetoothAddressType) {
        let link: L2CAPChannel
        do {
            link = try L2CAPLESocket.connect(fromHCI: options.hciIndex, to: address, peerType: type, timeout: .seconds(30))
        } catch {
            PhoneOutput.emit("ERROR connect \(address): \(error)")
            return retry()
        }
        connections += 1
        channel = link
        PhoneOutput.emit("CONNECTED addr=\(address) type=\(PhoneController.name(type)) n=\(connections)")
        if let relay {
            relay.closed = { [lifetime, unowned(unsafe) self] in
                guard !lifetime.isOver else { return }
                self.channel = nil
                PhoneOutput.emit("DISCONNECTED n=\(self.connections)")
                if self.options.reconnect { self.retry() } else { self.loop.stop() }
            }
            relay.attach(link)
            return
        }
        var config = SimulatedPhone.Configuration()
        config.deviceName = "VM iPhone"
        config.mtu = options.mtu
        if let tracks = options.tracks { config.mediaQueue = tracks }
        // As iOS: ANCS answers Insufficient Authentication until the link is encrypted.
        config.requireEncryption = true
        config.preexisting = carriedOver
        let p = SimulatedPhone(channel: link, loop: loop, security: link, configuration: config)
        p.logHandler = { [unowned(unsafe) self] line in self.logged(line) }
        p.scriptFinished = { PhoneOutput.emit("SCRIPT done") }
        phone = p
        lastLevel = nil
        do {
            try p.start()
        } catch {
            PhoneOutput.emit("ERROR start: \(error)")
            return closed()
        }
        loop.arm(securityTimer, after: .milliseconds(100), repeating: .milliseconds(100))
        checkSecurity()
    }

    private func logged(_ line: String) {
        PhoneOutput.emit("LOG \(line)")
        if let event = PhoneOutput.translate(line) { PhoneOutput.emit(event) }
        if line == "ancs session started" {
            if !scriptPlayed, !script.isEmpty {
                scriptPlayed = true
                PhoneOutput.emit("SCRIPT start events=\(script.count)")
                phone?.run(script)
            }
            let pending = queued
            queued.removeAll()
            for e in pending { phone?.perform(e) }
        }
        if line.hasPrefix("link closed") {
            loop.deferWork { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.closed() } }
        }
    }

    private func checkSecurity() {
        guard let link = channel else { return }
        link.pollSecurity()
        let level = link.securityLevel
        if level != lastLevel {
            lastLevel = level
            PhoneOutput.emit("SECURITY level=\(level.rawValue) name=\(PhoneOutput.quoted(level.description))")
        }
    }

    private func closed() {
        guard let p = phone else { return }
        carriedOver = p.provider.notifications
        loop.disarm(securityTimer)
        channel?.close()
        channel = nil
        phone = nil
        PhoneOutput.emit("DISCONNECTED n=\(connections)")
        if options.reconnect { retry() } else { loop.stop() }
    }

    /// PhoneScript events from stdin: played now, or when the next session starts.
    func perform(_ events: [PhoneEvent]) {
        for e in events {
            if case .wait = e { continue }
            if let p = phone, p.ancsSessionActive { p.perform(e) } else { queued.append(e) }
        }
    }
}
