import BoardConfig
import Graphics
import HAL
import Log
import PhoneServices
import SimBoard
import Testing
import TextFormat
import Watch

@testable import WristCore
@testable import BenchTools

/// `wristcore demo --scenario android`: the shipped Android scenario parses,
/// plays through the simulated Gadgetbridge phone on the simulated board
/// (the watch takes the phone's clock, stores and buzzes for its
/// notifications, and its DISMISS / ACCEPT / REJECT replies reach the phone),
/// and its key frames match golden images.
@Suite struct DemoAndroidTests {
    static func androidScenario() throws -> DemoScenario {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return try DemoScenario.load(path + "/Scenarios/android.scenario")
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "demo-android-test")
        logger.logLevel = .critical
        return logger
    }

    /// Frames long enough for the whole scenario (50.5 s).
    static let frames = 520

    @Test func theShippedAndroidScenarioParses() throws {
        let s = try Self.androidScenario()
        #expect(s.phone == .android)
        #expect(s.phoneEvents.isEmpty)
        #expect(Array(s.androidEvents.prefix(2)) == [
            .time(localSeconds: CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41).secondsSinceEpoch),
            .timeZone(seconds: 2 * 3600),
        ])
        var types: [String] = []
        for case .message(let json) in s.androidEvents {
            let t = json.split(separator: ",").first.map(String.init) ?? ""
            if !types.contains(t) { types.append(t) }
        }
        for t in ["notify", "notify-", "call", "weather", "calendar", "musicinfo", "musicstate", "find"] {
            #expect(types.contains("{\"t\":\"\(t)\""), "\(t)")
        }
        #expect(s.buttonSteps.map(\.role) == [
            .negative, .positive, .negative, .back, .negative, .positive, .back,
            // a reply from a notification's menu; the watch menu's Weather (down past Alarms, Timer, Stopwatch) and Agenda
            .back, .negative, .positive, .positive, .negative,
            .negative, .down, .down, .down, .positive, .negative, .positive, .positive, .negative, .negative,
        ])
        #expect(s.length == .milliseconds(50_500) && Self.frames >= 505)
    }

    @Test func androidStepsShareTheTimelineWithButtons() throws {
        let s = try DemoScenario.parse("""
            phone android   # a Gadgetbridge phone
            time 2024-05-01T09:41:00
            timezone -3.5
            wait 1s
            gb {"t":"notify","id":7,"src":"Slack","title":"#general","body":"Hi } there"}  
            press negative
            wait 500ms
            gb  {"t":"find","n":true}
            """)
        #expect(s.androidEvents == [
            .time(localSeconds: CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41).secondsSinceEpoch),
            .timeZone(seconds: -12600),
            .wait(.seconds(1)),
            .message(##"{"t":"notify","id":7,"src":"Slack","title":"#general","body":"Hi } there"}"##),
            .wait(.milliseconds(500)),
            .message(#"{"t":"find","n":true}"#),
        ])
        #expect(s.buttonSteps == [.init(at: .seconds(1), role: .negative, press: .press)])
        #expect(s.length == .milliseconds(1500))
        #expect(s.scaled(by: 2).androidEvents[2] == .wait(.milliseconds(500)))
        #expect(try DemoScenario.parse("phone iphone\nadd uid=1").phone == .iPhone)
    }

    @Test func androidScenarioErrorsNameTheFileAndLine() {
        let cases: [(String, String)] = [
            ("wait 1s\nphone android", "x.scenario:2: phone must be the first step"),
            ("phone windows", "x.scenario:1: phone needs iphone or android"),
            ("phone android\ngb {\"id\":1}", "x.scenario:2: gb: needs an object with a \"t\" string"),
            ("phone android\nwait 1s\ngb {\"t\":\"find\",}", "x.scenario:3: gb: not JSON"),
            ("phone android\ngb {\"t\":\"find\"} # no comment here", "x.scenario:2: gb: not JSON"),
            ("phone android\ngb", "x.scenario:2: gb: needs a JSON object"),
            ("phone android\ntimezone 2.1", "x.scenario:2: timezone needs hours east of UTC"),
            ("phone android\ntime 09:41", "x.scenario:2: time needs yyyy-MM-ddTHH:mm:ss"),
            ("phone android\nadd uid=1", "x.scenario:2: unknown Android step add"),
            ("phone android\npress elbow", "x.scenario:2: press needs a button"),
        ]
        for (text, message) in cases {
            do {
                _ = try DemoScenario.parse(text, file: "x.scenario")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.message.hasPrefix(message), "\(error.message)")
                #expect(error.exitCode == WristCoreExit.usageOrConfiguration)
            }
        }
    }

    @Test func theAndroidScenarioPlaysOnTheSimulatedBoard() throws {
        let runner = DemoRunner(board: BoardLoader.builtInSimulated, options: .init(scenario: try Self.androidScenario()), logger: Self.quietLogger)
        var phone: SimulatedAndroidPhone?
        var motorStarts = 0
        runner.daemonHandler = { daemon in
            phone = (daemon.devices as? SimulatedBoardDevices)?.builtInAndroidPhone
            let motor = daemon.watch!.motor!
            let previous = motor.stateHandler
            motor.stateHandler = { on, at in
                previous?(on, at)
                if on { motorStarts += 1 }
            }
        }
        var clock: (TimeSource, Int?)?
        var titles: [Int: [String]] = [:]
        var messages: [String] = []
        var kinds: [PhoneSession.PhoneKind?] = []
        runner.watchHandler = { frame, watch in
            if frame == 5 { clock = (watch.timeSource, watch.minuteOfDay) }
            guard [20, 50, 95].contains(frame) else { return }
            kinds.append(watch.session?.phoneKind)
            watch.notifications.forEachNotification(newestFirst: false) {
                titles[frame, default: []].append($0.title ?? "")
                messages.append($0.message ?? "")
            }
        }
        try runner.runHeadless(frames: Self.frames)

        // Gadgetbridge's clock line: 09:41 in UTC+2, kept as the phone's local time.
        #expect(clock?.0 == .phone && clock?.1 == 9 * 60 + 41, "\(String(describing: clock))")
        #expect(kinds == [.android, .android, .android])
        // Cyrillic and an emoji (\u escapes, a surrogate pair), accents (raw Latin-1 and \x escapes), decoded.
        #expect(titles[20] == ["Аня"])
        #expect(titles[50] == ["Аня", "René Müller"])
        #expect(messages.contains("Привет! Обедаем в час? 🍝"))
        #expect(messages.contains("Réservé à 19h30, près de la fenêtre. À demain !"))
        // Dismissed on the watch (id 2), withdrawn by the phone (id 1).
        #expect(titles[95] == nil)
        #expect(motorStarts >= 4, "two notifications, two calls and Find watch buzz: \(motorStarts)")

        let p = try #require(phone)
        #expect(p.replies.first?.hasPrefix(#"{"t":"ver","fw":"WristCore "#) == true)
        for reply in [
            #"{"t":"notify","id":2,"n":"DISMISS"}"#, #"{"t":"call","n":"ACCEPT"}"#, #"{"t":"call","n":"REJECT"}"#,
            #"{"t":"music","n":"playpause"}"#, #"{"t":"notify","id":3,"n":"REPLY","msg":"OK"}"#,
        ] {
            #expect(p.replies.contains(reply), "\(reply) in \(p.replies)")
        }
        #expect(p.log.contains("phone ← " + #"{"t":"notify","id":2,"n":"DISMISS"}"#))
        #expect(p.log.contains("phone → setTime(1714549260);E.setTimeZone(2.0);"))
        #expect(p.log.count <= SimulatedAndroidPhone.logCapacity)
    }

    @Test func androidFramesMatchTheGoldenKeyMoments() throws {
        let runner = DemoRunner(board: BoardLoader.builtInSimulated, options: .init(scenario: try Self.androidScenario()), logger: Self.quietLogger)
        var frames: [Int: MonoImage] = [:]
        let keyMoments = [
            5: "android-clock", 15: "android-notification", 45: "android-email", 115: "android-call",
            215: "android-clock-weather-calendar", 240: "android-now-playing", 300: "android-find",
            385: "android-reply-picker", 420: "android-watch-menu", 440: "android-weather", 480: "android-agenda",
        ]
        runner.frameHandler = { index, image in if keyMoments[index] != nil { frames[index] = image } }
        try runner.runHeadless(frames: 481)
        #expect(frames.count == keyMoments.count)
        for (index, name) in keyMoments.sorted(by: { $0.key < $1.key }) {
            try Golden.compare(pbm: Array(frames[index]!.pbmPlain().utf8), file: "\(name).pbm")
        }
    }
}
