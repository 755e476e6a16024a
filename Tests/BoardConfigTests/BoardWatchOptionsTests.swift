import ANCS
import Notifications
import BoardConfig
import Testing

@testable import BoardConfig

/// The board file's watch options: button positions (where call labels go),
/// quiet hours for the motor, display dim / off timings.
@Suite("Board files: watch options")
struct BoardWatchOptionsTests {
    let board = """
        {
          "name": "Options",
          "display": { "controller": "ssd1306", "bus": 1, "address": "0x3C", "width": 128, "height": 64,
                       "dimAfterSeconds": 10, "offAfterSeconds": 60 },
          "buttons": [
            { "role": "positive", "chip": "gpiochip0", "line": 17, "position": "top-right" },
            { "role": "negative", "chip": "gpiochip0", "line": 27, "position": "top-left" }
          ],
          "motor": { "chip": "gpiochip0", "line": 18, "quietHours": "22:30-07:00" }
        }
        """

    @Test func theyAreRead() throws {
        let b = try BoardLoader.parse(board, file: "x.json")
        #expect(b.button(.positive)?.position == .topRight)
        #expect(b.button(.negative)?.position == .topLeft)
        #expect(b.motor?.quietHours?.start == 22 * 60 + 30)
        #expect(b.motor?.quietHours?.end == 7 * 60)
        #expect(b.display.dimAfter == .seconds(10))
        #expect(b.display.offAfter == .seconds(60))
    }

    @Test func defaultsWhenLeftOut() throws {
        let b = try BoardLoader.parse(validBoard, file: "x.json")
        #expect(b.button(.positive)?.position == nil)
        #expect(b.motor?.quietHours == nil)
        #expect(b.display.dimAfter == .seconds(15))
        #expect(b.display.offAfter == .seconds(30))
    }

    @Test func mistakesNameTheFieldAndWhatIsAllowed() {
        let bad = board.replacingOccurrences(of: "\"top-right\"", with: "\"left-ish\"")
            .replacingOccurrences(of: "22:30-07:00", with: "late")
            .replacingOccurrences(of: "\"offAfterSeconds\": 60", with: "\"offAfterSeconds\": 5")
        let lines = problems(bad)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Boards/broken.json:6: buttons[0].position: ") && $0.contains("top-left, top-right, bottom-left, bottom-right") })
        #expect(lines.contains { $0 == "Boards/broken.json:9: motor.quietHours: \"late\" is not a time range; allowed: \"HH:MM-HH:MM\", e.g. \"22:00-07:00\"" })
        #expect(lines.contains { $0.hasPrefix("Boards/broken.json:4: display.offAfterSeconds: 5 is before dimAfterSeconds (10)") })
    }
}


@Suite("Board files: what vibrates")
struct BoardVibrationPolicyTests {
    func board(_ vibrate: String) -> String {
        """
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
    }

    @Test func categoriesImportantAndDefaultAreConfigurable() throws {
        let b = try BoardLoader.parse(board(#"{ "important": "ring", "default": "none", "email": "double", "incomingCall": "none" }"#), file: "x.json")
        let policy = try #require(b.motor?.policy)
        // The table as the file says it (the decisions that read it: WristCoreTests/VibrationPolicyTests).
        #expect(policy.important == .ring)
        #expect(policy.defaultPattern == nil)
        #expect(policy.categoryOverrides[.email] == .some(.double))
        #expect(policy.categoryOverrides[.incomingCall] == .some(nil))
        #expect(policy.categoryOverrides[.social] == nil)
    }

    @Test func withoutItTheStandardPolicy() throws {
        let b = try BoardLoader.parse(validBoard, file: "x.json")
        #expect(b.motor?.policy == .standard)
    }

    @Test func unknownPatternsAndCategoriesAreNamed() {
        let lines = problems(board(#"{ "important": "buzz", "sport": "short" }"#))
        #expect(lines == [
            "Boards/broken.json:8: motor.vibrate.sport: unknown field; allowed: important, default, businessAndFinance, email, entertainment, healthAndFitness, incomingCall, location, missedCall, news, other, schedule, social, voicemail",
            "Boards/broken.json:8: motor.vibrate.important: \"buzz\" is not a pattern; allowed: short, double, ring, alarm, timer, none",
        ])
    }
}
