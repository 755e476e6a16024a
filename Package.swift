// swift-tools-version: 6.1
// WristCore: the firmware-style core of a DIY smartwatch on a Linux SBC.
// Layers (dependencies point downward only; see docs/architecture.md):
//   app       WristCore, wristcore
//   services  ANCS
//   GATT      ATT
//   UI        Graphics, Screens (what each screen of the watch shows)
//   devices   Display, Input, Haptics
//   loop      RunLoop
//   HAL       HAL (protocols, no fds), LinuxHAL (the only fd/device code), C shims
//   sim       Simulator (implements the HAL protocols without hardware)
import PackageDescription

let package = Package(
    name: "WristCore",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wristcore", targets: ["wristcore"]),
        .library(name: "WristCore", targets: ["WristCore"]),
        // Per-layer libraries, used by the separate Benchmarks/ package.
        .library(name: "HAL", targets: ["HAL"]),
        .library(name: "LinuxHAL", targets: ["LinuxHAL"]),
        .library(name: "RunLoop", targets: ["RunLoop"]),
        .library(name: "ANCS", targets: ["ANCS"]),
        .library(name: "ATT", targets: ["ATT"]),
        .library(name: "Graphics", targets: ["Graphics"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "Simulator", targets: ["Simulator"]),
        .library(name: "Input", targets: ["Input"]),
        .library(name: "Haptics", targets: ["Haptics"]),
        .library(name: "Screens", targets: ["Screens"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: C libraries (system library targets with their Debian packages)
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .systemLibrary(
            name: "CGPIOD", path: "Sources/CGPIOD", pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(
            name: "CI2C", path: "Sources/CI2C",
            providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(
            name: "CBluetooth", path: "Sources/CBluetooth", pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]),

        // MARK: HAL
        .target(name: "HAL"),
        .target(name: "LinuxHAL", dependencies: ["HAL", "CLinux", "CGPIOD", "CI2C", "CBluetooth"]),

        // MARK: loop
        .target(name: "RunLoop", dependencies: ["HAL", "LinuxHAL"]),

        // MARK: devices and UI
        .target(name: "Display", dependencies: ["HAL", "Graphics"]),
        .target(name: "Input", dependencies: ["HAL", "RunLoop"]),
        .target(name: "Haptics", dependencies: ["HAL", "RunLoop"]),
        .target(name: "Graphics", dependencies: ["HAL"]),
        .target(name: "Screens", dependencies: ["HAL", "Graphics", "ANCS"]),

        // MARK: GATT and services
        .target(name: "ATT", dependencies: ["HAL", "RunLoop"]),
        .target(name: "ANCS", dependencies: ["HAL"]),

        // MARK: fonts (BDF -> .wcf compiler; see Fonts/README.md)
        .target(name: "FontCompiler"),
        .executableTarget(name: "wristcore-fonts", dependencies: ["FontCompiler", "Graphics"]),

        // MARK: simulated hardware
        .target(name: "Simulator", dependencies: ["HAL", "RunLoop", "ATT", "ANCS", "Display", "Graphics"]),

        // MARK: app
        .target(
            name: "WristCore",
            dependencies: [
                "HAL", "LinuxHAL", "RunLoop", "Display", "Input", "Haptics", "Graphics", "Screens",
                "ATT", "ANCS", "Simulator",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "wristcore",
            dependencies: [
                "WristCore", "LinuxHAL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The simulated iPhone on a virtual Bluetooth controller, for the real-kernel VM tests (Tests/VM).
        .executableTarget(name: "wristcore-vm-phone", dependencies: ["WristCore", "Simulator", "LinuxHAL", "RunLoop", "ATT", "HAL"]),

        // MARK: tests
        .testTarget(name: "RunLoopTests", dependencies: ["RunLoop", "LinuxHAL", "HAL"]),
        .testTarget(
            name: "WristCoreTests",
            dependencies: [
                "WristCore", "HAL", "LinuxHAL", "RunLoop", "Simulator", "ANCS", "ATT", "Screens", "Input", "Haptics",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["EndToEnd/Golden"]),
        .testTarget(name: "ANCSTests", dependencies: ["ANCS", "HAL"]),
        .testTarget(name: "ATTTests", dependencies: ["ATT", "RunLoop", "LinuxHAL", "HAL", "Simulator", "ANCS", "WristCore"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "RunLoop", "HAL"]),
        .testTarget(name: "HapticsTests", dependencies: ["Haptics", "RunLoop", "HAL"]),
        .testTarget(name: "ScreensTests", dependencies: ["Screens", "Graphics", "ANCS", "Simulator", "HAL"], exclude: ["Golden"]),
        .testTarget(name: "BluetoothTests", dependencies: ["WristCore", "LinuxHAL", "RunLoop", "HAL"]),
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics", "HAL"]),
        .testTarget(name: "FontCompilerTests", dependencies: ["FontCompiler", "Graphics"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "Graphics", "Simulator", "LinuxHAL", "HAL"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
