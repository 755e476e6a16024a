// BoardConfig is not one of WristCore's products; it is built as a dependency
// of WristCore and imported here only for `BoardLoader.builtInSimulated` and
// `ButtonRole`, which the daemon's API takes.
import BoardConfig
import Foundation
import HAL
import LinuxHAL
import LinuxLoop
import Log
import Loop
import Screens
import SimBoard
import Watch
import WristCore

/// The whole watch on the simulated board, as `wristcore run --board sim
/// --phone unix:PATH` builds it (the real `WatchDaemon` on the devices
/// `BoardDevicesFactory.simulated` makes: emulated SSD1306, simulated motor
/// and button lines; `WatchButtons`, `WatchController`, `PhoneSession`, ATT
/// bearer), on an `EpollLoop` with a manual clock.
///
/// The phone link is a real `SOCK_SEQPACKET` connection to the daemon's phone
/// endpoint. During set-up the real `SimulatedPhone` plays the iPhone through
/// a relay (MTU exchange, the watch's discovery, CCCD writes, Current Time);
/// then the relay stops and `ScriptedPhone` takes over the same connection
/// with the handles the simulated iPhone published, so the phone adds no
/// allocation while the watch is measured.
final class WatchRig {
    nonisolated(unsafe) static var instances = 0

    let loop: EpollLoop
    let daemon: WatchDaemon
    let watch: WatchController
    let panel: EmulatedI2CDisplay
    let phone: ScriptedPhone
    /// Set-up only: the simulated iPhone and the relay's end of its link.
    private let simulatedPhone: SimulatedPhone
    private let relayEnd: SeqPacketChannel
    private let path: String

    /// Motor switch-ons seen (the double pattern is two).
    private(set) var motorOns = 0
    /// The UID of the next notification the phone adds.
    var nextUID: UInt32 = 1

    /// A harness client following `events` (issue 28): it reads every line
    /// into a fixed buffer after each step.
    private(set) var eventsFollower: Int32 = -1
    private var followerBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Bytes of `events` lines read so far.
    private(set) var eventBytesRead = 0

