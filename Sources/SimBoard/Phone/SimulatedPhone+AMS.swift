import ATTCodec
import GATT

/// What a script can do to the simulated iPhone's media player (as if the
/// wearer touched the phone): the player changes and the watch is told
/// through the Entity Updates it registered for.
public enum SimulatedMediaCommand: String, Equatable, Sendable, CaseIterable {
    case play, pause, toggle, next, previous
    case volumeUp = "volume-up", volumeDown = "volume-down"

    /// The AMS RemoteCommandID that does the same.
    var remoteCommandID: UInt8 {
        switch self {
        case .play: 0
        case .pause: 1
        case .toggle: 2
        case .next: 3
        case .previous: 4
        case .volumeUp: 5
        case .volumeDown: 6
        }
    }
}

/// The Media Source: AMS served by the simulated iPhone. The Remote Command
/// notification (the supported commands) follows its subscription; an
/// Entity Update registration is answered with the registered attributes'
/// current values; values longer than a notification (ATT_MTU − 3 − 3) go
/// cut, with the truncated flag, and Entity Attribute then serves them whole.
extension SimulatedPhone {
    static func amsDefinition(phone: @escaping () -> SimulatedPhone, _ configuration: Configuration) -> GATTServiceDefinition {
        IPhoneDatabase.ams(
            requireEncryption: configuration.requireEncryption,
            remoteCommand: { phone().remoteCommandWritten(Array($0)) },
            entityUpdate: { phone().entityUpdateWritten(Array($0)) },
            entityAttributeWrite: { phone().entityAttributeWritten(Array($0)) },
            entityAttributeRead: {
                let p = phone()
                let value = p.media.selectedValue(nowMs: p.nowMilliseconds)
                p.record("ams entity attribute read \(value.count) bytes")
                return value
            })
    }

    /// Whether the watch subscribed Entity Update and registered something.
    public var amsSessionActive: Bool {
        handles.entityUpdate != 0 && server.clientConfiguration(of: handles.entityUpdate) & 1 != 0
            && !media.registrations.isEmpty
    }

    func amsSubscriptionChanged(_ valueHandle: UInt16, _ value: UInt16) {
        if valueHandle == handles.remoteCommand {
            record(value & 1 != 0 ? "ams remote command subscribed" : "ams remote command unsubscribed")
            if value & 1 != 0 {
                // After the Write Response: what the player supports.
                loop.deferWork { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.sendSupportedCommands() } }
            }
        } else {
            record(value & 1 != 0 ? "ams entity update subscribed" : "ams entity update unsubscribed")
        }
    }

    private func remoteCommandWritten(_ bytes: [UInt8]) -> ATTErrorCode? {
        let (error, changed) = media.perform(bytes, nowMs: nowMilliseconds)
        let name = bytes.count == 1 ? SimulatedMediaCommand.allCases.first { $0.remoteCommandID == bytes[0] }?.rawValue : nil
        if let error {
            record("ams remote command \(bytes.map(String.init).joined(separator: " ")) -> error 0x\(String(error.rawValue, radix: 16, uppercase: true))")
            return ATTErrorCode(error.rawValue)
        }
        record("ams remote command \(name ?? "\(bytes[0])")")
        loop.deferWork { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.sendEntityUpdates(changed) } }
        return nil
    }

    private func entityUpdateWritten(_ bytes: [UInt8]) -> ATTErrorCode? {
        if let error = media.register(bytes) {
            record("ams entity update registration -> error 0x\(String(error.rawValue, radix: 16, uppercase: true))")
            return ATTErrorCode(error.rawValue)
        }
        record("ams registered entity \(bytes[0]) attributes \(bytes.dropFirst().map(String.init).joined(separator: ","))")
        let now = media.registered(bytes[0])
        loop.deferWork { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.sendEntityUpdates(now) } }
        return nil
    }

    private func entityAttributeWritten(_ bytes: [UInt8]) -> ATTErrorCode? {
        if let error = media.select(bytes) {
            record("ams entity attribute \(bytes.map(String.init).joined(separator: " ")) -> error 0x\(String(error.rawValue, radix: 16, uppercase: true))")
            return ATTErrorCode(error.rawValue)
        }
        record("ams entity attribute \(bytes[0]) \(bytes[1])")
        return nil
    }

    /// Entity Update notifications for the attributes the watch registered.
    func sendEntityUpdates(_ attributes: [AMSProvider.Attribute]) {
        guard handles.entityUpdate != 0, server.clientConfiguration(of: handles.entityUpdate) & 1 != 0 else { return }
        let room = bearer.mtu - 3 - 3
        for a in attributes where media.isRegistered(a) {
            guard let value = media.value(a, nowMs: nowMilliseconds) else { continue }
            let n = min(value.count, room)
            let truncated = n < value.count
            let pdu = [a.entity, a.attribute, truncated ? 1 : 0] + value[..<n]
            _ = pdu.withUnsafeBytes { server.notify(valueHandle: handles.entityUpdate, value: $0) }
            if truncated { record("ams entity update \(a.entity) \(a.attribute) truncated at \(n) of \(value.count) bytes") }
        }
    }

    private func sendSupportedCommands() {
        guard handles.remoteCommand != 0 else { return }
        _ = media.supportedCommandsValue.withUnsafeBytes { server.notify(valueHandle: handles.remoteCommand, value: $0) }
    }

    /// The wearer uses the player on the phone.
    func mediaCommand(_ command: SimulatedMediaCommand) {
        let now = nowMilliseconds
        let changed: [AMSProvider.Attribute]
        switch command {
        case .play: changed = media.setPlaying(true, nowMs: now)
        case .pause: changed = media.setPlaying(false, nowMs: now)
        case .toggle: changed = media.setPlaying(!media.playing, nowMs: now)
        case .next: changed = media.skip(+1, nowMs: now)
        case .previous: changed = media.skip(-1, nowMs: now)
        case .volumeUp: changed = media.changeVolume(+1)
        case .volumeDown: changed = media.changeVolume(-1)
        }
        record("media \(command.rawValue)")
        sendEntityUpdates(changed)
    }

    func publishAMS() {
        guard handles.ams == nil else { return record("publish-ams: already published") }
        let def = Self.amsDefinition(phone: { [unowned(unsafe) self] in self }, configuration)
        guard let s = try? server.publish(def) else { return record("publish-ams: no room") }
        handles.ams = s.range
        handles.remoteCommand = s.valueHandles[0]
        handles.entityUpdate = s.valueHandles[1]
        handles.entityAttribute = s.valueHandles[2]
        media = AMSProvider(queue: media.queue)
        record("ams published \(s.range)")
        server.serviceChanged(s.range)
    }

    func unpublishAMS() {
        guard let range = handles.ams else { return record("unpublish-ams: not published") }
        _ = server.unpublish(serviceAt: range.start)
        handles.ams = nil
        handles.remoteCommand = 0
        handles.entityUpdate = 0
        handles.entityAttribute = 0
        record("ams unpublished \(range)")
        server.serviceChanged(range)
    }
}
