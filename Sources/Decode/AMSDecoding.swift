import AMS
import TextFormat

/// Decodes Apple Media Service bytes (the values of its three
/// characteristics) into records, through the same codecs the watch uses
/// (`EntityUpdateNotification`, `PlaybackInfo`, `VolumeValue`,
/// `DurationValue`, `RemoteCommand`). The entry points taking `[UInt8]` serve
/// hex input and report problems with their byte offset; captures use them
/// too (`AMSTracker`).
public enum AMSDecoding {
    // MARK: Entity Update

    /// An Entity Update notification: EntityID, AttributeID, flags, value.
    public static func entityUpdate(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        let header: (entity: UInt8, attribute: UInt8, flags: UInt8)
        do {
            header = try parse(bytes) { raw throws(AMSParseError) in
                let n = try EntityUpdateNotification(parsing: raw)
                return (n.entityIDRaw, n.attributeIDRaw, n.flags.rawValue)
            }.get()
        } catch {
            throw .at(
                bytes.count,
                "an Entity Update notification starts with EntityID, AttributeID and EntityUpdateFlags (3 bytes), got \(bytes.count)")
        }
        let value = Array(bytes[EntityUpdateNotification.headerCount...])
        let truncated = header.flags & EntityUpdateFlags.truncated.rawValue != 0
        // A cut number cannot be read; text is shown as it came.
        let meaning = truncated
            ? Meaning()
            : try self.meaning(entity: header.entity, attribute: header.attribute, value: value, at: EntityUpdateNotification.headerCount)
        let (subject, subjectFields) = self.subject(entity: header.entity, attribute: header.attribute)
        let flags = AMSNames.flags(header.flags)
        var summary = "Entity Update: \(subject)=\(QuotedText.show(value))"
        if let text = meaning.text { summary += " (\(text))" }
        if truncated { summary += " (truncated: the whole value is read through Entity Attribute)" }
        if header.flags & ~EntityUpdateFlags.truncated.rawValue != 0 { summary += ", flags \(flags.text)" }
        return DecodedRecord(
            layer: .ams, type: "entity_update", summary: summary,
            fields: subjectFields + [
                DecodeField("flags", .array(flags.json.map { .string($0) })), DecodeField("flags_raw", .int(header.flags)),
                DecodeField("truncated", .bool(truncated)),
            ] + valueFields(value) + meaning.fields)
    }

    /// The Entity Update registration the watch writes: EntityID, AttributeIDs.
    public static func entityUpdateCommand(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        guard let entity = bytes.first else {
            throw .at(0, "an Entity Update registration is an EntityID followed by AttributeIDs, got no bytes")
        }
        guard bytes.count >= 2 else {
            throw .at(1, "an Entity Update registration names at least one AttributeID after the EntityID (the phone answers Invalid Command), got 1 byte")
        }
        let e = AMSNames.entity(entity)
        let ids = Array(bytes.dropFirst())
        let names = ids.map { AMSNames.attribute($0, of: entity) }
        return DecodedRecord(
            layer: .ams, type: "entity_update_command",
            summary: "Entity Update: register \(e.text): \(names.map { $0.text }.joined(separator: ", "))",
            fields: [
                DecodeField("entity", .string(e.json)), DecodeField("entity_id", .int(entity)),
                DecodeField("attributes", .array(zip(ids, names).map { id, n in
                    .object([DecodeField("id", .int(id)), DecodeField("name", .string(n.json))])
                })),
            ])
    }

    // MARK: Entity Attribute

    /// The Entity Attribute write: which attribute the next read returns whole.
    public static func entityAttributeCommand(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        let command = try parseEntityAttribute(bytes)
        let (subject, fields) = subject(entity: command.entityIDRaw, attribute: command.attributeIDRaw)
        return DecodedRecord(
            layer: .ams, type: "entity_attribute_command",
            summary: "Entity Attribute: select \(subject) (the next read returns its whole value)", fields: fields)
    }

    static func parseEntityAttribute(_ bytes: [UInt8]) throws(DecodeError) -> EntityAttributeCommand {
        guard let c = bytes.withUnsafeBytes({ EntityAttributeCommand(parsing: $0) }) else {
            throw .at(
                min(bytes.count, EntityAttributeCommand.byteCount),
                "an Entity Attribute command is 2 bytes (EntityID, AttributeID), got \(bytes.count)")
        }
        return c
    }

