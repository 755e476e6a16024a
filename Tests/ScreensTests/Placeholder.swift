import Testing
@testable import Screens

@Test func ScreensModuleBuilds() {}
