import Testing
@testable import LinuxHAL

@Suite("StandardErrorLog")
struct StandardErrorLogTests {
    @Test("the timestamp is ISO 8601 local time with a numeric offset, as swift-log printed it")
    func timestampShape() {
        // 2026-11-26T00:12:34+0000: digits where the pattern has 9, the rest literally.
        let stamp = StandardErrorLog.timestamp()
        let pattern = "9999-99-99T99:99:99+9999"
        #expect(stamp.utf8.count == pattern.utf8.count, "\(stamp)")
        for (c, p) in zip(stamp, pattern) {
            switch p {
            case "9": #expect(c.isNumber, "\(stamp)")
            case "+": #expect(c == "+" || c == "-", "\(stamp)")
            default: #expect(c == p, "\(stamp)")
            }
        }
    }
}
