/// SH1106: most 1.3" modules: 128x64 on a 132-column RAM, page addressing only.
/// Init values from the controller's datasheet.
extension ControllerFamily {
    public static let sh1106 = ControllerFamily(declaring: "sh1106")
}

extension ControllerSpec {
    /// SH1106, 128x64 on a 132-column RAM, page addressing only.
    public static let sh1106_128x64 = ControllerSpec(
        name: "sh1106-128x64", family: .sh1106, width: 128, height: 64, ramColumns: 132, columnOffset: 2,
        addressing: .pageOnly,
        initCommands: [
            0xD5, 0x80,   // display clock (reset value 0x50 is slower; 0x80 = +15 % oscillator)
            0xA8, 0x3F,
            0xD3, 0x00,
            0x40,
            0xAD, 0x8B,   // DC-DC converter on
            0x32,         // pump voltage 8.0 V
            0xDA, 0x12,   // COM pads: alternative (reset value)
            0xD9, 0x22,   // discharge / pre-charge 2 / 2 clocks (reset value)
            0xDB, 0x35,   // VCOM deselect level (reset value)
            0xA4,
        ],
        defaultContrast: 0x80)
}
