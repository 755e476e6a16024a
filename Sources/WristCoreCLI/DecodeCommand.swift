import CLinux
import CommandLineOptions
import Decode
import HAL
import LinuxHAL
import SimBoard
import TextFormat
import WristCore

struct DecodeCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "decode",
        abstract: "Decode ANCS / AMS / ATT bytes or a btsnoop capture into readable records.",
        discussion: """
            A bench-debugging tool: give it the hex bytes of a Notification Source event, \
            a Control Point command, Data Source fragments, an Apple Media Service value or ATT \
            PDUs, or a capture file, \
            and it prints one line per record (--json: one JSON object per line; the \
            fields are listed in docs/decode.md).

            Hex may be spaced, colon-separated or packed ("00 01", "00:01", "0001").

            Examples:
              wristcore decode --as notification-source 00 01 00 01 43 00 00 00
              wristcore decode --as control-point 00 43 00 00 00 00 01 ff ff 05
              wristcore decode --as data-source "00 43 00 00 00 01 03 00 4d" "6f 6d"
              wristcore decode --as data-source --request "00 43 00 00 00 01 40 00" \\
                  --fragment "00 43 00 00 00 01 03 00 4d" --fragment "6f 6d"
              wristcore decode --as entity-update 00 01 00 31 2c 31 2e 30 2c 33 32 2e 34 35 36
              wristcore decode --as entity-update-command 02 00 01 02 03
              wristcore decode --as remote-command 02
              wristcore decode --as att 1b 0e 00 00 01 00 01 43 00 00 00
              wristcore decode --pdu "08 01 00 ff ff 03 28" --pdu "09 07 0d 00 10 0e 00 2b 2a"
              sudo btmon -w watch.btsnoop        # on the watch, while it runs
              wristcore decode --btsnoop watch.btsnoop
              wristcore decode --btsnoop iphone.pklg --captured-on phone --json

            A Data Source response split over several notifications is given as several \
            arguments (quote each fragment) or --fragment options; --request adds the \
            Control Point command it answers, so missing attributes are reported.

            Captures: btsnoop (btmon -w, Android, datalinks 1001/1002/2001) and Apple \
            PacketLogger .pklg files. Handles are named when the capture contains the \
            GATT discovery (connect after starting btmon). Bad input exits with code 2 \
            and says at which byte (or capture record and file offset) it went wrong.
            """,
        parameters: [
            .option(
                "as", valueName: "as", value: .oneOf(Kind.allCases.map { $0.rawValue }), default: Kind.att.rawValue,
                help: """
                    What the hex bytes are: notification-source, control-point, data-source (ANCS); entity-update (a \
                    notification), entity-update-command (a registration), entity-attribute, remote-command (a write), \
                    remote-command-notification (the supported commands) (AMS); att.
                    """),
            .flag("json", help: "Print one JSON object per record."),
            .argument("hex", repeatable: true, help: "Hex bytes. For data-source each argument is one fragment (one GATT notification)."),
            .option("fragment", valueName: "hex", repeatable: true, help: "A Data Source fragment (repeat for each notification)."),
            .option("request", valueName: "hex", help: "With --as data-source: the Control Point command the response answers."),
            .option(
                "pdu", valueName: "hex", repeatable: true,
                help: "An ATT PDU of a conversation (repeat, in order): discovery names later handles."),
            .option("btsnoop", valueName: "file", help: "A capture file: btsnoop (btmon -w) or Apple PacketLogger .pklg."),
            .option(
                "captured-on", valueName: "watch|phone", value: .oneOf(CaptureSide.allCases.map { $0.rawValue }),
                default: CaptureSide.watch.rawValue,
                help: "Where the capture was taken: watch (btmon on the watch) or phone (PacketLogger on the iPhone)."),
        ] + GlobalOptions.parameters
    )

    enum Kind: String, CaseIterable {
        case notificationSource = "notification-source", controlPoint = "control-point", dataSource = "data-source", att
        // Apple Media Service
        case entityUpdate = "entity-update", entityUpdateCommand = "entity-update-command"
        case entityAttribute = "entity-attribute", remoteCommand = "remote-command"
        case remoteCommandNotification = "remote-command-notification"
    }

    var kind: Kind
    var json: Bool
    var hex: [String]
    var fragment: [String]
    var request: String?
    var pdu: [String]
    var btsnoop: String?
    var capturedOn: CaptureSide
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        kind = arguments.choice("as", as: Kind.self)!
        json = arguments.flag("json")
        hex = arguments.values("hex")
        fragment = arguments.values("fragment")
        request = arguments.value("request")
        pdu = arguments.values("pdu")
        btsnoop = arguments.value("btsnoop")
        capturedOn = arguments.choice("captured-on", as: CaptureSide.self)!
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        if btsnoop != nil, !hex.isEmpty || !fragment.isEmpty || !pdu.isEmpty || request != nil {
            throw UsageError("--btsnoop decodes a file; give no hex bytes, --fragment, --pdu or --request with it")
        }
        if !fragment.isEmpty || request != nil, kind != .dataSource {
            throw UsageError("--fragment and --request are for --as data-source")
        }
        if !pdu.isEmpty, kind != .att || !hex.isEmpty {
            throw UsageError("--pdu is for ATT conversations: give the PDUs either as --pdu options or as one hex argument, not both")
        }
        if btsnoop == nil, hex.isEmpty, fragment.isEmpty, pdu.isEmpty {
            throw UsageError("nothing to decode: give hex bytes (see the examples in --help) or --btsnoop FILE")
        }
    }

    func run() throws(WristCoreFailure) {
        global.bootstrapLogging()
        if let path = btsnoop {
            try decodeCapture(path)
            return
        }
        let records: [DecodedRecord]
        switch kind {
        case .entityUpdate:
            records = [try decoded(AMSDecoding.entityUpdate)]
        case .entityUpdateCommand:
            records = [try decoded(AMSDecoding.entityUpdateCommand)]
        case .entityAttribute:
            records = [try decoded(AMSDecoding.entityAttributeCommand)]
        case .remoteCommand:
            records = [try decoded(AMSDecoding.remoteCommand)]
        case .remoteCommandNotification:
            records = [AMSDecoding.remoteCommandNotification(try bytes(hex.joined(separator: " ")))]
        case .notificationSource:
            records = [try decoded(ANCSDecoding.notificationSource)]
        case .controlPoint:
            records = [try decoded(ANCSDecoding.controlPoint)]
        case .dataSource:
            var fragments: [[UInt8]] = []
            for (i, f) in (hex + fragment).enumerated() {
                do throws(WristCoreFailure) { fragments.append(try HexBytes.parse(f)) } catch {
                    throw WristCoreFailure("fragment \(i + 1): \(error.message)", exitCode: WristCoreExit.usageOrConfiguration)
                }
            }
            var requestBytes: [UInt8]?
            if let request {
                do throws(WristCoreFailure) { requestBytes = try HexBytes.parse(request) } catch {
                    throw WristCoreFailure("--request: \(error.message)", exitCode: WristCoreExit.usageOrConfiguration)
                }
            }
            do throws(DecodeError) { records = [try ANCSDecoding.dataSource(fragments: fragments, request: requestBytes)] } catch {
                throw error.failure
            }
        case .att:
            if pdu.isEmpty {
                records = [try decoded(ATTDecoding.decode)]
            } else {
                let conversation = ATTConversation()
                var out: [DecodedRecord] = []
                for (i, p) in pdu.enumerated() {
                    let b: [UInt8]
                    do throws(WristCoreFailure) { b = try HexBytes.parse(p) } catch {
                        throw WristCoreFailure("--pdu \(i + 1): \(error.message)", exitCode: WristCoreExit.usageOrConfiguration)
                    }
                    out += conversation.decode(b, direction: nil)
                }
                records = out + conversation.endSession(because: "the PDUs given end")
            }
        }
        for r in records { print(json ? r.jsonLine : r.textLine) }
        if records.contains(where: { $0.layer == .malformed }) {
            throw WristCoreFailure("some PDUs are malformed (see the MALFORMED lines)", exitCode: WristCoreExit.usageOrConfiguration)
        }
    }

    /// The hex arguments as one value, decoded by `decode`; bad hex or a
    /// value the decoder refuses is a failure (DecodeError.failure: exit code 2).
    func decoded(_ decode: ([UInt8]) throws(DecodeError) -> DecodedRecord) throws(WristCoreFailure) -> DecodedRecord {
        let value = try bytes(hex.joined(separator: " "))
        do throws(DecodeError) { return try decode(value) } catch { throw error.failure }
    }

    func bytes(_ text: String) throws(WristCoreFailure) -> [UInt8] { try HexBytes.parse(text) }

    /// Captures larger than this are refused: decode holds the file and its records in memory.
    static let maxCaptureBytes = 256 << 20

    func decodeCapture(_ path: String) throws(WristCoreFailure) {
        let bytes = try Self.readCapture(path)
        let shown = QuotedText.escaped(path)
        let decoding: CaptureDecoding
        do throws(DecodeError) { decoding = try CaptureDecoder(side: capturedOn).decode(bytes) } catch {
            throw WristCoreFailure("\(shown): \(error)", exitCode: WristCoreExit.usageOrConfiguration)
        }
        for r in decoding.records { print(json ? r.jsonLine : r.textLine) }
        if let error = decoding.error {
            throw WristCoreFailure("\(shown): \(error) (the records before it are shown above)", exitCode: WristCoreExit.usageOrConfiguration)
        }
        if decoding.records.isEmpty {
            FileHandleStandardError.write("wristcore: \(shown) (\(decoding.format.description)) holds no ATT traffic\n")
        }
    }

    /// The bytes of a capture file, or an error that says what the path is
    /// when it is not a regular file (a FIFO would block, a directory or
    /// /dev/null is not a capture), and blames permissions only on EACCES.
    /// Decode reads no files: the bytes come from here.
    static func readCapture(_ path: String) throws(WristCoreFailure) -> [UInt8] {
        let shown = QuotedText.escaped(path)
        func fail(_ message: String) -> WristCoreFailure {
            WristCoreFailure("\(shown): \(message)", exitCode: WristCoreExit.usageOrConfiguration)
        }
        let permission = "permission denied (btmon writes its files as root: sudo chown $USER \(shown))"
        var status = stat()
        guard stat(path, &status) == 0 else {
            let e = wc_errno()
            if e == ENOENT || e == ENOTDIR { throw fail("no such file") }
            if e == EACCES { throw fail(permission) }
            throw fail("cannot read it: \(String(cString: strerror(e)))")
        }
        switch status.st_mode & wc_s_ifmt() {
        case wc_s_ifreg(): break
        case wc_s_ifdir(): throw fail("is a directory, not a capture file")
        case wc_s_ififo(): throw fail("is a FIFO, not a capture file (decode reads a file btmon -w has finished writing)")
        case wc_s_ifchr(): throw fail("is a character device, not a capture file")
        case wc_s_ifblk(): throw fail("is a block device, not a capture file")
        case wc_s_ifsock(): throw fail("is a socket, not a capture file")
        default: throw fail("is not a regular file, not a capture file")
        }
        guard status.st_size <= maxCaptureBytes else {
            throw fail("is \(status.st_size) bytes; decode reads captures up to \(maxCaptureBytes >> 20) MiB (split it, e.g. editcap -c)")
        }
        let bytes: [UInt8]?
        do throws(HALError) { bytes = try FileBytes.readIfPresent(path) } catch {
            if error.errno == EACCES || error.errno == EPERM { throw fail(permission) }
            throw fail("cannot read it: \(error.reason)")
        }
        guard let bytes else { throw fail("no such file") }
        return bytes
    }
}
