/// Reads GPX and TCX by element local name, whatever the namespace prefix, point by point from
/// the stream: position, time, heart rate and elevation may each be missing on any point.
struct XMLWorkoutReader {
    /// Elements that matter; everything else is `.other`.
    private enum Tag: UInt8 {
        case other
        case gpx, metadata, trk, trkseg, trkpt, ele, time, hr, name, type
        case trainingCenterDatabase, activity, id, lap, track, trackpoint, tcxTime, position,
             latitudeDegrees, longitudeDegrees, altitudeMeters, heartRateBpm, value, distanceMeters, totalTimeSeconds
    }

    private let scanner: XMLScanner
    private var tags: [Tag] = []

    init(scanner: XMLScanner) {
        self.scanner = scanner
    }

    private func tag(_ name: Range<Int>) -> Tag {
        let s = scanner
        switch name.count {
        case 2: return s.equals(name, "hr") ? .hr : s.equals(name, "Id") ? .id : .other
        case 3: return s.equals(name, "gpx") ? .gpx : s.equals(name, "trk") ? .trk : s.equals(name, "ele") ? .ele : s.equals(name, "Lap") ? .lap : .other
        case 4: return s.equals(name, "time") ? .time : s.equals(name, "name") ? .name : s.equals(name, "type") ? .type : s.equals(name, "Time") ? .tcxTime : .other
        case 5: return s.equals(name, "trkpt") ? .trkpt : s.equals(name, "Track") ? .track : s.equals(name, "Value") ? .value : .other
        case 6: return s.equals(name, "trkseg") ? .trkseg : .other
        case 8: return s.equals(name, "metadata") ? .metadata : s.equals(name, "Activity") ? .activity : s.equals(name, "Position") ? .position : .other
        case 10: return s.equals(name, "Trackpoint") ? .trackpoint : .other
        case 12: return s.equals(name, "HeartRateBpm") ? .heartRateBpm : .other
        case 14: return s.equals(name, "AltitudeMeters") ? .altitudeMeters : s.equals(name, "DistanceMeters") ? .distanceMeters : .other
        case 15: return s.equals(name, "LatitudeDegrees") ? .latitudeDegrees : .other
        case 16: return s.equals(name, "LongitudeDegrees") ? .longitudeDegrees : s.equals(name, "TotalTimeSeconds") ? .totalTimeSeconds : .other
        case 22: return s.equals(name, "TrainingCenterDatabase") ? .trainingCenterDatabase : .other
        default: return .other
        }
    }

