import BoardConfig
import HAL
import Haptics
import Testing
import WearerSettings

/// Issue 25 item 3: the settings file's `filters`, rules on what a
/// notification says (app, title, subtitle, message), matched ignoring
/// ASCII case, the first that matches deciding before the app's rule.
@Suite("Settings file: filters")
struct ContentFilterTests {
    static let file = UserSettingsLoaderTests.file

    func load(_ text: String) throws(BoardError) -> UserSettings { try UserSettingsLoaderTests().load(text) }

    func problems(_ text: String) -> [String] { UserSettingsLoaderTests().problems(text) }

    /// The rule for a notification that says these things.
    func rule(_ s: UserSettings, app: String = "", title: String = "", subtitle: String = "", message: String = "") -> AppRule? {
        var (a, t, st, m) = (app, title, subtitle, message)
        return a.withUTF8 { a in t.withUTF8 { t in st.withUTF8 { st in m.withUTF8 { m in
            s.rule(app: UnsafeRawBufferPointer(a), title: UnsafeRawBufferPointer(t), subtitle: UnsafeRawBufferPointer(st),
                   message: UnsafeRawBufferPointer(m))
        } } } }
    }

    static let example = #"""
        {
          "patterns": { "heartbeat": [80, 120, 80] },
          "apps": { "com.apple.MobileSMS": { "vibrate": "heartbeat" } },
          "filters": [
            { "app": "MobileSMS", "title": "Mum", "alwaysAlert": true },
            { "message": "promo code", "mute": true },
            { "title": "bank", "subtitle": "statement", "hideContent": true },
            { "app": "whatsapp", "vibrate": "none" }
          ]
        }
        """#

    @Test func theFirstRuleWhoseEveryTextOccursDecidesBeforeTheAppsRule() throws {
        let s = try load(Self.example)
        #expect(s.filters.count == 4)
        #expect(s.filters.text(.title, at: 0) == "mum" && s.filters.text(.message, at: 0) == "")
        // Title and app both match, ignoring case: alwaysAlert, not the app's heartbeat.
        #expect(rule(s, app: "com.apple.MobileSMS", title: "MUM (mobile)", message: "call me")?.alwaysAlert == true)
        // The app's rule when no filter matches.
        #expect(rule(s, app: "com.apple.MobileSMS", title: "Anna", message: "lunch?")?.vibrate?.name == "heartbeat")
        // Anywhere in the message, any app.
        #expect(rule(s, app: "com.shop", title: "Sale", message: "Your PROMO CODE is 123")?.mute == true)
        // Every text a rule names must occur: title without the subtitle is not enough.
        #expect(rule(s, app: "com.bank", title: "My Bank") == nil)
        #expect(rule(s, app: "com.bank", title: "My Bank", subtitle: "New statement")?.hideContent == true)
        // In order: the Mum filter comes before the promo one.
        #expect(rule(s, app: "com.apple.MobileSMS", title: "Mum", message: "promo code")?.alwaysAlert == true)
        #expect(rule(s, app: "net.whatsapp.WhatsApp", title: "x")?.vibrateNone == true)
        // Non-ASCII is compared byte for byte.
        let accents = try load(#"{"filters": [{ "title": "Ärzte", "mute": true }]}"#)
        #expect(rule(accents, title: "Die Ärzte") != nil)
        #expect(rule(accents, title: "die ärzte") == nil)
        #expect(s.hasAlwaysAlert && s.hasMute && s.hasHideContent && s.hasRules)
        #expect(!UserSettings.defaults.hasRules)
    }

    @Test func aFullTableStillMatchesTheLastRule() throws {
        var rules: [String] = []
        for i in 0..<(ContentFilters.capacity - 1) { rules.append(#"{ "message": "no such text \#(i)", "mute": true }"#) }
        rules.append(#"{ "message": "the last", "alwaysAlert": true }"#)
        let s = try load(#"{"filters": ["# + rules.joined(separator: ",") + "]}")
        #expect(s.filters.count == ContentFilters.capacity)
        #expect(rule(s, message: "this is THE LAST one")?.alwaysAlert == true)
        #expect(rule(s, message: "nothing") == nil)
        rules.append(#"{ "message": "one more", "mute": true }"#)
        #expect(problems(#"{"filters": ["# + rules.joined(separator: ",\n") + "]}") == [
            "\(Self.file):33: filters: 33 rules; allowed: at most 32",
        ])
    }

    @Test func eachProblemNamesTheRuleTheFieldAndWhatIsAllowed() {
        let text = "1-64 bytes of UTF-8 without control characters, matched ignoring case"
        #expect(problems(#"{"filters": {"title": "x"}}"#) == [
            #"\#(Self.file):1: filters: expected an array of rules [{ "title": "...", "mute": true }], found an object"#,
        ])
        #expect(problems(#"{"filters": [{ "mute": true }]}"#) == [
            "\(Self.file):1: filters[0]: matches nothing; allowed: at least one of app, title, subtitle, message",
        ])
        #expect(problems(#"{"filters": [{ "title": "x" }]}"#) == [
            "\(Self.file):1: filters[0]: does nothing; allowed: at least one of mute, hideContent, vibrate, alwaysAlert",
        ])
        #expect(problems(#"{"filters": [{ "title": "", "mute": true }, { "message": 7, "mute": true }]}"#) == [
            #"\#(Self.file):1: filters[0].title: "" is not a text to look for; allowed: \#(text)"#,
            "\(Self.file):1: filters[1].message: 7 is not a text to look for; allowed: \(text)",
        ])
        let long = String(repeating: "a", count: 65)
        #expect(problems(#"{"filters": [{ "title": "\#(long)", "mute": true }]}"#).count == 1)
        #expect(problems(#"{"filters": [{ "title": "x", "mute": true, "alwaysAlert": true }]}"#) == [
            #"\#(Self.file):1: filters[0].alwaysAlert: contradicts "mute": true; allowed: one of mute and alwaysAlert"#,
        ])
        #expect(problems(#"{"filters": [{ "sender": "x", "mute": true }]}"#) == [
            "\(Self.file):1: filters[0].sender: unknown field; allowed: app, title, subtitle, message, mute, hideContent, vibrate, alwaysAlert",
            "\(Self.file):1: filters[0]: matches nothing; allowed: at least one of app, title, subtitle, message",
        ])
    }
}
