import Benchmark
import Display
import Graphics
import HAL
import LinuxHAL
import SimBoard

// The display budgets: only what changed goes on the bus (a clock tick is one
// or two pages, not the 1,025+ data bytes of a full frame), and rendering and
// flushing allocate nothing in steady state. Bytes are counted after the I2C
// address byte: control bytes + commands + display data, as i2c-dev sends them.
//
// Custom metrics (per operation): "bus bytes", "bus transactions", "pages sent".
// The bus is the simulated board's emulated SSD1306 (SimBoard's
// `EmulatedI2CDisplay`, fed the driver's raw I2C messages), so wall-clock
// figures include the emulator decoding every byte (a real 400 kHz bus is far
// slower: about 23 us per byte).

let busBytes = BenchmarkMetric.custom("bus bytes", polarity: .prefersSmaller, useScalingFactor: false)
let busTransactions = BenchmarkMetric.custom("bus transactions", polarity: .prefersSmaller, useScalingFactor: false)
let pagesSent = BenchmarkMetric.custom("pages sent", polarity: .prefersSmaller, useScalingFactor: false)

/// The shipped fonts, read from the package's own Fonts/ (Graphics parses the
/// bytes LinuxHAL reads).
var fontLoader: FontLoader { FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent) }

/// A watch with an emulated SSD1306 128x64 on its bus.
final class Watch {
    let bus: EmulatedI2CDisplay
    let driver: OLEDDriver
    let fb = Framebuffer(width: 128, height: 64)
    let clock: FontChain
    let small: FontChain
    let text: FontChain
    let layout = TextLayout(capacity: 256)
    /// "12:34" as bytes, edited in place each minute (no String per tick).
    var clockDigits: [UInt8] = Array("12:34".utf8)
    var minute = 34

    init(smbus: Bool = false) throws {
        bus = EmulatedI2CDisplay(panel: .ssd1306_128x64, smbusOnly: smbus)
        driver = OLEDDriver(spec: .ssd1306_128x64, transport: bus)
        clock = FontChain(try fontLoader.load(.large))
        let cjk = try fontLoader.load(.cjk)
        small = FontChain(try fontLoader.load(.small), cjk)
        text = FontChain(try fontLoader.load(.body), cjk)
        try driver.initialize()
    }

    /// The clock face: time in 10x20, date and status in 6x10.
    func drawFace() {
        fb.clear()
        drawClock()
        fb.drawText("Sun 22 Nov", fonts: small, x: 34, y: 40)
        fb.drawText("BLE  3 new", fonts: small, x: 34, y: 52)
        fb.hline(x0: 0, x1: 127, y: 36)
    }

    /// Redraws only the clock's area. The digits' ink sits in rows 8...22
    /// (pages 1 and 2).
    func drawClock() {
        let area = Rect(x: 0, y: 4, width: 128, height: 28)
        fb.fill(area, .off)
        clockDigits.withUnsafeBytes { raw in
            let w = TextLayout.measure(raw, fonts: clock)
            TextLayout.draw(raw, 0..<raw.count, fonts: clock, into: fb, x: (128 - w) / 2, baselineY: 22)
        }
    }

    func tick() {
        minute = (minute + 1) % 60
        clockDigits[3] = UInt8(ascii: "0") + UInt8(minute / 10)
        clockDigits[4] = UInt8(ascii: "0") + UInt8(minute % 10)
        drawClock()
    }

    /// A notification card: an inverted title bar, then the message wrapped
    /// with an ellipsis.
    func drawCard(title: String, message: String) {
        fb.clear()
        fb.fill(Rect(x: 0, y: 0, width: 128, height: 13))
        fb.drawText(title, fonts: text, x: 2, y: 1, ink: .off)
        layout.layout(message, fonts: text, width: 124, maxLines: 3)
        layout.draw(message, fonts: text, into: fb, x: 2, y: 14)
    }

    /// Message body lines `first ..< first + 3` below the title bar (the
    /// message must have been laid out already).
    func drawBody(_ message: String, first: Int) {
        fb.fill(Rect(x: 0, y: 14, width: 128, height: 50), .off)
        layout.draw(message, fonts: text, into: fb, x: 2, y: 14, firstLine: first, maxLines: 3)
    }

    func record(_ benchmark: Benchmark, operations: Int, bytes: Int, transactions: Int, pages: Int) {
        let n = max(1, operations)
        benchmark.measurement(busBytes, bytes / n)
        benchmark.measurement(busTransactions, transactions / n)
        benchmark.measurement(pagesSent, pages / n)
    }
}

let cards: [(String, String)] = [
    ("Messages", "Anna: Are we still on for lunch tomorrow at 12:30? I booked the place by the river."),
    ("WeChat", "妈妈：晚上回家吃饭吗？我做了你最喜欢的红烧肉，记得早点回来。"),
    ("LINE", "田中さん：明日の会議は十時からです。資料を忘れないでください。"),
    ("KakaoTalk", "민지: 오늘 저녁에 시간 있어? 새로 생긴 식당에 가 보자!"),
]

let longMessage = """
    Meeting notes: the display driver now sends only the pages that changed. \
    A clock tick costs one or two pages instead of a full frame, the emulator \
    checks every byte, and the fonts cover Chinese, Japanese, Korean, Vietnamese \
    (Tiếng Việt) and emoji 😀. 会议记录：显示驱动只发送变化的页面。 \
    Thanks everyone, see you next week!
    """

