import Benchmark

// Filled in by the Display issue.
let benchmarks: @Sendable () -> Void = {}
