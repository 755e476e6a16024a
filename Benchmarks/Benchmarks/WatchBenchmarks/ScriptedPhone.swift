import LinuxHAL

/// The phone's end of the link during measurement: answers the watch's Control
/// Point writes from preallocated buffers, so the phone side adds no malloc to
/// `mallocCountTotal` (which counts the whole process).
///
/// It knows the GATT handles and MTU the real `SimulatedPhone` negotiated
/// during set-up (see `WatchRig`), and speaks ANCS as the specification says:
/// Get Notification Attributes → Write Response, then the attributes in
/// Data Source notifications of at most ATT_MTU-3 bytes; Get App Attributes →
/// the display name; Perform Notification Action → Write Response, then
/// (if `removeOnAction`) Notification Source "removed" for that UID.
final class ScriptedPhone {
    let channel: SeqPacketChannel
    let mtu: Int
    let notificationSource: UInt16
    let controlPoint: UInt16
    let dataSource: UInt16
    /// After a Perform Notification Action, remove the notification (as iOS
    /// does when a message is dismissed). Off: the action is accepted and the
    /// notification stays (the button-only benchmark presses again).
    var removeOnAction = true

    private let rx = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
    private let tx = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
    private let response = UnsafeMutableRawBufferPointer.allocate(byteCount: 2048, alignment: 8)

    /// Attribute values by NotificationAttributeID (0 AppIdentifier ... 7
    /// NegativeActionLabel); even and odd UIDs get different texts, so
    /// consecutive notifications draw different screens.
    let values: [[[UInt8]]] = [
        [
            Array("com.apple.MobileSMS".utf8), Array("Anna Appleseed".utf8), Array("Lunch".utf8),
            Array("Are we still on for lunch tomorrow at 12:30? I booked the place by the river.".utf8),
            Array("77".utf8), Array("20240501T120000".utf8), Array("Reply".utf8), Array("Clear".utf8),
        ],
        [
            Array("com.apple.MobileSMS".utf8), Array("Bo Chen".utf8), Array("".utf8),
            Array("The train is late, see you at ten past. 火车晚点了，十点十分见。".utf8),
            Array("76".utf8), Array("20240501T121500".utf8), Array("Reply".utf8), Array("Clear".utf8),
        ],
    ]
    let displayName = Array("Messages".utf8)

    /// What the phone received, for the checks after measurement.
    private(set) var attributeRequests = 0
    private(set) var appRequests = 0
    private(set) var actions = 0
    private(set) var negativeActions = 0
    private(set) var otherPDUs = 0
    private(set) var lastActionUID: UInt32 = 0

    init(channel: SeqPacketChannel, mtu: Int, notificationSource: UInt16, controlPoint: UInt16, dataSource: UInt16) {
        self.channel = channel
        self.mtu = mtu
        self.notificationSource = notificationSource
        self.controlPoint = controlPoint
        self.dataSource = dataSource
    }

    deinit {
        rx.deallocate()
        tx.deallocate()
        response.deallocate()
    }

    private func send(_ count: Int) {
        let result = try? channel.send(UnsafeRawBufferPointer(rebasing: tx[..<count]))
        precondition(result == .sent, "the watch's socket did not take a PDU")
    }

    /// Handle Value Notification on Notification Source: EventID, EventFlags,
    /// CategoryID, CategoryCount, UID.
    func sendNotificationSource(event: UInt8, flags: UInt8, category: UInt8, count: UInt8, uid: UInt32) {
        tx[0] = 0x1B
        tx[1] = UInt8(truncatingIfNeeded: notificationSource)
        tx[2] = UInt8(truncatingIfNeeded: notificationSource >> 8)
        tx[3] = event
        tx[4] = flags
        tx[5] = category
        tx[6] = count
        tx[7] = UInt8(truncatingIfNeeded: uid)
        tx[8] = UInt8(truncatingIfNeeded: uid >> 8)
        tx[9] = UInt8(truncatingIfNeeded: uid >> 16)
        tx[10] = UInt8(truncatingIfNeeded: uid >> 24)
        send(11)
    }

    /// Reads one PDU from the watch and answers it. False when nothing was waiting.
    func serviceOne() -> Bool {
        guard case .packet(let n)? = try? channel.receive(into: rx) else { return false }
        // Only Write Requests to the Control Point are expected in steady state.
        guard n >= 4, rx[0] == 0x12, UInt16(rx[1]) | UInt16(rx[2]) << 8 == controlPoint else {
            otherPDUs += 1
            return true
        }
        let command = UnsafeRawBufferPointer(rebasing: rx[3..<n])
        tx[0] = 0x13  // Write Response
        send(1)
        switch command[0] {
        case 0: answerNotificationAttributes(command)
        case 1: answerAppAttributes(command)
        case 2: performAction(command)
        default: break
        }
        return true
    }

    private func uid(_ command: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(command[1]) | UInt32(command[2]) << 8 | UInt32(command[3]) << 16 | UInt32(command[4]) << 24
    }

    private func answerNotificationAttributes(_ command: UnsafeRawBufferPointer) {
        attributeRequests += 1
        let table = values[Int(uid(command) & 1)]
        var length = 0
        for i in 0..<5 { response[length + i] = command[i] }
        length = 5
        var i = 5
        while i < command.count {
            let id = Int(command[i])
            i += 1
            var max = Int.max
            if id >= 1 && id <= 3 {
                max = Int(command[i]) | Int(command[i + 1]) << 8
                i += 2
            }
            let value = table[id]
            let count = min(value.count, max)
            response[length] = UInt8(id)
            response[length + 1] = UInt8(truncatingIfNeeded: count)
            response[length + 2] = UInt8(truncatingIfNeeded: count >> 8)
            length += 3
            for k in 0..<count { response[length + k] = value[k] }
            length += count
        }
        sendDataSource(length)
    }

    private func answerAppAttributes(_ command: UnsafeRawBufferPointer) {
        appRequests += 1
        var length = 0
        // CommandID, AppIdentifier with its NUL.
        while length < command.count {
            response[length] = command[length]
            length += 1
            if length > 1 && command[length - 1] == 0 { break }
        }
        response[length] = 0  // DisplayName
        response[length + 1] = UInt8(displayName.count)
        response[length + 2] = 0
        length += 3
        for b in displayName {
            response[length] = b
            length += 1
        }
        sendDataSource(length)
    }

    private func performAction(_ command: UnsafeRawBufferPointer) {
        actions += 1
        let target = uid(command)
        lastActionUID = target
        if command.count > 5 && command[5] == 1 { negativeActions += 1 }
        if removeOnAction {
            sendNotificationSource(event: 2, flags: 0, category: 4, count: 0, uid: target)
        }
    }

    /// The response in ATT_MTU-3 fragments, as iOS sends it.
    private func sendDataSource(_ length: Int) {
        var offset = 0
        while offset < length {
            let chunk = min(mtu - 3, length - offset)
            tx[0] = 0x1B
            tx[1] = UInt8(truncatingIfNeeded: dataSource)
            tx[2] = UInt8(truncatingIfNeeded: dataSource >> 8)
            (tx.baseAddress! + 3).copyMemory(from: response.baseAddress! + offset, byteCount: chunk)
            send(3 + chunk)
            offset += chunk
        }
    }
}
