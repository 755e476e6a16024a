import AMS
import ATTCodec
import BoardConfig
import Benchmark
import LinuxHAL
import Screens
import Watch

// Music control's steady-state budget (issue 17): an AMS media update
// reaching the watch (Entity Update → AMS client → the watch's copy → Now
// Playing drawn and flushed) and a button press on Now Playing becoming a
// Remote Command allocate nothing after warm-up. Measured through the real
// WatchDaemon on the simulated board, as the notification benchmarks are
// (WatchRig); `MediaPhone` plays the phone from preallocated buffers.

/// The phone's end of the link for the media benchmarks: Entity Update
/// notifications from fixed values, Write Responses to Remote Command writes.
final class MediaPhone {
    let channel: SeqPacketChannel
    let entityUpdate: UInt16
    let remoteCommand: UInt16
    private let rx = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
    private let tx = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)

    /// Two tracks (title, artist, duration) and two playback reports, so
    /// consecutive updates draw different screens.
    let titles = [Array("Hey Jude".utf8), Array("One More Time".utf8)]
    let artists = [Array("The Beatles".utf8), Array("Daft Punk".utf8)]
    let durations = [Array("431.333".utf8), Array("320.357".utf8)]
    let playback = [Array("1,1.0,12.345".utf8), Array("1,1.0,98.765".utf8)]

    private(set) var remoteCommands = 0
    private(set) var lastCommand: UInt8 = 0xFF
    private(set) var otherPDUs = 0
    private(set) var probes = 0

    init(channel: SeqPacketChannel, entityUpdate: UInt16, remoteCommand: UInt16) {
        self.channel = channel
        self.entityUpdate = entityUpdate
        self.remoteCommand = remoteCommand
    }

    deinit {
        rx.deallocate()
        tx.deallocate()
    }

    /// Handle Value Notification on Entity Update: EntityID, AttributeID,
    /// EntityUpdateFlags (0: whole), the value.
    func sendEntityUpdate(entity: UInt8, attribute: UInt8, _ value: [UInt8]) {
        tx[0] = 0x1B
        tx[1] = UInt8(truncatingIfNeeded: entityUpdate)
        tx[2] = UInt8(truncatingIfNeeded: entityUpdate >> 8)
        tx[3] = entity
        tx[4] = attribute
        tx[5] = 0
        for i in 0..<value.count { tx[6 + i] = value[i] }
        let result = try? channel.send(UnsafeRawBufferPointer(rebasing: tx[..<(6 + value.count)]))
        precondition(result == .sent, "the watch's socket did not take a PDU")
    }

    /// Handle Value Notification on Remote Command: the commands the player
    /// supports (play ... volume down), as the phone sends after a player change.
    func sendSupportedCommands() {
        tx[0] = 0x1B
        tx[1] = UInt8(truncatingIfNeeded: remoteCommand)
        tx[2] = UInt8(truncatingIfNeeded: remoteCommand >> 8)
        for id in 0..<7 { tx[3 + id] = UInt8(id) }
        let result = try? channel.send(UnsafeRawBufferPointer(rebasing: tx[..<10]))
        precondition(result == .sent, "the watch's socket did not take a PDU")
    }

    /// Reads one PDU from the watch and answers it. False when nothing was waiting.
    func serviceOne() -> Bool {
        guard case .packet(let n)? = try? channel.receive(into: rx) else { return false }
        let handle = n >= 3 ? UInt16(rx[1]) | UInt16(rx[2]) << 8 : 0
        if rx[0] == 0x12 && handle != remoteCommand {
            // The watch's ANCS liveness probe (Get Notification Attributes
            // for UID 0xFFFFFFFF, every few simulated minutes of presses):
            // answered as an iPhone does, 0xA2 invalid parameter.
            probes += 1
            tx[0] = 0x01  // Error Response
            tx[1] = 0x12
            tx[2] = rx[1]
            tx[3] = rx[2]
            tx[4] = 0xA2
            let result = try? channel.send(UnsafeRawBufferPointer(rebasing: tx[..<5]))
            precondition(result == .sent)
            return true
        }
        guard n == 4, rx[0] == 0x12 else {
            otherPDUs += 1
            return true
        }
        remoteCommands += 1
        lastCommand = rx[3]
        tx[0] = 0x13  // Write Response
        let result = try? channel.send(UnsafeRawBufferPointer(rebasing: tx[..<1]))
        precondition(result == .sent)
        return true
    }
}

/// The watch on Now Playing, its phone link taken over by `MediaPhone`.
final class MediaRig {
    let rig: WatchRig
    let phone: MediaPhone
    var k = 0

