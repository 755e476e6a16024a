import Benchmark

// Filled in by the ANCS issue.
let benchmarks: @Sendable () -> Void = {}
