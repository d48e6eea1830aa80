import Foundation
import XCTest
@testable import LockerKit

/// What Locker works out from unusual files: no GPS, several activities, broken clocks.
final class WorkoutClockAndActivitiesTests: XCTestCase {
    let t0 = 1_777_617_000.0  // 2026-05-01T06:30:00Z
    let now = 1_795_000_000.0  // 2026-11-18

    func read(_ text: String, name: String) throws -> Workout {
        try WorkoutReader.read(bytes: Array(text.utf8), name: name)
    }

    func iso(_ seconds: Double) -> String { Date(timeIntervalSince1970: seconds).formatted(.iso8601) }

    /// A GPX of `count` points `degrees` apart (0.0001° ≈ 11 m), with the time of point i from `time`.
    func gpx(_ count: Int, degrees: Double = 0.0001, time: (Int) -> Double) -> String {
        var text = "<gpx><trk><trkseg>"
        for i in 0..<count { text += "<trkpt lat=\"\(-38 + Double(i) * degrees)\" lon=\"145\"><time>\(iso(time(i)))</time></trkpt>" }
        return text + "</trkseg></trk></gpx>"
    }

    // MARK: Without GPS

    func testPoolSwimUsesTheDevicesDistance() throws {
        var tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Other\"><Lap><Track>"
        for i in stride(from: 0, through: 1800, by: 5) {
            tcx += "<Trackpoint><Time>\(iso(t0 + Double(i)))</Time><DistanceMeters>\(Double(i) * 1500 / 1800)</DistanceMeters><HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>"
        }
        tcx += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let analysis = WorkoutAnalysis(try read(tcx, name: "pool.tcx"), now: now)
        let s = analysis.summary
        XCTAssertEqual(s.distanceSource, .device)
        XCTAssertEqual(s.distanceMeters ?? 0, 1500, accuracy: 0.1)
        XCTAssertEqual(s.movingSeconds, 1800, "moving, not 0:00")
        XCTAssertEqual(s.paceSecondsPerKilometre ?? 0, 1200, accuracy: 0.5)
        XCTAssertFalse(analysis.hasRoute, "the route pane says there is none")
        XCTAssertEqual(analysis.cumulativeDistance.last ?? 0, 1500, accuracy: 0.1, "the chart cursor's distance")
        XCTAssertEqual(WorkoutSummaryText.distance(s, .english), "1.50 km (the device's own count)")
    }

    func testLapTotalsWhenPointsCarryNothing() throws {
        var tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Other\"><Lap><TotalTimeSeconds>1700</TotalTimeSeconds><DistanceMeters>1500</DistanceMeters><Track>"
        for i in stride(from: 0, through: 1800, by: 10) { tcx += "<Trackpoint><Time>\(iso(t0 + Double(i)))</Time></Trackpoint>" }
        tcx += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let s = WorkoutAnalysis(try read(tcx, name: "laps.tcx"), now: now).summary
        XCTAssertEqual(s.distanceSource, .declared)
        XCTAssertEqual(s.distanceMeters, 1500)
        XCTAssertEqual(s.movingSeconds, 1700, "the laps' timer time")
    }

    func testNoPositionsNoDistanceIsUnknownNotZero() throws {
        var tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Other\"><Lap><Track>"
        for i in 0..<20 { tcx += "<Trackpoint><Time>\(iso(t0 + Double(i)))</Time><HeartRateBpm><Value>100</Value></HeartRateBpm></Trackpoint>" }
        tcx += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let analysis = WorkoutAnalysis(try read(tcx, name: "hr.tcx"), now: now)
        XCTAssertEqual(analysis.summary.distanceSource, DistanceSource.none)
        XCTAssertNil(analysis.summary.distanceMeters)
        XCTAssertNil(analysis.summary.movingSeconds, "nothing tells moving from standing still")
        XCTAssertEqual(analysis.summary.elapsedSeconds, 19)
        let rows = WorkoutSummaryText.rows(analysis, .english)
        XCTAssertEqual(rows.first { $0.label == "Distance" }?.value, "unknown (no positions or distances in the file)")
    }

    // MARK: Several activities

