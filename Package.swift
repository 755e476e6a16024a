// swift-tools-version: 6.1
// WristCore: the firmware-style core of a DIY smartwatch on a Linux SBC.
//
// Layers, dependencies pointing downward only (docs/architecture.md has the
// graph; Scripts/check-layers.py enforces it in `make test`):
//   CLIs         WristCoreCLI (the `wristcore` binary), wristcore-vm-phone, wristcore-fonts
//   bench        BenchTools: the demo and the self-test, run on the composed watch
//   root         WristCore: the composition root (WatchDaemon, the one choice of board devices)
//   Linux        LinuxBoard: a real board's devices and the doctor's checks; Systemd: what systemd sees
//   sim          SimBoard: simulated board devices, display emulator, simulated iPhone, scenarios; Harness
//   app          Watch: the watch's model and controller; BoardConfig: board files, the vibration table
//                and the validator config files share; WearerSettings: the wearer's settings file;
//                WatchFiles: the watch's files on disk (installed data, board and settings files)
//   tools        Decode: ANCS / ATT / capture decoding; CommandLineOptions; FontCompiler
//   profiles     PhoneServices: the phone session (ANCS + CTS over GATT), the watch's GATT database
//                Peripheral: mgmt codec and client, controller set-up, advertising, pairing, bonds
//   UI           Screens
//   services     ANCS, AMS, Gadgetbridge (the Android companion's line protocol), PhoneFeeds (weather, calendar)
//   GATT         GATT (bearer, client, server) on ATTCodec (pure PDU codec)
//   domain       Notifications; Timekeeping (alarms, the countdown timer, the stopwatch)
//   devices      Graphics, Display (SSD13xx driver and its I2C framing), Input, Haptics, Power (battery gauges)
//   loop         Loop (interfaces, timer heap, fd-free manual loop); LinuxLoop (EpollLoop)
//   HAL          TextFormat (what the user reads), HAL (protocols, value types), Log (the logger),
//                LinuxHAL (the only fd/device code), C shims
// Only LinuxHAL, LinuxLoop, WatchFiles, LinuxBoard, Systemd, the WristCore root,
// BenchTools and the CLIs may reach LinuxHAL or a C module.
import PackageDescription

