// swift-tools-version: 6.1
// WristCore benchmarks: a separate package so the main build stays light.
// Run with `make bench` (or `swift package benchmark` in this directory).
import PackageDescription

/// One benchmark executable: Benchmarks/<name>/, the Benchmark library and
/// plugin, and the WristCore layers it measures.
func benchmarkTarget(_ name: String, measuring products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + products.map { .product(name: $0, package: "WristCore") },
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

let package = Package(
    name: "WristCoreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency is otherwise named after its folder.
        .package(name: "WristCore", path: ".."),
        // MallocInterposer counts every malloc, so the budgets "0 allocations per
        // event" are measured, not claimed.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The run loop: Loop's interfaces and timer heap, LinuxLoop's EpollLoop.
        benchmarkTarget("LoopBenchmarks", measuring: ["Loop", "LinuxLoop", "LinuxHAL", "HAL"]),
        benchmarkTarget("ANCSBenchmarks", measuring: ["ANCS", "HAL"]),
        // AMS through the real PhoneSession over a socket pair, and the AMSClient alone.
        benchmarkTarget(
            "AMSBenchmarks", measuring: ["AMS", "PhoneServices", "GATT", "ATTCodec", "Loop", "LinuxLoop", "LinuxHAL", "HAL"]),
        // The ATT bearer and GATT client (GATT) on the PDU codec (ATTCodec), wired as PhoneServices wires them.
        benchmarkTarget("ATTBenchmarks", measuring: ["ATTCodec", "GATT", "ANCS", "Loop", "LinuxLoop", "LinuxHAL", "HAL"]),
        // SimBoard: the emulated SSD1306 on the bus; LinuxHAL: the font files' bytes.
        benchmarkTarget("DisplayBenchmarks", measuring: ["Graphics", "Display", "SimBoard", "LinuxHAL", "HAL", "Screens", "ANCS"]),
        benchmarkTarget(
            "WatchBenchmarks",
            measuring: [
                "WristCore", "Watch", "BoardConfig", "SimBoard", "PhoneServices", "GATT", "ANCS", "AMS", "Gadgetbridge", "ATTCodec", "Screens", "Graphics", "Display",
                "Loop", "LinuxLoop", "LinuxHAL", "HAL",
                // The WatchDaemon takes a Logger.
                "Log",
            ]),
    ]
)
