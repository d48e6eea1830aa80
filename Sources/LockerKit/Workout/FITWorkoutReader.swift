/// Reads FIT activity files (Garmin's Flexible and Interoperable Data Transfer protocol) record by
/// record from the stream, as the GPX/TCX readers do: a million records need the columns and
/// one buffer, never the whole file.
///
/// What it takes from the file: `record` messages (time, position in semicircles, heart rate,
/// altitude or enhanced altitude, the device's distance), compressed-timestamp headers, timer
/// stop/start events (a restart opens a new segment, so the stop is a pause), the sport (from
/// `sport` and `session` messages) and each session's start (several sessions are several
/// activities). Developer fields and every other message are skipped by their declared sizes.
/// The header CRC and the file CRC are checked; chained FIT files are read one after another.
/// A truncated file or a bad checksum is refused with the byte offset, and nothing is returned.
struct FITWorkoutReader {
    private let stream: ByteStream
    private let file: String
    private var crc = FITChecksum()

    /// Seconds between the Unix epoch and the FIT epoch (1989-12-31T00:00:00Z).
    static let epochOffset = 631_065_600.0
    /// Degrees per semicircle (2^31 semicircles = 180°).
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    init(stream: ByteStream, file: String) {
        self.stream = stream
        self.file = file
    }

    // MARK: Messages

    /// Global message numbers that matter (FIT profile).
    private enum Message {
        static let sport: UInt16 = 12
        static let session: UInt16 = 18
        static let record: UInt16 = 20
        static let event: UInt16 = 21

        /// The fields read from each message, by number and size, in the order of
        /// `Definition`'s slots `a`, `b`, `c`, … (FIT profile numbers).
        static let fieldsRead: [UInt16: [(number: UInt8, size: Int)]] = [
            // position_lat, position_long, altitude, heart_rate, distance, enhanced_altitude
            record: [(0, 4), (1, 4), (2, 2), (3, 1), (5, 4), (78, 4)],
            // event, event_type
            event: [(0, 1), (1, 1)],
            // start_time, sport, total_timer_time, total_distance, total_ascent
            session: [(2, 4), (5, 1), (8, 4), (9, 4), (22, 2)],
            // sport
            sport: [(0, 1)],
        ]
    }

    /// One field of a definition: where its bytes are in the data message.
    private struct Field {
        var number: UInt8
        var offset: Int
        var size: Int
        var baseType: UInt8
    }

    /// A local message definition: the fields, in order, and the total size of a data message.
    private struct Definition {
        var global: UInt16
        var bigEndian: Bool
        var fields: [Field]
        var size: Int
        /// Offsets of the fields the reader uses (−1 when absent or of an unexpected size).
        var timestamp = -1
        var a = -1, b = -1, c = -1, d = -1, e = -1, f = -1

        func offset(of number: UInt8, size wanted: Int) -> Int {
            fields.first { $0.number == number && $0.size == wanted }?.offset ?? -1
        }

        /// Finds `wanted`'s fields, in order, for the slots `a` to `f`.
        mutating func locate(_ wanted: [(number: UInt8, size: Int)]) {
            let found = wanted.map { offset(of: $0.number, size: $0.size) } + Array(repeating: -1, count: 6)
            (a, b, c, d, e, f) = (found[0], found[1], found[2], found[3], found[4], found[5])
        }
    }

    /// What a session message says.
    private struct Session {
        var start: Double?
        var kind: String?
        var distance: Double?
        var timer: Double?
        /// Metres climbed, as the device counted them (`total_ascent`).
        var ascent: Double?
    }

    // MARK: Reading

