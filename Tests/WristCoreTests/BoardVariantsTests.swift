import BoardConfig
import HAL
import LinuxHAL
import Testing
@testable import WristCore
import TextFormat
@testable import WatchFiles

/// Issue 27.5: two buttons are enough, and a two-button watch has a board file
/// that says so; `setup` chooses between the variants.
@Suite struct BoardVariantsTests {
    /// The checkout's Boards/.
    static let boards: String = {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        return root + "/Boards"
    }()

    func checked(_ name: String) throws -> BoardVariants.Variant {
        let path = Self.boards + "/" + name + ".json"
        let loaded = try BoardLoader.loadChecked(argument: path)
        return BoardVariants.Variant(path: path, board: loaded.board, bytes: try #require(loaded.bytes))
    }

    @Test func theTwoButtonZero2WBoard() throws {
        let two = try checked("rpi-zero2w-2buttons").board
        let four = try checked("rpi-zero2w").board
        #expect(two.buttons.map(\.role) == [.positive, .negative])
        #expect(four.buttons.map(\.role) == [.positive, .negative, .select, .back])
        // The same wiring otherwise: the same pins for the same jobs.
        #expect(two.buttons == Array(four.buttons.prefix(2)))
        #expect(two.display == four.display && two.motor == four.motor && two.bluetooth == four.bluetooth)
        #expect(ResourcePaths.shippedBoards(searchPath: [Self.boards]).map(\.name).contains("rpi-zero2w-2buttons"))
    }

    @Test func siblings() {
        #expect(BoardVariants.siblingPath(of: "/b/rpi-zero2w.json") == "/b/rpi-zero2w-2buttons.json")
        #expect(BoardVariants.siblingPath(of: "/b/rpi-zero2w-2buttons.json") == "/b/rpi-zero2w.json")
        #expect(BoardVariants.siblingPath(of: "sim") == nil)
    }

    @Test func variantsFromEitherSide() throws {
        for name in ["rpi-zero2w", "rpi-zero2w-2buttons"] {
            let variants = BoardVariants.variants(of: try checked(name))
            #expect(variants.map { PathText.lastComponent($0.path) } == ["rpi-zero2w.json", "rpi-zero2w-2buttons.json"])
            #expect(variants.map(\.buttonCount) == [4, 2])
            for v in variants { #expect(v.bytes == (try FileBytes.readIfPresent(v.path)), "the bytes validated are the file's") }
        }
        #expect(BoardVariants.variants(of: try checked("rpi5")).count == 1)
    }

    @Test func chooseByTheNumberOfButtons() throws {
        let variants = BoardVariants.variants(of: try checked("rpi-zero2w"))
        #expect(PathText.lastComponent(try BoardVariants.choose(buttons: 2, among: variants).path) == "rpi-zero2w-2buttons.json")
        #expect(PathText.lastComponent(try BoardVariants.choose(buttons: 4, among: variants).path) == "rpi-zero2w.json")
        do {
            _ = try BoardVariants.choose(buttons: 3, among: variants)
            Issue.record("3 buttons chose a board")
        } catch {
            #expect(error.exitCode == WristCoreExit.usageOrConfiguration)
            #expect(error.message.contains("comes with 4 (rpi-zero2w.json) or 2 (rpi-zero2w-2buttons.json) buttons, not 3"), "\(error.message)")
        }
        let rpi5 = BoardVariants.variants(of: try checked("rpi5"))
        do {
            _ = try BoardVariants.choose(buttons: 2, among: rpi5)
            Issue.record("rpi5 has no two-button variant")
        } catch {
            #expect(error.message.contains("declares 4 buttons (positive, negative, select, back) and there is no variant of it with 2"), "\(error.message)")
            #expect(error.message.contains("docs/boards.md"))
        }
    }

    @Test func theQuestionAndItsAnswers() throws {
        let named = try checked("rpi-zero2w")
        let variants = BoardVariants.variants(of: named)
        #expect(BoardVariants.question(variants, default: named) == """
            Which buttons are wired?
              [4] all four: positive, negative, select, back  (rpi-zero2w.json)
              [2] positive and negative only (long and double presses do the rest)  (rpi-zero2w-2buttons.json)
            Answer 4 or 2 [4]: 
            """)
        func answer(_ text: String) -> Int? { BoardVariants.answer(text, among: variants, default: named)?.buttonCount }
        #expect(answer("2") == 2 && answer(" 2 \r") == 2 && answer("4") == 4)
        #expect(answer("") == 4 && answer("  ") == 4)  // Enter: the board named
        #expect(answer("3") == nil && answer("two") == nil && answer("22") == nil)
    }
}
