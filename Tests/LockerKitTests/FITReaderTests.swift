import Foundation
import XCTest
@testable import LockerKit

/// Writes small FIT files for the tests: definitions, data messages (normal or with a compressed
/// timestamp header), developer fields, either byte order, and the header and file CRCs
/// computed with the FIT SDK's own nibble algorithm (independent of the reader's table).
struct FITBuilder {
    struct FieldDefinition { var number: UInt8; var size: UInt8; var baseType: UInt8 }
    private(set) var data: [UInt8] = []
    private var sizes: [UInt8: [UInt8]] = [:]
    private var bigEndian: [UInt8: Bool] = [:]
    private var developerSizes: [UInt8: Int] = [:]

    static let timestamp = FieldDefinition(number: 253, size: 4, baseType: 0x86)
    static let latitude = FieldDefinition(number: 0, size: 4, baseType: 0x85)
    static let longitude = FieldDefinition(number: 1, size: 4, baseType: 0x85)
    static let altitude = FieldDefinition(number: 2, size: 2, baseType: 0x84)
    static let heartRate = FieldDefinition(number: 3, size: 1, baseType: 0x02)
    static let distance = FieldDefinition(number: 5, size: 4, baseType: 0x86)
    static let enhancedAltitude = FieldDefinition(number: 78, size: 4, baseType: 0x86)

    /// FIT time of a Unix time.
    static func fitTime(_ unix: Double) -> UInt64 { UInt64(unix - 631_065_600) }
    /// Semicircles of a position in degrees, as a two's-complement UInt64 of 32 bits.
    static func semicircles(_ degrees: Double) -> UInt64 { UInt64(UInt32(bitPattern: Int32(degrees / 180 * 2_147_483_648))) }

    mutating func define(local: UInt8, global: UInt16, _ fields: [FieldDefinition], developer: [UInt8] = [], bigEndian big: Bool = false) {
        data.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
        data.append(0)
        data.append(big ? 1 : 0)
        data += big ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        data.append(UInt8(fields.count))
        for f in fields { data += [f.number, f.size, f.baseType] }
        if !developer.isEmpty {
            data.append(UInt8(developer.count))
            for (i, size) in developer.enumerated() { data += [UInt8(i), size, 0] }
        }
        sizes[local] = fields.map(\.size)
        bigEndian[local] = big
        developerSizes[local] = developer.reduce(0) { $0 + Int($1) }
    }

    /// A data message; `compressedOffset` writes a compressed-timestamp header instead.
    mutating func message(local: UInt8, _ values: [UInt64], compressedOffset: UInt8? = nil) {
        if let compressedOffset { data.append(0x80 | local << 5 | (compressedOffset & 0x1F)) } else { data.append(local) }
        for (size, value) in zip(sizes[local] ?? [], values) {
            var bytes = (0..<Int(size)).map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }
            if bigEndian[local] ?? false { bytes.reverse() }
            data += bytes
        }
        data += [UInt8](repeating: 0xAB, count: developerSizes[local] ?? 0)
    }

    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                               0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
        var crc: UInt16 = 0
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }

    /// Header (14 bytes with its CRC), the data, the file CRC.
    func file() -> [UInt8] {
        let size = UInt32(data.count)
        var bytes: [UInt8] = [14, 0x20, 0x08, 0x08, UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24), 0x2E, 0x46, 0x49, 0x54]
        let headerCRC = FITBuilder.crc(bytes[...])
        bytes += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        bytes += data
        let fileCRC = FITBuilder.crc(bytes[...])
        return bytes + [UInt8(fileCRC & 0xFF), UInt8(fileCRC >> 8)]
    }
}

final class FITReaderTests: XCTestCase {
    let start = 1_700_000_000.0  // 2023-11-14T22:13:20Z

    func read(_ bytes: [UInt8]) throws -> Workout { try WorkoutReader.read(bytes: bytes, name: "t.fit") }

    func problem(_ bytes: [UInt8]) -> WorkoutError? {
        do { _ = try read(bytes); return nil } catch { return error as? WorkoutError }
    }

