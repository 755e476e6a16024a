import ANCS
import Notifications
import BoardConfig
import Haptics
import Watch
import Testing

@testable import WristCore

private func info(_ category: CategoryID, _ flags: EventFlags = []) -> NotificationInfo {
    NotificationInfo(uid: NotificationUID(7), flags: flags, category: category, categoryCount: 1)
}

@Suite struct VibrationPolicyTests {
    let policy = VibrationPolicy.standard

    @Test func importantIsADoublePulse() {
        #expect(policy.pattern(for: info(.social, .important)) == .double)
        #expect(policy.pattern(for: info(.email, [.important, .positiveAction])) == .double)
    }

    @Test func incomingCallRings() {
        #expect(policy.pattern(for: info(.incomingCall, [.positiveAction, .negativeAction])) == .ring)
        // The category rule wins over Important.
        #expect(policy.pattern(for: info(.incomingCall, .important)) == .ring)
    }

    @Test func silentAndPreExistingNeverVibrate() {
        #expect(policy.pattern(for: info(.social, .silent)) == nil)
        #expect(policy.pattern(for: info(.social, .preExisting)) == nil)
        #expect(policy.pattern(for: info(.social, [.important, .silent])) == nil)
        #expect(policy.pattern(for: info(.incomingCall, .preExisting)) == nil)
        // Not even with an override.
        var p = policy
        p.setPattern(.ring, for: .news)
        #expect(p.pattern(for: info(.news, .silent)) == nil)
    }

    /// Issue 19 item 9: the motor is for Important notifications and calls.
    @Test func everythingElseIsStillByDefault() {
        for category: CategoryID in [.other, .missedCall, .voicemail, .social, .schedule, .email, .news, .healthAndFitness,
                                     .businessAndFinance, .location, .entertainment, .unknown(42)] {
            #expect(policy.pattern(for: info(category)) == nil, "\(category)")
        }
    }

    @Test func aBoardFileTurnsAShortPulseOnForTheRestOrPerCategory() throws {
        func board(_ vibrate: String) throws -> VibrationPolicy {
            let text = """
                {
                  "name": "Policy",
                  "display": { "controller": "ssd1306", "bus": 1, "address": "0x3C", "width": 128, "height": 64 },
                  "buttons": [
                    { "role": "positive", "chip": "gpiochip0", "line": 17 },
                    { "role": "negative", "chip": "gpiochip0", "line": 27 }
                  ],
                  "motor": { "chip": "gpiochip0", "line": 18, "vibrate": \(vibrate) }
                }
                """
            return try #require(try BoardLoader.parse(text, file: "x.json").motor?.policy)
        }
        let everything = try board(#"{ "default": "short" }"#)
        #expect(everything.pattern(for: info(.social)) == .short)
        #expect(everything.pattern(for: info(.social, .important)) == .double, "the rest of the standard policy stays")
        #expect(everything.pattern(for: info(.incomingCall)) == .ring)
        let mail = try board(#"{ "email": "short" }"#)
        #expect(mail.pattern(for: info(.email)) == .short)
        #expect(mail.pattern(for: info(.social)) == nil)
        #expect(try board("{}") == .standard)
    }

    /// Issue 19 item 5: the call already ringing when the phone connects.
    @Test func aCallInProgressRingsDespitePreExisting() {
        #expect(policy.patternForCallInProgress(info(.incomingCall, [.preExisting, .positiveAction])) == .ring)
        #expect(policy.patternForCallInProgress(info(.incomingCall, [.preExisting, .silent])) == nil)
        #expect(policy.patternForCallInProgress(info(.social, .preExisting)) == nil)
        #expect(policy.patternForCallInProgress(info(.incomingCall)) == nil, "a live call is the ordinary rule")
        var still = policy
        still.setPattern(nil, for: .incomingCall)
        #expect(still.patternForCallInProgress(info(.incomingCall, .preExisting)) == nil)
    }

    @Test func overridesAndDefaultAreConfigurable() {
        var p = VibrationPolicy(important: .ring, defaultPattern: nil)
        p.setPattern(.double, for: .email)
        p.setPattern(nil, for: .news)
        #expect(p.pattern(for: info(.email)) == .double)
        #expect(p.pattern(for: info(.news, .important)) == nil)  // silenced category
        #expect(p.pattern(for: info(.social)) == nil)  // default off
        #expect(p.pattern(for: info(.social, .important)) == .ring)
        #expect(p.pattern(for: info(.incomingCall)) == .ring)  // default override kept
        p.removeOverride(for: .incomingCall)
        #expect(p.pattern(for: info(.incomingCall)) == nil)
        #expect(p != .standard)
    }

    @Test func onlyAddedNotificationsVibrate() {
        let call = info(.incomingCall)
        #expect(policy.pattern(for: NotificationEvent.added(call)) == .ring)
        #expect(policy.pattern(for: NotificationEvent.modified(call)) == nil)
        #expect(policy.pattern(for: NotificationEvent.removed(call.uid, .removedByPhone)) == nil)
        #expect(policy.pattern(for: NotificationEvent.sessionStarted) == nil)
    }
}
