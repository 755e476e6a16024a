// libFuzzer target: the AMS value parsers (Entity Update, Remote Command
// list, PlaybackInfo, Volume, Duration). The first byte picks the parser,
// the rest is the phone's bytes. Each must decode or throw its typed error,
// and what it decodes must lie in range. Never trap.
import AMS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let which = data[0]
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    switch which % 5 {
    case 0:
        do throws(AMSParseError) {
            let u = try EntityUpdateNotification(parsing: input)
            precondition(input.count >= 3 && u.value.count == input.count - 3)
            precondition(u.entityIDRaw == input[0] && u.attributeIDRaw == input[1] && u.flags.rawValue == input[2])
        } catch {
            precondition(error == .entityUpdateTooShort(input.count) && input.count < 3)
        }
    case 1:
        let set = RemoteCommand.supportedCommands(parsing: input)
        precondition(set.rawValue & ~0x3FFF == 0, "only defined commands")
    case 2:
        if let info = try? PlaybackInfo(parsing: input) {
            if let e = info.elapsedMilliseconds { precondition(e >= 0) }
        }
    case 3:
        if let p = try? VolumeValue.percent(parsing: input) { precondition(p >= 0 && p <= 100) }
    default:
        if let ms = try? DurationValue.milliseconds(parsing: input) { precondition(ms >= 0) }
    }
    return 0
}
