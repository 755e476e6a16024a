import Graphics
import LinuxLoop
import TextFormat

/// What the bench tools (the demo and the self-test, a module above this
/// one) use of the composition root, so they run exactly as the daemon
/// does: its event loop, its endpoint syntax, what its panel shows.
extension WatchDaemon {
    /// The daemon's run loop: every catchable terminating signal goes
    /// through its shutdown steps (motor off).
    public static func signalHandlingLoop() throws(WristCoreFailure) -> EpollLoop {
        try makeLoop()
    }

    /// The path of a `unix:PATH` endpoint option (`--harness`, `--phone`).
    public static func unixEndpointPath(_ spec: String?, flag: String) throws(WristCoreFailure) -> String? {
        try PathText.unixEndpoint(spec, flag: flag)
    }

    /// What the panel shows while running (nil before `start` and after `stop`).
    public var shownImage: MonoImage? {
        watch.map { screenImage($0) }
    }
}
