import Benchmark

// Filled in by the ATT issue.
let benchmarks: @Sendable () -> Void = {}
