import ANCS

/// Decodes ANCS bytes (the values of the three characteristics) into
/// records. The entry points taking `[UInt8]` serve hex input and report
/// problems with their byte offset; the record builders also serve captures.
public enum ANCSDecoding {
    // MARK: Notification Source

    public static func notificationSource(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        do {
            return record(try NotificationSourceEvent(parsing: bytes))
        } catch {
            switch error {
            case .wrongLength(let n):
                throw .at(min(n, NotificationSourceEvent.byteCount), "Notification Source is \(NotificationSourceEvent.byteCount) bytes, got \(n)")
            }
        }
    }

    public static func record(_ e: NotificationSourceEvent) -> DecodedRecord {
        let event = ANCSNames.event(e.eventID)
        let flags = ANCSNames.flags(e.flags)
        let category = ANCSNames.category(e.category)
        return DecodedRecord(
            layer: .ancs, type: "notification_source",
            summary: "Notification Source: \(event.text) UID \(e.uid.rawValue), \(category.text) (count \(e.categoryCount)), flags \(flags.text)",
            fields: [
                DecodeField("event", .string(event.json)), DecodeField("event_id", .int(e.eventID.rawValue)),
                DecodeField("uid", .int(e.uid.rawValue)),
                DecodeField("category", .string(category.json)), DecodeField("category_id", .int(e.category.rawValue)),
                DecodeField("category_count", .int(e.categoryCount)),
                DecodeField("flags", .array(flags.json.map { .string($0) })), DecodeField("flags_raw", .int(e.flags.rawValue)),
            ])
    }

    // MARK: Control Point

    public static func controlPoint(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        record(try parseCommand(bytes))
    }

    /// The phone-side parser, with the offset of the problem.
    static func parseCommand(_ bytes: [UInt8]) throws(DecodeError) -> ControlPointCommand {
        do {
            return try ControlPointCommand(parsing: bytes)
        } catch {
            switch error {
            case .empty: throw .at(0, "a Control Point command has at least 1 byte (the CommandID), got none")
            case .unknownCommand(let n):
                throw .at(0, "CommandID \(n) is not a Control Point command (0 Get Notification Attributes, 1 Get App Attributes, 2 Perform Notification Action)")
            case .truncated:
                let what = bytes[0] == CommandID.performNotificationAction.rawValue
                    ? "Perform Notification Action is 6 bytes (02, UID, ActionID)"
                    : bytes.count < 5 ? "the NotificationUID needs 4 bytes after the CommandID"
                    : "Title, Subtitle and Message are followed by a 2-byte max length"
                throw .at(bytes.count, "command ends early: \(what), got \(bytes.count) bytes")
            case .missingNULTerminator:
                throw .at(bytes.count, "the AppIdentifier of Get App Attributes must end with a NUL (00) byte")
            }
        }
    }

    public static func record(_ command: ControlPointCommand) -> DecodedRecord {
        func list(_ attrs: [AttributeRequest], app: Bool) -> (String, DecodeValue) {
            let text = attrs.map { a -> String in
                let n = ANCSNames.attribute(a.id, app: app).text
                return a.sendsMaxLength ? "\(n) (max \(a.maxLength))" : n
            }
            let json = attrs.map { a -> DecodeValue in
                var f = [DecodeField("id", .int(a.id)), DecodeField("name", .string(ANCSNames.attribute(a.id, app: app).json))]
                if a.sendsMaxLength { f.append(DecodeField("max_length", .int(a.maxLength))) }
                return .object(f)
            }
            return (text.isEmpty ? "no attributes" : text.joined(separator: ", "), .array(json))
        }
        switch command {
        case .getNotificationAttributes(let uid, let attrs):
            let (text, json) = list(attrs, app: false)
            return DecodedRecord(
                layer: .ancs, type: "control_point",
                summary: "Control Point: Get Notification Attributes UID \(uid.rawValue): \(text)",
                fields: [
                    DecodeField("command", .string("get_notification_attributes")), DecodeField("command_id", .int(0)),
                    DecodeField("uid", .int(uid.rawValue)), DecodeField("attributes", json),
                ])
        case .getAppAttributes(let appID, let attrs):
            let (text, json) = list(attrs, app: true)
            return DecodedRecord(
                layer: .ancs, type: "control_point",
                summary: "Control Point: Get App Attributes \(QuotedText.show(appID)): \(text)",
                fields: [
                    DecodeField("command", .string("get_app_attributes")), DecodeField("command_id", .int(1)),
                    DecodeField("app_identifier", .string(String(decoding: appID, as: UTF8.self))),
                    DecodeField("attributes", json),
                ])
        case .performNotificationAction(let uid, let actionID):
            let action = ANCSNames.action(actionID)
            return DecodedRecord(
                layer: .ancs, type: "control_point",
                summary: "Control Point: Perform Notification Action UID \(uid.rawValue): \(action.text)",
                fields: [
                    DecodeField("command", .string("perform_notification_action")), DecodeField("command_id", .int(2)),
                    DecodeField("uid", .int(uid.rawValue)), DecodeField("action", .string(action.json)),
                    DecodeField("action_id", .int(actionID)),
                ])
        }
    }