    /// Three full records, then records with compressed timestamps (one wrapping past 32 s).
    func sampleRun() -> FITBuilder {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, [FITBuilder.timestamp, FITBuilder.latitude, FITBuilder.longitude,
                                          FITBuilder.altitude, FITBuilder.heartRate, FITBuilder.distance])
        for i in 0..<3 {
            fit.message(local: 0, [FITBuilder.fitTime(start + Double(i)), FITBuilder.semicircles(-38.03 + Double(i) * 0.0001),
                                   FITBuilder.semicircles(145.34), UInt64((41 + 500) * 5), UInt64(120 + i), UInt64(i * 1100)])
        }
        fit.define(local: 1, global: 20, [FITBuilder.latitude, FITBuilder.longitude, FITBuilder.heartRate])
        let low = UInt8(FITBuilder.fitTime(start + 2) & 0x1F)
        fit.message(local: 1, [FITBuilder.semicircles(-38.0297), FITBuilder.semicircles(145.34), 0xFF], compressedOffset: (low + 3) & 0x1F)
        fit.message(local: 1, [0x7FFF_FFFF, 0x7FFF_FFFF, 130], compressedOffset: (low + 40) & 0x1F)
        return fit
    }

    func testRecordsPositionsAltitudeAndCompressedTimestamps() throws {
        let w = try read(sampleRun().file())
        XCTAssertEqual(w.format, .fit)
        XCTAssertEqual(w.count, 5)
        XCTAssertEqual(w.time[0], start)
        XCTAssertEqual(w.time[2], start + 2)
        XCTAssertEqual(w.time[3], start + 5, "compressed: 3 s after the last full timestamp")
        XCTAssertEqual(w.time[4], start + 10, "compressed offsets count from the low 5 bits and wrap past 32 s")
        XCTAssertEqual(w.latitude[0], -38.03, accuracy: 1e-6)
        XCTAssertEqual(w.longitude[1], 145.34, accuracy: 1e-6)
        XCTAssertTrue(w.latitude[4].isNaN, "0x7FFFFFFF is FIT's invalid sint32")
        XCTAssertEqual(w.elevation[0], 41, accuracy: 0.01, "altitude is (value / 5) − 500 m")
        XCTAssertEqual(w.heartRate[2], 122)
        XCTAssertTrue(w.heartRate[3].isNaN, "0xFF is FIT's invalid uint8")
        XCTAssertEqual(w.deviceDistance[2], 22, accuracy: 0.001, "distance is in centimetres")
        XCTAssertTrue(w.deviceDistance[3].isNaN)
    }

    func testDeveloperFieldsBigEndianAndEnhancedAltitude() throws {
        var fit = FITBuilder()
        fit.define(local: 3, global: 20, [FITBuilder.timestamp, FITBuilder.heartRate, FITBuilder.enhancedAltitude, FITBuilder.altitude],
                   developer: [2, 5], bigEndian: true)
        fit.message(local: 3, [FITBuilder.fitTime(start), 150, UInt64((1234.4 + 500) * 5), UInt64((9 + 500) * 5)])
        fit.message(local: 3, [FITBuilder.fitTime(start + 1), 151, 0xFFFF_FFFF, UInt64((9 + 500) * 5)])
        let w = try read(fit.file())
        XCTAssertEqual(w.count, 2)
        XCTAssertEqual(w.time[1], start + 1)
        XCTAssertEqual(w.heartRate[1], 151, "seven developer bytes skipped before the next message")
        XCTAssertEqual(w.elevation[0], 1234.4, accuracy: 0.01, "enhanced altitude wins over altitude")
        XCTAssertEqual(w.elevation[1], 9, accuracy: 0.01, "altitude when the enhanced one is invalid")
        XCTAssertTrue(w.latitude.allSatisfy(\.isNaN))
    }

    func testTimerStopsArePausesAndSessionsGiveSportTotalsAndActivities() throws {
        var fit = FITBuilder()
        let event = [FITBuilder.timestamp, FITBuilder.FieldDefinition(number: 0, size: 1, baseType: 0),
                     FITBuilder.FieldDefinition(number: 1, size: 1, baseType: 0)]
        fit.define(local: 0, global: 20, [FITBuilder.timestamp, FITBuilder.heartRate, FITBuilder.distance])
        fit.define(local: 1, global: 21, event)
        fit.message(local: 1, [FITBuilder.fitTime(start), 0, 0])               // timer start
        fit.message(local: 0, [FITBuilder.fitTime(start), 100, 0])
        fit.message(local: 0, [FITBuilder.fitTime(start + 10), 110, 2500])
        fit.message(local: 1, [FITBuilder.fitTime(start + 10), 0, 4])          // stop all
        fit.message(local: 1, [FITBuilder.fitTime(start + 100), 0, 0])         // start again
        fit.message(local: 0, [FITBuilder.fitTime(start + 100), 111, 2600])
        fit.message(local: 0, [FITBuilder.fitTime(start + 4000), 140, 900_000])
        let session = [FITBuilder.timestamp, FITBuilder.FieldDefinition(number: 2, size: 4, baseType: 0x86),
                       FITBuilder.FieldDefinition(number: 5, size: 1, baseType: 0), FITBuilder.FieldDefinition(number: 8, size: 4, baseType: 0x86),
                       FITBuilder.FieldDefinition(number: 9, size: 4, baseType: 0x86)]
        fit.define(local: 2, global: 18, session)
        fit.message(local: 2, [FITBuilder.fitTime(start + 101), FITBuilder.fitTime(start), 5, 100_000, 2600])   // swimming
        fit.message(local: 2, [FITBuilder.fitTime(start + 4000), FITBuilder.fitTime(start + 3000), 2, 900_000, 897_400]) // cycling
        let w = try read(fit.file())
        XCTAssertEqual(w.segment.map { Int($0) }, [0, 0, 1, 1], "the restart after a timer stop opens a new segment")
        XCTAssertEqual(w.kind, "swimming", "the first session's sport")
        XCTAssertEqual(w.activityStarts, [Workout.ActivityStart(index: 3, kind: "cycling")])
        XCTAssertEqual(w.declaredDistance ?? 0, 26 + 8974, accuracy: 0.01)
        XCTAssertEqual(w.declaredTimerSeconds ?? 0, 1000, accuracy: 0.01)
    }

    func testCutShortDamagedAndUndefinedAreRefusedWithTheByteOffset() {
        let good = sampleRun().file()
        let cut = problem(Array(good.prefix(60)))
        XCTAssertEqual(cut?.problem, .cutShort)
        XCTAssertEqual(cut?.byteOffset, 60, "where the bytes ran out")
        XCTAssertTrue(cut?.message(.english).hasPrefix("t.fit, byte 60: ends too early") ?? false, cut?.message(.english) ?? "")
        XCTAssertEqual(problem(Array(good.dropLast()))?.problem, .cutShort, "the file CRC is missing")

        var damaged = good
        damaged[45] ^= 0x01
        let bad = problem(damaged)
        XCTAssertEqual(bad?.problem, .badChecksum)
        XCTAssertEqual(bad?.byteOffset, good.count - 2, "the file CRC's offset")

        var header = good
        header[12] ^= 0xFF
        XCTAssertEqual(problem(header)?.byteOffset, 12)
        XCTAssertEqual(problem(header)?.problem, .badChecksum)

        var undefined = FITBuilder()
        undefined.message(local: 0, [])
        XCTAssertEqual(problem(undefined.file())?.byteOffset, 14)
        XCTAssertEqual(problem(undefined.file())?.problem, .malformed(.t("a data message of local type {type}, which no definition precedes", ["type": "0"])))

        var empty = FITBuilder()
        empty.define(local: 0, global: 20, [FITBuilder.timestamp])
        XCTAssertEqual(problem(empty.file())?.problem, .noPoints)
        XCTAssertEqual(problem(good + [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])?.problem, .malformed(.t("bytes after the end of the FIT data")))
    }

    func testChainedFilesAreReadOneAfterAnother() throws {
        let one = sampleRun().file()
        let w = try read(one + one)
        XCTAssertEqual(w.count, 10)
    }

    func testProgressAndCancellationWhileReadingAFile() throws {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, [FITBuilder.timestamp, FITBuilder.heartRate])
        for i in 0..<300_000 { fit.message(local: 0, [FITBuilder.fitTime(start + Double(i)), 120]) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).fit")
        try Data(fit.file()).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var shares: [Double] = []
        let w = try WorkoutReader.read(path: url.path) { shares.append($0); return true }
        XCTAssertEqual(w.count, 300_000)
        XCTAssertGreaterThan(shares.count, 1, "a 1.8 MB file is read in more than one chunk")
        XCTAssertEqual(shares, shares.sorted(), "progress only grows")
        XCTAssertThrowsError(try WorkoutReader.read(path: url.path) { $0 < 0.3 }) { XCTAssertTrue($0 is CancellationError, "\($0)") }
    }

    /// fit crash 680942a3: a compressed timestamp after a full one near 2^32 overflowed UInt32.
    func testCompressedTimestampAfterTheLastFullOneWraps() throws {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, [FITBuilder.timestamp, FITBuilder.heartRate])
        fit.message(local: 0, [0xFFFF_FFFE, 120])
        fit.define(local: 1, global: 20, [FITBuilder.heartRate])
        fit.message(local: 1, [121], compressedOffset: 1)
        let w = try read(fit.file())
        XCTAssertEqual(w.count, 2)
        XCTAssertEqual(w.time[1], FITWorkoutReader.epochOffset + 1, "wrapped past 2^32, not a trap")
    }
}
