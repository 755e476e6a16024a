import Testing

@testable import LinuxHAL

/// ResidentCode drops only read-only, private, file-backed mappings without
/// private copies of pages: anything else would lose its contents.
@Suite struct ResidentCodeTests {
    static let smaps = """
        5555a0000000-5555a0100000 r-xp 00000000 08:01 1234    /usr/bin/wristcore
        Size:               1024 kB
        Rss:                 900 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me dw
        5555a0100000-5555a0104000 r--p 00100000 08:01 1234    /usr/bin/wristcore
        Size:                 16 kB
        Anonymous:            16 kB
        VmFlags: rd mr mw me dw ac
        5555a0104000-5555a0106000 rw-p 00104000 08:01 1234    /usr/bin/wristcore
        Anonymous:             8 kB
        7f0000000000-7f0000021000 rw-p 00000000 00:00 0       [heap]
        Anonymous:            44 kB
        7f1000000000-7f1000190000 r-xp 00028000 08:01 99      /usr/lib/x86_64-linux-gnu/libc.so.6
        Rss:                 640 kB
        Anonymous:             0 kB
        7f2000000000-7f2000040000 r--p 00000000 08:01 77      /usr/share/wristcore/Fonts/unifont-16.wcf
        Rss:                   8 kB
        Anonymous:             0 kB
        7f3000000000-7f3000040000 r--p 00000000 08:01 78      /usr/share/wristcore/Fonts/fixed-6x10.wcf
        Rss:                   0 kB
        Anonymous:             0 kB
        7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0       [vdso]
        Rss:                   4 kB
        Anonymous:             0 kB
        """

    /// qemu-user's emulated smaps says Rss 0 and Anonymous 0 for everything,
    /// also for code it holds in anonymous memory: nothing is dropped then.
    @Test func dropsOnlyResidentReadOnlyFileMappingsWithoutPrivateCopies() {
        let mappings = ResidentCode.fileMappings(Array(Self.smaps.utf8))
        #expect(mappings == [
            .init(start: 0x5555_a000_0000, end: 0x5555_a010_0000),  // the binary's code
            .init(start: 0x7f10_0000_0000, end: 0x7f10_0019_0000),  // libc's code
            .init(start: 0x7f20_0000_0000, end: 0x7f20_0004_0000),  // a font
        ])
    }

    @Test func malformedTextGivesNothing() {
        #expect(ResidentCode.fileMappings(Array("zz-yy r-xp 0 0:0 1 /x\nAnonymous: 0 kB\n".utf8)).isEmpty)
        #expect(ResidentCode.fileMappings([]).isEmpty)
    }

    @Test func trimKeepsTheProcessWorking() {
        let report = ResidentCode.trim()
        #expect(report.mappings > 0)
        // Code and read-only data fault back in: this test still runs.
        #expect(ResidentCode.fileMappings(Array("".utf8)).isEmpty)
    }
}
