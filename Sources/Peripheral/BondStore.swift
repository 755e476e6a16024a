import HAL
import TextFormat

/// The watch's bonds: the long-term keys and identity resolving keys the
/// kernel hands out after pairing (New Long Term Key / New IRK), plus the
/// watch's own IRK for LE privacy. Loaded at start-up and given back to the
/// kernel (Load Long Term Keys / Load IRKs), so a bonded iPhone reconnects
/// after a reboot without pairing again.
///
/// One text file (`bonds`, mode 0600) in the state directory, rewritten
/// atomically on every change through the injected `StateFileStore` (on
/// Linux `AtomicFileStore`: exclusive temp file, fsync, rename, fsync of the
/// directory; root's writes keep the directory owner's ownership), so a
/// crash or power loss leaves either the old or the new complete version.
/// The last line counts the records, so a file that is somehow incomplete
/// is detected; such a file is kept aside as `bonds.corrupt.1` (older
/// copies shift to `.2` … `.10`, the oldest beyond that is dropped) and the
/// store starts empty (the phone pairs again). `load(readOnly: true)` never
/// moves or writes anything. LF and CRLF line ends are both read.
public final class BondStore {
    public static let defaultDirectory = "/var/lib/wristcore"
    public static let fileName = "bonds"

    public enum LoadOutcome: Equatable, Sendable {
        case loaded(bonds: Int)
        case missing
        /// The file could not be parsed; it was moved to `keptAs`
        /// (`bonds.corrupt.1`), or left in place (nil) by a read-only load.
        case corrupt(reason: String, keptAs: String?)
    }

    /// How many damaged files are kept (`bonds.corrupt.1` is the newest).
    public static let keptCorruptCopies = 10

    /// What the file holds.
    public struct Contents: Equatable, Sendable {
        public var localIRK: [UInt8]?
        public var longTermKeys: [LongTermKey] = []
        public var irks: [IdentityResolvingKey] = []
        public init(localIRK: [UInt8]? = nil, longTermKeys: [LongTermKey] = [], irks: [IdentityResolvingKey] = []) {
            self.localIRK = localIRK
            self.longTermKeys = longTermKeys
            self.irks = irks
        }
    }

    public let directory: String
    public var path: String { directory + "/" + Self.fileName }
    /// Where the file is read and written (the injected store, wrapped:
    /// Embedded Swift has no `any StateFileStore`).
    public let files: StateFiles
    public private(set) var contents = Contents()

    public var longTermKeys: [LongTermKey] { contents.longTermKeys }
    public var irks: [IdentityResolvingKey] { contents.irks }
    public var localIRK: [UInt8]? { contents.localIRK }

