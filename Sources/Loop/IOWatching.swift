import HAL

/// The descriptor-watching half of a run loop (the timer half is
/// `TimerScheduling`). Code above the HAL never reads or writes a descriptor:
/// it hands one it got from a HAL object (a `PacketChannel`'s
/// `pollDescriptor`, a button line's) to the loop and is called back.
public protocol IOWatching: AnyObject {
    /// Watches `fd` for `events`; the handler gets the events that occurred
    /// (hang-up and error are always reported). The loop never closes `fd`.
    @discardableResult
    func addSource(fd: Int32, events: IOEvents, _ handler: @escaping (IOEvents) -> Void) throws(HALError) -> SourceID
    /// Changes what a source waits for (for example adding `.writable` while output is queued).
    func updateSource(_ id: SourceID, events: IOEvents) throws(HALError)
    /// Stops watching. Safe at any time, including from the source's own handler.
    func removeSource(_ id: SourceID)
}
