import Graphics
import Testing

/// The 1-bit picture type that snapshots, golden files and the demo share.
@Suite("MonoImage")
struct MonoImageTests {
    @Test("PBM, PNG and terminal output")
    func outputs() throws {
        var img = MonoImage(width: 3, height: 3)
        img[0, 0] = true; img[2, 1] = true; img[1, 2] = true
        #expect(img.pbmPlain() == "P1\n3 3\n100\n001\n010\n")
        #expect(try MonoImage(pbm: Array(img.pbmPlain().utf8)) == img)
        #expect(img.pbmRaw() == Array("P4\n3 3\n".utf8) + [0x80, 0x20, 0x40])
        #expect(try MonoImage(pbm: img.pbmRaw()) == img)
        #expect(throws: PBMError.self) { try MonoImage(pbm: Array("P2\n1 1\n0".utf8)) }
        #expect(throws: PBMError.self) { try MonoImage(pbm: Array("P1\n2 2\n01".utf8)) }

        let png = img.png(scale: 2)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(Array(png[16..<24]) == [0, 0, 0, 6, 0, 0, 0, 6])
        #expect(Array(png[24..<26]) == [1, 3], "1-bit palette")
        #expect(Array(png[37..<41]) == Array("PLTE".utf8))
        // IEND with its well-known CRC closes the file.
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])

        #expect(img.terminalString(border: false) == "▀ ▄\n ▀ \n")
        #expect(img.terminalString().hasPrefix("┌───┐\n"))
    }

    @Test("a framebuffer's logical picture, and the glass turned back by each rotation")
    func framebufferAndRotation() {
        let fb = Framebuffer(width: 128, height: 64, rotation: .r0)
        fb.setPixel(x: 1, y: 2)
        fb.setPixel(x: 127, y: 63)
        let image = MonoImage(fb)
        #expect(image.litCount == 2 && image[1, 2] && image[127, 63])
        #expect(image.viewed(as: .r0) == image)
        let turned = image.viewed(as: .r180)
        #expect(turned[126, 61] && turned[0, 0])
        #expect(turned.viewed(as: .r180) == image)
        let quarter = image.viewed(as: .r90)
        #expect(quarter.width == 64 && quarter.height == 128)
        #expect(quarter[2, 126] && quarter[63, 0] && quarter.viewed(as: .r270) == image)
        #expect(image.differences(from: image) == "identical")
        #expect(image.differences(from: turned).hasPrefix("4 pixels differ"))
    }
}