    func testTracksWeeksApartAreSeparateActivitiesAndNothingIsNegative() throws {
        var text = "<gpx>"
        for day in [20.0, 2, 10] {   // written out of date order
            text += "<trk><trkseg>"
            for i in 0..<60 { text += "<trkpt lat=\"\(-38 + Double(i) * 0.0001)\" lon=\"145\"><time>\(iso(t0 + day * 86_400 + Double(i) * 30))</time></trkpt>" }
            text += "</trkseg></trk>"
        }
        let activities = WorkoutActivities.split(try read(text + "</gpx>", name: "hikes.gpx"))
        XCTAssertEqual(activities.count, 3)
        for activity in activities {
            let s = WorkoutAnalysis(activity, now: now).summary
            XCTAssertEqual(s.points, 60)
            XCTAssertEqual(s.elapsedSeconds, 59 * 30)
            XCTAssertNil(s.clockProblem)
        }
        XCTAssertEqual(WorkoutAnalysis(activities[1], now: now).summary.start, t0 + 2 * 86_400)
        // Unsplit, the extent is still never negative.
        XCTAssertGreaterThan(WorkoutAnalysis(try read(text + "</gpx>", name: "hikes.gpx"), now: now).summary.elapsedSeconds ?? -1, 0)
    }

    func testFITSessionsStartActivitiesWithTheirSport() {
        var w = Workout(format: .fit)
        for i in 0..<10 { w.append(latitude: .nan, longitude: .nan, time: t0 + Double(i), heartRate: 120, elevation: .nan, segment: 0, deviceDistance: Float(i * 3)) }
        w.kind = "swimming"
        w.activityStarts = [Workout.ActivityStart(index: 4, kind: "cycling")]
        let parts = WorkoutActivities.split(w)
        XCTAssertEqual(parts.map(\.count), [4, 6])
        XCTAssertEqual(parts.map(\.kind), ["swimming", "cycling"])
        XCTAssertEqual(SportText.name(parts[1].kind, .english), "Cycling")
    }

    // MARK: Broken clocks

    func testEveryPointAtTheSameTime() throws {
        let analysis = WorkoutAnalysis(try read(gpx(100) { _ in self.t0 }, name: "same.gpx"), now: now)
        let s = analysis.summary
        XCTAssertEqual(s.clockProblem, .sameTime)
        XCTAssertNil(s.elapsedSeconds)
        XCTAssertNil(s.movingSeconds)
        XCTAssertNil(s.speedKilometresPerHour, "never 28 million km/h")
        XCTAssertNil(s.paceSecondsPerKilometre)
        XCTAssertTrue(s.zonesCountPoints)
        XCTAssertEqual(WorkoutSummaryText.rows(analysis, .english).first { $0.label == "Moving" }?.value,
                       "unknown (every point carries the same time)")
    }

    func testTimesRunningBackwards() throws {
        let s = WorkoutAnalysis(try read(gpx(100) { self.t0 + Double(100 - $0) }, name: "back.gpx"), now: now).summary
        XCTAssertEqual(s.clockProblem, .runsBackwards)
        XCTAssertNil(s.movingSeconds)
        XCTAssertNil(s.elapsedSeconds)
        // A few steps back (a duplicated second) are only skipped.
        let few = WorkoutAnalysis(try read(gpx(100) { self.t0 + Double($0 == 50 ? 48 : $0) }, name: "few.gpx"), now: now).summary
        XCTAssertNil(few.clockProblem)
        XCTAssertEqual(few.elapsedSeconds, 99)
    }

    func testImpossibleSpeedMakesMovingPaceAndSpeedUnknown() throws {
        // 1.1 km per second: 4,000 km/h.
        let s = WorkoutAnalysis(try read(gpx(100, degrees: 0.01) { self.t0 + Double($0) }, name: "fast.gpx"), now: now).summary
        XCTAssertEqual(s.clockProblem, .impossibleSpeed)
        XCTAssertNil(s.movingSeconds)
        XCTAssertNil(s.speedKilometresPerHour)
        XCTAssertNotNil(s.elapsedSeconds)
    }

