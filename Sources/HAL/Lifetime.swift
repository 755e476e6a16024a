/// Tells a callback whether the object that handed it out is still there.
///
/// Embedded Swift, which the shipped daemon is built with, has no `weak`
/// references. Where a callback may outlive its object (a one-shot loop job,
/// a reply to a request the link still holds), the object keeps a `Lifetime`,
/// ends it in `deinit`, and the callback captures the lifetime strongly and the
/// object `unowned(unsafe)`: it touches the object only while `isOver` is false,
/// which is exactly what `[weak self] in self?...` did.
///
///     { [lifetime, unowned(unsafe) self] in
///         guard !lifetime.isOver else { return }
///         self.step()
///     }
public final class Lifetime {
    public private(set) var isOver = false

    public init() {}

    /// Called from the owner's `deinit`.
    public func end() { isOver = true }
}
