import Testing
@testable import WristCore

@Test func bluetoothTestsBuild() {}
