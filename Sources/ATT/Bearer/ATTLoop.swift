import HAL
import RunLoop

/// The descriptor-watching half of what the bearer needs from a run loop
/// (the timer half is RunLoop's `TimerScheduling`). `EventLoop` provides both;
/// anything else that can watch a descriptor (a test harness, another loop)
/// can host a bearer too.
public protocol IOWatching: AnyObject {
    func addSource(fd: Int32, events: IOEvents, _ handler: @escaping (IOEvents) -> Void) throws(HALError) -> SourceID
    func updateSource(_ id: SourceID, events: IOEvents) throws(HALError)
    func removeSource(_ id: SourceID)
}

extension EventLoop: IOWatching {}

/// A loop that can host a bearer.
public typealias ATTLoop = IOWatching & TimerScheduling