    func testDatesDecadesOffAndALoneWrongTime() throws {
        let unset = WorkoutAnalysis(try read(gpx(100) { Double($0) }, name: "1970.gpx"), now: now).summary
        XCTAssertEqual(unset.clockProblem, .dateOutOfRange)
        XCTAssertNil(unset.start, "a 1970 date is unknown, not shown")
        XCTAssertEqual(unset.elapsedSeconds, 99, "durations still count")
        let future = WorkoutAnalysis(try read(gpx(10) { self.now + 30 * 86_400 + Double($0) }, name: "f.gpx"), now: now).summary
        XCTAssertEqual(future.clockProblem, .dateOutOfRange)

        let spike = WorkoutActivities.split(try read(gpx(100) { $0 == 50 ? self.t0 - 20 * 365 * 86_400 : self.t0 + Double($0) }, name: "s.gpx"))
        XCTAssertEqual(spike.count, 1, "one wrong time does not split the workout")
        XCTAssertEqual(spike[0].ignoredTimes, 1)
        let s = WorkoutAnalysis(spike[0], now: now).summary
        XCTAssertEqual(s.elapsedSeconds, 99)
        XCTAssertNil(s.clockProblem)
        let last = WorkoutActivities.split(try read(gpx(100) { $0 == 99 ? self.t0 + 40 * 365 * 86_400 : self.t0 + Double($0) }, name: "l.gpx"))
        XCTAssertEqual(last.count, 1)
        XCTAssertEqual(last[0].ignoredTimes, 1)
    }

    func testTheOriginalAppsTriplesStillLoadWithoutTime() throws {
        let w = try read("[[-38.03, 145.34, 120], [-38.031, 145.34, 125], [-38.032, 145.341, 130]]", name: "app.json")
        let s = WorkoutAnalysis(w, now: now).summary
        XCTAssertNil(s.elapsedSeconds)
        XCTAssertNil(s.clockProblem)
        XCTAssertEqual(s.distanceSource, .route)
        XCTAssertEqual(WorkoutActivities.split(w).count, 1)
    }
}

/// The shared way slow work runs off the UI thread.
final class BackgroundWorkTests: XCTestCase {
    func testResultsArriveOnTheDeliveringThreadAfterAWake() {
        let woken = expectation(description: "wake")
        woken.assertForOverFulfill = false
        let work = BackgroundWork(wake: { woken.fulfill() })
        var result: Int?
        var deliveredOnMain = false
        work.start({ _ in 6 * 7 }, completion: { value in
            result = try? value.get()
            deliveredOnMain = Thread.isMainThread
        })
        XCTAssertNil(result, "nothing runs on the caller's thread before delivery")
        wait(for: [woken], timeout: 5)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(result, 42)
        XCTAssertTrue(deliveredOnMain)
        XCTAssertFalse(work.isBusy)
    }

    func testCancelledWorkNeverDeliversAndSeesTheCancellation() {
        let work = BackgroundWork()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let sawCancel = DispatchSemaphore(value: 0)
        var delivered = false
        let job = work.start({ job -> Int in
            started.signal()
            release.wait()
            if job.isCancelled { sawCancel.signal() }
            return 1
        }, completion: { _ in delivered = true })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
        job.cancel()
        release.signal()
        XCTAssertEqual(sawCancel.wait(timeout: .now() + 5), .success)
        XCTAssertTrue(work.waitUntilIdle())
        Thread.sleep(forTimeInterval: 0.05)
        work.deliver()
        XCTAssertFalse(delivered)
    }

    func testErrorsAndProgressReachTheUIThread() {
        struct Broken: Error {}
        let work = BackgroundWork()
        var progress: [Double] = []
        var failed = false
        work.start({ job -> Int in
            job.report(0.5)
            Thread.sleep(forTimeInterval: 0.06)
            job.report(1)
            throw Broken()
        }, progress: { progress.append($0) }, completion: { result in
            if case .failure(is Broken) = result { failed = true }
        })
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(failed)
        XCTAssertFalse(progress.isEmpty)
        XCTAssertEqual(progress, progress.sorted())
    }
}

