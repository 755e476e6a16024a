extension WristCoreFailure {
    /// Runs `body`, turning a `HALError` into a failure that says what was
    /// being done: `try WristCoreFailure.during("display") { try open() }`
    /// fails with "display: <the error>". Typed throws all the way: Embedded
    /// Swift has no `any Error` to carry a mix of error types upward.
    public static func during<T>(
        _ context: String, exitCode: Int32 = WristCoreExit.runtimeFailure, _ body: () throws(HALError) -> T
    ) throws(WristCoreFailure) -> T {
        do throws(HALError) { return try body() } catch {
            throw WristCoreFailure("\(context): \(error)", exitCode: exitCode)
        }
    }
}