    /// The value read from Entity Attribute (Read, then Read Blobs), for the
    /// attribute the last Entity Attribute write selected (nil: the write is
    /// not in the capture). `complete` false: the reader stopped while the
    /// last response was full, so the value may go on.
    public static func entityAttributeValue(
        entity: UInt8?, attribute: UInt8?, value: [UInt8], reads: Int, complete: Bool = true
    ) throws(DecodeError) -> DecodedRecord {
        var fields: [DecodeField] = []
        var summary = "Entity Attribute: "
        var meaning = Meaning()
        if let entity, let attribute {
            let (subject, subjectFields) = self.subject(entity: entity, attribute: attribute)
            summary += "\(subject)=\(QuotedText.show(value))"
            fields = subjectFields
            if complete { meaning = try self.meaning(entity: entity, attribute: attribute, value: value, at: 0) }
        } else {
            summary += "value read with no Entity Attribute write before it (the capture started later?): \(QuotedText.show(value))"
        }
        if let text = meaning.text { summary += " (\(text))" }
        summary += reads == 1 ? " (1 read" : " (\(reads) reads"
        summary += complete ? ")" : "; the reader stopped with a full response: the value may go on)"
        fields += [DecodeField("reads", .int(reads))] + valueFields(value)
        if !complete { fields.append(DecodeField("complete", .bool(false))) }
        return DecodedRecord(layer: .ams, type: "entity_attribute_value", summary: summary, fields: fields + meaning.fields)
    }

    // MARK: Remote Command

    /// The Remote Command write: one RemoteCommandID.
    public static func remoteCommand(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        guard bytes.count == 1 else {
            throw .at(min(bytes.count, 1), "a Remote Command is 1 byte (the RemoteCommandID), got \(bytes.count)")
        }
        let c = AMSNames.command(bytes[0])
        return DecodedRecord(
            layer: .ams, type: "remote_command", summary: "Remote Command: \(c.text)",
            fields: [DecodeField("command", .string(c.json)), DecodeField("command_id", .int(bytes[0]))])
    }

    /// The Remote Command notification: the commands the player supports now
    /// (one ID a byte; empty: no player). Never fails.
    public static func remoteCommandNotification(_ bytes: [UInt8]) -> DecodedRecord {
        let names = bytes.map(AMSNames.command)
        let list = names.isEmpty ? "no commands" : names.map { $0.text }.joined(separator: ", ")
        return DecodedRecord(
            layer: .ams, type: "remote_command_supported", summary: "Remote Command: the player supports \(list)",
            fields: [
                DecodeField("commands", .array(names.map { .string($0.json) })),
                DecodeField("command_ids", .array(bytes.map { .int($0) })),
            ])
    }

    // MARK: errors

    /// The characteristic an AMS error came from, and what was asked of it.
    public enum Refused: Equatable, Sendable {
        case remoteCommand(UInt8?)
        case entityUpdate(entity: UInt8?)
        case entityAttribute(entity: UInt8?, attribute: UInt8?, read: Bool)
    }

    /// An Error Response with an AMS code (0xA0–0xA2) to a write or read of
    /// an AMS characteristic; nil for other codes (the ATT line names them).
    public static func errorRecord(_ refused: Refused, code: UInt8) -> DecodedRecord? {
        guard let e = AMSNames.error(code) else { return nil }
        var fields: [DecodeField] = []
        let what: String
        let type: String
        switch refused {
        case .remoteCommand(let id):
            type = "remote_command_error"
            if let id {
                let c = AMSNames.command(id)
                what = "Remote Command: the phone refused \(c.text)"
                fields = [DecodeField("command", .string(c.json)), DecodeField("command_id", .int(id))]
            } else {
                what = "Remote Command: the phone refused the command"
            }
        case .entityUpdate(let entity):
            type = "entity_update_error"
            if let entity {
                let n = AMSNames.entity(entity)
                what = "Entity Update: the phone refused the registration of \(n.text)"
                fields = [DecodeField("entity", .string(n.json)), DecodeField("entity_id", .int(entity))]
            } else {
                what = "Entity Update: the phone refused the registration"
            }
        case .entityAttribute(let entity, let attribute, let read):
            type = "entity_attribute_error"
            let verb = read ? "the read of" : "the selection of"
            if let entity, let attribute {
                let (subject, subjectFields) = subject(entity: entity, attribute: attribute)
                what = "Entity Attribute: the phone refused \(verb) \(subject)"
                fields = subjectFields
            } else {
                what = "Entity Attribute: the phone refused \(verb) an attribute"
            }
            fields.append(DecodeField("request", .string(read ? "read" : "write")))
        }
        return DecodedRecord(
            layer: .ams, type: type, summary: "\(what): \(e.text)",
            fields: fields + [DecodeField("error", .int(code)), DecodeField("error_name", .string(e.name))])
    }

    // MARK: values

    /// `Track Title` and its JSON fields.
    static func subject(entity: UInt8, attribute: UInt8) -> (String, [DecodeField]) {
        let e = AMSNames.entity(entity)
        let a = AMSNames.attribute(attribute, of: entity)
        return ("\(e.text) \(a.text)", [
            DecodeField("entity", .string(e.json)), DecodeField("entity_id", .int(entity)),
            DecodeField("attribute", .string(a.json)), DecodeField("attribute_id", .int(attribute)),
        ])
    }

