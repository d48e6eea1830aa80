import FoundationEssentials

/// The file formats Locker reads.
public enum WorkoutFormat: String, Sendable, Codable {
    /// GPX 1.0 / 1.1 (`trkpt`, heart rate from a TrackPointExtension `hr`).
    case gpx
    /// Garmin Training Center (`Trackpoint`, `HeartRateBpm/Value`).
    case tcx
    /// Locker's own JSON (docs/DATA-FORMATS.md §6, Workouts).
    case json
    /// The original app's JSON: an array of `[latitude, longitude, heartRate]` without time.
    case triples
    /// Garmin's binary Flexible and Interoperable Data Transfer format (watches, bike computers).
    case fit
}

/// A recorded workout in columns (one array per field, missing values as NaN): a million points
/// take about 36 MB.
public struct Workout: Sendable {
    public var format: WorkoutFormat
    /// The file's own title (GPX name, JSON title), if any.
    public var name: String?
    /// The file's type or sport (GPX type, TCX Sport, JSON sport, FIT sport), if any.
    /// FIT sports are stored as the profile's lowercase name ("running"); `SportText` names them.
    public var kind: String?
    /// Start given by the file itself (TCX Id, JSON start), if any.
    public var declaredStart: Double?
    public var latitude: [Double] = []
    public var longitude: [Double] = []
    /// Seconds since 1970.
    public var time: [Double] = []
    public var heartRate: [Float] = []
    public var elevation: [Float] = []
    /// Recording segment of each point (GPX `trkseg`, FIT timer restart); the line is not drawn
    /// across segments and the time between two segments is a pause.
    public var segment: [Int32] = []
    /// The device's own cumulative distance in metres at each point (TCX `DistanceMeters`, FIT
    /// `distance`), NaN where the file has none. Used when the file has no positions.
    public var deviceDistance: [Float] = []
    /// Totals the device wrote for the whole file (TCX laps, FIT sessions), used only when the
    /// points carry neither positions nor distances (a pool swim with lap data only).
    public var declaredDistance: Double?
    public var declaredTimerSeconds: Double?
    /// Metres climbed as the device counted them for the whole file (FIT sessions'
    /// `total_ascent`, from its barometer): preferred to a count from the elevations.
    public var declaredAscent: Double?
    /// Where the file itself starts another activity (a FIT session), with that activity's sport.
    public var activityStarts: [ActivityStart] = []
    /// Points whose time was dropped as wrong (far from both neighbours; `WorkoutActivities`).
    public var ignoredTimes = 0

    /// The first point of an activity the file declares (FIT multisport sessions).
    public struct ActivityStart: Sendable, Equatable {
        public var index: Int
        public var kind: String?
    }

    public init(format: WorkoutFormat) { self.format = format }

    public var count: Int { latitude.count }

    mutating func append(latitude lat: Double, longitude lon: Double, time t: Double, heartRate hr: Float, elevation ele: Float,
                         segment seg: Int32, deviceDistance dist: Float = .nan) {
        latitude.append(lat)
        longitude.append(lon)
        time.append(t)
        heartRate.append(hr)
        elevation.append(ele)
        segment.append(seg)
        deviceDistance.append(dist)
    }

    mutating func reserve(_ n: Int) {
        latitude.reserveCapacity(n); longitude.reserveCapacity(n); time.reserveCapacity(n)
        heartRate.reserveCapacity(n); elevation.reserveCapacity(n); segment.reserveCapacity(n)
        deviceDistance.reserveCapacity(n)
    }

    public func hasPosition(_ i: Int) -> Bool { !latitude[i].isNaN && !longitude[i].isNaN }
}

/// Why a file could not be read as a workout: the file, the line (or, in a binary file, the byte
/// offset) and what is wrong.
public struct WorkoutError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// Offset of the bad byte from the start of a binary (FIT) file.
    public var byteOffset: Int?
    public var problem: Problem

    public init(file: String, line: Int?, byteOffset: Int? = nil, problem: Problem) {
        self.file = file
        self.line = line
        self.byteOffset = byteOffset
        self.problem = problem
    }

    public enum Problem: Equatable, Sendable {
        case unreadable(LocalizedMessage)
        case notAWorkout(LocalizedMessage)
        case truncated(LocalizedMessage)
        /// A binary file ends before its declared size.
        case cutShort
        /// A FIT header or file checksum does not match: the bytes were damaged.
        case badChecksum
        case malformed(LocalizedMessage)
        case badValue(element: String, value: String)
        case outOfRange(element: String, value: String)
        case noPoints
        case tripleSize(index: Int, count: Int)
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? "")\(byteOffset.map { "@\($0)" } ?? ""): \(problem)"
    }

    /// The message in the interface language: the file, where in it, and what is wrong.
    public func message(_ l: Localizer) -> String {
        let place = line.map { l.t("{file}, line {line}", ["file": file, "line": String($0)]) }
            ?? byteOffset.map { l.t("{file}, byte {offset}", ["file": file, "offset": String($0)]) } ?? file
        return l.t("{label}: {value}", ["label": place, "value": what(l)])
    }

    /// The same without the file's name, for a place that already shows it (a row of the list).
    public func messageWithinFile(_ l: Localizer) -> String {
        if let line { return l.t("{label}: {value}", ["label": l.t("line {line}", ["line": String(line)]), "value": what(l)]) }
        if let byteOffset { return l.t("{label}: {value}", ["label": l.t("byte {offset}", ["offset": String(byteOffset)]), "value": what(l)]) }
        return what(l)
    }

    private func what(_ l: Localizer) -> String {
        let what: String
        switch problem {
        case .unreadable(let reason): what = l.t("cannot be read ({reason})", ["reason": reason.text(l)])
        case .notAWorkout(let reason): what = l.t("is not a GPX, TCX, FIT or JSON workout ({reason})", ["reason": reason.text(l)])
        case .truncated(let open): what = l.t("ends too early: {element} is not closed (is the file cut short?)", ["element": open.text(l)])
        case .cutShort: what = l.t("ends too early (is the file cut short?); nothing was read from it")
        case .badChecksum: what = l.t("fails its checksum, so its bytes are damaged; nothing was read from it")
        case .malformed(let detail): what = l.t("is not well-formed: {detail}", ["detail": detail.text(l)])
        case .badValue(let element, let value): what = l.t("{element} holds “{value}”, which is not a valid value", ["element": element, "value": value])
        case .outOfRange(let element, let value): what = l.t("{element} is {value}, outside the possible range", ["element": element, "value": value])
        case .noPoints: what = l.t("has no track points")
        case .tripleSize(let index, let count):
            what = l.t("point {index} has {count} values; each point must be [latitude, longitude, heart rate]", ["index": String(index), "count": String(count)])
        }
        return what
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
