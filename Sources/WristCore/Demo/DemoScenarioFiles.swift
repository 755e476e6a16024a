import Foundation
import HAL
import SimBoard

/// Scenario files: found and read here, in the composition root, so SimBoard
/// only parses text.
extension DemoScenario {
    /// Finds a scenario by path, or by name in the shipped Scenarios/ folder.
    public static func load(_ argument: String?) throws(WristCoreFailure) -> DemoScenario {
        let name = argument ?? "default"
        var candidates = [name]
        if !name.contains("/") {
            let file = name.hasSuffix(".scenario") ? name : name + ".scenario"
            for dir in searchPath() { candidates.append(dir + "/" + file) }
        }
        for path in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    throw WristCoreFailure("\(path): cannot be read as UTF-8 text", exitCode: WristCoreExit.usageOrConfiguration)
                }
                return try parse(text, file: path)
            }
        }
        throw WristCoreFailure(
            "no scenario '\(name)' (looked in: \(candidates.joined(separator: ", "))); shipped scenarios are in Scenarios/, the format is in docs/demo.md",
            exitCode: WristCoreExit.usageOrConfiguration)
    }

    /// $WRISTCORE_SCENARIOS, ./Scenarios, then next to the executable
    /// (../share/wristcore/Scenarios for an installed binary).
    static func searchPath() -> [String] {
        var dirs: [String] = []
        if let env = ProcessInfo.processInfo.environment["WRISTCORE_SCENARIOS"] { dirs.append(env) }
        dirs.append("Scenarios")
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        dirs.append(exe.appendingPathComponent("../share/wristcore/Scenarios").standardizedFileURL.path)
        // Built in the source tree: .build/<triple>/debug/wristcore.
        dirs.append(exe.appendingPathComponent("../../../Scenarios").standardizedFileURL.path)
        return dirs
    }
}
