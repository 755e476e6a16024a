import ANCS
import Notifications
import HAL
import Testing

/// The descriptions Embedded Swift needs (it has no reflection) print what
/// reflection printed on the host.
@Suite("Descriptions")
struct DescriptionTests {
    @Test func enumsPrintTheirCaseNames() {
        #expect("\(CategoryID.incomingCall) \(CategoryID(rawValue: 12))" == "incomingCall unknown(12)")
        #expect("\(ActionID.positive) \(ActionID.negative)" == "positive negative")
        #expect("\(SessionEndReason.serviceChanged)" == "serviceChanged")
        #expect("\(LivenessResult.noAnswer) \(LivenessResult.rejected(.timedOut))" == "noAnswer rejected(timed out)")
        #expect("\(ANCSActionError.actionNotAvailable(NotificationUID(2), .positive))" == "actionNotAvailable(#2, ANCS.ActionID.positive)")
        #expect("\(ANCSActionError.unknownNotification(NotificationUID(3)))" == "unknownNotification(#3)")
        #expect(
            "\(ANCSProtocolError.attributeExceedsMaxLength(NotificationUID(4), attributeID: 1, length: 300, maxLength: 255))"
                == "attributeExceedsMaxLength(#4, attributeID: 1, length: 300, maxLength: 255)")
        #expect("\(DataSourceAssembler.ExpectError.valuesExceedCapacity(needed: 3, capacity: 2))" == "valuesExceedCapacity(needed: 3, capacity: 2)")
    }

    @Test(arguments: [Duration.seconds(5), .milliseconds(500), .seconds(120), .milliseconds(1500), .microseconds(333_333), .nanoseconds(1), .milliseconds(-250)])
    func durationSecondsText(_ d: Duration) {
        #expect(d.secondsText == "\(d)")
    }
}
