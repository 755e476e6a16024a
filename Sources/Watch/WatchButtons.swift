import BoardConfig
import HAL
import Input
import Logging
import Loop

/// The board's buttons: each role has a gesture recognizer (debounce, press,
/// long press, double press) fed with edges, either from a real GPIO line
/// watched by the loop or injected by the harness on the simulated board.
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
    ///   - lines: the opened GPIO lines by role (empty on the simulated board).
    ///   - handler: called with every recognised gesture.
    public init(
        roles: [ButtonRole], lines: [ButtonRole: any ButtonLine], timing: ButtonTiming, loop: EventLoop, logger: Logger,
        handler: @escaping (ButtonRole, ButtonGesture) -> Void
    ) throws(HALError) {
        self.loop = loop
        self.logger = logger
        for role in roles {
            let detectsDouble = Self.detectsDoublePress(role, onBoardWith: roles)
            let recognizer = ButtonRecognizer(timing: timing, detectsDoublePress: detectsDouble, scheduler: loop) { gesture in
                handler(role, gesture)
            }
            buttons.append(Button(role: role, recognizer: recognizer, line: lines[role], source: nil))
        }
        for i in buttons.indices {
            guard let line = buttons[i].line, line.pollDescriptor >= 0 else { continue }
            let recognizer = buttons[i].recognizer
            // With libgpiod v2 the kernel may debounce; then software does not add its delay.
            recognizer.kernelDebounceActive = line.kernelDebounceActive
            // A button already held at start-up is not a press when released.
            recognizer.reset(level: (try? line.isActive()) ?? false)
            let role = buttons[i].role
            buttons[i].source = try loop.addSource(fd: line.pollDescriptor, events: .readable) { [logger] _ in
                do {
                    while let edge = try line.readEdge() { recognizer.edge(edge) }
                } catch {
                    logger.error("button \(role.rawValue): \(error)")
                }
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

    /// Feeds an edge as if the line had changed now (the harness; tests).
    public func inject(_ role: ButtonRole, active: Bool) -> Bool {
        guard let b = buttons.first(where: { $0.role == role }) else { return false }
        b.recognizer.edge(LineEdge(active: active, timestamp: loop.now))
        return true
    }

    public var roles: [ButtonRole] { buttons.map(\.role) }

    /// Stops watching and releases the lines.
    public func close() {
        for b in buttons {
            if let s = b.source { loop.removeSource(s) }
            b.line?.release()
        }
        buttons.removeAll()
    }
}
