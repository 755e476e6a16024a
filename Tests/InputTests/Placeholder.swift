import Testing
@testable import Input

@Test func InputModuleBuilds() {}