    mutating func read() throws -> Workout {
        var workout = Workout(format: .fit)
        if stream.totalSize > 0 { workout.reserve(min(stream.totalSize / 16, 4_000_000)) }
        var definitions = [Definition?](repeating: nil, count: 16)
        var sessions: [Session] = []
        var sportName: String?
        var lastTimestamp: UInt32 = 0
        var hasTimestamp = false
        var segment: Int32 = 0
        var paused = false
        var sawFile = false

        // One FIT file after another (chained files), until the stream ends.
        while stream.ensure(1) {
            let headerStart = stream.fileOffset(of: stream.position)
            guard stream.ensure(12) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
            let head = stream.buffer + stream.position
            let headerSize = Int(head[0])
            guard head[8] == 0x2E, head[9] == 0x46, head[10] == 0x49, head[11] == 0x54 else {
                if sawFile { throw failure(.malformed(.t("bytes after the end of the FIT data")), at: headerStart) }
                throw failure(.notAWorkout(.t("no “.FIT” signature in the header")), at: headerStart + 8)
            }
            guard headerSize >= 12 else { throw failure(.malformed(.t("a FIT header of {size} bytes (12 or 14 expected)", ["size": "\(headerSize)"])), at: headerStart) }
            guard stream.ensure(headerSize) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
            let header = stream.buffer + stream.position
            let dataSize = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
            crc = FITChecksum()
            if headerSize >= 14 {
                let stored = UInt16(header[12]) | UInt16(header[13]) << 8
                var headerCRC = FITChecksum()
                headerCRC.update(header, count: 12)
                if stored != 0 && stored != headerCRC.value { throw failure(.badChecksum, at: headerStart + 12) }
            }
            crc.update(header, count: headerSize)
            stream.position += headerSize
            sawFile = true

            var remaining = dataSize
            while remaining > 0 {
                guard stream.ensure(1) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.position)) }
                let recordStart = stream.fileOffset(of: stream.position)
                let recordHeader = stream.buffer[stream.position]
                var local: Int
                var compressedTime: UInt32?
                if recordHeader & 0x80 != 0 {
                    // Compressed timestamp: 5 bits of seconds, relative to the last full timestamp.
                    local = Int(recordHeader >> 5) & 0x03
                    let offset = UInt32(recordHeader & 0x1F)
                    // Wrapping: a damaged file may hold a full timestamp near 2^32.
                    var t = (lastTimestamp & ~0x1F) &+ offset
                    if offset < lastTimestamp & 0x1F { t = t &+ 0x20 }
                    compressedTime = t
                } else {
                    local = Int(recordHeader & 0x0F)
                }
                if recordHeader & 0xC0 == 0x40 {
                    // Definition message.
                    guard stream.ensure(6) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
                    let p = stream.buffer + stream.position
                    let bigEndian = p[2] == 1
                    let global = bigEndian ? UInt16(p[3]) << 8 | UInt16(p[4]) : UInt16(p[3]) | UInt16(p[4]) << 8
                    let fieldCount = Int(p[5])
                    let hasDeveloperFields = recordHeader & 0x20 != 0
                    var length = 6 + fieldCount * 3
                    guard stream.ensure(length + (hasDeveloperFields ? 1 : 0)) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
                    var fields: [Field] = []
                    fields.reserveCapacity(fieldCount)
                    var size = 0
                    var q = stream.buffer + stream.position + 6
                    for _ in 0..<fieldCount {
                        let fieldSize = Int(q[1])
                        guard fieldSize > 0 else { throw failure(.malformed(.t("a field of size 0 in a definition")), at: stream.fileOffset(of: stream.position) + (q - stream.buffer - stream.position) + 1) }
                        fields.append(Field(number: q[0], offset: size, size: fieldSize, baseType: q[2]))
                        size += fieldSize
                        q += 3
                    }
                    if hasDeveloperFields {
                        let developerCount = Int(stream.buffer[stream.position + length])
                        length += 1
                        guard stream.ensure(length + developerCount * 3) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
                        let d = stream.buffer + stream.position + length
                        for i in 0..<developerCount { size += Int(d[i * 3 + 1]) }
                        length += developerCount * 3
                    }
                    var definition = Definition(global: global, bigEndian: bigEndian, fields: fields, size: size)
                    definition.timestamp = definition.offset(of: 253, size: 4)
                    definition.locate(Message.fieldsRead[global] ?? [])
                    definitions[local] = definition
                    try consume(length, of: &remaining, at: recordStart)
                    continue
                }
                // Data message.
                guard let definition = definitions[local] else {
                    throw failure(.malformed(.t("a data message of local type {type}, which no definition precedes", ["type": "\(local)"])), at: recordStart)
                }
                let length = 1 + definition.size
                guard stream.ensure(length) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
                let p = UnsafePointer(stream.buffer + stream.position + 1)
                let big = definition.bigEndian
                // The message's own timestamp, else the compressed one (which needs an earlier
                // full timestamp to count from).
                var time = Double.nan
                if definition.timestamp >= 0 {
                    let t = FITWorkoutReader.u32(p + definition.timestamp, big)
                    if t != 0xFFFF_FFFF {
                        lastTimestamp = t
                        hasTimestamp = true
                        time = Double(t) + FITWorkoutReader.epochOffset
                    }
                } else if let compressedTime, hasTimestamp {
                    lastTimestamp = compressedTime
                    time = Double(compressedTime) + FITWorkoutReader.epochOffset
                }
                switch definition.global {
                case Message.record:
                    var lat = Double.nan, lon = Double.nan
                    if definition.a >= 0 && definition.b >= 0 {
                        let la = Int32(bitPattern: FITWorkoutReader.u32(p + definition.a, big))
                        let lo = Int32(bitPattern: FITWorkoutReader.u32(p + definition.b, big))
                        if la != Int32.max && lo != Int32.max {
                            lat = Double(la) * FITWorkoutReader.degreesPerSemicircle
                            lon = Double(lo) * FITWorkoutReader.degreesPerSemicircle
                            if !(-90...90).contains(lat) || !(-180...180).contains(lon) { lat = .nan; lon = .nan }
                        }
                    }
                    var ele = Float.nan
                    if definition.f >= 0 {
                        let v = FITWorkoutReader.u32(p + definition.f, big)
                        if v != 0xFFFF_FFFF { ele = Float(Double(v) / 5 - 500) }
                    }
                    if ele.isNaN && definition.c >= 0 {
                        let v = FITWorkoutReader.u16(p + definition.c, big)
                        if v != 0xFFFF { ele = Float(Double(v) / 5 - 500) }
                    }
                    var hr = Float.nan
                    if definition.d >= 0 {
                        let v = p[definition.d]
                        if v != 0xFF && v != 0 { hr = Float(v) }
                    }
                    var distance = Float.nan
                    if definition.e >= 0 {
                        let v = FITWorkoutReader.u32(p + definition.e, big)
                        if v != 0xFFFF_FFFF { distance = Float(Double(v) / 100) }
                    }
                    workout.append(latitude: lat, longitude: lon, time: time, heartRate: hr, elevation: ele,
                                   segment: segment, deviceDistance: distance)
                case Message.event:
                    // Event 0 is the timer: a stop pauses, the next start opens a new segment.
                    if definition.a >= 0 && definition.b >= 0 && p[definition.a] == 0 {
                        switch p[definition.b] {
                        case 1, 4, 8, 9: paused = true
                        case 0:
                            if paused && workout.count > 0 && workout.segment.last == segment { segment += 1 }
                            paused = false
                        default: break
                        }
                    }
                case Message.session:
                    var session = Session()
                    if definition.a >= 0 {
                        let v = FITWorkoutReader.u32(p + definition.a, big)
                        if v != 0xFFFF_FFFF { session.start = Double(v) + FITWorkoutReader.epochOffset }
                    }
                    if definition.b >= 0 { session.kind = FITSport.name(p[definition.b]) }
                    if definition.c >= 0 {
                        let v = FITWorkoutReader.u32(p + definition.c, big)
                        if v != 0xFFFF_FFFF { session.timer = Double(v) / 1000 }
                    }
                    if definition.d >= 0 {
                        let v = FITWorkoutReader.u32(p + definition.d, big)
                        if v != 0xFFFF_FFFF { session.distance = Double(v) / 100 }
                    }
                    if definition.e >= 0 {
                        let v = FITWorkoutReader.u16(p + definition.e, big)
                        if v != 0xFFFF { session.ascent = Double(v) }
                    }
                    sessions.append(session)
                case Message.sport:
                    if definition.a >= 0, sportName == nil { sportName = FITSport.name(p[definition.a]) }
                default:
                    break
                }
                try consume(length, of: &remaining, at: recordStart)
            }
            guard stream.ensure(2) else { throw failure(.cutShort, at: stream.fileOffset(of: stream.count)) }
            let crcAt = stream.fileOffset(of: stream.position)
            let stored = UInt16(stream.buffer[stream.position]) | UInt16(stream.buffer[stream.position + 1]) << 8
            guard stored == crc.value else { throw failure(.badChecksum, at: crcAt) }
            stream.position += 2
        }
        guard sawFile else { throw failure(.notAWorkout(.t("the file is empty")), at: 0) }
        guard workout.count > 0 else { throw WorkoutError(file: file, line: nil, problem: .noPoints) }
        workout.kind = sessions.first?.kind ?? sportName
        let totals = sessions.compactMap(\.distance)
        if !totals.isEmpty { workout.declaredDistance = totals.reduce(0, +) }
        let climbs = sessions.compactMap(\.ascent)
        if !climbs.isEmpty { workout.declaredAscent = climbs.reduce(0, +) }
        let timers = sessions.compactMap(\.timer)
        if !timers.isEmpty { workout.declaredTimerSeconds = timers.reduce(0, +) }
        if sessions.count > 1 {
            // Each later session starts another activity at its first record.
            for session in sessions.dropFirst() {
                guard let start = session.start,
                      let index = workout.time.firstIndex(where: { $0 >= start }), index > 0 else { continue }
                if workout.activityStarts.last.map({ $0.index < index }) ?? true {
                    workout.activityStarts.append(Workout.ActivityStart(index: index, kind: session.kind))
                }
            }
        }
        return workout
    }

    /// Checksums and consumes `length` bytes at `position`, counting them against the data size.
    private mutating func consume(_ length: Int, of remaining: inout Int, at recordStart: Int) throws {
        guard length <= remaining else {
            throw failure(.malformed(.t("a message runs past the end of the data the header declares")), at: recordStart)
        }
        crc.update(stream.buffer + stream.position, count: length)
        stream.position += length
        remaining -= length
    }

    private func failure(_ problem: WorkoutError.Problem, at offset: Int) -> Error {
        WorkoutError(file: file, line: nil, byteOffset: offset, problem: problem)
    }

    @inline(__always)
    static func u16(_ p: UnsafePointer<UInt8>, _ big: Bool) -> UInt16 {
        big ? UInt16(p[0]) << 8 | UInt16(p[1]) : UInt16(p[0]) | UInt16(p[1]) << 8
    }

    @inline(__always)
    static func u32(_ p: UnsafePointer<UInt8>, _ big: Bool) -> UInt32 {
        big ? UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
            : UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }
}

