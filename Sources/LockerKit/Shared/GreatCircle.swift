#if canImport(Glibc)
import Glibc
#endif

/// Distances on the Earth as a sphere of the mean radius (workout routes, nearest grounds).
public enum GreatCircle {
    public static let earthRadiusMeters = 6_371_008.8

    /// Haversine distance in metres between two positions in degrees.
    public static func meters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }
}
