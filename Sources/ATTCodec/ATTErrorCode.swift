import TextFormat

/// The error code carried by an Error Response (Core Specification Vol 3,
/// Part F, 3.4.1.1), plus the application (0x80–0x9F) and common profile
/// (0xE0–0xFF) ranges. ANCS uses 0xA0–0xA3, which this type names too.
public struct ATTErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidHandle = ATTErrorCode(0x01)
    public static let readNotPermitted = ATTErrorCode(0x02)
    public static let writeNotPermitted = ATTErrorCode(0x03)
    public static let invalidPDU = ATTErrorCode(0x04)
    public static let insufficientAuthentication = ATTErrorCode(0x05)
    public static let requestNotSupported = ATTErrorCode(0x06)
    public static let invalidOffset = ATTErrorCode(0x07)
    public static let insufficientAuthorization = ATTErrorCode(0x08)
    public static let prepareQueueFull = ATTErrorCode(0x09)
    public static let attributeNotFound = ATTErrorCode(0x0A)
    public static let attributeNotLong = ATTErrorCode(0x0B)
    public static let insufficientEncryptionKeySize = ATTErrorCode(0x0C)
    public static let invalidAttributeValueLength = ATTErrorCode(0x0D)
    public static let unlikelyError = ATTErrorCode(0x0E)
    public static let insufficientEncryption = ATTErrorCode(0x0F)
    public static let unsupportedGroupType = ATTErrorCode(0x10)
    public static let insufficientResources = ATTErrorCode(0x11)
    public static let databaseOutOfSync = ATTErrorCode(0x12)
    public static let valueNotAllowed = ATTErrorCode(0x13)

    // ANCS application errors (Apple ANCS specification, "Error Codes").
    public static let ancsUnknownCommand = ATTErrorCode(0xA0)
    public static let ancsInvalidCommand = ATTErrorCode(0xA1)
    public static let ancsInvalidParameter = ATTErrorCode(0xA2)
    public static let ancsActionFailed = ATTErrorCode(0xA3)

    // Common profile and service error codes (Core Specification Supplement, Part B).
    public static let writeRequestRejected = ATTErrorCode(0xFC)
    public static let cccdImproperlyConfigured = ATTErrorCode(0xFD)
    public static let procedureAlreadyInProgress = ATTErrorCode(0xFE)
    public static let outOfRange = ATTErrorCode(0xFF)

    /// 0x80–0x9F: defined by a higher-layer (application) specification.
    public var isApplicationError: Bool { (0x80...0x9F).contains(rawValue) }
    /// 0xE0–0xFF: common profile and service error codes.
    public var isCommonProfileError: Bool { rawValue >= 0xE0 }
    /// True for the errors that mean "raise the link's security and retry".
    public var isSecurityError: Bool {
        self == .insufficientAuthentication || self == .insufficientEncryption
            || self == .insufficientEncryptionKeySize
    }

    public var name: String {
        switch rawValue {
        case 0x01: "Invalid Handle"
        case 0x02: "Read Not Permitted"
        case 0x03: "Write Not Permitted"
        case 0x04: "Invalid PDU"
        case 0x05: "Insufficient Authentication"
        case 0x06: "Request Not Supported"
        case 0x07: "Invalid Offset"
        case 0x08: "Insufficient Authorization"
        case 0x09: "Prepare Queue Full"
        case 0x0A: "Attribute Not Found"
        case 0x0B: "Attribute Not Long"
        case 0x0C: "Insufficient Encryption Key Size"
        case 0x0D: "Invalid Attribute Value Length"
        case 0x0E: "Unlikely Error"
        case 0x0F: "Insufficient Encryption"
        case 0x10: "Unsupported Group Type"
        case 0x11: "Insufficient Resources"
        case 0x12: "Database Out Of Sync"
        case 0x13: "Value Not Allowed"
        case 0xA0: "ANCS Unknown Command"
        case 0xA1: "ANCS Invalid Command"
        case 0xA2: "ANCS Invalid Parameter"
        case 0xA3: "ANCS Action Failed"
        case 0xFC: "Write Request Rejected"
        case 0xFD: "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: "Procedure Already in Progress"
        case 0xFF: "Out of Range"
        case 0x80...0x9F: "Application Error"
        case 0xE0...0xFF: "Common Profile Error"
        default: "Reserved"
        }
    }

    public var description: String {
        name + NumberText.format(" (0x%02X)", Int64(rawValue))
    }
}