    public init(directory: String = BondStore.defaultDirectory, files: StateFiles) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.files = files
    }

    public convenience init(directory: String = BondStore.defaultDirectory, files: some StateFileStore) {
        self.init(directory: directory, files: StateFiles(files))
    }

    /// The bonded peers (identity address and type), in file order.
    public var bondedPeers: [(address: BluetoothAddress, type: BluetoothAddressType)] {
        var seen: [BluetoothAddress] = []
        var out: [(address: BluetoothAddress, type: BluetoothAddressType)] = []
        for k in contents.longTermKeys where !seen.contains(k.address) {
            seen.append(k.address)
            out.append((address: k.address, type: k.addressType))
        }
        return out
    }

    public func isBonded(_ address: BluetoothAddress) -> Bool {
        contents.longTermKeys.contains { $0.address == address }
    }

    /// Reads the file (a missing file is an empty store). A damaged file is
    /// kept aside (see the type's documentation) unless `readOnly`, which
    /// never changes anything in the directory ('wristcore forget --list').
    @discardableResult
    public func load(readOnly: Bool = false) throws(HALError) -> LoadOutcome {
        guard let bytes = try files.read(path) else {
            contents = Contents()
            return .missing
        }
        switch Self.decode(bytes) {
        case .success(let c):
            contents = c
            return .loaded(bonds: bondedPeers.count)
        case .failure(let reason):
            contents = Contents()
            if readOnly { return .corrupt(reason: reason.message, keptAs: nil) }
            // Kept aside when it can be; when it cannot (a read-only
            // directory), the store still starts empty and the next save
            // replaces the damaged file.
            return .corrupt(reason: reason.message, keptAs: try? keepAside())
        }
    }

    /// The name of the n-th kept damaged file (1 is the newest).
    public func corruptCopy(_ n: Int) -> String { path + ".corrupt.\(n)" }

    /// Moves the damaged file to `bonds.corrupt.1`, shifting the older
    /// copies up and dropping the one beyond `keptCorruptCopies`; never
    /// overwrites a copy it keeps.
    /// Something that cannot be removed or moved (a directory at
    /// `bonds.corrupt.10`) is stepped around: the shift stops below it.
    private func keepAside() throws(HALError) -> String {
        // The first free place from 1 up; else the oldest copy goes.
        var free = (1...Self.keptCorruptCopies).first { !files.exists(corruptCopy($0)) }
        if free == nil {
            for n in stride(from: Self.keptCorruptCopies, through: 1, by: -1) {
                if (try? files.remove(corruptCopy(n))) != nil, !files.exists(corruptCopy(n)) { free = n; break }
            }
        }
        guard let free else { throw HALError(operation: "keep \(path) aside", errno: 0, reason: "no \(path).corrupt.N can be replaced") }
        for n in stride(from: free - 1, through: 1, by: -1) {
            try files.moveAside(corruptCopy(n), to: corruptCopy(n + 1))
        }
        try files.moveAside(path, to: corruptCopy(1))
        return corruptCopy(1)
    }

    /// Stores a long-term key, replacing the one for the same peer and role.
    public func store(_ key: LongTermKey) throws(HALError) {
        var c = contents
        c.longTermKeys.removeAll { $0.address == key.address && $0.addressType == key.addressType && $0.central == key.central }
        c.longTermKeys.append(key)
        try save(c)
    }

    /// Stores a peer's IRK, replacing an older one for the same identity.
    public func store(_ irk: IdentityResolvingKey) throws(HALError) {
        var c = contents
        c.irks.removeAll { $0.address == irk.address && $0.addressType == irk.addressType }
        c.irks.append(irk)
        try save(c)
    }

    /// The watch's own IRK, made (random) and stored on first use.
    public func ensureLocalIRK() throws(HALError) -> [UInt8] {
        if let irk = contents.localIRK { return irk }
        var generator = SystemRandomNumberGenerator()  // getrandom(2)
        let irk = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var c = contents
        c.localIRK = irk
        try save(c)
        return irk
    }

    /// Forgets everything about `address`; returns whether it was bonded.
    @discardableResult
    public func remove(_ address: BluetoothAddress) throws(HALError) -> Bool {
        var c = contents
        let before = c.longTermKeys.count + c.irks.count
        c.longTermKeys.removeAll { $0.address == address }
        c.irks.removeAll { $0.address == address }
        guard c.longTermKeys.count + c.irks.count != before else { return false }
        try save(c)
        return true
    }

    /// Forgets every peer (the watch keeps its own IRK); returns who was
    /// forgotten. Nothing is written when there is nobody to forget (so
    /// `sudo wristcore forget --all` never creates a root-owned directory).
    @discardableResult
    public func removeAll() throws(HALError) -> [BluetoothAddress] {
        var peers: [BluetoothAddress] = []  // each once (a list: a Set's hash table code is bigger than this)
        for a in contents.longTermKeys.map({ $0.address }) + contents.irks.map({ $0.address }) where !peers.contains(a) { peers.append(a) }
        guard !peers.isEmpty else { return [] }
        var c = contents
        c.longTermKeys = []
        c.irks = []
        try save(c)
        return bondedPeersSorted(peers)
    }

    private func bondedPeersSorted(_ s: [BluetoothAddress]) -> [BluetoothAddress] {
        s.sorted { $0.description < $1.description }
    }

    /// How to fix a failed write of the store, by its errno: free space,
    /// a read-only filesystem, permissions, or the error's own hint.
    public static func fixHint(for error: HALError, directory: String) -> String {
        if error.isOutOfSpace {
            return "the filesystem holding \(directory) is full: free some space ('df -h \(directory)'; e.g. 'sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', or delete old files)"
        }
        if let hint = error.hint { return hint }
        switch error.errno {
        case HALError.FileErrno.readOnlyFileSystem:
            return "the filesystem holding \(directory) is read-only: remount it read-write or pass --state-dir on a writable one"
        case HALError.FileErrno.permissionDenied, HALError.FileErrno.notPermitted:
            return "\(directory) and its files must belong to the watch's user: 'sudo chown -R wristcore:wristcore \(directory)' (or the user the daemon runs as)"
        default:
            return "'wristcore doctor' checks the state directory \(directory)"
        }
    }

    private func save(_ c: Contents) throws(HALError) {
        try files.ensureDirectory(directory, mode: 0o700)
        try files.writeAtomically(path, Self.encode(c), mode: 0o600)
        contents = c
    }

    // MARK: - file format (pure)

    static let magic = "wristcore-bonds 1"

    public struct FormatError: Error, Equatable {
        public var message: String
    }

    /// Text, one record a line:
    /// ```
    /// wristcore-bonds 1
    /// local-irk <32 hex>
    /// ltk <address> <address type> <key type> <central 0|1> <enc size> <ediv> <rand> <32 hex>
    /// irk <address> <address type> <32 hex>
    /// end <number of records above>
    /// ```
    public static func encode(_ c: Contents) -> [UInt8] {
        var lines = ["# WristCore Bluetooth bonds (keys: keep private). 'wristcore forget' removes them.", magic]
        if let irk = c.localIRK { lines.append("local-irk \(hex(irk))") }
        for k in c.longTermKeys {
            lines.append("ltk \(k.address) \(k.addressType.rawValue) \(k.keyType) \(k.central ? 1 : 0) \(k.encryptionSize) \(k.ediv) \(k.rand) \(hex(k.value))")
        }
        for k in c.irks { lines.append("irk \(k.address) \(k.addressType.rawValue) \(hex(k.value))") }
        let count = (c.localIRK == nil ? 0 : 1) + c.longTermKeys.count + c.irks.count
        lines.append("end \(count)")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    public static func decode(_ bytes: [UInt8]) -> Result<Contents, FormatError> {
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(FormatError(message: "not UTF-8 text")) }
        var c = Contents()
        var records = 0
        var sawMagic = false
        var ended = false
        // "\r\n" is one Character in Swift: split on both line ends.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (number, raw) in lines.enumerated() {
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            func bad(_ why: String) -> Result<Contents, FormatError> { .failure(FormatError(message: "line \(number + 1): \(why)")) }
            if ended { return bad("data after the end line") }
            let f = line.split(separator: " ").map(String.init)
            if !sawMagic {
                guard line == magic else { return bad("not a WristCore bond file") }
                sawMagic = true
                continue
            }
            switch f[0] {
            case "local-irk":
                guard f.count == 2, let v = unhex(f[1], count: 16) else { return bad("bad local-irk") }
                c.localIRK = v
            case "ltk":
                guard f.count == 9, let a = BluetoothAddress(f[1]), let t = byte(f[2]).flatMap(BluetoothAddressType.init),
                      let kt = byte(f[3]), let central = byte(f[4]), central <= 1, let size = byte(f[5]),
                      let ediv = IntegerText.integer(f[6], in: 0...0xFFFF).map({ UInt16($0) }), let rand = IntegerText.uint64(f[7]),
                      let v = unhex(f[8], count: 16)
                else { return bad("bad ltk record") }
                c.longTermKeys.append(LongTermKey(address: a, addressType: t, keyType: kt, central: central == 1,
                                                  encryptionSize: size, ediv: ediv, rand: rand, value: v))
            case "irk":
                guard f.count == 4, let a = BluetoothAddress(f[1]), let t = byte(f[2]).flatMap(BluetoothAddressType.init),
                      let v = unhex(f[3], count: 16)
                else { return bad("bad irk record") }
                c.irks.append(IdentityResolvingKey(address: a, addressType: t, value: v))
            case "end":
                guard f.count == 2, IntegerText.int(f[1]) == records else { return bad("record count does not match (incomplete file)") }
                ended = true
                continue
            default:
                return bad("unknown record \"\(f[0])\"")
            }
            records += 1
        }
        guard sawMagic else { return .failure(FormatError(message: "empty file")) }
        guard ended else { return .failure(FormatError(message: "no end line (incomplete file)")) }
        return .success(c)
    }

    static func hex(_ b: [UInt8]) -> String {
        b.map { let s = String($0, radix: 16); return s.count == 1 ? "0" + s : s }.joined()
    }

    /// `UInt8(text, radix:)`.
    static func byte(_ text: String, radix: Int = 10) -> UInt8? {
        IntegerText.integer(text, radix: radix, in: 0...0xFF).map { UInt8($0) }
    }

    static func unhex(_ s: String, count: Int) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count == 2 * count else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for i in stride(from: 0, to: u.count, by: 2) {
            guard let v = byte(String(decoding: u[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
            out.append(v)
        }
        return out
    }
}

extension BondStore {
    /// A `StateFileStore` of any concrete type behind one concrete type: its
    /// operations as closures over the wrapped store (a class stays shared,
    /// as it was through `any StateFileStore`).
    public struct StateFiles: StateFileStore {
        private let _read: (String) throws(HALError) -> [UInt8]?
        private let _writeAtomically: (String, [UInt8], UInt32) throws(HALError) -> Void
        private let _moveAside: (String, String) throws(HALError) -> Void
        private let _remove: (String) throws(HALError) -> Void
        private let _exists: (String) -> Bool
        private let _ensureDirectory: (String, UInt32) throws(HALError) -> Void

        public init(_ store: some StateFileStore) {
            _read = { (path: String) throws(HALError) -> [UInt8]? in try store.read(path) }
            _writeAtomically = { (path: String, bytes: [UInt8], mode: UInt32) throws(HALError) in try store.writeAtomically(path, bytes, mode: mode) }
            _moveAside = { (path: String, destination: String) throws(HALError) in try store.moveAside(path, to: destination) }
            _remove = { (path: String) throws(HALError) in try store.remove(path) }
            _exists = { store.exists($0) }
            _ensureDirectory = { (path: String, mode: UInt32) throws(HALError) in try store.ensureDirectory(path, mode: mode) }
        }

        public func read(_ path: String) throws(HALError) -> [UInt8]? { try _read(path) }
        public func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32) throws(HALError) { try _writeAtomically(path, bytes, mode) }
        public func moveAside(_ path: String, to destination: String) throws(HALError) { try _moveAside(path, destination) }
        public func remove(_ path: String) throws(HALError) { try _remove(path) }
        public func exists(_ path: String) -> Bool { _exists(path) }
        public func ensureDirectory(_ path: String, mode: UInt32) throws(HALError) { try _ensureDirectory(path, mode) }
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
