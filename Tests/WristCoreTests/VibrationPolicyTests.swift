import ANCS
import BoardConfig
import Haptics
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

    @Test func everythingElseIsAShortPulse() {
        for category: CategoryID in [.other, .missedCall, .voicemail, .social, .schedule, .email, .news, .healthAndFitness,
                                     .businessAndFinance, .location, .entertainment, .unknown(42)] {
            #expect(policy.pattern(for: info(category)) == .short, "\(category)")
        }
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
        #expect(policy.pattern(for: ANCSEvent.notificationAdded(call)) == .ring)
        #expect(policy.pattern(for: ANCSEvent.notificationModified(call)) == nil)
        #expect(policy.pattern(for: ANCSEvent.notificationRemoved(call.uid, .removedByPhone)) == nil)
        #expect(policy.pattern(for: ANCSEvent.sessionStarted) == nil)
    }
}
