/// SSD1309: 128x64 with external VCC (many 1.3" and 2.42" modules): no charge pump, window addressing.
/// Init values from the controller's datasheet.
extension ControllerFamily {
    public static let ssd1309 = ControllerFamily(declaring: "ssd1309")
}

extension ControllerSpec {
    /// SSD1309, 128x64 (external VCC: there is no charge pump command).
    public static let ssd1309_128x64 = ControllerSpec(
        name: "ssd1309-128x64", family: .ssd1309, width: 128, height: 64, ramColumns: 128, columnOffset: 0,
        addressing: .horizontalWindow,
        initCommands: [
            0xFD, 0x12,   // command lock off (reset state, sent in case a previous run locked it)
            0xD5, 0xA0,   // display clock: divide ratio 1, oscillator 10
            0xA8, 0x3F,
            0xD3, 0x00,
            0x40,
            0x20, 0x00,
            0xDA, 0x12,
            0xD9, 0xF1,
            0xDB, 0x34,   // VCOMH deselect ~0.78 x VCC (reset value)
            0x2E,
            0xA4,
        ],
        defaultContrast: 0x8F)
}
