import CommandLineOptions
import HAL
import LinuxHAL
import Log
import Peripheral
import TextFormat
import WatchFiles
import WristCore

struct ForgetCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "forget",
        abstract: "Forget a paired phone (remove its bond), or all of them.",
        discussion: """
            Removes the phone's keys from the bond store in the state directory and, when \
            the Bluetooth adapter is there, unpairs it in the kernel too (a running daemon \
            drops it as well). The notification list kept across restarts \
            (notification-history in the state directory) is deleted too. Afterwards also forget the watch on the phone \
            (Settings > Bluetooth > the watch > Forget This Device), then pair again.

            Safe with sudo: the rewritten bond file keeps the state directory owner's \
            ownership (the service user's), so the daemon can still read it. --list only \
            reads and never changes a file.

            Examples:
              wristcore forget --all
              wristcore forget --address F0:99:B6:12:34:56
            """,
        parameters: [
            .option("address", valueName: "AA:BB:CC:DD:EE:FF", help: "The phone's address (as 'wristcore forget --list' prints it)."),
            .flag("all", help: "Forget every bonded phone."),
            .flag("list", help: "Only list the bonded phones."),
            .option("state-dir", valueName: "dir", default: BondStore.defaultDirectory, help: "The state directory holding the bonds."),
            .option(
                "hci", valueName: "n", value: .integer(in: 0...0xFFFE), default: "0",
                help: "The Bluetooth adapter index (hciN) to unpair on."),
        ] + GlobalOptions.parameters
    )

    var address: String?
    var all: Bool
    var list: Bool
    var stateDir: String
    var hci: Int
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        address = arguments.value("address")
        all = arguments.flag("all")
        list = arguments.flag("list")
        stateDir = arguments.required("state-dir")
        hci = arguments.integer("hci")!
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        let modes = (address != nil ? 1 : 0) + (all ? 1 : 0) + (list ? 1 : 0)
        guard modes == 1 else { throw UsageError("give exactly one of --address, --all or --list") }
        if let address, BluetoothAddress(address) == nil {
            throw UsageError("\(UsageError.quoted(address)) is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
        }
    }

    func run() throws(WristCoreFailure) {
        global.bootstrapLogging()
        let store = BondStore(directory: stateDir, files: AtomicFileStore())
        do throws(HALError) {
            // --list only reads: it never moves, writes or creates anything.
            if case .corrupt(let why, let keptAs) = try store.load(readOnly: list) {
                if let keptAs {
                    print("the bond file was unreadable (\(why)); kept as \(keptAs)")
                } else {
                    print("the bond file \(store.path) is unreadable (\(why)); left as it is ('wristcore forget --all' sets it aside and starts empty)")
                }
            }
        } catch {
            throw WristCoreFailure("cannot load the bonds in \(stateDir): \(error)")
        }
        let peers = store.bondedPeers
        if list {
            if peers.isEmpty { print("no bonded phones (\(store.path))") }
            for p in peers { print("\(p.address) (\(p.type))") }
            return
        }
        var targets: [(BluetoothAddress, BluetoothAddressType)]
        if all {
            targets = peers.map { ($0.address, $0.type) }
            do throws(HALError) { try store.removeAll() } catch { throw WristCoreFailure("cannot write \(store.path): \(error)") }
        } else {
            let a = BluetoothAddress(address!)!
            let type = peers.first { $0.address == a }?.type ?? .lePublic
            targets = [(a, type)]
            let removed: Bool
            do throws(HALError) { removed = try store.remove(a) } catch { throw WristCoreFailure("cannot write \(store.path): \(error)") }
            if !removed { print("\(a) was not bonded in \(store.path)") }
        }
        for (a, _) in targets { print("forgot \(a)") }
        if targets.isEmpty { print("no bonded phones") }
        // The notification list kept across restarts is the phones' too.
        let history = HistoryFile(stateDirectory: stateDir)
        let hadHistory = FileSystem.exists(history.path)
        do throws(HALError) { try history.remove() } catch { throw WristCoreFailure("cannot delete \(history.path): \(error)") }
        if hadHistory { print("deleted the notification history (\(history.path))") }
        unpairInKernel(targets)
    }

    /// Best effort: the adapter may be absent or the user unprivileged.
    private func unpairInKernel(_ targets: [(BluetoothAddress, BluetoothAddressType)]) {
        guard !targets.isEmpty else { return }
        let socket: BluetoothManagementSocket
        do throws(HALError) { socket = try BluetoothManagementSocket() } catch {
            print("(not unpaired in the kernel: \(error.reason); the keys are gone from the store, which is what counts after a restart)")
            return
        }
        defer { socket.close() }
        for (a, type) in targets {
            do throws(HALError) {
                let (status, _) = try socket.query(UnpairDevice(address: a, addressType: type, disconnect: true), index: UInt16(hci))
                switch ManagementStatus(rawValue: status) {
                case .success: print("unpaired \(a) on hci\(hci)")
                case .notPaired: break
                case let s: print("hci\(hci) did not unpair \(a): \(s.map { "\($0)" } ?? "status \(status)")")
                }
            } catch {
                print("hci\(hci) did not unpair \(a): \(error)")
            }
        }
    }
}
