/// What the built-in simulated iPhone plays on `wristcore run --board sim`
/// without a phone endpoint: a few everyday notifications, so the simulated
/// watch has something to show. (`wristcore demo` plays scenario files.)
public enum BuiltInScenario {
    static let text = """
        app com.apple.MobileSMS "Messages"
        app com.apple.mobilemail "Mail"
        app com.apple.mobilecal "Calendar"
        wait 1s
        add uid=1 category=social app=com.apple.MobileSMS title="Anna" message="Lunch at 1?" flags=important,negativeAction
        wait 3s
        add uid=2 category=email app=com.apple.mobilemail title="Build report" subtitle="CI" message="All green." flags=negativeAction
        wait 3s
        add uid=3 category=schedule app=com.apple.mobilecal title="Stand-up" message="in 10 minutes" flags=negativeAction
        """

    public static var events: [PhoneEvent] {
        // The text is part of the binary and covered by a test; a parse error is a bug.
        (try? PhoneScript.parse(text)) ?? []
    }
}
