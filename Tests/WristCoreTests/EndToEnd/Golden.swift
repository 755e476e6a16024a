import Foundation
import Graphics
import SimBoard
import Testing

/// Golden screen images next to this file (Golden/*.pbm). Run the tests with
/// WRISTCORE_UPDATE_GOLDEN=1 to write them, then look at them before checking in.
enum Golden {
    static var directory: String {
        var path = #filePath
        path = String(path[..<path.lastIndex(of: "/")!])
        return path + "/Golden"
    }

    static func compare(pbm bytes: [UInt8], file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = directory + "/" + file
        let actual = try MonoImage(pbm: bytes)
        if ProcessInfo.processInfo.environment["WRISTCORE_UPDATE_GOLDEN"] == "1" {
            try Data(actual.pbmPlain().utf8).write(to: URL(fileURLWithPath: path))
            try Data(actual.png(scale: 4)).write(to: URL(fileURLWithPath: path.replacingOccurrences(of: ".pbm", with: ".png")))
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("missing golden file Golden/\(file); run with WRISTCORE_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        let expected = try MonoImage(pbm: Array(data))
        #expect(actual == expected, "screen differs from Golden/\(file): \(actual.differences(from: expected))\n\(actual.terminalString())", sourceLocation: sourceLocation)
    }
}
