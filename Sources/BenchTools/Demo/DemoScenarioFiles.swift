import HAL
import LinuxHAL
import SimBoard
import TextFormat
import WatchFiles

/// Scenario files: found and read here, with LinuxHAL, so SimBoard only
/// parses text.
extension DemoScenario {
    /// Finds a scenario by path, or by name in the shipped Scenarios/ folder.
    public static func load(_ argument: String?) throws(WristCoreFailure) -> DemoScenario {
        let name = argument ?? "default"
        var candidates = [name]
        if !name.contains("/") {
            let file = name.hasSuffix(".scenario") ? name : name + ".scenario"
            for dir in searchPath() { candidates.append(dir + "/" + file) }
        }
        for path in candidates where FileSystem.kind(of: path) == .regularFile {
            let bytes: [UInt8]?
            do { bytes = try FileBytes.readIfPresent(path, limit: 1 << 20) } catch {
                throw WristCoreFailure("\(path): cannot be read (\(error.reason))", exitCode: WristCoreExit.usageOrConfiguration)
            }
            guard let bytes else { continue }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw WristCoreFailure("\(path): cannot be read as UTF-8 text", exitCode: WristCoreExit.usageOrConfiguration)
            }
            return try parse(text, file: path)
        }
        throw WristCoreFailure(
            notFound(name, lookedIn: candidates, available: available(in: searchPath() + [ResourcePaths.installedDataDirectory + "/Scenarios"])),
            exitCode: WristCoreExit.usageOrConfiguration)
    }

    /// The error for a scenario that is not there: where it was looked for,
    /// and the scenarios there are.
    static func notFound(_ name: String, lookedIn candidates: [String], available: [String]) -> String {
        let choice = available.isEmpty
            ? "no scenario files were found there; shipped scenarios are in Scenarios/"
            : "available scenarios: " + available.joined(separator: ", ") + " (--scenario NAME, or a file's path)"
        return "no scenario '\(name)' (looked in: \(candidates.joined(separator: ", "))); \(choice); the format is in docs/demo.md"
    }

    /// The names (without `.scenario`) of the scenario files in `directories`, sorted, each once.
    static func available(in directories: [String]) -> [String] {
        var names: [String] = []
        for dir in directories {
            for entry in FileSystem.directoryEntries(dir) where entry.hasSuffix(".scenario") && FileSystem.isRegularFile(dir + "/" + entry) {
                let name = String(entry.dropLast(".scenario".count))
                if !name.isEmpty && !names.contains(name) { names.append(name) }
            }
        }
        return names.sorted()
    }

    /// $WRISTCORE_SCENARIOS, ./Scenarios, then next to the executable
    /// (../share/wristcore/Scenarios for an installed binary).
    static func searchPath() -> [String] {
        searchPath(scenariosVariable: CurrentProcess.environment("WRISTCORE_SCENARIOS"), executablePath: CurrentProcess.executablePath)
    }

    /// The search path from what the process was started with;
    /// `executablePath` is the binary's resolved path (/proc/self/exe).
    static func searchPath(scenariosVariable: String?, executablePath: String?) -> [String] {
        var dirs: [String] = []
        if let scenariosVariable { dirs.append(scenariosVariable) }
        dirs.append("Scenarios")
        if let exe = executablePath {
            let binDirectory = PathText.parent(exe)
            dirs.append(PathText.join(PathText.parent(binDirectory), "share/wristcore/Scenarios"))
            // Built in the source tree: <package>/.build/<triple>/debug/wristcore.
            dirs.append(PathText.join(PathText.parent(binDirectory, levels: 3), "Scenarios"))
        }
        return dirs
    }
}
