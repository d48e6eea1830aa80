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
    /// The ground's time zone (IANA): game times there are read and shown on its clock.
    public var timeZone: String = GroundClock.defaultZone
}
