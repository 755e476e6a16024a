import Glibc
import HAL
import LinuxHAL
import Log
import Notifications
import Screens
import SimBoard
import Testing
import Watch
@testable import WatchFiles

@testable import WristCore

/// Issue 25 item 3 on the simulated board: an app muted from the wrist
/// (the list's negative long press, "Mute 1 hour" / "Mute always") is kept
/// in the state directory (0600) and muted again after a restart; "Muted
/// apps" undoes it, and the file follows.
@Suite(.serialized) struct AppMuteEndToEndTests {
    typealias H = HealthAndReconnectTests

    @Test func aMuteFromTheWristSurvivesARestartAndIsUndoneThere() throws {
        let state = HistoryEndToEndTests.StateDirectory()
        let path = state.path + "/" + MutedAppsFile.fileName
        do {
            let rig = try SimBoardRig { $0.stateDirectory = state.path }
            _ = try rig.connectPhone(H.phone([H.bob, H.anna]))
            try #require(try rig.run(until: { (try? H.titles(rig)) == ["Anna", "Bob"] }))
            // On the list, Messages (Anna, the newest) selected: its menu, "Mute always" (the third entry).
            rig.watch.button(.positive, .press)
            #expect(rig.watch.screen == .list(selected: 0))
            rig.watch.button(.negative, .longPress)
            guard case .notificationMenu = rig.watch.screen else { Issue.record("no menu: \(rig.watch.screen)"); return }
            rig.watch.button(.down, .press)
            rig.watch.button(.down, .press)
            rig.watch.button(.positive, .press)
            guard case .message(let notice) = rig.watch.screen else { Issue.record("no notice: \(rig.watch.screen)"); return }
            #expect(notice.hasSuffix("muted (Menu > Muted apps undoes it)"))
            let kept = try #require(try FileBytes.readIfPresent(path, limit: 4096))
            #expect(String(decoding: kept, as: UTF8.self).hasPrefix("always com.apple.MobileSMS "))
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
            rig.daemon.stop()
        }
        // Again, on the same state directory: Messages stays muted.
        let rig = try SimBoardRig { $0.stateDirectory = state.path }
        #expect(rig.watch.model.appMutes.count(now: rig.watch.now) == 1)
        var id = "com.apple.MobileSMS"
        let muted = id.withUTF8 { rig.watch.model.appMutes.isMuted(UnsafeRawBufferPointer($0), now: rig.watch.now) }
        #expect(muted)
        // Undone from "Muted apps": the file goes.
        rig.watch.button(.negative, .longPress)  // the watch menu, from the waiting screen
        rig.watch.button(.up, .press)  // Status
        rig.watch.button(.up, .press)  // Muted apps
        rig.watch.button(.positive, .press)
        #expect(rig.watch.screen == .mutedApps(selected: 0))
        rig.watch.button(.positive, .press)
        #expect(rig.watch.model.appMutes.count(now: rig.watch.now) == 0)
        #expect(access(path, F_OK) != 0)
    }

    @Test func theFileRoundTripsAndBadLinesAreSkipped() {
        var mutes = AppMutes()
        let now = MonotonicInstant(nanoseconds: 1_000_000_000_000)
        let wall = WallClockInstant(secondsSinceEpoch: 1_714_550_000)
        var (a, an, b, bn) = ("com.example.chat", "Chat", "com.example.mail", "Mail box")
        a.withUTF8 { i in an.withUTF8 { n in _ = mutes.mute(UnsafeRawBufferPointer(i), name: UnsafeRawBufferPointer(n), until: now.advanced(by: .seconds(600)), now: now) } }
        b.withUTF8 { i in bn.withUTF8 { n in _ = mutes.mute(UnsafeRawBufferPointer(i), name: UnsafeRawBufferPointer(n), until: nil, now: now) } }
        let bytes = MutedAppsFile.encode(mutes, now: now, wallNow: wall)
        #expect(String(decoding: bytes, as: UTF8.self) == "until 1714550600 com.example.chat Chat\nalways com.example.mail Mail box\n")
        let (kept, skipped) = MutedAppsFile.decode(bytes + Array("never x y\nuntil soon a b\nuntil 1714540000 old Old\n".utf8),
                                                    wallNow: wall.advanced(by: .seconds(60)))
        #expect(skipped == 2, "the two lines that are not mutes; the one already over is dropped quietly")
        #expect(kept.count == 2)
        #expect(kept.first.map { String(decoding: $0.identifier, as: UTF8.self) } == "com.example.chat")
        #expect(kept.first?.remaining == .seconds(540))
        #expect(kept.last.map { String(decoding: $0.name, as: UTF8.self) } == "Mail box")
        #expect(kept.last.map { $0.remaining == nil } == true)
    }
}