    init() throws {
        rig = try WatchRig()
        // The simulated iPhone served AMS during set-up: the watch knows its player.
        let service = rig.watch.session!.mediaSession.service!
        phone = MediaPhone(
            channel: rig.phone.channel,
            entityUpdate: service.characteristic(.amsEntityUpdate)!.valueHandle,
            remoteCommand: service.characteristic(.amsRemoteCommand)!.valueHandle)
        check(rig.watch.model.media.hasPlayer, "the watch did not learn the simulated iPhone's player")
        phone.sendSupportedCommands()
        settle()
        check(rig.watch.model.media.supportedCommands.contains(.volumeUp), "the watch did not learn the supported commands")
        press(.negative)
        check(rig.watch.screen == .nowPlaying, "Now Playing did not open")
    }

    func settle() {
        var idle = 0
        var rounds = 0
        while idle < 2 {
            let events = (try? rig.loop.runOnce(timeout: .zero)) ?? 0
            var served = false
            while phone.serviceOne() { served = true }
            idle = events == 0 && !served ? idle + 1 : 0
            rounds += 1
            precondition(rounds < 1_000, "the link never went quiet")
        }
    }

    func wait(_ d: Duration) {
        rig.loop.advanceClock(by: d)
        settle()
    }

    func press(_ role: ButtonRole) {
        let closed = rig.daemon.setButton(role, active: true)
        wait(.milliseconds(80))
        let opened = rig.daemon.setButton(role, active: false)
        wait(.milliseconds(30))
        precondition(closed && opened, "the simulated board has no \(role) button")
    }

    /// The phone moves to the other track: title, artist, duration and a
    /// playback report, each an Entity Update; the watch redraws Now Playing.
    func trackChanges() {
        let i = k & 1
        k += 1
        phone.sendEntityUpdate(entity: 2, attribute: 2, phone.titles[i])
        phone.sendEntityUpdate(entity: 2, attribute: 0, phone.artists[i])
        phone.sendEntityUpdate(entity: 2, attribute: 3, phone.durations[i])
        phone.sendEntityUpdate(entity: 0, attribute: 1, phone.playback[i])
        settle()
    }
}

nonisolated(unsafe) var mediaRigs: [String: MediaRig] = [:]

func mediaRig(_ name: String, warmUp: (MediaRig) -> Void) throws -> MediaRig {
    if let r = mediaRigs[name] { return r }
    let r = try MediaRig()
    warmUp(r)
    mediaRigs[name] = r
    return r
}

func mediaBenchmarks(_ config: Benchmark.Configuration) {
    Benchmark("Watch: AMS track change → the watch's media state → Now Playing render → flush", configuration: config) { benchmark in
        let r = try mediaRig("update") { r in for _ in 0..<64 { r.trackChanges() } }
        let bus = r.rig.watch.driver.totals.busBytes
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.trackChanges() }
        benchmark.stopMeasurement()
        let n = max(1, benchmark.scaledIterations.count)
        benchmark.measurement(busBytes, (r.rig.watch.driver.totals.busBytes - bus) / n)
        let title = r.phone.titles[(r.k - 1) & 1]
        check(r.rig.watch.model.media.title.withUTF8 { $0.elementsEqual(title) }, "the last track must be on the watch")
        check(r.rig.watch.screen == .nowPlaying && r.phone.otherPDUs == 0, "Now Playing, and nothing else from the watch")
    }

    Benchmark("Watch: button on Now Playing → Remote Command → Write Response", configuration: config) { benchmark in
        let r = try mediaRig("command") { r in for _ in 0..<64 { r.press(.up) } }
        let before = r.phone.remoteCommands
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.press(.up) }
        benchmark.stopMeasurement()
        let n = benchmark.scaledIterations.count
        check(r.phone.remoteCommands - before == n, "every press must reach the phone (\(r.phone.remoteCommands - before) of \(n)); \(r.rig.watch.screen) \(r.rig.watch.displayState) notice \(String(describing: r.rig.watch.model.mediaNotice)) in flight \(r.rig.watch.session!.mediaSession.client.remoteCommandsInFlight)")
        check(r.phone.lastCommand == 5, "as Volume Up, not \(r.phone.lastCommand)")
        check(r.rig.watch.model.mediaNotice == nil, "refused: \(String(describing: r.rig.watch.model.mediaNotice))")
        check(r.phone.otherPDUs == 0, "\(r.phone.otherPDUs) unexpected PDUs")
    }
}

/// A precondition whose message survives a release build.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
