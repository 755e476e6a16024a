/// The Track's Duration value: seconds as decimal text ("213.42"), in
/// milliseconds. Empty text is nil (a live stream has no duration);
/// a negative duration is out of range.
public enum DurationValue {
    public static func milliseconds(parsing text: UnsafeRawBufferPointer) throws(AMSParseError) -> Int64? {
        guard let ms = try DecimalText.parse(text, scale: 3, field: .duration) else { return nil }
        guard ms >= 0 else { throw .outOfRange(field: .duration) }
        return ms
    }
}
