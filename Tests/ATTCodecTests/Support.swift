/// A raw PDU, BlueZ test-gatt style.
func pdu(_ bytes: UInt8...) -> [UInt8] { bytes }

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { b in
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }.joined(separator: " ")
}
