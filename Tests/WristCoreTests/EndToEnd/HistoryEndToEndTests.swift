import ANCS
import Foundation
import Glibc
import HAL
import Notifications
import SimBoard
import Testing
import Watch
import WatchFiles

@testable import WristCore

/// Issue 25 item 5 on the simulated board: the list survives a restart of
/// the daemon (written on the clean shutdown, read at start, shown, then
/// reconciled with what the phone re-announces), owner-only, without the
/// text of apps whose content is hidden; a damaged file is set aside;
/// `history clear` and `forget` delete it.
@Suite(.serialized) struct HistoryEndToEndTests {
    typealias H = HealthAndReconnectTests

    /// A state directory the test owns (0700), removed at the end.
    final class StateDirectory {
        let path = "/tmp/wristcore-history-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        init() { mkdir(path, 0o700) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var history: String { path + "/" + NotificationHistory.fileName }
        func bytes() -> [UInt8]? { FileManager.default.contents(atPath: history).map { Array($0) } }
        func write(_ name: String, _ bytes: [UInt8]) {
            _ = FileManager.default.createFile(atPath: path + "/" + name, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        }
    }

    static func rig(_ state: StateDirectory) throws -> SimBoardRig {
        try SimBoardRig { $0.stateDirectory = state.path }
    }

    static func previousSessionCount(_ rig: SimBoardRig) -> Int {
        var kept = 0
        rig.watch.notifications.forEachNotification(newestFirst: true) { if $0.isFromPreviousSession { kept += 1 } }
        return kept
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard haystack.count >= n.count else { return false }
        return (0...(haystack.count - n.count)).contains { Array(haystack[$0..<($0 + n.count)]) == n }
    }

    @Test func theListSurvivesARestartAndIsReconciledWithThePhone() throws {
        let state = StateDirectory()
        do {
            let rig = try Self.rig(state)
            _ = try rig.connectPhone(H.phone([H.bob, H.anna, H.cleo]))
            try #require(try rig.run(until: { (try? H.titles(rig)) == ["Cleo", "Anna", "Bob"] }))
            #expect(state.bytes() == nil, "not written during the burst")
            rig.daemon.stop()  // the SIGTERM path: the list is written as it was
        }
        let bytes = try #require(state.bytes(), "written on the clean shutdown")
        var status = stat()
        #expect(stat(state.history, &status) == 0 && status.st_mode & 0o777 == 0o600, "owner-only")
        #expect(status.st_uid == getuid())
        #expect(try NotificationHistory.decode(bytes).map { String(decoding: $0.title ?? [], as: UTF8.self) } == ["Bob", "Anna", "Cleo"])

        // The daemon again, on the same state directory: the list shows what it showed.
        let rig = try Self.rig(state)
        #expect(try H.titles(rig) == ["Cleo", "Anna", "Bob"])
        #expect(Self.previousSessionCount(rig) == 3)
        #expect(try rig.state()["notifications"] as? Int == 3)
        // The phone comes back without Bob: Anna and Cleo are re-announced, Bob goes once they settle.
        _ = try rig.connectPhone(H.phone([H.anna, H.cleo]))
        try #require(try rig.run(until: {
            Self.previousSessionCount(rig) == 0 && (try? H.titles(rig).sorted()) == ["Anna", "Cleo"]
        }), "reconciled: \((try? H.titles(rig)) ?? [])")
        let stats = (rig.watch.notifications as! NotificationConsumer).statistics
        #expect(stats.previousSessionReannounced == 2 && stats.previousSessionDropped == 1)
        rig.daemon.stop()
        let after = try NotificationHistory.decode(try #require(state.bytes()))
        #expect(after.map { String(decoding: $0.title ?? [], as: UTF8.self) }.sorted() == ["Anna", "Cleo"])
    }

    @Test func anAppWhoseContentIsHiddenIsStoredWithoutItsText() throws {
        let state = StateDirectory()
        state.write("settings.json", Array(#"{"apps": {"com.apple.mobilemail": {"hideContent": true}}}"#.utf8))
        let rig = try Self.rig(state)
        _ = try rig.connectPhone(H.phone([H.bob, H.anna]))
        try #require(try rig.run(until: {
            var fetched = 0
            rig.watch.notifications.forEachNotification(newestFirst: true) { if $0.has(.appIdentifier) && $0.has(.title) { fetched += 1 } }
            return fetched == 2
        }))
        rig.daemon.stop()
        let bytes = try #require(state.bytes())
        #expect(!Self.contains(bytes, "Bob") && !Self.contains(bytes, "Report"), "Mail's title and message are not on disk")
        #expect(Self.contains(bytes, "com.apple.mobilemail") && Self.contains(bytes, "Anna"))
    }

    @Test(arguments: ["damaged", "oversized", "version"])
    func aFileThatCannotBeUsedIsSetAsideAndTheWatchStartsEmpty(_ kind: String) throws {
        let state = StateDirectory()
        var good = NotificationHistory.encode([NotificationHistory.Entry(category: .social, title: Array("Old".utf8))])
        switch kind {
        case "damaged": good[8] ^= 0xFF
        case "oversized": good += [UInt8](repeating: 0, count: NotificationHistory.maximumFileBytes)
        default: good[4] = 9
        }
        state.write(NotificationHistory.fileName, good)
        let rig = try Self.rig(state)
        #expect(try rig.notifications().isEmpty)
        #expect(state.bytes() == nil)
        #expect(FileManager.default.contents(atPath: state.history + ".damaged").map { Array($0) } == good, "kept for a human to look at")
        // The watch keeps going, and writes a good file again.
        _ = try rig.connectPhone(H.phone([H.anna]))
        try #require(try rig.run(until: { (try? H.titles(rig)) == ["Anna"] }))
        rig.daemon.stop()
        #expect(try NotificationHistory.decode(try #require(state.bytes())).count == 1)
    }

    @Test func historyClearDeletesTheFileAndTheRestoredList() throws {
        let state = StateDirectory()
        state.write(NotificationHistory.fileName, NotificationHistory.encode([NotificationHistory.Entry(category: .social, title: Array("Old".utf8))]))
        let rig = try Self.rig(state)
        #expect(try H.titles(rig) == ["Old"])
        #expect(try rig.harness.request("history clear", loop: rig.loop) == "ok history clear")
        #expect(state.bytes() == nil)
        #expect(try rig.notifications().isEmpty)
        rig.daemon.stop()
        #expect(state.bytes() == nil, "nothing changed since: not written again")
    }

    @Test func forgetDeletesTheFile() throws {
        // `wristcore forget` deletes it through HistoryFile (Tests/CLI/reload_smoke.py runs the command).
        let state = StateDirectory()
        state.write(NotificationHistory.fileName, [1, 2, 3])
        let file = HistoryFile(stateDirectory: state.path)
        try file.remove()
        #expect(state.bytes() == nil)
        try file.remove()  // none: fine
    }
}
