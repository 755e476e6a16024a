import AMS

/// Readable and JSON names of the Apple Media Service vocabulary.
enum AMSNames {
    static func entity(_ raw: UInt8) -> (text: String, json: String) {
        switch EntityID(rawValue: raw) {
        case .player: ("Player", "player")
        case .queue: ("Queue", "queue")
        case .track: ("Track", "track")
        case nil: ("reserved entity \(raw)", "reserved")
        }
    }

    /// Attribute names depend on the entity: each has its own IDs.
    static func attribute(_ raw: UInt8, of entity: UInt8) -> (text: String, json: String) {
        switch EntityID(rawValue: entity) {
        case .player:
            switch PlayerAttributeID(rawValue: raw) {
            case .name: return ("Name", "name")
            case .playbackInfo: return ("PlaybackInfo", "playback_info")
            case .volume: return ("Volume", "volume")
            case nil: break
            }
        case .queue:
            switch QueueAttributeID(rawValue: raw) {
            case .index: return ("Index", "index")
            case .count: return ("Count", "count")
            case .shuffleMode: return ("ShuffleMode", "shuffle_mode")
            case .repeatMode: return ("RepeatMode", "repeat_mode")
            case nil: break
            }
        case .track:
            switch TrackAttributeID(rawValue: raw) {
            case .artist: return ("Artist", "artist")
            case .album: return ("Album", "album")
            case .title: return ("Title", "title")
            case .duration: return ("Duration", "duration")
            case nil: break
            }
        case nil: break
        }
        return ("Attribute\(raw)", "reserved")
    }

    static func command(_ raw: UInt8) -> (text: String, json: String) {
        guard let id = RemoteCommandID(rawValue: raw) else { return ("reserved command \(raw)", "reserved") }
        let json = switch id {
        case .play: "play"
        case .pause: "pause"
        case .togglePlayPause: "toggle_play_pause"
        case .nextTrack: "next_track"
        case .previousTrack: "previous_track"
        case .volumeUp: "volume_up"
        case .volumeDown: "volume_down"
        case .advanceRepeatMode: "advance_repeat_mode"
        case .advanceShuffleMode: "advance_shuffle_mode"
        case .skipForward: "skip_forward"
        case .skipBackward: "skip_backward"
        case .likeTrack: "like_track"
        case .dislikeTrack: "dislike_track"
        case .bookmarkTrack: "bookmark_track"
        }
        return (id.description, json)
    }

    static func playbackState(_ s: PlaybackState) -> (text: String, json: String) {
        switch s {
        case .paused: ("paused", "paused")
        case .playing: ("playing", "playing")
        case .rewinding: ("rewinding", "rewinding")
        case .fastForwarding: ("fast forwarding", "fast_forwarding")
        }
    }

    /// EntityUpdateFlags: bit 0 truncated, the rest reserved.
    static func flags(_ raw: UInt8) -> (text: String, json: [String]) {
        var text: [String] = []
        var json: [String] = []
        if raw & EntityUpdateFlags.truncated.rawValue != 0 {
            text.append("Truncated")
            json.append("truncated")
        }
        let reserved = raw & ~EntityUpdateFlags.truncated.rawValue
        if reserved != 0 {
            text.append("reserved bits \(HexFormat.byteValue(reserved))")
            json.append("reserved")
        }
        return (text.isEmpty ? "none" : text.joined(separator: "|"), json)
    }

    /// The Queue's ShuffleMode and RepeatMode values (decimal text).
    static func mode(_ raw: Int) -> String? {
        switch raw {
        case 0: "off"
        case 1: "one"
        case 2: "all"
        default: nil
        }
    }

    /// `AMS Invalid State` for 0xA0–0xA2; nil for other codes.
    static func error(_ raw: UInt8) -> (name: String, text: String)? {
        guard let e = AMSErrorCode(rawValue: raw) else { return nil }
        let name = switch e {
        case .invalidState: "AMS Invalid State"
        case .invalidCommand: "AMS Invalid Command"
        case .absentAttribute: "AMS Absent Attribute"
        }
        return (name, e.description)
    }

    /// `3:33`, `1:02:05`; with `fraction`, `0:32.456`.
    static func clock(milliseconds ms: Int64, fraction: Bool) -> String {
        let seconds = ms / 1000
        let h = seconds / 3600
        let m = (seconds / 60) % 60
        let s = seconds % 60
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var out = h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
        if fraction, ms % 1000 != 0 {
            let f = String(ms % 1000)
            out += "." + String(repeating: "0", count: 3 - f.count) + f
        }
        return out
    }

    /// A rate in thousandths as decimal text: 1000 → `1.0`, 1250 → `1.25`, -500 → `-0.5`.
    static func rate(milli r: Int32) -> String {
        let magnitude = Int64(r).magnitude
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return (r < 0 ? "-" : "") + "\(magnitude / 1000).\(fraction)"
    }
}