    /// The list a decoder registers with the assembler for a command: the
    /// wire max length where the command sends one, otherwise no bound
    /// (the tool shows whatever the phone sent). MessageSize and the action
    /// labels are optional, as on the watch: real iPhones may leave them out.
    static func assemblerList(_ attrs: [AttributeRequest], app: Bool) -> AttributeList {
        var list = AttributeList()
        for a in attrs {
            list.append(AttributeRequest(
                id: a.id, maxLength: a.sendsMaxLength ? a.maxLength : UInt16.max, sendsMaxLength: a.sendsMaxLength,
                isOptional: !app && NotificationAttributeID(rawValue: a.id).isOptional))
        }
        return list
    }

    static func assemblerConfiguration() -> DataSourceAssembler.Configuration {
        var c = DataSourceAssembler.Configuration()
        c.maxPending = 1
        c.appIdentifierCapacity = 1024
        c.valueCapacity = max(1, AttributeList.capacity * Int(UInt16.max))
        c.unrequestedAttributeLimit = Int(UInt16.max)
        return c
    }

    // MARK: Data Source

    /// One attribute of a Data Source response, copied out of the assembler.
    public struct ResponseAttribute: Equatable, Sendable {
        public var id: UInt8
        /// nil: requested but not (yet) received.
        public var value: [UInt8]?
        public var truncated: Bool
        /// The phone may leave it out (MessageSize, the action labels).
        public var isOptional: Bool

        public init(id: UInt8, value: [UInt8]?, truncated: Bool, isOptional: Bool = false) {
            self.id = id
            self.value = value
            self.truncated = truncated
            self.isOptional = isOptional
        }
    }

    /// Copies a response view out of the assembler's buffers.
    static func attributes(of r: DataSourceResponse) -> [ResponseAttribute] {
        (0..<r.requested.count).map { i in
            ResponseAttribute(
                id: r.requested[i].id, value: r.value(at: i).map { Array($0) }, truncated: r.isTruncated(at: i),
                isOptional: r.requested[i].isOptional)
        }
    }

    /// `AppIdentifier="com.apple.MobileSMS", Title missing` and the JSON list.
    static func attributeList(_ attributes: [ResponseAttribute], app: Bool) -> (text: String, json: DecodeValue) {
        var text: [String] = []
        var json: [DecodeValue] = []
        for a in attributes {
            let name = ANCSNames.attribute(a.id, app: app)
            guard let v = a.value else {
                text.append(a.isOptional ? "\(name.text) not sent (optional)" : "\(name.text) missing")
                var f = [DecodeField("id", .int(a.id)), DecodeField("name", .string(name.json)), DecodeField("missing", .bool(true))]
                if a.isOptional { f.append(DecodeField("optional", .bool(true))) }
                json.append(.object(f))
                continue
            }
            var t = "\(name.text)=\(QuotedText.show(v))"
            var f = [
                DecodeField("id", .int(a.id)), DecodeField("name", .string(name.json)),
                DecodeField("length", .int(v.count)), DecodeField("value", .string(String(decoding: v, as: UTF8.self))),
            ]
            if !QuotedText.isValidUTF8(v) { f.append(DecodeField("value_hex", .hex(v))) }
            if !app, a.id == NotificationAttributeID.date.rawValue,
                let d = v.withUnsafeBytes({ ANCSDate.parse($0) }) {
                t += " (\(d))"
                f.append(DecodeField("date", .string(d.description)))
            }
            if a.truncated {
                t += " (truncated)"
                f.append(DecodeField("truncated", .bool(true)))
            }
            text.append(t)
            json.append(.object(f))
        }
        return (text.isEmpty ? "no attributes" : text.joined(separator: ", "), .array(json))
    }

