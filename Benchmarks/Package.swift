// swift-tools-version: 6.1
// WristCore benchmarks: a separate package so the main build stays light.
// Run with `make bench` (or `swift package benchmark` in this directory).
import PackageDescription

let benchmarkDeps: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
]
let benchmarkPlugins: [Target.PluginUsage] = [
    .plugin(name: "BenchmarkPlugin", package: "benchmark"),
]

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
        .executableTarget(
            name: "RunLoopBenchmarks",
            dependencies: benchmarkDeps + [
                .product(name: "RunLoop", package: "WristCore"),
                .product(name: "LinuxHAL", package: "WristCore"),
                .product(name: "HAL", package: "WristCore"),
            ],
            path: "Benchmarks/RunLoopBenchmarks", plugins: benchmarkPlugins),
        .executableTarget(
            name: "ANCSBenchmarks",
            dependencies: benchmarkDeps + [
                .product(name: "ANCS", package: "WristCore"),
                .product(name: "HAL", package: "WristCore"),
            ],
            path: "Benchmarks/ANCSBenchmarks", plugins: benchmarkPlugins),
        .executableTarget(
            name: "ATTBenchmarks",
            dependencies: benchmarkDeps + [
                .product(name: "ATT", package: "WristCore"),
                .product(name: "RunLoop", package: "WristCore"),
                .product(name: "LinuxHAL", package: "WristCore"),
                .product(name: "HAL", package: "WristCore"),
                .product(name: "Simulator", package: "WristCore"),
                .product(name: "ANCS", package: "WristCore"),
            ],
            path: "Benchmarks/ATTBenchmarks", plugins: benchmarkPlugins),
        .executableTarget(
            name: "DisplayBenchmarks",
            dependencies: benchmarkDeps + [
                .product(name: "Graphics", package: "WristCore"),
                .product(name: "Display", package: "WristCore"),
                .product(name: "HAL", package: "WristCore"),
                .product(name: "Simulator", package: "WristCore"),
            ],
            path: "Benchmarks/DisplayBenchmarks", plugins: benchmarkPlugins),
    ]
)
