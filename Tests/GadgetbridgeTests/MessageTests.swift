import Gadgetbridge
import Testing

func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

/// Decodes the `GB(...)` line and describes the message in one string.
func describe(_ line: String) -> String {
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBytes { raw -> String in
        guard case .message(let json) = GadgetbridgeLine(raw) else { return "not a message" }
        let reader = JSONReader()
        do {
            let value = try reader.read(json)
            switch try GadgetbridgeMessage(value) {
            case .notify(let n):
                return "notify \(n.id) src=\(text(n.source)) title=\(text(n.title)) subject=\(text(n.subject)) body=\(text(n.body)) sender=\(text(n.sender))"
            case .notifyRemoved(let id): return "notify- \(id)"
            case .call(let c): return "call \(c.command) name=\(text(c.name)) number=\(text(c.number))"
            case .musicInfo(let m):
                return "musicinfo \(text(m.artist))/\(text(m.album))/\(text(m.track)) \(m.durationSeconds.map { "\($0)" } ?? "-")"
            case .musicState(let m): return "musicstate \(m.state) \(m.positionSeconds.map { "\($0)" } ?? "-")"
            case .find(let on): return "find \(on)"
            case .vibrate(let n): return "vibrate \(n)"
            case .weather(let w):
                return "weather \(w.temperatureKelvin ?? -1) \(w.highKelvin ?? -1)/\(w.lowKelvin ?? -1) hum=\(w.humidity ?? -1) wind=\(w.windKmh ?? -1)@\(w.windDirection ?? -1) code=\(w.code ?? -1) \(text(w.text)) @\(text(w.location))"
            case .calendar(let c):
                return "calendar \(c.id) at=\(c.start) for=\(c.durationSeconds) allDay=\(c.allDay) \(text(c.title)) @\(text(c.location))"
            case .calendarRemoved(let ids):
                var list: [Int64] = ids.integer.map { [$0] } ?? []
                ids.forEachElement { if let id = $0.integer { list.append(id) } }
                return "calendar- \(list)"
            case .calendarSyncRequested: return "force_calendar_sync_start"
            case .alarms(let list): return "alarm \(list.elementCount)"
            case .unsupported(let t): return "unsupported \(text(t))"
            }
        } catch let e as JSONError {
            return "json \(e)"
        } catch {
            return "decode \(error)"
        }
    }
}

