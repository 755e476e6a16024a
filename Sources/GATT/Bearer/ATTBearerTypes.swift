import ATTCodec
import HAL
import TextFormat

/// Why a bearer stopped.
public enum ATTBearerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The link is closed (by the peer, by us, or after a failure).
    case linkClosed
    /// No response within 30 s (ATT transaction timeout): the link was closed.
    case transactionTimeout
    /// The request was cancelled before its response arrived.
    case cancelled
    /// The fixed-capacity request (or indication) queue is full.
    case queueFull
    /// The PDU could not be encoded (most often: longer than ATT_MTU).
    case encoding(ATTPDUError)
    /// The response could not be decoded.
    case malformedResponse(ATTPDUError)
    /// The PDU kind cannot be sent this way (a response through `send(request:)` ...).
    case wrongPDUKind(UInt8)
    /// The link failed at the system level.
    case io(HALError)
    /// The peer broke the protocol (an unexpected response ...): the link was closed.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .linkClosed: "ATT link closed"
        case .transactionTimeout: "ATT transaction timeout (30 s): link closed"
        case .cancelled: "ATT request cancelled"
        case .queueFull: "ATT request queue full"
        case .encoding(let e): "cannot encode ATT PDU: " + e.description
        case .malformedResponse(let e): "malformed ATT response: " + e.description
        case .wrongPDUKind(let op): NumberText.format("ATT opcode 0x%x cannot be sent this way", Int64(op))
        case .io(let e): "ATT link I/O: " + e.description
        case .protocolViolation(let what): "ATT protocol violation: " + what
        }
    }
}

/// How a request ended. The PDUs reference the bearer's receive buffer and
/// are valid only during the handler call.
public enum ATTRequestOutcome {
    /// The matching response.
    case response(ATTPDU)
    /// The peer answered with an Error Response (after any security retry).
    case error(ATTErrorResponse)
    /// No answer: the link closed, the transaction timed out, or the request was cancelled.
    case failed(ATTBearerError)
}

/// Called once per request, on the loop.
public typealias ATTResponseHandler = (ATTRequestOutcome) -> Void

/// Names a queued or outstanding request, for `cancel`.
public struct ATTRequestID: Hashable, Sendable {
    public let rawValue: UInt32
}

/// What the server side of a bearer does with the peer's requests and commands.
/// The bearer answers Exchange MTU itself; everything else comes here.
public protocol ATTRequestServing: AnyObject {
    /// Answers one request by writing exactly one PDU (a response or an Error
    /// Response) into `response`, whose capacity is the current ATT_MTU.
    /// `rawOpcode` is the request's opcode, for requests decoded as `.other`.
    func respond(to request: ATTPDU, rawOpcode: UInt8, bearer: ATTBearer, into response: inout ATTWriter)
    /// Handles a command (Write Command, Signed Write Command); never answered.
    func handleCommand(_ command: ATTPDU, bearer: ATTBearer)
}

/// One PDU crossing the bearer, for tracing and the decode tool.
public enum ATTTraceDirection: Sendable { case received, sent }

/// Counters kept by the bearer (no allocation to maintain them).
public struct ATTBearerStatistics: Sendable, Equatable {
    public var pdusReceived = 0
    public var pdusSent = 0
    public var malformedReceived = 0
    public var oversizedReceived = 0
    public var sendsDeferred = 0
    public var securityRetries = 0
    public init() {}
}
