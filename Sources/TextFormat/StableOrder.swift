/// The order to list things in, by a comparison of their positions: one
/// non-generic sort for the records, links and names the program lists.
/// Each `sorted(by:)` of another element type or closure compiles a merge
/// sort of its own into the Embedded daemon (1.5-2 KB each).
public enum StableOrder {
    /// `0..<count` sorted so that `areInIncreasingOrder(i, j)` holds for
    /// each i before j; equal ones keep their order (a stable sort).
    public static func indices(_ count: Int, by areInIncreasingOrder: (Int, Int) -> Bool) -> [Int] {
        var order = Array(0..<count)
        order.sort { a, b in areInIncreasingOrder(a, b) || (!areInIncreasingOrder(b, a) && a < b) }
        return order
    }
}
