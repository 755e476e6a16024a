import Graphics
import HAL
import PhoneFeeds

extension ScreenRenderer {
    static let noWeather: StaticString = "No weather yet (Gadgetbridge sends it from a weather app)"

    /// The phone's last weather report: the place and when it came, the
    /// temperature and the condition, the day's high and low, humidity and
    /// wind. 128x32 drops the status bar and the wind.
    func drawWeather(_ report: WeatherReport?, status: StatusInfo, into fb: Framebuffer) {
        guard let report else { return drawNotice(Self.noWeather.rawBytes, status: status, into: fb) }
        let small = fonts.small
        var baseline = 8
        if !isCompact {
            drawStatusBar(status, into: fb)
            baseline = Self.statusBarHeight + 10
            placeAndTime(report)
            line(fb, scratch.bytes, small, x: 0, baseline: baseline, maxWidth: width, alignment: .center)
            baseline += 14
        }
        scratch.clear()
        appendTemperature(report.temperature, to: scratch)
        scratch.append(" ")
        report.summary.withUTF8 { _ = scratch.append($0) }
        line(fb, scratch.bytes, isCompact ? small : fonts.body, x: 0, baseline: baseline, maxWidth: width)
        baseline += isCompact ? 11 : 12
        scratch.clear()
        if let high = report.high, let low = report.low {
            scratch.append("H ")
            appendTemperature(high, to: scratch, unit: false)
            scratch.append(" L ")
            appendTemperature(low, to: scratch, unit: false)
            scratch.append("  ")
        }
        if let humidity = report.humidity { scratch.append("Hum ").append(decimal: humidity).append("%") }
        line(fb, scratch.bytes, small, x: 0, baseline: baseline, maxWidth: width)
        baseline += 11
        if isCompact {
            placeAndTime(report)
        } else {
            guard let wind = report.windKmh else { return }
            scratch.clear().append("Wind ").append(decimal: wind).append(" km/h")
            if let direction = report.windDirection { scratch.append(" ").append(WeatherReport.compassPoint(degrees: direction)) }
        }
        line(fb, scratch.bytes, small, x: 0, baseline: baseline, maxWidth: width)
    }

    /// "Berlin, 10:05" into `scratch`: where the report is for and when it came.
    private func placeAndTime(_ report: WeatherReport) {
        scratch.clear()
        report.location.withUTF8 { _ = scratch.append($0) }
        guard let at = report.receivedAt else { return }
        if !report.location.isEmpty { scratch.append(", ") }
        DateText.appendTime(CivilTime(secondsSinceEpoch: at), to: scratch)
    }

    /// "15°C", "-3°C" (or "15°" without the unit).
    func appendTemperature(_ celsius: Int, to out: TextScratch, unit: Bool = true) {
        if celsius < 0 { out.append("-") }
        out.append(decimal: celsius.magnitude > 999 ? 999 : Int(celsius.magnitude)).append(unit ? "°C" : "°")
    }
}