    /// `length`, `value` (UTF-8, invalid bytes replaced) and `value_hex` when not valid UTF-8, as for ANCS attributes.
    static func valueFields(_ v: [UInt8]) -> [DecodeField] {
        var f = [DecodeField("length", .int(v.count)), DecodeField("value", .string(String(decoding: v, as: UTF8.self)))]
        if !QuotedText.isValidUTF8(v) { f.append(DecodeField("value_hex", .hex(v))) }
        return f
    }

    /// What a value means beyond its text: PlaybackInfo, Volume, Duration,
    /// the Queue's modes.
    struct Meaning {
        var text: String?
        var fields: [DecodeField] = []
    }

    /// Reads the numbers of a value with the watch's own parsers. `base`: the
    /// offset of the value in the bytes given, for errors.
    static func meaning(entity: UInt8, attribute: UInt8, value: [UInt8], at base: Int) throws(DecodeError) -> Meaning {
        let name = AMSNames.attribute(attribute, of: entity).text
        func located(_ e: AMSParseError, _ example: String) -> DecodeError {
            .at(base + offset(of: e, in: value), "\(name) \(QuotedText.show(value)): \(e) (\(example))")
        }
        switch (EntityID(rawValue: entity), attribute) {
        case (.player, PlayerAttributeID.playbackInfo.rawValue):
            let info: PlaybackInfo
            do { info = try parse(value) { raw throws(AMSParseError) in try PlaybackInfo(parsing: raw) }.get() } catch {
                throw located(error, "the value is \"state,rate,elapsed seconds\", for example \"1,1.0,32.456\"")
            }
            var parts: [String] = []
            var fields: [DecodeField] = []
            if let s = info.state {
                let n = AMSNames.playbackState(s)
                parts.append(n.text)
                fields += [DecodeField("playback_state", .string(n.json)), DecodeField("playback_state_id", .int(s.rawValue))]
            }
            if let r = info.rateMilli {
                parts.append("rate \(AMSNames.rate(milli: r))")
                fields += [DecodeField("playback_rate", .string(AMSNames.rate(milli: r))), DecodeField("playback_rate_milli", .int(r))]
            }
            if let e = info.elapsedMilliseconds {
                parts.append("elapsed \(AMSNames.clock(milliseconds: e, fraction: true))")
                fields += [
                    DecodeField("elapsed", .string(AMSNames.clock(milliseconds: e, fraction: true))),
                    DecodeField("elapsed_ms", .int(e)),
                ]
            }
            return Meaning(text: parts.isEmpty ? "no player: nothing plays" : parts.joined(separator: ", "), fields: fields)
        case (.player, PlayerAttributeID.volume.rawValue):
            let percent: Int8?
            do { percent = try parse(value) { raw throws(AMSParseError) in try VolumeValue.percent(parsing: raw) }.get() } catch {
                throw located(error, "0.0 to 1.0")
            }
            guard let percent else { return Meaning() }
            return Meaning(text: "\(percent)%", fields: [DecodeField("volume_percent", .int(percent))])
        case (.track, TrackAttributeID.duration.rawValue):
            let ms: Int64?
            do { ms = try parse(value) { raw throws(AMSParseError) in try DurationValue.milliseconds(parsing: raw) }.get() } catch {
                throw located(error, "seconds, for example \"213.42\"")
            }
            guard let ms else { return Meaning(text: "no duration") }
            let clock = AMSNames.clock(milliseconds: ms, fraction: false)
            return Meaning(text: clock, fields: [DecodeField("duration", .string(clock)), DecodeField("duration_ms", .int(ms))])
        case (.queue, QueueAttributeID.shuffleMode.rawValue), (.queue, QueueAttributeID.repeatMode.rawValue):
            guard let n = IntegerText.int(String(decoding: value, as: UTF8.self)), let mode = AMSNames.mode(n) else { return Meaning() }
            return Meaning(text: mode, fields: [DecodeField("mode", .string(mode))])
        default:
            return Meaning()
        }
    }

    /// Runs an AMS parser over the bytes (the codecs read raw buffers).
    static func parse<T>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(AMSParseError) -> T
    ) -> Result<T, AMSParseError> {
        bytes.withUnsafeBytes { raw in
            do throws(AMSParseError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
    }

    /// Where in a value a parse error lies: the start of the PlaybackInfo
    /// field it names (the comma past the third field when there are too many).
    static func offset(of e: AMSParseError, in value: [UInt8]) -> Int {
        let commas = value.indices.filter { value[$0] == UInt8(ascii: ",") }
        func fieldStart(_ i: Int) -> Int { i == 0 ? 0 : (i <= commas.count ? commas[i - 1] + 1 : value.count) }
        switch e {
        case .entityUpdateTooShort(let n): return n
        case .tooManyFields: return commas.count >= 3 ? commas[2] : value.count
        case .unknownPlaybackState: return 0
        case .notANumber(let f), .numberTooLong(let f), .outOfRange(let f):
            switch f {
            case .state, .volume, .duration: return 0
            case .rate: return fieldStart(1)
            case .elapsed: return fieldStart(2)
            }
        }
    }
}
