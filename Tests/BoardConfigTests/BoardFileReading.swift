import BoardConfig
import Foundation
import HAL

/// The daemon's `BoardLoader.load(path:)` lives in WristCore (it reads with
/// LinuxHAL); BoardConfig's tests link neither, so the shipped-board tests
/// read through this stand-in with the same signature.
extension BoardLoader {
    static func load(path: String) throws(BoardError) -> Board {
        try load(path: path, readFile: readTestFile)
    }
}

/// A file's bytes, nil when it does not exist (the `BoardLoader.ReadFile` contract).
func readTestFile(_ path: String) throws(HALError) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}
