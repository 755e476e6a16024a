import BoardConfig
import HAL
import LinuxHAL
import Log
import Loop
import Peripheral

/// The Linux board's half of the Bluetooth peripheral: the Linux
/// pieces `BluetoothPeripheral` is given (the kernel's mgmt and L2CAP
/// sockets, the bond files on disk, the bluetoothd probe) and the board
/// file's choices.
extension BluetoothPeripheral {
    /// The watch's peripheral on the kernel's Bluetooth stack, as `board`
    /// sets it up, with its bonds in `stateDirectory`. Set the callbacks,
    /// then `start(completion:)`.
    public static func kernel(
        board: Board, stateDirectory: String, loop: any EventLoop, logger: Logger, options: Options = Options()
    ) -> BluetoothPeripheral {
        BluetoothPeripheral(
            hciIndex: board.bluetooth.hciIndex, name: board.bluetooth.name, ioCapability: ioCapability(for: board),
            keyStore: BondStore(directory: stateDirectory, files: AtomicFileStore()), loop: loop, logger: logger,
            options: options,
            bluetoothdRunning: { SystemProbe.isProcessRunning("bluetoothd") },
            transports: { () throws(HALError) in try Transports.kernel() })
    }

    /// DisplayYesNo when the board has a display and at least two buttons
    /// (numeric comparison); NoInputNoOutput (Just Works) otherwise.
    public static func ioCapability(for board: Board) -> IOCapability {
        board.buttons.count >= 2 ? .displayYesNo : .noInputNoOutput
    }
}

extension BluetoothPeripheral.Transports {
    /// The kernel's: the mgmt control socket, and an L2CAP LE listener on the
    /// ATT channel (CID 4) bound to the controller's public address.
    public static func kernel() throws(HALError) -> BluetoothPeripheral.Transports {
        BluetoothPeripheral.Transports(management: try BluetoothManagementSocket()) { address throws(HALError) in
            try L2CAPLESocket.listen(address: address, cid: L2CAPLESocket.attChannel, addressType: .lePublic)
        }
    }
}
