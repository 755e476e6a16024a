import BoardConfig
import HAL
import Loop
import SimBoard

/// Presses the simulated board's buttons like a hand: each `ButtonPress` is
/// played as its press / release edges on the button's line, at the times the
/// board's input timing gives, so the watch's own recognizer makes the
/// gesture of it. One button does one gesture at a time: a gesture asked for
/// while the button is still busy starts once the previous one has settled
/// (a key held down and repeating queues at most `maximumBacklog` of them).
final class ButtonHand {
    let timing: InputTiming
    /// Changes a line's level now (false: the board has no such button).
    private let setButton: (ButtonRole, Bool) -> Bool
    private let loop: any TimerScheduling
    /// When each button is free again.
    private var freeAt = ButtonRoleTable<MonotonicInstant>()

    /// A key held down repeats about 30 times a second: gestures beyond this
    /// much work queued on one button are dropped.
    static let maximumBacklog = Duration.seconds(2)

    init(timing: InputTiming, loop: any TimerScheduling, setButton: @escaping (ButtonRole, Bool) -> Bool) {
        self.timing = timing
        self.loop = loop
        self.setButton = setButton
    }

    /// The pause after a release before the same button is pressed again: the
    /// debounce has settled it (the next press is not taken for a bounce).
    var settle: Duration { timing.debounce + .milliseconds(10) }

    /// Plays `press` on `role`, now or once the button is free. False when
    /// it was dropped (too much queued on that button).
    @discardableResult
    func perform(_ press: ButtonPress, on role: ButtonRole) -> Bool {
        let now = loop.now
        var start = now
        if let free = freeAt[role], free > now {
            guard free - now <= Self.maximumBacklog else { return false }
            start = free
        }
        let edges = press.edges(timing)
        freeAt[role] = start + press.length(timing) + settle
        let delay = start - now
        for edge in edges {
            let active = edge.active
            // The hand lives as long as the loop that runs these: strong captures are fine.
            let fire = { [setButton] in _ = setButton(role, active) }
            if delay + edge.after <= .zero { fire() } else { loop.schedule(after: delay + edge.after, fire) }
        }
        return true
    }
}
