import Foundation
import SimBoard
import Testing
import WristCore

@testable import WristCore

/// Issue 16 items 2, 3 and 8 through the harness: `state`'s `bus` object
/// counts the simulated board's I2C traffic, and with it the bus cost of
/// the daemon's own screens.
@Suite(.serialized) struct DisplayBusEndToEndTests {
    struct Bus: Equatable {
        var bytes: Int
        var transactions: Int
        var lastFlushBytes: Int
        var lastFlushTransactions: Int
    }

    static func bus(_ rig: SimBoardRig) throws -> Bus {
        let state = try rig.state()
        let bus = try #require(state["bus"] as? [String: Any], "state has a bus object: \(state)")
        let last = try #require(bus["lastFlush"] as? [String: Any])
        return Bus(bytes: try #require(bus["bytes"] as? Int), transactions: try #require(bus["transactions"] as? Int),
                   lastFlushBytes: try #require(last["bytes"] as? Int),
                   lastFlushTransactions: try #require(last["transactions"] as? Int))
    }

    @Test func stateCountsTheBusSinceStartAndTheLastFlush() throws {
        let rig = try SimBoardRig()
        let atStart = try Self.bus(rig)
        let emulated = try #require(rig.daemon.emulatedDisplay)
        // Init (commands, RAM clear in one transaction, display on) and the first screen.
        #expect(atStart.bytes == emulated.busBytes && atStart.transactions == emulated.transactions)
        #expect(atStart.bytes > 1024 && atStart.transactions >= 3)
        #expect(atStart.lastFlushBytes <= atStart.bytes - 1024)

        try rig.connectPhone()
        try rig.idle(.milliseconds(100))
        let connected = try Self.bus(rig)
        #expect(connected.bytes == emulated.busBytes && connected.transactions == emulated.transactions)
        #expect(connected.bytes > atStart.bytes, "the clock replaced the waiting screen")
        #expect(connected.lastFlushBytes <= connected.bytes - atStart.bytes)
    }

    @Test func aMinuteTickOfTheIdleClockIsAtMost40BytesInOneTransaction() throws {
        let rig = try SimBoardRig()
        try rig.connectPhone()
        try rig.play("time 2024-05-01T09:00:00")
        try rig.idle(.milliseconds(100))
        #expect(try rig.state()["screen"] as? String == "idleClock")
        var before = try Self.bus(rig)
        for minute in 1...9 {
            try rig.play("time 2024-05-01T09:0\(minute):00")
            try #require(try rig.run(until: { (try? Self.bus(rig).bytes) != before.bytes }), "minute \(minute) was drawn")
            try rig.idle(.milliseconds(20))
            let after = try Self.bus(rig)
            // Before: 52...77 bytes in 2 transactions.
            #expect(after.bytes - before.bytes <= 40, "09:0\(minute): \(after.bytes - before.bytes) bytes")
            #expect(after.transactions - before.transactions == 1)
            #expect(after.lastFlushBytes == after.bytes - before.bytes && after.lastFlushTransactions == 1, "the tick was the last flush")
            before = after
        }
    }

    @Test func aNewNotificationIsDrawnOnce() throws {
        let rig = try SimBoardRig()
        try rig.connectPhone()
        try rig.idle(.milliseconds(100))
        for uid in 1...3 {
            let before = try Self.bus(rig)
            try rig.play("""
                app com.apple.MobileSMS "Messages"
                add uid=\(uid) category=social app=com.apple.MobileSMS title="Anna Lindqvist" message="Lunch at 1? I booked the place by the river." flags=important
                """)
            try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) == "detail" }))
            try rig.idle(.milliseconds(400))
            let after = try Self.bus(rig)
            // Once: one flush (the whole change is the last flush), here
            // one or two windows (the clock and the notification differ
            // almost everywhere; the gap between the Clear label and the
            // panel's edge may not). Before: the pop-up at once, then again
            // with its attributes: 1,488-1,650 bytes in 14-16 transactions.
            #expect(after.lastFlushBytes == after.bytes - before.bytes, "notification \(uid): one flush")
            #expect(after.transactions - before.transactions <= 2,
                    "notification \(uid): \(after.transactions - before.transactions) transactions")
            #expect(after.bytes - before.bytes <= 1 + 12 + 1024, "notification \(uid): \(after.bytes - before.bytes) bytes")
            #expect(try rig.notifications().first?["title"] as? String == "Anna Lindqvist")
            #expect(try rig.harness.request("press back", loop: rig.loop) == "ok press back")
            #expect(try rig.harness.request("press back", loop: rig.loop) == "ok press back")
            try rig.idle(.milliseconds(100))
        }
    }
}
