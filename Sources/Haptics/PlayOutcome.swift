import HAL

/// What `MotorController.play` did with a pattern.
public enum PlayOutcome: Sendable, Equatable {
    /// Playing (it replaced whatever played before).
    case started
    /// The on-time budget of the last minute is used up: nothing played.
    case suppressedCap
    /// The motor line failed while starting; the motor is off and the error
    /// also went to `errorHandler`.
    case lineFailed(HALError)
}
