import Graphics
import HAL
import Timekeeping

// The alarm, timer and stopwatch screens (issue 25 item 4). PLACEHOLDER:
// drawn as plain notices until the real screens land.
extension ScreenRenderer {
    func drawAlarms(_ view: TimekeepingView?, selected: Int, status: StatusInfo, into fb: Framebuffer) {
        drawNotice(StaticString("Alarms").rawBytes, status: status, into: fb)
    }

    func drawAlarmEditor(_ draft: AlarmDraft, status: StatusInfo, into fb: Framebuffer) {
        drawNotice(StaticString("Alarm").rawBytes, status: status, into: fb)
    }

    func drawRinging(_ alert: RingingAlert, into fb: Framebuffer) {
        drawNotice(StaticString("Ringing").rawBytes, status: StatusInfo(time: nil, link: .off, unread: 0), into: fb)
    }

    func drawTimer(_ view: TimekeepingView?, status: StatusInfo, into fb: Framebuffer) {
        drawNotice(StaticString("Timer").rawBytes, status: status, into: fb)
    }

    func drawStopwatch(_ view: TimekeepingView?, status: StatusInfo, into fb: Framebuffer) {
        drawNotice(StaticString("Stopwatch").rawBytes, status: status, into: fb)
    }
}
