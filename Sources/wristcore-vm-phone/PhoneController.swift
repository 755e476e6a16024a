import LinuxLoop
import HAL
import LinuxHAL
import Loop
import Peripheral

/// The phone's own controller (hciN) through mgmt, the way iOS keeps its
/// radio: LE on, bondable, Secure Connections, IO capability DisplayYesNo
/// (so pairing with the watch is numeric comparison), RPA resolving, powered.
/// Long term keys are never loaded or cleared here: the kernel keeps the bond made in the
/// first connection for as long as the controller exists, which is what lets
/// the watch's restart be tested without pairing again.
///
/// It is also the pairing agent: every User Confirmation Request on hciN is
/// answered (yes by default), as a user tapping "Pair" would.
final class PhoneController {
    let client: ManagementClient
    let index: UInt16
    let confirmPairing: Bool
    private(set) var address: BluetoothAddress?

    init(client: ManagementClient, index: Int, confirmPairing: Bool) {
        self.client = client
        self.index = UInt16(index)
        self.confirmPairing = confirmPairing
        client.eventHandler = { [unowned(unsafe) self] index, event in
            if index == self.index { self.handle(event) }
        }
    }

    /// Runs the set-up; `completion` gets the controller's address or what failed.
    func setUp(completion: @escaping (Result<BluetoothAddress, PhoneFailure>) -> Void) {
        let steps: [(EncodedManagementCommand, String)] = [
            (EncodedManagementCommand(SetControllerSetting.powered(false)), "Set Powered off"),
            (EncodedManagementCommand(SetControllerSetting.lowEnergy(true)), "Set Low Energy"),
            (EncodedManagementCommand(SetControllerSetting.bondable(true)), "Set Bondable"),
            (EncodedManagementCommand(SetControllerSetting.secureConnections(.on)), "Set Secure Connections"),
            (EncodedManagementCommand(SetIOCapability(.displayYesNo)), "Set IO Capability"),
            // Loading the (empty) IRK list is what turns on RPA resolving in
            // the kernel (HCI_RPA_RESOLVING), as bluetoothd does at start-up:
            // only then does SMP ask the watch for its IRK, so the bond is
            // stored under the watch's identity and found again when it
            // advertises from a new private address after a restart.
            (EncodedManagementCommand(LoadIdentityResolvingKeys([])), "Load Identity Resolving Keys"),
            (EncodedManagementCommand(SetLocalName(name: "VM iPhone", shortName: "iPhone")), "Set Local Name"),
            (EncodedManagementCommand(SetControllerSetting.powered(true)), "Set Powered on"),
        ]
        client.send(ReadControllerInfo(), index: index) { [self] status, reply in
            guard status == .success, let info = reply.withUnsafeBytes({ ControllerInfo.decode($0) }) else {
                return completion(.failure(PhoneFailure("hci\(index): Read Controller Information failed (\(status))")))
            }
            address = info.address
            run(steps[...]) { error in
                if let error { completion(.failure(PhoneFailure(error))) } else { completion(.success(info.address)) }
            }
        }
    }

    private func run(_ steps: ArraySlice<(EncodedManagementCommand, String)>, completion: @escaping (String?) -> Void) {
        guard let (command, name) = steps.first else { return completion(nil) }
        client.send(command, index: index) { [self] status, _ in
            guard status == .success else { return completion("hci\(index): \(name) failed (\(status))") }
            run(steps.dropFirst(), completion: completion)
        }
    }

    private func handle(_ event: ManagementEvent) {
        switch event {
        case .userConfirmationRequest(let address, let type, let hint, let value):
            let passkey = String(value).leftPadded(to: 6)
            PhoneOutput.emit("PAIRING passkey=\(passkey) hint=\(hint) addr=\(address) type=\(Self.name(type))")
            client.send(UserConfirmationReply(address: address, addressType: type, accept: confirmPairing), index: index) { status, _ in
                PhoneOutput.emit("\(self.confirmPairing ? "CONFIRMED" : "REJECTED") status=\(status)")
            }
        case .newLongTermKey(let store, let key):
            PhoneOutput.emit("BONDED addr=\(key.address) type=\(Self.name(key.addressType)) store=\(store ? 1 : 0)")
        case .newIdentityResolvingKey(_, let random, let key):
            PhoneOutput.emit("IRK rpa=\(random) identity=\(key.address)")
        case .authenticationFailed(let address, _, let status):
            PhoneOutput.emit("AUTH-FAILED addr=\(address) status=0x\(String(status, radix: 16))")
        case .deviceConnected(let address, let type, _, _):
            PhoneOutput.emit("LINK-UP addr=\(address) type=\(Self.name(type))")
        case .deviceDisconnected(let address, _, let reason):
            PhoneOutput.emit("LINK-DOWN addr=\(address) reason=\(reason.rawValue)")
        case .connectFailed(let address, _, let status):
            PhoneOutput.emit("CONNECT-FAILED addr=\(address) status=0x\(String(status, radix: 16))")
        default:
            break
        }
    }

    static func name(_ t: BluetoothAddressType) -> String {
        switch t {
        case .lePublic: "public"
        case .leRandom: "random"
        default: "bredr"
        }
    }
}

extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