    /// - Parameters:
    ///   - systemTime: the phone serves no Current Time and the watch reads
    ///     the system clock as the daemon does (`WatchDaemon.Options`'
    ///     default); otherwise a fixed time the phone's replaces.
    ///   - followEvents: a harness endpoint with a client following `events`.
    ///   - battery: the board has a battery (the simulated board's emulated
    ///     MAX17048): its glyph is in every frame with a status bar.
    ///   - fullRules: the wearer's settings file holds the most rules it may:
    ///     64 app rules and 32 filters, the last filter the one that matches;
    ///     and the state directory the most alarms (ten, all on).
    ///   - lit: the panel never dims or sleeps (a screen that ticks stays lit).
    init(logLevel: Logger.Level = .info, systemTime: Bool = false, followEvents: Bool = false, battery: Bool = false,
         fullRules: Bool = false, lit: Bool = false) throws {
        WatchRig.instances += 1
        path = "/tmp/wristcore-bench-\(getpid())-\(WatchRig.instances).sock"
        unlink(path)
        let harnessPath = path + ".harness"
        unlink(harnessPath)
        loop = try EpollLoop(clock: .manual(ManualClock()))
        var options = WatchDaemon.Options()
        options.phoneEndpoint = "unix:\(path)"
        if followEvents { options.harnessEndpoint = "unix:\(harnessPath)" }
        if !systemTime {
            // A fixed system time (the phone's Current Time replaces it anyway).
            options.settings.systemClock = { CivilTime(year: 2024, month: 5, day: 1, hour: 12, minute: 0, second: 0) }
        }
        // At the daemon's default level (`.info`, as `wristcore run` starts),
        // into a sink that drops the lines: messages at or above the level are
        // still built — so their cost is measured — but nothing is printed.
        let logger = Logger(label: "bench", sink: .discarding, level: logLevel)
        if fullRules { options.stateDirectory = try Self.stateDirectoryWithFullRules() }
        if lit {
            options.keepPowerSettings = true
            options.settings.dimAfter = .seconds(86_400)
            options.settings.offAfter = .seconds(86_400)
        }
        var board = BoardLoader.builtInSimulated
        if battery { board.battery = BatteryWiring(gauge: .max17048(bus: 1, address: 0x36)) }
        daemon = WatchDaemon(board: board, logger: logger, options: options, devices: .simulated)
        try daemon.start(on: loop)
        watch = daemon.watch!
        precondition(daemon.buttons != nil)
        panel = daemon.emulatedDisplay!

        // Connect to the phone endpoint; relay to a SimulatedPhone until ANCS is up.
        let link = try SeqPacketChannel(adopting: UnixSocketListener.connect(path: path, kind: .seqPacket), name: "bench phone")
        // Connected: the name is no longer needed. The rigs live until the
        // process exits (their deinit never runs), so remove it now.
        unlink(path)
        let (relay, phoneEnd) = try SeqPacketChannel.pair(names: ("relay", "simulated iPhone"))
        relayEnd = relay
        var phoneConfiguration = SimulatedPhone.Configuration()
        phoneConfiguration.servesCurrentTime = !systemTime
        simulatedPhone = SimulatedPhone(channel: phoneEnd, loop: loop, configuration: phoneConfiguration)
        try simulatedPhone.start()
        var buffer = [UInt8](repeating: 0, count: 1024)
        var quiet = 0
        var rounds = 0
        while quiet < 3 || watch.session?.ancsService == nil || !simulatedPhone.ancsSessionActive {
            var moved = try loop.runOnce(timeout: .milliseconds(1))
            moved += try Self.forward(from: link, to: relay, buffer: &buffer)
            moved += try Self.forward(from: relay, to: link, buffer: &buffer)
            quiet = moved == 0 ? quiet + 1 : 0
            rounds += 1
            precondition(rounds < 10_000, "the watch never subscribed to ANCS through the relay")
        }
        let h = simulatedPhone.handles
        phone = ScriptedPhone(
            channel: link, mtu: watch.session!.bearer.mtu,
            notificationSource: h.notificationSource, controlPoint: h.controlPoint, dataSource: h.dataSource)

        watch.motor!.stateHandler = { [unowned self] on, _ in if on { self.motorOns += 1 } }
        if followEvents {
            eventsFollower = try UnixSocketListener.connect(path: harnessPath, kind: .stream, nonBlocking: true).release()
            unlink(harnessPath)
            _ = "events\n".withCString { write(eventsFollower, $0, 7) }
            settle()
            readEvents()
            precondition(eventBytesRead >= 10, "the harness did not answer 'events'")
        }
    }