let benchmarks: @Sendable () -> Void = {
    daemonScreenBenchmarks()
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput, busBytes, busTransactions, pagesSent]
    let config = Benchmark.Configuration(metrics: metrics, scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 20_000)

    Benchmark("Display: full frame flush (reference)", configuration: config) { benchmark in
        let watch = try Watch()
        watch.drawFace()
        try watch.driver.flush(watch.fb)
        let before = watch.driver.totals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try watch.driver.flush(watch.fb, full: true)
        }
        benchmark.stopMeasurement()
        let t = watch.driver.totals
        let n = benchmark.scaledIterations.count
        watch.record(benchmark, operations: n, bytes: t.busBytes - before.busBytes,
                     transactions: t.transactions - before.transactions, pages: t.pages - before.pages)
    }

    for smbus in [false, true] {
        Benchmark("Display: clock minute tick, render + flush\(smbus ? " (SMBus 32-byte adapter)" : "")", configuration: config) { benchmark in
            let watch = try Watch(smbus: smbus)
            watch.drawFace()
            try watch.driver.flush(watch.fb)
            for _ in 0..<120 { watch.tick(); try watch.driver.flush(watch.fb) }   // warm up
            let before = watch.driver.totals
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                watch.tick()
                try watch.driver.flush(watch.fb)
            }
            benchmark.stopMeasurement()
            let t = watch.driver.totals
            let n = benchmark.scaledIterations.count
            watch.record(benchmark, operations: n, bytes: t.busBytes - before.busBytes,
                         transactions: t.transactions - before.transactions, pages: t.pages - before.pages)
        }
    }

    Benchmark("Display: new notification card, render + flush", configuration: config) { benchmark in
        let watch = try Watch()
        watch.drawFace()
        try watch.driver.flush(watch.fb)
        var k = 0
        for _ in 0..<8 { watch.drawCard(title: cards[k % 4].0, message: cards[k % 4].1); try watch.driver.flush(watch.fb); k += 1 }
        let before = watch.driver.totals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let card = cards[k & 3]
            watch.drawCard(title: card.0, message: card.1)
            try watch.driver.flush(watch.fb)
            k += 1
        }
        benchmark.stopMeasurement()
        let t = watch.driver.totals
        let n = benchmark.scaledIterations.count
        watch.record(benchmark, operations: n, bytes: t.busBytes - before.busBytes,
                     transactions: t.transactions - before.transactions, pages: t.pages - before.pages)
    }

    Benchmark("Display: scroll a message by one line, render + flush", configuration: config) { benchmark in
        let watch = try Watch()
        watch.drawCard(title: "Mail", message: longMessage)
        watch.layout.layout(longMessage, fonts: watch.text, width: 124)
        let lines = watch.layout.lineCount
        try watch.driver.flush(watch.fb)
        var first = 0
        for _ in 0..<lines { first = (first + 1) % (lines - 2); watch.drawBody(longMessage, first: first); try watch.driver.flush(watch.fb) }
        let before = watch.driver.totals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            first = (first + 1) % (lines - 2)
            watch.drawBody(longMessage, first: first)
            try watch.driver.flush(watch.fb)
        }
        benchmark.stopMeasurement()
        let t = watch.driver.totals
        let n = benchmark.scaledIterations.count
        watch.record(benchmark, operations: n, bytes: t.busBytes - before.busBytes,
                     transactions: t.transactions - before.transactions, pages: t.pages - before.pages)
    }

    Benchmark("Graphics: render a full screen of CJK text (layout + draw, 32 glyphs)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput], scalingFactor: .one,
                                   maxDuration: .seconds(2), maxIterations: 50_000)) { benchmark in
        let watch = try Watch()
        let text = "天气预报：今天晴转多云，最高气温二十五度，最低十六度。明天有小雨，出门记得带伞。"
        for _ in 0..<10 { watch.fb.clear(); watch.layout.layout(text, fonts: watch.text, width: 128, maxLines: 4); watch.layout.draw(text, fonts: watch.text, into: watch.fb, x: 0, y: 0) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            watch.fb.clear()
            watch.layout.layout(text, fonts: watch.text, width: 128, maxLines: 4)
            watch.layout.draw(text, fonts: watch.text, into: watch.fb, x: 0, y: 0)
        }
        benchmark.stopMeasurement()
        blackHole(watch.fb.storage[200])
    }

    Benchmark("Display: flush one changed page (mallocs per flush)", configuration: config) { benchmark in
        let watch = try Watch()
        watch.drawFace()
        try watch.driver.flush(watch.fb)
        for _ in 0..<10 { watch.fb.invert(Rect(x: 0, y: 48, width: 128, height: 8)); try watch.driver.flush(watch.fb) }
        let before = watch.driver.totals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            watch.fb.invert(Rect(x: 0, y: 48, width: 128, height: 8))
            try watch.driver.flush(watch.fb)
        }
        benchmark.stopMeasurement()
        let t = watch.driver.totals
        let n = benchmark.scaledIterations.count
        watch.record(benchmark, operations: n, bytes: t.busBytes - before.busBytes,
                     transactions: t.transactions - before.transactions, pages: t.pages - before.pages)
    }
}
