import Testing
@testable import Haptics

@Test func HapticsModuleBuilds() {}
