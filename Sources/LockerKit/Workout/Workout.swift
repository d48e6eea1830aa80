import FoundationEssentials

/// The file formats Locker reads.
public enum WorkoutFormat: String, Sendable, Codable {
    /// GPX 1.0 / 1.1 (`trkpt`, heart rate from a TrackPointExtension `hr`).
    case gpx
    /// Garmin Training Center (`Trackpoint`, `HeartRateBpm/Value`).
    case tcx
    /// Locker's own JSON (design §6).
    case json
    /// The original app's JSON: an array of `[latitude, longitude, heartRate]` without time.
    case triples
}

/// A recorded workout in columns (one array per field, missing values as NaN): a million points
/// take about 36 MB.
public struct Workout: Sendable {
    public var format: WorkoutFormat
    /// The file's own title (GPX name, JSON title), if any.
    public var name: String?
    /// The file's type or sport (GPX type, TCX Sport, JSON subtitle or sport), if any.
    public var kind: String?
    /// Start given by the file itself (TCX Id, JSON start), if any.
    public var declaredStart: Double?
    public var latitude: [Double] = []
    public var longitude: [Double] = []
    /// Seconds since 1970.
    public var time: [Double] = []
    public var heartRate: [Float] = []
    public var elevation: [Float] = []
    /// Recording segment of each point (GPX `trkseg`); the line is not drawn across segments.
    public var segment: [Int32] = []

    public init(format: WorkoutFormat) { self.format = format }

    public var count: Int { latitude.count }

    mutating func append(latitude lat: Double, longitude lon: Double, time t: Double, heartRate hr: Float, elevation ele: Float, segment seg: Int32) {
        latitude.append(lat)
        longitude.append(lon)
        time.append(t)
        heartRate.append(hr)
        elevation.append(ele)
        segment.append(seg)
    }

    public func hasPosition(_ i: Int) -> Bool { !latitude[i].isNaN && !longitude[i].isNaN }
}

/// Why a file could not be read as a workout: the file, the line (or element) and what is wrong.
public struct WorkoutError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var problem: Problem

    public enum Problem: Equatable, Sendable {
        case unreadable(String)
        case notAWorkout(String)
        case fitNotSupported
        case truncated(String)
        case malformed(String)
        case badValue(element: String, value: String)
        case outOfRange(element: String, value: String)
        case noPoints
        case tripleSize(index: Int, count: Int)
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(problem)" }

    /// The message in the interface language.
    public func message(_ l: Localizer) -> String {
        let place = line.map { l.t("{file}, line {line}", ["file": file, "line": String($0)]) } ?? file
        let what: String
        switch problem {
        case .unreadable(let reason): what = l.t("cannot be read ({reason})", ["reason": reason])
        case .notAWorkout(let reason): what = l.t("is not a GPX, TCX or JSON workout ({reason})", ["reason": reason])
        case .fitNotSupported: what = l.t("is a FIT file, which Locker does not read; export the workout as GPX or TCX")
        case .truncated(let open): what = l.t("ends too early: {element} is not closed (is the file cut short?)", ["element": open])
        case .malformed(let detail): what = l.t("is not well-formed: {detail}", ["detail": detail])
        case .badValue(let element, let value): what = l.t("{element} holds “{value}”, which is not a valid value", ["element": element, "value": value])
        case .outOfRange(let element, let value): what = l.t("{element} is {value}, outside the possible range", ["element": element, "value": value])
        case .noPoints: what = l.t("has no track points")
        case .tripleSize(let index, let count):
            what = l.t("point {index} has {count} values; each point must be [latitude, longitude, heart rate]", ["index": String(index), "count": String(count)])
        }
        return place + ": " + what
    }
}

extension Workout {
    /// The file's own name, else the file name without its extension.
    public func title(fileName: String) -> String {
        if let name, !name.isEmpty { return name }
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}
