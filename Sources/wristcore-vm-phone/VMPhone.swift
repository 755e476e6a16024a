// wristcore-vm-phone: the simulated iPhone on a real (virtual) Bluetooth
// controller, for the real-kernel tests in the VM (Tests/VM, docs/testing-vm.md).
// Built by SwiftPM for x86_64 and by Scripts/build-embedded.sh (Embedded
// Swift) for the arm64 VM.
import CLinux
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Peripheral
import SimBoard

enum VMPhone {
    static func main(_ arguments: [String]) {
        let options: PhoneOptions
        switch PhoneOptions.parse(Array(arguments.dropFirst())) {
        case .success(let o): options = o
        case .failure(let failure):
            _ = (failure.message + "\n").withCString { CLinux.write(2, $0, strlen($0)) }
            exit(2)
        }

        var script: [PhoneEvent] = []
        if let path = options.scriptPath {
            guard let bytes = try? FileBytes.read(path), let text = String(validating: bytes, as: UTF8.self) else {
                fail("cannot read script \(path)")
            }
            do throws(PhoneScriptError) { script = try PhoneScript.parse(text) } catch { fail("\(path): \(error)") }
        }

        let loop: EpollLoop
        let client: ManagementClient
        do throws(HALError) {
            loop = try EpollLoop()
            try loop.handleTerminationSignals()
            client = try ManagementClient(transport: try BluetoothManagementSocket(), loop: loop)
        } catch {
            fail("\(error)")
        }

        let controller = PhoneController(client: client, index: options.hciIndex, confirmPairing: options.confirmPairing)
        var relay: ATTRelay? = nil
        if let path = options.relayPath {
            do throws(HALError) { relay = try ATTRelay(loop: loop, path: path) } catch { fail("relay \(path): \(error)") }
        }
        let link = PhoneLink(loop: loop, options: options, script: script, relay: relay)

        // stdin: more PhoneScript events, one per line, or `quit`. Reopened through
        // /proc so it can be non-blocking without changing the caller's pipe.
        var input: LineConnection?
        if let fd = try? FileDescriptor.open("/proc/self/fd/0", flags: O_RDONLY | O_NONBLOCK) {
            let lines = LineConnection(adopting: fd)
            input = lines
            var source: SourceID?
            source = try? loop.addSource(fd: lines.pollDescriptor, events: .readable) { _ in
                guard case .lines(let received) = lines.readLines() else {
                    // End of input: keep running (the driver may just have closed stdin).
                    if let s = source { loop.removeSource(s) }
                    source = nil
                    return
                }
                for line in received {
                    var trimmed = line[...]
                    while trimmed.first == " " || trimmed.first == "\t" { trimmed.removeFirst() }
                    while trimmed.last == " " || trimmed.last == "\t" { trimmed.removeLast() }
                    if trimmed == "quit" { loop.stop(); return }
                    do throws(PhoneScriptError) {
                        link.perform(try PhoneScript.parse(String(trimmed)))
                    } catch {
                        PhoneOutput.emit("ERROR stdin: \(error)")
                    }
                }
            }
        }

        controller.setUp { result in
            switch result {
            case .success(let address):
                PhoneOutput.emit("READY hci=\(options.hciIndex) addr=\(address)")
                link.start()
            case .failure(let failure):
                fail(failure.message)
            }
        }

        do throws(HALError) { try loop.run() } catch { fail("run loop: \(error)") }
        _ = input
        PhoneOutput.emit("EXIT")
    }

    static func fail(_ message: String) -> Never {
        PhoneOutput.emit("ERROR \(message)")
        exit(1)
    }
}

#if hasFeature(Embedded)
/// The entry point: Embedded Swift has no `CommandLine`, so the C `main`
/// hands argv over itself.
@_cdecl("main")
func vmPhoneMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    VMPhone.main((0..<Int(argc)).map { String(cString: argv[$0]!) })
    return 0
}
#else
@main
enum VMPhoneEntry {
    static func main() { VMPhone.main(CommandLine.arguments) }
}
#endif
