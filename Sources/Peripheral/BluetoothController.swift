import HAL
import Log

/// How the watch wants its controller.
public struct ControllerConfiguration: Equatable, Sendable {
    public var name: String
    public var ioCapability: IOCapability
    /// LE privacy: advertise from resolvable private addresses made with
    /// `localIRK` (which must stay the same across restarts, so a bonded
    /// phone still recognises the watch). nil: public address.
    public var localIRK: [UInt8]?
    /// Turn BR/EDR off on dual-mode controllers (the watch is LE only).
    public var disableBREDR: Bool

    public init(name: String, ioCapability: IOCapability, localIRK: [UInt8]? = nil, disableBREDR: Bool = true) {
        self.name = name
        self.ioCapability = ioCapability
        self.localIRK = localIRK
        self.disableBREDR = disableBREDR
    }
}

/// Owns one controller through mgmt: the set-up sequence, advertising,
/// pairing replies and unpairing. Asynchronous on the loop; every step's
/// result is checked and a failure says which command failed and how to fix it.
///
/// Set-up: Read Controller Information (LE capable?) → Set Powered off →
/// Set Low Energy on → Set BR/EDR off (dual-mode only) → Set Bondable on →
/// Set Connectable on → Set Secure Connections on → Set IO Capability →
/// Set Privacy → Set Local Name → Load Long Term Keys → Load IRKs →
/// Set Powered on. Settings that only some controllers have (BR/EDR off,
/// Secure Connections, privacy, name, IRKs) are skipped with a warning
/// when refused as Not Supported / Rejected.
public final class BluetoothController {
    public let client: ManagementClient
    public let index: UInt16
    private let logger: Logger
    public private(set) var info: ControllerInfo?
    public private(set) var settings: ManagementSettings = []
    /// Bumped by `cancelSetUp()`: a set-up started before stops at its next step.
    private var setUpGeneration = 0

    private struct Step {
        var command: EncodedManagementCommand
        var required: Bool

        init(command: some ManagementCommand, required: Bool) {
            self.command = EncodedManagementCommand(command)
            self.required = required
        }
    }

    public init(client: ManagementClient, index: UInt16, logger: Logger) {
        self.client = client
        self.index = index
        self.logger = logger
    }

    /// Runs the set-up sequence; `completion` gets the controller's info or
    /// the first error. It can run again (the adapter came back), from the
    /// first step; `cancelSetUp()` stops one in progress.
    public func setUp(
        _ configuration: ControllerConfiguration, longTermKeys: [LongTermKey], irks: [IdentityResolvingKey],
        completion: @escaping (Result<ControllerInfo, BluetoothError>) -> Void
    ) {
        let generation = setUpGeneration
        client.send(ReadControllerInfo(), index: index) { [self] status, reply in
            guard generation == setUpGeneration else { return }
            guard status == .success else {
                return completion(.failure(.command(.readControllerInfo, hci: index, status: status)))
            }
            guard let info = reply.withUnsafeBytes({ ControllerInfo.decode($0) }) else {
                return completion(.failure(BluetoothError("hci\(index) sent a malformed controller information reply")))
            }
            self.info = info
            self.settings = info.currentSettings
            logger.info("hci\(index): \(info.address), manufacturer 0x\(String(info.manufacturer, radix: 16)), supports [\(info.supportedSettings)], now [\(info.currentSettings)]")
            guard info.supportsLowEnergy else {
                return completion(.failure(BluetoothError(
                    "hci\(index) (\(info.address)) does not support Bluetooth Low Energy",
                    hint: "WristCore needs a Bluetooth 4.0+ (LE) adapter; set bluetooth.hci in the board file to one")))
            }
            let steps = Self.steps(configuration, info: info, longTermKeys: longTermKeys, irks: irks)
            run(steps[...], generation: generation) { result in completion(result.map { info }) }
        }
    }

    /// Stops a set-up in progress after the command in flight (the adapter
    /// went away again): no further step is sent, its completion never runs.
    public func cancelSetUp() {
        setUpGeneration &+= 1
    }

    private static func steps(_ c: ControllerConfiguration, info: ControllerInfo, longTermKeys: [LongTermKey], irks: [IdentityResolvingKey]) -> [Step] {
        var s: [Step] = [
            Step(command: SetControllerSetting.powered(false), required: true),
            Step(command: SetControllerSetting.lowEnergy(true), required: true),
        ]
        if c.disableBREDR && info.supportedSettings.contains(.bredr) {
            s.append(Step(command: SetControllerSetting.bredr(false), required: false))
        }
        s += [
            Step(command: SetControllerSetting.bondable(true), required: true),
            Step(command: SetControllerSetting.connectable(true), required: true),
            Step(command: SetControllerSetting.secureConnections(.on), required: false),
            Step(command: SetIOCapability(c.ioCapability), required: true),
        ]
        if let irk = c.localIRK, info.supportedSettings.contains(.privacy) {
            s.append(Step(command: SetPrivacy(enabled: true, localIRK: irk), required: false))
        }
        s += [
            Step(command: SetLocalName(name: c.name, shortName: String(c.name.prefix(10))), required: false),
            Step(command: LoadLongTermKeys(longTermKeys), required: false),
            Step(command: LoadIdentityResolvingKeys(irks), required: false),
            Step(command: SetControllerSetting.powered(true), required: true),
        ]
        return s
    }

    private func run(_ steps: ArraySlice<Step>, generation: Int, completion: @escaping (Result<Void, BluetoothError>) -> Void) {
        guard let step = steps.first else { return completion(.success(())) }
        let opcode = step.command.opcode
        send(step.command) { [self] status, reply in
            guard generation == setUpGeneration else { return }
            if status == .success {
                if let s = reply.withUnsafeBytes({ SetControllerSetting.decodeReply($0) }), reply.count == 4 { settings = s }
                logger.debug("hci\(index): \(opcode) ok")
            } else if !step.required && (status == .notSupported || status == .rejected || status == .invalidParameters || status == .unknownCommand) {
                logger.warning("hci\(index): \(opcode) refused (\(status)); continuing without it")
            } else {
                return completion(.failure(.command(opcode, hci: index, status: status)))
            }
            run(steps.dropFirst(), generation: generation, completion: completion)
        }
    }

    /// Sends any command to this controller.
    public func send(_ command: some ManagementCommand, completion: @escaping ManagementClient.Completion) {
        client.send(command, index: index, completion: completion)
    }

    /// Starts advertising `payload` (replacing any earlier instance).
    public func startAdvertising(_ payload: AdvertisingPayload, completion: @escaping (BluetoothError?) -> Void) {
        client.send(payload.command, index: index) { [self] status, _ in
            completion(status == .success ? nil : .command(.addAdvertising, hci: index, status: status))
        }
    }

    /// Stops advertising (all instances).
    public func stopAdvertising(completion: @escaping (BluetoothError?) -> Void) {
        client.send(RemoveAdvertising(instance: 0), index: index) { [self] status, _ in
            // Invalid Parameters: nothing was advertising.
            completion(status == .success || status == .invalidParameters ? nil : .command(.removeAdvertising, hci: index, status: status))
        }
    }
}
