/// A rectangle of display RAM in the controller's own addresses: RAM
/// columns `c0...c1` (the column offset included) of pages `p0...p1`.
/// What the SSD130x column and page window commands (0x21, 0x22) set.
struct ControllerWindow: Equatable {
    var c0: Int
    var c1: Int
    var p0: Int
    var p1: Int

    var columns: Int { c1 - c0 + 1 }
    var pageCount: Int { p1 - p0 + 1 }
    var area: Int { columns * pageCount }

    func sameColumns(_ o: ControllerWindow) -> Bool { c0 == o.c0 && c1 == o.c1 }
    func samePages(_ o: ControllerWindow) -> Bool { p0 == o.p0 && p1 == o.p1 }

    func contains(_ o: ControllerWindow) -> Bool {
        c0 <= o.c0 && o.c1 <= c1 && p0 <= o.p0 && o.p1 <= p1
    }
}
