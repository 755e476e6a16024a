extension WristCoreFailure {
    /// Runs `body`, turning its error into a failure that says what was
    /// being done: `try WristCoreFailure.during("display") { try open() }`
    /// fails with "display: <the error>". Typed throws all the way: Embedded
    /// Swift has no `any Error` to carry a mix of error types upward. The
    /// error must describe itself (Embedded Swift cannot print any other).
    public static func during<T, E: Error & CustomStringConvertible>(
        _ context: String, exitCode: Int32 = WristCoreExit.runtimeFailure, _ body: () throws(E) -> T
    ) throws(WristCoreFailure) -> T {
        do throws(E) { return try body() } catch {
            throw WristCoreFailure("\(context): \(error)", exitCode: exitCode)
        }
    }
}
