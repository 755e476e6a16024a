import BoardConfig
import HAL
import Input
import Log
import Loop

/// The board's buttons: each role has a gesture recognizer (debounce, press,
/// long press, double press) fed with the edges of its `ButtonLine`: read when
/// the loop sees the line's descriptor readable (a GPIO line), or when the
/// line says edges were pushed (the simulated board; software presses).
public final class WatchButtons {
    public struct Button {
        public let role: ButtonRole
        let recognizer: ButtonRecognizer
        let line: (any ButtonLine)?
        var source: SourceID?
    }

    public private(set) var buttons: [Button] = []
    private let loop: EventLoop
    private let logger: Logger

    /// - Parameters:
    ///   - lines: the opened line of a role, if any.
    ///   - handler: called with every recognised gesture.
    public init(
        roles: [ButtonRole], lines: (ButtonRole) -> (any ButtonLine)?, timing: ButtonTiming, loop: EventLoop, logger: Logger,
        handler: @escaping (ButtonRole, ButtonGesture) -> Void
    ) throws(HALError) {
        self.loop = loop
        self.logger = logger
        for role in roles {
            let detectsDouble = Self.detectsDoublePress(role, onBoardWith: roles)
            let recognizer = ButtonRecognizer(timing: timing, detectsDoublePress: detectsDouble, scheduler: loop) { gesture in
                handler(role, gesture)
            }
            buttons.append(Button(role: role, recognizer: recognizer, line: lines(role), source: nil))
        }
        for i in buttons.indices {
            guard let line = buttons[i].line else { continue }
            let recognizer = buttons[i].recognizer
            // With libgpiod v2 the kernel may debounce; then software does not add its delay.
            recognizer.kernelDebounceActive = line.kernelDebounceActive
            // A button already held at start-up is not a press when released.
            recognizer.reset(level: (try? line.isActive()) ?? false)
            let role = buttons[i].role
            // One drain for both ways edges arrive, made once.
            let drain = { [logger, unowned(unsafe) line] in
                do throws(HALError) {
                    while let edge = try line.readEdge() { recognizer.edge(edge) }
                } catch {
                    logger.error("button \(role.rawValue): \(error)")
                }
            }
            line.edgesQueued = drain
            if line.pollDescriptor >= 0 {
                buttons[i].source = try loop.addSource(fd: line.pollDescriptor, events: .readable) { _ in drain() }
            }
        }
    }

    /// Whether `role` reports double presses on a board with `roles`. Double
    /// press (previous) is a navigation gesture only on the positive button of
    /// a board without up/down buttons; elsewhere a press is reported without
    /// waiting for a second one.
    public static func detectsDoublePress(_ role: ButtonRole, onBoardWith roles: [ButtonRole]) -> Bool {
        role == .positive && !roles.contains(.up) && !roles.contains(.down)
    }

    public var roles: [ButtonRole] { buttons.map { $0.role } }

    /// Stops watching and releases the lines.
    public func close() {
        for b in buttons {
            if let s = b.source { loop.removeSource(s) }
            b.line?.edgesQueued = nil
            b.line?.release()
        }
        buttons.removeAll()
    }
}
