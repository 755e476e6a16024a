/// The WristCore release, printed by `wristcore --version`.
public enum WristCoreVersion {
    public static let string = "0.1.0"
}