/// Figures a rider can believe (issue 27): the device's own distance first, and positions no one
/// could have recorded left out of the distance and the map.
final class WorkoutDistanceTrustTests: XCTestCase {
    /// A GPX track northwards along 145° E at 5 m/s, one point a second, with `extra` points.
    func gpx(points: Int, start: (Double, Double)? = nil, spikeAt spike: Int? = nil, zerosFirst zeros: Int = 0) throws -> String {
        var rows: [String] = []
        for i in 0..<zeros {
            rows.append("<trkpt lat=\"0\" lon=\"0\"><time>2026-03-01T08:00:\(String(format: "%02d", i))Z</time></trkpt>")
        }
        for i in 0..<points {
            var lat = -38.0 + Double(i) * 5 / 111_195, lon = 145.0
            if i == spike { lat += 0.5; lon += 0.5 }
            let t = zeros + i
            rows.append("<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>2026-03-01T08:\(String(format: "%02d", t / 60)):\(String(format: "%02d", t % 60))Z</time></trkpt>")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString).gpx")
        try "<gpx><trk><trkseg>\(rows.joined())</trkseg></trk></gpx>".write(to: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        return file.path
    }

    func testPositionsAtZeroZeroAreLeftOut() throws {
        let s = WorkoutAnalysis(try WorkoutReader.read(path: try gpx(points: 600, zerosFirst: 3))).summary
        XCTAssertEqual(s.distanceMeters ?? 0, 599 * 5, accuracy: 10, "not 4,200 km from 0°, 0°")
        XCTAssertEqual(s.droppedPositions, 3)
        XCTAssertEqual(s.distanceSource, .route)
        XCTAssertNil(s.clockProblem, "the moving time is believable again")
        XCTAssertEqual(WorkoutSummaryText.distance(s, .english), "3.00 km (from the positions; 3 impossible positions left out)")
    }

    func testASpikeIsLeftOutOfTheDistanceAndTheMap() throws {
        let analysis = WorkoutAnalysis(try WorkoutReader.read(path: try gpx(points: 600, spikeAt: 300)))
        XCTAssertEqual(analysis.summary.distanceMeters ?? 0, 599 * 5, accuracy: 15)
        XCTAssertEqual(analysis.summary.droppedPositions, 1)
        XCTAssertFalse(analysis.workout.hasPosition(300), "the map does not draw it either")
        XCTAssertTrue(analysis.hasRoute)
    }

    func testAWrongFirstPointIsLeftOut() throws {
        // The first fix lands 60 km away (not at 0°, 0°), the rest is a good track.
        var text = try String(contentsOfFile: try gpx(points: 300), encoding: .utf8)
        text = text.replacingOccurrences(of: "<trkpt lat=\"-38.0\" lon=\"145.0\">", with: "<trkpt lat=\"-37.5\" lon=\"145.3\">")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trust-first-\(UUID().uuidString).gpx")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let s = WorkoutAnalysis(try WorkoutReader.read(path: file.path)).summary
        XCTAssertEqual(s.droppedPositions, 1)
        XCTAssertEqual(s.distanceMeters ?? 0, 298 * 5, accuracy: 10)
    }

    func testTheDevicesOwnDistanceWinsOverThePositions() throws {
        // Positions 3 km along, the device's wheel counted 3.1 km, its lap says 3.12 km.
        var points = ""
        for i in 0..<600 {
            let lat = -38.0 + Double(i) * 5 / 111_195
            points += "<Trackpoint><Time>2026-03-01T08:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z</Time>"
                + "<Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>145</LongitudeDegrees></Position>"
                + "<DistanceMeters>\(Double(i) * 3100 / 599)</DistanceMeters></Trackpoint>"
        }
        func tcx(lap: String) throws -> WorkoutSummary {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString).tcx")
            try """
                <TrainingCenterDatabase><Activities><Activity Sport="Biking"><Id>2026-03-01T08:00:00Z</Id>
                <Lap StartTime="2026-03-01T08:00:00Z">\(lap)<Track>\(points)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
                """.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            return WorkoutAnalysis(try WorkoutReader.read(path: file.path)).summary
        }
        let counted = try tcx(lap: "")
        XCTAssertEqual(counted.distanceSource, .device)
        XCTAssertEqual(counted.distanceMeters ?? 0, 3100, accuracy: 0.5)
        let totalled = try tcx(lap: "<TotalTimeSeconds>599</TotalTimeSeconds><DistanceMeters>3120</DistanceMeters>")
        XCTAssertEqual(totalled.distanceSource, .declared)
        XCTAssertEqual(totalled.distanceMeters ?? 0, 3120, accuracy: 0.01)
        XCTAssertEqual(WorkoutSummaryText.distance(totalled, .english), "3.12 km (the device's own total)")
        XCTAssertEqual(totalled.movingSeconds ?? 0, 599, accuracy: 1, "movement still measured point by point")
    }
}