    mutating func read() throws -> Workout {
        var workout: Workout?
        var segment: Int32 = -1
        // The point being read.
        var inPoint = false
        var lat = Double.nan, lon = Double.nan, time = Double.nan
        var hr = Float.nan, ele = Float.nan, distance = Float.nan
        var pointLine = 0
        let file = scanner.file
        func bad(_ element: String, _ range: Range<Int>) -> WorkoutError {
            WorkoutError(file: file, line: scanner.tokenLine, problem: .badValue(element: element, value: String(scanner.string(range).prefix(40))))
        }
        func checkPosition(_ line: Int) throws {
            if !lat.isNaN && !(-90...90).contains(lat) {
                throw WorkoutError(file: file, line: line, problem: .outOfRange(element: "latitude", value: "\(lat)"))
            }
            if !lon.isNaN && !(-180...180).contains(lon) {
                throw WorkoutError(file: file, line: line, problem: .outOfRange(element: "longitude", value: "\(lon)"))
            }
        }
        while true {
            switch try scanner.next() {
            case .start:
                let t = tag(scanner.localName)
                if tags.isEmpty {
                    switch t {
                    case .gpx: workout = Workout(format: .gpx)
                    case .trainingCenterDatabase: workout = Workout(format: .tcx); segment = 0
                    default:
                        throw WorkoutError(file: file, line: scanner.tokenLine,
                                           problem: .notAWorkout(.t("root element <{element}>", ["element": "\(scanner.string(scanner.localName))"])))
                    }
                }
                tags.append(t)
                switch t {
                case .trkseg:
                    segment += 1
                case .trkpt, .trackpoint:
                    inPoint = true
                    lat = .nan; lon = .nan; time = .nan; hr = .nan; ele = .nan; distance = .nan
                    pointLine = scanner.tokenLine
                    if t == .trkpt {
                        for attribute in scanner.attributes {
                            if scanner.equals(attribute.localName, "lat") {
                                guard let v = scanner.number(attribute.value) else { throw bad("<trkpt lat>", attribute.value) }
                                lat = v
                            } else if scanner.equals(attribute.localName, "lon") {
                                guard let v = scanner.number(attribute.value) else { throw bad("<trkpt lon>", attribute.value) }
                                lon = v
                            }
                        }
                        if lat.isNaN != lon.isNaN {
                            throw WorkoutError(file: file, line: pointLine, problem: .malformed(.t("<trkpt> needs both lat and lon")))
                        }
                        try checkPosition(pointLine)
                    }
                    if segment < 0 { segment = 0 }
                case .activity:
                    for attribute in scanner.attributes where scanner.equals(attribute.localName, "Sport") {
                        workout?.kind = scanner.string(attribute.value)
                    }
                default:
                    break
                }
            case .text:
                guard let current = tags.last, current != .other else { continue }
                let parent = tags.count >= 2 ? tags[tags.count - 2] : .other
                let range = scanner.text
                if inPoint {
                    switch current {
                    case .ele, .altitudeMeters:
                        guard let v = scanner.number(range) else { throw bad(current == .ele ? "<ele>" : "<AltitudeMeters>", range) }
                        ele = Float(v)
                    case .time, .tcxTime:
                        guard let v = scanner.time(range) else { throw bad(current == .time ? "<time>" : "<Time>", range) }
                        time = v
                    case .hr:
                        guard let v = scanner.number(range) else { throw bad("<hr>", range) }
                        hr = Float(v)
                    case .value where parent == .heartRateBpm:
                        guard let v = scanner.number(range) else { throw bad("<HeartRateBpm><Value>", range) }
                        hr = Float(v)
                    case .latitudeDegrees:
                        guard let v = scanner.number(range) else { throw bad("<LatitudeDegrees>", range) }
                        lat = v
                    case .longitudeDegrees:
                        guard let v = scanner.number(range) else { throw bad("<LongitudeDegrees>", range) }
                        lon = v
                    case .distanceMeters:
                        guard let v = scanner.number(range), v >= 0 else { throw bad("<DistanceMeters>", range) }
                        distance = Float(v)
                    default: break
                    }
                } else {
                    switch (current, parent) {
                    case (.name, .metadata), (.name, .trk):
                        if workout?.name == nil { workout?.name = scanner.string(range).trimmingSpaces }
                    case (.type, .trk):
                        if workout?.kind == nil { workout?.kind = scanner.string(range).trimmingSpaces }
                    case (.id, .activity):
                        if workout?.declaredStart == nil { workout?.declaredStart = scanner.time(range) }
                    case (.distanceMeters, .lap):
                        // The laps' own totals: used only when no point has a position or distance.
                        guard let v = scanner.number(range), v >= 0 else { throw bad("<Lap><DistanceMeters>", range) }
                        let sum = (workout?.declaredDistance ?? 0) + v
                        workout?.declaredDistance = sum
                    case (.totalTimeSeconds, .lap):
                        guard let v = scanner.number(range), v >= 0 else { throw bad("<Lap><TotalTimeSeconds>", range) }
                        let sum = (workout?.declaredTimerSeconds ?? 0) + v
                        workout?.declaredTimerSeconds = sum
                    default: break
                    }
                }
            case .end:
                let t = tags.removeLast()
                if t == .trkpt || t == .trackpoint {
                    inPoint = false
                    try checkPosition(pointLine)
                    if !(-1...300).contains(hr) && !hr.isNaN {
                        throw WorkoutError(file: file, line: pointLine, problem: .outOfRange(element: "heart rate", value: "\(hr)"))
                    }
                    if lat.isNaN != lon.isNaN { lat = .nan; lon = .nan }
                    workout?.append(latitude: lat, longitude: lon, time: time, heartRate: hr, elevation: ele, segment: max(segment, 0),
                                    deviceDistance: distance)
                }
            case .eof:
                guard var result = workout else { throw WorkoutError(file: file, line: nil, problem: .notAWorkout(.t("no GPX or TCX root element"))) }
                guard result.count > 0 else { throw WorkoutError(file: file, line: nil, problem: .noPoints) }
                if result.name?.isEmpty == true { result.name = nil }
                return result
            }
        }
    }
}