    /// A state directory whose settings.json has full rule tables: 64 apps
    /// that never match, 31 filters that look through every field in vain
    /// (hiding content, muting), and a last one that matches every message
    /// of the scripted phone and plays the double pulse the story expects.
    static func stateDirectoryWithFullRules() throws -> String {
        let dir = "/tmp/wristcore-bench-state-\(getpid())"
        mkdir(dir, 0o700)
        var apps: [String] = []
        for i in 0..<64 { apps.append("\"com.example.app\(i)\": { \"mute\": true }") }
        var filters: [String] = []
        for i in 0..<31 {
            filters.append(i % 2 == 0 ? "{ \"title\": \"Bank statement \(i)\", \"hideContent\": true }"
                : "{ \"app\": \"mobilesms\", \"message\": \"promo code \(i)\", \"mute\": true }")
        }
        filters.append("{ \"app\": \"MobileSMS\", \"message\": \" \", \"vibrate\": \"double\" }")
        let text = "{ \"apps\": { \(apps.joined(separator: ", ")) }, \"filters\": [ \(filters.joined(separator: ", ")) ] }\n"
        let path = dir + "/settings.json"
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        precondition(fd >= 0, "cannot create \(path)")
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        // And the alarms table full: ten of the wearer's, all on, so every
        // input looks through them for the next ring.
        let alarms = dir + "/alarms"
        unlink(alarms)
        let afd = open(alarms, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        precondition(afd >= 0, "cannot create \(alarms)")
        let lines = (0..<10).map { "0\($0):3\($0) MTWTF-- on\n" }.joined()
        _ = lines.withCString { write(afd, $0, strlen($0)) }
        close(afd)
        return dir
    }

    /// Reads what the harness sent the follower (no allocation: a fixed buffer).
    func readEvents() {
        guard eventsFollower >= 0 else { return }
        while true {
            let n = followerBuffer.withUnsafeMutableBytes { read(eventsFollower, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            eventBytesRead += n
        }
    }

    deinit {
        daemon.stop()
        relayEnd.close()
        unlink(path)
    }

    private static func forward(from: SeqPacketChannel, to: SeqPacketChannel, buffer: inout [UInt8]) throws -> Int {
        var moved = 0
        while true {
            let result = try buffer.withUnsafeMutableBytes { try from.receive(into: $0) }
            guard case .packet(let n) = result else { return moved }
            _ = try buffer.withUnsafeBytes { try to.send(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            moved += 1
        }
    }

    // MARK: - Driving the watch (allocation-free)

    /// Runs the loop and the phone until neither has anything left to do.
    func settle() {
        var idle = 0
        var rounds = 0
        while idle < 2 {
            let events = (try? loop.runOnce(timeout: .zero)) ?? 0
            var served = false
            while phone.serviceOne() { served = true }
            readEvents()
            idle = events == 0 && !served ? idle + 1 : 0
            rounds += 1
            precondition(rounds < 1_000, "the link never went quiet")
        }
    }

    /// Time passes (timers fire at their deadlines), then pending I/O is handled.
    func wait(_ d: Duration) {
        loop.advanceClock(by: d)
        settle()
    }

    /// The phone adds an Important Social message with a negative action
    /// ("Clear"); the watch fetches it and shows it. Returns its UID.
    @discardableResult
    func notificationArrives(flags: UInt8 = 0x02 | 0x08 | 0x10) -> UInt32 {
        let uid = nextUID
        nextUID &+= 1
        phone.sendNotificationSource(event: 0, flags: flags, category: 4, count: 1, uid: uid)
        settle()
        return uid
    }

    /// A press of `role` as the hardware delivers it: the contact closes,
    /// stays closed 80 ms (debounced at 20 ms), opens, settles. The edges go
    /// through the simulated board's button line, as the harness pushes them.
    func press(_ role: ButtonRole) {
        let closed = daemon.setButton(role, active: true)
        wait(.milliseconds(80))
        let opened = daemon.setButton(role, active: false)
        wait(.milliseconds(30))
        precondition(closed && opened, "the simulated board has no \(role) button")
    }

    /// A hold of `role` for `milliseconds` (a long press from 600 ms on).
    func hold(_ role: ButtonRole, milliseconds: Int) {
        let closed = daemon.setButton(role, active: true)
        wait(.milliseconds(milliseconds))
        let opened = daemon.setButton(role, active: false)
        wait(.milliseconds(30))
        precondition(closed && opened, "the simulated board has no \(role) button")
    }

    /// The battery's gauge (the simulated board's emulated MAX17048) reads
    /// 50 % or 36 %, whichever the watch does not show (a step of the glyph
    /// apart); the daemon reads it now, the glyph is drawn and flushed.
    func batteryReadsAnotherLevel() {
        let percent = watch.model.watchBattery?.percent == 50 ? 36 : 50
        precondition(daemon.devices!.setBattery(percent: percent, charging: false), "the board has no battery")
        daemon.battery!.readNow()
        settle()
    }

    /// The phone removes a notification on its own (read on the phone).
    func phoneRemoves(_ uid: UInt32) {
        phone.sendNotificationSource(event: 2, flags: 0, category: 4, count: 0, uid: uid)
        settle()
    }
}
