/// The control byte that starts every transaction to an SSD1306-family
/// controller: it says whether the following bytes are commands or display data.
public enum I2CRun: UInt8, Sendable {
    /// Co = 0, D/C# = 0: every following byte is a command byte.
    case commands = 0x00
    /// Co = 0, D/C# = 1: every following byte goes to display RAM.
    case data = 0x40
}
