/// SSD1306: most 0.96" modules: 128x64 or 128x32, internal charge pump, window addressing.
/// Init values from the controller's datasheet.
extension ControllerFamily {
    public static let ssd1306 = ControllerFamily(declaring: "ssd1306")
}

extension ControllerSpec {
    /// SSD1306, 128x64, internal charge pump.
    public static let ssd1306_128x64 = ControllerSpec(
        name: "ssd1306-128x64", family: .ssd1306, width: 128, height: 64, ramColumns: 128, columnOffset: 0,
        addressing: .horizontalWindow,
        initCommands: [
            0xD5, 0x80,   // display clock: divide ratio 1, oscillator 8 (reset value)
            0xA8, 0x3F,   // multiplex ratio 64
            0xD3, 0x00,   // display offset 0
            0x40,         // display start line 0
            0x8D, 0x14,   // charge pump on (panel powered from VCC of the module)
            0x20, 0x00,   // horizontal addressing mode
            0xDA, 0x12,   // COM pins: alternative configuration, no left/right remap (64 rows)
            0xD9, 0xF1,   // pre-charge: phase 1 = 1 clock, phase 2 = 15 clocks
            0xDB, 0x30,   // VCOMH deselect ~0.83 x VCC
            0x2E,         // scrolling off
            0xA4,         // show RAM content
        ],
        defaultContrast: 0xCF)

    /// SSD1306, 128x32, internal charge pump.
    public static let ssd1306_128x32 = ControllerSpec(
        name: "ssd1306-128x32", family: .ssd1306, width: 128, height: 32, ramColumns: 128, columnOffset: 0,
        addressing: .horizontalWindow,
        initCommands: [
            0xD5, 0x80,
            0xA8, 0x1F,   // multiplex ratio 32
            0xD3, 0x00,
            0x40,
            0x8D, 0x14,
            0x20, 0x00,
            0xDA, 0x02,   // COM pins: sequential configuration (32 rows)
            0xD9, 0xF1,
            0xDB, 0x30,
            0x2E,
            0xA4,
        ],
        defaultContrast: 0x8F)
}
