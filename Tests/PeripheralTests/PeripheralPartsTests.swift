import HAL
import Loop
import Testing
@testable import Peripheral

/// The peripheral's parts on their own, on a `ManualLoop` and without a
/// controller (nothing reaches a kernel): what goes in, what comes out.
/// `PeripheralTests` and `AdapterLossTests` run them inside the peripheral.
@Suite struct PeripheralPartsTests {
    let loop = ManualLoop()
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!

    @Test func pairingDialogAsksThenRejectsWhenNobodyAnswers() {
        let log = LogRecorder()
        let dialog = PairingDialog(ioCapability: .displayYesNo, timeout: .seconds(30), loop: loop, logger: log.logger)
        var shown: [UInt32] = []
        var ended: [Bool] = []
        dialog.onRequest = { shown.append($0) }
        dialog.onEnded = { ended.append($0) }
        dialog.requested(by: phone, .lePublic, confirmHint: 0, value: 42)
        #expect(shown == [42] && ended.isEmpty)
        #expect(log.lines.last == "info: pairing request from F0:99:B6:12:34:56: confirm 000042 on the watch")
        loop.advance(by: .seconds(30))
        #expect(ended == [false] && dialog.userRejected)
        dialog.answer(true)  // nothing is asked any more
        #expect(ended == [false])
        dialog.linkOpened()
        #expect(!dialog.userRejected)
    }

    @Test func pairingDialogAcceptsJustWorksWithoutAsking() {
        let dialog = PairingDialog(ioCapability: .noInputNoOutput, timeout: .seconds(30), loop: loop, logger: quietLogger)
        var asked = false
        dialog.onRequest = { _ in asked = true }
        dialog.requested(by: phone, .lePublic, confirmHint: 0, value: 42)
        #expect(!asked && loop.armedTimerCount == 0)
    }

    @Test func pairingDialogEndedByTheLinkClosesAsNotAccepted() {
        let dialog = PairingDialog(ioCapability: .displayYesNo, timeout: .seconds(30), loop: loop, logger: quietLogger)
        var ended: [Bool] = []
        dialog.onEnded = { ended.append($0) }
        dialog.end()  // nothing open: nothing to close
        dialog.requested(by: phone, .lePublic, confirmHint: 0, value: 1)
        dialog.end()
        #expect(ended == [false] && !dialog.userRejected && loop.armedTimerCount == 0)
    }

    @Test func adapterLossWatchCountsTheTimeAwayAndIgnoresCancelledSetUps() {
        let watch = AdapterLossWatch(loop: loop)
        var deadlines = 0
        watch.onDeadline = { deadlines += 1 }
        watch.startWaiting(upTo: .seconds(60))
        #expect(watch.lostAt == loop.now)
        loop.advance(by: .seconds(10))
        let first = watch.beginSetUp()
        #expect(watch.isSettingUp && watch.isCurrent(first))
        watch.cancelSetUp()  // gone again while being set up
        #expect(!watch.isSettingUp && !watch.isCurrent(first))
        let second = watch.beginSetUp()
        #expect(watch.isCurrent(second))
        loop.advance(by: .seconds(5))
        #expect(watch.returned() == .seconds(15))
        #expect(watch.lostAt == nil && !watch.isSettingUp && loop.armedTimerCount == 0)

        watch.startWaiting(upTo: .seconds(60))
        loop.advance(by: .seconds(60))
        #expect(deadlines == 1)
    }
}