    public static func responseRecord(
        command: CommandID, uid: NotificationUID?, appIdentifier: [UInt8], attributes: [ResponseAttribute], fragments: Int
    ) -> DecodedRecord {
        let (text, json) = attributeList(attributes, app: command == .getAppAttributes)
        let cmd = ANCSNames.command(command.rawValue)
        var subject = ""
        var fields = [DecodeField("command", .string(cmd.json)), DecodeField("command_id", .int(command.rawValue))]
        if let uid {
            subject = " UID \(uid.rawValue)"
            fields.append(DecodeField("uid", .int(uid.rawValue)))
        } else {
            subject = " \(QuotedText.show(appIdentifier))"
            fields.append(DecodeField("app_identifier", .string(String(decoding: appIdentifier, as: UTF8.self))))
        }
        fields.append(DecodeField("fragments", .int(fragments)))
        fields.append(DecodeField("attributes", json))
        let pieces = fragments == 1 ? "1 fragment" : "\(fragments) fragments"
        return DecodedRecord(
            layer: .ancs, type: "data_source",
            summary: "Data Source: \(cmd.text) response\(subject) (\(pieces)): \(text)",
            fields: fields)
    }

    /// Reassembles Data Source fragments (each one GATT notification's
    /// value) with the real `DataSourceAssembler`. With `request` (the
    /// Control Point command the response answers) the assembler checks the
    /// echo, the max lengths and that every requested attribute arrived;
    /// without it the request is taken from the response's own attribute list.
    public static func dataSource(fragments: [[UInt8]], request: [UInt8]? = nil) throws(DecodeError) -> DecodedRecord {
        let all = fragments.flatMap { $0 }
        let layout = try DataSourceLayout.parse(all, allowIncomplete: request != nil)

        var list: AttributeList
        var uid: NotificationUID?
        var appID: [UInt8] = []
        if let request {
            let command: ControlPointCommand
            do { command = try parseCommand(request) } catch { throw DecodeError(error.location, "the --request command: \(error.message)") }
            switch command {
            case .getNotificationAttributes(let u, let attrs):
                list = assemblerList(attrs, app: false)
                uid = u
            case .getAppAttributes(let id, let attrs):
                list = assemblerList(attrs, app: true)
                appID = id
            case .performNotificationAction:
                throw .at(0, "the --request command is Perform Notification Action, which has no Data Source response")
            }
            if layout.command.rawValue != (uid != nil ? 0 : 1) {
                throw .at(0, "the response echoes \(ANCSNames.command(layout.command.rawValue).text), the request was \(ANCSNames.command(uid != nil ? 0 : 1).text)")
            }
            if let uid, layout.uid != uid {
                throw .at(1, "the response is for UID \(layout.uid?.rawValue ?? 0), the request asked for UID \(uid.rawValue)")
            }
            if uid == nil, layout.appIdentifier != appID {
                throw .at(1, "the response is for AppIdentifier \(QuotedText.show(layout.appIdentifier)), the request asked for \(QuotedText.show(appID))")
            }
        } else {
            list = AttributeList()
            for a in layout.attributes { list.append(AttributeRequest(id: a.id, maxLength: UInt16.max, sendsMaxLength: false)) }
            uid = layout.uid
            appID = layout.appIdentifier
        }

        let assembler = DataSourceAssembler(configuration: assemblerConfiguration())
        var expectError: DataSourceAssembler.ExpectError?
        if let uid {
            do { try assembler.expectNotificationAttributes(uid: uid, attributes: list, tag: 1) } catch { expectError = error }
        } else {
            appID.withUnsafeBytes { b in
                do throws(DataSourceAssembler.ExpectError) { try assembler.expectAppAttributes(appIdentifier: b, attributes: list, tag: 1) } catch { expectError = error }
            }
        }
        if let expectError { throw .at(1, "cannot track this request: \(expectError)") }
        var result: [ResponseAttribute]?
        var failure: DataSourceError?
        for fragment in fragments {
            fragment.withUnsafeBytes { bytes in
                assembler.feed(bytes) { event in
                    switch event {
                    case .response(let r): result = attributes(of: r)
                    case .failed(_, let e), .discarded(let e): failure = failure ?? e
                    }
                }
            }
        }
        if result == nil, failure == nil {
            // The phone may leave MessageSize and the action labels out: with
            // everything else there, the response is complete.
            assembler.finishWithoutOptionalAttributes { event in
                if case .response(let r) = event { result = attributes(of: r) }
            }
        }
        if let failure {
            if case .attributeTooLong(let id, let length, let limit) = failure,
                let a = layout.attributes.first(where: { $0.id == id }) {
                throw .at(a.offset + 1, "\(ANCSNames.attribute(id, app: uid == nil).text) has \(length) bytes, the request's max length is \(limit)")
            }
            throw .at(0, failure.description)
        }
        guard let result else {
            var missing: [String] = []
            assembler.cancel(tag: 1) { partial in
                for i in 0..<partial.requested.count where partial.value(at: i) == nil {
                    missing.append(missingName(partial.requested[i], app: uid == nil))
                }
            }
            if missing.isEmpty { missing = (0..<list.count).map { missingName(list[$0], app: uid == nil) } }
            throw .at(all.count, "the response is incomplete: still waiting for \(missing.joined(separator: ", ")) (give the remaining fragments)")
        }
        return responseRecord(
            command: uid != nil ? .getNotificationAttributes : .getAppAttributes, uid: uid, appIdentifier: appID,
            attributes: result, fragments: fragments.count)
    }