/// The FIT checksum: CRC-16 with polynomial 0x8005 (reflected 0xA001), initial value 0, over the
/// header and the data. A file is sound when the two bytes after its data equal this value.
struct FITChecksum {
    private(set) var value: UInt16 = 0

    private static let table: [UInt16] = (0..<256).map { byte -> UInt16 in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var crc = value
        FITChecksum.table.withUnsafeBufferPointer { table in
            for i in 0..<count { crc = (crc >> 8) ^ table[Int((crc ^ UInt16(bytes[i])) & 0xFF)] }
        }
        value = crc
    }

    mutating func update(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        update(UnsafePointer(bytes), count: count)
    }
}

/// The FIT profile's sport names (the `sport` enum), as stored in `Workout.kind`.
enum FITSport {
    private static let names = [
        "generic", "running", "cycling", "transition", "fitness_equipment", "swimming", "basketball", "soccer",
        "tennis", "american_football", "training", "walking", "cross_country_skiing", "alpine_skiing", "snowboarding",
        "rowing", "mountaineering", "hiking", "multisport", "paddling", "flying", "e_biking", "motorcycling",
        "boating", "driving", "golf", "hang_gliding", "horseback_riding", "hunting", "fishing", "inline_skating",
        "rock_climbing", "sailing", "ice_skating", "sky_diving", "snowshoeing", "snowmobiling",
        "stand_up_paddleboarding", "surfing", "wakeboarding", "water_skiing", "kayaking", "rafting", "windsurfing",
        "kitesurfing", "tactical", "jumpmaster", "boxing", "floor_climbing",
    ]

    /// The profile name of sport `value`, nil for "invalid" (255) and for generic (0).
    static func name(_ value: UInt8) -> String? {
        guard value != 0xFF, value != 0 else { return nil }
        return Int(value) < names.count ? names[Int(value)] : nil
    }
}
