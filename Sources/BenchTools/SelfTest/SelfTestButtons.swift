import BoardConfig
import HAL
import Input
import Loop

/// The board's buttons for the self-test: each line opened through the board
/// devices, its edges debounced by the same `ButtonRecognizer` as the watch
/// uses, and every settled press reported at once (as it is pressed, not
/// when released). A line that cannot be opened is kept with its error.
final class SelfTestButtons {
    struct Button {
        let wiring: ButtonWiring
        let line: (any ButtonLine)?
        let recognizer: ButtonRecognizer
        var source: SourceID?
    }

    private(set) var buttons: [Button] = []
    /// Lines that could not be opened, by role.
    private(set) var openFailures = ButtonRoleTable<HALError>()
    private let loop: any EventLoop

    /// - Parameter pressed: called with the role of every settled press.
    init(board: Board, devices: any BoardDevices, loop: any EventLoop, pressed: @escaping (ButtonRole) -> Void) {
        self.loop = loop
        let timing = ButtonTiming(debounce: board.input.debounce, longPress: board.input.longPress, doublePress: board.input.doublePress)
        for wiring in board.buttons {
            let role = wiring.role
            let recognizer = ButtonRecognizer(timing: timing, detectsDoublePress: false, scheduler: loop) { _ in }
            recognizer.levelHandler = { down, _ in if down { pressed(role) } }
            var line: (any ButtonLine)?
            do { line = try devices.openButton(wiring, debounce: board.input.debounce) } catch { openFailures[role] = error }
            var button = Button(wiring: wiring, line: line, recognizer: recognizer, source: nil)
            if let line {
                recognizer.kernelDebounceActive = line.kernelDebounceActive
                // Held at start: its release is not a press, and the level check reports it.
                recognizer.reset(level: (try? line.isActive()) ?? false)
                let drain = { [unowned(unsafe) line] in
                    while let edge = try? line.readEdge() { recognizer.edge(edge) }
                }
                line.edgesQueued = drain
                if line.pollDescriptor >= 0 {
                    do {
                        button.source = try loop.addSource(fd: line.pollDescriptor, events: .readable) { _ in drain() }
                    } catch {
                        openFailures[role] = error
                    }
                }
            }
            buttons.append(button)
        }
    }

    func wiring(_ role: ButtonRole) -> ButtonWiring? { buttons.first { $0.wiring.role == role }?.wiring }

    /// The line's level now (true: pressed); nil when the line is not open.
    func isActive(_ role: ButtonRole) -> Result<Bool, HALError>? {
        guard let line = buttons.first(where: { $0.wiring.role == role })?.line else { return nil }
        do { return .success(try line.isActive()) } catch { return .failure(error) }
    }

    /// Stops watching and releases every line (idempotent).
    func close() {
        for b in buttons {
            if let s = b.source { loop.removeSource(s) }
            b.line?.edgesQueued = nil
            b.line?.release()
        }
        buttons.removeAll()
    }
}
