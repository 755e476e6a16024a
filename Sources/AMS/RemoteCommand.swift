/// The Remote Command characteristic in both directions: the watch writes
/// one RemoteCommandID byte; the phone notifies the list of the IDs its
/// player supports now (one byte each, possibly empty).
public enum RemoteCommand {
    /// Writes the command's one byte; nil if `buffer` is empty.
    public static func encode(_ id: RemoteCommandID, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard buffer.count >= 1 else { return nil }
        buffer[0] = id.rawValue
        return 1
    }

    /// The supported commands in a Remote Command notification. IDs the
    /// specification does not define are ignored; never fails.
    public static func supportedCommands(parsing bytes: UnsafeRawBufferPointer) -> RemoteCommands {
        var set = RemoteCommands()
        for b in bytes {
            if let id = RemoteCommandID(rawValue: b) { set.insert(id) }
        }
        return set
    }

    /// A Remote Command notification listing `commands` (the phone's side):
    /// returns the byte count, nil if `buffer` is too small.
    public static func encodeSupported(_ commands: RemoteCommands, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var n = 0
        for id in RemoteCommandID.allCases where commands.contains(id) {
            guard n < buffer.count else { return nil }
            buffer[n] = id.rawValue
            n += 1
        }
        return n
    }
}