let package = Package(
    name: "WristCore",
    products: [
        .executable(name: "wristcore", targets: ["WristCoreCLI"]),
        .library(name: "WristCore", targets: ["WristCore"]),
        // Per-layer libraries, used by the separate Benchmarks/ package.
        .library(name: "TextFormat", targets: ["TextFormat"]),
        .library(name: "HAL", targets: ["HAL"]),
        .library(name: "Log", targets: ["Log"]),
        .library(name: "LinuxHAL", targets: ["LinuxHAL"]),
        .library(name: "Loop", targets: ["Loop"]),
        .library(name: "LinuxLoop", targets: ["LinuxLoop"]),
        .library(name: "Notifications", targets: ["Notifications"]),
        .library(name: "Timekeeping", targets: ["Timekeeping"]),
        .library(name: "ANCS", targets: ["ANCS"]),
        .library(name: "AMS", targets: ["AMS"]),
        .library(name: "Gadgetbridge", targets: ["Gadgetbridge"]),
        .library(name: "PhoneFeeds", targets: ["PhoneFeeds"]),
        .library(name: "ATTCodec", targets: ["ATTCodec"]),
        .library(name: "GATT", targets: ["GATT"]),
        .library(name: "PhoneServices", targets: ["PhoneServices"]),
        .library(name: "Graphics", targets: ["Graphics"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "SimBoard", targets: ["SimBoard"]),
        .library(name: "Harness", targets: ["Harness"]),
        .library(name: "Input", targets: ["Input"]),
        .library(name: "Haptics", targets: ["Haptics"]),
        .library(name: "Power", targets: ["Power"]),
        .library(name: "Screens", targets: ["Screens"]),
        .library(name: "Watch", targets: ["Watch"]),
        .library(name: "BoardConfig", targets: ["BoardConfig"]),
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
        // What the user reads: failures with their exit codes, escaped outside text, paths, "did you mean", numbers.
        .target(name: "TextFormat"),
        .target(name: "HAL", dependencies: ["TextFormat"]),
        // The daemon's logger (Logger, LogSink, LogLine): pure, so every layer may log.
        .target(name: "Log"),
        .target(name: "LinuxHAL", dependencies: ["HAL", "Log", "TextFormat", "CLinux", "CGPIOD", "CI2C", "CBluetooth"]),

        // MARK: loop
        .target(name: "Loop", dependencies: ["HAL", "Log"]),
        .target(name: "LinuxLoop", dependencies: ["Loop", "HAL", "LinuxHAL", "CLinux"]),

        // MARK: devices and UI
        .target(name: "Graphics", dependencies: ["HAL", "TextFormat"]),
        .target(name: "Display", dependencies: ["HAL", "Graphics", "TextFormat"]),
        .target(name: "Input", dependencies: ["HAL", "Loop"]),
        .target(name: "Haptics", dependencies: ["HAL", "Loop"]),
        // The watch's battery: the MAX1704x fuel gauge over I2C registers, and the monitor that reads a gauge now and then.
        .target(name: "Power", dependencies: ["HAL", "Loop"]),
        .target(name: "Screens", dependencies: ["HAL", "Graphics", "Notifications", "Timekeeping", "AMS", "PhoneFeeds"]),

        // MARK: GATT, services and profiles
        .target(name: "ATTCodec", dependencies: ["TextFormat"]),
        .target(name: "GATT", dependencies: ["ATTCodec", "Loop", "HAL", "TextFormat"]),
        .target(name: "Notifications", dependencies: ["HAL"]),
        // The wearer's alarms (and the phone's), the countdown timer, the stopwatch: values on the watch's clocks.
        .target(name: "Timekeeping", dependencies: ["HAL"]),
        .target(name: "ANCS", dependencies: ["Notifications", "HAL", "TextFormat"]),
        .target(name: "AMS", dependencies: ["HAL"]),
        .target(name: "Gadgetbridge", dependencies: ["TextFormat"]),
        .target(name: "PhoneFeeds", dependencies: ["AMS"]),
        .target(name: "PhoneServices", dependencies: ["GATT", "ATTCodec", "ANCS", "Notifications", "AMS", "Gadgetbridge", "PhoneFeeds", "Loop", "HAL", "Log", "TextFormat"]),
        .target(
            name: "Peripheral",
            dependencies: ["Loop", "HAL", "Log", "TextFormat"]),

        // MARK: the watch
        .target(name: "BoardConfig", dependencies: ["Notifications", "Haptics", "Display", "Graphics", "HAL", "TextFormat"]),
        // The wearer's settings file (settings.json): patterns, per-app rules, quiet hours, Do Not Disturb options.
        .target(name: "WearerSettings", dependencies: ["BoardConfig", "Haptics", "HAL"]),
        // The watch's files on disk: installed data, board files and their variants, the wearer's settings.
        .target(name: "WatchFiles", dependencies: ["BoardConfig", "WearerSettings", "Notifications", "Timekeeping", "Screens", "Graphics", "Haptics", "HAL", "LinuxHAL", "Log", "TextFormat"]),
        .target(
            name: "Watch",
            dependencies: [
                "BoardConfig", "WearerSettings", "PhoneServices", "Notifications", "Timekeeping", "AMS", "PhoneFeeds", "Screens", "Graphics", "Display", "Input",
                "Haptics", "Power", "Loop", "HAL", "Log",
            ]),
        .target(name: "Decode", dependencies: ["ATTCodec", "PhoneServices", "ANCS", "AMS", "Gadgetbridge", "HAL", "TextFormat"]),

        // MARK: fonts (BDF -> .wcf compiler; see Fonts/README.md)
        .target(name: "FontCompiler"),
        .executableTarget(name: "wristcore-fonts", dependencies: ["FontCompiler", "Graphics"]),

        // MARK: simulated hardware
        .target(
            name: "SimBoard",
            dependencies: [
                "BoardConfig", "PhoneServices", "GATT", "ATTCodec", "ANCS", "Gadgetbridge", "Graphics", "Power", "Loop", "HAL", "Log", "TextFormat",
            ]),

        // The harness: a local socket that reports the running watch (state, screen, events) and drives it.
        .target(name: "Harness", dependencies: ["Watch", "BoardConfig", "Screens", "Notifications", "Timekeeping", "AMS", "PhoneFeeds", "Loop", "HAL", "Log", "TextFormat"]),

        // MARK: Linux
        // A real board's devices on Linux (i2c-dev, libgpiod, Bluetooth) and the check that they are ready (doctor).
        .target(
            name: "LinuxBoard",
            dependencies: ["BoardConfig", "SimBoard", "Peripheral", "Display", "Graphics", "Power", "Loop", "LinuxLoop", "HAL", "LinuxHAL", "Log", "TextFormat"]),
        // The daemon under systemd: READY=1, STATUS=, WATCHDOG=1 while the phone link is healthy.
        .target(name: "Systemd", dependencies: ["Loop", "HAL", "LinuxHAL"]),

        // MARK: composition root and CLIs
        // The command-line parser and help pages of `wristcore` (stdlib only: no Foundation in the daemon).
        .target(name: "CommandLineOptions", dependencies: ["TextFormat"]),
        // The composition root: WatchDaemon and the one choice of board devices.
        .target(
            name: "WristCore",
            dependencies: [
                "SimBoard", "LinuxBoard", "Harness", "Watch", "WatchFiles", "BoardConfig", "WearerSettings", "Peripheral", "PhoneServices", "GATT", "ANCS", "Screens",
                "Display", "Graphics", "Input", "Haptics", "Power", "Loop", "LinuxLoop", "HAL", "LinuxHAL", "Systemd", "TextFormat",
                "Log",
            ]),
        // The bench tools: the demo (the composed watch on simulated hardware, in a terminal) and the self-test.
        .target(
            name: "BenchTools",
            dependencies: [
                "WristCore", "WatchFiles", "SimBoard", "Harness", "Watch", "BoardConfig", "Peripheral", "Screens", "Display", "Graphics",
                "Input", "Haptics", "Loop", "LinuxLoop", "HAL", "LinuxHAL", "Log", "TextFormat",
            ]),
        .executableTarget(
            name: "WristCoreCLI",
            dependencies: [
                "WristCore", "BenchTools", "WatchFiles", "SimBoard", "Decode", "BoardConfig", "Peripheral", "LinuxHAL", "HAL",
                "CommandLineOptions", "TextFormat", "CLinux", "Log",
            ]),
        // The simulated iPhone on a virtual Bluetooth controller, for the real-kernel VM tests (Tests/VM).
        .executableTarget(
            name: "wristcore-vm-phone",
            dependencies: ["Peripheral", "SimBoard", "GATT", "Loop", "LinuxLoop", "LinuxHAL", "HAL", "CLinux"]),

        // MARK: tests
        .testTarget(name: "LoopTests", dependencies: ["Loop", "LinuxLoop", "LinuxHAL", "HAL"]),
        .testTarget(name: "ANCSTests", dependencies: ["ANCS", "Notifications", "HAL"]),
        .testTarget(name: "AMSTests", dependencies: ["AMS", "HAL"]),
        .testTarget(name: "GadgetbridgeTests", dependencies: ["Gadgetbridge"]),
        .testTarget(name: "ATTCodecTests", dependencies: ["ATTCodec"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(
            name: "GATTTests",
            dependencies: ["GATT", "ATTCodec", "PhoneServices", "SimBoard", "ANCS", "Notifications", "Loop", "LinuxLoop", "LinuxHAL", "HAL"]),
        .testTarget(
            name: "PhoneServicesTests",
            dependencies: ["PhoneServices", "GATT", "ATTCodec", "SimBoard", "ANCS", "Notifications", "AMS", "PhoneFeeds", "Loop", "LinuxLoop", "LinuxHAL", "HAL"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "Loop", "LinuxLoop", "HAL"]),
        .testTarget(name: "HapticsTests", dependencies: ["Haptics", "Loop", "LinuxLoop", "HAL"]),
        .testTarget(name: "PowerTests", dependencies: ["Power", "SimBoard", "Loop", "LinuxHAL", "HAL"]),
        .testTarget(name: "TimekeepingTests", dependencies: ["Timekeeping", "HAL"]),
        .testTarget(name: "ScreensTests", dependencies: ["Screens", "Graphics", "ANCS", "Notifications", "Timekeeping", "AMS", "PhoneFeeds", "SimBoard", "LinuxHAL", "HAL"], exclude: ["Golden"]),
        .testTarget(
            name: "PeripheralTests",
            dependencies: ["Peripheral", "BoardConfig", "Loop", "LinuxLoop", "LinuxHAL", "HAL", "Log", "LinuxBoard", "WatchFiles"]),
        .testTarget(name: "LogTests", dependencies: ["Log"]),
        .testTarget(name: "LinuxHALTests", dependencies: ["LinuxHAL", "HAL"]),
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics", "LinuxHAL", "HAL"]),
        .testTarget(name: "FontCompilerTests", dependencies: ["FontCompiler", "Graphics"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "BoardConfig", "Graphics", "SimBoard", "LinuxHAL", "HAL"], exclude: ["Golden"]),
        .testTarget(name: "DecodeTests", dependencies: ["Decode", "ATTCodec", "ANCS", "Notifications", "AMS", "Gadgetbridge", "HAL", "TextFormat"]),
        // SimBoard with in-memory sockets: no LinuxHAL in its closure.
        .testTarget(
            name: "SimBoardTests",
            dependencies: [
                "SimBoard", "Harness", "Watch", "BoardConfig", "PhoneServices", "GATT", "ATTCodec", "ANCS", "Notifications", "AMS", "Display", "Graphics",
                "Input", "Loop", "HAL",
                // The simulated iPhone's tests run it over a real socket pair and loop.
                "LinuxLoop", "LinuxHAL",
                "Log",
            ]),
        .testTarget(name: "BoardConfigTests", dependencies: ["BoardConfig", "WearerSettings", "ANCS", "Notifications", "HAL", "Haptics"]),
        .testTarget(
            name: "WatchTests",
            dependencies: [
                "Watch", "BoardConfig", "WearerSettings", "ANCS", "Notifications", "Timekeeping", "AMS", "PhoneFeeds", "Screens", "Input", "Haptics", "Display", "Graphics", "Loop", "HAL",
                "PhoneServices",  // PhoneClock / CurrentTime: the phone's time handed to the controller
                "LinuxHAL",  // FileBytes, to read the shipped fonts; the code under test never touches a descriptor
                "Log",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "WristCoreTests",
            dependencies: [
                "WristCore", "BenchTools", "LinuxBoard", "WatchFiles", "Systemd", "SimBoard", "Watch", "BoardConfig", "PhoneServices", "GATT",
                "ANCS", "Notifications", "Timekeeping", "AMS", "Screens", "Display", "Graphics", "Haptics", "Input", "Loop", "LinuxLoop", "LinuxHAL", "HAL",
                "TextFormat", "Log",
            ],
            exclude: ["EndToEnd/Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
