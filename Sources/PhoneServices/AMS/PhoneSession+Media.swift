import AMS

extension PhoneSession {
    /// What the phone's media player is doing (empty without AMS).
    public var media: MediaState { gadgetbridge.isActive ? gadgetbridge.media : mediaSession.state }

    /// Sends a Remote Command to the phone's player. False when AMS is not
    /// subscribed, the player does not support `id`, or the ATT queue is
    /// full; a refusal by the phone arrives later as
    /// `.media(.commandFailed(id, code))`.
    public func sendRemoteCommand(_ id: RemoteCommandID) -> Bool {
        gadgetbridge.isActive ? gadgetbridge.sendRemoteCommand(id) : mediaSession.sendRemoteCommand(id)
    }
}
