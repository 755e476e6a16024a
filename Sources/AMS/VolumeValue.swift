/// The Player's Volume value: "0.0" ... "1.0" as decimal text, as a whole
/// percentage (rounded). Empty text is nil; anything above 1.0 or below 0
/// is out of range.
public enum VolumeValue {
    public static func percent(parsing text: UnsafeRawBufferPointer) throws(AMSParseError) -> Int8? {
        guard let p = try DecimalText.parse(text, scale: 2, field: .volume) else { return nil }
        guard p >= 0, p <= 100 else { throw .outOfRange(field: .volume) }
        return Int8(p)
    }
}