@Suite struct GadgetbridgeMessageTests {
    // Lines as Gadgetbridge's BangleJSDeviceSupport writes them (uartTxJSON:
    // "\u0010GB(" + json + ")\n"; the assembler takes off the "\n").
    @Test func notifications() {
        #expect(describe(#"\#u{10}GB({"t":"notify","id":1234,"src":"Messages","title":"Ada","subject":"","body":"Lunch at 1?","sender":"Ada"})"#)
            == "notify 1234 src=Messages title=Ada subject= body=Lunch at 1? sender=Ada")
        #expect(describe(#"\#u{10}GB({"t":"notify","id":-5,"body":"no title"})"#) == "notify -5 src= title= subject= body=no title sender=")
        #expect(describe(#"\#u{10}GB({"t":"notify-","id":1234})"#) == "notify- 1234")
        #expect(describe(#"\#u{10}GB({"t":"notify","title":"no id"})"#) == "decode noID")
    }

    @Test func callsMusicFindVibrate() {
        #expect(describe(#"GB({"t":"call","cmd":"incoming","name":"Bob","number":"+4912345"})"#) == "call incoming name=Bob number=+4912345")
        #expect(describe(#"GB({"t":"call","cmd":"end"})"#) == "call end name= number=")
        #expect(describe(#"GB({"t":"call","cmd":"what"})"#) == "call other name= number=")
        #expect(describe(#"GB({"t":"musicinfo","artist":"A","album":"B","track":"C","dur":215,"c":1,"n":2})"#) == "musicinfo A/B/C 215")
        #expect(describe(#"GB({"t":"musicstate","state":"play","position":12,"shuffle":1,"repeat":0})"#) == "musicstate play 12")
        #expect(describe(#"GB({"t":"find","n":true})"#) == "find true")
        #expect(describe(#"GB({"t":"vibrate","n":3})"#) == "vibrate 3")
        #expect(describe(#"GB({"t":"vibrate","n":999})"#) == "vibrate 10")
        #expect(describe(#"GB({"t":"nav","distance":"200m"})"#) == "unsupported nav")
    }

    // Gadgetbridge's onSendWeather and onAddCalendarEvent, their exact keys.
    @Test func weatherAndCalendar() {
        #expect(describe(#"\#u{10}GB({"t":"weather","temp":288,"hi":291,"lo":282,"hum":72,"rain":20,"uv":3,"code":802,"txt":"scattered clouds","wind":12.5,"wdir":230,"loc":"Berlin"})"#)
            == "weather 288 291/282 hum=72 wind=12@230 code=802 scattered clouds @Berlin")
        #expect(describe(#"GB({"t":"weather","v":1,"temp":290})"#) == "weather 290 -1/-1 hum=-1 wind=-1@-1 code=-1  @")
        #expect(describe(#"\#u{10}GB({"t":"calendar","id":5678,"type":0,"timestamp":1735732800,"durationInSeconds":3600,"title":"Standup","description":"","location":"Room 1","calName":"Work","color":-16776961,"allDay":false})"#)
            == "calendar 5678 at=1735732800 for=3600 allDay=false Standup @Room 1")
        #expect(describe(#"GB({"t":"calendar","id":1,"timestamp":1735689600,"durationInSeconds":-5,"title":"Holiday","allDay":true})"#)
            == "calendar 1 at=1735689600 for=0 allDay=true Holiday @")
        #expect(describe(#"GB({"t":"calendar","title":"no id","timestamp":1})"#) == "decode noID")
        #expect(describe(#"GB({"t":"calendar","id":1,"title":"no time"})"#) == "decode noID")
        #expect(describe(#"GB({"t":"calendar-","id":5678})"#) == "calendar- [5678]")
        #expect(describe(#"GB({"t":"calendar-","id":[5678,5679,"x"]})"#) == "calendar- [5678, 5679]")
        #expect(describe(#"GB({"t":"force_calendar_sync_start"})"#) == "force_calendar_sync_start")
        #expect(describe(#"GB({"t":"alarm","d":[{"h":7,"m":30,"rep":31,"on":true},{"h":9,"m":0,"rep":0,"on":false}]})"#) == "alarm 2")
        #expect(describe(#"GB({"t":"alarm","d":{}})"#) == "decode noID")
    }

    @Test func notAMessage() {
        #expect(describe(#"GB({"x":1})"#) == "decode noType")
        #expect(describe(#"GB([1,2])"#) == "decode noType")
        #expect(describe(#"GB({"t":1})"#) == "decode noType")
        #expect(describe(#"GB({"t":"notify",)"#) == "json the line ends inside a value")
        #expect(describe(#"GB({"t":"notify",,})"#) == "json unexpected byte 0x2C at 14")
    }

    @Test func replies() {
        func line(_ reply: GadgetbridgeReply) -> String {
            var buffer = [UInt8](repeating: 0, count: GadgetbridgeReply.maxLength)
            let n = buffer.withUnsafeMutableBytes { reply.encode(into: $0) }
            return String(decoding: buffer[..<n], as: UTF8.self)
        }
        #expect(line(.notification(id: 1234, .dismiss)) == "{\"t\":\"notify\",\"id\":1234,\"n\":\"DISMISS\"}\r\n")
        #expect(line(.notification(id: -9_223_372_036_854_775_808, .open))
            == "{\"t\":\"notify\",\"id\":-9223372036854775808,\"n\":\"OPEN\"}\r\n")
        #expect(line(.call(.reject)) == "{\"t\":\"call\",\"n\":\"REJECT\"}\r\n")
        #expect(line(.music(.volumeUp)) == "{\"t\":\"music\",\"n\":\"volumeup\"}\r\n")
        #expect(line(.findPhone(true)) == "{\"t\":\"findPhone\",\"n\":true}\r\n")
        #expect(line(.version("WristCore 1.0 \"x\"")) == "{\"t\":\"ver\",\"fw\":\"WristCore 1.0 _x_\",\"hw\":\"WristCore\"}\r\n")
        func reply(_ text: String) -> String {
            var t = text
            return t.withUTF8 { line(.reply(id: 7, text: UnsafeRawBufferPointer($0))) }
        }
        // ASCII only: Gadgetbridge reads ISO-8859-1, so the text goes as JSON escapes.
        #expect(reply("On my way") == "{\"t\":\"notify\",\"id\":7,\"n\":\"REPLY\",\"msg\":\"On my way\"}\r\n")
        #expect(reply("Caf\u{e9} \"5\" \\ \u{4F60}\u{1F600}")
            == #"{"t":"notify","id":7,"n":"REPLY","msg":"Caf\u00e9 \"5\" \\ \u4f60\ud83d\ude00"}"# + "\r\n")
        #expect(reply(String(repeating: "\u{1F600}", count: 40)).utf8.count <= GadgetbridgeReply.maxLength)
        #expect(line(.notification(id: 7, .mute)) == "{\"t\":\"notify\",\"id\":7,\"n\":\"MUTE\"}\r\n")
        // The watch's battery, as a Bangle.js reports it (BangleJSDeviceSupport.handleBatteryStatus).
        #expect(line(.status(percent: 82, charging: false, millivolts: nil)) == "{\"t\":\"status\",\"bat\":82,\"chg\":0}\r\n")
        #expect(line(.status(percent: 100, charging: true, millivolts: 4105)) == "{\"t\":\"status\",\"bat\":100,\"chg\":1,\"volt\":4.105}\r\n")
        #expect(line(.status(percent: 5, charging: false, millivolts: 3007)) == "{\"t\":\"status\",\"bat\":5,\"chg\":0,\"volt\":3.007}\r\n")
        #expect(line(.status(percent: 250, charging: false, millivolts: 3070)) == "{\"t\":\"status\",\"bat\":100,\"chg\":0,\"volt\":3.070}\r\n")
        var ids = GadgetbridgeReply.CalendarIDs()
        #expect(line(.calendarSync(ids)) == "{\"t\":\"force_calendar_sync\",\"ids\":[]}\r\n")
        ids.append(5678)
        ids.append(-1)
        #expect(line(.calendarSync(ids)) == "{\"t\":\"force_calendar_sync\",\"ids\":[5678,-1]}\r\n")
        // Full: 16 of the longest ids fit the reply buffer, the 17th is left out.
        var full = GadgetbridgeReply.CalendarIDs()
        for _ in 0..<17 { full.append(Int64.min) }
        #expect(full.count == 16)
        let longest = line(.calendarSync(full))
        #expect(longest.hasSuffix("]}\r\n") && longest.utf8.count <= GadgetbridgeReply.maxLength)
    }
}