    /// `Message`, or `Positive Action Label (optional)`.
    static func missingName(_ a: AttributeRequest, app: Bool) -> String {
        ANCSNames.attribute(a.id, app: app).text + (a.isOptional ? " (optional)" : "")
    }
}

/// The structure of a whole Data Source response, with the offset of each
/// attribute: used to point at the byte where hex input goes wrong.
struct DataSourceLayout {
    struct Attribute {
        var id: UInt8
        var offset: Int
        var length: Int
    }

    var command: CommandID
    var uid: NotificationUID?
    var appIdentifier: [UInt8] = []
    var attributes: [Attribute] = []

    /// `allowIncomplete`: a response cut at the end is accepted (the
    /// assembler, knowing the request, says what is missing).
    static func parse(_ b: [UInt8], allowIncomplete: Bool) throws(DecodeError) -> DataSourceLayout {
        guard let first = b.first else { throw .at(0, "no Data Source bytes") }
        var layout: DataSourceLayout
        var o: Int
        switch CommandID(rawValue: first) {
        case .getNotificationAttributes:
            guard b.count >= 5 else {
                throw .at(b.count, "a Get Notification Attributes response starts with 00 and a 4-byte NotificationUID, got \(b.count) bytes")
            }
            let uid = UInt32(b[1]) | UInt32(b[2]) << 8 | UInt32(b[3]) << 16 | UInt32(b[4]) << 24
            layout = DataSourceLayout(command: .getNotificationAttributes, uid: NotificationUID(uid))
            o = 5
        case .getAppAttributes:
            guard let nul = b.dropFirst().firstIndex(of: 0) else {
                throw .at(b.count, "the AppIdentifier of a Get App Attributes response must end with a NUL (00) byte")
            }
            layout = DataSourceLayout(command: .getAppAttributes, appIdentifier: Array(b[1..<nul]))
            o = nul + 1
        default:
            throw .at(0, "a Data Source response echoes CommandID 0 (Get Notification Attributes) or 1 (Get App Attributes), got \(first)")
        }
        let app = layout.command == .getAppAttributes
        while o < b.count {
            let id = b[o]
            let name = ANCSNames.attribute(id, app: app).text
            guard o + 3 <= b.count else {
                if allowIncomplete { break }
                throw .at(b.count, "attribute \(name) at byte \(o) needs a 2-byte length, the data ends (missing fragments?)")
            }
            let length = Int(b[o + 1]) | Int(b[o + 2]) << 8
            if o + 3 + length > b.count, !allowIncomplete {
                throw .at(b.count, "attribute \(name) at byte \(o) declares \(length) bytes, only \(b.count - o - 3) follow (missing fragments?)")
            }
            if layout.attributes.contains(where: { $0.id == id }) {
                throw .at(o, "attribute \(name) appears twice in one response")
            }
            layout.attributes.append(Attribute(id: id, offset: o, length: length))
            o += 3 + length
        }
        return layout
    }
}
