// The games' plain records: no database here, so that importers and the fuzz build can use
// them without GRDB.

/// A ground (park, reserve, oval) where games are played.
public struct Ground: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    public var suburb: String
    public var postcode: String
    public var latitude: Double
    public var longitude: Double
    /// True when the position is only the suburb's centre or otherwise not surveyed.
    public var approximate: Bool
}

/// A pickup game and how full it is.
public struct Game: Equatable, Sendable {
    public var id: Int64
    public var ground: Ground
    public var organiser: String
    public var startsAt: Double
    /// Players the organiser already has (the organiser included).
    public var players: Int
    public var capacity: Int
    public var minimum: Int?
    public var note: String?
    public var cancelled: Bool
    public var cancelReason: String?
    public var going: Int
    public var waitlisted: Int
    /// The asking user's part: organiser, going, waitlisted, or nil.
    public var myStatus: String?

    /// Seats used: the organiser's players plus going bookings.
    public var seatsUsed: Int { players + going }
    public var status: String {
        if cancelled { return "cancelled" }
        if seatsUsed >= capacity { return "full" }
        if let minimum, seatsUsed < minimum { return "needs-players" }
        return "open"
    }

    /// https://www.openstreetmap.org/?mlat=…&mlon=… for the ground.
    public var mapLink: String {
        "https://www.openstreetmap.org/?mlat=\(ground.latitude)&mlon=\(ground.longitude)#map=17/\(ground.latitude)/\(ground.longitude)"
    }
}

/// A ground and how far it is from the searched place.
public struct NearbyGround: Equatable, Sendable {
    public var ground: Ground
    public var meters: Double
}
