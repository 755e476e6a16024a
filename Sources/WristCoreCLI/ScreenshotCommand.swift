import CommandLineOptions
import HAL
import LinuxHAL
import TextFormat
import WristCore

struct ScreenshotCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "screenshot",
        abstract: "Save what a running daemon's screen shows, as PNG or PBM.",
        discussion: """
            Asks a running 'wristcore run ... --harness unix:PATH' for a snapshot of its \
            panel (on the simulated board, decoded from the bytes the display driver sent; \
            on a real board, the framebuffer) and writes it to a file.

            Examples:
              wristcore run --board sim --harness unix:/tmp/wc.sock &
              wristcore screenshot --harness unix:/tmp/wc.sock --output watch.png
              wristcore screenshot --harness unix:/tmp/wc.sock --output watch.pbm
            """,
        parameters: [
            .option("harness", valueName: "unix:path", required: true, help: "The daemon's harness endpoint."),
            .option(
                "output", short: "o", valueName: "file", required: true,
                help: "The file to write; .pbm writes a plain PBM, anything else a PNG."),
        ]
    )

    var harness: String
    var output: String

    init(_ arguments: ParsedArguments) {
        harness = arguments.required("harness")
        output = arguments.required("output")
    }

    func validate() throws(UsageError) {
        if !harness.hasPrefix("unix:") || harness.count <= 5 {
            throw UsageError("--harness takes unix:PATH, the same as given to 'wristcore run --harness'")
        }
    }

    func run() throws(WristCoreFailure) {
        let pbm = output.asciiLowercased().hasSuffix(".pbm")
        let reply = try HarnessRequest.send("snapshot \(pbm ? "pbm" : "png")", to: String(harness.dropFirst(5)))
        do throws(HALError) { try FileBytes.write(reply.payload, to: output) } catch {
            throw WristCoreFailure("cannot write \(output) (does the directory exist and is it writable?)")
        }
        print("wrote \(output) (\(reply.payload.count) bytes)")
    }
}
